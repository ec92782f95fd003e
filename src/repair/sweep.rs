//! The sweep: every single edit every operator can make at each suspicious
//! location, location by location in rank order, evaluated in large
//! batches. Most bugs a test suite can pin down are fixed by one edit, and
//! trying them all where the fault most likely is finds them without luck
//! (PraPR, TBar). The sweep stops at the first location with an edit that
//! makes every test pass (the rest of its batch, that location included,
//! is evaluated anyway), at its deadline, or when the locations run out.
//!
//! No randomness: the same crate gives the same sweep with any seed.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Result;

use crate::cargo::suite::TestId;
use crate::code::source::Location;
use crate::evaluate::fitness::FitnessModel;
use crate::evaluate::plan::Cutoff;
use crate::evaluate::{CandidateOutcome, Evaluator};
use crate::exit::{Exit, Failure};
use crate::mutation::mutator::Mutator;
use crate::mutation::patch::{Candidate, Operator};
use crate::repair::search::{LocationFeedback, OperatorCounts, Scored};

/// Why the sweep stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepStop {
    /// A single edit passes every test.
    Found,
    /// Every edit at every location was tried.
    Exhausted,
    TimeLimit,
    Interrupted,
}

/// What the sweep found.
#[derive(Debug, Clone)]
pub struct Swept {
    /// Single edits that pass every test, in the order tried.
    pub plausible: Vec<Scored>,
    /// Single edits that make some failing test pass and break no passing
    /// test, fittest first: seeds for the genetic search.
    pub partial: Vec<Scored>,
    /// The fittest candidate evaluated (the original if nothing beat it).
    pub best: Option<Scored>,
    pub stop: SweepStop,
    /// Single edits evaluated, and at how many locations.
    pub edits: usize,
    pub locations: usize,
    pub operators: BTreeMap<Operator, OperatorCounts>,
    /// Per location, what its edits did.
    pub feedback: BTreeMap<Location, LocationFeedback>,
    /// Originally failing tests that some edit made pass.
    pub passed: Vec<TestId>,
}

/// Candidates per batch, at least (whole locations are added until a batch
/// has this many).
pub const BATCH: usize = 200;

/// Sweeps `locations` (in the order given) until `deadline`; `on_batch`
/// hears the locations swept and the edits evaluated so far.
pub fn sweep(
    mutator: &Mutator,
    locations: &[Location],
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    deadline: Option<Instant>,
    on_batch: &dyn Fn(usize, usize),
) -> Result<Swept> {
    let mut swept = Swept {
        plausible: Vec::new(),
        partial: Vec::new(),
        best: None,
        stop: SweepStop::Exhausted,
        edits: 0,
        locations: 0,
        operators: BTreeMap::new(),
        feedback: BTreeMap::new(),
        passed: Vec::new(),
    };
    // An edit that fixes no failing test is of no use here: its passing
    // tests need not run.
    let original = model.of_passed(&model.originally_passing);
    evaluator.set_cutoff(Some(Cutoff {
        model: model.clone(),
        threshold: original + 1e-9,
    }));
    let mut next = 0;
    while next < locations.len() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            swept.stop = SweepStop::TimeLimit;
            break;
        }
        // Whole locations until the batch is large enough.
        let mut batch = Vec::new();
        while next < locations.len() && batch.len() < BATCH {
            batch.extend(mutator.every_edit_at(locations[next]));
            next += 1;
        }
        let candidates: Vec<Candidate> = batch
            .iter()
            .map(|edit| Candidate::original().with(edit.clone()))
            .collect();
        let outcomes = match evaluator.evaluate(&candidates, &|_| {}) {
            Ok(outcomes) => outcomes,
            Err(error) if Failure::is(&error, Exit::Interrupted) => {
                swept.stop = SweepStop::Interrupted;
                break;
            }
            Err(error) => return Err(error),
        };
        swept.locations = next;
        swept.edits += candidates.len();
        for ((candidate, outcome), edit) in candidates.into_iter().zip(outcomes).zip(&batch) {
            note(&mut swept, edit.operator, edit.location(), &outcome, model);
            let fitness = outcome.fitness(model);
            let scored = Scored {
                candidate,
                outcome,
                fitness,
            };
            if swept.best.as_ref().is_none_or(|b| fitness > b.fitness) {
                swept.best = Some(scored.clone());
            }
            if scored.outcome.passes_all(model) {
                swept.plausible.push(scored);
            } else if fitness > original && fixes_without_breaking(&scored.outcome, model) {
                swept.partial.push(scored);
            }
        }
        on_batch(swept.locations, swept.edits);
        if !swept.plausible.is_empty() {
            swept.stop = SweepStop::Found;
            break;
        }
    }
    evaluator.set_cutoff(None);
    swept
        .partial
        .sort_by(|a, b| b.fitness.total_cmp(&a.fitness));
    Ok(swept)
}

/// Counts an edit's outcome for its operator and its location.
fn note(
    swept: &mut Swept,
    operator: Operator,
    location: Location,
    outcome: &CandidateOutcome,
    model: &FitnessModel,
) {
    let counts = swept.operators.entry(operator).or_default();
    counts.tried += 1;
    counts.compiled += usize::from(outcome.compiled());
    let CandidateOutcome::Tested(verdicts) = outcome else {
        return;
    };
    for (test, verdict) in verdicts {
        if verdict.passed()
            && model.originally_failing.contains(test)
            && !swept.passed.contains(test)
        {
            swept.passed.push(*test);
        }
    }
    let feedback = swept.feedback.entry(location).or_default();
    if verdicts
        .iter()
        .any(|(t, v)| !v.passed() && model.originally_passing.contains(t))
    {
        feedback.broke += 1;
    } else if fixes_without_breaking(outcome, model) {
        feedback.helped += 1;
    }
}

/// Whether an outcome makes some originally failing test pass, and every
/// originally passing test that ran still passes.
fn fixes_without_breaking(outcome: &CandidateOutcome, model: &FitnessModel) -> bool {
    let CandidateOutcome::Tested(verdicts) = outcome else {
        return false;
    };
    let fixes = verdicts
        .iter()
        .any(|(t, v)| v.passed() && model.originally_failing.contains(t));
    let breaks = verdicts
        .iter()
        .any(|(t, v)| !v.passed() && model.originally_passing.contains(t));
    fixes && !breaks
}
