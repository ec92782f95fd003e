//! Tests of the operators' edits on small sources, one behaviour each.

use std::collections::BTreeSet;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::binary::REPLACEMENTS;
use super::condition::conjunct;
use super::synthesis::mirrored;
use super::{Context, apply, edits};
use crate::code::source::splice;
use crate::code::{CrateSources, KeepConst};
use crate::mutation::MutationSpace;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{SiteKind, collect_mutation_space};
use crate::mutation::types::Types;

pub(super) fn sources(text: &str) -> CrateSources {
    CrateSources::of_one_file(text)
}

/// Every distinct text `operator` makes at the sites on `line`.
pub(super) fn outcomes(text: &str, operator: Operator, line: u32) -> BTreeSet<String> {
    outcomes_typed(text, operator, line, &Types::default())
}

pub(super) fn outcomes_typed(
    text: &str,
    operator: Operator,
    line: u32,
    types: &Types,
) -> BTreeSet<String> {
    outcomes_given(text, operator, line, types, |_| {})
}

/// [`outcomes_typed`] where the tests' runs tell the space what `given`
/// puts in it (the panics the failing tests expect, their words).
pub(super) fn outcomes_given(
    text: &str,
    operator: Operator,
    line: u32,
    types: &Types,
    given: impl FnOnce(&mut MutationSpace),
) -> BTreeSet<String> {
    let sources = sources(text);
    let mut space = collect_mutation_space(&sources, &KeepConst::Every, &Default::default());
    given(&mut space);
    let cx = Context {
        space: &space,
        text,
        types,
    };
    let mut out = BTreeSet::new();
    for site in space.sites.iter().filter(|s| s.line == line) {
        for edit in edits(operator, site, &cx) {
            out.insert(splice(text, &[edit]).unwrap());
        }
    }
    // A random edit is one of them.
    let mut rng = StdRng::seed_from_u64(7);
    for site in space.sites.iter().filter(|s| s.line == line) {
        if let Some(edit) = apply(operator, site, &cx, &mut rng) {
            assert!(out.contains(&splice(text, &[edit]).unwrap()));
        }
    }
    out
}

pub(super) fn line(text: &str, number: usize) -> &str {
    text.lines().nth(number - 1).unwrap().trim()
}

const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    }\n    z\n}\n";

#[test]
fn identifier_mutation_uses_variables_in_scope() {
    let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Identifier, 6)
        .iter()
        .map(|t| line(t, 6).to_string())
        .collect();
    assert_eq!(
        lines,
        BTreeSet::from(["return x;".to_string(), "return z;".into()])
    );
}

#[test]
fn operator_replacement_stays_in_its_class() {
    let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Binary, 3)
        .iter()
        .map(|t| line(t, 3).to_string())
        .collect();
    let expected = [
        "if x <= y {",
        "if x > y {",
        "if x >= y {",
        "if x == y {",
        "if x != y {",
    ];
    assert_eq!(lines, expected.iter().map(|s| s.to_string()).collect());
    // Every operator has its class, and the likeliest slip comes first.
    for class in [
        &["<", "<=", ">", ">=", "==", "!="][..],
        &["+", "-", "*", "/", "%"],
        &["+=", "-=", "*=", "/=", "%="],
    ] {
        for own in class {
            let (_, others) = REPLACEMENTS.iter().find(|(o, _)| o == own).unwrap();
            let mut all: Vec<&str> = others.iter().chain([own]).copied().collect();
            all.sort();
            let mut expected = class.to_vec();
            expected.sort();
            assert_eq!(all, expected, "{own}");
        }
    }
    let first = |text: &str, at: usize| {
        ordered(
            text,
            Operator::Binary,
            |s| matches!(&s.kind, SiteKind::BinaryOperator { range, .. } if range.start == at),
        )[0]
        .clone()
    };
    assert_eq!(
        first("fn f(n: u8) -> bool {\n    n % 2 == 0\n}\n", 32),
        "!="
    );
    assert_eq!(first("fn f(n: u8) -> bool {\n    n % 2 < 1\n}\n", 32), "<=");
}

#[test]
fn condition_mutation_sets_negates_and_combines() {
    let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Condition, 3)
        .iter()
        .map(|t| line(t, 3).to_string())
        .collect();
    assert!(lines.contains("if !(x < y) {"), "{lines:?}");
    assert!(lines.contains("if y < z {"), "{lines:?}");
    assert!(lines.contains("if x < z && x < y {"), "{lines:?}");
    assert!(lines.contains("if y < z || x < y {"), "{lines:?}");
}

#[test]
fn only_a_disjunction_gets_parentheses_in_a_conjunction() {
    assert_eq!(conjunct("a || b", false), "(a || b)");
    assert_eq!(conjunct("a && b", false), "a && b");
    assert_eq!(
        conjunct("v.iter().any(|x| x || y)", true),
        "v.iter().any(|x| x || y)"
    );
    assert_eq!(conjunct("f(a || b) && c", false), "f(a || b) && c");
    assert_eq!(conjunct("x < y", false), "x < y");
}

#[test]
fn negating_a_negation_takes_the_not_away() {
    let text = "fn f(v: &[u8], a: bool, b: bool) -> bool {\n    if !v.is_empty() {\n        return true;\n    }\n    while !(a && b) {}\n    false\n}\n";
    for (number, negation) in [(2, "if v.is_empty() {"), (5, "while a && b {}")] {
        let lines: BTreeSet<String> = outcomes(text, Operator::Condition, number)
            .iter()
            .map(|t| line(t, number as usize).to_string())
            .collect();
        assert!(lines.contains(negation), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains("!(!")), "{lines:?}");
    }
}

#[test]
fn statement_delete_removes_the_line_or_keeps_one_branch() {
    let deleted = outcomes(MIDDLE, Operator::Delete, 6);
    assert!(
        deleted.contains(&MIDDLE.replace(
            "            return y;\n        }\n    }",
            "        }\n    }"
        )),
        "{deleted:?}"
    );
    let unwrapped = outcomes(MIDDLE, Operator::Delete, 2);
    let kept_then = MIDDLE.replace(
        "    if y < z {\n        if x < y {",
        "    {\n        if x < y {",
    );
    assert!(unwrapped.contains(&kept_then), "{unwrapped:?}");
}

#[test]
fn a_field_becomes_a_sibling_of_the_same_type() {
    // A tuple struct's fields by their index too (ansi_term's `self.0`
    // for `self.1`).
    for (fields, read, sibling) in [
        ("{ start: u32, end: u32, name: String }", "a.start", "a.end"),
        ("(u32, String, u32);", "a.0", "a.2"),
    ] {
        let text = format!("struct Span {fields}\nfn f(a: &Span) -> u32 {{\n    {read}\n}}\n");
        let lines: BTreeSet<String> = outcomes(&text, Operator::Identifier, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        assert_eq!(lines, BTreeSet::from([sibling.to_string()]));
    }
}

#[test]
fn a_field_and_a_variable_of_its_name_stand_for_each_other() {
    let text = "struct Date { year: i32, month: i32 }\nimpl Date {\n    fn next(&self, months: i32) -> i32 {\n        let year = self.month + months;\n        self.year * 12 + year\n    }\n}\n";
    let lines: BTreeSet<String> = outcomes(text, Operator::Identifier, 5)
        .iter()
        .map(|t| line(t, 5).to_string())
        .collect();
    assert!(lines.contains("year * 12 + year"), "{lines:?}");
    assert!(lines.contains("self.year * 12 + self.year"), "{lines:?}");
    assert!(lines.contains("self.month * 12 + year"), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.contains("self.months")),
        "{lines:?}"
    );
}

#[test]
fn synthesis_compares_with_the_files_constants() {
    let text = "const MAX: u32 = 3999;\nfn f(value: u32) -> bool {\n    if value == 0 {\n        return false;\n    }\n    true\n}\n";
    let mut types = Types::default();
    types.set_variable(
        crate::code::source::Location::new(crate::code::source::FileId::new(0), 3),
        "value",
        "u32",
    );
    let lines: BTreeSet<String> = outcomes_typed(text, Operator::Synthesis, 3, &types)
        .iter()
        .map(|t| line(t, 3).to_string())
        .collect();
    assert!(
        lines.contains("if value == 0 || value > MAX {"),
        "{lines:?}"
    );
}

#[test]
fn synthesis_offers_only_constants_in_scope() {
    // `SECONDS` is `max::SECONDS` here: not offered bare; `LIMIT` is.
    let text = "mod max {\n    pub const SECONDS: u64 = 99;\n}\nconst LIMIT: u64 = 31;\nfn f(day: u64, a: u64) -> bool {\n    if day > 28 {\n        return false;\n    }\n    true\n}\n";
    let mut types = Types::default();
    let here = crate::code::source::Location::new(crate::code::source::FileId::new(0), 6);
    for name in ["day", "a"] {
        types.set_variable(here, name, "u64");
    }
    let lines: BTreeSet<String> = outcomes_typed(text, Operator::Synthesis, 6, &types)
        .iter()
        .map(|t| line(t, 6).to_string())
        .collect();
    assert!(!lines.iter().any(|l| l.contains("SECONDS")), "{lines:?}");
    assert!(lines.contains("if day > 28 || day < LIMIT {"), "{lines:?}");
    assert!(lines.contains("if day > 28 || day == 0 {"), "{lines:?}");
    assert!(lines.contains("if day > 28 || a < LIMIT {"), "{lines:?}");
}

#[test]
fn an_item_becomes_a_sibling_item_of_its_type() {
    let text = "const LOWER: &[u8; 2] = b\"ab\";\nconst UPPER: &[u8; 2] = b\"AB\";\nstatic mut MIXED: &[u8; 2] = b\"aB\";\nconst N: usize = 2;\nfn f(i: usize) -> u8 {\n    UPPER[i % N]\n}\n";
    let lines: BTreeSet<String> = outcomes(text, Operator::Identifier, 6)
        .iter()
        .map(|t| line(t, 6).to_string())
        .collect();
    // `N` has no sibling of its type; `i` none in scope; a `static mut`
    // would need `unsafe`.
    assert_eq!(lines, BTreeSet::from(["LOWER[i % N]".to_string()]));
}

#[test]
fn a_function_called_by_path_becomes_its_sibling() {
    let text = "use std::cmp;\nfn f(a: usize, b: usize) -> usize {\n    cmp::max(a, b) + g(a) + cmp::max(b.pow(2), 1)\n}\nfn g(a: usize) -> usize {\n    vec![a].insert(0, a);\n    a\n}\n";
    let lines: BTreeSet<String> = outcomes(text, Operator::Method, 3)
        .iter()
        .map(|t| line(t, 3).to_string())
        .collect();
    // No method of the crate takes a function's place (`insert`, with
    // two arguments like `cmp::max`), and `g` has no sibling.
    assert_eq!(
        lines,
        BTreeSet::from([
            "cmp::min(a, b) + g(a) + cmp::max(b.pow(2), 1)".to_string(),
            "cmp::max(a, b) + g(a) + cmp::min(b.pow(2), 1)".to_string(),
        ])
    );
}

#[test]
fn a_constructor_becomes_another_of_its_type() {
    let text = "pub struct Fold<S>(S, bool);\nimpl<S> Fold<S> {\n    pub fn new(s: S) -> Fold<S> {\n        Fold(s, true)\n    }\n    pub fn unicode(s: S) -> Fold<S> {\n        Fold(s, false)\n    }\n    pub fn pair(s: S, b: bool) -> Fold<S> {\n        Fold(s, b)\n    }\n    pub fn inner(s: S) -> S {\n        s\n    }\n    pub fn get(self) -> S {\n        Self::inner(self.0)\n    }\n}\npub fn from(s: &str) -> Fold<&str> {\n    Fold::unicode(s)\n}\n";
    let at = |line_number: u32| -> BTreeSet<String> {
        outcomes(text, Operator::Method, line_number)
            .iter()
            .map(|t| line(t, line_number as usize).to_string())
            .collect()
    };
    // Same type, as many arguments, the same return type: not `pair` (two
    // arguments), not `inner` (returns `S`), not `get` (a method).
    assert_eq!(at(20), BTreeSet::from(["Fold::new(s)".to_string()]));
    // `Self::inner` has no other function of its type returning `S`.
    assert_eq!(at(16), BTreeSet::new());
}

#[test]
fn a_compound_assignments_value_is_offset() {
    let text = "fn f(days: &[u32]) -> u32 {\n    let mut total = 0;\n    for day in days {\n        total += day;\n    }\n    total\n}\n";
    let mut types = Types::default();
    let here = crate::code::source::Location::new(crate::code::source::FileId::new(0), 4);
    types.set_variable(here, "day", "&u32");
    let operand = 90..93;
    assert_eq!(&text[operand.clone()], "day");
    types.set_expression(crate::code::source::FileId::new(0), &operand, "u32");
    let lines: BTreeSet<String> = outcomes_typed(text, Operator::Offset, 4, &types)
        .iter()
        .map(|t| line(t, 4).to_string())
        .collect();
    assert_eq!(
        lines,
        BTreeSet::from(["total += day - 1;".to_string(), "total += day + 1;".into()])
    );
}

#[test]
fn synthesis_mirrors_a_comparison_of_two_values_fields() {
    let text = "struct Span { start: u32, end: u32 }\nfn overlaps(a: &Span, b: &Span) -> bool {\n    a.start < b.end\n}\n";
    let made = outcomes(text, Operator::Synthesis, 3);
    let conjunct = "struct Span { start: u32, end: u32 }\nfn overlaps(a: &Span, b: &Span) -> bool {\n    a.start < b.end && b.start < a.end\n}\n";
    assert!(made.contains(conjunct), "{made:?}");
    assert_eq!(
        mirrored("a.start < b.end || (x.f >= y.g)"),
        ["y.f >= x.g", "b.start < a.end"]
    );
    assert!(mirrored("a.start < a.end").is_empty() && mirrored("a.x < b.x").is_empty());
}

#[test]
fn a_comparison_method_swaps_its_receiver_and_argument() {
    let text = "fn f(a: &(u8, u8), b: &(u8, u8)) -> bool {\n    b.0.cmp(&a.0).is_lt() && a.1.max(b.1) > 2 && (a.0 + 1).lt(&(b.0 * 2))\n}\n";
    let made = outcomes(text, Operator::Arguments, 2);
    let line = |made: &str| made.lines().nth(1).unwrap().trim().to_string();
    let lines: BTreeSet<String> = made.iter().map(|m| line(m)).collect();
    assert!(
        lines.contains("a.0.cmp(&b.0).is_lt() && a.1.max(b.1) > 2 && (a.0 + 1).lt(&(b.0 * 2))"),
        "{lines:?}"
    );
    assert!(
        lines.contains("b.0.cmp(&a.0).is_lt() && a.1.max(b.1) > 2 && (b.0 * 2).lt(&(a.0 + 1))"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("b.1.max(a.1)")),
        "max is commutative"
    );
}

#[test]
fn a_collection_is_reversed_through_its_iterator() {
    let text = "fn f(v: &[u8], n: usize) {
for x in v {}
for i in 0..n {}
for c in v.iter() {}
}
";
    let reversed: BTreeSet<String> = [2, 3, 4]
        .into_iter()
        .flat_map(|n| {
            outcomes(text, Operator::Idiom, n)
                .into_iter()
                .map(move |t| line(&t, n as usize).to_string())
        })
        .collect();
    assert!(
        reversed.contains("for x in v.iter().rev() {}"),
        "{reversed:?}"
    );
    assert!(
        reversed.contains("for i in (0..n).rev() {}"),
        "{reversed:?}"
    );
    assert!(
        reversed.contains("for c in v.iter().rev() {}"),
        "{reversed:?}"
    );
}

#[test]
fn value_method_and_range_mutations() {
    let text = "fn f(v: &[u32]) -> u32 {\n    let mut m = 0;\n    for i in 1..v.len() {\n        m = m.max(v[i] + 2);\n    }\n    m\n}\n";
    let values: BTreeSet<String> = outcomes(text, Operator::Value, 4)
        .iter()
        .map(|t| line(t, 4).to_string())
        .collect();
    assert_eq!(
        values,
        BTreeSet::from([
            "m = m.max(v[i] + 0);".into(),
            "m = m.max(v[i] + 1);".into(),
            "m = m.max(v[i] + 3);".to_string()
        ])
    );
    let methods: BTreeSet<String> = outcomes(text, Operator::Method, 4)
        .iter()
        .map(|t| line(t, 4).to_string())
        .collect();
    assert!(methods.contains("m = m.min(v[i] + 2);"), "{methods:?}");
    let ranges: BTreeSet<String> = outcomes(text, Operator::Range, 3)
        .iter()
        .map(|t| line(t, 3).to_string())
        .collect();
    assert_eq!(
        ranges,
        BTreeSet::from(["for i in 1..=v.len() {".to_string()])
    );
}

#[test]
fn operator_names_parse() {
    for operator in Operator::all() {
        assert_eq!(operator.name().parse::<Operator>(), Ok(operator));
    }
    assert!("nope".parse::<Operator>().is_err());
}

#[test]
fn the_registry_holds_each_operator_once_by_a_name_of_its_own() {
    let all = Operator::all();
    assert!(all.windows(2).all(|w| w[0] < w[1]), "{all:?}");
    assert!(!all.contains(&Operator::Given));
    assert_eq!(Operator::in_sweep_order().count(), all.len());
    let names: BTreeSet<&str> = all.iter().map(|o| o.name()).chain(["given"]).collect();
    assert_eq!(names.len(), all.len() + 1);
    assert_eq!(Operator::Given.to_string(), "given");
}

/// The lines `operator` makes of `number` in `text`, in the order it
/// makes them (sites in the order collected), without types.
pub(super) fn lines_in_order(text: &str, operator: Operator, number: u32) -> Vec<String> {
    let sources = sources(text);
    let space = collect_mutation_space(&sources, &KeepConst::Every, &Default::default());
    let types = Types::default();
    let cx = Context {
        space: &space,
        text,
        types: &types,
    };
    space
        .sites
        .iter()
        .filter(|s| s.line == number)
        .flat_map(|site| edits(operator, site, &cx))
        .map(|edit| line(&splice(text, &[edit]).unwrap(), number as usize).to_string())
        .collect()
}

/// The texts `operator` makes at the first site of `text` that `pick`
/// picks, in the order it makes them.
fn ordered(
    text: &str,
    operator: Operator,
    pick: impl Fn(&crate::mutation::sites::Site) -> bool,
) -> Vec<String> {
    let sources = sources(text);
    let space = collect_mutation_space(&sources, &KeepConst::Every, &Default::default());
    let cx = Context {
        space: &space,
        text,
        types: &Types::default(),
    };
    let site = space.sites.iter().find(|s| pick(s)).unwrap();
    edits(operator, site, &cx)
        .into_iter()
        .map(|e| e.text)
        .collect()
}

/// The lines `operator` makes of `number` in `text`.
pub(super) fn lines_made(text: &str, operator: Operator, number: u32) -> BTreeSet<String> {
    outcomes(text, operator, number)
        .iter()
        .map(|t| line(t, number as usize).to_string())
        .collect()
}

#[test]
fn overflow_makes_arithmetic_checked_with_the_functions_own_error() {
    let text = "pub fn decode(digits: &[u32]) -> Result<u32, Error> {\n    let mut i: u32 = 0;\n    for d in digits {\n        if *d > 9 {\n            return Err(Error::Digit);\n        }\n        i += d * 10;\n    }\n    Ok(i)\n}\n";
    let made = lines_made(text, Operator::Overflow, 7);
    for expected in [
        "i = i.saturating_add(d * 10);",
        "i = i.checked_add(d * 10).ok_or(Error::Digit)?;",
        "i = i.checked_add(d * 10).unwrap_or(0);",
        "i = i.wrapping_add(d * 10);",
        "i += d.saturating_mul(10);",
        "i += d.checked_mul(10).ok_or(Error::Digit)?;",
    ] {
        assert!(made.contains(expected), "{expected} not in {made:?}");
    }
    // A shift has no saturating form; an `Option` function leaves by `?`.
    let shift =
        "pub fn mask(m: u32, n: u32) -> Option<u32> {\n    let x = m << n;\n    Some(x)\n}\n";
    let mut types = Types::default();
    types.set_variable(
        crate::code::source::Location::new(crate::code::source::FileId::new(0), 2),
        "n",
        "u32",
    );
    assert_eq!(
        outcomes_typed(shift, Operator::Overflow, 2, &types)
            .iter()
            .map(|t| line(t, 2).to_string())
            .collect::<BTreeSet<_>>(),
        BTreeSet::from([
            "let x = m.checked_shl(n)?;".to_string(),
            "let x = m.checked_shl(n).unwrap_or(0);".into(),
            "let x = m.wrapping_shl(n);".into(),
        ])
    );
    // A shift right likewise, by an amount of another type converted.
    let right = "pub fn fits(v: u64, w: usize) -> bool {\n    if v >> w != 0 {\n        return false;\n    }\n    true\n}\n";
    let mut types = Types::default();
    let at = crate::code::source::Location::new(crate::code::source::FileId::new(0), 2);
    types.set_variable(at, "w", "usize");
    let made = outcomes_typed(right, Operator::Overflow, 2, &types);
    let made: Vec<&str> = made.iter().map(|t| line(t, 2)).collect();
    assert!(
        made.contains(&"if v.checked_shr(w as u32).unwrap_or(0) != 0 {"),
        "{made:?}"
    );
    assert!(made.iter().all(|m| !m.contains("saturating")), "{made:?}");
    // Parentheses of its own go, a call's stay.
    let wrapped = "pub fn full(m: u32, n: u32) -> bool {\n    if (m << n) == 0 {\n        return f(m + n);\n    }\n    false\n}\nfn f(x: u32) -> bool {\n    x > 0\n}\n";
    assert!(
        lines_made(wrapped, Operator::Overflow, 2)
            .contains("if m.checked_shl(n).unwrap_or(0) == 0 {")
    );
    assert!(lines_made(wrapped, Operator::Overflow, 3).contains("return f(m.wrapping_add(n));"));
    // Not where the compiler says the values are not integers.
    let mut types = Types::default();
    let floats = "pub fn f(a: f64, b: f64) -> f64 {\n    a + b\n}\n";
    let at = floats.find("a + b").unwrap();
    types.set_expression(crate::code::source::FileId::new(0), &(at..at + 5), "f64");
    assert!(outcomes_typed(floats, Operator::Overflow, 2, &types).is_empty());
}

#[test]
fn insert_tries_statements_on_the_sites_variables_first() {
    let text = "pub fn f(mut s: Scanner, mut n: u32) -> u32 {\n    s.start();\n    n += 1;\n    n *= 2;\n    s.step();\n    n\n}\npub fn g(mut s: Scanner) {\n    s.skip_spaces();\n}\n";
    let made = ordered(text, Operator::Insert, |s| {
        s.line == 5 && matches!(s.kind, SiteKind::Statement(_))
    });
    let at = |code: &str| made.iter().position(|m| m.contains(code));
    // `s.skip_spaces();` is four lines away, `n *= 2;` one: the one on
    // `s`, which `s.step();` uses, comes first.
    assert!(
        at("s.skip_spaces();").unwrap() < at("n *= 2;").unwrap(),
        "{made:?}"
    );
}

#[test]
fn overflow_makes_an_accumulation_safe_in_every_step() {
    let text = "pub fn parse(digits: &[u8]) -> u64 {\n    let mut n: u64 = 0;\n    for d in digits {\n        n *= 10;\n        n += *d as u64;\n    }\n    n\n}\n";
    let both = "        n = n.saturating_mul(10);\n        n = n.saturating_add(*d as u64);";
    for line in [4, 5] {
        let made = outcomes(text, Operator::Overflow, line);
        assert!(
            made.iter().any(|t| t.contains(both)),
            "line {line}: {made:?}"
        );
        assert!(
            made.iter().all(|t| t.matches("wrapping_").count() != 1),
            "one step alone is not offered: {made:?}"
        );
    }
    // A statement of its own is made safe alone.
    let alone = "pub fn f(mut n: u64, d: u64) -> u64 {\n    n *= 10;\n\n    n += d;\n    n\n}\n";
    assert!(lines_made(alone, Operator::Overflow, 4).contains("n = n.saturating_add(d);"));
}

#[test]
fn bounds_reads_an_element_that_may_be_missing() {
    let text =
        "pub fn at(v: &[u8], i: usize) -> Option<u8> {\n    let x = v[i] + 1;\n    Some(x)\n}\n";
    assert_eq!(
        lines_made(text, Operator::Bounds, 2),
        BTreeSet::from([
            "let x = v.get(i).copied().unwrap_or_default() + 1;".to_string(),
            "let x = *v.get(i)? + 1;".into(),
        ])
    );
    // A slice is not an element.
    let slice = "pub fn head(v: &[u8], n: usize) -> &[u8] {\n    &v[..n]\n}\n";
    assert!(outcomes(slice, Operator::Bounds, 2).is_empty());
}

#[test]
fn a_jump_becomes_another_and_a_return_of_the_functions_values() {
    let text = "pub fn find(v: &[u8]) -> Option<usize> {\n    for (i, b) in v.iter().enumerate() {\n        if *b == 0 {\n            break;\n        }\n        if *b == 1 {\n            return Some(i);\n        }\n    }\n    None\n}\n";
    assert_eq!(
        lines_made(text, Operator::Jump, 4),
        BTreeSet::from([
            "return Some(i);".to_string(),
            "return None;".into(),
            "continue;".into(),
        ])
    );
    assert_eq!(
        lines_made(text, Operator::Jump, 7),
        BTreeSet::from(["break;".to_string(), "continue;".into()])
    );
}

#[test]
fn a_guard_returns_what_its_function_returns_elsewhere() {
    let text = "pub fn first(v: &[u8]) -> Result<u8, Error> {\n    if v.len() > 9 {\n        return Err(Error::Long);\n    }\n    Ok(v[0])\n}\n";
    let made = outcomes(text, Operator::Guard, 5);
    assert!(
        made.iter()
            .any(|t| line(t, 5).ends_with("{ return Err(Error::Long); }")),
        "{made:?}"
    );
}

#[test]
fn a_member_becomes_another_of_its_owner_and_type() {
    let text = "pub struct Class {\n    negated: bool,\n    open: bool,\n    items: Vec<u8>,\n}\n\nimpl Class {\n    pub fn is_negated(&self) -> bool {\n        self.negated\n    }\n    pub fn is_empty(&self) -> bool {\n        self.items.is_empty()\n    }\n    pub fn len(&self) -> usize {\n        self.items.len()\n    }\n}\n\npub fn describe(c: &Class) -> bool {\n    c.negated\n}\n\npub fn nothing(c: &Class) -> bool {\n    c.is_empty()\n}\n\npub fn effect(c: &Class) -> bool {\n    c.is_empty();\n    let e = c.is_empty();\n    e\n}\n";
    // The field becomes the method that holds its name first, then the
    // other `bool` method; never `len()`.
    assert_eq!(
        lines_in_order(text, Operator::Member, 20),
        ["c.is_negated()", "c.is_empty()"]
    );
    // A method becomes a method or a field of its owner of its type.
    assert_eq!(
        lines_made(text, Operator::Member, 24),
        BTreeSet::from([
            "c.is_negated()".to_string(),
            "c.negated".into(),
            "c.open".into(),
        ])
    );
    // Not where the call is a statement of its own: a field or a getter
    // there only drops its effect (`delete`'s edit); where its value is
    // used, it is replaced as anywhere.
    assert!(lines_made(text, Operator::Member, 28).is_empty());
    assert!(lines_made(text, Operator::Member, 29).contains("let e = c.negated;"));
}

#[test]
fn a_call_made_for_its_effect_is_not_made_a_read() {
    let text = "pub struct Stack {\n    items: Vec<u8>,\n}\nimpl Stack {\n    pub fn pop(&mut self) -> Option<u8> { self.items.pop() }\n    pub fn peek(&self) -> Option<u8> { self.items.last().copied() }\n    pub fn clear(&mut self) -> Option<u8> { self.items.clear(); None }\n}\npub fn run(s: &mut Stack) -> Option<u8> {\n    s.pop();\n    s.clear();\n    s.peek()\n}\n";
    // A statement of its own: another call with an effect, not `peek`.
    assert_eq!(
        lines_made(text, Operator::Method, 10),
        BTreeSet::from(["s.clear();".to_string()])
    );
    // A value: any of them.
    assert_eq!(
        lines_made(text, Operator::Method, 12),
        BTreeSet::from(["s.pop()".to_string(), "s.clear()".into()])
    );
}

#[test]
fn both_ends_of_a_range_check_move_together() {
    let text = "pub fn outside(y: u32) -> bool {\n    if y > 2050 || y <= 1950 {\n        return true;\n    }\n    false\n}\n";
    assert_eq!(
        lines_made(text, Operator::Ends, 2),
        BTreeSet::from(["if y >= 2050 || y < 1950 {".to_string()])
    );
    let three = "pub fn f(a: u32, b: u32) -> bool {\n    a < 3 && b >= 4 && a > b\n}\n";
    assert_eq!(
        lines_made(three, Operator::Ends, 2),
        BTreeSet::from([
            "a <= 3 && b > 4 && a >= b".to_string(),
            "a <= 3 && b > 4 && a > b".into(),
            "a <= 3 && b >= 4 && a >= b".into(),
            "a < 3 && b > 4 && a >= b".into(),
        ])
    );
    // One comparison is the binary operator's.
    assert!(outcomes(MIDDLE, Operator::Ends, 3).is_empty());
}

#[test]
fn conditions_are_made_of_selfs_fields_too() {
    let text = "pub struct Cursor {\n    offset: usize,\n    done: bool,\n}\n\nimpl Cursor {\n    pub fn back(&mut self, start: usize) -> Result<usize, ()> {\n        self.offset -= 1;\n        Ok(self.offset)\n    }\n}\n";
    let mut types = Types::default();
    let at = crate::code::source::Location::new(crate::code::source::FileId::new(0), 8);
    types.set_variable(at, "start", "usize");
    let made: BTreeSet<String> = outcomes_typed(text, Operator::Guard, 8, &types)
        .iter()
        .map(|t| line(t, 8).to_string())
        .collect();
    for expected in [
        "if self.offset == start { return Ok(self.offset); }",
        "if self.offset == 0 { return Ok(self.offset); }",
        "if self.done { return Ok(self.offset); }",
    ] {
        assert!(made.contains(expected), "{expected} not in {made:?}");
    }
}

#[test]
fn a_guard_tries_the_condition_tested_nearest_first() {
    let text = "pub fn f(v: &[u8], k: usize) -> Option<u8> {\n    if v.len() > k + 9 {\n        return None;\n    }\n    let x = v[k];\n    if v.len() - k == 2 {\n        return Some(0);\n    }\n    Some(x)\n}\n";
    let made = lines_in_order(text, Operator::Guard, 5);
    // First the condition under which `v[k]` panics; then the nearer check
    // (a line away) before the farther one (three away).
    let first = "if k >= v.len() { return Some(0); }";
    let nearer = "if v.len() - k == 2 { return Some(0); }";
    assert_eq!([&made[0], &made[2]], [first, nearer], "{made:?}");
    assert!(
        made[..6].contains(&"if v.len() > k + 9 { return None; }".to_string()),
        "{made:?}"
    );
}

#[test]
fn twin_copies_a_sibling_arms_guard_renaming_its_binding() {
    let text = "fn f(s: &S) -> u8 {\n    match s {\n        S::A(v) => {\n            if v.is_empty() {\n                return 0;\n            }\n            v[0]\n        }\n        S::B(w) => {\n            w[0]\n        }\n        S::C => {\n            1\n        }\n    }\n}\n";
    let made = outcomes(text, Operator::Twin, 10);
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(
        made.iter().next().unwrap().contains(
            "S::B(w) => {\n            if w.is_empty() {\n                return 0;\n            }\n            w[0]"
        ),
        "{made:?}"
    );
    // An arm that binds nothing gets none; nor does the arm that has it.
    assert!(outcomes(text, Operator::Twin, 13).is_empty());
    assert!(outcomes(text, Operator::Twin, 4).is_empty());
}

#[test]
fn twin_inserts_what_follows_the_same_statement_in_a_clone() {
    let text = "fn a(v: &mut Vec<u8>) -> Option<u8> {\n    let last = v.pop().unwrap_or_default();\n    if last == 0 {\n        return None;\n    }\n    Some(last)\n}\nfn b(v: &mut Vec<u8>) -> Option<u8> {\n    let last = v.pop().unwrap_or_default();\n    Some(last * 2)\n}\n";
    let made = outcomes(text, Operator::Twin, 9);
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(
        made.iter().next().unwrap().contains(
            "    let last = v.pop().unwrap_or_default();\n    if last == 0 {\n        return None;\n    }\n    Some(last * 2)"
        ),
        "{made:?}"
    );
    // Where it follows already, nothing.
    assert!(outcomes(text, Operator::Twin, 2).is_empty());
}

#[test]
fn twin_inserts_what_leads_a_statement_of_the_same_shape_renamed() {
    let text = "fn a(s: &mut Scanner) -> usize {\n    let mut ix = 0;\n    s.skip_spaces();\n    ix += s.bytes_scanned();\n    ix\n}\nfn b(t: &mut Scanner) -> usize {\n    let mut count = 1;\n    count += t.bytes_scanned();\n    count\n}\n";
    let made = outcomes(text, Operator::Twin, 9);
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(
        made.iter().next().unwrap().contains(
            "    let mut count = 1;\n    t.skip_spaces();\n    count += t.bytes_scanned();"
        ),
        "{made:?}"
    );
    // Where it leads already, nothing (nor a `let` that leads elsewhere).
    assert!(outcomes(text, Operator::Twin, 4).is_empty());
}

#[test]
fn term_adds_a_same_typed_variable_in_scope_to_an_integer() {
    let text = "fn scan(n: usize) -> usize {\n    n\n}\nfn close(line: &str, indent: usize, width: u32) -> usize {\n    let end = scan(4) + line.len();\n    end\n}\n";
    let mut types = Types::default();
    let here = crate::code::source::Location::new(crate::code::source::FileId::new(0), 5);
    types.set_variable(here, "indent", "usize");
    types.set_variable(here, "width", "u32");
    types.set_variable(here, "line", "&str");
    let start = text.find("scan(4) +").unwrap();
    let operand = start..start + "scan(4) + line.len()".len();
    types.set_expression(crate::code::source::FileId::new(0), &operand, "usize");
    let lines: BTreeSet<String> = outcomes_typed(text, Operator::Term, 5, &types)
        .iter()
        .map(|t| line(t, 5).to_string())
        .collect();
    // The literal takes any settled integer (`4 - width` does not compile
    // where `scan` wants a `usize`: the build drops it); the `usize` value
    // only a `usize`, added without parentheses around the sum; a `&str`
    // never.
    assert_eq!(
        lines,
        BTreeSet::from([
            "let end = scan(4 - indent) + line.len();".to_string(),
            "let end = scan(4 + indent) + line.len();".into(),
            "let end = scan(4 - width) + line.len();".into(),
            "let end = scan(4 + width) + line.len();".into(),
            "let end = scan(4) + line.len() - indent;".into(),
            "let end = scan(4) + line.len() + indent;".into(),
        ])
    );
    // Without known types, nothing but the literal's own.
    assert!(outcomes(text, Operator::Term, 5).is_empty());
}
