//! A term forgotten: an integer `e` to `e - v` or `e + v`, where `v` is a
//! variable in scope of `e`'s type that `e` does not already use
//! (`scan_space(4)` to `scan_space(4 - indent)`: a measure taken from the
//! wrong origin). `e` is an operand (a call argument, a comparison's side,
//! a value given to a `let`...: where `e - v` needs no parentheses), whose
//! type the type probes know, or an integer literal there other than `0`
//! and `1`. A bare literal takes the type of what it is added to, so any
//! variable of a settled integer type is offered; where the literal's
//! place wants another, the edit does not compile and the woven build
//! drops it.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Literal, Site, SiteKind};
use crate::mutation::types::is_integer;

use super::{Context, MutationOperator, parenthesized};

/// Variables a site's edits take, at most (two edits each).
const VARIABLES: usize = 6;

/// `e` to `e - v` or `e + v`, `v` a same-typed variable in scope.
pub(super) struct Term;

impl MutationOperator for Term {
    fn operator(&self) -> Operator {
        Operator::Term
    }

    fn name(&self) -> &'static str {
        "term"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::Operand { .. }
                | SiteKind::Literal {
                    literal: Literal::Int { .. },
                    operand: true,
                    ..
                }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let (range, atomic, ty) = match &site.kind {
            SiteKind::Operand { range, atomic, .. } => {
                (range, *atomic, cx.types.expression(site.file, range))
            }
            // A bare literal takes the type of what it is added to; a
            // suffixed one has its own.
            // (`0` and `1` are everywhere, and `e ± 1` is `offset`'s.)
            SiteKind::Literal {
                range,
                literal: Literal::Int { suffix, value, .. },
                operand: true,
                ..
            } if *value > 1 => (range, true, (!suffix.is_empty()).then_some(suffix.as_str())),
            _ => return Vec::new(),
        };
        let own = &cx.text[range.clone()];
        let settled = |t: &str| is_integer(t) && t != "integer";
        let literal = matches!(site.kind, SiteKind::Literal { .. });
        let Some(wanted) = ty.filter(|t| settled(t)).or(literal.then_some("")) else {
            return Vec::new();
        };
        let variables = cx
            .types
            .variables_at(site.location())
            .filter(|(name, t)| {
                *name != "self"
                    && site.bound.iter().any(|b| b == name)
                    && settled(t)
                    && (wanted.is_empty() || *t == wanted)
                    && !mentions(own, name)
            })
            .take(VARIABLES);
        let own = parenthesized(own, atomic || is_sum_or_product(own));
        variables
            .flat_map(|(name, _)| [format!("{own} - {name}"), format!("{own} + {name}")])
            .map(|text| Edit::replace(range.clone(), text))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

/// Whether `text` is a sum or product, to which `- v` adds without
/// parentheses.
fn is_sum_or_product(text: &str) -> bool {
    use syn::BinOp::{Add, Div, Mul, Rem, Sub};
    matches!(
        syn::parse_str::<syn::Expr>(text),
        Ok(syn::Expr::Binary(b)) if matches!(b.op, Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_))
    )
}

/// Whether the expression `text` names `name`.
fn mentions(text: &str, name: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == name)
}
