//! Which tests a candidate runs, in which order, within which time.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::time::Duration;

use crate::cargo::{GroupRun, Panic, Stop, TestId, TestSuite, Verdict};
use crate::code::source::{Location, reaches};
use crate::evaluate::fitness::FitnessModel;
use crate::exit::Result;
use crate::system::Budget;

/// When a candidate may stop early: once even passing every test it has
/// not run yet would leave its fitness below `threshold` (the fitness of the
/// weakest candidate that survives selection), its exact fitness no longer
/// matters. Safe for selection: such a candidate never survives.
#[derive(Debug, Clone, PartialEq)]
pub struct Cutoff {
    pub model: FitnessModel,
    pub threshold: f64,
    /// Whether a candidate that breaks an originally passing test is of no
    /// use either (its tests stop at the first that fails).
    pub clean_only: bool,
}

impl Cutoff {
    /// The sweep's: an edit that fixes no failing test is of no use
    /// there, so its passing tests need not run; nor is one that breaks a
    /// passing test (neither plausible nor a partial fix), so they stop at
    /// the first that fails.
    pub fn sweep(model: &FitnessModel) -> Cutoff {
        Cutoff {
            model: model.clone(),
            threshold: model.of_passed(&model.originally_passing) + 1e-9,
            clean_only: true,
        }
    }
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
/// timed out in the baseline, and the one test that timed out in a
/// candidate that would otherwise pass every test it ran, get the generous
/// limit: ten times the slowest passing test, at least a second (so that a
/// busy machine cannot cost a fix). A candidate in which two tests time
/// out hangs: nothing is confirmed, and its remaining originally passing
/// tests do not run (by default, [`Stop::AtSecondTimeout`]); unless the
/// two are originally failing tests and another originally failing test
/// passes (a failing test's baseline duration says little about how long
/// it runs once fixed): then each is confirmed.
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
    /// When the originally passing tests may stop, cutoff aside: by
    /// default at the candidate's second timeout.
    pub stop: Stop,
    /// When the originally failing tests may stop: by default never. A
    /// plan without a cutoff may stop them at the first timeout (an
    /// experiment that only asks what an edit does); the failing tests
    /// it stops run next, with the originally passing ones.
    pub first_stop: Stop,
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
            stop: Stop::AtSecondTimeout,
            first_stop: Stop::Never,
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
    /// the candidate would still fall below the cutoff; with `hopeful`,
    /// tests that timed out count as passing too.
    fn below_cutoff(
        &self,
        verdicts: &[(TestId, Verdict)],
        pending: &[TestId],
        hopeful: bool,
    ) -> bool {
        let Some(cutoff) = &self.cutoff else {
            return false;
        };
        let mut passed: BTreeSet<TestId> = verdicts
            .iter()
            .filter(|(_, v)| v.passed() || (hopeful && *v == Verdict::TimedOut))
            .map(|(t, _)| *t)
            .collect();
        passed.extend(pending);
        cutoff.model.of_passed(&passed) < cutoff.threshold
    }

    /// Runs a candidate's tests in `suite` (a build of it), with `env` for
    /// every test process, until `time` ends.
    pub fn run(
        &self,
        suite: &TestSuite,
        edited: Option<&BTreeSet<Location>>,
        env: &[(&'static str, OsString)],
        time: Budget,
    ) -> Result<PlanRun> {
        self.run_with(self.select(edited), |tests, budget, stop| {
            suite.run_together(tests, budget, stop, env, time)
        })
    }

    /// Runs `selection` with `group`, which runs some tests with a budget
    /// per test and a [`Stop`].
    ///
    /// The originally failing tests run first. The rest run unless the
    /// cutoff says the candidate cannot survive even if every test that
    /// timed out passes after all; they stop at the first failure when the
    /// cutoff says a candidate that breaks one is of no use (or would be
    /// too, as when only a timeout keeps it above the cutoff), else as
    /// [`TestPlan::stop`] says. Then a lone timeout is confirmed.
    fn run_with(
        &self,
        selection: Selection,
        mut group: impl FnMut(&[TestId], &dyn Fn(TestId) -> Duration, Stop) -> Result<GroupRun>,
    ) -> Result<PlanRun> {
        let budget = |test: TestId| self.budget(test);
        let mut run = PlanRun {
            verdicts: selection.kept,
            timed_out: Duration::ZERO,
        };
        run.add(group(&selection.first, &budget, self.first_stop)?);
        let ran = |run: &PlanRun, test: &TestId| run.verdicts.iter().any(|(t, _)| t == test);
        // The failing tests a timeout stopped go on with the rest.
        let mut pending: Vec<TestId> = selection
            .first
            .iter()
            .filter(|t| !ran(&run, t))
            .copied()
            .chain(selection.rest)
            .collect();
        loop {
            if self.below_cutoff(&run.verdicts, &pending, true) {
                break;
            }
            if !pending.is_empty() {
                let clean_only = self.cutoff.as_ref().is_some_and(|c| c.clean_only);
                let timed_out = run.verdicts.iter().any(|(_, v)| *v == Verdict::TimedOut);
                let stop = if clean_only || self.below_cutoff(&run.verdicts, &pending, false) {
                    Stop::AtFailure
                } else if self.stop == Stop::AtSecondTimeout && timed_out {
                    // The second timeout is the candidate's next.
                    Stop::AtTimeout
                } else {
                    self.stop
                };
                run.add(group(&pending, &budget, stop)?);
                pending.retain(|t| !ran(&run, t));
            }
            let Some(test) = self.to_confirm(&run.verdicts) else {
                break;
            };
            run.verdicts.retain(|(t, _)| *t != test);
            let confirmed = group(&[test], &|_| self.generous, Stop::Never)?;
            let passed = confirmed.verdicts.iter().all(|(_, v)| v.passed());
            run.add(confirmed);
            if !passed {
                break;
            }
        }
        run.verdicts.sort_by_key(|(test, _)| *test);
        Ok(run)
    }

    /// The test whose timeout is worth confirming with the generous limit
    /// (a busy machine must not cost a fix), when no test failed: the only
    /// test of a candidate that timed out; or, when some originally failing
    /// test passes, an originally failing test that timed out, so long as
    /// only such tests did. Two tests that time out are otherwise a
    /// candidate that hangs, not a slow machine: they keep their verdict (it
    /// costs two short budgets, not a long one). But an originally failing
    /// test's baseline duration is that of a failure, often cut short at
    /// its first assertion; fixed, it runs to its end, and may take many
    /// times as long.
    fn to_confirm(&self, verdicts: &[(TestId, Verdict)]) -> Option<TestId> {
        if verdicts
            .iter()
            .any(|(_, v)| matches!(v, Verdict::Failed(_)))
        {
            return None;
        }
        let timed_out: Vec<TestId> = verdicts
            .iter()
            .filter(|(_, v)| *v == Verdict::TimedOut)
            .map(|(t, _)| *t)
            .collect();
        let failing = |t: &TestId| self.first.contains(t);
        let some_fixed = verdicts.iter().any(|(t, v)| failing(t) && v.passed());
        match timed_out[..] {
            [test] => Some(test),
            [test, ..] if some_fixed && timed_out.iter().all(failing) => Some(test),
            _ => None,
        }
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
            !plan.below_cutoff(&still_failing, &ids([0, 1]), false),
            "no cutoff set"
        );
        plan.set_cutoff(Some(Cutoff {
            model: model.clone(),
            threshold: 0.995,
            clean_only: false,
        }));
        assert!(
            plan.below_cutoff(&still_failing, &ids([0, 1]), false),
            "0.99 at best"
        );
        assert!(
            !plan.below_cutoff(&[(t(2), Verdict::Passed)], &ids([0, 1]), false),
            "1.0 is within reach"
        );
        plan.set_cutoff(Some(Cutoff {
            model,
            threshold: 0.99,
            clean_only: false,
        }));
        assert!(
            !plan.below_cutoff(&still_failing, &ids([0, 1]), false),
            "a tie may still survive"
        );
    }

    /// Runs `selection` against verdicts by test (a slow test times out
    /// within the tight budget and passes within the generous one),
    /// obeying each group's [`Stop`]; the calls made, as (tests, whether
    /// with the generous limit, stop).
    fn simulate(
        plan: &TestPlan,
        selection: Selection,
        verdicts: &[(usize, Verdict)],
        slow: &[usize],
    ) -> (PlanRun, Vec<(Vec<TestId>, bool, Stop)>) {
        let mut calls = Vec::new();
        let run = plan
            .run_with(selection, |tests, budget, stop| {
                let generous = tests.iter().all(|&t| budget(t) == plan.generous);
                calls.push((tests.to_vec(), generous, stop));
                let mut run = GroupRun::default();
                for &test in tests {
                    let verdict = if slow.contains(&test.index()) && generous {
                        Verdict::Passed
                    } else {
                        verdicts[test.index()].1.clone()
                    };
                    run.verdicts.push((test, verdict));
                    if stop.after(&run.verdicts) {
                        break;
                    }
                }
                Ok(run)
            })
            .unwrap();
        (run, calls)
    }

    /// Tests 0 to 2 passed, test 3 failed, every one in 10 ms.
    fn four_tests() -> TestPlan {
        TestPlan::new(
            ids([3]),
            ids([0, 1, 2]),
            vec![Some(Duration::from_millis(10)); 4],
            vec![BTreeSet::from([at(1)]); 4],
            Duration::from_secs(60),
        )
    }

    #[test]
    fn a_candidate_that_hangs_costs_two_short_budgets() {
        let mut plan = four_tests();
        let model = FitnessModel {
            weights: Weights::DEFAULT,
            originally_passing: BTreeSet::from([t(0), t(1), t(2)]),
            originally_failing: BTreeSet::from([t(3)]),
        };
        plan.set_cutoff(Some(Cutoff {
            threshold: model.of_passed(&model.originally_passing) + 1e-9,
            model,
            clean_only: true,
        }));
        let hangs = [
            (0, Verdict::TimedOut),
            (1, Verdict::TimedOut),
            (2, Verdict::TimedOut),
            (3, Verdict::TimedOut),
        ];
        let (run, calls) = simulate(&plan, plan.select(None), &hangs, &[]);
        // The failing test, then the rest until the first timeout; nothing
        // confirmed with the generous limit.
        assert_eq!(
            calls,
            [
                (ids([3]), false, Stop::Never),
                (ids([0, 1, 2]), false, Stop::AtFailure),
            ]
        );
        assert_eq!(
            run.verdicts,
            [(t(0), Verdict::TimedOut), (t(3), Verdict::TimedOut)]
        );
    }

    #[test]
    fn without_a_cutoff_a_candidate_stops_at_its_second_timeout() {
        let plan = four_tests();
        let hangs = [
            (0, Verdict::TimedOut),
            (1, Verdict::TimedOut),
            (2, Verdict::TimedOut),
            (3, Verdict::Failed(Panic::default())),
        ];
        let (run, calls) = simulate(&plan, plan.select(None), &hangs, &[]);
        assert_eq!(
            calls,
            [
                (ids([3]), false, Stop::Never),
                (ids([0, 1, 2]), false, Stop::AtSecondTimeout),
            ]
        );
        // Test 2 does not run: it would cost a third budget.
        assert_eq!(
            run.verdicts,
            [
                (t(0), Verdict::TimedOut),
                (t(1), Verdict::TimedOut),
                (t(3), Verdict::Failed(Panic::default()))
            ]
        );
        // One timeout among passes is a busy machine, maybe: the rest run,
        // and it is confirmed.
        let slow = [
            (0, Verdict::TimedOut),
            (1, Verdict::Passed),
            (2, Verdict::Passed),
            (3, Verdict::Passed),
        ];
        let (run, calls) = simulate(&plan, plan.select(None), &slow, &[0]);
        assert_eq!(calls.last(), Some(&(ids([0]), true, Stop::Never)));
        assert!(run.verdicts.iter().all(|(_, v)| v.passed()), "{run:?}");
    }

    #[test]
    fn a_lone_timeout_is_confirmed_and_the_tests_it_stopped_run_after_all() {
        let mut plan = four_tests();
        plan.stop = Stop::AtTimeout;
        let fixed = [
            (0, Verdict::Passed),
            (1, Verdict::TimedOut),
            (2, Verdict::Passed),
            (3, Verdict::Passed),
        ];
        // Test 1 is only slow: the generous limit lets it pass.
        let (run, calls) = simulate(&plan, plan.select(None), &fixed, &[1]);
        assert_eq!(
            calls,
            [
                (ids([3]), false, Stop::Never),
                (ids([0, 1, 2]), false, Stop::AtTimeout),
                (ids([1]), true, Stop::Never),
                (ids([2]), false, Stop::AtTimeout),
            ]
        );
        assert!(run.verdicts.iter().all(|(_, v)| v.passed()));
        assert_eq!(run.verdicts.len(), 4);
        // A failure elsewhere: the timeout is not worth confirming.
        let broken = [
            (0, Verdict::Failed(Panic::default())),
            (1, Verdict::TimedOut),
            (2, Verdict::Passed),
            (3, Verdict::Passed),
        ];
        let (_, calls) = simulate(&plan, plan.select(None), &broken, &[1]);
        assert!(calls.iter().all(|(_, generous, _)| !generous));
    }

    /// Tests 0 and 1 passed, 2 to 4 failed at once, every one in 1 ms.
    fn three_failing() -> TestPlan {
        TestPlan::new(
            ids([2, 3, 4]),
            ids([0, 1]),
            vec![Some(Duration::from_millis(1)); 5],
            vec![BTreeSet::from([at(1)]); 5],
            Duration::from_secs(60),
        )
    }

    #[test]
    fn failing_tests_that_time_out_once_fixed_are_confirmed_one_by_one() {
        // Fixed, tests 3 and 4 run to their end, longer than ten times
        // their 1 ms.
        let plan = three_failing();
        let fixed = [
            (0, Verdict::Passed),
            (1, Verdict::Passed),
            (2, Verdict::Passed),
            (3, Verdict::TimedOut),
            (4, Verdict::TimedOut),
        ];
        let (run, calls) = simulate(&plan, plan.select(None), &fixed, &[3, 4]);
        assert_eq!(
            calls,
            [
                (ids([2, 3, 4]), false, Stop::Never),
                // A timeout of a passing test would be the second.
                (ids([0, 1]), false, Stop::AtTimeout),
                (ids([3]), true, Stop::Never),
                (ids([4]), true, Stop::Never),
            ]
        );
        assert!(run.verdicts.iter().all(|(_, v)| v.passed()), "{run:?}");
        // No failing test fixed, or a passing test timed out too: the
        // candidate hangs, and nothing is confirmed.
        use Verdict::{Passed, TimedOut};
        let failed = || Verdict::Failed(Panic::default());
        for hangs in [
            [Passed, Passed, failed(), TimedOut, TimedOut],
            [Passed, Passed, TimedOut, TimedOut, TimedOut],
            [TimedOut, Passed, Passed, TimedOut, Passed],
        ] {
            let hangs: Vec<(usize, Verdict)> = hangs.into_iter().enumerate().collect();
            let (_, calls) = simulate(&plan, plan.select(None), &hangs, &[0, 3, 4]);
            assert!(calls.iter().all(|(_, generous, _)| !generous), "{hangs:?}");
        }
    }

    #[test]
    fn failing_tests_may_stop_at_a_timeout_and_go_on_after_it() {
        let mut plan = three_failing();
        plan.stop = Stop::AtTimeout;
        plan.first_stop = Stop::AtTimeout;
        use Verdict::{Passed, TimedOut};
        // It hangs: two short budgets, no more.
        let hangs = [Passed, Passed, TimedOut, TimedOut, TimedOut];
        let hangs: Vec<(usize, Verdict)> = hangs.into_iter().enumerate().collect();
        let (run, calls) = simulate(&plan, plan.select(None), &hangs, &[]);
        assert_eq!(
            calls,
            [
                (ids([2, 3, 4]), false, Stop::AtTimeout),
                (ids([3, 4, 0, 1]), false, Stop::AtTimeout),
            ]
        );
        assert_eq!(run.verdicts.len(), 2, "{run:?}");
        // Fixed, the first failing test runs past its budget: confirmed,
        // and the failing tests it stopped run all the same.
        let fixed = [Passed, Passed, TimedOut, Passed, Passed];
        let fixed: Vec<(usize, Verdict)> = fixed.into_iter().enumerate().collect();
        let (run, calls) = simulate(&plan, plan.select(None), &fixed, &[2]);
        assert_eq!(
            calls,
            [
                (ids([2, 3, 4]), false, Stop::AtTimeout),
                (ids([3, 4, 0, 1]), false, Stop::AtTimeout),
                (ids([2]), true, Stop::Never),
            ]
        );
        assert_eq!(run.verdicts.len(), 5);
        assert!(run.verdicts.iter().all(|(_, v)| v.passed()), "{run:?}");
    }
}
