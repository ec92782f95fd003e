//! What edits at a line say about it (mutation- and patch-based
//! localization). Each compiled edit's effect on the tests is classed as
//! ProFL classes patches (a line where some edit makes failing tests pass
//! without breaking passing ones is very likely the fault) and scored the
//! way Metallaxis and MUSE score mutants.
//!
//! Pure: effects in, evidence out. A test's outcome is pass or fail: a
//! failing test that fails differently under an edit is not counted as
//! changed.

use std::collections::{BTreeMap, BTreeSet};

use crate::cargo::TestId;
use crate::code::source::Location;
use crate::evaluate::CandidateOutcome;

/// What one edit did to the tests.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EditEffect {
    /// Originally failing tests that pass with the edit.
    pub fixed: BTreeSet<TestId>,
    /// How many originally passing tests fail with it.
    pub broke: usize,
}

impl EditEffect {
    /// The effect of an outcome on the originally `failing` and `passing`
    /// tests (`None` if it did not compile: an edit the compiler rejects
    /// says nothing about the line).
    pub fn of(
        outcome: &CandidateOutcome,
        failing: &BTreeSet<TestId>,
        passing: &BTreeSet<TestId>,
    ) -> Option<EditEffect> {
        let CandidateOutcome::Tested(verdicts) = outcome else {
            return None;
        };
        let mut effect = EditEffect::default();
        for (test, verdict) in verdicts {
            if verdict.passed() && failing.contains(test) {
                effect.fixed.insert(*test);
            } else if !verdict.passed() && passing.contains(test) {
                effect.broke += 1;
            }
        }
        Some(effect)
    }

    /// How many of `failing` it makes pass.
    fn fixes(&self, failing: &BTreeSet<TestId>) -> usize {
        self.fixed.intersection(failing).count()
    }

    /// Its ProFL class for the failing tests `failing`.
    pub fn class(&self, failing: &BTreeSet<TestId>) -> FixClass {
        FixClass::of(self.fixes(failing), self.broke)
    }
}

/// ProFL's classes of a patch, and of a line by its best patch; best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FixClass {
    /// It makes a failing test pass and breaks no passing test.
    Clean,
    /// It makes a failing test pass, and breaks a passing one.
    Noisy,
    /// It changes no test's outcome.
    None,
    /// It breaks a passing test and makes no failing test pass.
    Negative,
}

impl FixClass {
    pub const ALL: [FixClass; 4] = [
        FixClass::Clean,
        FixClass::Noisy,
        FixClass::None,
        FixClass::Negative,
    ];

    /// The class with [`FixClass::name`] `name`.
    pub fn named(name: &str) -> Option<FixClass> {
        FixClass::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The class of a patch that makes `fixes` failing tests pass and
    /// `breaks` passing tests fail.
    pub fn of(fixes: usize, breaks: usize) -> FixClass {
        match (fixes > 0, breaks > 0) {
            (true, false) => FixClass::Clean,
            (true, true) => FixClass::Noisy,
            (false, false) => FixClass::None,
            (false, true) => FixClass::Negative,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FixClass::Clean => "clean-fix",
            FixClass::Noisy => "noisy-fix",
            FixClass::None => "no-change",
            FixClass::Negative => "breaks-only",
        }
    }
}

/// What the edits at one line say, for one set of failing tests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineEvidence {
    /// Compiled edits evaluated at the line.
    pub edits: usize,
    /// The best class among them ([`FixClass::None`] without any).
    pub class: FixClass,
    /// Metallaxis: the best Ochiai score of an edit, counting a failing
    /// test that passes and a passing test that fails as killing it.
    pub metallaxis: f64,
    /// MUSE: the mean over the line's edits of the share of all
    /// fail-to-pass changes it makes, less (weighted by alpha) its share of
    /// all pass-to-fail changes.
    pub muse: f64,
}

impl LineEvidence {
    /// A line no edit was evaluated at.
    pub const UNTRIED: LineEvidence = LineEvidence {
        edits: 0,
        class: FixClass::None,
        metallaxis: 0.0,
        muse: 0.0,
    };
}

/// The evidence at each line with an evaluated edit, for the failing tests
/// `failing` out of a suite with `passing` passing tests.
pub fn line_evidence(
    effects: &BTreeMap<Location, Vec<EditEffect>>,
    failing: &BTreeSet<TestId>,
    passing: usize,
) -> BTreeMap<Location, LineEvidence> {
    let all = || effects.values().flatten();
    let fail_to_pass: usize = all().map(|e| e.fixes(failing)).sum();
    let pass_to_fail: usize = all().map(|e| e.broke).sum();
    let share = |part: usize, whole: usize| {
        if whole == 0 {
            0.0
        } else {
            part as f64 / whole as f64
        }
    };
    // MUSE's alpha: how much likelier an edit is to break a passing test
    // than to fix a failing one, per test.
    let alpha = if fail_to_pass == 0 || pass_to_fail == 0 {
        0.0
    } else {
        (fail_to_pass as f64 / failing.len() as f64) / (pass_to_fail as f64 / passing as f64)
    };
    effects
        .iter()
        .filter(|(_, edits)| !edits.is_empty())
        .map(|(&location, edits)| {
            let class = edits
                .iter()
                .map(|e| e.class(failing))
                .min()
                .unwrap_or(FixClass::None);
            let metallaxis = edits
                .iter()
                .map(|e| {
                    let killed_failing = e.fixes(failing) as f64;
                    let killed = killed_failing + e.broke as f64;
                    let denominator = (failing.len() as f64 * killed).sqrt();
                    if denominator == 0.0 {
                        0.0
                    } else {
                        killed_failing / denominator
                    }
                })
                .fold(0.0, f64::max);
            let muse = edits
                .iter()
                .map(|e| {
                    share(e.fixes(failing), fail_to_pass) - alpha * share(e.broke, pass_to_fail)
                })
                .sum::<f64>()
                / edits.len() as f64;
            let evidence = LineEvidence {
                edits: edits.len(),
                class,
                metallaxis,
                muse,
            };
            (location, evidence)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cargo::{Panic, Verdict};
    use crate::code::source::FileId;

    fn at(line: u32) -> Location {
        Location::new(FileId::new(0), line)
    }

    fn effect(fixed: &[usize], broke: usize) -> EditEffect {
        EditEffect {
            fixed: fixed.iter().map(|&t| TestId::new(t)).collect(),
            broke,
        }
    }

    #[test]
    fn an_outcome_becomes_an_effect() {
        let t = TestId::new;
        let failed = Verdict::Failed(Panic {
            message: "boom".into(),
            ..Panic::default()
        });
        let outcome = CandidateOutcome::Tested(vec![
            (t(0), Verdict::Passed),
            (t(1), failed.clone()),
            (t(2), failed),
            (t(3), Verdict::Passed),
        ]);
        let failing = BTreeSet::from([t(0), t(1)]);
        let passing = BTreeSet::from([t(2), t(3)]);
        let effect = EditEffect::of(&outcome, &failing, &passing).unwrap();
        assert_eq!(effect.fixed, BTreeSet::from([t(0)]));
        assert_eq!(effect.broke, 1);
        assert_eq!(effect.class(&failing), FixClass::Noisy);
        assert_eq!(effect.class(&BTreeSet::from([t(1)])), FixClass::Negative);
        let unviable = CandidateOutcome::Unviable("error".into());
        assert_eq!(EditEffect::of(&unviable, &failing, &passing), None);
    }

    #[test]
    fn a_line_takes_its_best_class() {
        assert_eq!(FixClass::of(1, 0), FixClass::Clean);
        assert_eq!(FixClass::of(2, 3), FixClass::Noisy);
        assert_eq!(FixClass::of(0, 0), FixClass::None);
        assert_eq!(FixClass::of(0, 1), FixClass::Negative);
        for class in FixClass::ALL {
            assert_eq!(FixClass::named(class.name()), Some(class));
        }
        let failing = BTreeSet::from([TestId::new(0), TestId::new(1)]);
        let effects = BTreeMap::from([
            (at(1), vec![effect(&[], 2), effect(&[0], 1)]),
            (at(2), vec![effect(&[], 1), effect(&[], 4)]),
            (at(3), vec![effect(&[], 0), effect(&[], 3)]),
            (at(4), vec![]),
        ]);
        let evidence = line_evidence(&effects, &failing, 10);
        let class = |line| evidence[&at(line)].class;
        assert_eq!(
            [class(1), class(2), class(3)],
            [FixClass::Noisy, FixClass::Negative, FixClass::None]
        );
        assert!(!evidence.contains_key(&at(4)), "no edits, no evidence");
        assert_eq!(evidence[&at(1)].edits, 2);
    }

    /// Two failing tests, ten passing. Line 1's edits: one fixes both
    /// failing tests and breaks nothing, one breaks two passing tests.
    /// Line 2's only edit fixes one failing test and breaks two.
    #[test]
    fn metallaxis_and_muse_follow_their_formulas() {
        let failing = BTreeSet::from([TestId::new(0), TestId::new(1)]);
        let effects = BTreeMap::from([
            (at(1), vec![effect(&[0, 1], 0), effect(&[], 2)]),
            (at(2), vec![effect(&[0], 2)]),
        ]);
        let evidence = line_evidence(&effects, &failing, 10);
        // Metallaxis: line 1's best edit kills 2 failing, 0 passing:
        // 2 / sqrt(2 * 2) = 1; line 2: 1 / sqrt(2 * 3).
        assert!((evidence[&at(1)].metallaxis - 1.0).abs() < 1e-12);
        assert!((evidence[&at(2)].metallaxis - 1.0 / 6f64.sqrt()).abs() < 1e-12);
        // MUSE: fail-to-pass 3 in all, pass-to-fail 4; alpha = (3/2) / (4/10)
        // = 3.75. Line 1: ((2/3 - 0) + (0 - 3.75 * 2/4)) / 2; line 2:
        // 1/3 - 3.75 * 2/4.
        let alpha = 3.75;
        let line_1 = (2.0 / 3.0 + (-alpha * 0.5)) / 2.0;
        let line_2 = 1.0 / 3.0 - alpha * 0.5;
        assert!((evidence[&at(1)].muse - line_1).abs() < 1e-12);
        assert!((evidence[&at(2)].muse - line_2).abs() < 1e-12);
        assert!(evidence[&at(1)].muse > evidence[&at(2)].muse);
    }
}
