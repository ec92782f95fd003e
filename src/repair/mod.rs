//! The repair: for each failure group in turn, search for a candidate that
//! makes its failing tests pass and keeps every passing test green, reduce
//! it to its essential edits (ddmin), and, while groups remain, re-localize
//! the remaining failures on the crate with the patch so far. Then validate
//! the combined patch on a clean copy and hand it over as a unified diff.

mod answer;
mod behaviour;
mod bisect;
mod choice;
mod comparisons;
mod confidence;
mod given;
mod order;
mod reading;
mod report;
mod rivals;
mod search;
mod settings;
mod shard;
mod stage;
mod stages;
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
pub use stages::Relocalize;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::baseline::Baseline;
use crate::code::without_neutral_assignments;
use crate::evaluate::{all_flaky, prepare};
use crate::exit::{Context, Exit, Halt, Result, halts};
use crate::localize::Localization;
use crate::mutation::Candidate;
use crate::repair::report::{Ending, not_found_message, summarize};
use crate::repair::search::{Scored, Stop};
pub use crate::repair::settings::Settings;
use crate::repair::shard::{ShardReport, enumerate, run_shard};
use crate::repair::stage::{Ground, guiding_crash, in_diff_only, sweep_locations};
use crate::repair::stages::{Stages, StagesEnd, run_stages};
use crate::repair::validate::{Validated, diff_of, validate_files, warn_rejected};
use crate::system::Budget;
use crate::system::console::{Console, ordinal};

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

/// The localization's seconds, `localize`, and its parts: `localize/build`,
/// `localize/tests`, `localize/traces` (measuring the baseline, unless it
/// was read back), `localize/switching`, `localize/mutants`.
fn localize_timings(
    localized_in: Duration,
    baseline: &Baseline,
    localization: &Localization,
) -> BTreeMap<String, f64> {
    let parts = baseline.seconds.iter().chain(&localization.seconds);
    std::iter::once(("localize".to_string(), localized_in.as_secs_f64()))
        .chain(parts.map(|(part, seconds)| (format!("localize/{part}"), *seconds)))
        .collect()
}

/// Searches for a patch, group by group, and validates the combined patch.
/// `localized_in` is the time the localization took (it counts against the
/// time limit). A signal or the end of `budget` (the run's: the time
/// limit) at any step keeps what was found so far: the patch of the groups
/// fixed, and the best candidate of the group being searched.
pub fn repair(
    baseline: &Baseline,
    localization: &Localization,
    settings: &Settings,
    console: &Console,
    localized_in: Duration,
    relocalize: &mut Relocalize,
    budget: Budget,
) -> Result<Repair> {
    let started = Instant::now();
    // The search stops early enough to leave the reduction and validation
    // a share of the time (the hard limit is the run's budget).
    let deadline = settings.time_limit.map(|limit| {
        started
            + limit
                .mul_f64(1.0 - VALIDATION_SHARE)
                .saturating_sub(localized_in)
    });
    let user_files = Candidate::original().files(&baseline.sources.originals());
    let mut run = run_stages(
        baseline,
        localization,
        settings,
        console,
        deadline,
        relocalize,
        budget,
    )?;
    if run.stages.is_empty() {
        match run.end {
            // Reported as not fixed, with what the run spent.
            StagesEnd::Halted {
                halt: Halt::TimeLimit,
                ..
            } => {}
            StagesEnd::Halted { halt, .. } => return Err(halt.into()),
            _ => return Err(all_flaky(&[]).into()),
        }
    }
    let flaky = run.flaky_tests();
    let checked = if run.to_validate() {
        check_patch(
            &mut run,
            baseline,
            &user_files,
            &flaky,
            settings,
            console,
            budget,
        )?
    } else {
        Checked::default()
    };
    let elapsed = localized_in + started.elapsed();
    if let Some(exit) = checked.signal().or(run.signal()) {
        return Ok(interrupted(
            run,
            exit,
            &user_files,
            settings,
            localization,
            elapsed,
        ));
    }
    let concluded = Concluded {
        run,
        checked,
        elapsed,
        localized_in,
    };
    Ok(concluded.report(baseline, &user_files, localization, settings, console))
}

/// The stages and their validation, with what they spent.
struct Concluded {
    run: Stages,
    checked: Checked,
    elapsed: Duration,
    localized_in: Duration,
}

impl Concluded {
    /// The report and the ending of a repair not stopped by a signal: the
    /// validated patch, or why none, with the patch of the groups fixed
    /// (unvalidated) when there is one.
    fn report(
        self,
        baseline: &Baseline,
        user_files: &BTreeMap<PathBuf, String>,
        localization: &Localization,
        settings: &Settings,
        console: &Console,
    ) -> Repair {
        let Concluded {
            run,
            checked,
            elapsed,
            localized_in,
        } = self;
        let flaky = run.flaky_tests();
        let cut_short = match (&run.end, &checked.halt) {
            (_, Some(Halt::TimeLimit))
            | (
                StagesEnd::Halted {
                    halt: Halt::TimeLimit,
                    ..
                },
                _,
            ) => Some("the time limit was reached"),
            (StagesEnd::CutShort(why), _) => Some(*why),
            _ => None,
        };
        // Complete: every group fixed, or the patch so far validated.
        let complete = matches!(run.end, StagesEnd::Complete) || checked.diff.is_some();
        // The patch of the groups fixed, unvalidated: some groups remain, or
        // the time ran out before it was validated.
        let partial =
            (checked.diff.is_none() && checked.rejected.is_none() && !run.patched.is_empty())
                .then(|| diff_of(user_files, &run.patched));
        let fixed_tests: Vec<String> = if checked.diff.is_some() {
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
            patch: checked.diff.clone(),
            partial_patch: partial.clone(),
            fixed_tests,
            flaky,
            rejected: checked.rejected.clone(),
            still_failing: checked.still_failing.clone(),
            validated_with: checked.validated_with.clone(),
            confidence: checked.diff.as_ref().map(|_| {
                confidence::assess(&confidence::Evidence::of(
                    &run.stages,
                    &checked.new_warnings,
                ))
            }),
        };
        let report = RepairReport::new(
            &run.stages,
            ending,
            settings,
            localization.metric.name(),
            localize_timings(localized_in, baseline, localization),
            elapsed,
        );
        summarize(&report, &run.stages, settings, console);
        if let Some(partial) = &partial {
            let what = if complete {
                "the patch, which passed every test of the search but could not be validated in time"
            } else {
                "the patch for the failure groups fixed so far, not validated (the other failures remain)"
            };
            console.warn(format!("{what}:\n{}", partial.trim_end()));
        }
        let ending = match checked.diff {
            Some(diff) => RepairEnding::Fixed(diff),
            None if complete && checked.rejected.is_none() => {
                RepairEnding::NotFixed(NOT_VALIDATED_IN_TIME.to_string())
            }
            None if run.stages.is_empty() => RepairEnding::NotFixed(Halt::TimeLimit.to_string()),
            None => RepairEnding::NotFixed(not_found_message(
                &run.stages,
                checked.rejected.as_deref(),
                cut_short,
            )),
        };
        Repair { report, ending }
    }
}

/// Why a repair whose patch passed every test of the search ends without
/// one.
const NOT_VALIDATED_IN_TIME: &str = "the time limit was reached before the patch above could be validated: check it by hand, or allow more time";

/// `patched` with the neutral assignments it made deleted (`e.offset += 0;`
/// is the deletion of that statement, and reads as one); `None` when it
/// made none.
fn natural_form(
    user_files: &BTreeMap<PathBuf, String>,
    patched: &BTreeMap<PathBuf, String>,
) -> Option<BTreeMap<PathBuf, String>> {
    let mut changed = false;
    let files = patched
        .iter()
        .map(|(path, text)| {
            let natural = user_files
                .get(path)
                .and_then(|original| without_neutral_assignments(original, text));
            changed |= natural.is_some();
            (path.clone(), natural.unwrap_or_else(|| text.clone()))
        })
        .collect();
    changed.then_some(files)
}

/// What the validation of the stages' patch found: the validated diff and
/// the warnings it adds, why it was rejected, or the halt that stopped it.
#[derive(Debug, Default)]
struct Checked {
    diff: Option<String>,
    new_warnings: Vec<String>,
    still_failing: Vec<String>,
    validated_with: Option<String>,
    rejected: Option<String>,
    halt: Option<Halt>,
}

impl Checked {
    fn signal(&self) -> Option<Exit> {
        match self.halt {
            Some(Halt::Signal(exit)) => Some(exit),
            _ => None,
        }
    }
}

/// Validates the combined patch; for a one-stage repair that fixed every
/// group, then the unreduced candidate and the next plausible patches (a
/// runner-up by its index), until one passes with no new compiler warning
/// (one that passes with warnings is kept while the next are tried). A
/// runner-up that passes replaces the stage's patch.
fn check_patch(
    run: &mut Stages,
    baseline: &Baseline,
    user_files: &BTreeMap<PathBuf, String>,
    flaky: &BTreeSet<String>,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Checked> {
    let validate_started = Instant::now();
    let complete = run.complete();
    // The patch in its natural form first, when it has one.
    let mut tries: Vec<(Option<usize>, BTreeMap<PathBuf, String>)> =
        natural_form(user_files, &run.patched)
            .into_iter()
            .map(|files| (None, files))
            .collect();
    tries.push((None, run.patched.clone()));
    if let [only] = run.stages.as_slice()
        && complete
    {
        if only.unreduced != only.patched {
            tries.push((None, only.unreduced.clone()));
        }
        let runners = only.runners_up.iter().enumerate();
        tries.extend(runners.map(|(i, r)| (Some(i), r.files.clone())));
    }
    let mut checked = Checked::default();
    let mut chosen: Option<(Option<usize>, Validated)> = None;
    // The first warning of a validated patch that gave way.
    let mut displaced: Option<String> = None;
    for (runner_up, files) in tries {
        let validation = validate_files(
            baseline, user_files, &files, flaky, settings, console, budget,
        )
        .map(|v| {
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
            Ok(Err(reason)) => checked.rejected = complete.then_some(reason),
            Err(halt) => {
                checked.halt = Some(halt);
                break;
            }
        }
    }
    if let Some((runner_up, validated)) = chosen {
        if let (Some(i), Some(stage)) = (runner_up, run.stages.last_mut()) {
            let runner = stage.runners_up.remove(i);
            let why = match &displaced {
                Some(warning) => format!("a patch before it adds a compiler warning: {warning}"),
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
            run.patched = runner.files;
        }
        if !validated.still_failing.is_empty() {
            console.warn(format!(
                "with the patch, these tests still fail as they did without it (the search does not run them): {}",
                validated.still_failing.join(", ")
            ));
        }
        checked.new_warnings = validated.warnings;
        checked.still_failing = validated.still_failing;
        checked.validated_with = Some(validated.ran);
        checked.diff = Some(validated.diff);
    }
    if let Some(stage) = run.stages.last_mut() {
        stage
            .timings
            .insert("validate", validate_started.elapsed().as_secs_f64());
    }
    Ok(checked)
}

/// The repair stopped by a signal: its best candidate so far (or the patch
/// of the groups fixed), unvalidated.
fn interrupted(
    run: Stages,
    exit: Exit,
    user_files: &BTreeMap<PathBuf, String>,
    settings: &Settings,
    localization: &Localization,
    elapsed: Duration,
) -> Repair {
    let best = match run.end {
        StagesEnd::Halted {
            best: Some(best), ..
        } => best,
        _ => run.patched.clone(),
    };
    let last = run.stages.last().expect("a stage ran");
    let note = if last.stop == Stop::Interrupted {
        interrupted_note(last.sweep.edits, last.generations(), &last.best)
    } else {
        "interrupted; the patch for the failure groups fixed so far, not validated:".to_string()
    };
    let best = diff_of(user_files, &best);
    let mut report = RepairReport::new(
        &run.stages,
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
    Repair {
        report,
        ending: RepairEnding::Interrupted { exit, note, best },
    }
}

/// `--shard K/N`: this shard's slice of the single edits of the first
/// failure group's sweep, evaluated, as a report for `merge`, and the halt
/// (a signal, the end of `budget`) that stopped it early, if one did.
pub fn shard_sweep(
    baseline: &Baseline,
    localization: &Localization,
    settings: &Settings,
    shard: Shard,
    console: &Console,
    budget: Budget,
) -> Result<(ShardReport, Option<Halt>)> {
    let group = localization
        .groups
        .first()
        .context("a crate with failing tests has a failure group")?;
    let group = &*in_diff_only(group, settings, baseline);
    let ground = Ground::of(baseline, group, settings, console, budget)?;
    let mutator = ground.mutator(group, settings);
    let crash = guiding_crash(group, localization.groups.len());
    let edits = enumerate(&mutator, &sweep_locations(&mutator, group, crash));
    let (mut evaluator, model, _) = prepare(
        baseline,
        &group.group.tests,
        &[],
        settings.weights,
        &settings.evaluation,
        console,
        budget,
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
        budget,
        &|done, of| spinner.set_message(format!("{done} of {of} single edits")),
    )?;
    drop(spinner);
    Ok(outcome)
}

/// The share of the time limit the search leaves for reducing and
/// validating what it finds.
const VALIDATION_SHARE: f64 = 0.15;

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
