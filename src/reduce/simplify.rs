//! The syntactic reductions of a test body beyond deleting statements (the
//! seed's "Transforming Nodes" and its first exercise): an `if` to its then
//! or its else block, `a && b` and `a || b` to one operand or to
//! `true`/`false`, and a literal argument of a call (or of `vec![...]`) to
//! a simpler literal of its kind (`0`, `1`, `0.0`, `""`). Literals compared
//! by an assertion are expectations, not inputs: they are left alone (only
//! arguments of calls are simplified, and nothing in an assertion's operand
//! that calls no function, such as `vec!["a", "b"]`), so a reduced test
//! still checks what the original checked. And inputs are simplified only
//! when asked (`inputs`): a test whose own assertion fails ties its inputs
//! to its expected values, and a simpler input with the same expectation
//! fails on correct code too; a panic in the crate's code at the same line
//! is the same bug with any input.
//!
//! Pure: a body's text in, cuts out.

use std::ops::Range;

use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::code::{indentation, outdented};
use crate::reduce::body::Cut;

const IF_THEN: &str = "an `if` to its then block";
const IF_ELSE: &str = "an `if` to its else block";
const OPERAND: &str = "a `&&`/`||` to one operand";
const CONSTANT: &str = "a `&&`/`||` to `true`/`false`";
const LITERAL: &str = "a call's argument to a simpler literal";

/// The order reductions are preferred in: larger first.
const ORDER: [&str; 5] = [IF_THEN, IF_ELSE, OPERAND, CONSTANT, LITERAL];

/// Every single syntactic reduction of `body` (a block, braces included),
/// larger ones first, then in source order; literal arguments only with
/// `inputs`. Empty if it does not parse.
pub fn simplifications(body: &str, inputs: bool) -> Vec<Cut> {
    let Ok(block) = syn::parse_str::<syn::Block>(body) else {
        return Vec::new();
    };
    let mut finder = Finder {
        body,
        cuts: Vec::new(),
        statement_ifs: Vec::new(),
        inputs,
        expectations: 0,
    };
    finder.visit_block(&block);
    let mut cuts = finder.cuts;
    cuts.sort_by_key(|cut| {
        let rank = ORDER
            .iter()
            .position(|w| *w == cut.what)
            .unwrap_or(ORDER.len());
        (rank, cut.range.start, cut.range.end)
    });
    cuts.dedup_by(|a, b| a.range == b.range && a.text == b.text);
    cuts
}

struct Finder<'a> {
    body: &'a str,
    cuts: Vec<Cut>,
    /// `if`s in statement position, already reduced to their blocks' insides.
    statement_ifs: Vec<Range<usize>>,
    /// Whether literal arguments are simplified.
    inputs: bool,
    /// How many assertion operands that call no function (expected values)
    /// the visit is inside: nothing in them is reduced.
    expectations: usize,
}

/// The inside of a block, between its braces.
fn inside(block: &syn::Block) -> Range<usize> {
    let braces = &block.brace_token.span;
    braces.open().byte_range().end..braces.close().byte_range().start
}

impl Finder<'_> {
    /// An `if` to one of its blocks: in statement position the block's
    /// statements (so later rounds can delete them one by one), elsewhere
    /// the block as an expression.
    fn reduce_if(&mut self, expr: &syn::ExprIf, statement: bool) {
        // An `if let`'s blocks use what its pattern binds; an expected
        // value stays whole.
        if matches!(*expr.cond, syn::Expr::Let(_)) || self.expectations > 0 {
            return;
        }
        let range = expr.span().byte_range();
        let part = |block: &syn::Block| {
            if statement {
                inside(block)
            } else {
                block.span().byte_range()
            }
        };
        let then = part(&expr.then_branch);
        let mut cuts = vec![Cut::keep_part(self.body, range.clone(), then, IF_THEN)];
        if let Some((_, otherwise)) = &expr.else_branch {
            let kept = match &**otherwise {
                syn::Expr::Block(block) => part(&block.block),
                other => other.span().byte_range(),
            };
            cuts.push(Cut::keep_part(self.body, range.clone(), kept, IF_ELSE));
        }
        if statement {
            // The block's statements move out one level.
            let indent = indentation(self.body, range.start);
            for cut in &mut cuts {
                cut.text = outdented(&cut.text, indent);
            }
        }
        self.cuts.extend(cuts);
    }

    /// A literal argument (or a negated one) to simpler literals.
    fn reduce_argument(&mut self, argument: &syn::Expr) {
        if !self.inputs || self.expectations > 0 {
            return;
        }
        let (literal, negative) = match argument {
            syn::Expr::Lit(lit) => (&lit.lit, false),
            syn::Expr::Unary(unary) => match (&unary.op, &*unary.expr) {
                (syn::UnOp::Neg(_), syn::Expr::Lit(lit)) => (&lit.lit, true),
                _ => return,
            },
            _ => return,
        };
        for text in simpler_literals(literal, negative) {
            self.cuts.push(Cut {
                range: argument.span().byte_range(),
                text,
                kept: None,
                what: LITERAL,
            });
        }
    }
}

/// Literals simpler than `literal` (`-literal` when `negative`): an integer
/// goes to 0, or 1 from above 1; a float to 0.0; a string to "". Each
/// is simpler than the last, so reductions end.
fn simpler_literals(literal: &syn::Lit, negative: bool) -> Vec<String> {
    match literal {
        syn::Lit::Int(int) => {
            let suffix = int.suffix();
            match int.base10_parse::<u128>() {
                Ok(0) if !negative => vec![],
                Ok(1) if !negative => vec![format!("0{suffix}")],
                _ => vec![format!("0{suffix}"), format!("1{suffix}")],
            }
        }
        syn::Lit::Float(float) => match float.base10_parse::<f64>() {
            Ok(value) if value == 0.0 && !negative => vec![],
            _ => vec![format!("0.0{}", float.suffix())],
        },
        syn::Lit::Str(string) if !string.value().is_empty() => vec!["\"\"".to_string()],
        syn::Lit::ByteStr(bytes) if !bytes.value().is_empty() => vec!["b\"\"".to_string()],
        _ => vec![],
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
        if let syn::Stmt::Expr(syn::Expr::If(expr), _) = stmt {
            self.reduce_if(expr, true);
            self.statement_ifs.push(expr.span().byte_range());
        }
        syn::visit::visit_stmt(self, stmt);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {
        // Items declared in a test are not its statements.
    }

    fn visit_expr_if(&mut self, expr: &'ast syn::ExprIf) {
        if !self.statement_ifs.contains(&expr.span().byte_range()) {
            self.reduce_if(expr, false);
        }
        syn::visit::visit_expr_if(self, expr);
    }

    fn visit_expr_binary(&mut self, expr: &'ast syn::ExprBinary) {
        if matches!(expr.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) && self.expectations == 0 {
            let range = expr.span().byte_range();
            for operand in [&expr.left, &expr.right] {
                let kept = operand.span().byte_range();
                self.cuts
                    .push(Cut::keep_part(self.body, range.clone(), kept, OPERAND));
            }
            for constant in ["true", "false"] {
                self.cuts.push(Cut {
                    range: range.clone(),
                    text: constant.to_string(),
                    kept: None,
                    what: CONSTANT,
                });
            }
        }
        syn::visit::visit_expr_binary(self, expr);
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        call.args.iter().for_each(|a| self.reduce_argument(a));
        syn::visit::visit_expr_call(self, call);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        call.args.iter().for_each(|a| self.reduce_argument(a));
        syn::visit::visit_expr_method_call(self, call);
    }

    /// A macro whose input is expressions (`assert_eq!(a, b)`, `vec![...]`)
    /// is searched like code; `vec!`'s elements are arguments, and an
    /// assertion's operands that call no function are expected values.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let Some(exprs) = expressions(mac) else {
            return;
        };
        let is_vec = mac.path.is_ident("vec");
        let asserts = mac
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident.to_string().contains("assert"));
        for expr in &exprs {
            let expected = asserts && !calls_a_function(expr);
            self.expectations += usize::from(expected);
            if is_vec {
                self.reduce_argument(expr);
            }
            self.visit_expr(expr);
            self.expectations -= usize::from(expected);
        }
    }
}

/// A macro's input as comma-separated expressions (`assert_eq!(a, b)`,
/// `vec![...]`), if it is that.
fn expressions(mac: &syn::Macro) -> Option<Punctuated<syn::Expr, syn::Token![,]>> {
    mac.parse_body_with(Punctuated::parse_terminated).ok()
}

/// Whether `expr` calls a function or a method (a constructor such as
/// `Some(1)` or `Point(2, 3)`, named in upper case, is a value).
fn calls_a_function(expr: &syn::Expr) -> bool {
    struct Calls(bool);
    impl<'ast> Visit<'ast> for Calls {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            let constructor = match &*call.func {
                syn::Expr::Path(path) => path
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident.to_string().starts_with(char::is_uppercase)),
                _ => false,
            };
            self.0 |= !constructor;
            syn::visit::visit_expr_call(self, call);
        }

        fn visit_expr_method_call(&mut self, _: &'ast syn::ExprMethodCall) {
            self.0 = true;
        }

        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            expressions(mac)
                .into_iter()
                .flatten()
                .for_each(|e| self.visit_expr(&e));
        }
    }
    let mut calls = Calls(false);
    calls.visit_expr(expr);
    calls.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::body::apply;

    /// Each reduction applied alone, tidied to one line per statement.
    fn reduced(body: &str) -> Vec<String> {
        simplifications(body, true)
            .iter()
            .map(|cut| {
                apply(body, &[cut])
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn ifs_reduce_to_their_blocks_and_conditions_to_operands() {
        let body = "{\n    if ready && count > 2 {\n        go();\n    } else {\n        stop();\n    }\n}";
        assert_eq!(
            reduced(body),
            [
                "{ go(); }",
                "{ stop(); }",
                "{ if ready { go(); } else { stop(); } }",
                "{ if count > 2 { go(); } else { stop(); } }",
                "{ if true { go(); } else { stop(); } }",
                "{ if false { go(); } else { stop(); } }",
            ]
        );
        // The block's statements move out one level, keeping their lines.
        let moved = apply(body, &[&simplifications(body, true)[0]]);
        assert_eq!(moved.lines().nth(2), Some("    go();"));
        assert_eq!(moved.lines().count(), body.lines().count());
        // In expression position an `if` becomes a block expression.
        assert_eq!(
            reduced("{ let x = if a { 1 } else { 2 }; }")[..2],
            ["{ let x = { 1 }; }", "{ let x = { 2 }; }"]
        );
        // `if let` is left alone: its blocks use what it binds.
        assert!(simplifications("{ if let Some(x) = y { use_it(x); } }", true).is_empty());
    }

    #[test]
    fn call_arguments_get_simpler_literals_and_expectations_do_not() {
        let body = "{ assert_eq!(price(12, -3, 1, 0, 2.5, \"abc\"), 7); let v = vec![5u8]; }";
        assert_eq!(
            reduced(body),
            [
                "{ assert_eq!(price(0, -3, 1, 0, 2.5, \"abc\"), 7); let v = vec![5u8]; }",
                "{ assert_eq!(price(1, -3, 1, 0, 2.5, \"abc\"), 7); let v = vec![5u8]; }",
                "{ assert_eq!(price(12, 0, 1, 0, 2.5, \"abc\"), 7); let v = vec![5u8]; }",
                "{ assert_eq!(price(12, 1, 1, 0, 2.5, \"abc\"), 7); let v = vec![5u8]; }",
                "{ assert_eq!(price(12, -3, 0, 0, 2.5, \"abc\"), 7); let v = vec![5u8]; }",
                "{ assert_eq!(price(12, -3, 1, 0, 0.0, \"abc\"), 7); let v = vec![5u8]; }",
                "{ assert_eq!(price(12, -3, 1, 0, 2.5, \"\"), 7); let v = vec![5u8]; }",
                "{ assert_eq!(price(12, -3, 1, 0, 2.5, \"abc\"), 7); let v = vec![0u8]; }",
                "{ assert_eq!(price(12, -3, 1, 0, 2.5, \"abc\"), 7); let v = vec![1u8]; }",
            ]
        );
        assert!(simplifications("{ assert_eq!(x, 7); assert!(y > 3); }", true).is_empty());
        assert!(simplifications("{ let = }", true).is_empty());
    }

    #[test]
    fn expected_values_stay_and_inputs_only_when_asked() {
        let body = "{ assert_eq!(wrap(\"one two three\", 7), vec![\"one two\", \"three\"]); }";
        // A failing assertion ties the inputs to the expectation.
        assert!(simplifications(body, false).is_empty());
        // Asked for inputs (a crash), the call's arguments; never the
        // expected `vec!` that calls nothing, nor `Some(2)`.
        let made = reduced(body);
        assert_eq!(made.len(), 3, "{made:?}");
        assert!(
            made.iter()
                .all(|m| m.contains("vec![\"one two\", \"three\"]")),
            "{made:?}"
        );
        assert!(simplifications("{ assert_eq!(f(), Some(2)); }", true).is_empty());
        // An operand that calls a function is not an expectation.
        assert_eq!(reduced("{ assert!(vec![f(3)].is_empty()); }").len(), 2);
    }
}
