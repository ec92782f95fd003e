//! Conditions replaced by their negation or by a condition of the crate,
//! or combined with one by `&&` or `||`.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator, closest, parenthesized};

/// Replace, negate, or `&&`/`||`-combine a condition.
pub(super) struct Condition;

impl MutationOperator for Condition {
    fn operator(&self) -> Operator {
        Operator::Condition
    }

    fn name(&self) -> &'static str {
        "condition"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Condition { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Condition {
            range,
            atomic,
            negation,
            ..
        } = &site.kind
        else {
            return Vec::new();
        };
        let own = &cx.text[range.clone()];
        let mut out = vec![Edit::replace(range.clone(), negation.clone())];
        for other in closest(&cx.space.conditions, site, cx.space)
            .filter(|i| i.fits(&site.bound) && i.text != own)
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

    fn unusualness(&self, _: &str, _: &str) -> usize {
        2
    }
}

/// A condition as an operand of `&&`: in parentheses only if it is a
/// disjunction (`a || b`), since everything else a condition holds (a
/// comparison, a negation, a conjunction) binds at least as tightly. (As an
/// operand of `||`, a condition never needs them.)
pub(super) fn conjunct(text: &str, atomic: bool) -> String {
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
