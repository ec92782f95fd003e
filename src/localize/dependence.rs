//! Dynamic dependencies (the slicing seed): what each location defines and
//! uses, which condition it is control dependent on, and, over the trace of
//! a failing run, the backward slice from the last statement it executed in
//! the crate: the statements that can have influenced the failure.
//!
//! Facts come from syntax; dependencies come from a trace, so they are the
//! ones this run had, not every one the code could have. The trace holds
//! locations only, so calls and returns are inferred: a location of another
//! function than the current one enters it (a call from the last statement
//! run) unless that function is still active below (a return to it).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use syn::visit::{self, Visit};
use syn::{Expr, Stmt};

use crate::code::CrateSources;
use crate::code::source::{FileId, Location};
use crate::code::{
    Code, RunnableCode, Scope, branch_values, closure_parameters, header, is_compound_assignment,
    let_bindings, macro_arguments, may_call, pattern_bindings, self_field, start_line,
    variables_used, walk_runnable_code,
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
    /// The parameters of its function that are mutable references and
    /// that it writes through: what the caller sees of the call besides
    /// the value returned.
    pub writes_back: BTreeSet<String>,
    /// The variables it lends mutably (`&mut x`) or formats into: a call
    /// it makes may write them.
    pub lends: BTreeSet<String>,
    /// Whether it may call code of the crate (see `syntax::may_call`).
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
        let lends = written_through(code);
        defines.extend(lends.iter().cloned());
        let aliased: Vec<String> = defines
            .iter()
            .filter_map(|d| {
                self.aliases
                    .get(&(scope.function_line, base(d).to_string()))
            })
            .cloned()
            .collect();
        defines.extend(aliased);
        let location = Location::new(self.file, line);
        // Only local variables (and fields of `self`): paths such as `None`
        // or constants are not variables.
        let uses = uses
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
    fn note_branch_values(&mut self, stmt: &Stmt, scope: &Scope) {
        let (value, target) = match stmt {
            Stmt::Local(local) => (
                local.init.as_ref().map(|init| &*init.expr),
                pattern_bindings(&local.pat),
            ),
            Stmt::Expr(Expr::Assign(assign), _) => (
                Some(&*assign.right),
                written(&assign.left).into_iter().collect(),
            ),
            _ => (None, Vec::new()),
        };
        if let Some(value) = value {
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
    fn note_aliases(&mut self, stmt: &Stmt, scope: &Scope) {
        let (names, borrowed) = match stmt {
            Stmt::Local(local) => (
                pattern_bindings(&local.pat),
                local
                    .init
                    .as_ref()
                    .and_then(|init| mutably_borrowed(&init.expr)),
            ),
            Stmt::Expr(expr, _) => match header(expr) {
                Some(header) => (header.binds, header.head.and_then(mutably_borrowed)),
                None => (Vec::new(), None),
            },
            _ => (Vec::new(), None),
        };
        if let Some(borrowed) = borrowed {
            for name in names {
                self.aliases
                    .insert((scope.function_line, name), borrowed.clone());
            }
        }
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
        Expr::Let(binding) => mutably_borrowed(&binding.expr),
        Expr::Binary(binary) => {
            mutably_borrowed(&binary.left).or_else(|| mutably_borrowed(&binary.right))
        }
        Expr::Paren(paren) => mutably_borrowed(&paren.expr),
        _ => None,
    }
}

/// The variables `code` lends mutably (`&mut x`, `&mut self.items`) or
/// formats into (`write!(out, ..)`, `writeln!`): what it may change
/// through a reference. Not in blocks or closures inside it (their
/// statements are locations of their own).
fn written_through(code: Code) -> BTreeSet<String> {
    struct Finder(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_reference(&mut self, expr: &'ast syn::ExprReference) {
            if expr.mutability.is_some() {
                self.0.extend(written(&expr.expr));
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
                self.0.extend(written(target));
            }
        }
        fn visit_block(&mut self, _: &'ast syn::Block) {}
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut finder = Finder(BTreeSet::new());
    match code {
        Code::Stmt(stmt) => finder.visit_stmt(stmt),
        Code::Expr(expr) => finder.visit_expr(expr),
    }
    finder.0
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
        self.record(
            scope.location,
            scope,
            Code::Stmt(stmt),
            defines,
            uses,
            decides,
        );
        self.note_aliases(stmt, scope);
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

/// A dependency of one execution of a location.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dependency {
    /// It read `variable`, last written at `from`.
    Data { variable: String, from: Location },
    /// It read a parameter: the value came from the call at `from`.
    Argument { from: Location },
    /// It called a function of the crate, which returned from `from`.
    Return { from: Location },
    /// It read a variable lent to a call (`f(&mut x)`), whose callee last
    /// wrote through its parameter `variable` (a mutable reference) at
    /// `from`.
    WrittenBack { variable: String, from: Location },
    /// It ran because the condition at `from` (an `if`, loop...) decided
    /// so, or because the statement at `from` did not leave early (`?`).
    Control { kind: &'static str, from: Location },
    /// It read `variable`, which the code the decision at `from` did not
    /// run would have written (a potential dependence, as in relevant
    /// slicing: the value may be wrong because a branch was not taken).
    Potential { variable: String, from: Location },
}

impl Dependency {
    pub fn from(&self) -> &Location {
        match self {
            Dependency::Data { from, .. }
            | Dependency::Argument { from }
            | Dependency::Return { from }
            | Dependency::WrittenBack { from, .. }
            | Dependency::Control { from, .. }
            | Dependency::Potential { from, .. } => from,
        }
    }
}

/// A failing run: its trace, cut into function activations, with the
/// dependencies of every execution in it.
#[derive(Debug)]
pub struct Run<'a> {
    trace: &'a [Location],
    /// Per position of the trace: what it depends on, as positions.
    dependencies: Vec<Vec<(Dependency, usize)>>,
    /// The position of each location's last execution.
    last: HashMap<&'a Location, usize>,
    /// The last writes back to the caller of the activation the run ended
    /// in (through its `&mut` parameters).
    written_back: Vec<usize>,
}

/// One activation of a function in the trace.
struct Frame<'a> {
    function: Option<&'a Location>,
    positions: Vec<usize>,
    /// The position of the statement that called it.
    caller: Option<usize>,
}

impl<'a> Run<'a> {
    pub fn new(trace: &'a [Location], facts: &'a BTreeMap<Location, Facts>) -> Run<'a> {
        // Frames: a function's first statement begins a call; any other
        // location of an active function continues it (returning to it
        // from the ones above); any other one begins a call too. A call
        // comes from the innermost active statement that may call: a frame
        // whose last statement cannot call has returned.
        let mut frames: Vec<Frame> = Vec::new();
        let mut calls: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut stack: Vec<usize> = Vec::new();
        let may_call = |p: usize| facts.get(&trace[p]).is_some_and(|f| f.may_call);
        for (p, location) in trace.iter().enumerate() {
            let own = facts.get(location);
            let function = own.map(|f| &f.function);
            let active = if own.is_some_and(|f| f.entry) {
                None
            } else {
                stack.iter().rposition(|&f| frames[f].function == function)
            };
            let frame = match active {
                Some(depth) => {
                    stack.truncate(depth + 1);
                    stack[depth]
                }
                None => {
                    while let Some(&top) = stack.last()
                        && !frames[top].positions.last().is_some_and(|&q| may_call(q))
                    {
                        stack.pop();
                    }
                    let caller = stack
                        .last()
                        .and_then(|&f| frames[f].positions.last().copied());
                    frames.push(Frame {
                        function,
                        positions: Vec::new(),
                        caller,
                    });
                    let frame = frames.len() - 1;
                    if let Some(caller) = caller {
                        calls.entry(caller).or_default().push(frame);
                    }
                    stack.push(frame);
                    frame
                }
            };
            frames[frame].positions.push(p);
        }
        // What each activation leaves its caller through its `&mut`
        // parameters: the last write through each.
        let written_back: Vec<BTreeMap<&str, usize>> = frames
            .iter()
            .map(|frame| {
                let mut last = BTreeMap::new();
                for &p in &frame.positions {
                    for variable in facts
                        .get(&trace[p])
                        .into_iter()
                        .flat_map(|f| &f.writes_back)
                    {
                        last.insert(variable.as_str(), p);
                    }
                }
                last
            })
            .collect();
        // A field of `self` outlives the call: its last write may be in an
        // earlier call or in a callee (another method on the same value,
        // most likely).
        let mut field_writes: HashMap<&str, Vec<usize>> = HashMap::new();
        for (p, location) in trace.iter().enumerate() {
            for variable in facts.get(location).into_iter().flat_map(|f| &f.defines) {
                if variable.starts_with("self.") {
                    field_writes.entry(variable).or_default().push(p);
                }
            }
        }
        let field_write_before = |variable: &str, p: usize| {
            let writes = field_writes.get(variable)?;
            let before = writes.partition_point(|&q| q < p);
            before.checked_sub(1).map(|i| writes[i])
        };
        // Dependencies, frame by frame, in order: the last write of each
        // variable read, the parameters' call, the condition it ran under,
        // and what the functions it called returned.
        let mut dependencies = vec![Vec::new(); trace.len()];
        for frame in &frames {
            let mut last_write: HashMap<&str, usize> = HashMap::new();
            let mut last_run: HashMap<&Location, usize> = HashMap::new();
            // Per variable, the decisions since its last write whose code
            // writes it (the last run of each).
            let mut deciding: HashMap<&str, BTreeMap<&Location, usize>> = HashMap::new();
            for &p in &frame.positions {
                let location = &trace[p];
                if let Some(own) = facts.get(location) {
                    let found = &mut dependencies[p];
                    let mut from_caller = false;
                    for variable in &own.uses {
                        let write = if variable.starts_with("self.") {
                            field_write_before(variable, p)
                        } else {
                            last_write.get(variable.as_str()).copied()
                        };
                        // Since the write read (a field's may be in another
                        // call), and not the decision this runs under: it
                        // took the branch.
                        let decisions = deciding.get(variable.as_str()).into_iter().flatten();
                        let after_write = |d: usize| write.is_none_or(|w| d > w);
                        for (&&from, &d) in
                            decisions.filter(|&(l, &d)| Some(**l) != own.control && after_write(d))
                        {
                            let variable = variable.clone();
                            found.push((Dependency::Potential { variable, from }, d));
                        }
                        // A variable lent to a call: what the callee wrote
                        // through its parameter too.
                        let lent = write.filter(|&q| {
                            facts
                                .get(&trace[q])
                                .is_some_and(|f| f.lends.contains(variable))
                        });
                        let callees = lent.and_then(|q| calls.get(&q)).into_iter().flatten();
                        for (&parameter, &w) in callees.flat_map(|&c| &written_back[c]) {
                            let (variable, from) = (parameter.to_string(), trace[w]);
                            found.push((Dependency::WrittenBack { variable, from }, w));
                        }
                        match write {
                            Some(q) => found.push((
                                Dependency::Data {
                                    variable: variable.clone(),
                                    from: trace[q],
                                },
                                q,
                            )),
                            None => from_caller |= own.parameters.contains(variable),
                        }
                    }
                    if from_caller && let Some(caller) = frame.caller {
                        let from = trace[caller];
                        found.push((Dependency::Argument { from }, caller));
                    }
                    for control in own.control.iter().chain(&own.exits) {
                        if let Some(&q) = last_run.get(control) {
                            // A statement that decides nothing controls by
                            // leaving early (`?`).
                            let kind = facts.get(control).and_then(|f| f.decides).unwrap_or("?");
                            let from = *control;
                            found.push((Dependency::Control { kind, from }, q));
                        }
                    }
                    for &callee in calls.get(&p).into_iter().flatten() {
                        if let Some(&q) = frames[callee].positions.last() {
                            let from = trace[q];
                            found.push((Dependency::Return { from }, q));
                        }
                    }
                    for variable in &own.defines {
                        last_write.insert(variable, p);
                        deciding.remove(variable.as_str());
                    }
                    for variable in &own.branch_defines {
                        deciding.entry(variable).or_default().insert(location, p);
                    }
                }
                last_run.insert(location, p);
            }
        }
        let last = trace.iter().enumerate().map(|(p, l)| (l, p)).collect();
        let written_back = stack
            .last()
            .map(|&frame| written_back[frame].values().copied().collect())
            .unwrap_or_default();
        Run {
            trace,
            dependencies,
            last,
            written_back,
        }
    }

    /// Whether the run executed `location`.
    pub fn executed(&self, location: &Location) -> bool {
        self.last.contains_key(location)
    }

    /// The dependencies of the last execution of `location`.
    pub fn dependencies_of(&self, location: &Location) -> Vec<Dependency> {
        self.last
            .get(location)
            .map(|&p| {
                self.dependencies[p]
                    .iter()
                    .map(|(d, _)| d.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The dynamic backward slice: from the last location the run executed
    /// in the crate (and from the last writes through the `&mut`
    /// parameters of the call it ended in, if there are any and the test
    /// `checks_lent` variables: asked only then), every execution it
    /// transitively depends on.
    pub fn slice(&self, checks_lent: impl FnOnce() -> bool) -> BTreeSet<Location> {
        let mut taken = vec![false; self.trace.len()];
        let mut work: Vec<usize> = self.trace.len().checked_sub(1).into_iter().collect();
        if !self.written_back.is_empty() && checks_lent() {
            work.extend(&self.written_back);
        }
        let mut slice = BTreeSet::new();
        while let Some(p) = work.pop() {
            if std::mem::replace(&mut taken[p], true) {
                continue;
            }
            slice.insert(self.trace[p]);
            work.extend(self.dependencies[p].iter().map(|&(_, q)| q));
        }
        slice
    }
}

/// The dynamic backward slice of a failing run's trace (see [`Run::slice`]).
pub fn backward_slice(
    trace: &[Location],
    facts: &BTreeMap<Location, Facts>,
    checks_lent: impl FnOnce() -> bool,
) -> BTreeSet<Location> {
    Run::new(trace, facts).slice(checks_lent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::CrateSources;

    fn facts_of(text: &str) -> BTreeMap<Location, Facts> {
        let sources = CrateSources::of_one_file(text);
        statement_facts(&sources)
    }

    fn at(line: u32) -> Location {
        Location::new(FileId::new(0), line)
    }

    fn lines(set: &BTreeSet<Location>) -> Vec<u32> {
        set.iter().map(|l| l.line).collect()
    }

    const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    } else {\n        if x > y {\n            return y;\n        } else if x > z {\n            return x;\n        }\n    }\n    z\n}\n";

    #[test]
    fn middle_facts_follow_the_seed() {
        let facts = facts_of(MIDDLE);
        assert_eq!(
            facts[&at(2)].uses,
            BTreeSet::from(["y".to_string(), "z".into()])
        );
        assert_eq!(facts[&at(3)].control, Some(at(2)));
        assert_eq!(
            facts[&at(5)].uses,
            BTreeSet::from(["x".to_string(), "z".into()])
        );
        assert_eq!(
            facts[&at(5)].control,
            Some(at(3)),
            "an else-if depends on its if"
        );
        assert_eq!(facts[&at(6)].control, Some(at(5)));
        assert_eq!(facts[&at(6)].uses, BTreeSet::from(["y".to_string()]));
        assert_eq!(facts[&at(15)].control, None);
    }

    #[test]
    fn the_slice_of_middle_2_1_3_holds_the_conditions_and_the_return() {
        // middle(2, 1, 3) executes lines 2, 3, 5 and 6.
        let facts = facts_of(MIDDLE);
        let slice = backward_slice(&[at(2), at(3), at(5), at(6)], &facts, || false);
        assert_eq!(lines(&slice), [2, 3, 5, 6]);
        let trace = [at(2), at(3), at(5), at(6)];
        let deps = Run::new(&trace, &facts).dependencies_of(&at(6));
        assert_eq!(
            deps,
            [Dependency::Control {
                kind: "if",
                from: at(5)
            }]
        );
    }

    #[test]
    fn a_write_that_cannot_reach_the_failure_is_left_out() {
        let text = "pub fn f(a: i32) -> i32 {\n    let mut log = Vec::new();\n    let b = a * 2;\n    log.push(b);\n    let c = b + 1;\n    c\n}\n";
        let facts = facts_of(text);
        assert!(facts[&at(4)].defines.contains("log"));
        let slice = backward_slice(&[at(2), at(3), at(4), at(5), at(6)], &facts, || false);
        assert_eq!(
            lines(&slice),
            [3, 5, 6],
            "`log` cannot influence the result"
        );
        let trace = [at(2), at(3), at(4), at(5), at(6)];
        let deps = Run::new(&trace, &facts).dependencies_of(&at(5));
        assert_eq!(
            deps,
            [Dependency::Data {
                variable: "b".into(),
                from: at(3)
            }]
        );
    }

    #[test]
    fn fields_of_self_and_loops_carry_dependencies() {
        let text = "struct S { count: u32, total: u32 }\nimpl S {\n    fn add(&mut self, values: &[u32]) -> u32 {\n        for v in values {\n            self.total += v;\n        }\n        self.count += 1;\n        self.total / self.count\n    }\n}\n";
        let facts = facts_of(text);
        assert_eq!(facts[&at(5)].control, Some(at(4)));
        assert_eq!(facts[&at(4)].decides, Some("for"));
        assert!(facts[&at(5)].defines.contains("self.total"));
        let trace = [at(4), at(5), at(5), at(7), at(8)];
        assert_eq!(
            lines(&backward_slice(&trace, &facts, || false)),
            [4, 5, 7, 8]
        );
    }

    #[test]
    fn a_field_written_in_an_earlier_call_reaches_a_later_one() {
        let text = "struct S { x: i32, log: i32 }\nimpl S {\n    fn set(&mut self, v: i32) {\n        self.log += 1;\n        self.x = v;\n    }\n    fn get(&self) -> i32 {\n        self.x + 1\n    }\n}\n";
        let facts = facts_of(text);
        // A test calls s.set(1), then s.get(): 4, 5, then 8.
        let trace = [at(4), at(5), at(8)];
        let run = Run::new(&trace, &facts);
        assert_eq!(
            run.dependencies_of(&at(8)),
            [Dependency::Data {
                variable: "self.x".into(),
                from: at(5)
            }]
        );
        assert_eq!(
            lines(&run.slice(|| false)),
            [5, 8],
            "`self.log` is left out"
        );
    }

    #[test]
    fn a_closure_body_runs_under_the_statement_that_gives_it() {
        let text = "pub fn f(v: Option<i32>, y: i32) -> i32 {\n    if y > 0 {\n        let w = v.ok_or_else(|| {\n            y + 1\n        });\n        return w.unwrap_or(0);\n    }\n    v.map(|x| x * 2).unwrap_or(y)\n}\n";
        let facts = facts_of(text);
        assert_eq!(facts[&at(4)].control, Some(at(3)));
        assert_eq!(facts[&at(3)].control, Some(at(2)));
        assert_eq!(facts[&at(8)].control, None, "a body on the same line");
    }

    #[test]
    fn what_is_lent_mutably_or_written_into_is_defined() {
        let text = "use std::fmt::Write;\nfn fill(v: &mut Vec<i32>) {\n    v.push(1);\n}\npub fn f(n: i32) -> String {\n    let mut out = String::new();\n    let mut v = Vec::new();\n    fill(&mut v);\n    writeln!(out, \"{n}\").unwrap();\n    write!(&mut out, \"{}\", v.len()).unwrap();\n    out\n}\n";
        let facts = facts_of(text);
        assert!(facts[&at(8)].defines.contains("v"));
        assert!(facts[&at(9)].defines.contains("out"));
        assert!(facts[&at(10)].defines.contains("out"));
        // f(1) runs 6, 7, 8 (calling fill: 3), 9, 10, 11.
        let trace = [at(6), at(7), at(8), at(3), at(9), at(10), at(11)];
        assert_eq!(
            lines(&backward_slice(&trace, &facts, || false)),
            [3, 6, 7, 8, 9, 10, 11]
        );
    }

    #[test]
    fn writes_through_a_mutable_borrow_and_in_arm_bodies_count() {
        let text = "pub fn merge(sorted: Vec<(i32, i32)>) -> Vec<(i32, i32)> {\n    let mut merged: Vec<(i32, i32)> = Vec::new();\n    for pair in sorted {\n        match merged.last_mut() {\n            Some(last) if last.1 >= pair.0 => last.1 = pair.1,\n            _ => merged.push(pair),\n        }\n    }\n    merged\n}\n";
        let facts = facts_of(text);
        assert!(
            facts[&at(5)].defines.contains("merged"),
            "{:?}",
            facts[&at(5)]
        );
        assert!(facts[&at(6)].defines.contains("merged"));
        assert!(
            !facts[&at(4)].defines.contains("merged"),
            "the borrow itself"
        );
        // merge([(0, 2), (1, 3)]) runs 2, 3, 4, 6, 3, 4, 5, 9.
        let trace = [at(2), at(3), at(4), at(6), at(3), at(4), at(5), at(9)];
        let run = Run::new(&trace, &facts);
        assert!(run.dependencies_of(&at(9)).contains(&Dependency::Data {
            variable: "merged".into(),
            from: at(5)
        }));
        assert_eq!(lines(&run.slice(|| false)), [2, 3, 4, 5, 6, 9]);
    }

    #[test]
    fn a_stage_of_an_iterator_chain_reads_the_stage_before() {
        let text = "pub fn words(text: &str, skip: usize) -> Vec<String> {\n    let n = skip * 2;\n    text.split(' ')\n        .map(|w| w.trim())\n        .filter(|w| !w.is_empty())\n        .map(|w| w.to_string())\n        .collect()\n}\n";
        let facts = facts_of(text);
        assert!(facts[&at(4)].defines.contains("w"));
        // One word: 2, 3, then the stages 4, 5, 6.
        let trace = [at(2), at(3), at(4), at(5), at(6)];
        let run = Run::new(&trace, &facts);
        assert_eq!(
            run.dependencies_of(&at(6))[0],
            Dependency::Data {
                variable: "w".into(),
                from: at(5)
            }
        );
        assert_eq!(lines(&run.slice(|| false)), [3, 4, 5, 6], "`n` is left out");
    }

    #[test]
    fn values_flow_through_calls_and_returns() {
        let text = "fn helper(a: i32) -> i32 {\n    let b = a + 1;\n    b\n}\npub fn f(x: i32) -> i32 {\n    let unused = x * 3;\n    let y = helper(x);\n    y * 2\n}\n";
        let facts = facts_of(text);
        assert_ne!(facts[&at(2)].function, facts[&at(6)].function);
        // f(1) runs 6, 7 (which calls helper: 2, 3), then 8.
        let trace = [at(6), at(7), at(2), at(3), at(8)];
        let run = Run::new(&trace, &facts);
        assert_eq!(
            lines(&run.slice(|| false)),
            [2, 3, 7, 8],
            "`unused` is left out"
        );
        assert_eq!(
            run.dependencies_of(&at(7)),
            [Dependency::Return { from: at(3) }]
        );
        assert_eq!(
            run.dependencies_of(&at(2)),
            [Dependency::Argument { from: at(7) }]
        );
    }

    #[test]
    fn what_a_call_writes_through_a_mutable_reference_reaches_the_caller_and_the_test() {
        let text = "pub fn fill(out: &mut [u8], v: u8) -> bool {\n    let mut n = 0;\n    for b in out.iter_mut() {\n        *b = v;\n    }\n    n += 1;\n    n > 0\n}\npub fn two(v: u8) -> [u8; 2] {\n    let mut out = [0; 2];\n    let full = fill(&mut out, v);\n    out\n}\npub fn ok(v: u8) -> bool {\n    let mut out = [0; 2];\n    let full = fill(&mut out, v);\n    full\n}\n";
        let facts = facts_of(text);
        assert_eq!(facts[&at(4)].writes_back, BTreeSet::from(["out".into()]));
        assert!(facts[&at(2)].writes_back.is_empty(), "`n` is a local");
        // A test calls fill(&mut buf, 7): if it checks `buf`, the write is
        // in the slice, though the value returned does not depend on it.
        let fill = [at(2), at(3), at(4), at(3), at(6), at(7)];
        let run = Run::new(&fill, &facts);
        assert_eq!(lines(&run.slice(|| true)), [2, 3, 4, 6, 7]);
        assert_eq!(lines(&run.slice(|| false)), [2, 6, 7]);
        // A call from line `call` of a function whose first line is
        // `call - 1` and whose last is `call + 1`.
        let from = |call: u32| [&[at(call - 1), at(call)], &fill[..], &[at(call + 1)]].concat();
        // two(7): the array it returns was written by fill.
        let trace = from(11);
        let run = Run::new(&trace, &facts);
        let written = Dependency::WrittenBack {
            variable: "out".into(),
            from: at(4),
        };
        assert!(run.dependencies_of(&at(12)).contains(&written));
        assert_eq!(lines(&run.slice(|| false)), [2, 3, 4, 6, 7, 10, 11, 12]);
        // ok(7) returns what fill returned, not the array it wrote; `ok`
        // writes nothing back, so the test is not asked whether it checks.
        let trace = from(16);
        let run = Run::new(&trace, &facts);
        let asked = || unreachable!("asked about a run that wrote nothing back");
        assert_eq!(lines(&run.slice(asked)), [2, 6, 7, 15, 16, 17]);
    }

    #[test]
    fn calls_one_after_another_from_a_test_do_not_mix() {
        // A test calls g, then h: h's parameter does not come from g, and
        // a local of the same name in g is no dependency of h.
        let text = "pub fn g() -> i32 {\n    let v = 1;\n    v\n}\npub fn h(a: i32) -> i32 {\n    let w = a;\n    let v = w;\n    v\n}\n";
        let facts = facts_of(text);
        assert!(facts[&at(2)].entry && facts[&at(6)].entry && !facts[&at(7)].entry);
        assert!(!facts[&at(3)].may_call);
        let trace = [at(2), at(3), at(6), at(7), at(8)];
        let run = Run::new(&trace, &facts);
        assert_eq!(lines(&run.slice(|| false)), [6, 7, 8]);
        assert_eq!(run.dependencies_of(&at(6)), [], "`a` came from the test");
    }

    #[test]
    fn recursion_and_pattern_bindings() {
        let text = "pub fn sum(xs: &[i32]) -> i32 {\n    if let Some((first, rest)) = xs.split_first() {\n        first + sum(rest)\n    } else {\n        0\n    }\n}\n";
        let facts = facts_of(text);
        assert!(
            facts[&at(2)].defines.contains("first"),
            "{:?}",
            facts[&at(2)]
        );
        assert!(
            facts[&at(2)].parameters.contains("xs"),
            "{:?}",
            facts[&at(2)]
        );
        assert_eq!(facts[&at(3)].parameters, BTreeSet::new());
        // sum(&[1]) runs 2, 3, which calls sum(&[]): 2 again (a new call,
        // though sum is active), 5.
        let trace = [at(2), at(3), at(2), at(5)];
        let run = Run::new(&trace, &facts);
        assert_eq!(
            run.dependencies_of(&at(5)),
            [Dependency::Control {
                kind: "if",
                from: at(2)
            }]
        );
        // The inner call's `if let` reads `xs`, which came from line 3.
        assert_eq!(
            run.dependencies_of(&at(2)),
            [Dependency::Argument { from: at(3) }]
        );
        assert_eq!(lines(&run.slice(|| false)), [2, 3, 5]);
    }

    #[test]
    fn a_value_chosen_by_branches_comes_from_the_branch_that_ran() {
        let text = "pub fn f(p: u8, right: bool) -> u8 {\n    let next = if right {\n        p\n    } else {\n        p + 1\n    };\n    let m = match next {\n        0 => 1,\n        n => {\n            n * 2\n        }\n    };\n    m\n}\n";
        let facts = facts_of(text);
        assert!(facts[&at(5)].defines.contains("next"));
        assert!(facts[&at(3)].defines.contains("next"));
        assert!(facts[&at(10)].defines.contains("m"));
        assert!(facts[&at(8)].defines.contains("m"));
        // f(1, false) runs 2, 5, 7, 10, 13: the else branch's value reaches
        // the result, through the match arm that ran.
        let trace = [at(2), at(5), at(7), at(10), at(13)];
        let run = Run::new(&trace, &facts);
        assert_eq!(lines(&run.slice(|| false)), [2, 5, 7, 10, 13]);
        assert!(run.dependencies_of(&at(7)).contains(&Dependency::Data {
            variable: "next".into(),
            from: at(5)
        }));
    }

    #[test]
    fn what_follows_an_early_return_depends_on_its_condition() {
        let text = "fn ok(v: i32) -> bool {\n    v > 0\n}\npub fn all(values: &[i32]) -> bool {\n    for v in values {\n        if !ok(*v) {\n            return false;\n        }\n    }\n    true\n}\n";
        let facts = facts_of(text);
        assert_eq!(facts[&at(10)].control, None);
        assert_eq!(
            facts[&at(10)].exits,
            BTreeSet::from([at(6)]),
            "the `if` around the `return`"
        );
        // all(&[1]) runs 5, 6 (calling ok: 2), then 10.
        let trace = [at(5), at(6), at(2), at(10)];
        assert_eq!(
            lines(&backward_slice(&trace, &facts, || false)),
            [2, 5, 6, 10]
        );
        let text = "fn parse(s: &str) -> Result<u8, ()> {\n    let n = s.parse::<u8>().map_err(|_| ())?;\n    let unrelated = 1;\n    Ok(n + unrelated)\n}\n";
        let facts = facts_of(text);
        assert_eq!(facts[&at(3)].exits, BTreeSet::from([at(2)]), "after a `?`");
        // A `continue` or `break` of a loop inside the statement does not
        // leave the block; a `break` of the enclosing loop does.
        let text = "fn f(xs: &[i32]) -> i32 {\n    let mut n = 0;\n    loop {\n        for x in xs {\n            if *x < 0 {\n                continue;\n            }\n            n += x;\n        }\n        if n > 9 {\n            break;\n        }\n        n += 1;\n    }\n    n\n}\n";
        let facts = facts_of(text);
        assert_eq!(facts[&at(8)].exits, BTreeSet::from([at(5)]));
        assert_eq!(facts[&at(10)].exits, BTreeSet::new(), "after the `for`");
        assert_eq!(facts[&at(13)].exits, BTreeSet::from([at(10)]));
        assert_eq!(facts[&at(15)].exits, BTreeSet::new(), "after the `loop`");
    }
}
