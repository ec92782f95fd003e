//! Tests of the operators that take statements from elsewhere in the
//! crate (`swap`, `insert`): what is in scope where they go.

use super::tests::{line, lines_made, outcomes};
use crate::mutation::patch::Operator;

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
