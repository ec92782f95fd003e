//! Rust idioms a fix often is: `a - b` to `a.saturating_sub(b)` or
//! `a.checked_sub(b).unwrap_or(0)`, `.unwrap()` to `.unwrap_or_default()`,
//! `for x in it` to `for x in it.rev()`.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};
use crate::mutation::types::is_integer;

use super::{Context, MutationOperator, parenthesized};

/// `a - b` to `a.saturating_sub(b)`, `.unwrap()` to `.unwrap_or_default()`,
/// `for x in it` to `for x in it.rev()`.
pub(super) struct Idiom;

impl MutationOperator for Idiom {
    fn operator(&self) -> Operator {
        Operator::Idiom
    }

    fn name(&self) -> &'static str {
        "idiom"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::BinaryOperator { .. } | SiteKind::Unwrap { .. } | SiteKind::Iterable { .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::BinaryOperator {
                operator,
                left,
                right,
                expression,
                ..
            } if operator == "-"
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
            SiteKind::Unwrap { call, .. } => {
                vec![Edit::replace(call.clone(), "unwrap_or_default()")]
            }
            SiteKind::Iterable { range, atomic } => {
                let own = &cx.text[range.clone()];
                // A collection (a variable, a field) is iterated by `iter()`.
                let path = own
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
                let iterator = if path
                    && !own.contains("..")
                    && !own.starts_with(|c: char| c.is_ascii_digit())
                {
                    format!("{own}.iter()")
                } else {
                    parenthesized(own, *atomic)
                };
                vec![Edit::replace(range.clone(), format!("{iterator}.rev()"))]
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}
