//! Mutation operators: each turns a site of the mutation space into edits.
//!
//! `edits` lists every edit an operator can make at a site, deterministically
//! and the likeliest fix first (the sweep tries them in that order), at most
//! [`MAX_EDITS`]; `apply` draws one of them (the genetic search). Operators
//! that need ingredients take them from the crate, and use the variables'
//! types where the type oracle knows them (`Types`), so that what they
//! offer compiles.

use std::ops::Range;

use quote::ToTokens;
use rand::Rng;
use rand::prelude::*;

use crate::code::source::{Edit, FileId};
use crate::mutation::patch::Operator;
use crate::mutation::sites::{
    Ingredient, Literal, MutationSpace, Site, SiteKind, StatementSite, method_siblings,
};
use crate::mutation::types::{Types, compatible, has_is_empty, is_integer, is_option};

/// Edits one operator makes at one site, at most.
pub const MAX_EDITS: usize = 48;

/// What operators make edits from: the mutation space, the text of the
/// site's file, and the types known.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub space: &'a MutationSpace,
    pub text: &'a str,
    pub types: &'a Types,
}

/// Whether the operator applies to a site of this kind.
pub(crate) fn applies(operator: Operator, kind: &SiteKind) -> bool {
    use Operator as O;
    use SiteKind as K;
    matches!(
        (operator, kind),
        (
            O::Delete | O::Swap | O::Insert | O::Guard | O::Adapted,
            K::Statement(_)
        ) | (O::Insert | O::Adapted, K::BlockStart { .. })
            | (O::Condition | O::Synthesis, K::Condition { .. })
            | (O::Binary, K::BinaryOperator { .. })
            | (O::Value, K::Literal { .. })
            | (
                O::Identifier,
                K::Variable { .. } | K::Field { .. } | K::Item { .. }
            )
            | (O::Method, K::Method { .. })
            | (O::Range, K::RangeLimits { .. })
            | (
                O::Arguments,
                K::Call { .. } | K::BinaryOperator { .. } | K::Method { .. }
            )
            | (O::Offset, K::Operand { .. } | K::BinaryOperator { .. })
            | (
                O::Idiom,
                K::BinaryOperator { .. } | K::Unwrap { .. } | K::Iterable { .. }
            )
    )
}

/// Per operator, the others of its class, the likeliest slip first: a
/// comparison's negation or its boundary (`!=` for `==`, `<=` for `<`),
/// then its mirror image; arithmetic's inverse operation. (When several
/// patches pass every test and change the passing tests' behaviour alike,
/// the first made wins: `!= 0` for `== 0`, not `> 0`.)
const REPLACEMENTS: &[(&str, &[&str])] = &[
    ("==", &["!=", "<=", ">=", "<", ">"]),
    ("!=", &["==", "<", ">", "<=", ">="]),
    ("<", &["<=", ">", "!=", ">=", "=="]),
    ("<=", &["<", ">=", "==", ">", "!="]),
    (">", &[">=", "<", "!=", "<=", "=="]),
    (">=", &[">", "<=", "==", "<", "!="]),
    ("+", &["-", "*", "/", "%"]),
    ("-", &["+", "*", "/", "%"]),
    ("*", &["/", "+", "-", "%"]),
    ("/", &["*", "%", "-", "+"]),
    ("%", &["/", "*", "-", "+"]),
    ("&&", &["||"]),
    ("||", &["&&"]),
    ("+=", &["-=", "*=", "/=", "%="]),
    ("-=", &["+=", "*=", "/=", "%="]),
    ("*=", &["/=", "+=", "-=", "%="]),
    ("/=", &["*=", "%=", "-=", "+="]),
    ("%=", &["/=", "*=", "-=", "+="]),
    ("&", &["|", "^"]),
    ("|", &["&", "^"]),
    ("^", &["|", "&"]),
    ("<<", &[">>"]),
    (">>", &["<<"]),
    ("&=", &["|=", "^="]),
    ("|=", &["&=", "^="]),
    ("^=", &["|=", "&="]),
    ("<<=", &[">>="]),
    (">>=", &["<<="]),
];

/// Operators whose operands, swapped, mean something else (comparisons
/// are turned around by the operator mutation instead).
const NON_COMMUTATIVE: &[&str] = &["-", "/", "%", "<<", ">>"];

/// Methods of two values of one type whose receiver and argument, swapped,
/// mean something else (`a.cmp(&b)`, the order of a sort).
const NON_COMMUTATIVE_METHODS: &[&str] = &[
    "cmp",
    "partial_cmp",
    "total_cmp",
    "lt",
    "le",
    "gt",
    "ge",
    "checked_sub",
    "saturating_sub",
    "wrapping_sub",
    "checked_div",
    "checked_rem",
    "div_euclid",
    "rem_euclid",
    "atan2",
    "copysign",
];

/// A random edit of `operator` at `site`.
pub fn apply(operator: Operator, site: &Site, cx: &Context, rng: &mut impl Rng) -> Option<Edit> {
    edits(operator, site, cx).choose(rng).cloned()
}

/// Every edit `operator` can make at `site`, the likeliest fix first, at
/// most [`MAX_EDITS`].
pub fn edits(operator: Operator, site: &Site, cx: &Context) -> Vec<Edit> {
    let mut out = match (&site.kind, operator) {
        (SiteKind::Statement(statement), Operator::Delete)
            if !binds_new(site, statement) && !statement.valued =>
        {
            delete(statement, cx.text)
        }
        (SiteKind::Statement(statement), Operator::Swap) => {
            let own = &cx.text[statement.range.clone()];
            closest(&cx.space.statements, site)
                .filter(|i| i.fits(&site.bound) && i.text != own && can_replace(i, site, statement))
                .map(|i| swap_in(statement, i, &i.text))
                .collect()
        }
        (SiteKind::Statement(statement), Operator::Insert) => {
            let mut bound = site.bound.clone();
            bound.extend(statement.binds.iter().cloned());
            let mutations = mutations_of_unmutated(site, cx)
                .map(|text| insert(statement, (false, true), &text, cx.text));
            let found = closest(&cx.space.statements, site)
                .filter(|i| i.fits(&bound) && !i.inert)
                .filter(|i| !(i.header && (binds_new(site, statement) || statement.valued)))
                .map(|i| insert(statement, (i.header, i.closed), &i.text, cx.text));
            mutations.chain(found).collect()
        }
        (SiteKind::Statement(statement), Operator::Adapted) => {
            adapted(site, Place::Statement(statement), false, cx)
        }
        (SiteKind::BlockStart { at, indent, .. }, Operator::Adapted) => {
            let place = Place::BlockStart { at: *at, indent };
            adapted(site, place, true, cx)
        }
        (
            SiteKind::BlockStart {
                at,
                indent,
                names,
                empty,
            },
            Operator::Insert,
        ) => {
            // First in a block that has statements, only what needs the
            // header's names: anything else can go before the block.
            let place = Place::BlockStart { at: *at, indent };
            closest(&cx.space.statements, site)
                .filter(|i| i.fits(&site.bound))
                .filter(|i| *empty || names.iter().any(|n| i.free.contains(n)))
                .flat_map(|i| place.edits(site, i, &i.text, cx))
                .collect()
        }
        (SiteKind::Statement(statement), Operator::Guard) => guards(site, statement, cx),
        (
            SiteKind::Condition {
                range,
                atomic,
                negation,
            },
            Operator::Condition,
        ) => {
            let own = &cx.text[range.clone()];
            let mut out = vec![Edit::replace(range.clone(), negation.clone())];
            for other in
                closest(&cx.space.conditions, site).filter(|i| i.fits(&site.bound) && i.text != own)
            {
                out.push(Edit::replace(range.clone(), other.text.clone()));
                out.push(Edit::replace(
                    range.clone(),
                    format!(
                        "{} && {}",
                        conjunct(&other.text, other.closed),
                        conjunct(own, *atomic)
                    ),
                ));
                out.push(Edit::replace(
                    range.clone(),
                    format!("{} || {own}", other.text),
                ));
            }
            out
        }
        (SiteKind::Condition { range, atomic, .. }, Operator::Synthesis) => {
            let own = &cx.text[range.clone()];
            let made = synthesized(site, cx);
            let conjuncts = made
                .iter()
                .map(|c| format!("{} && {c}", conjunct(own, *atomic)));
            let disjuncts = made.iter().map(|c| format!("{own} || {c}"));
            conjuncts
                .chain(disjuncts)
                .chain(made.iter().cloned())
                .map(|text| Edit::replace(range.clone(), text))
                .collect()
        }
        (
            SiteKind::BinaryOperator {
                range, operator, ..
            },
            Operator::Binary,
        ) => REPLACEMENTS
            .iter()
            .filter(|(own, _)| own == operator)
            .flat_map(|(_, others)| others.iter())
            .map(|o| Edit::replace(range.clone(), *o))
            .collect(),
        (
            SiteKind::BinaryOperator {
                operator,
                left,
                right,
                ..
            },
            Operator::Arguments,
        ) if NON_COMMUTATIVE.contains(&operator.as_str()) => {
            vec![swapped(cx.text, left, right)]
        }
        (
            SiteKind::Method {
                name,
                operands: Some((receiver, argument, atomic)),
                ..
            },
            Operator::Arguments,
        ) if NON_COMMUTATIVE_METHODS.contains(&name.as_str()) => {
            // `b.cmp(&a)` for `a.cmp(&b)`: the `&` stays with the argument.
            let written = &cx.text[argument.clone()];
            let (borrow, value) = match written.strip_prefix('&') {
                Some(value) if !value.starts_with("mut ") => ("&", value.trim_start()),
                _ => ("", written),
            };
            vec![Edit::replace(
                receiver.start..argument.end,
                format!(
                    "{}{}{borrow}{}",
                    parenthesized(value, *atomic),
                    &cx.text[receiver.end..argument.start],
                    &cx.text[receiver.clone()]
                ),
            )]
        }
        (SiteKind::Call { arguments }, Operator::Arguments) => {
            let mut out = Vec::new();
            for (i, first) in arguments.iter().enumerate() {
                for second in &arguments[i + 1..] {
                    out.push(swapped(cx.text, first, second));
                }
            }
            out
        }
        (
            SiteKind::BinaryOperator {
                operator,
                left,
                right,
                expression,
                ..
            },
            Operator::Idiom,
        ) if operator == "-"
            && cx
                .types
                .expression(site.file, expression)
                .is_none_or(is_integer) =>
        {
            let left_text = &cx.text[left.clone()];
            let receiver = if left_text.contains(' ') {
                format!("({left_text})")
            } else {
                left_text.to_string()
            };
            let right = &cx.text[right.clone()];
            vec![
                Edit::replace(
                    expression.clone(),
                    format!("{receiver}.saturating_sub({right})"),
                ),
                Edit::replace(
                    expression.clone(),
                    format!("{receiver}.checked_sub({right}).unwrap_or(0)"),
                ),
            ]
        }
        (SiteKind::Unwrap { call, .. }, Operator::Idiom) => {
            vec![Edit::replace(call.clone(), "unwrap_or_default()")]
        }
        (SiteKind::Iterable { range, atomic }, Operator::Idiom) => {
            let own = &cx.text[range.clone()];
            // A collection (a variable, a field) is iterated by `iter()`.
            let path = own
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
            let iterator =
                if path && !own.contains("..") && !own.starts_with(|c: char| c.is_ascii_digit()) {
                    format!("{own}.iter()")
                } else {
                    parenthesized(own, *atomic)
                };
            vec![Edit::replace(range.clone(), format!("{iterator}.rev()"))]
        }
        (
            SiteKind::Operand {
                range,
                atomic,
                integer,
            },
            Operator::Offset,
        ) => {
            let known = cx.types.expression(site.file, range);
            if known.map_or(*integer, is_integer) {
                let own = parenthesized(&cx.text[range.clone()], *atomic);
                vec![
                    Edit::replace(range.clone(), format!("{own} - 1")),
                    Edit::replace(range.clone(), format!("{own} + 1")),
                ]
            } else {
                Vec::new()
            }
        }
        (
            SiteKind::BinaryOperator {
                operator,
                left,
                right,
                expression,
                ..
            },
            Operator::Offset,
        ) if (operator == "+" || operator == "-") && cx.text[right.clone()].trim() == "1" => {
            // `e - 1` back to `e`, and `e + 1`.
            vec![Edit::replace(expression.clone(), &cx.text[left.clone()])]
        }
        (
            SiteKind::Literal {
                range,
                literal,
                data,
            },
            Operator::Value,
        ) => {
            // Data is built one edit at a time: only the neighbours, and
            // the numerals one slip of a key away.
            let pool: &[Literal] = if *data { &[] } else { &cx.space.literals };
            let mut texts = literal.alternatives(pool);
            if *data {
                for slip in literal.slips(&cx.text[range.clone()]) {
                    if !texts.contains(&slip) {
                        texts.push(slip);
                    }
                }
            }
            texts
                .into_iter()
                .map(|text| Edit::replace(range.clone(), text))
                .collect()
        }
        (
            SiteKind::Field {
                range,
                name,
                expression,
            },
            Operator::Identifier,
        ) => {
            // A sibling field of the same type; or the variable in scope
            // with the field's name (`self.year` for the `year` computed
            // just before).
            let siblings = cx.space.fields.get(name).into_iter().flatten();
            let mut edits: Vec<Edit> = siblings
                .map(|sibling| Edit::replace(range.clone(), sibling.as_str()))
                .collect();
            if name != "self" && site.bound.contains(name) {
                edits.push(Edit::replace(expression.clone(), name.as_str()));
            }
            edits
        }
        (SiteKind::Item { range, name }, Operator::Identifier) => cx
            .space
            .sibling_items(site.file, name)
            .map(|other| Edit::replace(range.clone(), other))
            .collect(),
        (SiteKind::Variable { range, name }, Operator::Identifier) => {
            let location = site.location();
            let own = cx.types.variable(location, name);
            site.bound
                .iter()
                .filter(|n| *n != name && *n != "self")
                .filter(|n| match (own, cx.types.variable(location, n)) {
                    (Some(a), Some(b)) => compatible(a, b),
                    _ => true,
                })
                .map(|n| Edit::replace(range.clone(), n.as_str()))
                .chain(
                    // And `self`'s field of that name, the other way round.
                    (site.bound.iter().any(|n| n == "self") && cx.space.fields.contains_key(name))
                        .then(|| Edit::replace(range.clone(), format!("self.{name}"))),
                )
                .collect()
        }
        (
            SiteKind::Method {
                range,
                name,
                arguments,
                receiver,
                ..
            },
            Operator::Method,
        ) => {
            // Siblings first: they are the likelier mistake. A function
            // called by path (`cmp::max`) has only its siblings.
            let siblings = method_siblings(name).map(str::to_string);
            let from_crate = cx
                .space
                .methods
                .get(arguments)
                .filter(|_| *receiver)
                .into_iter()
                .flatten()
                .cloned();
            let mut seen = std::collections::BTreeSet::from([name.clone()]);
            siblings
                .chain(from_crate)
                .filter(|m| seen.insert(m.clone()))
                .map(|m| Edit::replace(range.clone(), m))
                .collect()
        }
        (
            SiteKind::RangeLimits {
                range, inclusive, ..
            },
            Operator::Range,
        ) => vec![Edit::replace(
            range.clone(),
            if *inclusive { ".." } else { "..=" },
        )],
        _ => Vec::new(),
    };
    out.truncate(MAX_EDITS);
    out
}

/// `text` as an operand: in parentheses unless it needs none.
/// A condition as an operand of `&&`: in parentheses only if it is a
/// disjunction (`a || b`), since everything else a condition holds (a
/// comparison, a negation, a conjunction) binds at least as tightly. (As an
/// operand of `||`, a condition never needs them.)
fn conjunct(text: &str, atomic: bool) -> String {
    let mut depth = 0usize;
    let mut previous = ' ';
    let mut disjunction = false;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '|' if previous == '|' && depth == 0 => disjunction = true,
            _ => {}
        }
        previous = c;
    }
    parenthesized(text, atomic || !disjunction)
}

fn parenthesized(text: &str, atomic: bool) -> String {
    if atomic {
        text.to_string()
    } else {
        format!("({text})")
    }
}

/// The two ranges' texts swapped (what lies between them stays).
fn swapped(text: &str, first: &Range<usize>, second: &Range<usize>) -> Edit {
    Edit::replace(
        first.start..second.end,
        format!(
            "{}{}{}",
            &text[second.clone()],
            &text[first.end..second.start],
            &text[first.clone()]
        ),
    )
}

/// Ingredients nearest the site first: in its file by line distance, then
/// the others in crate order.
fn closest<'i>(pool: &'i [Ingredient], site: &Site) -> impl Iterator<Item = &'i Ingredient> {
    let mut ordered: Vec<&Ingredient> = pool.iter().collect();
    ordered.sort_by_key(|i| {
        if i.origin.file == site.file {
            (0, i.origin.line.abs_diff(site.line))
        } else {
            (1, 0)
        }
    });
    ordered.into_iter()
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
fn can_replace(ingredient: &Ingredient, site: &Site, statement: &StatementSite) -> bool {
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
/// header, keeping one of its blocks.
fn delete(statement: &StatementSite, text: &str) -> Vec<Edit> {
    if statement.branches.is_empty() {
        let range = statement
            .whole_lines
            .clone()
            .unwrap_or(statement.range.clone());
        return vec![Edit::replace(range, "")];
    }
    // A `for` loop's body needs the loop's variable.
    if text[statement.range.clone()].starts_with("for ") {
        return Vec::new();
    }
    statement
        .branches
        .iter()
        .map(|branch| Edit::replace(statement.range.clone(), &text[branch.clone()]))
        .collect()
}

/// `ingredient` (as `text`, perhaps renamed) in place of the statement (a
/// header with an empty body).
fn swap_in(statement: &StatementSite, ingredient: &Ingredient, text: &str) -> Edit {
    let replacement = if ingredient.header {
        format!("{text} {{}}")
    } else {
        as_statement(text, ingredient.closed, statement.tail)
    };
    Edit::replace(statement.range.clone(), replacement)
}

/// An ingredient (as `ingredient_text`; `header`: a compound statement's
/// header, `closed`: ends in `;` or a block) inserted after the statement,
/// or before a jump or a block's value, or, a header, around it.
fn insert(
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
fn as_statement(text: &str, closed: bool, tail: bool) -> String {
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
enum Place<'s> {
    Statement(&'s StatementSite),
    BlockStart { at: usize, indent: &'s str },
}

impl Place<'_> {
    /// The edits that put `text` (`ingredient`, adapted) here.
    fn edits(self, site: &Site, ingredient: &Ingredient, text: &str, cx: &Context) -> Vec<Edit> {
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

/// Statements from elsewhere in the crate, their variables that are not in
/// scope here renamed to variables of the same type that are (the
/// ingredient's types are known where it was found), inserted or swapped in.
/// First, those adapted to variables in scope that the compiler warns are
/// unused or needlessly `mut`: a statement that should use them is
/// missing, and it may have a twin elsewhere (`keys.push(key)` for the
/// missing `values.push(value)`), with a variable of the warned one's type
/// renamed to it, or an operand of its type replaced by it
/// (`self.vars.insert(name, value)` from `self.vars.insert("ans".to_string(),
/// value)`). First in a block, only those (`only_warned`).
fn adapted<'a>(site: &'a Site, place: Place, only_warned: bool, cx: &Context<'a>) -> Vec<Edit> {
    let here = site.location();
    let bound = |name: &str| site.bound.iter().any(|b| b == name);
    let in_scope: Vec<(&str, &str)> = cx
        .types
        .variables_at(here)
        .filter(|(name, _)| bound(name))
        .collect();
    let warned: Vec<(&str, &str)> = cx
        .types
        .unused_at(here, &site.function, &site.bound)
        .filter_map(|u| Some((u.name.as_str(), cx.types.variable(here, &u.name)?)))
        .collect();
    if only_warned && warned.is_empty() {
        return Vec::new();
    }
    // The operands a warned variable may take the place of, in an ingredient.
    let operands: Vec<(FileId, &Range<usize>)> = if warned.is_empty() {
        Vec::new()
    } else {
        cx.space
            .sites
            .iter()
            .filter_map(|s| match &s.kind {
                SiteKind::Operand { range, .. } => Some((s.file, range)),
                _ => None,
            })
            .collect()
    };
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    for ingredient in closest(&cx.space.statements, site) {
        if first.len() + rest.len() >= 2 * MAX_EDITS {
            break;
        }
        if ingredient.header {
            continue;
        }
        let free: Vec<&str> = ingredient.free.iter().map(String::as_str).collect();
        // The variables of `pool` of `name`'s type, but for the ingredient's own.
        let same_typed = |name: &str, pool: &[(&'a str, &'a str)]| -> Vec<&'a str> {
            let Some(ty) = cx.types.variable(ingredient.origin, name) else {
                return Vec::new();
            };
            pool.iter()
                .filter(|(other, other_ty)| compatible(ty, other_ty) && !free.contains(other))
                .map(|(other, _)| *other)
                .collect()
        };
        let place_all = |texts: Vec<String>, out: &mut Vec<Edit>| {
            for text in texts {
                out.extend(place.edits(site, ingredient, &text, cx));
            }
        };
        // Each variable a warned one of its type, or itself if in scope.
        if !warned.is_empty() {
            let choices: Vec<Vec<&str>> = free
                .iter()
                .map(|&name| {
                    let mut options = same_typed(name, &warned);
                    options.extend(bound(name).then_some(name));
                    options
                })
                .collect();
            place_all(renamings(ingredient, &free, &choices), &mut first);
            let substituted = substitutions(ingredient, &operands, &warned, &bound, cx);
            place_all(substituted, &mut first);
        }
        // Each variable not in scope a same-typed one that is.
        if !only_warned && free.iter().any(|name| !bound(name)) {
            let choices: Vec<Vec<&str>> = free
                .iter()
                .map(|&name| {
                    if bound(name) {
                        vec![name]
                    } else {
                        same_typed(name, &in_scope)
                    }
                })
                .collect();
            place_all(renamings(ingredient, &free, &choices), &mut rest);
        }
    }
    first.extend(rest);
    first
}

/// `ingredient`'s text with its variables (`free`) renamed as `choices`
/// allow (one list per variable; a few ways at most, the first options
/// first): each way that renames some variable and gives no two the same
/// name.
fn renamings(ingredient: &Ingredient, free: &[&str], choices: &[Vec<&str>]) -> Vec<String> {
    if choices.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for assignment in combinations(choices, 4) {
        let distinct: std::collections::BTreeSet<&str> = assignment.iter().copied().collect();
        if assignment == free || distinct.len() < assignment.len() {
            continue;
        }
        let renames: Vec<(&str, &str)> = free
            .iter()
            .copied()
            .zip(assignment)
            .filter(|(from, to)| from != to)
            .collect();
        out.push(ingredient.renamed(&renames));
    }
    out
}

/// `ingredient`'s text with one of its operands (a call's argument, a
/// compared or assigned value) replaced by a `warned` variable of the
/// operand's type, where its other variables are all in scope.
fn substitutions(
    ingredient: &Ingredient,
    operands: &[(FileId, &Range<usize>)],
    warned: &[(&str, &str)],
    bound: &dyn Fn(&str) -> bool,
    cx: &Context,
) -> Vec<String> {
    let end = ingredient.start + ingredient.text.len();
    let mut out = Vec::new();
    let inside = operands.iter().filter(|(file, range)| {
        *file == ingredient.origin.file && ingredient.start <= range.start && range.end <= end
    });
    for &(_, range) in inside {
        let Some(ty) = cx.types.expression(ingredient.origin.file, range) else {
            continue;
        };
        let within = range.start - ingredient.start..range.end - ingredient.start;
        let others_bound = ingredient
            .uses
            .iter()
            .filter(|(_, at)| !(within.start <= at.start && at.end <= within.end))
            .all(|(name, _)| bound(name));
        if !others_bound {
            continue;
        }
        for (name, _) in warned.iter().filter(|(_, wty)| compatible(ty, wty)) {
            if ingredient.text[within.clone()] != **name {
                let mut text = ingredient.text.clone();
                text.replace_range(within.clone(), name);
                out.push(text);
            }
        }
    }
    out
}

/// Up to `limit` ways of taking one element of each list (the first
/// elements first).
fn combinations<'a>(choices: &[Vec<&'a str>], limit: usize) -> Vec<Vec<&'a str>> {
    let mut out: Vec<Vec<&str>> = vec![Vec::new()];
    for options in choices {
        out = out
            .iter()
            .flat_map(|prefix| {
                options.iter().map(move |o| {
                    let mut next = prefix.clone();
                    next.push(*o);
                    next
                })
            })
            .take(limit)
            .collect();
    }
    out
}

/// Conditions made of the variables in scope at a site, by type, in
/// tiers from the likeliest: the mirror images of a condition's own
/// comparisons; integers against the file's named constants (`run <
/// MAX_RUN`; those its functions name bare); collections empty or not,
/// options some or none, booleans; integers against zero; against each
/// other; against the crate's small literals. Within a tier, variables the
/// site's own line uses come first.
fn synthesized(site: &Site, cx: &Context) -> Vec<String> {
    let here = site.location();
    let line = line_of(cx.text, site);
    let mut variables: Vec<(&str, &str)> = cx
        .types
        .variables_at(here)
        .filter(|(name, _)| *name != "self" && site.bound.iter().any(|b| b == name))
        .collect();
    variables.sort_by_key(|(name, _)| !mentions(line, name));
    let integers: Vec<(&str, &str)> = variables
        .iter()
        .copied()
        .filter(|(_, ty)| is_integer(ty))
        .collect();
    let literals: Vec<u128> = cx
        .space
        .literals
        .iter()
        .filter_map(|l| match l {
            Literal::Int { value, .. } if (1..=64).contains(value) => Some(*value),
            _ => None,
        })
        .take(3)
        .collect();
    // Integer items of the file that its functions name bare (a bound
    // such as `MAX`; not one in an inline `mod`).
    let constants: Vec<(&str, &str)> = cx
        .space
        .items
        .get(&site.file)
        .into_iter()
        .flatten()
        .filter(|(_, ty)| is_integer(ty))
        .map(|(name, ty)| (name.as_str(), ty.as_str()))
        .collect();
    let mut out = match &site.kind {
        SiteKind::Condition { range, .. } => mirrored(&cx.text[range.clone()]),
        _ => Vec::new(),
    };
    for (name, ty) in &integers {
        for (constant, constant_ty) in &constants {
            if compatible(ty, constant_ty) {
                out.extend([
                    format!("{name} < {constant}"),
                    format!("{name} > {constant}"),
                ]);
            }
        }
    }
    for (name, ty) in &variables {
        if has_is_empty(ty) {
            out.extend([format!("!{name}.is_empty()"), format!("{name}.is_empty()")]);
        } else if is_option(ty) {
            out.extend([format!("{name}.is_some()"), format!("{name}.is_none()")]);
        } else if *ty == "bool" {
            out.extend([format!("!{name}"), name.to_string()]);
        }
    }
    for (name, _) in &integers {
        out.extend([
            format!("{name} > 0"),
            format!("{name} != 0"),
            format!("{name} == 0"),
        ]);
    }
    for (i, (name, ty)) in integers.iter().enumerate() {
        for (other, other_ty) in &integers[i + 1..] {
            if compatible(ty, other_ty) {
                out.extend([
                    format!("{name} < {other}"),
                    format!("{name} > {other}"),
                    format!("{name} <= {other}"),
                    format!("{name} >= {other}"),
                ]);
            }
        }
    }
    for (name, _) in &integers {
        for value in &literals {
            out.extend([format!("{name} < {value}"), format!("{name} > {value}")]);
        }
    }
    out.truncate(MAX_EDITS / 3);
    out
}

/// The mirror image of each comparison of two values' different fields in
/// `condition`: `b.x < a.y` for `a.x < b.y`, the other half of a
/// symmetric relation (two intervals overlap when each starts before the
/// other ends).
fn mirrored(condition: &str) -> Vec<String> {
    let Ok(expr) = syn::parse_str::<syn::Expr>(condition) else {
        return Vec::new();
    };
    let field = |e: &syn::Expr| match e {
        syn::Expr::Field(f) => match (&*f.base, &f.member) {
            (syn::Expr::Path(base), syn::Member::Named(name)) => {
                Some((base.path.get_ident()?.to_string(), name.to_string()))
            }
            _ => None,
        },
        _ => None,
    };
    let mut parts = vec![&expr];
    let mut out = Vec::new();
    while let Some(part) = parts.pop() {
        match part {
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) => {
                parts.extend([&*b.left, &*b.right]);
            }
            syn::Expr::Paren(p) => parts.push(&p.expr),
            syn::Expr::Binary(b) => {
                if let (Some((a, x)), Some((other, y))) = (field(&b.left), field(&b.right))
                    && a != other
                    && x != y
                {
                    let op = b.op.to_token_stream().to_string();
                    out.push(format!("{other}.{x} {op} {a}.{y}"));
                }
            }
            _ => {}
        }
    }
    out
}

/// `if COND { return VALUE; }` (or `break;`, `continue;` in a loop)
/// inserted before the statement; conditions synthesized here or found in
/// the crate, values of the function's return type.
fn guards(site: &Site, statement: &StatementSite, cx: &Context) -> Vec<Edit> {
    let mut actions: Vec<String> = Vec::new();
    if statement.in_loop {
        actions.extend(["break;".to_string(), "continue;".to_string()]);
    }
    if let Some(returns) = &statement.returns {
        actions.extend(returned_values(returns, site, cx).map(|v| format!("return {v};")));
        if returns.is_empty() {
            actions.push("return;".to_string());
        }
    }
    if actions.is_empty() {
        return Vec::new();
    }
    let found = closest(&cx.space.conditions, site)
        .filter(|i| i.fits(&site.bound))
        .map(|i| i.text.clone())
        .take(6);
    let conditions: Vec<String> = synthesized(site, cx).into_iter().chain(found).collect();
    let mut out = Vec::new();
    for condition in conditions {
        for action in &actions {
            out.push(Edit::insert(
                statement.range.start,
                format!("if {condition} {{ {action} }}\n{}", statement.indent),
            ));
        }
    }
    out
}

/// Values a function returning `returns` (without spaces) can return
/// early: literals of its type, variables of its type in scope.
fn returned_values<'a>(
    returns: &'a str,
    site: &'a Site,
    cx: &'a Context,
) -> impl Iterator<Item = String> + 'a {
    let literals: Vec<String> = match returns {
        "bool" => vec!["false".into(), "true".into()],
        "String" => vec!["String::new()".into()],
        ty if is_integer(ty) => vec!["0".into(), "1".into()],
        ty if ty.starts_with("Option<") => vec!["None".into()],
        ty if ty.starts_with("Vec<") => vec!["Vec::new()".into()],
        _ => Vec::new(),
    };
    let variables = cx
        .types
        .variables_at(site.location())
        .filter(move |(name, ty)| {
            *name != "self"
                && site.bound.iter().any(|b| b == name)
                && compatible(&ty.replace(' ', ""), returns)
        })
        .map(|(name, _)| name.to_string());
    literals.into_iter().chain(variables)
}

/// The text of the site's line.
fn line_of<'t>(text: &'t str, site: &Site) -> &'t str {
    text.lines()
        .nth((site.line as usize).saturating_sub(1))
        .unwrap_or("")
}

/// Whether `line` mentions the identifier `name`.
fn mentions(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + name.len()..].chars().next();
        let boundary = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        boundary(before) && boundary(after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::crate_sources::CrateSources;
    use crate::code::source::splice;
    use crate::mutation::sites::collect_mutation_space;
    use std::collections::BTreeSet;

    fn sources(text: &str) -> CrateSources {
        CrateSources::of_one_file(text)
    }

    /// Every distinct text `operator` makes at the sites on `line`.
    fn outcomes(text: &str, operator: Operator, line: u32) -> BTreeSet<String> {
        outcomes_typed(text, operator, line, &Types::default())
    }

    fn outcomes_typed(
        text: &str,
        operator: Operator,
        line: u32,
        types: &Types,
    ) -> BTreeSet<String> {
        let sources = sources(text);
        let space = collect_mutation_space(&sources, &Default::default());
        let cx = Context {
            space: &space,
            text,
            types,
        };
        let mut out = BTreeSet::new();
        for site in space.sites.iter().filter(|s| s.line == line) {
            for edit in edits(operator, site, &cx) {
                out.insert(splice(text, &[edit]).unwrap());
            }
        }
        // A random edit is one of them.
        let mut rng = StdRng::seed_from_u64(7);
        for site in space.sites.iter().filter(|s| s.line == line) {
            if let Some(edit) = apply(operator, site, &cx, &mut rng) {
                assert!(out.contains(&splice(text, &[edit]).unwrap()));
            }
        }
        out
    }

    fn line(text: &str, number: usize) -> &str {
        text.lines().nth(number - 1).unwrap().trim()
    }

    const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    }\n    z\n}\n";

    #[test]
    fn identifier_mutation_uses_variables_in_scope() {
        let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Identifier, 6)
            .iter()
            .map(|t| line(t, 6).to_string())
            .collect();
        assert_eq!(
            lines,
            BTreeSet::from(["return x;".to_string(), "return z;".into()])
        );
    }

    #[test]
    fn operator_replacement_stays_in_its_class() {
        let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Binary, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        let expected = [
            "if x <= y {",
            "if x > y {",
            "if x >= y {",
            "if x == y {",
            "if x != y {",
        ];
        assert_eq!(lines, expected.iter().map(|s| s.to_string()).collect());
        // Every operator has its class, and the likeliest slip comes first.
        for class in [
            &["<", "<=", ">", ">=", "==", "!="][..],
            &["+", "-", "*", "/", "%"],
            &["+=", "-=", "*=", "/=", "%="],
        ] {
            for own in class {
                let (_, others) = REPLACEMENTS.iter().find(|(o, _)| o == own).unwrap();
                let mut all: Vec<&str> = others.iter().chain([own]).copied().collect();
                all.sort();
                let mut expected = class.to_vec();
                expected.sort();
                assert_eq!(all, expected, "{own}");
            }
        }
        let first = |text: &str, at: usize| {
            let sources = sources(text);
            let space = collect_mutation_space(&sources, &Default::default());
            let cx = Context {
                space: &space,
                text,
                types: &Types::default(),
            };
            let site = space
                .sites
                .iter()
                .find(|s| matches!(&s.kind, SiteKind::BinaryOperator { range, .. } if range.start == at))
                .unwrap();
            edits(Operator::Binary, site, &cx)[0].text.clone()
        };
        assert_eq!(
            first("fn f(n: u8) -> bool {\n    n % 2 == 0\n}\n", 32),
            "!="
        );
        assert_eq!(first("fn f(n: u8) -> bool {\n    n % 2 < 1\n}\n", 32), "<=");
    }

    #[test]
    fn condition_mutation_sets_negates_and_combines() {
        let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Condition, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        assert!(lines.contains("if !(x < y) {"), "{lines:?}");
        assert!(lines.contains("if y < z {"), "{lines:?}");
        assert!(lines.contains("if x < z && x < y {"), "{lines:?}");
        assert!(lines.contains("if y < z || x < y {"), "{lines:?}");
    }

    #[test]
    fn only_a_disjunction_gets_parentheses_in_a_conjunction() {
        assert_eq!(conjunct("a || b", false), "(a || b)");
        assert_eq!(conjunct("a && b", false), "a && b");
        assert_eq!(
            conjunct("v.iter().any(|x| x || y)", true),
            "v.iter().any(|x| x || y)"
        );
        assert_eq!(conjunct("f(a || b) && c", false), "f(a || b) && c");
        assert_eq!(conjunct("x < y", false), "x < y");
    }

    #[test]
    fn negating_a_negation_takes_the_not_away() {
        let text = "fn f(v: &[u8], a: bool, b: bool) -> bool {\n    if !v.is_empty() {\n        return true;\n    }\n    while !(a && b) {}\n    false\n}\n";
        for (number, negation) in [(2, "if v.is_empty() {"), (5, "while a && b {}")] {
            let lines: BTreeSet<String> = outcomes(text, Operator::Condition, number)
                .iter()
                .map(|t| line(t, number as usize).to_string())
                .collect();
            assert!(lines.contains(negation), "{lines:?}");
            assert!(!lines.iter().any(|l| l.contains("!(!")), "{lines:?}");
        }
    }

    #[test]
    fn statement_delete_removes_the_line_or_keeps_one_branch() {
        let deleted = outcomes(MIDDLE, Operator::Delete, 6);
        assert!(
            deleted.contains(&MIDDLE.replace(
                "            return y;\n        }\n    }",
                "        }\n    }"
            )),
            "{deleted:?}"
        );
        let unwrapped = outcomes(MIDDLE, Operator::Delete, 2);
        let kept_then = MIDDLE.replace(
            "    if y < z {\n        if x < y {",
            "    {\n        if x < y {",
        );
        assert!(unwrapped.contains(&kept_then), "{unwrapped:?}");
    }

    #[test]
    fn statement_swap_and_insert_reuse_statements_that_fit_the_scope() {
        let text = "fn f(a: i32) -> i32 {\n    let b = a + 1;\n    let c = b * 2;\n    if c > 4 {\n        return c;\n    }\n    b\n}\n";
        let swapped: BTreeSet<String> = outcomes(text, Operator::Swap, 2)
            .iter()
            .map(|t| line(t, 2).to_string())
            .collect();
        // `let c = b * 2;` needs `b`, which is not in scope before line 2.
        assert!(!swapped.iter().any(|l| l.contains("b * 2")), "{swapped:?}");
        assert!(
            !swapped.contains("if c > 4 {}"),
            "`c` is not in scope on line 2: {swapped:?}"
        );
        let inserted = outcomes(text, Operator::Insert, 5);
        // Before a `return`, never after it.
        assert!(
            inserted
                .iter()
                .any(|t| t.contains("        let b = a + 1;\n        return c;")),
            "{inserted:?}"
        );
        // A statement that does nothing (`b;`) is never inserted.
        assert!(!inserted.iter().any(|t| t.contains("b;\n")), "{inserted:?}");
        // A header goes around the target.
        assert!(
            inserted
                .iter()
                .any(|t| t.contains("if c > 4 { return c; }")),
            "{inserted:?}"
        );
        let swapped_tail: BTreeSet<String> = outcomes(text, Operator::Swap, 7)
            .iter()
            .map(|t| line(t, 7).to_string())
            .collect();
        // The function's value is not replaced by a statement without one.
        assert!(swapped_tail.contains("return c"), "{swapped_tail:?}");
        assert!(!swapped_tail.contains("if c > 4 {}"), "{swapped_tail:?}");
        // A `let` that later code needs is neither deleted nor wrapped.
        assert!(outcomes(text, Operator::Delete, 3).is_empty());
        let wrapped = outcomes(text, Operator::Insert, 3);
        assert!(
            !wrapped.iter().any(|t| t.contains("{ let c")),
            "{wrapped:?}"
        );
    }

    #[test]
    fn a_field_becomes_a_sibling_of_the_same_type() {
        let text = "struct Span { start: u32, end: u32, name: String }\nfn f(a: &Span) -> u32 {\n    a.start\n}\n";
        let lines: BTreeSet<String> = outcomes(text, Operator::Identifier, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        assert_eq!(lines, BTreeSet::from(["a.end".to_string()]));
    }

    #[test]
    fn a_field_and_a_variable_of_its_name_stand_for_each_other() {
        let text = "struct Date { year: i32, month: i32 }\nimpl Date {\n    fn next(&self, months: i32) -> i32 {\n        let year = self.month + months;\n        self.year * 12 + year\n    }\n}\n";
        let lines: BTreeSet<String> = outcomes(text, Operator::Identifier, 5)
            .iter()
            .map(|t| line(t, 5).to_string())
            .collect();
        assert!(lines.contains("year * 12 + year"), "{lines:?}");
        assert!(lines.contains("self.year * 12 + self.year"), "{lines:?}");
        assert!(lines.contains("self.month * 12 + year"), "{lines:?}");
        assert!(
            !lines.iter().any(|l| l.contains("self.months")),
            "{lines:?}"
        );
    }

    #[test]
    fn synthesis_compares_with_the_files_constants() {
        let text = "const MAX: u32 = 3999;\nfn f(value: u32) -> bool {\n    if value == 0 {\n        return false;\n    }\n    true\n}\n";
        let mut types = Types::default();
        types.set_variable(
            crate::code::source::Location::new(crate::code::source::FileId::new(0), 3),
            "value",
            "u32",
        );
        let lines: BTreeSet<String> = outcomes_typed(text, Operator::Synthesis, 3, &types)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        assert!(
            lines.contains("if value == 0 || value > MAX {"),
            "{lines:?}"
        );
    }

    #[test]
    fn synthesis_offers_only_constants_in_scope() {
        // `SECONDS` is `max::SECONDS` here: not offered bare; `LIMIT` is.
        let text = "mod max {\n    pub const SECONDS: u64 = 99;\n}\nconst LIMIT: u64 = 31;\nfn f(day: u64, a: u64) -> bool {\n    if day > 28 {\n        return false;\n    }\n    true\n}\n";
        let mut types = Types::default();
        let here = crate::code::source::Location::new(crate::code::source::FileId::new(0), 6);
        for name in ["day", "a"] {
            types.set_variable(here, name, "u64");
        }
        let lines: BTreeSet<String> = outcomes_typed(text, Operator::Synthesis, 6, &types)
            .iter()
            .map(|t| line(t, 6).to_string())
            .collect();
        assert!(!lines.iter().any(|l| l.contains("SECONDS")), "{lines:?}");
        assert!(lines.contains("if day > 28 || day < LIMIT {"), "{lines:?}");
        assert!(lines.contains("if day > 28 || day == 0 {"), "{lines:?}");
        assert!(lines.contains("if day > 28 || a < LIMIT {"), "{lines:?}");
    }

    #[test]
    fn an_item_becomes_a_sibling_item_of_its_type() {
        let text = "const LOWER: &[u8; 2] = b\"ab\";\nconst UPPER: &[u8; 2] = b\"AB\";\nstatic mut MIXED: &[u8; 2] = b\"aB\";\nconst N: usize = 2;\nfn f(i: usize) -> u8 {\n    UPPER[i % N]\n}\n";
        let lines: BTreeSet<String> = outcomes(text, Operator::Identifier, 6)
            .iter()
            .map(|t| line(t, 6).to_string())
            .collect();
        // `N` has no sibling of its type; `i` none in scope; a `static mut`
        // would need `unsafe`.
        assert_eq!(lines, BTreeSet::from(["LOWER[i % N]".to_string()]));
    }

    #[test]
    fn a_function_called_by_path_becomes_its_sibling() {
        let text = "use std::cmp;\nfn f(a: usize, b: usize) -> usize {\n    cmp::max(a, b) + g(a) + cmp::max(b.pow(2), 1)\n}\nfn g(a: usize) -> usize {\n    vec![a].insert(0, a);\n    a\n}\n";
        let lines: BTreeSet<String> = outcomes(text, Operator::Method, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        // No method of the crate takes a function's place (`insert`, with
        // two arguments like `cmp::max`), and `g` has no sibling.
        assert_eq!(
            lines,
            BTreeSet::from([
                "cmp::min(a, b) + g(a) + cmp::max(b.pow(2), 1)".to_string(),
                "cmp::max(a, b) + g(a) + cmp::min(b.pow(2), 1)".to_string(),
            ])
        );
    }

    #[test]
    fn a_compound_assignments_value_is_offset() {
        let text = "fn f(days: &[u32]) -> u32 {\n    let mut total = 0;\n    for day in days {\n        total += day;\n    }\n    total\n}\n";
        let mut types = Types::default();
        let here = crate::code::source::Location::new(crate::code::source::FileId::new(0), 4);
        types.set_variable(here, "day", "&u32");
        let operand = 90..93;
        assert_eq!(&text[operand.clone()], "day");
        types.set_expression(crate::code::source::FileId::new(0), &operand, "u32");
        let lines: BTreeSet<String> = outcomes_typed(text, Operator::Offset, 4, &types)
            .iter()
            .map(|t| line(t, 4).to_string())
            .collect();
        assert_eq!(
            lines,
            BTreeSet::from(["total += day - 1;".to_string(), "total += day + 1;".into()])
        );
    }

    #[test]
    fn synthesis_mirrors_a_comparison_of_two_values_fields() {
        let text = "struct Span { start: u32, end: u32 }\nfn overlaps(a: &Span, b: &Span) -> bool {\n    a.start < b.end\n}\n";
        let made = outcomes(text, Operator::Synthesis, 3);
        let conjunct = "struct Span { start: u32, end: u32 }\nfn overlaps(a: &Span, b: &Span) -> bool {\n    a.start < b.end && b.start < a.end\n}\n";
        assert!(made.contains(conjunct), "{made:?}");
        assert_eq!(
            mirrored("a.start < b.end || (x.f >= y.g)"),
            ["y.f >= x.g", "b.start < a.end"]
        );
        assert!(mirrored("a.start < a.end").is_empty() && mirrored("a.x < b.x").is_empty());
    }

    #[test]
    fn a_comparison_method_swaps_its_receiver_and_argument() {
        let text = "fn f(a: &(u8, u8), b: &(u8, u8)) -> bool {\n    b.0.cmp(&a.0).is_lt() && a.1.max(b.1) > 2 && (a.0 + 1).lt(&(b.0 * 2))\n}\n";
        let made = outcomes(text, Operator::Arguments, 2);
        let line = |made: &str| made.lines().nth(1).unwrap().trim().to_string();
        let lines: BTreeSet<String> = made.iter().map(|m| line(m)).collect();
        assert!(
            lines.contains("a.0.cmp(&b.0).is_lt() && a.1.max(b.1) > 2 && (a.0 + 1).lt(&(b.0 * 2))"),
            "{lines:?}"
        );
        assert!(
            lines.contains("b.0.cmp(&a.0).is_lt() && a.1.max(b.1) > 2 && (b.0 * 2).lt(&(a.0 + 1))"),
            "{lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.contains("b.1.max(a.1)")),
            "max is commutative"
        );
    }

    #[test]
    fn a_collection_is_reversed_through_its_iterator() {
        let text = "fn f(v: &[u8], n: usize) {
    for x in v {}
    for i in 0..n {}
    for c in v.iter() {}
}
";
        let reversed: BTreeSet<String> = [2, 3, 4]
            .into_iter()
            .flat_map(|n| {
                outcomes(text, Operator::Idiom, n)
                    .into_iter()
                    .map(move |t| line(&t, n as usize).to_string())
            })
            .collect();
        assert!(
            reversed.contains("for x in v.iter().rev() {}"),
            "{reversed:?}"
        );
        assert!(
            reversed.contains("for i in (0..n).rev() {}"),
            "{reversed:?}"
        );
        assert!(
            reversed.contains("for c in v.iter().rev() {}"),
            "{reversed:?}"
        );
    }

    #[test]
    fn value_method_and_range_mutations() {
        let text = "fn f(v: &[u32]) -> u32 {\n    let mut m = 0;\n    for i in 1..v.len() {\n        m = m.max(v[i] + 2);\n    }\n    m\n}\n";
        let values: BTreeSet<String> = outcomes(text, Operator::Value, 4)
            .iter()
            .map(|t| line(t, 4).to_string())
            .collect();
        assert_eq!(
            values,
            BTreeSet::from([
                "m = m.max(v[i] + 0);".into(),
                "m = m.max(v[i] + 1);".into(),
                "m = m.max(v[i] + 3);".to_string()
            ])
        );
        let methods: BTreeSet<String> = outcomes(text, Operator::Method, 4)
            .iter()
            .map(|t| line(t, 4).to_string())
            .collect();
        assert!(methods.contains("m = m.min(v[i] + 2);"), "{methods:?}");
        let ranges: BTreeSet<String> = outcomes(text, Operator::Range, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        assert_eq!(
            ranges,
            BTreeSet::from(["for i in 1..=v.len() {".to_string()])
        );
    }

    #[test]
    fn operator_names_parse() {
        for operator in Operator::ALL {
            assert_eq!(operator.name().parse::<Operator>(), Ok(operator));
        }
        assert!("nope".parse::<Operator>().is_err());
    }
}
