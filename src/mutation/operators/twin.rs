//! Twins: a guard another arm of a `match` has first in its block, missing
//! in this arm (the check one case got and its sibling did not: an empty
//! Unicode class handled, an empty byte class not). Inserted first in this
//! arm's block where it tests what this arm's pattern binds, its one name
//! the arm does not bind renamed to the one this arm does. Few edits at a
//! site, so the sweep tries them with the one-token ones.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Ingredient, Site, SiteKind};

use super::{Context, MutationOperator, closest};

/// Guards offered at one arm, at most (the nearest).
const TWINS: usize = 4;

pub(super) struct Twin;

impl MutationOperator for Twin {
    fn operator(&self) -> Operator {
        Operator::Twin
    }

    fn name(&self) -> &'static str {
        "twin"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::BlockStart { arm: true, .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::BlockStart {
            at,
            indent,
            names,
            arm: true,
            ..
        } = &site.kind
        else {
            return Vec::new();
        };
        closest(&cx.space.statements, site)
            // (Not the arm's own first statement.)
            .filter(|i| i.guard && i.origin.file == site.file && i.origin != site.location())
            .filter_map(|i| fitted(i, site, names))
            .take(TWINS)
            .map(|text| Edit::insert(*at, format!("\n{indent}{text}")))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        2
    }
}

/// The guard's text where it fits the site and tests a name the arm
/// binds: as it is, or with its one unbound name renamed to the arm's one
/// name.
fn fitted(guard: &Ingredient, site: &Site, names: &[String]) -> Option<String> {
    if guard.fits(&site.bound) {
        return names
            .iter()
            .any(|n| guard.free.contains(n))
            .then(|| guard.text.clone());
    }
    let unbound: Vec<&String> = guard
        .free
        .iter()
        .filter(|name| !site.bound.contains(name))
        .collect();
    match (unbound.as_slice(), names) {
        ([from], [to]) if !guard.free.contains(to) => {
            Some(guard.renamed(&[(from.as_str(), to.as_str())]))
        }
        _ => None,
    }
}
