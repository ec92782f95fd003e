//! `cargo autofix reduce TEST`: the smallest version of a failing test that
//! still fails the same way (delta debugging on its syntax tree, as the
//! seed reduces code). First ddmin over the body's statements (at every
//! depth), each round's subsets woven into one build; then the syntactic
//! reductions of `simplify`, a round of single reductions per build, those
//! that keep the failure taken together when they can be; then statements
//! again, until no reduction keeps the failure. The result is 1-minimal:
//! deleting any one remaining statement no longer fails the same way.
//!
//! "The same way": the failure signature of `localize::groups` (a panic in
//! the crate's code by its line, any other by its message pattern), and the
//! same panic location (so a reduction cannot swap the failing assertion
//! for another that fails with the same message). A version that does not
//! compile is unresolved.

mod body;
mod oracle;
mod simplify;
mod weave;
mod witness;
pub use witness::StillRuns;
#[cfg(test)]
pub use witness::TopLine;

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::baseline::Baseline;
use crate::cargo::{TestId, Verdict};
use crate::code::TestFunction;
use crate::code::{FileChange, unified_diff};
use crate::dd::{DdError, Outcome, ddmin_batched};
use crate::evaluate::FLOOR;
use crate::evaluate::Settings;
use crate::exit::{Error, Exit, Failure, Halt, Result, bail};
use crate::localize::{Signature, describe, signer};
use crate::reduce::body::{Cut, apply, keeping, statements, tidy};
use crate::reduce::oracle::{TestOracle, Trial};
use crate::reduce::simplify::simplifications;
use crate::system::Budget;
use crate::system::console::{Console, Progress};

/// A reduced test, and what the reduction took.
#[derive(Debug, Clone, Serialize)]
pub struct ReducedTest {
    /// The test's name as the tool prints it.
    pub test: String,
    /// Its file, relative to the workspace root.
    pub file: String,
    /// How it fails: the signature and where it panics.
    pub failure: String,
    pub statements_before: usize,
    pub statements_after: usize,
    /// The test function as written, and reduced.
    pub original: String,
    pub reduced: String,
    /// The reduction as a unified diff of the test's file.
    pub diff: String,
    /// Builds of the test's target, and distinct versions of the test run
    /// (or found not to compile).
    pub builds: usize,
    pub versions: usize,
    pub seconds: f64,
    /// Whether the reduction ran to its end (1-minimal); false when the time
    /// limit stopped it (the smallest version found so far is shown).
    pub complete: bool,
    /// What the reduced test still executes of what the original did
    /// (`None` when it could not be measured).
    pub still_runs: Option<StillRuns>,
}

/// How a version of the test fails: its signature, and where it panicked
/// (`file:line`, in the original's lines).
#[derive(Debug, Clone, PartialEq, Eq)]
struct HowItFails {
    signature: Signature,
    at: Option<String>,
}

/// Reduces the test the user names `name` (its full name, as the tool
/// prints it). A name no test has is a usage error; a test that passes has
/// nothing to reduce. The end of `budget` stops it with the smallest
/// version found so far.
pub fn reduce_test(
    baseline: &Baseline,
    name: &str,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<ReducedTest> {
    let started = Instant::now();
    let suite = &baseline.suite;
    let test = suite
        .find(name)
        .ok_or_else(|| unknown_test(baseline, name))?;
    let record = baseline
        .records
        .iter()
        .find(|r| r.test == test && !r.outcome.verdict.passed())
        .ok_or_else(|| {
            Failure::new(
                Exit::NothingToLocalize,
                format!("test `{name}` passes (or did not run): there is no failure to reduce"),
            )
        })?;
    let function = test_function(baseline, test, name)?;
    let timeout = match record.outcome.verdict {
        Verdict::TimedOut => settings.test_timeout,
        _ => (record.outcome.duration * 10)
            .max(FLOOR * 10)
            .min(settings.test_timeout),
    };
    let oracle = TestOracle::new(
        &baseline.workspace,
        function.clone(),
        suite.clone(),
        test,
        timeout,
        settings,
        budget,
    )?;
    let sign = signer(&baseline.sources);
    let original = function.body_text().to_string();
    let before = statements(&original).map_or(0, |s| s.len());
    console.status(
        "Reducing",
        format!(
            "{name} ({before} statements in {})",
            function.path.display()
        ),
    );
    let progress = console.spinner("Reducing");
    let mut reducer = Reducer {
        oracle,
        sign: &sign,
        reference: None,
        best: original.clone(),
        progress,
    };
    let reference = reducer.reference(&original, name)?;
    let failure = match &reference.at {
        Some(at) if !matches!(reference.signature, Signature::PanicAt(_)) => {
            format!(
                "{} at {at}",
                describe(&baseline.sources, &reference.signature)
            )
        }
        _ => describe(&baseline.sources, &reference.signature),
    };
    let (body, complete) = match reducer.reduce(&original) {
        Ok(body) => (body, true),
        Err(Error::Halt(Halt::TimeLimit)) => {
            console.warn("the time limit ran out: the smallest version found so far is shown, and it may not be 1-minimal");
            (reducer.best.clone(), false)
        }
        Err(error) => return Err(error),
    };
    drop(reducer.progress);
    let after = statements(&body).map_or(0, |s| s.len());
    let tidied = tidy(function.body_text(), &body);
    let text = &function.text;
    let reduced_file = format!(
        "{}{tidied}{}",
        &text[..function.body.start],
        &text[function.body.end..]
    );
    let witnessed = witness::still_runs(baseline, test, &function, &reduced_file, settings, budget);
    let still_runs = match witnessed {
        Ok(still_runs) => Some(still_runs),
        Err(Error::Halt(_)) => None,
        Err(error) => {
            console.warn(format!(
                "cannot tell what the reduced test still executes: {error:#}"
            ));
            None
        }
    };
    let mut reduced = presented(
        name,
        &function,
        (&tidied, &reduced_file),
        failure,
        (before, after),
        (reducer.oracle.builds, reducer.oracle.tried),
        started.elapsed(),
        complete,
    );
    reduced.still_runs = still_runs;
    Ok(reduced)
}

/// The error for a name no test has, with the names that contain it.
fn unknown_test(baseline: &Baseline, name: &str) -> Failure {
    let last = name.rsplit(['/', ':']).next().unwrap_or(name);
    let similar: Vec<&str> = baseline
        .suite
        .tests
        .iter()
        .map(|t| t.full_name.as_str())
        .filter(|full| full.contains(last))
        .take(5)
        .collect();
    let hint = if similar.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", similar.join(", "))
    };
    Failure::new(
        Exit::Usage,
        format!(
            "no test is named `{name}` (names as `cargo autofix --rank-only` prints them{hint})"
        ),
    )
}

/// Where test `test` is written.
fn test_function(baseline: &Baseline, test: TestId, name: &str) -> Result<TestFunction> {
    baseline.test_function(test).map_err(|why| {
        Failure::new(
            Exit::NothingToLocalize,
            format!("cannot reduce `{name}`: {why}"),
        )
        .into()
    })
}

/// The reduction's state: the oracle, the failure to keep, and the
/// smallest version known to keep it.
struct Reducer<'a> {
    oracle: TestOracle,
    sign: &'a dyn Fn(&Verdict) -> Signature,
    reference: Option<HowItFails>,
    best: String,
    progress: Progress,
}

impl Reducer<'_> {
    /// How the test as written fails in a scratch copy: the failure to keep.
    fn reference(&mut self, original: &str, name: &str) -> Result<HowItFails> {
        let trial = self.oracle.trials(&[original.to_string()])?.remove(0);
        let how = match &trial {
            Trial::Unresolved(error) => {
                bail!("the test does not build with its copies woven in: {error}")
            }
            Trial::Ran(verdict) => self.how_it_fails(verdict),
        };
        let how = how.ok_or_else(|| {
            Failure::new(
                Exit::NothingToLocalize,
                format!("test `{name}` passed when run again in a scratch copy (a flaky test?): there is no failure to reduce"),
            )
        })?;
        self.reference = Some(how.clone());
        Ok(how)
    }

    fn how_it_fails(&self, verdict: &Verdict) -> Option<HowItFails> {
        let at = match verdict {
            Verdict::Passed => return None,
            Verdict::TimedOut => None,
            Verdict::Failed(panic) => panic
                .location
                .as_deref()
                .and_then(|l| l.rsplit_once(':'))
                .map(|(file_line, _column)| file_line.to_string()),
        };
        Some(HowItFails {
            signature: (self.sign)(verdict),
            at,
        })
    }

    /// Statements, then syntactic reductions, until neither finds one.
    fn reduce(&mut self, original: &str) -> Result<String> {
        let mut body = original.to_string();
        loop {
            body = self.delete_statements(&body)?;
            let mut changed = false;
            while let Some(simpler) = self.simplify(&body)? {
                body = simpler;
                changed = true;
            }
            if !changed {
                return Ok(body);
            }
        }
    }

    /// ddmin over the statements of `body`, a round per build.
    fn delete_statements(&mut self, body: &str) -> Result<String> {
        let Some(found) = statements(body) else {
            return Ok(body.to_string());
        };
        let kept = ddmin_batched(found.len(), |subsets| {
            let bodies: Vec<String> = subsets
                .iter()
                .map(|kept| keeping(body, &found, kept))
                .collect();
            self.outcomes(&bodies)
        })?;
        match kept {
            Ok(kept) => Ok(keeping(body, &found, &kept)),
            // Known to fail, so only a flaky test gets here: keep it as is.
            Err(DdError::NotFailing | DdError::NotPassing) => Ok(body.to_string()),
        }
    }

    /// One round of syntactic reductions: every single one tried in one
    /// build; those that keep the failure taken together if that keeps it
    /// too, else the first. `None` if none keeps it.
    fn simplify(&mut self, body: &str) -> Result<Option<String>> {
        // Inputs only for a panic in the crate's code (see `simplify`).
        let crash = self
            .reference
            .as_ref()
            .is_some_and(|r| matches!(r.signature, Signature::PanicAt(_)));
        let cuts = simplifications(body, crash);
        if cuts.is_empty() {
            return Ok(None);
        }
        let bodies: Vec<String> = cuts.iter().map(|cut| apply(body, &[cut])).collect();
        let outcomes = self.outcomes(&bodies)?;
        let kept: Vec<&Cut> = cuts
            .iter()
            .zip(outcomes)
            .filter(|(_, outcome)| *outcome == Outcome::Fail)
            .map(|(cut, _)| cut)
            .collect();
        let Some(first) = kept.first() else {
            return Ok(None);
        };
        let mut together: Vec<&Cut> = Vec::new();
        for cut in &kept {
            if !together.iter().any(|t| t.overlaps(cut)) {
                together.push(cut);
            }
        }
        if together.len() > 1 {
            let combined = apply(body, &together);
            if self.outcomes(std::slice::from_ref(&combined))?[0] == Outcome::Fail {
                return Ok(Some(combined));
            }
        }
        Ok(Some(apply(body, &[first])))
    }

    /// Each body's outcome: `Fail` if it fails as the test does, `Pass` if
    /// it passes, `Unresolved` if it does not compile or fails otherwise.
    fn outcomes(&mut self, bodies: &[String]) -> Result<Vec<Outcome>> {
        let trials = self.oracle.trials(bodies)?;
        let mut outcomes = Vec::with_capacity(trials.len());
        for (body, trial) in bodies.iter().zip(trials) {
            let outcome = match &trial {
                Trial::Unresolved(_) => Outcome::Unresolved,
                Trial::Ran(Verdict::Passed) => Outcome::Pass,
                Trial::Ran(verdict) if self.how_it_fails(verdict) == self.reference => {
                    Outcome::Fail
                }
                Trial::Ran(_) => Outcome::Unresolved,
            };
            if outcome == Outcome::Fail && size(body) < size(&self.best) {
                self.best = body.clone();
            }
            outcomes.push(outcome);
        }
        self.progress.set_message(format!(
            "{} statements so far; {} builds, {} versions tried",
            statements(&self.best).map_or(0, |s| s.len()),
            self.oracle.builds,
            self.oracle.tried
        ));
        Ok(outcomes)
    }
}

/// How much code a body holds: its characters other than blanks.
fn size(body: &str) -> usize {
    body.chars().filter(|c| !c.is_whitespace()).count()
}

/// The result as the user sees it: the reduced function tidied, in its
/// file, and the diff.
#[allow(clippy::too_many_arguments)]
fn presented(
    name: &str,
    function: &TestFunction,
    (tidied, reduced_file): (&str, &str),
    failure: String,
    (statements_before, statements_after): (usize, usize),
    (builds, versions): (usize, usize),
    took: Duration,
    complete: bool,
) -> ReducedTest {
    let text = &function.text;
    let line_start = text[..function.item.start].rfind('\n').map_or(0, |i| i + 1);
    let reduced_end = function.body.start + tidied.len();
    ReducedTest {
        test: name.to_string(),
        file: function.path.to_string_lossy().replace('\\', "/"),
        failure,
        statements_before,
        statements_after,
        original: format!("{}\n", &text[line_start..function.item.end]),
        reduced: format!("{}\n", &reduced_file[line_start..reduced_end]),
        diff: unified_diff(&[FileChange {
            path: &function.path,
            original: text,
            patched: reduced_file,
        }]),
        builds,
        versions,
        seconds: took.as_secs_f64(),
        complete,
        still_runs: None,
    }
}
