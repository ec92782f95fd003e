//! `cargo autofix bisect REV`: the failure-inducing part of a change.

#![allow(clippy::disallowed_methods)]

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::*;

fn git(dir: &Path, args: &[&str]) {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The `bisect` fixture as a repository of two commits: `before.rs` as
/// `src/lib.rs` (the tests pass), then the fixture's `src/lib.rs`, which
/// makes five changes, one of which breaks a test.
fn two_commits() -> tempfile::TempDir {
    let dir = fixture("bisect");
    let after = fs::read_to_string(dir.path().join("src/lib.rs")).unwrap();
    fs::write(dir.path().join(".gitignore"), "target/\n").unwrap();
    fs::copy(dir.path().join("before.rs"), dir.path().join("src/lib.rs")).unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    fs::write(dir.path().join("src/lib.rs"), after).unwrap();
    git(dir.path(), &["commit", "-q", "-am", "second"]);
    dir
}

#[test]
fn bisect_names_the_one_change_that_breaks_a_test() {
    let dir = two_commits();
    let before = snapshot(dir.path());
    let output = autofix(dir.path(), &["bisect", "HEAD~1"]);
    assert_exit(&output, 0);
    assert_eq!(snapshot(dir.path()), before, "the user's files changed");
    let diff = stdout(&output);
    assert_eq!(
        changed_lines(&diff),
        ["-    items >= 3", "+    items > 3"],
        "{diff}"
    );
    assert!(
        stderr(&output).contains("1 of 5 changes since `HEAD~1` make the tests fail"),
        "{}",
        stderr(&output)
    );

    let json = autofix(dir.path(), &["bisect", "HEAD~1", "--format", "json", "-q"]);
    assert_exit(&json, 0);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["changes"], 5);
    assert_eq!(json["failure_inducing"], serde_json::json!([2]));
    assert_eq!(json["diff"], diff.as_str());
    assert!(json["tests"].as_u64().unwrap() >= 3, "{json:#}");
}

#[test]
fn a_revision_that_cannot_be_bisected_is_refused() {
    let dir = two_commits();
    let unknown = autofix(dir.path(), &["bisect", "no-such-rev"]);
    assert_exit(&unknown, 10);
    assert!(error_line(&unknown).contains("git cannot show the change since `no-such-rev`"));
    assert!(
        error_line(&unknown).contains(": no commit has that name; name a commit"),
        "{}",
        error_line(&unknown)
    );
    let unchanged = autofix(dir.path(), &["bisect", "HEAD"]);
    assert_exit(&unchanged, 10);
    assert!(
        error_line(&unchanged).contains("changed since `HEAD`"),
        "{}",
        error_line(&unchanged)
    );
    // Both commits fail the same way: the failure is older than the change.
    git(
        dir.path(),
        &["commit", "-q", "--allow-empty", "-m", "third"],
    );
    fs::write(
        dir.path().join("src/lib.rs"),
        fs::read_to_string(dir.path().join("src/lib.rs"))
            .unwrap()
            .replace("Item:", "Item -"),
    )
    .unwrap();
    let older = autofix(dir.path(), &["bisect", "HEAD"]);
    assert_exit(&older, 10);
    assert!(
        error_line(&older).contains("tests still fail"),
        "{}",
        error_line(&older)
    );
}

#[test]
fn a_change_in_a_member_the_package_depends_on_is_bisected() {
    // The `members` fixture's fault, committed over its fix, with a
    // harmless change beside it; the package is `app`, the change is in
    // `calendar`.
    let dir = fixture("members");
    let file = dir.path().join("calendar/src/lib.rs");
    let faulty = fs::read_to_string(&file).unwrap();
    fs::write(dir.path().join(".gitignore"), "target/\n").unwrap();
    fs::write(&file, faulty.replace("year % 400 != 0", "year % 400 == 0")).unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    fs::write(
        &file,
        faulty.replace("/// Whether `year`", "/// Whether the year `year`"),
    )
    .unwrap();
    git(dir.path(), &["commit", "-q", "-am", "second"]);
    let output = autofix(&dir.path().join("app"), &["bisect", "HEAD~1"]);
    assert_exit(&output, 0);
    let diff = stdout(&output);
    assert!(
        diff.starts_with("diff --git a/calendar/src/lib.rs"),
        "{diff}"
    );
    assert_eq!(
        changed_lines(&diff),
        [format!("-{CALENDAR_FIX}"), format!("+{CALENDAR_FAULT}")],
        "{diff}"
    );
}
