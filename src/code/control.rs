//! The shapes of control flow in code: where a statement may leave its
//! block early, the values an `if`, `match` or block gives, the headers of
//! compound expressions, `let`s in conditions, and whether code may call
//! the crate's.

use std::collections::BTreeSet;

use proc_macro2::Span;
use syn::Expr;
use syn::visit::{self, Visit};

use crate::code::variables::{Code, let_bindings, pattern_bindings};

/// Where running `stmt` (at `line`) may leave its block early: for each
/// `return`, `?`, `break` or `continue` in it (not in a closure or item
/// inside it, nor an unlabelled `break` or `continue` of a loop inside it),
/// or macro that returns (`bail!`, `ensure!`), the line of the innermost
/// `if`, `else if`, `while` or `match` around it, or `line`.
pub fn early_exits(stmt: &syn::Stmt, line: u32) -> BTreeSet<u32> {
    struct Finder {
        decisions: Vec<u32>,
        loops: usize,
        exits: BTreeSet<u32>,
        line: u32,
    }
    impl Finder {
        fn exit(&mut self) {
            self.exits
                .insert(self.decisions.last().copied().unwrap_or(self.line));
        }
        fn decide(&mut self, token: Span, walk: impl FnOnce(&mut Self)) {
            self.decisions.push(token.start().line as u32);
            walk(self);
            self.decisions.pop();
        }
        fn in_loop(&mut self, walk: impl FnOnce(&mut Self)) {
            self.loops += 1;
            walk(self);
            self.loops -= 1;
        }
        /// A `break` or `continue` leaves the statement unless it belongs
        /// to a loop inside it.
        fn jump(&mut self, label: Option<&syn::Lifetime>) {
            if self.loops == 0 || label.is_some() {
                self.exit();
            }
        }
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_return(&mut self, expr: &'ast syn::ExprReturn) {
            self.exit();
            visit::visit_expr_return(self, expr);
        }
        fn visit_expr_try(&mut self, expr: &'ast syn::ExprTry) {
            self.exit();
            visit::visit_expr_try(self, expr);
        }
        fn visit_expr_break(&mut self, expr: &'ast syn::ExprBreak) {
            self.jump(expr.label.as_ref());
            visit::visit_expr_break(self, expr);
        }
        fn visit_expr_continue(&mut self, expr: &'ast syn::ExprContinue) {
            self.jump(expr.label.as_ref());
        }
        fn visit_expr_loop(&mut self, expr: &'ast syn::ExprLoop) {
            self.in_loop(|this| visit::visit_expr_loop(this, expr));
        }
        fn visit_expr_for_loop(&mut self, expr: &'ast syn::ExprForLoop) {
            self.in_loop(|this| visit::visit_expr_for_loop(this, expr));
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            if mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "bail" || s.ident == "ensure")
            {
                self.exit();
            }
        }
        fn visit_expr_if(&mut self, expr: &'ast syn::ExprIf) {
            self.decide(expr.if_token.span, |this| visit::visit_expr_if(this, expr));
        }
        fn visit_expr_while(&mut self, expr: &'ast syn::ExprWhile) {
            self.decide(expr.while_token.span, |this| {
                this.in_loop(|this| visit::visit_expr_while(this, expr))
            });
        }
        fn visit_expr_match(&mut self, expr: &'ast syn::ExprMatch) {
            self.decide(expr.match_token.span, |this| {
                visit::visit_expr_match(this, expr)
            });
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut finder = Finder {
        decisions: Vec::new(),
        loops: 0,
        exits: BTreeSet::new(),
        line,
    };
    finder.visit_stmt(stmt);
    finder.exits
}

/// The expressions that give `value` its value: `value` itself, or, for an
/// `if`, `match` or block, the values of its branches (their last
/// expressions, arm bodies), nested. A branch that ends in a statement
/// gives none.
pub fn branch_values(value: &Expr) -> Vec<&Expr> {
    fn tail<'e>(block: &'e syn::Block, values: &mut Vec<&'e Expr>) {
        if let Some(syn::Stmt::Expr(expr, None)) = block.stmts.last() {
            collect(expr, values);
        }
    }
    fn collect<'e>(value: &'e Expr, values: &mut Vec<&'e Expr>) {
        match value {
            Expr::If(e) => {
                tail(&e.then_branch, values);
                if let Some((_, other)) = &e.else_branch {
                    collect(other, values);
                }
            }
            Expr::Block(e) => tail(&e.block, values),
            Expr::Unsafe(e) => tail(&e.block, values),
            Expr::Match(e) => e.arms.iter().for_each(|arm| collect(&arm.body, values)),
            Expr::Paren(e) => collect(&e.expr, values),
            _ => values.push(value),
        }
    }
    let mut values = Vec::new();
    collect(value, &mut values);
    values
}

/// The head of a compound expression that decides what runs under it.
pub struct Header<'e> {
    /// `if`, `while`, `loop`, `match` or `for`.
    pub kind: &'static str,
    /// The expression the header evaluates (a condition, a scrutinee, an
    /// iterable; none for `loop`).
    pub head: Option<&'e Expr>,
    /// The names it binds for the code under it (an `if let`'s, a `for`'s
    /// pattern, every arm's).
    pub binds: Vec<String>,
    /// The first block under it (none for `match`).
    pub block: Option<&'e syn::Block>,
}

/// The header of `expr`, if it is an `if`, `while`, `loop`, `match` or `for`.
pub fn header(expr: &Expr) -> Option<Header<'_>> {
    let header = |kind, head, binds, block| {
        Some(Header {
            kind,
            head,
            binds,
            block,
        })
    };
    match expr {
        Expr::If(e) => header(
            "if",
            Some(&*e.cond),
            let_bindings(&e.cond),
            Some(&e.then_branch),
        ),
        Expr::While(e) => header(
            "while",
            Some(&*e.cond),
            let_bindings(&e.cond),
            Some(&e.body),
        ),
        Expr::Loop(e) => header("loop", None, Vec::new(), Some(&e.body)),
        Expr::Match(e) => {
            let binds = e.arms.iter().flat_map(|arm| pattern_bindings(&arm.pat));
            header("match", Some(&*e.expr), binds.collect(), None)
        }
        Expr::ForLoop(e) => header(
            "for",
            Some(&*e.expr),
            pattern_bindings(&e.pat),
            Some(&e.body),
        ),
        _ => None,
    }
}

/// Whether a `&&` chain holds a `let` (`if let Some(x) = a && x > 0`).
pub fn has_let(expr: &Expr) -> bool {
    match expr {
        Expr::Let(_) => true,
        Expr::Binary(binary) if matches!(binary.op, syn::BinOp::And(_)) => {
            has_let(&binary.left) || has_let(&binary.right)
        }
        _ => false,
    }
}

/// Whether running `code` may call code of the crate: a call, a method
/// call, a macro, or an operator, index or `?` (which a trait impl may
/// define). Closure bodies do not count (they run when called).
pub fn may_call(code: Code) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            match expr {
                Expr::Call(_)
                | Expr::MethodCall(_)
                | Expr::Macro(_)
                | Expr::Binary(_)
                | Expr::Unary(_)
                | Expr::Index(_)
                | Expr::Try(_)
                | Expr::ForLoop(_)
                | Expr::Await(_) => self.0 = true,
                Expr::Closure(_) => {}
                _ => visit::visit_expr(self, expr),
            }
        }
        fn visit_macro(&mut self, _: &'ast syn::Macro) {
            self.0 = true;
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut finder = Finder(false);
    code.visit(&mut finder);
    finder.0
}
