//! The localization the user sees: the spectrum's ranking, per failure
//! group, sharpened by dynamic slices and critical predicates (`--refine`).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::baseline::Baseline;
use crate::console::Console;
use crate::dependence::{Facts, backward_slice, statement_facts};
use crate::groups::FailureGroup;
use crate::localize::{Suspect, rank_refined};
use crate::options::Options;
use crate::source::Location;
use crate::switching::critical_predicates;

/// One failure group's ranking.
#[derive(Debug, Clone)]
pub struct GroupRanking {
    pub group: FailureGroup,
    pub suspects: Vec<Suspect>,
    /// The lines in the slice of every traced failing test of the group.
    pub slice: BTreeSet<Location>,
    pub critical: BTreeSet<Location>,
}

/// Everything localization found.
#[derive(Debug, Clone)]
pub struct Localization {
    /// All failing tests together (preferring any group's slice and
    /// critical predicates).
    pub overall: Vec<Suspect>,
    pub groups: Vec<GroupRanking>,
    /// What each location defines, uses and depends on (for `--explain`).
    pub facts: BTreeMap<Location, Facts>,
    /// Conditions forced both ways by predicate switching.
    pub switched: usize,
}

/// Groups the failures, slices the traced failing runs, switches the
/// predicates they evaluate (each as `options.refine` allows), and ranks.
pub fn localize(baseline: &Baseline, options: &Options, console: &Console) -> Result<Localization> {
    let groups = baseline.groups();
    console.status(
        "Grouped",
        format!(
            "the failing tests into {} failure group{} (by how they fail)",
            groups.len(),
            if groups.len() == 1 { "" } else { "s" }
        ),
    );
    let facts = if options.refine.slices {
        statement_facts(&baseline.sources)
    } else {
        BTreeMap::new()
    };
    let slices: BTreeMap<usize, BTreeSet<Location>> = baseline
        .traces
        .iter()
        .map(|(&test, trace)| (test, backward_slice(trace, &facts)))
        .collect();
    let (critical, switched) = if options.refine.switching {
        let spinner = console.spinner("Switching");
        spinner.set_message("every condition the failing tests evaluate, both ways");
        let found = critical_predicates(baseline, &groups, options)?;
        drop(spinner);
        let count: usize = found.0.iter().map(BTreeSet::len).sum();
        console.status(
            "Switched",
            format!("{} conditions both ways: {count} critical", found.1),
        );
        found
    } else {
        (vec![BTreeSet::new(); groups.len()], 0)
    };
    let rankings: Vec<GroupRanking> = groups
        .into_iter()
        .zip(critical)
        .map(|(group, critical)| {
            let slice = common_slice(group.tests.iter().filter_map(|t| slices.get(t)));
            let suspects = rank_refined(
                &baseline.spectrum_of(Some(&group.tests)),
                options.metric,
                &slice,
                &critical,
            );
            GroupRanking {
                group,
                suspects,
                slice,
                critical,
            }
        })
        .collect();
    let any_slice: BTreeSet<Location> = rankings
        .iter()
        .flat_map(|g| g.slice.iter().cloned())
        .collect();
    let any_critical: BTreeSet<Location> = rankings
        .iter()
        .flat_map(|g| g.critical.iter().cloned())
        .collect();
    let overall = rank_refined(
        &baseline.spectrum(),
        options.metric,
        &any_slice,
        &any_critical,
    );
    Ok(Localization {
        overall,
        groups: rankings,
        facts,
        switched,
    })
}

/// The lines every one of the slices holds (none without slices).
fn common_slice<'a>(
    mut slices: impl Iterator<Item = &'a BTreeSet<Location>>,
) -> BTreeSet<Location> {
    let Some(first) = slices.next() else {
        return BTreeSet::new();
    };
    slices.fold(first.clone(), |common, slice| {
        common.intersection(slice).cloned().collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_common_slice_is_the_intersection() {
        let at = |line| Location {
            file: PathBuf::from("src/lib.rs"),
            line,
        };
        let a = BTreeSet::from([at(1), at(2), at(3)]);
        let b = BTreeSet::from([at(2), at(3), at(4)]);
        assert_eq!(
            common_slice([&a, &b].into_iter()),
            BTreeSet::from([at(2), at(3)])
        );
        assert!(common_slice(std::iter::empty()).is_empty());
    }
}
