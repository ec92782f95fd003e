//! Mutant schemata: a whole batch of candidates woven into one copy of the
//! crate (see `weave`), built once, and each candidate tested by selecting
//! its variants at run time. Candidates that cannot be woven, and those whose
//! variants break the woven build (found from the compiler's diagnostics and
//! dropped before building again), are evaluated separately by the rebuild
//! path.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::Result;

use crate::cargo::build::{BuildOutcome, CompileError};
use crate::cargo::discover::Workspace;
use crate::cargo::suite::TestSuite;
use crate::code::crate_sources::Originals;
use crate::code::source::{FileId, Location};
use crate::evaluate::copy::BuildCopy;
use crate::evaluate::plan::{Cutoff, TestPlan};
use crate::evaluate::rebuild::RebuildEvaluator;
use crate::evaluate::weave::{SCHEMA_ENV, Schema, VariantKey, weave};
use crate::evaluate::{
    CandidateOutcome, EvaluationCounts, Evaluator, EvaluatorStats, PreparedEvaluator, Settings,
    Texts, edited_locations, new_texts,
};
use crate::mutation::patch::Candidate;
use crate::system::process;
use crate::system::scratch::MAIN_TARGET;

/// Builds after which a batch's remaining candidates go to the rebuild
/// path: each build drops the variants the previous one reported.
const MAX_BUILDS_PER_BATCH: usize = 12;

/// Evaluates a batch with one build.
#[derive(Debug)]
pub struct SchemaEvaluator {
    fallback: RebuildEvaluator,
    originals: Originals,
    /// Crate roots, and whether each is `#![no_std]`.
    roots: Vec<(FileId, bool)>,
    /// The copy woven versions of the crate are built in.
    copy: BuildCopy,
    suite: TestSuite,
    jobs: usize,
    cache: HashMap<Texts, CandidateOutcome>,
    counts: EvaluationCounts,
    stats: EvaluatorStats,
    /// How long each woven candidate's tests took.
    test_times: Vec<f64>,
}

impl SchemaEvaluator {
    pub fn new(
        workspace: &Workspace,
        fallback: RebuildEvaluator,
        originals: Originals,
        roots: Vec<(FileId, bool)>,
        suite: TestSuite,
        settings: &Settings,
    ) -> Result<SchemaEvaluator> {
        let copy = BuildCopy::new(workspace, &originals, &settings.features, MAIN_TARGET)?;
        Ok(SchemaEvaluator {
            fallback,
            originals,
            roots,
            copy,
            suite,
            jobs: settings.jobs.max(1),
            cache: HashMap::new(),
            counts: EvaluationCounts::default(),
            test_times: Vec::new(),
            stats: EvaluatorStats {
                strategy: "schema",
                ..Default::default()
            },
        })
    }

    /// Writes a woven version of the crate (`files`) into the copy and
    /// builds it: the suite of that build, or its errors.
    fn build(&mut self, files: &Texts) -> Result<Result<TestSuite, Vec<CompileError>>> {
        self.copy.write(files, &self.originals)?;
        let started = Instant::now();
        let outcome = self.copy.build(false)?;
        self.stats.builds += 1;
        self.stats.build_seconds += started.elapsed().as_secs_f64();
        Ok(match outcome {
            BuildOutcome::Built(executables) => Ok(self
                .suite
                .with_build(&executables, &self.copy.package_dir)?),
            BuildOutcome::Failed { errors, .. } => Err(errors),
        })
    }
}

impl SchemaEvaluator {
    /// Tests each candidate of a woven build (its edited locations and
    /// switches), `jobs` at a time.
    fn run_woven(
        &mut self,
        suite: &TestSuite,
        runs: &[(Option<BTreeSet<Location>>, String)],
        on_done: &(dyn Fn(&CandidateOutcome) + Sync),
    ) -> Result<Vec<CandidateOutcome>> {
        let plan: &TestPlan = self.fallback.plan();
        let durations: Mutex<Vec<f64>> = Mutex::new(Vec::new());
        let started = Instant::now();
        let outcomes = process::in_parallel(self.jobs, runs.len(), |index| {
            let (edited, switches) = &runs[index];
            let env = [(SCHEMA_ENV, OsString::from(switches))];
            let started = Instant::now();
            let outcome = plan
                .run(suite, edited.as_ref(), &env)
                .map(CandidateOutcome::Tested);
            durations
                .lock()
                .expect("durations poisoned")
                .push(started.elapsed().as_secs_f64());
            if let Ok(outcome) = &outcome {
                on_done(outcome);
            }
            outcome
        });
        self.stats.test_seconds += started.elapsed().as_secs_f64();
        self.test_times
            .extend(durations.into_inner().expect("durations poisoned"));
        outcomes
    }

    /// The variant each build error is about: the one its primary span is
    /// in, else the first of its other spans (a note can point at a variant
    /// that only took part, such as the arm that fixed a `match`'s type),
    /// else every variant between its first and last span in the primary
    /// span's file (a value moved in one arm and used after the `match`
    /// points at original code only).
    fn culprits(&self, errors: &[CompileError], schema: &Schema) -> BTreeSet<VariantKey> {
        let file_index = |name: &str| self.originals.find_by_name(name);
        let mut culprits = BTreeSet::new();
        for error in errors {
            let pinned = error
                .spans
                .iter()
                .find_map(|(name, range)| schema.variant_at(file_index(name)?, range).cloned());
            if let Some(key) = pinned {
                culprits.insert(key);
                continue;
            }
            let Some((primary, _)) = error.spans.first() else {
                continue;
            };
            let Some(file) = file_index(primary) else {
                continue;
            };
            let ranges = error.spans.iter().filter(|(name, _)| name == primary);
            let start = ranges.clone().map(|(_, r)| r.start).min().unwrap_or(0);
            let end = ranges.map(|(_, r)| r.end).max().unwrap_or(0);
            culprits.extend(
                schema
                    .spans
                    .iter()
                    .filter(|(f, span, _)| *f == file && span.start < end && start < span.end)
                    .map(|(_, _, key)| key.clone()),
            );
        }
        culprits
    }
}

impl Evaluator for SchemaEvaluator {
    fn evaluate(
        &mut self,
        batch: &[Candidate],
        on_done: &(dyn Fn(&CandidateOutcome) + Sync),
    ) -> Result<Vec<CandidateOutcome>> {
        let (texts, fresh) = new_texts(batch, &self.originals, &self.cache);
        let mut decided: BTreeMap<usize, CandidateOutcome> = BTreeMap::new();
        let originals = self.originals.clone();
        let mut pending: Vec<usize> = fresh.clone();
        // How many builds each region (file, range) held a culprit in.
        let mut failures: BTreeMap<(FileId, (usize, usize)), usize> = BTreeMap::new();
        for _ in 0..MAX_BUILDS_PER_BATCH {
            let candidates: Vec<Candidate> = pending.iter().map(|&i| batch[i].clone()).collect();
            let schema = weave(&originals, &self.roots, &candidates, &BTreeSet::new());
            let woven: Vec<(usize, String)> = pending
                .iter()
                .zip(&schema.switches)
                .filter_map(|(&index, switches)| Some((index, switches.clone()?)))
                .collect();
            if woven.len() < 2 {
                break;
            }
            match self.build(&schema.files)? {
                Ok(suite) => {
                    let runs: Vec<_> = woven
                        .iter()
                        .map(|(i, switches)| (Some(edited_locations(&batch[*i])), switches.clone()))
                        .collect();
                    let outcomes = self.run_woven(&suite, &runs, on_done)?;
                    self.stats.woven += woven.len();
                    decided.extend(woven.iter().map(|(i, _)| *i).zip(outcomes));
                    break;
                }
                Err(errors) => {
                    let mut dropped = self.culprits(&errors, &schema);
                    if dropped.is_empty() {
                        break;
                    }
                    // rustc reports one bad arm per `match` (and a variant
                    // inside a closure never has the original's type): a
                    // region that fails a third build is dropped whole.
                    let regions: BTreeSet<(FileId, (usize, usize))> =
                        dropped.iter().map(|c| (c.file, c.region)).collect();
                    for region in regions {
                        let count = failures.entry(region).or_default();
                        *count += 1;
                        if *count >= 3 {
                            dropped.extend(
                                schema
                                    .spans
                                    .iter()
                                    .map(|(_, _, key)| key)
                                    .filter(|key| (key.file, key.region) == region)
                                    .cloned(),
                            );
                        }
                    }
                    // The same candidates weave into the same regions: those
                    // still switchable without the dropped variants go on.
                    let kept = weave(&originals, &self.roots, &candidates, &dropped).switches;
                    pending = pending
                        .iter()
                        .zip(kept)
                        .filter_map(|(&index, switches)| switches.map(|_| index))
                        .collect();
                }
            }
        }
        // The rest (not weavable, or with variants that broke the build) are
        // built one by one.
        let separate: Vec<usize> = fresh
            .iter()
            .copied()
            .filter(|i| !decided.contains_key(i))
            .collect();
        if !separate.is_empty() {
            let candidates: Vec<Candidate> = separate.iter().map(|&i| batch[i].clone()).collect();
            let outcomes = self.fallback.evaluate_with(&candidates, true, on_done)?;
            self.stats.separate += separate.len();
            decided.extend(separate.into_iter().zip(outcomes));
        }
        for (index, outcome) in decided {
            if fresh.contains(&index) && !self.cache.contains_key(&texts[index]) {
                self.counts.built += 1;
                self.counts.compiled += usize::from(outcome.compiled());
            }
            self.cache.insert(texts[index].clone(), outcome);
        }
        Ok(texts.iter().map(|t| self.cache[t].clone()).collect())
    }

    fn counts(&self) -> EvaluationCounts {
        self.counts
    }

    fn set_cutoff(&mut self, cutoff: Option<Cutoff>) {
        self.fallback.set_cutoff(cutoff);
    }
}

impl PreparedEvaluator for SchemaEvaluator {
    fn stats(&self) -> EvaluatorStats {
        let fallback = self.fallback.stats();
        EvaluatorStats {
            builds: self.stats.builds + fallback.builds,
            build_seconds: self.stats.build_seconds + fallback.build_seconds,
            test_seconds: self.stats.test_seconds + fallback.test_seconds,
            median_candidate_test_seconds: {
                let mut times = self.test_times.clone();
                times.sort_by(f64::total_cmp);
                times.get(times.len() / 2).copied()
            },
            ..self.stats
        }
    }

    /// The rebuild workers' baselines, and the unchanged crate built (with
    /// the switch runtime) and tested in the woven copy.
    fn baseline_runs(&mut self) -> Result<Vec<CandidateOutcome>> {
        let mut outcomes = self.fallback.baseline_runs()?;
        let schema = weave(&self.originals, &self.roots, &[], &BTreeSet::new());
        match self.build(&schema.files)? {
            Ok(suite) => {
                outcomes.extend(self.run_woven(&suite, &[(None, String::new())], &|_| {})?)
            }
            Err(errors) => {
                let first = errors.first().map_or_else(
                    || "the woven copy does not build".to_string(),
                    ToString::to_string,
                );
                anyhow::bail!(
                    "the crate does not build with the schema runtime (a bug in cargo-autofix, please report it): {first}"
                );
            }
        }
        Ok(outcomes)
    }

    fn set_plan(&mut self, plan: TestPlan) {
        self.fallback.set_plan(plan);
        self.cache.clear();
        self.test_times.clear();
    }
}
