//! The part of a change that breaks the tests (`cargo autofix bisect REV`):
//! the tests passed at REV and fail on the working tree. The change of the
//! library's sources since REV is split into changes (runs of changed lines
//! of its hunks, each a separate edit) and general delta debugging in `+-`
//! mode (seed 001, "Failure-Inducing Differences") finds a maximal subset
//! of them with which every test passes and a minimal one with which the
//! failure occurs; their difference is the failure-inducing change.
//!
//! A subset of changes is tested as the working tree with the others
//! undone: a candidate of undo edits, through the repair's evaluator (each
//! one running only the tests that reach what it undoes). One that does
//! not build, times out, or passes the failing tests while breaking others
//! is unresolved.

use std::cell::RefCell;
use std::time::Instant;

use crate::baseline::Baseline;
use crate::cargo::{TestId, Verdict};
use crate::code::Spans;
use crate::code::{FileChange, unified_diff};
use crate::dd::{self, DdError, Mode, Outcome};
use crate::evaluate::CandidateOutcome;
use crate::evaluate::FitnessModel;
use crate::evaluate::prepare;
use crate::exit::{Exit, Failure, Result};
use crate::mutation::{Candidate, PatchEdit};
use crate::repair::given::candidate_of;
use crate::repair::settings::Settings;
use crate::system::Budget;
use crate::system::console::Console;

/// What bisecting found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Bisection {
    /// How many changes the library's sources went through since REV.
    pub changes: usize,
    /// Indexes (in diff order) of the failure-inducing changes, of a
    /// maximal passing and of a minimal failing subset.
    pub failure_inducing: Vec<usize>,
    pub passing: Vec<usize>,
    pub failing: Vec<usize>,
    /// The failure-inducing change: a unified diff from the working tree
    /// with the passing subset of changes to the one with the failing subset.
    pub diff: String,
    /// Subsets tested, and how many of them were unresolved.
    pub tests: usize,
    pub unresolved: usize,
    /// Builds the evaluator made, and the seconds its tests ran (summed
    /// over workers).
    pub builds: usize,
    pub test_seconds: f64,
    pub seconds: f64,
}

/// Bisects the change that `undo` (a diff from the working tree back to
/// REV) undoes, unless `budget` ends first.
pub fn bisect(
    undo: &str,
    baseline: &Baseline,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Bisection> {
    let started = Instant::now();
    let spans = Spans::of(&baseline.sources);
    let undo = candidate_of(undo, baseline, &spans).map_err(|why| {
        Failure::new(
            Exit::BadRevision,
            format!("the change since the revision cannot be split into changes of the library's sources: {why}"),
        )
    })?;
    let changes: Vec<PatchEdit> = undo.edits().to_vec();
    let failing: Vec<TestId> = baseline.failing().map(|r| r.test).collect();
    let (mut evaluator, model, _) = prepare(
        baseline,
        &failing,
        &[],
        settings.weights,
        &settings.evaluation,
        console,
        budget,
    )?
    .ready(&baseline.suite)?;
    // The working tree with the changes of `applied` only: the others undone.
    let state = |applied: &[usize]| {
        Candidate::from_edits(
            (0..changes.len())
                .filter(|i| !applied.contains(i))
                .map(|i| changes[i].clone()),
        )
    };
    let spinner = console.spinner("Bisecting");
    let error = RefCell::new(None);
    let (mut tests, mut unresolved) = (0, 0);
    let reduction = dd::dd(changes.len(), Mode::Both, |applied| {
        if error.borrow().is_some() {
            return Outcome::Unresolved;
        }
        tests += 1;
        spinner.set_message(format!(
            "{} of {} changes applied (subset {tests})",
            applied.len(),
            changes.len()
        ));
        match evaluator.evaluate(&[state(applied)], budget, &|_, _| {}) {
            Ok(outcomes) => {
                let outcome = classify(&outcomes[0], &model);
                unresolved += usize::from(outcome == Outcome::Unresolved);
                outcome
            }
            Err(e) => {
                *error.borrow_mut() = Some(e);
                Outcome::Unresolved
            }
        }
    });
    drop(spinner);
    if let Some(error) = error.into_inner() {
        return Err(error);
    }
    let reduction = reduction.map_err(|e| {
        Failure::new(
            Exit::BadRevision,
            match e {
                DdError::NotPassing => "with the library's sources as at the revision the tests still fail (or do not build): the failure does not come from the change of the library since then",
                DdError::NotFailing => "the failing tests pass when evaluated again: they may be flaky",
            },
        )
    })?;
    let originals = baseline.sources.originals();
    let before = state(&reduction.passing).files(&originals);
    let after = state(&reduction.failing).files(&originals);
    let file_changes: Vec<FileChange> = before
        .iter()
        .filter(|(path, text)| after.get(*path) != Some(*text))
        .map(|(path, original)| FileChange {
            path,
            original,
            patched: &after[path],
        })
        .collect();
    Ok(Bisection {
        changes: changes.len(),
        diff: unified_diff(&file_changes),
        failure_inducing: reduction.difference,
        passing: reduction.passing,
        failing: reduction.failing,
        tests,
        unresolved,
        builds: evaluator.stats().builds,
        test_seconds: evaluator.stats().test_seconds,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// dd's view of a subset: `Fail` when the failure occurs (an originally
/// failing test fails), `Pass` when every test passes.
fn classify(outcome: &CandidateOutcome, model: &FitnessModel) -> Outcome {
    match outcome {
        CandidateOutcome::Unviable(_) => Outcome::Unresolved,
        CandidateOutcome::Tested(verdicts) => {
            if verdicts.iter().any(|(_, v)| *v == Verdict::TimedOut) {
                return Outcome::Unresolved;
            }
            let passed = outcome.passed();
            let still_failing = model.originally_failing.iter().any(|t| !passed.contains(t));
            let broken = model.originally_passing.iter().any(|t| !passed.contains(t));
            match (still_failing, broken) {
                (true, _) => Outcome::Fail,
                (false, false) => Outcome::Pass,
                (false, true) => Outcome::Unresolved,
            }
        }
    }
}
