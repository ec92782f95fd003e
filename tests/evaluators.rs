//! The two evaluators agree: the same candidates, built one by one and
//! woven into shared builds (mutant schemata), get the same outcomes.

mod common;

use std::collections::BTreeSet;

use cargo_autofix::config::Config;
use cargo_autofix::console::Console;
use cargo_autofix::evaluate::CandidateOutcome;
use cargo_autofix::localize::rank_suspects;
use cargo_autofix::options::{EvaluatorKind, Options};
use cargo_autofix::{baseline, cli, repair};
use common::fixture;
use rand::SeedableRng;
use rand::rngs::StdRng;

fn outcomes_agree(name: &str, count: usize) {
    let dir = fixture(name);
    let manifest = dir.path().join("Cargo.toml");
    let args = cli::parse_args(
        [
            "cargo-autofix",
            "-q",
            "--manifest-path",
            manifest.to_str().unwrap(),
        ]
        .map(Into::into),
    )
    .unwrap();
    let workspace =
        cargo_autofix::cargo::discover::discover(&args.package_query(), dir.path()).unwrap();
    let mut options = Options::new(args, Config::default()).unwrap();
    let console = Console { quiet: true };
    let baseline = baseline::establish(workspace, &options, &console, &Default::default()).unwrap();
    let suspects = rank_suspects(&baseline.spectrum(), options.metric);
    let space = repair::mutation_space(&baseline, &options);
    let mutator = repair::mutator(&space, &baseline, &suspects, &options);

    let candidates = mutator.sample(&mut StdRng::seed_from_u64(7), count);
    assert_eq!(
        candidates.len(),
        count,
        "{name}: too few distinct mutations"
    );

    let mut results = Vec::new();
    for kind in [EvaluatorKind::Rebuild, EvaluatorKind::Schema] {
        options.evaluator = kind;
        let (mut evaluator, model, _) = repair::prepare_evaluation(
            &baseline,
            &baseline.failing().map(|r| r.test).collect::<Vec<_>>(),
            &options,
            &console,
        )
        .unwrap();
        let outcomes = evaluator.evaluate(&candidates, &|_| {}).unwrap();
        let summary: Vec<(bool, BTreeSet<usize>, f64)> = outcomes
            .iter()
            .map(|o: &CandidateOutcome| (o.compiled(), o.passed(), o.fitness(&model)))
            .collect();
        results.push((summary, evaluator.stats()));
    }
    let (rebuild, schema) = (&results[0], &results[1]);
    for (index, (one, woven)) in rebuild.0.iter().zip(&schema.0).enumerate() {
        assert_eq!(
            one,
            woven,
            "{name}: candidate {index} ({:?}) differs",
            candidates[index].edits()
        );
    }
    // The separate path is mostly spent on candidates that do not compile
    // (which need a build of their own anyway); a few that compile cannot
    // be switched at run time (an inserted or deleted `let`).
    let compiled = rebuild.0.iter().filter(|(c, _, _)| *c).count();
    assert!(schema.1.woven > 0, "{name}: nothing woven: {:?}", schema.1);
    let compiled_but_separate = compiled.saturating_sub(schema.1.woven);
    assert!(
        compiled_but_separate * 4 <= candidates.len(),
        "{name}: {compiled} compiled, {:?}",
        schema.1
    );
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
