//! The collection of sites and ingredients, through `collect_mutation_space`
//! and `constants`.

use std::collections::BTreeSet;

use super::{
    Constant, Exclusions, Literal, MutationSpace, SiteKind, collect_mutation_space, constants,
};
use crate::code::{CrateSources, KeepConst};

fn space(text: &str) -> MutationSpace {
    let sources = CrateSources::of_one_file(text);
    collect_mutation_space(&sources, &KeepConst::Every, &Exclusions::default())
}

#[test]
fn constants_are_read_by_paths_and_by_macro_calls_format_strings_included() {
    let text = "const MAX: u32 = 3999;\nconst WIDTH: usize = 4;\nconst UNREAD: u8 = 1;\nfn f(n: u32) -> String {\n    if n > MAX {\n        return String::new();\n    }\n    assert!(n < crate::MAX);\n    println!(\"{WIDTH:?}\");\n    format!(\"{n:>WIDTH$} of {MAX}\")\n}\n";
    let sources = CrateSources::of_one_file(text);
    let lines = |constants: &[Constant], name: &str| -> Vec<u32> {
        let constant = constants.iter().find(|c| c.name == name).unwrap();
        constant.read_at.iter().map(|l| l.line).collect()
    };
    let from_space =
        collect_mutation_space(&sources, &KeepConst::Every, &Exclusions::default()).constants;
    for constants in [constants(&sources), from_space] {
        assert_eq!(lines(&constants, "MAX"), [5, 8, 10]);
        assert_eq!(lines(&constants, "WIDTH"), [9, 10]);
        assert!(lines(&constants, "UNREAD").is_empty());
    }
}

#[test]
fn macro_bodies_have_sites_within_their_repetitions_and_give_no_fragment_ingredients() {
    let text = "macro_rules! sum {\n    ($($x:expr),*) => {{\n        let mut s = 0;\n        $( s += $x; )*\n        s + 1\n    }};\n}\n";
    let space = space(text);
    let operators: Vec<(u32, &str)> = space
        .sites
        .iter()
        .filter_map(|s| match &s.kind {
            SiteKind::BinaryOperator {
                range, expression, ..
            } => Some((s.line, &text[range.clone()]))
                .filter(|_| !text[expression.clone()].is_empty()),
            _ => None,
        })
        .collect();
    assert_eq!(operators, [(4, "+="), (5, "+")]);
    assert!(space.sites.iter().all(|s| s.function == "sum"));
    let statements: Vec<&str> = space
        .sites
        .iter()
        .filter_map(|s| match &s.kind {
            SiteKind::Statement(st) => Some(&text[st.range.clone()]),
            _ => None,
        })
        .collect();
    assert!(statements.contains(&"s += $x;"), "{statements:?}");
    assert!(
        space.statements.iter().all(|i| !i.text.contains('$')),
        "{:?}",
        space.statements
    );
    assert!(space.statements.iter().any(|i| i.text == "let mut s = 0;"));
}

#[test]
fn a_mutable_variable_can_be_put_back_as_it_started() {
    let text = "fn f(s: &str, k: usize) -> Vec<String> {\n    let mut out = Vec::new();\n    let mut word: String = s.repeat(k);\n    for c in s.chars() {\n        word.push(c);\n        out.push(word.clone());\n    }\n    out\n}\n";
    let space = space(text);
    let reset = space
        .statements
        .iter()
        .find(|i| i.text == "word = s.repeat(k);")
        .expect("the reset of word");
    assert_eq!(
        reset.free,
        BTreeSet::from(["k".to_string(), "s".to_string(), "word".to_string()])
    );
    assert_eq!(
        reset.renamed(&[("word", "w"), ("s", "t")]),
        "w = t.repeat(k);"
    );
    assert!(reset.unit && !reset.inert && reset.binds.is_empty());
    assert!(
        space
            .statements
            .iter()
            .any(|i| i.text == "out = Vec::new();")
    );
}

#[test]
fn comparisons_used_as_values_are_conditions_once() {
    let text = "fn f(v: &[u32], n: u32) -> bool {\n    let big = v.iter().any(|&x| x > n && x != 0);\n    if let Some(&x) = v.first() && x > 1 {\n        return x < n;\n    }\n    if big || n == 0 {\n        return true;\n    }\n    v.len() > 2\n}\n";
    let space = space(text);
    let conditions: Vec<(u32, &str)> = space
        .sites
        .iter()
        .filter_map(|s| match &s.kind {
            SiteKind::Condition { range, .. } => Some((s.line, &text[range.clone()])),
            _ => None,
        })
        .collect();
    assert_eq!(
        conditions,
        [
            (2, "x > n && x != 0"),
            (3, "x > 1"),
            (4, "x < n"),
            (6, "big || n == 0"),
            (9, "v.len() > 2"),
        ]
    );
}

#[test]
fn collects_sites_with_locations_and_scopes() {
    let text = "fn f(x: u32, y: u32) -> u32 {\n    let z = x + 1;\n    if z < y {\n        return y;\n    }\n    z\n}\n";
    let space = space(text);
    let kinds: Vec<(u32, &str)> = space
        .sites
        .iter()
        .map(|s| {
            let kind = match &s.kind {
                SiteKind::Statement(_) => "statement",
                SiteKind::Condition { .. } => "condition",
                SiteKind::BinaryOperator { .. } => "operator",
                SiteKind::Literal { .. } => "literal",
                SiteKind::Variable { .. } => "variable",
                SiteKind::Item { .. } => "item",
                SiteKind::Field { .. } => "field",
                SiteKind::Method { .. } => "method",
                SiteKind::RangeLimits { .. } => "range",
                SiteKind::Negation { .. } => "negation",
                SiteKind::Grouping { .. } => "grouping",
                SiteKind::Unguarded { .. } => "unguarded",
                SiteKind::Call { .. } => "call",
                SiteKind::Operand { .. } => "operand",
                SiteKind::Unwrap { .. } => "unwrap",
                SiteKind::Iterable { .. } => "iterable",
                SiteKind::BlockStart { .. } => "block",
                SiteKind::Index { .. } => "index",
                SiteKind::Pattern { .. } => "pattern",
                SiteKind::Arm { .. } => "arm",
                SiteKind::Alternatives { .. } => "alternatives",
                SiteKind::Prior { .. } => "prior",
                SiteKind::UnitVariant { .. } => "variant",
            };
            (s.line, kind)
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (2, "statement"),
            (2, "operand"),
            (2, "operator"),
            (2, "variable"),
            (2, "literal"),
            (3, "block"),
            (3, "statement"),
            (3, "condition"),
            (3, "operator"),
            (3, "operand"),
            (3, "operand"),
            (3, "variable"),
            (3, "variable"),
            (4, "statement"),
            (4, "operand"),
            (4, "variable"),
            (6, "statement"),
            (6, "operand"),
            (6, "variable"),
        ]
    );
    let return_site = &space.sites[13];
    assert_eq!(return_site.bound, ["x", "y", "z"]);
    let SiteKind::Statement(statement) = &return_site.kind else {
        panic!()
    };
    assert!(statement.jumps);
    assert_eq!(
        &text[statement.whole_lines.clone().unwrap()],
        "        return y;\n"
    );
    let SiteKind::Statement(tail) = &space.sites[16].kind else {
        panic!()
    };
    assert!(tail.tail);
}

#[test]
fn ingredients_are_statements_headers_conditions_and_literals() {
    let text = "fn f(a: i32, s: &str) -> bool {\n    let n = a * 2;\n    if n > 3 && !s.is_empty() {\n        return true;\n    }\n    for c in s.chars() {\n        c.len_utf8();\n    }\n    false\n}\n";
    let space = space(text);
    let statements: Vec<(&str, bool)> = space
        .statements
        .iter()
        .map(|i| (i.text.as_str(), i.header))
        .collect();
    assert!(statements.contains(&("let n = a * 2;", false)));
    assert!(!statements.contains(&("n = a * 2;", false)), "not mutable");
    assert!(statements.contains(&("if n > 3 && !s.is_empty()", true)));
    assert!(statements.contains(&("for c in s.chars()", true)));
    assert!(statements.contains(&("false", false)));
    let let_n = space
        .statements
        .iter()
        .find(|i| i.text == "let n = a * 2;")
        .unwrap();
    assert_eq!(let_n.free, BTreeSet::from(["a".to_string()]));
    let conditions: Vec<&str> = space.conditions.iter().map(|i| i.text.as_str()).collect();
    assert_eq!(
        conditions,
        [
            "n > 3 && !s.is_empty()",
            "n > 3",
            "!s.is_empty()",
            "s.is_empty()"
        ]
    );
    assert!(space.literals.contains(&Literal::Int {
        value: 3,
        suffix: String::new(),
        radix: 10,
        upper: false,
    }));
    let on_s: Vec<&String> = space.called_on("s", 0).collect();
    assert!(on_s.contains(&&"chars".to_string()) && on_s.contains(&&"is_empty".to_string()));
}

#[test]
fn excluded_functions_give_ingredients_but_no_sites() {
    let text = "fn keep(a: u8) -> u8 {\n    a + 1\n}\nfn skip(b: u8) -> u8 {\n    b * 2\n}\n";
    let sources = CrateSources::of_one_file(text);
    let space = collect_mutation_space(
        &sources,
        &KeepConst::Every,
        &Exclusions {
            patterns: vec!["skip".into()],
        },
    );
    assert!(space.sites.iter().all(|s| s.line == 2));
    assert!(space.statements.iter().any(|i| i.text == "b * 2"));
}

#[test]
fn callees_are_not_variables() {
    let space = space("fn f(g: fn() -> u8) -> u8 {\n    g()\n}\n");
    assert!(
        !space
            .sites
            .iter()
            .any(|s| matches!(s.kind, SiteKind::Variable { .. }))
    );
}

#[test]
fn the_literals_a_match_pattern_matches_are_literal_sites() {
    let text = "fn class(b: u8) -> u8 {\n    match b {\n        45 | 0x30..=0x39 => 1,\n        0x7F..=0xFF => {\n            let high = 2;\n            high\n        }\n        _ => 0,\n    }\n}\nfn dash(b: u8) -> bool {\n    matches!(b, 45)\n}\n";
    let space = space(text);
    let literals: Vec<(u32, &str)> = space
        .sites
        .iter()
        .filter_map(|s| match &s.kind {
            SiteKind::Literal { range, .. } => Some((s.line, &text[range.clone()])),
            _ => None,
        })
        .collect();
    // At the line where the arm's body runs first: its expression, or the
    // first statement of its block.
    for expected in [
        (3, "45"),
        (3, "0x30"),
        (3, "0x39"),
        (5, "0x7F"),
        (5, "0xFF"),
        (12, "45"),
    ] {
        assert!(literals.contains(&expected), "{expected:?} in {literals:?}");
    }
}

#[test]
fn a_generated_table_is_ranked_but_its_literals_are_no_sites() {
    let rows: String = (0..2000)
        .map(|i| format!("    ({i}, \"t{i}\"),\n"))
        .collect();
    let text = format!(
        "const SMALL: [u8; 2] = [7, 9];\nconst TABLE: &[(u32, &str)] = &[\n{rows}];\nfn f(i: usize) -> u32 {{\n    TABLE[i].0 + u32::from(SMALL[i])\n}}\n"
    );
    let space = space(&text);
    let data_sites = |name: &str| {
        let is_data = |kind: &SiteKind| matches!(kind, SiteKind::Literal { data: true, .. });
        let sites = space.sites.iter();
        sites
            .filter(|s| s.function == name && is_data(&s.kind))
            .count()
    };
    assert_eq!(data_sites("SMALL"), 2);
    assert_eq!(data_sites("TABLE"), 0);
    let names: Vec<&str> = space.constants.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["SMALL", "TABLE"]);
    assert!(
        !space
            .literals
            .iter()
            .any(|l| format!("{l:?}").contains("t1999"))
    );
}

#[test]
fn the_values_given_to_formatting_macros_are_sites_their_format_strings_and_assertions_not() {
    let text = "struct Infix(u8, u8);\nimpl Infix {\n    fn show(&self, f: &mut String) -> std::fmt::Result {\n        assert!(self.0 < 9, \"{}\", self.1);\n        write!(f, \"{}{}\", \"R\", self.0 + 1)\n    }\n}\n";
    let space = space(text);
    let sites: Vec<(u32, &str)> = space
        .sites
        .iter()
        .filter_map(|s| match &s.kind {
            SiteKind::Field { range, .. }
            | SiteKind::Literal { range, .. }
            | SiteKind::BinaryOperator { range, .. } => Some((s.line, &text[range.clone()])),
            _ => None,
        })
        .collect();
    assert!(
        sites.contains(&(5, "0")) && sites.contains(&(5, "+")),
        "{sites:?}"
    );
    assert!(sites.iter().all(|(line, _)| *line == 5), "{sites:?}");
    assert!(
        sites.iter().all(|(_, text)| !text.contains('{')),
        "{sites:?}"
    );
}
