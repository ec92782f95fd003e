//! Evaluating candidates: building each candidate's version of the crate
//! and running the tests it needs.
//!
//! The search sees only the [`Evaluator`] trait: a batch of candidates in,
//! their outcomes out. Two strategies implement it:
//! [`rebuild::RebuildEvaluator`] (one build per candidate, in `-j` scratch
//! copies) and [`schema::SchemaEvaluator`] (the whole batch woven into one
//! build, each candidate selected at run time; what cannot be woven goes to
//! the rebuild path). Both run tests through the same [`TestPlan`], so a
//! candidate's outcome does not depend on the path that evaluated it.

pub mod rebuild;
pub mod schema;

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use crate::candidate::Candidate;
use crate::fitness::FitnessModel;
use crate::source::Location;
use crate::suite::{Panic, RunSettings, TestSuite, Verdict};

/// How a candidate did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CandidateOutcome {
    /// The crate or its tests do not build; the first compiler error.
    Unviable(String),
    /// It built; the verdict of every test (suite index, verdict) that ran
    /// or kept its baseline verdict. Tests skipped by the cutoff are absent.
    Tested(Vec<(usize, Verdict)>),
}

impl CandidateOutcome {
    pub fn compiled(&self) -> bool {
        matches!(self, CandidateOutcome::Tested(_))
    }

    /// The tests that passed.
    pub fn passed(&self) -> BTreeSet<usize> {
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

/// Turns candidates into outcomes.
pub trait Evaluator {
    /// The outcome of each candidate of `batch`, in order. `on_done` hears
    /// each new outcome as it arrives (from any thread).
    fn evaluate(
        &mut self,
        batch: &[Candidate],
        on_done: &(dyn Fn(&CandidateOutcome) + Sync),
    ) -> Result<Vec<CandidateOutcome>>;

    /// How many distinct candidates were built, and how many of them compiled.
    fn counts(&self) -> EvaluationCounts;

    /// From now on, a candidate whose fitness can no longer reach the
    /// cutoff's threshold may stop early (see [`TestPlan`]).
    fn set_cutoff(&mut self, _cutoff: Option<Cutoff>) {}
}

/// An evaluator as the repair sets it up: it can run the unchanged crate
/// everywhere it builds (to see flaky tests), then take a new test plan.
pub trait PreparedEvaluator: Evaluator {
    /// The unchanged crate's outcome on every build the evaluator uses.
    fn baseline_runs(&mut self) -> Result<Vec<CandidateOutcome>>;

    /// Replaces the test plan, and forgets every outcome.
    fn set_plan(&mut self, plan: TestPlan);

    /// Where the evaluation time went.
    fn stats(&self) -> EvaluatorStats;
}

/// What an evaluator did: builds, and time spent building and testing
/// (summed over workers, so it can exceed the wall time).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EvaluatorStats {
    pub strategy: &'static str,
    pub builds: usize,
    /// Candidates evaluated in a woven build, and separately.
    pub woven: usize,
    pub separate: usize,
    pub build_seconds: f64,
    pub test_seconds: f64,
    /// The median time one woven candidate's tests took to run.
    pub median_candidate_test_seconds: Option<f64>,
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

/// When a candidate may stop early: once even passing every test it has
/// not run yet would leave its fitness below `threshold` (the fitness of the
/// weakest candidate that survives selection), its exact fitness no longer
/// matters. Safe for selection: such a candidate never survives.
#[derive(Debug, Clone, PartialEq)]
pub struct Cutoff {
    pub model: FitnessModel,
    pub threshold: f64,
}

/// Which tests a candidate runs, in which order, within which time.
///
/// A test that executes none of the candidate's edited locations (by the
/// baseline's coverage) cannot change its outcome: it keeps its baseline
/// verdict without running. The others run originally failing first, each
/// group in one process per test executable; if the cutoff says the
/// candidate cannot survive after the first group, the second is skipped.
#[derive(Debug, Clone)]
pub struct TestPlan {
    /// The originally failing tests (not flaky).
    pub first: Vec<usize>,
    /// The originally passing tests (not flaky).
    pub rest: Vec<usize>,
    /// Per-test timeout when a test runs alone.
    pub single: RunSettings,
    /// Per test: its baseline duration (`None` if it timed out).
    durations: Vec<Option<Duration>>,
    /// Per test: the lines it executed in the baseline.
    coverage: Vec<BTreeSet<Location>>,
    cutoff: Option<Cutoff>,
}

/// The tests one candidate runs, and the verdicts it keeps from the baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub first: Vec<usize>,
    pub rest: Vec<usize>,
    pub kept: Vec<(usize, Verdict)>,
}

impl TestPlan {
    /// Timeouts derive from the baseline durations of each test (run
    /// alone): a test may take ten times the slowest passing test (at least
    /// 1 s, at most `cap`); a group run together, that plus twice their
    /// sequential time spread over `jobs` threads. Tests that timed out in
    /// the baseline add nothing: their baseline says nothing about how long
    /// they take when they work.
    pub fn new(
        first: Vec<usize>,
        rest: Vec<usize>,
        durations: Vec<Option<Duration>>,
        coverage: Vec<BTreeSet<Location>>,
        jobs: usize,
        cap: Duration,
    ) -> TestPlan {
        let slowest_passing = rest
            .iter()
            .filter_map(|&t| durations[t])
            .max()
            .unwrap_or(Duration::ZERO);
        let single = (slowest_passing * 10).max(Duration::from_secs(1)).min(cap);
        TestPlan {
            first,
            rest,
            single: RunSettings {
                jobs,
                timeout: single,
            },
            durations,
            coverage,
            cutoff: None,
        }
    }

    pub fn set_cutoff(&mut self, cutoff: Option<Cutoff>) {
        self.cutoff = cutoff;
    }

    /// The timeout of one process running `tests` together.
    pub fn group_timeout(&self, tests: &[usize]) -> Duration {
        let single = self.single.timeout;
        let sequential: Duration = tests
            .iter()
            .filter_map(|&t| self.durations[t])
            .map(|d| d.min(single))
            .sum();
        single + sequential * 2 / self.single.jobs.max(1) as u32
    }

    /// The tests a candidate editing `edited` runs (all of them for `None`).
    pub fn select(&self, edited: Option<&BTreeSet<Location>>) -> Selection {
        let affected = |test: &usize| {
            edited.is_none_or(|edited| {
                self.coverage[*test]
                    .iter()
                    .any(|line| edited.contains(line))
            })
        };
        let (first, kept_failing): (Vec<usize>, Vec<usize>) =
            self.first.iter().partition(|t| affected(t));
        let (rest, kept_passing): (Vec<usize>, Vec<usize>) =
            self.rest.iter().partition(|t| affected(t));
        let kept = kept_failing
            .into_iter()
            .map(|t| (t, Verdict::Failed(Panic::default())))
            .chain(kept_passing.into_iter().map(|t| (t, Verdict::Passed)))
            .collect();
        Selection { first, rest, kept }
    }

    /// Whether, with `verdicts` known and every test of `pending` passing,
    /// the candidate would still fall below the cutoff.
    fn below_cutoff(&self, verdicts: &[(usize, Verdict)], pending: &[usize]) -> bool {
        let Some(cutoff) = &self.cutoff else {
            return false;
        };
        let mut passed: BTreeSet<usize> = verdicts
            .iter()
            .filter(|(_, v)| v.passed())
            .map(|(t, _)| *t)
            .collect();
        passed.extend(pending);
        cutoff.model.of_passed(&passed) < cutoff.threshold
    }

    /// Runs a candidate's tests in `suite` (a build of it), with `env` for
    /// every test process.
    pub fn run(
        &self,
        suite: &TestSuite,
        edited: Option<&BTreeSet<Location>>,
        env: &[(&'static str, OsString)],
    ) -> Result<Vec<(usize, Verdict)>> {
        let selection = self.select(edited);
        let mut verdicts = selection.kept;
        verdicts.extend(suite.run_together(
            &selection.first,
            self.group_timeout(&selection.first),
            &self.single,
            env,
        )?);
        if !self.below_cutoff(&verdicts, &selection.rest) {
            verdicts.extend(suite.run_together(
                &selection.rest,
                self.group_timeout(&selection.rest),
                &self.single,
                env,
            )?);
        }
        verdicts.sort_by_key(|(test, _)| *test);
        Ok(verdicts)
    }
}

/// The files of the crate: path (relative to the workspace root) and
/// original text, by file index.
pub type Originals = Vec<(PathBuf, String)>;

/// The locations a candidate edits (a test that executes none of them
/// cannot change its outcome).
pub fn edited_locations(candidate: &Candidate, originals: &Originals) -> BTreeSet<Location> {
    candidate
        .edits()
        .iter()
        .map(|e| Location {
            file: originals[e.file].0.clone(),
            line: e.location,
        })
        .collect()
}

/// Each candidate's changed files (the cache key: no text is built twice),
/// and the distinct ones that are not in `cache` yet.
pub fn new_texts<V>(
    batch: &[Candidate],
    originals: &Originals,
    cache: &std::collections::HashMap<BTreeMap<usize, String>, V>,
) -> (Vec<BTreeMap<usize, String>>, Vec<usize>) {
    let texts: Vec<&str> = originals.iter().map(|(_, text)| text.as_str()).collect();
    let all: Vec<BTreeMap<usize, String>> = batch.iter().map(|c| c.texts(&texts)).collect();
    let mut fresh: Vec<usize> = Vec::new();
    for (index, text) in all.iter().enumerate() {
        if !cache.contains_key(text) && !fresh.iter().any(|&f| all[f] == *text) {
            fresh.push(index);
        }
    }
    (all, fresh)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn at(line: u32) -> Location {
        Location {
            file: PathBuf::from("src/lib.rs"),
            line,
        }
    }

    /// Tests 0 and 1 passed, test 2 failed; test 0 covers line 3, test 1
    /// lines 3 and 7, test 2 line 7.
    fn plan() -> TestPlan {
        TestPlan::new(
            vec![2],
            vec![0, 1],
            vec![
                Some(Duration::from_millis(10)),
                Some(Duration::from_millis(300)),
                None,
            ],
            vec![
                BTreeSet::from([at(3)]),
                BTreeSet::from([at(3), at(7)]),
                BTreeSet::from([at(7)]),
            ],
            2,
            Duration::from_secs(60),
        )
    }

    #[test]
    fn timeouts_follow_the_baseline() {
        let plan = plan();
        assert_eq!(plan.single.timeout, Duration::from_secs(3));
        // Test 2 timed out in the baseline: it adds nothing.
        assert_eq!(plan.group_timeout(&[2]), Duration::from_secs(3));
        assert_eq!(
            plan.group_timeout(&[0, 1]),
            Duration::from_secs(3) + Duration::from_millis(310)
        );
        let capped = TestPlan::new(
            vec![],
            vec![1],
            plan.durations.clone(),
            plan.coverage.clone(),
            1,
            Duration::from_millis(500),
        );
        assert_eq!(capped.single.timeout, Duration::from_millis(500));
    }

    #[test]
    fn tests_that_execute_no_edited_line_keep_their_verdict() {
        let plan = plan();
        let selection = plan.select(Some(&BTreeSet::from([at(7)])));
        assert_eq!((selection.first, selection.rest), (vec![2], vec![1]));
        assert_eq!(selection.kept, [(0, Verdict::Passed)]);
        let selection = plan.select(Some(&BTreeSet::from([at(3)])));
        assert_eq!((selection.first, selection.rest), (vec![], vec![0, 1]));
        assert_eq!(selection.kept, [(2, Verdict::Failed(Panic::default()))]);
        let all = plan.select(None);
        assert_eq!(
            (all.first, all.rest, all.kept),
            (vec![2], vec![0, 1], vec![])
        );
    }

    #[test]
    fn the_cutoff_stops_candidates_that_cannot_survive() {
        let mut plan = plan();
        let model = FitnessModel {
            weight_passing: 0.99,
            weight_failing: 0.01,
            originally_passing: BTreeSet::from([0, 1]),
            originally_failing: BTreeSet::from([2]),
        };
        let still_failing = [(2, Verdict::Failed(Panic::default()))];
        assert!(!plan.below_cutoff(&still_failing, &[0, 1]), "no cutoff set");
        plan.set_cutoff(Some(Cutoff {
            model: model.clone(),
            threshold: 0.995,
        }));
        assert!(plan.below_cutoff(&still_failing, &[0, 1]), "0.99 at best");
        assert!(
            !plan.below_cutoff(&[(2, Verdict::Passed)], &[0, 1]),
            "1.0 is within reach"
        );
        plan.set_cutoff(Some(Cutoff {
            model,
            threshold: 0.99,
        }));
        assert!(
            !plan.below_cutoff(&still_failing, &[0, 1]),
            "a tie may still survive"
        );
    }

    #[test]
    fn outcomes_know_what_passed() {
        let outcome = CandidateOutcome::Tested(vec![
            (0, Verdict::Passed),
            (1, Verdict::TimedOut),
            (2, Verdict::Passed),
        ]);
        assert_eq!(outcome.passed(), BTreeSet::from([0, 2]));
        assert!(CandidateOutcome::Unviable("e".into()).passed().is_empty());
    }
}
