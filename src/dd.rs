//! Delta debugging (Zeller and Hildebrandt): reduces a set of changes to the
//! part that matters. `cargo autofix` reduces the winning candidate's edits
//! to a 1-minimal patch (removing any single remaining edit breaks a test),
//! and `cargo autofix reduce` a failing test's statements (removing any one
//! loses the failure).
//!
//! Pure: the caller's `test` decides each outcome; results are cached by subset.

use std::collections::BTreeMap;

/// What a test of a subset of the input says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The property of interest is absent ("the failure does not occur").
    Pass,
    /// The property of interest holds ("the failure occurs"). For patch
    /// reduction: the patched crate builds and every test passes.
    Fail,
    /// Neither: for patch reduction, the crate does not build or a test times out.
    Unresolved,
}

/// Which way `dd` works (the seed's `-`, `+` and `+-` modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Minimize the failing input (ddmin).
    Minimize,
    /// Maximize the passing input (ddmax).
    Maximize,
    /// Both: narrow the difference between a passing and a failing input.
    Both,
}

/// Why `dd` could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DdError {
    /// The whole input was expected to fail, but it does not.
    NotFailing,
    /// The empty input was expected to pass, but it does not.
    NotPassing,
}

/// The result of `dd`: indexes (into the input) of a maximal passing and a
/// minimal failing subset, and of their difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduction {
    pub passing: Vec<usize>,
    pub failing: Vec<usize>,
    pub difference: Vec<usize>,
}

/// ddmin, one test at a time (the product uses [`ddmin_batched`]; this is
/// the reference it is checked against): a 1-minimal subset (as indexes)
/// of `0..len` for which `test`
/// still says `Fail`. `test` must say `Fail` for the whole input.
#[cfg(test)]
pub fn ddmin(len: usize, test: impl FnMut(&[usize]) -> Outcome) -> Result<Vec<usize>, DdError> {
    dd(len, Mode::Minimize, test).map(|reduction| reduction.failing)
}

/// General delta debugging over the elements `0..len`, as in the seed:
/// reduce-to-subset and increase-to-subset are tried only at granularity 2,
/// and after a reduction the search resumes at the subset that succeeded.
pub fn dd(
    len: usize,
    mode: Mode,
    mut test: impl FnMut(&[usize]) -> Outcome,
) -> Result<Reduction, DdError> {
    let mut cache: BTreeMap<Vec<usize>, Outcome> = BTreeMap::new();
    let mut run = |subset: &[usize]| *cache.entry(subset.to_vec()).or_insert_with(|| test(subset));
    let minimize = mode != Mode::Maximize;
    let maximize = mode != Mode::Minimize;

    let mut passing: Vec<usize> = Vec::new();
    let mut failing: Vec<usize> = (0..len).collect();
    if run(&passing) == Outcome::Fail {
        if maximize {
            return Err(DdError::NotPassing);
        }
        return Ok(reduction(&passing, &passing));
    }
    if run(&failing) == Outcome::Pass {
        if minimize {
            return Err(DdError::NotFailing);
        }
        return Ok(reduction(&failing, &failing));
    }

    let mut n = 2;
    let mut offset = 0;
    loop {
        let delta = difference(&failing, &passing);
        if delta.len() < n {
            return Ok(reduction(&passing, &failing));
        }
        let deltas = split(&delta, n);
        let mut found = false;
        let mut next_n = n;
        for j in 0..n {
            let i = (j + offset) % n;
            let next_passing = union(&passing, &deltas[i]);
            let next_failing = difference(&failing, &deltas[i]);
            if minimize && n == 2 && run(&next_passing) == Outcome::Fail {
                failing = next_passing; // reduce to subset
                offset = i;
                found = true;
                break;
            }
            if maximize && n == 2 && run(&next_failing) == Outcome::Pass {
                passing = next_failing; // increase to subset
                offset = i;
                found = true;
                break;
            }
            if minimize && run(&next_failing) == Outcome::Fail {
                failing = next_failing; // reduce to complement
                next_n = (n - 1).max(2);
                offset = i;
                found = true;
                break;
            }
            if maximize && run(&next_passing) == Outcome::Pass {
                passing = next_passing; // increase to complement
                next_n = (n - 1).max(2);
                offset = i;
                found = true;
                break;
            }
        }
        n = next_n;
        if !found {
            if n >= delta.len() {
                return Ok(reduction(&passing, &failing));
            }
            n = (n * 2).min(delta.len());
        }
    }
}

/// ddmin with each round's tests as one batch (one build for many
/// subsets, when testing means building): `test` gets every subset the
/// round may test that was not tested before, in the order [`ddmin`] would
/// test them, and returns their outcomes in that order (or an error, which
/// ends the reduction). The reduction is the one [`ddmin`] finds with the
/// same outcomes: a round takes the first subset (or complement) that says
/// `Fail`, and speculative tests of the others only cost time.
pub fn ddmin_batched<E>(
    len: usize,
    mut test: impl FnMut(&[Vec<usize>]) -> Result<Vec<Outcome>, E>,
) -> Result<Result<Vec<usize>, DdError>, E> {
    let mut cache: BTreeMap<Vec<usize>, Outcome> = BTreeMap::new();
    let mut run_all = |subsets: &[Vec<usize>]| -> Result<Vec<Outcome>, E> {
        let mut fresh: Vec<Vec<usize>> = Vec::new();
        for subset in subsets {
            if !cache.contains_key(subset) && !fresh.contains(subset) {
                fresh.push(subset.clone());
            }
        }
        if !fresh.is_empty() {
            let outcomes = test(&fresh)?;
            assert_eq!(outcomes.len(), fresh.len(), "one outcome per subset");
            cache.extend(fresh.into_iter().zip(outcomes));
        }
        Ok(subsets.iter().map(|s| cache[s]).collect())
    };
    let mut failing: Vec<usize> = (0..len).collect();
    let first = run_all(&[Vec::new(), failing.clone()])?;
    if first[0] == Outcome::Fail {
        return Ok(Ok(Vec::new()));
    }
    if first[1] == Outcome::Pass {
        return Ok(Err(DdError::NotFailing));
    }
    let mut n = 2;
    let mut offset = 0;
    loop {
        if failing.len() < n {
            return Ok(Ok(failing));
        }
        let deltas = split(&failing, n);
        // What the round may test, in ddmin's order: (subset, is a complement, part).
        let mut round: Vec<(Vec<usize>, bool, usize)> = Vec::new();
        for j in 0..n {
            let i = (j + offset) % n;
            if n == 2 {
                round.push((deltas[i].clone(), false, i));
            }
            round.push((difference(&failing, &deltas[i]), true, i));
        }
        let subsets: Vec<Vec<usize>> = round.iter().map(|(s, _, _)| s.clone()).collect();
        let outcomes = run_all(&subsets)?;
        let reduced = round
            .into_iter()
            .zip(outcomes)
            .find(|(_, outcome)| *outcome == Outcome::Fail);
        match reduced {
            Some(((subset, complement, i), _)) => {
                failing = subset;
                offset = i;
                if complement {
                    n = (n - 1).max(2);
                }
            }
            None => {
                if n >= failing.len() {
                    return Ok(Ok(failing));
                }
                n = (n * 2).min(failing.len());
            }
        }
    }
}

fn reduction(passing: &[usize], failing: &[usize]) -> Reduction {
    Reduction {
        passing: passing.to_vec(),
        failing: failing.to_vec(),
        difference: difference(failing, passing),
    }
}

/// `elems` split into `n` consecutive parts whose sizes differ by at most one.
fn split(elems: &[usize], n: usize) -> Vec<Vec<usize>> {
    let (k, m) = (elems.len() / n, elems.len() % n);
    (0..n)
        .map(|i| elems[i * k + i.min(m)..(i + 1) * k + (i + 1).min(m)].to_vec())
        .collect()
}

fn difference(a: &[usize], b: &[usize]) -> Vec<usize> {
    a.iter().copied().filter(|x| !b.contains(x)).collect()
}

fn union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out: Vec<usize> = a.iter().chain(b).copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's `mystery()`: fails when the input holds `(` before `)`.
    fn mystery(input: &str) -> Outcome {
        match (input.find('('), input.find(')')) {
            (Some(x), Some(y)) if x < y => Outcome::Fail,
            _ => Outcome::Pass,
        }
    }

    fn pick(input: &str, indexes: &[usize]) -> String {
        let chars: Vec<char> = input.chars().collect();
        indexes.iter().map(|&i| chars[i]).collect()
    }

    const MYSTERY_INPUT: &str = "V\"/+!aF-(V4EOz*+s/Q,7)2@0_";

    #[test]
    fn ddmin_reduces_the_mystery_input_to_two_parentheses() {
        assert_eq!(MYSTERY_INPUT.chars().count(), 26);
        let mut tests = 0;
        let reduced = ddmin(26, |subset| {
            tests += 1;
            mystery(&pick(MYSTERY_INPUT, subset))
        })
        .unwrap();
        assert_eq!(pick(MYSTERY_INPUT, &reduced), "()");
        // "Delta Debugging determines this in 25 steps."
        assert_eq!(tests, 25);
    }

    #[test]
    fn dd_modes_give_the_seeds_triples() {
        let test = |subset: &[usize]| mystery(&pick(MYSTERY_INPUT, subset));
        let both = dd(26, Mode::Both, test).unwrap();
        assert_eq!(pick(MYSTERY_INPUT, &both.failing), "(z*+s/Q,7)2@0_");
        assert_eq!(pick(MYSTERY_INPUT, &both.passing), "z*+s/Q,7)2@0_");
        assert_eq!(pick(MYSTERY_INPUT, &both.difference), "(");
        // The passing input is maximal: adding the difference makes it fail.
        let mut joined = both.passing.clone();
        joined.extend(&both.difference);
        joined.sort();
        assert_eq!(mystery(&pick(MYSTERY_INPUT, &joined)), Outcome::Fail);
        assert_eq!(mystery(&pick(MYSTERY_INPUT, &both.passing)), Outcome::Pass);

        let minimized = dd(26, Mode::Minimize, test).unwrap();
        assert_eq!(pick(MYSTERY_INPUT, &minimized.failing), "()");
        assert_eq!(pick(MYSTERY_INPUT, &minimized.passing), "");

        let maximized = dd(26, Mode::Maximize, test).unwrap();
        assert_eq!(maximized.failing.len(), 26);
        assert_eq!(
            mystery(&pick(MYSTERY_INPUT, &maximized.passing)),
            Outcome::Pass
        );
        assert_eq!(
            pick(MYSTERY_INPUT, &maximized.passing),
            "V\"/+!aF-V4EOz*+s/Q,7)2@0_"
        );
    }

    #[test]
    fn ddmin_result_is_one_minimal_with_unresolved_outcomes() {
        // Fails when 2 and 7 are both present; subsets holding 5 without 6
        // are unresolved (an edit that does not build alone).
        let test = |subset: &[usize]| {
            if subset.contains(&5) && !subset.contains(&6) {
                Outcome::Unresolved
            } else if subset.contains(&2) && subset.contains(&7) {
                Outcome::Fail
            } else {
                Outcome::Pass
            }
        };
        let reduced = ddmin(10, test).unwrap();
        assert_eq!(reduced, [2, 7]);
        for i in 0..reduced.len() {
            let mut without = reduced.clone();
            without.remove(i);
            assert_ne!(test(&without), Outcome::Fail);
        }
    }

    #[test]
    fn ddmin_batched_reduces_as_ddmin_does_in_fewer_rounds() {
        type Oracle<'a> = &'a dyn Fn(&[usize]) -> Outcome;
        let oracles: [Oracle; 3] = [
            &|subset| mystery(&pick(MYSTERY_INPUT, subset)),
            &|subset| {
                if subset.contains(&5) && !subset.contains(&6) {
                    Outcome::Unresolved
                } else if [2, 7, 19].iter().all(|x| subset.contains(x)) {
                    Outcome::Fail
                } else {
                    Outcome::Pass
                }
            },
            &|subset| {
                if subset.iter().filter(|&&x| x % 3 == 0).count() >= 2 {
                    Outcome::Fail
                } else {
                    Outcome::Pass
                }
            },
        ];
        for oracle in oracles {
            let sequential = ddmin(26, oracle).unwrap();
            let (mut rounds, mut tested) = (0, 0);
            let batched = ddmin_batched(26, |subsets| {
                rounds += 1;
                tested += subsets.len();
                Ok::<_, ()>(subsets.iter().map(|s| oracle(s)).collect())
            })
            .unwrap()
            .unwrap();
            assert_eq!(batched, sequential);
            assert!(rounds < tested, "{rounds} rounds for {tested} subsets");
        }
        // The mystery input: 25 tests one after another; here 37 (some
        // speculative) in 14 batches.
        let (mut rounds, mut tested) = (0, 0);
        ddmin_batched(26, |subsets| {
            rounds += 1;
            tested += subsets.len();
            Ok::<_, ()>(
                subsets
                    .iter()
                    .map(|s| mystery(&pick(MYSTERY_INPUT, s)))
                    .collect(),
            )
        })
        .unwrap()
        .unwrap();
        assert_eq!((rounds, tested), (14, 37));
    }

    #[test]
    fn ddmin_batched_passes_errors_on_and_refuses_a_passing_input() {
        assert_eq!(
            ddmin_batched(4, |_| Err::<Vec<Outcome>, _>("no build")),
            Err("no build")
        );
        assert_eq!(
            ddmin_batched(3, |s| Ok::<_, ()>(vec![Outcome::Pass; s.len()])),
            Ok(Err(DdError::NotFailing))
        );
    }

    #[test]
    fn ddmin_refuses_an_input_that_does_not_fail() {
        assert_eq!(ddmin(3, |_| Outcome::Pass), Err(DdError::NotFailing));
    }

    #[test]
    fn split_matches_the_seed() {
        let seven: Vec<usize> = (1..=7).collect();
        assert_eq!(split(&seven, 3), [vec![1, 2, 3], vec![4, 5], vec![6, 7]]);
        assert_eq!(
            split(&seven, 5),
            [vec![1, 2], vec![3, 4], vec![5], vec![6], vec![7]]
        );
    }

    #[test]
    fn each_subset_is_tested_once() {
        let mut seen = std::collections::BTreeSet::new();
        ddmin(8, |subset| {
            assert!(seen.insert(subset.to_vec()), "{subset:?} tested twice");
            if subset.contains(&3) {
                Outcome::Fail
            } else {
                Outcome::Pass
            }
        })
        .unwrap();
    }
}
