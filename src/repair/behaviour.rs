//! What a patch changes in what the originally passing tests do: which of
//! them reach its lines, and the lines they execute with the patch that
//! they did not before, or no longer execute (an instrumented build of the
//! patched crate and a run of those tests, lines mapped back to the
//! original's). Patch-correctness work on test-based repair finds the right
//! patch among plausible ones by how little it disturbs this.

use std::collections::{BTreeMap, BTreeSet};

use crate::baseline::{Baseline, TestRecord};
use crate::cargo::TestId;
use crate::code::Originals;
use crate::code::source::{FileId, Location, reaches};
use crate::evaluate::FitnessModel;
use crate::exit::Result;
use crate::mutation::Candidate;
use crate::repair::search::Scored;
use crate::repair::settings::Settings;
use crate::system::Budget;

/// The lines `candidate` edits.
fn edited(candidate: &Candidate) -> BTreeSet<Location> {
    candidate.edits().iter().map(|e| e.location()).collect()
}

/// The originally passing tests that execute a line `candidate` edits.
pub fn reaching<'a>(
    candidate: &Candidate,
    baseline: &'a Baseline,
    model: &'a FitnessModel,
) -> impl Iterator<Item = &'a TestRecord> {
    let edited = edited(candidate);
    baseline
        .records
        .iter()
        .filter(move |r| model.originally_passing.contains(&r.test) && reaches(&r.lines, &edited))
}

/// How many originally passing tests execute a line `candidate` edits.
pub fn passing_reach(candidate: &Candidate, baseline: &Baseline, model: &FitnessModel) -> usize {
    reaching(candidate, baseline, model).count()
}

/// The runs of the original that look for [`Unsteady`] tests: a
/// randomized test may run the same lines twice by chance (a property
/// test of `unicode-segmentation` did in one run of three), rarely three
/// times.
const RERUNS: usize = 2;

/// The tests that execute other lines in a later run of the original than
/// in the baseline's (a randomized test, a hash map's order, the clock):
/// what they do with a patch cannot be told from their own variation, so
/// they are left out of its measure.
#[derive(Debug, Default)]
pub struct Unsteady(BTreeSet<TestId>);

impl Unsteady {
    /// Runs `tests` on the original [`RERUNS`] times more (nothing kept
    /// between runs is read) and compares what they execute with the
    /// baseline.
    pub fn measure(
        tests: BTreeSet<TestId>,
        baseline: &Baseline,
        settings: &Settings,
        budget: Budget,
    ) -> Result<Unsteady> {
        let evaluation = crate::evaluate::Settings {
            cache: false,
            ..settings.evaluation.clone()
        };
        let first: BTreeMap<TestId, &BTreeSet<Location>> = baseline
            .records
            .iter()
            .map(|r| (r.test, &r.lines))
            .collect();
        let mut unsteady = BTreeSet::new();
        for _ in 0..RERUNS {
            let steady = tests.difference(&unsteady).copied().collect::<Vec<_>>();
            if steady.is_empty() {
                break;
            }
            let again = evaluation.coverage(baseline, steady, &BTreeMap::new(), budget)?;
            unsteady.extend(
                in_baseline(&again, baseline)
                    .filter(|(test, lines)| first.get(test).is_some_and(|first| first != lines))
                    .map(|(test, _)| test),
            );
        }
        Ok(Unsteady(unsteady))
    }
}

/// How much `scored` changes the lines the originally passing tests that
/// reach its edits execute, those `unsteady` left out (none reaching
/// them: 0); `None` when every one that does is unsteady.
pub fn behaviour_change(
    scored: &Scored,
    baseline: &Baseline,
    originals: &Originals,
    unsteady: &Unsteady,
    model: &FitnessModel,
    settings: &Settings,
    budget: Budget,
) -> Result<Option<usize>> {
    let reached: Vec<&TestRecord> = reaching(&scored.candidate, baseline, model).collect();
    let before: BTreeMap<TestId, &BTreeSet<Location>> = reached
        .iter()
        .filter(|r| !unsteady.0.contains(&r.test))
        .map(|r| (r.test, &r.lines))
        .collect();
    if before.is_empty() {
        return Ok(reached.is_empty().then_some(0));
    }
    let files = scored.candidate.files(originals);
    let tests = before.keys().copied();
    let patched = settings
        .evaluation
        .coverage(baseline, tests, &files, budget)?;
    let shifts = line_shifts(&scored.candidate, originals);
    let mut change = 0;
    for (test, after) in in_baseline(&patched, baseline) {
        let Some(lines) = before.get(&test) else {
            continue;
        };
        let after: BTreeSet<Location> = after
            .iter()
            .map(|&l| original_location(l, &shifts))
            .collect();
        change += lines.symmetric_difference(&after).count();
    }
    Ok(Some(change))
}

/// The tests of `measured` (a remeasure of `baseline`'s) as `baseline`
/// names them, with the lines they executed.
fn in_baseline<'a>(
    measured: &'a Baseline,
    baseline: &'a Baseline,
) -> impl Iterator<Item = (TestId, &'a BTreeSet<Location>)> {
    measured.records.iter().filter_map(|record| {
        let name = &measured.suite.get(record.test).full_name;
        Some((baseline.suite.find(name)?, &record.lines))
    })
}

/// Where an edit changes the number of lines: the original line it starts
/// on, how many lines it adds (negative: removes), and, for each line of
/// the patched text it spans (from its first), the original line it stands
/// for, as an offset from the edit's first: lines the same but for their
/// indentation are the same line (`if !c { a; b; }` made `if c { continue;
/// } a; b;` keeps `a` and `b`), the rest stand for the edit's first.
struct Shift {
    line: u32,
    delta: i64,
    lines: Vec<u32>,
}

/// Per file, the candidate's edits that change the number of lines, in
/// order (a candidate keeps its edits in order).
fn line_shifts(candidate: &Candidate, originals: &Originals) -> BTreeMap<FileId, Vec<Shift>> {
    let mut shifts: BTreeMap<FileId, Vec<Shift>> = BTreeMap::new();
    for edit in candidate.edits() {
        let text = originals.text(edit.file);
        let old: Vec<&str> = text[edit.edit.range.clone()]
            .split('\n')
            .map(str::trim)
            .collect();
        let new: Vec<&str> = edit.edit.text.split('\n').map(str::trim).collect();
        if old.len() == new.len() {
            continue;
        }
        let mut lines = vec![0; new.len()];
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
            if let similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } = op
            {
                for k in 0..len {
                    lines[new_index + k] = (old_index + k) as u32;
                }
            }
        }
        let line = text[..edit.edit.range.start].matches('\n').count() as u32 + 1;
        let delta = new.len() as i64 - old.len() as i64;
        shifts
            .entry(edit.file)
            .or_default()
            .push(Shift { line, delta, lines });
    }
    shifts
}

/// The original location of a location in the patched crate: a line an
/// edit spans is the original line it stands for (see [`Shift`]); lines
/// below an edit move back by the lines it added (down by those it
/// removed).
fn original_location(patched: Location, shifts: &BTreeMap<FileId, Vec<Shift>>) -> Location {
    let line = i64::from(patched.line);
    // How far earlier edits moved the lines (in patched lines).
    let mut moved = 0;
    for shift in shifts.get(&patched.file).into_iter().flatten() {
        let start = i64::from(shift.line) + moved;
        if line < start {
            break;
        }
        if let Some(&offset) = shift.lines.get((line - start) as usize) {
            return Location::new(patched.file, shift.line + offset);
        }
        moved += shift.delta;
    }
    Location::new(patched.file, (line - moved).max(1) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutation::Operator;

    fn candidate(text: &str, needle: &str, replacement: &str, operator: Operator) -> Candidate {
        Candidate::replacing(text, needle, replacement, operator, 1)
    }

    #[test]
    fn patched_lines_map_back_to_the_original() {
        let text = "a\nb\nc\nd\n";
        let o = Originals::new(vec![("src/lib.rs".into(), text.to_string())]);
        // Two lines inserted after line 2: patched 5 is original 3.
        let inserted = candidate(text, "c", "x\ny\nc", Operator::Insert);
        let shifts = line_shifts(&inserted, &o);
        let at = |line| Location::new(FileId::new(0), line);
        assert_eq!(original_location(at(2), &shifts), at(2));
        assert_eq!(original_location(at(4), &shifts), at(3));
        assert_eq!(original_location(at(6), &shifts), at(4));
        // A deleted line: patched 3 is original 4.
        let deleted = candidate(text, "c\n", "", Operator::Delete);
        let shifts = line_shifts(&deleted, &o);
        assert_eq!(original_location(at(3), &shifts), at(4));
        assert_eq!(original_location(at(2), &shifts), at(2));
        // A block's closing line removed, its lines kept: each is itself.
        let text = "fn f() {\n    if !c {\n        a();\n        b();\n    }\n    d();\n}\n";
        let o = Originals::new(vec![("src/lib.rs".into(), text.to_string())]);
        let guarded = candidate(
            text,
            "if !c {\n        a();\n        b();\n    }",
            "if c { return; }\n    a();\n    b();",
            Operator::Jump,
        );
        let shifts = line_shifts(&guarded, &o);
        for (patched, original) in [(2, 2), (3, 3), (4, 4), (5, 6), (6, 7)] {
            assert_eq!(original_location(at(patched), &shifts), at(original));
        }
        // Two insertions: a line between them and one after both.
        let text = "a\nb\nc\nd\ne\n";
        let o = Originals::new(vec![("src/lib.rs".into(), text.to_string())]);
        let twice = candidate(text, "b", "x\nb", Operator::Insert)
            .with(candidate(text, "d", "y\nd", Operator::Insert).edits()[0].clone());
        let shifts = line_shifts(&twice, &o);
        for (patched, original) in [(1, 1), (2, 2), (3, 2), (4, 3), (5, 4), (6, 4), (7, 5)] {
            assert_eq!(
                original_location(at(patched), &shifts),
                at(original),
                "{patched}"
            );
        }
    }
}
