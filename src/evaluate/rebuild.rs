//! The simple strategy: each candidate written into one of `-j` long-lived
//! scratch copies, rebuilt incrementally, and tested.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::Result;

use super::{
    CandidateOutcome, Cutoff, EvaluationCounts, Evaluator, EvaluatorStats, Originals,
    PreparedEvaluator, TestPlan, edited_locations, new_texts,
};
use crate::candidate::Candidate;
use crate::cargo::Features;
use crate::cargo::build::{BuildOutcome, BuildRequest, build_tests, check_tests};
use crate::cargo::discover::Workspace;
use crate::process;
use crate::scratch::ScratchDir;
use crate::source::Location;
use crate::suite::TestSuite;

/// Rebuilds each candidate in one of `-j` long-lived scratch copies.
#[derive(Debug)]
pub struct RebuildEvaluator {
    originals: Originals,
    workers: Vec<Worker>,
    suite: TestSuite,
    plan: TestPlan,
    package: String,
    features: Features,
    cache: HashMap<BTreeMap<usize, String>, CandidateOutcome>,
    counts: EvaluationCounts,
}

/// One candidate to evaluate: its changed files and edited locations.
#[derive(Debug, Clone)]
struct Job {
    texts: BTreeMap<usize, String>,
    /// `None`: run every test (the unchanged crate).
    edited: Option<BTreeSet<Location>>,
}

#[derive(Debug)]
struct Worker {
    scratch: ScratchDir,
    manifest_path: PathBuf,
    package_dir: PathBuf,
    /// Files that currently differ from the original, with their text.
    written: BTreeMap<usize, String>,
    builds: usize,
    build_seconds: f64,
    test_seconds: f64,
}

impl RebuildEvaluator {
    pub fn new(
        workspace: &Workspace,
        originals: Originals,
        suite: TestSuite,
        plan: TestPlan,
        features: Features,
        jobs: usize,
    ) -> Result<RebuildEvaluator> {
        let workers = (0..jobs.max(1))
            .map(|index| {
                let scratch = ScratchDir::create(workspace, &format!("worker-{index}"))?;
                // The originals may differ from the workspace (a partial repair).
                for (path, text) in &originals {
                    scratch.write(path, text)?;
                }
                Ok(Worker {
                    manifest_path: scratch.path_of(&workspace.package.manifest_path),
                    package_dir: scratch.path_of(workspace.package.dir()),
                    scratch,
                    written: BTreeMap::new(),
                    builds: 0,
                    build_seconds: 0.0,
                    test_seconds: 0.0,
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

    /// Evaluates `batch` like `evaluate`; with `check_first`, each candidate
    /// is type-checked before it is built (cheaper for candidates that are
    /// likely not to compile, such as the ones a woven build rejected).
    pub fn evaluate_with(
        &mut self,
        batch: &[Candidate],
        check_first: bool,
        on_done: &(dyn Fn(&CandidateOutcome) + Sync),
    ) -> Result<Vec<CandidateOutcome>> {
        let (texts, fresh) = new_texts(batch, &self.originals, &self.cache);
        let jobs: Vec<Job> = fresh
            .iter()
            .map(|&i| Job {
                texts: texts[i].clone(),
                edited: Some(edited_locations(&batch[i], &self.originals)),
            })
            .collect();
        let outcomes = self.run_jobs(&jobs, false, check_first, on_done)?;
        for (job, outcome) in jobs.into_iter().zip(outcomes) {
            self.counts.built += 1;
            self.counts.compiled += usize::from(outcome.compiled());
            self.cache.insert(job.texts, outcome);
        }
        Ok(texts.iter().map(|t| self.cache[t].clone()).collect())
    }

    /// Evaluates `jobs` on the workers; with `one_per_worker`, job `i` runs
    /// on worker `i`.
    fn run_jobs(
        &mut self,
        jobs: &[Job],
        one_per_worker: bool,
        check_first: bool,
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
            check_first,
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
        self.evaluate_with(batch, false, on_done)
    }

    fn counts(&self) -> EvaluationCounts {
        self.counts
    }

    fn set_cutoff(&mut self, cutoff: Option<Cutoff>) {
        self.plan.set_cutoff(cutoff);
    }
}

impl PreparedEvaluator for RebuildEvaluator {
    /// Runs the unchanged program on every worker (which also compiles each
    /// copy once).
    fn baseline_runs(&mut self) -> Result<Vec<CandidateOutcome>> {
        let jobs = vec![
            Job {
                texts: BTreeMap::new(),
                edited: None
            };
            self.workers.len()
        ];
        self.run_jobs(&jobs, true, false, &|_| {})
    }

    fn set_plan(&mut self, plan: TestPlan) {
        self.plan = plan;
        self.cache.clear();
    }

    fn stats(&self) -> EvaluatorStats {
        EvaluatorStats {
            strategy: "rebuild",
            builds: self.workers.iter().map(|w| w.builds).sum(),
            separate: self.counts.built,
            build_seconds: self.workers.iter().map(|w| w.build_seconds).sum(),
            test_seconds: self.workers.iter().map(|w| w.test_seconds).sum(),
            ..Default::default()
        }
    }
}

/// What every worker reads while evaluating.
struct JobContext<'a> {
    originals: &'a Originals,
    suite: &'a TestSuite,
    plan: &'a TestPlan,
    package: &'a str,
    features: &'a Features,
    check_first: bool,
}

impl Worker {
    fn evaluate(&mut self, job: &Job, context: &JobContext) -> Result<CandidateOutcome> {
        // Bring the copy to the candidate: restore what the last one changed.
        let restore: Vec<usize> = self
            .written
            .keys()
            .filter(|f| !job.texts.contains_key(f))
            .copied()
            .collect();
        for file in restore {
            let (path, original) = &context.originals[file];
            self.scratch.write(path, original)?;
            self.written.remove(&file);
        }
        for (&file, text) in &job.texts {
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
            cap_lints: true,
        };
        let started = Instant::now();
        let checked = if context.check_first {
            Some(check_tests(&request)?)
        } else {
            None
        };
        let built = match checked {
            Some(failed @ BuildOutcome::Failed { .. }) => failed,
            _ => build_tests(&request, |_| {})?,
        };
        self.builds += 1;
        self.build_seconds += started.elapsed().as_secs_f64();
        let executables = match built {
            BuildOutcome::Built(executables) => executables,
            BuildOutcome::Failed { errors, summary } => {
                let first = errors.first().map_or(summary, ToString::to_string);
                return Ok(CandidateOutcome::Unviable(first));
            }
        };
        let suite = context.suite.with_build(&executables, &self.package_dir)?;
        let started = Instant::now();
        let verdicts = context.plan.run(&suite, job.edited.as_ref(), &[])?;
        self.test_seconds += started.elapsed().as_secs_f64();
        Ok(CandidateOutcome::Tested(verdicts))
    }
}
