//! Shards, for crates that outgrow one machine (`--shard K/N` and
//! `cargo autofix merge`). The sweep's single edits for the first failure
//! group are enumerated the same way on every machine (the same ranking,
//! the same operators, the same batches); shard K of N evaluates every
//! N-th of them from the K-th (0-based) with the sweep's cutoff, and writes
//! their outcomes as JSON. `merge` runs the repair as usual with those
//! outcomes known: the sweep reads them instead of evaluating again (what
//! no shard decided is evaluated), so it decides as an unsharded run with
//! the same seed does, and the merge picks, reduces and validates the same
//! patch. The distributed engine is the user's CI matrix.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::baseline::Baseline;
use crate::cargo::{Panic, Verdict};
use crate::code::source::Location;
use crate::code::source::{Edit, FileId};
use crate::evaluate::TestPlan;
use crate::evaluate::{
    CandidateOutcome, EvaluationCounts, Evaluator, EvaluatorStats, OnDone, PreparedEvaluator,
    evaluate_until_halt,
};
use crate::evaluate::{Cutoff, FitnessModel};
use crate::exit::{Exit, Failure, Halt, Result};
use crate::mutation::{Candidate, Operator, PatchEdit};
use crate::mutation::{Mutator, course};
use crate::repair::sweep::BATCH;
use crate::system::Budget;

/// Which slice of the sweep's edits this run evaluates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 0-based.
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let wrong = || format!("--shard `{text}` is not K/N with 0 <= K < N (e.g. 0/4)");
        let (index, count) = text.split_once('/').ok_or_else(wrong)?;
        let (index, count): (usize, usize) = (
            index.trim().parse().map_err(|_| wrong())?,
            count.trim().parse().map_err(|_| wrong())?,
        );
        if count == 0 || index >= count {
            return Err(wrong());
        }
        Ok(Shard { index, count })
    }
}

/// A shard's outcomes, as written to JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardReport {
    pub version: u32,
    pub package: String,
    /// What identifies the code the edits were made to: the sources'
    /// paths and lengths, and the enumeration (edits, locations).
    pub sources: String,
    pub shard: usize,
    pub shards: usize,
    /// Every single edit of the enumeration, and how many this shard decided.
    pub edits: usize,
    pub decided: usize,
    /// Whether the shard decided all of its slice (not stopped early).
    pub complete: bool,
    pub outcomes: Vec<EditOutcome>,
}

/// One edit and what it did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EditOutcome {
    /// Its place in the enumeration.
    pub index: usize,
    pub file: String,
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub operator: String,
    pub line: u32,
    /// The first compiler error, if it did not build.
    pub unviable: Option<String>,
    /// Each test that ran or kept its verdict: full name and verdict
    /// (`passed`, `timed_out`, or the panic message of a failure).
    pub verdicts: Vec<(String, ShardVerdict)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShardVerdict {
    Passed,
    TimedOut,
    Failed(String),
}

const VERSION: u32 = 1;

/// Every single edit of the sweep at `locations`, in its order and batches.
pub fn enumerate(mutator: &Mutator, locations: &[Location]) -> Vec<PatchEdit> {
    let legs = course(locations);
    let mut edits = Vec::new();
    let mut next = 0;
    while next < legs.len() {
        edits.extend(mutator.batch_at(&legs, &mut next, BATCH, usize::MAX));
    }
    edits
}

/// What identifies the sweep's code and enumeration across machines.
fn identity(baseline: &Baseline, edits: &[PatchEdit]) -> String {
    let files: Vec<String> = baseline
        .sources
        .iter()
        .map(|(_, f)| format!("{}:{}", f.path.display(), f.text.len()))
        .collect();
    let lines: BTreeSet<Location> = edits.iter().map(PatchEdit::location).collect();
    format!(
        "{}; {} edits at {} lines",
        files.join(","),
        edits.len(),
        lines.len()
    )
}

/// Evaluates this shard's slice of `edits` (every `shard.count`-th from
/// `shard.index`) with the sweep's cutoff, batch by batch; a halt (a
/// signal, the end of `budget`) keeps what was decided, and is returned
/// beside it.
pub fn run_shard(
    shard: Shard,
    edits: &[PatchEdit],
    baseline: &Baseline,
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    budget: Budget,
    on_batch: &dyn Fn(usize, usize),
) -> Result<(ShardReport, Option<Halt>)> {
    evaluator.set_cutoff(Some(Cutoff::sweep(model)));
    let mine: Vec<usize> = (shard.index..edits.len()).step_by(shard.count).collect();
    let mut outcomes = Vec::new();
    let mut stopped = None;
    for chunk in mine.chunks(BATCH) {
        let batch: Vec<Candidate> = chunk
            .iter()
            .map(|&i| Candidate::original().with(edits[i].clone()))
            .collect();
        let (decided, halt) = evaluate_until_halt(evaluator, &batch, budget, &|_, _| {})?;
        for (position, outcome) in decided {
            outcomes.push(record(
                chunk[position],
                &edits[chunk[position]],
                &outcome,
                baseline,
            ));
        }
        on_batch(outcomes.len(), mine.len());
        if halt.is_some() {
            stopped = halt;
            break;
        }
    }
    evaluator.set_cutoff(None);
    let report = ShardReport {
        version: VERSION,
        package: baseline.workspace.package.name.clone(),
        sources: identity(baseline, edits),
        shard: shard.index,
        shards: shard.count,
        edits: edits.len(),
        decided: outcomes.len(),
        complete: stopped.is_none(),
        outcomes,
    };
    Ok((report, stopped))
}

fn record(
    index: usize,
    edit: &PatchEdit,
    outcome: &CandidateOutcome,
    baseline: &Baseline,
) -> EditOutcome {
    let (unviable, verdicts) = match outcome {
        CandidateOutcome::Unviable(error) => (Some(error.clone()), Vec::new()),
        CandidateOutcome::Tested(verdicts) => (
            None,
            verdicts
                .iter()
                .map(|(test, verdict)| {
                    let verdict = match verdict {
                        Verdict::Passed => ShardVerdict::Passed,
                        Verdict::TimedOut => ShardVerdict::TimedOut,
                        Verdict::Failed(panic) => ShardVerdict::Failed(panic.message.clone()),
                    };
                    (baseline.suite.get(*test).full_name.clone(), verdict)
                })
                .collect(),
        ),
    };
    EditOutcome {
        index,
        file: baseline
            .sources
            .get(edit.file)
            .path
            .to_string_lossy()
            .replace('\\', "/"),
        start: edit.edit.range.start,
        end: edit.edit.range.end,
        text: edit.edit.text.clone(),
        operator: edit.operator.name().to_string(),
        line: edit.line,
        unviable,
        verdicts,
    }
}

/// Reads shard reports: they must be of this package, agree on the number
/// of shards, and hold each shard once.
pub fn read_shards(paths: &[std::path::PathBuf]) -> Result<Vec<ShardReport>, Failure> {
    let bad = |message: String| Failure::new(Exit::BadPatch, message);
    let mut reports: Vec<ShardReport> = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad(format!("cannot read the shard {}: {e}", path.display())))?;
        let report: ShardReport = serde_json::from_str(&text).map_err(|e| {
            bad(format!(
                "{} is not a shard written by `cargo autofix --shard`: {e}",
                path.display()
            ))
        })?;
        if let Some(first) = reports.first()
            && (first.shards != report.shards || first.sources != report.sources)
        {
            return Err(bad(format!(
                "{} is a shard of another run ({} shards of {}) than the first ({} shards of {}); merge the shards of one run",
                path.display(),
                report.shards,
                report.sources,
                first.shards,
                first.sources
            )));
        }
        if reports.iter().any(|r| r.shard == report.shard) {
            return Err(bad(format!("shard {} is given twice", report.shard)));
        }
        reports.push(report);
    }
    Ok(reports)
}

/// The outcomes of the shards as candidates of this crate, after checking
/// that they were made from the same sources and enumeration (`edits`).
pub fn known_outcomes(
    reports: &[ShardReport],
    edits: &[PatchEdit],
    baseline: &Baseline,
) -> Result<HashMap<Candidate, CandidateOutcome>, Failure> {
    let here = identity(baseline, edits);
    let mut known = HashMap::new();
    for report in reports {
        if report.sources != here || report.package != baseline.workspace.package.name {
            return Err(Failure::new(
                Exit::BadPatch,
                format!(
                    "shard {} was made from other sources or another ranking ({}) than this crate's ({here}); merge where the shards ran, with the same options",
                    report.shard, report.sources
                ),
            ));
        }
        for outcome in &report.outcomes {
            let edit = edit_of(outcome, baseline)
                .filter(|edit| edits.get(outcome.index) == Some(edit))
                .ok_or_else(|| {
                    Failure::new(
                        Exit::BadPatch,
                        format!(
                            "shard {}: edit {} ({}:{}) is not this run's edit {}",
                            report.shard, outcome.index, outcome.file, outcome.line, outcome.index
                        ),
                    )
                })?;
            known.insert(
                Candidate::original().with(edit),
                outcome_of(outcome, baseline),
            );
        }
    }
    Ok(known)
}

fn edit_of(outcome: &EditOutcome, baseline: &Baseline) -> Option<PatchEdit> {
    let file: FileId = baseline.sources.find(Path::new(&outcome.file))?;
    Some(PatchEdit {
        file,
        edit: Edit::replace(outcome.start..outcome.end, outcome.text.clone()),
        operator: outcome.operator.parse::<Operator>().ok()?,
        line: outcome.line,
    })
}

fn outcome_of(outcome: &EditOutcome, baseline: &Baseline) -> CandidateOutcome {
    if let Some(error) = &outcome.unviable {
        return CandidateOutcome::Unviable(error.clone());
    }
    CandidateOutcome::Tested(
        outcome
            .verdicts
            .iter()
            .filter_map(|(name, verdict)| {
                let test = baseline.suite.find(name)?;
                let verdict = match verdict {
                    ShardVerdict::Passed => Verdict::Passed,
                    ShardVerdict::TimedOut => Verdict::TimedOut,
                    ShardVerdict::Failed(message) => Verdict::Failed(Panic {
                        message: message.clone(),
                        ..Panic::default()
                    }),
                };
                Some((test, verdict))
            })
            .collect(),
    )
}

/// An evaluator that answers from known outcomes where it can and asks
/// the one it wraps for the rest.
pub struct Known {
    inner: Box<dyn PreparedEvaluator>,
    known: Arc<HashMap<Candidate, CandidateOutcome>>,
    /// The known candidates answered so far, and how many of them compiled.
    answered: HashSet<Candidate>,
    counts: EvaluationCounts,
}

impl Known {
    pub fn wrap(
        inner: Box<dyn PreparedEvaluator>,
        known: Arc<HashMap<Candidate, CandidateOutcome>>,
    ) -> Known {
        Known {
            inner,
            known,
            answered: HashSet::new(),
            counts: EvaluationCounts::default(),
        }
    }
}

impl Evaluator for Known {
    fn evaluate(
        &mut self,
        batch: &[Candidate],
        budget: Budget,
        on_done: OnDone,
    ) -> Result<Vec<CandidateOutcome>> {
        let unknown: Vec<usize> = (0..batch.len())
            .filter(|&i| !self.known.contains_key(&batch[i]))
            .collect();
        let asked: Vec<Candidate> = unknown.iter().map(|&i| batch[i].clone()).collect();
        let mut answers = if asked.is_empty() {
            Vec::new()
        } else {
            let on_asked =
                |index: usize, outcome: &CandidateOutcome| on_done(unknown[index], outcome);
            self.inner.evaluate(&asked, budget, &on_asked)?
        }
        .into_iter();
        let mut outcomes = Vec::with_capacity(batch.len());
        for (index, candidate) in batch.iter().enumerate() {
            match self.known.get(candidate) {
                Some(outcome) => {
                    // Counted once, as a build of its own would be.
                    if self.answered.insert(candidate.clone()) {
                        self.counts.built += 1;
                        self.counts.compiled += usize::from(outcome.compiled());
                    }
                    on_done(index, outcome);
                    outcomes.push(outcome.clone());
                }
                None => outcomes.push(answers.next().expect("one answer per unknown candidate")),
            }
        }
        Ok(outcomes)
    }

    fn counts(&self) -> EvaluationCounts {
        self.inner.counts() + self.counts
    }

    fn set_cutoff(&mut self, cutoff: Option<Cutoff>) {
        self.inner.set_cutoff(cutoff);
    }

    fn builds_alone(&self, candidate: &Candidate) -> bool {
        !self.known.contains_key(candidate) && self.inner.builds_alone(candidate)
    }
}

impl PreparedEvaluator for Known {
    fn baseline_runs(
        &mut self,
        budget: Budget,
        first: &[Candidate],
    ) -> Result<Vec<CandidateOutcome>> {
        self.inner.baseline_runs(budget, first)
    }

    fn set_plan(&mut self, plan: TestPlan) {
        self.inner.set_plan(plan);
    }

    fn stats(&self) -> EvaluatorStats {
        self.inner.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_k_of_n() {
        assert_eq!("1/4".parse(), Ok(Shard { index: 1, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("0/0".parse::<Shard>().is_err());
        assert!(
            "one/two"
                .parse::<Shard>()
                .unwrap_err()
                .contains("0 <= K < N")
        );
    }
}
