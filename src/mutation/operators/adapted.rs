//! Statements from elsewhere in the crate adapted to the site: their
//! variables renamed to same-typed variables in scope (first to those the
//! compiler warns are unused), or an operand replaced by a warned variable,
//! then inserted or swapped in.

use std::ops::Range;

use crate::code::source::{Edit, FileId};
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Ingredient, Site, SiteKind};
use crate::mutation::types::compatible;

use super::statement::Place;
use super::{Context, MAX_EDITS, MutationOperator, closest};

/// Insert or swap in a statement from the crate with its variables renamed
/// to same-typed variables in scope.
pub(super) struct Adapted;

impl MutationOperator for Adapted {
    fn operator(&self) -> Operator {
        Operator::Adapted
    }

    fn name(&self) -> &'static str {
        "adapted"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Statement(_) | SiteKind::BlockStart { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::Statement(statement) => adapted(site, Place::Statement(statement), false, cx),
            SiteKind::BlockStart { at, indent, .. } => {
                let place = Place::BlockStart { at: *at, indent };
                adapted(site, place, true, cx)
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
    for ingredient in closest(&cx.space.statements, site, cx.space) {
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
pub(super) fn combinations<'a>(choices: &[Vec<&'a str>], limit: usize) -> Vec<Vec<&'a str>> {
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
