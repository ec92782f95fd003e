//! The cargo-autofix benchmark: localization accuracy (per metric, and per
//! refinement), repair rate (with and without the refinements) and speed on
//! a corpus of real bugs (`bench/corpus.toml`), single and combined.
//!
//! ```text
//! cargo bench --bench autofix                 # every bug
//! cargo bench --bench autofix -- --quick      # the quick subset
//! cargo bench --bench autofix -- --only ID... # some bugs or combinations
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
use cargo_autofix::config::Config;
use cargo_autofix::console::Console;

use cargo_autofix::cargo::build::TestExecutable;
use cargo_autofix::cargo::discover::Kind;
use cargo_autofix::localize::{Counts, Metric, Spectrum, Suspect, rank_refined, rank_suspects};
use cargo_autofix::options::{EvaluatorKind, Options};
use cargo_autofix::source::Location;
use cargo_autofix::suite::{TestSuite, test_id};
use cargo_autofix::{baseline, cli, process, repair};
use corpus::{Bug, Case, Corpus, Sources, Subject, Version};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use serde_json::{Value, json};

const AUTOFIX: &str = env!("CARGO_BIN_EXE_cargo-autofix");

/// How long one `cargo test` of the naive loop may take.
const NAIVE_TIMEOUT: Duration = Duration::from_secs(60);

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
    let mut iter = args.iter().peekable();
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
            "--only" => {
                while let Some(id) = iter.next_if(|a| !a.starts_with("--")) {
                    settings.only.push(id.clone());
                }
            }
            other => bail!(
                "unknown argument {other} (expected --quick, --only ID..., --time-limit SECS, --naive N, --corpus FILE, --out DIR)"
            ),
        }
    }
    settings.time_limit = time_limit.unwrap_or(if settings.quick { 45 } else { 90 });
    // A generation's worth of candidates (the default population).
    settings.naive = naive.unwrap_or(40);
    settings.command = format!("cargo bench --bench autofix -- {}", args.join(" "))
        .trim_end()
        .trim_end_matches(" --")
        .to_string();
    Ok(settings)
}

/// Everything measured about one case (a bug, or several together).
#[derive(Debug, Clone, Serialize)]
struct BugRecord {
    id: String,
    subject: String,
    kind: String,
    function: Option<String>,
    faults: usize,
    check: CheckRecord,
    /// Worst-case rank of the best-ranked faulty line per metric, from the
    /// plain spectrum of all failing tests (None: not executed).
    ranks: BTreeMap<String, Option<usize>>,
    /// The same (Ochiai) with each refinement on its own and all together:
    /// see `REFINEMENTS`.
    refined_ranks: BTreeMap<String, Option<usize>>,
    /// Failure groups the failing tests fell into.
    groups: usize,
    executed_lines: usize,
    localize_seconds: f64,
    /// The repair as it ships (every refinement), and with `--refine none`.
    repair: Option<RepairRecord>,
    repair_unrefined: Option<RepairRecord>,
}

/// The localization variants compared: plain Ochiai over all failing
/// tests; per failure group (the best rank among the groups' rankings);
/// preferring the dynamic slice; preferring critical predicates; and all
/// three, as `--rank-only` ranks by default.
const REFINEMENTS: [&str; 5] = ["plain", "groups", "slices", "switching", "all"];

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
    /// Failure groups the repair searched a patch for, one after another.
    stages: usize,
    patch: Option<String>,
}

impl RepairRecord {
    /// A patch was emitted, applies to a fresh buggy copy and passes `cargo test` there.
    fn plausible(&self) -> bool {
        self.fixed && self.applies && self.passes_cargo_test
    }
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
    let cases = select(&corpus, &settings);
    let subjects: Vec<&Subject> = corpus
        .subjects
        .iter()
        .filter(|s| cases.iter().any(|c| c.subject.name == s.name))
        .collect();
    eprintln!(
        "benchmark: {} cases in {} subjects, {} s per repair",
        cases.len(),
        subjects.len(),
        settings.time_limit
    );
    let started = Instant::now();
    let mut sources = Sources::fetch(&subjects)?;
    sources.targets = Some(root.join("target/bench"));
    let mut records = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        eprintln!(
            "[{}/{}] {} ({})",
            index + 1,
            cases.len(),
            case.id,
            case.kind
        );
        match run_case(&sources, case, &settings, index) {
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
            let Some(case) = cases.iter().find(|c| {
                c.subject.name == subject.name
                    && c.bugs.len() == 1
                    && records.iter().any(|r| r.id == c.id && r.check.ok)
            }) else {
                continue;
            };
            eprintln!(
                "speed: {} ({} candidates, ours vs write-files-and-cargo-test)",
                subject.name, settings.naive
            );
            match speed_comparison(&sources, case, settings.naive) {
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

/// The cases to run: `--only`, else the quick subset (every fixture bug,
/// the first bug of each crate, and every combination), else all.
fn select<'c>(corpus: &'c Corpus, settings: &Settings) -> Vec<Case<'c>> {
    let cases = corpus.cases();
    if !settings.only.is_empty() {
        return cases
            .into_iter()
            .filter(|c| settings.only.iter().any(|id| id == c.id))
            .collect();
    }
    if !settings.quick {
        return cases;
    }
    let mut taken: BTreeSet<&str> = BTreeSet::new();
    cases
        .into_iter()
        .filter(|c| c.subject.is_fixture() || c.bugs.len() > 1 || taken.insert(&c.subject.name))
        .collect()
}

fn run_case(
    sources: &Sources,
    case: &Case,
    settings: &Settings,
    index: usize,
) -> Result<BugRecord> {
    let check = corpus::check(sources, case)?;
    let functions: Vec<&str> = case
        .bugs
        .iter()
        .filter_map(|b| b.function.as_deref())
        .collect();
    let mut record = BugRecord {
        id: case.id.to_string(),
        subject: case.subject.name.clone(),
        kind: case.kind.to_string(),
        function: (!functions.is_empty()).then(|| functions.join(", ")),
        faults: case.bugs.len(),
        check: CheckRecord {
            ok: check.ok(),
            original_passes: check.original_passes,
            buggy_builds: check.buggy_builds,
            buggy_failed: check.buggy_tests.0,
            buggy_tests: check.buggy_tests.1,
        },
        ranks: BTreeMap::new(),
        refined_ranks: BTreeMap::new(),
        groups: 0,
        executed_lines: 0,
        localize_seconds: 0.0,
        repair: None,
        repair_unrefined: None,
    };
    if !check.ok() {
        return Ok(record);
    }
    let buggy = sources.materialize(case, Version::Buggy)?;

    // Localization: one run with every refinement; every metric and every
    // combination of refinements recomputed from its counts and marks.
    let started = Instant::now();
    let output = autofix(
        buggy.path(),
        sources.target_dir(case.subject),
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
    let localization: Value = serde_json::from_slice(&output.stdout)?;
    let spectrum = spectrum_of(&localization["ranking"], &localization["tests"]);
    record.executed_lines = spectrum.lines.len();
    let faults: Vec<Location> = case
        .bugs
        .iter()
        .filter_map(|bug| fault_location(&spectrum, bug))
        .collect();
    for metric in Metric::ALL {
        record.ranks.insert(
            metric.name().to_string(),
            best_rank(&rank_suspects(&spectrum, metric), &faults),
        );
    }
    record.groups = localization["groups"].as_array().map_or(0, Vec::len);
    record.refined_ranks = refinement_ranks(&localization, &faults);

    // Repair, as it ships and with no refinement; which goes first
    // alternates from case to case, so neither always finds the other's
    // builds warm.
    let repair = |extra: &[&str]| run_repair(sources, case, buggy.path(), settings, extra);
    if index % 2 == 0 {
        record.repair = Some(repair(&[])?);
        record.repair_unrefined = Some(repair(&["--refine", "none"])?);
    } else {
        record.repair_unrefined = Some(repair(&["--refine", "none"])?);
        record.repair = Some(repair(&[])?);
    }
    Ok(record)
}

/// The rank of the best-ranked fault among `suspects`.
fn best_rank(suspects: &[Suspect], faults: &[Location]) -> Option<usize> {
    suspects
        .iter()
        .filter(|s| faults.contains(&s.location))
        .map(|s| s.rank)
        .min()
}

/// The best rank of a fault under each of `REFINEMENTS`, from one
/// `--rank-only --format json` localization: its overall and per-group
/// counts, and the `in_slice` and `critical` marks of each entry.
fn refinement_ranks(localization: &Value, faults: &[Location]) -> BTreeMap<String, Option<usize>> {
    let marked = |entries: &Value, mark: &str| -> BTreeSet<Location> {
        entries
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e[mark] == true)
            .map(location_of)
            .collect()
    };
    let none = BTreeSet::new();
    let overall = &localization["ranking"];
    let spectrum = spectrum_of(overall, &localization["tests"]);
    let rank = |spectrum: &Spectrum, slice: &BTreeSet<Location>, critical: &BTreeSet<Location>| {
        best_rank(
            &rank_refined(spectrum, Metric::Ochiai, slice, critical),
            faults,
        )
    };
    // Each group's ranking, over its own failing tests and every passing test.
    let per_group = |refined: bool| -> Option<usize> {
        localization["groups"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|group| {
                let tests = json!({
                    "failed": group["failing"].as_array().map_or(0, Vec::len),
                    "passed": localization["tests"]["passed"],
                });
                let spectrum = spectrum_of(&group["ranking"], &tests);
                if refined {
                    let slice = marked(&group["ranking"], "in_slice");
                    let critical = marked(&group["ranking"], "critical");
                    rank(&spectrum, &slice, &critical)
                } else {
                    rank(&spectrum, &none, &none)
                }
            })
            .min()
    };
    let variants = [
        rank(&spectrum, &none, &none),
        per_group(false),
        rank(&spectrum, &marked(overall, "in_slice"), &none),
        rank(&spectrum, &none, &marked(overall, "critical")),
        per_group(true),
    ];
    REFINEMENTS
        .iter()
        .map(|name| name.to_string())
        .zip(variants)
        .collect()
}

/// One repair of the buggy copy in `dir` (with `extra` arguments), and
/// what its patch does to a fresh copy.
fn run_repair(
    sources: &Sources,
    case: &Case,
    dir: &Path,
    settings: &Settings,
    extra: &[&str],
) -> Result<RepairRecord> {
    let reports = tempfile::tempdir()?;
    let report_path = reports.path().join("report.json");
    let time_limit = settings.time_limit.to_string();
    let mut args = vec![
        "-q",
        "--seed",
        "0",
        "--time-limit",
        &time_limit,
        "--test-timeout",
        "30",
        "--report",
        report_path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let started = Instant::now();
    let output = autofix(dir, sources.target_dir(case.subject), &args)?;
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
        Some(diff) => verify_patch(sources, case, diff)?,
        None => (false, false, false),
    };
    let candidates = report["candidates_evaluated"].as_u64().unwrap_or(0);
    let search_seconds = report["timings_seconds"]["search"].as_f64().unwrap_or(0.0);
    Ok(RepairRecord {
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
        stages: report["stages"].as_array().map_or(0, Vec::len),
        patch,
    })
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

/// The location of a `--format json` ranking entry.
fn location_of(entry: &Value) -> Location {
    Location {
        file: PathBuf::from(entry["file"].as_str().unwrap_or("")),
        line: entry["line"].as_u64().unwrap_or(0) as u32,
    }
}

/// The spectrum of a `--format json` ranking (its entries, and the test
/// counts it was computed from).
fn spectrum_of(entries: &Value, tests: &Value) -> Spectrum {
    let count = |value: &Value| value.as_u64().unwrap_or(0) as u32;
    let totals = Counts {
        failed: count(&tests["failed"]),
        passed: count(&tests["passed"]),
    };
    let lines = entries
        .as_array()
        .into_iter()
        .flatten()
        .map(|entry| {
            let counts = Counts {
                failed: count(&entry["failed"]),
                passed: count(&entry["passed"]),
            };
            (location_of(entry), counts)
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
/// test`, and give back the original files (token for token, or with known
/// equivalent lines of the bugs in place of their original lines)?
fn verify_patch(sources: &Sources, case: &Case, diff: &str) -> Result<(bool, bool, bool)> {
    let copy = sources.materialize(case, Version::Buggy)?;
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
        .cargo(case.subject)
        .args(["test", "--quiet"])
        .current_dir(copy.path())
        .output()?
        .status
        .success();
    let original = sources.materialize(case, Version::Original)?;
    let tokens = |text: &str| {
        proc_macro2::TokenStream::from_str(text)
            .ok()
            .map(|t| t.to_string())
    };
    // Every file with a bug, and every file the patch touches.
    let mut files: BTreeSet<PathBuf> = case.bugs.iter().map(|b| b.file.clone()).collect();
    files.extend(
        diff.lines()
            .filter_map(|l| l.strip_prefix("+++ b/"))
            .map(PathBuf::from),
    );
    let mut restores = true;
    for file in &files {
        let file = file.as_path();
        let patched = tokens(&fs::read_to_string(copy.path().join(file))?);
        // The original, and the original with known equivalents of its bugs' lines.
        let mut restorations = vec![fs::read_to_string(original.path().join(file))?];
        for bug in case.bugs.iter().filter(|b| b.file == file) {
            let mut variants = Vec::new();
            for text in &restorations {
                for line in &bug.equivalent {
                    let mut lines: Vec<String> =
                        text.split_inclusive('\n').map(str::to_string).collect();
                    lines[bug.line - 1] = format!("{line}\n");
                    variants.push(lines.concat());
                }
            }
            restorations.extend(variants);
        }
        restores &= patched.is_some() && restorations.iter().any(|text| tokens(text) == patched);
    }
    Ok((true, passes, restores))
}

/// Our two evaluators against the naive loop (write the files, `cargo
/// test`), on the same candidates, one after the other in one run.
fn speed_comparison(sources: &Sources, case: &Case, count: usize) -> Result<SpeedRecord> {
    let subject = case.subject;
    let buggy = sources.materialize(case, Version::Buggy)?;
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

    let candidates = mutator.sample(&mut StdRng::seed_from_u64(0), count);

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
    let naive_dir = sources.materialize(case, Version::Buggy)?;
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
        let finished = process::run(command, Some(NAIVE_TIMEOUT))?;
        let timed_out = matches!(finished.status, process::Status::TimedOut);
        let built = timed_out
            || (!finished.stdout.contains("error[E") && finished.stdout.contains("test result"));
        naive.push(built.then(|| passed_ids(&finished.stdout, &baseline.suite)));
    }
    let naive_seconds = started.elapsed().as_secs_f64();

    let names: BTreeMap<usize, &str> = baseline
        .suite
        .tests
        .iter()
        .enumerate()
        .map(|(i, t)| (i, t.id.as_str()))
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
            .map(|e| format!("line {} -> {:?}", e.location, e.edit.text))
            .collect();
        let differing: Vec<&str> = match theirs {
            Some(passed) => names
                .iter()
                .filter(|(i, n)| ours.passed().contains(i) != passed.contains(**n))
                .map(|(_, n)| *n)
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

/// The ids (as the suite names them) of the tests that passed in the output
/// of `cargo test` (stderr included): each `test NAME ... ok` line belongs to
/// the executable of the `Running` line before it (found by its file name,
/// `TARGET-HASH`); doctests are not in the suite.
fn passed_ids(output: &str, suite: &TestSuite) -> BTreeSet<String> {
    let normalized = |name: &str| name.replace('-', "_");
    let mut current: Option<&TestExecutable> = None;
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
            let matching: Vec<&TestExecutable> = suite
                .executables
                .iter()
                .filter(|e| normalized(&e.target) == stem)
                .collect();
            current = matching
                .iter()
                .find(|e| (e.kind == Kind::Lib) == unit_tests_of_lib)
                .or(matching.first())
                .copied();
        } else if trimmed.starts_with("Doc-tests ") {
            current = None;
        } else if let (Some(executable), Some((name, "ok"))) = (
            current,
            line.strip_prefix("test ")
                .and_then(|l| l.rsplit_once(" ... ")),
        ) {
            passed.insert(test_id(
                executable,
                name.trim_end_matches(" - should panic"),
            ));
        }
    }
    passed
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
    let rank = |rank: Option<usize>| rank.map_or("-".to_string(), |r| r.to_string());
    let repair = |r: &RepairRecord| {
        format!(
            "{} in {:.0} s, {} candidates ({} compiled){}",
            if r.plausible() { "fixed" } else { "not fixed" },
            r.seconds,
            r.candidates,
            r.compiled,
            if r.restores_original {
                ", restores the original"
            } else {
                ""
            }
        )
    };
    let mut line = format!(
        "ochiai rank {}/{} ({} refined, {} groups)",
        rank(record.ranks.get("ochiai").copied().flatten()),
        record.executed_lines,
        rank(record.refined_ranks.get("all").copied().flatten()),
        record.groups
    );
    if let Some(r) = &record.repair {
        line.push_str(&format!("; {}", repair(r)));
    }
    if let Some(r) = &record.repair_unrefined {
        line.push_str(&format!("; --refine none: {}", repair(r)));
    }
    line
}

/// Summary figures over the checked cases.
struct Summary {
    bugs: usize,
    /// Top-1/3/5 counts and mean EXAM per metric, then per refinement.
    per_metric: Vec<(String, [usize; 3], f64)>,
    per_refinement: Vec<(String, [usize; 3], f64)>,
    /// The repair as it ships, and with `--refine none`.
    refined: RepairSummary,
    unrefined: RepairSummary,
}

struct RepairSummary {
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
    // Top-1/3/5 and EXAM (the share of executed lines read before reaching
    // the fault, all of them if never) of one rank per case.
    let accuracy = |name: &str, rank: &dyn Fn(&BugRecord) -> Option<usize>| {
        let ranks: Vec<Option<usize>> = checked.iter().map(|r| rank(r)).collect();
        let top = [1, 3, 5].map(|n| ranks.iter().filter(|r| r.is_some_and(|r| r <= n)).count());
        let exam = checked
            .iter()
            .zip(&ranks)
            .map(|(r, rank)| rank.map_or(1.0, |rank| rank as f64 / r.executed_lines.max(1) as f64))
            .sum::<f64>()
            / checked.len().max(1) as f64;
        (name.to_string(), top, exam)
    };
    let per_metric = Metric::ALL
        .into_iter()
        .map(|metric| accuracy(metric.name(), &|r| r.ranks[metric.name()]))
        .collect();
    let per_refinement = REFINEMENTS
        .into_iter()
        .map(|name| accuracy(name, &|r| r.refined_ranks.get(name).copied().flatten()))
        .collect();
    let repairs = |which: &dyn Fn(&BugRecord) -> Option<&RepairRecord>| -> Vec<RepairRecord> {
        checked.iter().filter_map(|r| which(r).cloned()).collect()
    };
    Summary {
        bugs: checked.len(),
        per_metric,
        per_refinement,
        refined: summarize_repairs(&repairs(&|r| r.repair.as_ref())),
        unrefined: summarize_repairs(&repairs(&|r| r.repair_unrefined.as_ref())),
    }
}

fn summarize_repairs(repairs: &[RepairRecord]) -> RepairSummary {
    let plausible: Vec<&RepairRecord> = repairs.iter().filter(|r| r.plausible()).collect();
    let sorted = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values
    };
    let tried: Vec<&RepairRecord> = repairs.iter().filter(|r| r.candidates > 0).collect();
    RepairSummary {
        fixed: plausible.len(),
        restored: plausible.iter().filter(|r| r.restores_original).count(),
        median_fix_seconds: median(&sorted(plausible.iter().map(|r| r.seconds).collect())),
        median_candidates_per_second: median(&sorted(
            tried.iter().map(|r| r.candidates_per_second).collect(),
        )),
        median_compile_share: median(&sorted(
            tried
                .iter()
                .map(|r| r.compiled as f64 / r.candidates as f64)
                .collect(),
        )),
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
            "localization": accuracy_json(&summary.per_metric, "metric"),
            "refinements": accuracy_json(&summary.per_refinement, "refinement"),
            "repair": repair_json(&summary.refined),
            "repair_unrefined": repair_json(&summary.unrefined),
        },
        "bugs": records,
        "speed": speed,
    })
}

fn accuracy_json(rows: &[(String, [usize; 3], f64)], key: &str) -> Value {
    rows.iter()
        .map(|(name, top, exam)| {
            json!({key: name, "top1": top[0], "top3": top[1], "top5": top[2], "mean_exam": exam})
        })
        .collect()
}

fn repair_json(summary: &RepairSummary) -> Value {
    json!({
        "plausible": summary.fixed,
        "restores_original": summary.restored,
        "median_time_to_fix_seconds": summary.median_fix_seconds,
        "median_candidates_per_second": summary.median_candidates_per_second,
        "median_compile_share": summary.median_compile_share,
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
        "## Summary ({} cases that passed the setup check)\n\n",
        summary.bugs
    ));
    let accuracy_table = |md: &mut String, heading: &str, rows: &[(String, [usize; 3], f64)]| {
        md.push_str(&format!(
            "| {heading} | top-1 | top-3 | top-5 | mean EXAM |\n|---|---|---|---|---|\n"
        ));
        for (name, top, exam) in rows {
            md.push_str(&format!(
                "| {name} | {} ({:.0}%) | {} ({:.0}%) | {} ({:.0}%) | {exam:.3} |\n",
                top[0],
                percent(top[0]),
                top[1],
                percent(top[1]),
                top[2],
                percent(top[2]),
            ));
        }
    };
    accuracy_table(&mut md, "metric", &summary.per_metric);
    let fmt = |v: Option<f64>, unit: &str| v.map_or("-".to_string(), |v| format!("{v:.2}{unit}"));
    let share = |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{:.0}%", s * 100.0));
    let (with, without) = (&summary.refined, &summary.unrefined);
    md.push_str(&format!(
        "\n| repair | as shipped | `--refine none` |\n|---|---|---|\n\
         | plausible patches (apply, pass `cargo test`) | {} of {} ({:.0}%) | {} ({:.0}%) |\n\
         | restore the original (token for token) | {} ({:.0}%) | {} ({:.0}%) |\n\
         | median time to fix | {} | {} |\n\
         | median candidates per second | {} | {} |\n\
         | median share of candidates that compiled | {} | {} |\n",
        with.fixed,
        summary.bugs,
        percent(with.fixed),
        without.fixed,
        percent(without.fixed),
        with.restored,
        percent(with.restored),
        without.restored,
        percent(without.restored),
        fmt(with.median_fix_seconds, " s"),
        fmt(without.median_fix_seconds, " s"),
        fmt(with.median_candidates_per_second, ""),
        fmt(without.median_candidates_per_second, ""),
        share(with.median_compile_share),
        share(without.median_compile_share),
    ));
    md.push_str(
        "\nRanks are worst-case ranks (ties count against us) of the faulty line's location (for a case with several \
         faults, the best-ranked one); EXAM is rank / executed lines (1.0 when the line was never executed). A patch \
         *restores the original* when the patched file has the same tokens as the original file, or as the original with \
         one of the bug's `equivalent` lines (listed in the corpus, checked by hand: `> 69` for `>= 70` on integers) in \
         place of the faulty line; any other fix counts as plausible only. Both repairs run with the same seed and time \
         limit (which one goes first alternates from case to case); `--refine none` searches one failure group after \
         another too, but weighs locations by the group's plain spectrum score, with no slice or critical-predicate \
         boost, no critical-predicate seeds and no feedback.\n",
    );
    md.push_str(
        "\n## Localization refinements\n\nOchiai ranks of the faulty line with each refinement on its own and with all \
         of them, recomputed from one `--rank-only --format json` run per case (its counts and its `in_slice` and \
         `critical` marks). *plain*: one spectrum over all failing tests; *groups*: each failure group's own spectrum, \
         taking the best rank among the groups; *slices*: one spectrum, lines in the slice of every traced failing test of \
         some group first; *switching*: one spectrum, critical predicates first; *all*: per group, critical predicates, \
         then the group's slice, then the rest, as `--rank-only` ranks each group.\n\n",
    );
    accuracy_table(&mut md, "refinement", &summary.per_refinement);
    if !speed.is_empty() {
        md.push_str(
            "\n## Evaluation speed\n\nThe same candidates (one or two mutations at suspicious lines, like a search's) \
             evaluated three ways, one after the other in one run: the schema evaluator (the batch woven into shared builds, \
             candidates selected at run time, tests run in parallel), the rebuild evaluator (one incremental build per \
             candidate), and the naive loop (write the files, `cargo test`, which also runs doctests, killed after 60 s). Both evaluators use \
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
        "\n## Cases\n\n| case | kind | rank (ochiai / tarantula / dstar / op2 / jaccard) | rank (plain / groups / slices / switching / all) | groups | lines | localize (s) | repair | time (s) | candidates | compiled | stages | restores | `--refine none` |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let joined = |ranks: &BTreeMap<String, Option<usize>>,
                  names: &mut dyn Iterator<Item = &str>| {
        names
            .map(|name| {
                ranks
                    .get(name)
                    .copied()
                    .flatten()
                    .map_or("-".into(), |x| x.to_string())
            })
            .collect::<Vec<String>>()
            .join(" / ")
    };
    let outcome = |p: &RepairRecord| {
        if p.plausible() {
            "plausible"
        } else {
            "not found"
        }
    };
    for r in records {
        match (&r.repair, r.check.ok) {
            (Some(p), true) => md.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {:.1} | {} | {:.0} | {} | {} | {} | {} | {} |\n",
                r.id,
                r.kind,
                joined(&r.ranks, &mut Metric::ALL.iter().map(|m| m.name())),
                joined(&r.refined_ranks, &mut REFINEMENTS.into_iter()),
                r.groups,
                r.executed_lines,
                r.localize_seconds,
                outcome(p),
                p.seconds,
                p.candidates,
                p.compiled,
                p.stages,
                if p.restores_original { "yes" } else { "no" },
                r.repair_unrefined
                    .as_ref()
                    .map_or("-".to_string(), |u| format!(
                        "{} in {:.0} s",
                        outcome(u),
                        u.seconds
                    )),
            )),
            _ => md.push_str(&format!(
                "| {} | {} | setup check failed | | | | | | | | | | | |\n",
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
        let colour = if p.plausible() { "#2980b9" } else { "#bbbbbb" };
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
