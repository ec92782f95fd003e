//! The order failure groups are searched in.

use std::cmp::{Ordering, Reverse};
use std::collections::BTreeSet;

use crate::cargo::PROCESS_FAILED;
use crate::code::source::Location;
use crate::localize::GroupRanking;
use crate::localize::Signature;

/// The group to search next of `groups` (those left): the promising ones
/// first (see [`unpromising`]), the larger first (the localization's
/// order), and of one size, one whose tests run no line of the crate first
/// (it is decided at once: its tests are flaky, or there is nothing to
/// edit). Of the groups that tie with that first one, another goes first
/// when the evidence points at it more sharply (a condition whose flip
/// makes its test pass; else a top line only its failing tests run) and it
/// shares none of its leading lines with the first one. A test that fails
/// whatever the crate does (it expects a permission error and runs as
/// root, it needs a network) then waits for the group an edit can fix,
/// while groups that share suspicious lines, most likely failing by one
/// fault, keep their order: the stage of one judges patches by its own
/// tests alone, and which group's tests tell the right patch is unknown.
pub fn next<'a>(groups: &[&'a GroupRanking]) -> Option<&'a GroupRanking> {
    let key = |g: &GroupRanking| {
        let size = Reverse(g.group.tests.len());
        (unpromising(g), size, top(g) > 0.0)
    };
    let first = *groups.iter().min_by_key(|g| key(g))?;
    let evidence = |g: &GroupRanking| (!g.critical.is_empty(), top(g));
    let sharper = groups
        .iter()
        .filter(|g| key(g) == key(first) && leading_lines(g).is_disjoint(&leading_lines(first)))
        // The sharpest, the first of them on a tie.
        .min_by(|a, b| {
            evidence(b)
                .partial_cmp(&evidence(a))
                .unwrap_or(Ordering::Equal)
        });
    Some(match sharper {
        Some(g) if evidence(g) > evidence(first) => g,
        _ => first,
    })
}

/// The best score of a group's lines (0 when its tests run none).
fn top(group: &GroupRanking) -> f64 {
    group.suspects.iter().map(|s| s.score).fold(0.0, f64::max)
}

/// The lines of a group's ranking that [`next`] compares: its first few.
const LEADING: usize = 5;

/// A group's [`LEADING`] most suspicious lines.
fn leading_lines(group: &GroupRanking) -> BTreeSet<Location> {
    group
        .suspects
        .iter()
        .take(LEADING)
        .map(|s| s.location)
        .collect()
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
    use super::*;
    use crate::cargo::TestId;
    use crate::code::source::FileId;
    use crate::localize::{FailureGroup, Suspect};

    /// A group of `tests` failing tests (numbered from `first`) whose most
    /// suspicious line, `line`, scores `top`, a critical condition if
    /// `critical`.
    fn group(first: usize, tests: usize, (line, top): (u32, f64), critical: bool) -> GroupRanking {
        let at = Location::new(FileId::new(0), line);
        GroupRanking {
            group: FailureGroup {
                signature: Signature::Message(format!("failure {first}")),
                description: String::new(),
                tests: (first..first + tests).map(TestId::new).collect(),
            },
            suspects: vec![Suspect {
                location: at,
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
                BTreeSet::from([at])
            } else {
                BTreeSet::new()
            },
            crash: None,
        }
    }

    #[test]
    fn of_groups_of_one_size_the_one_an_edit_can_fix_is_searched_first() {
        let cases = [
            // A test that fails however the crate is edited (its lines are
            // every passing test's too) waits for the one with a sharp line.
            (
                [group(0, 1, (1, 0.7), false), group(1, 1, (2, 1.0), false)],
                1,
            ),
            // A condition whose flip makes its test pass counts first.
            (
                [group(0, 1, (1, 1.0), false), group(1, 1, (2, 0.5), true)],
                1,
            ),
            // The larger group still comes first, whatever its evidence.
            (
                [group(0, 1, (1, 1.0), true), group(1, 2, (2, 0.1), false)],
                1,
            ),
            // Equal evidence keeps the localization's order.
            (
                [group(0, 1, (1, 1.0), false), group(1, 1, (2, 1.0), false)],
                0,
            ),
            // So do groups that share a leading line: most likely one fault.
            (
                [group(0, 1, (1, 0.7), false), group(1, 1, (1, 1.0), true)],
                0,
            ),
            // A group whose tests run no line of the crate (a flaky
            // test's) is decided first.
            (
                [group(0, 1, (1, 1.0), false), group(1, 1, (2, 0.0), false)],
                1,
            ),
        ];
        for (groups, expected) in cases {
            let left: Vec<&GroupRanking> = groups.iter().collect();
            let next = next(&left).unwrap();
            assert_eq!(next.group.tests[0].index(), expected);
        }
        assert!(next(&[]).is_none());
    }
}
