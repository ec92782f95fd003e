//! The one place that spawns processes.
//!
//! Every child runs in its own process group, so that a timeout, a signal
//! or the end of the time limit can kill it together with everything it
//! started (a test that runs the crate's binary, a build script, rustc). Output goes to anonymous temp files rather
//! than pipes, so a child that fills its output never blocks, and a grandchild
//! that keeps a pipe open never makes us wait.

use std::collections::BTreeSet;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::exit::{Context, Error, Exit, Failure, Halt, Result};
use crate::system::Budget;

/// The signal that stopped the run (0: none yet; [`CANCELLED`]: the work
/// was cancelled, the process goes on).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Not a signal: the work in progress was cancelled ([`cancel`]).
const CANCELLED: i32 = -1;

/// Process groups of the children that are running now.
static LIVE_GROUPS: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// Where the run keeps its temp files and records its process groups
/// (`None`: the temp dir, nothing recorded; a unit test, say).
static RUN_FILES: Mutex<Option<RunFiles>> = Mutex::new(None);

/// A run's temp dir (its children's `TMPDIR` too) and the file that records
/// the process groups it started (see `scratch::RunDir`).
#[derive(Debug, Clone)]
pub struct RunFiles {
    pub tmp: PathBuf,
    pub groups: PathBuf,
}

/// Sends the temp files of the run and its children to `files.tmp`, and
/// records every child's process group in `files.groups`; `None` stops it.
pub fn set_run_dir(files: Option<RunFiles>) {
    *RUN_FILES.lock().expect("run files poisoned") = files;
}

fn run_files() -> Option<RunFiles> {
    RUN_FILES.lock().ok().and_then(|files| files.clone())
}

/// Where temp files go: the run's dir if there is one.
pub fn temp_dir() -> PathBuf {
    run_files().map_or_else(std::env::temp_dir, |files| files.tmp)
}

/// The least free space the temp dir must keep: below it, a child may
/// have failed, or lost its output, for want of room to write it.
const MIN_FREE_BYTES: u64 = 4 << 20;

/// `error`, or the one-line failure that says the disk of `dir` is full.
pub fn space_error(error: std::io::Error, dir: &Path) -> Error {
    if error.kind() == std::io::ErrorKind::StorageFull {
        return disk_full(dir, None).into();
    }
    error.into()
}

/// The failure that says the file system of `dir` (the run's temp dir,
/// named by the user's temp dir it is in) is full.
fn disk_full(dir: &Path, free: Option<u64>) -> Failure {
    let users = std::env::temp_dir();
    let dir = if dir.starts_with(&users) { &users } else { dir };
    let free = free.map_or(String::new(), |bytes| {
        format!(" ({} KiB free)", bytes / 1024)
    });
    Failure::new(
        Exit::DiskFull,
        format!(
            "no space left on the device of {}{free}: cargo autofix needs at least {} MiB free there for the output of builds and tests; free some space or set TMPDIR to a directory with room",
            dir.display(),
            MIN_FREE_BYTES >> 20
        ),
    )
}

/// A failure if the file system of `dir` has less than [`MIN_FREE_BYTES`]
/// free (asked after each child: its output may not have fit).
fn check_space(dir: &Path) -> Result<()> {
    match free_bytes(dir) {
        Some(free) if free < MIN_FREE_BYTES => Err(disk_full(dir, Some(free)).into()),
        _ => Ok(()),
    }
}

#[cfg(unix)]
fn free_bytes(dir: &Path) -> Option<u64> {
    let stats = nix::sys::statvfs::statvfs(dir).ok()?;
    Some(stats.blocks_available() as u64 * stats.fragment_size() as u64)
}

#[cfg(not(unix))]
fn free_bytes(_dir: &Path) -> Option<u64> {
    None
}

/// Handles SIGINT (Ctrl-C), SIGTERM and SIGHUP: the first marks the run as
/// stopped and kills every live child process group at once, which wakes
/// whatever waits on them, so the run unwinds and removes its scratch
/// copies. A second signal, while that cleanup runs, exits at once (what
/// is left behind is removed by the next run).
pub fn install_interrupt_handler() -> Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .context("cannot install the signal handlers")?;
    thread::spawn(move || {
        for signal in signals.forever() {
            let first = SIGNAL
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |s| {
                    (s <= 0).then_some(signal)
                })
                .is_ok();
            kill_live_groups();
            if !first {
                std::process::exit(128 + signal);
            }
        }
    });
    Ok(())
}

fn kill_live_groups() {
    let groups = LIVE_GROUPS.lock().map(|g| g.clone()).unwrap_or_default();
    for group in groups {
        kill_group(group);
    }
}

/// Stops the work in progress as Ctrl-C would, but leaves the process
/// running (a request the MCP server's client cancelled): every live child
/// process group is killed, and the work unwinds with
/// [`Exit::Interrupted`], removing its scratch copies. [`uncancel`] ends
/// it once the work has unwound.
pub fn cancel() {
    if SIGNAL
        .compare_exchange(0, CANCELLED, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        kill_live_groups();
    }
}

/// Lets work run again after [`cancel`] (a real signal stays).
pub fn uncancel() {
    let _ = SIGNAL.compare_exchange(CANCELLED, 0, Ordering::SeqCst, Ordering::SeqCst);
}

/// Whether a signal (not a cancellation) asked the process to stop.
pub fn signalled() -> bool {
    SIGNAL.load(Ordering::SeqCst) > 0
}

/// The exit code of the signal that stopped the run, if one did.
pub fn stopped_by() -> Option<Exit> {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        SIGHUP => Some(Exit::HungUp),
        SIGTERM => Some(Exit::Terminated),
        _ => Some(Exit::Interrupted),
    }
}

/// A signal, or the end of `budget`, as the error that says which.
fn halt(budget: Budget) -> Option<Halt> {
    match stopped_by() {
        Some(exit) => Some(Halt::Signal(exit)),
        None => budget.ended().then_some(Halt::TimeLimit),
    }
}

/// Returns a signal or the end of `budget` as an error, so that `?`
/// unwinds to whoever keeps the best result so far, then to `main`
/// (dropping, and so deleting, every scratch directory on the way).
pub fn check_interrupted(budget: Budget) -> Result<()> {
    halt(budget).map_or(Ok(()), |halt| Err(halt.into()))
}

/// How a child process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Exited(ExitStatus),
    TimedOut,
}

/// A finished child: how it ended, what it printed, how long it took.
#[derive(Debug)]
pub struct Finished {
    pub status: Status,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Finished {
    pub fn success(&self) -> bool {
        matches!(self.status, Status::Exited(s) if s.success())
    }
}

/// Runs `command` to completion, or kills its process group after `timeout`
/// (a timed-out outcome) or at the end of `budget` (a halt: an error).
pub fn run(command: Command, timeout: Option<Duration>, budget: Budget) -> Result<Finished> {
    run_streaming(command, timeout, budget, |_| {})
        .map(|(finished, stdout)| Finished { stdout, ..finished })
}

/// Runs `command` like [`run`], handing each complete line of its stdout to
/// `on_line` as it arrives (for cargo's JSON messages and progress). The
/// output goes to temp files like everything else; the returned `Finished`
/// has an empty `stdout`, which comes back whole beside it.
pub fn run_streaming(
    command: Command,
    timeout: Option<Duration>,
    budget: Budget,
    on_line: impl FnMut(&str),
) -> Result<(Finished, String)> {
    let deadline = timeout.map(|t| Instant::now() + t);
    watch(command, budget, on_line, |_| deadline)
}

/// Runs `command` like [`run`], with a deadline that can move:
/// `deadline(tail)` is asked as the output grows, with the last line of
/// stdout written so far if it has no line break yet (a test runner's
/// "test NAME ... ": the test it is running), and the process group is
/// killed once the deadline it gives (`None`: none) has passed;
/// `on_line` hears each complete line of stdout as it arrives.
pub fn run_watched(
    command: Command,
    budget: Budget,
    on_line: impl FnMut(&str),
    deadline: impl FnMut(&str) -> Option<Instant>,
) -> Result<Finished> {
    watch(command, budget, on_line, deadline)
        .map(|(finished, stdout)| Finished { stdout, ..finished })
}

fn watch(
    mut command: Command,
    budget: Budget,
    mut on_line: impl FnMut(&str),
    mut deadline: impl FnMut(&str) -> Option<Instant>,
) -> Result<(Finished, String)> {
    let temp = temp_dir();
    let stdout = tempfile::NamedTempFile::new_in(&temp)
        .map_err(|error| space_error(error, &temp))
        .context("cannot create a temp file for output")?;
    let mut stderr = tempfile::tempfile_in(&temp)
        .map_err(|error| space_error(error, &temp))
        .context("cannot create a temp file for output")?;
    command
        .stdin(Stdio::null())
        .stdout(stdout.as_file().try_clone()?)
        .stderr(stderr.try_clone()?);
    let started = Instant::now();
    let mut child = Spawned::start(&mut command, budget)?;
    // Read through a file description of our own: the child's shares its
    // offset with every clone, so seeking one would move where it writes.
    let mut lines = NewLines::new(stdout.reopen()?);
    let status = child.wait(budget, &mut || {
        lines.each(&mut on_line)?;
        Ok(deadline(&lines.tail()))
    })?;
    let elapsed = started.elapsed();
    // Output that did not fit is lost without a word from most programs
    // (`cargo metadata` exits 0 with nothing on stdout): ask every time.
    check_space(&temp)?;
    lines.each(&mut on_line)?;
    lines.finish(&mut on_line);
    Ok((
        Finished {
            status,
            stdout: String::new(),
            stderr: read_back(&mut stderr)?,
            elapsed,
        },
        lines.text(),
    ))
}

/// Reads a growing output file: the complete lines written since last time.
/// Bytes are kept as read and decoded a whole line at a time, so a
/// character split across two reads stays whole.
struct NewLines {
    file: std::fs::File,
    /// Everything read so far, and where its last complete line ends.
    bytes: Vec<u8>,
    done: usize,
}

impl NewLines {
    fn new(file: std::fs::File) -> NewLines {
        NewLines {
            file,
            bytes: Vec::new(),
            done: 0,
        }
    }

    /// Hands every new complete line to `on_line`.
    fn each(&mut self, on_line: &mut impl FnMut(&str)) -> Result<()> {
        self.file.seek(SeekFrom::Start(self.bytes.len() as u64))?;
        self.file.read_to_end(&mut self.bytes)?;
        while let Some(end) = self.bytes[self.done..].iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&self.bytes[self.done..self.done + end]);
            on_line(line.strip_suffix('\r').unwrap_or(&line));
            self.done += end + 1;
        }
        Ok(())
    }

    /// Hands over a last line without a line break, if any.
    fn finish(&mut self, on_line: &mut impl FnMut(&str)) {
        if self.done < self.bytes.len() {
            on_line(&String::from_utf8_lossy(&self.bytes[self.done..]));
            self.done = self.bytes.len();
        }
    }

    /// The last line read, if it has no line break yet.
    fn tail(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes[self.done..])
    }

    /// Everything read, as text.
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// `work(i)` for every `i` in `0..count`, on up to `jobs` threads that each
/// take the next index; a thread stops at its first error, all stop on a
/// halt (a signal, the end of `budget`). The results in index order (an
/// error for any left undone).
pub fn in_parallel<T: Send>(
    jobs: usize,
    count: usize,
    budget: Budget,
    work: impl Fn(usize) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    let mut workers = vec![(); jobs.max(1).min(count)];
    in_parallel_with(&mut workers, count, false, budget, |_, index| work(index))
}

/// `work(worker, i)` for every `i` in `0..count`, one thread per worker
/// (each with its own state: a scratch copy, say). Each thread takes the
/// next index; with `pinned`, worker `i` takes job `i` only. A thread stops
/// at its first error, all stop on a halt (a signal, the end of `budget`).
/// The results in index order (an error for any left undone).
pub fn in_parallel_with<W: Send, T: Send>(
    workers: &mut [W],
    count: usize,
    pinned: bool,
    budget: Budget,
    work: impl Fn(&mut W, usize) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<T>>>> = Mutex::new((0..count).map(|_| None).collect());
    thread::scope(|scope| {
        for (index, worker) in workers.iter_mut().enumerate().take(count) {
            let (next, results, work) = (&next, &results, &work);
            scope.spawn(move || {
                loop {
                    let job = if pinned {
                        index
                    } else {
                        next.fetch_add(1, Ordering::SeqCst)
                    };
                    if job >= count || halt(budget).is_some() {
                        break;
                    }
                    let result = work(worker, job);
                    let failed = result.is_err();
                    results.lock().expect("results poisoned")[job] = Some(result);
                    if failed || pinned {
                        break;
                    }
                }
            });
        }
    });
    check_interrupted(budget)?;
    results
        .into_inner()
        .expect("results poisoned")
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(anyhow::anyhow!("a parallel job was not run").into())))
        .collect()
}

fn read_back(file: &mut std::fs::File) -> Result<String> {
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A child registered as a live process group until it is dropped.
struct Spawned {
    child: Child,
    group: u32,
}

impl Spawned {
    // The one place a process starts (see `disallowed-methods` in clippy.toml).
    #[allow(clippy::disallowed_methods)]
    fn start(command: &mut Command, budget: Budget) -> Result<Spawned> {
        check_interrupted(budget)?;
        put_in_own_group(command);
        let run = run_files();
        // Into the run's dir, unless the command has a temp dir of its own
        // (a test's, see `cargo::suite`).
        let own_tmp = command.get_envs().any(|(name, _)| name == "TMPDIR");
        if let Some(run) = run.as_ref().filter(|_| !own_tmp) {
            command.env("TMPDIR", &run.tmp);
        }
        let program = command.get_program().to_string_lossy().into_owned();
        let child = command
            .spawn()
            .with_context(|| format!("cannot run `{program}`"))?;
        let group = child.id();
        if let Some(run) = &run {
            record_group(&run.groups, group);
        }
        LIVE_GROUPS
            .lock()
            .expect("live group registry poisoned")
            .insert(group);
        let spawned = Spawned { child, group };
        // A halt may have come between the check above and the registration.
        check_interrupted(budget)?;
        Ok(spawned)
    }

    /// Waits for the child, calling `on_tick` while it runs; once the
    /// deadline `on_tick` gives has passed, kills its whole group, and at
    /// a halt (a signal, the end of `budget`) too.
    fn wait(
        &mut self,
        budget: Budget,
        on_tick: &mut dyn FnMut() -> Result<Option<Instant>>,
    ) -> Result<Status> {
        let mut pause = Duration::from_micros(200);
        loop {
            let deadline = on_tick()?;
            if let Some(status) = self.child.try_wait()? {
                check_interrupted(budget)?;
                return Ok(Status::Exited(status));
            }
            if let Some(halt) = halt(budget) {
                kill_group(self.group);
                let _ = self.child.wait();
                return Err(halt.into());
            }
            if let Some(left) = budget.left() {
                pause = pause.min(left);
            }
            if let Some(deadline) = deadline {
                let now = Instant::now();
                if now >= deadline {
                    kill_group(self.group);
                    let _ = self.child.wait();
                    return Ok(Status::TimedOut);
                }
                pause = pause.min(deadline - now);
            }
            thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        }
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        // Whatever the child left running in its group (a server a test
        // started, say) goes with it.
        kill_group(self.group);
        let _ = self.child.try_wait();
        if let Ok(mut groups) = LIVE_GROUPS.lock() {
            groups.remove(&self.group);
        }
    }
}

#[cfg(unix)]
fn put_in_own_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

#[cfg(not(unix))]
fn put_in_own_group(_command: &mut Command) {}

#[cfg(unix)]
fn kill_group(group: u32) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    let _ = killpg(Pid::from_raw(group as i32), Signal::SIGKILL);
}

#[cfg(not(unix))]
fn kill_group(_group: u32) {}

/// Appends `group` to the record in `file`, with when its leader started,
/// so that a later run stops only this group and never one that reuses
/// its number.
fn record_group(file: &Path, group: u32) {
    let Some(started) = started_at(group) else {
        return;
    };
    let record = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file);
    if let Ok(mut record) = record {
        let _ = writeln!(record, "{group} {started}");
    }
}

/// Kills the process groups recorded in `file` by a run that is gone (it
/// was killed, and its children outlived it), each only if it is still
/// that run's: its leader is the process that started then, or the leader
/// is gone and the group lives on (Linux reuses no number still in use
/// as a group's). Returns how many groups it signalled.
pub fn kill_recorded_groups(file: &Path) -> usize {
    let Ok(record) = std::fs::read_to_string(file) else {
        return 0;
    };
    let mut killed = 0;
    for line in record.lines() {
        let Some((group, started)) = line.split_once(' ') else {
            continue;
        };
        let (Ok(group), Ok(started)) = (group.parse::<u32>(), started.parse::<u64>()) else {
            continue;
        };
        if started_at(group).is_none_or(|now| now == started) && group_exists(group) {
            kill_group(group);
            killed += 1;
        }
    }
    killed
}

/// When process `pid` started (clock ticks after boot), if it runs.
#[cfg(target_os = "linux")]
fn started_at(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 22; the name (field 2) may hold spaces and parentheses.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(not(target_os = "linux"))]
fn started_at(_pid: u32) -> Option<u64> {
    None
}

/// Whether some process is in process group `group`.
#[cfg(unix)]
fn group_exists(group: u32) -> bool {
    use nix::unistd::Pid;
    nix::sys::signal::killpg(Pid::from_raw(group as i32), None).is_ok()
}

#[cfg(not(unix))]
fn group_exists(_group: u32) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_status() {
        let mut command = Command::new("sh");
        command.args(["-c", "echo out; echo err >&2; exit 3"]);
        let finished = run(command, None, Budget::unlimited()).unwrap();
        assert_eq!(finished.stdout, "out\n");
        assert_eq!(finished.stderr, "err\n");
        assert!(matches!(finished.status, Status::Exited(s) if s.code() == Some(3)));
        assert!(!finished.success());
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let marker = tempfile::tempdir().unwrap();
        let path = marker.path().join("survivor");
        // The grandchild would write the marker after one second, unless it
        // dies with its group at the timeout.
        let script = format!("(sleep 1; touch {}) & sleep 30", path.display());
        let mut command = Command::new("sh");
        command.args(["-c", &script]);
        let finished = run(
            command,
            Some(Duration::from_millis(200)),
            Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(finished.status, Status::TimedOut);
        assert!(finished.elapsed < Duration::from_secs(5));
        thread::sleep(Duration::from_millis(1500));
        assert!(!path.exists(), "a grandchild outlived the timeout");
    }

    #[test]
    fn the_end_of_the_budget_kills_the_child_and_halts() {
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 30"]);
        let started = Instant::now();
        let budget = Budget::until(started + Duration::from_millis(200));
        let error = run(command, None, budget).unwrap_err();
        assert_eq!(error.halt(), Some(Halt::TimeLimit));
        assert!(started.elapsed() < Duration::from_secs(5));
        // Nothing starts once it has ended; no budget, no halt.
        assert!(run(Command::new("true"), None, budget).is_err());
        assert!(check_interrupted(Budget::unlimited()).is_ok());
    }

    #[test]
    fn a_character_split_across_reads_stays_whole() {
        let mut file = tempfile::tempfile().unwrap();
        let mut lines = NewLines::new(file.try_clone().unwrap());
        let mut seen = Vec::new();
        let text = "caf\u{e9} \u{2713}\n".as_bytes();
        for chunk in [&text[..4], &text[4..8], &text[8..]] {
            std::io::Write::write_all(&mut file, chunk).unwrap();
            lines.each(&mut |l: &str| seen.push(l.to_string())).unwrap();
        }
        assert_eq!(seen, ["caf\u{e9} \u{2713}"]);
    }

    #[test]
    fn streaming_sees_every_line() {
        let mut command = Command::new("sh");
        command.args(["-c", "printf 'a\\nb\\n'; sleep 0.2; printf 'c\\n'"]);
        let mut lines = Vec::new();
        let (finished, stdout) = run_streaming(command, None, Budget::unlimited(), |line| {
            lines.push(line.to_string())
        })
        .unwrap();
        assert!(finished.success());
        assert_eq!(lines, ["a", "b", "c"]);
        assert_eq!(stdout, "a\nb\nc\n");
    }

    /// Reading while the child writes never moves where it writes: a
    /// reader sharing the child's file offset made it overwrite lines.
    #[test]
    fn streaming_loses_nothing_of_a_fast_writer() {
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "i=0; while [ $i -lt 20000 ]; do echo line$i; i=$((i+1)); done",
        ]);
        let mut lines = Vec::new();
        let (finished, _) = run_streaming(command, None, Budget::unlimited(), |line| {
            lines.push(line.to_string())
        })
        .unwrap();
        assert!(finished.success());
        let expected: Vec<String> = (0..20000).map(|i| format!("line{i}")).collect();
        assert_eq!(lines, expected);
    }
}
