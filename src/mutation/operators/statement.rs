//! Statements: deleted (a compound one keeping one of its blocks), swapped
//! for a statement of the crate, or one of the crate inserted (after the
//! statement, before a jump or a block's value, around it for a compound
//! statement's header, first in a block); and where a statement goes
//! ([`Place`]), which the adapted operator shares. The seed's operators,
//! with its rules for compound statements.

use std::collections::BTreeSet;

use crate::code::source::Edit;
use crate::code::words;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Ingredient, Site, SiteKind, StatementSite};

use super::{Context, MutationOperator, closest};

/// Delete a statement; of a compound statement, keep one of its blocks.
pub(super) struct Delete;

impl MutationOperator for Delete {
    fn operator(&self) -> Operator {
        Operator::Delete
    }

    fn name(&self) -> &'static str {
        "delete"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Statement(_))
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::Statement(statement) if !binds_new(site, statement) && !statement.valued => {
                delete(statement, cx.text)
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        3
    }
}

/// Replace a statement by one from the crate (a compound one as its header
/// with an empty body).
pub(super) struct Swap;

impl MutationOperator for Swap {
    fn operator(&self) -> Operator {
        Operator::Swap
    }

    fn name(&self) -> &'static str {
        "swap"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Statement(_))
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Statement(statement) = &site.kind else {
            return Vec::new();
        };
        let own = &cx.text[statement.range.clone()];
        closest(&cx.space.statements, site, cx.space)
            .filter(|i| i.fits(&site.bound) && i.text != own && can_replace(i, site, statement))
            .map(|i| swap_in(statement, i, &i.text))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        4
    }

    fn writes_statements(&self) -> bool {
        true
    }
}

/// Insert a statement from the crate after (or before a jump or a tail,
/// around for a header), or first in a block.
pub(super) struct Insert;

impl MutationOperator for Insert {
    fn operator(&self) -> Operator {
        Operator::Insert
    }

    fn name(&self) -> &'static str {
        "insert"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Statement(_) | SiteKind::BlockStart { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::Statement(statement) => {
                let mut bound = site.bound.clone();
                bound.extend(statement.binds.iter().cloned());
                let mutations = mutations_of_unmutated(site, cx)
                    .map(|text| insert(statement, (false, true), &text, cx.text));
                let around = words(&cx.text[statement.range.clone()]).collect();
                let found = sharing_first(closest(&cx.space.statements, site, cx.space), &around)
                    .filter(|i| i.fits(&bound) && !i.inert)
                    .filter(|i| !(i.header && (binds_new(site, statement) || statement.valued)))
                    .filter(|i| !(i.header && loops_for_nothing(&i.text, &around)))
                    .map(|i| insert(statement, (i.header, i.closed), &i.text, cx.text));
                mutations.chain(found).collect()
            }
            SiteKind::BlockStart {
                at,
                indent,
                names,
                empty,
                ..
            } => {
                // First in a block that has statements, only what needs the
                // header's names: anything else can go before the block.
                let place = Place::BlockStart { at: *at, indent };
                closest(&cx.space.statements, site, cx.space)
                    .filter(|i| i.fits(&site.bound))
                    .filter(|i| *empty || names.iter().any(|n| i.free.contains(n)))
                    .flat_map(|i| place.edits(site, i, &i.text, cx))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        4
    }

    fn writes_statements(&self) -> bool {
        true
    }
}

/// `ingredients` (nearest first) with those that use a local variable the
/// statement at the site uses too before the rest: a statement missing
/// next to `x.step();` more likely works on `x` (`x.skip_spaces();`) than
/// on whatever the nearest lines hold.
fn sharing_first<'i>(
    ingredients: impl Iterator<Item = &'i Ingredient>,
    around: &BTreeSet<&str>,
) -> impl Iterator<Item = &'i Ingredient> {
    let (sharing, rest): (Vec<_>, Vec<_>) = ingredients.partition(|i| {
        i.free
            .iter()
            .any(|name| name != "self" && around.contains(name.as_str()))
    });
    sharing.into_iter().chain(rest)
}

/// Whether the statement is a `let` that binds a name not bound before it
/// (code after it needs the binding: deleting it or wrapping it in a block
/// does not compile).
fn binds_new(site: &Site, statement: &StatementSite) -> bool {
    statement
        .binds
        .iter()
        .any(|name| !site.bound.contains(name))
}

/// Whether `ingredient` may take the statement's place: a `let` that binds a
/// new name only by a `let` binding it too, a block's value only by a
/// statement that can have one.
pub(super) fn can_replace(ingredient: &Ingredient, site: &Site, statement: &StatementSite) -> bool {
    let keeps_bindings = !binds_new(site, statement)
        || statement
            .binds
            .iter()
            .all(|name| ingredient.binds.contains(name));
    let value_for_value = if statement.tail {
        !(statement.valued && ingredient.unit)
    } else {
        !ingredient.inert
    };
    keeps_bindings && value_for_value
}

/// Deletes a statement: a simple one with its line, a compound one by its
/// header, keeping one of its blocks; an `if` with no `else`, a loop or a
/// block also whole (code that should not run at all), unless it is its
/// block's value.
fn delete(statement: &StatementSite, text: &str) -> Vec<Edit> {
    let whole = || {
        let range = statement.whole_lines.clone();
        Edit::replace(range.unwrap_or(statement.range.clone()), "")
    };
    if statement.branches.is_empty() {
        return vec![whole()];
    }
    let mut out = Vec::new();
    // A `for` loop's body needs the loop's variable.
    if !text[statement.range.clone()].starts_with("for ") {
        out.extend(
            statement
                .branches
                .iter()
                .map(|branch| Edit::replace(statement.range.clone(), &text[branch.clone()])),
        );
    }
    if statement.branches.len() == 1 && !statement.tail {
        out.push(whole());
    }
    out
}

/// `ingredient` (as `text`, perhaps renamed) in place of the statement (a
/// header with an empty body).
pub(super) fn swap_in(statement: &StatementSite, ingredient: &Ingredient, text: &str) -> Edit {
    let replacement = if ingredient.header {
        format!("{text} {{}}")
    } else {
        as_statement(text, ingredient.closed, statement.tail)
    };
    Edit::replace(statement.range.clone(), replacement)
}

/// Whether `header` is a `for` loop's whose pattern binds none of the
/// names `around` (a statement's words): around that statement, the loop
/// repeats it unchanged, or skips it when there is nothing to loop over,
/// a condition in disguise (shell-escape's `if !s.contains(..)` wrapped in
/// `for ch in s.chars()`, where the fix was `!s.is_empty() &&`).
pub(super) fn loops_for_nothing(header: &str, around: &BTreeSet<&str>) -> bool {
    header
        .strip_prefix("for ")
        .and_then(|loop_| loop_.split_once(" in "))
        .is_some_and(|(pattern, _)| !words(pattern).any(|name| around.contains(name)))
}

/// An ingredient (as `ingredient_text`; `header`: a compound statement's
/// header, `closed`: ends in `;` or a block) inserted after the statement,
/// or before a jump or a block's value, or, a header, around it.
pub(super) fn insert(
    statement: &StatementSite,
    (header, closed): (bool, bool),
    ingredient_text: &str,
    text: &str,
) -> Edit {
    let target = &text[statement.range.clone()];
    if header {
        Edit::replace(
            statement.range.clone(),
            format!("{ingredient_text} {{ {target} }}"),
        )
    } else if statement.jumps || statement.tail {
        Edit::insert(
            statement.range.start,
            format!(
                "{}\n{}",
                as_statement(ingredient_text, closed, false),
                statement.indent
            ),
        )
    } else {
        Edit::insert(
            statement.range.end,
            format!(
                "\n{}{}",
                statement.indent,
                as_statement(ingredient_text, closed, false)
            ),
        )
    }
}

/// An ingredient's text as a statement in a position that is (`tail`) or is
/// not the value of its block.
pub(super) fn as_statement(text: &str, closed: bool, tail: bool) -> String {
    match (tail, closed) {
        (true, true) if text.ends_with(';') && !text.starts_with("let ") => {
            text.trim_end_matches(';').to_string()
        }
        (false, false) => format!("{text};"),
        _ => text.to_string(),
    }
}

/// The statements that mutate a variable in scope that the compiler says
/// is declared `mut` and never mutated, by its type: a collection sorted,
/// deduplicated, reversed or cleared, a string cleared (the one-call
/// statement a collection most often misses).
fn mutations_of_unmutated<'a>(
    site: &'a Site,
    cx: &'a Context,
) -> impl Iterator<Item = String> + 'a {
    let here = site.location();
    cx.types
        .unused_at(here, &site.function, &site.bound)
        .filter(|u| !u.never_used)
        .flat_map(move |u| {
            let ty = cx.types.variable(here, &u.name).unwrap_or("");
            let owned = ty.trim_start_matches("&mut ");
            let calls: &[&str] = if owned.starts_with("Vec<") || owned.starts_with('[') {
                &["sort()", "dedup()", "reverse()", "clear()"]
            } else if owned == "String" {
                &["clear()"]
            } else {
                &[]
            };
            calls.iter().map(|call| format!("{}.{call};", u.name))
        })
}

/// Where an adapted ingredient goes: inserted at or swapped in for a
/// statement, or inserted first in a block.
#[derive(Clone, Copy)]
pub(super) enum Place<'s> {
    Statement(&'s StatementSite),
    BlockStart { at: usize, indent: &'s str },
}

impl Place<'_> {
    /// The edits that put `text` (`ingredient`, adapted) here.
    pub(super) fn edits(
        self,
        site: &Site,
        ingredient: &Ingredient,
        text: &str,
        cx: &Context,
    ) -> Vec<Edit> {
        let mut out = Vec::new();
        match self {
            Place::Statement(statement) => {
                if !ingredient.inert {
                    let shape = (ingredient.header, ingredient.closed);
                    out.push(insert(statement, shape, text, cx.text));
                }
                if can_replace(ingredient, site, statement) {
                    out.push(swap_in(statement, ingredient, text));
                }
            }
            Place::BlockStart { at, indent } => {
                // A statement, not a header: it goes on a line of its own.
                if !ingredient.inert && !ingredient.header {
                    let statement = as_statement(text, ingredient.closed, false);
                    out.push(Edit::insert(at, format!("\n{indent}{statement}")));
                }
            }
        }
        out
    }
}
