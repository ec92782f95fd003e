//! End-to-end tests of the sweep and its operators: each fixture's bug is
//! one that a single operator fixes in one edit (the others cannot), found
//! by the sweep (no generation of the genetic search), applied with `git
//! apply` to a pristine copy and tested with `cargo test`.

// Tests drive processes and print as they like: the invariants in
// clippy.toml are the product's.
#![allow(clippy::disallowed_methods, clippy::print_stderr)]

mod common;

use common::*;

/// Repairs `fixture` and checks that the sweep found a one-edit patch by
/// `operator` that turns `removed` into `added`.
fn fixed_by(fixture: &str, operator: &str, removed: &str, added: &str) -> serde_json::Value {
    fixed_changing(fixture, operator, &[removed, added])
}

/// Repairs `fixture` and checks that the sweep found a one-edit patch by
/// `operator` whose changed lines are `changed` (`-` and `+` lines).
fn fixed_changing(fixture: &str, operator: &str, changed: &[&str]) -> serde_json::Value {
    let (diff, report) = assert_repaired(fixture, &[]);
    assert_eq!(changed_lines(&diff), changed, "{diff}");
    assert_eq!(report["edits"][0]["operator"], operator, "{report:#}");
    assert_eq!(report["generations"], 0, "the sweep found it: {report:#}");
    assert!(report["swept_edits"].as_u64().unwrap() >= 1);
    assert_eq!(
        report["stages"][0]["alternatives"][0]["edits"],
        report["edits"]
    );
    report
}

#[test]
fn arguments_swaps_the_arguments_of_a_call() {
    fixed_by(
        "swapped_arguments",
        "arguments",
        "-    percent(total, done)",
        "+    percent(done, total)",
    );
}

#[test]
fn offset_takes_one_from_an_index() {
    fixed_by(
        "offset_index",
        "offset",
        "-    Some(values[index])",
        "+    Some(values[index - 1])",
    );
}

#[test]
fn offset_adds_one_to_a_branch_value() {
    fixed_by(
        "offset_branch",
        "offset",
        "-        full",
        "+        full + 1",
    );
}

#[test]
fn synthesis_adds_the_missing_conjunct() {
    fixed_by(
        "missing_conjunct",
        "synthesis",
        "-    if points >= 50 {",
        "+    if points >= 50 && attempts > 0 {",
    );
}

#[test]
fn guard_returns_early() {
    let (diff, report) = assert_repaired("missing_guard", &[]);
    assert_eq!(report["edits"][0]["operator"], "guard");
    let added: Vec<&str> = changed_lines(&diff);
    assert_eq!(added.len(), 1, "{diff}");
    // The condition is one the tests pin down: nothing, or a zero total.
    assert!(
        [
            "+    if values.is_empty() { return 0; }",
            "+    if total == 0 { return 0; }"
        ]
        .contains(&added[0]),
        "{diff}"
    );
}

/// The function's own error (from its `.ok_or(E)?`) where the sum
/// overflows (no other operator fixes it).
#[test]
fn overflow_checks_a_sum_with_the_functions_error() {
    let report = fixed_by(
        "overflowing_digits",
        "overflow",
        "-        value += digit;",
        "+        value = value.checked_add(digit).ok_or(ParseError::TooLarge)?;",
    );
    // At the line that overflowed, the overflow-safe form reads as usual
    // as a one-token slip.
    assert_eq!(
        report["stages"][0]["alternatives"][0]["unnatural"], 0,
        "{report:#}"
    );
}

/// No other operator fixes it.
#[test]
fn bounds_reads_a_missing_element_as_zero() {
    fixed_by(
        "letter_weights",
        "bounds",
        "-        total += weights[letter];",
        "+        total += weights.get(letter).copied().unwrap_or_default();",
    );
}

/// A guard before the `break` (`if b == 0xFF { return None; }`) passes
/// too, but new statements are swept after the expressions' edits, and the
/// one-word change reads as the more natural fix.
#[test]
fn jump_turns_a_break_into_a_return() {
    fixed_by(
        "early_stop",
        "jump",
        "-            break;",
        "+            return None;",
    );
}

/// The error is not a literal of the function's type: it is the one the
/// function returns elsewhere (no other operator fixes it).
#[test]
fn guard_returns_the_functions_own_error() {
    fixed_changing(
        "uneven_split",
        "guard",
        &["+    if parts == 0 { return Err(SplitError::Uneven); }"],
    );
}

/// One test checks both ends: no single comparison fixes it (without
/// `ends`, the genetic search finds `> 2049 || < 1950`, two edits).
#[test]
fn ends_moves_both_ends_of_a_range_check() {
    fixed_by(
        "range_ends",
        "ends",
        "-    if year > 2050 || year <= 1950 {",
        "+    if year >= 2050 || year < 1950 {",
    );
}

#[test]
fn idiom_reverses_a_loop() {
    fixed_by(
        "reversed",
        "idiom",
        "-    for v in values.iter() {",
        "+    for v in values.iter().rev() {",
    );
}

#[test]
fn adapted_renames_the_variables_of_a_twin_statement() {
    let (diff, report) = assert_repaired("missing_twin", &[]);
    assert_eq!(changed_lines(&diff), ["+        count += 1;"], "{diff}");
    assert_eq!(report["edits"][0]["operator"], "adapted");
}

/// With the compiler's types, renamed ingredients mostly compile: what
/// goes in is of the type the place needs.
#[test]
fn typed_ingredients_mostly_compile() {
    let (_, report) = assert_repaired("missing_twin", &["--operators", "adapted,swap,insert"]);
    for operator in ["adapted", "swap", "insert"] {
        let counts = &report["operators"][operator];
        let (tried, compiled) = (
            counts["tried"].as_u64().unwrap(),
            counts["compiled"].as_u64().unwrap(),
        );
        assert!(tried >= 5, "{operator}: {counts}");
        assert!(
            compiled * 10 >= tried * 8,
            "{operator}: {compiled} of {tried} compiled"
        );
    }
}

#[test]
fn a_wrong_number_in_a_const_table_is_ranked_and_fixed() {
    let dir = fixture("const_table");
    let ranking = rank_json(dir.path(), &[]);
    let table = entry(&ranking, "src/lib.rs", 2);
    assert!(table["failed"].as_u64().unwrap() >= 1, "{table}");
    // The line that reads the table is in the failing tests' slice, so the
    // table is too.
    assert_eq!(table["in_slice"], true, "{table}");
    let shown = autofix(dir.path(), &["--rank-only"]);
    assert!(stdout(&shown).contains("(lines 2-5)"), "{}", stdout(&shown));
    fixed_by(
        "const_table",
        "value",
        "-    31, 28, 31, 31, 31, 30, //",
        "+    31, 28, 31, 30, 31, 30, //",
    );
}

/// 720 for 270 is no number off by one: `value` offers a table's numbers
/// the slips of the keys (two digits swapped, here).
#[test]
fn a_slip_of_the_keys_in_a_const_table_is_fixed() {
    fixed_by(
        "postage",
        "value",
        "-const RATES: [(u32, u32); 4] = [(20, 85), (100, 145), (250, 720), (1000, 510)];",
        "+const RATES: [(u32, u32); 4] = [(20, 85), (100, 145), (250, 270), (1000, 510)];",
    );
}

/// `x > 9` (from the crate's literals) passes every test too, and it is the
/// smaller edit, but it sends `tens(95)` down the other branch: the patch
/// chosen keeps what the passing tests execute.
#[test]
fn the_plausible_patch_that_keeps_the_passing_tests_behaviour_wins() {
    let alternatives = threshold_fixed_changing_nothing("two_plausible");
    let disturbing = alternatives
        .iter()
        .find(|a| a["edits"][0]["replacement"] == "9")
        .unwrap_or_else(|| panic!("x > 9 is plausible: {alternatives:#?}"));
    assert!(
        disturbing["behaviour_change"].as_u64().unwrap() > 0,
        "{disturbing}"
    );
}

/// `whatever_the_input` reaches the slip and runs other lines each run, as
/// a randomized test does: the runs of the original before the choice
/// find it unsteady, so the right patch is measured as changing nothing
/// (counting it, its own variation would be counted as the patch's).
#[test]
fn a_test_that_runs_other_lines_each_run_is_left_out_of_the_behaviour() {
    threshold_fixed_changing_nothing("unsteady_test");
}

/// Repairs `fixture` (`two_plausible`'s slip), checks that the patch is the
/// threshold's and that the passing tests run what they ran; the
/// alternatives.
fn threshold_fixed_changing_nothing(fixture: &str) -> Vec<serde_json::Value> {
    let (diff, report) = assert_repaired(fixture, &[]);
    let changed = changed_lines(&diff);
    assert!(
        changed == ["-    if x > 100 {", "+    if x > 99 {"]
            || changed == ["-    if x > 100 {", "+    if x >= 100 {"],
        "{diff}"
    );
    let alternatives = report["stages"][0]["alternatives"].as_array().unwrap();
    assert_eq!(alternatives[0]["behaviour_change"], 0, "{alternatives:#?}");
    alternatives.clone()
}

/// `self.height * self.width / 2` and `self.width * self.height / 2` both
/// pass every test, alike in kind, size and what the passing tests
/// execute; the crate writes `width * height` everywhere else, so the
/// token model finds the second more usual, though it is made second.
#[test]
fn of_two_patches_alike_the_one_that_reads_like_the_crate_wins() {
    let (diff, report) = assert_repaired("usual_form", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-        self.width * self.width / 2",
            "+        self.width * self.height / 2"
        ],
        "{diff}"
    );
    // The two: `height` for the second operand (chosen), then for the first.
    let alternatives = report["stages"][0]["alternatives"].as_array().unwrap();
    assert_eq!(alternatives.len(), 2, "{alternatives:#?}");
    let (chosen, other) = (&alternatives[0], &alternatives[1]);
    for measure in ["unnatural", "growth", "passing_reach"] {
        assert_eq!(
            chosen[measure], other[measure],
            "{measure}: {alternatives:#?}"
        );
    }
    // The chosen one changes nothing the passing tests run; the other
    // reads less usual, so not even that could put it first: its build
    // is saved.
    assert_eq!(chosen["behaviour_change"], 0, "{alternatives:#?}");
    assert!(other["behaviour_change"].is_null(), "{alternatives:#?}");
    assert!(
        chosen["surprise"].as_i64().unwrap() + 8 <= other["surprise"].as_i64().unwrap(),
        "{alternatives:#?}"
    );
}

#[test]
fn the_sweep_gives_the_same_patch_with_any_seed() {
    let (_, first) = repair("offset_index", &["-q"]);
    let (_, second) = repair("offset_index", &["-q", "--seed", "7"]);
    assert_eq!(first["outcome"], "fixed");
    assert_eq!(first["seed"], 0);
    assert_eq!(second["seed"], 7);
    assert_eq!(first["patch"], second["patch"]);
    assert_eq!(first["swept_edits"], second["swept_edits"]);
    assert_eq!(first["operators"], second["operators"]);
}

#[test]
fn synthesis_completes_a_symmetric_relation_in_a_returned_value() {
    fixed_by(
        "clashes",
        "synthesis",
        "-        self.from < other.until",
        "+        self.from < other.until && other.from < self.until",
    );
}

#[test]
fn synthesis_bounds_an_integer_nothing_else_constrains() {
    // `count` is an `i32` only for want of a constraint: the bound makes
    // it a `usize`, and the named constant is chosen over its value.
    fixed_by(
        "log_repeats",
        "synthesis",
        "-        if current == Some(line) {",
        "+        if current == Some(line) && count < MAX_REPEATS {",
    );
}

#[test]
fn insert_puts_an_accumulator_back_as_it_started() {
    // `total = 0;` is written nowhere in the crate: it is `let mut total =
    // 0;` made a reset.
    fixed_changing("group_totals", "insert", &["+            total = 0;"]);
}

#[test]
fn insert_sorts_a_copy_the_compiler_says_is_never_mutated() {
    fixed_changing("median", "insert", &["+    sorted.sort();"]);
}

#[test]
fn adapted_renames_a_twin_to_the_variables_the_compiler_says_are_unused() {
    // The twin `keys.push(key.trim().to_string());` is in scope as it is:
    // only the warnings (`value` unused, `values` needlessly `mut`) say
    // what to rename it to.
    fixed_changing(
        "unzip_pairs",
        "adapted",
        &["+        values.push(value.trim().to_string());"],
    );
}

#[test]
fn adapted_puts_an_unused_binding_in_a_twins_operand_first_in_its_block() {
    // `if let Some(name) = target {}` never uses `name`; the twin
    // `self.values.insert("last".to_string(), value);` has an operand of its
    // type, and the block is empty: the statement goes first in it.
    fixed_changing(
        "unused_binding",
        "adapted",
        &["+            self.values.insert(name, value);"],
    );
}

#[test]
fn arguments_swaps_a_comparison_methods_receiver_and_argument() {
    fixed_by(
        "ranking",
        "arguments",
        "-    players.sort_by(|a, b| a.score.cmp(&b.score).then(a.name.cmp(&b.name)));",
        "+    players.sort_by(|a, b| b.score.cmp(&a.score).then(a.name.cmp(&b.name)));",
    );
}

/// `bits.rem_euclid(64) > 0` to `>= 0` passes every test too, and reads as
/// the more natural slip (an operator before an offset), but the compiler
/// warns that the comparison is useless on a `usize`: the first plausible
/// patch that adds no warning is printed, the real fix.
#[test]
fn a_patch_that_adds_a_warning_gives_way_to_one_that_adds_none() {
    let (diff, report) = assert_repaired("useless_comparison", &[]);
    assert_eq!(
        changed_lines(&diff),
        [
            "-        let words = words_for(max);",
            "+        let words = words_for(max + 1);"
        ],
        "{diff}"
    );
    let stage = &report["stages"][0];
    let first = &stage["alternatives"][0]["edits"][0];
    assert_eq!(first["replacement"], ">=", "{report:#}");
    assert_ne!(stage["alternatives"][0]["edits"], report["edits"]);
    // The patch printed is one of the runners-up, with the warned one
    // among its alternatives (the other lines that pass too).
    assert_eq!(report["confidence"]["level"], "plausible", "{report:#}");
}

#[test]
fn variant_adds_the_variant_a_pattern_forgot() {
    fixed_by(
        "forgotten_variant",
        "variant",
        "-        matches!(*self, Block::Heading(..) | Block::Quote | Block::Code)",
        "+        matches!(*self, Block::Heading(..) | Block::Quote | Block::Code | Block::Rule)",
    );
}

/// Two single edits pass every test: `| Card::King` in `is_face`, which
/// passing tests run, and `_ => 0` to `_ => 10` in `points`, which only
/// the failing test runs. Neither changes what the passing tests execute;
/// the one they reach, and so check, is chosen.
#[test]
fn of_two_quiet_patches_the_one_passing_tests_reach_wins() {
    let report = fixed_by(
        "face_cards",
        "variant",
        "-        matches!(self, Card::Jack | Card::Queen)",
        "+        matches!(self, Card::Jack | Card::Queen | Card::King)",
    );
    let others = &report["stages"][0]["alternatives"];
    let unreached = others
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["edits"][0]["replacement"] == "10")
        .unwrap_or_else(|| panic!("{others:#}"));
    assert_eq!(unreached["passing_reach"], 0, "{unreached:#}");
}

#[test]
fn twin_puts_the_guard_a_sibling_arm_has_first_in_the_arm_that_lacks_it() {
    // The Unicode arm returns `[a&&b]` for an empty class; the Bytes arm
    // does not. `twin` alone (on real crates the statement operators that
    // could write the same come too late in the sweep) copies the guard.
    let (diff, report) = assert_repaired("twin_guard", &["--operators", "twin"]);
    assert_eq!(
        changed_lines(&diff),
        [
            "+            if ranges.is_empty() {",
            "+                return \"[a&&b]\".to_string();",
            "+            }",
        ],
        "{diff}"
    );
    assert!(
        diff.contains("         Class::Bytes(ranges) => {\n+            if ranges.is_empty() {"),
        "{diff}"
    );
    assert_eq!(report["edits"][0]["operator"], "twin", "{report:#}");
}

#[test]
fn twin_puts_before_a_statement_what_leads_one_of_its_shape_renamed() {
    // `key_start` steps over spaces before `start += cursor.consumed_len();`;
    // `section_start` lacks that step before `offset += ..`, a statement of
    // the same shape. With every operator, `twin` copies it there.
    let (diff, report) = assert_repaired("twin_leader", &[]);
    assert_eq!(
        changed_lines(&diff),
        ["+    cursor.skip_spaces();"],
        "{diff}"
    );
    assert!(
        diff.contains("+    cursor.skip_spaces();\n     offset += cursor.consumed_len();"),
        "{diff}"
    );
    assert_eq!(report["edits"][0]["operator"], "twin", "{report:#}");
}

#[test]
fn value_moves_a_bound_of_a_range_pattern_in_a_const_fn() {
    // `is_path_byte` is a `const fn` only run-time code calls: woven
    // builds drop its `const` (and `is_valid_path`'s) to dispatch, and the
    // patch leaves it `const`.
    let report = fixed_by(
        "const_fn",
        "value",
        "-        0x7F..=0xFF => true,",
        "+        0x80..=0xFF => true,",
    );
    let evaluation = &report["evaluation"];
    assert!(evaluation["woven"].as_u64().unwrap() > 0, "{evaluation:#}");
}

#[test]
fn term_measures_from_the_blocks_indentation() {
    // `spaces >= 4` ignores the list item's `indent`: no literal, no
    // operator and no condition of the crate passes every test; only the
    // term the measure forgot does.
    fixed_by(
        "forgotten_term",
        "term",
        "-    if spaces >= 4 {",
        "+    if spaces >= 4 + indent {",
    );
}

/// The text output lists the other plausible patches, each once, with
/// the measure that put it after the one printed.
#[test]
fn the_alternatives_are_listed_with_why_they_came_after() {
    let (output, report) = repair("two_plausible", &[]);
    let text = stderr(&output);
    let listed: Vec<&str> = text.lines().filter(|l| l.contains("Also passes")).collect();
    assert!(!listed.is_empty() && listed.len() <= 3, "{text}");
    let patches: std::collections::BTreeSet<&str> = listed
        .iter()
        .map(|l| l.split(';').next().unwrap())
        .collect();
    assert_eq!(patches.len(), listed.len(), "each patch once: {text}");
    let disturbing = listed
        .iter()
        .find(|l| l.contains("`9`"))
        .unwrap_or_else(|| panic!("x > 9 is listed: {text}"));
    assert!(
        disturbing.contains("after it: the passing tests that reach it execute"),
        "{disturbing}"
    );
    assert_eq!(report["outcome"], "fixed");
}
