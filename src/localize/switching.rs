//! Predicate switching: SAT-TAR's core, found by running instead of
//! solving. Every condition a failing test evaluates is forced to `true`
//! and to `false` (all of them woven into one build, each selected at run
//! time), and the failing tests that reach it run again. A condition whose
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
    for site in &space.sites {
        let SiteKind::Condition { range, .. } = &site.kind else {
            continue;
        };
        if !reached.contains(&site.location()) {
            continue;
        }
        for forced in ["true", "false"] {
            let edit = PatchEdit {
                file: site.file,
                edit: Edit::replace(range.clone(), forced),
                operator: Operator::Condition,
                line: site.line,
            };
            switches.push((site.location(), Candidate::original().with(edit)));
        }
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
    Ok((critical, switches.len() / 2))
}
