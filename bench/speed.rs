//! Evaluation speed: the schema evaluator, the rebuild evaluator and the
//! naive loop (write the files, `cargo test`) on the same candidates, one
//! after the other in one run.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use cargo_autofix::{
    EvaluatorKind, Session, Status, TargetKind, TestId, parse_args, run_process, test_id,
};
use serde::Serialize;

use crate::corpus::{Case, Sources, Version};

/// How long one `cargo test` of the naive loop may take.
const NAIVE_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Serialize)]
pub struct SpeedRecord {
    pub subject: String,
    pub bug: String,
    pub candidates: usize,
    pub compiled: usize,
    /// Wall time of each strategy on all the candidates.
    pub schema_seconds: f64,
    pub rebuild_seconds: f64,
    pub naive_seconds: f64,
    /// naive / schema, and rebuild / schema.
    pub ratio: f64,
    pub rebuild_ratio: f64,
    /// Candidates whose outcome (built, tests passed) is the same from the
    /// rebuild and the schema evaluator, and whose fitness the naive loop confirms.
    pub same_outcome: usize,
    pub same_fitness_as_naive: usize,
    /// Schema evaluator: builds, candidates woven and built separately,
    /// seconds building and testing.
    pub schema_builds: usize,
    pub woven: usize,
    pub separate: usize,
    pub build_seconds: f64,
    pub test_seconds: f64,
    /// Per-candidate cost (schema wall time / candidates) over the median
    /// time of one candidate's own test run.
    pub cost_over_tests: Option<f64>,
}

/// Our two evaluators against the naive loop (write the files, `cargo
/// test`), on the same candidates, one after the other in one run.
pub fn speed_comparison(sources: &Sources, case: &Case, count: usize) -> Result<SpeedRecord> {
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
    let candidates = session.sample_candidates(0, count);

    // Each evaluator is prepared (its copies built once) before it is timed.
    let mut timed = Vec::new();
    for kind in [EvaluatorKind::Schema, EvaluatorKind::Rebuild] {
        let (mut evaluator, model) = session.evaluator(kind)?;
        let started = Instant::now();
        let outcomes = evaluator.evaluate(&candidates, &|_| {})?;
        timed.push((
            started.elapsed().as_secs_f64(),
            outcomes,
            evaluator.stats(),
            model,
        ));
    }
    let (schema_seconds, schema, stats, model) = timed.remove(0);
    let (rebuild_seconds, rebuild, _, _) = timed.remove(0);

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
    )?;
    let started = Instant::now();
    let mut naive = Vec::new();
    for candidate in &candidates {
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
        let finished = run_process(command, Some(NAIVE_TIMEOUT))?;
        let timed_out = finished.status == Status::TimedOut;
        let built = timed_out
            || (!finished.stdout.contains("error[E") && finished.stdout.contains("test result"));
        naive.push(built.then(|| passed_ids(&finished.stdout, &session.executables())));
    }
    let naive_seconds = started.elapsed().as_secs_f64();

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
    let same_outcome = schema
        .iter()
        .zip(&rebuild)
        .filter(|(a, b)| a.compiled() == b.compiled() && a.passed() == b.passed())
        .count();
    let mut same_fitness_as_naive = 0;
    for ((candidate, ours), theirs) in candidates.iter().zip(&schema).zip(&naive) {
        let (fitness, naive_fitness) = (ours.fitness(&model), naive_fitness(theirs));
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
    let per_candidate = schema_seconds / candidates.len().max(1) as f64;
    Ok(SpeedRecord {
        subject: subject.name.clone(),
        bug: case.id.to_string(),
        candidates: candidates.len(),
        compiled: schema.iter().filter(|o| o.compiled()).count(),
        schema_seconds,
        rebuild_seconds,
        naive_seconds,
        ratio: naive_seconds / schema_seconds.max(1e-9),
        rebuild_ratio: rebuild_seconds / schema_seconds.max(1e-9),
        same_outcome,
        same_fitness_as_naive,
        schema_builds: stats.builds,
        woven: stats.woven,
        separate: stats.separate,
        build_seconds: stats.build_seconds,
        test_seconds: stats.test_seconds,
        cost_over_tests: stats
            .median_candidate_test_seconds
            .map(|t| per_candidate / t.max(1e-6)),
    })
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
