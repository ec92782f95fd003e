//! Validation: the patch applied to a fresh, uninstrumented copy of the
//! original crate, and its whole `cargo test` run, doctests included. Only
//! a patch that passes is emitted, and it is called plausible: it passes
//! the tests it was given.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use crate::cargo::build::{
    BuildOutcome, BuildRequest, build_tests, nextest_failures, run_all_tests, run_doctests,
    run_nextest,
};
use crate::cargo::discover::Workspace;
use crate::cargo::suite::parse_results;
use crate::cargo::{Features, TestTool};
use crate::system::process::{Finished, Status};
use crate::system::scratch::MAIN_TARGET;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validation {
    /// `cargo test` passes (tests known to be flaky may fail).
    Passed,
    /// Why not: what does not build or which tests fail.
    Failed(String),
}

/// Applies `changes` (paths relative to the workspace root, new texts) to a
/// fresh copy and runs `cargo test --no-fail-fast` (with `TestTool::Nextest`:
/// `cargo nextest run`, then the doctests). Failures of `flaky` tests (by
/// libtest name) are tolerated.
pub fn validate(
    workspace: &Workspace,
    changes: &[(PathBuf, String)],
    features: &Features,
    flaky: &BTreeSet<String>,
    timeout: Duration,
    tool: TestTool,
) -> Result<Validation> {
    let scratch = workspace.scratch_copy(MAIN_TARGET)?;
    for (path, text) in changes {
        scratch.write(path, text)?;
    }
    let manifest_path = scratch.path_of(&workspace.package.manifest_path);
    let request = BuildRequest {
        manifest_path: &manifest_path,
        package: &workspace.package.name,
        version: &workspace.package.version,
        features,
        target_dir: &scratch.target_dir,
        cap_lints: false,
    };
    if let BuildOutcome::Failed { errors, summary } = build_tests(&request, None, |_| {})? {
        let first = errors.first().map_or(summary, ToString::to_string);
        return Ok(Validation::Failed(format!(
            "the patched crate does not build: {first}"
        )));
    }
    match tool {
        TestTool::Cargo => Ok(judge_cargo_test(
            &run_all_tests(&request, Some(timeout))?,
            flaky,
            timeout,
            "cargo test",
        )),
        TestTool::Nextest => {
            let nextest = judge_nextest(&run_nextest(&request, Some(timeout))?, flaky, timeout);
            if nextest != Validation::Passed || !workspace.package.has_doctests() {
                return Ok(nextest);
            }
            Ok(judge_cargo_test(
                &run_doctests(&request, Some(timeout))?,
                flaky,
                timeout,
                "cargo test --doc",
            ))
        }
    }
}

/// What `cargo test`'s (`what`'s) output says about the patch.
fn judge_cargo_test(
    finished: &Finished,
    flaky: &BTreeSet<String>,
    timeout: Duration,
    what: &str,
) -> Validation {
    if finished.status == Status::TimedOut {
        return Validation::Failed(format!(
            "{what} did not finish within {} s",
            timeout.as_secs()
        ));
    }
    if finished.success() {
        return Validation::Passed;
    }
    let results = parse_results(&finished.stdout);
    let failing: Vec<&str> = results
        .iter()
        .filter(|(name, passed)| !**passed && !flaky.contains(**name))
        .map(|(name, _)| *name)
        .collect();
    if !failing.is_empty() {
        return Validation::Failed(format!("tests fail with the patch: {}", failing.join(", ")));
    }
    // A test executable that crashed reports no FAILED line for its tests.
    let crashed = finished
        .stderr
        .lines()
        .find(|l| l.contains("process didn't exit successfully"));
    match crashed {
        None if results.values().any(|passed| !passed) => Validation::Passed, // only flaky tests failed
        None => Validation::Failed(first_error(&finished.stderr)),
        Some(line) => Validation::Failed(line.trim().to_string()),
    }
}

/// What `cargo nextest run`'s output says about the patch.
fn judge_nextest(finished: &Finished, flaky: &BTreeSet<String>, timeout: Duration) -> Validation {
    if finished.status == Status::TimedOut {
        return Validation::Failed(format!(
            "cargo nextest run did not finish within {} s",
            timeout.as_secs()
        ));
    }
    if finished.success() {
        return Validation::Passed;
    }
    let failed = nextest_failures(&format!("{}\n{}", finished.stdout, finished.stderr));
    let failing: Vec<&String> = failed
        .iter()
        .filter(|name| !flaky.contains(*name))
        .collect();
    match (failed.is_empty(), failing.is_empty()) {
        (false, true) => Validation::Passed, // only flaky tests failed
        (false, false) => Validation::Failed(format!(
            "tests fail with the patch (cargo nextest): {}",
            failing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        (true, _) => Validation::Failed(first_error(&finished.stderr)),
    }
}

fn first_error(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or("cargo test failed")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cargo::discover::{PackageQuery, discover};

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
    fn only_a_patch_that_passes_cargo_test_is_valid() {
        let (dir, workspace, text) = middle();
        let features = Features::default();
        let timeout = Duration::from_secs(300);
        let none = BTreeSet::new();
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
                &[(path.clone(), fixed)],
                &features,
                &none,
                timeout,
                TestTool::Cargo
            )
            .unwrap(),
            Validation::Passed
        );

        let unchanged = validate(
            &workspace,
            &[(path.clone(), text.clone())],
            &features,
            &none,
            timeout,
            TestTool::Cargo,
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
                &tolerated,
                timeout,
                TestTool::Cargo
            )
            .unwrap(),
            Validation::Passed
        );

        let broken = text.replace("return x;", "return x");
        let broken = broken.replacen("z\n}", "zz\n}", 1);
        let Validation::Failed(reason) = validate(
            &workspace,
            &[(path, broken)],
            &features,
            &none,
            timeout,
            TestTool::Cargo,
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
