//! Validation: the patch applied to a fresh, uninstrumented copy of the
//! original crate, and its whole `cargo test` run, doctests included. Only
//! a patch that passes is emitted, and it is called plausible: it passes
//! the tests it was given.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::baseline::Baseline;
use crate::cargo::Workspace;
use crate::cargo::parse_results;
use crate::cargo::{
    BuildOutcome, BuildRequest, CompileError, Doctests, build_tests, diagnose_tests,
    doctests_merged, nextest_failures, run_all_tests, run_doctests, run_nextest,
};
use crate::cargo::{CargoFlags, TestTool};
use crate::code::{FileChange, unified_diff};
use crate::exit::Result;
use crate::repair::settings::Settings;
use crate::system::Budget;
use crate::system::console::Console;
use crate::system::process::{Finished, Status};
use crate::system::scratch::MAIN_TARGET;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validation {
    /// `cargo test` passes (tests known to be flaky may fail), with the
    /// compiler's warnings the patch adds (`file:line: message`), and the
    /// tests outside the search's that fail as they did without it.
    Passed {
        warnings: Vec<String>,
        still_failing: Vec<String>,
        /// What ran, for people (`cargo test, doctests included`).
        ran: String,
    },
    /// Why not: what does not build or which tests fail.
    Failed(String),
}

/// Applies `changes` (paths relative to the workspace root, new texts) to a
/// fresh copy and runs `cargo test --no-fail-fast` (with `TestTool::Nextest`:
/// `cargo nextest run`, then the doctests), with the tests of the other
/// members the patch edits or affects. Failures of `flaky` tests (by
/// libtest name) are tolerated; so are those of tests outside `ran` (the
/// tests the search ran, which must pass: the others are doctests and other
/// members' tests) that fail without the patch too. The end of `budget`
/// halts it.
pub fn validate(
    workspace: &Workspace,
    changes: &[(PathBuf, String)],
    features: &CargoFlags,
    (flaky, ran): (&BTreeSet<String>, &BTreeSet<String>),
    timeout: Duration,
    tool: TestTool,
    budget: Budget,
) -> Result<Validation> {
    let scratch = workspace.scratch_copy(MAIN_TARGET, budget)?;
    let mut unchanged = Vec::new();
    for (path, text) in changes {
        let original = fs::read_to_string(scratch.file(path)?).unwrap_or_default();
        unchanged.push((path.clone(), original));
        scratch.write(path, text)?;
    }
    let manifest_path = scratch.path_of(&workspace.package.manifest_path);
    let also = tested_with(workspace, changes);
    let request = BuildRequest {
        manifest_path: &manifest_path,
        package: &workspace.package.name,
        version: &workspace.package.version,
        also: &also,
        cargo: features,
        target_dir: &scratch.target_dir,
        cap_lints: false,
        budget,
    };
    if let BuildOutcome::Failed { errors, summary } = build_tests(&request, None, |_| {})? {
        let first = errors.first().map_or(summary, ToString::to_string);
        return Ok(Validation::Failed(format!(
            "the patched crate does not build: {first}"
        )));
    }
    let compiled = match workspace.package.doctests_merge() {
        true => Doctests::Merged,
        false => Doctests::AsCargo,
    };
    let doctests = (workspace.package.has_doctests() || !also.is_empty()).then_some(compiled);
    let (mut tests, mut merged) = run_suite(&request, tool, doctests, flaky, timeout)?;
    let mut still_failing = Vec::new();
    if let Err(Failing::Tests(failing, _)) = &tests
        && failing.iter().any(|n| !ran.contains(n))
    {
        let failing = failing.clone();
        // Is it the patch's doing? The unpatched copy says.
        for (path, text) in &unchanged {
            scratch.write(path, text)?;
        }
        let failing_before = match run_suite(&request, tool, doctests, flaky, timeout)?.0 {
            Err(Failing::Tests(names, _)) => names,
            _ => Vec::new(),
        };
        for (path, text) in changes {
            scratch.write(path, text)?;
        }
        still_failing = failing
            .into_iter()
            .filter(|name| !ran.contains(name) && failing_before.contains(name))
            .collect();
        let tolerated: BTreeSet<String> = still_failing.iter().chain(flaky).cloned().collect();
        (tests, merged) = run_suite(&request, tool, doctests, &tolerated, timeout)?;
    }
    Ok(match tests {
        Ok(()) => Validation::Passed {
            warnings: new_warnings(&request, &unchanged, |path, text| scratch.write(path, text))?,
            still_failing,
            ran: match merged {
                true => format!(
                    "{}; the doctests merged into one executable",
                    tool.describe()
                ),
                false => tool.describe().to_string(),
            },
        },
        Err(failing) => Validation::Failed(failing.to_string()),
    })
}

/// The other packages whose tests a patch of `changes` must pass: those
/// whose tests the search ran (`--workspace`), each linked member it
/// edits, and the members that depend on what it edits (`name@version`,
/// the package itself left out).
fn tested_with(workspace: &Workspace, changes: &[(PathBuf, String)]) -> Vec<String> {
    let package = &workspace.package;
    let own = format!("{}@{}", package.name, package.version);
    let mut also: Vec<String> = workspace.also_tested();
    for (path, _) in changes {
        let edited = workspace.package_of(path);
        let spec = format!("{}@{}", edited.name, edited.version);
        for spec in std::iter::once(&spec).chain(&edited.dependents) {
            if *spec != own && !also.contains(spec) {
                also.push(spec.clone());
            }
        }
    }
    also
}

/// Why the tests do not pass: the tests that fail (by libtest name; and
/// which runner said so, if not `cargo test`), or another reason (a
/// timeout, a crash, cargo's error).
#[derive(Debug)]
enum Failing {
    Tests(Vec<String>, &'static str),
    Other(String),
}

impl std::fmt::Display for Failing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failing::Tests(names, by) => {
                write!(f, "tests fail with the patch{by}: {}", names.join(", "))
            }
            Failing::Other(reason) => f.write_str(reason),
        }
    }
}

/// Runs the request's tests with `tool` (and, after nextest, the doctests
/// if any), failures of `tolerated` tests tolerated. Doctests to compile
/// merged are run so first; unless that passes, the run as cargo compiles
/// them decides. With whether some doctests ran merged in the run that
/// decided.
fn run_suite(
    request: &BuildRequest,
    tool: TestTool,
    doctests: Option<Doctests>,
    tolerated: &BTreeSet<String>,
    timeout: Duration,
) -> Result<(Result<(), Failing>, bool)> {
    if doctests == Some(Doctests::Merged) {
        let merged = run_suite_as(request, tool, tolerated, timeout, doctests)?;
        if merged.0.is_ok() {
            return Ok(merged);
        }
    }
    let as_cargo = doctests.map(|_| Doctests::AsCargo);
    run_suite_as(request, tool, tolerated, timeout, as_cargo)
}

/// One run of [`run_suite`]: the doctests compiled as `doctests` says
/// (`None`: the package has none, and after nextest none run).
fn run_suite_as(
    request: &BuildRequest,
    tool: TestTool,
    tolerated: &BTreeSet<String>,
    timeout: Duration,
    doctests: Option<Doctests>,
) -> Result<(Result<(), Failing>, bool)> {
    let compiled = doctests.unwrap_or(Doctests::AsCargo);
    Ok(match tool {
        TestTool::Cargo => {
            let finished = run_all_tests(request, Some(timeout), compiled)?;
            let judged = judge_cargo_test(&finished, tolerated, timeout, "cargo test");
            (judged, doctests_merged(&finished))
        }
        TestTool::Nextest => {
            let nextest = judge_nextest(&run_nextest(request, Some(timeout))?, tolerated, timeout);
            match doctests {
                Some(compiled) if nextest.is_ok() => {
                    let finished = run_doctests(request, Some(timeout), compiled)?;
                    let judged =
                        judge_cargo_test(&finished, tolerated, timeout, "cargo test --doc");
                    (judged, doctests_merged(&finished))
                }
                _ => (nextest, false),
            }
        }
    })
}

/// The compiler's warnings in the patched files (`unchanged` holds their
/// original texts) that the original files do not have, as
/// `file:line: message`, told apart by file and message (a warning that
/// only moved is not new). The build is done, so asking is a replay of
/// cargo's cached diagnostics; the original is built again only when the
/// patched files warn at all.
fn new_warnings(
    request: &BuildRequest,
    unchanged: &[(PathBuf, String)],
    mut write: impl FnMut(&Path, &str) -> Result<()>,
) -> Result<Vec<String>> {
    let in_changed = |warnings: Vec<CompileError>| -> Vec<CompileError> {
        let mut kept: Vec<CompileError> = warnings
            .into_iter()
            .filter(|w| {
                let file = w.file.as_deref().map(Path::new);
                file.is_some_and(|f| unchanged.iter().any(|(path, _)| f == path))
            })
            .collect();
        // The library and its unit tests build the same file: once each.
        kept.sort_by(|a, b| (&a.file, a.line, &a.message).cmp(&(&b.file, b.line, &b.message)));
        kept.dedup_by(|a, b| (&a.file, a.line, &a.message) == (&b.file, b.line, &b.message));
        kept
    };
    let patched = in_changed(diagnose_tests(request)?);
    if patched.is_empty() {
        return Ok(Vec::new());
    }
    for (path, text) in unchanged {
        write(path, text)?;
    }
    let mut before: Vec<(Option<String>, String)> = in_changed(diagnose_tests(request)?)
        .into_iter()
        .map(|w| (w.file, w.message))
        .collect();
    let mut new = Vec::new();
    for warning in patched {
        let key = (warning.file.clone(), warning.message.clone());
        match before.iter().position(|k| *k == key) {
            Some(i) => {
                before.remove(i);
            }
            None => new.push(warning.to_string()),
        }
    }
    Ok(new)
}

/// What `cargo test`'s (`what`'s) output says about the patch.
fn judge_cargo_test(
    finished: &Finished,
    flaky: &BTreeSet<String>,
    timeout: Duration,
    what: &str,
) -> Result<(), Failing> {
    if finished.status == Status::TimedOut {
        return Err(Failing::Other(format!(
            "{what} did not finish within {} s",
            timeout.as_secs()
        )));
    }
    if finished.success() {
        return Ok(());
    }
    let results = parse_results(&finished.stdout);
    let failing: Vec<String> = results
        .iter()
        .filter(|(name, passed)| !**passed && !flaky.contains(**name))
        .map(|(name, _)| name.to_string())
        .collect();
    if !failing.is_empty() {
        return Err(Failing::Tests(failing, ""));
    }
    // A test executable that crashed reports no FAILED line for its tests.
    let crashed = finished
        .stderr
        .lines()
        .find(|l| l.contains("process didn't exit successfully"));
    match crashed {
        None if results.values().any(|passed| !passed) => Ok(()), // only flaky tests failed
        None => Err(Failing::Other(first_error(&finished.stderr))),
        Some(line) => Err(Failing::Other(line.trim().to_string())),
    }
}

/// What `cargo nextest run`'s output says about the patch.
fn judge_nextest(
    finished: &Finished,
    flaky: &BTreeSet<String>,
    timeout: Duration,
) -> Result<(), Failing> {
    if finished.status == Status::TimedOut {
        return Err(Failing::Other(format!(
            "cargo nextest run did not finish within {} s",
            timeout.as_secs()
        )));
    }
    if finished.success() {
        return Ok(());
    }
    let failed = nextest_failures(&format!("{}\n{}", finished.stdout, finished.stderr));
    let failing: Vec<String> = failed
        .iter()
        .filter(|name| !flaky.contains(*name))
        .cloned()
        .collect();
    match (failed.is_empty(), failing.is_empty()) {
        (false, true) => Ok(()), // only flaky tests failed
        (false, false) => Err(Failing::Tests(failing, " (cargo nextest)")),
        (true, _) => Err(Failing::Other(first_error(&finished.stderr))),
    }
}

fn first_error(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or("cargo test failed")
        .to_string()
}

/// A validation of files that passed every test of the search, warned
/// about when it fails.
pub fn warn_rejected(
    validation: Result<Validated, String>,
    console: &Console,
) -> Result<Validated, String> {
    if let Err(reason) = &validation {
        console.warn(format!(
            "a candidate that passed every test failed validation: {reason}"
        ));
    }
    validation
}

/// Patched files that passed validation: their diff against the user's
/// files, and the compiler warnings they add.
pub struct Validated {
    pub diff: String,
    pub warnings: Vec<String>,
    /// Doctests and other members' tests that fail as they did without the
    /// patch.
    pub still_failing: Vec<String>,
    /// What validation ran, for people.
    pub ran: String,
}

/// Runs every test on a clean copy with patched files in place: their diff
/// against the user's files when all pass, else why not.
pub fn validate_files(
    baseline: &Baseline,
    user_files: &BTreeMap<PathBuf, String>,
    files: &BTreeMap<PathBuf, String>,
    flaky: &BTreeSet<String>,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Result<Validated, String>> {
    let changes: Vec<(PathBuf, String)> = files
        .iter()
        .filter(|(path, text)| user_files.get(*path) != Some(*text))
        .map(|(p, t)| (p.clone(), t.clone()))
        .collect();
    let flaky_names: BTreeSet<String> = flaky
        .iter()
        .filter_map(|full_name| baseline.suite.find(full_name))
        .map(|t| baseline.suite.get(t).name.clone())
        .collect();
    let total: Duration = baseline.records.iter().map(|r| r.outcome.duration).sum();
    let timeout = Duration::from_secs(300) + total * 10;
    let spinner = console.spinner("Validating");
    spinner.set_message("the patch with cargo test on a clean copy");
    let ran: BTreeSet<String> = baseline
        .records
        .iter()
        .map(|r| baseline.suite.get(r.test).name.clone())
        .collect();
    let validation = validate(
        &baseline.workspace,
        &changes,
        &settings.evaluation.cargo,
        (&flaky_names, &ran),
        timeout,
        settings.test_tool,
        budget,
    )?;
    drop(spinner);
    Ok(match validation {
        Validation::Passed {
            warnings,
            still_failing,
            ran,
        } => Ok(Validated {
            diff: diff_of(user_files, files),
            warnings,
            still_failing,
            ran,
        }),
        Validation::Failed(reason) => Err(reason),
    })
}

/// The unified diff from the user's files to `files` (those that differ).
pub fn diff_of(
    user_files: &BTreeMap<PathBuf, String>,
    files: &BTreeMap<PathBuf, String>,
) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cargo::{PackageQuery, discover};

    /// A copy of the `middle` fixture, discovered.
    fn middle() -> (tempfile::TempDir, Workspace, String) {
        let dir = tempfile::tempdir().unwrap();
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/middle");
        std::fs::create_dir(dir.path().join("src")).unwrap();
        for file in ["Cargo.toml", "src/lib.rs"] {
            std::fs::copy(fixture.join(file), dir.path().join(file)).unwrap();
        }
        let workspace = discover(&PackageQuery::default(), dir.path()).unwrap();
        let text = std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap();
        (dir, workspace, text)
    }

    #[test]
    fn a_patch_to_a_member_passes_its_tests_and_its_dependents() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/members");
        let dir = tempfile::tempdir().unwrap();
        for entry in walkdir::WalkDir::new(&fixture).into_iter().flatten() {
            let relative = entry.path().strip_prefix(&fixture).unwrap();
            if relative.starts_with("target") || relative == Path::new("Cargo.lock") {
                continue;
            }
            let to = dir.path().join(relative);
            if entry.file_type().is_dir() {
                fs::create_dir_all(&to).unwrap();
            } else {
                fs::copy(entry.path(), &to).unwrap();
            }
        }
        let path = PathBuf::from("calendar/src/lib.rs");
        let original = fs::read_to_string(dir.path().join(&path)).unwrap();
        // A test of `calendar` that fails before any patch.
        let failing_before = original.replace(
            "    #[test]\n    fn ordinary_years() {",
            "    #[test]\n    fn already_failing() {\n        assert_eq!(days_in_month(2023, 1), 30);\n    }\n\n    #[test]\n    fn ordinary_years() {",
        );
        fs::write(dir.path().join(&path), &failing_before).unwrap();
        let query = PackageQuery {
            package: Some("app".to_string()),
            ..PackageQuery::default()
        };
        let workspace = discover(&query, dir.path()).unwrap();
        let fixed = failing_before.replace("year % 400 != 0", "year % 400 == 0");
        let run = |text: &str| {
            let changes = [(path.clone(), text.to_string())];
            let none = BTreeSet::new();
            // `app`'s tests, which the search ran.
            let ran = [
                "tests::an_ordinary_february",
                "tests::a_century_february",
                "a_common_year",
                "a_leap_year",
                "the_year_two_thousand",
                "the_year_nineteen_hundred",
            ]
            .map(String::from)
            .into();
            let timeout = Duration::from_secs(300);
            validate(
                &workspace,
                &changes,
                &CargoFlags::default(),
                (&none, &ran),
                timeout,
                TestTool::Cargo,
                Budget::unlimited(),
            )
            .unwrap()
        };
        // `calendar`'s failing test is not the patch's doing, and is told.
        assert_eq!(
            run(&fixed),
            Validation::Passed {
                warnings: vec![],
                still_failing: vec!["tests::already_failing".to_string()],
                ran: "cargo test, doctests included".to_string(),
            }
        );
        // A patch that breaks a test of `calendar` (which `app`'s tests do
        // not see) is not valid.
        let breaking = fixed.replace(
            "assert!(!is_leap(2023));",
            "assert!(!is_leap(2023));\n        assert_eq!(days_in_month(2023, 2), 29);",
        );
        assert_ne!(breaking, fixed);
        let Validation::Failed(why) = run(&breaking) else {
            panic!("a patch that breaks `calendar`'s tests passed");
        };
        assert_eq!(why, "tests fail with the patch: tests::ordinary_years");
    }

    #[test]
    fn doctests_merged_decide_a_pass_and_as_cargo_compiles_them_a_failure() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        // The second doctest names a variable `gen`, which edition 2024
        // reserves: merged, it does not compile; as cargo compiles it, it
        // passes.
        let text = "/// ```\n/// assert_eq!(tiny::double(2), 4);\n/// ```\npub fn double(x: u32) -> u32 {\n    x * 2\n}\n\n/// ```\n/// let gen = tiny::double(1);\n/// assert_eq!(gen, 2);\n/// ```\npub fn one() {}\n";
        std::fs::write(dir.path().join("src/lib.rs"), text).unwrap();
        let manifest = dir.path().join("Cargo.toml");
        let of_edition = |edition: &str| {
            let text = "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = ";
            fs::write(&manifest, format!("{text}\"{edition}\"\n")).unwrap();
            discover(&PackageQuery::default(), dir.path()).unwrap()
        };
        // rustdoc cannot read a 2015 crate as 2024; 2024 merges by itself.
        assert!(!of_edition("2015").package.doctests_merge());
        assert!(!of_edition("2024").package.doctests_merge());
        let workspace = of_edition("2021");
        assert!(workspace.package.doctests_merge());
        let run = |text: &str| {
            let none = BTreeSet::new();
            validate(
                &workspace,
                &[(PathBuf::from("src/lib.rs"), text.to_string())],
                &CargoFlags::default(),
                (&none, &none),
                Duration::from_secs(300),
                TestTool::Cargo,
                Budget::unlimited(),
            )
            .unwrap()
        };
        // Decided by the run as cargo compiles the doctests.
        let passed = Validation::Passed {
            warnings: vec![],
            still_failing: vec![],
            ran: "cargo test, doctests included".to_string(),
        };
        assert_eq!(run(text), passed);
        // Named otherwise, it merges, and the merged run decides.
        let merged = Validation::Passed {
            warnings: vec![],
            still_failing: vec![],
            ran: "cargo test, doctests included; the doctests merged into one executable".into(),
        };
        assert_eq!(run(&text.replace("gen", "one")), merged);
        let Validation::Failed(why) = run(&text.replace("x * 2", "x * 3")) else {
            panic!("a patch that breaks both doctests passed");
        };
        assert!(why.contains("src/lib.rs - double (line 1)"), "{why}");
        assert!(why.contains("src/lib.rs - one (line 8)"), "{why}");
    }

    #[test]
    fn only_a_patch_that_passes_cargo_test_is_valid() {
        let (dir, workspace, text) = middle();
        let features = CargoFlags::default();
        let timeout = Duration::from_secs(300);
        let none = BTreeSet::new();
        // The failing test the search ran: it must pass, whatever it did
        // without the patch.
        let ran = BTreeSet::from(["tests::middle_2_1_3".to_string()]);
        let fixed = text.replacen(
            "} else if x < z {\n            return y;",
            "} else if x < z {\n            return x;",
            1,
        );
        assert_ne!(fixed, text);
        let path = PathBuf::from("src/lib.rs");
        assert_eq!(
            validate(
                &workspace,
                &[(path.clone(), fixed.clone())],
                &features,
                (&none, &ran),
                timeout,
                TestTool::Cargo,
                Budget::unlimited(),
            )
            .unwrap(),
            Validation::Passed {
                warnings: vec![],
                still_failing: vec![],
                ran: "cargo test, doctests included".to_string(),
            }
        );

        // The same fix with a variable left unused: one warning more.
        let warned = fixed.replacen(
            "return x;",
            "let left_unused = 1;\n            return x;",
            1,
        );
        let Validation::Passed { warnings, .. } = validate(
            &workspace,
            &[(path.clone(), warned)],
            &features,
            (&none, &ran),
            timeout,
            TestTool::Cargo,
            Budget::unlimited(),
        )
        .unwrap() else {
            panic!("the warned fix passes the tests");
        };
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("left_unused"), "{warnings:?}");

        let unchanged = validate(
            &workspace,
            &[(path.clone(), text.clone())],
            &features,
            (&none, &ran),
            timeout,
            TestTool::Cargo,
            Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(
            unchanged,
            Validation::Failed("tests fail with the patch: tests::middle_2_1_3".to_string())
        );

        let tolerated = BTreeSet::from(["tests::middle_2_1_3".to_string()]);
        assert_eq!(
            validate(
                &workspace,
                &[(path.clone(), text.clone())],
                &features,
                (&tolerated, &ran),
                timeout,
                TestTool::Cargo,
                Budget::unlimited(),
            )
            .unwrap(),
            Validation::Passed {
                warnings: vec![],
                still_failing: vec![],
                ran: "cargo test, doctests included".to_string(),
            }
        );

        let broken = text.replace("return x;", "return x");
        let broken = broken.replacen("z\n}", "zz\n}", 1);
        let Validation::Failed(reason) = validate(
            &workspace,
            &[(path, broken)],
            &features,
            (&none, &ran),
            timeout,
            TestTool::Cargo,
            Budget::unlimited(),
        )
        .unwrap() else {
            panic!("a patch that does not build passed validation");
        };
        assert!(
            reason.starts_with("the patched crate does not build: src/lib.rs:15"),
            "{reason}"
        );
        // The user's copy is untouched.
        assert_eq!(
            std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
            text
        );
    }
}
