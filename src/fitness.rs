//! Fitness (the repair seed's weighted pass ratio). Pure arithmetic.

use std::collections::BTreeSet;

/// Fitness = `weight_passing` x (share of originally passing tests that
/// pass) + `weight_failing` x (share of originally failing tests that pass).
/// A candidate that does not build has fitness 0; a timeout is a failure.
#[derive(Debug, Clone, PartialEq)]
pub struct FitnessModel {
    pub weight_passing: f64,
    pub weight_failing: f64,
    pub originally_passing: BTreeSet<usize>,
    pub originally_failing: BTreeSet<usize>,
}

impl FitnessModel {
    /// The fitness of a candidate that built and passed the tests `passed`.
    pub fn of_passed(&self, passed: &BTreeSet<usize>) -> f64 {
        let share = |tests: &BTreeSet<usize>| {
            if tests.is_empty() {
                1.0
            } else {
                tests.intersection(passed).count() as f64 / tests.len() as f64
            }
        };
        self.weight_passing * share(&self.originally_passing)
            + self.weight_failing * share(&self.originally_failing)
    }

    /// Whether `passed` holds every test of the model.
    pub fn all_in(&self, passed: &BTreeSet<usize>) -> bool {
        self.originally_passing.is_subset(passed) && self.originally_failing.is_subset(passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighs_passing_and_failing_tests() {
        let model = FitnessModel {
            weight_passing: 0.99,
            weight_failing: 0.01,
            originally_passing: (0..5).collect(),
            originally_failing: BTreeSet::from([5]),
        };
        assert_eq!(model.of_passed(&(0..6).collect()), 1.0);
        assert!((model.of_passed(&(0..5).collect()) - 0.99).abs() < 1e-12);
        assert!((model.of_passed(&BTreeSet::from([0, 1, 5])) - (0.99 * 0.4 + 0.01)).abs() < 1e-12);
        assert!(model.all_in(&(0..6).collect()) && !model.all_in(&(0..5).collect()));
        let nothing_passed_before = FitnessModel {
            originally_passing: BTreeSet::new(),
            ..model
        };
        assert_eq!(nothing_passed_before.of_passed(&BTreeSet::from([5])), 1.0);
    }
}
