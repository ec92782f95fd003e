//! One stage of the repair: the search for a patch that makes one failure
//! group's failing tests pass and keeps every passing test green, and the
//! reduction of the patch found to its essential edits (ddmin).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::Result;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::baseline::Baseline;
use crate::cargo::suite::Verdict;
use crate::code::crate_sources::Originals;
use crate::code::source::Location;
use crate::dd::{self, Outcome};
use crate::evaluate::fitness::FitnessModel;
use crate::evaluate::setup::{Prepared, prepare};
use crate::evaluate::{CandidateOutcome, EvaluationCounts, Evaluator, EvaluatorStats};
use crate::localize::GroupRanking;
use crate::localize::spectrum::Suspect;
use crate::mutation::mutator::Mutator;
use crate::mutation::patch::{Candidate, Operator};
use crate::mutation::sites::{MutationSpace, collect_mutation_space};
use crate::repair::search::{Progress, SearchResult, SearchSettings, Stop, search};
use crate::repair::settings::Settings;
use crate::system::console::Console;

/// What a stage did.
#[derive(Debug)]
pub enum StageOutcome {
    /// The search ran (it may or may not have found a patch).
    Searched(Box<Stage>),
    /// Every failing test of the group is flaky (full names): nothing to fix.
    AllFlaky(Vec<String>),
}

/// A stage whose search ran.
#[derive(Debug)]
pub struct Stage {
    /// How the group's tests fail.
    pub description: String,
    /// The group's failing tests (full names).
    pub tests: Vec<String>,
    pub search: SearchResult,
    /// The reduced candidate that passes the stage's tests, if found.
    pub patch: Option<Candidate>,
    /// Its files (path, text), over the stage's crate.
    pub patched: BTreeMap<PathBuf, String>,
    /// The best candidate before reduction, as files.
    pub unreduced: BTreeMap<PathBuf, String>,
    pub counts: EvaluationCounts,
    pub evaluation: EvaluatorStats,
    pub flaky: Vec<String>,
    pub never_passed: Vec<String>,
    /// Each edit of the patch: file, line, operator, replacement.
    pub edits: Vec<(PathBuf, u32, Operator, String)>,
    /// The top locations by suspiciousness, and by the weights the search
    /// ended with (feedback), with their ranks before (0: unranked).
    pub ranking_before: Vec<String>,
    pub ranking_after: Vec<(String, usize)>,
    pub timings: BTreeMap<&'static str, f64>,
}

/// Stage `index` (its RNG is seeded with the seed plus the index): a search
/// for a patch for `group`, reduced with ddmin.
pub fn run_stage(
    baseline: &Baseline,
    group: &GroupRanking,
    settings: &Settings,
    console: &Console,
    deadline: Option<Instant>,
    index: usize,
) -> Result<StageOutcome> {
    let sources = &baseline.sources;
    let originals = sources.originals();
    let space = collect_mutation_space(sources, &settings.exclude);
    let mut mutator = mutator(&space, &originals, &group.suspects, &settings.operators);
    let (mut evaluator, model, flaky) = match prepare(
        baseline,
        &group.group.tests,
        settings.weights,
        &settings.evaluation,
        console,
    )? {
        Prepared::Ready {
            evaluator,
            model,
            flaky,
        } => (evaluator, model, flaky),
        Prepared::AllFlaky { flaky } => {
            return Ok(StageOutcome::AllFlaky(baseline.suite.full_names(&flaky)));
        }
    };
    let seed = settings.seed.wrapping_add(index as u64);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seeds = critical_seeds(&mutator, group, &mut rng);
    seeds.extend(
        mutator
            .neighbourhood(2 * settings.population)
            .into_iter()
            .map(|edit| Candidate::original().with(edit)),
    );
    let search_settings = SearchSettings {
        population: settings.population,
        generations: settings.generations,
        time_limit: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        seeds,
        feedback: settings.feedback,
    };
    console.status(
        "Searching",
        format!(
            "for a patch: population {}, at most {} generations, seed {seed}",
            search_settings.population, search_settings.generations
        ),
    );
    let spinner = console.spinner("Searching");
    let (tried, compiled) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let search_started = Instant::now();
    let result = search(
        &mut mutator,
        &mut *evaluator,
        &model,
        &search_settings,
        &mut rng,
        &|progress| {
            match progress {
            Progress::Evaluated {
                generation,
                best_fitness,
                compiled: built,
            } => {
                let tried = tried.fetch_add(1, Ordering::SeqCst) + 1;
                let compiled = compiled.fetch_add(usize::from(built), Ordering::SeqCst)
                    + usize::from(built);
                spinner.set_message(format!(
                    "generation {generation} · best fitness {best_fitness:.4} · {tried} candidates · {}% compiled",
                    percent(compiled, tried)
                ));
            }
            Progress::Generation {
                generation,
                best_fitness,
            } => spinner.println(format!(
                "{:>12} {generation} scored: best fitness {best_fitness:.4}, {} candidates tried so far",
                "Generation",
                tried.load(Ordering::SeqCst)
            )),
        }
        },
    )?;
    drop(spinner);
    let mut timings = BTreeMap::from([("search", search_started.elapsed().as_secs_f64())]);
    let patch = if result.stop == Stop::Found {
        evaluator.set_cutoff(None);
        let reduce_started = Instant::now();
        let reduced = reduce(&result.best.candidate, &mut *evaluator, &model, console)?;
        timings.insert("reduce", reduce_started.elapsed().as_secs_f64());
        Some(reduced)
    } else {
        None
    };
    let files_of = |candidate: &Candidate| -> BTreeMap<PathBuf, String> {
        candidate
            .texts(&originals)
            .into_iter()
            .map(|(file, text)| (originals.path(file).to_path_buf(), text))
            .collect()
    };
    let ranking_before: Vec<String> = group
        .suspects
        .iter()
        .take(10)
        .map(|s| sources.display(s.location))
        .collect();
    let mut after: Vec<(Location, f64)> = mutator
        .weights()
        .map(|(location, _, weight)| (location, weight))
        .collect();
    after.sort_by(|a, b| b.1.total_cmp(&a.1));
    let ranking_after = after
        .iter()
        .take(10)
        .map(|&(location, _)| {
            let before = group
                .suspects
                .iter()
                .find(|s| s.location == location)
                .map_or(0, |s| s.rank);
            (sources.display(location), before)
        })
        .collect();
    Ok(StageOutcome::Searched(Box::new(Stage {
        description: group.group.description.clone(),
        tests: baseline.suite.full_names(&group.group.tests),
        patched: patch.as_ref().map(files_of).unwrap_or_default(),
        unreduced: files_of(&result.best.candidate),
        edits: patch
            .iter()
            .flat_map(|c| c.edits())
            .map(|e| {
                let path = originals.path(e.file).to_path_buf();
                (path, e.line, e.operator, e.edit.text.clone())
            })
            .collect(),
        patch,
        counts: evaluator.counts(),
        evaluation: evaluator.stats(),
        flaky: baseline.suite.full_names(&flaky),
        never_passed: baseline.suite.full_names(&result.never_passed),
        search: result,
        ranking_before,
        ranking_after,
        timings,
    })))
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
    Mutator::new(space, originals, operators, |location| {
        weight.get(&location).copied().unwrap_or(0.0)
    })
}

/// ddmin over the candidate's edits, keeping only what every test needs.
fn reduce(
    candidate: &Candidate,
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    console: &Console,
) -> Result<Candidate> {
    if candidate.len() <= 1 {
        return Ok(candidate.clone());
    }
    let spinner = console.spinner("Reducing");
    spinner.set_message(format!(
        "{} edits to the ones every test needs",
        candidate.len()
    ));
    let error = RefCell::new(None);
    let reduced = dd::ddmin(candidate.len(), |subset| {
        if error.borrow().is_some() {
            return Outcome::Unresolved;
        }
        match evaluator.evaluate(&[candidate.subset(subset)], &|_| {}) {
            Ok(outcomes) => classify(&outcomes[0], model),
            Err(e) => {
                *error.borrow_mut() = Some(e);
                Outcome::Unresolved
            }
        }
    });
    if let Some(error) = error.into_inner() {
        return Err(error);
    }
    let reduced = reduced.map_err(|_| {
        anyhow::anyhow!("the best candidate no longer passes every test when evaluated again")
    })?;
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
