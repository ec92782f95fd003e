//! Statements: a statement's site (and, before a compound statement, the
//! start of its first block), and the statement ingredients (a simple
//! statement whole, a compound one by its header, the reset of a `let mut`).

use std::collections::BTreeSet;
use std::ops::Range;

use syn::spanned::Spanned;
use syn::{Expr, Stmt};

use super::collector::Collector;
use super::conditions::negation;
use super::{Ingredient, LoneIf, SiteKind, StatementSite};
use crate::code::{
    Scope, free_variables, has_let, header, indentation, is_compound_assignment, pattern_bindings,
};

impl Collector<'_> {
    /// A statement's sites and ingredients; what gives a `let` or an
    /// assignment its value is marked for operand sites.
    pub(super) fn collect_statement(&mut self, stmt: &Stmt, scope: &Scope) {
        let range = stmt.span().byte_range();
        let (tail, jumps, compound, binds) = match stmt {
            // Without a semicolon, a block's last statement is its value,
            // an `if` or `match` as much as any expression.
            Stmt::Expr(expr, semi) => (
                semi.is_none() && self.ends_block(range.end),
                matches!(expr, Expr::Return(_) | Expr::Break(_) | Expr::Continue(_)),
                compound_parts(expr),
                Vec::new(),
            ),
            Stmt::Local(local) => (false, false, None, pattern_bindings(&local.pat)),
            _ => (false, false, None, Vec::new()),
        };
        match stmt {
            Stmt::Local(local) => local.init.iter().for_each(|init| self.value(&init.expr)),
            Stmt::Expr(Expr::Assign(assign), _) => self.value(&assign.right),
            Stmt::Expr(Expr::Binary(binary), _) if is_compound_assignment(&binary.op) => {
                self.value(&binary.right)
            }
            _ => {}
        }
        // As an ingredient: a simple statement whole, a compound one by its header.
        match &compound {
            Some((Some(header), _)) => {
                if let Stmt::Expr(expr, _) = stmt {
                    self.header_ingredient(expr, header, scope);
                    if is_guard(expr) {
                        self.guard_ingredient(stmt, &range, scope);
                    }
                }
            }
            Some((None, _)) => {}
            None => self.statement_ingredient(stmt, &range, tail, &binds, scope),
        }
        let indent = self.indent_at(range.start);
        // First in a block before the statement: its edits are the more
        // pointed (a cap per operator keeps the first ones).
        if let Stmt::Expr(expr, _) = stmt
            && let Some(header) = header(expr)
            && let Some(block) = header.block
        {
            let kind = SiteKind::BlockStart {
                at: block.brace_token.span.open().byte_range().end,
                indent: format!("{indent}    "),
                names: header.binds.clone(),
                empty: block.stmts.is_empty(),
                arm: false,
            };
            self.site_binding(scope, kind, &header.binds);
        }
        let lone_if = match stmt {
            Stmt::Expr(expr, _) => self.lone_if(expr, !self.ends_block(range.end)),
            _ => None,
        };
        let else_ifs = match stmt {
            Stmt::Expr(Expr::If(e), _) => else_ifs(e, tail),
            _ => Vec::new(),
        };
        let site = StatementSite {
            whole_lines: self.whole_lines(&range),
            indent,
            branches: compound.map(|(_, branches)| branches).unwrap_or_default(),
            range,
            tail,
            jumps,
            binds,
            returns: scope.returns.clone(),
            in_loop: scope.loops > 0,
            valued: tail
                && matches!(stmt, Stmt::Expr(expr, None) if is_valued(expr, scope.returns.as_deref())),
            lone_if,
            else_ifs,
        };
        self.site(scope, SiteKind::Statement(site));
    }

    /// `if c { a }` with no `else` and no `let` in `c`, `a` one statement
    /// or more: its condition's negation and its statements' bytes.
    fn lone_if(&self, expr: &Expr, followed: bool) -> Option<LoneIf> {
        let Expr::If(e) = expr else {
            return None;
        };
        if e.else_branch.is_some() || has_let(&e.cond) {
            return None;
        }
        let first = e.then_branch.stmts.first()?.span().byte_range();
        let last = e.then_branch.stmts.last()?.span().byte_range();
        Some(LoneIf {
            negation: negation(&e.cond, self.text),
            body: first.start..last.end,
            followed,
        })
    }

    /// The start of a match arm's block, binding `names`, where a
    /// statement can go first (a guard for what the arm's pattern binds).
    pub(super) fn arm_block_start(&mut self, block: &syn::Block, names: &[String], scope: &Scope) {
        let open = block.brace_token.span.open().byte_range();
        let indent = match block.stmts.first() {
            Some(first) => self.indent_at(first.span().byte_range().start),
            None => format!("{}    ", self.indent_at(open.start)),
        };
        let kind = SiteKind::BlockStart {
            at: open.end,
            indent,
            names: names.to_vec(),
            empty: block.stmts.is_empty(),
            arm: true,
        };
        self.site_binding(scope, kind, names);
    }

    /// A compound statement's header (`header`: its bytes, such as `if a <
    /// b`) as a statement ingredient, with the variables its condition or
    /// iterable uses.
    fn header_ingredient(&mut self, expr: &Expr, header: &Range<usize>, scope: &Scope) {
        let (free, node): (BTreeSet<String>, &Expr) = match expr {
            Expr::If(e) => (free_variables(&e.cond), &e.cond),
            Expr::While(e) => (free_variables(&e.cond), &e.cond),
            Expr::ForLoop(e) => (free_variables(&e.expr), &e.expr),
            _ => (BTreeSet::new(), expr),
        };
        // The header, trimmed like its text.
        let text = self.text_of(header);
        let start = header.start + (text.len() - text.trim_start().len());
        let end = header.end - (text.len() - text.trim_end().len());
        let mut ingredient = self.ingredient(node, start..end, free, true, true, scope);
        ingredient.unit = true;
        self.space.statements.push(ingredient);
    }

    /// A guard (see `is_guard`) whole as a statement ingredient: the check
    /// a sibling case, another arm or another function, may be missing.
    fn guard_ingredient(&mut self, stmt: &Stmt, range: &Range<usize>, scope: &Scope) {
        let mut ingredient = self.ingredient(
            stmt,
            range.clone(),
            free_variables(stmt),
            false,
            true,
            scope,
        );
        ingredient.unit = true;
        ingredient.guard = true;
        self.space.statements.push(ingredient);
    }

    /// A simple statement (`range`: its bytes) as a statement ingredient,
    /// and, for `let mut x = init;`, its reset.
    fn statement_ingredient(
        &mut self,
        stmt: &Stmt,
        range: &Range<usize>,
        tail: bool,
        binds: &[String],
        scope: &Scope,
    ) {
        let mut ingredient = self.ingredient(
            stmt,
            range.clone(),
            free_variables(stmt),
            false,
            !tail,
            scope,
        );
        ingredient.binds = binds.to_vec();
        ingredient.unit = is_unit(stmt);
        ingredient.inert = matches!(stmt, Stmt::Expr(expr, _) if is_inert(expr));
        self.space.statements.push(ingredient);
        if let Stmt::Local(local) = stmt
            && let Some(reset) = self.reset(local, scope)
        {
            self.space.statements.push(reset);
        }
    }

    /// For `let mut x = init;`, the statement `x = init;`: an accumulator
    /// put back as it started (a buffer cleared, a count restarted), the
    /// statement most often missing from a loop.
    fn reset(&self, local: &syn::Local, scope: &Scope) -> Option<Ingredient> {
        let pat = match &local.pat {
            syn::Pat::Type(typed) => &*typed.pat,
            pat => pat,
        };
        let syn::Pat::Ident(ident) = pat else {
            return None;
        };
        let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
        if ident.mutability.is_none() || ident.by_ref.is_some() || ident.subpat.is_some() {
            return None;
        }
        // The initializer as an ingredient, then `name = ` before it.
        let expr = &*init.expr;
        let range = expr.span().byte_range();
        let mut reset = self.ingredient(expr, range, free_variables(expr), false, true, scope);
        let name = ident.ident.to_string();
        let prefix = format!("{name} = ");
        reset.text = format!("{prefix}{};", reset.text);
        reset.start -= prefix.len();
        for (_, at) in &mut reset.uses {
            *at = at.start + prefix.len()..at.end + prefix.len();
        }
        reset.uses.insert(0, (name.clone(), 0..name.len()));
        reset.free.insert(name);
        reset.unit = true;
        Some(reset)
    }

    /// The statement's lines, if it has them to itself.
    fn whole_lines(&self, range: &Range<usize>) -> Option<Range<usize>> {
        let line_start = self.text[..range.start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.text[range.end..]
            .find('\n')
            .map_or(self.text.len(), |i| range.end + i + 1);
        let before_blank = self.text[line_start..range.start].trim().is_empty();
        let after_blank = self.text[range.end..line_end].trim().is_empty();
        (before_blank && after_blank).then_some(line_start..line_end)
    }

    /// Whether only whitespace and comments separate `offset` from the `}`
    /// that closes the block.
    fn ends_block(&self, offset: usize) -> bool {
        let mut rest = &self.text[offset..];
        loop {
            rest = rest.trim_start();
            if let Some(comment) = rest.strip_prefix("//") {
                rest = comment.split_once('\n').map_or("", |(_, after)| after);
            } else {
                return rest.starts_with('}');
            }
        }
    }

    pub(super) fn indent_at(&self, offset: usize) -> String {
        indentation(self.text, offset).to_string()
    }
}

/// A compound statement's header (`if c`, `while c`, `for p in e`; none for
/// `loop` and blocks) and its blocks.
type CompoundParts = (Option<Range<usize>>, Vec<Range<usize>>);

fn compound_parts(expr: &Expr) -> Option<CompoundParts> {
    let header_end = |body: &syn::Block| body.brace_token.span.open().byte_range().start;
    let start = expr.span().byte_range().start;
    Some(match expr {
        Expr::If(e) => {
            let mut branches = vec![e.then_branch.span().byte_range()];
            if let Some((_, else_branch)) = &e.else_branch {
                branches.push(else_branch.span().byte_range());
            }
            (Some(start..header_end(&e.then_branch)), branches)
        }
        Expr::While(e) => (
            Some(start..header_end(&e.body)),
            vec![e.body.span().byte_range()],
        ),
        Expr::ForLoop(e) => (
            Some(start..header_end(&e.body)),
            vec![e.body.span().byte_range()],
        ),
        Expr::Loop(e) => (None, vec![e.body.span().byte_range()]),
        Expr::Block(e) => (None, vec![e.block.span().byte_range()]),
        Expr::Unsafe(e) => (None, vec![e.block.span().byte_range()]),
        Expr::Match(_) => (None, Vec::new()),
        _ => return None,
    })
}

/// `if c { return v; }` (or `break`, `continue`) without an `else`.
fn is_guard(expr: &Expr) -> bool {
    let Expr::If(e) = expr else {
        return false;
    };
    e.else_branch.is_none()
        && matches!(
            e.then_branch.stmts.as_slice(),
            [Stmt::Expr(
                Expr::Return(_) | Expr::Break(_) | Expr::Continue(_),
                _
            )]
        )
}

/// Whether an expression does nothing but produce a value.
fn is_inert(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(_) | Expr::Path(_) => true,
        Expr::Tuple(tuple) => tuple.elems.iter().all(is_inert),
        Expr::Binary(binary) => {
            !is_compound_assignment(&binary.op) && is_inert(&binary.left) && is_inert(&binary.right)
        }
        Expr::Unary(unary) => is_inert(&unary.expr),
        Expr::Paren(paren) => is_inert(&paren.expr),
        Expr::Field(field) => is_inert(&field.base),
        Expr::Reference(reference) => is_inert(&reference.expr),
        Expr::Cast(cast) => is_inert(&cast.expr),
        _ => false,
    }
}

/// Whether a statement surely has no value but `()`.
fn is_unit(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Local(_) | Stmt::Item(_) => true,
        Stmt::Expr(expr, _) => match expr {
            Expr::ForLoop(_) | Expr::While(_) | Expr::Assign(_) => true,
            Expr::Binary(binary) => is_compound_assignment(&binary.op),
            _ => false,
        },
        Stmt::Macro(_) => false,
    }
}

/// The `else` of each `else if` of the chain `first` (through the space
/// before its `if`), when the chain gives no value: not the block's value
/// (`tail`), or none of its branches ends in one.
fn else_ifs(first: &syn::ExprIf, tail: bool) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut valued = false;
    let mut current = first;
    loop {
        valued |= matches!(current.then_branch.stmts.last(), Some(Stmt::Expr(_, None)));
        match current.else_branch.as_ref() {
            Some((else_token, next)) => match &**next {
                Expr::If(next) => {
                    let start = else_token.span.byte_range().start;
                    found.push(start..next.if_token.span.byte_range().start);
                    current = next;
                }
                Expr::Block(block) => {
                    valued |= matches!(block.block.stmts.last(), Some(Stmt::Expr(_, None)));
                    break;
                }
                _ => break,
            },
            None => break,
        }
    }
    if tail && valued { Vec::new() } else { found }
}

/// Whether an expression surely has a value other than `()`; a call is
/// taken to have one in a function that returns one (`returns`, see
/// `Scope::returns`).
fn is_valued(expr: &Expr, returns: Option<&str>) -> bool {
    match expr {
        Expr::Tuple(tuple) => !tuple.elems.is_empty(),
        Expr::Binary(binary) => !is_compound_assignment(&binary.op),
        // `write!(f, ..)` last in a `fmt` body is its value.
        Expr::Call(_) | Expr::MethodCall(_) | Expr::Macro(_) => {
            returns.is_some_and(|r| !r.is_empty())
        }
        Expr::Lit(_)
        | Expr::Path(_)
        | Expr::Struct(_)
        | Expr::Array(_)
        | Expr::Repeat(_)
        | Expr::Field(_)
        | Expr::Index(_)
        | Expr::Reference(_)
        | Expr::Unary(_)
        | Expr::Cast(_)
        | Expr::Range(_) => true,
        Expr::Paren(paren) => is_valued(&paren.expr, returns),
        _ => false,
    }
}
