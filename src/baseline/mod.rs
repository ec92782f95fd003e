//! The crate as it is: its sources, its tests, what each test did and which
//! lines it executed, measured in an instrumented scratch copy.

mod build;
pub use build::Unprobed;
mod coverage;
mod events;
mod instrument;
pub use events::{EventSite, Outcome, Predicate, SiteKind};
pub use instrument::{TRACE_CAPACITY, is_no_std, runtime_for_root};

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::baseline::build::{build_instrumented, tell_probes_left_out};
pub use crate::baseline::coverage::TestRecord;
use crate::baseline::coverage::{run_with_coverage, run_with_trace};
use crate::baseline::instrument::{Instrumented, ProbeMap, instrument};
use crate::cargo::{CargoFlags, DEPENDENCY_OPT_LEVEL};
use crate::cargo::{Kind, Workspace};
use crate::cargo::{Panic, RunSettings, TestId, TestSuite, Verdict, list_tests};
use crate::code::source::{FileId, Location};
use crate::code::{CrateSources, KeepConst, name_parts, read_crate_sources};
use crate::code::{TestFunction, find_test_function};
use crate::exit::{Exit, Failure, Result};
use crate::system::Budget;
use crate::system::cache::{self, Key};
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
    /// Trace failing tests (for dynamic slices, and for the line that
    /// called a panic outside the crate: see `run_with_trace`).
    pub trace_failing: bool,
    /// Run only these tests, built alone; `None`: every test not ignored.
    pub only: Option<Only>,
    /// Record events beyond lines (conditions' outcomes, values' signs).
    pub events: bool,
    /// On a re-measure of a crate measured before (a patched version's):
    /// the probes its build found do not compile, left out from the start
    /// and not told again.
    pub unprobed: Option<Unprobed>,
    /// Keep what the tests did between runs, and read it back on the same
    /// sources and settings (`--no-cache`: neither).
    pub cache: bool,
}

/// Some tests of a suite: their full names, and the targets whose
/// executables hold them (the only ones built: a re-measure of two tests
/// of the library does not link every integration test again).
#[derive(Debug, Clone)]
pub struct Only {
    pub tests: BTreeSet<String>,
    pub targets: BTreeSet<(Kind, String)>,
}

impl Only {
    /// `tests` of `suite`.
    pub fn of(suite: &TestSuite, tests: impl IntoIterator<Item = TestId>) -> Only {
        let (mut names, mut targets) = (BTreeSet::new(), BTreeSet::new());
        for test in tests {
            names.insert(suite.get(test).full_name.clone());
            targets.insert(suite.target_of(test));
        }
        Only {
            tests: names,
            targets,
        }
    }
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
    /// The `const fn`s that keep their `const` in a copy of the crate (the
    /// others run only at run time: they are probed, and edited).
    pub keep_const: KeepConst,
    /// The probes that did not compile, left out of a re-measure at once.
    pub unprobed: Unprobed,
    /// The scratch copy measured, for a re-measure to build in.
    copy: Mutex<Option<ScratchDir>>,
    /// The digest of what the baseline was measured from (the files, the
    /// settings, the toolchain), under which results derived from it are
    /// kept between runs; `None`: nothing is kept (`--no-cache`, or a file
    /// edited while the tests ran).
    pub digest: Option<String>,
    /// Read back from an earlier run rather than measured.
    pub cached: bool,
    /// Seconds the steps of measuring took in this run (see [`Measured`]):
    /// none when it was read back.
    pub seconds: BTreeMap<String, f64>,
}

/// A file left uninstrumented, and how many of its lines (those a probe
/// would have reported) the ranking therefore misses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LeftOut {
    pub file: FileId,
    pub lines: usize,
}

/// Failing tests traced for dependencies, at most (the first of each run).
const TRACED_TESTS: usize = 20;

impl Baseline {
    /// The crate with `files` (path, text) in place of its own (a patched
    /// or reduced version's), measured with `settings` in this baseline's
    /// scratch copy, at the same path, so that its build is incremental
    /// (in a new copy rustc compiles it from scratch: winnow's library
    /// tests take 9.2 s after a one-line edit there, 1.3 s in place).
    pub fn remeasure(
        &self,
        settings: &Settings,
        files: &BTreeMap<PathBuf, String>,
        budget: Budget,
    ) -> Result<Baseline> {
        let copy = self.copy.lock().unwrap_or_else(|e| e.into_inner()).take();
        let workspace = self.workspace.clone();
        let measured = establish_in(copy, workspace, settings, None, files, budget)?;
        let copy = measured
            .copy
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        *self.copy.lock().unwrap_or_else(|e| e.into_inner()) = copy;
        Ok(measured)
    }

    /// Where test `test` is written (why not, if it cannot be found: a
    /// whole `harness = false` executable, a function it cannot parse).
    pub fn test_function(&self, test: TestId) -> Result<TestFunction, String> {
        let (kind, target) = self.suite.target_of(test);
        let package = self.suite.package_of(test);
        let root = self
            .workspace
            .tested()
            .into_iter()
            .filter(|p| p.name == package)
            .flat_map(|p| &p.targets)
            .find(|t| t.kind == kind && t.name == target)
            .map(|t| t.src_path.clone())
            .ok_or_else(|| format!("no target `{target}` holds it"))?;
        if self.suite.get(test).whole_executable {
            return Err("it is a whole `harness = false` executable, not a test function".into());
        }
        find_test_function(&root, &self.workspace.root, &self.suite.get(test).name)
    }

    /// The key of results of `kind` computed from this baseline and
    /// `inputs` (every other input, written out), if results derived from
    /// it are kept (see [`Baseline::digest`]).
    pub fn key(&self, kind: &str, inputs: &str) -> Option<Key> {
        let digest = self.digest.as_deref()?;
        let mut key = Key::derived(kind, digest);
        key.add("inputs", inputs.as_bytes());
        Some(key)
    }

    pub fn failing(&self) -> impl Iterator<Item = &TestRecord> {
        self.records.iter().filter(|r| !r.outcome.verdict.passed())
    }

    /// What the failing `should_panic(expected = ..)` tests wanted their
    /// panics to contain and did not get, each once, as string literals.
    pub fn expected_panics(&self) -> Vec<String> {
        let mut expected: Vec<String> = Vec::new();
        for record in self.failing() {
            if let Verdict::Failed(Panic {
                expected: Some(literal),
                ..
            }) = &record.outcome.verdict
                && !expected.contains(literal)
            {
                expected.push(literal.clone());
            }
        }
        expected
    }

    /// The parts of the failing tests' names and of their failure
    /// messages, lowercase (see `code::name_parts`).
    pub fn failing_words(&self) -> BTreeSet<String> {
        let mut words = BTreeSet::new();
        for record in self.failing() {
            words.extend(name_parts(&self.suite.get(record.test).full_name));
            if let Verdict::Failed(panic) = &record.outcome.verdict {
                words.extend(name_parts(&panic.message));
            }
        }
        words
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
/// files of the copy first: the crate as a partial repair left it. The end
/// of `budget` halts it.
pub fn establish(
    workspace: Workspace,
    settings: &Settings,
    console: &Console,
    overrides: &BTreeMap<PathBuf, String>,
    budget: Budget,
) -> Result<Baseline> {
    establish_in(None, workspace, settings, Some(console), overrides, budget)
}

/// [`establish`], in `reuse` (a copy of the workspace made earlier, put
/// back as it was) if given; with no console `given`, quietly and without the
/// warnings the first measure gave (a crate measured again, patched).
fn establish_in(
    reuse: Option<ScratchDir>,
    workspace: Workspace,
    settings: &Settings,
    given: Option<&Console>,
    overrides: &BTreeMap<PathBuf, String>,
    budget: Budget,
) -> Result<Baseline> {
    let console = given.unwrap_or(&Console::QUIET);
    // The settings' part once (it asks rustc its version); the files'
    // part again after the run, to see that they did not change.
    let settings_key = settings.cache.then(|| key(&workspace, settings, overrides));
    let with_files = |key: &Key| {
        let mut key = key.clone();
        key.add_tree(&workspace.root, &workspace.target_dir);
        key
    };
    let key = settings_key.as_ref().map(with_files);
    let scratch = match reuse {
        Some(copy) => {
            copy.reset()?;
            write_overrides(&copy, overrides)?;
            copy
        }
        None => scratch_copy(&workspace, overrides, console, budget)?,
    };
    let sources = read_sources(&workspace, &scratch)?;
    if let Some(console) = given {
        warn_unparsable(&sources, console);
    }
    let target_dir = &workspace.target_dir;
    let kept = key
        .as_ref()
        .and_then(|key| cache::read(target_dir, key))
        .and_then(|text| serde_json::from_str::<Measured>(&text).ok());
    let cached = kept.is_some();
    let measured = match kept {
        Some(measured) => {
            console.status(
                "Measured",
                "the tests' coverage kept from an earlier run on the same sources (--no-cache measures again)",
            );
            measured
        }
        None => measure(&workspace, &scratch, &sources, settings, console, budget)?,
    };
    // Kept only if the files are still those the key was made of: a file
    // edited during the run may be in the copy measured.
    let digest = key.filter(|kept| {
        cached
            || settings_key
                .as_ref()
                .map(with_files)
                .map(|now| now.digest())
                == Some(kept.digest())
    });
    if let Some(key) = digest.as_ref().filter(|_| !cached)
        && let Ok(text) = serde_json::to_string(&measured)
    {
        cache::write(target_dir, key, &text);
    }
    let baseline = Baseline {
        workspace,
        sources,
        suite: measured.suite,
        records: measured.records,
        probes: measured.probes,
        traces: measured.traces,
        uninstrumented: measured.uninstrumented,
        keep_const: measured.keep_const,
        unprobed: measured.unprobed,
        copy: Mutex::new(Some(scratch)),
        digest: digest.map(|key| key.digest()),
        cached,
        seconds: if cached {
            BTreeMap::new()
        } else {
            measured.seconds
        },
    };
    summarize(&baseline, console);
    Ok(baseline)
}

/// What measuring the crate found: the part of a [`Baseline`] kept
/// between runs (the sources are read again).
#[derive(serde::Serialize, serde::Deserialize)]
struct Measured {
    suite: TestSuite,
    records: Vec<TestRecord>,
    probes: ProbeMap,
    #[serde(with = "cache::pairs")]
    traces: BTreeMap<TestId, Vec<Location>>,
    uninstrumented: Vec<LeftOut>,
    keep_const: KeepConst,
    unprobed: Unprobed,
    /// Seconds the steps of measuring took: `build` (the instrumented
    /// crate), `tests` (each test with coverage), `traces` (the failing
    /// ones again, traced).
    #[serde(default)]
    seconds: BTreeMap<String, f64>,
}

/// The key of a baseline but for the workspace's files: the packages
/// tested, the settings that change what the tests do, and the files the
/// run replaces.
fn key(workspace: &Workspace, settings: &Settings, overrides: &BTreeMap<PathBuf, String>) -> Key {
    let mut key = Key::new("baseline", &workspace.root);
    let packages: Vec<&str> = workspace.tested().iter().map(|p| p.name.as_str()).collect();
    let Settings {
        cargo,
        jobs: _,
        test_timeout,
        trace_failing,
        only,
        events,
        unprobed,
        cache: _,
    } = settings;
    key.add(
        "settings",
        format!(
            "{packages:?} {:?} {test_timeout:?} {trace_failing} {only:?} {events} {unprobed:?}",
            cargo.to_args()
        )
        .as_bytes(),
    );
    for (path, text) in overrides {
        key.add(&path.to_string_lossy(), text.as_bytes());
    }
    key
}

/// Instruments the copy of the workspace in `scratch`, builds it and runs
/// its tests with coverage (and the failing ones again with traces).
fn measure(
    workspace: &Workspace,
    scratch: &ScratchDir,
    sources: &CrateSources,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Measured> {
    let package = &workspace.package;
    // A re-measure tells nothing about probes the first measure told.
    let told = settings.unprobed.as_ref();
    let instrumented = instrument_sources(sources, settings.events, told.is_none(), console);
    let started = Instant::now();
    let (executables, dropped, left_out_probes) = build_instrumented(
        workspace,
        scratch,
        sources,
        &instrumented,
        told.unwrap_or(&Unprobed::default()),
        &settings.cargo,
        settings.only.as_ref().map(|only| &only.targets),
        console,
        budget,
    )?;
    let built = started.elapsed();
    let suite = list_tests(
        executables,
        &workspace.tested(),
        &workspace.root,
        (scratch.root(), &scratch.target_dir),
        budget,
    )?;
    let runnable = runnable_tests(&suite, settings, &package.name)?;
    let run_settings = RunSettings {
        jobs: settings.jobs,
        timeout: settings.test_timeout,
        budget,
    };
    let probes = &instrumented.probes;
    let running = Instant::now();
    let mut records = run_tests(&suite, &runnable, probes, &run_settings, scratch, console)?;
    let ran = running.elapsed();
    let traced = failing_to_trace(&records, settings.trace_failing);
    let tracing = Instant::now();
    let traces = run_with_trace(
        &suite,
        &traced,
        probes,
        &run_settings,
        &fresh_dir(scratch, ".autofix-traces"),
        &mut records,
    )?;
    let steps = [
        ("build", built),
        ("tests", ran),
        ("traces", tracing.elapsed()),
    ];
    let optimized = settings.cargo.optimize_dependencies;
    tell_measured(steps, (records.len(), traces.len()), optimized, console);
    let seconds = BTreeMap::from(steps.map(|(step, took)| (step.to_string(), took.as_secs_f64())));
    if told.is_none() {
        tell_probes_left_out(&left_out_probes, &dropped, &instrumented, sources, console);
    }
    let unprobed = Unprobed::of(&dropped, &left_out_probes);
    let uninstrumented = left_out(probes, &dropped);
    let keep_const = if left_out_probes.const_fns {
        KeepConst::Every
    } else {
        instrumented.keep_const
    };
    Ok(Measured {
        suite,
        records,
        probes: instrumented.probes,
        traces,
        uninstrumented,
        keep_const,
        unprobed,
        seconds,
    })
}

/// A scratch copy of the workspace, with the `overrides` written in it.
fn scratch_copy(
    workspace: &Workspace,
    overrides: &BTreeMap<PathBuf, String>,
    console: &Console,
    budget: Budget,
) -> Result<ScratchDir> {
    console.status(
        "Copying",
        format!("{} to a scratch directory", workspace.root.display()),
    );
    let scratch = workspace.scratch_copy(MAIN_TARGET, budget)?;
    write_overrides(&scratch, overrides)?;
    Ok(scratch)
}

/// The dir `name` of the copy `scratch`, emptied: a copy measured before
/// holds that run's coverage and traces, named by test index.
fn fresh_dir(scratch: &ScratchDir, name: &str) -> PathBuf {
    let dir = scratch.root().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Writes the `overrides` into the copy `scratch`.
fn write_overrides(scratch: &ScratchDir, overrides: &BTreeMap<PathBuf, String>) -> Result<()> {
    for (path, text) in overrides {
        scratch.write(path, text)?;
    }
    Ok(())
}

/// Warns of the files and items of `sources` syn could not parse.
fn warn_unparsable(sources: &CrateSources, console: &Console) {
    for (path, reason) in &sources.unparsable {
        console.warn(format!(
            "{}: syn cannot parse this file ({reason}); it is skipped, the rest is ranked",
            path.display()
        ));
    }
    for (path, line, reason) in &sources.left_out {
        console.warn(format!(
            "{}:{line}: syn cannot parse this item ({reason}); it is left out of the ranking and the edits, the rest of the file is ranked",
            path.display()
        ));
    }
}

/// The crate's sources in the scratch copy (the files syn cannot parse
/// skipped: see [`warn_unparsable`]). Fails when a module file lies outside the
/// workspace or is named by an absolute `#[path]`, or there is no code to
/// rank.
fn read_sources(workspace: &Workspace, scratch: &ScratchDir) -> Result<CrateSources> {
    let package = &workspace.package;
    let sources = read_crate_sources(&workspace.code_targets(), &workspace.root, scratch.root());
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
    Ok(sources)
}

/// The sources with probes (and, with `events`, event probes), told; and
/// the macros whose bodies cannot be probed, warned about.
fn instrument_sources(
    sources: &CrateSources,
    events: bool,
    tell: bool,
    console: &Console,
) -> Instrumented {
    let instrumented = instrument(sources, events);
    let event_note = if events {
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
    for (id, reason) in instrumented.unhandled.iter().filter(|_| tell) {
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
    instrumented
}

/// The tests of `suite` to run: those not ignored (and among
/// `settings.only`, if given). Fails when there are none (and no `only`).
fn runnable_tests(suite: &TestSuite, settings: &Settings, package: &str) -> Result<Vec<TestId>> {
    let runnable: Vec<TestId> = suite
        .ids()
        .filter(|&t| !suite.get(t).ignored)
        .filter(|&t| {
            settings
                .only
                .as_ref()
                .is_none_or(|only| only.tests.contains(&suite.get(t).full_name))
        })
        .collect();
    if runnable.is_empty() && settings.only.is_none() {
        return Err(Failure::new(
            Exit::NothingToLocalize,
            format!("nothing to localize: package `{package}` has no tests to run"),
        )
        .into());
    }
    Ok(runnable)
}

/// Runs the `runnable` tests with coverage, a progress bar counting them.
fn run_tests(
    suite: &TestSuite,
    runnable: &[TestId],
    probes: &ProbeMap,
    run_settings: &RunSettings,
    scratch: &ScratchDir,
    console: &Console,
) -> Result<Vec<TestRecord>> {
    let progress = console.progress("Testing", runnable.len() as u64);
    let records = run_with_coverage(
        suite,
        runnable,
        probes,
        run_settings,
        &fresh_dir(scratch, ".autofix-coverage"),
        |_, _| progress.inc(),
    )?;
    drop(progress);
    Ok(records)
}

/// The failing tests to run again with traces: the first `TRACED_TESTS`
/// of those that panicked, if `trace_failing`.
fn failing_to_trace(records: &[TestRecord], trace_failing: bool) -> Vec<TestId> {
    records
        .iter()
        .filter(|r| matches!(r.outcome.verdict, Verdict::Failed(_)))
        .map(|r| r.test)
        .take(if trace_failing { TRACED_TESTS } else { 0 })
        .collect()
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

/// What measuring took (`-v`): the instrumented build, the `tests` with
/// coverage, the `traced` failing ones; with `optimized` dependencies, what
/// that cost and what the tests took with it.
fn tell_measured(
    [(_, built), (_, ran), (_, traced)]: [(&str, Duration); 3],
    (tests, traces): (usize, usize),
    optimized: bool,
    console: &Console,
) {
    if optimized {
        console.status(
            "Optimized",
            format!(
                "dependencies at opt-level {DEPENDENCY_OPT_LEVEL}: built in {:.1} s (their first build in this target dir is the one-time cost), the tests ran in {:.1} s (compare a run without --optimize-dependencies)",
                built.as_secs_f64(),
                ran.as_secs_f64()
            ),
        );
    }
    console.detail(
        "Measured",
        format!(
            "the instrumented build in {:.1} s, {tests} test{} with coverage in {:.1} s, {traces} failing test{} traced in {:.1} s",
            built.as_secs_f64(),
            plural(tests),
            ran.as_secs_f64(),
            plural(traces),
            traced.as_secs_f64()
        ),
    );
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
