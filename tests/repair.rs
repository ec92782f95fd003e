//! End-to-end tests of `cargo autofix` (the repair): each runs the binary on
//! a copy of a fixture with a fixed seed, applies the emitted diff with
//! `git apply` to a pristine copy, and runs `cargo test` there.

// Tests and the benchmark drive processes and print as they like: the
// invariants in clippy.toml are the product's.
#![allow(clippy::disallowed_methods, clippy::print_stderr)]

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::*;

#[test]
fn middle_gets_the_seeds_fix() {
    let (diff, report) = assert_repaired("middle", &[]);
    assert_eq!(
        changed_lines(&diff),
        ["-            return y;", "+            return x;"]
    );
    assert_eq!(
        report["fixed_tests"],
        serde_json::json!(["tests::middle_2_1_3"])
    );
    assert_eq!(report["edits"][0]["operator"], "identifier");
    assert_eq!(report["edits"][0]["line"], 6);
}

#[test]
fn a_fault_in_a_member_the_tests_reach_is_repaired_there() {
    let (output, report) = repair("members", &["-p", "app"]);
    assert_exit(&output, 0);
    let diff = stdout(&output);
    assert!(
        diff.starts_with("diff --git a/calendar/src/lib.rs b/calendar/src/lib.rs\n"),
        "{diff}"
    );
    assert_eq!(
        changed_lines(&diff),
        [format!("-{CALENDAR_FAULT}"), format!("+{CALENDAR_FIX}")]
    );
    assert_eq!(report["edits"][0]["file"], "calendar/src/lib.rs");
    // Applied at the workspace root, every member's tests pass.
    apply_and_test("members", &diff);

    // With --workspace, the same fix, every member's tests run.
    let (output, report) = repair("members", &["--workspace"]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), diff);
    assert_eq!(
        report["fixed_tests"],
        serde_json::json!([
            "app/tests::a_century_february",
            "app/years/the_year_nineteen_hundred",
            "app/years/the_year_two_thousand"
        ])
    );
}

#[test]
fn shards_of_a_repair_across_members_merge_to_the_fix() {
    let dir = fixture("members");
    let out = tempfile::tempdir().unwrap();
    let path = |k: usize| {
        out.path()
            .join(format!("s{k}.json"))
            .to_str()
            .unwrap()
            .to_string()
    };
    for k in 0..2 {
        let shard = format!("{k}/2");
        let output = autofix(
            dir.path(),
            &["-p", "app", "--shard", &shard, "-q", "-o", &path(k)],
        );
        assert_exit(&output, 0);
    }
    let merged = autofix(dir.path(), &["-p", "app", "merge", &path(0), &path(1)]);
    assert_exit(&merged, 0);
    let diff = stdout(&merged);
    assert!(
        diff.starts_with("diff --git a/calendar/src/lib.rs"),
        "{diff}"
    );
    assert_eq!(
        changed_lines(&diff),
        [format!("-{CALENDAR_FAULT}"), format!("+{CALENDAR_FIX}")]
    );
}

#[test]
fn the_type_probes_copy_is_built_again_by_the_search_and_removed_with_the_run() {
    let dir = fixture("middle");
    let temp = tempfile::tempdir().unwrap();
    let output = command(dir.path(), &["-vv"])
        .env("TMPDIR", temp.path())
        .output()
        .unwrap();
    assert_exit(&output, 0);
    let err = stderr(&output);
    // -vv shows each cargo command; the lints-capped builds are of the
    // scratch copies the type probes and the search build in.
    let copy_of = |line: &str| {
        let path = line.split("--manifest-path ").nth(1)?;
        Some(path.split(' ').next()?.to_string())
    };
    let (probes, search) = err.split_once("Typed ").expect(&err);
    let capped = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("RUSTC_WORKSPACE_WRAPPER"))
            .filter_map(copy_of)
            .collect()
    };
    let (probes, search) = (capped(probes), capped(search));
    assert!(!probes.is_empty() && !search.is_empty(), "{err}");
    assert_eq!(probes.last(), search.first(), "{err}");
    assert_eq!(scratch_dirs(temp.path()), Vec::<String>::new());
}

#[test]
fn the_same_seed_repeats_the_run() {
    let (_, first) = repair("middle", &["-q"]);
    let (_, second) = repair("middle", &["-q"]);
    assert_eq!(first["patch"], second["patch"]);
    assert_eq!(
        first["candidates_evaluated"],
        second["candidates_evaluated"]
    );
    assert_eq!(first["operators"], second["operators"]);
}

/// The precedence slip of remove_html_markup (`&&` binds before `||`):
/// the published fix's parentheses, where a conjunct before the whole
/// condition was chosen before `grouping`.
#[test]
fn remove_html_markup_gets_its_parentheses() {
    let (diff, report) = assert_repaired("html_quotes", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-        } else if c == '\"' || c == '\\'' && tag {",
            "+        } else if (c == '\"' || c == '\\'') && tag {"
        ]
    );
    assert_eq!(report["edits"][0]["operator"], "grouping", "{report:#}");
}

#[test]
fn off_by_one_loop_bound() {
    let (diff, _) = assert_repaired("off_by_one", &[]);
    assert!(
        changed_lines(&diff)[0].contains("for i in 1..values.len() - 1 {"),
        "{diff}"
    );
}

#[test]
fn wrong_comparison_operator() {
    let (diff, _) = assert_repaired("comparison", &[]);
    assert!(
        changed_lines(&diff)[0].contains("} else if score > 70 {"),
        "{diff}"
    );
}

#[test]
fn wrong_arithmetic_operator() {
    let (diff, _) = assert_repaired("arithmetic", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-        Shape::Rectangle(width, height) => width + height,",
            "+        Shape::Rectangle(width, height) => width * height,"
        ]
    );
}

#[test]
fn missing_statement_is_inserted() {
    let (diff, _) = assert_repaired("missing_statement", &[]);
    assert_eq!(changed_lines(&diff), ["+        self.count += 1;"]);
}

#[test]
fn candidates_that_loop_forever_are_killed_and_the_search_goes_on() {
    let (diff, report) = assert_repaired("hang", &["--test-timeout", "2"]);
    assert_eq!(
        report["fixed_tests"],
        serde_json::json!(["tests::zero_takes_no_steps"])
    );
    assert!(changed_lines(&diff)[0].contains("while n != 1 {"), "{diff}");
}

#[test]
fn a_flaky_test_is_reported_and_left_out() {
    let marker = tempfile::tempdir().unwrap();
    let dir = fixture("flaky");
    let report = dir.path().join("report.json");
    let output = command(
        dir.path(),
        &["--seed", "0", "--report", report.to_str().unwrap()],
    )
    .env("FLAKY_MARKER", marker.path().join("ran"))
    .output()
    .unwrap();
    assert_exit(&output, 0);
    assert!(stderr(&output).contains(
        "flaky tests (a different outcome on a re-run) are left out of the fitness: tests::flaky"
    ));
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(report).unwrap()).unwrap();
    assert_eq!(report["flaky_tests"], serde_json::json!(["tests::flaky"]));
    assert_eq!(report["fixed_tests"], serde_json::json!(["tests::three"]));
    apply_and_test("flaky", &stdout(&output));
}

#[test]
fn every_failing_test_flaky_exits_6_in_the_repair_and_in_validate() {
    let runs = [
        (vec!["--seed", "0"], "every failing test is flaky"),
        (
            vec!["validate", "empty.patch"],
            "every failing test is flaky (a different outcome on a re-run): tests::flaky",
        ),
    ];
    for (args, error) in runs {
        // The fixture with its bug fixed: only the flaky test fails, once
        // (a fresh copy each time: a second run would read the first's
        // baseline from the cache).
        let dir = fixture("flaky");
        let lib = dir.path().join("src/lib.rs");
        let fixed = fs::read_to_string(&lib).unwrap().replace("x + 2", "x * 2");
        fs::write(&lib, fixed).unwrap();
        fs::write(dir.path().join("empty.patch"), "").unwrap();
        let marker = tempfile::tempdir().unwrap();
        let output = command(dir.path(), &args)
            .env("FLAKY_MARKER", marker.path().join("ran"))
            .output()
            .unwrap();
        assert_exit(&output, 6);
        assert_eq!(
            error_line(&output),
            format!("error: nothing to repair: {error}")
        );
    }
}

#[test]
fn no_patch_found_says_what_was_tried() {
    let pages = tempfile::tempdir().unwrap();
    let page = pages.path().join("page.html");
    let (output, report) = repair(
        "unrepairable",
        &[
            "--generations",
            "2",
            "--population",
            "6",
            "--html",
            page.to_str().unwrap(),
        ],
    );
    assert_exit(&output, 7);
    assert!(output.stdout.is_empty());
    let error = error_line(&output);
    assert!(
        error.starts_with("error: no patch found: the generation budget was spent after ")
            && error.contains(" single edits at ")
            && error.contains(", 2 generations and "),
        "{error}"
    );
    assert!(
        error.contains("best fitness 0.9900; never passed: tests::says_hi"),
        "{error}"
    );
    assert_eq!(report["outcome"], "not_fixed");
    assert_eq!(report["patch"], serde_json::Value::Null);
    assert_eq!(
        report["never_passed"],
        serde_json::json!(["tests::says_hi"])
    );
    // The page says so first, and plots the search where the fitness moved.
    let html = fs::read_to_string(&page).unwrap();
    let parsed = parse_page(&html);
    let verdict = with_class(&parsed, "verdict");
    assert!(has_class(verdict, "not-fixed"), "{html}");
    assert!(text_of(verdict).starts_with("Not fixed"), "{html}");
    assert!(!html.contains("class=\"diff\""), "no patch: {html}");
    let progress = report["stages"][0]["search_progress"].as_array().unwrap();
    let fitness: Vec<f64> = progress
        .iter()
        .flat_map(|p| [p["best"].as_f64().unwrap(), p["mean"].as_f64().unwrap()])
        .collect();
    let moved = fitness.iter().any(|f| (f - fitness[0]).abs() > 1e-9);
    let plotted = parsed
        .descendants()
        .any(|n| n.has_tag_name("svg") && text_of(n).contains("fitness by generation"));
    assert_eq!(
        plotted,
        progress.len() >= 2 && moved,
        "{progress:?}\n{html}"
    );
}

#[test]
fn format_json_prints_the_repairs_report() {
    let dir = fixture("middle");
    let output = autofix(dir.path(), &["-q", "--format", "json"]);
    assert_exit(&output, 0);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["outcome"], "fixed");
    assert_eq!(report["confidence"]["level"], "likely");
    apply_and_test("middle", report["patch"].as_str().unwrap());
}

#[test]
fn output_writes_the_patch_to_a_file() {
    let dir = fixture("middle");
    let out = tempfile::tempdir().unwrap();
    let patch = out.path().join("fix.patch");
    let output = autofix(dir.path(), &["-q", "--output", patch.to_str().unwrap()]);
    assert_exit(&output, 0);
    assert!(output.stdout.is_empty());
    apply_and_test("middle", &fs::read_to_string(patch).unwrap());
}

#[test]
fn config_files_set_defaults_and_the_command_line_wins() {
    let dir = fixture("middle");
    fs::write(
        dir.path().join("autofix.toml"),
        "operators = [\"identifier\"]\npopulation = 6\nseed = 3\n",
    )
    .unwrap();
    let report_path = dir.path().join("report.json");
    let output = autofix(
        dir.path(),
        &[
            "-q",
            "--report",
            report_path.to_str().unwrap(),
            "--seed",
            "5",
        ],
    );
    assert_exit(&output, 0);
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&report_path).unwrap()).unwrap();
    assert_eq!(report["population"], 6);
    assert_eq!(report["seed"], 5);
    let operators: Vec<&String> = report["operators"].as_object().unwrap().keys().collect();
    assert_eq!(operators, ["identifier"]);

    fs::write(dir.path().join("autofix.toml"), "populaton = 6\n").unwrap();
    let output = autofix(dir.path(), &["-q"]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("autofix.toml:1:1: unknown field `populaton`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn package_metadata_configures_the_search() {
    let dir = fixture("middle");
    let manifest = dir.path().join("Cargo.toml");
    let text = fs::read_to_string(&manifest).unwrap().replace(
        "[workspace]",
        "[package.metadata.autofix]\noperators = [\"value\"]\n\n[workspace]",
    );
    fs::write(&manifest, text).unwrap();
    let report_path = dir.path().join("report.json");
    let output = autofix(
        dir.path(),
        &[
            "-q",
            "--generations",
            "1",
            "--report",
            report_path.to_str().unwrap(),
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(7),
        "middle has no literal to mutate at its suspicious lines: {}",
        stderr(&output)
    );
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&report_path).unwrap()).unwrap();
    assert!(
        report["operators"]
            .as_object()
            .unwrap()
            .keys()
            .all(|k| k == "value")
    );
    assert!(Path::new(&report_path).exists());
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_during_the_search_reports_the_best_so_far() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let dir = fixture("unrepairable");
    let temp = tempfile::tempdir().unwrap();
    let mut child = command(
        dir.path(),
        &["--time-limit", "0", "--generations", "1000", "-v"],
    )
    .env("TMPDIR", temp.path())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // Read stderr until the initial population is scored.
    let mut lines = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    let started = Instant::now();
    while !seen.contains("Generation 0 scored") {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the search never started:\n{seen}"
        );
        let mut line = String::new();
        assert_ne!(
            lines.read_line(&mut line).unwrap(),
            0,
            "cargo-autofix ended early:\n{seen}"
        );
        seen.push_str(&line);
    }
    assert!(
        Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let interrupted = Instant::now();
    let mut rest = String::new();
    lines.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(interrupted.elapsed() < Duration::from_secs(20));
    assert_eq!(output.status.code(), Some(130), "{rest}");
    assert!(rest.contains("warning: interrupted after"), "{rest}");
    assert!(
        output.stdout.is_empty(),
        "an unvalidated patch must not reach stdout"
    );
    let leftovers: Vec<_> = fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        leftovers
            .iter()
            .all(|n| !n.to_string_lossy().starts_with("cargo-autofix-")),
        "{leftovers:?}"
    );
}

#[test]
fn two_faults_are_repaired_one_failure_group_at_a_time() {
    let pages = tempfile::tempdir().unwrap();
    let page = pages.path().join("page.html");
    let (diff, report) = assert_repaired("two_faults", &["--html", page.to_str().unwrap()]);
    // The page: both groups' rankings, the validated patch, the search per stage.
    let html = fs::read_to_string(&page).unwrap();
    let parsed = parse_page(&html);
    let headings: Vec<&str> = parsed
        .descendants()
        .filter(|n| n.has_tag_name("h3"))
        .filter_map(|n| n.text())
        .collect();
    assert!(
        headings
            .iter()
            .any(|h| h.starts_with("Failure group 1 of 2")),
        "{headings:?}"
    );
    assert!(
        headings
            .iter()
            .any(|h| h.starts_with("Failure group 2 of 2")),
        "{headings:?}"
    );
    let patch: String = parsed
        .descendants()
        .filter(|n| n.attribute("class") == Some("diff"))
        .flat_map(|n| n.children())
        .map(|line| format!("{}\n", line.text().unwrap_or_default()))
        .collect();
    assert_eq!(patch, diff);
    // The header: the verdict at the report's confidence, both failing
    // tests with their messages, fixed; the patch before the ranking.
    let verdict = with_class(&parsed, "verdict");
    let (class, label) = match report["confidence"]["level"].as_str() {
        Some("likely") => ("fixed", "Fixed"),
        _ => ("plausible", "Plausible"),
    };
    assert!(has_class(verdict, class), "{html}");
    assert!(text_of(verdict).starts_with(label), "{html}");
    let failures: Vec<String> = parsed
        .descendants()
        .filter(|n| has_class(*n, "failure"))
        .map(text_of)
        .collect();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(
        failures[0].starts_with("tests::clamp_above fixed by the patch panicked at src/lib.rs:")
            && failures[0].contains("assertion `left == right` failed"),
        "{failures:?}"
    );
    assert!(
        failures[1]
            .starts_with("tests::first_of_one_word fixed by the patch panicked at src/lib.rs:")
            && failures[1].contains("out of"),
        "{failures:?}"
    );
    let order: Vec<_> = parsed
        .descendants()
        .filter(|n| has_class(*n, "diff") || has_class(*n, "ranking"))
        .map(|n| n.attribute("class").unwrap())
        .collect();
    assert_eq!(order.first(), Some(&"diff"), "{order:?}");
    // Per stage, a plot where the fitness moved, else a sentence; a plot
    // has a line of two points or more, on a fitness axis.
    let stages = parsed
        .descendants()
        .filter(|n| n.has_tag_name("h3") && text_of(*n).starts_with("Stage "));
    for stage in stages {
        let shown: Vec<_> = stage
            .next_siblings()
            .skip(1) // the heading itself
            .filter(|n| n.is_element())
            .take_while(|n| !n.has_tag_name("h3") && !n.has_tag_name("h2"))
            .collect();
        assert!(
            shown
                .iter()
                .any(|n| n.has_tag_name("svg") || has_class(*n, "progress")),
            "stage {}: {html}",
            text_of(stage)
        );
    }
    for plot in parsed.descendants().filter(|n| n.has_tag_name("svg")) {
        assert!(text_of(plot).contains("fitness"), "{html}");
        assert!(
            plot.descendants()
                .filter(|n| n.has_tag_name("polyline"))
                .any(|n| n.attribute("points").unwrap().split(' ').count() >= 2),
            "{html}"
        );
    }
    let changed = changed_lines(&diff);
    assert_eq!(changed.len(), 4, "{diff}");
    assert_eq!(changed[0..2], ["-        low", "+        high"], "{diff}");
    assert_eq!(
        changed[2], "-        None => &text[..text.len() + 1],",
        "{diff}"
    );
    let stages = report["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 2, "{report:#}");
    assert!(stages.iter().all(|s| s["found"] == true), "{report:#}");
    assert_eq!(
        stages[0]["tests"],
        serde_json::json!(["tests::clamp_above"])
    );
    assert_eq!(
        stages[1]["tests"],
        serde_json::json!(["tests::first_of_one_word"])
    );
    assert_eq!(
        report["fixed_tests"],
        serde_json::json!(["tests::clamp_above", "tests::first_of_one_word"])
    );
}

/// One slip fails two tests by two assertions: two failure groups, one
/// fault. A sweep for all the failing tests at once comes first, and its
/// patch (the parentheses the `||` needs) fixes both in one stage.
#[test]
fn one_fault_behind_two_failure_groups_is_repaired_in_one_stage() {
    let (diff, report) = assert_repaired("one_fault_two_groups", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-    a.id == b.id && a.generation == b.generation && (a.pinned && b.pinned) || a.root && b.root",
            "+    a.id == b.id && a.generation == b.generation && ((a.pinned && b.pinned) || a.root && b.root)",
        ],
        "{diff}"
    );
    let stages = report["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 1, "{report:#}");
    let both = [
        "tests::root_handles_of_other_generations_differ",
        "tests::root_handles_of_other_slots_differ",
    ];
    let mut tests: Vec<&str> = stages[0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    tests.sort();
    assert_eq!(tests, both, "{report:#}");
    assert_eq!(report["fixed_tests"], serde_json::json!(both));
}

#[test]
fn a_group_left_unfixed_leaves_the_patch_for_the_others_on_stderr() {
    let (output, report) = repair(
        "half_repairable",
        &["--generations", "2", "--population", "6"],
    );
    assert_exit(&output, 7);
    assert!(output.stdout.is_empty());
    let stages = report["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 2, "{report:#}");
    assert_eq!(stages[0]["found"], true);
    assert_eq!(
        stages[0]["tests"],
        serde_json::json!(["tests::first_of_nothing", "tests::first_of_one_word"])
    );
    assert_eq!(stages[1]["found"], false);
    assert_eq!(report["patch"], serde_json::Value::Null);
    assert_eq!(report["fixed_tests"], serde_json::json!([]));
    let partial = report["partial_patch"].as_str().unwrap();
    assert_eq!(
        changed_lines(partial)[0],
        "-        None => &text[..text.len() + 1],"
    );
    assert!(
        stderr(&output).contains(&format!(
            "the patch for the failure groups fixed so far, not validated (the other failures remain):\n{}",
            partial.trim_end()
        )),
        "{}",
        stderr(&output)
    );
    let error = error_line(&output);
    assert!(
        error.starts_with("error: no patch found for failure group 2"),
        "{error}"
    );
}

#[test]
fn a_no_std_crate_of_edition_2015_is_repaired() {
    // In edition 2015 `use std::...` starts at the crate root, where a
    // `#![no_std]` crate has no std: the runtimes must name their own.
    let (diff, _) = assert_repaired("no_std_2015", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-    for &byte in &data[1..] {",
            "+    for &byte in &data[0..] {"
        ]
    );
}

#[test]
fn a_crate_that_denies_lints_the_probes_trip_is_ranked_and_repaired() {
    // `#![deny(trivial_numeric_casts, unsafe_code, ..)]` (iso8601's) held
    // for the coverage probes too: no line was probed, none ranked.
    let (diff, _) = assert_repaired("strict_lints", &[]);
    assert_eq!(
        changed_lines(&diff),
        ["-        2 => 29,", "+        2 => 28,"]
    );
}

#[test]
fn a_package_whose_dev_dependency_is_another_version_of_itself_is_repaired() {
    // `cargo test -p self_dependent` is ambiguous here: two packages of
    // that name are in the lockfile.
    let (diff, _) = assert_repaired("self_dependent", &[]);
    assert_eq!(
        changed_lines(&diff),
        ["-    n * (n - 1) / 2", "+    n * (n + 1) / 2"]
    );
}

/// `criterion` depends on the published `tinytemplate` of the very
/// version its repository holds: `tinytemplate@1.2.1` names both, so the
/// package is named to cargo by its directory too. Here the copy of the
/// same version comes from a git repository.
#[test]
fn a_package_whose_dev_dependency_is_a_copy_of_the_same_version_is_repaired() {
    let dir = fixture("self_dependent");
    let old = dir.path().join("old");
    let manifest = old.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(&manifest, text.replace("0.1.0", "0.2.0")).unwrap();
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "0.2.0",
        ],
    ] {
        let status = Command::new("git")
            .args(args)
            .current_dir(&old)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }
    let manifest = dir.path().join("Cargo.toml");
    let text = fs::read_to_string(&manifest).unwrap();
    let git = format!("git = \"file://{}\"", old.display());
    fs::write(
        &manifest,
        text.replace("version = \"0.1\", path = \"old\"", &git),
    )
    .unwrap();
    let output = autofix(dir.path(), &["-q"]);
    assert_eq!(
        changed_lines(&stdout(&output)),
        ["-    n * (n - 1) / 2", "+    n * (n + 1) / 2"],
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_crate_that_is_no_std_outside_its_tests_is_ranked_and_repaired() {
    // Its integration test links the library built without `cfg(test)`,
    // `no_std`: the runtimes appended to it must bring std themselves.
    let json = rank_json(fixture("no_std").path(), &[]);
    // Every failing test runs it, as it runs the function's other lines; the
    // slice (which misses the loop header as a definition of `byte`) puts
    // three of those first, but only at the loop header does an edit fix a
    // failing test without breaking a passing one.
    let fault = entry(&json, "src/lib.rs", 8);
    assert_eq!(fault["rank"], 1, "{json:#}");
    assert_eq!(fault["mutation"]["class"], "clean-fix", "{json:#}");
    let (diff, _) = assert_repaired("no_std", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-    for &byte in &data[1..] {",
            "+    for &byte in &data[0..] {"
        ],
        "{diff}"
    );
}

#[test]
fn a_fault_in_a_macro_body_is_repaired_in_the_body() {
    let (diff, report) = assert_repaired("macro_body", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-                    self.value = self.modulus + 1;",
            "+                    self.value = self.modulus - 1;"
        ],
        "{diff}"
    );
    assert!(diff.contains("@@ -27,7 +27,7 @@"), "{diff}");
    assert_eq!(report["outcome"], "fixed");
}

#[test]
fn github_format_annotates_the_patch() {
    let dir = fixture("middle");
    let output = autofix(dir.path(), &["--format", "github", "--seed", "0"]);
    assert_exit(&output, 0);
    let out = stdout(&output);
    assert_eq!(
        out.lines().count(),
        1,
        "one annotation, the diff inside it:\n{out}"
    );
    assert!(
        out.starts_with(
            "::notice file=src/lib.rs,line=6,title=cargo autofix%3A a patch that passes every test%2C likely the fix::likely the fix: "
        ),
        "{out}"
    );
    assert!(
        out.contains("%0A-            return y;%0A+            return x;%0A"),
        "{out}"
    );
}

/// The change that brought the bug in, as `git diff` prints it from a
/// repository whose workspace is in `crates/middle/`.
const MIDDLE_CHANGE: &str = "diff --git a/crates/middle/src/lib.rs b/crates/middle/src/lib.rs
--- a/crates/middle/src/lib.rs
+++ b/crates/middle/src/lib.rs
@@ -3,7 +3,7 @@ pub fn middle(x: i32, y: i32, z: i32) -> i32 {
         if x < y {
             return y;
         } else if x < z {
-            return x;
+            return y;
         }
     } else {
         if x > y {
";

#[test]
fn in_diff_marks_the_changed_lines_and_edits_only_them() {
    let patches = tempfile::tempdir().unwrap();
    let change = patches.path().join("change.patch");
    fs::write(&change, MIDDLE_CHANGE).unwrap();
    let json = rank_json(
        fixture("middle").path(),
        &["--in-diff", change.to_str().unwrap()],
    );
    let marked: Vec<u64> = json["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["in_diff"] == true)
        .map(|e| e["line"].as_u64().unwrap())
        .collect();
    assert_eq!(marked, [6], "{json:#}");
    let (output, report) = repair("middle", &["--in-diff", change.to_str().unwrap()]);
    assert_exit(&output, 0);
    assert_eq!(report["swept_locations"], 1, "{report:#}");
    assert_eq!(
        changed_lines(&stdout(&output)),
        ["-            return y;", "+            return x;"]
    );
}

#[test]
fn sarif_and_the_report_after_a_repair_match_their_schemas() {
    let (output, report) = repair("middle", &["--format", "sarif", "--top", "3"]);
    assert_exit(&output, 0);
    assert_matches_schema(&report, "src/render/schemas/report.schema.json");
    assert_eq!(report["version"], 1);
    let sarif: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", stdout(&output)));
    assert_matches_schema(&sarif, "tests/schemas/sarif-schema-2.1.0.json");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 4, "three suspects and the patch: {sarif:#}");
    let patch = &results[3];
    assert_eq!(patch["ruleId"], "plausible-patch");
    assert_eq!(patch["properties"]["patch"], report["patch"]);
    assert_eq!(patch["properties"]["confidence"], report["confidence"]);
    let level = report["confidence"]["level"].as_str().unwrap();
    assert!(
        patch["message"]["text"]
            .as_str()
            .unwrap()
            .contains(if level == "likely" {
                "(likely the fix: "
            } else {
                "(only plausible: "
            }),
        "{patch:#}"
    );
    // The fix: `return y;` to `return x;` on line 6, as bytes of the file.
    let change = &patch["fixes"][0]["artifactChanges"][0];
    assert_eq!(change["artifactLocation"]["uri"], "src/lib.rs");
    let replacement = &change["replacements"][0];
    let source = fs::read_to_string(fixture("middle").path().join("src/lib.rs")).unwrap();
    let start = replacement["deletedRegion"]["byteOffset"].as_u64().unwrap() as usize;
    let length = replacement["deletedRegion"]["byteLength"].as_u64().unwrap() as usize;
    assert_eq!(&source[start..start + length], "            return y;\n");
    assert_eq!(
        replacement["insertedContent"]["text"],
        "            return x;\n"
    );
    assert_eq!(
        patch["locations"][0]["physicalLocation"]["region"]["startLine"],
        6
    );
}

#[test]
fn a_nextest_project_is_validated_with_nextest() {
    let dir = fixture("middle");
    fs::create_dir_all(dir.path().join(".config")).unwrap();
    fs::write(
        dir.path().join(".config/nextest.toml"),
        "[profile.default]\nslow-timeout = { period = \"5s\", terminate-after = 2 }\n\n[test-groups]\nserial = { max-threads = 1 }\n",
    )
    .unwrap();
    let output = autofix(dir.path(), &["--test-tool", "nextest", "--seed", "0"]);
    assert_exit(&output, 0);
    let diff = stdout(&output);
    assert_eq!(
        changed_lines(&diff),
        ["-            return y;", "+            return x;"]
    );
    let err = stderr(&output);
    assert!(
        err.contains("runs at most 1 tests at a time; so do the baseline's test runs"),
        "{err}"
    );
    assert!(
        err.contains("(cargo nextest run, and cargo test --doc)"),
        "{err}"
    );
    let unknown = autofix(dir.path(), &["--test-tool", "bazel"]);
    assert_exit(&unknown, 2);
    assert!(error_line(&unknown).contains("unknown test tool `bazel`"));

    // A test that fails only under nextest (which sets `NEXTEST`): the
    // search runs the test executables and finds the patch, validation
    // runs nextest and rejects it, naming the test.
    let lib = dir.path().join("src/lib.rs");
    let text = fs::read_to_string(&lib).unwrap();
    let body = text.trim_end().strip_suffix('}').unwrap();
    fs::write(
        &lib,
        format!("{body}\n    #[test]\n    fn not_under_nextest() {{\n        assert!(std::env::var_os(\"NEXTEST\").is_none());\n    }}\n}}\n"),
    )
    .unwrap();
    let rejected = autofix(dir.path(), &["--test-tool", "nextest", "--seed", "0"]);
    assert_exit(&rejected, 7);
    assert!(
        stderr(&rejected)
            .contains("tests fail with the patch (cargo nextest): tests::not_under_nextest"),
        "{}",
        stderr(&rejected)
    );
}

#[test]
fn shards_merged_give_the_patch_of_an_unsharded_run() {
    let dir = fixture("middle");
    let out = tempfile::tempdir().unwrap();
    let path = |name: &str| out.path().join(name).to_str().unwrap().to_string();
    for k in 0..2 {
        let shard = format!("{k}/2");
        let output = autofix(
            dir.path(),
            &["--shard", &shard, "-q", "-o", &path(&format!("s{k}.json"))],
        );
        assert_exit(&output, 0);
    }
    let shards: Vec<serde_json::Value> = (0..2)
        .map(|k| {
            serde_json::from_str(&fs::read_to_string(path(&format!("s{k}.json"))).unwrap()).unwrap()
        })
        .collect();
    // The two halves of one enumeration, each edit decided once.
    let total = shards[0]["edits"].as_u64().unwrap();
    assert_eq!(shards[1]["edits"], total);
    let decided: u64 = shards.iter().map(|s| s["decided"].as_u64().unwrap()).sum();
    assert_eq!(decided, total);
    let merged = autofix(
        dir.path(),
        &[
            "merge",
            &path("s0.json"),
            &path("s1.json"),
            "--seed",
            "0",
            "--report",
            &path("merged.json"),
        ],
    );
    assert_exit(&merged, 0);
    assert!(stderr(&merged).contains(&format!(
        "Merging {total} outcomes of single edits from 2 shards"
    )));
    let (plain, report) = repair("middle", &[]);
    assert_exit(&plain, 0);
    assert_eq!(stdout(&merged), stdout(&plain));
    let merged_report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(path("merged.json")).unwrap()).unwrap();
    assert_eq!(merged_report["swept_edits"], report["swept_edits"]);
    // The merge judges no edit itself: its one build is the unchanged
    // crate's (flaky tests), where the plain run judges its first batch.
    let woven = |report: &serde_json::Value| report["evaluation"]["woven"].as_u64().unwrap();
    assert_eq!(
        woven(&merged_report),
        0,
        "the merge judges nothing: {}",
        merged_report["evaluation"]
    );
    assert!(woven(&report) > 0, "{}", report["evaluation"]);
    // The plain run's one build is its first batch's, where the unchanged
    // crate re-ran too (no build of its own for the re-run).
    assert_eq!(
        report["evaluation"]["builds"], 1,
        "{}",
        report["evaluation"]
    );
    assert!(
        merged_report["evaluation"]["builds"].as_u64() <= report["evaluation"]["builds"].as_u64(),
        "the merge builds no more: {} against {}",
        merged_report["evaluation"],
        report["evaluation"]
    );

    let twice = autofix(dir.path(), &["merge", &path("s0.json"), &path("s0.json")]);
    assert_exit(&twice, 9);
    assert!(error_line(&twice).contains("shard 0 is given twice"));
    let mut other = shards[1].clone();
    other["sources"] = serde_json::json!("src/lib.rs:1; 3 edits at 1 lines");
    other["shard"] = serde_json::json!(0);
    fs::write(path("other.json"), other.to_string()).unwrap();
    let foreign = autofix(dir.path(), &["merge", &path("other.json")]);
    assert_exit(&foreign, 9);
    assert!(
        error_line(&foreign).contains("was made from other sources"),
        "{}",
        error_line(&foreign)
    );
}

/// The same slip on two lines written alike: no single edit of the other
/// operators fixes it (without the genetic search, none is found); the
/// `parallel` edit makes it on both lines at once.
#[test]
fn the_same_slip_on_two_lines_alike_is_fixed_on_both() {
    let (diff, report) = assert_repaired("parallel_lines", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-    let columns = to.0 - from.0 + 2;",
            "-    let rows = to.1 - from.1 + 2;",
            "+    let columns = to.0 - from.0 + 1;",
            "+    let rows = to.1 - from.1 + 1;",
        ]
    );
    assert_eq!(report["edits"][0]["operator"], "parallel");
    let others = "operator,overflow,bounds,condition,value,member,method,variant,arm,jump,range,\
        ends,identifier,offset,term,slice,arguments,idiom,synthesis,twin,delete,guard,swap,\
        insert,adapted";
    let (output, report) = repair(
        "parallel_lines",
        &["--operators", others, "--generations", "0"],
    );
    assert_exit(&output, 7);
    assert_eq!(report["outcome"], "not_fixed");
}
