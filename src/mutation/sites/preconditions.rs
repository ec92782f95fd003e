//! The preconditions the failing tests broke: an assertion of one of the
//! crate's functions (`assert!`, `debug_assert!` and their `_eq`/`_ne`
//! kin) that panicked, reading nothing but the function's parameters and
//! `self`, with the line of the crate's code that called the function (the
//! last one the test's trace ran outside it, not test code). A real fix of
//! such a crash most often goes in the caller, which checks the
//! precondition first: ttf-parser's `p.stack.pop()`, whose
//! `debug_assert!(!self.is_empty())` failed, fixed by `if !ctx.width_parsed
//! && !p.stack.is_empty()` around it.

use std::ops::RangeInclusive;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Stmt};

use crate::baseline::Baseline;
use crate::cargo::Verdict;
use crate::code::source::Location;
use crate::code::{free_variables, is_comparison, macro_arguments, test_line_ranges};

/// A precondition a failing test broke, and where it was called from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Precondition {
    /// The line of the crate's code that called the function.
    pub caller: Location,
    /// The function's name.
    pub callee: String,
    /// The asserted condition, as written in the function.
    pub condition: String,
    /// The function's parameters in order, `self` first for a method.
    pub parameters: Vec<String>,
}

/// The preconditions the crate's failing tests broke, each once.
pub fn preconditions(baseline: &Baseline) -> Vec<Precondition> {
    let sources = &baseline.sources;
    let mut found: Vec<Precondition> = Vec::new();
    for record in baseline.failing() {
        let Verdict::Failed(panic) = &record.outcome.verdict else {
            continue;
        };
        let Some((path, line)) = panic.file_and_line() else {
            continue;
        };
        let Some(file) = sources.find(path) else {
            continue;
        };
        let source = sources.get(file);
        let Some(asserted) = asserted_at(&source.syntax, &source.text, line) else {
            continue;
        };
        let in_tests = |at: &Location| {
            test_line_ranges(&sources.get(at.file).syntax)
                .iter()
                .any(|r| r.contains(&at.line))
        };
        let trace = baseline
            .traces
            .get(&record.test)
            .map_or(&[][..], Vec::as_slice);
        let caller = caller(trace, Location::new(file, line), &asserted.lines);
        let Some(caller) = caller.filter(|at| !in_tests(at)) else {
            continue;
        };
        let precondition = Precondition {
            caller,
            callee: asserted.callee,
            condition: asserted.condition,
            parameters: asserted.parameters,
        };
        if !found.contains(&precondition) {
            found.push(precondition);
        }
    }
    found
}

/// The line that called the function (its body's `lines`) whose
/// assertion at `asserting` failed: before the assertion last ran (what
/// its condition calls runs after it), the last line of `trace` outside
/// the function.
fn caller(
    trace: &[Location],
    asserting: Location,
    lines: &RangeInclusive<u32>,
) -> Option<Location> {
    let last = trace.iter().rposition(|at| *at == asserting)?;
    trace[..last]
        .iter()
        .rev()
        .find(|at| at.file != asserting.file || !lines.contains(&at.line))
        .copied()
}

/// An assertion at a line of a function, as a precondition.
struct Asserted {
    callee: String,
    /// The lines of the function's body.
    lines: RangeInclusive<u32>,
    condition: String,
    parameters: Vec<String>,
}

/// The assertion statement at `line` of a function of `file` (the
/// innermost function there), its condition reading only the function's
/// parameters and `self`.
fn asserted_at(file: &syn::File, text: &str, line: u32) -> Option<Asserted> {
    struct Finder<'t> {
        text: &'t str,
        line: u32,
        found: Option<Asserted>,
    }
    impl Finder<'_> {
        fn function(&mut self, sig: &syn::Signature, block: &syn::Block) {
            let span = block.span();
            let lines = span.start().line as u32..=span.end().line as u32;
            if !lines.contains(&self.line) {
                return;
            }
            let parameters: Vec<String> = sig
                .inputs
                .iter()
                .map(|input| match input {
                    syn::FnArg::Receiver(_) => Some("self".to_string()),
                    syn::FnArg::Typed(typed) => match &*typed.pat {
                        syn::Pat::Ident(ident) => Some(ident.ident.to_string()),
                        _ => None,
                    },
                })
                .collect::<Option<_>>()
                .unwrap_or_default();
            let at_line = block
                .stmts
                .iter()
                .filter(|s| s.span().start().line as u32 == self.line);
            let condition = at_line.filter_map(|s| assertion(s, self.text)).next();
            if let Some(condition) = condition
                && let Ok(parsed) = syn::parse_str::<Expr>(&condition)
                && !parameters.is_empty()
                && free_variables(&parsed)
                    .iter()
                    .all(|r| parameters.contains(r))
            {
                self.found = Some(Asserted {
                    callee: sig.ident.to_string(),
                    lines,
                    condition,
                    parameters,
                });
            }
        }
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.function(&f.sig, &f.block);
            visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.function(&f.sig, &f.block);
            visit::visit_impl_item_fn(self, f);
        }
    }
    let mut finder = Finder {
        text,
        line,
        found: None,
    };
    finder.visit_file(file);
    finder.found
}

/// The condition an assertion statement of `text` asserts, as written:
/// `C` of `assert!(C, ..)` or `debug_assert!(C)`, `A == B` of
/// `assert_eq!(A, B)`, `A != B` of `assert_ne!(A, B)`.
fn assertion(stmt: &Stmt, text: &str) -> Option<String> {
    let mac = match stmt {
        Stmt::Macro(m) => &m.mac,
        Stmt::Expr(Expr::Macro(m), _) => &m.mac,
        _ => return None,
    };
    let name = mac.path.get_ident()?.to_string();
    let arguments: Vec<Expr> = macro_arguments(mac).into_iter().collect();
    let written = |e: &Expr| text[e.span().byte_range()].to_string();
    let operator = match name.trim_start_matches("debug_") {
        "assert" => return arguments.first().map(written),
        "assert_eq" => "==",
        "assert_ne" => "!=",
        _ => return None,
    };
    let side = |e: &Expr| match e {
        Expr::Binary(b)
            if is_comparison(&b.op) || matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) =>
        {
            format!("({})", written(e))
        }
        _ => written(e),
    };
    Some(format!(
        "{} {operator} {}",
        side(arguments.first()?),
        side(arguments.get(1)?)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asserted(text: &str, line: u32) -> Option<(String, String, Vec<String>)> {
        let file = syn::parse_file(text).unwrap();
        asserted_at(&file, text, line).map(|a| (a.callee, a.condition, a.parameters))
    }

    #[test]
    fn an_assertion_on_parameters_and_self_is_a_precondition() {
        let text = "impl Stack {\n    fn pop(&mut self) -> f32 {\n        debug_assert!(!self.is_empty());\n        self.len -= 1;\n        self.data[self.len]\n    }\n    fn at(&self, i: usize, j: usize) -> f32 {\n        assert_eq!(i + 1, j, \"adjacent\");\n        assert!(i < LIMIT);\n        assert!(i < self.len && self.ok(), \"{i}\");\n        self.data[i]\n    }\n}\n";
        let pop = asserted(text, 3).unwrap();
        assert_eq!(
            pop,
            ("pop".into(), "!self.is_empty()".into(), vec!["self".into()])
        );
        let params = vec!["self".to_string(), "i".into(), "j".into()];
        assert_eq!(
            asserted(text, 8),
            Some(("at".into(), "i + 1 == j".into(), params.clone()))
        );
        // A constant read as it is (the caller may name it too).
        assert_eq!(asserted(text, 9).unwrap().1, "i < LIMIT");
        assert_eq!(
            asserted(text, 10),
            Some(("at".into(), "i < self.len && self.ok()".into(), params))
        );
        // Not an assertion; nor one of a local variable.
        assert_eq!(asserted(text, 4), None);
        let local = text.replace("assert!(i < LIMIT);", "let k = i; assert!(k < 3);");
        assert_eq!(asserted(&local, 9), None);
    }

    /// ttf-parser: `pop`'s assertion (file 0, line 38, its body lines
    /// 37-41) calls `is_empty` (line 17) after it starts; the caller is
    /// line 455 of file 1, which called `pop` the second time.
    #[test]
    fn the_caller_is_the_last_line_outside_the_function_before_the_assertion() {
        let at =
            |file: usize, line: u32| Location::new(crate::code::source::FileId::new(file), line);
        let trace = [
            at(1, 451),
            at(0, 38),
            at(0, 17),
            at(1, 455),
            at(0, 38),
            at(0, 17),
        ];
        assert_eq!(caller(&trace, at(0, 38), &(37..=41)), Some(at(1, 455)));
        // A trace that never reached the assertion names no caller.
        assert_eq!(caller(&trace[..1], at(0, 38), &(37..=41)), None);
    }
}
