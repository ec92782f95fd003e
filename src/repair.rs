//! The repair: from the baseline and its ranking, search for a candidate
//! that passes every test, reduce it to its essential edits (ddmin),
//! validate it on a clean copy, and hand it over as a unified diff.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;

use crate::baseline::Baseline;
use crate::candidate::Candidate;
use crate::console::Console;
use crate::emit::{FileChange, unified_diff};
use crate::evaluate::rebuild::RebuildEvaluator;
use crate::evaluate::schema::SchemaEvaluator;
use crate::evaluate::{
    CandidateOutcome, Evaluator, EvaluatorStats, Originals, PreparedEvaluator, TestPlan,
};
use crate::exit::{Exit, Failure};
use crate::fitness::FitnessModel;
use crate::instrument::is_no_std;
use crate::localize::Suspect;
use crate::mutate::Mutator;
use crate::options::EvaluatorKind;
use crate::options::Options;
use crate::reduce::{self, Outcome};
use crate::search::{Progress, SearchResult, SearchSettings, Stop, search};
use crate::sites::{MutationSpace, collect_mutation_space};
use crate::suite::Verdict;
use crate::validate::{Validation, validate};

/// What the repair produced, for the product and the report.
struct Repair {
    search: SearchResult,
    evaluation: EvaluatorStats,
    /// The reduced, validated candidate, if any, with its diff.
    patch: Option<(Candidate, String)>,
    /// Why the best candidate was not emitted, if it passed the tests but failed validation.
    rejected: Option<String>,
    flaky: Vec<usize>,
    model: FitnessModel,
    candidates_evaluated: usize,
    candidates_compiled: usize,
    timings: BTreeMap<&'static str, f64>,
}

/// Searches for a patch; prints it (or writes `--output`); returns the exit code.
pub fn repair(
    baseline: &Baseline,
    suspects: &[Suspect],
    options: &Options,
    console: &Console,
    localized_in: Duration,
) -> Result<Exit> {
    let started = Instant::now();
    let space = mutation_space(baseline, options);
    let mutator = mutator(&space, baseline, suspects, options);

    let (mut evaluator, model, flaky) = prepare_evaluation(baseline, options, console)?;
    let mut rng = StdRng::seed_from_u64(options.search.seed);
    let settings = SearchSettings {
        population: options.search.population,
        generations: options.search.generations,
        time_limit: options
            .search
            .time_limit
            .map(|limit| limit.saturating_sub(localized_in)),
    };
    let tried = AtomicUsize::new(0);
    let compiled = AtomicUsize::new(0);
    console.status(
        "Searching",
        format!(
            "for a patch: population {}, at most {} generations, seed {}",
            settings.population, settings.generations, options.search.seed
        ),
    );
    let spinner = console.spinner("Searching");
    let search_started = Instant::now();
    let result = search(
        &mutator,
        &mut *evaluator,
        &model,
        &settings,
        &mut rng,
        &|progress| {
            match progress {
        Progress::Evaluated { generation, best_fitness, compiled: built } => {
            let tried = tried.fetch_add(1, Ordering::SeqCst) + 1;
            let compiled = compiled.fetch_add(usize::from(built), Ordering::SeqCst) + usize::from(built);
            spinner.set_message(format!(
                "generation {generation} · best fitness {best_fitness:.4} · {tried} candidates · {}% compiled",
                percent(compiled, tried)
            ));
        }
        Progress::Generation { generation, best_fitness } if !console.quiet => spinner.println(format!(
            "{:>12} {generation} scored: best fitness {best_fitness:.4}, {} candidates tried so far",
            "Generation",
            tried.load(Ordering::SeqCst)
        )),
        Progress::Generation { .. } => {}
    }
        },
    )?;
    drop(spinner);
    let mut timings = BTreeMap::from([
        ("localize", localized_in.as_secs_f64()),
        ("search", search_started.elapsed().as_secs_f64()),
    ]);

    if result.stop == Stop::Interrupted {
        report_interrupted(baseline, &result, console);
        return Err(Failure::interrupted().into());
    }
    let mut rejected = None;
    let mut patch = None;
    if result.stop == Stop::Found {
        let reduce_started = Instant::now();
        let reduced = reduce_candidate(&result.best.candidate, &mut *evaluator, &model, console)?;
        timings.insert("reduce", reduce_started.elapsed().as_secs_f64());
        let validate_started = Instant::now();
        let mut tries = vec![reduced];
        if tries[0] != result.best.candidate {
            tries.push(result.best.candidate.clone());
        }
        for candidate in tries {
            match validate_candidate(baseline, &candidate, &flaky, options, console)? {
                Ok(diff) => {
                    patch = Some((candidate, diff));
                    break;
                }
                Err(reason) => rejected = Some(reason),
            }
        }
        timings.insert("validate", validate_started.elapsed().as_secs_f64());
    }
    let counts = evaluator.counts();
    let repair = Repair {
        search: result,
        patch,
        rejected,
        flaky,
        model,
        candidates_evaluated: counts.built,
        candidates_compiled: counts.compiled,
        timings,
        evaluation: evaluator.stats(),
    };
    let elapsed = localized_in + started.elapsed();
    if let Some(path) = &options.report {
        let report = report_json(baseline, &repair, options, elapsed);
        std::fs::write(path, format!("{report:#}\n"))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    summarize(baseline, &repair, console, elapsed);
    match &repair.patch {
        Some((_, diff)) => {
            match &options.output {
                Some(path) => {
                    std::fs::write(path, diff)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    console.status(
                        "Wrote",
                        format!(
                            "the patch to {} (apply it with `git apply`)",
                            path.display()
                        ),
                    );
                }
                None => crate::write_stdout(diff)?,
            }
            Ok(Exit::Success)
        }
        None => Err(Failure::new(Exit::NoPatchFound, not_found_message(baseline, &repair)).into()),
    }
}

/// The mutation space of the baseline's crate, without the excluded code.
pub fn mutation_space(baseline: &Baseline, options: &Options) -> MutationSpace {
    collect_mutation_space(&baseline.sources, |file, function| {
        options.search.excludes(file, function)
    })
}

/// A mutator over `space` that weighs each location by its suspiciousness.
pub fn mutator<'a>(
    space: &'a MutationSpace,
    baseline: &'a Baseline,
    suspects: &[Suspect],
    options: &Options,
) -> Mutator<'a> {
    let sources = &baseline.sources;
    let score: HashMap<(&std::path::Path, u32), f64> = suspects
        .iter()
        .map(|s| ((s.location.file.as_path(), s.location.line), s.score))
        .collect();
    let texts: Vec<&str> = sources.files.iter().map(|f| f.text.as_str()).collect();
    Mutator::new(space, texts, &options.search.operators, |file, line| {
        score
            .get(&(sources.files[file].path.as_path(), line))
            .copied()
            .unwrap_or(0.0)
    })
}

/// Builds the evaluator (the one `--evaluator` names), runs the unchanged
/// crate on every build it uses, and derives the fitness model, leaving out
/// tests whose outcome changed between runs (flaky).
pub fn prepare_evaluation(
    baseline: &Baseline,
    options: &Options,
    console: &Console,
) -> Result<(Box<dyn PreparedEvaluator>, FitnessModel, Vec<usize>)> {
    let mut passed_before = vec![None; baseline.suite.tests.len()];
    for record in &baseline.records {
        passed_before[record.test] = Some(record.outcome.verdict.passed());
    }
    let plan =
        |failing: &[usize], passing: &[usize]| test_plan(baseline, failing, passing, options);
    let failing: Vec<usize> = baseline.failing().map(|r| r.test).collect();
    let passing: Vec<usize> = baseline
        .records
        .iter()
        .filter(|r| r.outcome.verdict.passed())
        .map(|r| r.test)
        .collect();
    let mut evaluator = build_evaluator(
        baseline,
        plan(&failing, &passing),
        options,
        options.evaluator,
    )?;
    let spinner = console.spinner("Preparing");
    spinner.set_message("scratch copies for the search (their first build takes longest)");
    let reruns = evaluator.baseline_runs()?;
    drop(spinner);
    let mut flaky = BTreeSet::new();
    for rerun in &reruns {
        match rerun {
            CandidateOutcome::Unviable(error) => {
                anyhow::bail!("the unchanged crate does not build in a scratch copy: {error}")
            }
            CandidateOutcome::Tested(verdicts) => {
                for (test, verdict) in verdicts {
                    if passed_before[*test] != Some(verdict.passed()) {
                        flaky.insert(*test);
                    }
                }
            }
        }
    }
    let flaky: Vec<usize> = flaky.into_iter().collect();
    if !flaky.is_empty() {
        let names: Vec<&str> = flaky
            .iter()
            .map(|&t| baseline.suite.tests[t].id.as_str())
            .collect();
        console.warn(format!(
            "flaky tests (a different outcome on a re-run) are left out of the fitness: {}",
            names.join(", ")
        ));
    }
    let keep = |tests: &[usize]| -> Vec<usize> {
        tests
            .iter()
            .copied()
            .filter(|t| !flaky.contains(t))
            .collect()
    };
    let (failing, passing) = (keep(&failing), keep(&passing));
    if failing.is_empty() {
        return Err(Failure::new(
            Exit::NothingToLocalize,
            "nothing to repair: every failing test is flaky",
        )
        .into());
    }
    evaluator.set_plan(plan(&failing, &passing));
    let model = FitnessModel {
        weight_passing: options.search.weight_passing,
        weight_failing: options.search.weight_failing,
        originally_passing: passing.into_iter().collect(),
        originally_failing: failing.into_iter().collect(),
    };
    Ok((evaluator, model, flaky))
}

/// An evaluator of `kind` for the baseline's crate, running tests by `plan`.
pub fn build_evaluator(
    baseline: &Baseline,
    plan: TestPlan,
    options: &Options,
    kind: EvaluatorKind,
) -> Result<Box<dyn PreparedEvaluator>> {
    let sources = &baseline.sources;
    let originals: Originals = sources
        .files
        .iter()
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();
    let suite = baseline.suite.clone();
    let rebuild = RebuildEvaluator::new(
        &baseline.workspace,
        originals.clone(),
        suite.clone(),
        plan,
        options.features.clone(),
        options.jobs,
    )?;
    Ok(match kind {
        EvaluatorKind::Rebuild => Box::new(rebuild),
        EvaluatorKind::Schema => {
            let roots = sources
                .roots
                .iter()
                .map(|&r| (r, is_no_std(&sources.files[r].syntax)))
                .collect();
            Box::new(SchemaEvaluator::new(
                &baseline.workspace,
                rebuild,
                originals,
                roots,
                suite,
                options.features.clone(),
                options.jobs,
            )?)
        }
    })
}

/// The plan for running `failing` first, then `passing`, with each test's
/// baseline duration and coverage.
pub fn test_plan(
    baseline: &Baseline,
    failing: &[usize],
    passing: &[usize],
    options: &Options,
) -> TestPlan {
    let tests = baseline.suite.tests.len();
    let mut durations = vec![None; tests];
    let mut coverage = vec![BTreeSet::new(); tests];
    for record in &baseline.records {
        if record.outcome.verdict != Verdict::TimedOut {
            durations[record.test] = Some(record.outcome.duration);
        }
        coverage[record.test] = record.lines.clone();
    }
    TestPlan::new(
        failing.to_vec(),
        passing.to_vec(),
        durations,
        coverage,
        options.jobs,
        options.test_timeout,
    )
}

/// ddmin over the candidate's edits, keeping only what every test needs.
fn reduce_candidate(
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
    let reduced = reduce::ddmin(candidate.len(), |subset| {
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

/// Validates a candidate on a clean copy; on success, its diff.
fn validate_candidate(
    baseline: &Baseline,
    candidate: &Candidate,
    flaky: &[usize],
    options: &Options,
    console: &Console,
) -> Result<Result<String, String>> {
    let sources = &baseline.sources;
    let originals: Vec<&str> = sources.files.iter().map(|f| f.text.as_str()).collect();
    let texts = candidate.texts(&originals);
    let changes: Vec<(PathBuf, String)> = texts
        .iter()
        .map(|(&file, text)| (sources.files[file].path.clone(), text.clone()))
        .collect();
    let flaky_names: BTreeSet<String> = flaky
        .iter()
        .map(|&t| baseline.suite.tests[t].name.clone())
        .collect();
    let total: Duration = baseline.records.iter().map(|r| r.outcome.duration).sum();
    let timeout = Duration::from_secs(300) + total * 10;
    let spinner = console.spinner("Validating");
    spinner.set_message(format!(
        "the patch ({} edits) with cargo test on a clean copy",
        candidate.len()
    ));
    let validation = validate(
        &baseline.workspace,
        &changes,
        &options.features,
        &flaky_names,
        timeout,
    )?;
    drop(spinner);
    Ok(match validation {
        Validation::Passed => {
            let files: Vec<FileChange> = changes
                .iter()
                .map(|(path, patched)| FileChange {
                    path,
                    original: &sources
                        .file(path)
                        .expect("a changed file is a crate file")
                        .text,
                    patched,
                })
                .collect();
            Ok(unified_diff(&files))
        }
        Validation::Failed(reason) => {
            console.warn(format!(
                "a candidate that passed every test failed validation: {reason}"
            ));
            Err(reason)
        }
    })
}

fn test_ids(baseline: &Baseline, tests: impl IntoIterator<Item = usize>) -> Vec<String> {
    tests
        .into_iter()
        .map(|t| baseline.suite.tests[t].id.clone())
        .collect()
}

fn summarize(baseline: &Baseline, repair: &Repair, console: &Console, elapsed: Duration) {
    let share = percent(repair.candidates_compiled, repair.candidates_evaluated);
    let operators: Vec<String> = repair
        .search
        .operators
        .iter()
        .map(|(operator, counts)| format!("{operator} {}/{}", counts.compiled, counts.tried))
        .collect();
    console.status(
        "Operators",
        format!("{} (compiled/tried)", operators.join(", ")),
    );
    console.status(
        "Tried",
        format!(
            "{} candidates in {} generations ({share}% compiled), {:.1} s",
            repair.candidates_evaluated,
            repair.search.generations,
            elapsed.as_secs_f64()
        ),
    );
    if let Some((candidate, _)) = &repair.patch {
        let fixed = test_ids(baseline, repair.model.originally_failing.iter().copied());
        console.status("Fixed", abbreviate(&fixed));
        console.status(
            "Plausible",
            format!(
                "a patch of {} edit{} that passes every test it was given (cargo test, doctests included); review it before you apply it",
                candidate.len(),
                if candidate.len() == 1 { "" } else { "s" }
            ),
        );
    }
}

fn not_found_message(baseline: &Baseline, repair: &Repair) -> String {
    let search = &repair.search;
    let why = match (&repair.rejected, search.stop) {
        (Some(reason), _) => {
            format!("the best candidate passed the tests but not validation ({reason})")
        }
        (None, Stop::NothingToMutate) => "no suspicious code could be mutated".to_string(),
        (None, Stop::TimeLimit) => "the time limit was reached".to_string(),
        _ => "the generation budget was spent".to_string(),
    };
    let never = test_ids(baseline, search.never_passed.iter().copied());
    let never = if never.is_empty() {
        String::new()
    } else {
        format!("; never passed: {}", never.join(", "))
    };
    format!(
        "no patch found: {why} after {} generations and {} candidates ({}% compiled), best fitness {:.4}{never}",
        search.generations,
        repair.candidates_evaluated,
        percent(repair.candidates_compiled, repair.candidates_evaluated),
        search.best.fitness
    )
}

fn report_interrupted(baseline: &Baseline, result: &SearchResult, console: &Console) {
    console.warn(format!(
        "interrupted after {} generations; the best candidate so far has fitness {:.4} and is not validated",
        result.generations, result.best.fitness
    ));
    let sources = &baseline.sources;
    let originals: Vec<&str> = sources.files.iter().map(|f| f.text.as_str()).collect();
    let texts = result.best.candidate.texts(&originals);
    let files: Vec<FileChange> = texts
        .iter()
        .map(|(&file, text)| FileChange {
            path: &sources.files[file].path,
            original: originals[file],
            patched: text,
        })
        .collect();
    if !files.is_empty() {
        eprint!("{}", unified_diff(&files));
    }
}

/// The first few names, and how many more there are.
fn abbreviate(names: &[String]) -> String {
    const SHOWN: usize = 5;
    match names.len().checked_sub(SHOWN) {
        Some(more) if more > 0 => format!("{} and {more} more", names[..SHOWN].join(", ")),
        _ => names.join(", "),
    }
}

fn percent(part: usize, whole: usize) -> usize {
    (part * 100).checked_div(whole).unwrap_or(0)
}

fn report_json(
    baseline: &Baseline,
    repair: &Repair,
    options: &Options,
    elapsed: Duration,
) -> serde_json::Value {
    let search = &repair.search;
    let operators: serde_json::Map<String, serde_json::Value> = search
        .operators
        .iter()
        .map(|(operator, counts)| {
            (
                operator.name().to_string(),
                json!({"tried": counts.tried, "compiled": counts.compiled}),
            )
        })
        .collect();
    let (fitness, edits) = match &repair.patch {
        Some((candidate, _)) => (1.0, Some(candidate)),
        None => (search.best.fitness, None),
    };
    let edits: Vec<serde_json::Value> = edits
        .map(|c| c.edits())
        .unwrap_or_default()
        .iter()
        .map(|e| {
            json!({
                "file": baseline.sources.files[e.file].path.to_string_lossy(),
                "line": e.location,
                "operator": e.operator.name(),
                "replacement": e.edit.text,
            })
        })
        .collect();
    json!({
        "outcome": if repair.patch.is_some() { "fixed" } else { "not_fixed" },
        "fitness": fitness,
        "candidates_evaluated": repair.candidates_evaluated,
        "candidates_compiled": repair.candidates_compiled,
        "elapsed_seconds": elapsed.as_secs_f64(),
        "generations": search.generations,
        "patch": repair.patch.as_ref().map(|(_, diff)| diff),
        "fixed_tests": if repair.patch.is_some() { test_ids(baseline, repair.model.originally_failing.iter().copied()) } else { Vec::new() },
        "never_passed": test_ids(baseline, search.never_passed.iter().copied()),
        "flaky_tests": test_ids(baseline, repair.flaky.iter().copied()),
        "edits": edits,
        "operators": operators,
        "rejected_by_validation": repair.rejected,
        "seed": options.search.seed,
        "population": options.search.population,
        "metric": options.metric.name(),
        "timings_seconds": repair.timings,
        "evaluation": {
            "strategy": repair.evaluation.strategy,
            "builds": repair.evaluation.builds,
            "woven": repair.evaluation.woven,
            "separate": repair.evaluation.separate,
            "build_seconds": repair.evaluation.build_seconds,
            "test_seconds": repair.evaluation.test_seconds,
        },
    })
}
