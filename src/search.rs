//! The genetic search for a patch (GenProg, as in the repair seed): a
//! population of candidates evolves by crossover and mutation; the fittest
//! survive, fewer edits winning ties; it stops at fitness 1.0, at the
//! generation or time budget, or on Ctrl-C.
//!
//! All randomness comes from the one seeded RNG it is given.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;
use rand::prelude::*;

use crate::candidate::{Candidate, crossover};
use crate::evaluate::{CandidateOutcome, Cutoff, Evaluator};
use crate::exit::{Exit, Failure};
use crate::fitness::FitnessModel;
use crate::mutate::{Mutator, Operator};

#[derive(Debug, Clone)]
pub struct SearchSettings {
    pub population: usize,
    pub generations: usize,
    pub time_limit: Option<Duration>,
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
    pub never_passed: BTreeSet<usize>,
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
    mutator: &Mutator,
    evaluator: &mut dyn Evaluator,
    model: &FitnessModel,
    settings: &SearchSettings,
    rng: &mut StdRng,
    on_progress: &(dyn Fn(Progress) + Sync),
) -> Result<SearchResult> {
    let started = Instant::now();
    let mut run = Run {
        evaluator,
        model,
        operators: BTreeMap::new(),
        ever_passed: BTreeSet::new(),
        best: None,
        generation: 0,
        seen: std::collections::HashSet::new(),
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

    // The initial population: the original and single mutations of it.
    let mut initial: Vec<(Candidate, Option<Operator>)> = vec![(Candidate::original(), None)];
    for _ in 0..settings.population.saturating_sub(1) * 4 {
        if initial.len() >= settings.population {
            break;
        }
        if let Some(edit) = mutator.mutation(rng) {
            let operator = edit.operator;
            let candidate = Candidate::original().with(edit);
            if !initial.iter().any(|(c, _)| *c == candidate) {
                initial.push((candidate, Some(operator)));
            }
        }
    }
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
        let offspring = breed(&population, mutator, rng, settings.population);
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
            }));
        }
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

/// Offspring of a population: pairs of parents (chosen uniformly), crossed
/// at a point in source order, each child then mutated once (with the
/// operator of that mutation).
fn breed(
    population: &[Scored],
    mutator: &Mutator,
    rng: &mut StdRng,
    count: usize,
) -> Vec<(Candidate, Option<Operator>)> {
    let mut offspring = Vec::with_capacity(count);
    while offspring.len() < count {
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
                Some(edit) => offspring.push((child.with(edit.clone()), Some(edit.operator))),
                None => offspring.push((child, None)),
            }
        }
    }
    offspring.truncate(count);
    offspring
}

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
    model: &'a FitnessModel,
    operators: BTreeMap<Operator, OperatorCounts>,
    ever_passed: BTreeSet<usize>,
    best: Option<Scored>,
    generation: usize,
    /// Candidates scored so far (each counts once in the operator statistics).
    seen: std::collections::HashSet<Candidate>,
}

impl Run<'_> {
    /// Evaluates `batch` (each candidate with the operator that made it).
    fn score_batch(
        &mut self,
        batch: Vec<(Candidate, Option<Operator>)>,
        on_progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<Vec<Scored>> {
        let (batch, made_by): (Vec<Candidate>, Vec<Option<Operator>>) = batch.into_iter().unzip();
        let best_so_far = Mutex::new(self.best.as_ref().map_or(0.0, |b| b.fitness));
        let generation = self.generation;
        let model = self.model;
        let outcomes = self.evaluator.evaluate(&batch, &|outcome| {
            let mut best = best_so_far.lock().expect("progress poisoned");
            *best = best.max(outcome.fitness(model));
            on_progress(Progress::Evaluated {
                generation,
                best_fitness: *best,
                compiled: outcome.compiled(),
            });
        })?;
        let mut scored = Vec::with_capacity(batch.len());
        for ((candidate, outcome), operator) in batch.into_iter().zip(outcomes).zip(made_by) {
            if let Some(operator) = operator
                && self.seen.insert(candidate.clone())
            {
                let counts = self.operators.entry(operator).or_default();
                counts.tried += 1;
                counts.compiled += usize::from(outcome.compiled());
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

    /// On Ctrl-C, the best candidate found so far; other errors pass through.
    fn interrupted_or(self, error: anyhow::Error) -> Result<SearchResult> {
        let interrupted = error.chain().any(|c| {
            c.downcast_ref::<Failure>()
                .is_some_and(|f| f.exit == Exit::Interrupted)
        });
        match (interrupted, self.best.clone()) {
            (true, Some(best)) => Ok(self.finish(best, Stop::Interrupted)),
            _ => Err(error),
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::EvaluationCounts;
    use crate::sites::collect_mutation_space;
    use crate::suite::Verdict;

    /// Evaluates `middle()` candidates by interpreting their text: test
    /// `i` passes when the patched function returns the middle value.
    struct MiddleEvaluator {
        original: String,
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
            on_done: &(dyn Fn(&CandidateOutcome) + Sync),
        ) -> Result<Vec<CandidateOutcome>> {
            Ok(batch
                .iter()
                .map(|candidate| {
                    self.built += 1;
                    let texts = candidate.texts(&[self.original.as_str()]);
                    let text = texts.get(&0).unwrap_or(&self.original);
                    // The fix the search should find; anything else keeps the bug.
                    let fixed_line_6 = text.lines().nth(5).is_some_and(|l| l.trim() == "return x;");
                    let intact = text.lines().count() == self.original.lines().count();
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
                                        i,
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
                    on_done(&outcome);
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
            weight_passing: 0.99,
            weight_failing: 0.01,
            originally_passing: (0..5).collect(),
            originally_failing: BTreeSet::from([5]),
        }
    }

    #[test]
    fn outcomes_have_the_models_fitness() {
        let model = model();
        let all = CandidateOutcome::Tested((0..6).map(|i| (i, Verdict::Passed)).collect());
        let original = CandidateOutcome::Tested((0..5).map(|i| (i, Verdict::Passed)).collect());
        let half = CandidateOutcome::Tested(vec![
            (0, Verdict::Passed),
            (1, Verdict::Passed),
            (5, Verdict::Passed),
        ]);
        assert_eq!(all.fitness(&model), 1.0);
        assert!((original.fitness(&model) - 0.99).abs() < 1e-12);
        assert!((half.fitness(&model) - (0.99 * 0.4 + 0.01)).abs() < 1e-12);
        assert_eq!(CandidateOutcome::Unviable("x".into()).fitness(&model), 0.0);
        assert!(all.passes_all(&model) && !original.passes_all(&model));
    }

    #[test]
    fn finds_the_middle_fix_and_repeats_with_the_same_seed() {
        let sources = crate::crate_sources::CrateSources {
            files: vec![crate::crate_sources::SourceFile {
                path: "src/lib.rs".into(),
                text: MIDDLE.to_string(),
                syntax: crate::source::parse_file(MIDDLE).unwrap(),
            }],
            roots: vec![0],
            ..Default::default()
        };
        let space = collect_mutation_space(&sources, |_, _| false);
        let scores = [(6, 0.7), (5, 0.58), (3, 0.5), (2, 0.41)];
        let mutator = Mutator::new(&space, vec![MIDDLE], &Operator::ALL, |_, line| {
            scores
                .iter()
                .find(|(l, _)| *l == line)
                .map_or(0.0, |(_, s)| *s)
        });
        let settings = SearchSettings {
            population: 10,
            generations: 20,
            time_limit: None,
        };
        let mut runs = Vec::new();
        for _ in 0..2 {
            let mut evaluator = MiddleEvaluator {
                original: MIDDLE.to_string(),
                built: 0,
            };
            let mut rng = StdRng::seed_from_u64(42);
            let result = search(
                &mutator,
                &mut evaluator,
                &model(),
                &settings,
                &mut rng,
                &|_| {},
            )
            .unwrap();
            assert_eq!(result.stop, Stop::Found);
            assert_eq!(result.best.fitness, 1.0);
            let texts = result.best.candidate.texts(&[MIDDLE]);
            assert_eq!(texts[&0].lines().nth(5).unwrap().trim(), "return x;");
            runs.push((
                format!("{:?}", result.best.candidate),
                evaluator.built,
                result.generations,
            ));
        }
        assert_eq!(runs[0], runs[1], "the same seed must give the same run");
    }

    #[test]
    fn stops_at_the_generation_budget_and_reports_tests_that_never_passed() {
        let sources = crate::crate_sources::CrateSources {
            files: vec![crate::crate_sources::SourceFile {
                path: "src/lib.rs".into(),
                text: MIDDLE.to_string(),
                syntax: crate::source::parse_file(MIDDLE).unwrap(),
            }],
            roots: vec![0],
            ..Default::default()
        };
        let space = collect_mutation_space(&sources, |_, _| false);
        // Only line 2 is suspicious: no fix is reachable there.
        let mutator = Mutator::new(
            &space,
            vec![MIDDLE],
            &[Operator::BinaryOperator],
            |_, line| if line == 2 { 1.0 } else { 0.0 },
        );
        let settings = SearchSettings {
            population: 4,
            generations: 3,
            time_limit: None,
        };
        let mut evaluator = MiddleEvaluator {
            original: MIDDLE.to_string(),
            built: 0,
        };
        let mut rng = StdRng::seed_from_u64(1);
        let result = search(
            &mutator,
            &mut evaluator,
            &model(),
            &settings,
            &mut rng,
            &|_| {},
        )
        .unwrap();
        assert_eq!(result.stop, Stop::Generations);
        assert_eq!(result.generations, 3);
        assert_eq!(result.never_passed, BTreeSet::from([5]));
        assert!(result.best.fitness <= 0.99);
        assert!(result.operators[&Operator::BinaryOperator].tried > 0);
    }
}
