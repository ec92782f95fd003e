//! How sure the repair is of its patch: `likely` (the evidence points at
//! it and nothing speaks against it) or `plausible` (it passes every test,
//! and something says a person would check it twice), with the reasons
//! either way. A patch that passes the tests may still be wrong; these are
//! the signs, each computed from what the repair already measured:
//!
//! - where the evidence points: the edited line's rank in the failure's
//!   ranking, and the crash site (an edit of the kind the panic calls for,
//!   at the line where the failing tests panicked);
//! - what the edit is: a one-token change, or new code (a statement, a
//!   guard, a synthesized condition), which tests pin down less;
//! - what else passes: plausible single edits at other lines (the tests
//!   do not tell those places apart);
//! - what it disturbs: lines the originally passing tests execute
//!   differently, and compiler warnings the patch adds (a comparison made
//!   useless by its type, a variable left unused) and code it makes
//!   degenerate (a `match` whose arms all give one value, a condition an
//!   earlier one decided);
//! - what checks it: a line no originally passing test executes is held
//!   in place by the failing tests alone;
//! - how it was found: a single edit of the sweep, or edits combined by the
//!   genetic search, in one stage or several.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::mutation::Operator;
use crate::repair::choice::Measures;
use crate::repair::comparisons::rival_comparison;
use crate::repair::reading::Masking;
use crate::repair::stage::{Plausible, Stage};
use crate::system::console::{ordinal, plural};

/// An edit whose line ranks this high (or at the crash site) is where the
/// evidence points.
const TOP: usize = 5;

/// An edit whose line ranks below this (and not at the crash site) is away
/// from where the evidence points. The repair's ranking is the plain one,
/// without `--rank-only`'s mutation refinement, which lifts the lines of
/// plausible single edits: a line ranked 7th there is often 1st refined.
const FAR: usize = 10;

/// The unusualness from which an edit changes whole statements (see the
/// operators' `unusualness`: a statement inserted, deleted, swapped or
/// adapted, a guard).
const NEW_STATEMENT: usize = 3;

/// The tokens from which an expression edit writes new code rather than
/// changing a token or two (`a + 1` for `a` adds two; `input[i + 2] ==
/// 0x85` for `next == 0xC2` five).
const NEW_TOKENS: i64 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Nothing speaks against the patch, and the evidence points at it.
    Likely,
    /// It passes every test; something speaks against it (see the reasons).
    Plausible,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Likely => "likely",
            Level::Plausible => "plausible",
        }
    }
}

/// One reason, for the patch or against it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Reason {
    /// Whether it speaks for the patch.
    pub supports: bool,
    pub text: String,
}

/// The level and its reasons, those against first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Confidence {
    pub level: Level,
    pub reasons: Vec<Reason>,
}

impl Confidence {
    /// One line: the level, then the reasons against it (or, when none,
    /// for it), as the CI outputs show it.
    pub fn summary(&self) -> String {
        let against: Vec<&str> = self
            .reasons
            .iter()
            .filter(|r| !r.supports)
            .map(|r| r.text.as_str())
            .collect();
        let reasons: Vec<&str> = if against.is_empty() {
            self.reasons.iter().map(|r| r.text.as_str()).collect()
        } else {
            against
        };
        match self.level {
            Level::Likely => format!("likely the fix: {}", reasons.join("; ")),
            Level::Plausible => format!("only plausible: {}", reasons.join("; ")),
        }
    }
}

/// What the confidence in a patch is judged from.
#[derive(Debug, Clone, Default)]
pub struct Evidence<'a> {
    /// Failure groups searched apart, each with its part of the patch.
    pub stages: usize,
    /// Edits of the patch.
    pub edits: usize,
    /// The plausible single edit the patch is, when a sweep found it (with
    /// one stage).
    pub chosen: Option<&'a Plausible>,
    /// Plausible single edits of that sweep at none of its lines (see
    /// [`rivals_elsewhere`]).
    pub elsewhere: usize,
    /// The comparison another plausible edit puts where the chosen one
    /// puts its own, and what the tests never decide (see
    /// [`rival_comparison`]).
    pub rival_comparison: Option<(&'a str, &'static str)>,
    /// Another plausible patch deletes the statement at the chosen edit's
    /// line, or keeps one of its blocks (see [`deletion_passes`]).
    pub deletion: bool,
    /// Compiler warnings the patch adds.
    pub new_warnings: &'a [String],
}

impl<'a> Evidence<'a> {
    /// The evidence about the validated patch of `stages` (the last
    /// stage's chosen plausible patch when a sweep found it), which adds
    /// the compiler warnings `new_warnings`.
    pub fn of(stages: &'a [Stage], new_warnings: &'a [String]) -> Evidence<'a> {
        let chosen = match stages {
            [stage] => stage.alternatives.get(stage.chosen),
            _ => None,
        };
        let elsewhere = chosen.map_or(0, |chosen| {
            rivals_elsewhere(chosen, &stages[0].alternatives)
        });
        let rival_comparison =
            chosen.and_then(|chosen| rival_comparison(chosen, &stages[0].alternatives));
        let deletion =
            chosen.is_some_and(|chosen| deletion_passes(chosen, &stages[0].alternatives));
        Evidence {
            stages: stages.len(),
            edits: stages.iter().map(|s| s.edits.len()).sum(),
            chosen,
            elsewhere,
            rival_comparison,
            deletion,
            new_warnings,
        }
    }
}

/// The plausible patches among `alternatives` at none of `chosen`'s lines,
/// but for those that make code degenerate: no one's fix is no rival.
fn rivals_elsewhere(chosen: &Plausible, alternatives: &[Plausible]) -> usize {
    let lines: Vec<(&Path, u32)> = chosen
        .edits
        .iter()
        .map(|e| (e.file.as_path(), e.line))
        .collect();
    alternatives
        .iter()
        .filter(|a| !a.edits.iter().any(|e| lines.contains(&(&e.file, e.line))))
        .filter(|a| a.measures.degenerate.is_none())
        .count()
}

/// Whether, `chosen` being no deletion itself, another plausible patch
/// deletes the statement at the line of one of its edits (or keeps one of
/// its blocks, an `if` without its condition): then the tests pass without
/// what that statement does, and the chosen edit is one way among many of
/// not doing it (walkdir's `if free == max_open` made `>`, 40 other edits
/// of that condition and the whole `if` deleted passing too).
fn deletion_passes(chosen: &Plausible, alternatives: &[Plausible]) -> bool {
    let deletes = |p: &Plausible| p.edits.iter().any(|e| e.operator == Operator::Delete);
    !deletes(chosen)
        && alternatives
            .iter()
            .any(|other| match other.edits.as_slice() {
                [deleted] if deleted.operator == Operator::Delete => chosen
                    .edits
                    .iter()
                    .any(|e| e.file == deleted.file && e.line == deleted.line),
                _ => false,
            })
}

/// The level and its reasons: `likely` when no reason speaks against the
/// patch.
pub fn assess(evidence: &Evidence) -> Confidence {
    let mut against: Vec<String> = Vec::new();
    let mut support: Vec<String> = Vec::new();
    if let [first, ..] = evidence.new_warnings {
        let more = evidence.new_warnings.len() - 1;
        against.push(format!(
            "it adds a compiler warning: {first}{}",
            if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            }
        ));
    }
    if evidence.stages > 1 {
        against.push(format!(
            "it fixes {} failure groups in as many searches, each judged by its own tests",
            evidence.stages
        ));
    }
    match evidence.chosen {
        None if evidence.stages == 1 => against.push(format!(
            "the genetic search found it ({} edit{}), not the sweep of single edits at the top lines, so it was not weighed against other plausible patches",
            evidence.edits,
            plural(evidence.edits)
        )),
        None => {}
        Some(chosen) => weigh_single(chosen, evidence.elsewhere, &mut against, &mut support),
    }
    if let (Some((rival, undecided)), Some(chosen)) = (evidence.rival_comparison, evidence.chosen) {
        against.push(format!(
            "`{rival}` in place of `{}` passes every test too: the tests never decide {undecided}",
            chosen.edits[0].replacement.trim()
        ));
    }
    if evidence.deletion {
        against.push(
            "deleting the statement at its line, or keeping one of its blocks alone, passes every test too: the tests do not pin down what that statement does"
                .to_string(),
        );
    }
    let level = if against.is_empty() {
        Level::Likely
    } else {
        Level::Plausible
    };
    let reasons = against
        .into_iter()
        .map(|text| Reason {
            supports: false,
            text,
        })
        .chain(support.into_iter().map(|text| Reason {
            supports: true,
            text,
        }))
        .collect();
    Confidence { level, reasons }
}

/// The reasons for and against a plausible single edit the sweep found and
/// the choice picked, `elsewhere` the plausible single edits at other lines.
fn weigh_single(
    chosen: &Plausible,
    elsewhere: usize,
    against: &mut Vec<String>,
    support: &mut Vec<String>,
) {
    if chosen.measures.answers_crash {
        support.push(
            "the kind of edit the failing tests' panic calls for, at the line where they panicked (for an assertion, at the call that broke it)"
                .to_string(),
        );
    }
    match chosen.measures.behaviour_change {
        _ if chosen.measures.passing_reach == 0 => against.push(
            "no test that passed before executes the edited line: only the failing tests check the edit"
                .to_string(),
        ),
        Some(0) => support.push(
            "the passing tests that reach the edit execute the same lines as before"
                .to_string(),
        ),
        Some(lines) => against.push(format!(
            "the passing tests that reach the edit execute {lines} line{} differently",
            plural(lines)
        )),
        None => {}
    }
    // (An operation that changes nothing is unnatural for a reason of its
    // own, told below.)
    let new_code = !chosen.measures.identity
        && (chosen.measures.unnatural >= NEW_STATEMENT || chosen.measures.growth >= NEW_TOKENS);
    if new_code && !chosen.measures.answers_crash {
        against.push(
            "it changes whole statements (one inserted, deleted or swapped, a guard) or writes a longer expression, which the tests pin down less than a changed token"
                .to_string(),
        );
    } else if chosen.measures.unnatural == 0 && !chosen.measures.answers_crash {
        support.push("a one-token change".to_string());
    }
    against.extend(unlike_a_fix(&chosen.measures));
    if elsewhere > 0 {
        against.push(format!(
            "{} other single edit{} at other lines also pass{} every test",
            elsewhere,
            plural(elsewhere),
            if elsewhere == 1 { "es" } else { "" }
        ));
    }
    let best = chosen
        .edits
        .iter()
        .map(|e| if e.rank == 0 { usize::MAX } else { e.rank })
        .min()
        .unwrap_or(usize::MAX);
    match best {
        1 => support.push("the edited line ranks first".to_string()),
        r if r <= TOP => support.push(format!("the edited line ranks {}", ordinal(r))),
        r if r <= FAR || chosen.measures.answers_crash => {}
        usize::MAX => against.push("the edited line is not in the ranking".to_string()),
        r => against.push(format!(
            "the edited line ranks {}: the evidence points elsewhere",
            ordinal(r)
        )),
    }
}

/// What the choice's measures say makes a patch unlike a person's fix.
fn unlike_a_fix(measures: &Measures) -> Vec<String> {
    let mut reasons = Vec::new();
    if let Some(degenerate) = measures.degenerate {
        reasons.push(format!(
            "it makes code no one writes as a fix: {}",
            degenerate.describe()
        ));
    }
    if measures.needless_removal {
        reasons.push(
            "it removes a statement to put in its place code another passing patch inserts there, keeping the statement: the tests do not need it removed"
                .to_string(),
        );
    }
    if measures.needless_call {
        reasons.push(
            "it makes a statement call another method where deleting the statement passes every test too: no test needs the new call"
                .to_string(),
        );
    }
    if measures.made_up {
        reasons.push(
            "it makes a value up where another passing patch leaves the function by its error path: the failure hidden rather than told"
                .to_string(),
        );
    }
    if measures.identity {
        reasons.push(
            "it writes an operation that changes nothing (`x * 1`, `x + 0`, `s[0..]` for `s`), which no one writes: the tests pass by what it removes"
                .to_string(),
        );
    }
    if measures.reclassed {
        reasons.push(
            "it makes a character literal one of another kind (a digit a punctuation mark, say), which fits the tests' inputs rather than a rule"
                .to_string(),
        );
    }
    if let Some(line) = measures.alike_left {
        reasons.push(format!(
            "line {line}, written like the edited line in the same function, keeps what the patch changes: a slip in code written twice is fixed twice, or was no slip"
        ));
    }
    if measures.unrelated_condition {
        reasons.push(
            "it puts in place of a condition one that reads none of its variables: the check it made is gone, not fixed"
                .to_string(),
        );
    }
    match measures.masking {
        Some(Masking::Miscount) => reasons.push(
            "it makes a count's decrement by one safe: a count that would go below zero was wrong before (decremented for nothing removed, or never reset), which the edit hides"
                .to_string(),
        ),
        Some(Masking::HalfChecked) => reasons.push(
            "it makes one operation of the line overflow-safe and leaves another as it was: half the overflow is guarded"
                .to_string(),
        ),
        Some(Masking::LeftElsewhere) => reasons.push(
            "it makes an operation overflow-safe that the function writes again elsewhere and leaves as it was: the same overflow remains there"
                .to_string(),
        ),
        None => {}
    }
    if let Some(field) = &measures.unread_field {
        reasons.push(format!(
            "it takes away the last read of `{field}`, which the code still sets: the check that field was kept for is gone"
        ));
    }
    if let Some(line) = measures.contradicted {
        reasons.push(format!(
            "it changes a number that the message at line {line} still writes: the check and its message now disagree"
        ));
    }
    if measures.constant_or_measure {
        reasons.push(
            "another edit of the same code passes every test too, one writing a number and the other an expression of a variable: the tests do not tell a constant from a measure"
                .to_string(),
        );
    }
    reasons
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::code::Degenerate;
    use crate::mutation::Operator;
    use crate::repair::stage::EditDescription;

    fn edit(line: u32, operator: Operator, rank: usize) -> EditDescription {
        EditDescription {
            file: PathBuf::from("src/lib.rs"),
            line,
            operator,
            replacement: "<=".into(),
            rank,
            against_zero: false,
        }
    }

    fn one_token(rank: usize) -> Plausible {
        Plausible {
            edits: vec![edit(7, Operator::Binary, rank)],
            measures: Measures {
                behaviour_change: Some(0),
                unnatural: 0,
                surprise: None,
                surprise_band: None,
                answers_crash: false,
                growth: 0,
                passing_reach: 3,
                reclassed: false,
                constant_or_measure: false,
                degenerate: None,
                needless_removal: false,
                needless_call: false,
                made_up: false,
                identity: false,
                alike_left: None,
                contradicted: None,
                unrelated_condition: false,
                unread_field: None,
                masking: None,
            },
        }
    }

    /// A one-token edit at a line of rank `rank`, with `change` made to
    /// its measures.
    fn measured(rank: usize, change: impl FnOnce(&mut Measures)) -> Plausible {
        let mut plausible = one_token(rank);
        change(&mut plausible.measures);
        plausible
    }

    fn texts(confidence: &Confidence, supports: bool) -> Vec<&str> {
        let reasons = confidence.reasons.iter().filter(|r| r.supports == supports);
        reasons.map(|r| r.text.as_str()).collect()
    }

    /// The confidence in `chosen`, the one plausible single edit of a
    /// one-stage repair.
    fn assess_one(chosen: &Plausible) -> Confidence {
        assess(&Evidence {
            stages: 1,
            edits: 1,
            chosen: Some(chosen),
            ..Evidence::default()
        })
    }

    #[test]
    fn rivals_are_plausible_edits_at_other_lines_that_are_not_degenerate() {
        let chosen = one_token(1);
        let at = |line: u32, degenerate: Option<Degenerate>| {
            let mut other = one_token(2);
            other.edits[0].line = line;
            other.measures.degenerate = degenerate;
            other
        };
        let alternatives = [
            chosen.clone(),
            at(7, None),
            at(9, None),
            at(11, Some(Degenerate::SameValue { line: 11 })),
        ];
        // Only line 9's: line 7 is the chosen one's, line 11's is no one's fix.
        assert_eq!(rivals_elsewhere(&chosen, &alternatives), 1);
    }

    /// `>=` chosen where `>` passes too: only plausible, the reason named.
    #[test]
    fn a_comparison_whose_rival_at_the_same_place_passes_too_is_only_plausible() {
        let mut chosen = one_token(1);
        chosen.edits[0].replacement = ">=".into();
        let confidence = assess(&Evidence {
            stages: 1,
            edits: 1,
            chosen: Some(&chosen),
            rival_comparison: Some((">", "the case where the two sides are equal")),
            ..Evidence::default()
        });
        assert_eq!(confidence.level, Level::Plausible);
        assert_eq!(
            texts(&confidence, false),
            [
                "`>` in place of `>=` passes every test too: the tests never decide the case where the two sides are equal"
            ]
        );
        assert_eq!(assess_one(&chosen).level, Level::Likely, "alone");
    }

    /// A deletion of the statement at the chosen edit's line passing too
    /// says the tests do not pin that statement down; one at another line,
    /// or the chosen patch a deletion itself, says nothing of it.
    #[test]
    fn an_edit_whose_statement_can_go_altogether_is_only_plausible() {
        let chosen = one_token(1);
        let deleted = |line: u32| {
            let mut plausible = one_token(1);
            plausible.edits = vec![edit(line, Operator::Delete, 1)];
            plausible
        };
        let passes = |alternatives: &[Plausible]| deletion_passes(&chosen, alternatives);
        assert!(passes(&[chosen.clone(), deleted(7)]));
        assert!(!passes(&[chosen.clone(), deleted(8)]));
        assert!(!passes(&[chosen.clone(), one_token(2)]));
        assert!(!deletion_passes(&deleted(7), &[deleted(7), chosen.clone()]));
        let confidence = assess(&Evidence {
            stages: 1,
            edits: 1,
            chosen: Some(&chosen),
            deletion: true,
            ..Evidence::default()
        });
        assert_eq!(confidence.level, Level::Plausible);
        assert_eq!(
            texts(&confidence, false),
            [
                "deleting the statement at its line, or keeping one of its blocks alone, passes every test too: the tests do not pin down what that statement does"
            ]
        );
    }

    #[test]
    fn a_one_token_fix_where_the_evidence_points_is_likely() {
        let chosen = one_token(1);
        let confidence = assess_one(&chosen);
        assert_eq!(confidence.level, Level::Likely);
        assert!(texts(&confidence, false).is_empty());
        assert_eq!(
            texts(&confidence, true),
            [
                "the passing tests that reach the edit execute the same lines as before",
                "a one-token change",
                "the edited line ranks first"
            ]
        );
    }

    #[test]
    fn a_line_in_the_top_ten_is_not_held_against_a_patch() {
        let confidence = assess_one(&one_token(8));
        assert_eq!(confidence.level, Level::Likely);
        assert!(!texts(&confidence, true).iter().any(|t| t.contains("ranks")));
    }

    #[test]
    fn each_sign_against_makes_it_only_plausible() {
        let far = one_token(12);
        let changed = measured(2, |m| m.behaviour_change = Some(3));
        let new_code = measured(2, |m| m.unnatural = 4);
        let longer = measured(2, |m| {
            m.unnatural = 2;
            m.growth = 5;
        });
        let unchecked = measured(1, |m| m.passing_reach = 0);
        let reclassed = measured(1, |m| m.reclassed = true);
        let identity = measured(1, |m| {
            m.identity = true;
            m.unnatural = 5;
        });
        let constant = measured(1, |m| m.constant_or_measure = true);
        let degenerate = measured(1, |m| {
            m.degenerate = Some(Degenerate::Decided {
                line: 9,
                earlier: 5,
            })
        });
        let removal = measured(1, |m| m.needless_removal = true);
        let made_up = measured(1, |m| m.made_up = true);
        let warning = ["src/lib.rs:7: comparison is useless due to type limits".to_string()];
        let near = one_token(2);
        let cases = [
            (
                Some(&far),
                0,
                &[][..],
                "the edited line ranks 12th: the evidence points elsewhere",
            ),
            (Some(&changed), 0, &[][..], "execute 3 lines differently"),
            (Some(&new_code), 0, &[][..], "it changes whole statements"),
            (
                Some(&near),
                2,
                &[][..],
                "2 other single edits at other lines also pass every test",
            ),
            (
                Some(&near),
                0,
                &warning[..],
                "it adds a compiler warning: src/lib.rs:7: comparison is useless",
            ),
            (Some(&longer), 0, &[][..], "a longer expression"),
            (
                Some(&unchecked),
                0,
                &[][..],
                "only the failing tests check the edit",
            ),
            (
                Some(&reclassed),
                0,
                &[][..],
                "a character literal one of another kind",
            ),
            (
                Some(&identity),
                0,
                &[][..],
                "an operation that changes nothing",
            ),
            (
                Some(&made_up),
                0,
                &[][..],
                "the failure hidden rather than told",
            ),
            (
                Some(&constant),
                0,
                &[][..],
                "the tests do not tell a constant from a measure",
            ),
            (
                Some(&degenerate),
                0,
                &[][..],
                "it makes code no one writes as a fix: the condition at line 9 repeats the one at line 5",
            ),
            (
                Some(&removal),
                0,
                &[][..],
                "the tests do not need it removed",
            ),
            (None, 0, &[][..], "the genetic search found it (2 edits)"),
        ];
        for (chosen, elsewhere, new_warnings, reason) in cases {
            let evidence = Evidence {
                stages: 1,
                edits: 2,
                chosen,
                elsewhere,
                new_warnings,
                rival_comparison: None,
                deletion: false,
            };
            let confidence = assess(&evidence);
            assert_eq!(confidence.level, Level::Plausible, "{reason}");
            let against = texts(&confidence, false);
            assert!(
                against.len() == 1 && against[0].contains(reason),
                "{against:?} for {reason}"
            );
        }
    }

    #[test]
    fn new_code_that_answers_the_crash_is_not_held_against_it() {
        let mut guard = measured(14, |m| {
            m.unnatural = 3;
            m.answers_crash = true;
            m.growth = 9;
        });
        guard.edits = vec![edit(12, Operator::Guard, 14)];
        let confidence = assess_one(&guard);
        assert_eq!(confidence.level, Level::Likely, "{confidence:?}");
        assert!(texts(&confidence, true)[0].contains("panicked"));
        // An overflow-safe form at an overflow counts as natural, but it is
        // not called a one-token change.
        let mut safe = measured(1, |m| {
            m.answers_crash = true;
            m.growth = 4;
        });
        safe.edits = vec![edit(12, Operator::Overflow, 1)];
        let supports = texts(&assess_one(&safe), true).join("; ");
        assert!(!supports.contains("one-token"), "{supports}");
    }
}
