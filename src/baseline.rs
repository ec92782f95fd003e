//! The crate as it is: its sources, its tests, what each test did and which
//! lines it executed, measured in an instrumented scratch copy.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};

use crate::cargo::build::{BuildOutcome, BuildRequest, CompileError, TestExecutable, build_tests};
use crate::cargo::discover::Workspace;
use crate::console::Console;
use crate::coverage::{TestRecord, run_with_coverage, run_with_trace};
use crate::crate_sources::{CrateSources, read_crate_sources, test_line_ranges};
use crate::exit::{Exit, Failure};
use crate::groups::{FailureGroup, group_failures, signature};
use crate::instrument::{Instrumented, ProbeMap, instrument};
use crate::localize::Spectrum;
use crate::options::Options;
use crate::scratch::{MAIN_TARGET, ScratchDir};
use crate::source::Location;
use crate::suite::{RunSettings, TestSuite, Verdict, list_tests};

/// Everything known about the unmodified crate.
#[derive(Debug)]
pub struct Baseline {
    pub workspace: Workspace,
    /// The original sources (parsed, uninstrumented).
    pub sources: CrateSources,
    pub suite: TestSuite,
    /// One record per test that ran (ignored tests do not run).
    pub records: Vec<TestRecord>,
    pub probes: ProbeMap,
    /// The locations each traced failing test executed, in order (the last
    /// ones, if it ran long): the runs dependencies are computed from.
    pub traces: BTreeMap<usize, Vec<Location>>,
}

/// Failing tests traced for dependencies, at most (the first of each run).
const TRACED_TESTS: usize = 20;

impl Baseline {
    /// The ids of tests given by suite index.
    pub fn test_ids<'a>(&self, tests: impl IntoIterator<Item = &'a usize>) -> Vec<String> {
        tests
            .into_iter()
            .map(|&t| self.suite.tests[t].id.clone())
            .collect()
    }

    /// The spectrum of every test.
    pub fn spectrum(&self) -> Spectrum {
        self.spectrum_of(None)
    }

    /// The spectrum of the passing tests and, of the failing ones, those in
    /// `failing` (all of them for `None`).
    pub fn spectrum_of(&self, failing: Option<&[usize]>) -> Spectrum {
        Spectrum::from_runs(
            self.records
                .iter()
                .filter(|r| {
                    r.outcome.verdict.passed() || failing.is_none_or(|f| f.contains(&r.test))
                })
                .map(|r| (!r.outcome.verdict.passed(), &r.lines)),
        )
    }

    /// The failing tests grouped by how they fail (see `groups`).
    pub fn groups(&self) -> Vec<FailureGroup> {
        let test_lines: BTreeMap<&Path, Vec<std::ops::RangeInclusive<u32>>> = self
            .sources
            .files
            .iter()
            .map(|f| (f.path.as_path(), test_line_ranges(&f.syntax)))
            .collect();
        let is_crate_code = |file: &Path, line: u32| {
            test_lines
                .get(file)
                .is_some_and(|tests| !tests.iter().any(|r| r.contains(&line)))
        };
        let signatures: Vec<_> = self
            .failing()
            .map(|r| (r.test, signature(&r.outcome.verdict, is_crate_code)))
            .collect();
        group_failures(&signatures)
    }

    pub fn failing(&self) -> impl Iterator<Item = &TestRecord> {
        self.records.iter().filter(|r| !r.outcome.verdict.passed())
    }

    pub fn ignored(&self) -> usize {
        self.suite.tests.iter().filter(|t| t.ignored).count()
    }
}

/// Discovers the package, instruments a scratch copy, builds and runs its
/// tests with coverage. Fails with a [`Failure`] when there is nothing to
/// localize.
///
/// `overrides` (paths relative to the workspace root, and texts) replace
/// files of the copy first: the crate as a partial repair left it.
pub fn establish(
    workspace: Workspace,
    options: &Options,
    console: &Console,
    overrides: &BTreeMap<PathBuf, String>,
) -> Result<Baseline> {
    let package = &workspace.package;
    console.status(
        "Copying",
        format!("{} to a scratch directory", workspace.root.display()),
    );
    let scratch = ScratchDir::create(&workspace, MAIN_TARGET)?;
    for (path, text) in overrides {
        scratch.write(path, text)?;
    }
    let sources = read_crate_sources(package, &workspace.root, scratch.root());
    for (path, reason) in &sources.unparsable {
        console.warn(format!(
            "{}: syn cannot parse this file ({reason}); it is skipped, the rest is ranked",
            path.display()
        ));
    }
    if sources.files.is_empty() {
        return Err(Failure::new(
            Exit::NothingToLocalize,
            format!(
                "package `{}` has no library or binary code to rank",
                package.name
            ),
        )
        .into());
    }
    let instrumented = instrument(&sources);
    console.status(
        "Instrumented",
        format!(
            "{} files with {} probes",
            instrumented.files.len(),
            instrumented.probes.locations.len()
        ),
    );
    let executables = build_instrumented(
        &workspace,
        &scratch,
        &sources,
        &instrumented,
        options,
        console,
    )?;

    let package_dir = scratch.path_of(package.dir());
    let suite = list_tests(executables, package, &package_dir)?;
    let runnable: Vec<usize> = (0..suite.tests.len())
        .filter(|&t| !suite.tests[t].ignored)
        .collect();
    if runnable.is_empty() {
        return Err(Failure::new(
            Exit::NothingToLocalize,
            format!(
                "nothing to localize: package `{}` has no tests to run",
                package.name
            ),
        )
        .into());
    }
    let settings = RunSettings {
        jobs: options.jobs,
        timeout: options.test_timeout,
    };
    let progress = console.progress("Testing", runnable.len() as u64);
    let records = run_with_coverage(
        &suite,
        &runnable,
        &instrumented.probes,
        &settings,
        &scratch.root().join(".autofix-coverage"),
        |_, _| progress.inc(),
    )?;
    drop(progress);
    let traced: Vec<usize> = records
        .iter()
        .filter(|r| matches!(r.outcome.verdict, Verdict::Failed(_)))
        .map(|r| r.test)
        .take(if options.refine.slices {
            TRACED_TESTS
        } else {
            0
        })
        .collect();
    let traces = run_with_trace(
        &suite,
        &traced,
        &instrumented.probes,
        &settings,
        &scratch.root().join(".autofix-traces"),
    )?;
    let baseline = Baseline {
        workspace,
        sources,
        suite,
        records,
        probes: instrumented.probes,
        traces,
    };
    summarize(&baseline, console);
    check_worth_localizing(&baseline, console)?;
    Ok(baseline)
}

/// Builds the instrumented copy. Should probes break a file's build (a
/// file also compiled into a test crate by `#[path]`, say), that file is
/// restored and the build retried; if the copy does not build even without
/// probes, the crate itself does not build.
fn build_instrumented(
    workspace: &Workspace,
    scratch: &ScratchDir,
    sources: &CrateSources,
    instrumented: &Instrumented,
    options: &Options,
    console: &Console,
) -> Result<Vec<TestExecutable>> {
    for (index, text) in &instrumented.files {
        scratch.write(&sources.files[*index].path, text)?;
    }
    let manifest_path = scratch.path_of(&workspace.package.manifest_path);
    let request = BuildRequest {
        manifest_path: &manifest_path,
        package: &workspace.package.name,
        features: &options.features,
        target_dir: &scratch.target_dir,
        cap_lints: false,
    };
    let mut probed: BTreeSet<usize> = instrumented.files.iter().map(|(index, _)| *index).collect();
    let (first_errors, first_summary) = loop {
        let spinner = console.spinner("Building");
        spinner.set_message(format!("tests of {}", workspace.package.name));
        let outcome = build_tests(&request, |name| {
            spinner.set_message(format!("compiled {name}"))
        })?;
        drop(spinner);
        let (errors, summary) = match outcome {
            BuildOutcome::Built(executables) => return Ok(executables),
            BuildOutcome::Failed { errors, summary } => (errors, summary),
        };
        let blamed: Vec<usize> = probed
            .iter()
            .copied()
            .filter(|&index| {
                errors.iter().any(|e| {
                    e.file.as_deref().map(Path::new) == Some(sources.files[index].path.as_path())
                })
            })
            .collect();
        if blamed.is_empty() {
            break (errors, summary);
        }
        for index in blamed {
            let file = &sources.files[index];
            console.warn(format!(
                "coverage probes do not compile in {}; it is left uninstrumented",
                file.path.display()
            ));
            scratch.write(&file.path, &file.text)?;
            probed.remove(&index);
        }
    };
    // Does the crate build at all without probes?
    for &index in &probed {
        scratch.write(&sources.files[index].path, &sources.files[index].text)?;
    }
    match build_tests(&request, |_| {})? {
        BuildOutcome::Failed { errors, summary } => Err(Failure::new(
            Exit::BuildFailed,
            format!(
                "the crate does not build: {}",
                first_error(&errors, &summary)
            ),
        )
        .into()),
        BuildOutcome::Built(_) => Err(anyhow!(
            "coverage probes broke the build (a bug in cargo-autofix, please report it): {}",
            first_error(&first_errors, &first_summary)
        )),
    }
}

fn first_error(errors: &[CompileError], summary: &str) -> String {
    errors
        .first()
        .map_or_else(|| summary.to_string(), ToString::to_string)
}

fn summarize(baseline: &Baseline, console: &Console) {
    let tests = &baseline.suite.tests;
    let passed = baseline.records.len() - baseline.failing().count();
    let timed_out = baseline
        .failing()
        .filter(|r| r.outcome.verdict == Verdict::TimedOut)
        .count();
    console.status(
        "Summary",
        format!(
            "{passed} passed, {} failed ({timed_out} timed out), {} ignored, in {} test executables",
            baseline.failing().count(),
            baseline.ignored(),
            baseline.suite.executables.len()
        ),
    );
    for record in baseline.failing() {
        let id = &tests[record.test].id;
        match &record.outcome.verdict {
            Verdict::TimedOut => {
                console.status("TIMED OUT", format!("{id} (killed after the test timeout)"))
            }
            Verdict::Failed(panic) => {
                let message = panic.message.lines().next().unwrap_or("");
                let location = panic
                    .location
                    .as_deref()
                    .map(|l| format!(" at {l}"))
                    .unwrap_or_default();
                console.status("FAILED", format!("{id}: {message}{location}"));
            }
            Verdict::Passed => {}
        }
    }
    if baseline.workspace.package.has_doctests() {
        console.note("doctests are not part of localization");
    }
}

fn check_worth_localizing(baseline: &Baseline, console: &Console) -> Result<(), Failure> {
    let failing = baseline.failing().count();
    if failing == 0 {
        return Err(Failure::new(
            Exit::NothingToLocalize,
            format!(
                "nothing to localize: all {} tests pass",
                baseline.records.len()
            ),
        ));
    }
    if failing == baseline.records.len() {
        console
            .warn("every test fails: with no passing test to compare against, the ranking is weak");
    }
    Ok(())
}
