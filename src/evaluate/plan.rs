//! Which tests a candidate runs, in which order, within which time.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::time::Duration;

use anyhow::Result;

use crate::cargo::suite::{Panic, RunSettings, TestId, TestSuite, Verdict};
use crate::code::source::Location;
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
/// group in one process per test executable; if the cutoff says the
/// candidate cannot survive after the first group, the second is skipped.
#[derive(Debug, Clone)]
pub struct TestPlan {
    /// The originally failing tests (not flaky).
    pub first: Vec<TestId>,
    /// The originally passing tests (not flaky).
    pub rest: Vec<TestId>,
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
    pub first: Vec<TestId>,
    pub rest: Vec<TestId>,
    pub kept: Vec<(TestId, Verdict)>,
}

impl TestPlan {
    /// Timeouts derive from the baseline durations of each test (run
    /// alone): a test may take ten times the slowest passing test (at least
    /// 1 s, at most `cap`); a group run together, that plus twice their
    /// sequential time spread over `jobs` threads. Tests that timed out in
    /// the baseline add nothing: their baseline says nothing about how long
    /// they take when they work.
    pub fn new(
        first: Vec<TestId>,
        rest: Vec<TestId>,
        durations: Vec<Option<Duration>>,
        coverage: Vec<BTreeSet<Location>>,
        jobs: usize,
        cap: Duration,
    ) -> TestPlan {
        let slowest_passing = rest
            .iter()
            .filter_map(|&t| durations[t.index()])
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
    pub fn group_timeout(&self, tests: &[TestId]) -> Duration {
        let single = self.single.timeout;
        let sequential: Duration = tests
            .iter()
            .filter_map(|&t| self.durations[t.index()])
            .map(|d| d.min(single))
            .sum();
        single + sequential * 2 / self.single.jobs.max(1) as u32
    }

    /// The tests a candidate editing `edited` runs (all of them for `None`).
    pub fn select(&self, edited: Option<&BTreeSet<Location>>) -> Selection {
        let affected = |test: &TestId| {
            edited.is_none_or(|edited| {
                self.coverage[test.index()]
                    .iter()
                    .any(|line| edited.contains(line))
            })
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
    ) -> Result<Vec<(TestId, Verdict)>> {
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
            2,
            Duration::from_secs(60),
        )
    }

    #[test]
    fn timeouts_follow_the_baseline() {
        let plan = plan();
        assert_eq!(plan.single.timeout, Duration::from_secs(3));
        // Test 2 timed out in the baseline: it adds nothing.
        assert_eq!(plan.group_timeout(&ids([2])), Duration::from_secs(3));
        assert_eq!(
            plan.group_timeout(&ids([0, 1])),
            Duration::from_secs(3) + Duration::from_millis(310)
        );
        let capped = TestPlan::new(
            ids([]),
            ids([1]),
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
