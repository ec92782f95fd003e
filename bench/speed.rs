//! Evaluation speed: a sweep's batch of single edits evaluated by the
//! schema evaluator, and a sample of the same candidates by the rebuild
//! evaluator and the naive loop (write the files, `cargo test`), one after
//! the other in one run. The naive loop costs seconds a candidate, so it
//! gets a sample; the ratio compares costs per candidate.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use cargo_autofix::{
    Budget, Candidate, CandidateOutcome, EvaluatorKind, FitnessModel, Session, Status, TargetKind,
    TestId, parse_args, run_process, test_id,
};
use serde::Serialize;

use crate::corpus::{Case, Sources, Version};

/// How long one `cargo test` of the naive loop may take.
const NAIVE_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Serialize)]
pub struct SpeedRecord {
    pub subject: String,
    pub bug: String,
    /// The batch (a sweep's first single edits) and the sample of it that
    /// the rebuild evaluator and the naive loop evaluate.
    pub candidates: usize,
    pub sample: usize,
    pub compiled: usize,
    /// Wall time of the schema evaluator on the batch, and candidates per second.
    pub schema_seconds: f64,
    pub candidates_per_second: f64,
    /// Seconds per candidate: schema (batch), rebuild and naive (sample).
    pub schema_per_candidate: f64,
    pub rebuild_per_candidate: f64,
    pub naive_per_candidate: f64,
    /// naive / schema, and rebuild / schema, per candidate.
    pub ratio: f64,
    pub rebuild_ratio: f64,
    /// Sample candidates whose outcome (built, tests passed) is the same
    /// from the rebuild and the schema evaluator, and whose fitness the
    /// naive loop confirms.
    pub same_outcome: usize,
    pub same_fitness_as_naive: usize,
    /// Schema evaluator on the batch: compiler invocations of the woven
    /// path, candidates woven and built one by one (and why).
    pub woven_builds: usize,
    pub batches: usize,
    pub woven: usize,
    pub separate: usize,
    pub separate_reasons: BTreeMap<String, usize>,
    /// Where the schema evaluator's wall time went.
    pub build_seconds: f64,
    pub test_seconds: f64,
    pub other_seconds: f64,
    /// Time in test processes that ran out of time (summed over workers).
    pub timeout_seconds: f64,
    /// Per-candidate cost (schema wall time / candidates) over the median
    /// time of one candidate's own test run.
    pub cost_over_tests: Option<f64>,
    /// The most `ratio` could be: the naive loop's cost over the woven
    /// candidates' own test runs alone, spread over the jobs (as if building
    /// and the rest cost nothing).
    pub tests_bound: f64,
}

/// The schema evaluator on a sweep's first `batch` single edits, and the
/// rebuild evaluator and the naive loop on `sample` of them.
pub fn speed_comparison(
    sources: &Sources,
    case: &Case,
    batch: usize,
    sample: usize,
) -> Result<SpeedRecord> {
    let subject = case.subject;
    let buggy = sources.materialize(case, Version::Buggy)?;
    let target = sources
        .target_dir(subject)
        .context("the benchmark shares target dirs")?;
    let args = parse_args(
        [
            "cargo-autofix",
            "-q",
            "--target-dir",
            target.to_str().unwrap(),
        ]
        .map(Into::into),
    )?;
    let session = Session::open(args, buggy.path())?;
    let candidates = session.sweep_candidates(batch)?;
    // The sample: spread evenly over the batch.
    let step = (candidates.len() / sample.max(1)).max(1);
    let picked: Vec<usize> = (0..candidates.len()).step_by(step).take(sample).collect();
    let sampled: Vec<_> = picked.iter().map(|&i| candidates[i].clone()).collect();

    // Each evaluator is prepared (its copies built once) before it is timed.
    let (mut evaluator, model) = session.evaluator(EvaluatorKind::Schema)?;
    let prepared = evaluator.stats();
    let started = Instant::now();
    let schema = evaluator.evaluate(&candidates, Budget::unlimited(), &|_, _| {})?;
    let schema_seconds = started.elapsed().as_secs_f64();
    let stats = evaluator.stats();
    // What the timed evaluation alone did (the preparing build is not in it).
    let build_seconds = stats.build_seconds - prepared.build_seconds;
    let test_seconds = stats.test_seconds - prepared.test_seconds;
    let (mut evaluator, _) = session.evaluator(EvaluatorKind::Rebuild)?;
    let started = Instant::now();
    let rebuild = evaluator.evaluate(&sampled, Budget::unlimited(), &|_, _| {})?;
    let rebuild_seconds = started.elapsed().as_secs_f64();
    let schema_sampled: Vec<_> = picked.iter().map(|&i| schema[i].clone()).collect();

    let (naive, naive_seconds) = naive_loop(sources, case, &session, &sampled)?;

    let same_outcome = schema_sampled
        .iter()
        .zip(&rebuild)
        .filter(|(a, b)| a.compiled() == b.compiled() && a.passed() == b.passed())
        .count();
    let same_fitness_as_naive = same_fitness(&sampled, &schema_sampled, &naive, &session, &model);
    let per = |seconds: f64, count: usize| seconds / count.max(1) as f64;
    let schema_per_candidate = per(schema_seconds, candidates.len());
    let rebuild_per_candidate = per(rebuild_seconds, sampled.len());
    let naive_per_candidate = per(naive_seconds, sampled.len());
    Ok(SpeedRecord {
        subject: subject.name.clone(),
        bug: case.id.to_string(),
        candidates: candidates.len(),
        sample: sampled.len(),
        compiled: schema.iter().filter(|o| o.compiled()).count(),
        schema_seconds,
        candidates_per_second: candidates.len() as f64 / schema_seconds.max(1e-9),
        schema_per_candidate,
        rebuild_per_candidate,
        naive_per_candidate,
        ratio: naive_per_candidate / schema_per_candidate.max(1e-9),
        rebuild_ratio: rebuild_per_candidate / schema_per_candidate.max(1e-9),
        same_outcome,
        same_fitness_as_naive,
        woven_builds: stats.woven_builds,
        batches: stats.batches,
        woven: stats.woven,
        separate: stats.separate,
        separate_reasons: stats.separate_reasons.clone(),
        build_seconds,
        test_seconds,
        other_seconds: (schema_seconds - build_seconds - test_seconds).max(0.0),
        timeout_seconds: stats.timeout_seconds - prepared.timeout_seconds,
        cost_over_tests: stats
            .median_candidate_test_seconds
            .map(|t| schema_per_candidate / t.max(1e-6)),
        tests_bound: naive_per_candidate
            / per(
                stats.tests_alone_seconds - prepared.tests_alone_seconds,
                candidates.len(),
            )
            .max(1e-9),
    })
}

/// The naive loop on the sampled candidates, in its own warm copy: write
/// the candidate's files, `cargo test`, read which tests passed (`None`:
/// the build failed); with the seconds it took.
fn naive_loop(
    sources: &Sources,
    case: &Case,
    session: &Session,
    sampled: &[Candidate],
) -> Result<(Vec<Option<BTreeSet<String>>>, f64)> {
    let subject = case.subject;
    // The naive loop, in its own warm copy.
    let naive_dir = sources.materialize(case, Version::Buggy)?;
    run_process(
        {
            let mut warm = sources.cargo(subject);
            warm.args(["test", "--no-fail-fast", "--quiet"])
                .current_dir(naive_dir.path());
            warm
        },
        Some(NAIVE_TIMEOUT),
        Budget::unlimited(),
    )?;
    let started = Instant::now();
    let mut naive = Vec::new();
    for candidate in sampled {
        for (path, text) in session.files_with(candidate) {
            fs::write(naive_dir.path().join(path), text)?;
        }
        // cargo's stderr goes into its stdout, so that each test result
        // follows the `Running` line of its executable.
        let cargo = sources.cargo(subject);
        let mut command = Command::new("sh");
        command
            .args(["-c", "exec \"$0\" test --no-fail-fast 2>&1"])
            .arg(cargo.get_program())
            .envs(cargo.get_envs().filter_map(|(k, v)| Some((k, v?))))
            .current_dir(naive_dir.path());
        // A mutant may hang or allocate without end: the naive loop gets a
        // timeout too (the tests that finished by then count).
        let finished = run_process(command, Some(NAIVE_TIMEOUT), Budget::unlimited())?;
        let timed_out = finished.status == Status::TimedOut;
        let built = timed_out
            || (!finished.stdout.contains("error[E") && finished.stdout.contains("test result"));
        naive.push(built.then(|| passed_ids(&finished.stdout, &session.executables())));
    }
    Ok((naive, started.elapsed().as_secs_f64()))
}

/// How many sampled candidates have the same fitness by the schema
/// evaluator as by the naive loop (where not, the log says on which tests).
fn same_fitness(
    sampled: &[Candidate],
    schema_sampled: &[CandidateOutcome],
    naive: &[Option<BTreeSet<String>>],
    session: &Session,
    model: &FitnessModel,
) -> usize {
    let names: BTreeMap<TestId, String> = session.tests().into_iter().collect();
    let naive_fitness = |passed: &Option<BTreeSet<String>>| match passed {
        None => 0.0,
        Some(passed) => {
            let passing: BTreeSet<TestId> = names
                .iter()
                .filter(|(_, n)| passed.contains(*n))
                .map(|(i, _)| *i)
                .collect();
            model.of_passed(&passing)
        }
    };
    let mut same_fitness_as_naive = 0;
    for ((candidate, ours), theirs) in sampled.iter().zip(schema_sampled).zip(naive) {
        let (fitness, naive_fitness) = (ours.fitness(model), naive_fitness(theirs));
        if (fitness - naive_fitness).abs() < 1e-9 {
            same_fitness_as_naive += 1;
            continue;
        }
        // Say where they differ, for whoever reads the log.
        let edits: Vec<String> = candidate
            .edits()
            .iter()
            .map(|e| format!("line {} -> {:?}", e.line, e.edit.text))
            .collect();
        let differing: Vec<&str> = match theirs {
            Some(passed) => names
                .iter()
                .filter(|(i, n)| ours.passed().contains(i) != passed.contains(*n))
                .map(|(_, n)| n.as_str())
                .collect(),
            None => vec!["(the naive build failed)"],
        };
        eprintln!(
            "    fitness differs: {} (ours {fitness:.4}, naive {naive_fitness:.4}) on {}",
            edits.join(", "),
            differing.join(", ")
        );
    }
    same_fitness_as_naive
}

/// The full names of the tests that passed in the output of `cargo test`
/// (stderr included): each `test NAME ... ok` line belongs to the
/// executable (kind, target) of the `Running` line before it (found by its
/// file name, `TARGET-HASH`); doctests are not in the suite.
fn passed_ids(output: &str, executables: &[(TargetKind, String)]) -> BTreeSet<String> {
    let normalized = |name: &str| name.replace('-', "_");
    let mut current: Option<&(TargetKind, String)> = None;
    let mut passed = BTreeSet::new();
    for line in output.lines() {
        let trimmed = line.trim_start();
        if let Some(running) = trimmed.strip_prefix("Running ") {
            let stem = running
                .rsplit_once('(')
                .and_then(|(_, path)| Path::new(path.trim_end_matches(')')).file_name())
                .and_then(|name| name.to_str()?.rsplit_once('-'))
                .map(|(stem, _)| stem.to_string())
                .unwrap_or_default();
            let unit_tests_of_lib = running.starts_with("unittests") && running.contains("lib.rs");
            let matching: Vec<&(TargetKind, String)> = executables
                .iter()
                .filter(|(_, target)| normalized(target) == stem)
                .collect();
            current = matching
                .iter()
                .find(|(kind, _)| (*kind == TargetKind::Lib) == unit_tests_of_lib)
                .or(matching.first())
                .copied();
        } else if trimmed.starts_with("Doc-tests ") {
            current = None;
        } else if let (Some((kind, target)), Some((name, "ok"))) = (
            current,
            line.strip_prefix("test ")
                .and_then(|l| l.rsplit_once(" ... ")),
        ) {
            passed.insert(test_id(
                *kind,
                target,
                name.trim_end_matches(" - should panic"),
            ));
        }
    }
    passed
}
