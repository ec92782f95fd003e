//! Setting up evaluation for a baseline: the test plan of a failure group,
//! the evaluator the settings name, its baseline runs (which find flaky
//! tests), and the fitness model.

use std::collections::BTreeSet;

use crate::baseline::Baseline;
use crate::baseline::is_no_std;
use crate::cargo::{TestId, TestSuite, Verdict};
use crate::code::files_outside;
use crate::evaluate::copy::BuildCopy;
use crate::evaluate::data_reads::words_among;
use crate::evaluate::fitness::{FitnessModel, Weights};
use crate::evaluate::functions::Functions;
use crate::evaluate::plan::{Cutoff, TestPlan};
use crate::evaluate::rebuild::RebuildEvaluator;
use crate::evaluate::schema::SchemaEvaluator;
use crate::evaluate::{CandidateOutcome, EvaluatorKind, PreparedEvaluator, Settings};
use crate::exit::{Error, Exit, Failure, Halt, Result, bail};
use crate::mutation::{Candidate, constants};
use crate::system::Budget;
use crate::system::console::Console;
use crate::system::scratch::MAIN_TARGET;

/// An evaluator ready for a search, or why there is nothing to search for.
#[allow(clippy::large_enum_variant)]
pub enum Prepared {
    Ready {
        evaluator: Box<dyn PreparedEvaluator>,
        model: FitnessModel,
        /// Tests whose outcome changed between runs: left out of the model.
        flaky: Vec<TestId>,
    },
    /// Every failing test to fix turned out to be flaky.
    AllFlaky { flaky: Vec<TestId> },
}

/// A ready evaluator, its fitness model and the flaky tests.
pub type Ready = (Box<dyn PreparedEvaluator>, FitnessModel, Vec<TestId>);

impl Prepared {
    /// The evaluator, model and flaky tests; when every failing test
    /// turned out to be flaky, the failure that says so (exit 6, as for a
    /// repair: for the commands that have nothing else to do then).
    pub fn ready(self, suite: &TestSuite) -> Result<Ready> {
        match self {
            Prepared::Ready {
                evaluator,
                model,
                flaky,
            } => Ok((evaluator, model, flaky)),
            Prepared::AllFlaky { flaky } => Err(all_flaky(&suite.full_names(&flaky)).into()),
        }
    }
}

/// Why there is nothing to repair when every failing test is flaky.
const ALL_FLAKY: &str = "nothing to repair: every failing test is flaky";

/// The failure that ends a run when every failing test turned out to be
/// flaky: exit 6 (nothing to localize), whichever command found it; it
/// names the flaky tests (full names) when given them.
pub fn all_flaky(flaky: &[String]) -> Failure {
    let why = if flaky.is_empty() {
        ALL_FLAKY.to_string()
    } else {
        format!(
            "{ALL_FLAKY} (a different outcome on a re-run): {}",
            flaky.join(", ")
        )
    };
    Failure::new(Exit::NothingToLocalize, why)
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Prepared::Ready { flaky, .. } => write!(f, "Ready {{ flaky: {flaky:?} }}"),
            Prepared::AllFlaky { flaky } => write!(f, "AllFlaky {{ flaky: {flaky:?} }}"),
        }
    }
}

/// An evaluator of `settings.kind` for the baseline's crate, running tests
/// by `plan` (the schema evaluator's copy made unless `budget` ends first).
pub fn build_evaluator(
    baseline: &Baseline,
    plan: TestPlan,
    settings: &Settings,
    budget: Budget,
) -> Result<Box<dyn PreparedEvaluator>> {
    let sources = &baseline.sources;
    let originals = sources.originals();
    let rebuild = RebuildEvaluator::new(
        &baseline.workspace,
        originals.clone(),
        baseline.suite.clone(),
        plan,
        settings,
    );
    Ok(match settings.kind {
        EvaluatorKind::Rebuild => Box::new(rebuild),
        EvaluatorKind::Schema => {
            let roots = sources
                .roots
                .iter()
                .map(|&r| (r, is_no_std(&sources.get(r).syntax)))
                .collect();
            // The package's other files read the crate's data items too:
            // a woven build rewrites their reads as well (it holds those
            // that name an item it may weave).
            let package = &baseline.workspace.package;
            let mut outside = files_outside(package.dir(), &baseline.workspace.root, sources);
            let name = package.lib_name();
            let ours: Vec<&str> = name
                .iter()
                .map(String::as_str)
                .chain(["crate", "self", "super"])
                .collect();
            let functions = Functions::of(sources, &baseline.keep_const, &outside, &ours);
            let data = functions.woven_data();
            outside.retain(|(_, text)| !words_among(text, &data).is_empty());
            let originals = originals.followed_by(outside);
            let workspace = &baseline.workspace;
            let copy = BuildCopy::new(workspace, &originals, &settings.cargo, MAIN_TARGET, budget)?;
            Box::new(SchemaEvaluator::new(
                copy,
                rebuild,
                originals,
                roots,
                functions,
                baseline.suite.clone(),
                settings,
            ))
        }
    })
}

/// The plan for running `failing` first, then `passing`, with each test's
/// baseline duration and coverage (a `const` item counts as covered by a
/// test that ran a line naming it: an edit to its data affects that test).
pub fn test_plan(
    baseline: &Baseline,
    failing: &[TestId],
    passing: &[TestId],
    settings: &Settings,
) -> TestPlan {
    let tests = baseline.suite.tests.len();
    let data = constants(&baseline.sources);
    let mut durations = vec![None; tests];
    let mut coverage = vec![BTreeSet::new(); tests];
    for record in &baseline.records {
        if record.outcome.verdict != Verdict::TimedOut {
            durations[record.test.index()] = Some(record.outcome.duration);
        }
        let mut lines = record.lines.clone();
        lines.extend(
            data.iter()
                .filter(|c| !c.read_at.is_disjoint(&record.lines))
                .map(|c| c.location),
        );
        coverage[record.test.index()] = lines;
    }
    TestPlan::new(
        failing.to_vec(),
        passing.to_vec(),
        durations,
        coverage,
        settings.test_timeout,
    )
}

/// Builds the evaluator, runs the unchanged crate on every build it uses,
/// and derives the fitness model for making the tests `failing` pass while
/// keeping the passing ones green, leaving out tests whose outcome changed
/// between runs (flaky). `first`, the sweep's first candidates, are judged
/// in the build the unchanged crate runs in where the evaluator weaves
/// (with the sweep's cutoff; a build less), and kept unless a flaky test
/// changes the plan. The end of `budget` halts it.
pub fn prepare(
    baseline: &Baseline,
    failing: &[TestId],
    first: &[Candidate],
    weights: Weights,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Prepared> {
    let mut passed_before = vec![None; baseline.suite.tests.len()];
    for record in &baseline.records {
        passed_before[record.test.index()] = Some(record.outcome.verdict.passed());
    }
    let passing: Vec<TestId> = baseline.passing().map(|r| r.test).collect();
    let mut evaluator = build_evaluator(
        baseline,
        test_plan(baseline, failing, &passing, settings),
        settings,
        budget,
    )?;
    let spinner = console.spinner("Preparing");
    spinner.set_message("scratch copies for the search (their first build takes longest)");
    let unless_flaky = FitnessModel {
        weights,
        originally_passing: passing.iter().copied().collect(),
        originally_failing: failing.iter().copied().collect(),
    };
    evaluator.set_cutoff(Some(Cutoff::sweep(&unless_flaky)));
    let reruns = evaluator.baseline_runs(budget, first);
    evaluator.set_cutoff(None);
    let reruns = match reruns {
        // The time ran out in the first candidates' build or runs: what
        // they decided is kept for the search (which ends at once with
        // it), and no test is known to be flaky.
        Err(Error::Halt(Halt::TimeLimit)) if !first.is_empty() => Vec::new(),
        reruns => reruns?,
    };
    drop(spinner);
    let mut flaky = BTreeSet::new();
    for rerun in &reruns {
        match rerun {
            CandidateOutcome::Unviable(error) => {
                bail!("the unchanged crate does not build in a scratch copy: {error}")
            }
            CandidateOutcome::Tested(verdicts) => {
                for (test, verdict) in verdicts {
                    if passed_before[test.index()] != Some(verdict.passed()) {
                        flaky.insert(*test);
                    }
                }
            }
        }
    }
    let flaky: Vec<TestId> = flaky.into_iter().collect();
    if !flaky.is_empty() {
        console.warn(format!(
            "flaky tests (a different outcome on a re-run) are left out of the fitness: {}",
            baseline.suite.full_names(&flaky).join(", ")
        ));
    }
    let keep = |tests: &[TestId]| -> Vec<TestId> {
        tests
            .iter()
            .copied()
            .filter(|t| !flaky.contains(t))
            .collect()
    };
    let (failing, passing) = (keep(failing), keep(&passing));
    if failing.is_empty() {
        return Ok(Prepared::AllFlaky { flaky });
    }
    if !flaky.is_empty() {
        evaluator.set_plan(test_plan(baseline, &failing, &passing, settings));
    }
    let model = FitnessModel {
        weights,
        originally_passing: passing.into_iter().collect(),
        originally_failing: failing.into_iter().collect(),
    };
    Ok(Prepared::Ready {
        evaluator,
        model,
        flaky,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::Error;

    /// A suite of one library test (what `ready` reads: the full names).
    fn suite_of(full_name: &str) -> TestSuite {
        serde_json::from_value(serde_json::json!({
            "executables": [],
            "tests": [{
                "executable": 0,
                "name": full_name,
                "full_name": full_name,
                "ignored": false,
                "whole_executable": false,
            }],
            "root": "",
            "packages": [],
        }))
        .unwrap()
    }

    #[test]
    fn every_failing_test_flaky_exits_6() {
        // validate, bisect, --shard and the MCP server: `ready`.
        let all_flaky_tests = Prepared::AllFlaky {
            flaky: vec![TestId::new(0)],
        };
        let Err(error) = all_flaky_tests.ready(&suite_of("tests::flaky")) else {
            panic!("every failing test flaky is not ready");
        };
        assert_eq!(error.exit(), Exit::NothingToLocalize);
        assert_eq!(
            error.to_string(),
            "nothing to repair: every failing test is flaky (a different outcome on a re-run): tests::flaky"
        );
        // The repair, which finds it group by group.
        let error = Error::from(all_flaky(&[]));
        assert_eq!(error.exit(), Exit::NothingToLocalize);
        assert_eq!(
            error.to_string(),
            "nothing to repair: every failing test is flaky"
        );
    }
}
