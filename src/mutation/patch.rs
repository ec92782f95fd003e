//! Candidate patches: ordered lists of edits to the original sources.
//!
//! A candidate's source is the original text with its edits spliced in, so
//! the final diff touches only what the edits change. Edits never overlap:
//! adding an edit drops the older edits it overlaps.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use crate::code::source::{Edit, FileId, Location, splice, with_line_ends_of};
use crate::code::{Degenerate, Originals, made_degenerate, made_unread};

/// The mutation operators: their identity, which edits carry. What each
/// one does (where it applies, its edits, its name) is its row of the
/// table in `mutation::operators`. The order of the variants is the order
/// a random draw takes operators in: a new one goes last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// Delete a statement; of a compound statement, keep one of its blocks.
    Delete,
    /// Replace a statement by one from the crate (a compound one as its header with an empty body).
    Swap,
    /// Insert a statement from the crate after (or before a jump or a tail, around for a header).
    Insert,
    /// Replace, negate, or `&&`/`||`-combine a condition.
    Condition,
    /// Replace a comparison, arithmetic, logical or compound-assignment operator.
    Binary,
    /// Replace a literal by a neighbour or another literal of the crate.
    Value,
    /// Replace a variable by another variable in scope.
    Identifier,
    /// Replace a method by a sibling (`min`/`max`...) or another method of the crate.
    Method,
    /// Turn `a..b` into `a..=b` and back.
    Range,
    /// Swap two arguments of a call, the operands of `-`, `/`, `%`, `<<`, `>>`,
    /// or the receiver and argument of `cmp` and the like.
    Arguments,
    /// `e` to `e + 1` or `e - 1` (an index, a range bound, an argument, a
    /// compared or returned integer, a value given to a `let` or an
    /// assignment), and `e ± 1` back to `e`.
    Offset,
    /// Add a conjunct or disjunct to a condition, or replace it, with one
    /// built from the variables in scope (`n > 0`, `!v.is_empty()`).
    Synthesis,
    /// Insert `if COND { return VALUE; }` (or `break;`, `continue;`).
    Guard,
    /// Rust idioms: `a - b` to `a.saturating_sub(b)`, `.unwrap()` to
    /// `.unwrap_or_default()`, `for x in it` to `for x in it.rev()`.
    Idiom,
    /// Insert or swap in a statement from the crate with its variables
    /// renamed to same-typed variables in scope.
    Adapted,
    /// `a + b` to `a.saturating_add(b)`, `a.checked_add(b)?` and the like
    /// (also `-`, `*`, `<<` and their assignments).
    Overflow,
    /// `v[i]` to `v.get(i).copied().unwrap_or_default()` or `*v.get(i)?`.
    Bounds,
    /// Replace `break`, `continue` or `return` by another of them; make a
    /// lone `if` a guard that leaves, an `else if` an `if` of its own.
    Jump,
    /// Replace a field or a method with no arguments by another member of
    /// the receiver's type (`x.negated` to `x.is_negated()`).
    Member,
    /// Flip the inclusivity of two or more comparisons of a condition at
    /// once (both ends of a range check).
    Ends,
    /// Add a variant an or-pattern over one enum forgot, drop one, or
    /// replace one (`| ItemBody::Rule`); add to a pattern of literals one
    /// the crate's other patterns take beside its own (`| '\t'`).
    Variant,
    /// Insert first in a match arm's block a guard that another arm has
    /// first in its own, on what this arm's pattern binds.
    Twin,
    /// `e` to `e - v` or `e + v`, `v` a same-typed variable in scope.
    Term,
    /// Insert before a literal arm of a `match` a copy of it for another
    /// literal the match writes and no arm takes (a forgotten case).
    Arm,
    /// `buf` to `&buf[..len]` or `&buf[len..]`, a bound the function
    /// slices that variable with elsewhere (its filled part).
    Slice,
    /// An edit of the one-token and small-rewrite operators made again on
    /// the lines beside it that are written alike (`+ 1` dropped from
    /// both `min` and `max`).
    Parallel,
    /// Keep a place's value before a step (`self.t += self.step;`) and
    /// read it where the statements after the step read the place.
    Prior,
    /// After a statement that resets a field of `self`, set back a field
    /// the method leaves as it was to the constant its constructors give
    /// it (`self.weight = 0;`), or clear it.
    Reset,
    /// Where a function writes a statement or a `&&`/`||` operand for
    /// several fields of `self` of one type, write it for one or two of
    /// that type it never names (`&& !self.italic`, `self.italic = false;`).
    Fields,
    /// At the line that called a function whose assertion a failing test
    /// tripped, the asserted condition checked first, written in the
    /// call's terms (`!p.stack.is_empty()` for `pop`'s
    /// `debug_assert!(!self.is_empty())`).
    Precondition,
    /// Give the middle operand of two binary operators to the other one:
    /// `a && b || c` to `a && (b || c)`, `(a - b) * c` to `a - b * c`.
    Grouping,
    /// An operand given bare where its function writes it extended
    /// elsewhere: `ptr` to `ptr.offset(8)`, `m` to `m.max(2)`.
    Extend,
    /// Not an operator of the search: an edit of a patch given to
    /// `cargo autofix validate`.
    Given,
}

/// One edit of a candidate: a byte-range replacement in one crate file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PatchEdit {
    pub file: FileId,
    pub edit: Edit,
    /// The operator that made it.
    pub operator: Operator,
    /// The line (the location, in the coverage's sense) it was made at.
    pub line: u32,
}

impl PatchEdit {
    /// The location it was made at.
    pub fn location(&self) -> Location {
        Location::new(self.file, self.line)
    }

    fn position(&self) -> (FileId, usize, usize, &str) {
        (
            self.file,
            self.edit.range.start,
            self.edit.range.end,
            &self.edit.text,
        )
    }

    /// Whether the two claim the same bytes (see `ranges_overlap`).
    pub fn overlaps(&self, other: &PatchEdit) -> bool {
        self.file == other.file && ranges_overlap(&self.edit.range, &other.edit.range)
    }
}

/// Whether two edits claim the same bytes. Two insertions never do; an
/// insertion overlaps a replacement strictly around it.
fn ranges_overlap(a: &Range<usize>, b: &Range<usize>) -> bool {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => false,
        (true, false) => b.start < a.start && a.start < b.end,
        (false, true) => a.start < b.start && b.start < a.end,
        (false, false) => a.start < b.end && b.start < a.end,
    }
}

/// A candidate patch: edits in source order, none overlapping.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Candidate {
    edits: Vec<PatchEdit>,
}

impl Candidate {
    /// The unchanged program.
    pub fn original() -> Candidate {
        Candidate::default()
    }

    /// For tests: `text`'s last `needle` (in file 0) replaced by
    /// `replacement`, an edit of `operator` at `line`.
    #[cfg(test)]
    pub fn replacing(
        text: &str,
        needle: &str,
        replacement: &str,
        operator: Operator,
        line: u32,
    ) -> Candidate {
        let start = text.rfind(needle).expect("the needle is in the text");
        Candidate::original().with(PatchEdit {
            file: crate::code::source::FileId::new(0),
            edit: crate::code::source::Edit::replace(start..start + needle.len(), replacement),
            operator,
            line,
        })
    }

    /// A candidate of `edits`; of overlapping edits, the first one given wins.
    pub fn from_edits(edits: impl IntoIterator<Item = PatchEdit>) -> Candidate {
        let mut kept: Vec<PatchEdit> = Vec::new();
        for edit in edits {
            if !kept.iter().any(|k| k.overlaps(&edit)) && !kept.contains(&edit) {
                kept.push(edit);
            }
        }
        kept.sort_by(|a, b| a.position().cmp(&b.position()));
        Candidate { edits: kept }
    }

    pub fn edits(&self) -> &[PatchEdit] {
        &self.edits
    }

    pub fn len(&self) -> usize {
        self.edits.len()
    }

    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    /// How much text the edits replace and insert: among equally fit
    /// candidates with as many edits, the smaller change wins.
    pub fn size(&self) -> usize {
        self.edits
            .iter()
            .map(|e| e.edit.range.len() + e.edit.text.len())
            .sum()
    }

    /// This candidate plus `edit`, which replaces any edit it overlaps.
    pub fn with(&self, edit: PatchEdit) -> Candidate {
        Candidate::from_edits(std::iter::once(edit).chain(self.edits.iter().cloned()))
    }

    /// The candidate made of the edits at `indexes`.
    pub fn subset(&self, indexes: &[usize]) -> Candidate {
        Candidate::from_edits(indexes.iter().map(|&i| self.edits[i].clone()))
    }

    /// The new text of every file the candidate changes (the lines its
    /// edits write end as the file's do: `\r\n` in a file written so).
    pub fn texts(&self, originals: &Originals) -> BTreeMap<FileId, String> {
        let mut per_file: BTreeMap<FileId, Vec<Edit>> = BTreeMap::new();
        for edit in &self.edits {
            let text = with_line_ends_of(originals.text(edit.file), &edit.edit.text);
            per_file
                .entry(edit.file)
                .or_default()
                .push(Edit::replace(edit.edit.range.clone(), text));
        }
        per_file
            .into_iter()
            .map(|(file, edits)| {
                let text = splice(originals.text(file), &edits)
                    .expect("a candidate's edits never overlap");
                (file, text)
            })
            .collect()
    }

    /// The first code the candidate makes degenerate (a `match` whose arms
    /// all give one value, a condition decided already, an arm never
    /// reached), in the first file where it does.
    pub fn degenerate(&self, originals: &Originals) -> Option<Degenerate> {
        self.texts(originals)
            .iter()
            .find_map(|(file, text)| made_degenerate(originals.text(*file), text))
    }

    /// The first private field, as `Type::field`, whose last read the
    /// candidate takes away while the code still sets it (see
    /// [`made_unread`]).
    pub fn unread_field(&self, originals: &Originals) -> Option<String> {
        self.texts(originals)
            .iter()
            .find_map(|(file, text)| made_unread(originals.text(*file), text))
    }

    /// Every file of the crate by path, with the candidate's edits in place
    /// (the original crate for [`Candidate::original`]).
    pub fn files(&self, originals: &Originals) -> BTreeMap<PathBuf, String> {
        let mut changed = self.texts(originals);
        originals
            .iter()
            .map(|(file, path, text)| {
                let text = changed.remove(&file).unwrap_or_else(|| text.to_string());
                (path.to_path_buf(), text)
            })
            .collect()
    }

    /// Where crossover may cut: the positions of every edit of either parent.
    pub fn crossover_points(&self, other: &Candidate) -> Vec<(FileId, usize)> {
        let mut points: Vec<(FileId, usize)> = self
            .edits
            .iter()
            .chain(&other.edits)
            .map(|e| (e.file, e.edit.range.start))
            .collect();
        points.sort_unstable();
        points.dedup();
        points
    }
}

/// Single-point crossover in source order: the first child takes `a`'s
/// edits before `point` and `b`'s from it on, the second child the rest.
pub fn crossover(a: &Candidate, b: &Candidate, point: (FileId, usize)) -> (Candidate, Candidate) {
    let before = |e: &&PatchEdit| (e.file, e.edit.range.start) < point;
    let first = a
        .edits
        .iter()
        .filter(before)
        .chain(b.edits.iter().filter(|e| !before(e)));
    let second = b
        .edits
        .iter()
        .filter(before)
        .chain(a.edits.iter().filter(|e| !before(e)));
    (
        Candidate::from_edits(first.cloned()),
        Candidate::from_edits(second.cloned()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(file: usize, range: Range<usize>, text: &str) -> PatchEdit {
        PatchEdit {
            file: FileId::new(file),
            edit: Edit::replace(range, text),
            operator: Operator::Swap,
            line: 1,
        }
    }

    #[test]
    fn a_new_edit_replaces_the_edits_it_overlaps() {
        let candidate = Candidate::from_edits([edit(0, 0..4, "a"), edit(0, 10..12, "b")]);
        let next = candidate.with(edit(0, 2..6, "c"));
        let texts: Vec<&str> = next.edits().iter().map(|e| e.edit.text.as_str()).collect();
        assert_eq!(texts, ["c", "b"]);
        // Insertions at the edge of a replacement do not overlap it.
        let next = next.with(edit(0, 6..6, "d")).with(edit(0, 2..2, "e"));
        assert_eq!(next.len(), 4);
        // An insertion strictly inside a replacement does.
        assert_eq!(next.with(edit(0, 11..11, "f")).len(), 4);
    }

    #[test]
    fn texts_splice_only_changed_files() {
        let candidate = Candidate::from_edits([edit(0, 8..9, "3")]);
        let originals = Originals::new(vec![
            ("src/lib.rs".into(), "let a = 1;\nlet b = 2;\n".into()),
            ("src/other.rs".into(), "untouched\n".into()),
        ]);
        let texts = candidate.texts(&originals);
        assert_eq!(texts.len(), 1);
        assert_eq!(texts[&FileId::new(0)], "let a = 3;\nlet b = 2;\n");
    }

    #[test]
    fn crossover_cuts_both_parents_at_one_point_in_source_order() {
        let a = Candidate::from_edits([
            edit(0, 0..1, "a1"),
            edit(0, 10..11, "a2"),
            edit(1, 5..6, "a3"),
        ]);
        let b = Candidate::from_edits([edit(0, 3..4, "b1"), edit(1, 0..1, "b2")]);
        let (first, second) = crossover(&a, &b, (FileId::new(0), 10));
        let names = |c: &Candidate| {
            c.edits()
                .iter()
                .map(|e| e.edit.text.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&first), ["a1", "b2"]);
        assert_eq!(names(&second), ["b1", "a2", "a3"]);
        assert_eq!(
            a.crossover_points(&b),
            [(0, 0), (0, 3), (0, 10), (1, 0), (1, 5)].map(|(f, o)| (FileId::new(f), o))
        );
    }

    #[test]
    fn crossover_drops_overlaps_between_the_parents_halves() {
        let a = Candidate::from_edits([edit(0, 0..8, "long")]);
        let b = Candidate::from_edits([edit(0, 5..6, "inside")]);
        let (first, _) = crossover(&a, &b, (FileId::new(0), 5));
        assert_eq!(first.len(), 1);
        assert_eq!(first.edits()[0].edit.text, "long");
    }
}
