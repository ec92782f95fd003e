//! Patches from anywhere (`cargo autofix validate`): each unified diff read
//! back as span edits of the original files, all of them evaluated as one
//! batch by the repair's evaluator (one woven build where they can be
//! woven), and ranked: the patches that pass every test first, in the
//! order the repair's patch choice gives them (the one that disturbs the
//! passing tests least first), then the others by fitness. With `reduce`,
//! the first is reduced with ddmin and validated on a clean copy, as a
//! repair's patch is.

use std::collections::BTreeSet;

use crate::baseline::Baseline;
use crate::cargo::TestId;
use crate::code::Spans;
use crate::code::source::{Edit, FileId, Location};
use crate::code::{hunk_edits, parse_diff};
use crate::evaluate::CandidateOutcome;
use crate::evaluate::FitnessModel;
use crate::evaluate::{Ready, prepare};
use crate::exit::{Exit, Failure, Result};
use crate::mutation::{Candidate, Operator, PatchEdit};
use crate::repair::choice::rank_plausible;
use crate::repair::search::Scored;
use crate::repair::settings::Settings;
use crate::repair::stage::reduce;
use crate::repair::validate::{validate_files, warn_rejected};
use crate::system::Budget;
use crate::system::console::Console;

/// A patch to evaluate: a name (its file, or the name given with it) and
/// a unified diff.
#[derive(Debug, Clone)]
pub struct GivenPatch {
    pub name: String,
    pub diff: String,
}

/// What one patch did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Judged {
    pub name: String,
    /// Why it could not be evaluated (it does not apply); the rest is empty then.
    pub refused: Option<String>,
    /// The first compiler error, if it does not build.
    pub build_error: Option<String>,
    pub fitness: f64,
    /// Passes every test (flaky ones left out).
    pub plausible: bool,
    /// Originally failing tests it makes pass, and those still failing.
    pub fixes: Vec<String>,
    pub still_failing: Vec<String>,
    /// Originally passing tests it breaks.
    pub breaks: Vec<String>,
    /// For plausible patches: lines the originally passing tests that reach
    /// its edits execute, or no longer execute, with it (null: not measured).
    pub behaviour_change: Option<usize>,
}

/// Every patch judged, best first (refused ones last), and the reduced and
/// validated best one when asked for.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Judgement {
    pub patches: Vec<Judged>,
    pub flaky_tests: Vec<String>,
    pub reduced: Option<Reduced>,
}

/// The best plausible patch reduced with ddmin, and its validation.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Reduced {
    pub name: String,
    pub edits_before: usize,
    pub edits_after: usize,
    /// The reduced patch, if `cargo test` passed on a clean copy with it.
    pub patch: Option<String>,
    /// Why validation rejected it.
    pub rejected: Option<String>,
}

/// The edits of `diff` against the crate's original files: one per run of
/// changed lines, each at the ranked line whose code it changes, or
/// [`Location::anywhere`] when it changes code outside statements (an
/// item, a signature) or several statements at once.
pub fn candidate_of(diff: &str, baseline: &Baseline, spans: &Spans) -> Result<Candidate, String> {
    let sources = &baseline.sources;
    let mut edits = Vec::new();
    for file_patch in parse_diff(diff)? {
        let file = sources.find_diff_path(&file_patch.path).ok_or_else(|| {
            format!(
                "it changes {}, which is not a source file of the library under repair",
                file_patch.path
            )
        })?;
        let text = &sources.get(file).text;
        let file_edits = hunk_edits(text, &file_patch.hunks)
            .map_err(|e| format!("{} in {}", e, file_patch.path))?;
        for edit in file_edits {
            let location = edit_location(text, &edit, file, spans);
            edits.push(PatchEdit {
                file,
                edit,
                operator: Operator::Given,
                line: location.line,
            });
        }
    }
    if edits.is_empty() {
        return Err("it changes nothing".to_string());
    }
    Ok(Candidate::from_edits(edits))
}

/// The ranked line whose code `edit` changes: the one line whose span holds
/// every line the edit touches, else anywhere.
fn edit_location(text: &str, edit: &Edit, file: FileId, spans: &Spans) -> Location {
    let line_of = |byte: usize| text[..byte].matches('\n').count() as u32 + 1;
    let first = line_of(edit.range.start);
    // An edit of whole lines ends at the start of the line after them.
    let last = line_of(edit.range.end.saturating_sub(1).max(edit.range.start));
    let span_at = |line: u32| spans.get(Location::new(file, line));
    let holding = (1..=first)
        .rev()
        .find(|&line| span_at(line).is_some_and(|s| s.line <= first && last <= s.end_line));
    match holding {
        // No other statement starts within the edit, so it touches no other.
        Some(line) if (line + 1..=last).all(|l| span_at(l).is_none()) => Location::new(file, line),
        _ => Location::anywhere(file),
    }
}

/// The evaluator that judges given patches: a scratch copy of the crate
/// built, its baseline runs done (which find the flaky tests), unless
/// `budget` ends first.
pub fn ready_to_judge(
    baseline: &Baseline,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Ready> {
    let failing: Vec<TestId> = baseline.failing().map(|r| r.test).collect();
    prepare(
        baseline,
        &failing,
        &[],
        settings.weights,
        &settings.evaluation,
        console,
        budget,
    )?
    .ready(&baseline.suite)
}

/// Evaluates `given` as one batch with `ready` (from [`ready_to_judge`]
/// on the same baseline; it serves batch after batch), ranks the
/// plausible ones as the repair's patch choice does, and reduces and
/// validates the best one if `reduce_best`. Fails (exit 9) when no patch
/// applies. The end of `budget` halts it.
pub fn judge(
    given: &[GivenPatch],
    baseline: &Baseline,
    ready: &mut Ready,
    settings: &Settings,
    reduce_best: bool,
    console: &Console,
    budget: Budget,
) -> Result<Judgement> {
    let spans = Spans::of(&baseline.sources);
    let candidates: Vec<Result<Candidate, String>> = given
        .iter()
        .map(|g| candidate_of(&g.diff, baseline, &spans))
        .collect();
    let mut refusals = Vec::new();
    for (patch, candidate) in given.iter().zip(&candidates) {
        if let Err(why) = candidate {
            console.warn(format!("{} does not apply: {why}", patch.name));
            refusals.push(format!("{}: {why}", patch.name));
        }
    }
    if refusals.len() == given.len() {
        return Err(Failure::new(
            Exit::BadPatch,
            format!(
                "none of the given patches applies to the crate ({})",
                refusals.join("; ")
            ),
        )
        .into());
    }
    let (evaluator, model, flaky) = (&mut ready.0, &ready.1, &ready.2);
    let batch: Vec<Candidate> = candidates.iter().flatten().cloned().collect();
    let spinner = console.spinner("Evaluating");
    spinner.set_message(format!("{} patches as one batch", batch.len()));
    let mut outcomes = evaluator.evaluate(&batch, budget, &|_, _| {})?.into_iter();
    drop(spinner);
    let mut judged = Vec::new();
    let mut plausible: Vec<(usize, Scored)> = Vec::new();
    for (patch, candidate) in given.iter().zip(candidates) {
        let candidate = match candidate {
            Ok(candidate) => candidate,
            Err(why) => {
                judged.push(refused(&patch.name, why));
                continue;
            }
        };
        let outcome = outcomes.next().expect("one outcome per candidate");
        let verdict = judged_outcome(&patch.name, &outcome, baseline, model);
        if verdict.plausible {
            plausible.push((
                judged.len(),
                Scored {
                    fitness: verdict.fitness,
                    candidate,
                    outcome,
                },
            ));
        }
        judged.push(verdict);
    }
    // The plausible ones in the order of the repair's patch choice.
    let scored: Vec<Scored> = plausible.iter().map(|(_, s)| s.clone()).collect();
    let chosen = rank_plausible(&scored, baseline, model, None, settings, None, budget)?;
    let mut order: Vec<usize> = Vec::new();
    for alternative in &chosen {
        // Two patches with the same edits are two entries, in their order.
        let (index, _) = plausible
            .iter()
            .find(|(i, s)| !order.contains(i) && s.candidate == alternative.scored.candidate)
            .expect("a ranked patch is one of the plausible ones");
        judged[*index].behaviour_change = alternative.measures.behaviour_change;
        order.push(*index);
    }
    let mut rest: Vec<usize> = (0..judged.len()).filter(|i| !order.contains(i)).collect();
    rest.sort_by(|&a, &b| {
        let key = |j: &Judged| (j.refused.is_some(), j.build_error.is_some());
        key(&judged[a])
            .cmp(&key(&judged[b]))
            .then(judged[b].fitness.total_cmp(&judged[a].fitness))
    });
    order.extend(rest);
    let flaky_names = baseline.suite.full_names(flaky);
    let reduced = match chosen.first() {
        Some(best) if reduce_best => {
            let name = judged[order[0]].name.clone();
            Some(reduce_and_validate(
                name,
                &best.scored.candidate,
                &mut **evaluator,
                model,
                baseline,
                &flaky_names,
                settings,
                console,
                budget,
            )?)
        }
        _ => None,
    };
    let mut by_index: Vec<Option<Judged>> = judged.into_iter().map(Some).collect();
    Ok(Judgement {
        patches: order.iter().filter_map(|&i| by_index[i].take()).collect(),
        flaky_tests: flaky_names,
        reduced,
    })
}

fn refused(name: &str, why: String) -> Judged {
    Judged {
        name: name.to_string(),
        refused: Some(why),
        build_error: None,
        fitness: 0.0,
        plausible: false,
        fixes: Vec::new(),
        still_failing: Vec::new(),
        breaks: Vec::new(),
        behaviour_change: None,
    }
}

fn judged_outcome(
    name: &str,
    outcome: &CandidateOutcome,
    baseline: &Baseline,
    model: &FitnessModel,
) -> Judged {
    let passed = outcome.passed();
    let names = |tests: &BTreeSet<TestId>, pass: bool| -> Vec<String> {
        baseline
            .suite
            .full_names(tests.iter().filter(|t| passed.contains(t) == pass))
    };
    // A patch that does not build ran no test: it fixes none and breaks none.
    let build_error = match outcome {
        CandidateOutcome::Unviable(error) => Some(error.clone()),
        CandidateOutcome::Tested(_) => None,
    };
    let ran = build_error.is_none();
    Judged {
        name: name.to_string(),
        refused: None,
        fitness: outcome.fitness(model),
        plausible: outcome.passes_all(model),
        fixes: names(&model.originally_failing, true),
        still_failing: names(&model.originally_failing, false),
        breaks: if ran {
            names(&model.originally_passing, false)
        } else {
            Vec::new()
        },
        build_error,
        behaviour_change: None,
    }
}

#[allow(clippy::too_many_arguments)]
fn reduce_and_validate(
    name: String,
    candidate: &Candidate,
    evaluator: &mut dyn crate::evaluate::Evaluator,
    model: &FitnessModel,
    baseline: &Baseline,
    flaky: &[String],
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Reduced> {
    let reduced = reduce(candidate, evaluator, model, console, budget)?;
    let originals = baseline.sources.originals();
    let user_files = Candidate::original().files(&originals);
    let files = reduced.files(&originals);
    let flaky: BTreeSet<String> = flaky.iter().cloned().collect();
    let validation = warn_rejected(
        validate_files(
            baseline,
            &user_files,
            &files,
            &flaky,
            settings,
            console,
            budget,
        )?,
        console,
    );
    Ok(Reduced {
        name,
        edits_before: candidate.len(),
        edits_after: reduced.len(),
        patch: validation.as_ref().ok().map(|v| v.diff.clone()),
        rejected: validation.err(),
    })
}
