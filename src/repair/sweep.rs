//! The sweep: every single edit every operator can make at each suspicious
//! location, location by location in rank order, evaluated in large
//! batches. Most bugs a test suite can pin down are fixed by one edit, and
//! trying them all where the fault most likely is finds them without luck
//! (PraPR, TBar). The sweep stops once an edit makes every test pass and
//! makes no code degenerate (see [`Candidate::degenerate`]: no one's fix,
//! the next locations may hold one) and the locations tied with its own
//! (the same worst-case rank: the evidence cannot tell them apart, only
//! their order in the file put one first) are swept too, for that part
//! of their edits, up to [`TIED`] more edits (the rest of the last batch
//! is evaluated anyway); at its deadline; or when the locations run out.
//!
//! No randomness: the same crate gives the same sweep with any seed.
//!
//! The lines of a patch the genetic search found are swept the same way
//! afterwards ([`single_edits_where`]): a single edit there that passes
//! every test is the simpler patch, weighed against its line's others.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::cargo::TestId;
use crate::code::source::Location;
use crate::evaluate::Cutoff;
use crate::evaluate::FitnessModel;
use crate::evaluate::{CandidateOutcome, Evaluator, edited_locations, evaluate_until_halt};
use crate::exit::{Halt, Result};
use crate::localize::{EditEffect, FixClass};
use crate::mutation::{Candidate, Leg, Operator, Part, PatchEdit};
use crate::mutation::{Mutator, course};
use crate::repair::search::{LocationFeedback, OperatorCounts, Scored};
use crate::system::Budget;
use crate::system::console::{Console, plural};

/// Why the sweep stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepStop {
    /// A single edit passes every test.
    Found,
    /// Every edit at every location was tried.
    Exhausted,
    TimeLimit,
    Interrupted,
}

/// What the sweep found.
#[derive(Debug, Clone)]
pub struct Swept {
    /// Single edits that pass every test, in the order tried.
    pub plausible: Vec<Scored>,
    /// Single edits that make some failing test pass and break no passing
    /// test, fittest first: seeds for the genetic search.
    pub partial: Vec<Scored>,
    /// The fittest candidate evaluated (the original if nothing beat it).
    pub best: Option<Scored>,
    pub stop: SweepStop,
    /// Single edits evaluated, and at how many locations.
    pub edits: usize,
    pub locations: usize,
    pub operators: BTreeMap<Operator, OperatorCounts>,
    /// Per location, what its edits did.
    pub feedback: BTreeMap<Location, LocationFeedback>,
    /// After each batch: the edits evaluated so far and the best fitness.
    pub progress: Vec<(usize, f64)>,
    /// Originally failing tests that some edit made pass.
    pub passed: Vec<TestId>,
}

/// Candidates per batch, at least (whole locations are added until a batch
/// has this many).
pub const BATCH: usize = 200;

/// The candidates of the sweep's first batch over `locations` (the
/// evaluator's preparation judges them in the build it needs anyway).
pub fn first_batch(mutator: &Mutator, locations: &[Location]) -> Vec<Candidate> {
    batch_from(mutator, &course(locations), &mut 0).1
}

/// The batch of single edits from `legs[*next..]` (`next` moved past it),
/// and each as a candidate.
fn batch_from(
    mutator: &Mutator,
    legs: &[Leg],
    next: &mut usize,
) -> (Vec<PatchEdit>, Vec<Candidate>) {
    let edits = mutator.batch_at(legs, next, BATCH, usize::MAX);
    let candidates = edits
        .iter()
        .map(|edit| Candidate::original().with(edit.clone()))
        .collect();
    (edits, candidates)
}

/// Single edits swept at most after the first plausible patch, at the
/// locations tied with it: a tie of hundreds of lines (everything a lone
/// failing test runs and no other) tells nothing, and sweeping it whole
/// would cost minutes.
const TIED: usize = 1000;

/// The plausible patches the sweep found (of those that make no code
/// degenerate).
struct Found {
    /// The best worst-case rank of their locations: the locations of that
    /// rank or better are swept before the sweep stops.
    through: usize,
    /// The parts of the course their edits belong to, the parts swept.
    parts: Vec<Part>,
    /// The single edits swept when the first was found (its batch's too).
    edits: usize,
}

impl Found {
    /// None yet, `edits` swept.
    fn after(edits: usize) -> Found {
        Found {
            through: usize::MAX,
            parts: Vec::new(),
            edits,
        }
    }

    /// One more, at a location of `rank`, of `part`.
    fn add(&mut self, rank: usize, part: Part) {
        self.through = self.through.min(rank);
        if !self.parts.contains(&part) {
            self.parts.push(part);
        }
    }
}

/// How far a sweep is, for a progress bar: the locations whose edits
/// are all decided, and the edits decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepProgress {
    pub locations: usize,
    pub edits: usize,
}

/// The locations to sweep, in the order given, and each one's worst-case
/// rank (tied locations share one).
#[derive(Debug, Clone, Copy)]
pub struct Ranked<'a> {
    pub locations: &'a [Location],
    pub ranks: &'a BTreeMap<Location, usize>,
}

/// Sweeps `at` until `deadline`, or until `budget` ends (the batch
/// running then is cut short); `on_progress` hears each edit decided and
/// each batch done.
pub fn sweep(
    mutator: &Mutator,
    Ranked { locations, ranks }: Ranked,
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    deadline: Option<Instant>,
    budget: Budget,
    on_progress: &(dyn Fn(SweepProgress) + Sync),
) -> Result<Swept> {
    let mut swept = Swept {
        plausible: Vec::new(),
        partial: Vec::new(),
        best: None,
        stop: SweepStop::Exhausted,
        edits: 0,
        locations: 0,
        operators: BTreeMap::new(),
        feedback: BTreeMap::new(),
        progress: Vec::new(),
        passed: Vec::new(),
    };
    let original = model.of_passed(&model.originally_passing);
    // The plausible patches found that make no code degenerate: a
    // degenerate one (a `match` whose arms all give one value...) passes
    // the tests but is no one's fix, and the next locations may hold one.
    let mut found: Option<Found> = None;
    let rank = |location: &Location| ranks.get(location).copied().unwrap_or(usize::MAX);
    evaluator.set_cutoff(Some(Cutoff::sweep(model)));
    let legs = course(locations);
    let mut visited = BTreeSet::new();
    let mut next = 0;
    while next < legs.len() {
        // The first batch is read however late: the evaluator's preparation
        // judged it already where it could.
        if next > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            swept.stop = SweepStop::TimeLimit;
            break;
        }
        let first = next;
        let (batch, candidates) = batch_from(mutator, &legs, &mut next);
        // A halt in the middle of the batch loses none of what was decided.
        let decided = AtomicUsize::new(swept.edits);
        let (outcomes, halt) = evaluate_until_halt(evaluator, &candidates, budget, &|_, _| {
            on_progress(SweepProgress {
                locations: swept.locations,
                edits: decided.fetch_add(1, Ordering::Relaxed) + 1,
            })
        })?;
        match halt {
            Some(Halt::TimeLimit) => swept.stop = SweepStop::TimeLimit,
            Some(Halt::Signal(_)) => swept.stop = SweepStop::Interrupted,
            None => {}
        }
        visited.extend(legs[first..next].iter().map(|leg| leg.location));
        swept.locations = visited.len();
        swept.edits += outcomes.len();
        for (index, outcome) in outcomes {
            let (candidate, edit) = (candidates[index].clone(), &batch[index]);
            let class = note(&mut swept, edit.operator, edit.location(), &outcome, model);
            let fitness = outcome.fitness(model);
            let scored = Scored {
                candidate,
                outcome,
                fitness,
            };
            if swept.best.as_ref().is_none_or(|b| fitness > b.fitness) {
                swept.best = Some(scored.clone());
            }
            if scored.outcome.passes_all(model) {
                if scored.candidate.degenerate(mutator.originals()).is_none() {
                    let found = found.get_or_insert_with(|| Found::after(swept.edits));
                    found.add(rank(&edit.location()), Part::of(edit.operator));
                }
                swept.plausible.push(scored);
            } else if fitness > original && class == Some(FixClass::Clean) {
                // It makes some originally failing test pass, and every
                // originally passing test that ran still passes.
                swept.partial.push(scored);
            }
        }
        let best = swept.best.as_ref().map_or(0.0, |b| b.fitness);
        swept.progress.push((swept.edits, best));
        on_progress(SweepProgress {
            locations: swept.locations,
            edits: swept.edits,
        });
        // Found, and no location tied with it is left for that part (or
        // the tie is too large to sweep whole, or its rank unknown).
        let tied_left = |found: &Found| {
            swept.edits < found.edits + TIED
                && found.through < usize::MAX
                && legs[next..].iter().any(|leg| {
                    rank(&leg.location) <= found.through && found.parts.contains(&leg.part)
                })
        };
        if found.as_ref().is_some_and(|found| !tied_left(found)) {
            swept.stop = SweepStop::Found;
            break;
        }
        if swept.stop != SweepStop::Exhausted {
            break;
        }
    }
    // Degenerate patches, when no other was found, are found all the same.
    if !swept.plausible.is_empty() {
        swept.stop = SweepStop::Found;
    }
    evaluator.set_cutoff(None);
    swept
        .partial
        .sort_by(|a, b| b.fitness.total_cmp(&a.fitness));
    Ok(swept)
}

/// The plausible single edits at the lines of the genetic search's
/// (reduced) patch `found`, of those that make no code degenerate. The
/// sweep, cut short by its deadline, may not have reached those lines;
/// where one edit there passes every test, it is weighed against the
/// location's other such edits (the one-arm change against the same
/// change made throughout its statement, say), which the search's
/// patch, one of them or several edits, never was.
pub fn single_edits_where(
    found: &Candidate,
    (mutator, ranks, model): (&Mutator, &BTreeMap<Location, usize>, &FitnessModel),
    evaluator: &mut dyn Evaluator,
    deadline: Option<Instant>,
    console: &Console,
    budget: Budget,
) -> Result<Vec<Scored>> {
    let locations: Vec<Location> = edited_locations(found).into_iter().collect();
    console.status(
        "Sweeping",
        format!(
            "every single edit at the {} line{} the genetic search's patch edits",
            locations.len(),
            plural(locations.len())
        ),
    );
    let at = Ranked {
        locations: &locations,
        ranks,
    };
    let swept = sweep(mutator, at, evaluator, model, deadline, budget, &|_| {})?;
    let originals = mutator.originals();
    let mut plausible = swept.plausible;
    plausible.retain(|p| p.candidate.degenerate(originals).is_none());
    Ok(plausible)
}

/// The sweep with its progress: a bar on a terminal, a status line before
/// and after.
pub fn sweep_with_progress(
    mutator: &Mutator,
    at: Ranked,
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    deadline: Option<Instant>,
    console: &Console,
    budget: Budget,
) -> Result<Swept> {
    console.status(
        "Sweeping",
        format!(
            "every single edit at the {} most suspicious locations, most suspicious first",
            at.locations.len()
        ),
    );
    let bar = console.counter("Sweeping", at.locations.len() as u64, budget);
    bar.set_message("locations");
    let started = Instant::now();
    let swept = sweep(
        mutator,
        at,
        evaluator,
        model,
        deadline,
        budget,
        &|progress| {
            bar.set_position(progress.locations as u64);
            bar.set_message(format!(
                "locations · {} single edits tried ({})",
                progress.edits,
                rate(progress.edits, started)
            ));
        },
    )?;
    drop(bar);
    console.status(
        "Swept",
        format!(
            "{} single edits at {} locations; passing every test: {}, fixing some failing tests and breaking none: {}",
            swept.edits,
            swept.locations,
            swept.plausible.len(),
            swept.partial.len()
        ),
    );
    Ok(swept)
}

/// `12.5/s`: how many per second since `started`.
pub fn rate(count: usize, started: Instant) -> String {
    let seconds = started.elapsed().as_secs_f64();
    if seconds > 0.0 {
        format!("{:.1}/s", count as f64 / seconds)
    } else {
        "-/s".to_string()
    }
}

/// Counts an edit's outcome for its operator and its location; its ProFL
/// class, if it compiled.
fn note(
    swept: &mut Swept,
    operator: Operator,
    location: Location,
    outcome: &CandidateOutcome,
    model: &FitnessModel,
) -> Option<FixClass> {
    let counts = swept.operators.entry(operator).or_default();
    counts.tried += 1;
    counts.compiled += usize::from(outcome.compiled());
    let effect = EditEffect::of(
        outcome,
        &model.originally_failing,
        &model.originally_passing,
    )?;
    for test in &effect.fixed {
        if !swept.passed.contains(test) {
            swept.passed.push(*test);
        }
    }
    let class = effect.class(&model.originally_failing);
    swept.feedback.entry(location).or_default().note(class);
    Some(class)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::BTreeSet;

    use super::*;
    use crate::cargo::{Panic, Verdict};
    use crate::code::source::FileId;
    use crate::code::{CrateSources, KeepConst};
    use crate::evaluate::Weights;
    use crate::evaluate::{EvaluationCounts, OnDone};
    use crate::mutation::Types;
    use crate::mutation::collect_mutation_space;

    const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    }\n    z\n}\n";

    /// Passes the failing test exactly when line 6 reads `return x;`, and
    /// remembers every candidate in the order it was given.
    struct Oracle {
        seen: RefCell<Vec<Candidate>>,
        originals: crate::code::Originals,
        /// The time limit runs out after this many outcomes of the batch.
        halt_after: Option<usize>,
        /// Which patched texts pass the failing test too.
        passes: fn(&str) -> bool,
    }

    impl Evaluator for Oracle {
        fn evaluate(
            &mut self,
            batch: &[Candidate],
            _budget: Budget,
            on_done: OnDone,
        ) -> Result<Vec<CandidateOutcome>> {
            self.seen.borrow_mut().extend(batch.iter().cloned());
            let outcomes: Vec<CandidateOutcome> = batch
                .iter()
                .map(|c| {
                    let text = &c.texts(&self.originals)[&FileId::new(0)];
                    let failing = if (self.passes)(text) {
                        Verdict::Passed
                    } else {
                        Verdict::Failed(Panic::default())
                    };
                    CandidateOutcome::Tested(vec![
                        (TestId::new(0), Verdict::Passed),
                        (TestId::new(1), failing),
                    ])
                })
                .collect();
            match self.halt_after {
                Some(count) => {
                    for (index, outcome) in outcomes.iter().enumerate().take(count) {
                        on_done(index, outcome);
                    }
                    Err(Halt::TimeLimit.into())
                }
                None => Ok(outcomes),
            }
        }

        fn counts(&self) -> EvaluationCounts {
            EvaluationCounts::default()
        }
    }

    fn sweep_middle(locations: &[u32]) -> (Swept, Vec<Candidate>) {
        sweep_middle_halting(locations, None)
    }

    /// The real fix: line 6 reads `return x;`.
    fn fixed(text: &str) -> bool {
        text.lines().map(str::trim).collect::<Vec<_>>()
            == MIDDLE
                .lines()
                .enumerate()
                .map(|(i, l)| if i == 5 { "return x;" } else { l.trim() })
                .collect::<Vec<_>>()
    }

    fn sweep_middle_halting(
        locations: &[u32],
        halt_after: Option<usize>,
    ) -> (Swept, Vec<Candidate>) {
        sweep_middle_with(locations, halt_after, fixed)
    }

    fn sweep_middle_with(
        locations: &[u32],
        halt_after: Option<usize>,
        passes: fn(&str) -> bool,
    ) -> (Swept, Vec<Candidate>) {
        // Each location a rank of its own: none tied.
        let ranks: Vec<usize> = (1..=locations.len()).collect();
        sweep_source(MIDDLE, locations, &ranks, halt_after, passes)
    }

    /// `f` given a mutator of `text`, a model of one passing and one
    /// failing test, and an oracle passing the failing test where `passes`.
    fn on_source<T>(
        text: &str,
        halt_after: Option<usize>,
        passes: fn(&str) -> bool,
        f: impl FnOnce(&Mutator, &FitnessModel, &mut Oracle) -> T,
    ) -> T {
        let sources = CrateSources::of_one_file(text);
        let originals = sources.originals();
        let space = collect_mutation_space(&sources, &KeepConst::Every, &Default::default());
        let types = Types::default();
        let mutator = Mutator::new(&space, &originals, &types, &Operator::all(), |_| 1.0);
        let model = FitnessModel {
            weights: Weights::DEFAULT,
            originally_passing: BTreeSet::from([TestId::new(0)]),
            originally_failing: BTreeSet::from([TestId::new(1)]),
        };
        let mut oracle = Oracle {
            seen: RefCell::new(Vec::new()),
            originals: originals.clone(),
            halt_after,
            passes,
        };
        f(&mutator, &model, &mut oracle)
    }

    fn at_lines(lines: &[u32]) -> Vec<Location> {
        lines
            .iter()
            .map(|&l| Location::new(FileId::new(0), l))
            .collect()
    }

    /// The sweep of `text` at `locations` (lines), of ranks `ranks`.
    fn sweep_source(
        text: &str,
        locations: &[u32],
        ranks: &[usize],
        halt_after: Option<usize>,
        passes: fn(&str) -> bool,
    ) -> (Swept, Vec<Candidate>) {
        on_source(text, halt_after, passes, |mutator, model, oracle| {
            let at = at_lines(locations);
            let ranks = at.iter().copied().zip(ranks.iter().copied()).collect();
            let at = Ranked {
                locations: &at,
                ranks: &ranks,
            };
            let unlimited = Budget::unlimited();
            let swept = sweep(mutator, at, &mut *oracle, model, None, unlimited, &|_| {});
            (swept.unwrap(), oracle.seen.take())
        })
    }

    /// The genetic search's patch edits lines 4 and 6; one edit at line 6
    /// passes alone: it is found, with no edit at another line tried.
    #[test]
    fn the_lines_of_the_search_patch_are_swept_for_single_edits() {
        let (_, seen) = sweep_middle(&[4, 6]);
        let at = |line: u32, text: &str| {
            let mut edits = seen.iter().map(|c| c.edits()[0].clone());
            edits
                .find(|e| e.line == line && (text.is_empty() || e.edit.text == text))
                .unwrap()
        };
        let found = Candidate::original().with(at(4, "")).with(at(6, "x"));
        let (plausible, tried) = on_source(MIDDLE, None, fixed, |mutator, model, oracle| {
            let ranks = BTreeMap::new();
            let at = (mutator, &ranks, model);
            let unlimited = Budget::unlimited();
            let console = &Console::QUIET;
            let found = single_edits_where(&found, at, &mut *oracle, None, console, unlimited);
            (found.unwrap(), oracle.seen.take())
        });
        assert!(tried.iter().all(|c| [4, 6].contains(&c.edits()[0].line)));
        assert!(tried.len() > 10, "{} edits", tried.len());
        assert_eq!(plausible.len(), 1);
        let edit = &plausible[0].candidate.edits()[0];
        assert_eq!((edit.line, edit.edit.text.as_str()), (6, "x"));
    }

    /// A fix found at the first of 80 locations: the sweep stops after the
    /// batch that found it, unless the first 10 are tied, when it sweeps
    /// every one's expressions (in more batches), but not all the rest; nor
    /// all 80 when every one is tied (past [`TIED`] edits).
    #[test]
    fn the_locations_tied_with_a_fix_are_swept_too() {
        let lets: String = (1..=80)
            .map(|i| format!("    let v{i} = x + {i};\n"))
            .collect();
        let text = format!("pub fn f(x: i32) -> i32 {{\n{lets}    x\n}}\n");
        let lines: Vec<u32> = (2..=81).collect();
        // (Only that line changed: not `- 2` on the next one too.)
        let passes = |text: &str| text.contains("let v1 = x - 1;\n    let v2 = x + 2;");
        let sweep_tied = |tie: usize| {
            let ranks: Vec<usize> = (1..=80).map(|rank| rank.max(tie)).collect();
            let (swept, seen) = sweep_source(&text, &lines, &ranks, None, passes);
            assert_eq!(swept.stop, SweepStop::Found);
            assert_eq!(swept.plausible.len(), 1);
            let expressions = move |line: u32| {
                seen.iter().any(|c| {
                    let edit = &c.edits()[0];
                    edit.line == line && !edit.operator.writes_statements()
                })
            };
            (swept, expressions)
        };
        let (apart, _) = sweep_tied(1);
        assert!(apart.locations < 10, "{} locations", apart.locations);
        let (tied, expressions) = sweep_tied(10);
        assert!(tied.locations > apart.locations);
        let missing: Vec<u32> = (2..=11).filter(|&l| !expressions(l)).collect();
        assert!(missing.is_empty(), "{missing:?} of {} edits", tied.edits);
        assert!(!expressions(81), "not the last location");
        let (all, expressions) = sweep_tied(80);
        assert!(
            all.edits < apart.edits + TIED + BATCH * 2,
            "{} edits",
            all.edits
        );
        assert!(!expressions(81), "not the last location");
    }

    #[test]
    fn locations_are_swept_in_rank_order_and_the_fix_is_found() {
        let (swept, seen) = sweep_middle(&[6, 4, 2]);
        assert_eq!(swept.stop, SweepStop::Found);
        assert_eq!(swept.locations, 3, "one batch holds them all");
        assert_eq!(swept.edits, seen.len());
        // With three locations, every expression edit comes before any new
        // statement; each part in rank order, and at a location its
        // operators in the sweep's order: one-token slips first.
        let keys: Vec<(bool, usize, usize)> = seen
            .iter()
            .map(|c| {
                let edit = &c.edits()[0];
                let rank = [6, 4, 2].iter().position(|&l| l == edit.line).unwrap();
                let operator = Operator::in_sweep_order()
                    .position(|o| o == edit.operator)
                    .unwrap();
                (edit.operator.writes_statements(), rank, operator)
            })
            .collect();
        assert!(keys.is_sorted(), "{keys:?}");
        assert!(keys.iter().any(|k| k.0) && keys.iter().any(|k| !k.0));
        assert_eq!(seen[0].edits()[0].operator, Operator::Identifier);
        assert_eq!(swept.plausible.len(), 1);
        assert_eq!(swept.plausible[0].candidate.edits()[0].edit.text, "x");
    }

    /// `else if x < y` repeats the chain's first condition: it passes the
    /// tests here, and is no one's fix, but found it is kept.
    #[test]
    fn a_degenerate_patch_is_kept_when_it_is_all_there_is() {
        let degenerate = |text: &str| text.contains("} else if x < y {");
        let (swept, _) = sweep_middle_with(&[5, 6], None, degenerate);
        assert_eq!(swept.stop, SweepStop::Found);
        assert_eq!(swept.plausible.len(), 1);
        let originals = CrateSources::of_one_file(MIDDLE).originals();
        assert_eq!(
            swept.plausible[0].candidate.degenerate(&originals),
            Some(crate::code::Degenerate::Decided {
                line: 5,
                earlier: 3
            })
        );
        // Beside the real fix, the real fix is not degenerate.
        let both = |text: &str| text.contains("} else if x < y {") || fixed(text);
        let (swept, _) = sweep_middle_with(&[5, 6], None, both);
        assert_eq!(swept.plausible.len(), 2);
        let clean: Vec<_> = swept
            .plausible
            .iter()
            .filter(|p| p.candidate.degenerate(&originals).is_none())
            .collect();
        assert_eq!(clean.len(), 1);
        assert_eq!(clean[0].candidate.edits()[0].edit.text, "x");
    }

    #[test]
    fn the_same_locations_give_the_same_sweep() {
        let (first, seen) = sweep_middle(&[4, 6]);
        let (second, again) = sweep_middle(&[4, 6]);
        assert_eq!(seen, again);
        assert_eq!(first.edits, second.edits);
    }

    /// The time limit in the middle of a batch keeps what the batch decided
    /// before it: a fix among those is found, and nothing after is made up.
    #[test]
    fn a_halt_in_a_batch_keeps_what_was_decided() {
        let (_, seen) = sweep_middle(&[6]);
        let fix = seen
            .iter()
            .position(|c| c.edits()[0].edit.text == "x")
            .expect("the sweep tries the fix");
        let (swept, _) = sweep_middle_halting(&[6], Some(fix + 1));
        assert_eq!(swept.stop, SweepStop::Found);
        assert_eq!(swept.edits, fix + 1);
        assert_eq!(swept.plausible.len(), 1);
        let (swept, _) = sweep_middle_halting(&[6], Some(fix));
        assert_eq!(swept.stop, SweepStop::TimeLimit);
        assert_eq!(swept.edits, fix);
        assert!(swept.plausible.is_empty());
    }
}
