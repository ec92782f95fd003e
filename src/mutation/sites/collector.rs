//! The walk over the crate's runnable code that collects sites and
//! ingredients: the `Collector`, the hooks it answers (statements,
//! conditions and expressions each have their module), and what they share
//! (a site pushed in its scope, an ingredient cut from the text, an operand).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use syn::Expr;
use syn::Stmt;
use syn::spanned::Spanned;

use super::{Ingredient, MutationSpace, Returned, Site, SiteKind};
use crate::code::source::{FileId, Location};
use crate::code::{
    KeepConst, RunnableCode, Scope, branch_values, free_variables, outer_names,
    variable_occurrences,
};

/// The hooks of the walk over one file's runnable code, collecting its
/// sites and, into the space, its ingredients.
pub(super) struct Collector<'a> {
    pub(super) file: FileId,
    pub(super) text: &'a str,
    pub(super) space: &'a mut MutationSpace,
    /// Ranges of paths called as functions: not variables.
    pub(super) callees: BTreeSet<(usize, usize)>,
    pub(super) sites: Vec<Site>,
    /// Whether a function's code may not be mutated.
    pub(super) excluded: &'a dyn Fn(&str) -> bool,
    /// The `const fn`s whose code is not mutated: a woven build could not
    /// drop their `const` to dispatch to its copies.
    pub(super) keep_const: &'a KeepConst,
    /// The end of the furthest condition site so far: an expression that
    /// starts before it is part of one (the walk goes outermost first).
    pub(super) conditions_end: usize,
    /// Expressions (by their bytes) that give a `let`, an assignment or a
    /// function its value (see `branch_values`): operands, once the walk
    /// reaches them.
    pub(super) values: BTreeSet<(usize, usize)>,
    /// Literals (by their bytes) where an operand would be: literal sites
    /// that say so, once the walk reaches them.
    pub(super) operand_literals: BTreeSet<(usize, usize)>,
    /// The names items inside the file's functions declare (a `static`
    /// in a function body): code that names one works in that function
    /// only.
    pub(super) local_items: &'a BTreeSet<String>,
    /// The values given to a `let` whose variable is later subtracted from
    /// or divides, with the floor those uses ask for (see `floors`).
    pub(super) floors: &'a BTreeMap<(usize, usize), u128>,
}

impl Collector<'_> {
    /// Marks the expressions that give `value` its value as operands.
    pub(super) fn value(&mut self, value: &Expr) {
        for leaf in branch_values(value) {
            let range = leaf.span().byte_range();
            self.values.insert((range.start, range.end));
        }
    }

    pub(super) fn site(&mut self, scope: &Scope, kind: SiteKind) {
        self.site_binding(scope, kind, &[]);
    }

    /// A value the function of `scope` returns (short ones, on one line):
    /// for its guards and early exits.
    pub(super) fn returns(&mut self, scope: &Scope, text: String, free: BTreeSet<String>) {
        if text.len() > 80 || text.contains('\n') {
            return;
        }
        let values = self
            .space
            .returned
            .entry((self.file, scope.function.clone()))
            .or_default();
        if !values.iter().any(|v| v.text == text) {
            values.push(Returned { text, free });
        }
    }

    /// A site where `names` are in scope too.
    pub(super) fn site_binding(&mut self, scope: &Scope, kind: SiteKind, names: &[String]) {
        if (self.excluded)(&scope.function) {
            return;
        }
        // In a macro's transcriber, an edit must keep its repetitions whole.
        if let Some(site) = &scope.in_macro
            && !kind.ranges().iter().all(|range| site.allows(range))
        {
            return;
        }
        let mut bound = scope.bound();
        for name in names {
            if !bound.contains(name) {
                bound.push(name.clone());
            }
        }
        self.sites.push(Site {
            file: self.file,
            line: scope.location,
            bound,
            statement: scope.statement.clone(),
            function: scope.function.clone(),
            function_line: scope.function_line,
            returns: scope.returns.clone(),
            self_type: scope.self_type.clone(),
            kind,
        });
    }

    /// An ingredient found here: `node`'s text, with its free variables
    /// and where they occur in it.
    pub(super) fn ingredient(
        &self,
        node: &impl quote::ToTokens,
        range: Range<usize>,
        free: BTreeSet<String>,
        header: bool,
        closed: bool,
        scope: &Scope,
    ) -> Ingredient {
        let uses = variable_occurrences(node, &free)
            .into_iter()
            .filter(|(_, r)| range.start <= r.start && r.end <= range.end)
            .map(|(name, r)| (name, r.start - range.start..r.end - range.start))
            .collect();
        let text = &self.text[range.clone()];
        let names = outer_names(text);
        // A loop's label, an item declared in a function: only there.
        let local = names
            .iter()
            .any(|n| n.starts_with('\'') || self.local_items.contains(n));
        Ingredient {
            start: range.start,
            names,
            local_to: local.then_some(scope.function_line),
            text: text.to_string(),
            header,
            closed,
            free,
            origin: Location::new(self.file, scope.location),
            uses,
            binds: Vec::new(),
            unit: false,
            inert: false,
            guard: false,
            self_type: scope.self_type.clone(),
        }
    }

    /// An operand site for `expr` (not a literal: the value operator has those).
    pub(super) fn operand(&mut self, expr: &Expr, integer: bool, scope: &Scope) {
        if matches!(expr, Expr::Lit(_)) {
            let range = expr.span().byte_range();
            self.operand_literals.insert((range.start, range.end));
            return;
        }
        let integer = integer || is_length(expr);
        let range = expr.span().byte_range();
        let floor = self.floors.get(&(range.start, range.end)).copied();
        self.site(
            scope,
            SiteKind::Operand {
                range,
                atomic: is_atomic(expr),
                integer,
                floor,
            },
        );
    }

    pub(super) fn text_of(&self, range: &Range<usize>) -> &str {
        &self.text[range.clone()]
    }
}

impl RunnableCode for Collector<'_> {
    fn enters_const_fn(&mut self, sig: &syn::Signature, _: &syn::Block, scope: &Scope) -> bool {
        self.keep_const.may_drop(sig, scope.in_macro.is_some())
    }

    fn statement(&mut self, stmt: &Stmt, scope: &Scope) {
        self.collect_statement(stmt, scope);
    }

    fn enters_macro_values(&self) -> bool {
        true
    }

    fn followed_by(&mut self, stmt: &Stmt, rest: &[Stmt], scope: &Scope) {
        self.reads_after_step(stmt, rest, scope);
    }

    fn arm_block(&mut self, block: &syn::Block, names: &[String], scope: &Scope) {
        self.arm_block_start(block, names, scope);
    }

    fn condition(&mut self, cond: &Expr, scope: &Scope) {
        self.collect_condition(cond, scope);
    }

    fn returned(&mut self, value: &Expr, scope: &Scope) {
        self.value(value);
        for leaf in branch_values(value) {
            if !matches!(leaf, Expr::Macro(_)) {
                let text = self.text_of(&leaf.span().byte_range()).to_string();
                self.returns(scope, text, free_variables(leaf));
            }
        }
    }

    fn iterable(&mut self, iterable: &Expr, scope: &Scope) {
        self.site(
            scope,
            SiteKind::Iterable {
                range: iterable.span().byte_range(),
                atomic: is_atomic(iterable),
            },
        );
    }

    fn expression(&mut self, expr: &Expr, scope: &Scope) {
        self.collect_expression(expr, scope);
    }
}

/// Whether an expression can be negated or combined without parentheses.
pub fn is_atomic(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Path(_)
            | Expr::Call(_)
            | Expr::MethodCall(_)
            | Expr::Field(_)
            | Expr::Lit(_)
            | Expr::Paren(_)
            | Expr::Index(_)
            | Expr::Macro(_)
    )
}

/// `x.len()` or `x.count()`: an integer.
fn is_length(expr: &Expr) -> bool {
    matches!(expr, Expr::MethodCall(call) if call.args.is_empty() && (call.method == "len" || call.method == "count"))
}
