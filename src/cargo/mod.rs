//! Everything that talks to cargo: finding the package (`discover`),
//! building test executables (`build`), listing and running the tests
//! (`suite`), reading why one failed (`panic`), where the dependencies'
//! sources sit (`registry`). `cargo_metadata` is used only here.

mod panic;
mod suite;

mod build;
mod discover;
mod registry;
pub use build::{
    BuildOutcome, BuildRequest, CompileError, Doctests, TestExecutable, build_tests, diagnose_code,
    diagnose_tests, doctests_merged, nextest_failures, nextest_installed, run_all_tests,
    run_doctests, run_nextest,
};
pub use discover::{Kind, PackageQuery, Target, Workspace, discover};
pub use panic::Panic;
pub use registry::dependency_sources;
pub use suite::{
    GroupRun, PROCESS_FAILED, RunSettings, Stop, TestId, TestOutcome, TestSuite, Verdict,
    list_tests, parse_results, test_id,
};

use std::ffi::OsString;
use std::process::Command;

/// A `cargo` command, honouring `$CARGO` as cargo itself sets it for plugins.
pub fn command() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo")))
}

/// What runs the whole test suite in the final validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TestTool {
    /// `cargo test` (doctests included).
    #[default]
    Cargo,
    /// `cargo nextest run`, then `cargo test --doc` (nextest runs no doctests).
    Nextest,
}

impl TestTool {
    /// What the final validation ran, for people.
    pub fn describe(self) -> &'static str {
        match self {
            TestTool::Cargo => "cargo test, doctests included",
            TestTool::Nextest => "cargo nextest run, and cargo test --doc",
        }
    }
}

impl std::str::FromStr for TestTool {
    type Err = String;

    fn from_str(name: &str) -> Result<TestTool, String> {
        match name {
            "cargo" => Ok(TestTool::Cargo),
            "nextest" => Ok(TestTool::Nextest),
            other => Err(format!(
                "unknown test tool `{other}` (expected cargo or nextest)"
            )),
        }
    }
}

/// `--locked`, `--offline`, `--frozen`: what cargo may do to the lockfile
/// and whether it may use the network, passed through to every cargo
/// invocation (`cargo metadata` included).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Lockfile {
    pub locked: bool,
    pub offline: bool,
    pub frozen: bool,
}

impl Lockfile {
    pub fn to_args(self) -> Vec<String> {
        [
            (self.locked, "--locked"),
            (self.offline, "--offline"),
            (self.frozen, "--frozen"),
        ]
        .into_iter()
        .filter(|(given, _)| *given)
        .map(|(_, flag)| flag.to_string())
        .collect()
    }
}

/// What every cargo invocation that builds is given: the feature
/// selection and the lockfile's flags; and whether the command is shown
/// (`-vv`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CargoFlags {
    pub features: Vec<String>,
    pub all_features: bool,
    pub no_default_features: bool,
    pub lockfile: Lockfile,
    /// Each command is written on stderr before it runs.
    pub echo: bool,
    /// The dependencies (not the workspace's members) built at
    /// [`DEPENDENCY_OPT_LEVEL`] in every scratch build.
    pub optimize_dependencies: bool,
}

/// The optimization level of the dependencies with
/// [`CargoFlags::optimize_dependencies`]: most of the speed of optimized
/// code, a fraction of its build time.
pub const DEPENDENCY_OPT_LEVEL: u32 = 1;

impl CargoFlags {
    pub fn to_args(&self) -> Vec<String> {
        let mut args = self.lockfile.to_args();
        if !self.features.is_empty() {
            args.push("--features".to_string());
            args.push(self.features.join(","));
        }
        if self.all_features {
            args.push("--all-features".to_string());
        }
        if self.no_default_features {
            args.push("--no-default-features".to_string());
        }
        if self.optimize_dependencies {
            // `"*"`: every package but the workspace's members (dev and
            // test profiles alike: the test profile inherits dev's).
            args.push("--config".to_string());
            args.push(format!(
                "profile.dev.package.\"*\".opt-level={DEPENDENCY_OPT_LEVEL}"
            ));
        }
        args
    }
}
