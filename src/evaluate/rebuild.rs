//! The simple strategy: each candidate written into one of `-j` long-lived
//! scratch copies, rebuilt incrementally, and tested.

use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

use crate::cargo::BuildOutcome;
use crate::cargo::TestSuite;
use crate::cargo::Workspace;
use crate::code::Originals;
use crate::code::source::Location;
use crate::evaluate::copy::BuildCopy;
use crate::evaluate::plan::{Cutoff, TestPlan};
use crate::evaluate::{
    CandidateOutcome, EvaluationCounts, Evaluator, EvaluatorStats, OnDone, PreparedEvaluator,
    Settings, Texts, edited_locations, new_texts,
};
use crate::exit::Result;
use crate::mutation::Candidate;
use crate::system::{Budget, process};

/// Rebuilds each candidate in one of `-j` long-lived scratch copies, made
/// when first needed.
#[derive(Debug)]
pub struct RebuildEvaluator {
    originals: Originals,
    workspace: Workspace,
    settings: Settings,
    workers: Vec<Worker>,
    suite: TestSuite,
    plan: TestPlan,
    cache: HashMap<Texts, CandidateOutcome>,
    counts: EvaluationCounts,
}

/// One candidate to evaluate: its changed files and edited locations.
#[derive(Debug, Clone)]
struct Job {
    texts: Texts,
    /// `None`: run every test (the unchanged crate).
    edited: Option<BTreeSet<Location>>,
}

#[derive(Debug)]
struct Worker {
    copy: BuildCopy,
    builds: usize,
    build_seconds: f64,
    test_seconds: f64,
    timeout_seconds: f64,
}

impl RebuildEvaluator {
    pub fn new(
        workspace: &Workspace,
        originals: Originals,
        suite: TestSuite,
        plan: TestPlan,
        settings: &Settings,
    ) -> RebuildEvaluator {
        RebuildEvaluator {
            originals,
            workspace: workspace.clone(),
            settings: settings.clone(),
            workers: Vec::new(),
            suite,
            plan,
            cache: HashMap::new(),
            counts: EvaluationCounts::default(),
        }
    }

    /// Makes the `-j` workers' scratch copies, if not made yet.
    fn ensure_workers(&mut self, budget: Budget) -> Result<()> {
        while self.workers.len() < self.settings.jobs.max(1) {
            let index = self.workers.len();
            self.workers.push(Worker {
                copy: BuildCopy::new(
                    &self.workspace,
                    &self.originals,
                    &self.settings.cargo,
                    &format!("worker-{index}"),
                    budget,
                )?,
                builds: 0,
                build_seconds: 0.0,
                test_seconds: 0.0,
                timeout_seconds: 0.0,
            });
        }
        Ok(())
    }

    pub fn plan(&self) -> &TestPlan {
        &self.plan
    }

    /// Evaluates `batch`, each new candidate built on its own, until
    /// `budget` ends.
    pub fn evaluate_batch(
        &mut self,
        batch: &[Candidate],
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<CandidateOutcome>> {
        let (texts, fresh) = new_texts(batch, &self.originals, &self.cache);
        if !fresh.is_empty() {
            self.ensure_workers(budget)?;
        }
        let jobs: Vec<Job> = fresh
            .iter()
            .map(|&i| Job {
                texts: texts[i].clone(),
                edited: Some(edited_locations(&batch[i])),
            })
            .collect();
        let on_job = |job, outcome: &CandidateOutcome| on_done(fresh[job], outcome);
        let outcomes = self.run_jobs(&jobs, false, budget, &on_job)?;
        for (job, outcome) in jobs.into_iter().zip(outcomes) {
            self.counts.built += 1;
            self.counts.compiled += usize::from(outcome.compiled());
            self.cache.insert(job.texts, outcome);
        }
        Ok(texts.iter().map(|t| self.cache[t].clone()).collect())
    }

    /// Evaluates `jobs` on the workers; with `pinned`, job `i` runs on
    /// worker `i`. `on_done` hears each job's index.
    fn run_jobs(
        &mut self,
        jobs: &[Job],
        pinned: bool,
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<CandidateOutcome>> {
        let (originals, suite, plan) = (&self.originals, &self.suite, &self.plan);
        let workers = &mut self.workers;
        process::in_parallel_with(workers, jobs.len(), pinned, budget, |worker, job| {
            let outcome = worker.evaluate(&jobs[job], originals, suite, plan, budget)?;
            on_done(job, &outcome);
            Ok(outcome)
        })
    }
}

impl Evaluator for RebuildEvaluator {
    fn evaluate(
        &mut self,
        batch: &[Candidate],
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<CandidateOutcome>> {
        self.evaluate_batch(batch, budget, on_done)
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
    fn baseline_runs(&mut self, budget: Budget, _: &[Candidate]) -> Result<Vec<CandidateOutcome>> {
        self.ensure_workers(budget)?;
        let jobs = vec![
            Job {
                texts: Texts::new(),
                edited: None
            };
            self.workers.len()
        ];
        self.run_jobs(&jobs, true, budget, &|_, _| {})
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
            timeout_seconds: self.workers.iter().map(|w| w.timeout_seconds).sum(),
            ..Default::default()
        }
    }
}

impl Worker {
    fn evaluate(
        &mut self,
        job: &Job,
        originals: &Originals,
        suite: &TestSuite,
        plan: &TestPlan,
        budget: Budget,
    ) -> Result<CandidateOutcome> {
        self.copy.write(&job.texts, originals)?;
        let started = Instant::now();
        let built = self.copy.build(None, budget)?;
        self.builds += 1;
        self.build_seconds += started.elapsed().as_secs_f64();
        let executables = match built {
            BuildOutcome::Built(executables) => executables,
            BuildOutcome::Failed { errors, summary } => {
                let first = errors.first().map_or(summary, ToString::to_string);
                return Ok(CandidateOutcome::Unviable(first));
            }
        };
        let suite = suite.with_build(&executables, None, self.copy.dirs())?;
        let started = Instant::now();
        let run = plan.run(&suite, job.edited.as_ref(), &[], budget)?;
        self.test_seconds += started.elapsed().as_secs_f64();
        self.timeout_seconds += run.timed_out.as_secs_f64();
        Ok(CandidateOutcome::Tested(run.verdicts))
    }
}
