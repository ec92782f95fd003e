//! Fitness (the repair seed's weighted pass ratio). Pure arithmetic.

use std::collections::BTreeSet;

use crate::cargo::TestId;

/// How much the originally passing and the originally failing tests count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    pub passing: f64,
    pub failing: f64,
}

impl Weights {
    /// The seed's weights: keeping passing tests green matters most.
    pub const DEFAULT: Weights = Weights {
        passing: 0.99,
        failing: 0.01,
    };
}

/// Fitness = `weights.passing` x (share of originally passing tests that
/// pass) + `weights.failing` x (share of originally failing tests that pass).
/// A candidate that does not build has fitness 0; a timeout is a failure.
#[derive(Debug, Clone, PartialEq)]
pub struct FitnessModel {
    pub weights: Weights,
    pub originally_passing: BTreeSet<TestId>,
    pub originally_failing: BTreeSet<TestId>,
}

impl FitnessModel {
    /// The fitness of a candidate that built and passed the tests `passed`.
    pub fn of_passed(&self, passed: &BTreeSet<TestId>) -> f64 {
        let share = |tests: &BTreeSet<TestId>| {
            if tests.is_empty() {
                1.0
            } else {
                tests.intersection(passed).count() as f64 / tests.len() as f64
            }
        };
        self.weights.passing * share(&self.originally_passing)
            + self.weights.failing * share(&self.originally_failing)
    }

    /// Whether `passed` holds every test of the model.
    pub fn all_in(&self, passed: &BTreeSet<TestId>) -> bool {
        self.originally_passing.is_subset(passed) && self.originally_failing.is_subset(passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(range: std::ops::Range<usize>) -> BTreeSet<TestId> {
        range.map(TestId::new).collect()
    }

    #[test]
    fn weighs_passing_and_failing_tests() {
        let model = FitnessModel {
            weights: Weights::DEFAULT,
            originally_passing: ids(0..5),
            originally_failing: ids(5..6),
        };
        assert_eq!(model.of_passed(&ids(0..6)), 1.0);
        assert!((model.of_passed(&ids(0..5)) - 0.99).abs() < 1e-12);
        let some: BTreeSet<TestId> = [0, 1, 5].map(TestId::new).into();
        assert!((model.of_passed(&some) - (0.99 * 0.4 + 0.01)).abs() < 1e-12);
        assert!(model.all_in(&ids(0..6)) && !model.all_in(&ids(0..5)));
        let nothing_passed_before = FitnessModel {
            originally_passing: BTreeSet::new(),
            ..model
        };
        assert_eq!(nothing_passed_before.of_passed(&ids(5..6)), 1.0);
    }
}
