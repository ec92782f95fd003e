//! What each location of the crate does with variables (defines, uses,
//! lends, writes back) and what it runs under: facts from syntax, the same
//! for every run.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use syn::visit::{self, Visit};
use syn::{Expr, Stmt};

use crate::code::CrateSources;
use crate::code::source::{FileId, Location};
use crate::code::{
    AfterCheck, Code, RunnableCode, Scope, branch_values, closure_parameters, header,
    is_compound_assignment, let_bindings, macro_arguments, may_call, pattern_bindings, self_field,
    start_line, variables_used, walk_runnable_code,
};

/// What one location does with variables.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// Where the function it is in starts (its `fn` line): variables are
    /// that function's.
    pub function: Location,
    pub defines: BTreeSet<String>,
    pub uses: BTreeSet<String>,
    /// The uses that are the function's parameters (their values come
    /// from the call).
    pub parameters: BTreeSet<String>,
    /// The first statement of its function: each time it runs, a call began.
    pub entry: bool,
    /// Its function is one a failed check runs after checking (see
    /// `Scope::after_checks`: `Debug::fmt`, `Drop::drop`...).
    pub after_checks: Option<AfterCheck>,
    /// The parameters of its function that are mutable references and
    /// that it writes through: what the caller sees of the call besides
    /// the value returned.
    pub writes_back: BTreeSet<String>,
    /// The variables it lends mutably (`&mut x`) or formats into: a call
    /// it makes may write them.
    pub lends: BTreeSet<String>,
    /// Whether it may call code of the crate (see `code::may_call`).
    pub may_call: bool,
    /// The condition (if, else if, loop, match) it runs under.
    pub control: Option<Location>,
    /// Earlier decisions that could have left the function or loop before
    /// it (an `if` around a `return`, a statement with `?`).
    pub exits: BTreeSet<Location>,
    /// `if`, `while`, `for`, `loop` or `match` for a location that decides
    /// what runs under it.
    pub decides: Option<&'static str>,
    /// For a location that decides: the variables the code under it
    /// writes (what a branch not taken would have written).
    pub branch_defines: BTreeSet<String>,
}

/// The facts of every location of the crate.
pub fn statement_facts(sources: &CrateSources) -> BTreeMap<Location, Facts> {
    let mut facts = BTreeMap::new();
    for (id, file) in sources.iter() {
        let mut collector = Collector {
            file: id,
            facts: &mut facts,
            entered: BTreeSet::new(),
            branch_values: HashMap::new(),
            aliases: HashMap::new(),
            valued_conditions: BTreeSet::new(),
        };
        walk_runnable_code(&file.syntax, &mut collector);
    }
    // Each write counts for every decision above it.
    let writes: Vec<(Location, BTreeSet<String>)> = facts
        .iter()
        .filter(|(_, f)| !f.defines.is_empty())
        .map(|(l, f)| (*l, f.defines.clone()))
        .collect();
    for (location, defines) in writes {
        let mut seen = BTreeSet::from([location]);
        let mut above = facts[&location].control;
        while let Some(decision) = above.filter(|d| seen.insert(*d)) {
            let Some(facts) = facts.get_mut(&decision) else {
                break;
            };
            facts.branch_defines.extend(defines.iter().cloned());
            above = facts.control;
        }
    }
    facts
}

struct Collector<'a> {
    file: FileId,
    facts: &'a mut BTreeMap<Location, Facts>,
    /// Functions (by their `fn` line) whose first statement was recorded.
    entered: BTreeSet<u32>,
    /// The lines of branch values (`let x = if c { a } else { b };`: the
    /// lines of `a` and `b`) with the variables they define: the branch
    /// that ran gave the value, after the `let` began.
    branch_values: HashMap<u32, BTreeSet<String>>,
    /// Names (by their function's `fn` line) bound to a mutable borrow of
    /// a variable: writing through them writes it.
    aliases: HashMap<(u32, String), String>,
    /// The lines of the `if`s and `while`s whose condition a branch gives
    /// (`if !match t { A => f(x), .. } {`): the branch runs after the
    /// condition's line, so what runs under it reads the branch's value.
    valued_conditions: BTreeSet<u32>,
}

impl Collector<'_> {
    fn record(
        &mut self,
        line: u32,
        scope: &Scope,
        code: Code,
        mut defines: BTreeSet<String>,
        uses: BTreeSet<String>,
        decides: Option<&'static str>,
    ) {
        // A closure's parameters are bound where it is written.
        defines.extend(closure_parameters(code));
        // Lent: `&mut x`, and a mutable reference passed on as it is (a
        // name bound to a mutable borrow, a `&mut` parameter).
        let function = scope.function_line;
        let (mut lends, passed) = lending(code);
        lends.extend(passed.into_iter().filter(|name| {
            self.aliases.contains_key(&(function, name.clone())) || scope.is_lent_parameter(name)
        }));
        defines.extend(lends.iter().cloned());
        let borrowed = |names: &BTreeSet<String>| -> Vec<String> {
            let aliased = names
                .iter()
                .filter_map(|d| self.aliases.get(&(function, base(d).to_string())));
            aliased.cloned().collect()
        };
        // What a borrow writes or lends, it writes or lends the borrowed.
        lends.extend(borrowed(&lends));
        defines.extend(borrowed(&defines));
        let location = Location::new(self.file, line);
        // Only local variables (and fields of `self`): paths such as `None`
        // or constants are not variables.
        let mut uses = uses
            .into_iter()
            .filter(|v| scope.binds(base(v)))
            .collect::<BTreeSet<_>>();
        let parameters: BTreeSet<String> = uses
            .iter()
            .filter(|v| scope.is_parameter(base(v)))
            .cloned()
            .collect();
        let writes_back: BTreeSet<String> = defines
            .iter()
            .filter(|d| scope.is_lent_parameter(base(d)))
            .map(|d| base(d).to_string())
            .collect();
        let entry = self.entered.insert(scope.function_line);
        let control = scope
            .control
            .filter(|c| *c != line)
            .map(|c| Location::new(self.file, c));
        if let Some(decision) = control.filter(|c| self.valued_conditions.contains(&c.line)) {
            uses.insert(condition_value(decision));
        }
        let exits = scope
            .exits
            .iter()
            .filter(|&&e| e != line)
            .map(|&e| Location::new(self.file, e))
            .collect();
        let entry = self.facts.entry(location).or_insert_with(|| Facts {
            function: Location::new(self.file, scope.function_line),
            control,
            exits,
            entry,
            after_checks: scope.after_checks(),
            ..Facts::default()
        });
        entry.defines.extend(defines);
        entry
            .defines
            .extend(self.branch_values.get(&line).into_iter().flatten().cloned());
        entry.uses.extend(uses);
        entry.parameters.extend(parameters);
        entry.writes_back.extend(writes_back);
        entry.lends.extend(lends);
        entry.decides = entry.decides.or(decides);
        entry.may_call |= may_call(code);
    }

    /// A value chosen by branches is defined where the branch that ran
    /// gives it: notes the lines of `stmt`'s branch values, if it has any.
    /// So does a value a method takes into the variable it is called on
    /// (`out.push(if c { a } else { b })`, `v.extend(match t { .. }.into_iter())`),
    /// and a branching value passed through methods (`match t { .. }.unwrap()`).
    fn note_branch_values(&mut self, stmt: &Stmt, scope: &Scope) {
        let (values, target): (Vec<&Expr>, Vec<String>) = match stmt {
            Stmt::Local(local) => (
                local.init.iter().map(|init| &*init.expr).collect(),
                pattern_bindings(&local.pat),
            ),
            Stmt::Expr(Expr::Assign(assign), _) => (
                vec![&*assign.right],
                written(&assign.left).into_iter().collect(),
            ),
            Stmt::Expr(Expr::MethodCall(call), _) => match written(&call.receiver) {
                Some(receiver) => {
                    let chosen = call
                        .args
                        .iter()
                        .filter(|a| branching(through_methods(a)).is_some());
                    (chosen.collect(), vec![receiver])
                }
                None => (Vec::new(), Vec::new()),
            },
            Stmt::Expr(expr, _) => {
                let condition = header(expr).filter(|h| matches!(h.kind, "if" | "while"));
                match condition.and_then(|h| h.head).and_then(branching) {
                    Some(value) => {
                        self.valued_conditions.insert(scope.location);
                        let decision = Location::new(self.file, scope.location);
                        (vec![value], vec![condition_value(decision)])
                    }
                    None => (Vec::new(), Vec::new()),
                }
            }
            _ => (Vec::new(), Vec::new()),
        };
        for value in values {
            let value = branching(through_methods(value)).unwrap_or(value);
            let lines = branch_values(value).into_iter().filter_map(start_line);
            for line in lines.filter(|&l| l != scope.location) {
                self.branch_values
                    .entry(line)
                    .or_default()
                    .extend(target.iter().cloned());
            }
        }
    }

    /// Names bound to a mutable borrow of a variable write it when written
    /// through (`if let Some(last) = merged.last_mut()`): notes them.
    /// A name bound again without a borrow is no longer one (forgotten
    /// before the statement's facts are recorded: its binding writes
    /// nothing through the old borrow).
    fn note_aliases(&mut self, binding: Binding, scope: &Scope) {
        let Binding {
            bound,
            refs,
            borrowed,
        } = binding;
        if let Some(borrowed) = borrowed {
            let aliasing = if refs.is_empty() { bound } else { refs };
            for name in aliasing {
                self.aliases
                    .insert((scope.function_line, name), borrowed.clone());
            }
        }
    }

    fn forget_aliases(&mut self, binding: &Binding, scope: &Scope) {
        for name in &binding.bound {
            self.aliases.remove(&(scope.function_line, name.clone()));
        }
    }
}

/// What a statement binds, and what it borrows for which names: those a
/// `ref mut` binds where there is one, else every one.
#[derive(Default)]
struct Binding {
    bound: Vec<String>,
    refs: Vec<String>,
    borrowed: Option<String>,
}

impl Binding {
    fn of(stmt: &Stmt) -> Binding {
        let (bound, refs, borrowed) = match stmt {
            Stmt::Local(local) => {
                let refs = ref_mut_bindings(&local.pat);
                let init = local.init.as_ref().map(|init| &*init.expr);
                let borrowed = if refs.is_empty() {
                    init.and_then(mutably_borrowed)
                } else {
                    init.and_then(borrowed_by_pattern)
                };
                (pattern_bindings(&local.pat), refs, borrowed)
            }
            Stmt::Expr(Expr::Match(m), _) => {
                let refs: Vec<String> = m
                    .arms
                    .iter()
                    .flat_map(|a| ref_mut_bindings(&a.pat))
                    .collect();
                let bound = m.arms.iter().flat_map(|a| pattern_bindings(&a.pat));
                let borrowed = if refs.is_empty() {
                    mutably_borrowed(&m.expr)
                } else {
                    borrowed_by_pattern(&m.expr)
                };
                (bound.collect(), refs, borrowed)
            }
            Stmt::Expr(expr, _) => match header(expr) {
                Some(header) => {
                    let refs = header.head.map(let_ref_mut_bindings).unwrap_or_default();
                    (header.binds, refs, header.head.and_then(mutably_borrowed))
                }
                None => return Binding::default(),
            },
            _ => return Binding::default(),
        };
        Binding {
            bound,
            refs,
            borrowed,
        }
    }
}

/// The name of the value the branches of `decision`'s condition give (no
/// variable's name: it never clashes).
fn condition_value(decision: Location) -> String {
    format!("(the condition at line {})", decision.line)
}

/// The branching expression a condition's value comes from, under `!` and
/// parentheses: a `match`, an `if` or a block.
fn branching(condition: &Expr) -> Option<&Expr> {
    match condition {
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Not(_)) => branching(&unary.expr),
        Expr::Paren(paren) => branching(&paren.expr),
        Expr::Match(_) | Expr::If(_) | Expr::Block(_) => Some(condition),
        _ => None,
    }
}

/// The expression whose value `value` carries through method calls and
/// `?` (`match t { .. }.into_iter()`, `if c { a } else { b }?`).
fn through_methods(value: &Expr) -> &Expr {
    match value {
        Expr::MethodCall(call) => through_methods(&call.receiver),
        Expr::Try(try_) => through_methods(&try_.expr),
        Expr::Paren(paren) => through_methods(&paren.expr),
        other => other,
    }
}

/// What an expression statement (or an expression body) writes and
/// reads, and what it decides.
fn expression_facts(expr: &Expr) -> (BTreeSet<String>, BTreeSet<String>, Option<&'static str>) {
    if let Some(header) = header(expr) {
        let uses = header.head.map(variables_used).unwrap_or_default();
        return (header.binds.into_iter().collect(), uses, Some(header.kind));
    }
    let mut defines = BTreeSet::new();
    let (uses, decides) = match expr {
        Expr::Block(_) | Expr::Unsafe(_) => (BTreeSet::new(), None),
        Expr::Assign(assign) => {
            defines.extend(written(&assign.left));
            let mut uses = variables_used(&assign.right);
            if !matches!(assign.left.as_ref(), Expr::Path(_)) || written(&assign.left).is_none() {
                uses.extend(variables_used(&assign.left));
            }
            (uses, None)
        }
        Expr::Binary(binary) if is_compound_assignment(&binary.op) => {
            defines.extend(written(&binary.left));
            (variables_used(expr), None)
        }
        // `v.push(x)`: a method called on a variable may change it.
        Expr::MethodCall(call) => {
            defines.extend(written(&call.receiver));
            (variables_used(expr), None)
        }
        other => (variables_used(other), None),
    };
    (defines, uses, decides)
}

/// The variable `value` borrows mutably, if it does: `&mut v`, or a chain
/// through a `_mut` method or `entry` (`v.last_mut()`, `map.entry(k)`,
/// `v.iter_mut().enumerate()`), in an `if let` or `while let` too.
fn mutably_borrowed(value: &Expr) -> Option<String> {
    match value {
        Expr::Reference(reference) if reference.mutability.is_some() => written(&reference.expr),
        Expr::MethodCall(call) => {
            let name = call.method.to_string();
            if name.ends_with("_mut") || name == "entry" {
                written(&call.receiver)
            } else {
                mutably_borrowed(&call.receiver)
            }
        }
        // `if let Some(ref mut x) = v`: the pattern borrows `v` mutably.
        Expr::Let(binding) if !ref_mut_bindings(&binding.pat).is_empty() => {
            borrowed_by_pattern(&binding.expr)
        }
        Expr::Let(binding) => mutably_borrowed(&binding.expr),
        Expr::Binary(binary) => {
            mutably_borrowed(&binary.left).or_else(|| mutably_borrowed(&binary.right))
        }
        Expr::Paren(paren) => mutably_borrowed(&paren.expr),
        _ => None,
    }
}

/// What `code` may change through a reference: the variables it lends
/// mutably (`&mut x`, `&mut self.items`) or formats into (`write!(out,
/// ..)`, `writeln!`), and the plain names it passes to calls (`f(x)`,
/// `v.g(x)`: a name bound to a mutable reference is lent again that way).
/// Not in blocks or closures inside it (their statements are locations of
/// their own).
fn lending(code: Code) -> (BTreeSet<String>, BTreeSet<String>) {
    #[derive(Default)]
    struct Finder {
        lent: BTreeSet<String>,
        passed: BTreeSet<String>,
    }
    impl Finder {
        fn arguments<'e>(&mut self, args: impl IntoIterator<Item = &'e Expr>) {
            let names = args.into_iter().filter_map(|arg| match arg {
                Expr::Path(path) => path.path.get_ident().map(ToString::to_string),
                _ => None,
            });
            self.passed.extend(names);
        }
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_reference(&mut self, expr: &'ast syn::ExprReference) {
            if expr.mutability.is_some() {
                self.lent.extend(written(&expr.expr));
            }
            visit::visit_expr_reference(self, expr);
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            let name = mac.path.segments.last().map(|s| s.ident.to_string());
            if matches!(name.as_deref(), Some("write" | "writeln"))
                && let Some(target) = macro_arguments(mac).first()
            {
                let target = match target {
                    Expr::Reference(reference) => &reference.expr,
                    target => target,
                };
                self.lent.extend(written(target));
            }
        }
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            self.arguments(&call.args);
            visit::visit_expr_call(self, call);
        }
        fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
            self.arguments(&call.args);
            visit::visit_expr_method_call(self, call);
        }
        fn visit_block(&mut self, _: &'ast syn::Block) {}
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut finder = Finder::default();
    match code {
        Code::Stmt(stmt) => finder.visit_stmt(stmt),
        Code::Expr(expr) => finder.visit_expr(expr),
    }
    (finder.lent, finder.passed)
}

/// The names `pat` binds by `ref mut`, borrowing (part of) what it
/// matches.
fn ref_mut_bindings(pat: &syn::Pat) -> Vec<String> {
    struct Finder(Vec<String>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
            if pat.by_ref.is_some() && pat.mutability.is_some() {
                self.0.push(pat.ident.to_string());
            }
            visit::visit_pat_ident(self, pat);
        }
        fn visit_expr(&mut self, _: &'ast Expr) {}
    }
    let mut finder = Finder(Vec::new());
    finder.visit_pat(pat);
    finder.0
}

/// The names the `let`s of a condition bind by `ref mut`.
fn let_ref_mut_bindings(cond: &Expr) -> Vec<String> {
    match cond {
        Expr::Let(binding) => ref_mut_bindings(&binding.pat),
        Expr::Binary(binary) => {
            let mut names = let_ref_mut_bindings(&binary.left);
            names.extend(let_ref_mut_bindings(&binary.right));
            names
        }
        Expr::Paren(paren) => let_ref_mut_bindings(&paren.expr),
        _ => Vec::new(),
    }
}

/// What a `ref mut` pattern matched against `value` borrows: the
/// variable `value` is, or borrows mutably itself (`v.get_mut(i)`).
fn borrowed_by_pattern(value: &Expr) -> Option<String> {
    written(value).or_else(|| mutably_borrowed(value))
}

/// The variable `self.field` or `x` is a field of.
fn base(variable: &str) -> &str {
    variable.split('.').next().unwrap_or(variable)
}

/// The variable an assignment target writes: `x`, `self.f`, or the base of
/// `x[i]` or `x.f`.
fn written(target: &Expr) -> Option<String> {
    match target {
        Expr::Path(path) => path.path.get_ident().map(ToString::to_string),
        Expr::Field(field) => self_field(field).or_else(|| written(&field.base)),
        Expr::Index(index) => written(&index.expr),
        Expr::Unary(unary) => written(&unary.expr),
        Expr::Paren(paren) => written(&paren.expr),
        _ => None,
    }
}

impl RunnableCode for Collector<'_> {
    /// A `const fn` run at run time is probed (see `baseline::instrument`):
    /// its statements' facts let slices pass through it.
    fn enters_const_fn(&mut self, _: &syn::Signature, _: &syn::Block, _: &Scope) -> bool {
        true
    }

    fn statement(&mut self, stmt: &Stmt, scope: &Scope) {
        self.note_branch_values(stmt, scope);
        let (defines, uses, decides) = match stmt {
            Stmt::Local(local) => (
                pattern_bindings(&local.pat).into_iter().collect(),
                local
                    .init
                    .as_ref()
                    .map(|init| variables_used(&init.expr))
                    .unwrap_or_default(),
                None,
            ),
            Stmt::Expr(expr, _) => expression_facts(expr),
            Stmt::Macro(mac) => (BTreeSet::new(), variables_used(&mac.mac), None),
            Stmt::Item(_) => return,
        };
        let binding = Binding::of(stmt);
        self.forget_aliases(&binding, scope);
        self.record(
            scope.location,
            scope,
            Code::Stmt(stmt),
            defines,
            uses,
            decides,
        );
        self.note_aliases(binding, scope);
    }

    fn else_if(&mut self, else_branch: &Expr, scope: &Scope) {
        if let Expr::If(nested) = else_branch {
            let line = nested.if_token.span.start().line as u32;
            self.record(
                line,
                scope,
                Code::Expr(&nested.cond),
                let_bindings(&nested.cond).into_iter().collect(),
                variables_used(&nested.cond),
                Some("if"),
            );
        }
    }

    fn expression_body(&mut self, body: &Expr, scope: &Scope) {
        if let Some(line) = start_line(body) {
            // A closure's parameters (an arm's bindings) get their values
            // when it runs: in an iterator chain, from the stage before.
            let (mut defines, uses, decides) = expression_facts(body);
            defines.extend(scope.innermost().iter().cloned());
            self.record(line, scope, Code::Expr(body), defines, uses, decides);
        }
    }
}
