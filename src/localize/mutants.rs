//! The mutation refinement's experiment: the single edits the repair's
//! sweep would make at the most suspicious lines (typed by the type oracle
//! the same way; at most eight per operator and code replaced: an
//! operand, a statement, a value of a data item), woven into shared
//! builds and run against every test that reaches the edited line, with
//! no cutoff (a passing test an edit breaks is evidence too), line by
//! line in rank order, then at the lines a failing test ran that bind a
//! variable the compiler warns is unused, then further down the rankings
//! until some edit fixes every failing test of a group without breaking a
//! passing one (the strongest evidence there is: a plausible patch), until
//! a time budget ends. Edits that would each need
//! a build of their own come last.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use crate::baseline::Baseline;
use crate::cargo::{Stop, TestId};
use crate::code::source::Location;
use crate::evaluate::infer_types;
use crate::evaluate::{self, EvaluatorKind, PreparedEvaluator, evaluate_until_halt};
use crate::evaluate::{build_evaluator, test_plan};
use crate::exit::{Error, Result};
use crate::localize::evidence::EditEffect;
use crate::mutation::{Candidate, Operator, PatchEdit};
use crate::mutation::{Exclusions, space_of};
use crate::mutation::{Mutator, course, whole};
use crate::system::Budget;
use crate::system::cache;

/// Edits per woven batch, at least (whole lines are added until a batch
/// has this many).
const BATCH: usize = 200;

/// Edits per operator and code replaced (an operand, a statement, a value
/// of a data item), at most: every part of a line is tried, and only long
/// lists of alternatives (ingredients, synthesized conditions) are cut.
const PER_SITE: usize = 8;

/// What the edits at the chosen lines did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Mutants {
    /// Per line, the effect of each of its edits that compiled.
    #[serde(with = "cache::pairs")]
    pub effects: BTreeMap<Location, Vec<EditEffect>>,
    /// Lines tried: every edit of each chosen one, in order; further down
    /// (counted past `chosen`), some of its edits at least.
    pub lines: usize,
    pub chosen: usize,
    /// Edits evaluated, and how many of them compiled.
    pub edits: usize,
    pub compiled: usize,
    /// Edits that would each need a build of their own, tried last: how
    /// many the budget left untried.
    pub alone_untried: usize,
    pub seconds: f64,
    /// Read from the cache of an earlier run, not evaluated now.
    #[serde(skip)]
    pub cached: bool,
}

impl Mutants {
    /// Whether every chosen line was tried before the budget ran out.
    pub fn complete(&self) -> bool {
        self.lines >= self.chosen
    }

    /// Whether an edit fixes every test of one of `groups` and breaks no
    /// passing test.
    fn fixes_a_group(&self, groups: &[BTreeSet<TestId>]) -> bool {
        self.effects.values().flatten().any(|effect| {
            effect.broke == 0 && groups.iter().any(|group| group.is_subset(&effect.fixed))
        })
    }
}

/// Evaluates every edit at `locations`, in the order given, then at
/// `further` (in the sweep's course: each line's new statements later)
/// until an edit fixes every failing test of one of `groups`
/// without breaking a passing one, until `limit` has passed or `run` (the
/// run's budget) ends (the batch running then is cut short, keeping what
/// it decided); `on_batch` hears the lines tried and edits evaluated so
/// far.
#[allow(clippy::too_many_arguments)]
pub fn run_mutants(
    baseline: &Baseline,
    locations: &[Location],
    further: &[Location],
    groups: &[BTreeSet<TestId>],
    exclude: &Exclusions,
    evaluation: &evaluate::Settings,
    limit: Duration,
    run: Budget,
    on_batch: &dyn Fn(usize, usize),
) -> Result<Mutants> {
    let started = Instant::now();
    let deadline = started + limit;
    // The step's own budget: its end is no halt of the run.
    let step = run.sooner(Some(deadline));
    let mut mutants = Mutants {
        chosen: locations.len(),
        ..Mutants::default()
    };
    let originals = baseline.sources.originals();
    let space = space_of(baseline, exclude);
    let mut chosen: BTreeSet<Location> = locations.iter().chain(further).copied().collect();
    let types = match infer_types(baseline, &space, &chosen, evaluation, step) {
        Ok(types) => types,
        Err(error) => return stopped(error, run, mutants, started),
    };
    // Then the lines a failing test ran that bind a variable the compiler
    // warns is unused: a statement that should use it may be missing there.
    let mut locations = locations.to_vec();
    for unused in types.unused() {
        let ran = baseline.failing().any(|r| r.lines.contains(&unused.at));
        if ran && !locations.contains(&unused.at) {
            chosen.insert(unused.at);
            locations.push(unused.at);
        }
    }
    mutants.chosen = locations.len();
    for location in further {
        if !locations.contains(location) {
            locations.push(*location);
        }
    }
    let mutator = Mutator::new(&space, &originals, &types, &Operator::all(), |location| {
        f64::from(u8::from(chosen.contains(&location)))
    });
    let failing: Vec<TestId> = baseline.failing().map(|r| r.test).collect();
    let passing: Vec<TestId> = baseline.passing().map(|r| r.test).collect();
    let schema = evaluate::Settings {
        kind: EvaluatorKind::Schema,
        ..evaluation.clone()
    };
    // An edit that hangs has shown what it does at its first timeout: the
    // rest of its tests would each cost one, the failing ones too.
    let mut plan = test_plan(baseline, &failing, &passing, evaluation);
    plan.stop = Stop::AtTimeout;
    plan.first_stop = Stop::AtTimeout;
    let mut evaluator = build_evaluator(baseline, plan, &schema, run)?;
    let tests: (BTreeSet<TestId>, BTreeSet<TestId>) =
        (failing.into_iter().collect(), passing.into_iter().collect());
    // The chosen lines' edits all count as evidence; further down, an edit
    // that fixes a group is sought, as the sweep seeks one.
    let (chosen_lines, further_lines) = locations.split_at(mutants.chosen);
    let mut legs = whole(chosen_lines);
    legs.extend(course(further_lines));
    // An edit the evaluator would build on its own costs a build where
    // hundreds of others share two: those wait until every line has been
    // tried, so that a few of them cannot spend the budget.
    let mut alone: Vec<PatchEdit> = Vec::new();
    let mut next = 0;
    while next < legs.len() && Instant::now() < deadline {
        if next >= mutants.chosen && mutants.fixes_a_group(groups) {
            break;
        }
        let (shared, costly): (Vec<PatchEdit>, Vec<PatchEdit>) = mutator
            .batch_at(&legs, &mut next, BATCH, PER_SITE)
            .into_iter()
            .partition(|edit| !evaluator.builds_alone(&Candidate::original().with(edit.clone())));
        alone.extend(costly);
        if try_edits(&mut *evaluator, &shared, (run, step), &tests, &mut mutants)? {
            mutants.alone_untried = alone.len();
            return Ok(finished(mutants, started));
        }
        mutants.lines = legs[..next]
            .iter()
            .map(|leg| leg.location)
            .collect::<BTreeSet<_>>()
            .len();
        on_batch(mutants.lines, mutants.edits);
    }
    let before = mutants.edits;
    for edits in alone.chunks(BATCH) {
        if Instant::now() >= deadline
            || try_edits(&mut *evaluator, edits, (run, step), &tests, &mut mutants)?
        {
            break;
        }
        on_batch(mutants.lines, mutants.edits);
    }
    mutants.alone_untried = alone.len() - (mutants.edits - before);
    Ok(finished(mutants, started))
}

/// Evaluates `edits` (each alone on the original) until the `step`'s
/// budget ends, adding what each one that compiled did to `mutants`;
/// whether that end cut them short (the end of the `run`'s is a halt).
fn try_edits(
    evaluator: &mut dyn PreparedEvaluator,
    edits: &[PatchEdit],
    (run, step): (Budget, Budget),
    (failing, passing): &(BTreeSet<TestId>, BTreeSet<TestId>),
    mutants: &mut Mutants,
) -> Result<bool> {
    if edits.is_empty() {
        return Ok(false);
    }
    let candidates: Vec<Candidate> = edits
        .iter()
        .map(|edit| Candidate::original().with(edit.clone()))
        .collect();
    let (outcomes, halt) = evaluate_until_halt(&mut *evaluator, &candidates, step, &|_, _| {})?;
    let cut_short = halt.is_some();
    if let Some(halt) = halt
        && !run.outlasts(halt)
    {
        return Err(halt.into());
    }
    for (index, outcome) in outcomes {
        mutants.edits += 1;
        if let Some(effect) = EditEffect::of(&outcome, failing, passing) {
            mutants.compiled += 1;
            let location = edits[index].location();
            mutants.effects.entry(location).or_default().push(effect);
        }
    }
    Ok(cut_short)
}

/// `mutants`, with the time since `started`.
fn finished(mut mutants: Mutants, started: Instant) -> Mutants {
    mutants.seconds = started.elapsed().as_secs_f64();
    mutants
}

/// What was found when the budget ran out before the first batch (the end
/// of the `run`'s budget is a halt).
fn stopped(error: Error, run: Budget, mutants: Mutants, started: Instant) -> Result<Mutants> {
    if error.halt().is_none_or(|halt| !run.outlasts(halt)) {
        return Err(error);
    }
    Ok(finished(mutants, started))
}
