//! End-to-end tests of `cargo autofix --rank-only` on the fixtures.

// Tests and the benchmark drive processes and print as they like: the
// invariants in clippy.toml are the product's.
#![allow(clippy::disallowed_methods, clippy::print_stderr)]

mod common;

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use common::*;

#[test]
fn middle_table_ranks_the_faulty_return_first_and_leaves_files_alone() {
    let dir = fixture("middle");
    let before = snapshot(dir.path());
    let output = autofix(dir.path(), &["--rank-only", "--top", "2", "-v"]);
    assert_exit(&output, 0);
    let table = stdout(&output);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    assert!(
        lines[0].starts_with("rank  score   file:line     failed/passed  why              code"),
        "{table}"
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        [
            "1",
            "0.7071",
            "src/lib.rs:6",
            "1/1",
            "clean-fix,slice",
            "return",
            "y;"
        ]
    );
    assert_eq!(
        lines[2].split_whitespace().take(4).collect::<Vec<_>>(),
        ["2", "0.5000", "src/lib.rs:3", "1/3"]
    );
    let summary = stderr(&output);
    assert!(summary.contains("5 passed, 1 failed"), "{summary}");
    // -v says how the stages did their work.
    assert!(
        summary.contains("Grouped the failing tests into 1 failure group (by how they fail)"),
        "{summary}"
    );
    assert!(summary.contains("Instrumented 1 file with"), "{summary}");
    assert!(
        summary
            .contains("tests::middle_2_1_3: assertion `left == right` failed at src/lib.rs:49:9"),
        "{summary}"
    );
    assert_eq!(snapshot(dir.path()), before, "the user's files changed");
}

#[test]
fn middle_json_follows_the_schema() {
    let dir = fixture("middle");
    let output = autofix(dir.path(), &["--rank-only", "--format", "json"]);
    assert_exit(&output, 0);
    // Without -v, the stages' own terms stay off stderr.
    let summary = stderr(&output);
    for detail in ["Instrumented", "Grouped", "Switched"] {
        assert!(!summary.contains(detail), "{summary}");
    }
    assert!(
        summary.contains("5 passed, 1 failed, 0 ignored"),
        "{summary}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["metric"], "ochiai");
    assert_eq!(json["tests"]["passed"], 5);
    assert_eq!(json["tests"]["failed"], 1);
    assert_eq!(
        json["tests"]["failing"],
        serde_json::json!(["tests::middle_2_1_3"])
    );
    let first = &json["ranking"][0];
    assert_eq!(first["rank"], 1);
    assert_eq!(first["file"], "src/lib.rs");
    assert_eq!(first["line"], 6);
    assert!((first["score"].as_f64().unwrap() - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-9);
    assert_eq!(
        (first["failed"].as_u64(), first["passed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(first["code"], "return y;");
    assert_eq!(json["uninstrumented"], serde_json::json!([]));
    // Every executed line of the function is ranked; unexecuted `return x` (line 12) and test code are not.
    let ranked: Vec<u64> = json["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect();
    assert_eq!(ranked.len(), 9, "{ranked:?}");
    assert!(!ranked.contains(&12));
    assert!(
        ranked.iter().all(|&line| line < 16),
        "test code was ranked: {ranked:?}"
    );
}

#[test]
fn tarantula_scores_middle_like_the_seed() {
    let dir = fixture("middle");
    let json = rank_json(dir.path(), &["--metric", "tarantula"]);
    assert_eq!(json["metric"], "tarantula");
    assert_eq!(json["ranking"][0]["line"], 6);
    assert!((json["ranking"][0]["score"].as_f64().unwrap() - 0.8333).abs() < 1e-4);
}

#[test]
fn remove_html_markup_quote_line_ranks_first_with_one() {
    let dir = fixture("remove_html_markup");
    for metric in ["ochiai", "tarantula", "dstar", "op2", "jaccard"] {
        let json = rank_json(dir.path(), &["--metric", metric, "--refine", "none"]);
        let first = &json["ranking"][0];
        assert_eq!(first["code"], "quote = !quote;", "{metric}");
        assert_eq!(first["rank"], 1, "{metric}");
        if metric == "ochiai" || metric == "tarantula" {
            assert_eq!(first["score"], 1.0, "{metric}");
        }
    }
}

/// The page of `--rank-only` on `middle`, with the JSON of the same run.
fn middle_page(dir: &Path, metric: &str) -> (String, serde_json::Value) {
    let page = dir.join(format!("ranking-{metric}.html"));
    let output = autofix(
        dir,
        &[
            "--rank-only",
            "-q",
            "--format",
            "json",
            "--metric",
            metric,
            "--html",
            page.to_str().unwrap(),
        ],
    );
    assert_exit(&output, 0);
    let json = serde_json::from_slice(&output.stdout).unwrap();
    (fs::read_to_string(&page).unwrap(), json)
}

#[test]
fn html_shades_executed_lines_by_the_chosen_metric() {
    let dir = fixture("middle");
    let source = fs::read_to_string(dir.path().join("src/lib.rs")).unwrap();
    let (html, json) = middle_page(dir.path(), "ochiai");
    let page = parse_page(&html);
    // The header: no repair, the failing test with its message, the first line.
    let verdict = with_class(&page, "verdict");
    assert!(has_class(verdict, "rank-only"), "{html}");
    assert!(text_of(verdict).starts_with("Ranking only"), "{html}");
    let failure = &json["tests"]["failures"][0];
    let listed = with_class(&page, "failure");
    assert_eq!(
        text_of(with_class(&page, "test")),
        failure["test"].as_str().unwrap()
    );
    assert!(
        text_of(listed).contains(&format!(
            "panicked at {}",
            failure["location"].as_str().unwrap()
        )),
        "{html}"
    );
    assert_eq!(
        text_of(with_class(&page, "message")),
        failure["message"].as_str().unwrap()
    );
    let first = with_class(&page, "most-suspicious");
    let link = first.descendants().find(|n| n.has_tag_name("a")).unwrap();
    assert_eq!(link.attribute("href"), Some("#src-lib-rs-6"));
    // Every ranked line is on the page as a ranked line, with its marks.
    let ranked: Vec<_> = page
        .descendants()
        .filter(|n| has_class(*n, "ranked"))
        .collect();
    let entries = json["ranking"].as_array().unwrap();
    assert_eq!(ranked.len(), entries.len());
    let top = entries[0]["score"].as_f64().unwrap();
    for entry in entries {
        let id = format!("src-lib-rs-{}", entry["line"]);
        let node = ranked
            .iter()
            .find(|n| n.attribute("id") == Some(id.as_str()))
            .unwrap_or_else(|| panic!("{id} is not ranked on the page"));
        // A class is shown where edits were tried.
        let class = entry["mutation"]["class"]
            .as_str()
            .filter(|_| entry["mutation"]["edits"].as_u64() > Some(0));
        let why = node.attribute("data-why").unwrap();
        assert!(class.is_none_or(|c| why.contains(c)), "{why} {entry}");
        // Shaded by the score relative to the top score.
        let shade = entry["score"].as_f64().unwrap() / top;
        assert_eq!(
            node.attribute("data-shade"),
            Some(format!("{shade:.3}").as_str()),
            "{entry}"
        );
        // Ranks 1 to 5 beside their lines; only the first outlined.
        let rank = entry["rank"].as_u64().unwrap();
        let badge = node
            .children()
            .find(|n| has_class(*n, "badge"))
            .map(text_of);
        assert_eq!(badge, (rank <= 5).then(|| rank.to_string()), "{entry}");
        assert_eq!(has_class(*node, "top"), rank == 1, "{entry}");
    }
    let line = |n: u32| {
        let id = format!("src-lib-rs-{n}");
        page.descendants()
            .find(|node| node.attribute("id") == Some(id.as_str()))
            .unwrap_or_else(|| panic!("no line {n}"))
    };
    let style = |n: u32| line(n).attribute("style").unwrap_or_default().to_string();
    // Ochiai: line 6 tops the ranking at 0.7071, line 3 scores 0.5 (0.707 of it).
    assert_eq!(entries[0]["line"], 6);
    assert_eq!(style(6), "background-color: hsl(0, 85%, 72.0%)");
    assert_eq!(style(3), "background-color: hsl(0, 85%, 80.2%)");
    let title = line(6).attribute("title").unwrap();
    assert!(title.starts_with("rank 1 · ochiai 0.7071"), "{title}");
    let legend = text_of(with_class(&page, "legend"));
    assert!(
        legend.contains("ochiai score relative to the top score (0.7071)"),
        "{legend}"
    );
    // `return x` never ran: no colour.
    assert_eq!(style(12), "");
    // One line of the page per line of the file, none empty between them;
    // highlighted, each reads as its line of the file.
    let lines: Vec<_> = with_class(&page, "source").children().collect();
    assert!(lines.iter().all(|n| n.is_element()), "text between lines");
    assert_eq!(lines.len(), source.lines().count());
    for (node, text) in lines.iter().zip(source.lines()) {
        let code: String = node
            .children()
            .filter(|n| !has_class(*n, "no") && !has_class(*n, "badge"))
            .map(text_of)
            .collect();
        assert_eq!(code, text);
    }
    let classed = |n: u32, class: &str| -> Vec<String> {
        line(n)
            .children()
            .filter(|c| has_class(*c, class))
            .map(text_of)
            .collect()
    };
    assert_eq!(classed(1, "kw"), ["pub", "fn"]);
    assert_eq!(classed(2, "kw"), ["if"]);
    assert!(
        (1..=source.lines().count() as u32).any(|n| classed(n, "mac") == ["assert_eq!"]),
        "{html}"
    );

    // Tarantula ranks the same lines, with other scores: other shades.
    let (html, json) = middle_page(dir.path(), "tarantula");
    let page = parse_page(&html);
    let top = json["ranking"][0]["score"].as_f64().unwrap();
    assert!((top - 0.8333).abs() < 1e-4, "{json:#}");
    for entry in json["ranking"].as_array().unwrap() {
        let id = format!("src-lib-rs-{}", entry["line"]);
        let node = page
            .descendants()
            .find(|n| n.attribute("id") == Some(id.as_str()))
            .unwrap();
        let shade = entry["score"].as_f64().unwrap() / top;
        assert_eq!(
            node.attribute("data-shade"),
            Some(format!("{shade:.3}").as_str()),
            "{entry}"
        );
    }
    // Line 3 scores 0.625, three quarters of the top.
    let line_3 = page
        .descendants()
        .find(|n| n.attribute("id") == Some("src-lib-rs-3"))
        .unwrap();
    assert_eq!(
        line_3.attribute("style"),
        Some("background-color: hsl(0, 85%, 79.0%)")
    );
    let legend = text_of(with_class(&page, "legend"));
    assert!(legend.contains("tarantula score"), "{legend}");
}

#[test]
fn workspace_needs_a_package_and_ranks_the_chosen_member() {
    let dir = fixture("workspace");
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 4);
    let message = stderr(&output);
    assert!(
        message.contains("several packages (alpha, beta)") && message.contains("-p NAME"),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1, "{message}");

    let json = rank_json(dir.path(), &["-p", "alpha"]);
    assert_eq!(json["ranking"][0]["file"], "alpha/src/lib.rs");
    assert_eq!(json["ranking"][0]["line"], 6);

    // Inside a member, that member is the package.
    let json = rank_json(&dir.path().join("alpha"), &[]);
    assert_eq!(json["package"], "alpha");

    let output = autofix(dir.path(), &["--rank-only", "-p", "gamma"]);
    assert_exit(&output, 4);
    assert!(stderr(&output).contains("no package `gamma`"));
}

#[test]
fn path_dependency_outside_the_workspace_still_builds() {
    let dir = fixture("pathdep");
    let before = snapshot(dir.path());
    let json = rank_json(&dir.path().join("app"), &[]);
    let first = &json["ranking"][0];
    assert_eq!(first["score"], 1.0);
    assert!(
        [5, 6].contains(&first["line"].as_u64().unwrap()),
        "{json:#}"
    );
    // The helper outside the workspace is neither ranked nor changed.
    assert!(
        json["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["file"] == "src/lib.rs")
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn integration_tests_are_run_and_attributed() {
    let dir = fixture("integration");
    let json = rank_json(dir.path(), &[]);
    assert_eq!(
        json["tests"]["failing"],
        serde_json::json!(["api/two_words"])
    );
    assert_eq!(json["tests"]["passed"], 2);
    assert_eq!(json["ranking"][0]["code"], "in_word = false;");
}

#[test]
fn a_binary_is_covered_through_its_executable() {
    let dir = fixture("cli");
    let json = rank_json(dir.path(), &[]);
    assert_eq!(json["tests"]["failing"], serde_json::json!(["cli/shouts"]));
    let first = &json["ranking"][0];
    assert_eq!(
        (first["file"].as_str(), first["line"].as_u64()),
        (Some("src/main.rs"), Some(6))
    );
    assert_eq!(first["score"], 1.0);
    // `main` ran in the child processes of all three tests.
    let main_line = entry(&json, "src/main.rs", 16);
    assert_eq!(
        (main_line["failed"].as_u64(), main_line["passed"].as_u64()),
        (Some(1), Some(2))
    );
}

#[test]
fn coverage_belongs_to_the_test_that_ran_it() {
    // Tests run in parallel; one spawns a thread, one panics, one calls
    // `exit`, one aborts, one runs the crate's binary.
    let dir = fixture("attribution");
    let json = rank_json(dir.path(), &["-j", "4"]);
    assert_eq!(json["tests"]["passed"], 3);
    assert_eq!(json["tests"]["failed"], 3);
    let counts = |file: &str, line| {
        let e = entry(&json, file, line);
        (e["failed"].as_u64().unwrap(), e["passed"].as_u64().unwrap())
    };
    assert_eq!(
        counts("src/lib.rs", 2),
        (0, 1),
        "in_thread: the thread's test only"
    );
    assert_eq!(counts("src/lib.rs", 5), (1, 0), "before_panic");
    assert_eq!(counts("src/lib.rs", 8), (1, 0), "before_exit");
    assert_eq!(counts("src/lib.rs", 11), (1, 0), "before_abort");
    assert_eq!(counts("src/lib.rs", 14), (0, 1), "plain");
    assert_eq!(
        counts("src/lib.rs", 17),
        (0, 1),
        "in_binary, run by the binary"
    );
    assert_eq!(counts("src/main.rs", 2), (0, 1), "the binary's main");
    let failures = json["tests"]["failures"].as_array().unwrap();
    let message = |test: &str| {
        failures.iter().find(|f| f["test"] == test).unwrap()["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(message("tests::panics"), "deliberate");
    assert_eq!(
        message("tests::exits"),
        "the test process exited with code 3"
    );
    assert_eq!(
        message("tests::aborts"),
        "the test process was killed by SIGABRT"
    );
}

#[test]
fn a_hanging_test_is_killed_and_reported_as_timed_out() {
    let dir = fixture("hang");
    let started = Instant::now();
    let output = autofix(
        dir.path(),
        &["--rank-only", "--test-timeout", "2", "--format", "json"],
    );
    assert_exit(&output, 0);
    assert!(started.elapsed() < Duration::from_secs(90));
    assert!(
        stderr(&output).contains("TIMED OUT tests::zero_takes_no_steps"),
        "{}",
        stderr(&output)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        json["tests"]["failing"],
        serde_json::json!(["tests::zero_takes_no_steps"])
    );
    assert_eq!(json["tests"]["failures"][0]["outcome"], "timed_out");
}

#[test]
fn a_crate_that_does_not_build_shows_the_first_error() {
    let dir = fixture("broken");
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 5);
    let message = stderr(&output);
    let error = message.lines().find(|l| l.starts_with("error:")).unwrap();
    assert!(
        error.contains("the crate does not build: src/lib.rs:2: cannot divide `u32` by `&str`"),
        "{message}"
    );
}

#[test]
fn nothing_to_localize_when_every_test_passes_or_there_are_none() {
    let dir = fixture("passing");
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 6);
    assert!(
        stderr(&output).contains("error: nothing to localize: all 2 tests pass"),
        "{}",
        stderr(&output)
    );
    assert!(output.stdout.is_empty());

    let dir = fixture("no_tests");
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 6);
    assert!(
        stderr(&output).contains("has no tests to run"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn when_every_test_fails_the_ranking_still_runs_but_is_called_weak() {
    let dir = fixture("all_failing");
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 0);
    assert!(
        stderr(&output).contains("warning: every test fails"),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).contains("src/lib.rs:4"));
}

#[test]
fn an_unparsable_file_is_skipped_with_a_warning() {
    let dir = fixture("unparsable");
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 0);
    assert!(
        stderr(&output).contains("warning: src/nightly.rs: syn cannot parse this file"),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).contains("src/lib.rs:5"));
}

/// A crate whose only file does not parse does not build: exit 5, not
/// "nothing to rank" (6).
#[test]
fn a_crate_that_does_not_parse_does_not_build() {
    let dir = fixture("middle");
    let lib = dir.path().join("src/lib.rs");
    let text = fs::read_to_string(&lib).unwrap();
    fs::write(&lib, text.replacen("if y < z {", "if y < z {{", 1)).unwrap();
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 5);
    let error = error_line(&output);
    assert!(
        error.contains("does not build: syn cannot parse src/lib.rs"),
        "{error}"
    );
}

#[test]
fn outside_a_package_or_with_a_missing_manifest() {
    let empty = tempfile::tempdir().unwrap();
    let output = autofix(empty.path(), &["--rank-only"]);
    assert_exit(&output, 3);
    assert!(
        stderr(&output).contains("could not find Cargo.toml"),
        "{}",
        stderr(&output)
    );

    let output = autofix(
        empty.path(),
        &["--rank-only", "--manifest-path", "nowhere/Cargo.toml"],
    );
    assert_exit(&output, 3);
    assert!(
        stderr(&output).contains("--manifest-path") && stderr(&output).contains("does not exist")
    );
}

#[test]
fn manifest_path_works_from_anywhere() {
    let dir = fixture("middle");
    let elsewhere = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("Cargo.toml");
    let json = rank_json(
        elsewhere.path(),
        &["--manifest-path", manifest.to_str().unwrap()],
    );
    assert_eq!(json["ranking"][0]["line"], 6);
}

#[test]
fn help_documents_the_exit_codes() {
    let output = autofix(Path::new("."), &["--help"]);
    assert_exit(&output, 0);
    let help = stdout(&output);
    assert!(
        help.contains("Exit codes:") && help.contains("130  interrupted"),
        "{help}"
    );
    let output = autofix(Path::new("."), &["--metric", "cosine"]);
    assert_exit(&output, 2);
}

#[test]
fn stderr_is_coloured_as_cargo_says() {
    let red = "\x1b[1;31merror\x1b[0m: ";
    let bad = ["--metric", "cosine"];
    let always = autofix(Path::new("."), &[&bad[..], &["--color", "always"]].concat());
    assert!(stderr(&always).starts_with(red), "{}", stderr(&always));
    let from_env = command(Path::new("."), &bad)
        .env("CARGO_TERM_COLOR", "always")
        .output()
        .unwrap();
    assert!(stderr(&from_env).starts_with(red));
    // Not a terminal, or never: plain.
    for args in [&bad[..], &[&bad[..], &["--color", "never"]].concat()] {
        let plain = autofix(Path::new("."), args);
        assert!(stderr(&plain).starts_with("error: "), "{}", stderr(&plain));
    }
    let wrong = autofix(Path::new("."), &["--color", "sometimes"]);
    assert_exit(&wrong, 2);
}

/// `clean` removes the builds a run kept, says how much they held, and
/// removes a link in their place without following it.
#[test]
fn clean_removes_the_kept_builds() {
    let dir = fixture("middle");
    let kept = dir.path().join("target/autofix");
    let run = autofix(dir.path(), &["--rank-only", "-vv"]);
    assert_exit(&run, 0);
    assert!(kept.is_dir());
    // -vv shows the cargo commands; the last line, the builds kept.
    let said = stderr(&run);
    assert!(
        said.lines()
            .any(|l| l.trim_start().starts_with("Running `") && l.contains(" test ")),
        "{said}"
    );
    let last = said.lines().last().unwrap();
    let mib = |line: &str| {
        line.split(" MiB")
            .next()
            .unwrap()
            .rsplit([' ', '('])
            .next()
            .unwrap()
            .to_string()
    };
    assert!(
        last.trim_start().starts_with("Kept ") && last.contains(&kept.display().to_string()),
        "{said}"
    );
    let output = autofix(dir.path(), &["clean"]);
    assert_exit(&output, 0);
    let removed = stderr(&output);
    assert!(
        removed.contains("Removed") && removed.contains(" MiB)"),
        "{removed}"
    );
    assert_eq!(mib(&removed), mib(last), "{removed}\n{last}");
    assert!(!kept.exists());
    assert!(dir.path().join("src/lib.rs").is_file());
    let again = autofix(dir.path(), &["clean"]);
    assert_exit(&again, 0);
    assert!(stderr(&again).contains("nothing at"), "{}", stderr(&again));

    let elsewhere = tempfile::tempdir().unwrap();
    fs::write(elsewhere.path().join("keep.txt"), "mine").unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), &kept).unwrap();
    assert_exit(&autofix(dir.path(), &["clean"]), 0);
    assert!(fs::symlink_metadata(&kept).is_err());
    assert!(elsewhere.path().join("keep.txt").is_file());
}

/// `--locked` reaches cargo: the fixture has no lockfile, and cargo may
/// not write one.
#[test]
fn locked_reaches_cargo() {
    let dir = fixture("middle");
    let output = autofix(dir.path(), &["--rank-only", "--locked"]);
    assert_exit(&output, 5);
    assert!(
        error_line(&output).contains("because --locked was passed"),
        "{}",
        error_line(&output)
    );
}

#[test]
fn features_reach_the_build() {
    let dir = fixture("features");
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_eq!(
        output.status.code(),
        Some(6),
        "without the feature every test passes"
    );
    for flags in [&["--features", "cube"][..], &["--all-features"][..]] {
        let mut args = vec!["-q"];
        args.extend_from_slice(flags);
        let json = rank_json(dir.path(), &args);
        assert_eq!(
            json["tests"]["failing"],
            serde_json::json!(["tests::cubes"]),
            "{flags:?}"
        );
        assert_eq!(json["ranking"][0]["line"], 7, "{flags:?}");
    }
}

#[test]
fn two_faults_get_a_ranking_per_failure_group() {
    let dir = fixture("two_faults");
    let json = rank_json(dir.path(), &[]);
    let groups = json["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{json:#}");
    assert_eq!(
        groups[0]["failing"],
        serde_json::json!(["tests::clamp_above"])
    );
    assert_eq!(
        groups[1]["failing"],
        serde_json::json!(["tests::first_of_one_word"])
    );
    assert_eq!(groups[1]["signature"], "panic at src/lib.rs:16");
    // Each group's own spectrum puts its own fault first; together the
    // two faults share the top of the overall ranking.
    assert_eq!(groups[0]["ranking"][0]["line"], 6, "{json:#}");
    assert_eq!(groups[1]["ranking"][0]["line"], 16, "{json:#}");
    let top: Vec<u64> = json["ranking"].as_array().unwrap()[..2]
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect();
    assert!(top.contains(&6) && top.contains(&16), "{top:?}");
}

#[test]
fn a_write_that_cannot_reach_the_failure_falls_out_of_the_slice() {
    let dir = fixture("logged_mean");
    // Lines 16 (`stats.long_inputs += 1`) and 17 (the fault) both run only in
    // the failing test: the spectrum alone cannot tell them apart.
    let plain = rank_json(dir.path(), &["--refine", "none"]);
    assert_eq!(entry(&plain, "src/lib.rs", 16)["score"], 1.0);
    assert_eq!(entry(&plain, "src/lib.rs", 17)["score"], 1.0);
    assert_eq!(entry(&plain, "src/lib.rs", 17)["rank"], 2);
    assert_eq!(entry(&plain, "src/lib.rs", 16)["rank"], 2);
    // The slice of the failing run ends at the return value, which the
    // counter never reaches.
    let sliced = rank_json(dir.path(), &["--refine", "slices"]);
    assert_eq!(entry(&sliced, "src/lib.rs", 17)["in_slice"], true);
    assert_eq!(entry(&sliced, "src/lib.rs", 16)["in_slice"], false);
    assert_eq!(entry(&sliced, "src/lib.rs", 10)["in_slice"], false);
    assert_eq!(entry(&sliced, "src/lib.rs", 17)["rank"], 1);
    assert!(entry(&sliced, "src/lib.rs", 16)["rank"].as_u64().unwrap() > 5);
}

#[test]
fn mutation_evidence_separates_lines_the_spectrum_ties() {
    let dir = fixture("tied_lines");
    // Every test runs every line: the spectrum ties all three.
    let spectrum = rank_json(dir.path(), &["--refine", "slices,switching"]);
    for line in [3, 4, 5] {
        assert_eq!(
            entry(&spectrum, "src/lib.rs", line)["rank"],
            3,
            "{spectrum:#}"
        );
        assert_eq!(
            entry(&spectrum, "src/lib.rs", line)["mutation"],
            serde_json::Value::Null
        );
    }
    assert_eq!(spectrum["mutation"], serde_json::Value::Null);
    // Only at the faulty line does an edit (`-` for `+`) fix the failing
    // test without breaking a passing one.
    let json = rank_json(dir.path(), &[]);
    let first = &json["ranking"][0];
    assert_eq!(first["line"], 4, "{json:#}");
    assert_eq!(first["rank"], 1);
    assert_eq!(first["mutation"]["class"], "clean-fix");
    assert!(first["mutation"]["metallaxis"].as_f64().unwrap() > 0.0);
    for line in [3, 5] {
        let other = entry(&json, "src/lib.rs", line);
        assert_eq!(other["rank"], 3, "{json:#}");
        assert_ne!(other["mutation"]["class"], "clean-fix");
    }
    assert_eq!(json["mutation"]["lines"], 3);
    assert_eq!(json["mutation"]["lines_tried"], 3);
    assert!(json["mutation"]["compiled"].as_u64().unwrap() > 0);
    // The text says why.
    let output = autofix(dir.path(), &["--rank-only", "--top", "1"]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("clean-fix,slice"),
        "{}",
        stdout(&output)
    );
    assert!(
        stderr(&output).contains("Mutated 3 lines"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_line_binding_a_variable_the_compiler_warns_is_unused_is_mutated_too() {
    let dir = fixture("unused_binding");
    // `if let Some(name) = target {}` never uses `name`. A helper only the
    // failing tests run outscores it, and the slice cannot see what is
    // missing: without the mutation refinement it is out of the top ten.
    let json = rank_json(dir.path(), &["--refine", "slices,switching"]);
    assert!(
        entry(&json, "src/lib.rs", 17)["rank"].as_u64().unwrap() > 10,
        "{json:#}"
    );
    // The experiment tries it for the warning, and the twin statement with
    // `name` in place of its key fixes every failing test.
    let json = rank_json(dir.path(), &[]);
    let first = &json["ranking"][0];
    assert_eq!(first["line"], 17, "{json:#}");
    assert_eq!(first["rank"], 1);
    assert_eq!(first["mutation"]["class"], "clean-fix");
}

#[test]
fn the_mutation_refinement_goes_further_down_until_an_edit_fixes_the_failing_tests() {
    let dir = fixture("far_fault");
    // Every test runs every line of `summarize`: the spectrum ties them, and
    // the swapped arguments are the twelfth line in file order.
    let json = rank_json(dir.path(), &["--refine", "slices,switching"]);
    assert!(
        entry(&json, "src/lib.rs", 34)["rank"].as_u64().unwrap() > 10,
        "{json:#}"
    );
    // No edit in the top ten fixes both failing tests without breaking a
    // passing one, so the experiment goes on past them, to the swap that does.
    let json = rank_json(dir.path(), &[]);
    let mutation = &json["mutation"];
    assert!(
        mutation["lines_tried"].as_u64() > mutation["lines"].as_u64(),
        "{mutation:#}"
    );
    let first = &json["ranking"][0];
    assert_eq!(first["line"], 34, "{json:#}");
    assert_eq!(first["rank"], 1);
    assert_eq!(first["mutation"]["class"], "clean-fix");
}

#[test]
fn lines_whose_edits_only_break_passing_tests_rank_last_among_those_tried() {
    let dir = fixture("shapes");
    // Without switching: switching one evaluation of `if self.0 == 0` at a
    // time makes a failing test pass, and the critical line it adds to the
    // top ten would push the line whose edits only break tests out of them.
    let json = rank_json(dir.path(), &["--refine", "slices,mutation"]);
    let order = ["clean-fix", "noisy-fix", "no-change", "breaks-only"];
    let classes: Vec<usize> = json["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map_while(|e| e["mutation"]["class"].as_str())
        .map(|class| order.iter().position(|c| *c == class).unwrap())
        .collect();
    // The top ten lines of code carry evidence, and the table ranked
    // among them (in the slice of the lines that read it) too.
    let tried = json["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .take(classes.len());
    let tables = tried
        .filter(|e| e["code"].as_str().unwrap().starts_with("const "))
        .count();
    assert_eq!(
        (classes.len() - tables, tables),
        (10, 1),
        "the top ten lines and the table carry evidence: {json:#}"
    );
    assert!(classes.is_sorted(), "classes out of order: {classes:?}");
    assert!(classes.contains(&0) && classes.contains(&3), "{classes:?}");
    // A line whose edits only break passing tests falls below a line of
    // the same score where edits change nothing: the spectrum tied them.
    let entries = json["ranking"].as_array().unwrap();
    let breaking = entries
        .iter()
        .find(|e| e["mutation"]["class"] == "breaks-only")
        .unwrap();
    let neutral = entries
        .iter()
        .find(|e| e["mutation"]["class"] == "no-change" && e["score"] == breaking["score"])
        .unwrap();
    assert!(
        neutral["rank"].as_u64() < breaking["rank"].as_u64(),
        "{json:#}"
    );
    let plain = rank_json(dir.path(), &["--refine", "slices"]);
    let at = |e: &serde_json::Value| {
        entry(&plain, "src/lib.rs", e["line"].as_u64().unwrap())["rank"].clone()
    };
    assert_eq!(at(breaking), at(neutral), "{plain:#}");
}

#[test]
fn predicate_switching_finds_the_critical_condition() {
    let dir = fixture("remove_html_markup");
    let json = rank_json(dir.path(), &[]);
    let first = &json["ranking"][0];
    assert_eq!(first["line"], 12, "{json:#}");
    assert_eq!(first["critical"], true);
    assert!(
        json["switched_conditions"].as_u64().unwrap() >= 1,
        "{json:#}"
    );
    let critical: Vec<&serde_json::Value> = json["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["critical"] == true)
        .collect();
    assert_eq!(critical.len(), 1, "{json:#}");
    assert_eq!(
        json["groups"][0]["critical"],
        serde_json::json!(["src/lib.rs:12"])
    );
    // Without switching, no condition is called critical.
    let unswitched = rank_json(dir.path(), &["--refine", "slices"]);
    assert!(
        unswitched["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["critical"] == false)
    );
    assert_eq!(unswitched["switched_conditions"], 0);
}

#[test]
fn switching_one_evaluation_finds_a_condition_that_forcing_cannot() {
    // `if c == ' '` misses the comma: forced true it splits every
    // character, forced false nothing; switched at the comma alone, the
    // failing test passes.
    let dir = fixture("separators");
    let plain = rank_json(dir.path(), &["--refine", "none"]);
    assert_eq!(plain["ranking"][0]["line"], 16, "{plain:#}");
    let json = rank_json(dir.path(), &["--refine", "switching"]);
    let first = &json["ranking"][0];
    assert_eq!(
        (&first["line"], &first["critical"]),
        (&6.into(), &true.into()),
        "{json:#}"
    );
    assert_eq!(
        json["groups"][0]["critical"],
        serde_json::json!(["src/lib.rs:6"])
    );
}

#[test]
fn explain_shows_each_suspect_with_what_it_depends_on() {
    let dir = fixture("middle");
    // The spectrum's order, sharpened by the slice (the mutation
    // refinement would move line 3 ahead of line 5).
    let output = autofix(
        dir.path(),
        &["--explain", "--top", "3", "--refine", "slices,switching"],
    );
    assert_exit(&output, 0);
    let text = stdout(&output);
    let lines: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines,
        [
            vec![
                "1",
                "src/lib.rs:6",
                "return",
                "y;",
                "<-",
                "if",
                "(line",
                "5)"
            ],
            vec![
                "2",
                "src/lib.rs:5",
                "}",
                "else",
                "if",
                "x",
                "<",
                "z",
                "{",
                "<-",
                "if",
                "(line",
                "3)"
            ],
            vec![
                "3",
                "src/lib.rs:3",
                "if",
                "x",
                "<",
                "y",
                "{",
                "<-",
                "if",
                "(line",
                "2)"
            ],
        ],
        "{text}"
    );
    let dot = autofix(dir.path(), &["--explain", "--format", "dot"]);
    assert_exit(&dot, 0);
    let graph = stdout(&dot);
    assert!(graph.starts_with("digraph dependencies {"), "{graph}");
    // The slice of middle(2, 1, 3): lines 2, 3, 5, 6, each control dependent on the one before.
    for edge in [
        "2\" -> \"0:src/lib.rs:3",
        "3\" -> \"0:src/lib.rs:5",
        "5\" -> \"0:src/lib.rs:6",
    ] {
        assert!(graph.contains(edge), "{edge} missing:\n{graph}");
    }
    assert!(!graph.contains("src/lib.rs:15"), "{graph}");
    let misplaced = autofix(dir.path(), &["--rank-only", "--format", "dot"]);
    assert_exit(&misplaced, 2);
    assert!(stderr(&misplaced).contains("--format dot goes with --explain"));
}

#[test]
fn github_format_annotates_the_top_suspects() {
    let dir = fixture("middle");
    let output = autofix(
        dir.path(),
        &["--rank-only", "--format", "github", "--top", "3"],
    );
    assert_exit(&output, 0);
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("::warning file=src/lib.rs,line=")),
        "{out}"
    );
    // The faulty line of the fixture is among them, with its rank.
    assert!(
        lines
            .iter()
            .any(|l| l.contains(",line=6,") && l.contains("::suspicious line, rank ")),
        "{out}"
    );
}

/// A line no failing test executed (score 0) is no finding: SARIF and the
/// GitHub annotations leave it out, however many lines are asked for.
#[test]
fn ci_outputs_leave_out_lines_of_score_zero() {
    let dir = fixture("middle");
    let json = rank_json(dir.path(), &[]);
    let ranked = json["ranking"].as_array().unwrap();
    let positive = ranked
        .iter()
        .filter(|e| e["score"].as_f64() > Some(0.0))
        .count();
    assert!(positive > 0 && positive < ranked.len(), "{json:#}");

    let output = autofix(dir.path(), &["--rank-only", "--format", "sarif"]);
    assert_exit(&output, 0);
    let sarif: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), positive, "{sarif:#}");
    assert!(
        results
            .iter()
            .all(|r| r["properties"]["score"].as_f64() > Some(0.0))
    );

    let output = autofix(
        dir.path(),
        &["--rank-only", "--format", "github", "--top", "50"],
    );
    assert_exit(&output, 0);
    assert_eq!(stdout(&output).lines().count(), positive.min(10));
}

#[test]
fn json_and_sarif_carry_spans_and_match_their_schemas() {
    let dir = fixture("const_table");
    let json = rank_json(dir.path(), &["--refine", "none"]);
    assert_matches_schema(&json, "src/render/schemas/ranking.schema.json");
    assert_eq!(json["version"], 1);
    // A `const` table spans its lines; a statement its own columns.
    assert_eq!(
        entry(&json, "src/lib.rs", 2)["span"],
        serde_json::json!({"line": 2, "column": 1, "end_line": 5, "end_column": 3})
    );
    assert_eq!(
        entry(&json, "src/lib.rs", 9)["span"],
        serde_json::json!({"line": 9, "column": 5, "end_line": 9, "end_column": 20})
    );

    let output = autofix(
        dir.path(),
        &[
            "--rank-only",
            "--refine",
            "none",
            "--format",
            "sarif",
            "--top",
            "2",
        ],
    );
    assert_exit(&output, 0);
    let sarif: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_matches_schema(&sarif, "tests/schemas/sarif-schema-2.1.0.json");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{sarif:#}");
    for (result, ranked) in results.iter().zip(json["ranking"].as_array().unwrap()) {
        assert_eq!(result["ruleId"], "suspicious-line");
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "src/lib.rs");
        assert_eq!(location["region"]["startLine"], ranked["span"]["line"]);
        assert_eq!(
            location["region"]["endColumn"],
            ranked["span"]["end_column"]
        );
        assert_eq!(result["properties"]["rank"], ranked["rank"]);
    }
    let explained = autofix(dir.path(), &["--explain", "--format", "sarif"]);
    assert_exit(&explained, 2);
}

#[test]
fn files_left_uninstrumented_are_named_and_an_empty_ranking_says_why() {
    // `tests/calendar.rs` compiles `src/calendar.rs` by `#[path]`, where
    // `crate::__autofix_rt` does not exist: that file's probes are dropped,
    // and the crate has no other code.
    let dir = fixture("uninstrumented");
    let json = rank_json(dir.path(), &[]);
    assert_eq!(
        json["uninstrumented"],
        serde_json::json!([{"file": "src/calendar.rs", "lines": 5}]),
        "{json:#}"
    );
    assert_eq!(json["ranking"], serde_json::json!([]), "{json:#}");
    assert_eq!(json["tests"]["failed"], 1);

    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 0);
    let out = stdout(&output);
    assert!(!out.contains("rank  score"), "an empty table:\n{out}");
    assert_eq!(
        out.trim_end(),
        "no line a failing test ran is ranked: the failing test ran no probed line of the crate; \
         src/calendar.rs (5 executable lines) is left uninstrumented because its probes do not \
         compile, and what they run may be there"
    );
    assert!(
        stderr(&output).contains(
            "warning: coverage probes do not compile in src/calendar.rs; it is left uninstrumented: its 5 executable lines are not ranked"
        ),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_fault_in_a_macro_body_is_ranked_at_the_body_line() {
    // `ring!` writes the methods of four types (one in the integration
    // test, through `#[macro_export]`); every expansion reports the body's
    // lines, so the three failing tests meet at the faulty assignment.
    let json = rank_json(fixture("macro_body").path(), &[]);
    let first = &json["ranking"][0];
    assert_eq!(
        (&first["file"], &first["line"], &first["rank"]),
        (
            &serde_json::json!("src/lib.rs"),
            &serde_json::json!(30),
            &serde_json::json!(1)
        ),
        "{json:#}"
    );
    assert_eq!(first["code"], "self.value = self.modulus + 1;");
    assert_eq!(
        (first["failed"].as_u64(), first["passed"].as_u64()),
        (Some(3), Some(0))
    );
    assert_eq!(first["mutation"]["class"], "clean-fix", "{json:#}");
    // The failing test of the integration test, whose type the exported
    // macro wrote there, ran the body too.
    assert!(
        json["tests"]["failing"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("exported/a_ring_made_here_wraps_back")),
        "{json:#}"
    );
    // The body's other lines and the plain function are ranked too.
    entry(&json, "src/lib.rs", 24);
    entry(&json, "src/lib.rs", 47);
}

#[test]
fn predicates_and_the_tree_point_at_the_quote_condition() {
    // The seed's three runs: `abc` and `<b>abc</b>` pass, `"abc"` fails.
    let dir = fixture("remove_html_markup");
    let page = dir.path().join("ranking.html");
    let json = rank_json(
        dir.path(),
        &["--refine", "predicates", "--html", page.to_str().unwrap()],
    );
    assert_matches_schema(&json, "src/render/schemas/ranking.schema.json");
    let quote = "`c == '\"' || c == '\\'' && tag` is true";
    let top = &json["predicates"][0];
    assert_eq!(top["line"], 12, "{json:#}");
    assert_eq!(top["kind"], "condition");
    assert_eq!(top["outcome"], "true");
    assert_eq!(top["description"], quote);
    assert_eq!((&top["failed"], &top["passed"]), (&1.into(), &0.into()));
    assert_eq!((&top["rank"], &top["score"]), (&1.into(), &1.0.into()));
    // Every other predicate scores lower: each is seen by a passing run.
    let predicates = json["predicates"].as_array().unwrap();
    assert!(
        predicates[1..]
            .iter()
            .all(|p| p["score"].as_f64() < Some(1.0))
    );
    // The tree splits on it, and each side is pure.
    let tree = &json["tree"];
    assert_eq!(tree["split"]["line"], 12, "{tree:#}");
    assert_eq!(tree["split"]["outcome"], "true");
    assert_eq!(tree["present"]["predicts"], "fail");
    assert_eq!(
        (&tree["present"]["failing"], &tree["present"]["passing"]),
        (&1.into(), &0.into())
    );
    assert_eq!(tree["absent"]["predicts"], "pass");
    assert_eq!(
        (&tree["absent"]["failing"], &tree["absent"]["passing"]),
        (&0.into(), &2.into())
    );
    // The page lists them and draws the tree.
    let html = fs::read_to_string(&page).unwrap();
    let document = parse_page(&html);
    let table = document
        .descendants()
        .find(|n| n.attribute("class") == Some("predicates"))
        .expect("a predicates table");
    let first_row: String = table
        .children()
        .filter(|n| n.is_element())
        .nth(1)
        .unwrap()
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    assert!(first_row.contains("src/lib.rs:12"), "{first_row}");
    assert!(first_row.contains(quote), "{first_row}");
    let root = document
        .descendants()
        .find(|n| n.attribute("class") == Some("split"))
        .expect("a tree");
    let root_text: String = root
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    assert!(
        root_text.starts_with(&format!("src/lib.rs:12 {quote}?")),
        "{root_text}"
    );
    // --explain lists them after the suspects.
    let output = autofix(dir.path(), &["--explain", "--refine", "predicates"]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    let after = text.split("\npredicates, by ochiai").nth(1).expect(&text);
    let first = after.lines().nth(1).unwrap();
    assert!(
        first.starts_with("1    1.0000  +0.667  1/0  src/lib.rs:12"),
        "{text}"
    );
    assert!(
        after.contains(&format!("\nsrc/lib.rs:12 {quote}? (1 failing, 2 passing)\n  yes: fail (1 failing, 0 passing)\n  no: pass (0 failing, 2 passing)\n")),
        "{text}"
    );
    // Without the refinement no event is recorded.
    let plain = rank_json(dir.path(), &["--refine", "none"]);
    assert_eq!(plain["predicates"], serde_json::json!([]));
    assert_eq!(plain["tree"], serde_json::Value::Null);
}

#[test]
fn value_predicates_see_a_negative_difference_and_probes_that_do_not_compile_go() {
    let dir = fixture("signs");
    let output = autofix(
        dir.path(),
        &["--rank-only", "--format", "json", "--refine", "predicates"],
    );
    assert_exit(&output, 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // `let parsed = "0".parse().unwrap();` has no type until the next line:
    // observing it does not compile, and only that probe goes.
    assert!(
        stderr(&output).contains("1 of 4 event probes do not compile where they are"),
        "{}",
        stderr(&output)
    );
    let described = |p: &serde_json::Value| p["description"].as_str().unwrap().to_string();
    let predicates = json["predicates"].as_array().unwrap();
    assert!(predicates.iter().all(|p| p["code"] != "parsed"), "{json:#}");
    // The two predicates only the failing test sees tie at the top.
    let top: Vec<String> = predicates
        .iter()
        .filter(|p| p["rank"] == 2)
        .map(described)
        .collect();
    assert_eq!(top.len(), 2, "{json:#}");
    assert!(top.contains(&"`d` < 0".to_string()), "{top:?}");
    assert!(
        top.contains(&"`distance` returns < 0".to_string()),
        "{top:?}"
    );
    for p in predicates.iter().filter(|p| p["rank"] == 2) {
        assert_eq!((&p["failed"], &p["passed"]), (&1.into(), &0.into()));
    }
    // `base` is always zero: seen by every test.
    let base = predicates.iter().find(|p| p["code"] == "base").unwrap();
    assert_eq!(described(base), "`base` == 0");
    assert_eq!((&base["failed"], &base["passed"]), (&1.into(), &2.into()));
    assert_eq!(json["tree"]["split"]["outcome"], "negative", "{json:#}");
    assert_eq!(json["tree"]["present"]["predicts"], "fail");
    // The event probes leave the line ranking as it was.
    let plain = rank_json(dir.path(), &["--refine", "none"]);
    assert_eq!(plain["ranking"], json["ranking"]);
}

#[test]
fn a_crash_in_the_crate_ranks_its_line_first_among_the_lines_it_ties_with() {
    let dir = fixture("crash_site");
    // The panicking line ties with the twenty lines the failing test ran
    // before it: by the spectrum alone it ranks last among them.
    let plain = rank_json(dir.path(), &["--refine", "none"]);
    let crash_line = entry(&plain, "src/lib.rs", 24);
    assert_eq!(crash_line["rank"], 21, "{plain:#}");
    assert_eq!(crash_line["crash"], false);
    assert_eq!(plain["groups"][0]["crash"], serde_json::Value::Null);

    let json = rank_json(dir.path(), &["--refine", "crash"]);
    let crash_line = entry(&json, "src/lib.rs", 24);
    assert_eq!(crash_line["rank"], 1, "{json:#}");
    assert_eq!(crash_line["crash"], true);
    assert_eq!(
        json["groups"][0]["crash"],
        serde_json::json!({"at": "src/lib.rs:24", "kind": "index"})
    );
    assert_matches_schema(&json, "src/render/schemas/ranking.schema.json");
    let text = stdout(&autofix(dir.path(), &["--rank-only", "--refine", "crash"]));
    let first = text.lines().nth(1).unwrap();
    assert!(
        first.contains("src/lib.rs:24") && first.contains("crash"),
        "{text}"
    );
}

#[test]
fn the_mutation_refinement_is_kept_until_a_file_the_lockfile_or_a_feature_changes() {
    let dir = fixture("middle");
    let cached = |json: &serde_json::Value| json["mutation"]["cached"].as_bool().unwrap();
    let first = rank_json(dir.path(), &[]);
    assert!(!cached(&first), "nothing is kept before the first run");
    let second = rank_json(dir.path(), &[]);
    assert!(
        cached(&second),
        "the same sources: the edits are not run again"
    );
    assert_eq!(second["ranking"], first["ranking"]);
    assert_eq!(second["mutation"]["edits"], first["mutation"]["edits"]);

    let lib = dir.path().join("src/lib.rs");
    let text = fs::read_to_string(&lib).unwrap();
    fs::write(&lib, format!("{text}// edited\n")).unwrap();
    assert!(!cached(&rank_json(dir.path(), &[])), "an edit");

    let lock = dir.path().join("Cargo.lock");
    assert!(!lock.exists());
    fs::write(&lock, "# This file is automatically @generated by Cargo.\nversion = 4\n\n[[package]]\nname = \"middle\"\nversion = \"0.1.0\"\n").unwrap();
    assert!(!cached(&rank_json(dir.path(), &[])), "a lockfile");
    assert!(
        !cached(&rank_json(dir.path(), &["--no-default-features"])),
        "other features"
    );
    assert!(
        cached(&rank_json(dir.path(), &[])),
        "back to the first features"
    );
}

#[test]
fn a_macro_whose_probes_break_a_trait_elsewhere_goes_before_any_file() {
    // `trait_items!` writes the items of a trait in another file; its
    // probes break that trait, and so every file naming its associated
    // type. Leaving out the macro's probes is enough: no file goes.
    let dir = fixture("macro_trait");
    assert_every_file_probed_and_first(&rank_json(dir.path(), &[]), "src/algo.rs", 9);
}

/// No file of the ranking `json` is left uninstrumented, and `file:line`
/// ranks first.
fn assert_every_file_probed_and_first(json: &serde_json::Value, file: &str, line: u64) {
    assert_eq!(
        json["uninstrumented"],
        serde_json::json!([]),
        "{:#}",
        json["uninstrumented"]
    );
    assert_eq!(json["ranking"][0]["file"], file, "{:#}", json["ranking"]);
    assert_eq!(json["ranking"][0]["line"], line, "{:#}", json["ranking"]);
}

#[test]
fn a_value_written_as_cfg_gated_blocks_keeps_its_file_probed() {
    // `is_digit` ends in two `#[cfg]` blocks, one of which is its value; a
    // probe before the second without its `cfg` made the function end in a
    // statement, and the whole file was left unprobed.
    let dir = fixture("cfg_tail");
    assert_every_file_probed_and_first(&rank_json(dir.path(), &[]), "src/lib.rs", 24);
    let with_table = rank_json(dir.path(), &["--features", "table"]);
    assert_every_file_probed_and_first(&with_table, "src/lib.rs", 24);
}
