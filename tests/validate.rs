//! `cargo autofix validate`: patches from anywhere, evaluated as one batch.

#![allow(clippy::disallowed_methods)]

mod common;

use std::fs;
use std::io::Write;
use std::process::Stdio;

use common::*;

#[test]
fn given_patches_are_ranked_and_the_best_is_reduced_and_validated() {
    let dir = fixture("middle");
    let stale = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -3,3 +3,3 @@\n         if x < y {\n-            return z;\n+            return x;\n         } else if x < z {\n";
    fs::write(dir.path().join("patches/stale.patch"), stale).unwrap();
    let out = tempfile::tempdir().unwrap();
    let fix = out.path().join("fix.patch");
    let before = snapshot(dir.path());
    let output = autofix(
        dir.path(),
        &[
            "validate",
            "patches",
            "--reduce",
            "--format",
            "json",
            "-o",
            fix.to_str().unwrap(),
        ],
    );
    assert_eq!(snapshot(dir.path()), before, "the user's files changed");
    assert_exit(&output, 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["version"], 1);
    let names: Vec<&str> = json["patches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "patches/right.patch",
            "patches/overfitting.patch",
            "patches/breaking.patch",
            "patches/stale.patch"
        ]
    );
    let patch = |i: usize| &json["patches"][i];
    assert_eq!(patch(0)["plausible"], true);
    assert_eq!(
        patch(0)["fixes"],
        serde_json::json!(["tests::middle_2_1_3"])
    );
    assert_eq!(patch(1)["plausible"], true);
    assert_eq!(patch(2)["plausible"], false);
    assert_eq!(
        patch(2)["fixes"],
        serde_json::json!(["tests::middle_2_1_3"])
    );
    assert_eq!(
        patch(2)["breaks"],
        serde_json::json!(["tests::middle_1_2_3"])
    );
    assert!(patch(2)["fitness"].as_f64().unwrap() < 1.0);
    assert_eq!(
        patch(3)["refused"],
        "the hunk at line 3 does not match the file in src/lib.rs"
    );
    assert!(stderr(&output).contains("patches/stale.patch does not apply"));
    // The best one, reduced and validated, is the right fix.
    let reduced = json["reduced"]["patch"].as_str().unwrap();
    assert_eq!(
        changed_lines(reduced),
        ["-            return y;", "+            return x;"]
    );
    assert_eq!(fs::read_to_string(&fix).unwrap(), reduced);
    apply_and_test("middle", reduced);
}

#[test]
fn patches_come_on_stdin_and_the_exit_code_says_what_was_found() {
    let dir = fixture("middle");
    let run = |lines: &str| {
        let mut child = command(dir.path(), &["validate", "-", "-q"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(lines.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let breaking = fs::read_to_string(dir.path().join("patches/breaking.patch")).unwrap();
    // A patch that does not build: it fixes nothing and, running no test,
    // breaks nothing either.
    let unbuildable = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -6,1 +6,1 @@\n-            return y;\n+            return q;\n";
    let lines = [
        ("breaking", breaking.as_str()),
        ("unbuildable", unbuildable),
    ]
    .map(|(name, patch)| serde_json::json!({"name": name, "patch": patch}).to_string())
    .join("\n");
    let none_plausible = run(&lines);
    assert_exit(&none_plausible, 7);
    let table = stdout(&none_plausible);
    assert!(table.contains("breaks: tests::middle_1_2_3"), "{table}");
    let row: Vec<&str> = table
        .lines()
        .find(|l| l.contains("unbuildable"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(row[1..5], ["unbuildable", "0.0000", "0/1", "0"], "{table}");
    assert!(row[5..].join(" ").starts_with("does not build:"), "{table}");
    assert_eq!(
        error_line(&none_plausible),
        "error: no given patch passes every test"
    );

    let none_applies = run("{\"name\": \"empty\", \"patch\": \"not a diff\"}\n");
    assert_exit(&none_applies, 9);
    let unreadable = run("not json\n");
    assert_exit(&unreadable, 9);
    assert!(error_line(&unreadable).contains("line 1 on stdin is not a JSON object"));

    let misplaced = autofix(dir.path(), &["validate", "patches", "--rank-only"]);
    assert_exit(&misplaced, 2);
}

#[test]
fn reduce_keeps_only_the_edits_every_test_needs() {
    // The right fix, and an edit no test needs (`z` to `z + 0`).
    let padded = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -6,1 +6,1 @@\n-            return y;\n+            return x;\n@@ -15,1 +15,1 @@\n-    z\n+    z + 0\n";
    let dir = fixture("middle");
    fs::write(dir.path().join("padded.patch"), padded).unwrap();
    let output = autofix(
        dir.path(),
        &[
            "validate",
            "padded.patch",
            "--reduce",
            "--format",
            "json",
            "-q",
        ],
    );
    assert_exit(&output, 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["patches"][0]["plausible"], true, "{json:#}");
    assert_eq!(json["reduced"]["edits_before"], 2);
    assert_eq!(json["reduced"]["edits_after"], 1);
    let reduced = json["reduced"]["patch"].as_str().unwrap();
    assert_eq!(
        changed_lines(reduced),
        ["-            return y;", "+            return x;"]
    );
}
