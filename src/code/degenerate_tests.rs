//! Tests of `degenerate`: code no one writes as a fix, told only where a
//! patch makes it.

use crate::code::{Degenerate, made_degenerate};

fn made(original: &str, patched: &str) -> Option<Degenerate> {
    made_degenerate(original, patched)
}

#[test]
fn a_match_whose_arms_all_give_one_value_is_degenerate() {
    let original = "fn f(e: &E) -> bool {\n    match e {\n        E::A(_) => true,\n        E::B(_) => false,\n    }\n}\n";
    let patched = original.replace("=> false", "=> true");
    assert_eq!(
        made(original, &patched),
        Some(Degenerate::SameValue { line: 2 })
    );
    // One that was degenerate already is not the patch's doing.
    assert_eq!(made(&patched, &patched), None);
    // A value that reads what its arm binds depends on the input.
    let bound = "fn f(r: Result<u8, u8>) -> u8 {\n    match r {\n        Ok(v) => v,\n        Err(w) => 0,\n    }\n}\n";
    assert_eq!(
        made(bound, &bound.replace("Err(w) => 0", "Err(v) => v")),
        None
    );
}

/// lasso: every branch of `store_str`'s `if` ends in
/// `Ok(allocated_string)`, each bound by its own `let`; the right fix
/// inside one branch was told as making them all one value.
#[test]
fn a_value_each_branch_binds_for_itself_is_not_one_value() {
    let original = "fn f(a: bool, s: &mut S) -> R {\n    if a {\n        let v = s.one();\n        s.put(s.len() - 2);\n        Ok(v)\n    } else {\n        let v = s.two();\n        Ok(v)\n    }\n}\n";
    let patched = original.replace("s.len() - 2", "s.len().saturating_sub(2)");
    assert_eq!(made(original, &patched), None);
    let arms = "fn f(e: E) -> R {\n    match e {\n        E::A => { let v = one(); Ok(v) }\n        E::B => { let v = two(); Ok(v - 1) }\n    }\n}\n";
    assert_eq!(made(arms, &arms.replace("Ok(v - 1)", "Ok(v)")), None);
    // The same value read from outside the branches still is one.
    let outer = original.replace("Ok(v)", "Ok(s.n)");
    let patched = outer.replace("s.len() - 2", "s.len().saturating_sub(2)");
    assert_eq!(made(&outer, &patched), None, "degenerate before the patch");
    assert_eq!(
        made(original, &outer),
        Some(Degenerate::SameValue { line: 2 })
    );
}

/// rrule: `if inc { *d <= after }` made `*d < after && *d <= after`
/// passed every test (it is `*d < after`, written twice).
#[test]
fn a_condition_joined_with_one_it_implies_is_degenerate() {
    let original = "fn f(a: u8, b: u8, c: bool) {\n    if a <= b {\n        g();\n    }\n}\n";
    let implied = [
        "a < b && a <= b",
        "a <= b && a < b",
        "a <= b && (b > a)",
        "a == b || a <= b",
        "c && a < b && a != b",
        "a < b || c || b > a",
        "c && c",
    ];
    let made_with = |patched: &str| {
        let text = original.replace("if a <= b {", &format!("if {patched} {{"));
        made(original, &text)
    };
    for patched in implied {
        let redundant = Some(Degenerate::Redundant { line: 2 });
        assert_eq!(made_with(patched), redundant, "{patched}");
    }
    let distinct = [
        "a < b && a >= b",
        "a <= b && b <= a",
        "a < b && c",
        "a < b || a > b",
        "a <= b && a < b + 1",
        "it.next() < b && it.next() <= b",
    ];
    for patched in distinct {
        assert_eq!(made_with(patched), None, "{patched}");
    }
}

/// kurbo: `if need_ends` made `if need_ends || !need_ends` passed
/// every test.
#[test]
fn a_condition_joined_with_its_negation_is_degenerate() {
    let original = "fn f(a: bool, b: bool) {\n    if a {\n        g();\n    }\n}\n";
    for patched in ["a || !a", "!a && a", "(a) || !(a)", "!(a) || a"] {
        let text = original.replace("if a {", &format!("if {patched} {{"));
        assert_eq!(
            made(original, &text),
            Some(Degenerate::Tautology { line: 2 }),
            "{patched}"
        );
    }
    for patched in ["a || !b", "a || b", "!a", "a | !a"] {
        let text = original.replace("if a {", &format!("if {patched} {{"));
        assert_eq!(made(original, &text), None, "{patched}");
    }
}

/// rust-lapper: the bounds check `self.intervals[*cursor].start > start`
/// made `start > start` passed every test.
#[test]
fn a_value_compared_with_itself_is_degenerate() {
    let original =
        "fn f(s: &S, start: u32) {\n    if s.v[0].start > start {\n        g();\n    }\n}\n";
    for patched in [
        "start > start",
        "(start) <= start",
        "s.v[0].start == s.v[0].start",
    ] {
        let text = original.replace("s.v[0].start > start", patched);
        assert_eq!(
            made(original, &text),
            Some(Degenerate::SelfCompared { line: 2 }),
            "{patched}"
        );
    }
    for patched in [
        "s.v[0].start >= start",
        "it.next() == it.next()",
        "start + start",
    ] {
        let text = original.replace("s.v[0].start > start", patched);
        assert_eq!(made(original, &text), None, "{patched}");
    }
}

#[test]
fn an_if_whose_branches_give_one_value_is_degenerate() {
    let original = "fn f(n: u8) -> u8 {\n    if n > 2 { 1 } else { 0 }\n}\n";
    let patched = original.replace("{ 0 }", "{ 1 }");
    assert_eq!(
        made(original, &patched),
        Some(Degenerate::SameValue { line: 2 })
    );
    // An `if` without `else`, or a branch ending in a statement, has no value.
    let statement = "fn f(n: u8) -> u8 {\n    if n > 2 { 1 } else { g(); }\n    0\n}\n";
    assert_eq!(
        made(statement, &statement.replace("{ 1 }", "{ g(); }")),
        None
    );
}

#[test]
fn a_condition_a_guard_just_before_decided_is_degenerate() {
    let original = "fn f(a: &R, b: &R) -> O {\n    if a.d == b.d {\n        return x();\n    }\n    if a.n == b.n {\n        return y();\n    }\n    z()\n}\n";
    let patched = original.replace("a.n == b.n", "a.d == b.d");
    assert_eq!(
        made(original, &patched),
        Some(Degenerate::Decided {
            line: 5,
            earlier: 2
        })
    );
    // A statement between them may change what the condition reads.
    let between = original.replace("    if a.n", "    a.d = 1;\n    if a.n");
    assert_eq!(
        made(&between, &between.replace("a.n == b.n", "a.d == b.d")),
        None
    );
    // A condition that consumes what it reads is asked anew.
    let next = "fn f(it: &mut I) {\n    if it.next() == Some(1) {\n        return;\n    }\n    if it.peek() == Some(2) {\n        return;\n    }\n}\n";
    assert_eq!(made(next, &next.replace("peek", "next")), None);
}

#[test]
fn an_else_if_repeating_its_chain_is_degenerate() {
    let original = "fn f(n: u8) -> u8 {\n    if n > 2 {\n        1\n    } else if n > 1 {\n        2\n    } else {\n        3\n    }\n}\n";
    let patched = original.replace("n > 1", "n > 2");
    assert_eq!(
        made(original, &patched),
        Some(Degenerate::Decided {
            line: 4,
            earlier: 2
        })
    );
}

#[test]
fn a_loop_whose_condition_its_body_leaves_alone_is_degenerate() {
    // pulldown-cmark: `while self.scan_ch(b'>')` made `while nl == 0`.
    let original = "fn f(&mut self, nl: usize) {\n    self.ix += nl;\n    while self.scan_ch(b'>') {\n        self.scan_space(1);\n    }\n}\n";
    let patched = original.replace("self.scan_ch(b'>')", "nl == 0");
    assert_eq!(
        made(original, &patched),
        Some(Degenerate::Endless { line: 3 })
    );
    // A body that changes what the condition reads, or leaves, may end it.
    for body in [
        "nl -= 1;",
        "step(&mut nl);",
        "break;",
        "if g() { return; }",
        "panic!();",
    ] {
        let ends = patched.replace("self.scan_space(1);", body);
        assert_eq!(made(original, &ends), None, "{body}");
    }
    // A condition on `self` or a call may change with what the body calls.
    assert_eq!(
        made(
            original,
            &original.replace("self.scan_ch(b'>')", "self.ix == 0")
        ),
        None
    );
}

#[test]
fn an_equality_made_to_break_its_laws_is_degenerate() {
    let original = "impl PartialEq for R {\n    fn eq(&self, other: &R) -> bool {\n        self.0 == other.0\n    }\n}\n";
    assert_eq!(
        made(original, &original.replace("==", ">=")),
        Some(Degenerate::Asymmetric { line: 3 })
    );
    assert_eq!(
        made(original, &original.replace("==", "!=")),
        Some(Degenerate::Irreflexive { line: 3 })
    );
    // Written in a `macro_rules!` transcriber, as many impls are.
    let in_macro = "macro_rules! eq {\n    ($t:ty) => {\n        impl PartialEq for $t {\n            fn eq(&self, other: &$t) -> bool {\n                self.0 == other.0\n            }\n        }\n    };\n}\n";
    assert_eq!(
        made(in_macro, &in_macro.replace("==", "<")),
        Some(Degenerate::Asymmetric { line: 5 })
    );
    // Another method, or another trait's, may order its operands.
    let ord = original
        .replace("PartialEq", "PartialOrd")
        .replace("fn eq", "fn lt");
    assert_eq!(made(&ord, &ord.replace("==", "<")), None);
}

#[test]
fn an_arm_an_earlier_arm_matches_whole_is_degenerate() {
    let original = "fn f(e: &E) -> bool {\n    match e {\n        E::A(_) => true,\n        E::B(_) => false,\n    }\n}\n";
    let patched = original.replace("E::A(_) =>", "E::A(_) | E::B(..) =>");
    assert_eq!(
        made(original, &patched),
        Some(Degenerate::Unreachable { line: 4 })
    );
    // An arm with a guard, or one that matches part of a variant, leaves the rest to later arms.
    let partial = original.replace("E::A(_) =>", "E::A(_) | E::B(0) =>");
    assert_eq!(made(original, &partial), None);
    let guarded = original.replace("E::A(_) =>", "E::A(_) | E::B(_) if g() =>");
    assert_eq!(made(original, &guarded), None);
}

/// indicatif: `elapsed.saturating_sub(prev)` made `prev.saturating_sub(prev)`
/// passed every test; rstar: `(original_size as f32).log(m as f32)` made
/// `(m as f32).log(m as f32)`.
#[test]
fn an_operation_of_a_value_with_itself_is_degenerate() {
    let original = "fn f(a: u32, b: u32) -> u32 {\n    let d = a.saturating_sub(b);\n    d\n}\n";
    for patched in ["b.saturating_sub(b)", "(b).max(&b)", "b - b", "(b ^ b)"] {
        let text = original.replace("a.saturating_sub(b)", patched);
        assert_eq!(
            made(original, &text),
            Some(Degenerate::SelfApplied { line: 2 }),
            "{patched}"
        );
    }
    for patched in [
        "a.saturating_sub(a + 1)",
        "b + b",
        "b * b",
        "it.next().max(it.next())",
    ] {
        let text = original.replace("a.saturating_sub(b)", patched);
        assert_eq!(made(original, &text), None, "{patched}");
    }
}

/// indicatif: `capacity + new as u8` made `capacity + new as u8 % 1`
/// passed every test.
#[test]
fn an_operation_that_gives_one_value_whatever_its_operand_is_degenerate() {
    let original = "fn f(a: u32, b: u32) -> u32 {\n    let d = a + b;\n    d\n}\n";
    for patched in ["a + b % 1", "a + b * 0", "a + (0 & b)", "a + 0u32 * b"] {
        let text = original.replace("a + b", patched);
        assert_eq!(
            made(original, &text),
            Some(Degenerate::Constant { line: 2 }),
            "{patched}"
        );
    }
    for patched in ["a + b % 2", "a + b * 1", "a + (b | 0)", "a * b"] {
        let text = original.replace("a + b", patched);
        assert_eq!(made(original, &text), None, "{patched}");
    }
}
