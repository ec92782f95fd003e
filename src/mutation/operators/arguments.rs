//! Arguments swapped: two arguments of a call, the operands of an
//! operator whose order matters (`-`, `/`, `%`, `<<`, `>>`), or the
//! receiver and argument of `cmp` and the like.

use std::ops::Range;

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator, parenthesized};

/// Swap two arguments of a call, the operands of `-`, `/`, `%`, `<<`, `>>`,
/// or the receiver and argument of `cmp` and the like.
pub(super) struct Arguments;

impl MutationOperator for Arguments {
    fn operator(&self) -> Operator {
        Operator::Arguments
    }

    fn name(&self) -> &'static str {
        "arguments"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::Call { .. } | SiteKind::BinaryOperator { .. } | SiteKind::Method { .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::BinaryOperator {
                operator,
                left,
                right,
                ..
            } if NON_COMMUTATIVE.contains(&operator.as_str()) => {
                vec![swapped(cx.text, left, right)]
            }
            SiteKind::Method {
                name,
                operands: Some((receiver, argument, atomic)),
                ..
            } if NON_COMMUTATIVE_METHODS.contains(&name.as_str()) => {
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
            SiteKind::Call { arguments } => {
                let mut out = Vec::new();
                for (i, first) in arguments.iter().enumerate() {
                    for second in &arguments[i + 1..] {
                        out.push(swapped(cx.text, first, second));
                    }
                }
                out
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

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
