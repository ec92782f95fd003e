//! Draws edits from a mutation space where the fault most likely is:
//! randomly (locations with probability proportional to their weight, then
//! an operator among those with a site there, then one of its edits), or
//! systematically (every edit of every operator at a location, in
//! [`Operator::in_sweep_order`]). Lines no failing test executed weigh nothing
//! and are never changed.

use std::collections::BTreeMap;

use rand::Rng;
use rand::prelude::*;

use crate::code::Originals;
use crate::code::source::Location;
use crate::mutation::operators::{Context, applies, apply, edits};
use crate::mutation::patch::{Candidate, Operator, PatchEdit};
use crate::mutation::sites::{MutationSpace, SiteKind};
use crate::mutation::types::Types;

/// A stretch of the sweep: some of one location's edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leg {
    pub location: Location,
    pub part: Part,
}

/// Which of a location's edits a [`Leg`] makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    All,
    /// Those of operators that change an expression or delete a statement.
    Expressions,
    /// Those of operators that write new statements.
    Statements,
}

impl Part {
    /// The part an edit by `operator` belongs to (not [`Part::All`]).
    pub fn of(operator: Operator) -> Part {
        if operator.writes_statements() {
            Part::Statements
        } else {
            Part::Expressions
        }
    }

    fn has(self, operator: Operator) -> bool {
        self == Part::All || self == Part::of(operator)
    }
}

/// How many ranks further down a location's new statements are swept than
/// its other edits: they are several times as many (every statement of
/// the crate that fits, adapted or not) and rarely the fix, so the
/// expressions of the next few locations go first.
pub const STATEMENTS_LATER: usize = 4;

/// The sweep's course over `locations` (in rank order): each location's
/// expression edits at its rank, its statement edits as if it ranked
/// [`STATEMENTS_LATER`] times lower.
pub fn course(locations: &[Location]) -> Vec<Leg> {
    let mut legs: Vec<((usize, bool), Leg)> = Vec::new();
    for (rank, &location) in locations.iter().enumerate() {
        let leg = |part| Leg { location, part };
        legs.push(((rank, false), leg(Part::Expressions)));
        let later = (rank + 1) * STATEMENTS_LATER - 1;
        legs.push(((later, true), leg(Part::Statements)));
    }
    legs.sort_by_key(|(key, _)| *key);
    legs.into_iter().map(|(_, leg)| leg).collect()
}

/// Every edit at each location, for those who visit whole locations.
pub fn whole(locations: &[Location]) -> Vec<Leg> {
    locations
        .iter()
        .map(|&location| Leg {
            location,
            part: Part::All,
        })
        .collect()
}

/// Draws edits from a mutation space.
#[derive(Debug)]
pub struct Mutator<'a> {
    space: &'a MutationSpace,
    originals: &'a Originals,
    types: &'a Types,
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
        types: &'a Types,
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
            types,
            spots,
        }
    }

    /// The original sources it edits.
    pub fn originals(&self) -> &'a Originals {
        self.originals
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

    /// Whether a statement at `location` has a variable in scope that the
    /// compiler warns is unused (or needlessly `mut`): a statement that
    /// should use it may be missing there.
    pub fn has_unused_in_scope(&self, location: Location) -> bool {
        self.spots
            .iter()
            .filter(|s| s.location == location)
            .flat_map(|s| s.sites.values().flatten())
            .map(|&index| &self.space.sites[index])
            .filter(|site| {
                matches!(
                    site.kind,
                    SiteKind::Statement(_) | SiteKind::BlockStart { .. }
                )
            })
            .any(|site| {
                self.types
                    .unused_at(location, &site.function, &site.bound)
                    .next()
                    .is_some()
            })
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

    /// Every edit of every operator at `location` (none if it weighs
    /// nothing), operators in [`Operator::in_sweep_order`], each operator's
    /// sites in source order, without two edits that give the same text.
    pub fn every_edit_at(&self, location: Location) -> Vec<PatchEdit> {
        let Some(spot) = self.spots.iter().find(|s| s.location == location) else {
            return Vec::new();
        };
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for operator in Operator::in_sweep_order() {
            for &index in spot.sites.get(&operator).into_iter().flatten() {
                let site = &self.space.sites[index];
                let text = self.originals.text(site.file);
                for edit in edits(operator, site, &self.context(site)) {
                    // Two edits that make the same text are one candidate.
                    let mut hasher = std::hash::DefaultHasher::new();
                    for part in [
                        &text[..edit.range.start],
                        &edit.text,
                        &text[edit.range.end..],
                    ] {
                        std::hash::Hasher::write(&mut hasher, part.as_bytes());
                    }
                    if seen.insert(std::hash::Hasher::finish(&hasher)) {
                        out.push(PatchEdit {
                            file: site.file,
                            edit,
                            operator,
                            line: site.line,
                        });
                    }
                }
            }
        }
        out
    }

    /// The edits of whole legs from `legs[*next]` on (each operator's
    /// first `per_site` at each code it replaces: an operand, a statement,
    /// a value of a data item), until there are at least `size` (or the
    /// legs run out); `next` moves past them.
    pub fn batch_at(
        &self,
        legs: &[Leg],
        next: &mut usize,
        size: usize,
        per_site: usize,
    ) -> Vec<PatchEdit> {
        let mut batch = Vec::new();
        while *next < legs.len() && batch.len() < size {
            // Each site of the line (or value of a data item), which is
            // what an edit replaces, gets its own: every part of the line
            // is tried, and only long lists of alternatives are cut.
            let Leg { location, part } = legs[*next];
            let mut taken: BTreeMap<(Operator, usize, usize), usize> = BTreeMap::new();
            let edits = self.every_edit_at(location);
            batch.extend(edits.into_iter().filter(|edit| {
                if !part.has(edit.operator) {
                    return false;
                }
                let range = &edit.edit.range;
                let count = taken
                    .entry((edit.operator, range.start, range.end))
                    .or_default();
                *count += 1;
                *count <= per_site
            }));
            *next += 1;
        }
        batch
    }

    fn context(&self, site: &crate::mutation::sites::Site) -> Context<'a> {
        Context {
            space: self.space,
            text: self.originals.text(site.file),
            types: self.types,
        }
    }

    fn apply_at(&self, spot: &Spot, operator: Operator, rng: &mut impl Rng) -> Option<PatchEdit> {
        let site = &self.space.sites[*spot.sites.get(&operator)?.choose(rng)?];
        let edit = apply(operator, site, &self.context(site), rng)?;
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
    use crate::code::source::{FileId, line_text, splice};
    use crate::code::{CrateSources, KeepConst};
    use crate::mutation::sites::collect_mutation_space;

    const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    }\n    z\n}\n";

    #[test]
    fn mutator_only_draws_from_suspicious_locations() {
        let sources = CrateSources::of_one_file(MIDDLE);
        let space = collect_mutation_space(&sources, &KeepConst::Every, &Default::default());
        let originals = sources.originals();
        let types = Types::default();
        let mutator = Mutator::new(&space, &originals, &types, &Operator::all(), |l| {
            if l.line == 6 { 0.7 } else { 0.0 }
        });
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..50 {
            let edit = mutator.mutation(&mut rng).unwrap();
            assert_eq!(edit.line, 6);
        }
        let nothing = Mutator::new(&space, &originals, &types, &Operator::all(), |_| 0.0);
        assert_eq!(nothing.mutation(&mut rng), None);
    }

    #[test]
    fn every_edit_at_a_location_in_sweep_order() {
        let sources = CrateSources::of_one_file(MIDDLE);
        let space = collect_mutation_space(&sources, &KeepConst::Every, &Default::default());
        let originals = sources.originals();
        let types = Types::default();
        let mutator = Mutator::new(&space, &originals, &types, &Operator::all(), |l| {
            if l.line == 5 { 0.9 } else { 0.0 }
        });
        let edits = mutator.every_edit_at(Location::new(FileId::new(0), 5));
        let lines: Vec<(Operator, String)> = edits
            .iter()
            .map(|e| {
                let text = splice(MIDDLE, std::slice::from_ref(&e.edit)).unwrap();
                (e.operator, line_text(&text, 5).to_string())
            })
            .collect();
        // A batch of this one location with one edit per operator and
        // code replaced: the first of each, in the same order.
        let location = [Location::new(FileId::new(0), 5)];
        let capped = mutator.batch_at(&whole(&location), &mut 0, 1000, 1);
        let mut firsts = edits.clone();
        let mut seen = std::collections::BTreeSet::new();
        firsts.retain(|e| seen.insert((e.operator, e.edit.range.start, e.edit.range.end)));
        assert!(firsts.len() < edits.len(), "some code has two edits");
        assert_eq!(capped, firsts);
        // The cap cuts alternatives at one code, not codes: an operator
        // with two codes at the line (the variables `x` and `z`) keeps both.
        let codes = |operator: Operator| {
            capped
                .iter()
                .filter(|e| e.operator == operator)
                .map(|e| (e.edit.range.start, e.edit.range.end))
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        };
        assert_eq!(codes(Operator::Identifier), 2);
        // The five other comparisons first, then the condition's negation.
        assert_eq!(lines[0].0, Operator::Binary);
        assert!(
            lines[..5].iter().any(|(_, l)| l == "} else if x <= z {"),
            "{lines:?}"
        );
        assert!(
            lines.contains(&(Operator::Condition, "} else if !(x < z) {".into())),
            "{lines:?}"
        );
        // `y < z` is a condition of the crate and a renamed variable: the
        // condition, tried first, makes it; the rename is not tried again.
        assert!(
            lines.contains(&(Operator::Condition, "} else if y < z {".into())),
            "{lines:?}"
        );
        assert!(
            lines.contains(&(Operator::Identifier, "} else if x < x {".into())),
            "{lines:?}"
        );
        let distinct: std::collections::BTreeSet<&String> = lines.iter().map(|(_, l)| l).collect();
        assert_eq!(distinct.len(), lines.len(), "no two edits make one text");
        assert!(
            mutator
                .every_edit_at(Location::new(FileId::new(0), 2))
                .is_empty()
        );
    }

    #[test]
    fn the_course_sweeps_new_statements_a_few_ranks_later() {
        let at = |line| Location::new(FileId::new(0), line);
        let locations: Vec<Location> = (1..=6).map(at).collect();
        let legs: Vec<(u32, bool)> = course(&locations)
            .iter()
            .map(|leg| (leg.location.line, leg.part == Part::Statements))
            .collect();
        assert_eq!(STATEMENTS_LATER, 4);
        assert_eq!(
            legs,
            [
                (1, false),
                (2, false),
                (3, false),
                (4, false),
                (1, true),
                (5, false),
                (6, false),
                (2, true),
                (3, true),
                (4, true),
                (5, true),
                (6, true),
            ]
        );
        // Both parts make every edit of the location once, in its order.
        let sources = CrateSources::of_one_file(MIDDLE);
        let space = collect_mutation_space(&sources, &KeepConst::Every, &Default::default());
        let originals = sources.originals();
        let types = Types::default();
        let mutator = Mutator::new(&space, &originals, &types, &Operator::all(), |_| 1.0);
        let here = [at(4)];
        let every = mutator.every_edit_at(here[0]);
        let split = mutator.batch_at(&course(&here), &mut 0, usize::MAX, usize::MAX);
        assert_eq!(split, every);
        assert!(every.iter().any(|e| e.operator.writes_statements()));
        assert!(every.iter().any(|e| !e.operator.writes_statements()));
    }
}
