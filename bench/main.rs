//! The cargo-autofix benchmark: localization accuracy (per metric, and per
//! refinement), repair rate (with and without the refinements) and speed on
//! a corpus of real bugs (`bench/corpus.toml`), single and combined.
//!
//! ```text
//! cargo bench --bench autofix                 # every bug
//! cargo bench --bench autofix -- --quick      # the quick subset
//! cargo bench --bench autofix -- --only ID... # some bugs or combinations
//! ```
//! Options: `--time-limit SECS` per repair, `--batch N` single edits the
//! speed comparison evaluates, `--naive N` of them the rebuild evaluator
//! and the naive loop evaluate (0 skips the comparison), `--shipped-only` (no `--refine none`
//! repair), `--previous BIN` (the cases not fixed are repaired again by
//! another cargo-autofix binary, an earlier build, to show what it fixed
//! that this one does not), `--corpus FILE`, `--out DIR`, `--keep-rankings DIR`
//! (each case's `--rank-only --format json` output and its fault lines, as
//! `DIR/ID.json`). Results go to
//! `bench/RESULTS.md`, `bench/results.json` and `bench/ranks.svg`.
//!
//! `--check-only` runs only the setup check of each case (the original
//! passes, the buggy version builds and fails some tests, as many as its
//! `failing` says), prints a line per case and writes no results:
//! ```text
//! cargo bench --bench autofix -- --corpus bench/real.toml --check-only [--only ID...]
//! ```

// Tests and the benchmark drive processes and print as they like: the
// invariants in clippy.toml are the product's.
#![allow(clippy::disallowed_methods, clippy::print_stderr, clippy::print_stdout)]

mod corpus;
mod plot;
mod report;
mod run;
mod speed;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use corpus::{Case, Corpus, Sources, Subject};

#[derive(Debug)]
pub struct Settings {
    quick: bool,
    only: Vec<String>,
    time_limit: u64,
    naive: usize,
    batch: usize,
    /// Also repair with `--refine none`.
    unrefined: bool,
    /// Localize only (no repair, no speed comparison).
    rank_only: bool,
    /// The setup check of each case only.
    check_only: bool,
    /// An earlier cargo-autofix binary, for the cases this one does not fix.
    previous: Option<PathBuf>,
    corpus: Option<PathBuf>,
    out: Option<PathBuf>,
    /// Where each case's `--rank-only --format json` output goes, with the
    /// lines of its faults (for studying other orderings offline).
    keep_rankings: Option<PathBuf>,
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
        batch: 200,
        unrefined: true,
        rank_only: false,
        check_only: false,
        previous: None,
        corpus: None,
        out: None,
        keep_rankings: None,
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
            "--batch" => settings.batch = iter.next().context("--batch needs a number")?.parse()?,
            "--shipped-only" => settings.unrefined = false,
            "--rank-only" => settings.rank_only = true,
            "--check-only" => settings.check_only = true,
            "--previous" => {
                settings.previous = Some(iter.next().context("--previous needs a binary")?.into())
            }
            "--corpus" => {
                settings.corpus = Some(iter.next().context("--corpus needs a file")?.into())
            }
            "--out" => settings.out = Some(iter.next().context("--out needs a directory")?.into()),
            "--keep-rankings" => {
                settings.keep_rankings = Some(
                    iter.next()
                        .context("--keep-rankings needs a directory")?
                        .into(),
                )
            }
            "--only" => {
                while let Some(id) = iter.next_if(|a| !a.starts_with("--")) {
                    settings.only.push(id.clone());
                }
            }
            other => bail!(
                "unknown argument {other} (expected --quick, --only ID..., --time-limit SECS, --batch N, --naive N, --shipped-only, --rank-only, --check-only, --previous BIN, --corpus FILE, --out DIR, --keep-rankings DIR)"
            ),
        }
    }
    settings.time_limit = time_limit.unwrap_or(if settings.quick { 45 } else { 90 });
    // Enough to compare costs per candidate; each costs the naive loop a
    // whole `cargo test`.
    settings.naive = naive.unwrap_or(20);
    settings.command = format!("cargo bench --bench autofix -- {}", args.join(" "))
        .trim_end()
        .trim_end_matches(" --")
        .to_string();
    Ok(settings)
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
    if settings.check_only {
        eprintln!(
            "setup check: {} cases in {} subjects",
            cases.len(),
            subjects.len()
        );
    } else {
        eprintln!(
            "benchmark: {} cases in {} subjects, {} s per repair",
            cases.len(),
            subjects.len(),
            settings.time_limit
        );
    }
    let started = Instant::now();
    let mut sources = Sources::fetch(&subjects)?;
    sources.targets = Some(root.join("target/bench"));
    if settings.check_only {
        return check_only(&sources, &cases, &subjects);
    }
    let mut records = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        eprintln!(
            "[{}/{}] {} ({})",
            index + 1,
            cases.len(),
            case.id,
            case.kind
        );
        match run::run_case(&sources, case, &settings, index) {
            Ok(record) => {
                eprintln!("    {}", report::one_line(&record));
                records.push(record);
            }
            Err(error) => eprintln!("    skipped: {error:#}"),
        }
        // What is done so far, so that a long run stopped early keeps it.
        write_results(&out, &records, &[], &settings, started.elapsed())?;
    }
    let mut speed = Vec::new();
    if settings.naive > 0 && !settings.rank_only {
        for subject in subjects.iter().filter(|s| !s.is_fixture()) {
            let Some(case) = cases.iter().find(|c| {
                c.subject.name == subject.name
                    && c.bugs.len() == 1
                    && records.iter().any(|r| r.id == c.id && r.check.ok)
            }) else {
                continue;
            };
            eprintln!(
                "speed: {} (a sweep's {} single edits; {} of them also rebuilt and by write-files-and-cargo-test)",
                subject.name, settings.batch, settings.naive
            );
            match speed::speed_comparison(&sources, case, settings.batch, settings.naive) {
                Ok(record) => {
                    eprintln!(
                        "    schema {:.2} s/candidate ({:.1}/s), rebuild {:.2}, naive {:.2}: {:.1}x faster than naive, {}/{} same outcomes",
                        record.schema_per_candidate,
                        record.candidates_per_second,
                        record.rebuild_per_candidate,
                        record.naive_per_candidate,
                        record.ratio,
                        record.same_outcome,
                        record.sample
                    );
                    speed.push(record);
                }
                Err(error) => eprintln!("    skipped: {error:#}"),
            }
        }
    }
    let elapsed = started.elapsed();
    write_results(&out, &records, &speed, &settings, elapsed)?;
    eprintln!(
        "wrote RESULTS.md, results.json and ranks.svg to {} in {:.0} s",
        out.display(),
        elapsed.as_secs_f64()
    );
    Ok(())
}

/// Writes `results.json`, `RESULTS.md` and `ranks.svg` to `out`.
fn write_results(
    out: &Path,
    records: &[run::BugRecord],
    speed: &[speed::SpeedRecord],
    settings: &Settings,
    elapsed: std::time::Duration,
) -> Result<()> {
    let results = report::results_json(records, speed, settings, elapsed);
    fs::create_dir_all(out)?;
    fs::write(out.join("results.json"), format!("{results:#}\n"))?;
    fs::write(
        out.join("RESULTS.md"),
        report::markdown(records, speed, settings, elapsed),
    )?;
    fs::write(out.join("ranks.svg"), plot::svg(records))?;
    Ok(())
}

/// `--check-only`: the setup check of every case, the original version of
/// each subject tested once (it is the same for all its bugs), one line per
/// case on stdout; fails if a case does not check out.
fn check_only(sources: &Sources, cases: &[Case], subjects: &[&Subject]) -> Result<()> {
    let mut bad = 0;
    for subject in subjects {
        let own: Vec<&Case> = cases
            .iter()
            .filter(|c| c.subject.name == subject.name)
            .collect();
        let started = Instant::now();
        let original_passes = match corpus::original_passes(sources, own[0]) {
            Ok(passes) => passes,
            Err(error) => {
                for case in &own {
                    println!("{:<40} ERROR  {error:#}", case.id);
                }
                bad += own.len();
                continue;
            }
        };
        eprintln!(
            "{}: original {} ({:.0} s)",
            subject.name,
            if original_passes { "passes" } else { "FAILS" },
            started.elapsed().as_secs_f64()
        );
        for case in own {
            let line = match corpus::check_buggy(sources, case, original_passes) {
                Ok(check) => {
                    // A combination's count is not the sum of its bugs'.
                    let declared = match case.bugs[..] {
                        [bug] => bug.failing,
                        _ => None,
                    };
                    let count_ok = declared.is_none_or(|n| n == check.buggy_tests.0);
                    let verdict = if check.ok() && count_ok { "ok" } else { "FAIL" };
                    bad += usize::from(verdict != "ok");
                    format!(
                        "{:<40} {verdict:<5}  original {}, buggy {}, {}/{} tests fail (declared {}), {:.1} s",
                        case.id,
                        if check.original_passes {
                            "passes"
                        } else {
                            "FAILS"
                        },
                        if check.buggy_builds {
                            "builds"
                        } else {
                            "DOES NOT BUILD"
                        },
                        check.buggy_tests.0,
                        check.buggy_tests.1,
                        declared.map_or("-".to_string(), |n| n.to_string()),
                        check.buggy_test_seconds
                    )
                }
                Err(error) => {
                    bad += 1;
                    format!("{:<40} ERROR  {error:#}", case.id)
                }
            };
            println!("{line}");
        }
    }
    println!("{} of {} cases check out", cases.len() - bad, cases.len());
    if bad > 0 {
        bail!("{bad} cases do not check out");
    }
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
