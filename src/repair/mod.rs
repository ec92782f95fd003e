//! The repair: for each failure group in turn, search for a candidate that
//! makes its failing tests pass and keeps every passing test green, reduce
//! it to its essential edits (ddmin), and, while groups remain, re-localize
//! the remaining failures on the crate with the patch so far. Then validate
//! the combined patch on a clean copy and hand it over as a unified diff.

mod bisect;
mod choice;
mod confidence;
mod given;
mod report;
mod search;
mod settings;
mod shard;
mod stage;
mod sweep;
mod validate;
pub use bisect::bisect;
#[cfg(test)]
pub use confidence::Reason;
pub use confidence::{Confidence, Level};
pub use given::{GivenPatch, Judged, Judgement, judge, ready_to_judge};
pub use report::{GenerationPoint, Outcome, RepairReport, StageReport};
pub use shard::{Shard, read_shards};
pub use stage::mutator;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::baseline::Baseline;
use crate::cargo::PROCESS_FAILED;
use crate::code::{FileChange, unified_diff};
use crate::evaluate::prepare;
use crate::exit::{Exit, Failure, Halt, TimeUp};
use crate::localize::Signature;
use crate::localize::{GroupRanking, Localization};
use crate::mutation::Candidate;
use crate::repair::report::{Ending, not_found_message, summarize};
use crate::repair::search::{Scored, Stop};
pub use crate::repair::settings::Settings;
use crate::repair::shard::{ShardReport, enumerate, run_shard};
use crate::repair::stage::{Ground, Stage, StageOutcome, in_diff_only, run_stage, sweep_locations};
use crate::repair::validate::{Validation, validate};
use crate::system::console::{Console, ordinal};
use crate::system::process;

/// What a repair found.
#[derive(Debug)]
pub struct Repair {
    pub report: RepairReport,
    pub ending: RepairEnding,
}

#[derive(Debug)]
pub enum RepairEnding {
    /// A validated patch (a unified diff of the user's files).
    Fixed(String),
    /// No validated patch; why, in one line (a partial patch is in the report).
    NotFixed(String),
    /// Stopped by a signal: the exit code it ends with, how far the search
    /// got, and its best candidate so far (with the patches of the stages
    /// before it) as an unvalidated diff.
    Interrupted {
        exit: Exit,
        note: String,
        best: String,
    },
}

/// The crate with these files (paths and texts) in place, measured and
/// localized again; `None` when every test passes.
pub type Relocalize<'a> =
    dyn FnMut(&BTreeMap<PathBuf, String>) -> Result<Option<(Baseline, Localization)>> + 'a;

/// A step's result, with a halt (a signal or the time limit) set apart
/// from other errors, which pass through.
fn halts<T>(result: Result<T>) -> Result<Result<T, Halt>> {
    match result {
        Ok(value) => Ok(Ok(value)),
        Err(error) => Halt::of(&error).map(Err).ok_or(error),
    }
}

/// Searches for a patch, group by group, and validates the combined patch.
/// `localized_in` is the time the localization took (it counts against the
/// time limit). A signal or the end of the time limit at any step keeps
/// what was found so far: the patch of the groups fixed, and the best
/// candidate of the group being searched.
pub fn repair(
    baseline: &Baseline,
    localization: &Localization,
    settings: &Settings,
    console: &Console,
    localized_in: Duration,
    relocalize: &mut Relocalize,
) -> Result<Repair> {
    let started = Instant::now();
    // The search stops early enough to leave the reduction and validation
    // a share of the time (the hard limit is the process deadline).
    let deadline = settings.time_limit.map(|limit| {
        started
            + limit
                .mul_f64(1.0 - VALIDATION_SHARE)
                .saturating_sub(localized_in)
    });
    let user_files = Candidate::original().files(&baseline.sources.originals());
    let mut patched: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut stages: Vec<Stage> = Vec::new();
    // A stage fixes at least one group, so this many stages fix them all
    // (unless a fixed group's tests fail again: then stop).
    let most_stages = localization.groups.len();
    let mut relocalized: Option<(Baseline, Localization)> = None;
    // Tests of groups that failed only by flakiness (left out, not repaired).
    let mut flaky_groups: BTreeSet<String> = BTreeSet::new();
    // Tests of groups searched without a patch: left, the others tried.
    let mut unfixed_groups: BTreeSet<String> = BTreeSet::new();
    let mut complete = false;
    // Why the repair stopped after a stage that found its patch.
    let mut cut_short: Option<&str> = None;
    // A signal or the time limit, and the best candidate of the stage it
    // stopped (unvalidated, with the patches of the stages before it).
    let mut halted: Option<Halt> = None;
    let mut best_of_stopped: Option<BTreeMap<PathBuf, String>> = None;
    loop {
        let (stage_baseline, stage_localization) = match &relocalized {
            Some((b, l)) => (b, l),
            None => (baseline, localization),
        };
        let mut remaining: Vec<&GroupRanking> = stage_localization
            .groups
            .iter()
            .filter(|g| {
                let tests = stage_baseline.suite.full_names(&g.group.tests);
                !tests.iter().all(|t| flaky_groups.contains(t))
                    && !tests.iter().all(|t| unfixed_groups.contains(t))
            })
            .collect();
        remaining.sort_by_key(|g| unpromising(g));
        let Some(&group) = remaining.first() else {
            complete = unfixed_groups.is_empty();
            break;
        };
        if remaining.len() > 1 || !stages.is_empty() {
            console.status(
                "Repairing",
                format!(
                    "failure group {} ({}): {}",
                    stages.len() + 1,
                    group.group.tests.len(),
                    group.group.description
                ),
            );
        }
        // The search's deadline holds for its processes too, so that the
        // reduction and validation keep their share of the time; each group
        // left has a fair share of what remains (what one leaves unused
        // goes to the next).
        let stage_deadline = deadline.map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now) / remaining.len() as u32
        });
        let outcome = process::with_deadline(stage_deadline, || {
            run_stage(
                stage_baseline,
                group,
                settings,
                console,
                stage_deadline,
                stages.len(),
            )
        });
        let stage = match halts(outcome)? {
            Ok(StageOutcome::Searched(stage)) => *stage,
            Ok(StageOutcome::AllFlaky(flaky)) => {
                // Every failing test of the group is flaky: on to the next.
                flaky_groups.extend(flaky);
                continue;
            }
            Err(halt) => {
                halted = Some(halt);
                break;
            }
        };
        if stage.stop == Stop::Interrupted {
            let mut files = patched.clone();
            files.extend(stage.unreduced.clone());
            best_of_stopped = Some(files);
            halted = Some(Halt::Signal(
                process::stopped_by().unwrap_or(Exit::Interrupted),
            ));
            stages.push(stage);
            break;
        }
        let found = stage.patch.is_some();
        patched.extend(stage.patched.clone());
        let last_group = remaining.len() == 1;
        if !found {
            // On to the next group, with what the time left allows.
            unfixed_groups.extend(stage_baseline.suite.full_names(&group.group.tests));
            stages.push(stage);
            if last_group || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            continue;
        }
        stages.push(stage);
        if last_group {
            complete = unfixed_groups.is_empty();
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            cut_short = Some("the time limit was reached");
        } else if stages.len() >= most_stages {
            cut_short = Some("as many stages ran as there were failure groups at the start");
        }
        if cut_short.is_some() {
            break;
        }
        console.status(
            "Localizing",
            "the remaining failures again, on the crate with the patch so far",
        );
        match halts(relocalize(&patched))? {
            Ok(Some(next)) => relocalized = Some(next),
            Ok(None) => {
                complete = true;
                break;
            }
            Err(halt) => {
                halted = Some(halt);
                break;
            }
        }
    }
    match halted {
        // Reported as not fixed below, with what the run spent.
        Some(Halt::TimeLimit) => {}
        Some(halt) if stages.is_empty() => return Err(halt.into_error()),
        None if stages.is_empty() => {
            return Err(Failure::new(
                Exit::NothingToLocalize,
                "nothing to repair: every failing test is flaky",
            )
            .into());
        }
        _ => {}
    }
    let mut flaky = flaky_groups;
    flaky.extend(stages.iter().flat_map(|s| s.flaky.iter().cloned()));

    // Validate the combined patch (falling back, for a one-stage repair, to
    // the unreduced candidate). A repair cut short after a fixed group
    // validates the patch so far: it may have fixed the other groups too
    // (one wrong entry of a table fails tests in several ways), and the
    // validation's share of the time is enough to find out; if it fails,
    // the other groups' failures remain, and it is not rejected.
    let mut rejected = None;
    let mut diff = None;
    let mut new_warnings: Vec<String> = Vec::new();
    let patch_so_far =
        !complete && (cut_short.is_some() || !unfixed_groups.is_empty() && !patched.is_empty());
    if complete || patch_so_far {
        let validate_started = Instant::now();
        // The patch; for a one-stage repair, then the unreduced candidate
        // and the next plausible patches (a runner-up by its index).
        let mut tries: Vec<(Option<usize>, BTreeMap<PathBuf, String>)> =
            vec![(None, patched.clone())];
        if let [only] = stages.as_slice()
            && complete
        {
            if only.unreduced != only.patched {
                tries.push((None, only.unreduced.clone()));
            }
            let runners = only.runners_up.iter().enumerate();
            tries.extend(runners.map(|(i, r)| (Some(i), r.files.clone())));
        }
        // A patch that passes with new compiler warnings is kept while the
        // next ones are tried for one that adds none.
        let mut chosen: Option<(Option<usize>, Validated)> = None;
        // The first warning of a validated patch that gave way.
        let mut displaced: Option<String> = None;
        for (runner_up, files) in tries {
            let validation =
                validate_files(baseline, &user_files, &files, &flaky, settings, console).map(|v| {
                    if complete {
                        warn_rejected(v, console)
                    } else {
                        v
                    }
                });
            match halts(validation)? {
                Ok(Ok(validated)) => {
                    let clean = validated.warnings.is_empty();
                    match &chosen {
                        None => chosen = Some((runner_up, validated)),
                        Some((_, warned)) if clean => {
                            displaced = warned.warnings.first().cloned();
                            chosen = Some((runner_up, validated));
                        }
                        Some(_) => {}
                    }
                    if clean {
                        break;
                    }
                }
                Ok(Err(reason)) => rejected = complete.then_some(reason),
                Err(halt) => {
                    halted = Some(halt);
                    break;
                }
            }
        }
        if let Some((runner_up, validated)) = chosen {
            if let (Some(i), Some(stage)) = (runner_up, stages.last_mut()) {
                let runner = stage.runners_up.remove(i);
                let why = match &displaced {
                    Some(warning) => {
                        format!("a patch before it adds a compiler warning: {warning}")
                    }
                    None => "the patches before it did not".to_string(),
                };
                console.note(format!(
                    "the next plausible patch passed validation ({why}): {}",
                    runner
                        .edits
                        .iter()
                        .map(|e| format!("{}:{}", e.file.display(), e.line))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                stage.patch = Some(runner.candidate);
                stage.edits = runner.edits;
                stage.patched = runner.files.clone();
                stage.chosen = i + 1;
                patched = runner.files;
            }
            new_warnings = validated.warnings;
            diff = Some(validated.diff);
            complete = true;
        }
        if let Some(stage) = stages.last_mut() {
            stage
                .timings
                .insert("validate", validate_started.elapsed().as_secs_f64());
        }
    }
    let elapsed = localized_in + started.elapsed();
    if let Some(Halt::Signal(exit)) = halted {
        let best = best_of_stopped.unwrap_or_else(|| patched.clone());
        let last = stages.last().expect("a stage ran");
        let note = if last.stop == Stop::Interrupted {
            interrupted_note(last.sweep.edits, last.generations(), &last.best)
        } else {
            "interrupted; the patch for the failure groups fixed so far, not validated:".to_string()
        };
        let best = diff_of(&user_files, &best);
        let mut report = RepairReport::new(
            &stages,
            Ending {
                partial_patch: (!best.is_empty()).then(|| best.clone()),
                ..Ending::default()
            },
            settings,
            localization.metric.name(),
            BTreeMap::new(),
            elapsed,
        );
        report.interrupt(exit, &note);
        return Ok(Repair {
            report,
            ending: RepairEnding::Interrupted { exit, note, best },
        });
    }
    if halted == Some(Halt::TimeLimit) {
        cut_short = Some("the time limit was reached");
    }
    // The patch of the groups fixed, unvalidated: some groups remain, or
    // the time ran out before it was validated.
    let partial = (diff.is_none() && rejected.is_none() && !patched.is_empty())
        .then(|| diff_of(&user_files, &patched));
    let fixed_tests: Vec<String> = if diff.is_some() {
        baseline
            .suite
            .full_names(baseline.failing().map(|r| &r.test))
            .into_iter()
            .filter(|name| !flaky.contains(name))
            .collect()
    } else {
        Vec::new()
    };
    let ending = Ending {
        patch: diff.clone(),
        partial_patch: partial.clone(),
        fixed_tests,
        flaky,
        rejected: rejected.clone(),
        confidence: diff
            .as_ref()
            .map(|_| confidence::assess(&confidence::Evidence::of(&stages, &new_warnings))),
    };
    let report = RepairReport::new(
        &stages,
        ending,
        settings,
        localization.metric.name(),
        BTreeMap::from([("localize".to_string(), localized_in.as_secs_f64())]),
        elapsed,
    );
    summarize(&report, &stages, settings, console);
    if let Some(partial) = &partial {
        let what = if complete {
            "the patch, which passed every test of the search but could not be validated in time"
        } else {
            "the patch for the failure groups fixed so far, not validated (the other failures remain)"
        };
        console.warn(format!("{what}:\n{}", partial.trim_end()));
    }
    let ending = match diff {
        Some(diff) => RepairEnding::Fixed(diff),
        None if complete && rejected.is_none() => RepairEnding::NotFixed(
            "the time limit was reached before the patch above could be validated: check it by hand, or allow more time".to_string(),
        ),
        None if stages.is_empty() => RepairEnding::NotFixed(TimeUp.to_string()),
        None => RepairEnding::NotFixed(not_found_message(&stages, rejected.as_deref(), cut_short)),
    };
    Ok(Repair { report, ending })
}

/// `--shard K/N`: this shard's slice of the single edits of the first
/// failure group's sweep, evaluated, as a report for `merge`, and the halt
/// (a signal, the time limit) that stopped it early, if one did.
pub fn shard_sweep(
    baseline: &Baseline,
    localization: &Localization,
    settings: &Settings,
    shard: Shard,
    console: &Console,
) -> Result<(ShardReport, Option<Halt>)> {
    let group = localization
        .groups
        .first()
        .context("a crate with failing tests has a failure group")?;
    let group = &*in_diff_only(group, settings, baseline);
    let ground = Ground::of(baseline, group, settings, console)?;
    let mutator = ground.mutator(group, settings);
    let edits = enumerate(&mutator, &sweep_locations(&mutator, group));
    let (mut evaluator, model, _) = prepare(
        baseline,
        &group.group.tests,
        settings.weights,
        &settings.evaluation,
        console,
    )?
    .ready(&baseline.suite)?;
    console.status(
        "Sharding",
        format!(
            "shard {} of {}: every {} of the {} single edits from the {}",
            shard.index,
            shard.count,
            ordinal(shard.count),
            edits.len(),
            ordinal(shard.index + 1)
        ),
    );
    let spinner = console.spinner("Sweeping");
    let outcome = run_shard(
        shard,
        &edits,
        baseline,
        &mut *evaluator,
        &model,
        &|done, of| spinner.set_message(format!("{done} of {of} single edits")),
    )?;
    drop(spinner);
    Ok(outcome)
}

/// Whether a group is unlikely to be fixed by an edit: its tests did not
/// panic but hung, exited or were killed (a test that calls
/// `process::exit` fails whatever the crate does). Such groups are searched
/// after the others, which keep the localization's order (the largest
/// first): a critical predicate or a crash is no better a guide, as it is
/// often where a fault shows, not where it is.
fn unpromising(group: &GroupRanking) -> bool {
    match &group.group.signature {
        Signature::TimedOut => true,
        Signature::Message(pattern) => pattern.starts_with(PROCESS_FAILED),
        Signature::PanicAt(_) => false,
    }
}

/// The share of the time limit the search leaves for reducing and
/// validating what it finds.
const VALIDATION_SHARE: f64 = 0.15;

/// A validation of files that passed every test of the search, warned
/// about when it fails.
fn warn_rejected(
    validation: Result<Validated, String>,
    console: &Console,
) -> Result<Validated, String> {
    if let Err(reason) = &validation {
        console.warn(format!(
            "a candidate that passed every test failed validation: {reason}"
        ));
    }
    validation
}

/// Patched files that passed validation: their diff against the user's
/// files, and the compiler warnings they add.
struct Validated {
    diff: String,
    warnings: Vec<String>,
}

/// Runs every test on a clean copy with patched files in place: their diff
/// against the user's files when all pass, else why not.
fn validate_files(
    baseline: &Baseline,
    user_files: &BTreeMap<PathBuf, String>,
    files: &BTreeMap<PathBuf, String>,
    flaky: &BTreeSet<String>,
    settings: &Settings,
    console: &Console,
) -> Result<Result<Validated, String>> {
    let changes: Vec<(PathBuf, String)> = files
        .iter()
        .filter(|(path, text)| user_files.get(*path) != Some(*text))
        .map(|(p, t)| (p.clone(), t.clone()))
        .collect();
    let flaky_names: BTreeSet<String> = flaky
        .iter()
        .filter_map(|full_name| baseline.suite.find(full_name))
        .map(|t| baseline.suite.get(t).name.clone())
        .collect();
    let total: Duration = baseline.records.iter().map(|r| r.outcome.duration).sum();
    let timeout = Duration::from_secs(300) + total * 10;
    let spinner = console.spinner("Validating");
    spinner.set_message("the patch with cargo test on a clean copy");
    let validation = validate(
        &baseline.workspace,
        &changes,
        &settings.evaluation.cargo,
        &flaky_names,
        timeout,
        settings.test_tool,
    )?;
    drop(spinner);
    Ok(match validation {
        Validation::Passed { warnings } => Ok(Validated {
            diff: diff_of(user_files, files),
            warnings,
        }),
        Validation::Failed(reason) => Err(reason),
    })
}

/// The unified diff from the user's files to `files` (those that differ).
fn diff_of(user_files: &BTreeMap<PathBuf, String>, files: &BTreeMap<PathBuf, String>) -> String {
    let changes: Vec<FileChange> = files
        .iter()
        .filter_map(|(path, patched)| {
            let original = user_files.get(path)?;
            (original != patched).then_some(FileChange {
                path,
                original,
                patched,
            })
        })
        .collect();
    unified_diff(&changes)
}

/// What an interrupted stage had: nothing scored yet, nothing better than
/// the crate as it is, or its best candidate.
fn interrupted_note(edits: usize, generations: usize, best: &Scored) -> String {
    if edits == 0 && generations == 0 && best.candidate.is_empty() {
        return "interrupted before any candidate was scored".to_string();
    }
    let so_far = format!("interrupted after {edits} single edits and {generations} generations");
    if best.candidate.is_empty() {
        format!("{so_far}; no candidate did better than the crate as it is")
    } else {
        format!(
            "{so_far}; the best candidate so far has fitness {:.4} and is not validated",
            best.fitness
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::CandidateOutcome;

    #[test]
    fn an_interruption_says_what_was_scored() {
        let original = Scored {
            candidate: Candidate::original(),
            fitness: 0.0,
            outcome: CandidateOutcome::Tested(Vec::new()),
        };
        assert_eq!(
            interrupted_note(0, 0, &original),
            "interrupted before any candidate was scored"
        );
        assert_eq!(
            interrupted_note(12, 0, &original),
            "interrupted after 12 single edits and 0 generations; no candidate did better than the crate as it is"
        );
    }
}
