//! The local variables of code: the names patterns and conditions bind,
//! the names code uses, where it reads or writes them, and the parameters
//! of its closures.

use std::collections::BTreeSet;

use quote::ToTokens;
use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use crate::code::tokens::{format_captures, macro_arguments, matches_call};

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
/// expressions (`println!("{}", x)`). A name counts where no binding of
/// the code is in scope: `x` in `x.len() + v.iter().map(|x| x).sum()`.
pub fn free_variables(node: &impl ToTokens) -> BTreeSet<String> {
    free_uses(node, false).names()
}

/// Like [`free_variables`], but a field of `self` counts as a variable of
/// its own (`self.count`), for dependencies through fields.
pub fn variables_used(node: &impl ToTokens) -> BTreeSet<String> {
    free_uses(node, true).names()
}

/// Where the local variables `names` are read or written in `node` where
/// `node` does not bind them itself (see [`free_variables`]), as byte
/// ranges of the file `node` was parsed from, in order.
pub fn variable_occurrences(
    node: &impl ToTokens,
    names: &BTreeSet<String>,
) -> Vec<(String, std::ops::Range<usize>)> {
    let mut found: Vec<_> = free_uses(node, false)
        .found
        .into_iter()
        .filter(|(name, _)| names.contains(name))
        .collect();
    found.sort_by_key(|(_, range)| range.start);
    found
}

/// Each use in `node` of a name it does not bind where the use is (with
/// `self_fields`, `self.count` as a name of its own), with its bytes, and
/// the names its format strings capture (`"{start}"`).
fn free_uses(node: &impl ToTokens, self_fields: bool) -> Uses {
    let tokens = node.to_token_stream();
    let mut uses = Uses {
        found: Vec::new(),
        captured: Vec::new(),
        scopes: vec![Vec::new()],
        self_fields,
    };
    // An expression (a condition with its `let`s: `let Some(x) = o && x >
    // 0` binds `x` for what follows), else a statement.
    if let Ok(expr) = syn::parse2::<Expr>(tokens.clone()) {
        uses.visit_expr(&expr);
    } else if let Ok(block) = syn::parse2::<syn::Block>(quote::quote!({ #tokens }))
        .or_else(|_| syn::parse2::<syn::Block>(quote::quote!({ #tokens; })))
    {
        uses.visit_block(&block);
    }
    uses
}

/// The walk of [`free_uses`]: the names bound in each scope around the
/// point reached (a block's `let`s from where they are, a closure's
/// parameters, an arm's or a loop's pattern, an `if let`'s bindings).
struct Uses {
    found: Vec<(String, std::ops::Range<usize>)>,
    /// Names a format string captures: no bytes of their own to rename.
    captured: Vec<String>,
    scopes: Vec<Vec<String>>,
    self_fields: bool,
}

impl Uses {
    fn bind(&mut self, pat: &Pat) {
        let names = pattern_bindings(pat);
        self.scopes.last_mut().expect("a scope").extend(names);
    }

    fn scoped(&mut self, walk: impl FnOnce(&mut Self)) {
        self.scopes.push(Vec::new());
        walk(self);
        self.scopes.pop();
    }

    fn is_bound(&self, name: &str) -> bool {
        self.scopes.iter().flatten().any(|bound| bound == name)
    }

    fn use_name(&mut self, name: String, range: std::ops::Range<usize>) {
        if !self.is_bound(&name) {
            self.found.push((name, range));
        }
    }

    /// Every name used, captured ones included.
    fn names(self) -> BTreeSet<String> {
        let used = self.found.into_iter().map(|(name, _)| name);
        used.chain(self.captured).collect()
    }
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.scoped(|this| visit::visit_block(this, block));
    }
    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let Some(init) = &local.init {
            self.visit_expr(&init.expr);
            if let Some((_, diverge)) = &init.diverge {
                self.visit_expr(diverge);
            }
        }
        self.bind(&local.pat);
    }
    fn visit_expr_let(&mut self, expr: &'ast syn::ExprLet) {
        self.visit_expr(&expr.expr);
        self.bind(&expr.pat);
    }
    fn visit_expr_if(&mut self, expr: &'ast syn::ExprIf) {
        // What the condition's `let`s bind is in scope in the `then` block.
        self.scoped(|this| {
            this.visit_expr(&expr.cond);
            this.visit_block(&expr.then_branch);
        });
        if let Some((_, otherwise)) = &expr.else_branch {
            self.visit_expr(otherwise);
        }
    }
    fn visit_expr_while(&mut self, expr: &'ast syn::ExprWhile) {
        self.scoped(|this| {
            this.visit_expr(&expr.cond);
            this.visit_block(&expr.body);
        });
    }
    fn visit_expr_for_loop(&mut self, expr: &'ast syn::ExprForLoop) {
        self.visit_expr(&expr.expr);
        self.scoped(|this| {
            this.bind(&expr.pat);
            this.visit_block(&expr.body);
        });
    }
    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        self.scoped(|this| {
            this.bind(&arm.pat);
            if let Pat::Guard(guarded) = &arm.pat {
                this.visit_expr(&guarded.guard);
            }
            this.visit_expr(&arm.body);
        });
    }
    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        self.scoped(|this| {
            for input in &closure.inputs {
                this.bind(input);
            }
            this.visit_expr(&closure.body);
        });
    }
    fn visit_expr_field(&mut self, field: &'ast syn::ExprField) {
        match self_field(field) {
            Some(name) if self.self_fields => {
                let range = syn::spanned::Spanned::span(field).byte_range();
                self.use_name(name, range);
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
                self.use_name(name, syn::spanned::Spanned::span(ident).byte_range());
            }
        }
    }
    fn visit_pat(&mut self, _: &'ast Pat) {}
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(call) = matches_call(mac) {
            self.visit_expr(&call.value);
            self.scoped(|uses| {
                uses.bind(&call.pattern);
                if let Some(guard) = &call.guard {
                    uses.visit_expr(guard);
                }
            });
            return;
        }
        for arg in &macro_arguments(mac) {
            self.visit_expr(arg);
            if let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(format),
                ..
            }) = arg
            {
                for name in format_captures(&format.value()) {
                    if is_variable_name(&name) && !self.is_bound(&name) {
                        self.captured.push(name);
                    }
                }
            }
        }
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
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
        // `matches!` takes a pattern, no expression: its value and guard
        // are read, the names its pattern binds are not free in the guard.
        let stmt: syn::Stmt =
            syn::parse_str("eprintln!(\"[{start}-{end:?}]: {0} {{x}}\", r);").unwrap();
        assert_eq!(
            free_variables(&stmt),
            BTreeSet::from(["end".to_string(), "r".into(), "start".into()])
        );
        let expr: Expr = syn::parse_str("matches!(c, b'0'..=b'9' | b'a'..=b'z')").unwrap();
        assert_eq!(free_variables(&expr), BTreeSet::from(["c".to_string()]));
        let expr: Expr = syn::parse_str("matches!(o, Some(v) if v > limit,)").unwrap();
        assert_eq!(
            free_variables(&expr),
            BTreeSet::from(["limit".to_string(), "o".into()])
        );
        let expr: Expr = syn::parse_str("items.iter().any(|item| item == &needle)").unwrap();
        assert_eq!(
            free_variables(&expr),
            BTreeSet::from(["items".to_string(), "needle".into()])
        );
    }

    #[test]
    fn a_binding_counts_only_where_it_is_in_scope() {
        // `x` outside the closure that binds it, `n` before its `let`, an
        // arm's and an `if let`'s bindings outside their arm and block.
        let stmt: syn::Stmt =
            syn::parse_str("if x.len() > 0 && v.iter().any(|x| *x > 0) { let n = n + 1; f(n); }")
                .unwrap();
        let names = BTreeSet::from(["n".to_string(), "v".into(), "x".into()]);
        assert_eq!(free_variables(&stmt), names);
        let expr: Expr = syn::parse_str(
            "f(match o { Some(k) => k, None => k }, if let Some(j) = p { j } else { j })",
        )
        .unwrap();
        assert_eq!(
            free_variables(&expr),
            BTreeSet::from(["j".to_string(), "k".into(), "o".into(), "p".into()])
        );
        // A condition's `let` binds for the rest of it.
        let cond: Expr = syn::parse_str("let Some(x) = o && x > 0").unwrap();
        assert_eq!(free_variables(&cond), BTreeSet::from(["o".to_string()]));
        // Renaming `x` leaves the closure's own `x` alone.
        let code = "x.iter().map(|x| x + 1)";
        let expr: Expr = syn::parse_str(code).unwrap();
        let found = variable_occurrences(&expr, &BTreeSet::from(["x".to_string()]));
        let texts: Vec<_> = found
            .iter()
            .map(|(_, r)| (r.start, &code[r.clone()]))
            .collect();
        assert_eq!(texts, [(0, "x")]);
    }
}
