//! Facts and slices of small functions, over traces written by hand.

use std::collections::{BTreeMap, BTreeSet};

use super::{Dependency, Facts, Run, statement_facts};
use crate::baseline::TRACE_CAPACITY;
use crate::code::source::{FileId, Location};
use crate::code::{AfterCheck, CrateSources};

fn facts_of(text: &str) -> BTreeMap<Location, Facts> {
    let sources = CrateSources::of_one_file(text);
    statement_facts(&sources)
}

fn at(line: u32) -> Location {
    Location::new(FileId::new(0), line)
}

/// The dynamic backward slice of a failing run's trace.
fn backward_slice(
    trace: &[Location],
    facts: &BTreeMap<Location, Facts>,
    checks_lent: impl FnOnce() -> bool,
) -> BTreeSet<Location> {
    Run::new(trace, facts).slice(checks_lent)
}

/// What the run of `trace` ran only to print (see `Run::printed_only`).
fn printed_only(trace: &[Location], facts: &BTreeMap<Location, Facts>) -> Vec<u32> {
    lines(&Run::new(trace, facts).printed_only(facts))
}

fn lines(set: &BTreeSet<Location>) -> Vec<u32> {
    set.iter().map(|l| l.line).collect()
}

const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    } else {\n        if x > y {\n            return y;\n        } else if x > z {\n            return x;\n        }\n    }\n    z\n}\n";

#[test]
fn middle_facts_follow_the_seed() {
    let facts = facts_of(MIDDLE);
    assert_eq!(
        facts[&at(2)].uses,
        BTreeSet::from(["y".to_string(), "z".into()])
    );
    assert_eq!(facts[&at(3)].control, Some(at(2)));
    assert_eq!(
        facts[&at(5)].uses,
        BTreeSet::from(["x".to_string(), "z".into()])
    );
    assert_eq!(
        facts[&at(5)].control,
        Some(at(3)),
        "an else-if depends on its if"
    );
    assert_eq!(facts[&at(6)].control, Some(at(5)));
    assert_eq!(facts[&at(6)].uses, BTreeSet::from(["y".to_string()]));
    assert_eq!(facts[&at(15)].control, None);
}

#[test]
fn the_slice_of_middle_2_1_3_holds_the_conditions_and_the_return() {
    // middle(2, 1, 3) executes lines 2, 3, 5 and 6.
    let facts = facts_of(MIDDLE);
    let slice = backward_slice(&[at(2), at(3), at(5), at(6)], &facts, || false);
    assert_eq!(lines(&slice), [2, 3, 5, 6]);
    let trace = [at(2), at(3), at(5), at(6)];
    let deps = Run::new(&trace, &facts).dependencies_of(&at(6));
    assert_eq!(
        deps,
        [Dependency::Control {
            kind: "if",
            from: at(5)
        }]
    );
}

#[test]
fn a_write_that_cannot_reach_the_failure_is_left_out() {
    let text = "pub fn f(a: i32) -> i32 {\n    let mut log = Vec::new();\n    let b = a * 2;\n    log.push(b);\n    let c = b + 1;\n    c\n}\n";
    let facts = facts_of(text);
    assert!(facts[&at(4)].defines.contains("log"));
    let slice = backward_slice(&[at(2), at(3), at(4), at(5), at(6)], &facts, || false);
    assert_eq!(
        lines(&slice),
        [3, 5, 6],
        "`log` cannot influence the result"
    );
    let trace = [at(2), at(3), at(4), at(5), at(6)];
    let deps = Run::new(&trace, &facts).dependencies_of(&at(5));
    assert_eq!(
        deps,
        [Dependency::Data {
            variable: "b".into(),
            from: at(3)
        }]
    );
}

#[test]
fn fields_of_self_and_loops_carry_dependencies() {
    let text = "struct S { count: u32, total: u32 }\nimpl S {\n    fn add(&mut self, values: &[u32]) -> u32 {\n        for v in values {\n            self.total += v;\n        }\n        self.count += 1;\n        self.total / self.count\n    }\n}\n";
    let facts = facts_of(text);
    assert_eq!(facts[&at(5)].control, Some(at(4)));
    assert_eq!(facts[&at(4)].decides, Some("for"));
    assert!(facts[&at(5)].defines.contains("self.total"));
    let trace = [at(4), at(5), at(5), at(7), at(8)];
    assert_eq!(
        lines(&backward_slice(&trace, &facts, || false)),
        [4, 5, 7, 8]
    );
}

#[test]
fn a_field_written_in_an_earlier_call_reaches_a_later_one() {
    let text = "struct S { x: i32, log: i32 }\nimpl S {\n    fn set(&mut self, v: i32) {\n        self.log += 1;\n        self.x = v;\n    }\n    fn get(&self) -> i32 {\n        self.x + 1\n    }\n}\n";
    let facts = facts_of(text);
    // A test calls s.set(1), then s.get(): 4, 5, then 8.
    let trace = [at(4), at(5), at(8)];
    let run = Run::new(&trace, &facts);
    assert_eq!(
        run.dependencies_of(&at(8)),
        [Dependency::Data {
            variable: "self.x".into(),
            from: at(5)
        }]
    );
    assert_eq!(
        lines(&run.slice(|| false)),
        [5, 8],
        "`self.log` is left out"
    );
}

#[test]
fn a_closure_body_runs_under_the_statement_that_gives_it() {
    let text = "pub fn f(v: Option<i32>, y: i32) -> i32 {\n    if y > 0 {\n        let w = v.ok_or_else(|| {\n            y + 1\n        });\n        return w.unwrap_or(0);\n    }\n    v.map(|x| x * 2).unwrap_or(y)\n}\n";
    let facts = facts_of(text);
    assert_eq!(facts[&at(4)].control, Some(at(3)));
    assert_eq!(facts[&at(3)].control, Some(at(2)));
    assert_eq!(facts[&at(8)].control, None, "a body on the same line");
}

#[test]
fn what_is_lent_mutably_or_written_into_is_defined() {
    let text = "use std::fmt::Write;\nfn fill(v: &mut Vec<i32>) {\n    v.push(1);\n}\npub fn f(n: i32) -> String {\n    let mut out = String::new();\n    let mut v = Vec::new();\n    fill(&mut v);\n    writeln!(out, \"{n}\").unwrap();\n    write!(&mut out, \"{}\", v.len()).unwrap();\n    out\n}\n";
    let facts = facts_of(text);
    assert!(facts[&at(8)].defines.contains("v"));
    assert!(facts[&at(9)].defines.contains("out"));
    assert!(facts[&at(10)].defines.contains("out"));
    // f(1) runs 6, 7, 8 (calling fill: 3), 9, 10, 11.
    let trace = [at(6), at(7), at(8), at(3), at(9), at(10), at(11)];
    assert_eq!(
        lines(&backward_slice(&trace, &facts, || false)),
        [3, 6, 7, 8, 9, 10, 11]
    );
}

#[test]
fn writes_through_a_mutable_borrow_and_in_arm_bodies_count() {
    let text = "pub fn merge(sorted: Vec<(i32, i32)>) -> Vec<(i32, i32)> {\n    let mut merged: Vec<(i32, i32)> = Vec::new();\n    for pair in sorted {\n        match merged.last_mut() {\n            Some(last) if last.1 >= pair.0 => last.1 = pair.1,\n            _ => merged.push(pair),\n        }\n    }\n    merged\n}\n";
    let facts = facts_of(text);
    assert!(
        facts[&at(5)].defines.contains("merged"),
        "{:?}",
        facts[&at(5)]
    );
    assert!(facts[&at(6)].defines.contains("merged"));
    assert!(
        !facts[&at(4)].defines.contains("merged"),
        "the borrow itself"
    );
    // merge([(0, 2), (1, 3)]) runs 2, 3, 4, 6, 3, 4, 5, 9.
    let trace = [at(2), at(3), at(4), at(6), at(3), at(4), at(5), at(9)];
    let run = Run::new(&trace, &facts);
    assert!(run.dependencies_of(&at(9)).contains(&Dependency::Data {
        variable: "merged".into(),
        from: at(5)
    }));
    assert_eq!(lines(&run.slice(|| false)), [2, 3, 4, 5, 6, 9]);
}

#[test]
fn a_stage_of_an_iterator_chain_reads_the_stage_before() {
    let text = "pub fn words(text: &str, skip: usize) -> Vec<String> {\n    let n = skip * 2;\n    text.split(' ')\n        .map(|w| w.trim())\n        .filter(|w| !w.is_empty())\n        .map(|w| w.to_string())\n        .collect()\n}\n";
    let facts = facts_of(text);
    assert!(facts[&at(4)].defines.contains("w"));
    // One word: 2, 3, then the stages 4, 5, 6.
    let trace = [at(2), at(3), at(4), at(5), at(6)];
    let run = Run::new(&trace, &facts);
    assert_eq!(
        run.dependencies_of(&at(6))[0],
        Dependency::Data {
            variable: "w".into(),
            from: at(5)
        }
    );
    assert_eq!(lines(&run.slice(|| false)), [3, 4, 5, 6], "`n` is left out");
}

#[test]
fn values_flow_through_calls_and_returns() {
    let text = "fn helper(a: i32) -> i32 {\n    let b = a + 1;\n    b\n}\npub fn f(x: i32) -> i32 {\n    let unused = x * 3;\n    let y = helper(x);\n    y * 2\n}\n";
    let facts = facts_of(text);
    assert_ne!(facts[&at(2)].function, facts[&at(6)].function);
    // f(1) runs 6, 7 (which calls helper: 2, 3), then 8.
    let trace = [at(6), at(7), at(2), at(3), at(8)];
    let run = Run::new(&trace, &facts);
    assert_eq!(
        lines(&run.slice(|| false)),
        [2, 3, 7, 8],
        "`unused` is left out"
    );
    assert_eq!(
        run.dependencies_of(&at(7)),
        [Dependency::Return { from: at(3) }]
    );
    assert_eq!(
        run.dependencies_of(&at(2)),
        [Dependency::Argument { from: at(7) }]
    );
}

#[test]
fn what_a_call_writes_through_a_mutable_reference_reaches_the_caller_and_the_test() {
    let text = "pub fn fill(out: &mut [u8], v: u8) -> bool {\n    let mut n = 0;\n    for b in out.iter_mut() {\n        *b = v;\n    }\n    n += 1;\n    n > 0\n}\npub fn two(v: u8) -> [u8; 2] {\n    let mut out = [0; 2];\n    let full = fill(&mut out, v);\n    out\n}\npub fn ok(v: u8) -> bool {\n    let mut out = [0; 2];\n    let full = fill(&mut out, v);\n    full\n}\n";
    let facts = facts_of(text);
    assert_eq!(facts[&at(4)].writes_back, BTreeSet::from(["out".into()]));
    assert!(facts[&at(2)].writes_back.is_empty(), "`n` is a local");
    // A test calls fill(&mut buf, 7): if it checks `buf`, the write is
    // in the slice, though the value returned does not depend on it.
    let fill = [at(2), at(3), at(4), at(3), at(6), at(7)];
    let run = Run::new(&fill, &facts);
    assert_eq!(lines(&run.slice(|| true)), [2, 3, 4, 6, 7]);
    assert_eq!(lines(&run.slice(|| false)), [2, 6, 7]);
    // A call from line `call` of a function whose first line is
    // `call - 1` and whose last is `call + 1`.
    let from = |call: u32| [&[at(call - 1), at(call)], &fill[..], &[at(call + 1)]].concat();
    // two(7): the array it returns was written by fill.
    let trace = from(11);
    let run = Run::new(&trace, &facts);
    let written = Dependency::WrittenBack {
        variable: "out".into(),
        from: at(4),
    };
    assert!(run.dependencies_of(&at(12)).contains(&written));
    assert_eq!(lines(&run.slice(|| false)), [2, 3, 4, 6, 7, 10, 11, 12]);
    // ok(7) returns what fill returned, not the array it wrote; `ok`
    // writes nothing back, so the test is not asked whether it checks.
    let trace = from(16);
    let run = Run::new(&trace, &facts);
    let asked = || unreachable!("asked about a run that wrote nothing back");
    assert_eq!(lines(&run.slice(asked)), [2, 6, 7, 15, 16, 17]);
}

#[test]
fn calls_one_after_another_from_a_test_do_not_mix() {
    // A test calls g, then h: h's parameter does not come from g, and
    // a local of the same name in g is no dependency of h.
    let text = "pub fn g() -> i32 {\n    let v = 1;\n    v\n}\npub fn h(a: i32) -> i32 {\n    let w = a;\n    let v = w;\n    v\n}\n";
    let facts = facts_of(text);
    assert!(facts[&at(2)].entry && facts[&at(6)].entry && !facts[&at(7)].entry);
    assert!(!facts[&at(3)].may_call);
    let trace = [at(2), at(3), at(6), at(7), at(8)];
    let run = Run::new(&trace, &facts);
    assert_eq!(lines(&run.slice(|| false)), [6, 7, 8]);
    assert_eq!(run.dependencies_of(&at(6)), [], "`a` came from the test");
}

#[test]
fn recursion_and_pattern_bindings() {
    let text = "pub fn sum(xs: &[i32]) -> i32 {\n    if let Some((first, rest)) = xs.split_first() {\n        first + sum(rest)\n    } else {\n        0\n    }\n}\n";
    let facts = facts_of(text);
    assert!(
        facts[&at(2)].defines.contains("first"),
        "{:?}",
        facts[&at(2)]
    );
    assert!(
        facts[&at(2)].parameters.contains("xs"),
        "{:?}",
        facts[&at(2)]
    );
    assert_eq!(facts[&at(3)].parameters, BTreeSet::new());
    // sum(&[1]) runs 2, 3, which calls sum(&[]): 2 again (a new call,
    // though sum is active), 5.
    let trace = [at(2), at(3), at(2), at(5)];
    let run = Run::new(&trace, &facts);
    assert_eq!(
        run.dependencies_of(&at(5)),
        [Dependency::Control {
            kind: "if",
            from: at(2)
        }]
    );
    // The inner call's `if let` reads `xs`, which came from line 3.
    assert_eq!(
        run.dependencies_of(&at(2)),
        [Dependency::Argument { from: at(3) }]
    );
    assert_eq!(lines(&run.slice(|| false)), [2, 3, 5]);
}

#[test]
fn a_value_chosen_by_branches_comes_from_the_branch_that_ran() {
    let text = "pub fn f(p: u8, right: bool) -> u8 {\n    let next = if right {\n        p\n    } else {\n        p + 1\n    };\n    let m = match next {\n        0 => 1,\n        n => {\n            n * 2\n        }\n    };\n    m\n}\n";
    let facts = facts_of(text);
    assert!(facts[&at(5)].defines.contains("next"));
    assert!(facts[&at(3)].defines.contains("next"));
    assert!(facts[&at(10)].defines.contains("m"));
    assert!(facts[&at(8)].defines.contains("m"));
    // f(1, false) runs 2, 5, 7, 10, 13: the else branch's value reaches
    // the result, through the match arm that ran.
    let trace = [at(2), at(5), at(7), at(10), at(13)];
    let run = Run::new(&trace, &facts);
    assert_eq!(lines(&run.slice(|| false)), [2, 5, 7, 10, 13]);
    assert!(run.dependencies_of(&at(7)).contains(&Dependency::Data {
        variable: "next".into(),
        from: at(5)
    }));
}

#[test]
fn what_follows_an_early_return_depends_on_its_condition() {
    let text = "fn ok(v: i32) -> bool {\n    v > 0\n}\npub fn all(values: &[i32]) -> bool {\n    for v in values {\n        if !ok(*v) {\n            return false;\n        }\n    }\n    true\n}\n";
    let facts = facts_of(text);
    assert_eq!(facts[&at(10)].control, None);
    assert_eq!(
        facts[&at(10)].exits,
        BTreeSet::from([at(6)]),
        "the `if` around the `return`"
    );
    // all(&[1]) runs 5, 6 (calling ok: 2), then 10.
    let trace = [at(5), at(6), at(2), at(10)];
    assert_eq!(
        lines(&backward_slice(&trace, &facts, || false)),
        [2, 5, 6, 10]
    );
    let text = "fn parse(s: &str) -> Result<u8, ()> {\n    let n = s.parse::<u8>().map_err(|_| ())?;\n    let unrelated = 1;\n    Ok(n + unrelated)\n}\n";
    let facts = facts_of(text);
    assert_eq!(facts[&at(3)].exits, BTreeSet::from([at(2)]), "after a `?`");
    // A `continue` or `break` of a loop inside the statement does not
    // leave the block; a `break` of the enclosing loop does.
    let text = "fn f(xs: &[i32]) -> i32 {\n    let mut n = 0;\n    loop {\n        for x in xs {\n            if *x < 0 {\n                continue;\n            }\n            n += x;\n        }\n        if n > 9 {\n            break;\n        }\n        n += 1;\n    }\n    n\n}\n";
    let facts = facts_of(text);
    assert_eq!(facts[&at(8)].exits, BTreeSet::from([at(5)]));
    assert_eq!(facts[&at(10)].exits, BTreeSet::new(), "after the `for`");
    assert_eq!(facts[&at(13)].exits, BTreeSet::from([at(10)]));
    assert_eq!(facts[&at(15)].exits, BTreeSet::new(), "after the `loop`");
}

#[test]
fn a_ref_mut_binding_passed_on_to_a_call_writes_what_it_borrows() {
    let text = "fn negate(class: &mut Vec<u8>) {\n    class.push(0);\n}\nfn fold(class: &mut Vec<u8>) {\n    negate(class);\n}\npub fn parse(input: &[u8]) -> Result<Vec<u8>, ()> {\n    let mut result: Result<Vec<u8>, ()> = Ok(input.to_vec());\n    if let Ok(ref mut class) = result {\n        fold(class);\n    }\n    result\n}\n";
    let facts = facts_of(text);
    assert!(
        facts[&at(10)].lends.contains("class"),
        "{:?}",
        facts[&at(10)]
    );
    assert!(
        facts[&at(10)].defines.contains("result"),
        "through the binding"
    );
    assert_eq!(facts[&at(5)].writes_back, BTreeSet::from(["class".into()]));
    // parse(b"a") runs 8, 9, 10 (fold: 5, which calls negate: 2), 12.
    let trace = [at(8), at(9), at(10), at(5), at(2), at(12)];
    let run = Run::new(&trace, &facts);
    assert!(run.dependencies_of(&at(12)).contains(&Dependency::Data {
        variable: "result".into(),
        from: at(10)
    }));
    assert_eq!(lines(&run.slice(|| false)), [2, 5, 8, 9, 10, 12]);
}

#[test]
fn a_ref_mut_pattern_in_a_match_or_a_let_borrows_what_it_matches() {
    let text = "pub fn bump(mut pair: (u8, u8), mut o: Option<u8>) -> (u8, Option<u8>) {\n    let (ref mut a, _) = pair;\n    *a += 1;\n    match o {\n        Some(ref mut x) => *x += 1,\n        None => {}\n    }\n    (pair.0, o)\n}\n";
    let facts = facts_of(text);
    assert!(
        facts[&at(3)].defines.contains("pair"),
        "{:?}",
        facts[&at(3)]
    );
    assert!(facts[&at(5)].defines.contains("o"), "{:?}", facts[&at(5)]);
}

#[test]
fn a_name_bound_again_without_a_borrow_is_no_alias() {
    // `last` borrows `v` on line 3; line 6 binds `last` anew, so passing it
    // to `log` on line 7 writes nothing of `v`: line 8 still reads the
    // push of line 5. In `(ref mut a, b)`, `b` is a copy, not a borrow.
    let text = "fn log(_: i32) {}\npub fn f(mut v: Vec<i32>, x: i32) -> Vec<i32> {\n    if let Some(last) = v.last_mut() { *last += 1; }\n    let _ = 0;\n    v.push(x);\n    let last = x * 2;\n    log(last);\n    v\n}\npub fn g(mut pair: (i32, i32)) -> (i32, i32) {\n    let (ref mut a, mut b) = pair;\n    b += 1;\n    *a += b;\n    pair\n}\n";
    let facts = facts_of(text);
    assert!(!facts[&at(7)].defines.contains("v"), "{:?}", facts[&at(7)]);
    let trace = [at(3), at(4), at(5), at(6), at(7), at(8)];
    let run = Run::new(&trace, &facts);
    let deps = run.dependencies_of(&at(8));
    assert!(
        deps.contains(&Dependency::Data {
            variable: "v".into(),
            from: at(5)
        }),
        "{deps:?} {:?}",
        facts[&at(5)]
    );
    assert!(
        !facts[&at(12)].defines.contains("pair"),
        "{:?}",
        facts[&at(12)]
    );
    assert!(
        facts[&at(13)].defines.contains("pair"),
        "{:?}",
        facts[&at(13)]
    );
}

#[test]
fn what_runs_under_a_condition_a_branch_gave_depends_on_that_branch() {
    let text = "fn within(c: u8, hi: u8) -> bool {\n    c < hi\n}\npub fn matches(t: Option<u8>, c: u8) -> u8 {\n    if !match t {\n        None => true,\n        Some(hi) => within(c, hi),\n    } {\n        return 0;\n    }\n    1\n}\n";
    let facts = facts_of(text);
    assert_eq!(facts[&at(9)].control, Some(at(5)));
    // matches(Some(3), 3) runs 5, then the arm at 7 (calling within: 2),
    // then 9: the arm ran after the condition's line, and gave its value.
    let trace = [at(5), at(7), at(2), at(9)];
    let run = Run::new(&trace, &facts);
    assert_eq!(lines(&run.slice(|| false)), [2, 5, 7, 9]);
    assert!(
        run.dependencies_of(&at(9))
            .iter()
            .any(|d| matches!(d, Dependency::Data { from, .. } if *from == at(7)))
    );
}

#[test]
fn a_value_chosen_by_branches_and_taken_by_a_method_goes_into_its_receiver() {
    let text = "pub fn f(ts: &[u8]) -> Vec<u8> {\n    let mut out = Vec::new();\n    for t in ts {\n        out.extend(\n            match t {\n                0 => Some(1),\n                _ => None,\n            }\n            .into_iter(),\n        );\n    }\n    let last = match out.len() {\n        0 => 0,\n        n => n - 1,\n    }\n    .min(9);\n    out.truncate(last);\n    out\n}\n";
    let facts = facts_of(text);
    assert!(facts[&at(6)].defines.contains("out"), "{:?}", facts[&at(6)]);
    assert!(facts[&at(7)].defines.contains("out"));
    assert!(facts[&at(14)].defines.contains("last"), "through `.min(9)`");
    // f(&[0]) runs 2, 3, 4, 6, 12, 14, 17, 18: the arm that ran is in the
    // slice of the result.
    let trace = [at(2), at(3), at(4), at(6), at(12), at(14), at(17), at(18)];
    let slice = backward_slice(&trace, &facts, || false);
    assert!(slice.contains(&at(6)), "{:?}", lines(&slice));
}

/// A failed `assert_eq!` prints its operands, then the unwinding drops
/// them: when the run ends in a `Debug::fmt` or a `Drop::drop` of the
/// crate, the slice also starts from what ran before, the computation of
/// the values compared.
#[test]
fn a_run_that_ends_printing_values_is_sliced_from_before_too() {
    let text = "use std::fmt;\nstruct N(u8);\nfn triple(x: u8) -> u8 {\n    let y = x * 3;\n    y\n}\nimpl fmt::Debug for N {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        let shown = self.0;\n        write!(f, \"{}\", shown)\n    }\n}\nimpl N {\n    fn fmt(&self) -> u8 {\n        self.0\n    }\n}\nimpl Drop for N {\n    fn drop(&mut self) {\n        std::mem::take(&mut self.0);\n    }\n}\n";
    let facts = facts_of(text);
    assert_eq!(facts[&at(9)].after_checks, Some(AfterCheck::Prints));
    assert_eq!(facts[&at(20)].after_checks, Some(AfterCheck::Drops));
    assert_eq!(facts[&at(4)].after_checks, None);
    assert!(
        facts[&at(15)].after_checks.is_none(),
        "an inherent `fmt` writes nothing out"
    );
    // N(triple(1)), then the Debug of both operands, then a drop.
    let trace = [at(4), at(5), at(9), at(10), at(9), at(10), at(20)];
    assert_eq!(
        lines(&Run::new(&trace, &facts).slice(|| false)),
        [4, 5, 9, 10, 20]
    );
    // What the epilogue ran and nothing before it did: not the failure's
    // own code (passing runs never print it).
    assert_eq!(printed_only(&trace, &facts), [9, 10]);
    // A drop that ran first seems to call all that follows (callers are
    // inferred): the printing is still found, and taken out.
    let dropped_first = [at(20), at(4), at(5), at(9), at(10), at(20)];
    assert_eq!(printed_only(&dropped_first, &facts), [9, 10]);
    assert_eq!(
        lines(&Run::new(&dropped_first, &facts).slice(|| false)),
        [4, 5, 9, 10, 20]
    );
    // A trace the ring cut short may have lost what ran first.
    let mut cut = vec![at(4); TRACE_CAPACITY];
    cut.extend(trace);
    assert_eq!(printed_only(&cut, &facts), [] as [u32; 0], "a cut trace");
    let printed_early = [at(9), at(10), at(4), at(5), at(9), at(10)];
    assert_eq!(printed_only(&printed_early, &facts), [] as [u32; 0]);
    // A `to_string()` in the computation, then more of it: the `fmt` whose
    // last statement calls seems to call what follows; the run did not end
    // printing, and nothing is taken out.
    let computed = [at(4), at(5), at(9), at(10), at(4), at(5)];
    assert_eq!(printed_only(&computed, &facts), [] as [u32; 0]);
    // A test of the Debug output itself ends there too: its slice is kept.
    let printed = [at(9), at(10)];
    assert_eq!(lines(&Run::new(&printed, &facts).slice(|| false)), [9, 10]);
    assert_eq!(printed_only(&printed, &facts), [] as [u32; 0]);
}
