//! Predicate switching: SAT-TAR's core, found by running instead of
//! solving. Every condition a failing test evaluates is forced to `true`
//! and to `false` (all of them woven into one build, each selected at run
//! time), and the failing tests that reach it run again. A condition whose
//! forced outcome makes a failing test pass is a critical predicate: the
//! failure depends on which way it goes.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::baseline::Baseline;
use crate::candidate::{Candidate, Guard, PatchEdit};
use crate::groups::FailureGroup;
use crate::mutate::Operator;
use crate::options::{EvaluatorKind, Options};
use crate::repair::{build_evaluator, mutation_space, test_plan};
use crate::sites::SiteKind;
use crate::source::{Edit, Location};

/// Per failure group (by index), the conditions whose forced outcome makes
/// one of its failing tests pass; and how many conditions were switched.
pub fn critical_predicates(
    baseline: &Baseline,
    groups: &[FailureGroup],
    options: &Options,
) -> Result<(Vec<BTreeSet<Location>>, usize)> {
    let failing: Vec<usize> = groups
        .iter()
        .flat_map(|g| g.tests.iter().copied())
        .collect();
    let reached: BTreeSet<&Location> = baseline
        .records
        .iter()
        .filter(|r| failing.contains(&r.test))
        .flat_map(|r| r.lines.iter())
        .collect();
    let space = mutation_space(baseline, options);
    let mut switches: Vec<(Location, Candidate)> = Vec::new();
    for site in &space.sites {
        let SiteKind::Condition { range, .. } = &site.kind else {
            continue;
        };
        let location = Location {
            file: baseline.sources.files[site.file].path.clone(),
            line: site.location,
        };
        if !reached.contains(&location) {
            continue;
        }
        for forced in ["true", "false"] {
            let edit = PatchEdit {
                file: site.file,
                edit: Edit::replace(range.clone(), forced),
                operator: Operator::Condition,
                location: site.location,
                guard: Guard::Expression(range.clone()),
            };
            switches.push((location.clone(), Candidate::original().with(edit)));
        }
    }
    let mut critical = vec![BTreeSet::new(); groups.len()];
    if switches.is_empty() {
        return Ok((critical, 0));
    }
    let plan = test_plan(baseline, &failing, &[], options);
    let mut evaluator = build_evaluator(baseline, plan, options, EvaluatorKind::Schema)?;
    let candidates: Vec<Candidate> = switches.iter().map(|(_, c)| c.clone()).collect();
    let outcomes = evaluator.evaluate(&candidates, &|_| {})?;
    let group_of: BTreeMap<usize, usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| group.tests.iter().map(move |&t| (t, g)))
        .collect();
    for ((location, _), outcome) in switches.iter().zip(&outcomes) {
        for test in outcome.passed() {
            if let Some(&group) = group_of.get(&test) {
                critical[group].insert(location.clone());
            }
        }
    }
    Ok((critical, switches.len() / 2))
}
