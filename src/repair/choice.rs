//! Choosing among plausible patches. A patch that passes every test may
//! still be wrong (it changes behaviour the tests do not check: `!= 1` for
//! `!= 0` passes while breaking every one-byte type). Patch-correctness
//! work on test-based repair finds the right patch among the plausible ones
//! by how little it disturbs what the originally passing tests do. A patch
//! that makes code degenerate (see [`Candidate::degenerate`]: a `match`
//! whose arms all give one value) comes after every other; one that
//! replaces a statement by code another inserts beside it (see
//! [`rivals`]: no test needs the removal) after every other but those.
//! Then each candidate's passing tests that reach its edit run again with
//! coverage on the patched crate (see [`behaviour_change`]), and the
//! candidate whose tests execute the lines they executed before, no more
//! and no fewer, wins; then one that leaves no line written like an
//! edited one as it was (see [`alike_left`]: the same slip on two lines
//! alike, fixed on one); then the edit the
//! failing tests' panic calls for at the line where they panicked (see
//! [`answers`]; given a crash only when its group is the only one); then
//! the more natural edit (a one-token slip before a rewrite, a
//! rewrite before new statements, and no identity arithmetic such as
//! `* 1`); then one that passing tests reach (an edit no passing test
//! executes changes nothing they run only because they never run it: the
//! failing tests alone check it); then the one that leaves the code
//! shorter; then the one whose edited lines read more like the code around
//! here (a token model of the crate's and its dependencies' sources, see
//! [`TokenModel`]); then the smaller edit (in tokens), then the one made
//! first (the likelier slip, see the operators). The behaviour is measured
//! for the first few in that static order, and only until one measured is
//! ahead of what any unmeasured one could reach by changing nothing (each
//! measure is an instrumented build).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::baseline::Baseline;
use crate::cargo::{TestId, dependency_sources};
use crate::code::source::{Edit, FileId};
use crate::code::{Degenerate, Originals, TokenModel};
use crate::evaluate::FitnessModel;
use crate::exit::{Result, halts};
use crate::localize::Crash;
use crate::mutation::Candidate;
use crate::repair::answer::{answers, crash_operands};
use crate::repair::behaviour::{Unsteady, behaviour_change, passing_reach, reaching};
use crate::repair::reading::{
    Masking, alike_left, contradicted, extent, masking, reclassed, unnatural, unrelated_condition,
    writes_identity,
};
use crate::repair::rivals;
use crate::repair::search::Scored;
use crate::repair::settings::Settings;
use crate::system::Budget;

/// Plausible candidates whose behaviour is measured, at most.
const MEASURED: usize = 4;

/// Surprises closer than this (in bits) tell patches nothing apart: `4`
/// may cost a bit less than `1` only because it is the commoner number,
/// and then the operator's own order (the likelier slip first) decides.
const SURPRISE_BAND: i64 = 8;

/// A patch's place by its measures, the first of their order first.
type Order = (
    bool,
    bool,
    usize,
    bool,
    bool,
    bool,
    usize,
    bool,
    i64,
    Option<usize>,
);

/// What was measured of a plausible patch: its place among the others,
/// and the confidence in it, are decided from these (the report carries
/// them as they are).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Measures {
    /// Lines the originally passing tests that reach the edit execute, or
    /// no longer execute, with the patch (summed over those tests); `None`
    /// (null) if not measured: past the first few, or one that could not
    /// come first even changing nothing.
    pub behaviour_change: Option<usize>,
    /// How unusual the edit is as a fix (0: a one-token slip).
    pub unnatural: usize,
    /// How many bits more the edited lines cost a token model of the
    /// crate's and its dependencies' sources than the original lines
    /// (negative: they read more usual); `None` (null) when there was one
    /// plausible patch, nothing to choose.
    #[serde(default)]
    pub surprise: Option<i64>,
    /// Where `surprise` puts the patch among the plausible ones, patches
    /// within [`SURPRISE_BAND`] bits of each other counted as one (not in
    /// the report: it means something only among these patches).
    #[serde(skip)]
    pub surprise_band: Option<usize>,
    /// At the line where the failing tests panicked, of the kind that
    /// panic calls for.
    #[serde(default)]
    pub answers_crash: bool,
    /// How many tokens longer it makes the code (negative: shorter).
    #[serde(default)]
    pub growth: i64,
    /// How many originally passing tests execute an edited line (0: only
    /// the failing tests check the edit).
    #[serde(default)]
    pub passing_reach: usize,
    /// It makes a character literal one of another kind (a digit a
    /// punctuation mark, `'1'..='9'` to `'+'..='9'`): an edit that fits
    /// the tests' inputs rather than a rule.
    #[serde(default)]
    pub reclassed: bool,
    /// Another plausible patch edits the same code, one writing a number
    /// where the other writes an expression of a variable (`3` and `4 -
    /// indent` for `4`): the tests do not tell a constant from a measure.
    #[serde(default)]
    pub constant_or_measure: bool,
    /// Code it makes degenerate, which no one writes as a fix (a `match`
    /// whose arms all give one value, a condition an earlier one decided,
    /// an arm never reached): such a patch comes after every other.
    #[serde(default)]
    pub degenerate: Option<Degenerate>,
    /// It replaces a statement by one that another plausible patch inserts
    /// at the same place, keeping the replaced one: the removal is not
    /// needed to pass, and the tests do not check it. Such a patch comes
    /// after every other but the degenerate ones.
    #[serde(default)]
    pub needless_removal: bool,
    /// It replaces the method a statement calls where another plausible
    /// patch deletes that statement: no test needs the new call's effect.
    /// Such a patch comes with the needless removals.
    #[serde(default)]
    pub needless_call: bool,
    /// It makes a failing unwrap give a value of its own making
    /// (`unwrap_or_default()`) where another plausible patch leaves the
    /// function at the same code (`?`, `None => return self.error(..)`):
    /// the failure hidden rather than told. Such a patch comes after those
    /// that change the passing tests' behaviour as little.
    #[serde(default)]
    pub made_up: bool,
    /// It writes an operation that changes nothing (`x * 1`, `x + 0`, a
    /// slice from 0 to the end `s[0..]`), which no one writes.
    #[serde(default)]
    pub identity: bool,
    /// A line written like an edited one in its function, left as it was
    /// though it has what the edit replaced (see [`alike_left`]): half a
    /// fix, if one at all. Such a patch comes after one that changes both.
    #[serde(default)]
    pub alike_left: Option<u32>,
    /// The line of the message beside an edited number that writes the
    /// number it replaces (see [`contradicted`]): code made to disagree with what it
    /// says. Such a patch comes with those that leave a line alike.
    #[serde(default)]
    pub contradicted: Option<u32>,
    /// It replaces a condition of two variables or more by one that reads
    /// none of them (see [`unrelated_condition`]): the check is gone.
    #[serde(default)]
    pub unrelated_condition: bool,
    /// The private field, as `Type::field`, whose last read it takes away
    /// while the code still sets it (`if self.eos` made `if
    /// buf.is_empty()`): the check the field was kept for is gone. Such a
    /// patch comes with those that leave a line alike.
    #[serde(default)]
    pub unread_field: Option<String>,
    /// How its overflow-safe edit hides the fault rather than fixes it (see
    /// [`masking`]). Such a patch comes with those that leave a line alike.
    #[serde(default)]
    pub masking: Option<Masking>,
}

/// A plausible candidate with what was measured about it.
#[derive(Debug, Clone)]
pub struct Alternative {
    pub scored: Scored,
    pub measures: Measures,
    /// Tokens written and replaced (the smaller edit wins a tie).
    size: usize,
}

/// The plausible candidates, best first (see the module's doc). Those after
/// the first [`MEASURED`], or once `deadline` has passed, are not measured;
/// the end of `budget` stops the measuring too.
pub fn rank_plausible(
    plausible: &[Scored],
    baseline: &Baseline,
    model: &FitnessModel,
    crash: Option<&Crash>,
    settings: &Settings,
    deadline: Option<Instant>,
    budget: Budget,
) -> Result<Vec<Alternative>> {
    let originals = baseline.sources.originals();
    let operands = crash_operands(crash, &baseline.sources);
    let mut alternatives: Vec<Alternative> = plausible
        .iter()
        .zip(rivals::of(plausible))
        .map(|(scored, told)| {
            let answers_crash = answers(&scored.candidate, crash, &operands);
            let (growth, size) = extent(&scored.candidate, &originals);
            Alternative {
                measures: Measures {
                    behaviour_change: None,
                    unnatural: unnatural(&scored.candidate, &originals)
                        .saturating_sub(usize::from(answers_crash)),
                    surprise: None,
                    surprise_band: None,
                    answers_crash,
                    growth,
                    passing_reach: passing_reach(&scored.candidate, baseline, model),
                    reclassed: reclassed(&scored.candidate, &originals),
                    constant_or_measure: told.constant_or_measure,
                    degenerate: scored.candidate.degenerate(&originals),
                    needless_removal: told.needless_removal,
                    needless_call: told.needless_call,
                    made_up: told.made_up,
                    identity: writes_identity(&scored.candidate, &originals),
                    alike_left: alike_left(&scored.candidate, &originals),
                    contradicted: contradicted(&scored.candidate, &originals),
                    unrelated_condition: unrelated_condition(&scored.candidate, &originals),
                    unread_field: scored.candidate.unread_field(&originals),
                    masking: masking(&scored.candidate, &originals),
                },
                size,
                scored: scored.clone(),
            }
        })
        .collect();
    if alternatives.len() > 1 {
        let own = originals.iter().map(|(_, _, text)| text);
        let model = TokenModel::of_crate(own, &dependency_sources(&baseline.workspace));
        for alternative in &mut alternatives {
            alternative.measures.surprise =
                Some(surprise(&alternative.scored.candidate, &originals, &model));
        }
        let surprises: Vec<Option<i64>> =
            alternatives.iter().map(|a| a.measures.surprise).collect();
        for (alternative, band) in alternatives.iter_mut().zip(bands(&surprises)) {
            alternative.measures.surprise_band = band;
        }
    }
    let static_key = |a: &Alternative| {
        (
            a.measures.degenerate.is_some(),
            a.measures.needless_removal || a.measures.needless_call,
            a.measures.made_up,
            a.measures.half_a_fix(),
            !a.measures.answers_crash,
            a.measures.unnatural,
            a.measures.growth,
            a.measures.surprise_band,
            a.size,
        )
    };
    alternatives.sort_by_key(static_key);
    let past = || deadline.is_some_and(|d| Instant::now() >= d);
    // A lone patch is not measured: the measure (an instrumented build and
    // three runs of the reaching tests) cost validation its time, and the
    // right patch of an injected slip often changes what passing tests run.
    if alternatives.len() > 1 && !past() {
        // The tests any measured one may run, run twice more on the
        // original first: those that run other lines anyway are not
        // counted.
        let reached: BTreeSet<TestId> = alternatives
            .iter()
            .take(MEASURED)
            .flat_map(|a| reaching(&a.scored.candidate, baseline, model))
            .map(|r| r.test)
            .collect();
        // Stopped (a halt): the measured ones and the rest in static order.
        let unsteady = halts(Unsteady::measure(reached, baseline, settings, budget))?;
        if let Ok(unsteady) = unsteady {
            let mut halted = false;
            measure_until_decided(&mut alternatives, |scored| {
                if halted || past() {
                    return Ok(None);
                }
                let measured = halts(behaviour_change(
                    scored, baseline, &originals, &unsteady, model, settings, budget,
                ))?;
                halted = measured.is_err();
                Ok(measured.ok().flatten())
            })?;
        }
    }
    alternatives.sort_by_key(|a| (a.measures.order(), a.size));
    Ok(alternatives)
}

/// Measures the behaviour change of the first [`MEASURED`] of
/// `alternatives` (in their order) with `measure` (`None`: not measured,
/// for one it cannot measure and, once stopped, for every one),
/// leaving out those that could not come first even if they changed
/// nothing: once a measured one is ahead of every unmeasured one's best
/// case, the choice is made (each measure is an instrumented build and a
/// run of the passing tests).
fn measure_until_decided(
    alternatives: &mut [Alternative],
    mut measure: impl FnMut(&Scored) -> Result<Option<usize>>,
) -> Result<()> {
    let mut best: Option<(Order, usize)> = None;
    for alternative in alternatives.iter_mut().take(MEASURED) {
        let floor = (alternative.measures.floor(), alternative.size);
        // A tie is measured: it is then the only measure telling the
        // two apart, and the alternatives listed say so.
        if best.is_some_and(|best| best < floor) {
            continue;
        }
        let Some(change) = measure(&alternative.scored)? else {
            continue;
        };
        alternative.measures.behaviour_change = Some(change);
        let key = (alternative.measures.order(), alternative.size);
        best = Some(best.map_or(key, |best| best.min(key)));
    }
    Ok(())
}

impl Measures {
    /// Whether the patch reads as half a fix: a line written like an
    /// edited one left as it was, a number changed that its message still
    /// writes, a field still set that nothing reads any more, or an
    /// overflow hidden rather than fixed.
    fn half_a_fix(&self) -> bool {
        self.alike_left.is_some()
            || self.contradicted.is_some()
            || self.unread_field.is_some()
            || self.masking.is_some()
    }

    /// Where these measures put a patch among the plausible ones, the
    /// first of their order (after it, the smaller edit, then the one made
    /// first).
    fn order(&self) -> Order {
        self.order_with(self.behaviour_change.unwrap_or(usize::MAX))
    }

    /// The best [`order`](Self::order) these measures can have: the
    /// behaviour change, when not measured, taken as none.
    fn floor(&self) -> Order {
        self.order_with(self.behaviour_change.unwrap_or(0))
    }

    fn order_with(&self, change: usize) -> Order {
        (
            self.degenerate.is_some(),
            self.needless_removal || self.needless_call,
            change,
            self.made_up,
            self.half_a_fix(),
            !self.answers_crash,
            self.unnatural,
            self.passing_reach == 0,
            self.growth,
            self.surprise_band,
        )
    }

    /// Why a patch with these measures comes after one with `chosen`'s:
    /// the first measure of the order that tells them apart.
    pub fn behind(&self, chosen: &Measures) -> String {
        let theirs = chosen.order();
        // Not measured because even no change would not put it first: the
        // rest of the order says why.
        let mine = match self.floor() {
            floor if self.behaviour_change.is_none() && floor > theirs => floor,
            _ => self.order(),
        };
        if let (Some(degenerate), false) = (self.degenerate, theirs.0) {
            return degenerate.describe();
        }
        if mine.1 != theirs.1 {
            return "it replaces a statement that the patch inserting the same code beside it keeps"
                .to_string();
        }
        if mine.2 != theirs.2 {
            return match self.behaviour_change {
                None => "its effect on the passing tests was not measured".to_string(),
                Some(lines) => format!(
                    "the passing tests that reach it execute {lines} line{} differently",
                    if lines == 1 { "" } else { "s" }
                ),
            };
        }
        if mine.3 != theirs.3 {
            return "it makes a value up where another patch leaves the function by its error path"
                .to_string();
        }
        if mine.4 != theirs.4 {
            return match self.alike_left {
                Some(line) => {
                    format!("it leaves line {line}, written like the edited one, as it was")
                }
                None => {
                    "it changes one of two lines written alike where another patch changes both"
                        .to_string()
                }
            };
        }
        if mine.5 != theirs.5 {
            return "it is not the edit the failing tests' panic calls for, at the line where they panicked (for an assertion, at the call that broke it)".to_string();
        }
        if mine.6 != theirs.6 {
            return "a less usual kind of edit".to_string();
        }
        if mine.7 != theirs.7 {
            return "no test that passed before executes its line".to_string();
        }
        if mine.8 != theirs.8 {
            return "it writes more code".to_string();
        }
        if mine.9 != theirs.9 {
            return format!(
                "its lines read less like the code around here ({} bits more surprising to a token model of the crate and its dependencies)",
                self.surprise.unwrap_or(0) - chosen.surprise.unwrap_or(0)
            );
        }
        "as good by every measure: a larger edit, or tried later".to_string()
    }
}

/// The band of each surprise: the least surprising starts the first
/// band, and each band takes in what is within [`SURPRISE_BAND`] bits of
/// its first.
fn bands(surprises: &[Option<i64>]) -> Vec<Option<usize>> {
    let mut sorted: Vec<i64> = surprises.iter().flatten().copied().collect();
    sorted.sort_unstable();
    let mut starts: Vec<i64> = Vec::new();
    for s in sorted {
        if starts
            .last()
            .is_none_or(|&start| s - start >= SURPRISE_BAND)
        {
            starts.push(s);
        }
    }
    surprises
        .iter()
        .map(|s| s.map(|s| starts.partition_point(|&start| start <= s) - 1))
        .collect()
}

/// How many bits more surprising the candidate's edited lines read to
/// `model` than the original lines, rounded.
fn surprise(candidate: &Candidate, originals: &Originals, model: &TokenModel) -> i64 {
    let mut by_file: BTreeMap<FileId, Vec<Edit>> = BTreeMap::new();
    for e in candidate.edits() {
        by_file.entry(e.file).or_default().push(e.edit.clone());
    }
    let bits: f64 = by_file
        .iter()
        .map(|(&file, edits)| model.surprise(originals.text(file), edits))
        .sum();
    bits.round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::CandidateOutcome;
    use crate::mutation::Operator;

    fn candidate(text: &str, needle: &str, replacement: &str, operator: Operator) -> Candidate {
        Candidate::replacing(text, needle, replacement, operator, 1)
    }

    #[test]
    fn surprises_a_few_bits_apart_share_a_band() {
        // ropey: `1`, `2`, `4` and `32` for `0` cost 3 and 4 bits: one band,
        // the operator's order decides; wildmatch: 40 and 52 bits apart.
        assert_eq!(
            bands(&[Some(4), Some(3), Some(4), Some(10), Some(11), None]),
            [Some(0), Some(0), Some(0), Some(0), Some(1), None]
        );
        assert_eq!(bands(&[Some(52), Some(40)]), [Some(1), Some(0)]);
        assert_eq!(
            bands(&[Some(-23), Some(48), Some(76)]),
            [Some(0), Some(1), Some(2)]
        );
    }

    #[test]
    fn measuring_stops_once_no_unmeasured_patch_can_come_first() {
        let text = "fn f(n: usize) -> bool {\n    n > 0\n}\n";
        // Static order: two slips, then a rewrite that could not beat a
        // slip which changes nothing.
        let alternative = |replacement: &str, unnatural: usize, size: usize| Alternative {
            scored: Scored {
                candidate: candidate(text, "n > 0", replacement, Operator::Binary),
                outcome: CandidateOutcome::Tested(Vec::new()),
                fitness: 0.0,
            },
            measures: Measures {
                behaviour_change: None,
                unnatural,
                surprise: None,
                surprise_band: None,
                answers_crash: false,
                growth: 0,
                passing_reach: 1,
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
            size,
        };
        let run = |changes: &[usize]| {
            let mut alternatives = vec![
                alternative("n >= 0", 0, 1),
                alternative("n != 0", 0, 1),
                alternative("n > 0 && n < 9", 2, 4),
            ];
            let mut measured = Vec::new();
            measure_until_decided(&mut alternatives, |scored| {
                let i = measured.len();
                measured.push(scored.candidate.edits()[0].edit.text.clone());
                Ok(Some(changes[i]))
            })
            .unwrap();
            let found: Vec<Option<usize>> = alternatives
                .iter()
                .map(|a| a.measures.behaviour_change)
                .collect();
            (measured, found)
        };
        // The first changes nothing: the second, alike, is measured (only
        // the behaviour can tell the two apart); the third is a less usual
        // edit and could not come first: two builds, not three.
        let (measured, found) = run(&[0, 0]);
        assert_eq!(measured, ["n >= 0", "n != 0"]);
        assert_eq!(found, [Some(0), Some(0), None]);
        let (measured, found) = run(&[3, 0]);
        assert_eq!(measured, ["n >= 0", "n != 0"]);
        assert_eq!(found, [Some(3), Some(0), None]);
        // Both slips change lines: the rewrite might change fewer.
        let (measured, _) = run(&[3, 2, 1]);
        assert_eq!(measured.len(), 3);
        // The one left out says why it is behind, not "not measured".
        let mut alternatives = vec![
            alternative("n >= 0", 0, 1),
            alternative("n > 0 && n < 9", 2, 4),
        ];
        measure_until_decided(&mut alternatives, |_| Ok(Some(0))).unwrap();
        let reason = alternatives[1].measures.behind(&alternatives[0].measures);
        assert_eq!(reason, "a less usual kind of edit");
        // Stopped (time, a halt): nothing more is measured.
        let mut alternatives = vec![alternative("n >= 0", 0, 1), alternative("n != 0", 0, 1)];
        measure_until_decided(&mut alternatives, |_| Ok(None)).unwrap();
        assert!(
            alternatives
                .iter()
                .all(|a| a.measures.behaviour_change.is_none())
        );
    }

    #[test]
    fn behind_names_the_first_measure_that_tells_two_patches_apart() {
        let chosen = Measures {
            behaviour_change: Some(0),
            unnatural: 0,
            surprise: Some(0),
            surprise_band: Some(0),
            answers_crash: false,
            growth: 0,
            passing_reach: 2,
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
        };
        let with = |change: fn(&mut Measures)| {
            let mut other = chosen.clone();
            change(&mut other);
            other.behind(&chosen)
        };
        assert!(with(|m| m.behaviour_change = Some(3)).contains("execute 3 lines differently"));
        assert!(with(|m| m.behaviour_change = None).contains("not measured"));
        assert_eq!(with(|m| m.unnatural = 2), "a less usual kind of edit");
        let far = with(|m| {
            m.surprise = Some(9);
            m.surprise_band = Some(1);
        });
        assert!(far.contains("9 bits more surprising"), "{far}");
        assert!(with(|m| m.passing_reach = 0).contains("no test that passed before"));
        assert_eq!(with(|m| m.growth = 2), "it writes more code");
        assert!(with(|_| {}).starts_with("as good by every measure"));
        // Code made degenerate comes before every other measure.
        let degenerate = with(|m| {
            m.degenerate = Some(Degenerate::SameValue { line: 4 });
            m.behaviour_change = Some(0);
        });
        assert!(
            degenerate.contains("at line 4 now gives the same value"),
            "{degenerate}"
        );
        // A needless removal comes right after code made degenerate.
        let removal = with(|m| {
            m.needless_removal = true;
            m.behaviour_change = Some(0);
            m.unnatural = 0;
        });
        assert!(
            removal.contains("inserting the same code beside it"),
            "{removal}"
        );
        // The order's first measure decides, not a later one.
        let both = with(|m| {
            m.behaviour_change = Some(1);
            m.unnatural = 4;
        });
        assert!(both.contains("execute 1 line differently"), "{both}");
        // A value made up comes after a patch that leaves, before the
        // crash's answer and the rest.
        let made_up = with(|m| {
            m.made_up = true;
            m.unnatural = 0;
        });
        assert!(
            made_up.contains("leaves the function by its error path"),
            "{made_up}"
        );
    }
}
