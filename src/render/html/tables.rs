//! The rankings as tables, the top predicates and the decision tree; each
//! row links to its line in the sources below.

use maud::{Markup, display, html};

use super::super::{Ranking, format_score, why};
use super::link;
use crate::baseline::Predicate;
use crate::localize::Tree;
use crate::localize::{Localization, TREE_DEPTH};

/// Predicates the page lists.
const PREDICATES_TOP: usize = 20;

/// A table's header row.
fn head(names: &[&str]) -> Markup {
    html! {
        tr {
            @for name in names {
                th { (name) }
            }
        }
    }
}

/// The first `top` rows of a ranking, with the `why` column.
pub(super) fn ranking(ranking: &Ranking, top: usize) -> Markup {
    html! {
        table.ranking {
            (head(&["rank", "score", "line", "failed/passed", "why", "code"]))
            @for suspect in ranking.suspects.iter().take(top) {
                tr {
                    td { (suspect.rank) }
                    td { (format_score(suspect.score)) }
                    td { (link(ranking, suspect.location)) }
                    td { (suspect.counts.failed) "/" (suspect.counts.passed) }
                    td { (why(suspect)) }
                    td { code { (ranking.code(suspect)) } }
                }
            }
        }
    }
}

/// The top predicates and the decision tree (nothing without events).
pub(super) fn predicates(ranking: &Ranking, localization: &Localization) -> Markup {
    if localization.predicates.is_empty() {
        return html! {};
    }
    html! {
        h2 { "Predicates" }
        p {
            "Events the tests saw besides lines (a condition's outcome; the sign, variant or \
             Ok/Err of a value bound or returned), by " (display(ranking.metric))
            " over the tests that saw each; increase: how much likelier a test fails when it \
             saw the event than when it reached its site."
        }
        table.predicates {
            (head(&["rank", "score", "increase", "failed/passed", "line", "event"]))
            @for entry in localization.predicates.iter().take(PREDICATES_TOP) {
                @let site = ranking.site(&entry.predicate);
                tr {
                    td { (entry.rank) }
                    td { (format_score(entry.score)) }
                    td { (format!("{:+.3}", entry.increase)) }
                    td { (entry.counts.failed) "/" (entry.counts.passed) }
                    td { (link(ranking, site.location)) }
                    td { code { (site.describe(entry.predicate.outcome)) } }
                }
            }
        }
        @if let Some(tree) = &localization.tree {
            h3 { "Decision tree" }
            p {
                "Tells failing tests from passing ones by the predicates they saw (ID3, at most "
                (TREE_DEPTH) " splits deep)."
            }
            ul.tree { (tree_item(ranking, tree, "")) }
        }
    }
}

/// One node as a list item: a split with its `yes` and `no` sides, or a leaf.
fn tree_item(ranking: &Ranking, tree: &Tree<Predicate>, label: &str) -> Markup {
    let (failing, passing) = tree.counts();
    let counts = html! { " (" (failing) " failing, " (passing) " passing)" };
    match tree {
        Tree::Leaf { .. } => html! {
            li.leaf { (label) strong { (tree.verdict()) } (counts) }
        },
        Tree::Split {
            feature,
            present,
            absent,
            ..
        } => {
            let site = ranking.site(feature);
            html! {
                li.split {
                    (label) (link(ranking, site.location))
                    " " code { (site.describe(feature.outcome)) } "?" (counts)
                    ul {
                        (tree_item(ranking, present, "yes: "))
                        (tree_item(ranking, absent, "no: "))
                    }
                }
            }
        }
    }
}
