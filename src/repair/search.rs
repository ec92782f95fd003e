//! The genetic search for a patch (GenProg, as in the repair seed): a
//! population of candidates evolves by crossover and mutation; the fittest
//! survive, fewer edits winning ties; it stops at fitness 1.0, at the
//! generation or time budget, or on Ctrl-C.
//!
//! All randomness comes from the one seeded RNG it is given.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::prelude::*;

use crate::cargo::TestId;
use crate::code::source::Location;
use crate::evaluate::{CandidateOutcome, Cutoff, Evaluator, FitnessModel};
use crate::exit::{Error, Halt, Result};
use crate::localize::{EditEffect, FixClass};
use crate::mutation::{Candidate, Mutator, Operator, PatchEdit, crossover};
use crate::system::{Budget, process};

#[derive(Debug, Clone)]
pub struct SearchSettings {
    pub population: usize,
    pub generations: usize,
    pub time_limit: Option<Duration>,
    /// Candidates that go into the initial population besides its random
    /// ones (condition mutations at critical predicates, the sweep's partial
    /// fixes).
    pub seeds: Vec<Candidate>,
    /// Whether what edits did at a location changes how often it is mutated.
    pub feedback: bool,
    /// What edits did at each location before the search (in the sweep).
    pub learned: BTreeMap<Location, LocationFeedback>,
    /// The time its processes may take: its end is a halt.
    pub budget: Budget,
    /// The best candidate before the search (the sweep's): what a search
    /// halted before it scores one of its own reports.
    pub best: Option<Scored>,
}

/// What edits at one location did, by ProFL class: helped (a clean fix:
/// made an originally failing test pass and broke no passing one) or broke
/// (made a passing test fail: a noisy fix, or one that only breaks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LocationFeedback {
    pub helped: u32,
    pub broke: u32,
}

impl LocationFeedback {
    /// Counts one edit of class `class`.
    pub fn note(&mut self, class: FixClass) {
        match class {
            FixClass::Clean => self.helped += 1,
            FixClass::Noisy | FixClass::Negative => self.broke += 1,
            FixClass::None => {}
        }
    }

    /// How much more (or less) suspicious the location looks now:
    /// sqrt((1 + helped) / (1 + broke)), kept within 0.1 and 10.
    pub fn factor(self) -> f64 {
        ((1.0 + f64::from(self.helped)) / (1.0 + f64::from(self.broke)))
            .sqrt()
            .clamp(0.1, 10.0)
    }
}

/// Why the search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A candidate passes every test.
    Found,
    Generations,
    TimeLimit,
    Interrupted,
    /// No mutation could be made: nothing suspicious to change.
    NothingToMutate,
}

/// A candidate with its outcome and fitness.
#[derive(Debug, Clone)]
pub struct Scored {
    pub candidate: Candidate,
    pub outcome: CandidateOutcome,
    pub fitness: f64,
}

/// Per operator: candidates whose newest edit it made, and how many compiled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OperatorCounts {
    pub tried: usize,
    pub compiled: usize,
}

#[derive(Debug, Clone)]
pub struct SearchResult {
    pub best: Scored,
    pub stop: Stop,
    /// Generations evolved after the initial population.
    pub generations: usize,
    pub operators: BTreeMap<Operator, OperatorCounts>,
    /// Originally failing tests that no candidate made pass.
    pub never_passed: BTreeSet<TestId>,
    /// Per location that was edited, what the edits did.
    pub feedback: BTreeMap<Location, LocationFeedback>,
    /// Per generation (0: the initial population), the best and the mean
    /// fitness of the population.
    pub history: Vec<(f64, f64)>,
}

/// What the search reports as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Progress {
    /// A candidate was evaluated (whether it compiled).
    Evaluated {
        generation: usize,
        best_fitness: f64,
        compiled: bool,
    },
    /// A generation was scored (generation 0 is the initial population).
    Generation {
        generation: usize,
        best_fitness: f64,
    },
}

/// Evolves a population until a candidate passes every test or a budget runs out.
pub fn search(
    mutator: &mut Mutator,
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    settings: &SearchSettings,
    rng: &mut StdRng,
    on_progress: &(dyn Fn(Progress) + Sync),
) -> Result<SearchResult> {
    let started = Instant::now();
    let mut run = Run {
        evaluator,
        budget: settings.budget,
        model,
        operators: BTreeMap::new(),
        ever_passed: BTreeSet::new(),
        best: settings.best.clone(),
        generation: 0,
        seen: std::collections::HashSet::new(),
        feedback: settings.learned.clone(),
        history: Vec::new(),
    };
    let stop = |run: &Run, generation: usize| -> Option<Stop> {
        if run
            .best
            .as_ref()
            .is_some_and(|b| b.outcome.passes_all(model))
        {
            Some(Stop::Found)
        } else if generation >= settings.generations {
            Some(Stop::Generations)
        } else if settings
            .time_limit
            .is_some_and(|limit| started.elapsed() >= limit)
        {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    };

    // The fittest `population` of the initial candidates survive.
    let initial = match initial_population(mutator, settings, rng) {
        Ok(initial) => initial,
        Err(halt) => return run.interrupted_or(halt),
    };
    if initial.len() == 1 {
        let best = run
            .score_batch(initial, on_progress)?
            .pop()
            .expect("one candidate");
        return Ok(run.finish(best, Stop::NothingToMutate));
    }
    let mut population = match run.score_batch(initial, on_progress) {
        Ok(scored) => scored,
        Err(error) => return run.interrupted_or(error),
    };
    sort_fittest_first(&mut population);
    population.truncate(settings.population);
    run.learn(mutator, settings);
    run.record(&population);
    on_progress(Progress::Generation {
        generation: 0,
        best_fitness: population[0].fitness,
    });

    run.evaluator.set_cutoff(None);
    let stopped = loop {
        if let Some(reason) = stop(&run, run.generation) {
            break reason;
        }
        run.generation += 1;
        let offspring = match breed(
            &population,
            mutator,
            rng,
            settings.population,
            settings.budget,
        ) {
            Ok(offspring) => offspring,
            Err(halt) => return run.interrupted_or(halt),
        };
        let offspring = match run.score_batch(offspring, on_progress) {
            Ok(scored) => scored,
            Err(error) => return run.interrupted_or(error),
        };
        population.extend(offspring);
        sort_fittest_first(&mut population);
        let mut seen = BTreeSet::new();
        population.retain(|s| seen.insert(format!("{:?}", s.candidate.edits())));
        population.truncate(settings.population);
        // Candidates that cannot beat the weakest survivor need not finish their tests.
        if population.len() == settings.population {
            let threshold = population[population.len() - 1].fitness;
            run.evaluator.set_cutoff(Some(Cutoff {
                model: model.clone(),
                threshold,
                clean_only: false,
            }));
        }
        run.learn(mutator, settings);
        run.record(&population);
        on_progress(Progress::Generation {
            generation: run.generation,
            best_fitness: population[0].fitness,
        });
    };
    let best = population
        .into_iter()
        .next()
        .expect("the population is never empty");
    Ok(run.finish(best, stopped))
}

/// The initial population: the original, the seeds, and a population's
/// worth of single random mutations of it (each with its edit).
fn initial_population(
    mutator: &mut Mutator,
    settings: &SearchSettings,
    rng: &mut StdRng,
) -> Result<Vec<(Candidate, Option<PatchEdit>)>> {
    let mut initial: Vec<(Candidate, Option<PatchEdit>)> = vec![(Candidate::original(), None)];
    for seed in &settings.seeds {
        if !initial.iter().any(|(c, _)| c == seed) {
            initial.push((seed.clone(), seed.edits().last().cloned()));
        }
    }
    let size = initial.len() + settings.population.saturating_sub(1);
    let mut made: HashSet<Candidate> = initial.iter().map(|(c, _)| c.clone()).collect();
    for attempt in 0..settings.population.saturating_sub(1) * 4 {
        if initial.len() >= size {
            break;
        }
        if attempt % HALT_CHECK_EVERY == 0 {
            process::check_interrupted(settings.budget)?;
        }
        if let Some(edit) = mutator.mutation(rng) {
            let candidate = Candidate::original().with(edit.clone());
            if made.insert(candidate.clone()) {
                initial.push((candidate, Some(edit)));
            }
        }
    }
    Ok(initial)
}

/// Offspring of a population: pairs of parents (chosen uniformly), crossed
/// at a point in source order, each child then mutated once (with the edit
/// of that mutation).
fn breed(
    population: &[Scored],
    mutator: &Mutator,
    rng: &mut StdRng,
    count: usize,
    budget: Budget,
) -> Result<Vec<(Candidate, Option<PatchEdit>)>> {
    let mut offspring = Vec::with_capacity(count);
    while offspring.len() < count {
        if offspring.len() % HALT_CHECK_EVERY == 0 {
            process::check_interrupted(budget)?;
        }
        let (Some(first), Some(second)) = (population.choose(rng), population.choose(rng)) else {
            break;
        };
        let points = first.candidate.crossover_points(&second.candidate);
        let children = match points.choose(rng) {
            Some(&point) => {
                let (a, b) = crossover(&first.candidate, &second.candidate, point);
                vec![a, b]
            }
            None => vec![first.candidate.clone(), second.candidate.clone()],
        };
        for child in children {
            match mutator.mutation(rng) {
                Some(edit) => offspring.push((child.with(edit.clone()), Some(edit))),
                None => offspring.push((child, None)),
            }
        }
    }
    offspring.truncate(count);
    Ok(offspring)
}

/// How many candidates a loop that makes them makes between two checks
/// for a signal or the end of the time limit.
const HALT_CHECK_EVERY: usize = 1024;

/// Fittest first; among equally fit candidates, fewer edits first, then
/// smaller edits.
fn sort_fittest_first(population: &mut [Scored]) {
    population.sort_by(compare);
}

fn compare(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.fitness
        .total_cmp(&a.fitness)
        .then(a.candidate.len().cmp(&b.candidate.len()))
        .then(a.candidate.size().cmp(&b.candidate.size()))
}

struct Run<'a> {
    evaluator: &'a mut dyn Evaluator,
    budget: Budget,
    model: &'a FitnessModel,
    operators: BTreeMap<Operator, OperatorCounts>,
    ever_passed: BTreeSet<TestId>,
    best: Option<Scored>,
    generation: usize,
    /// Candidates scored so far (each counts once in the operator statistics).
    seen: std::collections::HashSet<Candidate>,
    feedback: BTreeMap<Location, LocationFeedback>,
    history: Vec<(f64, f64)>,
}

impl Run<'_> {
    /// The best and mean fitness of a generation's population.
    fn record(&mut self, population: &[Scored]) {
        let mean =
            population.iter().map(|s| s.fitness).sum::<f64>() / population.len().max(1) as f64;
        self.history
            .push((population.first().map_or(0.0, |s| s.fitness), mean));
    }

    /// Evaluates `batch` (each candidate with the mutation that made it).
    fn score_batch(
        &mut self,
        batch: Vec<(Candidate, Option<PatchEdit>)>,
        on_progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<Vec<Scored>> {
        let (batch, made_by): (Vec<Candidate>, Vec<Option<PatchEdit>>) = batch.into_iter().unzip();
        let best_so_far = Mutex::new(self.best.as_ref().map_or(0.0, |b| b.fitness));
        let generation = self.generation;
        let model = self.model;
        let outcomes = self
            .evaluator
            .evaluate(&batch, self.budget, &|_, outcome| {
                let mut best = best_so_far.lock().expect("progress poisoned");
                *best = best.max(outcome.fitness(model));
                on_progress(Progress::Evaluated {
                    generation,
                    best_fitness: *best,
                    compiled: outcome.compiled(),
                });
            })?;
        let mut scored = Vec::with_capacity(batch.len());
        for ((candidate, outcome), newest) in batch.into_iter().zip(outcomes).zip(made_by) {
            if self.seen.insert(candidate.clone())
                && let Some(newest) = newest
            {
                let counts = self.operators.entry(newest.operator).or_default();
                counts.tried += 1;
                counts.compiled += usize::from(outcome.compiled());
                self.note_feedback(&newest, &outcome);
            }
            self.ever_passed.extend(outcome.passed());
            let fitness = outcome.fitness(self.model);
            let entry = Scored {
                candidate,
                outcome,
                fitness,
            };
            let better = self
                .best
                .as_ref()
                .is_none_or(|b| compare(&entry, b).is_lt());
            if better {
                self.best = Some(entry.clone());
            }
            scored.push(entry);
        }
        Ok(scored)
    }

    /// On a signal or the end of the time limit, the best candidate found
    /// so far; other errors pass through.
    fn interrupted_or(self, error: Error) -> Result<SearchResult> {
        let stop = match error {
            Error::Halt(Halt::TimeLimit) => Stop::TimeLimit,
            Error::Halt(Halt::Signal(_)) => Stop::Interrupted,
            _ => return Err(error),
        };
        match self.best.clone() {
            Some(best) => Ok(self.finish(best, stop)),
            None => Err(error),
        }
    }

    /// Counts, at the location of a candidate's newest edit (the mutation
    /// that made it), whether it helped or broke.
    fn note_feedback(&mut self, newest: &PatchEdit, outcome: &CandidateOutcome) {
        let model = &self.model;
        let Some(effect) = EditEffect::of(
            outcome,
            &model.originally_failing,
            &model.originally_passing,
        ) else {
            return;
        };
        let mut class = effect.class(&model.originally_failing);
        // Only a candidate whose passing tests all ran (no cutoff) can be
        // known to have broken none.
        if class == FixClass::Clean && !complete(outcome, model) {
            class = FixClass::None;
        }
        self.feedback
            .entry(newest.location())
            .or_default()
            .note(class);
    }

    /// With feedback on, weighs each location by what edits there did.
    fn learn(&self, mutator: &mut Mutator, settings: &SearchSettings) {
        if settings.feedback {
            mutator.reweigh(|location| {
                self.feedback
                    .get(&location)
                    .copied()
                    .unwrap_or_default()
                    .factor()
            });
        }
    }

    fn finish(self, best: Scored, stop: Stop) -> SearchResult {
        let never_passed = self
            .model
            .originally_failing
            .difference(&self.ever_passed)
            .copied()
            .collect();
        SearchResult {
            best,
            stop,
            generations: self.generation,
            operators: self.operators,
            never_passed,
            feedback: self.feedback,
            history: self.history,
        }
    }
}

/// Whether every originally passing test ran for `outcome`.
fn complete(outcome: &CandidateOutcome, model: &FitnessModel) -> bool {
    let CandidateOutcome::Tested(verdicts) = outcome else {
        return false;
    };
    let tested: BTreeSet<TestId> = verdicts.iter().map(|(t, _)| *t).collect();
    model.originally_passing.is_subset(&tested)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cargo::Verdict;
    use crate::code::source::FileId;
    use crate::code::{CrateSources, KeepConst, Originals};
    use crate::evaluate::Weights;
    use crate::evaluate::{EvaluationCounts, OnDone};
    use crate::mutation::Types;
    use crate::mutation::{MutationSpace, collect_mutation_space};

    /// Evaluates `middle()` candidates by interpreting their text: test
    /// `i` passes when the patched function returns the middle value.
    struct MiddleEvaluator {
        originals: Originals,
        built: usize,
    }

    const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    } else {\n        if x > y {\n            return y;\n        } else if x > z {\n            return x;\n        }\n    }\n    z\n}\n";

    const RUNS: [(i32, i32, i32); 6] = [
        (3, 3, 5),
        (1, 2, 3),
        (3, 2, 1),
        (5, 5, 5),
        (5, 3, 4),
        (2, 1, 3),
    ];

    impl Evaluator for MiddleEvaluator {
        fn evaluate(
            &mut self,
            batch: &[Candidate],
            _budget: Budget,
            on_done: OnDone,
        ) -> Result<Vec<CandidateOutcome>> {
            Ok(batch
                .iter()
                .enumerate()
                .map(|(index, candidate)| {
                    self.built += 1;
                    let texts = candidate.texts(&self.originals);
                    let text = texts.get(&FileId::new(0)).map_or(MIDDLE, String::as_str);
                    // The fix the search should find; anything else keeps the bug.
                    let fixed_line_6 = text.lines().nth(5).is_some_and(|l| l.trim() == "return x;");
                    let intact = text.lines().count() == MIDDLE.lines().count();
                    let outcome = if !intact {
                        CandidateOutcome::Unviable("changed shape".into())
                    } else {
                        CandidateOutcome::Tested(
                            RUNS.iter()
                                .enumerate()
                                .map(|(i, &(x, y, z))| {
                                    let mut sorted = [x, y, z];
                                    sorted.sort();
                                    let buggy = i == 5 && !fixed_line_6;
                                    let result = if buggy { y } else { sorted[1] };
                                    (
                                        TestId::new(i),
                                        if result == sorted[1] {
                                            Verdict::Passed
                                        } else {
                                            Verdict::TimedOut
                                        },
                                    )
                                })
                                .collect(),
                        )
                    };
                    on_done(index, &outcome);
                    outcome
                })
                .collect())
        }

        fn counts(&self) -> EvaluationCounts {
            EvaluationCounts {
                built: self.built,
                compiled: self.built,
            }
        }
    }

    fn model() -> FitnessModel {
        FitnessModel {
            weights: Weights::DEFAULT,
            originally_passing: (0..5).map(TestId::new).collect(),
            originally_failing: BTreeSet::from([TestId::new(5)]),
        }
    }

    fn originals() -> Originals {
        CrateSources::of_one_file(MIDDLE).originals()
    }

    fn tested(passed: impl IntoIterator<Item = usize>) -> CandidateOutcome {
        CandidateOutcome::Tested(
            passed
                .into_iter()
                .map(|i| (TestId::new(i), Verdict::Passed))
                .collect(),
        )
    }

    #[test]
    fn outcomes_have_the_models_fitness() {
        let model = model();
        let all = tested(0..6);
        let original = tested(0..5);
        let half = tested([0, 1, 5]);
        assert_eq!(all.fitness(&model), 1.0);
        assert!((original.fitness(&model) - 0.99).abs() < 1e-12);
        assert!((half.fitness(&model) - (0.99 * 0.4 + 0.01)).abs() < 1e-12);
        assert_eq!(CandidateOutcome::Unviable("x".into()).fitness(&model), 0.0);
        assert!(all.passes_all(&model) && !original.passes_all(&model));
    }

    #[test]
    fn finds_the_middle_fix_and_repeats_with_the_same_seed() {
        let space = middle_space();
        let originals = originals();
        let scores = [(6, 0.7), (5, 0.58), (3, 0.5), (2, 0.41)];
        let types = Types::default();
        let mut mutator = Mutator::new(&space, &originals, &types, &Operator::all(), |location| {
            scores
                .iter()
                .find(|(l, _)| *l == location.line)
                .map_or(0.0, |(_, s)| *s)
        });
        let settings = SearchSettings {
            population: 10,
            generations: 20,
            time_limit: None,
            seeds: Vec::new(),
            feedback: false,
            learned: BTreeMap::new(),
            budget: Budget::unlimited(),
            best: None,
        };
        let mut runs = Vec::new();
        for _ in 0..2 {
            let (result, built) =
                search_middle(&mut mutator, &settings, &mut StdRng::seed_from_u64(42));
            assert_eq!(result.stop, Stop::Found);
            assert_eq!(result.best.fitness, 1.0);
            let texts = result.best.candidate.texts(&originals);
            assert_eq!(
                texts[&FileId::new(0)].lines().nth(5).unwrap().trim(),
                "return x;"
            );
            runs.push((
                format!("{:?}", result.best.candidate),
                built,
                result.generations,
            ));
        }
        assert_eq!(runs[0], runs[1], "the same seed must give the same run");
        // Halted before it scores a candidate (pulldown-cmark: the stage,
        // the sweep's 467 edits with it, was lost), the best before it.
        let swept = Scored {
            candidate: Candidate::original(),
            outcome: CandidateOutcome::Unviable("the sweep's".into()),
            fitness: 0.25,
        };
        let budget = Budget::until(Instant::now());
        let halted = SearchSettings {
            budget,
            best: Some(swept),
            ..settings
        };
        let (result, built) = search_middle(&mut mutator, &halted, &mut StdRng::seed_from_u64(1));
        assert_eq!(
            (result.stop, result.best.fitness, built),
            (Stop::TimeLimit, 0.25, 0)
        );
    }

    /// A search on `middle()`; the result and how many candidates were built.
    fn search_middle(
        mutator: &mut Mutator,
        settings: &SearchSettings,
        rng: &mut StdRng,
    ) -> (SearchResult, usize) {
        let mut evaluator = MiddleEvaluator {
            originals: originals(),
            built: 0,
        };
        let result = search(mutator, &mut evaluator, &model(), settings, rng, &|_| {}).unwrap();
        (result, evaluator.built)
    }

    /// The mutation space of `middle()`.
    fn middle_space() -> MutationSpace {
        collect_mutation_space(
            &CrateSources::of_one_file(MIDDLE),
            &KeepConst::Every,
            &Default::default(),
        )
    }

    #[test]
    fn seeds_come_first_and_feedback_rewards_where_edits_helped() {
        let space = middle_space();
        let originals = originals();
        let types = Types::default();
        let mut mutator = Mutator::new(&space, &originals, &types, &Operator::all(), |location| {
            if location.line == 6 || location.line == 2 {
                0.5
            } else {
                0.0
            }
        });
        let mut rng = StdRng::seed_from_u64(3);
        let line_6 = Location::new(FileId::new(0), 6);
        let fix = (0..200)
            .filter_map(|_| mutator.mutation_at(&mut rng, line_6, Operator::Identifier))
            .map(|edit| Candidate::original().with(edit))
            .find(|c| {
                c.texts(&originals)[&FileId::new(0)]
                    .lines()
                    .nth(5)
                    .unwrap()
                    .trim()
                    == "return x;"
            })
            .unwrap();
        let settings = SearchSettings {
            population: 4,
            generations: 3,
            time_limit: None,
            seeds: vec![fix.clone()],
            feedback: true,
            learned: BTreeMap::new(),
            budget: Budget::unlimited(),
            best: None,
        };
        let (result, _) = search_middle(&mut mutator, &settings, &mut rng);
        assert_eq!(result.stop, Stop::Found);
        assert_eq!(
            result.generations, 0,
            "the seed is in the initial population"
        );
        assert_eq!(result.best.candidate, fix);
        assert_eq!(result.feedback[&line_6].helped, 1);
        let weights: BTreeMap<Location, (f64, f64)> = mutator
            .weights()
            .map(|(l, base, now)| (l, (base, now)))
            .collect();
        assert!(weights[&line_6].1 > weights[&line_6].0, "{weights:?}");
    }

    #[test]
    fn feedback_factor() {
        assert_eq!(LocationFeedback::default().factor(), 1.0);
        assert_eq!(
            LocationFeedback {
                helped: 3,
                broke: 0
            }
            .factor(),
            2.0
        );
        assert_eq!(
            LocationFeedback {
                helped: 0,
                broke: 3
            }
            .factor(),
            0.5
        );
        assert_eq!(
            LocationFeedback {
                helped: 0,
                broke: 10_000
            }
            .factor(),
            0.1
        );
    }

    #[test]
    fn stops_at_the_generation_budget_and_reports_tests_that_never_passed() {
        let space = middle_space();
        let originals = originals();
        // Only line 2 is suspicious: no fix is reachable there.
        let types = Types::default();
        let mut mutator = Mutator::new(&space, &originals, &types, &[Operator::Binary], |l| {
            if l.line == 2 { 1.0 } else { 0.0 }
        });
        let settings = SearchSettings {
            population: 4,
            generations: 3,
            time_limit: None,
            seeds: Vec::new(),
            feedback: false,
            learned: BTreeMap::new(),
            budget: Budget::unlimited(),
            best: None,
        };
        let mut evaluator = MiddleEvaluator {
            originals: originals.clone(),
            built: 0,
        };
        let mut rng = StdRng::seed_from_u64(1);
        let result = search(
            &mut mutator,
            &mut evaluator,
            &model(),
            &settings,
            &mut rng,
            &|_| {},
        )
        .unwrap();
        assert_eq!(result.stop, Stop::Generations);
        assert_eq!(result.generations, 3);
        assert_eq!(result.never_passed, BTreeSet::from([TestId::new(5)]));
        assert!(result.best.fitness <= 0.99);
        assert!(result.operators[&Operator::Binary].tried > 0);
    }
}
