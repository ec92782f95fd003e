//! Predicate switching: SAT-TAR's core, found by running instead of
//! solving. Every condition a failing test evaluates is forced to `true`
//! and to `false`, and each of its first few evaluations in a test is
//! switched on its own (all of them woven into one build, each selected at
//! run time), and the failing tests that reach it run again. A condition whose
//! forced outcome makes a failing test pass is a critical predicate: the
//! failure depends on which way it goes.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::baseline::Baseline;
use crate::cargo::suite::TestId;
use crate::code::source::{Edit, Location};
use crate::evaluate::setup::{build_evaluator, test_plan};
use crate::evaluate::{self, EvaluatorKind};
use crate::localize::groups::FailureGroup;
use crate::mutation::patch::{Candidate, Operator, PatchEdit};
use crate::mutation::sites::{Exclusions, SiteKind, collect_mutation_space};

/// Per failure group (by index), the conditions whose forced outcome makes
/// one of its failing tests pass; and how many conditions were switched.
pub fn critical_predicates(
    baseline: &Baseline,
    groups: &[FailureGroup],
    exclude: &Exclusions,
    evaluation: &evaluate::Settings,
) -> Result<(Vec<BTreeSet<Location>>, usize)> {
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
    let space = collect_mutation_space(&baseline.sources, exclude);
    let mut switches: Vec<(Location, Candidate)> = Vec::new();
    let mut sites = 0;
    for site in &space.sites {
        let SiteKind::Condition { range, .. } = &site.kind else {
            continue;
        };
        if !reached.contains(&site.location()) {
            continue;
        }
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
            switches.push((site.location(), Candidate::original().with(edit)));
        }
        sites += 1;
    }
    let mut critical = vec![BTreeSet::new(); groups.len()];
    if switches.is_empty() {
        return Ok((critical, 0));
    }
    let plan = test_plan(baseline, &failing, &[], evaluation);
    let schema = evaluate::Settings {
        kind: EvaluatorKind::Schema,
        ..evaluation.clone()
    };
    let mut evaluator = build_evaluator(baseline, plan, &schema)?;
    let candidates: Vec<Candidate> = switches.iter().map(|(_, c)| c.clone()).collect();
    let outcomes = evaluator.evaluate(&candidates, &|_, _| {})?;
    let group_of: BTreeMap<TestId, usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| group.tests.iter().map(move |&t| (t, g)))
        .collect();
    for ((location, _), outcome) in switches.iter().zip(&outcomes) {
        for test in outcome.passed() {
            if let Some(&group) = group_of.get(&test) {
                critical[group].insert(*location);
            }
        }
    }
    Ok((critical, sites))
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
