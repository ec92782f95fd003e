//! Off-by-one: `e` to `e - 1` or `e + 1` (an index, a range bound, an
//! argument, a compared or returned integer, a value given to a `let` or an
//! assignment), and `e ± 1` back to `e`.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};
use crate::mutation::types::is_integer;

use super::{Context, MutationOperator, parenthesized};

/// `e` to `e + 1` or `e - 1`, and `e ± 1` back to `e`.
pub(super) struct Offset;

impl MutationOperator for Offset {
    fn operator(&self) -> Operator {
        Operator::Offset
    }

    fn name(&self) -> &'static str {
        "offset"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::Operand { .. } | SiteKind::BinaryOperator { .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::Operand {
                range,
                atomic,
                integer,
                ..
            } => {
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
            SiteKind::BinaryOperator {
                operator,
                left,
                right,
                expression,
                ..
            } if (operator == "+" || operator == "-") && cx.text[right.clone()].trim() == "1" => {
                // `e - 1` back to `e`, and `e + 1`.
                vec![Edit::replace(expression.clone(), &cx.text[left.clone()])]
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, replaced: &str, made: &str) -> usize {
        // Taking a `± 1` away is as likely as adding one.
        if made.len() < replaced.len() { 0 } else { 1 }
    }
}
