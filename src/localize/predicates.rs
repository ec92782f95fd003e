//! Ranks events beyond lines (predicates: a condition was true, a value
//! was negative) the way lines are ranked: the metric over how many
//! failing and passing runs saw each, and, to order equal scores, CBI's
//! `Increase` (Liblit et al.): `Failure(P) - Context(P)`, how much more
//! often runs fail when `P` was seen than when its site was merely reached.
//! A predicate seen only in failing runs, at a site passing runs reach
//! too, has the highest score and a large increase.
//!
//! Pure: runs in, ranking out. Generic over what a predicate and a site
//! are.

use std::collections::{BTreeMap, BTreeSet};

use crate::localize::spectrum::{Counts, Metric};

/// A ranked predicate.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedPredicate<P> {
    pub predicate: P,
    /// The runs that saw it.
    pub counts: Counts,
    pub score: f64,
    /// `Failure(P) - Context(P)`, in [-1, 1].
    pub increase: f64,
    /// Worst-case rank over ties of score and increase.
    pub rank: usize,
}

const TIE: f64 = 1e-12;

/// Ranks every predicate any run saw. `runs` are (failed?, the predicates
/// seen); `site_of` names the site a predicate observes (a run reached a
/// site if it saw any predicate of it).
pub fn rank_predicates<P: Ord + Clone, S: Ord>(
    runs: &[(bool, &BTreeSet<P>)],
    metric: Metric,
    site_of: impl Fn(&P) -> S,
) -> Vec<RankedPredicate<P>> {
    let mut totals = Counts::default();
    let mut seen: BTreeMap<&P, Counts> = BTreeMap::new();
    let mut reached: BTreeMap<S, Counts> = BTreeMap::new();
    for (failed, predicates) in runs {
        count(&mut totals, *failed);
        for predicate in predicates.iter() {
            count(seen.entry(predicate).or_default(), *failed);
        }
        let sites: BTreeSet<S> = predicates.iter().map(&site_of).collect();
        for site in sites {
            count(reached.entry(site).or_default(), *failed);
        }
    }
    let mut ranked: Vec<RankedPredicate<P>> = seen
        .into_iter()
        .map(|(predicate, counts)| {
            let context = reached[&site_of(predicate)];
            RankedPredicate {
                predicate: predicate.clone(),
                counts,
                score: metric.score(counts, totals),
                increase: failure_rate(counts) - failure_rate(context),
                rank: 0,
            }
        })
        .collect();
    let tied = |a: f64, b: f64| a == b || (a - b).abs() <= TIE;
    let by = |a: f64, b: f64| {
        if tied(a, b) {
            std::cmp::Ordering::Equal
        } else {
            b.total_cmp(&a)
        }
    };
    ranked.sort_by(|a, b| {
        by(a.score, b.score)
            .then(by(a.increase, b.increase))
            .then_with(|| a.predicate.cmp(&b.predicate))
    });
    let mut start = 0;
    while start < ranked.len() {
        let mut end = start + 1;
        while end < ranked.len()
            && tied(ranked[end].score, ranked[start].score)
            && tied(ranked[end].increase, ranked[start].increase)
        {
            end += 1;
        }
        for entry in &mut ranked[start..end] {
            entry.rank = end;
        }
        start = end;
    }
    ranked
}

fn count(counts: &mut Counts, failed: bool) {
    if failed {
        counts.failed += 1;
    } else {
        counts.passed += 1;
    }
}

/// The share of failing runs among `counts`.
fn failure_rate(counts: Counts) -> f64 {
    let all = counts.failed + counts.passed;
    if all == 0 {
        0.0
    } else {
        f64::from(counts.failed) / f64::from(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A predicate: (line, outcome) of the seed's `remove_html_markup()`.
    type P = (u32, bool);

    /// The conditions' outcomes in its three runs: `abc` and `<b>abc</b>`
    /// pass, `"abc"` fails. Line 8 `c == '<' && !quote`, 10 `c == '>' &&
    /// !quote`, 12 `c == '"' || c == '\'' && tag`, 14 `!tag`.
    fn remove_html_markup() -> Vec<(bool, BTreeSet<P>)> {
        let plain = BTreeSet::from([(8, false), (10, false), (12, false), (14, true)]);
        let bold = BTreeSet::from([
            (8, true),
            (8, false),
            (10, true),
            (10, false),
            (12, false),
            (14, true),
            (14, false),
        ]);
        let quoted = BTreeSet::from([(8, false), (10, false), (12, true), (12, false), (14, true)]);
        vec![(false, plain), (false, bold), (true, quoted)]
    }

    #[test]
    fn the_quote_condition_being_true_ranks_first() {
        let runs = remove_html_markup();
        let runs: Vec<(bool, &BTreeSet<P>)> = runs.iter().map(|(f, p)| (*f, p)).collect();
        let ranked = rank_predicates(&runs, Metric::Ochiai, |p: &P| p.0);
        assert_eq!(ranked[0].predicate, (12, true));
        assert_eq!(ranked[0].rank, 1);
        assert_eq!(ranked[0].score, 1.0);
        assert_eq!(
            ranked[0].counts,
            Counts {
                failed: 1,
                passed: 0
            }
        );
        // Failure = 1, Context = 1/3 (every run reaches line 12).
        assert!((ranked[0].increase - 2.0 / 3.0).abs() < 1e-12);
        // Every run saw these: Ochiai 1/sqrt(3), no increase; a tie of four.
        let everywhere: Vec<&RankedPredicate<P>> = ranked
            .iter()
            .filter(|r| r.counts.failed == 1 && r.counts.passed == 2)
            .collect();
        assert_eq!(everywhere.len(), 4);
        for entry in &everywhere {
            assert!((entry.score - 1.0 / 3f64.sqrt()).abs() < 1e-12);
            assert!(entry.increase.abs() < 1e-12);
            assert_eq!(entry.rank, 5);
        }
        // Seen only by the passing bold run: score 0, increase -1/3.
        let bold_only = ranked.iter().find(|r| r.predicate == (8, true)).unwrap();
        assert_eq!(bold_only.score, 0.0);
        assert!((bold_only.increase + 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(ranked.len(), 8);
        assert_eq!(ranked.last().unwrap().rank, 8);
    }

    #[test]
    fn increase_orders_equal_scores() {
        // Both predicates are seen by the one failing run and one passing
        // run; site 2 is also reached by two more passing runs, so seeing
        // its predicate says more.
        let a = BTreeSet::from([(1, true), (2, true)]);
        let b = BTreeSet::from([(1, true), (2, true)]);
        let c = BTreeSet::from([(2, false), (1, false)]);
        let d = BTreeSet::from([(2, false)]);
        let runs = [(true, &a), (false, &b), (false, &c), (false, &d)];
        let ranked = rank_predicates(&runs, Metric::Tarantula, |p: &P| p.0);
        assert_eq!(ranked[0].predicate, (2, true));
        assert_eq!(ranked[1].predicate, (1, true));
        assert!(ranked[0].increase > ranked[1].increase);
        assert_eq!((ranked[0].rank, ranked[1].rank), (1, 2));
        assert!((ranked[0].score - ranked[1].score).abs() < 1e-12);
    }
}
