//! End-to-end tests of the ranking's refinements on the fixtures: failure
//! groups, slices, the mutation refinement, predicate switching, the
//! predicates and their tree, `--explain`, crash sites, and the probes that
//! make them (macros, `cfg`s, files left unprobed).

// Tests and the benchmark drive processes and print as they like: the
// invariants in clippy.toml are the product's.
#![allow(clippy::disallowed_methods, clippy::print_stderr)]

mod common;

use std::fs;

use common::*;

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
    let entries = json["ranking"].as_array().unwrap();
    let class = |e: &serde_json::Value| e["mutation"]["class"].as_str().map(str::to_string);
    // The top ten lines of code carry evidence, and the table ranked
    // among them (in the slice of the lines that read it) too.
    let tried: Vec<&serde_json::Value> = entries.iter().filter(|e| class(e).is_some()).collect();
    let tables = tried
        .iter()
        .filter(|e| e["code"].as_str().unwrap().starts_with("const "))
        .count();
    assert_eq!(
        (tried.len() - tables, tables),
        (10, 1),
        "the top ten lines and the table carry evidence: {json:#}"
    );
    // Lines with a fix first, clean before noisy; then the rest, where of
    // equal scores an untried line comes before one whose edits changed
    // nothing, and that before one whose edits only broke.
    let order = [
        Some("clean-fix"),
        Some("noisy-fix"),
        None,
        Some("no-change"),
        Some("breaks-only"),
    ];
    let place = |e: &serde_json::Value| {
        let class = class(e);
        order
            .iter()
            .position(|c| c.map(str::to_string) == class)
            .unwrap()
    };
    let fixes = entries.iter().take_while(|e| place(e) < 2).count();
    assert!(
        fixes > 0 && entries[fixes..].iter().all(|e| place(e) >= 2),
        "{json:#}"
    );
    assert!(entries[..fixes].iter().map(place).is_sorted(), "{json:#}");
    for pair in entries[fixes..].windows(2) {
        let marks = |e: &serde_json::Value| {
            (
                e["score"].clone(),
                e["in_slice"].clone(),
                e["crash"].clone(),
            )
        };
        if marks(&pair[0]) == marks(&pair[1]) {
            assert!(place(&pair[0]) <= place(&pair[1]), "{json:#}");
        }
    }
    assert!(entries.iter().any(|e| place(e) == 4), "{json:#}");
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
fn a_crash_in_the_standard_library_is_the_crates_at_the_line_that_called_it() {
    // `BTreeSet::range` panics in the standard library; the backtrace
    // names `days_from`, the trace its last line run: the `let picked`.
    let dir = fixture("crash_in_std");
    let json = rank_json(dir.path(), &["--refine", "crash"]);
    assert_eq!(
        json["groups"][0]["crash"],
        serde_json::json!({"at": "src/lib.rs:9", "kind": "panic"}),
        "{json:#}"
    );
    assert_eq!(json["groups"][0]["signature"], "panic at src/lib.rs:9");
    assert_eq!(entry(&json, "src/lib.rs", 9)["crash"], true);
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

#[test]
fn a_const_fn_only_run_time_code_calls_is_probed_and_its_fault_ranked() {
    // `is_path_byte` is a `const fn` (as parsers are written now) that
    // only run-time code calls: it loses its `const` in the instrumented
    // copy and is probed, while `max_len`, which a `const` item calls,
    // keeps it. Unprobed, its lines were not ranked at all.
    let dir = fixture("const_fn");
    let json = rank_json(dir.path(), &[]);
    assert_every_file_probed_and_first(&json, "src/lib.rs", 16);
    assert!(
        json["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["line"] != 8),
        "max_len keeps its const and is not probed: {:#}",
        json["ranking"]
    );
}

#[test]
fn a_const_context_a_macro_writes_keeps_every_const_fn_const() {
    // `limit!` writes a `const` item that calls `doubled`, where no syntax
    // tree shows it: the build with `doubled` made a plain function fails
    // (`cannot call non-const`), and every const fn keeps its `const`.
    let dir = fixture("const_macro");
    let output = autofix(dir.path(), &["--rank-only", "-v", "--test-timeout", "20"]);
    assert_exit(&output, 0);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("const fns: a const context calls one, so all keep their `const`"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("src/lib.rs:19"), "{stdout}");
}
