//! Evaluating candidates: write a candidate's files into a scratch copy,
//! rebuild, run the tests (originally failing ones first).
//!
//! The search sees only the [`Evaluator`] trait: a batch of candidates in,
//! their outcomes out. [`RebuildEvaluator`] is the simple strategy: `-j`
//! workers, each with its own long-lived scratch copy and target dir,
//! rebuilding incrementally per candidate. Outcomes are cached by the text
//! of the changed files, so no candidate text is ever built twice.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Result;

use crate::candidate::Candidate;
use crate::cargo::Features;
use crate::cargo::build::{BuildOutcome, BuildRequest, build_tests};
use crate::cargo::discover::Workspace;
use crate::process;
use crate::scratch::ScratchDir;
use crate::suite::{RunSettings, TestSuite, Verdict};

/// How a candidate did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CandidateOutcome {
    /// The crate or its tests do not build; the first compiler error.
    Unviable(String),
    /// It built; the verdict of every test that ran (suite index, verdict).
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
}

/// Turns candidates into outcomes.
pub trait Evaluator {
    /// The outcome of each candidate of `batch`, in order. `on_done` hears
    /// each outcome as it arrives (from any thread).
    fn evaluate(
        &mut self,
        batch: &[Candidate],
        on_done: &(dyn Fn(&CandidateOutcome) + Sync),
    ) -> Result<Vec<CandidateOutcome>>;

    /// How many distinct candidates were built, and how many of them compiled.
    fn counts(&self) -> EvaluationCounts;
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvaluationCounts {
    pub built: usize,
    pub compiled: usize,
}

/// Which tests a candidate runs, in which order, within which time.
#[derive(Debug, Clone)]
pub struct TestPlan {
    /// Run first: the originally failing tests.
    pub first: Vec<usize>,
    /// Then the rest (originally passing, not flaky).
    pub rest: Vec<usize>,
    /// Per-test timeout when a test runs alone.
    pub single: RunSettings,
    /// Timeout of one test process running `first` (resp. `rest`) together.
    pub first_timeout: Duration,
    pub rest_timeout: Duration,
}

impl TestPlan {
    /// Timeouts derived from the baseline durations of each test (run
    /// alone): a test may take ten times the slowest passing test (at least
    /// 1 s, at most `cap`); a group of tests run together, that plus twice
    /// their sequential time spread over `jobs` threads. Tests that timed
    /// out in the baseline (`durations` of `None`) add nothing: their
    /// baseline says nothing about how long they take when they work.
    pub fn new(
        first: Vec<usize>,
        rest: Vec<usize>,
        durations: &[Option<Duration>],
        passing: &[usize],
        jobs: usize,
        cap: Duration,
    ) -> TestPlan {
        let slowest_passing = passing
            .iter()
            .filter_map(|&t| durations[t])
            .max()
            .unwrap_or(Duration::ZERO);
        let single = (slowest_passing * 10).max(Duration::from_secs(1)).min(cap);
        let group = |tests: &[usize]| {
            let sequential: Duration = tests
                .iter()
                .filter_map(|&t| durations[t])
                .map(|d| d.min(single))
                .sum();
            single + sequential * 2 / jobs.max(1) as u32
        };
        TestPlan {
            first_timeout: group(&first),
            rest_timeout: group(&rest),
            first,
            rest,
            single: RunSettings {
                jobs,
                timeout: single,
            },
        }
    }
}

/// Rebuilds each candidate in one of `-j` long-lived scratch copies.
#[derive(Debug)]
pub struct RebuildEvaluator {
    /// Per crate file: its path relative to the workspace root and original text.
    originals: Vec<(PathBuf, String)>,
    workers: Vec<Worker>,
    suite: TestSuite,
    plan: TestPlan,
    package: String,
    features: Features,
    cache: HashMap<BTreeMap<usize, String>, CandidateOutcome>,
    counts: EvaluationCounts,
}

#[derive(Debug)]
struct Worker {
    scratch: ScratchDir,
    manifest_path: PathBuf,
    package_dir: PathBuf,
    /// Files that currently differ from the original, with their text.
    written: BTreeMap<usize, String>,
}

impl RebuildEvaluator {
    pub fn new(
        workspace: &Workspace,
        originals: Vec<(PathBuf, String)>,
        suite: TestSuite,
        plan: TestPlan,
        features: Features,
        jobs: usize,
    ) -> Result<RebuildEvaluator> {
        let workers = (0..jobs.max(1))
            .map(|index| {
                let scratch = ScratchDir::create(workspace, &format!("worker-{index}"))?;
                Ok(Worker {
                    manifest_path: scratch.path_of(&workspace.package.manifest_path),
                    package_dir: scratch.path_of(workspace.package.dir()),
                    scratch,
                    written: BTreeMap::new(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(RebuildEvaluator {
            originals,
            workers,
            suite,
            plan,
            package: workspace.package.name.clone(),
            features,
            cache: HashMap::new(),
            counts: EvaluationCounts::default(),
        })
    }

    pub fn plan(&self) -> &TestPlan {
        &self.plan
    }

    /// Replaces the test plan (after the baseline showed which tests are flaky).
    pub fn set_plan(&mut self, plan: TestPlan) {
        self.plan = plan;
        self.cache.clear();
    }

    /// Runs the unchanged program on every worker (which also compiles each
    /// copy once), so flaky tests show; returns each worker's outcome.
    pub fn baseline_on_every_worker(&mut self) -> Result<Vec<CandidateOutcome>> {
        let jobs: Vec<BTreeMap<usize, String>> = vec![BTreeMap::new(); self.workers.len()];
        self.run_jobs(&jobs, true, &|_| {})
    }

    /// Evaluates `jobs` (changed file texts) on the workers; with
    /// `one_per_worker`, job `i` runs on worker `i`.
    fn run_jobs(
        &mut self,
        jobs: &[BTreeMap<usize, String>],
        one_per_worker: bool,
        on_done: &(dyn Fn(&CandidateOutcome) + Sync),
    ) -> Result<Vec<CandidateOutcome>> {
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<Result<CandidateOutcome>>>> =
            Mutex::new((0..jobs.len()).map(|_| None).collect());
        let context = JobContext {
            originals: &self.originals,
            suite: &self.suite,
            plan: &self.plan,
            package: &self.package,
            features: &self.features,
        };
        std::thread::scope(|scope| {
            for (index, worker) in self.workers.iter_mut().enumerate() {
                let (next, results, context) = (&next, &results, &context);
                scope.spawn(move || {
                    loop {
                        let job = if one_per_worker {
                            index
                        } else {
                            next.fetch_add(1, Ordering::SeqCst)
                        };
                        if job >= jobs.len() || process::interrupted() {
                            break;
                        }
                        let outcome = worker.evaluate(&jobs[job], context);
                        if let Ok(outcome) = &outcome {
                            on_done(outcome);
                        }
                        let failed = outcome.is_err();
                        results.lock().expect("results poisoned")[job] = Some(outcome);
                        if failed || one_per_worker {
                            break;
                        }
                    }
                });
            }
        });
        process::check_interrupted()?;
        results
            .into_inner()
            .expect("results poisoned")
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Err(anyhow::anyhow!("a candidate was not evaluated"))))
            .collect()
    }
}

impl Evaluator for RebuildEvaluator {
    fn evaluate(
        &mut self,
        batch: &[Candidate],
        on_done: &(dyn Fn(&CandidateOutcome) + Sync),
    ) -> Result<Vec<CandidateOutcome>> {
        let originals: Vec<&str> = self
            .originals
            .iter()
            .map(|(_, text)| text.as_str())
            .collect();
        let texts: Vec<BTreeMap<usize, String>> =
            batch.iter().map(|c| c.texts(&originals)).collect();
        let mut new_jobs: Vec<BTreeMap<usize, String>> = Vec::new();
        for text in &texts {
            if !self.cache.contains_key(text) && !new_jobs.contains(text) {
                new_jobs.push(text.clone());
            }
        }
        let outcomes = self.run_jobs(&new_jobs, false, on_done)?;
        for (job, outcome) in new_jobs.into_iter().zip(outcomes) {
            self.counts.built += 1;
            if outcome.compiled() {
                self.counts.compiled += 1;
            }
            self.cache.insert(job, outcome);
        }
        Ok(texts.iter().map(|t| self.cache[t].clone()).collect())
    }

    fn counts(&self) -> EvaluationCounts {
        self.counts
    }
}

/// What every worker reads while evaluating.
struct JobContext<'a> {
    originals: &'a [(PathBuf, String)],
    suite: &'a TestSuite,
    plan: &'a TestPlan,
    package: &'a str,
    features: &'a Features,
}

impl Worker {
    fn evaluate(
        &mut self,
        texts: &BTreeMap<usize, String>,
        context: &JobContext,
    ) -> Result<CandidateOutcome> {
        // Bring the copy to the candidate: restore what the last one changed.
        let restore: Vec<usize> = self
            .written
            .keys()
            .filter(|f| !texts.contains_key(f))
            .copied()
            .collect();
        for file in restore {
            let (path, original) = &context.originals[file];
            self.scratch.write(path, original)?;
            self.written.remove(&file);
        }
        for (&file, text) in texts {
            if self.written.get(&file) != Some(text) {
                self.scratch.write(&context.originals[file].0, text)?;
                self.written.insert(file, text.clone());
            }
        }
        let request = BuildRequest {
            manifest_path: &self.manifest_path,
            package: context.package,
            features: context.features,
            target_dir: &self.scratch.target_dir,
        };
        let executables = match build_tests(&request, |_| {})? {
            BuildOutcome::Built(executables) => executables,
            BuildOutcome::Failed { errors, summary } => {
                let first = errors.first().map_or(summary, ToString::to_string);
                return Ok(CandidateOutcome::Unviable(first));
            }
        };
        let suite = context.suite.with_build(&executables, &self.package_dir)?;
        let plan = context.plan;
        let mut verdicts = suite.run_together(&plan.first, plan.first_timeout, &plan.single)?;
        verdicts.extend(suite.run_together(&plan.rest, plan.rest_timeout, &plan.single)?);
        Ok(CandidateOutcome::Tested(verdicts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_timeouts_follow_the_baseline() {
        let durations = [
            Some(Duration::from_millis(10)),
            Some(Duration::from_millis(300)),
            None,
        ];
        // Test 2 timed out in the baseline; test 1 is the slowest passing one.
        let plan = TestPlan::new(
            vec![2],
            vec![0, 1],
            &durations,
            &[0, 1],
            2,
            Duration::from_secs(60),
        );
        assert_eq!(plan.single.timeout, Duration::from_secs(3));
        assert_eq!(plan.first_timeout, Duration::from_secs(3));
        assert_eq!(
            plan.rest_timeout,
            Duration::from_secs(3) + Duration::from_millis(310)
        );
        let quick = TestPlan::new(
            vec![],
            vec![0],
            &durations,
            &[0],
            1,
            Duration::from_secs(60),
        );
        assert_eq!(quick.single.timeout, Duration::from_secs(1));
        let capped = TestPlan::new(
            vec![],
            vec![0],
            &durations,
            &[1],
            1,
            Duration::from_millis(500),
        );
        assert_eq!(capped.single.timeout, Duration::from_millis(500));
    }

    #[test]
    fn passed_lists_passing_tests() {
        let outcome = CandidateOutcome::Tested(vec![
            (0, Verdict::Passed),
            (1, Verdict::TimedOut),
            (2, Verdict::Passed),
        ]);
        assert_eq!(outcome.passed(), BTreeSet::from([0, 2]));
        assert!(CandidateOutcome::Unviable("e".into()).passed().is_empty());
    }
}
