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
        message.contains("several packages (alpha, beta)")
            && message.contains("-p NAME, or --workspace"),
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
fn members_the_package_depends_on_are_ranked_with_it() {
    let dir = fixture("members");
    let before = snapshot(dir.path());
    let output = autofix(
        dir.path(),
        &["--rank-only", "--format", "json", "-p", "app"],
    );
    assert_exit(&output, 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["package"], "app");
    assert_eq!(json["linked"], serde_json::json!(["calendar", "report"]));
    // The fault is in `calendar`; only `app`'s tests ran, and fail.
    let first = &json["ranking"][0];
    assert_eq!(
        (&first["file"], &first["line"], &first["package"]),
        (
            &serde_json::json!("calendar/src/lib.rs"),
            &serde_json::json!(5),
            &serde_json::json!("calendar")
        ),
        "{json:#}"
    );
    assert_eq!(json["tests"]["failed"], 3);
    assert_eq!(
        json["tests"]["passed"], 3,
        "the members' own tests do not run"
    );
    let in_report = entry(&json, "report/src/lib.rs", 5);
    assert_eq!(in_report["package"], "report");
    assert_eq!(entry(&json, "app/src/lib.rs", 15)["package"], "app");
    assert!(
        stderr(&output).contains(
            "the most suspicious line, calendar/src/lib.rs:5, is in `calendar`, a workspace member `app` depends on"
        ),
        "{}",
        stderr(&output)
    );
    assert_matches_schema(&json, "src/render/schemas/ranking.schema.json");

    // A failing test's trace runs through all three crates, in order: the
    // slice of `app`'s assertion reaches the faulty line in `calendar`.
    let output = autofix(dir.path(), &["--explain", "-p", "app"]);
    assert_exit(&output, 0);
    let listing = stdout(&output);
    let line = listing
        .lines()
        .find(|l| l.contains("calendar/src/lib.rs:12"))
        .unwrap_or_else(|| panic!("{listing}"));
    assert!(line.contains("arguments (app/src/lib.rs:5)"), "{line}");

    // With --workspace, every member's tests run: `calendar`'s and
    // `report`'s pass, and sharpen the ranking of `calendar`'s lines.
    let json = rank_json(dir.path(), &["--workspace"]);
    assert_eq!(json["package"], "calendar");
    assert_eq!(json["linked"], serde_json::json!(["report", "app"]));
    assert_eq!(json["tests"]["passed"], 6);
    assert_eq!(
        json["tests"]["failing"],
        serde_json::json!([
            "app/tests::a_century_february",
            "app/years/the_year_nineteen_hundred",
            "app/years/the_year_two_thousand"
        ])
    );
    let faulty = entry(&json, "calendar/src/lib.rs", 5);
    assert_eq!(
        (&faulty["failed"], &faulty["passed"]),
        (&serde_json::json!(3), &serde_json::json!(6))
    );
    assert!(faulty["rank"].as_u64().unwrap() <= 2, "{json:#}");
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn optimize_dependencies_builds_what_is_outside_the_workspace_optimized() {
    // `cube` is a path dependency outside `volume`'s workspace: a
    // dependency, built at opt-level 1; `volume`, a member, is not.
    let dir = fixture("pathdep");
    let volume = dir.path().join("volume");
    let plain = autofix(&volume, &["--rank-only", "--format", "json"]);
    assert_exit(&plain, 0);
    let output = autofix(
        &volume,
        &[
            "--rank-only",
            "--format",
            "json",
            "--optimize-dependencies",
            "-vv",
        ],
    );
    assert_exit(&output, 0);
    let text = stderr(&output);
    assert!(
        text.contains("--config profile.dev.package.\"*\".opt-level=1"),
        "{text}"
    );
    assert!(
        text.contains("Optimized dependencies at opt-level 1: built in"),
        "{text}"
    );
    let ranked = |output: &std::process::Output| {
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        json["ranking"].as_array().unwrap().clone()
    };
    assert_eq!(ranked(&output), ranked(&plain), "the same ranking");
    assert!(!stderr(&plain).contains("Optimized"));
    // Cargo built `cube` again, differently (its profile is part of the
    // artifact's hash); `volume`'s own profile did not change.
    let deps = volume.join("target/autofix/main/debug/deps");
    let count = |prefix: &str| {
        std::fs::read_dir(&deps)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with(prefix) && name.ends_with(".rlib")
            })
            .count()
    };
    assert_eq!(count("libcube-"), 2, "{}", deps.display());
}

#[test]
fn path_dependency_outside_the_workspace_still_builds() {
    let dir = fixture("pathdep");
    let before = snapshot(dir.path());
    let output = autofix(
        &dir.path().join("app"),
        &["--rank-only", "--format", "json"],
    );
    assert_exit(&output, 0);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
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
    assert!(!stderr(&output).contains("a dependency outside the workspace"));

    // When the lines of the top score all call into such a dependency,
    // a note names it.
    let output = autofix(&dir.path().join("volume"), &["--rank-only"]);
    assert_exit(&output, 0);
    assert!(
        stderr(&output).contains(
            "the most suspicious lines all call into `cube`, a dependency outside the workspace"
        ),
        "{}",
        stderr(&output)
    );
    assert!(!stdout(&output).contains("cube/src"), "{}", stdout(&output));
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
fn an_item_syn_cannot_parse_is_left_out_with_a_warning() {
    let dir = fixture("unparsable");
    let output = autofix(dir.path(), &["--rank-only"]);
    assert_exit(&output, 0);
    assert!(
        stderr(&output).contains("warning: src/nightly.rs:3: syn cannot parse this item ("),
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

/// A second run on the same files and settings reads what the first
/// measured (the tests' coverage, switching, the mutation refinement);
/// an edit, a lockfile change, a feature change or `--no-cache` measures
/// again, and so does an edit made through a linked `src/`.
#[test]
fn a_rerun_reads_what_the_first_measured_until_an_input_changes() {
    let dir = fixture("features");
    let root = dir.path();
    let generated = std::process::Command::new("cargo")
        .arg("generate-lockfile")
        .current_dir(root)
        .status()
        .unwrap();
    assert!(generated.success());
    let cached = |extra: &[&str]| {
        let mut args = vec!["-q"];
        args.extend_from_slice(extra);
        let json = rank_json(root, &args);
        assert_eq!(json["ranking"][0]["line"], 7, "{extra:?}");
        let tests = json["tests"]["cached"].as_bool().unwrap();
        let mutants = json["mutation"]["cached"].as_bool().unwrap();
        assert_eq!(tests, mutants, "{extra:?}: kept together");
        tests
    };
    let cube = ["--features", "cube"];
    assert!(!cached(&cube), "the first run measures");
    assert!(cached(&cube), "the same run again reads it back");
    assert!(!cached(&["--features", "cube", "--no-cache"]));
    assert!(!cached(&["--all-features"]), "another feature set");
    assert!(cached(&cube), "the first set's results are still kept");

    let lockfile = root.join("Cargo.lock");
    let mut locked = fs::read_to_string(&lockfile).unwrap();
    locked.push_str("# changed\n");
    fs::write(&lockfile, &locked).unwrap();
    assert!(!cached(&cube), "a lockfile change");

    let lib = root.join("src/lib.rs");
    let mut code = fs::read_to_string(&lib).unwrap();
    code.push_str("// edited\n");
    fs::write(&lib, &code).unwrap();
    assert!(!cached(&cube), "an edit");
    assert!(cached(&cube));

    // `src/` a link to a directory elsewhere: an edit there is an edit.
    let elsewhere = tempfile::tempdir().unwrap();
    fs::rename(root.join("src"), elsewhere.path().join("src")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path().join("src"), root.join("src")).unwrap();
    assert!(cached(&cube), "the same files through a link");
    code.push_str("// edited again\n");
    fs::write(elsewhere.path().join("src/lib.rs"), &code).unwrap();
    assert!(!cached(&cube), "an edit through the link");
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

/// A `harness = false` target written with libtest-mimic (one name to run
/// at most, names padded, an ignored test) has its tests run and told
/// apart; one that does not speak libtest's protocol runs whole, as one
/// test.
#[test]
fn a_libtest_mimic_harness_is_run_test_by_test() {
    let dir = fixture("custom_harness");
    let output = autofix(dir.path(), &["--rank-only", "-v"]);
    assert_exit(&output, 0);
    let summary = stderr(&output);
    assert!(
        summary.contains("4 passed, 1 failed, 1 ignored (3 test executables)"),
        "{summary}"
    );
    assert!(
        summary.contains("FAILED cases/doubles_three: double(3) gave 9, not 6"),
        "{summary}"
    );
    let table = stdout(&output);
    assert!(
        table
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("src/lib.rs:3")),
        "{table}"
    );
}
