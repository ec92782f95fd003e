//! The crate as it is: its sources, its tests, what each test did and which
//! lines it executed, measured in an instrumented scratch copy.

mod coverage;
mod events;
mod instrument;
pub use events::{EventSite, Predicate};
pub use instrument::{is_no_std, runtime_for_root};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Result, anyhow};

pub use crate::baseline::coverage::TestRecord;
use crate::baseline::coverage::{run_with_coverage, run_with_trace};
use crate::baseline::instrument::{
    Instrumented, LeftOut as ProbesLeftOut, MacroId, ProbeMap, instrument,
};
use crate::cargo::CargoFlags;
use crate::cargo::Workspace;
use crate::cargo::{BuildOutcome, BuildRequest, CompileError, TestExecutable, build_tests};
use crate::cargo::{RunSettings, TestId, TestSuite, Verdict, list_tests};
use crate::code::source::{FileId, Location};
use crate::code::{CrateSources, read_crate_sources};
use crate::code::{TestFunction, find_test_function};
use crate::exit::{Exit, Failure};
use crate::system::console::{Console, plural};
use crate::system::scratch::{MAIN_TARGET, ScratchDir};

/// How the baseline is measured.
#[derive(Debug, Clone)]
pub struct Settings {
    pub cargo: CargoFlags,
    /// Tests run in parallel.
    pub jobs: usize,
    /// A test running longer is killed and counts as timed out.
    pub test_timeout: Duration,
    /// Trace failing tests (for dynamic slices).
    pub trace_failing: bool,
    /// Run only these tests (full names); `None`: every test not ignored.
    pub only: Option<BTreeSet<String>>,
    /// Record events beyond lines (conditions' outcomes, values' signs).
    pub events: bool,
}

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
    pub traces: BTreeMap<TestId, Vec<Location>>,
    /// Files whose probes did not compile, left uninstrumented: their lines
    /// are not ranked.
    pub uninstrumented: Vec<LeftOut>,
}

/// A file left uninstrumented, and how many of its lines (those a probe
/// would have reported) the ranking therefore misses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeftOut {
    pub file: FileId,
    pub lines: usize,
}

/// Failing tests traced for dependencies, at most (the first of each run).
const TRACED_TESTS: usize = 20;

impl Baseline {
    /// Where test `test` is written (why not, if it cannot be found: a
    /// whole `harness = false` executable, a function it cannot parse).
    pub fn test_function(&self, test: TestId) -> Result<TestFunction, String> {
        let (kind, target) = self.suite.target_of(test);
        let root = self
            .workspace
            .package
            .targets
            .iter()
            .find(|t| t.kind == kind && t.name == target)
            .map(|t| t.src_path.clone())
            .ok_or_else(|| format!("no target `{target}` holds it"))?;
        if self.suite.get(test).whole_executable {
            return Err("it is a whole `harness = false` executable, not a test function".into());
        }
        find_test_function(&root, &self.workspace.root, &self.suite.get(test).name)
    }

    pub fn failing(&self) -> impl Iterator<Item = &TestRecord> {
        self.records.iter().filter(|r| !r.outcome.verdict.passed())
    }

    pub fn passing(&self) -> impl Iterator<Item = &TestRecord> {
        self.records.iter().filter(|r| r.outcome.verdict.passed())
    }

    pub fn ignored(&self) -> usize {
        self.suite.tests.iter().filter(|t| t.ignored).count()
    }

    /// Fails with [`Exit::NothingToLocalize`] when every test passes; warns
    /// when every test fails (no passing test to compare against).
    pub fn check_worth_localizing(&self, console: &Console) -> Result<(), Failure> {
        let failing = self.failing().count();
        if failing == 0 {
            return Err(Failure::new(
                Exit::NothingToLocalize,
                format!("nothing to localize: all {} tests pass", self.records.len()),
            ));
        }
        if failing == self.records.len() {
            console.warn(
                "every test fails: with no passing test to compare against, the ranking is weak",
            );
        }
        Ok(())
    }
}

/// Instruments a scratch copy of the workspace, builds it and runs its
/// tests with coverage (and the failing ones again with traces). Fails with
/// a [`Failure`] when there is no code or no test (see
/// [`Baseline::check_worth_localizing`] for whether any test fails).
///
/// `overrides` (paths relative to the workspace root, and texts) replace
/// files of the copy first: the crate as a partial repair left it.
pub fn establish(
    workspace: Workspace,
    settings: &Settings,
    console: &Console,
    overrides: &BTreeMap<PathBuf, String>,
) -> Result<Baseline> {
    let package = &workspace.package;
    console.status(
        "Copying",
        format!("{} to a scratch directory", workspace.root.display()),
    );
    let scratch = workspace.scratch_copy(MAIN_TARGET)?;
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
    if let Some((declaring, module)) = sources.outside.first() {
        let why = if module.starts_with(&workspace.root) {
            "is named by an absolute #[path], so builds of the scratch copy would read your file; make the #[path] relative".to_string()
        } else {
            format!(
                "lies outside the workspace {}, which cargo autofix copies to work on; move the file inside it (or link it there) and point its #[path] at it",
                workspace.root.display()
            )
        };
        return Err(Failure::new(
            Exit::ModuleOutside,
            format!(
                "{}: the module file {} {why}",
                declaring.display(),
                module.display(),
            ),
        )
        .into());
    }
    if let (true, Some((path, reason))) = (sources.files.is_empty(), sources.unparsable.first()) {
        return Err(Failure::new(
            Exit::BuildFailed,
            format!(
                "package `{}` does not build: syn cannot parse {} ({reason}); fix the syntax error (`cargo build` shows it)",
                package.name,
                path.display()
            ),
        )
        .into());
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
    let instrumented = instrument(&sources, settings.events);
    let event_note = if settings.events {
        format!(" and {} event sites", instrumented.probes.events.len())
    } else {
        String::new()
    };
    console.detail(
        "Instrumented",
        format!(
            "{} file{} with {} probes{event_note}",
            instrumented.files.len(),
            plural(instrumented.files.len()),
            instrumented.probes.locations.len()
        ),
    );
    let mut told = BTreeSet::new();
    for (id, reason) in &instrumented.unhandled {
        if !told.insert(id) {
            continue;
        }
        console.warn(format!(
            "macro `{}` ({}:{}): a rule's body does not parse as Rust ({reason}); its expansions are not probed, the lines that invoke it are ranked instead",
            id.name,
            sources.get(id.file).path.display(),
            id.line
        ));
    }
    let (executables, dropped, left_out_probes) = build_instrumented(
        &workspace,
        &scratch,
        &sources,
        &instrumented,
        &settings.cargo,
        console,
    )?;

    let package_dir = scratch.path_of(package.dir());
    let suite = list_tests(executables, package, &package_dir)?;
    let runnable: Vec<TestId> = suite
        .ids()
        .filter(|&t| !suite.get(t).ignored)
        .filter(|&t| {
            settings
                .only
                .as_ref()
                .is_none_or(|only| only.contains(&suite.get(t).full_name))
        })
        .collect();
    if runnable.is_empty() && settings.only.is_none() {
        return Err(Failure::new(
            Exit::NothingToLocalize,
            format!(
                "nothing to localize: package `{}` has no tests to run",
                package.name
            ),
        )
        .into());
    }
    let run_settings = RunSettings {
        jobs: settings.jobs,
        timeout: settings.test_timeout,
    };
    let progress = console.progress("Testing", runnable.len() as u64);
    let records = run_with_coverage(
        &suite,
        &runnable,
        &instrumented.probes,
        &run_settings,
        &scratch.root().join(".autofix-coverage"),
        |_, _| progress.inc(),
    )?;
    drop(progress);
    let traced: Vec<TestId> = records
        .iter()
        .filter(|r| matches!(r.outcome.verdict, Verdict::Failed(_)))
        .map(|r| r.test)
        .take(if settings.trace_failing {
            TRACED_TESTS
        } else {
            0
        })
        .collect();
    let traces = run_with_trace(
        &suite,
        &traced,
        &instrumented.probes,
        &run_settings,
        &scratch.root().join(".autofix-traces"),
    )?;
    for id in left_out_probes
        .macros
        .iter()
        .filter(|m| !dropped.contains(&m.file))
    {
        console.warn(format!(
            "coverage probes do not compile in the body of macro `{}` ({}:{}); it is left unprobed, the lines that invoke it are ranked instead",
            id.name,
            sources.get(id.file).path.display(),
            id.line
        ));
    }
    // Those of files left uninstrumented are told with the files.
    let events_left_out = left_out_probes
        .events
        .iter()
        .filter(|&&site| !dropped.contains(&instrumented.probes.events[site].location.file))
        .count();
    if events_left_out > 0 {
        console.note(format!(
            "{events_left_out} of {} event probes do not compile where they are; they are left out",
            instrumented.probes.events.len()
        ));
    }
    let uninstrumented = left_out(&instrumented.probes, &dropped);
    let baseline = Baseline {
        workspace,
        sources,
        suite,
        records,
        probes: instrumented.probes,
        traces,
        uninstrumented,
    };
    summarize(&baseline, console);
    Ok(baseline)
}

/// Each dropped file with the number of distinct lines its probes report.
fn left_out(probes: &ProbeMap, dropped: &[FileId]) -> Vec<LeftOut> {
    dropped
        .iter()
        .map(|&file| LeftOut {
            file,
            lines: probes
                .locations
                .iter()
                .filter(|l| l.file == file)
                .map(|l| l.line)
                .collect::<BTreeSet<_>>()
                .len(),
        })
        .collect()
}

/// Rounds of leaving out the event probes that errors point at, before
/// every event probe of a file with errors goes.
const EVENT_ROUNDS: usize = 3;

/// Builds the instrumented copy. Should event probes break the build (an
/// error's primary span lies in what one inserted or observes), those
/// probes are left out and the build retried. Should probes break a file's
/// build (a file also compiled into a test crate by `#[path]`, say), that
/// file is restored and the build retried; should they break it only in
/// the body of a macro (one expanded in a const context, say), only that
/// macro's probes are left out. If the copy does not build even without
/// probes, the crate itself does not build. Returns the test executables,
/// the files whose probes were dropped, and the macros and event sites
/// whose probes were.
fn build_instrumented(
    workspace: &Workspace,
    scratch: &ScratchDir,
    sources: &CrateSources,
    instrumented: &Instrumented,
    features: &CargoFlags,
    console: &Console,
) -> Result<(Vec<TestExecutable>, Vec<FileId>, ProbesLeftOut)> {
    for (file, text) in &instrumented.files {
        scratch.write(&sources.get(*file).path, text)?;
    }
    let manifest_path = scratch.path_of(&workspace.package.manifest_path);
    let request = BuildRequest {
        manifest_path: &manifest_path,
        package: &workspace.package.name,
        version: &workspace.package.version,
        cargo: features,
        target_dir: &scratch.target_dir,
        cap_lints: false,
    };
    let mut probed: BTreeSet<FileId> = instrumented.files.iter().map(|(file, _)| *file).collect();
    // Files and macros whose probes were dropped: told only once the crate
    // builds (if it does not build at all, the probes were not the trouble).
    let mut dropped: Vec<FileId> = Vec::new();
    let mut left_out = ProbesLeftOut::default();
    let mut event_rounds = 0;
    let (first_errors, first_summary) = loop {
        let spinner = console.spinner("Building");
        spinner.set_message(format!("tests of {}", workspace.package.name));
        let outcome = build_tests(&request, None, |name| {
            spinner.set_message(format!("compiled {name}"))
        })?;
        drop(spinner);
        let (errors, summary) = match outcome {
            BuildOutcome::Built(executables) => {
                return Ok((executables, dropped, left_out));
            }
            BuildOutcome::Failed { errors, summary } => (errors, summary),
        };
        let in_file = |file: FileId, error: &CompileError| {
            error
                .file
                .as_deref()
                .map(|f| lexically_normal(Path::new(f)))
                == Some(lexically_normal(&sources.get(file).path))
        };
        let blamed: Vec<FileId> = probed
            .iter()
            .copied()
            .filter(|&file| errors.iter().any(|e| in_file(file, e)))
            .collect();
        if blamed.is_empty() {
            // An error outside the probed files may come from a probed
            // macro body, expanded where it is invoked (in a test module,
            // say): leave out every macro's probes, once, and try again.
            let macros: BTreeSet<_> = instrumented
                .macros
                .iter()
                .filter(|m| !left_out.macros.contains(*m))
                .cloned()
                .collect();
            if macros.is_empty() {
                break (errors, summary);
            }
            leave_out_macros(
                macros,
                &mut left_out,
                &probed,
                instrumented,
                sources,
                scratch,
            )?;
            continue;
        }
        let events = blamed_events(sources, instrumented, &blamed, &left_out, &errors);
        if !events.is_empty() {
            event_rounds += 1;
            left_out.events.extend(events);
            if event_rounds > EVENT_ROUNDS {
                // Errors keep coming from event probes: all of these files' go.
                for &file in &blamed {
                    let regions = instrumented.event_regions(sources, file, &left_out);
                    left_out
                        .events
                        .extend(regions.into_iter().map(|(site, _)| site));
                }
            }
            for &file in &blamed {
                let text = instrumented.text_without(sources, file, &left_out);
                scratch.write(&sources.get(file).path, &text)?;
            }
            continue;
        }
        // A macro's probes that errors point at go first, and the build is
        // tried again before any file goes: expanded elsewhere (a macro
        // that writes a trait's items, say), they break files whose own
        // probes are fine.
        let macros: BTreeSet<_> = instrumented
            .macros
            .iter()
            .filter(|m| blamed.contains(&m.file) && !left_out.macros.contains(*m))
            .filter(|m| {
                errors.iter().any(|e| {
                    in_file(m.file, e)
                        && e.line
                            .is_some_and(|l| (m.line..=m.last_line).contains(&(l as u32)))
                })
            })
            .cloned()
            .collect();
        if !macros.is_empty() {
            leave_out_macros(
                macros,
                &mut left_out,
                &probed,
                instrumented,
                sources,
                scratch,
            )?;
            continue;
        }
        for index in blamed {
            let file = sources.get(index);
            if let Some(error) = errors.iter().find(|e| in_file(index, e)) {
                console.detail(
                    "Unprobed",
                    format!(
                        "{}: the probes do not compile: {error}",
                        file.path.display()
                    ),
                );
            }
            dropped.push(index);
            scratch.write(&file.path, &file.text)?;
            probed.remove(&index);
        }
    };
    // Does the crate build at all without probes?
    for &file in &probed {
        scratch.write(&sources.get(file).path, &sources.get(file).text)?;
    }
    match build_tests(&request, None, |_| {})? {
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

/// Leaves out the probes of `macros`, rewriting the probed files they are in.
fn leave_out_macros(
    macros: BTreeSet<MacroId>,
    left_out: &mut ProbesLeftOut,
    probed: &BTreeSet<FileId>,
    instrumented: &Instrumented,
    sources: &CrateSources,
    scratch: &ScratchDir,
) -> Result<()> {
    let files: BTreeSet<FileId> = macros.iter().map(|m| m.file).collect();
    left_out.macros.extend(macros);
    for file in files.into_iter().filter(|f| probed.contains(f)) {
        let text = instrumented.text_without(sources, file, left_out);
        scratch.write(&sources.get(file).path, &text)?;
    }
    Ok(())
}

/// The event sites of `files` in whose region (the innermost) (in the text built, without
/// the probes `left_out`) an error's primary span lies.
fn blamed_events(
    sources: &CrateSources,
    instrumented: &Instrumented,
    files: &[FileId],
    left_out: &ProbesLeftOut,
    errors: &[CompileError],
) -> BTreeSet<usize> {
    let mut blamed = BTreeSet::new();
    for &file in files {
        let path = lexically_normal(&sources.get(file).path);
        let regions = instrumented.event_regions(sources, file, left_out);
        for error in errors {
            let Some((span_file, span)) = error.spans.first() else {
                continue;
            };
            if lexically_normal(Path::new(span_file)) != path {
                continue;
            }
            // The innermost site around it (a returned value may hold a condition).
            blamed.extend(
                regions
                    .iter()
                    .filter(|(_, region)| region.start <= span.start && span.end <= region.end)
                    .min_by_key(|(_, region)| region.len())
                    .map(|(site, _)| *site),
            );
        }
    }
    blamed
}

/// `tests/../src/a.rs` as `src/a.rs` (rustc names a file included by
/// `#[path]` through the including file's directory).
fn lexically_normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir
                if matches!(
                    normal.components().next_back(),
                    Some(std::path::Component::Normal(_))
                ) =>
            {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

fn first_error(errors: &[CompileError], summary: &str) -> String {
    errors
        .first()
        .map_or_else(|| summary.to_string(), ToString::to_string)
}

fn summarize(baseline: &Baseline, console: &Console) {
    let passed = baseline.records.len() - baseline.failing().count();
    let timed_out = baseline
        .failing()
        .filter(|r| r.outcome.verdict == Verdict::TimedOut)
        .count();
    let executables = baseline.suite.executables.len();
    console.status(
        "Summary",
        format!(
            "{passed} passed, {} failed{}, {} ignored ({executables} test executable{})",
            baseline.failing().count(),
            match timed_out {
                0 => String::new(),
                n => format!(" ({n} timed out)"),
            },
            baseline.ignored(),
            plural(executables),
        ),
    );
    for record in baseline.failing() {
        let id = &baseline.suite.get(record.test).full_name;
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
    for left_out in &baseline.uninstrumented {
        console.warn(format!(
            "coverage probes do not compile in {}; it is left uninstrumented: {} not ranked",
            baseline.sources.get(left_out.file).path.display(),
            if left_out.lines == 1 {
                "its 1 executable line is".to_string()
            } else {
                format!("its {} executable lines are", left_out.lines)
            }
        ));
    }
    if baseline.workspace.package.has_doctests() {
        console.note("doctests are not part of localization");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_through_other_directories_are_normalized() {
        assert_eq!(
            lexically_normal(Path::new("tests/../src/calendar.rs")),
            Path::new("src/calendar.rs")
        );
        assert_eq!(
            lexically_normal(Path::new("./src/./a/../b.rs")),
            Path::new("src/b.rs")
        );
        assert_eq!(
            lexically_normal(Path::new("../outside/x.rs")),
            Path::new("../outside/x.rs")
        );
    }
}
