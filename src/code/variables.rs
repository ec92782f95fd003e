//! The local variables of code: the names patterns and conditions bind,
//! the names code uses, where it reads or writes them, and the parameters
//! of its closures.

use std::collections::BTreeSet;

use quote::ToTokens;
use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use crate::code::tokens::macro_arguments;

/// Names a pattern binds: `x`, `mut x`, `ref x`, the fields of `S { x, y }`...
/// (not constants or unit variants, which start with an upper-case letter).
pub fn pattern_bindings(pat: &Pat) -> Vec<String> {
    struct Bindings(Vec<String>);
    impl<'ast> Visit<'ast> for Bindings {
        fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
            let name = pat.ident.to_string();
            if is_variable_name(&name) {
                self.0.push(name);
            }
            visit::visit_pat_ident(self, pat);
        }
        fn visit_expr(&mut self, _: &'ast Expr) {}
    }
    let mut bindings = Bindings(Vec::new());
    bindings.visit_pat(pat);
    bindings.0
}

fn is_variable_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_lowercase() || c == '_') || name == "self"
}

/// The names the `let`s of a condition bind (`if let Some(x) = ... && let ...`).
pub fn let_bindings(cond: &Expr) -> Vec<String> {
    let mut names = Vec::new();
    collect_let_bindings(cond, &mut names);
    names
}

fn collect_let_bindings(cond: &Expr, out: &mut Vec<String>) {
    match cond {
        Expr::Let(expr_let) => out.extend(pattern_bindings(&expr_let.pat)),
        Expr::Binary(binary) if matches!(binary.op, syn::BinOp::And(_)) => {
            collect_let_bindings(&binary.left, out);
            collect_let_bindings(&binary.right, out);
        }
        Expr::Paren(paren) => collect_let_bindings(&paren.expr, out),
        _ => {}
    }
}

/// The local variables a piece of code uses but does not bind itself: the
/// single-segment paths in expression position (not called as functions),
/// including those in the arguments of function-like macros that parse as
/// expressions (`println!("{}", x)`).
pub fn free_variables(node: &impl ToTokens) -> BTreeSet<String> {
    names_used(node, false)
}

/// Like [`free_variables`], but a field of `self` counts as a variable of
/// its own (`self.count`), for dependencies through fields.
pub fn variables_used(node: &impl ToTokens) -> BTreeSet<String> {
    names_used(node, true)
}

fn names_used(node: &impl ToTokens, self_fields: bool) -> BTreeSet<String> {
    struct Names {
        used: BTreeSet<String>,
        bound: BTreeSet<String>,
        self_fields: bool,
    }
    impl<'ast> Visit<'ast> for Names {
        fn visit_expr_field(&mut self, field: &'ast syn::ExprField) {
            match self_field(field) {
                Some(name) if self.self_fields => {
                    self.used.insert(name);
                }
                _ => visit::visit_expr_field(self, field),
            }
        }
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if !matches!(call.func.as_ref(), Expr::Path(_)) {
                self.visit_expr(&call.func);
            }
            for arg in &call.args {
                self.visit_expr(arg);
            }
        }
        fn visit_expr_path(&mut self, path: &'ast syn::ExprPath) {
            if path.qself.is_none()
                && let Some(ident) = path.path.get_ident()
            {
                let name = ident.to_string();
                if is_variable_name(&name) {
                    self.used.insert(name);
                }
            }
        }
        fn visit_pat(&mut self, pat: &'ast Pat) {
            self.bound.extend(pattern_bindings(pat));
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            for arg in &macro_arguments(mac) {
                self.visit_expr(arg);
            }
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let tokens = node.to_token_stream();
    let mut names = Names {
        used: BTreeSet::new(),
        bound: BTreeSet::new(),
        self_fields,
    };
    // A statement or an expression; a condition's `let` parses as a
    // statement once it has its semicolon.
    let block = syn::parse2::<syn::Block>(quote::quote!({ #tokens }))
        .or_else(|_| syn::parse2::<syn::Block>(quote::quote!({ #tokens; })));
    if let Ok(block) = block {
        names.visit_block(&block);
    }
    names.used.difference(&names.bound).cloned().collect()
}

/// Where the local variables `names` are read or written in `node` (single
/// identifiers in expression position, macro arguments included), as byte
/// ranges of the file `node` was parsed from.
pub fn variable_occurrences(
    node: &impl ToTokens,
    names: &BTreeSet<String>,
) -> Vec<(String, std::ops::Range<usize>)> {
    struct Finder<'a> {
        names: &'a BTreeSet<String>,
        found: Vec<(String, std::ops::Range<usize>)>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_expr_path(&mut self, path: &'ast syn::ExprPath) {
            if path.qself.is_none()
                && let Some(ident) = path.path.get_ident()
            {
                let name = ident.to_string();
                if self.names.contains(&name) {
                    self.found
                        .push((name, syn::spanned::Spanned::span(ident).byte_range()));
                }
            }
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            for arg in &macro_arguments(mac) {
                self.visit_expr(arg);
            }
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let tokens = node.to_token_stream();
    let mut finder = Finder {
        names,
        found: Vec::new(),
    };
    let block = syn::parse2::<syn::Block>(quote::quote!({ #tokens }))
        .or_else(|_| syn::parse2::<syn::Block>(quote::quote!({ #tokens; })));
    if let Ok(block) = block {
        finder.visit_block(&block);
    }
    finder.found.sort_by_key(|(_, range)| range.start);
    finder.found
}

/// `self.name` for a named field of `self`.
pub fn self_field(field: &syn::ExprField) -> Option<String> {
    match (field.base.as_ref(), &field.member) {
        (Expr::Path(base), syn::Member::Named(name)) if base.path.is_ident("self") => {
            Some(format!("self.{name}"))
        }
        _ => None,
    }
}

/// A statement or an expression of runnable code.
#[derive(Debug, Clone, Copy)]
pub enum Code<'a> {
    Stmt(&'a syn::Stmt),
    Expr(&'a Expr),
}

impl<'a> Code<'a> {
    pub(super) fn visit(self, visitor: &mut impl Visit<'a>) {
        match self {
            Code::Stmt(stmt) => visitor.visit_stmt(stmt),
            Code::Expr(expr) => visitor.visit_expr(expr),
        }
    }
}

/// The parameters of every closure in `code`.
pub fn closure_parameters(code: Code) -> Vec<String> {
    struct Finder(Vec<String>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
            self.0
                .extend(closure.inputs.iter().flat_map(pattern_bindings));
            visit::visit_expr_closure(self, closure);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut finder = Finder(Vec::new());
    code.visit(&mut finder);
    finder.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_variables_skip_callees_bound_names_and_constants() {
        let stmt: syn::Stmt =
            syn::parse_str("let total = helper(x, y) + self.z + MAX + { let w = 1; w };").unwrap();
        assert_eq!(
            free_variables(&stmt),
            BTreeSet::from(["self".to_string(), "x".into(), "y".into()])
        );
        let stmt: syn::Stmt = syn::parse_str("println!(\"{}\", count);").unwrap();
        assert_eq!(free_variables(&stmt), BTreeSet::from(["count".to_string()]));
        let expr: Expr = syn::parse_str("items.iter().any(|item| item == &needle)").unwrap();
        assert_eq!(
            free_variables(&expr),
            BTreeSet::from(["items".to_string(), "needle".into()])
        );
    }
}
