//! Evaluating candidates: building each candidate's version of the crate
//! and running the tests it needs.
//!
//! The search sees only the [`Evaluator`] trait: a batch of candidates in,
//! their outcomes out. Two strategies implement it:
//! [`rebuild::RebuildEvaluator`] (one build per candidate, in `-j` scratch
//! copies) and [`schema::SchemaEvaluator`] (the whole batch woven into one
//! build, each candidate selected at run time; what cannot be woven goes to
//! the rebuild path). Both run tests through the same [`plan::TestPlan`],
//! so a candidate's outcome does not depend on the path that evaluated it;
//! [`setup`] builds them for a baseline.

mod apart;
mod copy;
mod data_reads;
mod fitness;
mod functions;
mod in_place;
mod plan;
mod rebuild;
mod schema;
mod setup;
mod types;
mod weave;
pub use copy::BuildCopy;
pub use fitness::{FitnessModel, Weights};
pub use plan::{Cutoff, FLOOR, TestPlan};
pub use setup::{Prepared, Ready, all_flaky, build_evaluator, prepare, test_plan};
pub use types::infer_types;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use crate::baseline::{self, Baseline};
use crate::cargo::CargoFlags;
use crate::cargo::{TestId, Verdict};
use crate::code::Originals;
use crate::code::source::{FileId, Location};
use crate::exit::{Error, Halt, Result};
use crate::mutation::Candidate;
use crate::system::Budget;

/// How candidates are evaluated.
#[derive(Debug, Clone)]
pub struct Settings {
    pub kind: EvaluatorKind,
    pub cargo: CargoFlags,
    /// Candidates (or rebuild workers) at once.
    pub jobs: usize,
    /// The longest a test may run (timeouts derive from the baseline below it).
    pub test_timeout: Duration,
    /// Results kept between runs are read and written (`--no-cache`: not).
    pub cache: bool,
}

impl Settings {
    /// The line coverage of `tests` of `baseline` on its crate with `files`
    /// (path, text) in place of its own (a patched or reduced version's): a
    /// baseline of theirs, built (their targets alone, in the baseline's
    /// copy) and run quietly, with no traces and no events.
    pub fn coverage(
        &self,
        baseline: &Baseline,
        tests: impl IntoIterator<Item = TestId>,
        files: &BTreeMap<PathBuf, String>,
        budget: Budget,
    ) -> Result<Baseline> {
        let only = baseline::Only::of(&baseline.suite, tests);
        let settings = baseline::Settings {
            cargo: self.cargo.clone(),
            jobs: self.jobs,
            test_timeout: self.test_timeout,
            trace_failing: false,
            only: Some(only),
            events: false,
            unprobed: Some(baseline.unprobed.clone()),
            cache: self.cache,
        };
        baseline.remeasure(&settings, files, budget)
    }
}

/// How candidates are built and tested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvaluatorKind {
    /// A whole batch woven into one build (mutant schemata).
    Schema,
    /// One build per candidate.
    Rebuild,
}

impl std::str::FromStr for EvaluatorKind {
    type Err = String;

    fn from_str(name: &str) -> Result<EvaluatorKind, String> {
        match name {
            "schema" => Ok(EvaluatorKind::Schema),
            "rebuild" => Ok(EvaluatorKind::Rebuild),
            other => Err(format!(
                "unknown evaluator `{other}` (expected schema or rebuild)"
            )),
        }
    }
}

/// How a candidate did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CandidateOutcome {
    /// The crate or its tests do not build; the first compiler error.
    Unviable(String),
    /// It built; the verdict of every test (suite index, verdict) that ran
    /// or kept its baseline verdict. Tests skipped by the cutoff are absent.
    Tested(Vec<(TestId, Verdict)>),
}

impl CandidateOutcome {
    pub fn compiled(&self) -> bool {
        matches!(self, CandidateOutcome::Tested(_))
    }

    /// The tests that passed.
    pub fn passed(&self) -> BTreeSet<TestId> {
        match self {
            CandidateOutcome::Unviable(_) => BTreeSet::new(),
            CandidateOutcome::Tested(verdicts) => verdicts
                .iter()
                .filter(|(_, v)| v.passed())
                .map(|(t, _)| *t)
                .collect(),
        }
    }

    pub fn fitness(&self, model: &FitnessModel) -> f64 {
        if self.compiled() {
            model.of_passed(&self.passed())
        } else {
            0.0
        }
    }

    /// Whether it built and passes every test of the model.
    pub fn passes_all(&self, model: &FitnessModel) -> bool {
        self.compiled() && model.all_in(&self.passed())
    }
}

/// Hears an outcome as it is decided: the candidate's index in its batch.
pub type OnDone<'a> = &'a (dyn Fn(usize, &CandidateOutcome) + Sync);

/// Turns candidates into outcomes.
pub trait Evaluator {
    /// The outcome of each candidate of `batch`, in order. `on_done` hears
    /// each new outcome as it is decided (from any thread), with the
    /// candidate's index in `batch`: when a halt (a signal, the end of
    /// `budget`) cuts the batch short, what it heard is what was decided.
    fn evaluate(
        &mut self,
        batch: &[Candidate],
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<CandidateOutcome>>;

    /// How many distinct candidates were built, and how many of them compiled.
    fn counts(&self) -> EvaluationCounts;

    /// From now on, a candidate whose fitness can no longer reach the
    /// cutoff's threshold may stop early (see [`TestPlan`]).
    fn set_cutoff(&mut self, _cutoff: Option<Cutoff>) {}

    /// Whether `candidate` would get a build of its own while the others
    /// of its batch share builds: the costliest kind, which a caller on a
    /// budget may leave for last.
    fn builds_alone(&self, _candidate: &Candidate) -> bool {
        false
    }
}

/// An evaluator as the repair sets it up: it can run the unchanged crate
/// everywhere it builds (to see flaky tests), then take a new test plan.
pub trait PreparedEvaluator: Evaluator {
    /// The unchanged crate's outcome on every build the evaluator uses.
    /// `first`, the candidates the search judges first, may be judged in
    /// the same build (with the cutoff set; kept until the plan changes):
    /// a build less where the evaluator weaves.
    fn baseline_runs(
        &mut self,
        budget: Budget,
        first: &[Candidate],
    ) -> Result<Vec<CandidateOutcome>>;

    /// Replaces the test plan, and forgets every outcome.
    fn set_plan(&mut self, plan: TestPlan);

    /// Where the evaluation time went.
    fn stats(&self) -> EvaluatorStats;
}

/// What an evaluator did: builds, and time spent building and testing
/// (summed over workers, so it can exceed the wall time).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EvaluatorStats {
    pub strategy: &'static str,
    /// Batches with new candidates, and builds (woven and separate).
    pub batches: usize,
    pub builds: usize,
    /// Woven builds alone (the compiler invocations of the woven path).
    pub woven_builds: usize,
    /// Candidates evaluated in a woven build, and separately.
    pub woven: usize,
    pub separate: usize,
    /// Why candidates were evaluated separately, and how many.
    pub separate_reasons: BTreeMap<String, usize>,
    pub build_seconds: f64,
    pub test_seconds: f64,
    /// Time spent in test processes that ran out of time.
    pub timeout_seconds: f64,
    /// The median time one woven candidate's tests took to run.
    pub median_candidate_test_seconds: Option<f64>,
    /// The woven candidates' test runs, their times summed and spread over
    /// the jobs: the least time any evaluator that runs the same tests
    /// could take.
    pub tests_alone_seconds: f64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvaluationCounts {
    pub built: usize,
    pub compiled: usize,
}

impl std::ops::Add for EvaluationCounts {
    type Output = EvaluationCounts;

    fn add(self, other: EvaluationCounts) -> EvaluationCounts {
        EvaluationCounts {
            built: self.built + other.built,
            compiled: self.compiled + other.compiled,
        }
    }
}

/// What [`evaluate_until_halt`] decided: each outcome with its candidate's
/// index in the batch, in order, and the halt that cut the batch short.
pub type Decided = (Vec<(usize, CandidateOutcome)>, Option<Halt>);

/// Evaluates `batch`, keeping what a halt (a signal, the end of `budget`)
/// cuts short: the outcomes decided before it, and the halt. Other errors
/// are errors. `on_done` hears each outcome as it is decided.
pub fn evaluate_until_halt(
    evaluator: &mut dyn Evaluator,
    batch: &[Candidate],
    budget: Budget,
    on_done: OnDone,
) -> Result<Decided> {
    let decided: Mutex<Vec<(usize, CandidateOutcome)>> = Mutex::new(Vec::new());
    let result = evaluator.evaluate(batch, budget, &|index, outcome| {
        on_done(index, outcome);
        if let Ok(mut decided) = decided.lock() {
            decided.push((index, outcome.clone()));
        }
    });
    match result {
        Ok(outcomes) => Ok((outcomes.into_iter().enumerate().collect(), None)),
        Err(error) => {
            let Error::Halt(halt) = error else {
                return Err(error);
            };
            let mut decided = decided.into_inner().unwrap_or_default();
            decided.sort_by_key(|(index, _)| *index);
            Ok((decided, Some(halt)))
        }
    }
}

/// The locations a candidate edits (a test that executes none of them
/// cannot change its outcome).
pub fn edited_locations(candidate: &Candidate) -> BTreeSet<Location> {
    candidate.edits().iter().map(|e| e.location()).collect()
}

/// A candidate's changed files: the cache key (no text is built twice).
pub type Texts = BTreeMap<FileId, String>;

/// Each candidate's changed files, and the indexes of the distinct ones that
/// are not in `cache` yet.
pub fn new_texts<V>(
    batch: &[Candidate],
    originals: &Originals,
    cache: &HashMap<Texts, V>,
) -> (Vec<Texts>, Vec<usize>) {
    let all: Vec<Texts> = batch.iter().map(|c| c.texts(originals)).collect();
    let mut fresh: Vec<usize> = Vec::new();
    // A set, not a scan of the fresh ones: a generation of thousands of
    // candidates compared each with every other took seconds.
    let mut seen: HashSet<&Texts> = HashSet::new();
    for (index, text) in all.iter().enumerate() {
        if !cache.contains_key(text) && seen.insert(text) {
            fresh.push(index);
        }
    }
    (all, fresh)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cargo::TestId;

    #[test]
    fn outcomes_know_what_passed() {
        let t = TestId::new;
        let outcome = CandidateOutcome::Tested(vec![
            (t(0), Verdict::Passed),
            (t(1), Verdict::TimedOut),
            (t(2), Verdict::Passed),
        ]);
        assert_eq!(outcome.passed(), BTreeSet::from([t(0), t(2)]));
        assert!(CandidateOutcome::Unviable("e".into()).passed().is_empty());
    }
}
