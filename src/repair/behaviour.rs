//! What a patch changes in what the originally passing tests do: which of
//! them reach its lines, and the lines they execute with the patch that
//! they did not before, or no longer execute (an instrumented build of the
//! patched crate and a run of those tests, lines mapped back to the
//! original's). Patch-correctness work on test-based repair finds the right
//! patch among plausible ones by how little it disturbs this.

use std::collections::{BTreeMap, BTreeSet};

use crate::baseline::Baseline;
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

/// How many originally passing tests execute a line `candidate` edits.
pub fn passing_reach(candidate: &Candidate, baseline: &Baseline, model: &FitnessModel) -> usize {
    let edited = edited(candidate);
    baseline
        .records
        .iter()
        .filter(|r| model.originally_passing.contains(&r.test) && reaches(&r.lines, &edited))
        .count()
}

/// How much `scored` changes the lines the originally passing tests that
/// reach its edits execute.
pub fn behaviour_change(
    scored: &Scored,
    baseline: &Baseline,
    originals: &Originals,
    model: &FitnessModel,
    settings: &Settings,
    budget: Budget,
) -> Result<usize> {
    let edited = edited(&scored.candidate);
    let before: BTreeMap<TestId, &BTreeSet<Location>> = baseline
        .records
        .iter()
        .filter(|r| model.originally_passing.contains(&r.test))
        .filter(|r| reaches(&r.lines, &edited))
        .map(|r| (r.test, &r.lines))
        .collect();
    if before.is_empty() {
        return Ok(0);
    }
    let files = scored.candidate.files(originals);
    let tests = before.keys().copied();
    let patched = settings
        .evaluation
        .coverage(baseline, tests, &files, budget)?;
    let shifts = line_shifts(&scored.candidate, originals);
    let mut change = 0;
    for record in &patched.records {
        let name = &patched.suite.get(record.test).full_name;
        let Some(test) = baseline.suite.find(name) else {
            continue;
        };
        let Some(lines) = before.get(&test) else {
            continue;
        };
        let after: BTreeSet<Location> = record
            .lines
            .iter()
            .map(|&l| original_location(l, &shifts))
            .collect();
        change += lines.symmetric_difference(&after).count();
    }
    Ok(change)
}

/// Where an edit changes the number of lines: the original line it starts
/// on, how many lines it adds (negative: removes), and whether it starts at
/// the beginning of that line.
type Shift = (u32, i64, bool);

/// Per file, the candidate's edits that change the number of lines, in order.
fn line_shifts(candidate: &Candidate, originals: &Originals) -> BTreeMap<FileId, Vec<Shift>> {
    let mut shifts: BTreeMap<FileId, Vec<Shift>> = BTreeMap::new();
    for edit in candidate.edits() {
        let text = originals.text(edit.file);
        let removed = text[edit.edit.range.clone()].matches('\n').count() as i64;
        let added = edit.edit.text.matches('\n').count() as i64;
        if added != removed {
            let before = &text[..edit.edit.range.start];
            let line = before.matches('\n').count() as u32 + 1;
            let at_line_start = before.is_empty() || before.ends_with('\n');
            shifts
                .entry(edit.file)
                .or_default()
                .push((line, added - removed, at_line_start));
        }
    }
    shifts
}

/// The original location of a location in the patched crate: lines below an
/// edit that added lines move back, the added lines to the edit's start;
/// lines below an edit that removed lines move down.
fn original_location(patched: Location, shifts: &BTreeMap<FileId, Vec<Shift>>) -> Location {
    let mut line = i64::from(patched.line);
    // How far earlier edits moved the lines (in patched lines).
    let mut moved = 0;
    for &(at, delta, at_line_start) in shifts.get(&patched.file).into_iter().flatten() {
        let start = i64::from(at) + moved;
        if delta > 0 {
            if line > start + delta {
                line -= delta;
            } else if line > start {
                line = start;
            }
        } else {
            let first_after = if at_line_start { start } else { start + 1 };
            if line >= first_after {
                line -= delta;
            }
        }
        moved += delta;
    }
    Location::new(patched.file, line.max(1) as u32)
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
    }
}
