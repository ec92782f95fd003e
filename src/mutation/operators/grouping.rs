//! Precedence: of two binary operators one of which is the other's
//! operand, the middle operand given to the other one. `a && b || c` is
//! `(a && b) || c`, and was meant as `a && (b || c)`; `(a - b) * c` was
//! meant as `a - b * c`. Parentheses forgotten or put around the wrong
//! operands are a slip no one-token edit undoes.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// `(a op b) op' c` to `a op (b op' c)`, and `a op' (b op c)` to
/// `(a op' b) op c`.
pub(super) struct Grouping;

impl MutationOperator for Grouping {
    fn operator(&self) -> Operator {
        Operator::Grouping
    }

    fn name(&self) -> &'static str {
        "grouping"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Grouping { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Grouping {
            expression,
            inner,
            first,
            second,
            left,
            loosens,
        } = &site.kind
        else {
            return Vec::new();
        };
        let text = |range: std::ops::Range<usize>| &cx.text[range];
        let regrouped = if *left {
            // `[a op b] op' c`: `a op (b op' c)`.
            format!(
                "{}({}{})",
                text(first.start..second.start),
                text(second.clone()),
                text(inner.end..expression.end)
            )
        } else {
            // `a op' [b op c]`: `(a op' b) op c`.
            format!(
                "({}{}){}",
                text(expression.start..inner.start),
                text(first.clone()),
                text(first.end..second.end)
            )
        };
        // Where the operator that now joins the whole binds more loosely
        // than the one it replaces (the inner expression had parentheses of
        // its own), the whole keeps its place in what holds it by
        // parentheses.
        let parenthesized = inner.start != first.start || inner.end != second.end;
        let regrouped = if parenthesized && *loosens {
            format!("({regrouped})")
        } else {
            regrouped
        };
        vec![Edit::replace(expression.clone(), regrouped)]
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::tests::{line, outcomes};
    use crate::mutation::patch::Operator;

    fn regrouped(body: &str) -> BTreeSet<String> {
        let text = format!(
            "fn f(a: bool, b: bool, c: bool, x: i32, y: i32, z: i32) -> i32 {{\n    {body}\n}}\n"
        );
        outcomes(&text, Operator::Grouping, 2)
            .iter()
            .map(|t| line(t, 2).to_string())
            .collect()
    }

    #[test]
    fn a_forgotten_pair_of_parentheses_is_written() {
        assert_eq!(
            regrouped("let _ = a && b || c;"),
            BTreeSet::from(["let _ = a && (b || c);".to_string()])
        );
        assert_eq!(
            regrouped("x + y * z"),
            BTreeSet::from(["(x + y) * z".to_string()])
        );
    }

    #[test]
    fn parentheses_around_the_wrong_operands_move() {
        assert_eq!(
            regrouped("let _ = (a || b) && c;"),
            BTreeSet::from(["let _ = (a || (b && c));".to_string()])
        );
        assert_eq!(
            regrouped("x - (y - z)"),
            BTreeSet::from(["(x - y) - z".to_string()])
        );
        // The inner expression's own parentheses inside it stay.
        assert_eq!(
            regrouped("x * ((y) + z)"),
            BTreeSet::from(["((x * (y)) + z)".to_string()])
        );
    }

    #[test]
    fn regroupings_that_keep_the_value_or_cannot_compile_are_not_made() {
        for body in [
            "x + y + z",
            "x * y * z",
            "let _ = a && b && c;",
            "(x + y) - z",
            "x + (y - z)",
            "let _ = x < y && c;",
            "x + y",
        ] {
            assert!(regrouped(body).is_empty(), "{body}");
        }
        // `-` is not associative.
        assert_eq!(
            regrouped("x - y - z"),
            BTreeSet::from(["x - (y - z)".to_string()])
        );
    }

    #[test]
    fn a_multi_line_chain_keeps_its_lines() {
        let text = "fn f(a: bool, b: bool, c: bool, d: bool) -> bool {\n    a\n        && (b && c)\n        || d\n}\n";
        let made = outcomes(text, Operator::Grouping, 2);
        assert_eq!(
            made,
            BTreeSet::from([
                "fn f(a: bool, b: bool, c: bool, d: bool) -> bool {\n    a\n        && ((b && c)\n        || d)\n}\n"
                    .to_string()
            ])
        );
    }
}
