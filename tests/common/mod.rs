//! Helpers for end-to-end tests: copies of the fixtures in `testdata/`, and
//! runs of the real `cargo-autofix` binary on them.

#![allow(dead_code)] // each test file uses a different subset

pub mod mcp;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;
use walkdir::WalkDir;

/// A fresh copy of `testdata/<name>` in a temp dir (without build output).
pub fn fixture(name: &str) -> TempDir {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name);
    assert!(source.is_dir(), "no fixture {}", source.display());
    let copy = tempfile::Builder::new()
        .prefix(&format!("autofix-fixture-{}-", name.replace('/', "-")))
        .tempdir()
        .unwrap();
    for entry in WalkDir::new(&source)
        .into_iter()
        .filter_entry(|e| e.file_name() != "target")
    {
        let entry = entry.unwrap();
        let relative = entry.path().strip_prefix(&source).unwrap();
        if entry.file_name() == "Cargo.lock" {
            continue;
        }
        let destination = copy.path().join(relative);
        if entry.file_type().is_dir() {
            fs::create_dir_all(&destination).unwrap();
        } else {
            fs::copy(entry.path(), &destination).unwrap();
        }
    }
    copy
}

/// Runs `cargo-autofix autofix ARGS` in `dir`, as cargo would.
pub fn autofix(dir: &Path, args: &[&str]) -> Output {
    command(dir, args).output().unwrap()
}

pub fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-autofix"));
    // Each run builds in its fixture's own target dir, as a user's would
    // (a `CARGO_TARGET_DIR` of the test run would make them share one).
    command
        .arg("autofix")
        .args(args)
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        // Plain stderr, whatever the machine's settings (see `--color`).
        .env_remove("CARGO_TERM_COLOR")
        .env_remove("NO_COLOR");
    command
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts the exit code, showing stderr if it is another.
#[track_caller]
pub fn assert_exit(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "exit code; stderr:\n{}",
        stderr(output)
    );
}

/// The `error:` line on stderr (there must be one).
pub fn error_line(output: &Output) -> String {
    stderr(output)
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| panic!("no error line in:\n{}", stderr(output)))
        .to_string()
}

/// Every file under `dir` except build output, with its bytes.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.file_name() != "target")
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(dir).unwrap().to_path_buf(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Runs `--rank-only --format json` and parses stdout, asserting exit 0.
pub fn rank_json(dir: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--rank-only", "--format", "json", "--test-timeout", "20"];
    args.extend_from_slice(extra);
    let output = autofix(dir, &args);
    assert_exit(&output, 0);
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The ranking entry for `file:line`.
pub fn entry<'a>(json: &'a serde_json::Value, file: &str, line: u64) -> &'a serde_json::Value {
    json["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["file"] == file && e["line"] == line)
        .unwrap_or_else(|| panic!("{file}:{line} is not ranked in {json:#}"))
}

/// Runs `cargo autofix --report ...` (with `--seed 0` unless `extra` has a
/// seed) on a copy of `fixture`,
/// checking that the copy's files are untouched.
pub fn repair(fixture_name: &str, extra: &[&str]) -> (Output, serde_json::Value) {
    let dir = fixture(fixture_name);
    let reports = tempfile::tempdir().unwrap();
    let report = reports.path().join("report.json");
    let before = snapshot(dir.path());
    let mut args = vec!["--report", report.to_str().unwrap()];
    if !extra.contains(&"--seed") {
        args.extend(["--seed", "0"]);
    }
    args.extend_from_slice(extra);
    let output = autofix(dir.path(), &args);
    assert_eq!(snapshot(dir.path()), before, "the user's files changed");
    let report = serde_json::from_str(
        &fs::read_to_string(&report)
            .unwrap_or_else(|_| panic!("no report; stderr:\n{}", stderr(&output))),
    )
    .unwrap();
    (output, report)
}

/// Applies `diff` to a pristine copy of `fixture` and runs its tests.
pub fn apply_and_test(fixture_name: &str, diff: &str) -> TempDir {
    let pristine = fixture(fixture_name);
    fs::write(pristine.path().join("fix.patch"), diff).unwrap();
    let applied = Command::new("git")
        .args(["apply", "fix.patch"])
        .current_dir(pristine.path())
        .output()
        .unwrap();
    assert!(
        applied.status.success(),
        "git apply failed: {}\n{diff}",
        String::from_utf8_lossy(&applied.stderr)
    );
    let tested = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["test", "--quiet"])
        .current_dir(pristine.path())
        .env_remove("FLAKY_MARKER")
        .output()
        .unwrap();
    assert!(
        tested.status.success(),
        "cargo test fails after the patch:\n{}\n{diff}",
        String::from_utf8_lossy(&tested.stdout)
    );
    pristine
}

/// A repair that must succeed: exit 0 (`likely`) or 13 (only `plausible`),
/// as its report's confidence says, a diff that applies and passes.
pub fn assert_repaired(fixture_name: &str, extra: &[&str]) -> (String, serde_json::Value) {
    let (output, report) = repair(fixture_name, extra);
    let level = report["confidence"]["level"].as_str();
    assert_exit(&output, if level == Some("likely") { 0 } else { 13 });
    assert!(matches!(level, Some("likely" | "plausible")), "{report:#}");
    let diff = stdout(&output);
    assert!(
        diff.starts_with(
            "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@"
        ),
        "{diff}"
    );
    apply_and_test(fixture_name, &diff);
    assert_eq!(report["outcome"], "fixed");
    assert_eq!(report["fitness"], 1.0);
    assert_eq!(report["patch"], diff.as_str());
    let evaluated = report["candidates_evaluated"].as_u64().unwrap();
    assert!(evaluated >= 1 && report["candidates_compiled"].as_u64().unwrap() <= evaluated);
    let verb = if level == Some("likely") {
        "Likely"
    } else {
        "Plausible"
    };
    assert!(stderr(&output).contains(verb), "{}", stderr(&output));
    (diff, report)
}

pub fn changed_lines(diff: &str) -> Vec<&str> {
    diff.lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .collect()
}

/// Pids of processes whose command line holds both `word` and `dir`.
#[cfg(target_os = "linux")]
pub fn running_processes_mentioning(word: &str, dir: &Path) -> Vec<u32> {
    let dir = dir.to_string_lossy();
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline);
            cmdline.contains(word) && cmdline.contains(dir.as_ref())
        })
        .collect()
}

/// The scratch directories (`cargo-autofix-*`) in `temp`.
pub fn scratch_dirs(temp: &Path) -> Vec<String> {
    fs::read_dir(temp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("cargo-autofix-"))
        .collect()
}

/// Asserts that `instance` is valid against the JSON Schema in `schema`
/// (a path relative to the repository root), listing every violation.
pub fn assert_matches_schema(instance: &serde_json::Value, schema: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(schema);
    let schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{} is not a schema: {e}", path.display()));
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{instance:#}\ndoes not match {}:\n{}",
        path.display(),
        errors.join("\n")
    );
}

/// The HTML page, parsed as XML (the page is well-formed): panics if not.
pub fn parse_page(html: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(html, options)
        .unwrap_or_else(|e| panic!("the page is not well-formed: {e}:\n{html}"))
}

/// Whether a node of the page has `class` among its classes.
pub fn has_class(node: roxmltree::Node, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|classes| classes.split_whitespace().any(|c| c == class))
}

/// The first node of the page with `class` among its classes.
pub fn with_class<'a, 'input>(
    document: &'a roxmltree::Document<'input>,
    class: &str,
) -> roxmltree::Node<'a, 'input> {
    document
        .descendants()
        .find(|n| has_class(*n, class))
        .unwrap_or_else(|| panic!("no element of class {class} on the page"))
}

/// The text of a node of the page, its descendants' text joined.
pub fn text_of(node: roxmltree::Node) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

/// The faulty line of the `members` fixture's `calendar`, and its fix.
pub const CALENDAR_FAULT: &str = "    year % 4 == 0 && (year % 100 != 0 || year % 400 != 0)";
pub const CALENDAR_FIX: &str = "    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)";
