//! The repair: for each failure group in turn, search for a candidate that
//! makes its failing tests pass and keeps every passing test green, reduce
//! it to its essential edits (ddmin), and, while groups remain, re-localize
//! the remaining failures on the crate with the patch so far. Then validate
//! the combined patch on a clean copy and hand it over as a unified diff.

mod answer;
mod behaviour;
mod bisect;
mod choice;
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

use crate::baseline::Baseline;
use crate::evaluate::{all_flaky, prepare};
use crate::exit::{Context, Exit, Halt, Result, halts};
use crate::localize::{GroupRanking, Localization};
use crate::mutation::Candidate;
use crate::repair::report::{Ending, not_found_message, summarize};
use crate::repair::search::{Scored, Stop};
pub use crate::repair::settings::Settings;
use crate::repair::shard::{ShardReport, enumerate, run_shard};
use crate::repair::stage::{
    Ground, Stage, StageOutcome, guiding_crash, in_diff_only, run_stage, sweep_locations,
};
use crate::repair::validate::{Validated, diff_of, validate_files, warn_rejected};
use crate::system::console::{Console, ordinal};
use crate::system::{Budget, process};

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
            BTreeMap::from([("localize".to_string(), localized_in.as_secs_f64())]),
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

/// How the stages ended.
#[derive(Debug)]
enum StagesEnd {
    /// Every group fixed, or no failure left on the crate with the patch.
    Complete,
    /// Every group searched, some without a patch.
    Exhausted,
    /// Stopped after a fixed group with groups left: why.
    CutShort(&'static str),
    /// A signal or the time limit, and the best candidate of the stage it
    /// stopped (unvalidated, with the patches of the stages before it).
    Halted {
        halt: Halt,
        best: Option<BTreeMap<PathBuf, String>>,
    },
}

/// The stages that ran, the patch of the groups they fixed, and how they
/// ended.
struct Stages {
    stages: Vec<Stage>,
    patched: BTreeMap<PathBuf, String>,
    /// Tests of groups that failed only by flakiness (left out, not
    /// repaired).
    flaky_groups: BTreeSet<String>,
    /// Tests of groups searched without a patch.
    unfixed_groups: BTreeSet<String>,
    end: StagesEnd,
}

impl Stages {
    /// Every test found flaky, by the groups or within a stage.
    fn flaky_tests(&self) -> BTreeSet<String> {
        let mut flaky = self.flaky_groups.clone();
        flaky.extend(self.stages.iter().flat_map(|s| s.flaky.iter().cloned()));
        flaky
    }

    /// Whether there is a patch to validate: every group fixed, or the
    /// patch so far. A repair cut short after a fixed group validates the
    /// patch so far: it may have fixed the other groups too (one wrong
    /// entry of a table fails tests in several ways), and the validation's
    /// share of the time is enough to find out; if it fails, the other
    /// groups' failures remain, and it is not rejected.
    fn to_validate(&self) -> bool {
        match self.end {
            StagesEnd::Complete | StagesEnd::CutShort(_) => true,
            _ => !self.unfixed_groups.is_empty() && !self.patched.is_empty(),
        }
    }

    fn complete(&self) -> bool {
        matches!(self.end, StagesEnd::Complete)
    }

    fn signal(&self) -> Option<Exit> {
        match self.end {
            StagesEnd::Halted {
                halt: Halt::Signal(exit),
                ..
            } => Some(exit),
            _ => None,
        }
    }
}

/// Runs a stage per failure group, largest first, re-localizing on the
/// patch so far after each fixed group, until every group is fixed or tried,
/// the time is up, or a signal stops it.
fn run_stages(
    baseline: &Baseline,
    localization: &Localization,
    settings: &Settings,
    console: &Console,
    deadline: Option<Instant>,
    relocalize: &mut Relocalize,
    budget: Budget,
) -> Result<Stages> {
    let mut run = Stages {
        stages: Vec::new(),
        patched: BTreeMap::new(),
        flaky_groups: BTreeSet::new(),
        unfixed_groups: BTreeSet::new(),
        end: StagesEnd::Exhausted,
    };
    // A stage fixes at least one group, so this many stages fix them all
    // (unless a fixed group's tests fail again: then stop).
    let most_stages = localization.groups.len();
    let mut relocalized: Option<(Baseline, Localization)> = None;
    run.end = loop {
        let (stage_baseline, stage_localization) = match &relocalized {
            Some((b, l)) => (b, l),
            None => (baseline, localization),
        };
        let remaining: Vec<&GroupRanking> = stage_localization
            .groups
            .iter()
            .filter(|g| {
                let tests = stage_baseline.suite.full_names(&g.group.tests);
                !tests.iter().all(|t| run.flaky_groups.contains(t))
                    && !tests.iter().all(|t| run.unfixed_groups.contains(t))
            })
            .collect();
        let Some(group) = order::next(&remaining) else {
            break finished(&run.unfixed_groups);
        };
        let searched = Searched {
            baseline: stage_baseline,
            group,
            left: remaining.len(),
            before: run.stages.len(),
        };
        let stage = match halts(searched.run(settings, console, deadline, budget))? {
            Ok(StageOutcome::Searched(stage)) => *stage,
            Ok(StageOutcome::AllFlaky(flaky)) => {
                // Every failing test of the group is flaky: on to the next.
                run.flaky_groups.extend(flaky);
                continue;
            }
            Err(halt) => break StagesEnd::Halted { halt, best: None },
        };
        if stage.stop == Stop::Interrupted {
            let mut best = run.patched.clone();
            best.extend(stage.unreduced.clone());
            run.stages.push(stage);
            let exit = process::stopped_by().unwrap_or(Exit::Interrupted);
            break StagesEnd::Halted {
                halt: Halt::Signal(exit),
                best: Some(best),
            };
        }
        let found = stage.patch.is_some();
        run.patched.extend(stage.patched.clone());
        let last_group = remaining.len() == 1;
        let time_up = deadline.is_some_and(|d| Instant::now() >= d);
        run.stages.push(stage);
        if !found {
            // On to the next group, with what the time left allows.
            let tests = stage_baseline.suite.full_names(&group.group.tests);
            run.unfixed_groups.extend(tests);
            if last_group || time_up {
                break StagesEnd::Exhausted;
            }
            continue;
        }
        if last_group {
            break finished(&run.unfixed_groups);
        }
        if time_up {
            break StagesEnd::CutShort("the time limit was reached");
        }
        if run.stages.len() >= most_stages {
            break StagesEnd::CutShort(
                "as many stages ran as there were failure groups at the start",
            );
        }
        console.status(
            "Localizing",
            "the remaining failures again, on the crate with the patch so far",
        );
        match halts(relocalize(&run.patched))? {
            Ok(Some(next)) => relocalized = Some(next),
            Ok(None) => break StagesEnd::Complete,
            Err(halt) => break StagesEnd::Halted { halt, best: None },
        }
    };
    Ok(run)
}

/// A failure group to search, with how many groups are left (itself
/// included) and how many stages ran before it.
struct Searched<'a> {
    baseline: &'a Baseline,
    group: &'a GroupRanking,
    left: usize,
    before: usize,
}

impl Searched<'_> {
    /// Runs the group's stage. The search's deadline holds for its
    /// processes too (it narrows `budget`, the run's), so that the
    /// reduction and validation keep their share of the time; each group
    /// left has a fair share of what remains (what one leaves unused goes
    /// to the next).
    fn run(
        &self,
        settings: &Settings,
        console: &Console,
        deadline: Option<Instant>,
        budget: Budget,
    ) -> Result<StageOutcome> {
        let group = &self.group.group;
        if self.left > 1 || self.before > 0 {
            let which = format!("failure group {} ({})", self.before + 1, group.tests.len());
            console.status("Repairing", format!("{which}: {}", group.description));
        }
        let stage_deadline = deadline.map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now) / self.left as u32
        });
        run_stage(
            self.baseline,
            self.group,
            settings,
            console,
            stage_deadline,
            (self.before, self.before + self.left),
            budget.sooner(stage_deadline),
        )
    }
}

/// The end when no group is left to search: complete unless some group
/// was searched without a patch.
fn finished(unfixed_groups: &BTreeSet<String>) -> StagesEnd {
    if unfixed_groups.is_empty() {
        StagesEnd::Complete
    } else {
        StagesEnd::Exhausted
    }
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
    let mut tries: Vec<(Option<usize>, BTreeMap<PathBuf, String>)> =
        vec![(None, run.patched.clone())];
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
