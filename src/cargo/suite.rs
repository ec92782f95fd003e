//! The package's tests: listed from the test executables cargo built, and
//! run one process per test, so that a test's outcome and coverage are its
//! own however the tests are written (threads, subprocesses, `exit`).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::cargo::build::TestExecutable;
use crate::cargo::discover::{Kind, Package};
use crate::cargo::panic::{Panic, parse_panic};
use crate::exit::{Result, bail};
use crate::system::Budget;
use crate::system::process::{self, Status};

/// A test of the package: its index in `TestSuite::tests`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct TestId(u32);

impl TestId {
    pub fn new(index: usize) -> TestId {
        TestId(u32::try_from(index).expect("fewer than 2^32 tests"))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Every test of the package (with `--workspace`, of every member), across
/// its test executables.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TestSuite {
    pub executables: Vec<TestExecutable>,
    pub tests: Vec<TestCase>,
    /// The copy of the workspace the executables were built in.
    root: PathBuf,
    /// The target dir they were built in: their tests see it as
    /// `CARGO_TARGET_DIR`, as a user's tests see their own, so that a test
    /// that runs cargo itself (trybuild's compile tests) builds there, its
    /// dependencies kept from one run to the next, not in the copy.
    #[serde(default)]
    target_dir: PathBuf,
    /// The packages whose tests these are, the package first.
    packages: Vec<TestedPackage>,
}

/// A package whose tests are in the suite: its tests run in its directory.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct TestedPackage {
    name: String,
    version: String,
    /// Relative to the workspace root.
    dir: PathBuf,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TestCase {
    pub executable: usize,
    /// The name libtest knows the test by.
    pub name: String,
    /// Unique across executables: the libtest name for the library's unit
    /// tests, `target/name` for the others. What the user sees.
    pub full_name: String,
    pub ignored: bool,
    /// A `harness = false` executable, run whole as one test.
    pub whole_executable: bool,
    /// A test of a `harness = false` executable that speaks libtest's
    /// protocol (libtest-mimic), which takes one name to run at most.
    #[serde(default)]
    pub own_harness: bool,
}

/// How one test run ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    Passed,
    Failed(Panic),
    TimedOut,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Passed)
    }
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TestOutcome {
    pub verdict: Verdict,
    pub duration: Duration,
}

/// Lists the tests of every executable of `packages` (the package first;
/// when there are several, each full name starts with its package's name),
/// built in the copy at `root` of the workspace at `workspace_root`, in
/// `target_dir`, unless `budget` ends first.
pub fn list_tests(
    executables: Vec<TestExecutable>,
    packages: &[&Package],
    workspace_root: &Path,
    (root, target_dir): (&Path, &Path),
    budget: Budget,
) -> Result<TestSuite> {
    let packages: Vec<(&Package, TestedPackage)> = packages
        .iter()
        .map(|&p| {
            let dir = p
                .dir()
                .strip_prefix(workspace_root)
                .unwrap_or(Path::new(""));
            let tested = TestedPackage {
                name: p.name.clone(),
                version: p.version.clone(),
                dir: dir.to_path_buf(),
            };
            (p, tested)
        })
        .collect();
    let mut tests = Vec::new();
    for (index, executable) in executables.iter().enumerate() {
        let position = packages
            .iter()
            .position(|(p, _)| p.name == executable.package)
            .unwrap_or(0);
        let (package, tested) = &packages[position];
        let harness = package
            .targets
            .iter()
            .find(|t| t.name == executable.target && t.kind == executable.kind)
            .is_none_or(|t| t.harness);
        let id_of = |name: &str| {
            let id = test_id(executable.kind, &executable.target, name);
            match packages.len() {
                1 => id,
                _ => format!("{}/{id}", package.name),
            }
        };
        let cwd = root.join(&tested.dir);
        // A custom harness of a package that uses libtest-mimic speaks
        // libtest's protocol (`--list`, a test by name with `--exact`):
        // its tests are told apart; any other runs whole.
        let listed = match harness || !package.mimics_libtest {
            true => Vec::new(),
            false => mimic_list(executable, &cwd, budget)?,
        };
        if !listed.is_empty() {
            tests.extend(listed.into_iter().map(|(name, ignored)| TestCase {
                executable: index,
                full_name: id_of(&name),
                ignored,
                name,
                whole_executable: false,
                own_harness: true,
            }));
            continue;
        }
        if !harness {
            tests.push(TestCase {
                executable: index,
                name: executable.target.clone(),
                full_name: id_of(&executable.target),
                ignored: false,
                whole_executable: true,
                own_harness: false,
            });
            continue;
        }
        let all = list(executable, &cwd, false, budget)?;
        let ignored: BTreeSet<String> = list(executable, &cwd, true, budget)?.into_iter().collect();
        for name in all {
            tests.push(TestCase {
                executable: index,
                full_name: id_of(&name),
                ignored: ignored.contains(&name),
                name,
                whole_executable: false,
                own_harness: false,
            });
        }
    }
    Ok(TestSuite {
        executables,
        tests,
        root: root.to_path_buf(),
        target_dir: target_dir.to_path_buf(),
        packages: packages.into_iter().map(|(_, tested)| tested).collect(),
    })
}

/// The full name of test `name` of the executable of target `target`: the
/// libtest name for the library's unit tests, `target/name` for the others.
pub fn test_id(kind: Kind, target: &str, name: &str) -> String {
    match kind {
        Kind::Lib => name.to_string(),
        _ => format!("{target}/{name}"),
    }
}

fn list(
    executable: &TestExecutable,
    cwd: &Path,
    ignored: bool,
    budget: Budget,
) -> Result<Vec<String>> {
    let mut command = Command::new(&executable.path);
    command
        .args(["--list", "--format", "terse"])
        .current_dir(cwd);
    if ignored {
        command.arg("--ignored");
    }
    let finished = process::run(command, Some(Duration::from_secs(60)), budget)?;
    if !finished.success() {
        bail!(
            "cannot list the tests of {}: {}",
            executable.path.display(),
            finished.stderr.lines().next().unwrap_or("it failed")
        );
    }
    Ok(finished
        .stdout
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .map(str::to_string)
        .collect())
}

/// The tests a libtest-mimic harness lists, each with whether it is
/// ignored (without the `[kind] ` it may write before a name, which it
/// does not take back); none when it does not answer. Its `--list
/// --ignored` lists every test in older versions: ignored ones are told
/// only when that list is a part of the whole.
fn mimic_list(
    executable: &TestExecutable,
    cwd: &Path,
    budget: Budget,
) -> Result<Vec<(String, bool)>> {
    let named = |ignored| match list(executable, cwd, ignored, budget) {
        Err(error) if error.halt().is_some() => Err(error),
        listed => Ok(listed.unwrap_or_default().into_iter().map(|name| {
            let bare = name.strip_prefix('[').and_then(|n| n.split_once("] "));
            bare.map_or(name.clone(), |(_, name)| name.to_string())
        })),
    };
    let all: Vec<String> = named(false)?.collect();
    let ignored: BTreeSet<String> = named(true)?.collect();
    let some = ignored.len() < all.len();
    Ok(all
        .into_iter()
        .map(|name| {
            let ignored = some && ignored.contains(&name);
            (name, ignored)
        })
        .collect())
}

/// How a group of tests ran (see [`TestSuite::run_together`]).
#[derive(Debug, Clone, Default)]
pub struct GroupRun {
    pub verdicts: Vec<(TestId, Verdict)>,
    /// Time spent in processes that ran out of time.
    pub timed_out: Duration,
}

/// What starting a test process may take, beyond its tests' budgets.
const START_UP: Duration = Duration::from_millis(100);

/// How late a test's start may be seen (the output is read every 20 ms at
/// most): added to its budget.
const TICK: Duration = Duration::from_millis(25);

/// The test libtest was running when its process stopped: a last line
/// `test NAME ... ` without a result (it prints that much before running a
/// test when tests run one at a time).
fn running_test(stdout: &str) -> Option<&str> {
    let last = stdout.rsplit('\n').next()?;
    let name = last
        .strip_prefix("test ")?
        .strip_suffix(" ... ")?
        .trim_end();
    Some(name.strip_suffix(" - should panic").unwrap_or(name))
}

/// When [`TestSuite::run_together`] may stop before every test has run:
/// once the tests it has not run yet cannot matter to the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every test runs.
    Never,
    /// At the first test that times out (a candidate that hangs: the rest
    /// would cost a timeout each).
    AtTimeout,
    /// At the second test that times out (one may be a busy machine; two
    /// are a candidate that hangs).
    AtSecondTimeout,
    /// At the first test that fails or times out.
    AtFailure,
}

impl Stop {
    /// Whether `verdicts` say to stop.
    pub fn after(self, verdicts: &[(TestId, Verdict)]) -> bool {
        let timed_out = || verdicts.iter().filter(|(_, v)| *v == Verdict::TimedOut);
        match self {
            Stop::Never => false,
            Stop::AtTimeout => timed_out().next().is_some(),
            Stop::AtSecondTimeout => timed_out().nth(1).is_some(),
            Stop::AtFailure => verdicts.iter().any(|(_, verdict)| !verdict.passed()),
        }
    }
}

/// How to run tests: in parallel, with a per-test timeout, until the
/// budget ends.
#[derive(Debug, Clone)]
pub struct RunSettings {
    pub jobs: usize,
    pub timeout: Duration,
    pub budget: Budget,
}

impl TestSuite {
    pub fn get(&self, test: TestId) -> &TestCase {
        &self.tests[test.index()]
    }

    /// Every test's id.
    pub fn ids(&self) -> impl Iterator<Item = TestId> + use<> {
        (0..self.tests.len()).map(TestId::new)
    }

    /// The full names of `tests`, as the user sees them.
    pub fn full_names<'a>(&self, tests: impl IntoIterator<Item = &'a TestId>) -> Vec<String> {
        tests
            .into_iter()
            .map(|&t| self.get(t).full_name.clone())
            .collect()
    }

    /// The test whose full name is `name`.
    pub fn find(&self, full_name: &str) -> Option<TestId> {
        self.tests
            .iter()
            .position(|t| t.full_name == full_name)
            .map(TestId::new)
    }

    /// The target (kind and name) whose executable holds `test`.
    pub fn target_of(&self, test: TestId) -> (Kind, String) {
        let executable = &self.executables[self.get(test).executable];
        (executable.kind, executable.target.clone())
    }

    /// The name of the package whose executable holds `test`.
    pub fn package_of(&self, test: TestId) -> &str {
        &self.executables[self.get(test).executable].package
    }

    /// The same tests, in the executables of another build of the package
    /// (a worker's scratch copy at `root`, in `target_dir`). A build of `only` some
    /// targets leaves the others without an executable (an empty path:
    /// their tests must not run).
    pub fn with_build(
        &self,
        executables: &[TestExecutable],
        only: Option<&BTreeSet<(Kind, String)>>,
        (root, target_dir): (&Path, &Path),
    ) -> Result<TestSuite> {
        let mut suite = self.clone();
        for executable in &mut suite.executables {
            let target = (executable.kind, executable.target.clone());
            if only.is_some_and(|only| !only.contains(&target)) {
                executable.path = PathBuf::new();
                continue;
            }
            let built = executables.iter().find(|e| {
                e.target == executable.target
                    && e.kind == executable.kind
                    && e.package == executable.package
            });
            let Some(built) = built else {
                bail!(
                    "the build did not produce test executable `{}`",
                    executable.target
                );
            };
            executable.path = built.path.clone();
        }
        suite.root = root.to_path_buf();
        suite.target_dir = target_dir.to_path_buf();
        Ok(suite)
    }

    /// A command for `executable`, in its package's directory, with the
    /// environment cargo gives tests.
    fn executable_command(&self, executable: usize) -> Command {
        let executable = &self.executables[executable];
        let package = self
            .packages
            .iter()
            .find(|p| p.name == executable.package)
            .unwrap_or(&self.packages[0]);
        let dir = self.root.join(&package.dir);
        let mut command = Command::new(&executable.path);
        command
            .current_dir(&dir)
            .env("RUST_BACKTRACE", "0")
            .env("CARGO_MANIFEST_DIR", &dir)
            .env("CARGO_PKG_NAME", &package.name)
            .env("CARGO_PKG_VERSION", &package.version);
        if !self.target_dir.as_os_str().is_empty() {
            command.env("CARGO_TARGET_DIR", &self.target_dir);
        }
        command
    }

    /// The command that runs the tests `pending` of `executable` in one
    /// process: by name, or all of a harness that takes one name at most.
    fn together_command(
        &self,
        executable: usize,
        pending: &[TestId],
        own_harness: bool,
    ) -> Command {
        let mut command = self.executable_command(executable);
        command.arg("--test-threads=1");
        if !own_harness {
            command
                .arg("--exact")
                .args(pending.iter().map(|&t| &self.get(t).name));
        }
        command
    }

    /// The time a process of [`Self::together_command`] has: the start-up
    /// and each test it runs its own (all of a harness that runs them all).
    fn allowance(
        &self,
        executable: usize,
        pending: &[TestId],
        own_harness: bool,
        timeout_of: &dyn Fn(TestId) -> Duration,
    ) -> Duration {
        let all = self.ids().filter(|&t| self.get(t).executable == executable);
        let runs: Vec<TestId> = match own_harness {
            true => all.collect(),
            false => pending.to_vec(),
        };
        START_UP + runs.into_iter().map(timeout_of).sum::<Duration>()
    }

    /// The command that runs `test` alone.
    fn command(&self, test: TestId) -> Command {
        let test = self.get(test);
        let mut command = self.executable_command(test.executable);
        if !test.whole_executable {
            command
                .arg(&test.name)
                .args(["--exact", "--test-threads=1"]);
        }
        command
    }

    /// Runs the tests `which`, one after the other in one process per test
    /// executable, test `t` allowed `timeout_of(t)` (a process, the sum of its
    /// tests' and a start-up allowance). When a process runs out of
    /// time, the test it was running is timed out and the tests it did not
    /// get to run in a new process; when it dies another way (a test called
    /// `exit`, or aborted), the tests it did not report run again alone.
    /// Tests of harness-free executables run alone, but for those of a
    /// harness that speaks libtest's protocol: it takes one name at most,
    /// so it runs all its tests once, and those it did not report run
    /// alone. `stop` says when the
    /// tests not run yet are of no use: they are left out of the verdicts.
    /// The end of `budget` halts the run.
    pub fn run_together(
        &self,
        which: &[TestId],
        timeout_of: &dyn Fn(TestId) -> Duration,
        stop: Stop,
        env: &[(&'static str, OsString)],
        budget: Budget,
    ) -> Result<GroupRun> {
        let mut run = GroupRun::default();
        let mut alone: Vec<TestId> = which
            .iter()
            .copied()
            .filter(|&t| self.get(t).whole_executable)
            .collect();
        let mut by_executable: BTreeMap<usize, Vec<TestId>> = BTreeMap::new();
        for &test in which.iter().filter(|&&t| !self.get(t).whole_executable) {
            by_executable
                .entry(self.get(test).executable)
                .or_default()
                .push(test);
        }
        for (executable, mut pending) in by_executable {
            let own_harness = pending.iter().any(|&t| self.get(t).own_harness);
            while !pending.is_empty() && !stop.after(&run.verdicts) {
                let mut command = self.together_command(executable, &pending, own_harness);
                command.envs(env.iter().map(|(k, v)| (k, v)));
                let wanted: BTreeSet<&str> =
                    pending.iter().map(|&t| self.get(t).name.as_str()).collect();
                // Each test has its own budget, from when it starts (a
                // hanging test costs its budget, not the whole process's).
                let started = Instant::now();
                let whole = started + self.allowance(executable, &pending, own_harness, timeout_of);
                let mut current: Option<(String, Instant)> = None;
                // A failure that stops the run ends the process at once.
                let stopped = Cell::new(false);
                let _tmp = own_tmp(&mut command)?;
                let finished = process::run_watched(
                    command,
                    budget,
                    |line| {
                        let failed = parse_results(line)
                            .iter()
                            .any(|(name, &passed)| !passed && wanted.contains(name));
                        if failed && stop == Stop::AtFailure {
                            stopped.set(true);
                        }
                    },
                    |tail| {
                        if stopped.get() {
                            return Some(Instant::now());
                        }
                        let Some(name) = running_test(tail) else {
                            return Some(whole);
                        };
                        if current.as_ref().is_none_or(|(running, _)| running != name) {
                            current = Some((name.to_string(), Instant::now()));
                        }
                        let since = current.as_ref().map_or(started, |(_, since)| *since);
                        let test = pending.iter().find(|&&t| self.get(t).name == name);
                        let own = test.map(|&t| since + timeout_of(t) + TICK);
                        Some(own.map_or(whole, |own| own.min(whole)))
                    },
                )?;
                let reported = parse_results(&finished.stdout);
                let running = running_test(&finished.stdout);
                let mut rest = Vec::new();
                for &test in &pending {
                    let name = self.get(test).name.as_str();
                    match reported.get(name) {
                        Some(&passed) => run.verdicts.push((
                            test,
                            if passed {
                                Verdict::Passed
                            } else {
                                Verdict::Failed(Panic::default())
                            },
                        )),
                        // Stopped on purpose: the rest are of no use.
                        None if stopped.get() => {}
                        None if finished.status != Status::TimedOut => alone.push(test),
                        None if running == Some(name) || running.is_none() => {
                            run.verdicts.push((test, Verdict::TimedOut))
                        }
                        None => rest.push(test),
                    }
                }
                if finished.status == Status::TimedOut && !stopped.get() {
                    run.timed_out += finished.elapsed;
                }
                if own_harness {
                    alone.append(&mut rest);
                }
                pending = rest;
            }
        }
        for test in alone {
            if stop.after(&run.verdicts) {
                break;
            }
            let mut command = self.command(test);
            command.envs(env.iter().map(|(k, v)| (k, v)));
            let _tmp = own_tmp(&mut command)?;
            let finished = process::run(command, Some(START_UP + timeout_of(test)), budget)?;
            let verdict = match finished.status {
                Status::TimedOut => {
                    run.timed_out += finished.elapsed;
                    Verdict::TimedOut
                }
                Status::Exited(status) if status.success() => Verdict::Passed,
                Status::Exited(_) => Verdict::Failed(Panic::default()),
            };
            run.verdicts.push((test, verdict));
        }
        run.verdicts.sort_by_key(|(test, _)| *test);
        Ok(run)
    }

    /// Runs the tests `which`, each in its own process, `settings.jobs` at
    /// a time. `env_for` adds environment for one test (its coverage file,
    /// say); `on_done` hears each finished test.
    pub fn run(
        &self,
        which: &[TestId],
        settings: &RunSettings,
        env_for: impl Fn(TestId) -> Vec<(&'static str, OsString)> + Sync,
        on_done: impl Fn(TestId, &TestOutcome) + Sync,
    ) -> Result<Vec<TestOutcome>> {
        process::in_parallel(settings.jobs, which.len(), settings.budget, |slot| {
            let index = which[slot];
            let mut command = self.command(index);
            command.envs(env_for(index));
            let _tmp = own_tmp(&mut command)?;
            let outcome =
                process::run(command, Some(settings.timeout), settings.budget).map(|finished| {
                    let verdict = match finished.status {
                        Status::TimedOut => Verdict::TimedOut,
                        Status::Exited(status) if status.success() => Verdict::Passed,
                        Status::Exited(status) => Verdict::Failed(
                            parse_panic(&self.get(index).name, &finished.stdout, &finished.stderr)
                                .unwrap_or_else(|| Panic {
                                    message: describe_exit(status),
                                    ..Panic::default()
                                }),
                        ),
                    };
                    TestOutcome {
                        verdict,
                        duration: finished.elapsed,
                    }
                });
            if let Ok(outcome) = &outcome {
                on_done(index, outcome);
            }
            outcome
        })
    }
}

/// A temporary directory of `command`'s own (`TMPDIR`, and `TMP` and
/// `TEMP` for Windows), in the run's (so that a killed run's are removed
/// with it), removed when the guard returned drops: hold it until the
/// process ends. Tests run here in processes side by side, where
/// `cargo test` runs them as threads of one: tests that name their files by
/// a counter of their process (walkdir's `rust-walkdir/0`) would take the
/// same ones and break each other.
fn own_tmp(command: &mut Command) -> Result<tempfile::TempDir> {
    let tmp = tempfile::Builder::new()
        .prefix("test-")
        .tempdir_in(process::temp_dir())?;
    for name in ["TMPDIR", "TMP", "TEMP"] {
        command.env(name, tmp.path());
    }
    Ok(tmp)
}

/// libtest's `test NAME ... ok|FAILED` lines: test name -> passed (as
/// libtest-mimic writes them too: the result in colour even to a pipe,
/// the names padded to one width).
pub fn parse_results(stdout: &str) -> BTreeMap<&str, bool> {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("test ")?.rsplit_once(" ... "))
        .filter_map(|(name, result)| {
            let name = name.trim_end();
            let name = name.strip_suffix(" - should panic").unwrap_or(name);
            match without_colour(result).as_str() {
                "ok" => Some((name, true)),
                "FAILED" => Some((name, false)),
                _ => None,
            }
        })
        .collect()
}

/// `text` without its terminal colour codes (`ESC [ .. m`).
fn without_colour(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let code = &rest[at + 2..];
        rest = code.find('m').map_or("", |end| &code[end + 1..]);
    }
    out.push_str(rest);
    out
}

/// How the message of a test process that failed without a panic starts.
pub const PROCESS_FAILED: &str = "the test process";

fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = nix::sys::signal::Signal::try_from(signal)
                .map_or_else(|_| signal.to_string(), |s| s.as_str().to_string());
            return format!("{PROCESS_FAILED} was killed by {name}");
        }
    }
    match status.code() {
        Some(code) => format!("{PROCESS_FAILED} exited with code {code}"),
        None => format!("{PROCESS_FAILED} failed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each process gets a directory of its own, empty, and it is gone
    /// once the guard drops.
    #[cfg(unix)]
    #[test]
    fn each_test_process_has_a_temporary_directory_of_its_own() {
        let seen = |mut command: Command| {
            let tmp = own_tmp(&mut command).unwrap();
            let finished = process::run(command, None, Budget::unlimited()).unwrap();
            (tmp.path().to_path_buf(), finished.stdout)
        };
        let mut first = Command::new("sh");
        first.args(["-c", "ls -A \"$TMPDIR\" && echo \"$TMPDIR\""]);
        let (dir, printed) = seen(first);
        assert_eq!(printed.trim(), dir.to_str().unwrap(), "empty, and its own");
        assert!(!dir.exists(), "removed after");
        let mut second = Command::new("sh");
        second.args(["-c", "echo \"$TMPDIR\""]);
        let (other, _) = seen(second);
        assert_ne!(dir, other);
    }

    /// A test sees the target dir its executable was built in, as a user's
    /// tests see theirs: trybuild's builds go there, not into the copy.
    #[cfg(unix)]
    #[test]
    fn tests_see_the_target_dir_they_were_built_in() {
        let suite = TestSuite {
            executables: vec![TestExecutable {
                package: "p".into(),
                target: "t".into(),
                kind: Kind::Test,
                path: PathBuf::from("sh"),
            }],
            tests: Vec::new(),
            root: std::env::temp_dir(),
            target_dir: PathBuf::from("/kept/target/autofix/main"),
            packages: vec![TestedPackage {
                name: "p".into(),
                version: "1.0.0".into(),
                dir: PathBuf::new(),
            }],
        };
        let mut command = suite.executable_command(0);
        command.args(["-c", "echo \"$CARGO_TARGET_DIR\""]);
        let finished = process::run(command, None, Budget::unlimited()).unwrap();
        assert_eq!(finished.stdout.trim(), "/kept/target/autofix/main");
    }

    #[test]
    fn parses_libtest_result_lines() {
        let stdout = "\nrunning 3 tests\ntest a::b ... ok\ntest c - should panic ... FAILED\ntest d ... ignored\n\ntest result: FAILED. 1 passed; 1 failed\n";
        let results = parse_results(stdout);
        assert_eq!(
            results.into_iter().collect::<Vec<_>>(),
            [("a::b", true), ("c", false)]
        );
        // libtest-mimic colours its results, also in a pipe.
        let coloured =
            "test 3UYS ... \x1b[0m\x1b[31mFAILED\x1b[0m\ntest 229Q   ... \x1b[32mok\x1b[0m\n";
        assert_eq!(
            parse_results(coloured).into_iter().collect::<Vec<_>>(),
            [("229Q", true), ("3UYS", false)]
        );
    }

    #[test]
    fn the_running_test_is_the_one_without_a_result() {
        let stdout = "\nrunning 3 tests\ntest tests::a ... ok\ntest tests::b ... ";
        assert_eq!(running_test(stdout), Some("tests::b"));
        assert_eq!(running_test("test tests::a ... ok\n"), None);
    }
}
