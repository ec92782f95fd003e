//! One stage of the repair: the search for a patch that makes one failure
//! group's failing tests pass and keeps every passing test green. First the
//! sweep (every single edit at the most suspicious locations, in rank
//! order); if it finds no plausible patch within its share of the time, the
//! genetic search, seeded with the sweep's partial fixes; then the patch is
//! reduced to its essential edits (ddmin), and a patch of the search has
//! its lines swept for a single edit that passes alone.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::baseline::Baseline;
use crate::cargo::{TestId, Verdict};
use crate::code::CrateSources;
use crate::code::Originals;
use crate::code::source::Location;
use crate::code::starts_with_zero;
use crate::dd::{self, Outcome};
use crate::evaluate::FitnessModel;
use crate::evaluate::infer_types;
use crate::evaluate::{
    CandidateOutcome, EvaluationCounts, Evaluator, EvaluatorStats, PreparedEvaluator,
};
use crate::evaluate::{Prepared, prepare};
use crate::exit::{Error, Result};
use crate::localize::{Crash, GroupRanking};
use crate::localize::{Suspect, suspicious_locations};
use crate::mutation::Mutator;
use crate::mutation::Types;
use crate::mutation::{Candidate, Operator};
use crate::mutation::{MutationSpace, space_of};
use crate::repair::answer::fixes;
use crate::repair::choice::{Alternative, Measures, rank_plausible};
use crate::repair::search::{
    OperatorCounts, Progress, Scored, SearchResult, SearchSettings, Stop, search,
};
use crate::repair::settings::Settings;
use crate::repair::shard::{Known, enumerate, known_outcomes};
use crate::repair::sweep::{Ranked, SweepStop, Swept, first_batch};
use crate::repair::sweep::{rate, single_edits_where, sweep_with_progress};
use crate::system::Budget;
use crate::system::console::Console;

/// The share of a stage's time left when the sweep starts that the sweep
/// may take before the genetic search starts (the sweep of the top
/// locations finds most fixes; what it cannot find needs several edits).
const SWEEP_SHARE: f64 = 0.6;

/// What a stage did.
#[derive(Debug)]
pub enum StageOutcome {
    /// The search ran (it may or may not have found a patch).
    Searched(Box<Stage>),
    /// Every failing test of the group is flaky (full names): nothing to fix.
    AllFlaky(Vec<String>),
}

/// An edit of a patch, as the user sees it.
#[derive(Debug, Clone)]
pub struct EditDescription {
    pub file: PathBuf,
    pub line: u32,
    pub operator: Operator,
    pub replacement: String,
    /// The worst-case rank of its line in the failure group's ranking (0:
    /// unranked).
    pub rank: usize,
    /// It replaces an operator (`operator`'s edit) whose right side is the
    /// literal `0` (`year % 400 != 0`), where an unsigned value is never
    /// the smaller.
    pub against_zero: bool,
}

/// A plausible patch of the sweep, with what decided its place.
#[derive(Debug, Clone)]
pub struct Plausible {
    pub edits: Vec<EditDescription>,
    pub measures: Measures,
}

/// A plausible patch after the chosen one, tried in its place when the
/// chosen one fails validation.
#[derive(Debug, Clone)]
pub struct RunnerUp {
    pub candidate: Candidate,
    pub edits: Vec<EditDescription>,
    pub files: BTreeMap<PathBuf, String>,
}

/// Plausible patches after the chosen one that validation tries, at most.
const RUNNERS_UP: usize = 3;

/// A stage whose search ran.
#[derive(Debug)]
pub struct Stage {
    /// How the group's tests fail.
    pub description: String,
    /// The group's failing tests (full names).
    pub tests: Vec<String>,
    pub sweep: Swept,
    /// The genetic search, if the sweep found nothing.
    pub search: Option<SearchResult>,
    /// The sweep's plausible patches, best first (the first is `best`).
    pub alternatives: Vec<Plausible>,
    /// Which of them the patch is (a runner-up when the ones before it
    /// failed validation or added warnings).
    pub chosen: usize,
    /// The fittest candidate of the stage, and why the stage ended.
    pub best: Scored,
    pub stop: Stop,
    /// The reduced candidate that passes the stage's tests, if found.
    pub patch: Option<Candidate>,
    /// Its files (path, text), over the stage's crate.
    pub patched: BTreeMap<PathBuf, String>,
    /// The best candidate before reduction, as files.
    pub unreduced: BTreeMap<PathBuf, String>,
    /// The next plausible patches of the sweep, in the choice's order.
    pub runners_up: Vec<RunnerUp>,
    pub counts: EvaluationCounts,
    pub evaluation: EvaluatorStats,
    pub flaky: Vec<String>,
    pub never_passed: Vec<String>,
    /// Each edit of the patch.
    pub edits: Vec<EditDescription>,
    /// The top locations by suspiciousness, and by the weights the search
    /// ended with (feedback), with their ranks before (0: unranked).
    pub ranking_before: Vec<String>,
    pub ranking_after: Vec<(String, usize)>,
    pub timings: BTreeMap<&'static str, f64>,
}

impl Stage {
    /// Generations the genetic search evolved (0 if it did not run).
    pub fn generations(&self) -> usize {
        self.search.as_ref().map_or(0, |s| s.generations)
    }

    /// Candidates tried and compiled per operator, sweep and search.
    pub fn operators(&self) -> BTreeMap<Operator, OperatorCounts> {
        let mut totals = self.sweep.operators.clone();
        for (operator, counts) in self.search.iter().flat_map(|s| &s.operators) {
            let total = totals.entry(*operator).or_default();
            total.tried += counts.tried;
            total.compiled += counts.compiled;
        }
        totals
    }

    /// Whether edits taught the search anything about locations.
    pub fn learned_anything(&self) -> bool {
        let feedback = match &self.search {
            Some(search) => &search.feedback,
            None => &self.sweep.feedback,
        };
        feedback.values().any(|f| f.helped + f.broke > 0)
    }
}

/// Stage `index` of `groups` (its random choices are seeded with the seed
/// plus the index): the sweep, then if needed the genetic search, for a
/// patch for `group`, reduced with ddmin; its processes run on `budget` (the stage's:
/// it ends at `deadline`, or at the run's end if that is sooner).
pub fn run_stage(
    baseline: &Baseline,
    group: &GroupRanking,
    settings: &Settings,
    console: &Console,
    deadline: Option<Instant>,
    (index, groups): (usize, usize),
    budget: Budget,
) -> Result<StageOutcome> {
    let sources = &baseline.sources;
    let group = &*in_diff_only(group, settings, baseline);
    let ground = Ground::of(baseline, group, settings, console, budget)?;
    let originals = &ground.originals;
    let mut mutator = ground.mutator(group, settings);
    let crash = guiding_crash(group, groups);
    let locations = sweep_locations(&mutator, group, crash);
    let mut timings = BTreeMap::from([("types", ground.types_seconds)]);
    let at = (&mutator, locations.as_slice());
    let prepared = timed(&mut timings, "prepare", || {
        evaluator_for(baseline, group, at, index == 0, settings, console, budget)
    })?;
    let (mut evaluator, model, flaky) = match prepared {
        Ok(ready) => ready,
        Err(flaky) => return Ok(StageOutcome::AllFlaky(baseline.suite.full_names(&flaky))),
    };

    // The sweep: every single edit, location by location in rank order.
    let ranks = group.ranks();
    let ranked = Ranked {
        locations: &locations,
        ranks: &ranks,
    };
    let swept = timed(&mut timings, "sweep", || {
        let (evaluator, deadline) = (&mut *evaluator, sweep_ends(deadline, settings));
        sweep_with_progress(
            &mutator, ranked, evaluator, &model, deadline, console, budget,
        )
    })?;

    let choose = |plausible: &[Scored]| {
        rank_plausible(
            plausible, baseline, &model, crash, settings, deadline, budget,
        )
    };
    let mut alternatives = Vec::new();
    let swept_best = || swept.best.clone().unwrap_or_else(|| original(&model));
    let (mut best, stop, search_result) = match swept.stop {
        SweepStop::Found => {
            alternatives = timed(&mut timings, "choose", || choose(&swept.plausible))?;
            (alternatives[0].scored.clone(), Stop::Found, None)
        }
        // Stopped, with no time for the genetic search.
        SweepStop::Interrupted => (swept_best(), Stop::Interrupted, None),
        SweepStop::TimeLimit if budget.ended() => (swept_best(), Stop::TimeLimit, None),
        _ if !settings.genetic => (swept_best(), Stop::Generations, None),
        SweepStop::Exhausted | SweepStop::TimeLimit => {
            let seed = settings.seed.wrapping_add(index as u64);
            let mut rng = StdRng::seed_from_u64(seed);
            let seeds = critical_seeds(&mutator, group, &mut rng);
            let search_settings = search_settings(seeds, &swept, settings, deadline, budget);
            let (result, seconds) = genetic_search(
                &mut mutator,
                &mut *evaluator,
                &model,
                &search_settings,
                &mut rng,
                console,
                seed,
            )?;
            timings.insert("search", seconds);
            (result.best.clone(), result.stop, Some(result))
        }
    };
    let mut patch = if stop == Stop::Found {
        evaluator.set_cutoff(None);
        let evaluator = &mut *evaluator;
        let reduced = || reduce(&best.candidate, evaluator, &model, console, budget);
        Some(timed(&mut timings, "reduce", reduced)?)
    } else {
        None
    };
    if let (Some(_), Some(found)) = (&search_result, &patch) {
        let at = (&mutator, &ranks, &model);
        let evaluator = &mut *evaluator;
        let chosen = timed(&mut timings, "choose", || {
            let singles = single_edits_where(found, at, evaluator, deadline, console, budget)?;
            (!singles.is_empty()).then(|| choose(&singles)).transpose()
        })?;
        if let Some(chosen) = chosen {
            alternatives = chosen;
            best = alternatives[0].scored.clone();
            patch = Some(best.candidate.clone());
        }
    }
    let never_passed = never_passed(search_result.as_ref(), stop, &model, &swept);
    let (ranking_before, ranking_after) = rankings(group, &mutator, sources);
    let of = Reported { originals, group };
    Ok(StageOutcome::Searched(Box::new(Stage {
        description: group.group.description.clone(),
        tests: baseline.suite.full_names(&group.group.tests),
        patched: patch.as_ref().map(|c| of.files(c)).unwrap_or_default(),
        unreduced: of.files(&best.candidate),
        runners_up: of.runners_up(&alternatives),
        edits: patch.as_ref().map(|c| of.edits(c)).unwrap_or_default(),
        patch,
        counts: evaluator.counts(),
        evaluation: evaluator.stats(),
        flaky: baseline.suite.full_names(&flaky),
        never_passed: baseline.suite.full_names(&never_passed),
        chosen: 0,
        alternatives: alternatives.iter().map(|a| of.plausible(a)).collect(),
        sweep: swept,
        search: search_result,
        best,
        stop,
        ranking_before,
        ranking_after,
        timings,
    })))
}

/// An evaluator ready for a group, its fitness model and the tests found
/// flaky.
type Evaluating = (Box<dyn PreparedEvaluator>, FitnessModel, Vec<TestId>);

/// The group's evaluator, its fitness model and the tests found flaky,
/// the first batch of the sweep (`sweep_at`: its mutator and locations)
/// judged in the preparation's build; for the `first_stage`, with the
/// outcomes of its edits that shards evaluated already (given to none).
/// `Err` with the flaky tests when every failing test of the group is
/// flaky.
fn evaluator_for(
    baseline: &Baseline,
    group: &GroupRanking,
    sweep_at: (&Mutator, &[Location]),
    first_stage: bool,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Result<Evaluating, Vec<TestId>>> {
    let (mutator, locations) = sweep_at;
    let shards = settings.shards.as_ref().filter(|_| first_stage);
    let first = match shards {
        Some(_) => Vec::new(),
        None => first_batch(mutator, locations),
    };
    let tests = &group.group.tests;
    let evaluation = &settings.evaluation;
    let (mut evaluator, model, flaky) = match prepare(
        baseline,
        tests,
        &first,
        settings.weights,
        evaluation,
        console,
        budget,
    )? {
        Prepared::Ready {
            evaluator,
            model,
            flaky,
        } => (evaluator, model, flaky),
        Prepared::AllFlaky { flaky } => return Ok(Err(flaky)),
    };
    if let Some(shards) = shards {
        let known = known_outcomes(shards, &enumerate(mutator, locations), baseline)?;
        let merged = format!("{} outcomes of single edits", known.len());
        console.status("Merging", format!("{merged} from {} shards", shards.len()));
        evaluator = Box::new(Known::wrap(evaluator, Arc::new(known)));
    }
    Ok(Ok((evaluator, model, flaky)))
}

/// Runs a step, recording its seconds under `name`.
fn timed<T>(
    timings: &mut BTreeMap<&'static str, f64>,
    name: &'static str,
    step: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let started = Instant::now();
    let value = step()?;
    timings.insert(name, started.elapsed().as_secs_f64());
    Ok(value)
}

/// The genetic search's settings: its seeds are the critical predicates'
/// edits and the sweep's partial fixes, and it starts from what the sweep
/// learned about locations and operators.
fn search_settings(
    mut seeds: Vec<Candidate>,
    swept: &Swept,
    settings: &Settings,
    deadline: Option<Instant>,
    budget: Budget,
) -> SearchSettings {
    let partial = swept.partial.iter().take(settings.population);
    seeds.extend(partial.map(|s| s.candidate.clone()));
    SearchSettings {
        population: settings.population,
        generations: settings.generations,
        time_limit: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        seeds,
        feedback: settings.feedback,
        learned: swept.feedback.clone(),
        budget,
        // Not one that broke everything (no best at all is reported then).
        best: swept.best.clone().filter(|b| b.fitness > 0.0),
    }
}

/// The failing tests no candidate made pass, in the sweep or the search
/// (none when a patch was found).
fn never_passed(
    search: Option<&SearchResult>,
    stop: Stop,
    model: &FitnessModel,
    swept: &Swept,
) -> Vec<TestId> {
    let failing = match search {
        Some(search) => &search.never_passed,
        None if stop == Stop::Found => return Vec::new(),
        None => &model.originally_failing,
    };
    let failing = failing.iter().copied();
    failing.filter(|t| !swept.passed.contains(t)).collect()
}

/// The group's ten first lines before the stage, and the ten the stage's
/// location weights put first after it (each with its rank before, 0 when
/// unranked).
fn rankings(
    group: &GroupRanking,
    mutator: &Mutator,
    sources: &CrateSources,
) -> (Vec<String>, Vec<(String, usize)>) {
    let before = group.suspects.iter().take(10);
    let before = before.map(|s| sources.display(s.location)).collect();
    let mut after: Vec<(Location, f64)> = mutator
        .weights()
        .map(|(location, _, weight)| (location, weight))
        .collect();
    after.sort_by(|a, b| b.1.total_cmp(&a.1));
    let after = after.iter().take(10);
    let after = after.map(|&(location, _)| (sources.display(location), group.rank_of(location)));
    (before, after.collect())
}

/// The group's ranking, with `--in-diff` only its suspects on changed lines.
pub fn in_diff_only<'g>(
    group: &'g GroupRanking,
    settings: &Settings,
    baseline: &Baseline,
) -> Cow<'g, GroupRanking> {
    match &settings.in_diff {
        Some(changed) => Cow::Owned(group.only_at(&baseline.sources.locations_in(changed))),
        None => Cow::Borrowed(group),
    }
}

/// What a stage's edits are made from: the crate's mutation sites, its
/// original text, and what the compiler says about types at the
/// suspicious locations.
pub struct Ground {
    pub space: MutationSpace,
    pub originals: Originals,
    pub types: Types,
    pub types_seconds: f64,
}

impl Ground {
    pub fn of(
        baseline: &Baseline,
        group: &GroupRanking,
        settings: &Settings,
        console: &Console,
        budget: Budget,
    ) -> Result<Ground> {
        let space = space_of(baseline, &settings.exclude);
        let suspicious = suspicious_locations(&group.suspects);
        let types_started = Instant::now();
        let types = infer_types(baseline, &space, &suspicious, &settings.evaluation, budget)?;
        let types_seconds = types_started.elapsed().as_secs_f64();
        let (variables, operands) = types.counts();
        console.detail(
            "Typed",
            format!(
                "{variables} variables and {operands} operands at {} locations ({types_seconds:.1} s)",
                suspicious.len()
            ),
        );
        Ok(Ground {
            space,
            originals: baseline.sources.originals(),
            types,
            types_seconds,
        })
    }

    /// The mutator for `group`, weighted by its suspects.
    pub fn mutator(&self, group: &GroupRanking, settings: &Settings) -> Mutator<'_> {
        mutator(
            &self.space,
            &self.originals,
            &self.types,
            &group.suspects,
            &settings.operators,
        )
    }
}

/// The crash of `group` (one of `groups`) that guides the sweep and the
/// choice: only when the group is the only one, its crash explaining every
/// failure. Beside other groups that fail without it, a crash is more
/// often where a wrong value shows than where it is made (a divisor
/// passed swapped).
pub fn guiding_crash(group: &GroupRanking, groups: usize) -> Option<&Crash> {
    group.crash.as_ref().filter(|_| groups == 1)
}

/// The locations the sweep visits: the group's suspects the mutator can
/// edit, in rank order; but first the line of the guiding `crash` (see
/// [`guiding_crash`]), if its panic calls for a kind of edit there (an
/// index out of bounds, an overflow, an unwrap of nothing, a division by
/// zero: see `answer::fixes`), then those where a variable the compiler
/// warns is unused is in scope (in rank order too). A crash line swept
/// first makes the sweep go on through every line ranked as high as it
/// (see `sweep::TIED`), so the choice weighs the crash's answer against
/// them.
pub fn sweep_locations(
    mutator: &Mutator,
    group: &GroupRanking,
    crash: Option<&Crash>,
) -> Vec<Location> {
    let weighed: BTreeSet<Location> = mutator.weights().map(|(l, _, _)| l).collect();
    let crashed = crash
        .filter(|crash| !fixes(crash.kind).is_empty())
        .map(|crash| crash.location);
    let (warned, rest): (Vec<Location>, Vec<Location>) = group
        .suspects
        .iter()
        .map(|s| s.location)
        .filter(|l| weighed.contains(l) && Some(*l) != crashed)
        .partition(|&l| mutator.has_unused_in_scope(l));
    let crashed = crashed.filter(|l| weighed.contains(l));
    crashed.into_iter().chain(warned).chain(rest).collect()
}

/// Candidates as a stage reports them: the files they change and their
/// edits, each with the rank of its line in the group.
struct Reported<'a> {
    originals: &'a Originals,
    group: &'a GroupRanking,
}

impl Reported<'_> {
    /// The files a candidate changes (paths and patched texts).
    fn files(&self, candidate: &Candidate) -> BTreeMap<PathBuf, String> {
        let texts = candidate.texts(self.originals).into_iter();
        texts
            .map(|(file, text)| (self.originals.path(file).to_path_buf(), text))
            .collect()
    }

    /// Each edit of a candidate.
    fn edits(&self, candidate: &Candidate) -> Vec<EditDescription> {
        let edits = candidate.edits().iter();
        edits
            .map(|e| EditDescription {
                file: self.originals.path(e.file).to_path_buf(),
                line: e.line,
                operator: e.operator,
                replacement: e.edit.text.clone(),
                rank: self.group.rank_of(e.location()),
                against_zero: e.operator == Operator::Binary
                    && starts_with_zero(&self.originals.text(e.file)[e.edit.range.end..]),
            })
            .collect()
    }

    /// The plausible patches after the chosen one, as many as the report
    /// shows.
    fn runners_up(&self, alternatives: &[Alternative]) -> Vec<RunnerUp> {
        let after = alternatives.iter().skip(1).take(RUNNERS_UP);
        after.map(|a| self.runner_up(a)).collect()
    }

    fn runner_up(&self, alternative: &Alternative) -> RunnerUp {
        let candidate = alternative.scored.candidate.clone();
        RunnerUp {
            edits: self.edits(&candidate),
            files: self.files(&candidate),
            candidate,
        }
    }

    fn plausible(&self, alternative: &Alternative) -> Plausible {
        Plausible {
            edits: self.edits(&alternative.scored.candidate),
            measures: alternative.measures.clone(),
        }
    }
}

/// The unchanged crate as a scored candidate (what a search that tried
/// nothing has).
fn original(model: &FitnessModel) -> Scored {
    let outcome = CandidateOutcome::Tested(Vec::new());
    Scored {
        candidate: Candidate::original(),
        fitness: model.of_passed(&BTreeSet::new()),
        outcome,
    }
}

/// The genetic search, with its progress on the console; the result and
/// the seconds it took.
fn genetic_search(
    mutator: &mut Mutator,
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    settings: &SearchSettings,
    rng: &mut StdRng,
    console: &Console,
    seed: u64,
) -> Result<(SearchResult, f64)> {
    console.status(
        "Searching",
        format!(
            "for a patch of several edits: at most {1} generations of {0} candidates (seed {seed})",
            settings.population, settings.generations
        ),
    );
    // Every generation in full is the most the search can try.
    let most = settings
        .population
        .saturating_mul(settings.generations.max(1));
    let bar = console.counter("Searching", most as u64, settings.budget);
    let (tried, compiled) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let started = Instant::now();
    let result = search(mutator, evaluator, model, settings, rng, &|progress| {
        match progress {
        Progress::Evaluated {
            generation,
            best_fitness,
            compiled: built,
        } => {
            let tried = tried.fetch_add(1, Ordering::SeqCst) + 1;
            let compiled =
                compiled.fetch_add(usize::from(built), Ordering::SeqCst) + usize::from(built);
            bar.set_position(tried as u64);
            bar.set_message(format!(
                "candidates ({}; {}% compiled) · generation {generation} · best fitness {best_fitness:.4}",
                rate(tried, started),
                percent(compiled, tried)
            ));
        }
        Progress::Generation {
            generation,
            best_fitness,
        } if console.verbose > 0 => bar.println(format!(
            "{:>12} {generation} scored: best fitness {best_fitness:.4}, {} candidates tried so far",
            "Generation",
            tried.load(Ordering::SeqCst)
        )),
        Progress::Generation { .. } => {}
    }
    })?;
    Ok((result, started.elapsed().as_secs_f64()))
}

/// When the sweep, starting now, gives way to the genetic search: after
/// [`SWEEP_SHARE`] of the time left (the type probes and the first build,
/// slow on a large crate, do not eat into it); with no genetic search to
/// follow, at the deadline.
fn sweep_ends(deadline: Option<Instant>, settings: &Settings) -> Option<Instant> {
    let now = Instant::now();
    let share = if settings.genetic { SWEEP_SHARE } else { 1.0 };
    deadline.map(|d| now + d.saturating_duration_since(now).mul_f64(share))
}

/// Condition mutations at the group's critical predicates, tried first:
/// the failure depends on which way they go.
fn critical_seeds(mutator: &Mutator, group: &GroupRanking, rng: &mut StdRng) -> Vec<Candidate> {
    let mut seeds = Vec::new();
    for &location in &group.critical {
        for _ in 0..4 {
            if let Some(edit) = mutator.mutation_at(rng, location, Operator::Condition) {
                let seed = Candidate::original().with(edit);
                if !seeds.contains(&seed) {
                    seeds.push(seed);
                }
            }
        }
    }
    seeds
}

/// A mutator over `space` that weighs each location by its suspiciousness:
/// the spectrum score, doubled in the slice of every failing run, tripled
/// for a critical predicate.
pub fn mutator<'a>(
    space: &'a MutationSpace,
    originals: &'a Originals,
    types: &'a Types,
    suspects: &[Suspect],
    operators: &[Operator],
) -> Mutator<'a> {
    let weight: HashMap<Location, f64> = suspects
        .iter()
        .map(|s| {
            let boost = (1.0 + f64::from(u8::from(s.in_slice)))
                * (1.0 + 2.0 * f64::from(u8::from(s.critical)));
            (s.location, s.score * boost)
        })
        .collect();
    Mutator::new(space, originals, types, operators, |location| {
        weight.get(&location).copied().unwrap_or(0.0)
    })
}

/// ddmin over the candidate's edits, keeping only what every test needs.
pub fn reduce(
    candidate: &Candidate,
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    console: &Console,
    budget: Budget,
) -> Result<Candidate> {
    if candidate.len() <= 1 {
        return Ok(candidate.clone());
    }
    let spinner = console.spinner("Reducing");
    spinner.set_message(format!(
        "{} edits to the ones every test needs",
        candidate.len()
    ));
    // Each round's subsets as one batch: one woven build for many.
    let reduced = dd::ddmin_batched(candidate.len(), |subsets| {
        let batch: Vec<Candidate> = subsets.iter().map(|s| candidate.subset(s)).collect();
        let outcomes = evaluator.evaluate(&batch, budget, &|_, _| {})?;
        Ok::<_, Error>(outcomes.iter().map(|o| classify(o, model)).collect())
    });
    let reduced = match reduced {
        // Stopped: the candidate as found (it passes every test).
        Err(Error::Halt(_)) => return Ok(candidate.clone()),
        Err(error) => return Err(error),
        Ok(reduced) => reduced.map_err(|_| {
            anyhow::anyhow!("the best candidate no longer passes every test when evaluated again")
        })?,
    };
    Ok(candidate.subset(&reduced))
}

/// ddmin's view of an outcome: "failing" (the property to keep) is "every test passes".
fn classify(outcome: &CandidateOutcome, model: &FitnessModel) -> Outcome {
    match outcome {
        CandidateOutcome::Unviable(_) => Outcome::Unresolved,
        CandidateOutcome::Tested(verdicts)
            if verdicts.iter().any(|(_, v)| *v == Verdict::TimedOut) =>
        {
            Outcome::Unresolved
        }
        tested if tested.passes_all(model) => Outcome::Fail,
        _ => Outcome::Pass,
    }
}

/// `part` as a whole percentage of `whole` (0 for nothing).
pub fn percent(part: usize, whole: usize) -> usize {
    (part * 100).checked_div(whole).unwrap_or(0)
}
