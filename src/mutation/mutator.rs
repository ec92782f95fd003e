//! Draws edits from a mutation space: locations with probability
//! proportional to their suspiciousness (lines no failing test executed are
//! never chosen), then an operator among those with a site there, then one
//! of its sites; or, systematically, every one-token edit at the heaviest
//! locations.

use std::collections::BTreeMap;

use rand::Rng;
use rand::prelude::*;

use crate::code::crate_sources::Originals;
use crate::code::source::Location;
use crate::mutation::operators::{applies, apply, one_token_edits};
use crate::mutation::patch::{Candidate, Operator, PatchEdit};
use crate::mutation::sites::MutationSpace;

/// Draws random edits from a mutation space.
#[derive(Debug)]
pub struct Mutator<'a> {
    space: &'a MutationSpace,
    originals: &'a Originals,
    /// Suspicious locations with their weights, and their sites by operator.
    spots: Vec<Spot>,
}

/// A suspicious location of the mutator.
#[derive(Debug, Clone)]
struct Spot {
    location: Location,
    /// The weight suspiciousness gives it, and the weight it has now.
    base: f64,
    weight: f64,
    sites: BTreeMap<Operator, Vec<usize>>,
}

impl<'a> Mutator<'a> {
    /// `suspiciousness(location)` weighs each location; locations that
    /// weigh nothing (no failing test executed them) are never mutated.
    pub fn new(
        space: &'a MutationSpace,
        originals: &'a Originals,
        operators: &[Operator],
        suspiciousness: impl Fn(Location) -> f64,
    ) -> Mutator<'a> {
        let mut by_location: BTreeMap<Location, BTreeMap<Operator, Vec<usize>>> = BTreeMap::new();
        for (index, site) in space.sites.iter().enumerate() {
            for &operator in operators {
                if applies(operator, &site.kind) {
                    by_location
                        .entry(site.location())
                        .or_default()
                        .entry(operator)
                        .or_default()
                        .push(index);
                }
            }
        }
        let spots = by_location
            .into_iter()
            .map(|(location, sites)| {
                // DStar's scores can be infinite; weights must add up.
                let base = suspiciousness(location).min(1e9);
                Spot {
                    location,
                    base,
                    weight: base,
                    sites,
                }
            })
            .filter(|spot| spot.base > 0.0)
            .collect();
        Mutator {
            space,
            originals,
            spots,
        }
    }

    /// Sets each location's weight to its suspiciousness times
    /// `factor(location)` (what the search learned about it).
    pub fn reweigh(&mut self, factor: impl Fn(Location) -> f64) {
        for spot in &mut self.spots {
            spot.weight = spot.base * factor(spot.location);
        }
    }

    /// The locations with their suspiciousness and current weight.
    pub fn weights(&self) -> impl Iterator<Item = (Location, f64, f64)> + '_ {
        self.spots.iter().map(|s| (s.location, s.base, s.weight))
    }

    /// A random edit at a suspicious location, or `None` if none could be
    /// made (after a few tries: some sites have no fitting ingredient).
    pub fn mutation(&self, rng: &mut impl Rng) -> Option<PatchEdit> {
        for _ in 0..32 {
            let spot = self.spots.choose_weighted(rng, |s| s.weight).ok()?;
            let operators: Vec<&Operator> = spot.sites.keys().collect();
            let operator = **operators.choose(rng)?;
            if let Some(edit) = self.apply_at(spot, operator, rng) {
                return Some(edit);
            }
        }
        None
    }

    /// A random edit by `operator` at `location`, if it has such a site.
    pub fn mutation_at(
        &self,
        rng: &mut impl Rng,
        location: Location,
        operator: Operator,
    ) -> Option<PatchEdit> {
        let spot = self.spots.iter().find(|s| s.location == location)?;
        (0..8).find_map(|_| self.apply_at(spot, operator, rng))
    }

    /// Up to `count` distinct candidates like those a search makes: one
    /// mutation of the original, every other one two (for benchmarks and
    /// tests of the evaluators).
    pub fn sample(&self, rng: &mut impl Rng, count: usize) -> Vec<Candidate> {
        let mut candidates: Vec<Candidate> = Vec::new();
        for attempt in 0..count * 20 {
            if candidates.len() >= count {
                break;
            }
            let Some(first) = self.mutation(rng) else {
                break;
            };
            let mut candidate = Candidate::original().with(first);
            if attempt % 2 == 1
                && let Some(second) = self.mutation(rng)
            {
                candidate = candidate.with(second);
            }
            if !candidates.contains(&candidate) {
                candidates.push(candidate);
            }
        }
        candidates
    }

    /// Every one-token edit at the heaviest locations, heaviest first (ties
    /// in source order), at most `limit`: each operator replaced by the
    /// others of its class, each condition negated, each integer literal
    /// moved by one and each boolean flipped, each method replaced by its
    /// siblings (`min`/`max`), each range made inclusive or exclusive. The
    /// commonest slips are one token wide; trying them all where the fault
    /// most likely is finds them without luck.
    pub fn neighbourhood(&self, limit: usize) -> Vec<PatchEdit> {
        let mut spots: Vec<&Spot> = self.spots.iter().collect();
        spots.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        let mut edits = Vec::new();
        for spot in spots {
            for (&operator, indices) in &spot.sites {
                for &index in indices {
                    let site = &self.space.sites[index];
                    for edit in one_token_edits(operator, site) {
                        if edits.len() >= limit {
                            return edits;
                        }
                        edits.push(PatchEdit {
                            file: site.file,
                            edit,
                            operator,
                            line: site.line,
                        });
                    }
                }
            }
        }
        edits
    }

    fn apply_at(&self, spot: &Spot, operator: Operator, rng: &mut impl Rng) -> Option<PatchEdit> {
        let site = &self.space.sites[*spot.sites.get(&operator)?.choose(rng)?];
        let edit = apply(
            operator,
            site,
            self.space,
            self.originals.text(site.file),
            rng,
        )?;
        Some(PatchEdit {
            file: site.file,
            edit,
            operator,
            line: site.line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::crate_sources::CrateSources;
    use crate::code::source::{line_text, splice};
    use crate::mutation::sites::collect_mutation_space;

    const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    }\n    z\n}\n";

    #[test]
    fn mutator_only_draws_from_suspicious_locations() {
        let sources = CrateSources::of_one_file(MIDDLE);
        let space = collect_mutation_space(&sources, &Default::default());
        let originals = sources.originals();
        let mutator = Mutator::new(&space, &originals, &Operator::ALL, |l| {
            if l.line == 6 { 0.7 } else { 0.0 }
        });
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..50 {
            let edit = mutator.mutation(&mut rng).unwrap();
            assert_eq!(edit.line, 6);
        }
        let nothing = Mutator::new(&space, &originals, &Operator::ALL, |_| 0.0);
        assert_eq!(nothing.mutation(&mut rng), None);
    }

    #[test]
    fn neighbourhood_lists_every_one_token_edit_heaviest_location_first() {
        let sources = CrateSources::of_one_file(MIDDLE);
        let space = collect_mutation_space(&sources, &Default::default());
        let originals = sources.originals();
        let mutator = Mutator::new(&space, &originals, &Operator::ALL, |l| match l.line {
            5 => 0.9,
            2 => 0.5,
            _ => 0.0,
        });
        let changed = |edits: &[PatchEdit]| -> Vec<(u32, String)> {
            edits
                .iter()
                .map(|e| {
                    let text = splice(MIDDLE, std::slice::from_ref(&e.edit)).unwrap();
                    (e.line, line_text(&text, e.line).to_string())
                })
                .collect()
        };
        let all = changed(&mutator.neighbourhood(100));
        // Line 5 (heavier) first: its negation and the five other comparisons.
        assert_eq!(all.len(), 12, "{all:?}");
        assert!(all[..6].iter().all(|(line, _)| *line == 5), "{all:?}");
        for expected in [
            "} else if !(x < z) {",
            "} else if x <= z {",
            "} else if x != z {",
        ] {
            assert!(all[..6].iter().any(|(_, t)| t == expected), "{all:?}");
        }
        assert!(all[6..].iter().any(|(_, t)| t == "if y >= z {"), "{all:?}");
        // No statement edits (they need ingredients), no unsuspicious lines.
        assert!(all.iter().all(|(line, _)| *line == 5 || *line == 2));
        assert_eq!(changed(&mutator.neighbourhood(4)), all[..4].to_vec());
    }
}
