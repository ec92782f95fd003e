//! Predicate switching: SAT-TAR's core, found by running instead of
//! solving. Every condition a failing test evaluates is forced to `true`
//! and to `false`, and each of its first few evaluations in a test is
//! switched on its own (all of them woven into one build, each selected at
//! run time), and the failing tests that reach it run again. A condition whose
//! forced outcome makes a failing test pass is a critical predicate: the
//! failure depends on which way it goes.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use crate::baseline::Baseline;
use crate::cargo::{Stop, TestId};
use crate::code::source::{Edit, Location};
use crate::evaluate::{self, EvaluatorKind, evaluate_until_halt};
use crate::evaluate::{build_evaluator, test_plan};
use crate::exit::Result;
use crate::localize::groups::FailureGroup;
use crate::mutation::{Candidate, Operator, PatchEdit};
use crate::mutation::{Exclusions, SiteKind, space_of};
use crate::system::Budget;

/// What switching found.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Switched {
    /// Per failure group (by index), the conditions whose forced outcome
    /// makes one of its failing tests pass.
    pub critical: Vec<BTreeSet<Location>>,
    /// Conditions the failing tests evaluate.
    pub conditions: usize,
    /// Of those, the ones switched every way before the budget ran out.
    pub switched: usize,
}

/// Switches every condition the failing tests of `groups` evaluate, those
/// at the lines of `order` first (most suspicious first; the others in file
/// order), until `budget` has passed (the conditions not reached are not
/// critical) or `run` (the run's budget) ends, a halt. A switch that makes
/// a failing test hang stops at that test: each of the others would cost
/// a timeout too.
pub fn critical_predicates(
    baseline: &Baseline,
    groups: &[FailureGroup],
    order: &[Location],
    exclude: &Exclusions,
    evaluation: &evaluate::Settings,
    budget: Option<Duration>,
    run: Budget,
) -> Result<Switched> {
    let step = run.sooner(budget.map(|budget| Instant::now() + budget));
    let failing: Vec<TestId> = groups
        .iter()
        .flat_map(|g| g.tests.iter().copied())
        .collect();
    let reached: BTreeSet<&Location> = baseline
        .records
        .iter()
        .filter(|r| failing.contains(&r.test))
        .flat_map(|r| r.lines.iter())
        .collect();
    let space = space_of(baseline, exclude);
    // The reached conditions, with their ranges.
    let mut conditions: Vec<_> = space
        .sites
        .iter()
        .filter(|site| reached.contains(&site.location()))
        .filter_map(|site| match &site.kind {
            SiteKind::Condition { range, .. } => Some((site, range)),
            _ => None,
        })
        .collect();
    let place = |location: Location| order.iter().position(|&l| l == location);
    conditions.sort_by_key(|(site, _)| place(site.location()).unwrap_or(usize::MAX));
    // Per switch, its condition (an index of `conditions`) and its candidate.
    let mut switches: Vec<(usize, Candidate)> = Vec::new();
    for (index, &(site, range)) in conditions.iter().enumerate() {
        let original = &baseline.sources.get(site.file).text[range.clone()];
        let forced = ["true".to_string(), "false".to_string()];
        let instances = (1..=INSTANCES).map(|k| switch_instance(original, k));
        for text in forced.into_iter().chain(instances) {
            let edit = PatchEdit {
                file: site.file,
                edit: Edit::replace(range.clone(), text),
                operator: Operator::Condition,
                line: site.line,
            };
            switches.push((index, Candidate::original().with(edit)));
        }
    }
    let mut found = Switched {
        critical: vec![BTreeSet::new(); groups.len()],
        conditions: conditions.len(),
        switched: 0,
    };
    if switches.is_empty() {
        return Ok(found);
    }
    let mut plan = test_plan(baseline, &failing, &[], evaluation);
    plan.stop = Stop::AtTimeout;
    let schema = evaluate::Settings {
        kind: EvaluatorKind::Schema,
        ..evaluation.clone()
    };
    let mut evaluator = build_evaluator(baseline, plan, &schema, run)?;
    let candidates: Vec<Candidate> = switches.iter().map(|(_, c)| c.clone()).collect();
    let (outcomes, halt) = evaluate_until_halt(&mut *evaluator, &candidates, step, &|_, _| {})?;
    if let Some(halt) = halt
        && !run.outlasts(halt)
    {
        return Err(halt.into());
    }
    let group_of: BTreeMap<TestId, usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| group.tests.iter().map(move |&t| (t, g)))
        .collect();
    let mut decided = vec![0; conditions.len()];
    for (switch, outcome) in outcomes {
        let condition = switches[switch].0;
        decided[condition] += 1;
        for test in outcome.passed() {
            if let Some(&group) = group_of.get(&test) {
                found.critical[group].insert(conditions[condition].0.location());
            }
        }
    }
    found.switched = decided.iter().filter(|&&n| n == 2 + INSTANCES).count();
    Ok(found)
}

/// How many of a condition's first evaluations in a test are switched one
/// at a time.
const INSTANCES: usize = 6;

/// `condition` with only its `k`-th evaluation (1-based, counted per
/// thread: libtest runs each test on a thread of its own) switched the
/// other way: one dynamic instance, as predicate switching proper does.
/// Forcing every evaluation can hide the one that matters (a loop or a
/// dispatch whose condition must hold for some inputs and not others).
fn switch_instance(condition: &str, k: usize) -> String {
    format!(
        "({{ ::std::thread_local! {{ static __AUTOFIX_SEEN: ::std::cell::Cell<usize> = \
         const {{ ::std::cell::Cell::new(0) }}; }} \
         let __autofix_value: bool = {condition}; \
         let __autofix_nth = __AUTOFIX_SEEN.with(|seen| {{ seen.set(seen.get() + 1); seen.get() }}); \
         if __autofix_nth == {k} {{ !__autofix_value }} else {{ __autofix_value }} }})"
    )
}
