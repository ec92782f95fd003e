//! The dependencies of one failing run, over its trace: calls and returns
//! inferred from the locations (see the folder's surface), the last write
//! of each variable read, the decisions each execution ran under; and the
//! backward slice they give.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::baseline::TRACE_CAPACITY;
use crate::code::AfterCheck;
use crate::code::source::Location;
use crate::localize::dependence::facts::Facts;

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
    /// Where the run's epilogue begins, when it ended in code a failed
    /// check runs after checking (`Debug::fmt`: a failed `assert_eq!`
    /// prints its operands; `drop`: the unwinding drops them) and what that
    /// called (see `Epilogue`).
    epilogue: Option<Epilogue>,
}

/// One activation of a function in the trace.
struct Frame<'a> {
    function: Option<&'a Location>,
    positions: Vec<usize>,
    /// The position of the statement that called it.
    caller: Option<usize>,
}

/// Where a trace's epilogue begins, the code a failed check runs after
/// checking: from `suffix` on, every position runs in a function that
/// prints (a formatting trait's `fmt`) or drops (`Drop::drop`), or in what
/// one called; `prints` is its first call of a `fmt`. Callers are
/// inferred (a drop early on may seem to call all that follows), and
/// drops run anywhere: the printing is where it surely begins.
#[derive(Debug, Clone, Copy)]
struct Epilogue {
    suffix: usize,
    prints: usize,
}

/// The trace cut into function activations.
struct Activations<'a> {
    frames: Vec<Frame<'a>>,
    /// Per position of a statement that called: the frames it called.
    calls: HashMap<usize, Vec<usize>>,
    /// The frames still active when the trace ends, the innermost last.
    stack: Vec<usize>,
}

impl<'a> Activations<'a> {
    /// Frames: a function's first statement begins a call; any other
    /// location of an active function continues it (returning to it
    /// from the ones above); any other one begins a call too.
    fn of(trace: &'a [Location], facts: &'a BTreeMap<Location, Facts>) -> Activations<'a> {
        let mut cut = Activations {
            frames: Vec::new(),
            calls: HashMap::new(),
            stack: Vec::new(),
        };
        let may_call = |p: usize| facts.get(&trace[p]).is_some_and(|f| f.may_call);
        for (p, location) in trace.iter().enumerate() {
            let own = facts.get(location);
            let function = own.map(|f| &f.function);
            let active = if own.is_some_and(|f| f.entry) {
                None
            } else {
                cut.stack
                    .iter()
                    .rposition(|&f| cut.frames[f].function == function)
            };
            let frame = match active {
                Some(depth) => {
                    cut.stack.truncate(depth + 1);
                    cut.stack[depth]
                }
                None => cut.call(function, &may_call),
            };
            cut.frames[frame].positions.push(p);
        }
        cut
    }

    /// Begins an activation of `function`; returns its frame. The call
    /// comes from the innermost active statement that may call: a frame
    /// whose last statement cannot call has returned.
    fn call(&mut self, function: Option<&'a Location>, may_call: &impl Fn(usize) -> bool) -> usize {
        while let Some(&top) = self.stack.last()
            && !self.frames[top]
                .positions
                .last()
                .is_some_and(|&q| may_call(q))
        {
            self.stack.pop();
        }
        let caller = self
            .stack
            .last()
            .and_then(|&f| self.frames[f].positions.last().copied());
        self.frames.push(Frame {
            function,
            positions: Vec::new(),
            caller,
        });
        let frame = self.frames.len() - 1;
        if let Some(caller) = caller {
            self.calls.entry(caller).or_default().push(frame);
        }
        self.stack.push(frame);
        frame
    }

    /// The trace's epilogue (see `Epilogue`), if it ends in one that
    /// prints and something ran before it.
    fn epilogue(&self, trace: &[Location], facts: &BTreeMap<Location, Facts>) -> Option<Epilogue> {
        let mut frame_of = vec![0; trace.len()];
        for (f, frame) in self.frames.iter().enumerate() {
            for &p in &frame.positions {
                frame_of[p] = f;
            }
        }
        // Frames begin in order: a caller's frame comes before its callee's.
        let own = |frame: &Frame| {
            (frame.positions.first())
                .and_then(|&p| facts.get(&trace[p]))
                .and_then(|facts| facts.after_checks)
        };
        let mut after = vec![false; self.frames.len()];
        for (f, frame) in self.frames.iter().enumerate() {
            let called = frame.caller.is_some_and(|q| after[frame_of[q]]);
            after[f] = own(frame).is_some() || called;
        }
        let suffix = (0..trace.len())
            .rev()
            .take_while(|&p| after[frame_of[p]])
            .last()?;
        let prints = (self.frames.iter())
            .filter(|frame| own(frame) == Some(AfterCheck::Prints))
            .filter_map(|frame| frame.positions.first().copied())
            .filter(|&p| p >= suffix)
            .min()?;
        (prints > 0).then_some(Epilogue { suffix, prints })
    }

    /// What each activation leaves its caller through its `&mut`
    /// parameters: the last write through each.
    fn written_back(
        &self,
        trace: &[Location],
        facts: &'a BTreeMap<Location, Facts>,
    ) -> Vec<BTreeMap<&'a str, usize>> {
        self.frames
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
            .collect()
    }
}

/// Where the trace writes each field of `self`. A field outlives the
/// call: its last write may be in an earlier call or in a callee (another
/// method on the same value, most likely).
struct FieldWrites<'a>(HashMap<&'a str, Vec<usize>>);

impl<'a> FieldWrites<'a> {
    fn of(trace: &[Location], facts: &'a BTreeMap<Location, Facts>) -> FieldWrites<'a> {
        let mut writes: HashMap<&str, Vec<usize>> = HashMap::new();
        for (p, location) in trace.iter().enumerate() {
            for variable in facts.get(location).into_iter().flat_map(|f| &f.defines) {
                if variable.starts_with("self.") {
                    writes.entry(variable).or_default().push(p);
                }
            }
        }
        FieldWrites(writes)
    }

    /// The position of the last write of field `variable` before `p`.
    fn before(&self, variable: &str, p: usize) -> Option<usize> {
        let writes = self.0.get(variable)?;
        let before = writes.partition_point(|&q| q < p);
        before.checked_sub(1).map(|i| writes[i])
    }
}

/// What the dependencies of a run's executions are found from.
struct Dependencies<'r, 'a> {
    trace: &'a [Location],
    facts: &'a BTreeMap<Location, Facts>,
    activations: &'r Activations<'a>,
    /// Per frame, the last write through each `&mut` parameter.
    written_back: &'r [BTreeMap<&'a str, usize>],
    field_writes: FieldWrites<'a>,
}

/// Within one activation, so far: the last write of each variable, the
/// last run of each location, and, per variable, the decisions since its
/// last write whose code writes it (the last run of each).
#[derive(Default)]
struct Seen<'a> {
    last_write: HashMap<&'a str, usize>,
    last_run: HashMap<&'a Location, usize>,
    deciding: HashMap<&'a str, BTreeMap<&'a Location, usize>>,
}

type Found = Vec<(Dependency, usize)>;

impl<'a> Dependencies<'_, 'a> {
    /// Per position of the trace, frame by frame, in order: the last
    /// write of each variable read, the parameters' call, the condition it
    /// ran under, and what the functions it called returned.
    fn of_every_execution(&self) -> Vec<Found> {
        let mut dependencies = vec![Vec::new(); self.trace.len()];
        for frame in &self.activations.frames {
            let mut seen = Seen::default();
            for &p in &frame.positions {
                let location = &self.trace[p];
                if let Some(own) = self.facts.get(location) {
                    let found = &mut dependencies[p];
                    self.reads(own, p, frame, &seen, found);
                    self.controls(own, &seen, found);
                    self.returns(p, found);
                    seen.wrote(own, location, p);
                }
                seen.last_run.insert(location, p);
            }
        }
        dependencies
    }

    /// What execution `p` of `own` depends on through the variables it
    /// reads and, for a parameter no write in the activation gave, the
    /// call.
    fn reads(&self, own: &Facts, p: usize, frame: &Frame, seen: &Seen, found: &mut Found) {
        let mut from_caller = false;
        for variable in &own.uses {
            let write = if variable.starts_with("self.") {
                self.field_writes.before(variable, p)
            } else {
                seen.last_write.get(variable.as_str()).copied()
            };
            self.not_taken(variable, write, own, seen, found);
            self.written_back_into(variable, write, found);
            match write {
                Some(q) => found.push((
                    Dependency::Data {
                        variable: variable.clone(),
                        from: self.trace[q],
                    },
                    q,
                )),
                None => from_caller |= own.parameters.contains(variable),
            }
        }
        if from_caller && let Some(caller) = frame.caller {
            let from = self.trace[caller];
            found.push((Dependency::Argument { from }, caller));
        }
    }

    /// The decisions whose untaken code would have written `variable`:
    /// since the write read (a field's may be in another call), and not
    /// the decision this runs under: it took the branch.
    fn not_taken(
        &self,
        variable: &str,
        write: Option<usize>,
        own: &Facts,
        seen: &Seen,
        found: &mut Found,
    ) {
        let decisions = seen.deciding.get(variable).into_iter().flatten();
        let after_write = |d: usize| write.is_none_or(|w| d > w);
        for (&&from, &d) in decisions.filter(|&(l, &d)| Some(**l) != own.control && after_write(d))
        {
            let variable = variable.to_string();
            found.push((Dependency::Potential { variable, from }, d));
        }
    }

    /// A variable lent to a call: what the callee wrote through its
    /// parameter too.
    fn written_back_into(&self, variable: &str, write: Option<usize>, found: &mut Found) {
        let lent = write.filter(|&q| {
            self.facts
                .get(&self.trace[q])
                .is_some_and(|f| f.lends.contains(variable))
        });
        let calls = &self.activations.calls;
        let callees = lent.and_then(|q| calls.get(&q)).into_iter().flatten();
        for (&parameter, &w) in callees.flat_map(|&c| &self.written_back[c]) {
            let (variable, from) = (parameter.to_string(), self.trace[w]);
            found.push((Dependency::WrittenBack { variable, from }, w));
        }
    }

    /// The decision `own` ran under and the statements before it that
    /// could have left early, at their last runs.
    fn controls(&self, own: &Facts, seen: &Seen, found: &mut Found) {
        for control in own.control.iter().chain(&own.exits) {
            if let Some(&q) = seen.last_run.get(control) {
                // A statement that decides nothing controls by
                // leaving early (`?`).
                let kind = self
                    .facts
                    .get(control)
                    .and_then(|f| f.decides)
                    .unwrap_or("?");
                let from = *control;
                found.push((Dependency::Control { kind, from }, q));
            }
        }
    }

    /// What the functions execution `p` called returned.
    fn returns(&self, p: usize, found: &mut Found) {
        let activations = self.activations;
        for &callee in activations.calls.get(&p).into_iter().flatten() {
            if let Some(&q) = activations.frames[callee].positions.last() {
                let from = self.trace[q];
                found.push((Dependency::Return { from }, q));
            }
        }
    }
}

impl<'a> Seen<'a> {
    /// Notes the variables execution `p` of `location` wrote, and those
    /// the code under it would have written had it decided otherwise.
    fn wrote(&mut self, own: &'a Facts, location: &'a Location, p: usize) {
        for variable in &own.defines {
            self.last_write.insert(variable, p);
            self.deciding.remove(variable.as_str());
        }
        for variable in &own.branch_defines {
            self.deciding
                .entry(variable)
                .or_default()
                .insert(location, p);
        }
    }
}

impl<'a> Run<'a> {
    pub fn new(trace: &'a [Location], facts: &'a BTreeMap<Location, Facts>) -> Run<'a> {
        let activations = Activations::of(trace, facts);
        let written_back = activations.written_back(trace, facts);
        let dependencies = Dependencies {
            trace,
            facts,
            activations: &activations,
            written_back: &written_back,
            field_writes: FieldWrites::of(trace, facts),
        }
        .of_every_execution();
        let last = trace.iter().enumerate().map(|(p, l)| (l, p)).collect();
        let epilogue = activations.epilogue(trace, facts);
        // The run ended in the innermost active frame.
        let written_back = activations
            .stack
            .last()
            .map(|&frame| written_back[frame].values().copied().collect())
            .unwrap_or_default();
        Run {
            trace,
            dependencies,
            last,
            written_back,
            epilogue,
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
    /// `checks_lent` variables: asked only then; and, when the run ended
    /// printing or dropping values, from the last execution before that:
    /// what computed the values a failed `assert_eq!` printed), every
    /// execution it transitively depends on.
    pub fn slice(&self, checks_lent: impl FnOnce() -> bool) -> BTreeSet<Location> {
        let mut taken = vec![false; self.trace.len()];
        let mut work: Vec<usize> = self.trace.len().checked_sub(1).into_iter().collect();
        // Before the epilogue, and before its printing (`prints` > 0).
        if let Some(epilogue) = &self.epilogue {
            work.extend(epilogue.suffix.checked_sub(1));
            work.push(epilogue.prints - 1);
        }
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

    /// The locations of formatting `fmt`s the run executed only in its
    /// epilogue: the crate's `Debug` that printed the values a failed
    /// `assert_eq!` compared. Passing runs never print them: counted as the
    /// failing run's, they would look like the failure's own code. (What
    /// they called is left counted: the epilogue's start is inferred, and
    /// the code it calls may be the crate's computation too.) None for a
    /// trace the ring cut short (`TRACE_CAPACITY`): what it ran first is
    /// lost; and none unless the run ended in a `fmt` or a `drop` itself: a
    /// `fmt` whose last statement calls seems to call whatever runs next
    /// (callers are inferred), so a `to_string()` computed early would seem
    /// to begin an epilogue that runs to a plain computation's end.
    pub fn printed_only(&self, facts: &BTreeMap<Location, Facts>) -> BTreeSet<Location> {
        let after_checks = |at: &Location| facts.get(at).and_then(|f| f.after_checks);
        let ends_own = self.trace.last().and_then(after_checks).is_some();
        let cut = self.trace.len() >= TRACE_CAPACITY;
        let Some(Epilogue { prints, .. }) = self.epilogue.filter(|_| ends_own && !cut) else {
            return BTreeSet::new();
        };
        let before: BTreeSet<&Location> = self.trace[..prints].iter().collect();
        (self.trace[prints..].iter())
            .filter(|at| !before.contains(at) && after_checks(at) == Some(AfterCheck::Prints))
            .copied()
            .collect()
    }
}
