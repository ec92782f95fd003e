//! The repair: for each failure group in turn, search for a candidate that
//! makes its failing tests pass and keeps every passing test green, reduce
//! it to its essential edits (ddmin), and, while groups remain, re-localize
//! the remaining failures on the crate with the patch so far. Then validate
//! the combined patch on a clean copy and hand it over as a unified diff.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;

use crate::baseline::{self, Baseline};
use crate::candidate::Candidate;
use crate::console::Console;
use crate::emit::{FileChange, unified_diff};
use crate::evaluate::rebuild::RebuildEvaluator;
use crate::evaluate::schema::SchemaEvaluator;
use crate::evaluate::{
    CandidateOutcome, EvaluationCounts, Evaluator, EvaluatorStats, Originals, PreparedEvaluator,
    TestPlan,
};
use crate::exit::{Exit, Failure};
use crate::fitness::FitnessModel;
use crate::instrument::is_no_std;
use crate::localize::Suspect;
use crate::mutate::{Mutator, Operator};
use crate::options::{EvaluatorKind, Options};
use crate::reduce::{self, Outcome};
use crate::refine::{GroupRanking, Localization, localize};
use crate::search::{OperatorCounts, Progress, SearchResult, SearchSettings, Stop, search};
use crate::sites::{MutationSpace, collect_mutation_space};
use crate::source::Location;
use crate::suite::Verdict;
use crate::validate::{Validation, validate};

/// One stage of the repair: the search for one failure group's patch.
struct Stage {
    signature: String,
    /// The group's failing tests (ids).
    tests: Vec<String>,
    search: SearchResult,
    /// The reduced candidate that passes the stage's tests, if found.
    patch: Option<Candidate>,
    /// Its files (path, text), over the stage's crate.
    patched: BTreeMap<PathBuf, String>,
    /// The best candidate before reduction, as files.
    unreduced: BTreeMap<PathBuf, String>,
    counts: EvaluationCounts,
    evaluation: EvaluatorStats,
    flaky: Vec<String>,
    never_passed: Vec<String>,
    /// Each edit of the patch: file, line, operator, replacement.
    edits: Vec<(String, u32, Operator, String)>,
    /// The top locations by suspiciousness, and by the weights the search
    /// ended with (feedback), with their ranks before.
    ranking_before: Vec<String>,
    ranking_after: Vec<(String, usize)>,
    timings: BTreeMap<&'static str, f64>,
}

/// Searches for a patch, group by group; prints it (or writes `--output`)
/// if the combined patch passes validation; returns the exit code.
pub fn repair(
    baseline: &Baseline,
    localization: &Localization,
    options: &Options,
    console: &Console,
    localized_in: Duration,
) -> Result<Exit> {
    let started = Instant::now();
    let deadline = options
        .search
        .time_limit
        .map(|limit| started + limit.saturating_sub(localized_in));
    let user_files: BTreeMap<PathBuf, String> = baseline
        .sources
        .files
        .iter()
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();
    let mut patched: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut stages: Vec<Stage> = Vec::new();
    // A stage fixes at least one group, so this many stages fix them all
    // (unless a fixed group's tests fail again: then stop).
    let most_stages = localization.groups.len();
    let mut relocalized: Option<(Baseline, Localization)> = None;
    // Tests of groups that failed only by flakiness (left out, not repaired).
    let mut flaky_groups: BTreeSet<String> = BTreeSet::new();
    let mut complete = false;
    // Why the repair stopped after a stage that found its patch.
    let mut cut_short: Option<&str> = None;
    loop {
        let (stage_baseline, stage_localization) = match &relocalized {
            Some((b, l)) => (b, l),
            None => (baseline, localization),
        };
        let remaining: Vec<&GroupRanking> = stage_localization
            .groups
            .iter()
            .filter(|g| {
                !stage_baseline
                    .test_ids(&g.group.tests)
                    .iter()
                    .all(|t| flaky_groups.contains(t))
            })
            .collect();
        let Some(&group) = remaining.first() else {
            complete = true;
            break;
        };
        if remaining.len() > 1 || !stages.is_empty() {
            console.status(
                "Repairing",
                format!(
                    "failure group {} ({}): {}",
                    stages.len() + 1,
                    group.group.tests.len(),
                    group.group.signature
                ),
            );
        }
        let stage = match search_stage(
            stage_baseline,
            group,
            options,
            console,
            deadline,
            stages.len(),
        ) {
            Ok(stage) => stage,
            Err(error) if Failure::is(&error, Exit::NothingToLocalize) => {
                // Every failing test of the group is flaky: on to the next.
                flaky_groups.extend(stage_baseline.test_ids(&group.group.tests));
                continue;
            }
            Err(error) => return Err(error),
        };
        if stage.search.stop == Stop::Interrupted {
            report_interrupted(&user_files, &patched, &stage, console);
            return Err(Failure::interrupted().into());
        }
        let found = stage.patch.is_some();
        patched.extend(stage.patched.clone());
        let last_group = remaining.len() == 1;
        stages.push(stage);
        if !found {
            break;
        }
        if last_group {
            complete = true;
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            cut_short = Some("the time limit was reached");
            break;
        }
        if stages.len() >= most_stages {
            cut_short = Some("as many stages ran as there were failure groups at the start");
            break;
        }
        console.status(
            "Localizing",
            "the remaining failures again, on the crate with the patch so far",
        );
        match baseline::establish(stage_baseline.workspace.clone(), options, console, &patched) {
            Ok(next) => {
                let next_localization = localize(&next, options, console)?;
                relocalized = Some((next, next_localization));
            }
            Err(error) if Failure::is(&error, Exit::NothingToLocalize) => {
                complete = true;
                break;
            }
            Err(error) => return Err(error),
        }
    }
    if stages.is_empty() {
        return Err(Failure::new(
            Exit::NothingToLocalize,
            "nothing to repair: every failing test is flaky",
        )
        .into());
    }
    let mut flaky = flaky_groups;
    flaky.extend(stages.iter().flat_map(|s| s.flaky.iter().cloned()));

    // Validate the combined patch (falling back, for a one-stage repair, to
    // the unreduced candidate).
    let mut rejected = None;
    let mut diff = None;
    if complete {
        let validate_started = Instant::now();
        let mut tries = vec![patched.clone()];
        if let [only] = stages.as_slice()
            && only.unreduced != only.patched
        {
            tries.push(only.unreduced.clone());
        }
        for files in tries {
            match validate_files(baseline, &user_files, &files, &flaky, options, console)? {
                Ok(text) => {
                    diff = Some(text);
                    break;
                }
                Err(reason) => rejected = Some(reason),
            }
        }
        if let Some(stage) = stages.last_mut() {
            stage
                .timings
                .insert("validate", validate_started.elapsed().as_secs_f64());
        }
    }
    // Groups fixed before the search stopped: their patch, unvalidated.
    let partial = (!complete && !patched.is_empty()).then(|| diff_of(&user_files, &patched));
    let fixed_tests: Vec<String> = if diff.is_some() {
        baseline
            .failing()
            .map(|r| baseline.suite.tests[r.test].id.clone())
            .filter(|id| !flaky.contains(id))
            .collect()
    } else {
        Vec::new()
    };
    let elapsed = localized_in + started.elapsed();
    if let Some(path) = &options.report {
        let report = report_json(
            &stages,
            &Ending {
                patch: diff.as_deref(),
                partial_patch: partial.as_deref(),
                fixed_tests: &fixed_tests,
                flaky: &flaky,
                rejected: rejected.as_deref(),
            },
            options,
            localized_in,
            elapsed,
        );
        std::fs::write(path, format!("{report:#}\n"))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    summarize(&stages, &fixed_tests, options, console, elapsed);
    if let Some(partial) = &partial {
        console.warn(format!(
            "the patch for the failure groups fixed so far, not validated (the other failures remain):\n{}",
            partial.trim_end()
        ));
    }
    match diff {
        Some(diff) => {
            match &options.output {
                Some(path) => {
                    std::fs::write(path, &diff)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    console.status(
                        "Wrote",
                        format!(
                            "the patch to {} (apply it with `git apply`)",
                            path.display()
                        ),
                    );
                }
                None => crate::write_stdout(&diff)?,
            }
            Ok(Exit::Success)
        }
        None => Err(Failure::new(
            Exit::NoPatchFound,
            not_found_message(&stages, rejected.as_deref(), cut_short),
        )
        .into()),
    }
}

/// One stage: a search for a patch that makes `group`'s failing tests pass
/// and keeps every passing test green, reduced with ddmin.
fn search_stage(
    baseline: &Baseline,
    group: &GroupRanking,
    options: &Options,
    console: &Console,
    deadline: Option<Instant>,
    index: usize,
) -> Result<Stage> {
    let space = mutation_space(baseline, options);
    let mut mutator = mutator(&space, baseline, &group.suspects, options);
    let (mut evaluator, model, flaky) =
        prepare_evaluation(baseline, &group.group.tests, options, console)?;
    let seed = options.search.seed.wrapping_add(index as u64);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seeds = critical_seeds(&mutator, baseline, group, &mut rng);
    seeds.extend(
        mutator
            .neighbourhood(2 * options.search.population)
            .into_iter()
            .map(|edit| Candidate::original().with(edit)),
    );
    let settings = SearchSettings {
        population: options.search.population,
        generations: options.search.generations,
        time_limit: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        seeds,
        feedback: options.refine.feedback,
    };
    let tried = AtomicUsize::new(0);
    let compiled = AtomicUsize::new(0);
    console.status(
        "Searching",
        format!(
            "for a patch: population {}, at most {} generations, seed {seed}",
            settings.population, settings.generations
        ),
    );
    let spinner = console.spinner("Searching");
    let search_started = Instant::now();
    let result = search(
        &mut mutator,
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
    let mut timings = BTreeMap::from([("search", search_started.elapsed().as_secs_f64())]);
    let patch = if result.stop == Stop::Found {
        evaluator.set_cutoff(None);
        let reduce_started = Instant::now();
        let reduced = reduce_candidate(&result.best.candidate, &mut *evaluator, &model, console)?;
        timings.insert("reduce", reduce_started.elapsed().as_secs_f64());
        Some(reduced)
    } else {
        None
    };
    let sources = &baseline.sources;
    let files_of = |candidate: &Candidate| -> BTreeMap<PathBuf, String> {
        let originals: Vec<&str> = sources.files.iter().map(|f| f.text.as_str()).collect();
        candidate
            .texts(&originals)
            .into_iter()
            .map(|(file, text)| (sources.files[file].path.clone(), text))
            .collect()
    };
    let path_of = |file: usize| sources.files[file].path.display().to_string();
    let ranking_before: Vec<String> = group
        .suspects
        .iter()
        .take(10)
        .map(|s| s.location.to_string())
        .collect();
    let mut after: Vec<((usize, u32), f64)> = mutator
        .weights()
        .map(|(location, _, weight)| (location, weight))
        .collect();
    after.sort_by(|a, b| b.1.total_cmp(&a.1));
    let ranking_after = after
        .iter()
        .take(10)
        .map(|&((file, line), _)| {
            let location = Location {
                file: sources.files[file].path.clone(),
                line,
            };
            let before = group
                .suspects
                .iter()
                .find(|s| s.location == location)
                .map_or(0, |s| s.rank);
            (location.to_string(), before)
        })
        .collect();
    Ok(Stage {
        signature: group.group.signature.to_string(),
        tests: baseline.test_ids(&group.group.tests),
        patched: patch.as_ref().map(files_of).unwrap_or_default(),
        unreduced: files_of(&result.best.candidate),
        edits: patch
            .iter()
            .flat_map(|c| c.edits())
            .map(|e| (path_of(e.file), e.location, e.operator, e.edit.text.clone()))
            .collect(),
        patch,
        counts: evaluator.counts(),
        evaluation: evaluator.stats(),
        flaky: baseline.test_ids(&flaky),
        never_passed: baseline.test_ids(&result.never_passed),
        search: result,
        ranking_before,
        ranking_after,
        timings,
    })
}

/// Condition mutations at the group's critical predicates, tried first:
/// the failure depends on which way they go.
fn critical_seeds(
    mutator: &Mutator,
    baseline: &Baseline,
    group: &GroupRanking,
    rng: &mut StdRng,
) -> Vec<Candidate> {
    let mut seeds = Vec::new();
    for location in &group.critical {
        let Some(file) = baseline
            .sources
            .files
            .iter()
            .position(|f| f.path == location.file)
        else {
            continue;
        };
        for _ in 0..4 {
            if let Some(edit) = mutator.mutation_at(rng, file, location.line, Operator::Condition) {
                let seed = Candidate::original().with(edit);
                if !seeds.contains(&seed) {
                    seeds.push(seed);
                }
            }
        }
    }
    seeds
}

/// The mutation space of the baseline's crate, without the excluded code.
pub fn mutation_space(baseline: &Baseline, options: &Options) -> MutationSpace {
    collect_mutation_space(&baseline.sources, |file, function| {
        options.search.excludes(file, function)
    })
}

/// A mutator over `space` that weighs each location by its suspiciousness:
/// the spectrum score, doubled in the slice of every failing run, tripled
/// for a critical predicate.
pub fn mutator<'a>(
    space: &'a MutationSpace,
    baseline: &'a Baseline,
    suspects: &[Suspect],
    options: &Options,
) -> Mutator<'a> {
    let sources = &baseline.sources;
    let weight: HashMap<(&std::path::Path, u32), f64> = suspects
        .iter()
        .map(|s| {
            let boost = (1.0 + f64::from(u8::from(s.in_slice)))
                * (1.0 + 2.0 * f64::from(u8::from(s.critical)));
            (
                (s.location.file.as_path(), s.location.line),
                s.score * boost,
            )
        })
        .collect();
    let texts: Vec<&str> = sources.files.iter().map(|f| f.text.as_str()).collect();
    Mutator::new(space, texts, &options.search.operators, |file, line| {
        weight
            .get(&(sources.files[file].path.as_path(), line))
            .copied()
            .unwrap_or(0.0)
    })
}

/// Builds the evaluator (the one `--evaluator` names), runs the unchanged
/// crate on every build it uses, and derives the fitness model for making
/// the tests `failing` pass while keeping the passing ones green, leaving
/// out tests whose outcome changed between runs (flaky).
pub fn prepare_evaluation(
    baseline: &Baseline,
    failing: &[usize],
    options: &Options,
    console: &Console,
) -> Result<(Box<dyn PreparedEvaluator>, FitnessModel, Vec<usize>)> {
    let mut passed_before = vec![None; baseline.suite.tests.len()];
    for record in &baseline.records {
        passed_before[record.test] = Some(record.outcome.verdict.passed());
    }
    let plan =
        |failing: &[usize], passing: &[usize]| test_plan(baseline, failing, passing, options);
    let failing: Vec<usize> = failing.to_vec();
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

/// Validates patched files (paths and texts, over the user's files) on a
/// clean copy; on success, their diff against the user's files.
fn validate_files(
    baseline: &Baseline,
    user_files: &BTreeMap<PathBuf, String>,
    files: &BTreeMap<PathBuf, String>,
    flaky: &BTreeSet<String>,
    options: &Options,
    console: &Console,
) -> Result<Result<String, String>> {
    let changes: Vec<(PathBuf, String)> = files
        .iter()
        .filter(|(path, text)| user_files.get(*path) != Some(*text))
        .map(|(p, t)| (p.clone(), t.clone()))
        .collect();
    let flaky_names: BTreeSet<String> = flaky
        .iter()
        .filter_map(|id| {
            baseline
                .suite
                .tests
                .iter()
                .find(|t| &t.id == id)
                .map(|t| t.name.clone())
        })
        .collect();
    let total: Duration = baseline.records.iter().map(|r| r.outcome.duration).sum();
    let timeout = Duration::from_secs(300) + total * 10;
    let spinner = console.spinner("Validating");
    spinner.set_message("the patch with cargo test on a clean copy");
    let validation = validate(
        &baseline.workspace,
        &changes,
        &options.features,
        &flaky_names,
        timeout,
    )?;
    drop(spinner);
    Ok(match validation {
        Validation::Passed => Ok(diff_of(user_files, files)),
        Validation::Failed(reason) => {
            console.warn(format!(
                "a candidate that passed every test failed validation: {reason}"
            ));
            Err(reason)
        }
    })
}

/// Candidates tried and compiled per operator, over every stage.
fn operator_totals(stages: &[Stage]) -> BTreeMap<Operator, OperatorCounts> {
    let mut totals: BTreeMap<Operator, OperatorCounts> = BTreeMap::new();
    for (operator, counts) in stages.iter().flat_map(|s| &s.search.operators) {
        let total = totals.entry(*operator).or_default();
        total.tried += counts.tried;
        total.compiled += counts.compiled;
    }
    totals
}

fn summarize(
    stages: &[Stage],
    fixed_tests: &[String],
    options: &Options,
    console: &Console,
    elapsed: Duration,
) {
    let operators: Vec<String> = operator_totals(stages)
        .iter()
        .map(|(operator, c)| format!("{operator} {}/{}", c.compiled, c.tried))
        .collect();
    console.status(
        "Operators",
        format!("{} (compiled/tried)", operators.join(", ")),
    );
    let (built, compiled) = stages.iter().fold((0, 0), |(b, c), s| {
        (b + s.counts.built, c + s.counts.compiled)
    });
    let generations: usize = stages.iter().map(|s| s.search.generations).sum();
    console.status(
        "Tried",
        format!(
            "{built} candidates in {generations} generations ({}% compiled), {:.1} s",
            percent(compiled, built),
            elapsed.as_secs_f64()
        ),
    );
    for stage in stages {
        let learned: Vec<String> = stage
            .ranking_after
            .iter()
            .take(3)
            .map(|(location, before)| {
                if *before > 0 {
                    format!("{location} (was {before})")
                } else {
                    format!("{location} (unranked)")
                }
            })
            .collect();
        if options.refine.feedback
            && stage
                .search
                .feedback
                .values()
                .any(|f| f.helped + f.broke > 0)
        {
            console.status(
                "Learned",
                format!("most promising after the search: {}", learned.join(", ")),
            );
        }
    }
    if !fixed_tests.is_empty() {
        let edits: usize = stages.iter().map(|s| s.edits.len()).sum();
        console.status("Fixed", abbreviate(fixed_tests));
        console.status(
            "Plausible",
            format!(
                "a patch of {edits} edit{} that passes every test it was given (cargo test, doctests included); review it before you apply it",
                if edits == 1 { "" } else { "s" }
            ),
        );
    }
}

fn not_found_message(stages: &[Stage], rejected: Option<&str>, cut_short: Option<&str>) -> String {
    let Some(last) = stages.last() else {
        return "no patch found".to_string();
    };
    if let (None, Some(why)) = (rejected, cut_short) {
        return format!(
            "no patch found for the failures that remain after {} fixed failure group{}: {why}",
            stages.len(),
            if stages.len() == 1 { "" } else { "s" }
        );
    }
    let search = &last.search;
    let why = match (rejected, search.stop) {
        (Some(reason), _) => {
            format!("the best candidate passed the tests but not validation ({reason})")
        }
        (None, Stop::NothingToMutate) => "no suspicious code could be mutated".to_string(),
        (None, Stop::TimeLimit) => "the time limit was reached".to_string(),
        _ => "the generation budget was spent".to_string(),
    };
    let group = if stages.len() > 1 {
        format!(" for failure group {} ({})", stages.len(), last.signature)
    } else {
        String::new()
    };
    let never = if last.never_passed.is_empty() {
        String::new()
    } else {
        format!("; never passed: {}", abbreviate(&last.never_passed))
    };
    format!(
        "no patch found{group}: {why} after {} generations and {} candidates ({}% compiled), best fitness {:.4}{never}",
        search.generations,
        last.counts.built,
        percent(last.counts.compiled, last.counts.built),
        search.best.fitness
    )
}

/// On Ctrl-C: the best candidate of the interrupted stage, with the
/// patches of the stages before it, as a diff of the user's files.
fn report_interrupted(
    user_files: &BTreeMap<PathBuf, String>,
    patched: &BTreeMap<PathBuf, String>,
    stage: &Stage,
    console: &Console,
) {
    console.warn(format!(
        "interrupted after {} generations; the best candidate so far has fitness {:.4} and is not validated",
        stage.search.generations, stage.search.best.fitness
    ));
    let mut files = patched.clone();
    files.extend(stage.unreduced.clone());
    eprint!("{}", diff_of(user_files, &files));
}

/// The unified diff from the user's files to `files` (those that differ).
fn diff_of(user_files: &BTreeMap<PathBuf, String>, files: &BTreeMap<PathBuf, String>) -> String {
    let changes: Vec<FileChange> = files
        .iter()
        .filter_map(|(path, patched)| {
            let original = user_files.get(path)?;
            (original != patched).then_some(FileChange {
                path,
                original,
                patched,
            })
        })
        .collect();
    unified_diff(&changes)
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

/// How the repair ended, for the report.
struct Ending<'a> {
    patch: Option<&'a str>,
    partial_patch: Option<&'a str>,
    fixed_tests: &'a [String],
    flaky: &'a BTreeSet<String>,
    rejected: Option<&'a str>,
}

fn report_json(
    stages: &[Stage],
    outcome: &Ending,
    options: &Options,
    localized_in: Duration,
    elapsed: Duration,
) -> serde_json::Value {
    let mut timings: BTreeMap<&str, f64> =
        BTreeMap::from([("localize", localized_in.as_secs_f64())]);
    let mut evaluation = EvaluatorStats::default();
    for stage in stages {
        for (name, seconds) in &stage.timings {
            *timings.entry(name).or_default() += seconds;
        }
        evaluation.strategy = stage.evaluation.strategy;
        evaluation.builds += stage.evaluation.builds;
        evaluation.woven += stage.evaluation.woven;
        evaluation.separate += stage.evaluation.separate;
        evaluation.build_seconds += stage.evaluation.build_seconds;
        evaluation.test_seconds += stage.evaluation.test_seconds;
    }
    let fixed = outcome.patch.is_some();
    let sum = |f: &dyn Fn(&Stage) -> usize| stages.iter().map(f).sum::<usize>();
    let edits = |stage: &Stage| -> Vec<serde_json::Value> {
        stage.edits.iter().map(|(file, line, operator, text)| json!({"file": file, "line": line, "operator": operator.name(), "replacement": text})).collect()
    };
    let last = stages.last();
    json!({
        "outcome": if fixed { "fixed" } else { "not_fixed" },
        "fitness": if fixed { 1.0 } else { last.map_or(0.0, |s| s.search.best.fitness) },
        "candidates_evaluated": sum(&|s| s.counts.built),
        "candidates_compiled": sum(&|s| s.counts.compiled),
        "elapsed_seconds": elapsed.as_secs_f64(),
        "generations": sum(&|s| s.search.generations),
        "patch": outcome.patch,
        "partial_patch": outcome.partial_patch,
        "fixed_tests": outcome.fixed_tests,
        "never_passed": last.map(|s| s.never_passed.clone()).unwrap_or_default(),
        "flaky_tests": outcome.flaky,
        "edits": stages.iter().flat_map(edits).collect::<Vec<_>>(),
        "operators": operator_totals(stages).iter().map(|(operator, c)| (operator.name().to_string(), json!({"tried": c.tried, "compiled": c.compiled}))).collect::<serde_json::Map<_, _>>(),
        "rejected_by_validation": outcome.rejected,
        "seed": options.search.seed,
        "population": options.search.population,
        "metric": options.metric.name(),
        "timings_seconds": timings,
        "evaluation": {
            "strategy": evaluation.strategy,
            "builds": evaluation.builds,
            "woven": evaluation.woven,
            "separate": evaluation.separate,
            "build_seconds": evaluation.build_seconds,
            "test_seconds": evaluation.test_seconds,
        },
        "stages": stages.iter().map(|s| json!({
            "group": s.signature,
            "tests": s.tests,
            "found": s.patch.is_some(),
            "generations": s.search.generations,
            "candidates_evaluated": s.counts.built,
            "edits": edits(s),
            "ranking_before": s.ranking_before,
            "ranking_after": s.ranking_after.iter().map(|(location, before)| json!({"location": location, "rank_before": before})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
