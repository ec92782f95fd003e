//! The benchmark corpus is sound: it parses, every bug names a subject, and
//! every fixture bug checks out (the original passes `cargo test`, the buggy
//! version builds and fails some but not all tests). Crate subjects need
//! crates.io and are checked by the benchmark itself when it sets them up.

// Tests and the benchmark drive processes and print as they like: the
// invariants in clippy.toml are the product's.
#![allow(clippy::disallowed_methods, clippy::print_stderr)]

#[path = "../bench/corpus.rs"]
mod corpus;

use std::path::Path;

fn load() -> corpus::Corpus {
    corpus::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/corpus.toml")).unwrap()
}

#[test]
fn the_corpus_parses_and_covers_the_required_kinds() {
    let corpus = load();
    let crates = corpus.subjects.iter().filter(|s| !s.is_fixture()).count();
    let crate_bugs = corpus
        .bugs
        .iter()
        .filter(|b| {
            corpus
                .subjects
                .iter()
                .any(|s| s.name == b.subject && !s.is_fixture())
        })
        .count();
    assert!(crates >= 5, "{crates} crates");
    assert!(crate_bugs >= 25, "{crate_bugs} bugs in crates");
    for kind in [
        "comparison",
        "arithmetic",
        "logical",
        "off-by-one",
        "wrong-variable",
        "negated-condition",
        "wrong-literal",
        "missing-statement",
        "wrong-method",
    ] {
        assert!(
            corpus.bugs.iter().any(|b| b.kind == kind),
            "no bug of kind {kind}"
        );
    }
    let mut ids: Vec<&str> = corpus.bugs.iter().map(|b| b.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), corpus.bugs.len(), "bug ids are not unique");
    let cases = corpus.cases();
    assert!(
        cases
            .iter()
            .any(|c| c.bugs.len() >= 2 && !c.subject.is_fixture()),
        "no case with several faults in a crate"
    );
    for subject in corpus.subjects.iter().filter(|s| !s.is_fixture()) {
        assert!(
            subject.krate.is_some() && subject.version.is_some(),
            "{} needs crate and version",
            subject.name
        );
    }
}

#[test]
fn every_fixture_bug_checks_out() {
    let corpus = load();
    let fixtures: Vec<&corpus::Subject> =
        corpus.subjects.iter().filter(|s| s.is_fixture()).collect();
    assert!(!fixtures.is_empty());
    let sources = corpus::Sources::fetch(&fixtures).unwrap();
    for case in corpus.cases().iter().filter(|c| c.subject.is_fixture()) {
        let check = corpus::check(&sources, case).unwrap();
        assert!(check.ok(), "{}: {check:?}", case.id);
    }
}
