//! The benchmark corpus (`bench/corpus.toml`): subjects (real crates pinned
//! on crates.io, programs written for the corpus under `bench/programs/`, or
//! fixtures under `testdata/`), bugs in them (single lines, or a few
//! consecutive lines for the historical bugs that revert a published fix),
//! and combinations of bugs injected together (several faults at once).
//!
//! Shared by the benchmark runner (`bench/main.rs`) and the CI test of the
//! fixture and program entries (`tests/corpus.rs`).

#![allow(dead_code)] // each includer uses a different part

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail, ensure};
use cargo_autofix::parse_results;
use serde::Deserialize;
use tempfile::TempDir;
use walkdir::WalkDir;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corpus {
    #[serde(rename = "subject")]
    pub subjects: Vec<Subject>,
    #[serde(rename = "bug")]
    pub bugs: Vec<Bug>,
    #[serde(rename = "combined", default)]
    pub combined: Vec<Combined>,
}

/// Bugs of one subject injected together: a case with several faults.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combined {
    pub id: String,
    /// Ids of `[[bug]]` entries, none of which removes a line.
    pub bugs: Vec<String>,
}

/// What the benchmark runs: one bug, or a combination.
#[derive(Debug, Clone)]
pub struct Case<'c> {
    pub id: &'c str,
    pub subject: &'c Subject,
    pub kind: &'c str,
    pub bugs: Vec<&'c Bug>,
}

impl Corpus {
    pub fn bug(&self, id: &str) -> Option<&Bug> {
        self.bugs.iter().find(|b| b.id == id)
    }

    /// Every bug on its own, then every combination.
    pub fn cases(&self) -> Vec<Case<'_>> {
        let subject = |name: &str| {
            self.subjects
                .iter()
                .find(|s| s.name == name)
                .expect("checked when loaded")
        };
        let singles = self.bugs.iter().map(|b| Case {
            id: &b.id,
            subject: subject(&b.subject),
            kind: &b.kind,
            bugs: vec![b],
        });
        let combined = self.combined.iter().map(|c| {
            let bugs: Vec<&Bug> = c
                .bugs
                .iter()
                .map(|id| self.bug(id).expect("checked when loaded"))
                .collect();
            Case {
                id: &c.id,
                subject: subject(&bugs[0].subject),
                kind: "multi-fault",
                bugs,
            }
        });
        singles.chain(combined).collect()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subject {
    pub name: String,
    /// A crates.io crate, with `version`...
    #[serde(rename = "crate")]
    pub krate: Option<String>,
    pub version: Option<String>,
    /// ...or a fixture under `testdata/`, which holds the buggy version...
    pub fixture: Option<String>,
    /// ...or a program written for the corpus under `bench/programs/`,
    /// which holds the original (correct) version.
    pub program: Option<String>,
    /// Lib/bin/integration tests of the original (informative).
    pub tests: Option<usize>,
    /// Warm test time of the original in seconds (informative).
    pub test_seconds: Option<f64>,
}

impl Subject {
    pub fn is_fixture(&self) -> bool {
        self.fixture.is_some()
    }

    pub fn is_program(&self) -> bool {
        self.program.is_some()
    }

    /// A crate fetched from crates.io (needs the network).
    pub fn is_crate(&self) -> bool {
        self.krate.is_some()
    }

    /// Where a fixture or program lives in this repository.
    pub fn local_dir(&self) -> Option<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        if let Some(fixture) = &self.fixture {
            Some(root.join("testdata").join(fixture))
        } else {
            self.program
                .as_ref()
                .map(|program| root.join("bench/programs").join(program))
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bug {
    pub id: String,
    pub subject: String,
    /// Relative to the crate root.
    pub file: PathBuf,
    /// 1-based, in the original source.
    pub line: usize,
    pub function: Option<String>,
    pub kind: String,
    /// The whole line in the original source; several lines joined by
    /// `\n` are consecutive whole lines starting at `line`.
    pub original: String,
    /// The whole line (or lines) in the buggy source, in place of all the
    /// lines of `original`; empty: they are removed.
    pub buggy: String,
    /// Lib/bin/integration tests that fail with the bug (informative).
    pub failing: Option<usize>,
    /// Lines known to behave like `original` in its place: a patch that
    /// puts one of them there restores the original behaviour. Each takes
    /// the place of all the lines of `original` (several lines joined by
    /// `\n`, not necessarily as many).
    #[serde(default)]
    pub equivalent: Vec<String>,
    /// A real bug: "A -> B: what B fixed". The subject is a published
    /// version with the fix and the test that came with it, `buggy`
    /// reverts the fix to A's code and `original` is the real fix.
    pub historical: Option<String>,
    /// The shape of the fix (of a historical bug): one of [`SHAPES`].
    pub shape: Option<String>,
    /// Why each `equivalent` line behaves like `original`: reasoning from
    /// reading the code.
    pub why: Option<String>,
}

/// The shapes of fixes a bug's `shape` names: a guard with an early return
/// before a failing operation, bounds-safe access, overflow-safe arithmetic
/// (checked, wrapping, saturating or wider), control flow (break to return,
/// continue...), a member replaced by another of the same receiver, an
/// operand extended with a value in scope or a method call, a missing else
/// branch or disjunct/conjunct, two operators or tokens in one statement, a
/// condition changed, one operator or token, a different function or method
/// called, a missing or extra statement, or something else.
pub const SHAPES: [&str; 13] = [
    "guard",
    "bounds",
    "overflow",
    "control-flow",
    "member",
    "operand",
    "else-branch",
    "two-edits",
    "condition",
    "operator",
    "call",
    "statement",
    "other",
];

impl Bug {
    pub fn removes_a_line(&self) -> bool {
        self.buggy.is_empty()
    }

    /// The lines that stand for the bug in the buggy file `text`, of the
    /// `executed` ones: the faulty line's (the nearest executed line at or
    /// above it, for a line inside a longer statement); for a removed line (a
    /// fault of omission, found at either side of the gap, as Pearson et al.
    /// count them), the nearest executed line above the gap and the statement
    /// right below it (the first line that is not blank or a comment, if it
    /// was executed).
    pub fn fault_lines(&self, executed: &BTreeSet<u32>, text: &str) -> Vec<u32> {
        let limit = if self.removes_a_line() {
            self.line as u32 - 1
        } else {
            self.line as u32
        };
        let mut lines: Vec<u32> = executed
            .range(..=limit)
            .next_back()
            .copied()
            .into_iter()
            .collect();
        if self.removes_a_line() {
            let below = text
                .lines()
                .enumerate()
                .skip(self.line - 1)
                .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
                .map(|(index, _)| index as u32 + 1);
            lines.extend(below.filter(|line| executed.contains(line)));
        }
        lines
    }

    /// The lines of `original`.
    pub fn original_lines(&self) -> Vec<&str> {
        self.original.split('\n').collect()
    }

    /// The lines of `buggy` (none if it removes the original lines).
    pub fn buggy_lines(&self) -> Vec<&str> {
        if self.removes_a_line() {
            Vec::new()
        } else {
            self.buggy.split('\n').collect()
        }
    }

    /// Whether the buggy version has as many lines as the original, so
    /// that the lines of other bugs in the same file stay where they are.
    pub fn keeps_line_count(&self) -> bool {
        self.original_lines().len() == self.buggy_lines().len()
    }
}

pub fn load(path: &Path) -> Result<Corpus> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let corpus: Corpus =
        toml::from_str(&text).with_context(|| format!("cannot parse {}", path.display()))?;
    for subject in &corpus.subjects {
        let kinds = [
            subject.krate.is_some() && subject.version.is_some(),
            subject.fixture.is_some(),
            subject.program.is_some(),
        ];
        ensure!(
            kinds.iter().filter(|k| **k).count() == 1
                && (subject.krate.is_some() == subject.version.is_some()),
            "subject {} needs exactly one of crate and version, fixture, program",
            subject.name
        );
    }
    for bug in &corpus.bugs {
        ensure!(
            corpus.subjects.iter().any(|s| s.name == bug.subject),
            "bug {} names unknown subject {}",
            bug.id,
            bug.subject
        );
        ensure!(
            bug.line >= 1 && !bug.original.is_empty(),
            "bug {} needs a line and an original text",
            bug.id
        );
        ensure!(
            !bug.original.contains('\r') && !bug.buggy.contains('\r'),
            "bug {}: lines are joined by \\n alone",
            bug.id
        );
        if let Some(shape) = &bug.shape {
            ensure!(
                SHAPES.contains(&shape.as_str()),
                "bug {}: unknown shape {shape} (one of {})",
                bug.id,
                SHAPES.join(", ")
            );
        }
    }
    for combined in &corpus.combined {
        let bugs: Vec<&Bug> = combined
            .bugs
            .iter()
            .map(|id| {
                corpus
                    .bug(id)
                    .with_context(|| format!("combination {} names unknown bug {id}", combined.id))
            })
            .collect::<Result<_>>()?;
        ensure!(
            corpus.bug(&combined.id).is_none(),
            "combination {} has the id of a bug",
            combined.id
        );
        let mut places: Vec<(&Path, usize)> =
            bugs.iter().map(|b| (b.file.as_path(), b.line)).collect();
        places.sort();
        places.dedup();
        ensure!(
            places.len() == bugs.len(),
            "combination {}: two bugs on one line",
            combined.id
        );
        ensure!(
            bugs.len() >= 2 && bugs.iter().all(|b| b.subject == bugs[0].subject),
            "combination {} needs two or more bugs of one subject",
            combined.id
        );
        ensure!(
            bugs.iter()
                .all(|b| !b.removes_a_line() && b.keeps_line_count()),
            "combination {}: a bug that removes or adds lines would shift the others",
            combined.id
        );
    }
    Ok(corpus)
}

/// Which version of a subject to materialize.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    Original,
    Buggy,
}

/// Where each subject's pristine source is: a crate fetched by cargo, or a fixture.
#[derive(Debug, Default)]
pub struct Sources {
    dirs: BTreeMap<String, PathBuf>,
    /// If set, every build of a subject uses `<targets>/<subject>` as its
    /// target dir, so its dependencies compile once for all its bugs.
    pub targets: Option<PathBuf>,
    /// Keeps the fetch projects alive for the sources' lifetime.
    _fetch_projects: Vec<TempDir>,
}

impl Sources {
    /// Fetches every crate subject with cargo (crates.io), pinned to its
    /// version; fixtures and programs are in this repository.
    pub fn fetch(subjects: &[&Subject]) -> Result<Sources> {
        let mut sources = Sources::default();
        let crates: Vec<&Subject> = subjects.iter().copied().filter(|s| s.is_crate()).collect();
        // Cargo resolves one version of a crate per semver-compatible range
        // in a project: a second version of a crate goes to a second project.
        let mut groups: Vec<Vec<&Subject>> = Vec::new();
        for subject in crates {
            let group = groups
                .iter()
                .position(|g| g.iter().all(|s| s.krate != subject.krate));
            match group {
                Some(index) => groups[index].push(subject),
                None => groups.push(vec![subject]),
            }
        }
        for crates in &groups {
            // Two crates of a group may need incompatible versions of a
            // third: then each is fetched on its own.
            match sources.fetch_group(crates) {
                Ok(()) => {}
                Err(_) if crates.len() > 1 => {
                    for subject in crates {
                        sources.fetch_group(&[subject])?;
                    }
                }
                Err(error) => return Err(error),
            }
        }
        for subject in subjects.iter().filter(|s| !s.is_crate()) {
            let dir = subject.local_dir().unwrap();
            ensure!(
                dir.is_dir(),
                "no {} {}",
                if subject.is_fixture() {
                    "fixture"
                } else {
                    "program"
                },
                dir.display()
            );
            sources.dirs.insert(subject.name.clone(), dir);
        }
        Ok(sources)
    }

    /// Fetches crates of distinct names in one cargo project.
    fn fetch_group(&mut self, crates: &[&Subject]) -> Result<()> {
        let project = tempfile::Builder::new()
            .prefix("autofix-bench-fetch-")
            .tempdir()?;
        let mut manifest = String::from(
            "[package]\nname = \"fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\n",
        );
        for subject in crates {
            let (krate, version) = (
                subject.krate.as_ref().unwrap(),
                subject.version.as_ref().unwrap(),
            );
            let _ = writeln!(manifest, "{krate} = \"={version}\"");
        }
        manifest.push_str("\n[workspace]\n");
        fs::write(project.path().join("Cargo.toml"), manifest)?;
        fs::create_dir(project.path().join("src"))?;
        fs::write(project.path().join("src/lib.rs"), "")?;
        let output = cargo()
            .args(["metadata", "--format-version", "1"])
            .current_dir(project.path())
            .output()?;
        ensure!(
            output.status.success(),
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)?;
        for subject in crates {
            let package = metadata["packages"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| {
                    p["name"] == subject.krate.as_deref().unwrap()
                        && p["version"] == subject.version.as_deref().unwrap()
                })
                .with_context(|| format!("cargo did not fetch {}", subject.name))?;
            let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap());
            self.dirs.insert(
                subject.name.clone(),
                manifest.parent().unwrap().to_path_buf(),
            );
        }
        self._fetch_projects.push(project);
        Ok(())
    }

    /// The target dir builds of `subject` share, if any.
    pub fn target_dir(&self, subject: &Subject) -> Option<PathBuf> {
        self.targets.as_ref().map(|t| t.join(&subject.name))
    }

    /// `cargo`, building into the subject's shared target dir.
    pub fn cargo(&self, subject: &Subject) -> Command {
        let mut command = cargo();
        if let Some(dir) = self.target_dir(subject) {
            command.env("CARGO_TARGET_DIR", dir);
        }
        command
    }

    /// A fresh copy of the case's subject with its bugs in `version`, in a temp dir.
    pub fn materialize(&self, case: &Case, version: Version) -> Result<TempDir> {
        let subject = case.subject;
        let source = self
            .dirs
            .get(&subject.name)
            .with_context(|| format!("subject {} was not fetched", subject.name))?;
        let copy = tempfile::Builder::new()
            .prefix(&format!("autofix-bench-{}-", case.id))
            .tempdir()?;
        copy_crate(source, copy.path())?;
        for bug in &case.bugs {
            let path = copy.path().join(&bug.file);
            let text = fs::read_to_string(&path)
                .with_context(|| format!("{}: no {}", bug.id, bug.file.display()))?;
            fs::write(
                &path,
                bug_version(bug, &text, subject.is_fixture(), version)?,
            )?;
        }
        Ok(copy)
    }
}

/// The text of `bug.file` in `version`, from the pristine text (the
/// original for crates and programs, the buggy version for fixtures).
pub fn bug_version(
    bug: &Bug,
    pristine: &str,
    pristine_is_buggy: bool,
    version: Version,
) -> Result<String> {
    let mut lines: Vec<&str> = pristine.split_inclusive('\n').collect();
    let index = bug.line - 1;
    let (original, buggy) = (bug.original_lines(), bug.buggy_lines());
    let (current, wanted) = if pristine_is_buggy {
        (&buggy, &original)
    } else {
        (&original, &buggy)
    };
    if pristine_is_buggy && buggy.is_empty() {
        // A fixture without the removed lines: nothing to check them against.
        ensure!(
            index <= lines.len(),
            "{}: line {} is past the end of {}",
            bug.id,
            bug.line,
            bug.file.display()
        );
    } else {
        check_lines(bug, &lines, current)?;
    }
    if pristine_is_buggy == (version == Version::Buggy) {
        return Ok(pristine.to_string());
    }
    let replacement: Vec<String> = wanted.iter().map(|l| format!("{l}\n")).collect();
    lines.splice(
        index..index + current.len(),
        replacement.iter().map(String::as_str),
    );
    Ok(lines.concat())
}

/// The lines from `bug.line` on read `expected`.
fn check_lines(bug: &Bug, lines: &[&str], expected: &[&str]) -> Result<()> {
    for (offset, expected) in expected.iter().enumerate() {
        let line = bug.line + offset;
        let actual = lines
            .get(line - 1)
            .map(|l| l.trim_end_matches(['\n', '\r']))
            .unwrap_or("");
        if actual != *expected {
            bail!(
                "{}: line {line} of {} reads {actual:?}, not {expected:?}",
                bug.id,
                bug.file.display()
            );
        }
    }
    Ok(())
}

/// Copies a crate's source (not its build output), writable.
fn copy_crate(from: &Path, to: &Path) -> Result<()> {
    for entry in WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| e.file_name() != "target" && e.file_name() != ".git")
    {
        let entry = entry?;
        let relative = entry.path().strip_prefix(from)?;
        let destination = to.join(relative);
        if entry.file_type().is_dir() {
            fs::create_dir_all(&destination)?;
        } else if entry.file_type().is_file() {
            fs::copy(entry.path(), &destination)?;
            let mut permissions = fs::metadata(&destination)?.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            permissions.set_readonly(false);
            fs::set_permissions(&destination, permissions)?;
        }
    }
    Ok(())
}

pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// What the setup check of a bug found.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub original_passes: bool,
    pub buggy_builds: bool,
    /// Lib/bin/integration tests of the buggy version: (failed, run).
    pub buggy_tests: (usize, usize),
    /// How long that `cargo test` of the buggy version took (built already).
    pub buggy_test_seconds: f64,
}

impl Check {
    /// The original passes, the buggy version builds and fails some but not all tests.
    pub fn ok(&self) -> bool {
        self.original_passes
            && self.buggy_builds
            && self.buggy_tests.0 > 0
            && self.buggy_tests.0 < self.buggy_tests.1
    }
}

/// Checks a case: the original version passes `cargo test`; the buggy one
/// builds and fails at least one lib/bin/integration test, but not all.
/// Builds go to the subject's shared target dir, if the sources have one.
pub fn check(sources: &Sources, case: &Case) -> Result<Check> {
    let original_passes = original_passes(sources, case)?;
    check_buggy(sources, case, original_passes)
}

/// Whether the case's original version passes `cargo test`.
pub fn original_passes(sources: &Sources, case: &Case) -> Result<bool> {
    let original = sources.materialize(case, Version::Original)?;
    Ok(sources
        .cargo(case.subject)
        .args(["test", "--quiet"])
        .current_dir(original.path())
        .output()?
        .status
        .success())
}

/// [`check`] with the verdict on the original version already known (for
/// crates and programs it is the same for every bug of the subject).
pub fn check_buggy(sources: &Sources, case: &Case, original_passes: bool) -> Result<Check> {
    let buggy = sources.materialize(case, Version::Buggy)?;
    let built = sources
        .cargo(case.subject)
        .args(["test", "--no-run", "--quiet"])
        .current_dir(buggy.path())
        .output()?;
    if !built.status.success() {
        return Ok(Check {
            original_passes,
            buggy_builds: false,
            buggy_tests: (0, 0),
            buggy_test_seconds: 0.0,
        });
    }
    let started = std::time::Instant::now();
    let output = sources
        .cargo(case.subject)
        .args(["test", "--no-fail-fast", "--lib", "--bins", "--tests"])
        .current_dir(buggy.path())
        .output()?;
    Ok(Check {
        original_passes,
        buggy_builds: true,
        buggy_tests: count_results(&String::from_utf8_lossy(&output.stdout)),
        buggy_test_seconds: started.elapsed().as_secs_f64(),
    })
}

/// (failed, run) over libtest's `test NAME ... ok|FAILED` lines, read as
/// the tool reads them (libtest-mimic's coloured results too), line by
/// line: two test executables may have tests of one name.
pub fn count_results(stdout: &str) -> (usize, usize) {
    let results: Vec<bool> = stdout
        .lines()
        .filter_map(|line| parse_results(line).into_values().next())
        .collect();
    (
        results.iter().filter(|passed| !**passed).count(),
        results.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bug(line: usize, original: &str, buggy: &str) -> Bug {
        Bug {
            id: "b".into(),
            subject: "s".into(),
            file: "src/lib.rs".into(),
            line,
            function: None,
            kind: "k".into(),
            original: original.into(),
            buggy: buggy.into(),
            failing: None,
            equivalent: Vec::new(),
            historical: None,
            shape: None,
            why: None,
        }
    }

    #[test]
    fn versions_of_a_replaced_line() {
        let original = "a\nb\nc\n";
        let b = bug(2, "b", "B");
        assert_eq!(
            bug_version(&b, original, false, Version::Buggy).unwrap(),
            "a\nB\nc\n"
        );
        assert_eq!(
            bug_version(&b, "a\nB\nc\n", true, Version::Original).unwrap(),
            original
        );
        assert!(bug_version(&bug(2, "x", "B"), original, false, Version::Buggy).is_err());
    }

    #[test]
    fn a_removed_line_is_found_at_either_side_of_the_gap() {
        // The buggy file lacks `    n += 1;`, which was its line 3.
        let text = "fn f() {\n    let mut n = 0;\n\n    // then\n    g(n);\n}\n";
        let executed = BTreeSet::from([2, 5]);
        let removed = bug(3, "    n += 1;", "");
        assert_eq!(removed.fault_lines(&executed, text), [2, 5]);
        // Below the gap only a closing brace: the line above alone.
        let last = "fn f() {\n    let mut n = 0;\n}\n";
        assert_eq!(removed.fault_lines(&executed, last), [2]);
        // A replaced line is its own (or the statement it is inside).
        let replaced = bug(4, "    n += 1;", "    n += 2;");
        assert_eq!(replaced.fault_lines(&BTreeSet::from([2, 3, 5]), text), [3]);
    }

    #[test]
    fn versions_of_a_removed_line() {
        let b = bug(2, "b", "");
        assert_eq!(
            bug_version(&b, "a\nb\nc\n", false, Version::Buggy).unwrap(),
            "a\nc\n"
        );
        assert_eq!(
            bug_version(&b, "a\nc\n", true, Version::Original).unwrap(),
            "a\nb\nc\n"
        );
    }

    #[test]
    fn versions_of_several_lines() {
        let original = "a\nb\nc\nd\n";
        // Two lines become one.
        let b = bug(2, "b\nc", "BC");
        assert!(!b.keeps_line_count());
        assert_eq!(
            bug_version(&b, original, false, Version::Buggy).unwrap(),
            "a\nBC\nd\n"
        );
        assert_eq!(
            bug_version(&b, "a\nBC\nd\n", true, Version::Original).unwrap(),
            original
        );
        // One line becomes three.
        let b = bug(4, "d", "x\ny\nz");
        assert_eq!(
            bug_version(&b, original, false, Version::Buggy).unwrap(),
            "a\nb\nc\nx\ny\nz\n"
        );
        // Two lines removed.
        let b = bug(1, "a\nb", "");
        assert_eq!(
            bug_version(&b, original, false, Version::Buggy).unwrap(),
            "c\nd\n"
        );
        assert_eq!(
            bug_version(&b, "c\nd\n", true, Version::Original).unwrap(),
            original
        );
        // The second line does not match.
        assert!(bug_version(&bug(2, "b\nx", "B"), original, false, Version::Buggy).is_err());
        // Versions that need no change are checked too.
        assert!(bug_version(&bug(2, "b\nx", "B"), original, false, Version::Original).is_err());
    }
}
