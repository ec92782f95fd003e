//! The order failure groups are searched in.

use std::cmp::{Ordering, Reverse};

use crate::cargo::PROCESS_FAILED;
use crate::localize::GroupRanking;
use crate::localize::Signature;

/// The order groups are searched in: the promising ones first (see
/// [`unpromising`]), the larger first (the localization's order); among
/// groups of one size, one whose tests run no line of the crate first (it
/// is decided at once: its tests are flaky, or there is nothing to edit),
/// then one where flipping a condition makes a failing test pass, then the
/// one whose most suspicious line only its failing tests run (the sharper
/// score). A test that fails whatever the crate does (it expects a
/// permission error and runs as root, it needs a network) then waits for
/// the group an edit can fix instead of spending the time limit's first
/// share.
pub fn searched_before(a: &GroupRanking, b: &GroupRanking) -> Ordering {
    let top = |g: &GroupRanking| g.suspects.iter().map(|s| s.score).fold(0.0, f64::max);
    let key = |g: &GroupRanking| {
        let size = Reverse(g.group.tests.len());
        (unpromising(g), size, top(g) > 0.0, g.critical.is_empty())
    };
    key(a).cmp(&key(b)).then(top(b).total_cmp(&top(a)))
}

/// Whether a group is unlikely to be fixed by an edit: its tests did not
/// panic but hung, exited or were killed (a test that calls
/// `process::exit` fails whatever the crate does). Such groups are searched
/// after the others.
fn unpromising(group: &GroupRanking) -> bool {
    match &group.group.signature {
        Signature::TimedOut => true,
        Signature::Message(pattern) => pattern.starts_with(PROCESS_FAILED),
        Signature::PanicAt(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::cargo::TestId;
    use crate::code::source::{FileId, Location};
    use crate::localize::{FailureGroup, Suspect};

    /// A group of `tests` failing tests (numbered from `first`), with
    /// `critical` conditions and its most suspicious line of score `top`.
    fn group(first: usize, tests: usize, critical: bool, top: f64) -> GroupRanking {
        let at = |line| Location::new(FileId::new(0), line);
        GroupRanking {
            group: FailureGroup {
                signature: Signature::Message(format!("failure {first}")),
                description: String::new(),
                tests: (first..first + tests).map(TestId::new).collect(),
            },
            suspects: vec![Suspect {
                location: at(1),
                score: top,
                confidence: 1.0,
                counts: Default::default(),
                rank: 1,
                in_slice: false,
                critical,
                crash: false,
                in_diff: false,
                mutation: None,
            }],
            slice: BTreeSet::new(),
            critical: if critical {
                BTreeSet::from([at(1)])
            } else {
                BTreeSet::new()
            },
            crash: None,
        }
    }

    #[test]
    fn among_groups_of_one_size_the_one_an_edit_can_fix_is_searched_first() {
        let order = |groups: &[GroupRanking]| {
            let mut sorted: Vec<&GroupRanking> = groups.iter().collect();
            sorted.sort_by(|a, b| searched_before(a, b));
            sorted
                .iter()
                .map(|g| g.group.tests[0].index())
                .collect::<Vec<_>>()
        };
        let cases = [
            // A test that fails however the crate is edited (its lines are
            // every passing test's too) waits for the one with a sharp line.
            ([group(0, 1, false, 0.7), group(1, 1, false, 1.0)], [1, 0]),
            // A condition whose flip makes its test pass counts first.
            ([group(0, 1, false, 1.0), group(1, 1, true, 0.5)], [1, 0]),
            // The larger group still comes first, whatever its evidence.
            ([group(0, 1, true, 1.0), group(1, 2, false, 0.1)], [1, 0]),
            // Equal evidence keeps the localization's order.
            ([group(0, 1, false, 1.0), group(1, 1, false, 1.0)], [0, 1]),
            // A group whose tests run no line of the crate (a flaky
            // test's) is decided first.
            ([group(0, 1, false, 1.0), group(1, 1, false, 0.0)], [1, 0]),
        ];
        for (groups, expected) in cases {
            assert_eq!(order(&groups), expected);
        }
    }
}
