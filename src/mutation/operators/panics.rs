//! When a statement panics: each operation in it that panics on some
//! values, with the condition under which it does, written as code for a
//! guard in front of the statement (`if i >= v.len() { return None; }`
//! before `let x = v[i];`). An index past the end (`v[i]`, `v[a..b]`, a
//! map's missing key), an unwrap of nothing (`x.unwrap()` on an `Option` or
//! a `Result`), a division by zero, an unsigned subtraction below zero.
//! The operations are those `code::operations` finds (not in the
//! statement's blocks, closures and `match` arms).

use std::ops::Range;

use syn::spanned::Spanned;
use syn::{BinOp, Expr, RangeLimits};

use crate::code::{Operation, is_comparison, is_compound_assignment, operations};
use crate::mutation::sites::is_atomic;
use crate::mutation::types::{is_integer, is_option};

use super::parenthesized;

/// Conditions written for one statement, at most.
const MAX_CONDITIONS: usize = 4;

/// Methods whose `Option` a statement unwraps, when the type oracle does
/// not know the receiver's type (their receivers are read, not changed).
const OPTION_GETTERS: [&str; 8] = [
    "get",
    "first",
    "last",
    "find",
    "position",
    "strip_prefix",
    "strip_suffix",
    "parent",
];

/// The conditions under which `statement` panics, the first operations
/// first; `type_of` gives the type of an operand (its range in
/// `statement`, its text) where it is known.
pub(super) fn panic_conditions(
    statement: &str,
    type_of: &dyn Fn(Range<usize>, &str) -> Option<String>,
) -> Vec<String> {
    // A block's value (no semicolon) is an expression to syn.
    let parsed = match syn::parse_str::<syn::Stmt>(statement) {
        Ok(parsed) => parsed,
        Err(_) => match syn::parse_str::<Expr>(statement) {
            Ok(parsed) => syn::Stmt::Expr(parsed, None),
            Err(_) => return Vec::new(),
        },
    };
    let writer = Writer {
        text: statement,
        type_of,
    };
    let mut conditions: Vec<String> = Vec::new();
    for operation in operations(&parsed) {
        if let Some(condition) = writer.condition(operation)
            && !conditions.contains(&condition)
        {
            conditions.push(condition);
        }
    }
    conditions.truncate(MAX_CONDITIONS);
    conditions
}

/// Writes the condition of an operation of a statement as code.
struct Writer<'a> {
    text: &'a str,
    type_of: &'a dyn Fn(Range<usize>, &str) -> Option<String>,
}

impl Writer<'_> {
    fn condition(&self, operation: Operation) -> Option<String> {
        match operation {
            Operation::Index { base, index } => self.index(base, index),
            Operation::Unwrap { receiver } => self.unwrap(receiver),
            Operation::Division { divisor } => self.division(divisor),
            Operation::Subtraction { left, right } => self.subtraction(left, right),
        }
    }

    /// The expression's text as a comparison's operand, in parentheses
    /// where the comparison would read it otherwise (`(n as usize) < m`;
    /// `i + 1 >= v.len()` needs none).
    fn operand(&self, expr: &Expr) -> String {
        let text = &self.text[expr.span().byte_range()];
        let loose = match expr {
            Expr::Binary(binary) => {
                is_comparison(&binary.op)
                    || is_compound_assignment(&binary.op)
                    || matches!(binary.op, BinOp::And(_) | BinOp::Or(_))
            }
            Expr::Cast(_) | Expr::Range(_) | Expr::Assign(_) | Expr::Closure(_) | Expr::Let(_) => {
                true
            }
            _ => false,
        };
        parenthesized(text, !loose)
    }

    /// The expression's text as a method's receiver (`(*v).len()`).
    fn receiver(&self, expr: &Expr) -> String {
        parenthesized(&self.text[expr.span().byte_range()], is_atomic(expr))
    }

    fn type_of(&self, expr: &Expr) -> Option<String> {
        let range = expr.span().byte_range();
        let ty = (self.type_of)(range.clone(), &self.text[range])?;
        Some(
            ty.trim_start_matches('&')
                .trim_start_matches("mut ")
                .to_string(),
        )
    }

    fn index(&self, base: &Expr, index: &Expr) -> Option<String> {
        let collection = self.receiver(base);
        let ty = self.type_of(base).unwrap_or_default();
        Some(match index {
            _ if ty.starts_with("HashMap<") || ty.starts_with("BTreeMap<") => {
                let key = &self.text[index.span().byte_range()];
                format!("!{collection}.contains_key({key})")
            }
            Expr::Range(range) => {
                let (bound, limits) = match (&range.end, &range.start) {
                    (Some(end), _) => (end, range.limits),
                    (None, Some(start)) => (start, RangeLimits::HalfOpen(Default::default())),
                    (None, None) => return None,
                };
                let bound = self.operand(bound);
                match limits {
                    RangeLimits::HalfOpen(_) => format!("{bound} > {collection}.len()"),
                    RangeLimits::Closed(_) => format!("{bound} >= {collection}.len()"),
                }
            }
            Expr::Lit(literal) if literal_is(literal, "0") => format!("{collection}.is_empty()"),
            _ => format!("{} >= {collection}.len()", self.operand(index)),
        })
    }

    fn unwrap(&self, receiver: &Expr) -> Option<String> {
        let text = self.receiver(receiver);
        let getter = matches!(receiver, Expr::MethodCall(call)
            if OPTION_GETTERS.contains(&call.method.to_string().as_str())
                || call.method.to_string().starts_with("checked_"));
        match self.type_of(receiver) {
            Some(ty) if is_option(&ty) => Some(format!("{text}.is_none()")),
            Some(ty) if ty.starts_with("Result<") => Some(format!("{text}.is_err()")),
            None if getter => Some(format!("{text}.is_none()")),
            _ => None,
        }
    }

    fn division(&self, divisor: &Expr) -> Option<String> {
        let integer = self.type_of(divisor).is_none_or(|ty| is_integer(&ty));
        (integer && !matches!(divisor, Expr::Lit(_)))
            .then(|| format!("{} == 0", self.operand(divisor)))
    }

    fn subtraction(&self, left: &Expr, right: &Expr) -> Option<String> {
        // Only where the oracle says the left side is unsigned:
        // subtractions are everywhere, most of them of signed numbers or
        // of values known to be larger.
        let unsigned = self
            .type_of(left)
            .is_some_and(|ty| ty.starts_with('u') && is_integer(&ty));
        if !unsigned {
            return None;
        }
        let left = self.operand(left);
        Some(match right {
            Expr::Lit(literal) if literal_is(literal, "1") => format!("{left} == 0"),
            _ => format!("{left} < {}", self.operand(right)),
        })
    }
}

fn literal_is(literal: &syn::ExprLit, value: &str) -> bool {
    matches!(&literal.lit, syn::Lit::Int(int) if int.base10_digits() == value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conditions(statement: &str, types: &[(&str, &str)]) -> Vec<String> {
        let types: Vec<(String, String)> = types
            .iter()
            .map(|(e, t)| (e.to_string(), t.to_string()))
            .collect();
        panic_conditions(statement, &move |_, text| {
            types
                .iter()
                .find(|(e, _)| e == text)
                .map(|(_, t)| t.clone())
        })
    }

    #[test]
    fn an_index_panics_past_the_end() {
        assert_eq!(
            conditions("let c = self.pattern[pattern_idx];", &[]),
            ["pattern_idx >= self.pattern.len()"]
        );
        assert_eq!(conditions("v[i + 1]", &[]), ["i + 1 >= v.len()"]);
        assert_eq!(
            conditions("v[n as usize]", &[]),
            ["(n as usize) >= v.len()"]
        );
        assert_eq!(conditions("let x = (*v)[i];", &[]), ["i >= (*v).len()"]);
        assert_eq!(conditions("let first = v[0];", &[]), ["v.is_empty()"]);
        assert_eq!(conditions("let s = &b[a..n];", &[]), ["n > b.len()"]);
        assert_eq!(conditions("let s = &b[a..=n];", &[]), ["n >= b.len()"]);
        assert_eq!(conditions("let s = &b[a..];", &[]), ["a > b.len()"]);
        assert_eq!(
            conditions(
                "total += prices[&name];",
                &[("prices", "&HashMap<String, u32>")]
            ),
            ["!prices.contains_key(&name)"]
        );
        // Inner first.
        assert_eq!(
            conditions("let x = v[w[i]];", &[]),
            ["i >= w.len()", "w[i] >= v.len()"]
        );
    }

    #[test]
    fn an_unwrap_panics_on_nothing_of_its_type() {
        assert_eq!(
            conditions(
                "let x = self.cache.unwrap();",
                &[("self.cache", "Option<u32>")]
            ),
            ["self.cache.is_none()"]
        );
        assert_eq!(
            conditions(
                "let n = parsed.expect(\"a number\");",
                &[("parsed", "Result<u32, E>")]
            ),
            ["parsed.is_err()"]
        );
        assert_eq!(
            conditions("let x = map.get(&k).unwrap();", &[]),
            ["map.get(&k).is_none()"]
        );
        // A receiver of unknown type, or one that changes what it reads
        // (`next`), gets no guard.
        assert!(conditions("let x = it.next().unwrap();", &[]).is_empty());
        assert!(conditions("let x = y.unwrap();", &[]).is_empty());
    }

    #[test]
    fn a_division_panics_by_zero_and_an_unsigned_subtraction_below_it() {
        assert_eq!(
            conditions("let m = n % self.cap();", &[]),
            ["self.cap() == 0"]
        );
        assert!(conditions("let m = n / 2;", &[]).is_empty());
        assert!(conditions("let m = x / y;", &[("y", "f64")]).is_empty());
        assert_eq!(conditions("let d = a - b;", &[("a", "usize")]), ["a < b"]);
        assert_eq!(conditions("len -= 1;", &[("len", "u32")]), ["len == 0"]);
        assert!(conditions("let d = a - b;", &[("a", "i64")]).is_empty());
        assert!(conditions("let d = a - b;", &[]).is_empty());
        assert_eq!(
            conditions("let d = (n as usize) - k;", &[("(n as usize)", "usize")]),
            ["(n as usize) < k"]
        );
    }

    #[test]
    fn the_statements_blocks_closures_and_arms_are_left_out() {
        assert_eq!(
            conditions("if v[i] > 0 { let y = w[j]; }", &[]),
            ["i >= v.len()"]
        );
        assert!(conditions("let f = |i: usize| v[i];", &[]).is_empty());
        assert!(conditions("match k { Some(i) => v[i], None => 0 }", &[]).is_empty());
        assert!(conditions("not rust (", &[]).is_empty());
    }
}
