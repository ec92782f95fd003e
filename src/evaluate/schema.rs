//! Mutant schemata: a whole batch of candidates woven into one copy of the
//! crate (see `weave`), built once, and each candidate tested by selecting
//! its variants at run time. Every variant is a function body of its own, so
//! one build reports every variant that does not compile: they are dropped
//! and the rest built again (a third build only for errors that appear once
//! everything else compiles, such as post-monomorphization ones). A function
//! that cannot be copied is woven in place (see `in_place`), where an error
//! can hide another, so more builds may be needed.
//! Candidates that cannot be woven, and those whose variants broke the
//! build, are evaluated separately by the rebuild path.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::ops::{ControlFlow, Range};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::cargo::Kind;
use crate::cargo::TestSuite;
use crate::cargo::{BuildOutcome, CompileError};
use crate::code::Originals;
use crate::code::source::{FileId, Location};
use crate::evaluate::apart;
use crate::evaluate::copy::BuildCopy;
use crate::evaluate::functions::{Functions, Shape};
use crate::evaluate::plan::{Cutoff, TestPlan};
use crate::evaluate::rebuild::RebuildEvaluator;
use crate::evaluate::weave::{Part, SCHEMA_ENV, Schema, Unweavable, VariantKey, variants, weave};
use crate::evaluate::{
    CandidateOutcome, EvaluationCounts, Evaluator, EvaluatorStats, OnDone, PreparedEvaluator,
    Settings, Texts, edited_locations, new_texts,
};
use crate::exit::{Result, bail};
use crate::mutation::Candidate;
use crate::system::{Budget, process};

/// Builds after which a batch's remaining candidates go to the rebuild
/// path: each build drops the variants the previous one reported. Copies
/// need two, or three for errors that appear once everything else
/// compiles; variants woven in place share their function's body, where
/// rustc reports some errors only once others are gone (one mismatched arm
/// of a `match` at a time, an ambiguous type last), and a failed build,
/// which stops at the first errors, costs no more than one candidate
/// built alone while it drops at least one variant.
const MAX_BUILDS_PER_BATCH: usize = 16;

/// What the errors of a woven build are blamed on.
#[derive(Debug, Default)]
struct Blame {
    /// Variants an error lies in (their copy, or their alternative at a
    /// site woven in place), with the first such error.
    variants: BTreeMap<VariantKey, String>,
    /// Functions whose control copy (the unedited body) did not compile.
    controls: BTreeSet<usize>,
    /// Variants whose alternative at a site woven in place has another
    /// type than the original code: they are built one by one.
    mistyped: BTreeSet<VariantKey>,
    /// Sites woven in place (function, range) whose original code did not
    /// compile as an arm of their `match`.
    sites: Vec<(usize, Range<usize>)>,
    /// Functions woven in place with an error outside their sites' arms.
    in_place: BTreeSet<usize>,
}

impl Blame {
    fn is_empty(&self) -> bool {
        self.variants.is_empty()
            && self.controls.is_empty()
            && self.mistyped.is_empty()
            && self.sites.is_empty()
            && self.in_place.is_empty()
    }
}

/// What the woven builds of a batch have found so far.
#[derive(Debug, Default)]
struct Rounds {
    /// The candidates (indexes in the batch) still to weave.
    pending: Vec<usize>,
    /// The outcomes decided, by index.
    decided: BTreeMap<usize, CandidateOutcome>,
    /// The variants the woven builds proved broken, with their first error.
    broken: BTreeMap<VariantKey, String>,
    /// Variants woven in place whose type was not the original's.
    mistyped: BTreeSet<VariantKey>,
    /// Whether a woven build failed with errors in no variant.
    unattributed: bool,
}

/// Evaluates a batch with one build.
#[derive(Debug)]
pub struct SchemaEvaluator {
    fallback: RebuildEvaluator,
    originals: Originals,
    /// Crate roots, and whether each is `#![no_std]`.
    roots: Vec<(FileId, bool)>,
    functions: Functions,
    /// The copy woven versions of the crate are built in.
    copy: BuildCopy,
    suite: TestSuite,
    jobs: usize,
    cache: HashMap<Texts, CandidateOutcome>,
    counts: EvaluationCounts,
    stats: EvaluatorStats,
    /// How long each woven candidate's tests took.
    test_times: Vec<f64>,
    /// The unchanged crate's run in a woven build (see `baseline_runs`).
    unchanged: Unchanged,
}

/// Whether the next woven build that builds also runs the unchanged crate
/// (no switch set), and that run's outcome once it ran.
#[derive(Debug, Default)]
enum Unchanged {
    #[default]
    Unwanted,
    Wanted,
    Ran(CandidateOutcome),
}

impl SchemaEvaluator {
    /// An evaluator that weaves into `copy` (a copy of the workspace
    /// holding `originals`) and builds alone with `fallback`.
    pub fn new(
        copy: BuildCopy,
        fallback: RebuildEvaluator,
        originals: Originals,
        roots: Vec<(FileId, bool)>,
        functions: Functions,
        suite: TestSuite,
        settings: &Settings,
    ) -> SchemaEvaluator {
        SchemaEvaluator {
            fallback,
            originals,
            roots,
            functions,
            copy,
            suite,
            jobs: settings.jobs.max(1),
            cache: HashMap::new(),
            counts: EvaluationCounts::default(),
            test_times: Vec::new(),
            unchanged: Unchanged::Unwanted,
            stats: EvaluatorStats {
                strategy: "schema",
                ..Default::default()
            },
        }
    }

    /// Writes a woven version of the crate (`files`) into the copy and
    /// builds it (with `only`, the executables of these targets alone): the
    /// suite of that build, or its errors.
    fn build(
        &mut self,
        files: &Texts,
        only: Option<&BTreeSet<(Kind, String)>>,
        budget: Budget,
    ) -> Result<Result<TestSuite, Vec<CompileError>>> {
        self.copy.write(files, &self.originals)?;
        let started = Instant::now();
        let outcome = self.copy.build(only, budget)?;
        self.stats.builds += 1;
        self.stats.build_seconds += started.elapsed().as_secs_f64();
        Ok(match outcome {
            BuildOutcome::Built(executables) => {
                Ok(self
                    .suite
                    .with_build(&executables, only, self.copy.dirs())?)
            }
            BuildOutcome::Failed { errors, .. } => Err(errors),
        })
    }

    /// The targets whose tests some of `candidates` may run: the others
    /// keep their baseline verdicts, and need not be built.
    fn targets_for(&self, candidates: &[&Candidate]) -> BTreeSet<(Kind, String)> {
        let plan = self.fallback.plan();
        let mut targets = BTreeSet::new();
        for candidate in candidates {
            let selection = plan.select(Some(&edited_locations(candidate)));
            for &test in selection.first.iter().chain(&selection.rest) {
                targets.insert(self.suite.target_of(test));
            }
        }
        targets
    }
}

impl SchemaEvaluator {
    /// Tests each candidate of a woven build (its edited locations and
    /// switches), `jobs` at a time. The unchanged crate (no edited
    /// locations) runs every test, with no cutoff.
    fn run_woven(
        &mut self,
        suite: &TestSuite,
        runs: &[(Option<BTreeSet<Location>>, String)],
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<CandidateOutcome>> {
        let plan: &TestPlan = self.fallback.plan();
        let uncut = runs.iter().any(|(edited, _)| edited.is_none()).then(|| {
            let mut uncut = plan.clone();
            uncut.set_cutoff(None);
            uncut
        });
        let timings: Mutex<Vec<(f64, f64)>> = Mutex::new(Vec::new());
        let started = Instant::now();
        let outcomes = process::in_parallel(self.jobs, runs.len(), budget, |index| {
            let (edited, switches) = &runs[index];
            let env = [(SCHEMA_ENV, OsString::from(switches))];
            let started = Instant::now();
            let plan = match edited {
                None => uncut.as_ref().unwrap_or(plan),
                Some(_) => plan,
            };
            let run = plan.run(suite, edited.as_ref(), &env, budget)?;
            timings
                .lock()
                .expect("timings poisoned")
                .push((started.elapsed().as_secs_f64(), run.timed_out.as_secs_f64()));
            let outcome = CandidateOutcome::Tested(run.verdicts);
            on_done(index, &outcome);
            Ok(outcome)
        });
        self.stats.test_seconds += started.elapsed().as_secs_f64();
        for (tests, timed_out) in timings.into_inner().expect("timings poisoned") {
            self.test_times.push(tests);
            self.stats.timeout_seconds += timed_out;
        }
        outcomes
    }

    /// What each build error is about: the first of its spans (the
    /// primary one, through the macro calls it expands from, then the
    /// others, then its notes') that lies in a variant's copy, declaration
    /// or dispatch arm, or in an arm of a site woven in place; else the
    /// function woven in place it lies in. Errors in none are left out.
    fn blame(&self, errors: &[CompileError], schema: &Schema) -> Blame {
        let mut blame = Blame::default();
        let mut alternatives = Vec::new();
        for error in errors {
            let parts: Vec<&Part> = error
                .spans
                .iter()
                .filter_map(|(name, range)| {
                    schema.part_at(self.originals.find_by_name(name)?, range)
                })
                .collect();
            let part = parts
                .iter()
                .find(|p| !matches!(p, Part::InPlace(_)))
                .or(parts.first());
            match part {
                None => {}
                Some(Part::Variant(key)) if self.is_control(key) => {
                    blame.controls.insert(key.function);
                }
                Some(Part::Variant(key)) => {
                    blame
                        .variants
                        .entry(key.clone())
                        .or_insert_with(|| error.to_string());
                }
                Some(Part::Alternative {
                    function,
                    site,
                    keys,
                }) => {
                    // Its type is not the original's: alone, in place of
                    // the original, it may compile.
                    let mistyped = error.message.contains("arms have incompatible types");
                    for key in keys {
                        alternatives.push((*function, site.clone(), key, mistyped, error));
                    }
                }
                Some(Part::Original { function, site }) => {
                    blame.sites.push((*function, site.clone()));
                }
                Some(Part::InPlace(function)) => {
                    blame.in_place.insert(*function);
                }
            }
        }
        // An alternative's error is the weaving's where the site's original
        // code, or the function around it, did not compile either.
        for (function, site, key, mistyped, error) in alternatives {
            if blame.in_place.contains(&function) || blame.sites.contains(&(function, site)) {
                continue;
            }
            if mistyped {
                blame.mistyped.insert(key.clone());
            } else {
                blame
                    .variants
                    .entry(key.clone())
                    .or_insert_with(|| error.to_string());
            }
        }
        blame
    }

    /// Marks the data items `schema` wove as not to weave again; whether
    /// there were any.
    fn stop_weaving_data(&mut self, schema: &Schema) -> bool {
        let data: BTreeSet<usize> = schema
            .spans
            .iter()
            .map(|(_, _, part)| part.function())
            .filter(|&f| matches!(self.functions.get(f).shape, Shape::Data { .. }))
            .collect();
        for &function in &data {
            self.functions
                .set_not_copyable(function, "read where its woven type does not fit");
        }
        !data.is_empty()
    }

    /// Whether `key` is a function's control copy (its unedited body).
    fn is_control(&self, key: &VariantKey) -> bool {
        let function = self.functions.get(key.function);
        key.text == self.originals.text(function.file)[function.body.clone()]
    }
}

impl SchemaEvaluator {
    /// Decides the candidates of `batch` not in the cache and caches their
    /// outcomes (those a halt cut short too, which then reports the ones
    /// known before as decided); `woven_only` leaves those no woven build
    /// decides undecided. The batch's texts, the cache keys.
    fn judge(
        &mut self,
        batch: &[Candidate],
        woven_only: bool,
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<Texts>> {
        let (texts, fresh) = new_texts(batch, &self.originals, &self.cache);
        let heard: Mutex<BTreeMap<usize, CandidateOutcome>> = Mutex::new(BTreeMap::new());
        let decided = self.decide(batch, &fresh, woven_only, budget, &|index, outcome| {
            if let Ok(mut heard) = heard.lock() {
                heard.insert(index, outcome.clone());
            }
            on_done(index, outcome);
        });
        match decided {
            Ok(decided) => {
                self.record(&texts, &fresh, decided);
                Ok(texts)
            }
            Err(error) => {
                self.record(&texts, &fresh, heard.into_inner().unwrap_or_default());
                // What was known before the batch was decided before the
                // halt too (the preparation's runs of the first batch).
                for (index, text) in texts.iter().enumerate() {
                    if let Some(outcome) = self.cache.get(text)
                        && !fresh.contains(&index)
                    {
                        on_done(index, outcome);
                    }
                }
                Err(error)
            }
        }
    }

    /// The outcomes of the `fresh` candidates of `batch`, by index: woven
    /// builds while they pay, the rest one by one (unless `woven_only`).
    fn decide(
        &mut self,
        batch: &[Candidate],
        fresh: &[usize],
        woven_only: bool,
        budget: Budget,
        on_done: OnDone,
    ) -> Result<BTreeMap<usize, CandidateOutcome>> {
        let rounds = self.decide_woven(batch, fresh, budget, on_done)?;
        let mut decided = rounds.decided;
        if woven_only {
            return Ok(decided);
        }
        // The rest (not weavable, or left when the builds ran out) are built
        // one by one.
        let separate: Vec<usize> = fresh
            .iter()
            .copied()
            .filter(|i| !decided.contains_key(i))
            .collect();
        for &index in &separate {
            let reason = self.separate_reason(&batch[index], &rounds.mistyped, rounds.unattributed);
            *self.stats.separate_reasons.entry(reason).or_default() += 1;
        }
        if !separate.is_empty() {
            let outcomes = self.decide_separately(batch, &separate, budget, on_done);
            decided.extend(separate.into_iter().zip(outcomes?));
        }
        Ok(decided)
    }

    /// The woven builds of the `fresh` candidates of `batch`, while they
    /// pay, part by part (see `apart`): what they decided, and why the
    /// others were not woven.
    fn decide_woven(
        &mut self,
        batch: &[Candidate],
        fresh: &[usize],
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Rounds> {
        if !fresh.is_empty() {
            self.stats.batches += 1;
        }
        let mut all = Rounds::default();
        for part in apart::parts(&self.originals, &self.functions, batch, fresh) {
            let mut rounds = Rounds {
                pending: part,
                ..Rounds::default()
            };
            for _ in 0..MAX_BUILDS_PER_BATCH {
                if self
                    .woven_build(batch, &mut rounds, budget, on_done)?
                    .is_break()
                {
                    break;
                }
            }
            all.decided.append(&mut rounds.decided);
            all.broken.append(&mut rounds.broken);
            all.mistyped.append(&mut rounds.mistyped);
            all.unattributed |= rounds.unattributed;
        }
        self.stats.woven += all.decided.len();
        Ok(all)
    }

    /// One woven build of the `rounds.pending` candidates of `batch`: the
    /// tests of each if it builds, else what its errors are blamed on left
    /// out. Breaks when no further build is needed (or none would help).
    fn woven_build(
        &mut self,
        batch: &[Candidate],
        rounds: &mut Rounds,
        budget: Budget,
        on_done: OnDone,
    ) -> Result<ControlFlow<()>> {
        let candidates: Vec<Candidate> = rounds.pending.iter().map(|&i| batch[i].clone()).collect();
        let dropped: BTreeSet<VariantKey> = rounds
            .broken
            .keys()
            .chain(&rounds.mistyped)
            .cloned()
            .collect();
        let schema = weave(
            &self.originals,
            &self.roots,
            &self.functions,
            &candidates,
            &dropped,
            true,
        );
        let woven: Vec<(usize, String)> = rounds
            .pending
            .iter()
            .zip(&schema.switches)
            .filter_map(|(&index, switches)| Some((index, switches.clone()?)))
            .collect();
        if woven.is_empty() {
            return Ok(ControlFlow::Break(()));
        }
        self.stats.woven_builds += 1;
        let woven_candidates: Vec<&Candidate> = woven.iter().map(|(i, _)| &batch[*i]).collect();
        // The unchanged crate runs every test: every target is built.
        let wanted = matches!(self.unchanged, Unchanged::Wanted);
        let targets = (!wanted).then(|| self.targets_for(&woven_candidates));
        let errors = match self.build(&schema.files, targets.as_ref(), budget)? {
            Ok(suite) => {
                // The unchanged crate first, where it is wanted.
                let unchanged = usize::from(wanted);
                let runs: Vec<_> = (unchanged == 1)
                    .then(|| (None, String::new()))
                    .into_iter()
                    .chain(woven.iter().map(|(i, switches)| {
                        (Some(edited_locations(&batch[*i])), switches.clone())
                    }))
                    .collect();
                let mut outcomes = self.run_woven(&suite, &runs, budget, &|run, outcome| {
                    if let Some(candidate) = run.checked_sub(unchanged) {
                        on_done(woven[candidate].0, outcome);
                    }
                })?;
                if unchanged == 1 {
                    self.unchanged = Unchanged::Ran(outcomes.remove(0));
                }
                rounds
                    .decided
                    .extend(woven.iter().map(|(i, _)| *i).zip(outcomes));
                return Ok(ControlFlow::Break(()));
            }
            Err(errors) => errors,
        };
        let blame = self.blame(&errors, &schema);
        if blame.is_empty() {
            // An error in no variant: a woven data item read where its new
            // type does not fit, if there is one (else the rest go one by
            // one).
            if !self.stop_weaving_data(&schema) {
                rounds.unattributed = true;
                return Ok(ControlFlow::Break(()));
            }
            return Ok(ControlFlow::Continue(()));
        }
        self.leave_out_blamed(&schema, blame, rounds);
        self.decide_broken(batch, rounds, on_done);
        Ok(ControlFlow::Continue(()))
    }

    /// Leaves out what `blame` names in the next weaving: the functions
    /// and sites the weaver is at fault for, the mistyped and the broken
    /// variants (`schema` is the weaving blamed).
    fn leave_out_blamed(&mut self, schema: &Schema, blame: Blame, rounds: &mut Rounds) {
        // A control that does not compile is the weaving's fault, not its
        // candidates': the function does not survive copying (it is woven
        // in place next), or a woven data item's reads do not fit its new
        // type (in every copy that reads it). The data goes first, if there
        // is any; then the function. Either way its candidates' errors are
        // not theirs. So for a site woven in place whose original code does
        // not compile there, and a function woven in place with an error
        // outside its sites.
        if !blame.controls.is_empty() && !self.stop_weaving_data(schema) {
            for &function in &blame.controls {
                self.functions
                    .set_not_copyable(function, "one the weaver cannot copy");
            }
        }
        for (function, site) in &blame.sites {
            self.functions.drop_site(*function, site);
        }
        for &function in &blame.in_place {
            self.functions
                .set_unweavable(function, "one the weaver cannot weave in place");
        }
        rounds.mistyped.extend(blame.mistyped);
        rounds.broken.extend(
            blame
                .variants
                .into_iter()
                .filter(|(key, _)| !blame.controls.contains(&key.function)),
        );
    }

    /// Decides the pending candidates with a broken variant (they do not
    /// compile) and those no longer weavable: only the others stay pending.
    fn decide_broken(&self, batch: &[Candidate], rounds: &mut Rounds, on_done: OnDone) {
        let Rounds {
            pending,
            broken,
            decided,
            ..
        } = rounds;
        pending.retain(|&index| {
            let Ok(mine) = variants(&self.originals, &self.functions, &batch[index]) else {
                return false;
            };
            let error = mine
                .iter()
                .find_map(|(&function, variant)| broken.get(&variant.key(function)))
                .cloned();
            match error {
                Some(error) => {
                    let outcome = CandidateOutcome::Unviable(error);
                    on_done(index, &outcome);
                    decided.insert(index, outcome);
                    false
                }
                None => true,
            }
        });
    }

    /// Why `candidate` is built on its own, for the stats: it cannot be
    /// woven, it has a variant in `mistyped`, a build error was in no
    /// variant (`unattributed`), or the woven builds ran out.
    fn separate_reason(
        &self,
        candidate: &Candidate,
        mistyped: &BTreeSet<VariantKey>,
        unattributed: bool,
    ) -> String {
        match variants(&self.originals, &self.functions, candidate) {
            Err(Unweavable::OutsideFunctions) => "an edit outside every function".to_string(),
            Err(Unweavable::NotCopyable(why)) => format!("an edit in a function that is {why}"),
            Err(Unweavable::Data(why)) => format!("an edit of a `const` or `static` {why}"),
            Err(Unweavable::NoSite) => {
                "an edit that fits no expression or statement of a function woven in place"
                    .to_string()
            }
            Ok(mine)
                if mine
                    .iter()
                    .any(|(&function, variant)| mistyped.contains(&variant.key(function))) =>
            {
                "an edit woven in place whose type is not the original code's".to_string()
            }
            Ok(_) if unattributed => "a build error in no variant".to_string(),
            Ok(_) => format!("variants still broken after {MAX_BUILDS_PER_BATCH} woven builds"),
        }
    }

    /// The outcomes of the `separate` candidates of `batch`, built one by
    /// one by the rebuild path.
    fn decide_separately(
        &mut self,
        batch: &[Candidate],
        separate: &[usize],
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<CandidateOutcome>> {
        let candidates: Vec<Candidate> = separate.iter().map(|&i| batch[i].clone()).collect();
        // Counted as they are decided: a halt in the middle keeps them.
        let done = AtomicUsize::new(0);
        let outcomes = self
            .fallback
            .evaluate_batch(&candidates, budget, &|i, outcome| {
                done.fetch_add(1, Ordering::Relaxed);
                on_done(separate[i], outcome)
            });
        self.stats.separate += done.into_inner();
        outcomes
    }

    /// Caches decided outcomes and counts the fresh ones.
    fn record(
        &mut self,
        texts: &[Texts],
        fresh: &[usize],
        decided: BTreeMap<usize, CandidateOutcome>,
    ) {
        for (index, outcome) in decided {
            if fresh.contains(&index) && !self.cache.contains_key(&texts[index]) {
                self.counts.built += 1;
                self.counts.compiled += usize::from(outcome.compiled());
            }
            self.cache.insert(texts[index].clone(), outcome);
        }
    }
}

impl Evaluator for SchemaEvaluator {
    fn evaluate(
        &mut self,
        batch: &[Candidate],
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<CandidateOutcome>> {
        let texts = self.judge(batch, false, budget, on_done)?;
        Ok(texts.iter().map(|t| self.cache[t].clone()).collect())
    }

    fn counts(&self) -> EvaluationCounts {
        self.counts
    }

    fn set_cutoff(&mut self, cutoff: Option<Cutoff>) {
        self.fallback.set_cutoff(cutoff);
    }

    fn builds_alone(&self, candidate: &Candidate) -> bool {
        variants(&self.originals, &self.functions, candidate).is_err()
    }
}

impl PreparedEvaluator for SchemaEvaluator {
    fn stats(&self) -> EvaluatorStats {
        let fallback = self.fallback.stats();
        EvaluatorStats {
            builds: self.stats.builds + fallback.builds,
            build_seconds: self.stats.build_seconds + fallback.build_seconds,
            test_seconds: self.stats.test_seconds + fallback.test_seconds,
            timeout_seconds: self.stats.timeout_seconds + fallback.timeout_seconds,
            median_candidate_test_seconds: {
                let mut times = self.test_times.clone();
                times.sort_by(f64::total_cmp);
                times.get(times.len() / 2).copied()
            },
            tests_alone_seconds: self.test_times.iter().sum::<f64>() / self.jobs as f64,
            ..self.stats.clone()
        }
    }

    /// The unchanged crate built (with the switch runtime) and tested in
    /// the woven copy: in the first woven build of `first` that builds, or
    /// without one (no candidate woven, or none built) in a build of its
    /// own. (The rebuild workers are made when first needed.)
    fn baseline_runs(
        &mut self,
        budget: Budget,
        first: &[Candidate],
    ) -> Result<Vec<CandidateOutcome>> {
        if !first.is_empty() {
            // Those woven are kept (a halt's too: the search reads them);
            // the others are left to the search (built one by one, they
            // would come before the unchanged crate's verdicts).
            self.unchanged = Unchanged::Wanted;
            let judged = self.judge(first, true, budget, &|_, _| {});
            let unchanged = std::mem::take(&mut self.unchanged);
            judged?;
            if let Unchanged::Ran(outcome) = unchanged {
                return Ok(vec![outcome]);
            }
        }
        let mut outcomes = Vec::new();
        let schema = weave(
            &self.originals,
            &self.roots,
            &self.functions,
            &[],
            &BTreeSet::new(),
            false,
        );
        match self.build(&schema.files, None, budget)? {
            Ok(suite) => {
                let unchanged = [(None, String::new())];
                outcomes.extend(self.run_woven(&suite, &unchanged, budget, &|_, _| {})?)
            }
            Err(errors) => {
                let first = errors.first().map_or_else(
                    || "the woven copy does not build".to_string(),
                    ToString::to_string,
                );
                bail!(
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
