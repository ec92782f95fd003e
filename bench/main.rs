//! The cargo-autofix benchmark: localization accuracy, repair rate and speed
//! on a corpus of real bugs (`bench/corpus.toml`).
//!
//! ```text
//! cargo bench --bench autofix                 # every bug
//! cargo bench --bench autofix -- --quick      # the quick subset
//! cargo bench --bench autofix -- --only ID... # some bugs
//! ```
//! Options: `--time-limit SECS` per repair, `--naive N` candidates in the
//! speed comparison (0 skips it), `--corpus FILE`, `--out DIR`. Results go
//! to `bench/RESULTS.md`, `bench/results.json` and `bench/ranks.svg`.

mod corpus;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use cargo_autofix::candidate::Candidate;
use cargo_autofix::config::Config;
use cargo_autofix::console::Console;

use cargo_autofix::localize::{Counts, Metric, Spectrum, rank_suspects};
use cargo_autofix::options::{EvaluatorKind, Options};
use cargo_autofix::source::Location;
use cargo_autofix::{baseline, cli, repair};
use corpus::{Bug, Corpus, Sources, Subject, Version};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use serde_json::{Value, json};

const AUTOFIX: &str = env!("CARGO_BIN_EXE_cargo-autofix");

#[derive(Debug)]
struct Settings {
    quick: bool,
    only: Vec<String>,
    time_limit: u64,
    naive: usize,
    corpus: Option<PathBuf>,
    out: Option<PathBuf>,
    command: String,
}

fn parse_settings() -> Result<Settings> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut settings = Settings {
        quick: false,
        only: Vec::new(),
        time_limit: 0,
        naive: 0,
        corpus: None,
        out: None,
        command: String::new(),
    };
    let mut time_limit = None;
    let mut naive = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--quick" => settings.quick = true,
            "--time-limit" => {
                time_limit = Some(iter.next().context("--time-limit needs seconds")?.parse()?)
            }
            "--naive" => naive = Some(iter.next().context("--naive needs a number")?.parse()?),
            "--corpus" => {
                settings.corpus = Some(iter.next().context("--corpus needs a file")?.into())
            }
            "--out" => settings.out = Some(iter.next().context("--out needs a directory")?.into()),
            "--only" => settings
                .only
                .extend(iter.by_ref().take_while(|a| !a.starts_with("--")).cloned()),
            other => bail!(
                "unknown argument {other} (expected --quick, --only ID..., --time-limit SECS, --naive N, --corpus FILE, --out DIR)"
            ),
        }
    }
    settings.time_limit = time_limit.unwrap_or(if settings.quick { 45 } else { 90 });
    // A generation's worth of candidates (the default population), fewer when quick.
    settings.naive = naive.unwrap_or(if settings.quick { 16 } else { 40 });
    settings.command = format!("cargo bench --bench autofix -- {}", args.join(" "))
        .trim_end()
        .trim_end_matches(" --")
        .to_string();
    Ok(settings)
}

/// Everything measured about one bug.
#[derive(Debug, Clone, Serialize)]
struct BugRecord {
    id: String,
    subject: String,
    kind: String,
    function: Option<String>,
    check: CheckRecord,
    /// Worst-case rank of the faulty line per metric (None: not executed).
    ranks: BTreeMap<String, Option<usize>>,
    executed_lines: usize,
    localize_seconds: f64,
    repair: Option<RepairRecord>,
}

#[derive(Debug, Clone, Serialize)]
struct CheckRecord {
    ok: bool,
    original_passes: bool,
    buggy_builds: bool,
    buggy_failed: usize,
    buggy_tests: usize,
}

#[derive(Debug, Clone, Serialize)]
struct RepairRecord {
    fixed: bool,
    exit_code: Option<i32>,
    applies: bool,
    passes_cargo_test: bool,
    restores_original: bool,
    seconds: f64,
    search_seconds: f64,
    candidates: u64,
    compiled: u64,
    candidates_per_second: f64,
    patch: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct SpeedRecord {
    subject: String,
    bug: String,
    candidates: usize,
    compiled: usize,
    /// Wall time of each strategy on all the candidates.
    schema_seconds: f64,
    rebuild_seconds: f64,
    naive_seconds: f64,
    /// naive / schema, and rebuild / schema.
    ratio: f64,
    rebuild_ratio: f64,
    /// Candidates whose outcome (built, tests passed) is the same from the
    /// rebuild and the schema evaluator, and whose fitness the naive loop confirms.
    same_outcome: usize,
    same_fitness_as_naive: usize,
    /// Schema evaluator: builds, candidates woven and built separately,
    /// seconds building and testing.
    schema_builds: usize,
    woven: usize,
    separate: usize,
    build_seconds: f64,
    test_seconds: f64,
    /// Per-candidate cost (schema wall time / candidates) over the median
    /// time of one candidate's own test run.
    cost_over_tests: Option<f64>,
}

fn main() -> Result<()> {
    let settings = parse_settings()?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = corpus::load(
        &settings
            .corpus
            .clone()
            .unwrap_or_else(|| root.join("bench/corpus.toml")),
    )?;
    let out = settings.out.clone().unwrap_or_else(|| root.join("bench"));
    let bugs = select(&corpus, &settings);
    let subjects: Vec<&Subject> = corpus
        .subjects
        .iter()
        .filter(|s| bugs.iter().any(|b| b.subject == s.name))
        .collect();
    eprintln!(
        "benchmark: {} bugs in {} subjects, {} s per repair",
        bugs.len(),
        subjects.len(),
        settings.time_limit
    );
    let started = Instant::now();
    let mut sources = Sources::fetch(&subjects)?;
    sources.targets = Some(root.join("target/bench"));
    let mut records = Vec::new();
    for bug in &bugs {
        let subject = subject_of(&corpus, bug);
        eprintln!(
            "[{}/{}] {} ({})",
            records.len() + 1,
            bugs.len(),
            bug.id,
            bug.kind
        );
        match run_bug(&sources, subject, bug, &settings) {
            Ok(record) => {
                eprintln!("    {}", one_line(&record));
                records.push(record);
            }
            Err(error) => eprintln!("    skipped: {error:#}"),
        }
    }
    let mut speed = Vec::new();
    if settings.naive > 0 {
        for subject in subjects.iter().filter(|s| !s.is_fixture()) {
            let Some(bug) = bugs.iter().find(|b| {
                b.subject == subject.name && records.iter().any(|r| r.id == b.id && r.check.ok)
            }) else {
                continue;
            };
            eprintln!(
                "speed: {} ({} candidates, ours vs write-files-and-cargo-test)",
                subject.name, settings.naive
            );
            match speed_comparison(&sources, subject, bug, settings.naive) {
                Ok(record) => {
                    eprintln!(
                        "    schema {:.1} s, rebuild {:.1} s, naive {:.1} s: {:.1}x faster than naive, {}/{} same outcomes",
                        record.schema_seconds,
                        record.rebuild_seconds,
                        record.naive_seconds,
                        record.ratio,
                        record.same_outcome,
                        record.candidates
                    );
                    speed.push(record);
                }
                Err(error) => eprintln!("    skipped: {error:#}"),
            }
        }
    }
    let elapsed = started.elapsed();
    let results = results_json(&records, &speed, &settings, elapsed);
    fs::create_dir_all(&out)?;
    fs::write(out.join("results.json"), format!("{results:#}\n"))?;
    fs::write(
        out.join("RESULTS.md"),
        markdown(&records, &speed, &settings, elapsed),
    )?;
    fs::write(out.join("ranks.svg"), svg(&records))?;
    eprintln!(
        "wrote RESULTS.md, results.json and ranks.svg to {} in {:.0} s",
        out.display(),
        elapsed.as_secs_f64()
    );
    Ok(())
}

/// The bugs to run: `--only`, else the quick subset (every fixture bug and
/// the first bug of each crate), else all.
fn select<'c>(corpus: &'c Corpus, settings: &Settings) -> Vec<&'c Bug> {
    if !settings.only.is_empty() {
        return corpus
            .bugs
            .iter()
            .filter(|b| settings.only.contains(&b.id))
            .collect();
    }
    if !settings.quick {
        return corpus.bugs.iter().collect();
    }
    let mut taken: BTreeMap<&str, usize> = BTreeMap::new();
    corpus
        .bugs
        .iter()
        .filter(|b| {
            let count = taken.entry(b.subject.as_str()).or_default();
            *count += 1;
            subject_of(corpus, b).is_fixture() || *count <= 1
        })
        .collect()
}

fn subject_of<'c>(corpus: &'c Corpus, bug: &Bug) -> &'c Subject {
    corpus
        .subjects
        .iter()
        .find(|s| s.name == bug.subject)
        .expect("checked when loaded")
}

fn run_bug(
    sources: &Sources,
    subject: &Subject,
    bug: &Bug,
    settings: &Settings,
) -> Result<BugRecord> {
    let check = corpus::check(sources, subject, bug)?;
    let mut record = BugRecord {
        id: bug.id.clone(),
        subject: bug.subject.clone(),
        kind: bug.kind.clone(),
        function: bug.function.clone(),
        check: CheckRecord {
            ok: check.ok(),
            original_passes: check.original_passes,
            buggy_builds: check.buggy_builds,
            buggy_failed: check.buggy_tests.0,
            buggy_tests: check.buggy_tests.1,
        },
        ranks: BTreeMap::new(),
        executed_lines: 0,
        localize_seconds: 0.0,
        repair: None,
    };
    if !check.ok() {
        return Ok(record);
    }
    let buggy = sources.materialize(subject, bug, Version::Buggy)?;

    // Localization: one run, every metric recomputed from its counts.
    let started = Instant::now();
    let output = autofix(
        buggy.path(),
        sources.target_dir(subject),
        &[
            "--rank-only",
            "--format",
            "json",
            "-q",
            "--test-timeout",
            "30",
        ],
    )?;
    record.localize_seconds = started.elapsed().as_secs_f64();
    if !output.status.success() {
        bail!(
            "--rank-only failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let ranking: Value = serde_json::from_slice(&output.stdout)?;
    let spectrum = spectrum_of(&ranking);
    record.executed_lines = spectrum.lines.len();
    let fault = fault_location(&spectrum, bug);
    for metric in Metric::ALL {
        let rank = fault.as_ref().and_then(|f| {
            rank_suspects(&spectrum, metric)
                .into_iter()
                .find(|s| &s.location == f)
                .map(|s| s.rank)
        });
        record.ranks.insert(metric.name().to_string(), rank);
    }

    // Repair.
    let reports = tempfile::tempdir()?;
    let report_path = reports.path().join("report.json");
    let time_limit = settings.time_limit.to_string();
    let started = Instant::now();
    let output = autofix(
        buggy.path(),
        sources.target_dir(subject),
        &[
            "-q",
            "--seed",
            "0",
            "--time-limit",
            &time_limit,
            "--test-timeout",
            "30",
            "--report",
            report_path.to_str().unwrap(),
        ],
    )?;
    let seconds = started.elapsed().as_secs_f64();
    let report: Value = fs::read_to_string(&report_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let patch = output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned());
    let (applies, passes, restores) = match &patch {
        Some(diff) => verify_patch(sources, subject, bug, diff)?,
        None => (false, false, false),
    };
    let candidates = report["candidates_evaluated"].as_u64().unwrap_or(0);
    let search_seconds = report["timings_seconds"]["search"].as_f64().unwrap_or(0.0);
    record.repair = Some(RepairRecord {
        fixed: patch.is_some(),
        exit_code: output.status.code(),
        applies,
        passes_cargo_test: passes,
        restores_original: restores,
        seconds,
        search_seconds,
        candidates,
        compiled: report["candidates_compiled"].as_u64().unwrap_or(0),
        candidates_per_second: if search_seconds > 0.0 {
            candidates as f64 / search_seconds
        } else {
            0.0
        },
        patch,
    });
    Ok(record)
}

/// Runs cargo-autofix in `dir`, building in `target` (the subject's shared target dir).
fn autofix(dir: &Path, target: Option<PathBuf>, args: &[&str]) -> Result<std::process::Output> {
    let mut command = Command::new(AUTOFIX);
    command.arg("autofix").args(args).current_dir(dir);
    if let Some(target) = target {
        command.arg("--target-dir").arg(target);
    }
    command.output().context("cannot run cargo-autofix")
}

/// The spectrum of a `--format json` ranking.
fn spectrum_of(ranking: &Value) -> Spectrum {
    let totals = Counts {
        failed: ranking["tests"]["failed"].as_u64().unwrap_or(0) as u32,
        passed: ranking["tests"]["passed"].as_u64().unwrap_or(0) as u32,
    };
    let lines = ranking["ranking"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|entry| {
            let location = Location {
                file: PathBuf::from(entry["file"].as_str().unwrap_or("")),
                line: entry["line"].as_u64().unwrap_or(0) as u32,
            };
            let counts = Counts {
                failed: entry["failed"].as_u64().unwrap_or(0) as u32,
                passed: entry["passed"].as_u64().unwrap_or(0) as u32,
            };
            (location, counts)
        })
        .collect();
    Spectrum { totals, lines }
}

/// The ranked location that stands for the bug, in the buggy file: the
/// location of the faulty line (the nearest executed location at or above
/// it, for a line inside a longer statement); for a removed line, the
/// nearest executed location above the gap.
fn fault_location(spectrum: &Spectrum, bug: &Bug) -> Option<Location> {
    let limit = if bug.removes_a_line() {
        bug.line as u32 - 1
    } else {
        bug.line as u32
    };
    spectrum
        .lines
        .keys()
        .filter(|l| l.file == bug.file && l.line <= limit)
        .max_by_key(|l| l.line)
        .cloned()
}

/// Applies the patch to a fresh buggy copy: does it apply, pass `cargo
/// test`, and give back the original file (token for token, or with one of
/// the bug's known equivalent lines in place of the original line)?
fn verify_patch(
    sources: &Sources,
    subject: &Subject,
    bug: &Bug,
    diff: &str,
) -> Result<(bool, bool, bool)> {
    let copy = sources.materialize(subject, bug, Version::Buggy)?;
    fs::write(copy.path().join("fix.patch"), diff)?;
    let applies = Command::new("git")
        .args(["apply", "fix.patch"])
        .current_dir(copy.path())
        .status()?
        .success();
    if !applies {
        return Ok((false, false, false));
    }
    let passes = sources
        .cargo(subject)
        .args(["test", "--quiet"])
        .current_dir(copy.path())
        .output()?
        .status
        .success();
    let original = sources.materialize(subject, bug, Version::Original)?;
    let tokens = |text: &str| {
        proc_macro2::TokenStream::from_str(text)
            .ok()
            .map(|t| t.to_string())
    };
    let patched = tokens(&fs::read_to_string(copy.path().join(&bug.file))?);
    let original_text = fs::read_to_string(original.path().join(&bug.file))?;
    // The original, and the original with each known equivalent of the line.
    let mut restorations = vec![original_text.clone()];
    for line in &bug.equivalent {
        let mut lines: Vec<String> = original_text
            .split_inclusive('\n')
            .map(str::to_string)
            .collect();
        lines[bug.line - 1] = format!("{line}\n");
        restorations.push(lines.concat());
    }
    let restores = patched.is_some() && restorations.iter().any(|text| tokens(text) == patched);
    Ok((true, passes, restores))
}

/// Our two evaluators against the naive loop (write the files, `cargo
/// test`), on the same candidates, one after the other in one run.
fn speed_comparison(
    sources: &Sources,
    subject: &Subject,
    bug: &Bug,
    count: usize,
) -> Result<SpeedRecord> {
    let buggy = sources.materialize(subject, bug, Version::Buggy)?;
    let manifest = buggy.path().join("Cargo.toml");
    let target = sources
        .target_dir(subject)
        .context("the benchmark shares target dirs")?;
    let args = cli::parse_args(
        [
            "cargo-autofix",
            "-q",
            "--manifest-path",
            manifest.to_str().unwrap(),
        ]
        .map(Into::into),
    )?;
    let mut workspace =
        cargo_autofix::cargo::discover::discover(&args.package_query(), buggy.path())?;
    workspace.target_dir = target;
    let mut options = Options::new(args, Config::default())?;
    let console = Console { quiet: true };
    let baseline = baseline::establish(workspace, &options, &console, &Default::default())?;
    let suspects = rank_suspects(&baseline.spectrum(), options.metric);
    let space = repair::mutation_space(&baseline, &options);
    let mutator = repair::mutator(&space, &baseline, &suspects, &options);

    // Candidates like a search's: one or two mutations each, distinct.
    let mut rng = StdRng::seed_from_u64(0);
    let mut candidates: Vec<Candidate> = Vec::new();
    for attempt in 0..count * 20 {
        if candidates.len() >= count {
            break;
        }
        let Some(first) = mutator.mutation(&mut rng) else {
            break;
        };
        let mut candidate = Candidate::original().with(first);
        if attempt % 2 == 1
            && let Some(second) = mutator.mutation(&mut rng)
        {
            candidate = candidate.with(second);
        }
        if !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    }

    // Each evaluator is prepared (its copies built once) before it is timed.
    let mut timed = Vec::new();
    for kind in [EvaluatorKind::Schema, EvaluatorKind::Rebuild] {
        options.evaluator = kind;
        let (mut evaluator, model, _flaky) = repair::prepare_evaluation(
            &baseline,
            &baseline.failing().map(|r| r.test).collect::<Vec<_>>(),
            &options,
            &console,
        )?;
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
    let naive_dir = sources.materialize(subject, bug, Version::Buggy)?;
    sources
        .cargo(subject)
        .args(["test", "--no-fail-fast", "--quiet"])
        .current_dir(naive_dir.path())
        .output()?;
    let originals: Vec<&str> = baseline
        .sources
        .files
        .iter()
        .map(|f| f.text.as_str())
        .collect();
    let started = Instant::now();
    let mut naive = Vec::new();
    for candidate in &candidates {
        let texts = candidate.texts(&originals);
        for (index, file) in baseline.sources.files.iter().enumerate() {
            let text = texts.get(&index).map_or(file.text.as_str(), String::as_str);
            fs::write(naive_dir.path().join(&file.path), text)?;
        }
        let output = sources
            .cargo(subject)
            .args(["test", "--no-fail-fast"])
            .current_dir(naive_dir.path())
            .output()?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let built = !String::from_utf8_lossy(&output.stderr).contains("error[E")
            && stdout.contains("test result");
        naive.push(built.then(|| passed_names(&stdout)));
    }
    let naive_seconds = started.elapsed().as_secs_f64();

    let names: BTreeMap<usize, &str> = baseline
        .suite
        .tests
        .iter()
        .enumerate()
        .map(|(i, t)| (i, t.name.as_str()))
        .collect();
    let naive_fitness = |passed: &Option<BTreeSet<String>>| match passed {
        None => 0.0,
        Some(passed) => {
            let passing: BTreeSet<usize> = names
                .iter()
                .filter(|(_, n)| passed.contains(**n))
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
    let same_fitness_as_naive = schema
        .iter()
        .zip(&naive)
        .filter(|(o, n)| (o.fitness(&model) - naive_fitness(n)).abs() < 1e-9)
        .count();
    let per_candidate = schema_seconds / candidates.len().max(1) as f64;
    Ok(SpeedRecord {
        subject: subject.name.clone(),
        bug: bug.id.clone(),
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

fn passed_names(stdout: &str) -> BTreeSet<String> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.rsplit_once(" ... "))
        .filter(|(_, result)| *result == "ok")
        .map(|(name, _)| name.trim_end_matches(" - should panic").to_string())
        .collect()
}

fn median(sorted: &[f64]) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 0 {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    })
}

fn one_line(record: &BugRecord) -> String {
    if !record.check.ok {
        return format!("setup check failed: {:?}", record.check);
    }
    let rank = record
        .ranks
        .get("ochiai")
        .copied()
        .flatten()
        .map_or("-".to_string(), |r| r.to_string());
    match &record.repair {
        Some(r) => format!(
            "ochiai rank {rank}/{}; {} in {:.0} s, {} candidates ({} compiled){}",
            record.executed_lines,
            if r.fixed { "fixed" } else { "not fixed" },
            r.seconds,
            r.candidates,
            r.compiled,
            if r.restores_original {
                ", restores the original"
            } else {
                ""
            }
        ),
        None => format!("ochiai rank {rank}/{}", record.executed_lines),
    }
}

/// Summary figures over the checked bugs.
struct Summary {
    bugs: usize,
    per_metric: Vec<(Metric, [usize; 3], f64)>,
    fixed: usize,
    restored: usize,
    median_fix_seconds: Option<f64>,
    median_candidates_per_second: Option<f64>,
    median_compile_share: Option<f64>,
}

fn summarize(records: &[BugRecord]) -> Summary {
    let checked: Vec<&BugRecord> = records
        .iter()
        .filter(|r| r.check.ok && r.repair.is_some())
        .collect();
    let per_metric = Metric::ALL
        .into_iter()
        .map(|metric| {
            let ranks: Vec<Option<usize>> =
                checked.iter().map(|r| r.ranks[metric.name()]).collect();
            let top = [1, 3, 5].map(|n| ranks.iter().filter(|r| r.is_some_and(|r| r <= n)).count());
            // EXAM: the share of executed lines read before reaching the fault (all of them if never).
            let exam: f64 = checked
                .iter()
                .zip(&ranks)
                .map(|(r, rank)| {
                    rank.map_or(1.0, |rank| rank as f64 / r.executed_lines.max(1) as f64)
                })
                .sum::<f64>()
                / checked.len().max(1) as f64;
            (metric, top, exam)
        })
        .collect();
    let repairs: Vec<&RepairRecord> = checked.iter().filter_map(|r| r.repair.as_ref()).collect();
    let plausible: Vec<&&RepairRecord> = repairs
        .iter()
        .filter(|r| r.fixed && r.applies && r.passes_cargo_test)
        .collect();
    let mut fix_seconds: Vec<f64> = plausible.iter().map(|r| r.seconds).collect();
    fix_seconds.sort_by(f64::total_cmp);
    let mut rates: Vec<f64> = repairs
        .iter()
        .filter(|r| r.candidates > 0)
        .map(|r| r.candidates_per_second)
        .collect();
    rates.sort_by(f64::total_cmp);
    let mut shares: Vec<f64> = repairs
        .iter()
        .filter(|r| r.candidates > 0)
        .map(|r| r.compiled as f64 / r.candidates as f64)
        .collect();
    shares.sort_by(f64::total_cmp);
    Summary {
        bugs: checked.len(),
        per_metric,
        fixed: plausible.len(),
        restored: plausible.iter().filter(|r| r.restores_original).count(),
        median_fix_seconds: median(&fix_seconds),
        median_candidates_per_second: median(&rates),
        median_compile_share: median(&shares),
    }
}

fn results_json(
    records: &[BugRecord],
    speed: &[SpeedRecord],
    settings: &Settings,
    elapsed: Duration,
) -> Value {
    let summary = summarize(records);
    json!({
        "date": today(),
        "cores": std::thread::available_parallelism().map_or(1, |n| n.get()),
        "command": settings.command,
        "time_limit_seconds": settings.time_limit,
        "elapsed_seconds": elapsed.as_secs_f64(),
        "summary": {
            "bugs": summary.bugs,
            "localization": summary.per_metric.iter().map(|(m, top, exam)| json!({
                "metric": m.name(), "top1": top[0], "top3": top[1], "top5": top[2], "mean_exam": exam,
            })).collect::<Vec<_>>(),
            "plausible": summary.fixed,
            "restores_original": summary.restored,
            "median_time_to_fix_seconds": summary.median_fix_seconds,
            "median_candidates_per_second": summary.median_candidates_per_second,
            "median_compile_share": summary.median_compile_share,
        },
        "bugs": records,
        "speed": speed,
    })
}

fn markdown(
    records: &[BugRecord],
    speed: &[SpeedRecord],
    settings: &Settings,
    elapsed: Duration,
) -> String {
    let summary = summarize(records);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let percent = |n: usize| {
        if summary.bugs == 0 {
            0.0
        } else {
            100.0 * n as f64 / summary.bugs as f64
        }
    };
    let mut md = format!(
        "# Benchmark results\n\nDate: {} · machine: {cores} cores · command: `{}` · repair time limit: {} s per bug · total time: {:.1} min\n\n\
         Made by `bench/main.rs` from `bench/corpus.toml`; `bench/results.json` has every figure, `bench/ranks.svg` plots them.\n\n",
        today(),
        settings.command,
        settings.time_limit,
        elapsed.as_secs_f64() / 60.0
    );
    md.push_str(&format!(
        "## Summary ({} bugs that passed the setup check)\n\n",
        summary.bugs
    ));
    md.push_str("| metric | top-1 | top-3 | top-5 | mean EXAM |\n|---|---|---|---|---|\n");
    for (metric, top, exam) in &summary.per_metric {
        md.push_str(&format!(
            "| {} | {} ({:.0}%) | {} ({:.0}%) | {} ({:.0}%) | {:.3} |\n",
            metric.name(),
            top[0],
            percent(top[0]),
            top[1],
            percent(top[1]),
            top[2],
            percent(top[2]),
            exam
        ));
    }
    let fmt = |v: Option<f64>, unit: &str| v.map_or("-".to_string(), |v| format!("{v:.2}{unit}"));
    md.push_str(&format!(
        "\n| repair | value |\n|---|---|\n| plausible patches (apply, pass `cargo test`) | {} of {} ({:.0}%) |\n\
         | restore the original (token for token) | {} of {} ({:.0}%) |\n| median time to fix | {} |\n\
         | median candidates per second | {} |\n| median share of candidates that compiled | {} |\n",
        summary.fixed, summary.bugs, percent(summary.fixed), summary.restored, summary.bugs, percent(summary.restored),
        fmt(summary.median_fix_seconds, " s"), fmt(summary.median_candidates_per_second, ""),
        summary.median_compile_share.map_or("-".to_string(), |s| format!("{:.0}%", s * 100.0))
    ));
    md.push_str(
        "\nRanks are worst-case ranks (ties count against us) of the faulty line's location; EXAM is rank / executed lines \
         (1.0 when the line was never executed). A patch *restores the original* when the patched file has the same tokens \
         as the original file, or as the original with one of the bug's `equivalent` lines (listed in the corpus, checked by \
         hand: `> 69` for `>= 70` on integers) in place of the faulty line; any other fix counts as plausible only.\n",
    );
    if !speed.is_empty() {
        md.push_str(
            "\n## Evaluation speed\n\nThe same candidates (one or two mutations at suspicious lines, like a search's) \
             evaluated three ways, one after the other in one run: the schema evaluator (the batch woven into shared builds, \
             candidates selected at run time, tests run in parallel), the rebuild evaluator (one incremental build per \
             candidate), and the naive loop (write the files, `cargo test`, which also runs doctests). Both evaluators use \
             the default `-j` and run only the tests that execute an edited line. *Same outcome*: built or not and the same \
             tests passing in both evaluators; *same fitness*: the naive loop's fitness equals the schema evaluator's. \
             *Cost / tests*: the per-candidate cost of the schema evaluator over the median time of one candidate's own test run.\n\n\
             | subject | candidates | compiled | schema (s) | rebuild (s) | naive (s) | naive / schema | rebuild / schema | same outcome | same fitness | builds (woven / separate) | build / test (s) | cost / tests |\n\
             |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        );
        for s in speed {
            md.push_str(&format!(
                "| {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1}x | {:.1}x | {}/{} | {}/{} | {} ({} / {}) | {:.1} / {:.1} | {} |\n",
                s.subject,
                s.candidates,
                s.compiled,
                s.schema_seconds,
                s.rebuild_seconds,
                s.naive_seconds,
                s.ratio,
                s.rebuild_ratio,
                s.same_outcome,
                s.candidates,
                s.same_fitness_as_naive,
                s.candidates,
                s.schema_builds,
                s.woven,
                s.separate,
                s.build_seconds,
                s.test_seconds,
                s.cost_over_tests.map_or("-".to_string(), |c| format!("{c:.1}x"))
            ));
        }
    }
    md.push_str(
        "\n## Bugs\n\n| bug | kind | rank (ochiai / tarantula / dstar / op2 / jaccard) | lines | localize (s) | repair | time (s) | candidates | compiled | restores |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in records {
        let ranks: Vec<String> = Metric::ALL
            .iter()
            .map(|m| {
                r.ranks
                    .get(m.name())
                    .copied()
                    .flatten()
                    .map_or("-".into(), |x| x.to_string())
            })
            .collect();
        match (&r.repair, r.check.ok) {
            (Some(p), true) => md.push_str(&format!(
                "| {} | {} | {} | {} | {:.1} | {} | {:.0} | {} | {} | {} |\n",
                r.id,
                r.kind,
                ranks.join(" / "),
                r.executed_lines,
                r.localize_seconds,
                if p.fixed && p.applies && p.passes_cargo_test {
                    "plausible"
                } else {
                    "not found"
                },
                p.seconds,
                p.candidates,
                p.compiled,
                if p.restores_original { "yes" } else { "no" }
            )),
            _ => md.push_str(&format!(
                "| {} | {} | setup check failed | | | | | | | |\n",
                r.id, r.kind
            )),
        }
    }
    md
}

/// Bars of the Ochiai rank distribution and of the time to fix each bug.
fn svg(records: &[BugRecord]) -> String {
    let checked: Vec<&BugRecord> = records
        .iter()
        .filter(|r| r.check.ok && r.repair.is_some())
        .collect();
    let buckets = ["1", "2-3", "4-5", "6-10", "11-20", ">20", "none"];
    let bucket = |rank: Option<usize>| match rank {
        Some(1) => 0,
        Some(2..=3) => 1,
        Some(4..=5) => 2,
        Some(6..=10) => 3,
        Some(11..=20) => 4,
        Some(_) => 5,
        None => 6,
    };
    let mut out = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"440\" font-family=\"sans-serif\" font-size=\"12\">\n",
    );
    out.push_str("<text x=\"20\" y=\"24\" font-size=\"15\">Rank of the faulty line (Ochiai, worst case)</text>\n");
    let counts: Vec<usize> = (0..buckets.len())
        .map(|b| {
            checked
                .iter()
                .filter(|r| bucket(r.ranks["ochiai"]) == b)
                .count()
        })
        .collect();
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    for (i, (label, count)) in buckets.iter().zip(&counts).enumerate() {
        let height = 300.0 * *count as f64 / most as f64;
        let x = 30 + i * 55;
        out.push_str(&format!(
            "<rect x=\"{x}\" y=\"{:.1}\" width=\"40\" height=\"{height:.1}\" fill=\"#c0392b\"/><text x=\"{}\" y=\"400\" text-anchor=\"middle\">{label}</text><text x=\"{}\" y=\"{:.1}\" text-anchor=\"middle\">{count}</text>\n",
            360.0 - height, x + 20, x + 20, 355.0 - height
        ));
    }
    out.push_str(
        "<text x=\"440\" y=\"24\" font-size=\"15\">Time to fix (s; grey: not fixed)</text>\n",
    );
    let longest = checked
        .iter()
        .filter_map(|r| r.repair.as_ref())
        .map(|p| p.seconds)
        .fold(1.0, f64::max);
    let row = (380.0 / checked.len().max(1) as f64).min(18.0);
    for (i, r) in checked.iter().enumerate() {
        let p = r.repair.as_ref().unwrap();
        let y = 40.0 + i as f64 * row;
        let width = 300.0 * p.seconds / longest;
        let colour = if p.fixed { "#2980b9" } else { "#bbbbbb" };
        out.push_str(&format!(
            "<rect x=\"590\" y=\"{y:.1}\" width=\"{width:.1}\" height=\"{:.1}\" fill=\"{colour}\"/><text x=\"585\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"{:.0}\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.0}\">{:.0}</text>\n",
            row * 0.8, y + row * 0.7, (row * 0.7).min(11.0), r.id, 594.0 + width, y + row * 0.7, (row * 0.7).min(11.0), p.seconds
        ));
    }
    out.push_str("</svg>\n");
    out
}

/// Today's date (UTC) as YYYY-MM-DD.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
