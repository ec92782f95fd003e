//! Holding up under signals, limits and neighbours, end to end on fixture
//! copies: every run here starts in a process group of its own, as a CI
//! job or an editor would start it, and is stopped the way they stop it.

// Tests drive processes as they like: the invariants in clippy.toml are
// the product's.
#![allow(clippy::disallowed_methods)]

mod common;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
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
    let outputs = tempfile::tempdir().unwrap();
    let patch = outputs.path().join("fix.patch");
    let report = outputs.path().join("report.json");
    let mut child = spawn(
        dir.path(),
        temp.path(),
        &[
            "--seed",
            "0",
            "-o",
            patch.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ],
    );
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
    // What was found is kept in the files asked for, marked as interrupted.
    let written = std::fs::read_to_string(&patch).expect("-o is written");
    assert!(written.starts_with("cargo autofix was interrupted: this patch is NOT validated"));
    assert!(written.contains("+        high"), "{written}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("--report is written"))
            .unwrap();
    assert_eq!(report["outcome"], "interrupted");
    assert!(
        report["interrupted"]
            .as_str()
            .unwrap()
            .starts_with("SIGINT: "),
        "{report:#}"
    );
    assert!(
        report["partial_patch"]
            .as_str()
            .unwrap()
            .contains("+        high")
    );
    assert_matches_schema(&report, "src/render/schemas/report.schema.json");
    let git_apply = Command::new("git")
        .args(["apply", "--check"])
        .arg(&patch)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        git_apply.status.success(),
        "{}",
        String::from_utf8_lossy(&git_apply.stderr)
    );
}

#[test]
fn huge_durations_and_jobs_are_one_line() {
    let dir = fixture("middle");
    for args in [
        &["--time-limit", "1e20"][..],
        &["--test-timeout", "1e300"],
        &["--time-limit", "1e19"],
        &["-j", "-1"],
        &["--population", "100000000"],
        &["--population", "9223372036854775807"],
        &["--generations", "18446744073709551615"],
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
    std::fs::write(dir.path().join("autofix.toml"), "time-limit = 1e308\n").unwrap();
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 2);
    assert_eq!(
        error_line(&output),
        "error: `time-limit` in the config must be a number of seconds from 0 to 31536000 (a year), not 1e308"
    );
    std::fs::write(
        dir.path().join("autofix.toml"),
        "population = 9223372036854775807\n",
    )
    .unwrap();
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 2);
    assert!(
        error_line(&output).contains("`population` in the config must be from 2 to 10000"),
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
    // Copies of the user's sources are the user's own to read.
    for scratch in scratch_dirs(temp.path()) {
        let mode = std::fs::metadata(temp.path().join(&scratch))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700, "{scratch}");
    }
    // Only the tool is killed (kill -9 of its pid, as an OOM killer would):
    // its test process lives on.
    let _ = Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status();
    let _: Output = child.wait_with_output().unwrap();
    assert!(
        !running_processes_mentioning("zero_takes_no_steps", dir.path()).is_empty(),
        "the hanging test outlives the killed run"
    );
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
        stderr(&next).contains("scratch directories left behind"),
        "{}",
        stderr(&next)
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        running_processes_mentioning("zero_takes_no_steps", dir.path()).is_empty(),
        "the next run stops the killed run's test"
    );
    // Nothing of either run is left in the temp dir: no scratch dir, no
    // captured output, no linker files.
    let left: Vec<String> = std::fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, Vec::<String>::new());
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

/// A copy of fixture `off_by_one` whose `src/` lives outside the package:
/// `pkg/src` is a link to `elsewhere/src` (absolute, or relative and
/// pointing out), or `src/` is real and `src/lib.rs` a relative link out.
/// Returns the temp dir, the package and the file the links lead to.
#[cfg(unix)]
fn linked_off_by_one(link: &str) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    use std::os::unix::fs::symlink;
    let base = fixture("off_by_one");
    let package = base.path().join("pkg");
    let elsewhere = base.path().join("elsewhere");
    std::fs::create_dir_all(&package).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::rename(base.path().join("Cargo.toml"), package.join("Cargo.toml")).unwrap();
    std::fs::rename(base.path().join("src"), elsewhere.join("src")).unwrap();
    match link {
        "absolute dir" => symlink(elsewhere.join("src"), package.join("src")).unwrap(),
        "relative dir" => symlink("../elsewhere/src", package.join("src")).unwrap(),
        "relative file" => {
            std::fs::create_dir(package.join("src")).unwrap();
            symlink("../../elsewhere/src/lib.rs", package.join("src/lib.rs")).unwrap();
        }
        other => unreachable!("{other}"),
    }
    let target = elsewhere.join("src/lib.rs");
    (base, package, target)
}

#[cfg(target_os = "linux")]
#[test]
fn no_command_writes_through_a_link_to_sources_outside_the_package() {
    for link in ["absolute dir", "relative dir", "relative file"] {
        let (_base, package, target) = linked_off_by_one(link);
        let original = std::fs::read(&target).unwrap();
        let unchanged = |what: &str| {
            assert_eq!(
                std::fs::read(&target).unwrap(),
                original,
                "{link}: {what} wrote through the link"
            );
        };
        let ranking = autofix(&package, &["--rank-only"]);
        assert_exit(&ranking, 0);
        assert!(stdout(&ranking).contains("src/lib.rs:3"), "{link}");
        unchanged("--rank-only");

        let repair = autofix(&package, &["--seed", "0"]);
        assert_exit(&repair, 0);
        unchanged("a repair");
        let patch = package.join("..").join("fix.patch");
        std::fs::write(&patch, stdout(&repair)).unwrap();
        let validated = autofix(&package, &["validate", patch.to_str().unwrap()]);
        assert_exit(&validated, 0);
        assert!(stdout(&validated).contains("passes every test"), "{link}");
        unchanged("validate");

        let reduced = autofix(&package, &["reduce", "tests::last_pair_out_of_order"]);
        assert_exit(&reduced, 0);
        unchanged("reduce");

        let git = |args: &[&str]| {
            let status = Command::new("git")
                .args(args)
                .current_dir(&package)
                .env("GIT_AUTHOR_NAME", "t")
                .env("GIT_AUTHOR_EMAIL", "t@t")
                .env("GIT_COMMITTER_NAME", "t")
                .env("GIT_COMMITTER_EMAIL", "t@t")
                .status()
                .unwrap();
            assert!(status.success());
        };
        git(&["init", "-q"]);
        git(&["add", "-A"]);
        git(&["commit", "-qm", "linked"]);
        let bisected = autofix(&package, &["bisect", "HEAD"]);
        assert!(
            bisected
                .status
                .code()
                .is_some_and(|code| code != 1 && code != 101),
            "{link}: {}",
            stderr(&bisected)
        );
        unchanged("bisect");

        for signal in ["INT", "KILL"] {
            let temp = tempfile::tempdir().unwrap();
            let mut child = spawn(&package, temp.path(), &["--seed", "0"]);
            let mut lines = BufReader::new(child.stderr.take().unwrap());
            read_until(&mut lines, "Sweeping every single edit");
            signal_group(&child, signal);
            let _: Output = child.wait_with_output().unwrap();
            unchanged(&format!("a repair stopped by SIG{signal}"));
        }
    }
}

/// A tmpfs of `megabytes` mounted on a new temp dir, unmounted when
/// dropped; `None` where mounting is not allowed (not root).
#[cfg(target_os = "linux")]
struct SmallDisk(tempfile::TempDir);

#[cfg(target_os = "linux")]
impl SmallDisk {
    fn mount(megabytes: u32) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then_some(SmallDisk(dir))
    }
}

#[cfg(target_os = "linux")]
impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0.path()).status();
    }
}

#[cfg(target_os = "linux")]
#[test]
#[allow(clippy::print_stderr)] // the one word a skipped test says
fn a_full_temp_dir_is_said_in_one_line_with_its_own_exit_code() {
    let Some(disk) = SmallDisk::mount(8) else {
        eprintln!("skipped: mounting a small tmpfs is not allowed here");
        return;
    };
    let dir = fixture("off_by_one");
    // Nearly full: room for the copies, none for much output.
    std::fs::write(disk.0.path().join("filler"), vec![0u8; 6 << 20]).unwrap();
    let output = command(dir.path(), &["--rank-only"])
        .env("TMPDIR", disk.0.path())
        .output()
        .unwrap();
    assert_exit(&output, 11);
    let line = error_line(&output);
    assert!(
        line.contains("no space left") && line.contains(&disk.0.path().display().to_string()),
        "{line}"
    );
    assert_eq!(
        stderr(&output)
            .lines()
            .filter(|l| l.starts_with("error"))
            .count(),
        1
    );
    // Full: not even a scratch dir fits.
    std::fs::write(disk.0.path().join("filler2"), vec![0u8; 2 << 20]).ok();
    let output = command(dir.path(), &["--rank-only"])
        .env("TMPDIR", disk.0.path())
        .output()
        .unwrap();
    assert_exit(&output, 11);
    assert!(
        error_line(&output).contains("no space left"),
        "{}",
        stderr(&output)
    );
}

#[cfg(target_os = "linux")]
#[test]
fn the_largest_population_stops_at_the_time_limit_and_at_ctrl_c() {
    let dir = fixture("unrepairable");
    let temp = tempfile::tempdir().unwrap();
    let limit = 15;
    let started = Instant::now();
    let output = command(
        dir.path(),
        &["--population", "10000", "--time-limit", &limit.to_string()],
    )
    .env("TMPDIR", temp.path())
    .output()
    .unwrap();
    let took = started.elapsed();
    assert!(
        took <= Duration::from_secs(limit) + GRACE,
        "took {took:?}:\n{}",
        stderr(&output)
    );
    assert_exit(&output, 7);

    let mut child = spawn(dir.path(), temp.path(), &["--population", "10000"]);
    let mut lines = BufReader::new(child.stderr.take().unwrap());
    read_until(&mut lines, "Swept");
    std::thread::sleep(Duration::from_millis(500));
    signal_group(&child, "INT");
    let stopped = Instant::now();
    let mut rest = String::new();
    lines.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(stopped.elapsed() < Duration::from_secs(5), "{rest}");
    assert_eq!(output.status.code(), Some(130), "{rest}");
    assert!(!rest.contains("fitness 0.0000"), "{rest}");
    assert_eq!(scratch_dirs(temp.path()), Vec::<String>::new());
}

#[cfg(target_os = "linux")]
#[test]
fn a_source_edited_during_the_run_is_named_and_the_patch_keeps_its_version() {
    let dir = fixture("off_by_one");
    let temp = tempfile::tempdir().unwrap();
    let report = temp.path().join("report.json");
    let lib = dir.path().join("src/lib.rs");
    let original = std::fs::read_to_string(&lib).unwrap();
    let blob = Command::new("git")
        .args(["hash-object"])
        .arg(&lib)
        .output()
        .unwrap();
    let blob = String::from_utf8(blob.stdout).unwrap().trim().to_string();
    let mut child = spawn(
        dir.path(),
        temp.path(),
        &["--seed", "0", "--report", report.to_str().unwrap()],
    );
    let mut lines = BufReader::new(child.stderr.take().unwrap());
    read_until(&mut lines, "Sweeping every single edit");
    std::fs::write(
        &lib,
        original.replace("1..values.len() - 1", "0..values.len()"),
    )
    .unwrap();
    let mut rest = String::new();
    lines.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{rest}");
    assert!(
        rest.contains(
            "warning: src/lib.rs changed during the run: the result is for the version at its start"
        ),
        "{rest}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(report["sources"]["src/lib.rs"], blob.as_str());
}

#[test]
fn a_module_outside_the_workspace_is_named_in_one_line() {
    let base = fixture("off_by_one");
    let package = base.path().join("pkg");
    std::fs::create_dir(&package).unwrap();
    std::fs::rename(base.path().join("Cargo.toml"), package.join("Cargo.toml")).unwrap();
    std::fs::rename(base.path().join("src"), package.join("src")).unwrap();
    std::fs::write(base.path().join("helper.rs"), "pub fn one() -> u32 { 1 }\n").unwrap();
    std::fs::write(package.join("src/inside.rs"), "pub fn two() -> u32 { 2 }\n").unwrap();
    let lib = package.join("src/lib.rs");
    let original = std::fs::read_to_string(&lib).unwrap();
    let absolute_inside = package.join("src/inside.rs");
    let absolute_outside = base.path().join("helper.rs");
    for (path, expected) in [
        ("../../helper.rs", "lies outside the workspace"),
        (
            absolute_outside.to_str().unwrap(),
            "lies outside the workspace",
        ),
        (
            absolute_inside.to_str().unwrap(),
            "is named by an absolute #[path]",
        ),
    ] {
        std::fs::write(
            &lib,
            format!("#[path = \"{path}\"]\nmod helper;\n{original}"),
        )
        .unwrap();
        let output = autofix(&package, &["--rank-only"]);
        assert_exit(&output, 12);
        let line = error_line(&output);
        assert!(
            line.starts_with("error: src/lib.rs: the module file "),
            "{line}"
        );
        assert!(line.contains(expected), "{path}: {line}");
    }
    // Inside the workspace by a relative path, it is the crate's own.
    std::fs::write(
        &lib,
        format!("#[path = \"../src/inside.rs\"]\nmod helper;\n{original}"),
    )
    .unwrap();
    assert_exit(&autofix(&package, &["--rank-only"]), 0);
}

#[test]
fn a_group_no_edit_can_fix_leaves_time_for_the_others() {
    let dir = fixture("starved_group");
    let reports = tempfile::tempdir().unwrap();
    let report = reports.path().join("report.json");
    let output = autofix(
        dir.path(),
        &[
            "--seed",
            "0",
            "--time-limit",
            "120",
            "--report",
            report.to_str().unwrap(),
        ],
    );
    assert_exit(&output, 7);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let stages = report["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 2, "{report:#}");
    // The group whose tests exit goes last, though larger; the other is fixed.
    assert_eq!(
        stages[0]["tests"],
        serde_json::json!(["tests::first_of_one_word"])
    );
    assert_eq!(stages[0]["found"], true);
    assert_eq!(stages[1]["found"], false);
    let partial = report["partial_patch"].as_str().unwrap();
    assert_eq!(
        changed_lines(partial),
        [
            "-        None => &text[..text.len() + 1],",
            "+        None => &text[..text.len()],"
        ]
    );
    let error = error_line(&output);
    assert!(
        error.starts_with(
            "error: no patch found for failure group 2 (\"the test process exited with code N\")"
        ),
        "{error}"
    );
}
