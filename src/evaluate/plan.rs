//! Which tests a candidate runs, in which order, within which time.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::time::Duration;

use anyhow::Result;

use crate::cargo::suite::{GroupRun, Panic, TestId, TestSuite, Verdict};
use crate::code::source::{Location, reaches};
use crate::evaluate::fitness::FitnessModel;

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
/// group one test after another in one process per test executable; if the
/// cutoff says the candidate cannot survive after the first group, the
/// second is skipped.
///
/// Each test may take ten times its baseline duration, at least
/// [`FLOOR`] (a mutant that hangs costs that, not seconds). A test that
/// timed out in the baseline, and any test that times out in a candidate
/// that would otherwise pass every test it ran, gets the generous limit
/// (one test at a time, until one times out again):
/// ten times the slowest passing test, at least a second (so that a busy
/// machine cannot cost a fix).
#[derive(Debug, Clone)]
pub struct TestPlan {
    /// The originally failing tests (not flaky).
    pub first: Vec<TestId>,
    /// The originally passing tests (not flaky).
    pub rest: Vec<TestId>,
    /// The generous limit of one test.
    pub generous: Duration,
    /// Per test: its baseline duration (`None` if it timed out).
    durations: Vec<Option<Duration>>,
    /// Per test: the lines it executed in the baseline.
    coverage: Vec<BTreeSet<Location>>,
    cutoff: Option<Cutoff>,
}

/// The least time a test is given.
pub const FLOOR: Duration = Duration::from_millis(100);

/// How a candidate's tests ran: each test's verdict (or its baseline
/// verdict), and the time lost to processes that ran out of time.
#[derive(Debug, Clone, Default)]
pub struct PlanRun {
    pub verdicts: Vec<(TestId, Verdict)>,
    pub timed_out: Duration,
}

impl PlanRun {
    fn add(&mut self, group: GroupRun) {
        self.verdicts.extend(group.verdicts);
        self.timed_out += group.timed_out;
    }
}

/// The tests one candidate runs, and the verdicts it keeps from the baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub first: Vec<TestId>,
    pub rest: Vec<TestId>,
    pub kept: Vec<(TestId, Verdict)>,
}

impl TestPlan {
    /// A plan from the baseline's durations of each test (run alone;
    /// `None` if it timed out) and the lines each executed. No test may run
    /// longer than `cap`.
    pub fn new(
        first: Vec<TestId>,
        rest: Vec<TestId>,
        durations: Vec<Option<Duration>>,
        coverage: Vec<BTreeSet<Location>>,
        cap: Duration,
    ) -> TestPlan {
        let slowest_passing = rest
            .iter()
            .filter_map(|&t| durations[t.index()])
            .max()
            .unwrap_or(Duration::ZERO);
        let generous = (slowest_passing * 10).max(Duration::from_secs(1)).min(cap);
        TestPlan {
            first,
            rest,
            generous,
            durations,
            coverage,
            cutoff: None,
        }
    }

    pub fn set_cutoff(&mut self, cutoff: Option<Cutoff>) {
        self.cutoff = cutoff;
    }

    /// How long `test` may run: ten times its baseline duration, at least
    /// [`FLOOR`], at most the generous limit (which a test that timed out
    /// in the baseline gets).
    pub fn budget(&self, test: TestId) -> Duration {
        match self.durations[test.index()] {
            Some(duration) => (duration * 10).max(FLOOR).min(self.generous),
            None => self.generous,
        }
    }

    /// The tests a candidate editing `edited` runs (all of them for `None`).
    pub fn select(&self, edited: Option<&BTreeSet<Location>>) -> Selection {
        let affected = |test: &TestId| {
            edited.is_none_or(|edited| reaches(&self.coverage[test.index()], edited))
        };
        let (first, kept_failing): (Vec<TestId>, Vec<TestId>) =
            self.first.iter().partition(|t| affected(t));
        let (rest, kept_passing): (Vec<TestId>, Vec<TestId>) =
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
    fn below_cutoff(&self, verdicts: &[(TestId, Verdict)], pending: &[TestId]) -> bool {
        let Some(cutoff) = &self.cutoff else {
            return false;
        };
        let mut passed: BTreeSet<TestId> = verdicts
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
    ) -> Result<PlanRun> {
        let selection = self.select(edited);
        let budget = |test: TestId| self.budget(test);
        let mut run = PlanRun {
            verdicts: selection.kept,
            timed_out: Duration::ZERO,
        };
        run.add(suite.run_together(&selection.first, &budget, env)?);
        let mut rest_ran = false;
        if !self.below_cutoff(&run.verdicts, &selection.rest) {
            run.add(suite.run_together(&selection.rest, &budget, env)?);
            rest_ran = true;
        }
        let confirmed = self.confirm_timeouts(suite, env, &mut run)?;
        // A failing test that only timed out by the tight budget may have
        // made the cutoff skip the rest: once confirmed, they run after all.
        if confirmed && !rest_ran && !self.below_cutoff(&run.verdicts, &selection.rest) {
            run.add(suite.run_together(&selection.rest, &budget, env)?);
            self.confirm_timeouts(suite, env, &mut run)?;
        }
        run.verdicts.sort_by_key(|(test, _)| *test);
        Ok(run)
    }

    /// Timeouts in a candidate that passes everything else are confirmed
    /// with the generous limit: a busy machine must not cost a fix. One at
    /// a time, until one times out again: then the candidate cannot pass
    /// everything, and the rest keep their verdict (a mutant that hangs in
    /// every test costs one generous limit, not one per test). Whether every
    /// one passed.
    fn confirm_timeouts(
        &self,
        suite: &TestSuite,
        env: &[(&'static str, OsString)],
        run: &mut PlanRun,
    ) -> Result<bool> {
        let timed_out: Vec<TestId> = run
            .verdicts
            .iter()
            .filter(|(_, v)| *v == Verdict::TimedOut)
            .map(|(t, _)| *t)
            .collect();
        let otherwise_passing = run
            .verdicts
            .iter()
            .all(|(_, v)| matches!(v, Verdict::Passed | Verdict::TimedOut));
        if timed_out.is_empty() || !otherwise_passing {
            return Ok(true);
        }
        run.verdicts.retain(|(_, v)| *v != Verdict::TimedOut);
        let mut unconfirmed = timed_out.into_iter();
        let mut all = true;
        for test in unconfirmed.by_ref() {
            let confirmed = suite.run_together(&[test], &|_| self.generous, env)?;
            all = confirmed.verdicts.iter().all(|(_, v)| v.passed());
            run.add(confirmed);
            if !all {
                break;
            }
        }
        run.verdicts
            .extend(unconfirmed.map(|test| (test, Verdict::TimedOut)));
        Ok(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::FileId;
    use crate::evaluate::fitness::Weights;

    fn at(line: u32) -> Location {
        Location::new(FileId::new(0), line)
    }

    fn t(index: usize) -> TestId {
        TestId::new(index)
    }

    fn ids<const N: usize>(indexes: [usize; N]) -> Vec<TestId> {
        indexes.map(t).to_vec()
    }

    /// Tests 0 and 1 passed, test 2 failed; test 0 covers line 3, test 1
    /// lines 3 and 7, test 2 line 7.
    fn plan() -> TestPlan {
        TestPlan::new(
            ids([2]),
            ids([0, 1]),
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
            Duration::from_secs(60),
        )
    }

    #[test]
    fn budgets_follow_each_tests_baseline() {
        let plan = plan();
        // Ten times the slowest passing test (300 ms), at least a second.
        assert_eq!(plan.generous, Duration::from_secs(3));
        // Test 0 took 10 ms: 100 ms (the floor); test 1 took 300 ms: 3 s.
        assert_eq!(plan.budget(t(0)), FLOOR);
        assert_eq!(plan.budget(t(1)), Duration::from_secs(3));
        // Test 2 timed out in the baseline: it gets the generous limit.
        assert_eq!(plan.budget(t(2)), Duration::from_secs(3));
        let capped = TestPlan::new(
            vec![],
            ids([1]),
            plan.durations.clone(),
            plan.coverage.clone(),
            Duration::from_millis(500),
        );
        assert_eq!(capped.generous, Duration::from_millis(500));
        assert_eq!(capped.budget(t(1)), Duration::from_millis(500));
    }

    #[test]
    fn tests_that_execute_no_edited_line_keep_their_verdict() {
        let plan = plan();
        let selection = plan.select(Some(&BTreeSet::from([at(7)])));
        assert_eq!((selection.first, selection.rest), (ids([2]), ids([1])));
        assert_eq!(selection.kept, [(t(0), Verdict::Passed)]);
        let selection = plan.select(Some(&BTreeSet::from([at(3)])));
        assert_eq!((selection.first, selection.rest), (ids([]), ids([0, 1])));
        assert_eq!(selection.kept, [(t(2), Verdict::Failed(Panic::default()))]);
        let all = plan.select(None);
        assert_eq!(
            (all.first, all.rest, all.kept),
            (ids([2]), ids([0, 1]), vec![])
        );
    }

    #[test]
    fn the_cutoff_stops_candidates_that_cannot_survive() {
        let mut plan = plan();
        let model = FitnessModel {
            weights: Weights::DEFAULT,
            originally_passing: BTreeSet::from([t(0), t(1)]),
            originally_failing: BTreeSet::from([t(2)]),
        };
        let still_failing = [(t(2), Verdict::Failed(Panic::default()))];
        assert!(
            !plan.below_cutoff(&still_failing, &ids([0, 1])),
            "no cutoff set"
        );
        plan.set_cutoff(Some(Cutoff {
            model: model.clone(),
            threshold: 0.995,
        }));
        assert!(
            plan.below_cutoff(&still_failing, &ids([0, 1])),
            "0.99 at best"
        );
        assert!(
            !plan.below_cutoff(&[(t(2), Verdict::Passed)], &ids([0, 1])),
            "1.0 is within reach"
        );
        plan.set_cutoff(Some(Cutoff {
            model,
            threshold: 0.99,
        }));
        assert!(
            !plan.below_cutoff(&still_failing, &ids([0, 1])),
            "a tie may still survive"
        );
    }
}
