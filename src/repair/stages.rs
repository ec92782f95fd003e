//! The stages of a repair: with several failure groups, first a sweep
//! for all their failing tests at once (one fault often fails tests in
//! ways that group apart); then a stage per failure group, largest first,
//! each with a fair share of the time left, re-localizing on the patch so
//! far after each fixed group.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Instant;

use crate::baseline::Baseline;
use crate::exit::{Exit, Halt, Result, halts};
use crate::localize::{GroupRanking, Localization};
use crate::repair::order;
use crate::repair::search::Stop;
use crate::repair::settings::Settings;
use crate::repair::stage::{Stage, StageOutcome, run_stage};
use crate::system::console::Console;
use crate::system::{Budget, process};

/// The crate with these files (paths and texts) in place, measured and
/// localized again; `None` when every test passes.
pub type Relocalize<'a> =
    dyn FnMut(&BTreeMap<PathBuf, String>) -> Result<Option<(Baseline, Localization)>> + 'a;

/// How the stages ended.
#[derive(Debug)]
pub(super) enum StagesEnd {
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
pub(super) struct Stages {
    pub(super) stages: Vec<Stage>,
    pub(super) patched: BTreeMap<PathBuf, String>,
    /// Tests of groups that failed only by flakiness (left out, not
    /// repaired).
    pub(super) flaky_groups: BTreeSet<String>,
    /// Tests of groups searched without a patch.
    pub(super) unfixed_groups: BTreeSet<String>,
    pub(super) end: StagesEnd,
}

impl Stages {
    /// Every test found flaky, by the groups or within a stage.
    pub(super) fn flaky_tests(&self) -> BTreeSet<String> {
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
    pub(super) fn to_validate(&self) -> bool {
        match self.end {
            StagesEnd::Complete | StagesEnd::CutShort(_) => true,
            _ => !self.unfixed_groups.is_empty() && !self.patched.is_empty(),
        }
    }

    /// Keeps `stage`, stopped by a signal, and ends with its best
    /// candidate over the patch so far.
    fn interrupted(&mut self, stage: Stage) -> StagesEnd {
        let mut best = self.patched.clone();
        best.extend(stage.unreduced.clone());
        self.stages.push(stage);
        let exit = process::stopped_by().unwrap_or(Exit::Interrupted);
        StagesEnd::Halted {
            halt: Halt::Signal(exit),
            best: Some(best),
        }
    }

    pub(super) fn complete(&self) -> bool {
        matches!(self.end, StagesEnd::Complete)
    }

    pub(super) fn signal(&self) -> Option<Exit> {
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
pub(super) fn run_stages(
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
    if let Some(end) = one_fault_first(
        &mut run,
        baseline,
        localization,
        settings,
        console,
        deadline,
        budget,
    )? {
        run.end = end;
        return Ok(run);
    }
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
            together: false,
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
            break run.interrupted(stage);
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

/// With several failure groups, a sweep for all their tests at once
/// first, on the overall ranking, with a fair share of the time (a share
/// more than the groups'; no genetic search): one fault often fails tests in ways that group
/// apart, and a patch of one group's stage that passes its tests may break
/// the others' further (im's `a && b || c`: `||` made `&&` passes one
/// group; `a && (b || c)` passes both). The end of the stages when it
/// finds a patch (every failing test passes: complete) or is halted;
/// otherwise nothing of it is kept, and the groups are searched one by
/// one. Not with shards (their outcomes are the first group's).
fn one_fault_first(
    run: &mut Stages,
    baseline: &Baseline,
    localization: &Localization,
    settings: &Settings,
    console: &Console,
    deadline: Option<Instant>,
    budget: Budget,
) -> Result<Option<StagesEnd>> {
    let Some(together) = localization
        .together()
        .filter(|_| settings.shards.is_none())
    else {
        return Ok(None);
    };
    let settings = &Settings {
        genetic: false,
        ..settings.clone()
    };
    let searched = Searched {
        baseline,
        group: &together,
        left: localization.groups.len() + 1,
        before: 0,
        together: true,
    };
    let stage = match halts(searched.run(settings, console, deadline, budget))? {
        Ok(StageOutcome::Searched(stage)) => *stage,
        Ok(StageOutcome::AllFlaky(_)) => return Ok(None),
        // Its own share ended (not the run's): on to the groups.
        Err(halt) if budget.outlasts(halt) => return Ok(None),
        Err(halt) => return Ok(Some(StagesEnd::Halted { halt, best: None })),
    };
    if stage.stop == Stop::Interrupted {
        return Ok(Some(run.interrupted(stage)));
    }
    if stage.patch.is_none() {
        return Ok(None);
    }
    run.patched = stage.patched.clone();
    run.stages.push(stage);
    Ok(Some(StagesEnd::Complete))
}

/// A failure group to search, with how many groups are left (itself
/// included) and how many stages ran before it; `together`: every
/// group at once (see [`one_fault_first`]).
struct Searched<'a> {
    baseline: &'a Baseline,
    group: &'a GroupRanking,
    left: usize,
    before: usize,
    together: bool,
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
        if self.together {
            console.status("Repairing", &group.description);
        } else if self.left > 1 || self.before > 0 {
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
