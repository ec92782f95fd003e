//! Holding up under signals, limits and neighbours, end to end on fixture
//! copies: every run here starts in a process group of its own, as a CI
//! job or an editor would start it, and is stopped the way they stop it.

// Tests drive processes as they like: the invariants in clippy.toml are
// the product's.
#![allow(clippy::disallowed_methods)]

mod common;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// The grace the README promises past `--time-limit` (killing, cleanup).
const GRACE: Duration = Duration::from_secs(5);

/// `cargo-autofix autofix ARGS` in `dir` in a process group of its own,
/// with scratch dirs under `temp`; stderr piped.
fn spawn(dir: &Path, temp: &Path, args: &[&str]) -> Child {
    command(dir, args)
        .env("TMPDIR", temp)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` to the whole process group of `child`, as `kill -SIG -PGID`.
fn signal_group(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits until a process of the fixture's hanging test runs.
fn wait_for_hanging_test(dir: &Path) {
    let started = Instant::now();
    while running_processes_mentioning("zero_takes_no_steps", dir).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "the hanging test never started"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Reads `child`'s stderr until a line contains `needle`; what was read.
fn read_until(stderr: &mut impl BufRead, needle: &str) -> String {
    let mut seen = String::new();
    while !seen.contains(needle) {
        let mut line = String::new();
        assert_ne!(
            stderr.read_line(&mut line).unwrap(),
            0,
            "cargo-autofix ended before {needle:?}:\n{seen}"
        );
        seen.push_str(&line);
    }
    seen
}

#[cfg(target_os = "linux")]
#[test]
fn signals_stop_every_child_and_remove_the_scratch_dirs() {
    for (signal, code, word) in [
        ("INT", 130, "interrupted:"),
        ("TERM", 143, "interrupted by SIGTERM"),
        ("HUP", 129, "interrupted by SIGHUP"),
    ] {
        let dir = fixture("hang");
        let temp = tempfile::tempdir().unwrap();
        let child = spawn(
            dir.path(),
            temp.path(),
            &["--rank-only", "-j", "1", "--test-timeout", "600"],
        );
        wait_for_hanging_test(dir.path());
        signal_group(&child, signal);
        let stopped = Instant::now();
        let output = child.wait_with_output().unwrap();
        assert!(stopped.elapsed() < Duration::from_secs(10), "SIG{signal}");
        assert_exit(&output, code);
        assert!(error_line(&output).contains(word), "{}", stderr(&output));
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            running_processes_mentioning("zero_takes_no_steps", dir.path()).is_empty(),
            "SIG{signal}: a test process survived"
        );
        assert_eq!(
            scratch_dirs(temp.path()),
            Vec::<String>::new(),
            "SIG{signal}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_time_limit_holds_while_candidates_hang() {
    let dir = fixture("hang");
    let temp = tempfile::tempdir().unwrap();
    // Long enough for the baseline on a busy machine, and the search's
    // hanging mutants would outlast it many times over.
    for limit in [3u64, 40] {
        let started = Instant::now();
        let output = command(
            dir.path(),
            &[
                "--time-limit",
                &limit.to_string(),
                "--test-timeout",
                "5",
                "--seed",
                "0",
            ],
        )
        .env("TMPDIR", temp.path())
        .output()
        .unwrap();
        let took = started.elapsed();
        assert!(
            took <= Duration::from_secs(limit) + GRACE,
            "--time-limit {limit} took {took:?}:\n{}",
            stderr(&output)
        );
        // Found in time (0), or not (7); never an internal error.
        assert!(
            matches!(output.status.code(), Some(0 | 7)),
            "{}",
            stderr(&output)
        );
        if output.status.code() == Some(7) {
            assert!(
                error_line(&output).contains("time limit"),
                "{}",
                stderr(&output)
            );
        }
        assert_eq!(scratch_dirs(temp.path()), Vec::<String>::new());
        assert!(running_processes_mentioning("hang", dir.path()).is_empty());
    }
}

#[test]
fn a_repair_and_a_ranking_at_once_give_the_patch_of_a_repair_alone() {
    let alone = autofix(fixture("middle").path(), &["--seed", "0"]);
    assert_exit(&alone, 0);
    let dir = fixture("middle");
    let temp = tempfile::tempdir().unwrap();
    let repair = spawn(dir.path(), temp.path(), &["--seed", "0"]);
    let ranking = spawn(dir.path(), temp.path(), &["--rank-only"]);
    let repair = repair.wait_with_output().unwrap();
    let ranking = ranking.wait_with_output().unwrap();
    assert_exit(&repair, 0);
    assert_exit(&ranking, 0);
    assert_eq!(stdout(&repair), stdout(&alone));
    assert!(
        stdout(&ranking).contains("src/lib.rs"),
        "{}",
        stdout(&ranking)
    );
    let waited = [&repair, &ranking]
        .iter()
        .filter(|o| stderr(o).contains("Blocking waiting for another cargo autofix"))
        .count();
    assert_eq!(waited, 1, "one run waits for the other");
}

#[test]
fn a_bad_output_path_fails_before_any_work() {
    let dir = fixture("middle");
    let missing = dir.path().join("no-such-dir");
    for flag in ["-o", "--report", "--html"] {
        let path = missing.join("out");
        let output = autofix(dir.path(), &[flag, path.to_str().unwrap()]);
        assert_exit(&output, 8);
        let line = error_line(&output);
        assert!(line.contains("does not exist"), "{line}");
        assert_eq!(stderr(&output).lines().count(), 1, "{}", stderr(&output));
    }
    let output = autofix(dir.path(), &["-o", dir.path().to_str().unwrap()]);
    assert_exit(&output, 8);
    assert!(error_line(&output).contains("is a directory"));
    assert!(
        !dir.path().join("target").exists(),
        "nothing was built before the path was refused"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_after_a_fixed_group_prints_that_groups_patch() {
    let dir = fixture("two_faults");
    let temp = tempfile::tempdir().unwrap();
    let mut child = spawn(dir.path(), temp.path(), &["--seed", "0"]);
    let mut lines = BufReader::new(child.stderr.take().unwrap());
    read_until(&mut lines, "Localizing the remaining failures again");
    signal_group(&child, "INT");
    let mut rest = String::new();
    lines.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{rest}");
    assert!(rest.contains("warning: interrupted"), "{rest}");
    assert!(
        rest.contains("+        high"),
        "the first group's fix:\n{rest}"
    );
    assert!(
        output.stdout.is_empty(),
        "an unvalidated patch stays off stdout"
    );
    assert_eq!(scratch_dirs(temp.path()), Vec::<String>::new());
}

#[test]
fn huge_durations_and_jobs_are_one_line() {
    let dir = fixture("middle");
    for args in [
        &["--time-limit", "1e20"][..],
        &["--test-timeout", "1e300"],
        &["--time-limit", "1e19"],
        &["-j", "-1"],
    ] {
        let output = autofix(dir.path(), args);
        assert_exit(&output, 2);
        assert_eq!(
            stderr(&output).lines().count(),
            1,
            "{args:?}: {}",
            stderr(&output)
        );
    }
    std::fs::write(dir.path().join("autofix.toml"), "time-limit = 1e30\n").unwrap();
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 2);
    assert!(
        error_line(&output).contains("`time-limit` in the config"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_file(dir.path().join("autofix.toml")).unwrap();

    let output = autofix(dir.path(), &["--rank-only", "-j", "100000"]);
    assert_exit(&output, 0);
    assert!(
        stderr(&output).contains("--jobs 100000 is more than the"),
        "{}",
        stderr(&output)
    );
    let scratch_targets: Vec<String> = std::fs::read_dir(dir.path().join("target/autofix"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("worker-"))
        .collect();
    assert!(
        scratch_targets.is_empty(),
        "unused workers: {scratch_targets:?}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn scratch_left_by_a_killed_run_is_removed_by_the_next() {
    let dir = fixture("hang");
    let temp = tempfile::tempdir().unwrap();
    let child = spawn(
        dir.path(),
        temp.path(),
        &["--rank-only", "-j", "1", "--test-timeout", "600"],
    );
    wait_for_hanging_test(dir.path());
    signal_group(&child, "KILL");
    let _: Output = child.wait_with_output().unwrap();
    // kill -9 reaches nothing else: the orphaned test goes by hand.
    for pid in running_processes_mentioning("zero_takes_no_steps", dir.path()) {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(
        !scratch_dirs(temp.path()).is_empty(),
        "kill -9 leaves scratch behind"
    );
    let next = command(dir.path(), &["--rank-only", "--test-timeout", "1"])
        .env("TMPDIR", temp.path())
        .output()
        .unwrap();
    assert_exit(&next, 0);
    assert!(
        stderr(&next).contains("Removed 1 scratch directories"),
        "{}",
        stderr(&next)
    );
    assert_eq!(scratch_dirs(temp.path()), Vec::<String>::new());
}

#[test]
fn messages_say_what_is_wrong_and_where() {
    let dir = fixture("middle");
    let output = autofix(
        dir.path(),
        &["--manifest-path", dir.path().to_str().unwrap()],
    );
    assert_exit(&output, 3);
    assert!(
        error_line(&output).contains("is a directory"),
        "{}",
        stderr(&output)
    );

    std::fs::write(
        dir.path().join("autofix.toml"),
        "seed = 1\njobs = \"many\"\n",
    )
    .unwrap();
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 2);
    let line = error_line(&output);
    assert!(
        line.contains("autofix.toml:2:8:") && line.contains("`jobs`"),
        "{line}"
    );
    std::fs::write(dir.path().join("autofix.toml"), "jobs = 0\n").unwrap();
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_eq!(
        error_line(&output),
        "error: `jobs` in the config must be at least 1"
    );
    std::fs::remove_file(dir.path().join("autofix.toml")).unwrap();

    let file = dir.path().join("Cargo.toml");
    let output = autofix(dir.path(), &["--target-dir", file.to_str().unwrap()]);
    assert_exit(&output, 2);
    assert!(
        error_line(&output).contains("--target-dir"),
        "{}",
        stderr(&output)
    );

    let output = autofix(dir.path(), &["--in-diff", "no-such.patch"]);
    assert_exit(&output, 2);
    assert!(error_line(&output).contains("cannot read --in-diff no-such.patch"));

    let output = autofix(
        dir.path(),
        &["--rank-only", "--exclude", "no_such_function"],
    );
    assert_exit(&output, 0);
    assert!(
        stderr(&output).contains("the exclusion `no_such_function` (--exclude or `exclude` in the config) names no file and no function"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_crate_that_does_not_build_says_only_that() {
    let output = autofix(fixture("broken").path(), &["--rank-only"]);
    assert_exit(&output, 5);
    assert!(
        !stderr(&output).contains("coverage probes do not compile"),
        "{}",
        stderr(&output)
    );
}
