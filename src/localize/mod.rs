//! The localization the user sees: the spectrum's ranking, per failure
//! group, sharpened by dynamic slices, critical predicates and what edits
//! at the top lines do (`--refine`); and, where the baseline recorded
//! events, those events ranked and a decision tree over them.

mod dependence;
mod evidence;
mod groups;
mod mutants;
mod predicates;
mod spectrum;
mod switching;
mod tree;
pub use dependence::{Dependency, Run};
pub use evidence::{EditEffect, FixClass, LineEvidence};
pub use groups::{Crash, FailureGroup, PanicKind, Signature, describe, signer};
pub use spectrum::{
    Counts, Marks, Metric, Spectrum, Suspect, rank_refined, rank_suspects, rerank_by_evidence,
    suspicious_locations,
};
pub use tree::Tree;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use crate::baseline::Baseline;
use crate::baseline::Predicate;
use crate::cargo::TestId;
use crate::cargo::Verdict;
use crate::code::source::Location;
use crate::evaluate;
use crate::exit::Result;
use crate::localize::dependence::{Facts, statement_facts};
use crate::localize::evidence::line_evidence;
use crate::localize::groups::failure_groups;
use crate::localize::mutants::{Mutants, run_mutants};
use crate::localize::predicates::{RankedPredicate, rank_predicates};
use crate::localize::switching::{Switched, critical_predicates};
use crate::localize::tree::learn;
use crate::mutation::{Constant, Exclusions, constants};
use crate::system::console::Console;
use crate::system::{Budget, cache};

/// How the ranking is computed and sharpened.
#[derive(Debug, Clone)]
pub struct Settings {
    pub metric: Metric,
    /// Prefer lines in the dynamic slice of every failing test of a group
    /// (the baseline must have traced them).
    pub slices: bool,
    /// Prefer the line where a group's failing tests panicked in the
    /// crate's own code.
    pub crash: bool,
    /// Flip each condition the failing tests evaluate; prefer those whose
    /// flip makes a failing test pass (critical predicates).
    pub switching: bool,
    /// The longest switching runs (`None`: until every condition is
    /// switched); the most suspicious conditions are switched first.
    pub switching_budget: Option<Duration>,
    /// Try the single edits at the top lines of each ranking and reorder
    /// them by what the edits do (ProFL's classes).
    pub mutation: bool,
    /// Code that is never changed, not even to switch a condition.
    pub exclude: Exclusions,
    /// How the switched conditions are evaluated.
    pub evaluation: evaluate::Settings,
}

/// One failure group's ranking.
#[derive(Debug, Clone)]
pub struct GroupRanking {
    pub group: FailureGroup,
    pub suspects: Vec<Suspect>,
    /// The lines in the slice of every traced failing test of the group.
    pub slice: BTreeSet<Location>,
    pub critical: BTreeSet<Location>,
    /// Where the group's tests panicked in the crate's own code, and how.
    pub crash: Option<Crash>,
}

impl GroupRanking {
    /// The rank of `location` in the group (0: not ranked).
    pub fn rank_of(&self, location: Location) -> usize {
        let suspect = self.suspects.iter().find(|s| s.location == location);
        suspect.map_or(0, |s| s.rank)
    }

    /// Each suspect's rank (tied suspects share one), for many lookups.
    pub fn ranks(&self) -> BTreeMap<Location, usize> {
        self.suspects.iter().map(|s| (s.location, s.rank)).collect()
    }

    /// The group with only the suspects at `locations` (the ones a repair
    /// restricted to a diff may edit).
    pub fn only_at(&self, locations: &BTreeSet<Location>) -> GroupRanking {
        GroupRanking {
            suspects: self
                .suspects
                .iter()
                .filter(|s| locations.contains(&s.location))
                .cloned()
                .collect(),
            ..self.clone()
        }
    }
}

/// Everything localization found.
#[derive(Debug, Clone)]
pub struct Localization {
    /// The metric the suspects are ranked by.
    pub metric: Metric,
    /// All failing tests together (preferring any group's slice and
    /// critical predicates).
    pub overall: Vec<Suspect>,
    pub groups: Vec<GroupRanking>,
    /// What each location defines, uses and depends on (for `--explain`).
    pub facts: BTreeMap<Location, Facts>,
    /// Conditions forced both ways by predicate switching.
    pub switched: usize,
    /// The `const` and `static` items ranked (at their first line).
    pub data: Vec<Constant>,
    /// What the mutation refinement's edits did, if it ran.
    pub mutants: Option<Mutants>,
    /// The events the tests saw (conditions' outcomes, values' signs),
    /// ranked by the metric over all tests; empty without event probes.
    pub predicates: Vec<RankedPredicate<Predicate>>,
    /// The decision tree that tells failing tests from passing ones by
    /// the events they saw; `None` without event probes.
    pub tree: Option<Tree<Predicate>>,
    /// Seconds its experiments took: `switching`, `mutants` (those that ran).
    pub seconds: BTreeMap<String, f64>,
}

/// The decision tree splits at most this deep.
pub const TREE_DEPTH: usize = 3;

/// The tree chooses among this many predicates from the top of the ranking.
const TREE_CANDIDATES: usize = 500;

/// The mutation refinement tries the edits at this many lines of code from
/// the top of each ranking (the overall one and each group's, with the
/// `const` and `static` items among them), and reorders them.
pub const MUTATION_LINES: usize = 10;

/// When no edit in the windows fixes every failing test of a group, the
/// mutation refinement goes on down each ranking, at most this many lines
/// further (a line where one does is the strongest evidence there is).
pub const MUTATION_FURTHER: usize = 20;

/// A repair's predicate switching runs at most this share of its time
/// limit (one sixth: 15 s of 90).
pub const SWITCHING_SHARE: u32 = 6;

/// The longest the mutation refinement runs; the lines it did not reach
/// keep their places.
pub const MUTATION_BUDGET: Duration = Duration::from_secs(30);

impl Localization {
    /// Marks the suspects at `changed` locations (`--in-diff`), in the
    /// overall ranking and in every group's.
    pub fn mark_changed(&mut self, changed: &BTreeSet<Location>) {
        let suspects = self
            .overall
            .iter_mut()
            .chain(self.groups.iter_mut().flat_map(|g| g.suspects.iter_mut()));
        for suspect in suspects {
            suspect.in_diff = changed.contains(&suspect.location);
        }
    }

    /// With several failure groups, all of them as one: every failing test,
    /// the overall ranking, every group's slice and critical predicates (no
    /// crash: the groups' tests panicked in different places, or none).
    /// One fault can fail tests in ways that group apart (two assertions of
    /// one broken method): a repair tries one patch for all of them first.
    pub fn together(&self) -> Option<GroupRanking> {
        if self.groups.len() < 2 {
            return None;
        }
        let tests: Vec<TestId> = self
            .groups
            .iter()
            .flat_map(|g| g.group.tests.iter().copied())
            .collect();
        let union = |of: fn(&GroupRanking) -> &BTreeSet<Location>| {
            self.groups
                .iter()
                .flat_map(|g| of(g).iter().copied())
                .collect()
        };
        Some(GroupRanking {
            group: FailureGroup {
                signature: Signature::Message(String::new()),
                description: format!("all {} failing tests at once, as one fault", tests.len()),
                tests,
            },
            suspects: self.overall.clone(),
            slice: union(|g| &g.slice),
            critical: union(|g| &g.critical),
            crash: None,
        })
    }
}

/// The spectrum of the baseline's passing tests and, of its failing ones,
/// those in `failing` (all of them for `None`). A constant in `data` counts
/// as executed by every test that executed a line that names it; a line a
/// failing test ran only `printing` (see `Traced`), as not executed
/// by it.
pub fn spectrum_of(
    baseline: &Baseline,
    failing: Option<&[TestId]>,
    data: &[Constant],
    printing: &BTreeMap<TestId, BTreeSet<Location>>,
) -> Spectrum {
    let runs: Vec<(bool, BTreeSet<Location>)> = baseline
        .records
        .iter()
        .filter(|r| r.outcome.verdict.passed() || failing.is_none_or(|f| f.contains(&r.test)))
        .map(|r| {
            let mut lines = r.lines.clone();
            if let Some(printed) = printing.get(&r.test) {
                lines.retain(|l| !printed.contains(l));
            }
            lines.extend(
                data.iter()
                    .filter(|c| !c.read_at.is_disjoint(&r.lines))
                    .map(|c| c.location),
            );
            (!r.outcome.verdict.passed(), lines)
        })
        .collect();
    Spectrum::from_runs(runs.iter().map(|(failed, lines)| (*failed, lines)))
}

/// Groups the failures, slices the traced failing runs, switches the
/// predicates they evaluate (each as `settings` allows), and ranks. The
/// end of `budget` halts it.
pub fn localize(
    baseline: &Baseline,
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Localization> {
    let groups = failure_groups(baseline);
    let data = constants(&baseline.sources);
    announce_groups(&groups, console);
    let facts = if settings.slices {
        statement_facts(&baseline.sources)
    } else {
        BTreeMap::new()
    };
    let traced = Traced::of(baseline, &facts, &data);
    let spectrum = spectrum_of(baseline, None, &data, &traced.printing);
    let plain = rank_suspects(&spectrum, settings.metric);
    let mut seconds = BTreeMap::new();
    let started = Instant::now();
    let switching = if settings.switching {
        switch_predicates(baseline, &groups, &plain, settings, console, budget)?
    } else {
        Switched {
            critical: vec![BTreeSet::new(); groups.len()],
            ..Switched::default()
        }
    };
    if settings.switching {
        seconds.insert("switching".to_string(), started.elapsed().as_secs_f64());
    }
    let critical = switching.critical;
    let mut rankings = rank_groups(baseline, groups, critical, &traced, &data, settings);
    let mut overall = rank_overall(&spectrum, &rankings, settings.metric);
    let started = Instant::now();
    let mutants = if settings.mutation {
        Some(refine_by_mutants(
            baseline,
            &mut overall,
            &mut rankings,
            &plain,
            &data,
            settings,
            console,
            budget,
        )?)
    } else {
        None
    };
    if settings.mutation {
        seconds.insert("mutants".to_string(), started.elapsed().as_secs_f64());
    }
    let (predicates, tree) = explain_by_events(baseline, settings.metric);
    Ok(Localization {
        metric: settings.metric,
        overall,
        groups: rankings,
        facts,
        switched: switching.switched,
        data,
        mutants,
        predicates,
        tree,
        seconds,
    })
}

/// Says into how many groups the failing tests fell.
fn announce_groups(groups: &[FailureGroup], console: &Console) {
    // Several groups change what the user reads (a ranking and a repair
    // per group); one is the usual case.
    let grouped = format!(
        "the failing tests into {} failure group{} (by how they fail)",
        groups.len(),
        if groups.len() == 1 { "" } else { "s" }
    );
    match groups.len() {
        1 => console.detail("Grouped", grouped),
        _ => console.status("Grouped", grouped),
    }
}

/// What the traced failing runs give the ranking, per test: the dynamic
/// slice (a constant's value flows into every line that reads it: it is
/// in a slice that holds one of those lines), and the lines of formatting
/// `fmt`s the test ran only to print the values its failed check compared
/// (see `Run::printed_only`), not counted as its own.
#[derive(Default)]
struct Traced {
    slices: BTreeMap<TestId, BTreeSet<Location>>,
    printing: BTreeMap<TestId, BTreeSet<Location>>,
}

impl Traced {
    fn of(baseline: &Baseline, facts: &BTreeMap<Location, Facts>, data: &[Constant]) -> Traced {
        let mut traced = Traced::default();
        for (&test, trace) in &baseline.traces {
            let run = Run::new(trace, facts);
            let mut slice = run.slice(|| checks_lent(baseline, test));
            let read: Vec<Location> = data
                .iter()
                .filter(|c| !c.read_at.is_disjoint(&slice))
                .map(|c| c.location)
                .collect();
            slice.extend(read);
            traced.slices.insert(test, slice);
            let printed = run.printed_only(facts);
            if !printed.is_empty() {
                traced.printing.insert(test, printed);
            }
        }
        traced
    }
}

/// Switches the conditions the failing tests of `groups` evaluate, those
/// at the lines of the `plain` ranking first, with a spinner, and says what
/// it found.
fn switch_predicates(
    baseline: &Baseline,
    groups: &[FailureGroup],
    plain: &[Suspect],
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Switched> {
    let spinner = console.spinner("Switching");
    spinner.set_message(
        "every condition the failing tests evaluate, both ways and one evaluation at a time",
    );
    let order: Vec<Location> = plain.iter().map(|s| s.location).collect();
    let tests: Vec<&Vec<TestId>> = groups.iter().map(|g| &g.tests).collect();
    let inputs = format!(
        "{tests:?} {order:?} {:?} {:?} {:?}",
        settings.exclude, settings.evaluation, settings.switching_budget
    );
    // Cut short by its budget too, like the mutants.
    let (found, cached) = cache::kept_or(
        &baseline.workspace.target_dir,
        baseline.key("switching", &inputs).as_ref(),
        || {
            critical_predicates(
                baseline,
                groups,
                &order,
                &settings.exclude,
                &settings.evaluation,
                settings.switching_budget,
                budget,
            )
        },
    )?;
    drop(spinner);
    let count: usize = found.critical.iter().map(BTreeSet::len).sum();
    let cut = if found.switched < found.conditions {
        format!(
            " (the budget ran out: {} of {} conditions were switched, the most suspicious first)",
            found.switched, found.conditions
        )
    } else {
        String::new()
    };
    let when = if cached {
        " (kept from an earlier run on the same sources)"
    } else {
        ""
    };
    console.detail(
        "Switched",
        format!(
            "{} conditions both ways and one evaluation at a time: {count} critical{cut}{when}",
            found.switched
        ),
    );
    Ok(found)
}

/// Each group's ranking: the spectrum of its failing tests, preferring the
/// slice they all share, its `critical` predicates and where its tests
/// crashed.
fn rank_groups(
    baseline: &Baseline,
    groups: Vec<FailureGroup>,
    critical: Vec<BTreeSet<Location>>,
    traced: &Traced,
    data: &[Constant],
    settings: &Settings,
) -> Vec<GroupRanking> {
    groups
        .into_iter()
        .zip(critical)
        .map(|(group, critical)| {
            let slice = common_slice(group.tests.iter().filter_map(|t| traced.slices.get(t)));
            let crash = crash_of(baseline, &group).filter(|_| settings.crash);
            let crash_lines: BTreeSet<Location> = crash.iter().map(|c| c.location).collect();
            let suspects = rank_refined(
                &spectrum_of(baseline, Some(&group.tests), data, &traced.printing),
                settings.metric,
                &Marks {
                    slice: Some(&slice),
                    critical: Some(&critical),
                    crash: Some(&crash_lines),
                },
            );
            GroupRanking {
                group,
                suspects,
                slice,
                critical,
                crash,
            }
        })
        .collect()
}

/// All failing tests together (the whole `spectrum`), preferring any
/// group's slice, critical predicates and crash site.
fn rank_overall(spectrum: &Spectrum, rankings: &[GroupRanking], metric: Metric) -> Vec<Suspect> {
    let any_slice: BTreeSet<Location> = rankings
        .iter()
        .flat_map(|g| g.slice.iter().copied())
        .collect();
    let any_critical: BTreeSet<Location> = rankings
        .iter()
        .flat_map(|g| g.critical.iter().copied())
        .collect();
    let any_crash: BTreeSet<Location> = rankings
        .iter()
        .filter_map(|g| g.crash.map(|c| c.location))
        .collect();
    rank_refined(
        spectrum,
        metric,
        &Marks {
            slice: Some(&any_slice),
            critical: Some(&any_critical),
            crash: Some(&any_crash),
        },
    )
}

/// Runs the single edits at the top of the rankings (the overall one, each
/// group's, the plain spectrum's) and reorders the overall ranking and the
/// groups' by what they did.
#[allow(clippy::too_many_arguments)]
fn refine_by_mutants(
    baseline: &Baseline,
    overall: &mut [Suspect],
    rankings: &mut [GroupRanking],
    plain: &[Suspect],
    data: &[Constant],
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Mutants> {
    // The suspects tried from the top of each ranking: the overall
    // one's, then each group's, then the plain spectrum's (a slice or
    // a critical predicate can push the faulty line down; the evidence
    // of a clean fix brings it back wherever it ranks).
    let all: Vec<&[Suspect]> = std::iter::once(&*overall)
        .chain(rankings.iter().map(|g| g.suspects.as_slice()))
        .chain(std::iter::once(plain))
        .collect();
    let windows: Vec<usize> = all.iter().map(|r| mutation_window(r, data)).collect();
    let tops: Vec<&[Suspect]> = all.iter().zip(&windows).map(|(r, &w)| &r[..w]).collect();
    let below: Vec<&[Suspect]> = all
        .iter()
        .zip(&windows)
        .map(|(r, &w)| &r[w..r.len().min(w + MUTATION_FURTHER)])
        .collect();
    let groups: Vec<BTreeSet<TestId>> = rankings
        .iter()
        .map(|g| g.group.tests.iter().copied().collect())
        .collect();
    let mutants = mutate_top_lines(baseline, &tops, &below, &groups, settings, console, budget)?;
    let passing = baseline.passing().count();
    let all_failing: BTreeSet<TestId> = baseline.failing().map(|r| r.test).collect();
    let evidence = line_evidence(&mutants.effects, &all_failing, passing);
    rerank_by_evidence(overall, &evidence, windows[0]);
    for (ranking, &window) in rankings.iter_mut().zip(&windows[1..]) {
        let failing: BTreeSet<TestId> = ranking.group.tests.iter().copied().collect();
        let evidence = line_evidence(&mutants.effects, &failing, passing);
        rerank_by_evidence(&mut ranking.suspects, &evidence, window);
    }
    Ok(mutants)
}

/// The events every test saw, ranked by `metric`, and the decision tree
/// over them (nothing when the baseline has no event probes).
pub fn explain_by_events(
    baseline: &Baseline,
    metric: Metric,
) -> (Vec<RankedPredicate<Predicate>>, Option<Tree<Predicate>>) {
    if baseline.probes.events.is_empty() {
        return (Vec::new(), None);
    }
    let runs: Vec<(bool, &BTreeSet<Predicate>)> = baseline
        .records
        .iter()
        .map(|r| (!r.outcome.verdict.passed(), &r.events))
        .collect();
    let ranked = rank_predicates(&runs, metric, |p: &Predicate| p.site);
    let candidates: Vec<Predicate> = ranked
        .iter()
        .take(TREE_CANDIDATES)
        .map(|r| r.predicate)
        .collect();
    let tree = learn(&runs, &candidates, TREE_DEPTH);
    (ranked, Some(tree))
}

/// The single edits at the lines of `tops`, the top of each ranking, then
/// at those of `below`, the lines after them, until one fixes a whole
/// group of `groups`. What the experiment found is kept in the cache
/// under everything it depends on (the workspace's files, the
/// lockfile among them; the lines and groups; the settings; the
/// toolchain), and read back by a run on the same.
fn mutate_top_lines(
    baseline: &Baseline,
    tops: &[&[Suspect]],
    below: &[&[Suspect]],
    groups: &[BTreeSet<TestId>],
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Mutants> {
    let lines = interleaved(tops);
    let further = interleaved(below);
    let inputs = format!(
        "{lines:?} {further:?} {groups:?} {:?} {:?} {MUTATION_BUDGET:?}",
        settings.exclude, settings.evaluation
    );
    // Cut short by the budget too: a run on the same is shown the same
    // ranking, not one the machine's load decides.
    let (mutants, cached) = cache::kept_or(
        &baseline.workspace.target_dir,
        baseline.key("mutants", &inputs).as_ref(),
        || {
            evaluate_mutants(
                baseline, &lines, &further, groups, settings, console, budget,
            )
        },
    )?;
    let mutants = Mutants { cached, ..mutants };
    let alone_note = if mutants.alone_untried > 0 {
        format!(
            "; the budget ran out before {} edits that each need a build of their own",
            mutants.alone_untried
        )
    } else {
        String::new()
    };
    let budget_note = if mutants.lines > mutants.chosen {
        format!(
            " ({} of them further down, where no edit at the top fixed a whole group)",
            mutants.lines - mutants.chosen
        )
    } else if mutants.complete() {
        String::new()
    } else {
        format!(
            " (the {} s budget ran out: {} lines keep their places)",
            MUTATION_BUDGET.as_secs(),
            mutants.chosen - mutants.lines
        )
    };
    let when = if mutants.cached {
        "kept from an earlier run on the same sources".to_string()
    } else {
        format!("{:.1} s", mutants.seconds)
    };
    console.status(
        "Mutated",
        format!(
            "{} lines: {} single edits, {} compiled ({when}){budget_note}{alone_note}",
            mutants.lines, mutants.edits, mutants.compiled
        ),
    );
    Ok(mutants)
}

/// Evaluates the single edits at `lines`, then at `further` (see
/// [`run_mutants`]), within [`MUTATION_BUDGET`], with a spinner.
fn evaluate_mutants(
    baseline: &Baseline,
    lines: &[Location],
    further: &[Location],
    groups: &[BTreeSet<TestId>],
    settings: &Settings,
    console: &Console,
    budget: Budget,
) -> Result<Mutants> {
    let spinner = console.spinner("Mutating");
    spinner.set_message(format!("the single edits at the top {} lines", lines.len()));
    run_mutants(
        baseline,
        lines,
        further,
        groups,
        &settings.exclude,
        &settings.evaluation,
        MUTATION_BUDGET,
        budget,
        &|tried, edits| {
            spinner.set_message(format!(
                "{edits} single edits at {tried} lines (the top {} first)",
                lines.len()
            ))
        },
    )
}

/// The lines with a score of `rankings`, taken in turn (every ranking's
/// first line, then every second line, ...), each once.
fn interleaved(rankings: &[&[Suspect]]) -> Vec<Location> {
    let mut lines: Vec<Location> = Vec::new();
    let longest = rankings.iter().map(|r| r.len()).max().unwrap_or(0);
    for place in 0..longest {
        for suspect in rankings.iter().filter_map(|r| r.get(place)) {
            if suspect.score > 0.0 && !lines.contains(&suspect.location) {
                lines.push(suspect.location);
            }
        }
    }
    lines
}

/// Where a group's failing tests panicked in the crate's own code (the
/// group's signature says so), with the kind of panic its first test's
/// message tells.
fn crash_of(baseline: &Baseline, group: &FailureGroup) -> Option<Crash> {
    let Signature::PanicAt(location) = group.signature else {
        return None;
    };
    let message = group.tests.first().and_then(|&test| {
        baseline
            .failing()
            .find(|r| r.test == test)
            .and_then(|r| match &r.outcome.verdict {
                Verdict::Failed(panic) => Some(panic.message.as_str()),
                _ => None,
            })
    });
    Some(Crash {
        location,
        kind: PanicKind::of(message.unwrap_or("")),
    })
}

/// How many suspects from the top of `ranking` the mutation refinement
/// tries: its first [`MUTATION_LINES`] lines of code, and the `const` and
/// `static` items ranked among them (a constant joins the slice of the
/// lines that read it, and should not push one of them out).
fn mutation_window(ranking: &[Suspect], data: &[Constant]) -> usize {
    let mut code = 0;
    ranking
        .iter()
        .take_while(|s| {
            let within = code < MUTATION_LINES;
            if !data.iter().any(|c| c.location == s.location) {
                code += 1;
            }
            within
        })
        .count()
}

/// The lines every one of the slices holds (none without slices).
fn common_slice<'a>(
    mut slices: impl Iterator<Item = &'a BTreeSet<Location>>,
) -> BTreeSet<Location> {
    let Some(first) = slices.next() else {
        return BTreeSet::new();
    };
    slices.fold(first.clone(), |common, slice| {
        common.intersection(slice).copied().collect()
    })
}

/// Whether failing test `test` may check what the crate wrote through a
/// `&mut` it lent (its body lends one of its variables mutably): then its
/// slice starts from those writes too.
pub fn checks_lent(baseline: &Baseline, test: TestId) -> bool {
    baseline
        .test_function(test)
        .is_ok_and(|function| function.lends_a_variable())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::FileId;

    #[test]
    fn the_common_slice_is_the_intersection() {
        let at = |line| Location::new(FileId::new(0), line);
        let a = BTreeSet::from([at(1), at(2), at(3)]);
        let b = BTreeSet::from([at(2), at(3), at(4)]);
        assert_eq!(
            common_slice([&a, &b].into_iter()),
            BTreeSet::from([at(2), at(3)])
        );
        assert!(common_slice(std::iter::empty()).is_empty());
    }
}
