//! The two evaluators agree: the same candidates, built one by one and
//! woven into shared builds (mutant schemata), get the same outcomes.

// Tests and the benchmark drive processes and print as they like: the
// invariants in clippy.toml are the product's.
#![allow(clippy::disallowed_methods, clippy::print_stderr)]

mod common;

use std::collections::BTreeSet;

use cargo_autofix::{
    Budget, Candidate, CandidateOutcome, EvaluatorKind, EvaluatorStats, Session, TestId, Verdict,
    parse_args,
};
use common::fixture;

/// Whether a test of the outcome ran out of time.
fn timed_out(outcome: &CandidateOutcome) -> bool {
    matches!(outcome, CandidateOutcome::Tested(verdicts) if verdicts.iter().any(|(_, v)| *v == Verdict::TimedOut))
}

fn outcomes_agree(name: &str, count: usize) {
    agree_on(name, 2, &|session| session.sample_candidates(7, count));
}

/// The candidates compared (those `pick` chooses), and the schema
/// evaluator's figures; the batch may take `builds` woven builds (one
/// more when a data item's weaving had to go).
fn agree_on(
    name: &str,
    builds: usize,
    pick: &dyn Fn(&Session) -> Vec<Candidate>,
) -> (Vec<Candidate>, EvaluatorStats) {
    let dir = fixture(name);
    let args = parse_args(["cargo-autofix", "-q"].map(Into::into)).unwrap();
    let session = Session::open(args, dir.path()).unwrap();
    // Candidates whose edits differ but whose texts are the same are one
    // candidate to an evaluator: keep one of each.
    let mut texts = BTreeSet::new();
    let picked = pick(&session);
    let count = picked.len();
    let candidates: Vec<_> = picked
        .into_iter()
        .filter(|c| texts.insert(session.files_with(c)))
        .collect();
    assert!(
        candidates.len() * 10 >= count * 9,
        "{name}: too few distinct mutations"
    );

    let mut results = Vec::new();
    for kind in [EvaluatorKind::Rebuild, EvaluatorKind::Schema] {
        let (mut evaluator, model) = session.evaluator(kind).unwrap();
        let outcomes = evaluator
            .evaluate(&candidates, Budget::unlimited(), &|_, _| {})
            .unwrap();
        let summary: Vec<(bool, BTreeSet<TestId>, f64)> = outcomes
            .iter()
            .map(|o| (o.compiled(), o.passed(), o.fitness(&model)))
            .collect();
        let timed_out: Vec<bool> = outcomes.iter().map(timed_out).collect();
        results.push((summary, evaluator.stats(), timed_out));
    }
    let (rebuild, schema) = (&results[0], &results[1]);
    // A slow mutant may run out of time on a loaded machine in one run and
    // not in the other: those are compared by whether they compiled only.
    let slow = (0..candidates.len())
        .filter(|&i| rebuild.2[i] || schema.2[i])
        .count();
    assert!(
        slow * 10 <= candidates.len(),
        "{name}: {slow} candidates timed out"
    );
    for (index, (one, woven)) in rebuild.0.iter().zip(&schema.0).enumerate() {
        if rebuild.2[index] || schema.2[index] {
            assert_eq!(
                one.0, woven.0,
                "{name}: candidate {index} compiled in one only"
            );
            continue;
        }
        assert_eq!(
            one,
            woven,
            "{name}: candidate {index} ({:?}) differs",
            candidates[index].edits()
        );
    }
    // One batch: one build, or two when some variants do not compile (more
    // where variants are woven in place, and one more when a data item's
    // weaving had to go). Every candidate that
    // compiles is woven (none is lost to another's error) unless it edits
    // a function or data item that cannot be woven.
    let stats = &schema.1;
    eprintln!("{name}: {stats:?}");
    assert_eq!(stats.batches, 1, "{name}: {stats:?}");
    let dropped_data = stats
        .separate_reasons
        .keys()
        .any(|why| why.ends_with("read where its woven type does not fit"));
    assert!(
        stats.woven_builds <= builds + usize::from(dropped_data),
        "{name}: {stats:?}"
    );
    let compiled = rebuild.0.iter().filter(|(c, _, _)| *c).count();
    let uncopyable: usize = stats
        .separate_reasons
        .iter()
        .filter(|(why, _)| why.starts_with("an edit"))
        .map(|(_, n)| n)
        .sum();
    assert!(
        stats.woven + uncopyable >= compiled,
        "{name}: {compiled} compiled: {stats:?}"
    );
    assert!(
        !stats
            .separate_reasons
            .contains_key("a build error in no variant"),
        "{name}: {stats:?}"
    );
    (candidates, schema.1.clone())
}

#[test]
fn middle() {
    outcomes_agree("middle", 25);
}

#[test]
fn html_quotes() {
    outcomes_agree("html_quotes", 25);
}

#[test]
fn missing_statement() {
    outcomes_agree("missing_statement", 25);
}

#[test]
fn cli_binary() {
    outcomes_agree("cli", 25);
}

#[test]
fn every_shape_of_function() {
    // `evens` returns `impl Iterator`: it is woven in place, where an error
    // can hide another (a build more).
    agree_on("shapes", 4, &|session| session.sample_candidates(7, 40));
}

/// A library tested by integration tests: a woven build compiles only the
/// targets whose tests the batch may run.
#[test]
fn integration_tests() {
    outcomes_agree("integration", 25);
}

/// Methods written by an exported `macro_rules!` (expanded in the library
/// and in an integration test): copies in the transcriber, a dispatch
/// through `$crate`, one switch for every expansion.
#[test]
fn methods_in_a_macro_body() {
    outcomes_agree("macro_body", 25);
}

/// A table in a `const` read by an index: a woven build makes it a lazily
/// built `static` whose value the switch chooses, so its edits share the
/// batch's build too (the sweep's edits at the table and at the function).
#[test]
fn values_in_a_const_table() {
    let (candidates, stats) = agree_on("const_table", 2, &|session| {
        session.sweep_candidates(40).unwrap()
    });
    // The table is lines 1 to 5 (its doc comment first).
    let data = candidates
        .iter()
        .filter(|c| c.edits().iter().all(|e| e.line <= 5))
        .count();
    assert!(data >= 10, "{data} candidates edit the table");
    assert_eq!(stats.separate, 0, "{stats:?}");
}

/// A `const` read by a method that moves a part out of it, which a lazily
/// built `static` does not allow: the woven build fails in every copy that
/// reads it, the item's weaving is dropped (not its candidates, nor the
/// function's), and its edits are built one by one.
#[test]
fn data_whose_reads_do_not_fit_a_woven_item() {
    let (candidates, stats) = agree_on("moved_data", 2, &|session| {
        session.sweep_candidates(30).unwrap()
    });
    let data = candidates
        .iter()
        .filter(|c| c.edits().iter().all(|e| e.line <= 4))
        .count();
    assert!(data >= 2, "{data} candidates edit the item");
    assert_eq!(
        stats
            .separate_reasons
            .get("an edit of a `const` or `static` read where its woven type does not fit"),
        Some(&data),
        "{stats:?}"
    );
    assert_eq!(stats.woven + data, candidates.len(), "{stats:?}");
}

/// Constants read as values (compared, added, passed on; through a module
/// path; in `assert_eq!` and a closure; in format strings): a woven build
/// reads each through its lazily built `static` (`(*NAME)`, or formatted
/// through it), so their edits share the batch's build, public ones too:
/// `rates::BASE_GRAMS` and `rates::PER_STEP`, which only the crate's code
/// names, and `BASE_PRICE`, which an integration test imports, reads and
/// formats (its reads are rewritten as well). Not `LIMIT_GRAMS`, which a
/// pattern names (no rewrite reaches it), nor `TIERS`, which sizes another
/// item's type: their edits are built one by one.
#[test]
fn constants_read_as_values() {
    let (candidates, stats) = agree_on("postage_rates", 2, &|session| {
        session.sweep_candidates(120).unwrap()
    });
    let line = |c: &Candidate| c.edits().iter().map(|e| e.line).max().unwrap_or(0);
    let count = |lines: &[u32]| {
        candidates
            .iter()
            .filter(|c| lines.contains(&line(c)))
            .count()
    };
    // The constants are lines 6 to 18: BASE_GRAMS 6, PER_STEP 8,
    // BASE_PRICE 12, LIMIT_GRAMS 14, TIERS 16.
    let data = candidates.iter().filter(|c| line(c) <= 18).count();
    let (public, named_outside, unreached) = (count(&[6, 8]), count(&[12]), count(&[14, 16]));
    assert!(
        data >= unreached + 10,
        "{data} candidates edit the constants"
    );
    assert!(public >= 1, "no candidate edits the public rates");
    assert!(named_outside >= 1, "no candidate edits BASE_PRICE");
    assert!(unreached >= 1, "no candidate edits LIMIT_GRAMS");
    assert_eq!(
        stats.separate_reasons.get(
            "an edit of a `const` or `static` read where no rewrite reaches (a `const` context, a pattern)"
        ),
        Some(&unreached),
        "{stats:?}"
    );
    assert_eq!(stats.separate, unreached, "{stats:?}");
}

/// A caller on a budget (the mutation refinement) leaves the candidates
/// that need a build of their own for last: the schema evaluator says
/// which they are before it evaluates them, and says it right.
#[test]
fn the_schema_evaluator_tells_the_candidates_it_builds_alone() {
    let dir = fixture("postage_rates");
    let args = parse_args(["cargo-autofix", "-q"].map(Into::into)).unwrap();
    let session = Session::open(args, dir.path()).unwrap();
    let mut texts = BTreeSet::new();
    let candidates: Vec<Candidate> = session
        .sweep_candidates(120)
        .unwrap()
        .into_iter()
        .filter(|c| texts.insert(session.files_with(c)))
        .collect();
    let (mut evaluator, _) = session.evaluator(EvaluatorKind::Schema).unwrap();
    let alone = candidates
        .iter()
        .filter(|c| evaluator.builds_alone(c))
        .count();
    evaluator
        .evaluate(&candidates, Budget::unlimited(), &|_, _| {})
        .unwrap();
    let stats = evaluator.stats();
    assert!(alone > 0 && stats.woven > 0, "{stats:?}");
    assert_eq!(alone, stats.separate, "{stats:?}");
}

/// Functions returning `impl Iterator`, one a closure that keeps state: no
/// copy of them compiles, so each edited expression or statement is woven
/// in place, the original code first. The sweep's edits there share the
/// batch's builds (rustc reports a mismatched arm of a `match` one at a
/// time, so it takes a few); only those whose type is not the original
/// code's are built one by one.
#[test]
fn functions_woven_in_place() {
    let (candidates, stats) = agree_on("word_pieces", 12, &|session| {
        session.sweep_candidates(120).unwrap()
    });
    assert!(candidates.len() >= 100, "{} candidates", candidates.len());
    assert!(stats.separate * 10 <= candidates.len(), "{stats:?}");
    assert_eq!(
        stats.separate_reasons.keys().collect::<Vec<_>>(),
        ["an edit woven in place whose type is not the original code's"],
        "{stats:?}"
    );
}

/// Trait impls' methods whose helper trait needs what the impl has for
/// free: one that calls the trait's method on another type (`self.0.fmt(f)`
/// in `impl fmt::Display`, the trait not imported: in scope only in its
/// impl, so each copy `use`s it); one of `Add`, which is `Add<Rhs = Self>`
/// (a sized `Rhs`: the helper says `Self: Sized`); one of
/// `PartialEq<&'a [T]>` (the helper says `T: 'a`, which the impl's header
/// implies). Their edits are woven in copies, like any method's: none is
/// built alone, and the batch takes at most two builds.
#[test]
fn a_trait_impls_methods_are_copied() {
    let text = std::fs::read_to_string(format!(
        "{}/testdata/shapes/src/lib.rs",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let lines: Vec<u32> = [
        "self.0.fmt(f)",
        "Point { x: self.x + other.x, y: self.y + other.y }",
        "other.len() == 2 && self.x == other[0].into() && self.y == other[1].into()",
    ]
    .iter()
    .map(|line| text.lines().position(|l| l.trim() == *line).unwrap() as u32 + 1)
    .collect();
    let (candidates, stats) = agree_on("shapes", 2, &|session| {
        session
            .sweep_candidates(5000)
            .unwrap()
            .into_iter()
            .filter(|c| c.edits().iter().all(|e| lines.contains(&e.line)))
            .collect()
    });
    for line in &lines {
        let at = candidates
            .iter()
            .filter(|c| c.edits()[0].line == *line)
            .count();
        assert!(at >= 3, "{at} candidates at line {line}");
    }
    assert_eq!(stats.separate, 0, "{stats:?}");
    assert_eq!(stats.woven, candidates.len(), "{stats:?}");
}

/// A patch's lines are measured in the baseline's scratch copy, one patch
/// after another: what the second measure finds is what a copy of its own
/// finds (no file and no coverage of the first left behind), and the two
/// patches do run different lines.
#[test]
fn a_patch_measured_after_another_runs_what_it_runs_alone() {
    let dir = fixture("two_plausible");
    // Measured, not read back from the cache.
    let open = || {
        let args = parse_args(["cargo-autofix", "-q", "--no-cache"].map(Into::into)).unwrap();
        Session::open(args, dir.path()).unwrap()
    };
    let lib = std::path::PathBuf::from("src/lib.rs");
    let original = std::fs::read_to_string(dir.path().join(&lib)).unwrap();
    let with = |condition: &str| {
        let text = original.replace("if x > 100 {", condition);
        std::collections::BTreeMap::from([(lib.clone(), text)])
    };
    let (wide, narrow) = (with("if x > 9 {"), with("if x > 99 {"));
    // One session at a time: each holds the target dir's build lock.
    let alone = open().lines_with(&narrow).unwrap();
    let session = open();
    let first = session.lines_with(&wide).unwrap();
    let second = session.lines_with(&narrow).unwrap();
    assert_eq!(second, alone);
    let below = "tests::just_below_the_cap";
    assert_ne!(first[below], alone[below], "{first:?}");
}
