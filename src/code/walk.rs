//! Walks the code of a file that runs at run time, and says where each
//! piece of it is: its location (the line the coverage probes report) and
//! the local variables in scope.
//!
//! Probes (`instrument`) and mutation sites (`sites`) both come from this
//! walk, so they agree on what a location is: the first line of a statement,
//! of an `else if`, or of a match arm or closure whose body is an expression.
//! Test code, const contexts and macro invocations are never entered (but
//! the values given to formatting macros, for a hook that asks: see
//! [`RunnableCode::enters_macro_values`]); the transcribers of
//! `macro_rules!` definitions are (see `macro_body`), with
//! `Scope::in_macro` saying so.

use std::sync::Arc;

use syn::Expr;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::code::const_calls::made_const;
use crate::code::control::{early_exits, has_let};
use crate::code::crate_sources::is_test_code;
use crate::code::macro_body::{MacroSite, macro_rules};
use crate::code::scope::{EnclosingStatement, GivenTo, Scope};
use crate::code::tokens::{start_line, value_arguments, without_spaces};
use crate::code::variables::{let_bindings, pattern_bindings};

/// What a walk over runnable code reports. Every method has a default that
/// ignores the event.
pub trait RunnableCode {
    /// A statement of a block (items inside blocks are not statements here).
    fn statement(&mut self, _stmt: &syn::Stmt, _scope: &Scope) {}
    /// The same statement with the statements after it in its block.
    fn followed_by(&mut self, _stmt: &syn::Stmt, _rest: &[syn::Stmt], _scope: &Scope) {}
    /// The `if` of an `else if`: `else_branch` is the whole nested `if` expression.
    fn else_if(&mut self, _else_branch: &Expr, _scope: &Scope) {}
    /// A match arm body or closure body that is an expression, not a block.
    fn expression_body(&mut self, _body: &Expr, _scope: &Scope) {}
    /// A match arm whose body is a block, binding `names`, at the location
    /// of the block's first statement (the arm's, if it has none).
    fn arm_block(&mut self, _block: &syn::Block, _names: &[String], _scope: &Scope) {}
    /// The condition of an `if`, `else if` or `while` (not `if let`).
    fn condition(&mut self, _cond: &Expr, _scope: &Scope) {}
    /// Every expression of runnable code, outermost first.
    fn expression(&mut self, _expr: &Expr, _scope: &Scope) {}
    /// The iterable of a `for` loop.
    fn iterable(&mut self, _iterable: &Expr, _scope: &Scope) {}
    /// A value a function returns: the tail expression of its body, or
    /// the operand of a `return` (only where `Scope::return_type` is known).
    fn returned(&mut self, _value: &Expr, _scope: &Scope) {}
    /// Whether to walk the body of a `const fn` (the hook may drop its
    /// `const`, so that the body runs code a const fn cannot): none is
    /// walked unless a hook says so.
    fn enters_const_fn(
        &mut self,
        _sig: &syn::Signature,
        _block: &syn::Block,
        _scope: &Scope,
    ) -> bool {
        false
    }
    /// A rule of a `macro_rules!` definition whose transcriber is not
    /// walked: it does not parse as statements (`reason`).
    fn unhandled_macro(&mut self, _site: &MacroSite, _reason: &str) {}
    /// Whether to walk the values given to the standard library's
    /// formatting macros and `vec!` (see `tokens::value_arguments`),
    /// where a value is as often wrong as anywhere: `write!(f, "{}",
    /// self.0)` for `self.1`. No other macro call is entered.
    fn enters_macro_values(&self) -> bool {
        false
    }
}

/// The line where a match arm's `body` runs first: its block's first
/// statement's, or the expression's (none for an empty block).
pub fn arm_body_line(body: &Expr) -> Option<u32> {
    match body {
        Expr::Block(block) => block.block.stmts.first().and_then(start_line),
        body => start_line(body),
    }
}

/// The name of a type as a path names it, without arguments (`Hir` for
/// `&'a crate::hir::Hir`, `Vec` for `Vec<u8>`); `None` for a tuple, a
/// slice, a trait object or a pointer.
pub fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        syn::Type::Reference(reference) => type_name(&reference.elem),
        syn::Type::Paren(inner) => type_name(&inner.elem),
        _ => None,
    }
}

/// Walks every runnable function body of `file`, reporting to `hooks`.
pub fn walk_runnable_code(file: &syn::File, hooks: &mut impl RunnableCode) {
    let mut walker = Walker {
        hooks,
        runnable: false,
        scope: Scope::default(),
        next_given: None,
    };
    walker.visit_file(file);
}

struct Walker<'h, H> {
    hooks: &'h mut H,
    /// Inside the body of a function that runs at run time (not const).
    runnable: bool,
    scope: Scope,
    /// The method call whose argument is the closure walked into next.
    next_given: Option<GivenTo>,
}

impl<H: RunnableCode> Walker<'_, H> {
    fn function_body(
        &mut self,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
        block: &syn::Block,
    ) {
        let skipped =
            sig.constness.is_some() && !self.hooks.enters_const_fn(sig, block, &self.scope);
        if made_const(attrs) || skipped {
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
        self.scope.self_type = outer_scope.self_type.clone();
        self.scope.implements = outer_scope.implements.clone();
        self.scope.function = sig.ident.to_string();
        self.scope.function_line = sig.fn_token.span.start().line as u32;
        self.scope.returns = Some(match &sig.output {
            syn::ReturnType::Default => String::new(),
            syn::ReturnType::Type(_, ty) => without_spaces(ty),
        });
        self.scope.return_type = match &sig.output {
            syn::ReturnType::Default => None,
            syn::ReturnType::Type(_, ty) => Some(ty.span().byte_range()),
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

    /// Walks an `impl` (or a trait) with what `self` is and the trait it
    /// implements, then restores the outer ones.
    fn in_impl(
        &mut self,
        self_type: Option<String>,
        implements: Option<String>,
        walk: impl FnOnce(&mut Self),
    ) {
        let outer_type = std::mem::replace(&mut self.scope.self_type, self_type);
        let outer_trait = std::mem::replace(&mut self.scope.implements, implements);
        walk(self);
        self.scope.self_type = outer_type;
        self.scope.implements = outer_trait;
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
        // Not a `let` that binds nothing either (`if let Some(b'/') = x`):
        // it is no expression, to negate, replace or switch.
        if !has_let(cond) && self.runnable {
            self.hooks.condition(cond, &self.scope);
        }
        self.visit_expr(cond);
        lets
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
        self.function_body(&item.attrs, &item.sig, &item.block);
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let implements = (item.trait_.as_ref())
            .and_then(|(path, _)| path.segments.last())
            .map(|segment| segment.ident.to_string());
        self.in_impl(type_name(&item.self_ty), implements, |this| {
            visit::visit_item_impl(this, item)
        });
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        // A trait's default methods have no `self` type of their own.
        self.in_impl(None, None, |this| visit::visit_item_trait(this, item));
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
        self.function_body(&item.attrs, &item.sig, &item.block);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if !is_test_code(&item.attrs)
            && let Some(block) = &item.default
        {
            self.function_body(&item.attrs, &item.sig, block);
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
            for (index, stmt) in block.stmts.iter().enumerate() {
                if matches!(stmt, syn::Stmt::Item(_)) {
                    this.visit_stmt(stmt);
                    continue;
                }
                let enclosing = EnclosingStatement {
                    range: stmt.span().byte_range(),
                    is_let: matches!(stmt, syn::Stmt::Local(_)),
                };
                let outer = this.scope.statement.replace(enclosing);
                this.at_location(start_line(stmt), |this| {
                    this.hooks.statement(stmt, &this.scope);
                    this.hooks
                        .followed_by(stmt, &block.stmts[index + 1..], &this.scope);
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

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if self.runnable && self.hooks.enters_macro_values() {
            for value in value_arguments(mac) {
                self.visit_expr(&value);
            }
        }
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
                let names = pattern_bindings(&arm.pat);
                this.in_frame(names.clone(), |this| match arm.body.as_ref() {
                    Expr::Block(block) if this.runnable => {
                        let first = arm_body_line(&arm.body).or(start_line(&arm.body));
                        this.at_location(first, |this| {
                            this.hooks.arm_block(&block.block, &names, &this.scope)
                        });
                        this.visit_expr(&arm.body);
                    }
                    _ if this.runnable => {
                        this.hooks.expression_body(&arm.body, &this.scope);
                        this.at_location(arm_body_line(&arm.body), |this| {
                            this.visit_expr(&arm.body)
                        });
                    }
                    _ => this.visit_expr(&arm.body),
                });
            }
        });
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        self.visit_expr(&call.receiver);
        for argument in &call.args {
            if let Expr::Closure(closure) = argument {
                self.next_given = Some(GivenTo {
                    method: call.method.to_string(),
                    name: call.method.span().byte_range(),
                    body: closure.body.span().byte_range(),
                });
            }
            self.visit_expr(argument);
        }
    }

    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        let given_to = self.next_given.take();
        if closure.constness.is_some() {
            return;
        }
        let parameters = closure.inputs.iter().flat_map(pattern_bindings).collect();
        let outer_given_to = std::mem::replace(&mut self.scope.given_to, given_to);
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
        self.scope.given_to = outer_given_to;
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // A `let` is no condition, also when it binds nothing.
        let record = walk(
            "fn n(v: &[u8]) -> bool {\n    if let Some(b'/') | Some(b'>') = v.first() {\n        return true;\n    }\n    while let Some(_) = v.last() {}\n    v.is_empty()\n}\n",
        );
        assert_eq!(record.conditions, [] as [u32; 0]);
    }

    #[test]
    fn nested_functions_do_not_see_outer_locals() {
        let record = walk("fn outer(a: u8) {\n    fn inner(b: u8) {\n        b;\n    }\n}\n");
        assert_eq!(record.statements, [(3, vec!["b".to_string()])]);
    }

    /// A function an attribute makes `const` (the `const_fn` crate's) is
    /// not walked: a probe there would not compile. Its neighbours are.
    #[test]
    fn a_function_an_attribute_makes_const_is_not_walked() {
        let record = walk(
            "#[cfg_attr(feature = \"const\", const_fn::const_fn)]\nfn a(x: u8) -> u8 {\n    x\n}\n#[const_fn]\nfn b(x: u8) -> u8 {\n    x\n}\n#[cfg_attr(test, inline)]\nfn c(x: u8) -> u8 {\n    x\n}\n#[rustversion::attr(since(1.64), const)]\nfn d(x: u8) -> u8 {\n    x\n}\n#[doc = \"const\"]\nfn e(x: u8) -> u8 {\n    x\n}\n",
        );
        let lines: Vec<u32> = record.statements.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [11, 19]);
    }
}
