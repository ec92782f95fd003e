//! Conditions: the condition of an `if` or `while`, or a comparison,
//! conjunction or `matches!` used as a value, as a site, and its boolean
//! parts as condition ingredients.

use syn::Expr;
use syn::spanned::Spanned;

use super::SiteKind;
use super::collector::{Collector, is_atomic};
use crate::code::{Scope, free_variables, has_let, is_comparison};

impl Collector<'_> {
    /// A condition site, and its parts as condition ingredients.
    pub(super) fn collect_condition(&mut self, cond: &Expr, scope: &Scope) {
        let range = cond.span().byte_range();
        self.conditions_end = self.conditions_end.max(range.end);
        let atomic = is_atomic(cond);
        let negation = negation(cond, self.text);
        let mut conditions = Vec::new();
        collect_conditions(cond, &mut conditions);
        let bounds = conditions
            .iter()
            .filter_map(|part| match part {
                Expr::Binary(binary)
                    if matches!(
                        binary.op,
                        syn::BinOp::Lt(_)
                            | syn::BinOp::Le(_)
                            | syn::BinOp::Gt(_)
                            | syn::BinOp::Ge(_)
                    ) =>
                {
                    Some(binary.op.span().byte_range())
                }
                _ => None,
            })
            .collect();
        self.site(
            scope,
            SiteKind::Condition {
                range,
                atomic,
                negation,
                bounds,
            },
        );
        for part in conditions {
            let range = part.span().byte_range();
            let ingredient = self.ingredient(
                part,
                range,
                free_variables(part),
                false,
                is_atomic(part),
                scope,
            );
            self.space.conditions.push(ingredient);
        }
    }
}

/// The negation of condition `cond` of `text`: `x` for `!x` (`a && b` for
/// `!(a && b)`), else `!x` or `!(x)`.
pub fn negation(cond: &Expr, text: &str) -> String {
    let own = &text[cond.span().byte_range()];
    match cond {
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Not(_)) => {
            let operand = match &*unary.expr {
                Expr::Paren(paren) => &*paren.expr,
                operand => operand,
            };
            text[operand.span().byte_range()].to_string()
        }
        _ if is_atomic(cond) => format!("!{own}"),
        _ => format!("!({own})"),
    }
}

/// A comparison, a conjunction or disjunction (not a chain of `let`s), or
/// a `matches!`: surely a `bool`.
pub(super) fn is_predicate(expr: &Expr) -> bool {
    if let Expr::Macro(call) = expr {
        return call.mac.path.is_ident("matches");
    }
    let Expr::Binary(binary) = expr else {
        return false;
    };
    let logical = matches!(binary.op, syn::BinOp::And(_) | syn::BinOp::Or(_));
    is_comparison(&binary.op) || (logical && !has_let(&binary.left) && !has_let(&binary.right))
}

/// A condition and its boolean parts (the operands of `&&`, `||` and `!`):
/// condition ingredients.
fn collect_conditions<'e>(cond: &'e Expr, out: &mut Vec<&'e Expr>) {
    out.push(cond);
    match cond {
        Expr::Binary(binary) if matches!(binary.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) => {
            collect_conditions(&binary.left, out);
            collect_conditions(&binary.right, out);
        }
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Not(_)) => {
            collect_conditions(&unary.expr, out)
        }
        Expr::Paren(paren) => collect_conditions(&paren.expr, out),
        _ => {}
    }
}
