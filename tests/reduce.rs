//! `cargo autofix reduce TEST` end to end: the long test of
//! `testdata/long_test` reduced to the three statements its failure needs,
//! printed as the function and as a diff that applies; the reduced test
//! fails as the original does and is 1-minimal (checked here with cargo,
//! independently of the tool); the user's files are untouched; and the
//! errors for a name no test has and for a passing test; a failing
//! assertion keeps its inputs and its expected value.

#![allow(clippy::disallowed_methods)]

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::{assert_exit, autofix, error_line, fixture, snapshot, stderr, stdout};

const REDUCED: &str = "\
#[test]
fn restock_and_sell() {
    let mut inventory = Inventory::new();
    inventory.add(\"bolts\", 5);
    assert!(!inventory.remove(\"bolts\", 6), \"cannot sell more bolts than we have\");
}
";

/// What the reduced test still executes: `names()` (line 42, which both
/// failing tests call and no passing test does) is gone with the
/// assertions that called it.
const STILL_RUNS: &str = "it executes 6 of the 13 lines of the crate the original executed; of its 5 most suspicious (Ochiai), still src/lib.rs:10 (rank 9), src/lib.rs:15 (rank 9), src/lib.rs:17 (rank 9), src/lib.rs:24 (rank 9), no longer src/lib.rs:42 (rank 1)";

/// The reduction as a diff of the fixture's src/lib.rs.
const DIFF: &str = "\
diff --git a/src/lib.rs b/src/lib.rs
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -54,31 +54,8 @@
     #[test]
     fn restock_and_sell() {
         let mut inventory = Inventory::new();
-        inventory.add(\"nuts\", 40);
-        inventory.add(\"washers\", 12);
-        assert_eq!(inventory.quantity(\"nuts\"), 40);
-        let names = inventory.names();
-        assert_eq!(names, [\"nuts\", \"washers\"]);
         inventory.add(\"bolts\", 5);
-        let before = inventory.total();
-        assert_eq!(before, 57);
-        for _ in 0..3 {
-            inventory.add(\"nuts\", 1);
-        }
-        assert!(inventory.remove(\"washers\", 2));
-        let label = format!(\"{} kinds\", inventory.names().len());
-        assert_eq!(label, \"3 kinds\");
-        if inventory.quantity(\"bolts\") == 5 && !label.is_empty() {
-            assert!(!inventory.remove(\"bolts\", 6), \"cannot sell more bolts than we have\");
-        }
-        assert_eq!(inventory.quantity(\"washers\"), 10);
-        inventory.add(\"washers\", 2);
-        let after = inventory.total();
-        assert!(after > before);
-        let empty = Inventory::new();
-        assert_eq!(empty.total(), 0);
-        inventory.add(\"springs\", 0);
-        assert_eq!(inventory.names().len(), 4);
+        assert!(!inventory.remove(\"bolts\", 6), \"cannot sell more bolts than we have\");
     }
 
     #[test]
";

/// How `cargo test` runs `filter` in the package at `dir`: whether the test
/// panicked with the fixture's failure (the overflow at src/lib.rs:30), and
/// the output.
fn fails_as_the_original(dir: &Path, args: &[&str]) -> (bool, String) {
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .arg("test")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let same = text.contains("panicked at src/lib.rs:30:")
        && text.contains("attempt to subtract with overflow");
    (same, text)
}

#[test]
fn the_long_test_reduces_to_the_statements_its_failure_needs() {
    let dir = fixture("long_test");
    let before = snapshot(dir.path());
    let output = autofix(dir.path(), &["reduce", "tests::restock_and_sell"]);
    assert_exit(&output, 0);
    assert_eq!(snapshot(dir.path()), before, "the user's files changed");
    let product = stdout(&output);

    // The function, then the diff.
    let (function, diff) = product.split_once("\ndiff --git").unwrap();
    assert_eq!(
        function,
        format!(
            "// tests::restock_and_sell: 24 statements reduced to 3 (1-minimal); it still fails with panic at src/lib.rs:30\n// {STILL_RUNS}\n{REDUCED}"
        )
    );
    let diff = format!("diff --git{diff}");
    assert_eq!(diff, DIFF);
    let summary = stderr(&output);
    assert!(
        summary.contains("Reduced tests::restock_and_sell: 24 statements to 3 (1-minimal)"),
        "{summary}"
    );

    // The whole output applies, and the reduced test fails as the original.
    let applied = fixture("long_test");
    fs::write(applied.path().join("reduce.patch"), &product).unwrap();
    let git = Command::new("git")
        .args(["apply", "reduce.patch"])
        .current_dir(applied.path())
        .output()
        .unwrap();
    assert!(
        git.status.success(),
        "{}",
        String::from_utf8_lossy(&git.stderr)
    );
    let lib = fs::read_to_string(applied.path().join("src/lib.rs")).unwrap();
    assert!(
        lib.contains(&REDUCED.replace('\n', "\n    ").trim_end().to_string()),
        "{lib}"
    );
    let (same, text) = fails_as_the_original(applied.path(), &["--lib", "restock_and_sell"]);
    assert!(
        same,
        "the reduced test does not fail as the original:\n{text}"
    );

    // 1-minimal: without any one of its statements, it no longer fails so.
    for statement in REDUCED.lines().skip(2).take(3) {
        let without = lib.replacen(&format!("\n        {}", statement.trim()), "", 1);
        assert_ne!(without, lib, "{statement}");
        fs::write(applied.path().join("src/lib.rs"), &without).unwrap();
        let (same, text) = fails_as_the_original(applied.path(), &["--lib", "restock_and_sell"]);
        assert!(!same, "still fails without `{statement}`:\n{text}");
    }
}

#[test]
fn an_integration_test_reduces_in_its_own_file_as_json() {
    let dir = fixture("long_test");
    let before = snapshot(dir.path());
    let output = autofix(
        dir.path(),
        &["reduce", "orders/an_order_too_large", "--format", "json"],
    );
    assert_exit(&output, 0);
    assert_eq!(snapshot(dir.path()), before, "the user's files changed");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["test"], "orders/an_order_too_large");
    assert_eq!(json["file"], "tests/orders.rs");
    assert_eq!(json["failure"], "panic at src/lib.rs:30");
    assert_eq!(json["statements_before"], 6);
    assert_eq!(json["statements_after"], 4);
    assert_eq!(json["complete"], true);
    // `names()` went with the assertion that called it.
    let top = json["still_runs"]["top"].as_array().unwrap();
    let names = top.iter().find(|t| t["place"] == "src/lib.rs:42").unwrap();
    assert_eq!(names["kept"], false);
    assert_eq!(
        json["reduced"],
        "#[test]\nfn an_order_too_large() {\n    let mut inventory = Inventory::new();\n    inventory.add(\"gears\", 7);\n    let ordered = 8;\n    assert!(!inventory.remove(\"gears\", ordered), \"an order larger than the stock\");\n}\n"
    );
    assert_eq!(
        json["diff"],
        "diff --git a/tests/orders.rs b/tests/orders.rs\n--- a/tests/orders.rs\n+++ b/tests/orders.rs\n@@ -4,9 +4,7 @@\n fn an_order_too_large() {\n     let mut inventory = Inventory::new();\n     inventory.add(\"gears\", 7);\n-    inventory.add(\"nuts\", 2);\n     let ordered = 8;\n-    assert_eq!(inventory.names().len(), 2);\n     assert!(!inventory.remove(\"gears\", ordered), \"an order larger than the stock\");\n }\n \n"
    );
    // Every woven build holds several versions.
    let (builds, versions) = (
        json["builds"].as_u64().unwrap(),
        json["versions"].as_u64().unwrap(),
    );
    assert!(
        builds >= 2 && versions > builds,
        "{builds} builds, {versions} versions"
    );
}

/// The test's own assertion fails: a simpler input with the same expected
/// value would fail on correct code too, so neither is reduced.
#[test]
fn a_failing_assertion_keeps_its_inputs_and_its_expected_value() {
    let dir = fixture("middle");
    let output = autofix(
        dir.path(),
        &["reduce", "tests::middle_2_1_3", "--format", "json"],
    );
    assert_exit(&output, 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let reduced = json["reduced"].as_str().unwrap();
    assert!(
        reduced.contains("assert_eq!(middle(2, 1, 3), 2);"),
        "{reduced}"
    );
}

#[test]
fn unknown_and_passing_tests_are_refused_with_their_exit_codes() {
    let dir = fixture("long_test");
    let before = snapshot(dir.path());

    let unknown = autofix(dir.path(), &["reduce", "restock_and_sell"]);
    assert_exit(&unknown, 2);
    assert_eq!(
        error_line(&unknown),
        "error: no test is named `restock_and_sell` (names as `cargo autofix --rank-only` prints them; did you mean tests::restock_and_sell?)"
    );
    assert!(stdout(&unknown).is_empty());

    let passing = autofix(dir.path(), &["reduce", "tests::sell_what_is_there"]);
    assert_exit(&passing, 6);
    assert_eq!(
        error_line(&passing),
        "error: test `tests::sell_what_is_there` passes (or did not run): there is no failure to reduce"
    );

    let misplaced = autofix(
        dir.path(),
        &["--rank-only", "reduce", "tests::restock_and_sell"],
    );
    assert_exit(&misplaced, 2);
    assert_eq!(
        error_line(&misplaced),
        "error: --rank-only does not go with `reduce`; drop it; see `cargo autofix reduce --help`"
    );
    assert_eq!(snapshot(dir.path()), before, "the user's files changed");
}
