//! One case of the benchmark: the setup check, the localization under every
//! metric and refinement, and the repair (as shipped and with `--refine
//! none`), whose patch is applied to a fresh copy and tested.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use cargo_autofix::{
    Counts, FileId, FixClass, LineEvidence, Location, Marks, Metric, RepairReport, Spectrum,
    Suspect, rank_refined, rank_suspects, rerank_by_evidence,
};
use serde::Serialize;
use serde_json::{Value, json};

use crate::Settings;
use crate::corpus::{self, Bug, Case, Sources, Version};

const AUTOFIX: &str = env!("CARGO_BIN_EXE_cargo-autofix");

/// Everything measured about one case (a bug, or several together).
#[derive(Debug, Clone, Serialize)]
pub struct BugRecord {
    pub id: String,
    pub subject: String,
    pub kind: String,
    pub function: Option<String>,
    pub faults: usize,
    pub check: CheckRecord,
    /// Worst-case rank of the best-ranked faulty line per metric, from the
    /// plain spectrum of all failing tests (None: not executed).
    pub ranks: BTreeMap<String, Option<usize>>,
    /// The same (Ochiai) with each refinement on its own and all together:
    /// see `REFINEMENTS`.
    pub refined_ranks: BTreeMap<String, Option<usize>>,
    /// Failure groups the failing tests fell into.
    pub groups: usize,
    pub executed_lines: usize,
    pub localize_seconds: f64,
    /// Of which the mutation refinement took.
    pub mutation_seconds: f64,
    /// A plain `cargo test` of the buggy version (the setup check's, built).
    pub cargo_test_seconds: f64,
    /// With `--rank-only`: what a user pays to see the tests again after
    /// an edit (a comment appended to the buggy file, then `cargo test`,
    /// warm), and a second `--rank-only` on the unchanged copy, with
    /// whether it ranked the same.
    pub cycle_seconds: f64,
    pub rerun_seconds: f64,
    pub rerun_same: bool,
    /// The repair as it ships (every refinement), and with `--refine none`.
    pub repair: Option<RepairRecord>,
    pub repair_unrefined: Option<RepairRecord>,
    /// The repair by an earlier build (`--previous`), when this one failed.
    pub repair_previous: Option<RepairRecord>,
    /// For a real bug: "A -> B: what B fixed".
    pub historical: Option<String>,
    /// The shape of the fix (see `corpus::SHAPES`).
    pub shape: Option<String>,
}

/// The localization variants compared: plain Ochiai over all failing
/// tests; per failure group (the best rank among the groups' rankings);
/// preferring the dynamic slice; preferring critical predicates; and all
/// three, as `--rank-only` ranks by default.
pub const REFINEMENTS: [&str; 9] = [
    "plain",
    "groups",
    "slices",
    "switching",
    "mutation",
    "all but mutation",
    "all",
    "all, by metallaxis",
    "all, by muse",
];

#[derive(Debug, Clone, Serialize)]
pub struct CheckRecord {
    pub ok: bool,
    pub original_passes: bool,
    pub buggy_builds: bool,
    pub buggy_failed: usize,
    pub buggy_tests: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct RepairRecord {
    pub fixed: bool,
    pub exit_code: Option<i32>,
    pub applies: bool,
    pub passes_cargo_test: bool,
    pub restores_original: bool,
    pub seconds: f64,
    /// The seconds candidates were built and judged in: the evaluator's
    /// preparation (the woven build, and the sweep's first batch judged in
    /// it), the sweep and the genetic search.
    pub search_seconds: f64,
    /// Per stage of the repair (`localize`, `types`, `sweep`, `choose`,
    /// `validate`...), the seconds it took, summed over failure groups.
    #[serde(default)]
    pub stage_seconds: BTreeMap<String, f64>,
    pub candidates: usize,
    pub compiled: usize,
    /// Candidates over `search_seconds`.
    pub candidates_per_second: f64,
    /// Failure groups the repair searched a patch for, one after another.
    pub stages: usize,
    /// Single edits the sweep tried; whether the sweep found the patch (no
    /// generation of the genetic search ran).
    pub swept_edits: usize,
    pub by_sweep: bool,
    /// Plausible patches the sweeps found, in all (the one chosen included).
    pub alternatives: usize,
    /// Each of them, in the order of the choice: its edits
    /// (`file:line operator: replacement`) and what the choice measured.
    #[serde(default)]
    pub alternative_patches: Vec<String>,
    /// Per operator: candidates tried and compiled.
    pub operators: BTreeMap<String, [usize; 2]>,
    /// The operators of the patch's edits.
    pub patch_operators: Vec<String>,
    pub patch: Option<String>,
    /// How sure the repair was of its patch (`likely`, `plausible`), and
    /// why (`+` for, `-` against).
    pub confidence: Option<String>,
    pub reasons: Vec<String>,
}

impl RepairRecord {
    /// A patch was emitted, applies to a fresh buggy copy and passes `cargo test` there.
    pub fn plausible(&self) -> bool {
        self.fixed && self.applies && self.passes_cargo_test
    }
}

pub fn run_case(
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
        mutation_seconds: 0.0,
        cargo_test_seconds: check.buggy_test_seconds,
        cycle_seconds: 0.0,
        rerun_seconds: 0.0,
        rerun_same: false,
        repair: None,
        repair_unrefined: None,
        repair_previous: None,
        historical: case.bugs.iter().find_map(|b| b.historical.clone()),
        shape: case.bugs.iter().find_map(|b| b.shape.clone()),
    };
    if !check.ok() {
        return Ok(record);
    }
    let buggy = sources.materialize(case, Version::Buggy)?;

    // Localization: one run with every refinement; every metric and every
    // combination of refinements recomputed from its counts and marks. The
    // subject's target dir is shared by runs: what an earlier one kept in
    // the cache goes first, so that the time is the work's.
    let target_dir = sources
        .target_dir(case.subject)
        .unwrap_or_else(|| buggy.path().join("target"));
    let _ = fs::remove_dir_all(target_dir.join("autofix/cache"));
    let rank_only = || {
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
        );
        (output, started.elapsed().as_secs_f64())
    };
    let (output, seconds) = rank_only();
    let output = output?;
    record.localize_seconds = seconds;
    if !output.status.success() {
        bail!(
            "--rank-only failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let localization: Value = serde_json::from_slice(&output.stdout)?;
    let files = Files::of(&localization);
    let spectrum = spectrum_of(&localization["ranking"], &localization["tests"], &files);
    record.executed_lines = spectrum.lines.len();
    let mut faults: Vec<Location> = Vec::new();
    for bug in &case.bugs {
        let text = fs::read_to_string(buggy.path().join(&bug.file))?;
        faults.extend(fault_locations(&spectrum, bug, &files, &text));
    }
    for metric in Metric::ALL {
        record.ranks.insert(
            metric.name().to_string(),
            best_rank(&rank_suspects(&spectrum, metric), &faults),
        );
    }
    if let Some(dir) = &settings.keep_rankings {
        let faults: Vec<Value> = faults
            .iter()
            .map(|f| json!({"file": files.0[f.file.index()], "line": f.line}))
            .collect();
        fs::create_dir_all(dir)?;
        fs::write(
            dir.join(format!("{}.json", case.id)),
            serde_json::to_vec(&json!({"faults": faults, "localization": localization}))?,
        )?;
    }
    record.groups = localization["groups"].as_array().map_or(0, Vec::len);
    record.refined_ranks = refinement_ranks(&localization, &faults, &files);
    record.mutation_seconds = localization["mutation"]["seconds"].as_f64().unwrap_or(0.0);
    if settings.rank_only {
        let (again, seconds) = rank_only();
        let again: Value = serde_json::from_slice(&again?.stdout)?;
        record.rerun_seconds = seconds;
        record.rerun_same = again["ranking"] == localization["ranking"];
        record.cycle_seconds = edit_build_test(sources, case, buggy.path())?;
        return Ok(record);
    }

    // Repair, as it ships and with no refinement; which goes first
    // alternates from case to case, so neither always finds the other's
    // builds warm.
    let repair = |binary: &Path, extra: &[&str]| {
        run_repair(sources, case, buggy.path(), settings, binary, extra)
    };
    let shipped = Path::new(AUTOFIX);
    if !settings.unrefined {
        record.repair = Some(repair(shipped, &[])?);
    } else if index.is_multiple_of(2) {
        record.repair = Some(repair(shipped, &[])?);
        record.repair_unrefined = Some(repair(shipped, &["--refine", "none"])?);
    } else {
        record.repair_unrefined = Some(repair(shipped, &["--refine", "none"])?);
        record.repair = Some(repair(shipped, &[])?);
    }
    if let Some(previous) = &settings.previous
        && !record.repair.as_ref().is_some_and(RepairRecord::plausible)
    {
        record.repair_previous = Some(repair(previous, &[])?);
    }
    Ok(record)
}

/// The seconds of an edit-build-test cycle in `dir`, warm: the copy built
/// first, then a comment appended to the first bug's file and `cargo test`
/// run as the setup check runs it.
fn edit_build_test(sources: &Sources, case: &Case, dir: &Path) -> Result<f64> {
    let test = |args: &[&str]| {
        sources
            .cargo(case.subject)
            .args(args)
            .current_dir(dir)
            .output()
    };
    test(&["test", "--no-run", "--quiet"])?;
    let file = dir.join(&case.bugs[0].file);
    let mut text = fs::read_to_string(&file)?;
    text.push_str("\n// edited\n");
    fs::write(&file, text)?;
    let started = Instant::now();
    test(&["test", "--no-fail-fast", "--lib", "--bins", "--tests"])?;
    Ok(started.elapsed().as_secs_f64())
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
/// counts, and the `in_slice`, `critical` and `mutation` marks of each
/// entry. The mutation evidence is for the top lines of the refined
/// rankings: with fewer refinements, a line in the top ten without
/// evidence counts as one where no edit was tried.
fn refinement_ranks(
    localization: &Value,
    faults: &[Location],
    files: &Files,
) -> BTreeMap<String, Option<usize>> {
    let marked = |entries: &Value, mark: &str| -> BTreeSet<Location> {
        entries
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e[mark] == true)
            .map(|e| location_of(e, files))
            .collect()
    };
    let none = BTreeSet::new();
    let overall = &localization["ranking"];
    let spectrum = spectrum_of(overall, &localization["tests"], files);
    let refined =
        |spectrum: &Spectrum, slice: &BTreeSet<Location>, critical: &BTreeSet<Location>| {
            let marks = Marks {
                slice: Some(slice),
                critical: Some(critical),
                crash: None,
            };
            rank_refined(spectrum, Metric::Ochiai, &marks)
        };
    let rank = |suspects: &[Suspect]| best_rank(suspects, faults);
    // Each group's refined ranking (over its own failing tests and every
    // passing test), then `then` applied to it with the group's evidence.
    let per_group = |marks: bool, then: &Reorder| {
        localization["groups"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|group| {
                let tests = json!({
                    "failed": group["failing"].as_array().map_or(0, Vec::len),
                    "passed": localization["tests"]["passed"],
                });
                let spectrum = spectrum_of(&group["ranking"], &tests, files);
                let mut suspects = if marks {
                    let slice = marked(&group["ranking"], "in_slice");
                    let critical = marked(&group["ranking"], "critical");
                    let crash = marked(&group["ranking"], "crash");
                    let marks = Marks {
                        slice: Some(&slice),
                        critical: Some(&critical),
                        crash: Some(&crash),
                    };
                    rank_refined(&spectrum, Metric::Ochiai, &marks)
                } else {
                    refined(&spectrum, &none, &none)
                };
                then(&mut suspects, &evidence_of(&group["ranking"], files));
                rank(&suspects)
            })
            .min()
    };
    let as_is = |_: &mut Vec<Suspect>, _: &Evidence| {};
    let by_classes = |suspects: &mut Vec<Suspect>, evidence: &Evidence| {
        rerank_by_evidence(suspects, evidence, evidence.len())
    };
    let mut plain_with_evidence = refined(&spectrum, &none, &none);
    by_classes(&mut plain_with_evidence, &evidence_of(overall, files));
    let variants = [
        rank(&refined(&spectrum, &none, &none)),
        per_group(false, &as_is),
        rank(&refined(&spectrum, &marked(overall, "in_slice"), &none)),
        rank(&refined(&spectrum, &none, &marked(overall, "critical"))),
        rank(&plain_with_evidence),
        per_group(true, &as_is),
        per_group(true, &by_classes),
        per_group(true, &|s, e| by_score(s, e, |m| m.metallaxis)),
        per_group(true, &|s, e| by_score(s, e, |m| m.muse)),
    ];
    REFINEMENTS
        .iter()
        .map(|name| name.to_string())
        .zip(variants)
        .collect()
}

/// Per line the mutation refinement tried (its `MUTATION_LINES` lines of
/// code from the top of the ranking, and the constants among them), what
/// edits there did: as many lines from the top get evidence again.
type Evidence = BTreeMap<Location, LineEvidence>;

/// A change to a ranking given its evidence.
type Reorder = dyn Fn(&mut Vec<Suspect>, &Evidence);

/// The mutation evidence of a `--format json` ranking's entries (every
/// entry the refinement tried has its `mutation`, untried ones too).
fn evidence_of(entries: &Value, files: &Files) -> Evidence {
    entries
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let m = &e["mutation"];
            let evidence = LineEvidence {
                edits: m["edits"].as_u64()? as usize,
                class: FixClass::named(m["class"].as_str()?)?,
                metallaxis: m["metallaxis"].as_f64()?,
                muse: m["muse"].as_f64()?,
            };
            Some((location_of(e, files), evidence))
        })
        .collect()
}

/// The first suspects (as many as the refinement tried) reordered by a
/// mutation score alone (Metallaxis or MUSE), highest first, ties in the
/// refined order and ranked worst-case; lines without edits score 0.
fn by_score(suspects: &mut [Suspect], evidence: &Evidence, score: fn(&LineEvidence) -> f64) {
    let window = evidence.len().min(suspects.len());
    let of = |s: &Suspect| evidence.get(&s.location).map_or(0.0, score);
    suspects[..window].sort_by(|a, b| of(b).total_cmp(&of(a)));
    for index in 0..window {
        let value = of(&suspects[index]);
        suspects[index].rank = suspects[..window]
            .iter()
            .rposition(|s| of(s) == value)
            .map_or(index + 1, |last| last + 1);
    }
}

/// One repair of the buggy copy in `dir` (with `extra` arguments), and
/// what its patch does to a fresh copy.
fn run_repair(
    sources: &Sources,
    case: &Case,
    dir: &Path,
    settings: &Settings,
    binary: &Path,
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
    let output = autofix_with(binary, dir, sources.target_dir(case.subject), &args)?;
    let seconds = started.elapsed().as_secs_f64();
    // A run that stops before the repair (a crash, say) writes no report.
    let report: Option<RepairReport> = match fs::read_to_string(&report_path) {
        Ok(text) => Some(serde_json::from_str(&text).context("cannot read the repair report")?),
        Err(_) => None,
    };
    // A patch is printed with exit 0 (likely) or 13 (only plausible).
    let patch = matches!(output.status.code(), Some(0 | 13))
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned());
    let (applies, passes, restores) = match &patch {
        Some(diff) => verify_patch(sources, case, diff)?,
        None => (false, false, false),
    };
    let confidence = report.as_ref().and_then(|r| r.confidence.as_ref());
    let candidates = report.as_ref().map_or(0, |r| r.candidates_evaluated);
    // Candidates are evaluated in the sweep and the genetic search.
    let search_seconds = report.as_ref().map_or(0.0, |r| {
        ["prepare", "sweep", "search"]
            .iter()
            .filter_map(|k| r.timings_seconds.get(*k))
            .sum()
    });
    Ok(RepairRecord {
        fixed: patch.is_some(),
        exit_code: output.status.code(),
        applies,
        passes_cargo_test: passes,
        restores_original: restores,
        seconds,
        search_seconds,
        stage_seconds: report
            .as_ref()
            .map(|r| r.timings_seconds.clone())
            .unwrap_or_default(),
        candidates,
        compiled: report.as_ref().map_or(0, |r| r.candidates_compiled),
        candidates_per_second: if search_seconds > 0.0 {
            candidates as f64 / search_seconds
        } else {
            0.0
        },
        stages: report.as_ref().map_or(0, |r| r.stages.len()),
        swept_edits: report.as_ref().map_or(0, |r| r.swept_edits),
        by_sweep: report
            .as_ref()
            .is_some_and(|r| r.patch.is_some() && r.generations == 0),
        alternatives: report
            .as_ref()
            .map_or(0, |r| r.stages.iter().map(|s| s.alternatives.len()).sum()),
        alternative_patches: report
            .iter()
            .flat_map(|r| r.stages.iter().flat_map(|s| &s.alternatives))
            .map(|a| {
                let edits: Vec<String> = a
                    .edits
                    .iter()
                    .map(|e| format!("{}:{} {}: {}", e.file, e.line, e.operator, e.replacement))
                    .collect();
                format!(
                    "{} | {}",
                    edits.join(" ; "),
                    serde_json::to_string(&a.measures).unwrap_or_default()
                )
            })
            .collect(),
        operators: report
            .as_ref()
            .map(|r| {
                r.operators
                    .iter()
                    .map(|(name, o)| (name.clone(), [o.tried, o.compiled]))
                    .collect()
            })
            .unwrap_or_default(),
        patch_operators: report
            .as_ref()
            .map(|r| r.edits.iter().map(|e| e.operator.clone()).collect())
            .unwrap_or_default(),
        patch,
        confidence: confidence.map(|c| c.level.name().to_string()),
        reasons: confidence
            .into_iter()
            .flat_map(|c| &c.reasons)
            .map(|r| format!("{} {}", if r.supports { '+' } else { '-' }, r.text))
            .collect(),
    })
}

/// Runs cargo-autofix in `dir`, building in `target` (the subject's shared target dir).
fn autofix(dir: &Path, target: Option<PathBuf>, args: &[&str]) -> Result<std::process::Output> {
    autofix_with(Path::new(AUTOFIX), dir, target, args)
}

/// Runs `binary` (a cargo-autofix) in `dir`, building in `target`.
fn autofix_with(
    binary: &Path,
    dir: &Path,
    target: Option<PathBuf>,
    args: &[&str],
) -> Result<std::process::Output> {
    let mut command = Command::new(binary);
    command.arg("autofix").args(args).current_dir(dir);
    if let Some(target) = target {
        command.arg("--target-dir").arg(target);
    }
    command.output().context("cannot run cargo-autofix")
}

/// The files a `--format json` localization names, each with a [`FileId`]
/// (for the `Location`s of its ranking).
struct Files(Vec<String>);

impl Files {
    fn of(localization: &Value) -> Files {
        let entries = |ranking: &Value| -> Vec<String> {
            ranking
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["file"].as_str().map(str::to_string))
                .collect()
        };
        let mut files: BTreeSet<String> = entries(&localization["ranking"]).into_iter().collect();
        for group in localization["groups"].as_array().into_iter().flatten() {
            files.extend(entries(&group["ranking"]));
        }
        Files(files.into_iter().collect())
    }

    fn id(&self, file: &str) -> Option<FileId> {
        self.0.iter().position(|f| f == file).map(FileId::new)
    }
}

/// The location of a `--format json` ranking entry.
fn location_of(entry: &Value, files: &Files) -> Location {
    let file = files
        .id(entry["file"].as_str().unwrap_or(""))
        .expect("every file of the ranking is known");
    Location::new(file, entry["line"].as_u64().unwrap_or(0) as u32)
}

/// The spectrum of a `--format json` ranking (its entries, and the test
/// counts it was computed from).
fn spectrum_of(entries: &Value, tests: &Value, files: &Files) -> Spectrum {
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
            (location_of(entry, files), counts)
        })
        .collect();
    Spectrum { totals, lines }
}

/// The ranked locations that stand for the bug (see [`Bug::fault_lines`]).
fn fault_locations(spectrum: &Spectrum, bug: &Bug, files: &Files, text: &str) -> Vec<Location> {
    let Some(file) = files.id(&bug.file.to_string_lossy()) else {
        return Vec::new();
    };
    let executed: BTreeSet<u32> = spectrum
        .lines
        .keys()
        .filter(|l| l.file == file)
        .map(|l| l.line)
        .collect();
    bug.fault_lines(&executed, text)
        .into_iter()
        .map(|line| Location::new(file, line))
        .collect()
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
                // An equivalent takes the place of all the original's lines
                // (it may have another number of lines).
                for equivalent in &bug.equivalent {
                    let mut lines: Vec<String> =
                        text.split_inclusive('\n').map(str::to_string).collect();
                    let start = bug.line - 1;
                    let end = (start + bug.original_lines().len()).min(lines.len());
                    lines.splice(
                        start..end,
                        equivalent.split('\n').map(|line| format!("{line}\n")),
                    );
                    variants.push(lines.concat());
                }
            }
            restorations.extend(variants);
        }
        restores &= patched.is_some() && restorations.iter().any(|text| tokens(text) == patched);
    }
    Ok((true, passes, restores))
}
