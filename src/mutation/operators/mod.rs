//! Mutation operators: each turns a site of the mutation space into edits.
//!
//! An operator is a value implementing [`MutationOperator`]: which kinds of
//! site it applies to, the edits it makes at a site, and how the rest of
//! the tool treats its edits (its name in reports and `--operators`, whether
//! it writes new statements, how unusual a fix it makes). Each family of
//! operators has a file of its own; [`OPERATORS`] registers them, in the
//! order the sweep tries them. `edits` lists every edit an operator can
//! make at a site, deterministically and the likeliest fix first (the sweep
//! tries them in that order), at most [`MAX_EDITS`]; `apply` draws one of
//! them (the genetic search). Operators that need ingredients take them
//! from the crate, and use the variables' types where the type oracle knows
//! them (`Types`), so that what they offer compiles. (The search draws an
//! operator uniformly among those with a site at the location it drew: no
//! operator weighs more than another.)
//!
//! Adding an operator: its identity, a variant of [`Operator`] (after the
//! others: the order of the variants is the order a random draw takes
//! operators in); a unit struct implementing [`MutationOperator`] in its
//! family's file (or a new file, declared below); and its line in
//! [`OPERATORS`], at its place in the sweep's order.

mod adapted;
mod arguments;
mod arm;
mod binary;
mod condition;
mod ends;
mod extend;
mod fields;
mod given;
mod grouping;
mod guard;
mod identifier;
mod idiom;
mod jump;
mod member;
mod method;
mod offset;
mod panics;
mod parallel;
mod precondition;
mod prior;
mod range;
mod reset;
mod safe;
mod slice;
mod statement;
#[cfg(test)]
mod statement_tests;
mod synthesis;
mod term;
#[cfg(test)]
mod tests;
mod twin;
mod value;
mod variant;

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use rand::Rng;
use rand::prelude::*;

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Ingredient, MutationSpace, Site, SiteKind};
use crate::mutation::types::Types;

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

/// What an operator does: where it applies, what it makes there, and how
/// the rest of the tool treats its edits.
pub trait MutationOperator {
    /// Its identity, which its edits carry.
    fn operator(&self) -> Operator;

    /// Its name in reports (JSON included) and in `--operators`.
    fn name(&self) -> &'static str;

    /// Whether it applies to a site of this kind.
    fn applies(&self, kind: &SiteKind) -> bool;

    /// Every edit it can make at `site`, the likeliest fix first (the
    /// first [`MAX_EDITS`] are kept).
    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit>;

    /// How unusual a fix its edit of `replaced` into `made` is: 0 for a
    /// one-token slip, 1 for a small rewrite, 2 for a new condition, 3
    /// for a deletion, 4 for new statements (among patches that pass every
    /// test, the more usual wins).
    fn unusualness(&self, replaced: &str, made: &str) -> usize;

    /// Whether it writes new statements (from the crate's statements or
    /// synthesized): many edits at each site, and rarely the fix, so the
    /// sweep tries them after the next few locations' other edits.
    fn writes_statements(&self) -> bool {
        false
    }

    /// Whether it writes conditions of its own, in which a new bare number
    /// reads as a coincidence where a name reads as the intent.
    fn synthesizes(&self) -> bool {
        false
    }
}

/// The search's operators, in the order the sweep tries them at a
/// location: one-token slips first, then small rewrites, then statements
/// (the likeliest fixes first, and the likeliest to compile).
const OPERATORS: &[&dyn MutationOperator] = &[
    &binary::Binary,
    &grouping::Grouping,
    &safe::Overflow,
    &safe::Bounds,
    &condition::Condition,
    &value::Value,
    &member::Member,
    &method::Method,
    &variant::Variant,
    &arm::Arm,
    &jump::Jump,
    &range::Range,
    &ends::Ends,
    &identifier::Identifier,
    &offset::Offset,
    &term::Term,
    &slice::Slice,
    &extend::Extend,
    &arguments::Arguments,
    &idiom::Idiom,
    &parallel::Parallel,
    &synthesis::Synthesis,
    &twin::Twin,
    &prior::Prior,
    &reset::Reset,
    &fields::Fields,
    &precondition::Precondition,
    &statement::Delete,
    &guard::Guard,
    &statement::Swap,
    &statement::Insert,
    &adapted::Adapted,
];

/// What `operator` does: its row of [`OPERATORS`] (or the given patch's).
fn table(operator: Operator) -> &'static dyn MutationOperator {
    const GIVEN: &dyn MutationOperator = &given::Given;
    OPERATORS
        .iter()
        .copied()
        .chain([GIVEN])
        .find(|o| o.operator() == operator)
        .expect("every operator is registered")
}

/// Whether the operator applies to a site of this kind.
pub(crate) fn applies(operator: Operator, kind: &SiteKind) -> bool {
    table(operator).applies(kind)
}

/// A random edit of `operator` at `site`.
pub fn apply(operator: Operator, site: &Site, cx: &Context, rng: &mut impl Rng) -> Option<Edit> {
    edits(operator, site, cx).choose(rng).cloned()
}

/// Every edit `operator` can make at `site`, the likeliest fix first, at
/// most [`MAX_EDITS`].
pub fn edits(operator: Operator, site: &Site, cx: &Context) -> Vec<Edit> {
    let mut out = table(operator).edits(site, cx);
    out.truncate(MAX_EDITS);
    out
}

impl Operator {
    /// The search's operators, in their identity's order (the order a
    /// random draw takes them in).
    pub fn all() -> Vec<Operator> {
        let mut all: Vec<Operator> = OPERATORS.iter().map(|o| o.operator()).collect();
        all.sort();
        all
    }

    /// The search's operators in the order the sweep tries them at a
    /// location.
    pub fn in_sweep_order() -> impl Iterator<Item = Operator> {
        OPERATORS.iter().map(|o| o.operator())
    }

    pub fn name(self) -> &'static str {
        table(self).name()
    }

    /// See [`MutationOperator::writes_statements`].
    pub fn writes_statements(self) -> bool {
        table(self).writes_statements()
    }

    /// See [`MutationOperator::unusualness`].
    pub fn unusualness(self, replaced: &str, made: &str) -> usize {
        table(self).unusualness(replaced, made)
    }

    /// See [`MutationOperator::synthesizes`].
    pub fn synthesizes(self) -> bool {
        table(self).synthesizes()
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Operator {
    type Err = String;

    fn from_str(name: &str) -> Result<Operator, String> {
        let all = Operator::all();
        all.iter()
            .copied()
            .find(|o| o.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = all.iter().map(|o| o.name()).collect();
                format!(
                    "unknown operator `{name}` (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// The text of a method call's receiver (`call` the call, `name` its
/// method's name): what comes before `.name`; none for a function called
/// by path.
fn receiver_text<'t>(name: &Range<usize>, call: &Range<usize>, text: &'t str) -> Option<&'t str> {
    text[call.start..name.start].trim_end().strip_suffix('.')
}

/// Whether the value at `range` of `text` is read whole: not indexed
/// (`buf[..]`), a receiver (`buf.len()`) or a place assigned to.
fn read_whole(text: &str, range: &Range<usize>) -> bool {
    let after = text[range.end..].trim_start();
    !after.starts_with(['[', '.', '=']) || after.starts_with("==")
}

/// `text` as an operand: in parentheses unless it needs none.
fn parenthesized(text: &str, atomic: bool) -> String {
    if atomic {
        text.to_string()
    } else {
        format!("({text})")
    }
}

/// Ingredients nearest the site first: in its file by line distance, then
/// the others in crate order; not those that use a `self` of another type
/// (see [`in_reach`]).
fn closest<'i>(
    pool: &'i [Ingredient],
    site: &Site,
    space: &MutationSpace,
) -> impl Iterator<Item = &'i Ingredient> {
    let foreign_self = |i: &Ingredient| match (&i.self_type, &site.self_type) {
        (Some(theirs), Some(ours)) => theirs != ours && i.free.contains("self"),
        _ => false,
    };
    in_reach(pool, site, space).filter(move |i| !foreign_self(i))
}

/// Ingredients nearest the site first: in its file by line distance, then
/// the others in crate order; not those that use `Self` outside an `impl`
/// of its type, a loop label or an item of another function (`break
/// 'PATTERNS;`), or, from another file, a name the site's file never
/// writes (a type, a constant, a module or macro it does not import: each
/// such edit failed its whole woven build).
fn in_reach<'i>(
    pool: &'i [Ingredient],
    site: &Site,
    space: &MutationSpace,
) -> impl Iterator<Item = &'i Ingredient> {
    let other_self = |i: &Ingredient| {
        i.names.contains("Self") && (i.self_type.is_none() || i.self_type != site.self_type)
    };
    let words = space.words.get(&site.file);
    let unknown = |i: &Ingredient| {
        i.origin.file != site.file
            && i.names
                .iter()
                .any(|n| n != "Self" && !words.is_some_and(|w| w.contains(n)))
    };
    let elsewhere = |i: &Ingredient| {
        i.local_to
            .is_some_and(|line| i.origin.file != site.file || line != site.function_line)
    };
    let mut ordered: Vec<&Ingredient> = pool
        .iter()
        .filter(|i| !other_self(i) && !unknown(i) && !elsewhere(i))
        .collect();
    ordered.sort_by_key(|i| {
        if i.origin.file == site.file {
            (0, i.origin.line.abs_diff(site.line))
        } else {
            (1, 0)
        }
    });
    ordered.into_iter()
}
