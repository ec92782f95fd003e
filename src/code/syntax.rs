//! Walks the code of a file that runs at run time, and says where each
//! piece of it is: its location (the line the coverage probes report) and
//! the local variables in scope.
//!
//! Probes (`instrument`) and mutation sites (`sites`) both come from this
//! walk, so they agree on what a location is: the first line of a statement,
//! of an `else if`, or of a match arm or closure whose body is an expression.
//! Test code, const contexts and macro invocations are never entered; the
//! transcribers of `macro_rules!` definitions are (see `macro_body`), with
//! `Scope::in_macro` saying so.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Expr, Pat, Token};

use crate::code::crate_sources::is_test_code;
use crate::code::macro_body::{MacroSite, macro_rules};

/// The block statement around the code being walked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EnclosingStatement {
    /// The statement's bytes, attributes included.
    pub range: std::ops::Range<usize>,
    /// A `let` statement: its bindings outlive it.
    pub is_let: bool,
}

/// Where the walk is: the current location and the variables in scope.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// The line of the innermost enclosing location.
    pub location: u32,
    /// The name of the innermost enclosing function.
    pub function: String,
    /// The line of its `fn` (with the file, what tells it from others of
    /// the same name).
    pub function_line: u32,
    /// The innermost enclosing block statement.
    pub statement: Option<EnclosingStatement>,
    /// The location of the `if`, `else if`, loop or `match` whose branch or
    /// body this is (what it is control dependent on); in a closure's body,
    /// the statement that gives the closure.
    pub control: Option<u32>,
    /// The decisions of the last statement before it, in its blocks, that
    /// could have left early instead (`return`, `?`, `break`, `continue`;
    /// see `early_exits`): it only runs because they did not. (Earlier
    /// ones are reached through these, which have them in turn.)
    pub exits: BTreeSet<u32>,
    /// What a `return` here returns: the function's return type without
    /// spaces (empty for `()`), or `None` inside a closure.
    pub returns: Option<String>,
    /// The bytes of the declared return type of the function a `return`
    /// here leaves (`None` for `()`, in a closure or an `async` block).
    pub return_type: Option<std::ops::Range<usize>>,
    /// Loops around it in its function or closure (`break`, `continue`).
    pub loops: usize,
    /// The `macro_rules!` transcriber it is in, if any (its code names the
    /// crate `$crate`, and edits must respect its repetitions).
    pub in_macro: Option<Arc<MacroSite>>,
    /// The function's parameters that are mutable references (`out: &mut
    /// [u8]`): what it writes through them, its caller sees.
    lent: Vec<String>,
    frames: Vec<Vec<String>>,
}

impl Scope {
    /// Local variables (and `self`) visible here, outermost first, without duplicates.
    pub fn bound(&self) -> Vec<String> {
        let mut seen = BTreeSet::new();
        self.frames
            .iter()
            .flatten()
            .filter(|n| seen.insert(n.as_str()))
            .cloned()
            .collect()
    }

    pub fn binds(&self, name: &str) -> bool {
        self.frames.iter().flatten().any(|n| n == name)
    }

    /// The names the innermost frame binds: a closure's parameters or a
    /// match arm's bindings, in an expression body.
    pub fn innermost(&self) -> &[String] {
        self.frames.last().map_or(&[], Vec::as_slice)
    }

    fn push(&mut self, names: Vec<String>) {
        self.frames.push(names);
    }

    fn pop(&mut self) {
        self.frames.pop();
    }

    fn bind(&mut self, names: Vec<String>) {
        if let Some(frame) = self.frames.last_mut() {
            frame.extend(names);
        }
    }

    /// Whether `name` is a parameter of the function, not bound again since.
    pub fn is_parameter(&self, name: &str) -> bool {
        self.frames.split_first().is_some_and(|(parameters, rest)| {
            parameters.iter().any(|n| n == name) && !rest.iter().flatten().any(|n| n == name)
        })
    }

    /// Whether `name` is a parameter of the function that is a mutable
    /// reference (`&mut T`), not bound again since.
    pub fn is_lent_parameter(&self, name: &str) -> bool {
        self.lent.iter().any(|n| n == name) && self.is_parameter(name)
    }
}

/// What a walk over runnable code reports. Every method has a default that
/// ignores the event.
pub trait RunnableCode {
    /// A statement of a block (items inside blocks are not statements here).
    fn statement(&mut self, _stmt: &syn::Stmt, _scope: &Scope) {}
    /// The `if` of an `else if`: `else_branch` is the whole nested `if` expression.
    fn else_if(&mut self, _else_branch: &Expr, _scope: &Scope) {}
    /// A match arm body or closure body that is an expression, not a block.
    fn expression_body(&mut self, _body: &Expr, _scope: &Scope) {}
    /// The condition of an `if`, `else if` or `while` (not `if let`).
    fn condition(&mut self, _cond: &Expr, _scope: &Scope) {}
    /// Every expression of runnable code, outermost first.
    fn expression(&mut self, _expr: &Expr, _scope: &Scope) {}
    /// The iterable of a `for` loop.
    fn iterable(&mut self, _iterable: &Expr, _scope: &Scope) {}
    /// A value a function returns: the tail expression of its body, or
    /// the operand of a `return` (only where `Scope::return_type` is known).
    fn returned(&mut self, _value: &Expr, _scope: &Scope) {}
    /// A rule of a `macro_rules!` definition whose transcriber is not
    /// walked: it does not parse as statements (`reason`).
    fn unhandled_macro(&mut self, _site: &MacroSite, _reason: &str) {}
}

/// Walks every runnable function body of `file`, reporting to `hooks`.
pub fn walk_runnable_code(file: &syn::File, hooks: &mut impl RunnableCode) {
    let mut walker = Walker {
        hooks,
        runnable: false,
        scope: Scope::default(),
    };
    walker.visit_file(file);
}

/// The words of `text`: its runs of letters, digits and `_` (identifiers,
/// keywords and numbers; a text match, no parse).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
}

/// A type (or any node) as text without spaces: `Option<usize>`.
pub fn without_spaces(node: &impl ToTokens) -> String {
    node.to_token_stream()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// The line where a node starts, skipping its outer attributes.
pub fn start_line(node: &impl ToTokens) -> Option<u32> {
    first_token_after_attributes(node.to_token_stream()).map(|span| span.start().line as u32)
}

fn first_token_after_attributes(tokens: TokenStream) -> Option<Span> {
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        if let TokenTree::Punct(p) = &token
            && p.as_char() == '#'
            && let Some(TokenTree::Group(_)) = tokens.peek()
        {
            tokens.next();
            continue;
        }
        return Some(token.span());
    }
    None
}

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

struct Walker<'h, H> {
    hooks: &'h mut H,
    /// Inside the body of a function that runs at run time (not const).
    runnable: bool,
    scope: Scope,
}

impl<H: RunnableCode> Walker<'_, H> {
    fn function_body(&mut self, sig: &syn::Signature, block: &syn::Block) {
        if sig.constness.is_some() {
            return;
        }
        let mut parameters = Vec::new();
        let mut lent = Vec::new();
        for input in &sig.inputs {
            match input {
                syn::FnArg::Receiver(_) => parameters.push("self".to_string()),
                syn::FnArg::Typed(typed) => {
                    let names = pattern_bindings(&typed.pat);
                    if matches!(&*typed.ty, syn::Type::Reference(r) if r.mutability.is_some()) {
                        lent.extend(names.iter().cloned());
                    }
                    parameters.extend(names);
                }
            }
        }
        let outer_scope = std::mem::take(&mut self.scope);
        self.scope.lent = lent;
        let outer_runnable = std::mem::replace(&mut self.runnable, true);
        self.scope.in_macro = outer_scope.in_macro.clone();
        self.scope.function = sig.ident.to_string();
        self.scope.function_line = sig.fn_token.span.start().line as u32;
        self.scope.returns = Some(match &sig.output {
            syn::ReturnType::Default => String::new(),
            syn::ReturnType::Type(_, ty) => without_spaces(ty),
        });
        self.scope.return_type = match &sig.output {
            syn::ReturnType::Default => None,
            syn::ReturnType::Type(_, ty) => Some(syn::spanned::Spanned::span(ty).byte_range()),
        };
        self.scope.push(parameters);
        if self.scope.return_type.is_some()
            && let Some(syn::Stmt::Expr(tail, None)) = block.stmts.last()
        {
            self.at_location(start_line(tail), |this| {
                this.hooks.returned(tail, &this.scope)
            });
        }
        self.visit_block(block);
        self.scope = outer_scope;
        self.runnable = outer_runnable;
    }

    /// Walks the transcribers of a `macro_rules!` definition (not one
    /// inside another's transcriber): items as items (a transcriber of
    /// items and macro calls is taken to expand to items, where no probe can
    /// go), statements as the body of a function of the macro's name, a
    /// lone expression as an expression body.
    fn macro_definition(&mut self, item: &syn::ItemMacro) {
        if self.scope.in_macro.is_some() {
            return;
        }
        for rule in macro_rules(item) {
            let stmts = match rule.body {
                Ok(stmts) => stmts,
                Err(reason) => {
                    self.hooks.unhandled_macro(&rule.site, &reason);
                    continue;
                }
            };
            let outer_scope = std::mem::take(&mut self.scope);
            let outer_runnable = std::mem::replace(&mut self.runnable, false);
            self.scope.function = rule.site.name.clone();
            self.scope.function_line = rule.site.line;
            self.scope.in_macro = Some(Arc::new(rule.site));
            if stmts
                .iter()
                .all(|stmt| matches!(stmt, syn::Stmt::Item(_) | syn::Stmt::Macro(_)))
            {
                for stmt in &stmts {
                    self.visit_stmt(stmt);
                }
            } else {
                self.runnable = true;
                self.scope.push(Vec::new());
                match stmts.as_slice() {
                    [syn::Stmt::Expr(expr, None)] if !matches!(expr, Expr::Block(_)) => {
                        self.hooks.expression_body(expr, &self.scope);
                        self.at_location(start_line(expr), |this| this.visit_expr(expr));
                    }
                    _ => self.visit_block(&syn::Block {
                        brace_token: Default::default(),
                        stmts,
                    }),
                }
            }
            self.scope = outer_scope;
            self.runnable = outer_runnable;
        }
    }

    /// Visits `node` with `location` as the current location.
    fn at_location(&mut self, location: Option<u32>, walk: impl FnOnce(&mut Self)) {
        let outer = self.scope.location;
        if let Some(line) = location {
            self.scope.location = line;
        }
        walk(self);
        self.scope.location = outer;
    }

    /// Visits a branch or body that runs only as the statement at `line` decides.
    fn under_control(&mut self, line: u32, walk: impl FnOnce(&mut Self)) {
        let outer = self.scope.control.replace(line);
        walk(self);
        self.scope.control = outer;
    }

    /// Visits a loop's body.
    fn in_loop(&mut self, walk: impl FnOnce(&mut Self)) {
        self.scope.loops += 1;
        walk(self);
        self.scope.loops -= 1;
    }

    /// Visits `node` in a new scope frame holding `names`.
    fn in_frame(&mut self, names: Vec<String>, walk: impl FnOnce(&mut Self)) {
        self.scope.push(names);
        walk(self);
        self.scope.pop();
    }

    /// Walks a condition; returns the names its `let`s bind (for the branch it guards).
    fn walk_condition(&mut self, cond: &Expr) -> Vec<String> {
        let lets = let_bindings(cond);
        if lets.is_empty() && self.runnable {
            self.hooks.condition(cond, &self.scope);
        }
        self.visit_expr(cond);
        lets
    }
}

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

/// The names the `let`s of a condition bind (`if let Some(x) = ... && let ...`).
pub fn let_bindings(cond: &Expr) -> Vec<String> {
    let mut names = Vec::new();
    collect_let_bindings(cond, &mut names);
    names
}

/// A statement or an expression of runnable code.
#[derive(Debug, Clone, Copy)]
pub enum Code<'a> {
    Stmt(&'a syn::Stmt),
    Expr(&'a Expr),
}

impl<'a> Code<'a> {
    fn visit(self, visitor: &mut impl Visit<'a>) {
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

impl<'ast, H: RunnableCode> Visit<'ast> for Walker<'_, H> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if item_attrs(item).is_some_and(is_test_code) {
            return;
        }
        visit::visit_item(self, item);
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        self.macro_definition(item);
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.function_body(&item.sig, &item.block);
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Fn(f) => &f.attrs,
            syn::ImplItem::Const(c) => &c.attrs,
            syn::ImplItem::Type(t) => &t.attrs,
            syn::ImplItem::Macro(m) => &m.attrs,
            _ => return,
        };
        if !is_test_code(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.function_body(&item.sig, &item.block);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if !is_test_code(&item.attrs)
            && let Some(block) = &item.default
        {
            self.function_body(&item.sig, block);
        }
    }

    // Const contexts: nothing there runs at run time.
    fn visit_item_const(&mut self, _: &'ast syn::ItemConst) {}
    fn visit_item_static(&mut self, _: &'ast syn::ItemStatic) {}
    fn visit_impl_item_const(&mut self, _: &'ast syn::ImplItemConst) {}
    fn visit_trait_item_const(&mut self, _: &'ast syn::TraitItemConst) {}
    fn visit_item_enum(&mut self, _: &'ast syn::ItemEnum) {}
    fn visit_type(&mut self, _: &'ast syn::Type) {}
    fn visit_expr_const(&mut self, _: &'ast syn::ExprConst) {}
    fn visit_generic_argument(&mut self, _: &'ast syn::GenericArgument) {}
    fn visit_expr_repeat(&mut self, expr: &'ast syn::ExprRepeat) {
        self.visit_expr(&expr.expr);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        if !self.runnable {
            return visit::visit_block(self, block);
        }
        let outer_exits = self.scope.exits.clone();
        self.in_frame(Vec::new(), |this| {
            for stmt in &block.stmts {
                if matches!(stmt, syn::Stmt::Item(_)) {
                    this.visit_stmt(stmt);
                    continue;
                }
                let enclosing = EnclosingStatement {
                    range: syn::spanned::Spanned::span(stmt).byte_range(),
                    is_let: matches!(stmt, syn::Stmt::Local(_)),
                };
                let outer = this.scope.statement.replace(enclosing);
                this.at_location(start_line(stmt), |this| {
                    this.hooks.statement(stmt, &this.scope);
                    this.visit_stmt(stmt);
                });
                this.scope.statement = outer;
                if let syn::Stmt::Local(local) = stmt {
                    this.scope.bind(pattern_bindings(&local.pat));
                }
                if let Some(line) = start_line(stmt) {
                    let exits = early_exits(stmt, line);
                    if !exits.is_empty() {
                        this.scope.exits = exits;
                    }
                }
            }
        });
        self.scope.exits = outer_exits;
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        // The pattern's names are bound after the statement (see visit_block).
        if let Some(init) = &local.init {
            self.visit_expr(&init.expr);
            if let Some((_, diverge)) = &init.diverge {
                self.visit_expr(diverge);
            }
        }
    }

    fn visit_expr(&mut self, expr: &'ast Expr) {
        if self.runnable {
            self.hooks.expression(expr, &self.scope);
            if let Expr::Return(ret) = expr
                && let Some(value) = &ret.expr
                && self.scope.return_type.is_some()
            {
                self.hooks.returned(value, &self.scope);
            }
        }
        visit::visit_expr(self, expr);
    }

    fn visit_expr_async(&mut self, expr: &'ast syn::ExprAsync) {
        // A `return` in an `async` block leaves the block, not the function.
        let return_type = self.scope.return_type.take();
        visit::visit_expr_async(self, expr);
        self.scope.return_type = return_type;
    }

    fn visit_expr_if(&mut self, expr: &'ast syn::ExprIf) {
        let bound = self.walk_condition(&expr.cond);
        let control = self.scope.location;
        self.under_control(control, |this| {
            this.in_frame(bound, |this| this.visit_block(&expr.then_branch));
            if let Some((_, else_branch)) = &expr.else_branch {
                match else_branch.as_ref() {
                    Expr::If(nested) if this.runnable => {
                        this.hooks.else_if(else_branch, &this.scope);
                        let line = nested.if_token.span.start().line as u32;
                        this.at_location(Some(line), |this| this.visit_expr(else_branch));
                    }
                    other => this.visit_expr(other),
                }
            }
        });
    }

    fn visit_expr_while(&mut self, expr: &'ast syn::ExprWhile) {
        let bound = self.walk_condition(&expr.cond);
        let control = self.scope.location;
        self.under_control(control, |this| {
            this.in_frame(bound, |this| {
                this.in_loop(|this| this.visit_block(&expr.body))
            })
        });
    }

    fn visit_expr_loop(&mut self, expr: &'ast syn::ExprLoop) {
        let control = self.scope.location;
        self.under_control(control, |this| {
            this.in_loop(|this| this.visit_block(&expr.body))
        });
    }

    fn visit_expr_for_loop(&mut self, expr: &'ast syn::ExprForLoop) {
        self.visit_expr(&expr.expr);
        if self.runnable {
            self.hooks.iterable(&expr.expr, &self.scope);
        }
        let control = self.scope.location;
        self.under_control(control, |this| {
            this.in_frame(pattern_bindings(&expr.pat), |this| {
                this.in_loop(|this| this.visit_block(&expr.body))
            })
        });
    }

    fn visit_expr_match(&mut self, expr: &'ast syn::ExprMatch) {
        self.visit_expr(&expr.expr);
        let control = self.scope.location;
        self.under_control(control, |this| {
            for arm in &expr.arms {
                this.in_frame(pattern_bindings(&arm.pat), |this| {
                    if this.runnable && !matches!(arm.body.as_ref(), Expr::Block(_)) {
                        this.hooks.expression_body(&arm.body, &this.scope);
                        this.at_location(start_line(&arm.body), |this| this.visit_expr(&arm.body));
                    } else {
                        this.visit_expr(&arm.body);
                    }
                });
            }
        });
    }

    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        if closure.constness.is_some() {
            return;
        }
        let parameters = closure.inputs.iter().flat_map(pattern_bindings).collect();
        let returns = self.scope.returns.take();
        let return_type = self.scope.return_type.take();
        let loops = std::mem::take(&mut self.scope.loops);
        // The body runs when the code it is given to calls it: under the
        // statement that gives it (where that is on another line).
        let outer_control = self.scope.control;
        let body_line = match closure.body.as_ref() {
            Expr::Block(body) => body.block.stmts.first().and_then(start_line),
            body => start_line(body),
        };
        if body_line.is_some_and(|line| line != self.scope.location) {
            self.scope.control = Some(self.scope.location);
        }
        self.in_frame(parameters, |this| {
            if this.runnable && !matches!(closure.body.as_ref(), Expr::Block(_)) {
                this.hooks.expression_body(&closure.body, &this.scope);
                this.at_location(start_line(&closure.body), |this| {
                    this.visit_expr(&closure.body)
                });
            } else {
                this.visit_expr(&closure.body);
            }
        });
        self.scope.returns = returns;
        self.scope.return_type = return_type;
        self.scope.loops = loops;
        self.scope.control = outer_control;
    }
}

fn item_attrs(item: &syn::Item) -> Option<&[syn::Attribute]> {
    use syn::Item::*;
    Some(match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        ExternCrate(i) => &i.attrs,
        Fn(i) => &i.attrs,
        ForeignMod(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        TraitAlias(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => return None,
    })
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

/// `<`, `<=`, `>`, `>=`, `==` and `!=`.
pub fn is_comparison(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(op, Lt(_) | Le(_) | Gt(_) | Ge(_) | Eq(_) | Ne(_))
}

/// `+=`, `-=` and the other compound assignments.
pub fn is_compound_assignment(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitXorAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}

/// The arguments of a function-like macro call whose body is a
/// comma-separated list of expressions (`assert_eq!(a, b)`, `vec![x]`);
/// none for any other body.
pub fn macro_arguments(mac: &syn::Macro) -> Punctuated<Expr, Token![,]> {
    mac.parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
        .unwrap_or_default()
}

/// How tokens mention a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mention {
    /// As a word, at these bytes.
    Word(Range<usize>),
    /// As a value a format string formats (`"{NAME}"`, `"{NAME:?}"`).
    Formatted,
    /// As a format string's width or precision (`"{:NAME$}"`).
    Width,
}

/// Each mention of one of `names` in `tokens` (a macro call's, a file's),
/// groups included.
pub fn mentions<'n>(tokens: TokenStream, names: &BTreeSet<&'n str>) -> Vec<(&'n str, Mention)> {
    let mut found = Vec::new();
    for token in tokens {
        match token {
            TokenTree::Group(group) => found.extend(mentions(group.stream(), names)),
            TokenTree::Ident(ident) => {
                if let Some(&name) = names.get(ident.to_string().as_str()) {
                    found.push((name, Mention::Word(ident.span().byte_range())));
                }
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                for &name in names {
                    if text.contains(&format!("{{{name}}}")) || text.contains(&format!("{{{name}:"))
                    {
                        found.push((name, Mention::Formatted));
                    }
                    if text.contains(&format!("{name}$")) {
                        found.push((name, Mention::Width));
                    }
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_mention_names_as_words_and_in_format_strings() {
        let text = "f(A, \"{B} {C:?} {:>D$} {E\", [F::G]);";
        let tokens: TokenStream = text.parse().unwrap();
        let names = BTreeSet::from(["A", "B", "C", "D", "E", "G", "H"]);
        let a = text.find('A').unwrap();
        let g = text.find('G').unwrap();
        assert_eq!(
            mentions(tokens, &names),
            [
                ("A", Mention::Word(a..a + 1)),
                ("B", Mention::Formatted),
                ("C", Mention::Formatted),
                ("D", Mention::Width),
                ("G", Mention::Word(g..g + 1)),
            ]
        );
    }

    #[derive(Default)]
    struct Record {
        statements: Vec<(u32, Vec<String>)>,
        conditions: Vec<u32>,
    }

    impl RunnableCode for Record {
        fn statement(&mut self, _: &syn::Stmt, scope: &Scope) {
            self.statements.push((scope.location, scope.bound()));
        }
        fn condition(&mut self, _: &Expr, scope: &Scope) {
            self.conditions.push(scope.location);
        }
    }

    fn walk(source: &str) -> Record {
        let file = crate::code::source::parse_file(source).unwrap();
        let mut record = Record::default();
        walk_runnable_code(&file, &mut record);
        record
    }

    #[test]
    fn scopes_follow_lets_patterns_and_closures() {
        let record = walk(
            "fn f(a: u8, (b, c): (u8, u8)) {\n    let d = a;\n    for e in 0..d {\n        let g = |h: u8| { let i = h; i };\n    }\n    if let Some(j) = Some(1) {\n        j;\n    }\n    a;\n}\n",
        );
        let at = |line: u32| {
            record
                .statements
                .iter()
                .find(|(l, _)| *l == line)
                .unwrap()
                .1
                .clone()
        };
        assert_eq!(at(2), ["a", "b", "c"]);
        assert_eq!(at(3), ["a", "b", "c", "d"]);
        assert_eq!(at(4), ["a", "b", "c", "d", "e"]);
        assert_eq!(at(7), ["a", "b", "c", "d", "j"]);
        assert_eq!(at(9), ["a", "b", "c", "d"]);
        // The closure's statement sees its parameter.
        let inner: Vec<_> = record
            .statements
            .iter()
            .filter(|(l, _)| *l == 4)
            .map(|(_, b)| b.clone())
            .collect();
        assert!(
            inner.iter().any(|b| b.contains(&"h".to_string())),
            "{inner:?}"
        );
    }

    #[test]
    fn conditions_carry_their_own_location() {
        let record = walk(
            "fn m(x: i32) -> i32 {\n    if x < 0 {\n        1\n    } else if x > 5 {\n        2\n    } else {\n        3\n    }\n}\n",
        );
        assert_eq!(record.conditions, [2, 4]);
    }

    #[test]
    fn nested_functions_do_not_see_outer_locals() {
        let record = walk("fn outer(a: u8) {\n    fn inner(b: u8) {\n        b;\n    }\n}\n");
        assert_eq!(record.statements, [(3, vec!["b".to_string()])]);
    }

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
