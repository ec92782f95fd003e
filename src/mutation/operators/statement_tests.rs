//! Tests of the operators that take statements from elsewhere in the
//! crate (`swap`, `insert`): what is in scope where they go.

use std::collections::BTreeSet;

use super::statement::loops_for_nothing;
use super::tests::{line, lines_made, outcomes, outcomes_given, sources};
use super::{Context, edits};
use crate::code::KeepConst;
use crate::mutation::patch::Operator;
use crate::mutation::sites::collect_mutation_space;
use crate::mutation::types::Types;

#[test]
fn statement_swap_and_insert_reuse_statements_that_fit_the_scope() {
    let text = "fn f(a: i32) -> i32 {\n    let b = a + 1;\n    let c = b * 2;\n    if c > 4 {\n        return c;\n    }\n    b\n}\n";
    let swapped = lines_made(text, Operator::Swap, 2);
    // `let c = b * 2;` needs `b`, which is not in scope before line 2.
    assert!(!swapped.iter().any(|l| l.contains("b * 2")), "{swapped:?}");
    assert!(
        !swapped.contains("if c > 4 {}"),
        "`c` is not in scope on line 2: {swapped:?}"
    );
    let inserted = outcomes(text, Operator::Insert, 5);
    // Before a `return`, never after it.
    assert!(
        inserted
            .iter()
            .any(|t| t.contains("        let b = a + 1;\n        return c;")),
        "{inserted:?}"
    );
    // A statement that does nothing (`b;`) is never inserted.
    assert!(!inserted.iter().any(|t| t.contains("b;\n")), "{inserted:?}");
    // A header goes around the target.
    assert!(
        inserted
            .iter()
            .any(|t| t.contains("if c > 4 { return c; }")),
        "{inserted:?}"
    );
    let swapped_tail = lines_made(text, Operator::Swap, 7);
    // The function's value is not replaced by a statement without one.
    assert!(swapped_tail.contains("return c"), "{swapped_tail:?}");
    assert!(!swapped_tail.contains("if c > 4 {}"), "{swapped_tail:?}");
    // A `let` that later code needs is neither deleted nor wrapped.
    assert!(outcomes(text, Operator::Delete, 3).is_empty());
    let wrapped = outcomes(text, Operator::Insert, 3);
    assert!(
        !wrapped.iter().any(|t| t.contains("{ let c")),
        "{wrapped:?}"
    );
}

/// A statement that uses `self` goes only where `self` is of its type,
/// and a closure's parameter is no variable in scope for what is outside
/// the closure.
#[test]
fn swapped_and_inserted_statements_keep_their_self_and_closures() {
    let text = "struct A { n: u8 }\nstruct B { m: u8 }\nimpl A {\n    fn f(&self, x: u8) -> u8 {\n        let y = x + 1;\n        y\n    }\n    fn g(&self) -> u8 {\n        self.n.max(2)\n    }\n}\nimpl B {\n    fn h(&self, v: &[u8]) -> u8 {\n        self.m.min(3)\n    }\n    fn k(&self, v: &[u8]) -> bool {\n        if v.iter().any(|x| *x > 0) && x > 0 { return true; }\n        false\n    }\n}\n";
    let swapped = lines_made(text, Operator::Swap, 6);
    assert!(swapped.contains("self.n.max(2)"), "{swapped:?}");
    assert!(!swapped.contains("self.m.min(3)"), "{swapped:?}");
    // `k`'s guard needs an `x` besides the closure's: `h` has `v` only.
    let inserted = outcomes(text, Operator::Insert, 14);
    assert!(!inserted.is_empty());
    assert!(
        !inserted.iter().any(|t| line(t, 14).contains("|x|")),
        "{inserted:?}"
    );
}

#[test]
fn statements_of_another_file_go_where_their_names_are_written() {
    // regex-syntax: `return Printer::new().print(self, f);` from another
    // file's `fmt`, inserted where `Printer` is not imported, failed the
    // woven build.
    let lib = "mod print;\nuse print::Printer;\nfn show(x: u8) {\n    let y = x;\n    Printer::new().print(y);\n}\n";
    let other = "fn other(x: u8) {\n    let z = x;\n    z.count();\n}\nimpl S {\n    fn make(&self) -> Self {\n        Self::default()\n    }\n}\n// A `Printer` in a comment is none in scope.\n";
    let mut sources = sources(other);
    sources.files.push(crate::code::SourceFile {
        path: "src/print.rs".into(),
        text: lib.to_string(),
        syntax: crate::code::source::parse_file(lib).unwrap(),
    });
    let space = collect_mutation_space(&sources, &KeepConst::Every, &Default::default());
    let cx = Context {
        space: &space,
        text: other,
        types: &Types::default(),
    };
    let made: BTreeSet<String> = space
        .sites
        .iter()
        .filter(|s| s.file.index() == 0 && s.line == 3)
        .flat_map(|site| edits(Operator::Insert, site, &cx))
        .map(|edit| edit.text)
        .collect();
    assert!(!made.iter().any(|t| t.contains("Printer")), "{made:?}");
    // `Self` stays in an `impl` of its type.
    assert!(!made.iter().any(|t| t.contains("Self")), "{made:?}");
    assert!(made.iter().any(|t| t.contains("let y = x;")), "{made:?}");
}

#[test]
fn a_macro_that_is_a_blocks_value_is_not_deleted() {
    // winnow: `write!` last in a `fmt` body deleted left `()` for a
    // `fmt::Result`, and failed the woven build.
    let text = "fn show(&self, f: &mut Formatter) -> Result {\n    write!(f, \"{}\", self.0)\n}\nfn log(x: u8) {\n    println!(\"{}\", x)\n}\n";
    let deleted = outcomes(text, Operator::Delete, 2);
    assert!(deleted.is_empty(), "{deleted:?}");
    // In a function with no value, it may go.
    assert!(!outcomes(text, Operator::Delete, 5).is_empty());
}

#[test]
fn a_label_or_a_functions_own_item_stays_in_that_function() {
    // pulldown-cmark: `for .. in ST_BEGIN_TAGS.iter()`, a `static` of
    // another function's body; aho-corasick: `continue 'PATTERNS;`.
    let text = "fn tags(b: u8) -> bool {\n    static TAGS: &[u8] = b\"ab\";\n    emit(TAGS[0]);\n    b > 0\n}\nfn other(b: u8) -> bool {\n    'outer: for i in 0..3 {\n        if b == 1 { continue 'outer; }\n        emit(b);\n    }\n    b > 0\n}\nfn third(b: u8) -> bool {\n    let k = b;\n    k > 0\n}\n";
    let count = |made: &BTreeSet<String>, code: &str, n: usize| {
        made.iter().any(|t| t.matches(code).count() == n)
    };
    let made = outcomes(text, Operator::Insert, 14);
    assert!(
        !count(&made, "TAGS", 3) && !count(&made, "continue 'outer", 2),
        "{made:?}"
    );
    assert!(count(&made, "emit(b);", 2), "{made:?}");
    // In its own function it may go.
    let made = outcomes(text, Operator::Insert, 3);
    assert!(count(&made, "emit(TAGS[0]);", 2), "{made:?}");
}

#[test]
fn a_guard_of_a_comparison_returns_an_ordering() {
    let text = "use std::cmp;\nfn compare(a: &[u8], b: &[u8]) -> cmp::Ordering {\n    let first = a[0].cmp(&b[0]);\n    first.then(a.len().cmp(&b.len()))\n}\n";
    let made = lines_made(text, Operator::Guard, 3);
    for value in ["Equal", "Less", "Greater"] {
        assert!(
            made.iter()
                .any(|l| l.ends_with(&format!("{{ return cmp::Ordering::{value}; }}"))),
            "{value}: {made:?}"
        );
    }
}

#[test]
fn an_if_without_else_or_a_loop_is_deleted_whole_but_as_a_blocks_value() {
    let text = "fn f(v: &mut Vec<u8>) -> usize {\n    for x in 0..3 {\n        v.push(x);\n    }\n    if v.len() > 4 {\n        v.clear();\n    }\n    v.len()\n}\nfn g(n: u8) {\n    if n > 1 {\n        h(n);\n    }\n}\n";
    let gone = |from: &str| text.replacen(from, "", 1);
    let made = outcomes(text, Operator::Delete, 2);
    let for_loop = gone("    for x in 0..3 {\n        v.push(x);\n    }\n");
    assert!(made.contains(&for_loop), "{made:?}");
    let made = outcomes(text, Operator::Delete, 5);
    let lone_if = gone("    if v.len() > 4 {\n        v.clear();\n    }\n");
    assert!(made.contains(&lone_if), "{made:?}");
    let tail = gone("    if n > 1 {\n        h(n);\n    }\n");
    assert!(!outcomes(text, Operator::Delete, 11).contains(&tail));
}

#[test]
fn a_guard_after_a_call_asks_of_the_values_fields_and_returns_the_callees_error() {
    let text = "pub enum Error {\n    Short,\n    TooLarge,\n}\npub struct Span {\n    pub day: u32,\n    pub exact: bool,\n}\nimpl Span {\n    pub fn parse(b: &[u8]) -> Result<Span, Error> {\n        let day = b.len() as u32;\n        let t = Self::time(b)?;\n        Ok(Span { day, exact: t.exact })\n    }\n    fn time(b: &[u8]) -> Result<Span, Error> {\n        if b.len() > 10 {\n            return Err(Error::TooLarge);\n        }\n        Ok(Span { day: 0, exact: true })\n    }\n}\n";
    let made = lines_made(text, Operator::Guard, 13);
    for expected in [
        "if t.day > 0 { return Err(Error::TooLarge); }",
        "if !t.exact { return Err(Error::TooLarge); }",
    ] {
        assert!(made.contains(expected), "{expected}: {made:?}");
    }
    // Not before the binding: nothing bound from a call right before it.
    let made = lines_made(text, Operator::Guard, 12);
    assert!(!made.iter().any(|l| l.contains("TooLarge")), "{made:?}");
}

#[test]
fn a_guard_after_a_call_returns_first_the_callees_error_the_failing_tests_name() {
    let text = "pub enum Error {\n    Short,\n    Empty,\n    TooLarge,\n}\npub struct Span {\n    pub day: u32,\n}\nimpl Span {\npub fn parse(b: &[u8]) -> Result<Span, Error> {\n    let t = Self::time(b)?;\n    Ok(Span { day: t.day })\n}\nfn time(b: &[u8]) -> Result<Span, Error> {\n    if b.len() < 2 {\n        return Err(Error::Short);\n    }\n    if b.is_empty() {\n        return Err(Error::Empty);\n    }\n    if b.len() > 10 {\n        return Err(Error::TooLarge);\n    }\n    Ok(Span { day: 0 })\n}\n}\n";
    let guards = |words: &[&str]| -> BTreeSet<String> {
        let given = |space: &mut crate::mutation::MutationSpace| {
            space.failing_words = words.iter().map(ToString::to_string).collect();
        };
        outcomes_given(text, Operator::Guard, 12, &Types::default(), given)
            .iter()
            .map(|t| line(t, 12).to_string())
            .collect()
    };
    let returning = |made: &BTreeSet<String>, error: &str| {
        made.iter()
            .any(|l| l.ends_with(&format!("{{ return Err(Error::{error}); }}")))
    };
    // The callee's first two errors, as written.
    let plain = guards(&[]);
    assert!(
        returning(&plain, "Short") && !returning(&plain, "TooLarge"),
        "{plain:?}"
    );
    // A failing test named after the third puts it first.
    let named = guards(&["rejects", "too", "large"]);
    assert!(
        named.contains("if t.day > 0 { return Err(Error::TooLarge); }"),
        "{named:?}"
    );
}

/// A `for` header goes around a statement that uses what it binds, never
/// around one that does not (it would repeat it unchanged).
#[test]
fn a_loop_goes_only_around_a_statement_that_uses_its_pattern() {
    let text = "fn f(s: &str, v: &mut Vec<char>) {\n    for ch in s.chars() {\n        v.push(ch);\n    }\n    v.push('a');\n    if s.len() > 2 {\n        v.push('b');\n    }\n}\n";
    let inserted = outcomes(text, Operator::Insert, 5);
    assert!(
        !inserted
            .iter()
            .any(|t| t.contains("for ch in s.chars() { v.push('a'); }")),
        "{inserted:?}"
    );
    assert!(
        inserted
            .iter()
            .any(|t| t.contains("if s.len() > 2 { v.push('a'); }")),
        "{inserted:?}"
    );
    assert!(loops_for_nothing("for _ in 0..n", &BTreeSet::from(["n"])));
    assert!(!loops_for_nothing(
        "for (i, x) in v",
        &BTreeSet::from(["x"])
    ));
    assert!(!loops_for_nothing("while x > 0", &BTreeSet::from(["y"])));
}
