//! How a plausible patch reads as a fix, from its text and the original's
//! alone: how much it writes, how unusual a kind of edit it is, whether it
//! writes an operation that changes nothing, a character of another kind, a
//! bare number, whether it leaves a line written like the edited one as it
//! was (see [`alike_left`]), and whether it changes a number that the
//! message beside it writes (see [`contradicted`]), and whether it puts an
//! unrelated check in place of one (see [`unrelated_condition`]). The
//! choice among plausible patches
//! ([`super::choice`]) orders them by these, among its other measures.

use std::collections::BTreeSet;
use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::code::source::Edit;
use crate::code::{
    Originals, changes_nothing, free_variables, function_around, lexed, line_at, line_of,
    lines_alike, occurrences, same_place,
};
use crate::mutation::{Candidate, Operator, PatchEdit};

/// How much longer the candidate makes the code (negative: shorter), and
/// how much it writes and replaces, in tokens: `!=` for `==` is no longer
/// than `>`.
pub(super) fn extent(candidate: &Candidate, originals: &Originals) -> (i64, usize) {
    let mut growth = 0;
    let mut size = 0;
    for e in candidate.edits() {
        let written = tokens(&e.edit.text);
        let replaced = tokens(&originals.text(e.file)[e.edit.range.clone()]);
        growth += written as i64 - replaced as i64;
        size += written + replaced;
    }
    (growth, size)
}

/// The tokens of `text`, a multi-character operator one token, and a path
/// one token too (`ItemBody::Rule`, `u32::MAX` name one thing); the words
/// of text that does not lex.
fn tokens(text: &str) -> usize {
    fn count(stream: proc_macro2::TokenStream) -> usize {
        use proc_macro2::{Spacing, TokenTree};
        let mut total = 0;
        // The `::` just read, and the segment after it: part of a path.
        let mut in_path = false;
        let mut previous_colon = false;
        for tree in stream {
            let counted = match &tree {
                TokenTree::Group(group) => 2 + count(group.stream()),
                TokenTree::Punct(punct) if punct.as_char() == ':' && previous_colon => {
                    in_path = true;
                    0
                }
                TokenTree::Punct(punct) => usize::from(punct.spacing() == Spacing::Alone),
                TokenTree::Ident(_) if in_path => 0,
                _ => 1,
            };
            previous_colon = matches!(&tree, TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Joint);
            if !matches!(&tree, TokenTree::Punct(p) if p.as_char() == ':') {
                in_path = false;
            }
            total += counted;
        }
        total
    }
    match text.parse::<proc_macro2::TokenStream>() {
        Ok(stream) => count(stream),
        Err(_) => text.split_whitespace().count(),
    }
}

/// How unusual a candidate is as a fix: by the kind of its edits (a
/// one-token slip is the commonest bug, and so is an added or a missing
/// `± 1`), plus a penalty for an operation that changes nothing (see
/// [`changes_nothing`]), which no one writes, and one for a synthesized
/// condition with a new bare number (see [`magic_number`]).
pub(super) fn unnatural(candidate: &Candidate, originals: &Originals) -> usize {
    candidate
        .edits()
        .iter()
        .map(|edit| {
            let text = originals.text(edit.file);
            let replaced = &text[edit.edit.range.clone()];
            let kind = edit.operator.unusualness(replaced, &edit.edit.text);
            let new = edit.edit.text.trim();
            let magic = edit.operator.synthesizes() && magic_number(new, replaced);
            kind + usize::from(edit_changes_nothing(edit, originals)) * 5 + usize::from(magic)
        })
        .sum()
}

/// Whether an edit of the candidate writes an operation that changes
/// nothing.
pub(super) fn writes_identity(candidate: &Candidate, originals: &Originals) -> bool {
    candidate
        .edits()
        .iter()
        .any(|edit| edit_changes_nothing(edit, originals))
}

/// Whether `edit` writes an operation that changes nothing (see
/// [`changes_nothing`]).
fn edit_changes_nothing(edit: &PatchEdit, originals: &Originals) -> bool {
    let text = originals.text(edit.file);
    changes_nothing(text, edit.edit.range.clone(), &edit.edit.text)
}

/// Whether an edit of the candidate replaces a character (or byte)
/// literal by one of another kind: a letter, a digit, white space or a
/// control character, anything else.
pub(super) fn reclassed(candidate: &Candidate, originals: &Originals) -> bool {
    let kind = |literal: &str| {
        let c = match syn::parse_str::<syn::Lit>(literal.trim()).ok()? {
            syn::Lit::Char(c) => c.value(),
            syn::Lit::Byte(b) => char::from(b.value()),
            _ => return None,
        };
        Some(match c {
            c if c.is_alphabetic() => 0,
            c if c.is_numeric() => 1,
            c if c.is_whitespace() || c.is_control() => 2,
            _ => 3,
        })
    };
    candidate.edits().iter().any(|edit| {
        let replaced = &originals.text(edit.file)[edit.edit.range.clone()];
        matches!((kind(replaced), kind(&edit.edit.text)), (Some(a), Some(b)) if a != b)
    })
}

/// Whether `new` brings in a number other than 0 and 1 that `replaced`
/// does not have: a name (`count < MAX_REPEATS`) reads as the intent where
/// the bare value (`count < 3`) reads as a coincidence.
fn magic_number(new: &str, replaced: &str) -> bool {
    let numbers = |text: &str| -> BTreeSet<String> {
        text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '.')
            .filter(|t| t.starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_string)
            .collect()
    };
    let before = numbers(replaced);
    numbers(new)
        .iter()
        .any(|n| n != "0" && n != "1" && !before.contains(n))
}

/// Whether the candidate replaces a condition that reads two variables or
/// more by one that reads none of them (`val >> width != 0` made `len ==
/// 0`, sucds): the check it made is gone, and another is made in its
/// place. A fix changes a check, or adds one beside it.
pub(super) fn unrelated_condition(candidate: &Candidate, originals: &Originals) -> bool {
    let names = |text: &str| syn::parse_str::<syn::Expr>(text).map(|e| free_variables(&e));
    candidate.edits().iter().any(|e| {
        if !matches!(e.operator, Operator::Condition | Operator::Synthesis) {
            return false;
        }
        let replaced = &originals.text(e.file)[e.edit.range.clone()];
        match (names(replaced), names(&e.edit.text)) {
            (Ok(old), Ok(new)) => old.len() >= 2 && !new.is_empty() && old.is_disjoint(&new),
            _ => false,
        }
    })
}

/// How an overflow-safe edit hides a fault rather than fixes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Masking {
    /// A field's decrement by one made safe (`self.size -= 1` to
    /// `saturating_sub(1)` or `checked_sub(1)?`): a count that would go
    /// below zero was wrong before this line (decremented for nothing
    /// removed, never reset), which the edit hides.
    Miscount,
    /// One operation of an expression made overflow-safe, another of the
    /// same line left as it was (`result.checked_mul(base)? + idx`): half
    /// the overflow is guarded.
    HalfChecked,
    /// An operation made overflow-safe that the function writes again,
    /// word for word, elsewhere and the patch leaves as it was
    /// (`file_size_bytes - 1` in two arms of a `match`): the same overflow
    /// remains there.
    LeftElsewhere,
}

/// How the candidate's overflow-safe edit (`checked_`, `saturating_`,
/// `wrapping_`, `overflowing_` written where none was) hides the fault,
/// if it does (see [`Masking`]).
pub(super) fn masking(candidate: &Candidate, originals: &Originals) -> Option<Masking> {
    const SAFE: [&str; 4] = [".checked_", ".saturating_", ".wrapping_", ".overflowing_"];
    candidate.edits().iter().find_map(|e| {
        let text = originals.text(e.file);
        let replaced = &text[e.edit.range.clone()];
        let made_safe = |t: &str| SAFE.iter().any(|s| t.contains(s));
        if !made_safe(&e.edit.text) || made_safe(replaced) {
            return None;
        }
        if is_field_decrement(replaced) {
            return Some(Masking::Miscount);
        }
        // The edited line with the edit one operand (`x`).
        let line = line_of(text, &e.edit.range)?;
        let (range, end) = (&e.edit.range, line.end);
        let line = format!(
            "{}x{}",
            &text[line.start..range.start],
            &text[range.end..end]
        );
        let code = line.split("//").next().unwrap_or_default();
        if unchecked_arithmetic(code) {
            return Some(Masking::HalfChecked);
        }
        let function = function_around(text, e.edit.range.start)?;
        let untouched = |at: Range<usize>| {
            !candidate.edits().iter().any(|o| {
                o.file == e.file && o.edit.range.start < at.end && at.start < o.edit.range.end
            })
        };
        occurrences(text, function, replaced.trim())
            .any(untouched)
            .then_some(Masking::LeftElsewhere)
    })
}

/// Whether `text` is a field decremented by one, `self.len -= 1` (the
/// form `overflow` makes safe whole; of `self.len = self.len - 1` it edits
/// only the subtraction, which is not told).
fn is_field_decrement(text: &str) -> bool {
    use syn::{BinOp, Expr};
    let one = |e: &Expr| matches!(e, Expr::Lit(l) if quote::ToTokens::to_token_stream(l).to_string() == "1");
    matches!(
        syn::parse_str::<Expr>(text.trim().trim_end_matches(';')),
        Ok(Expr::Binary(b))
            if matches!(b.op, BinOp::SubAssign(_)) && matches!(*b.left, Expr::Field(_)) && one(&b.right)
    )
}

/// Whether `code` has a binary `+`, `-` or `*` (one after an operand: a
/// name, a number, a closing bracket or a `?`; not `+=`, `->`, a unary
/// minus or a dereference).
fn unchecked_arithmetic(code: &str) -> bool {
    let chars: Vec<char> = code.chars().collect();
    chars.iter().enumerate().any(|(i, &c)| {
        if !matches!(c, '+' | '-' | '*') || matches!(chars.get(i + 1), Some('=' | '>')) {
            return false;
        }
        let before = chars[..i].iter().rev().find(|c| !c.is_whitespace());
        before.is_some_and(|&b| b.is_alphanumeric() || matches!(b, '_' | ')' | ']' | '?'))
    })
}

/// The first line (1-based) written like a line the candidate edits, in
/// that line's function, that has what the edit replaces at the same place
/// and that the candidate leaves as it was: one of two lines alike fixed,
/// the other not (see `code::lines_alike`). A person who finds a slip in
/// code written twice fixes it twice, or the slip was not one. A line in
/// a `match` arm whose pattern names what it has there (`theirs[..]` under
/// `MergeRange::Theirs(range) =>`) is written so on purpose: not counted.
pub(super) fn alike_left(candidate: &Candidate, originals: &Originals) -> Option<u32> {
    let edits = candidate.edits();
    edits.iter().find_map(|e| {
        let text = originals.text(e.file);
        if e.edit.text.contains('\n') {
            return None;
        }
        let line = line_of(text, &e.edit.range)?;
        let untouched = |other: &Range<usize>| {
            !edits.iter().any(|o| {
                o.file == e.file
                    && o.edit.range.start <= other.end
                    && other.start <= o.edit.range.end
            })
        };
        lines_alike(text, &line)
            .into_iter()
            .filter(untouched)
            .find(|other| {
                same_place(text, &line, &e.edit.range, other)
                    .is_some_and(|kept| !named_by_arm(text, other, &text[kept]))
            })
            .map(|other| line_at(text, other.start))
    })
}

/// Whether `line` of `text` is in a `match` arm (its pattern before `=>`
/// on the line, or on the line above) whose pattern has a name that reads
/// as `kept` (case and underscores aside: `Theirs` for `theirs`).
fn named_by_arm(text: &str, line: &Range<usize>, kept: &str) -> bool {
    let folded = |name: &str| name.replace('_', "").to_lowercase();
    let kept = folded(kept.trim());
    if kept.is_empty() {
        return false;
    }
    let above = text[..line.start.saturating_sub(1)]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let pattern = [&text[line.clone()], &text[above..line.start]]
        .into_iter()
        .find_map(|text| text.find("=>").map(|arrow| &text[..arrow]));
    pattern.is_some_and(|pattern| lexed(pattern).any(|(token, _)| folded(token) == kept))
}

/// Lines from an edited one on whose string literals are read as what the
/// code says it does (the error its check returns).
const MESSAGE_LINES: usize = 3;

/// The line (1-based) of a string literal, on an edited line or the next
/// few, that writes a number the edit replaces and none it writes: a check
/// made to disagree with its own message (`!(1..=12).contains(&month)` made
/// `3..=12` above `return Err("Invalid month < 1 or > 12");`).
pub(super) fn contradicted(candidate: &Candidate, originals: &Originals) -> Option<u32> {
    let numbers = |text: &str| -> BTreeSet<String> {
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_string)
            .collect()
    };
    candidate.edits().iter().find_map(|e| {
        let text = originals.text(e.file);
        changed_tokens(text, &e.edit)
            .into_iter()
            .find_map(|(at, replaced, made)| {
                if replaced.is_empty() || !replaced.chars().all(|c| c.is_ascii_digit()) {
                    return None;
                }
                let written = numbers(made);
                let start = line_of(text, &(at..at))?.start;
                let end = text[start..]
                    .match_indices('\n')
                    .nth(MESSAGE_LINES)
                    .map_or(text.len(), |(i, _)| start + i);
                lexed(&text[start..end])
                    .filter(|(token, _)| *token == "\"<str>\"")
                    .map(|(_, range)| start + range.start..start + range.end)
                    .find(|message| {
                        let said = numbers(&text[message.clone()]);
                        said.contains(replaced) && said.is_disjoint(&written)
                    })
                    .map(|message| line_at(text, message.start))
            })
    })
}

/// What `edit` of `text` changes, token by token where it writes as many
/// tokens as it replaces (an edit made on two lines alike changes two),
/// else as a whole: where in `text`, what it replaced, what it writes.
fn changed_tokens<'a>(text: &'a str, edit: &'a Edit) -> Vec<(usize, &'a str, &'a str)> {
    let range = edit.range.clone();
    let old: Vec<Range<usize>> = lexed(&text[range.clone()])
        .map(|(_, r)| range.start + r.start..range.start + r.end)
        .collect();
    let new: Vec<Range<usize>> = lexed(&edit.text).map(|(_, r)| r).collect();
    if old.len() != new.len() {
        return vec![(range.start, text[range].trim(), edit.text.trim())];
    }
    old.into_iter()
        .zip(new)
        .filter(|(o, n)| text[o.clone()] != edit.text[n.clone()])
        .map(|(o, n)| (o.start, &text[o], &edit.text[n]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutation::Operator;

    fn originals(text: &str) -> Originals {
        Originals::new(vec![("src/lib.rs".into(), text.to_string())])
    }

    fn candidate(text: &str, needle: &str, replacement: &str, operator: Operator) -> Candidate {
        Candidate::replacing(text, needle, replacement, operator, 1)
    }

    #[test]
    fn an_overflow_made_safe_masks_a_miscount_or_half_the_overflow() {
        let masked = |line: &str, needle: &str, made: &str| {
            let text =
                format!("fn f(&mut self, a: u64, b: u64) -> Option<u64> {{\n    {line}\n}}\n");
            masking(
                &candidate(&text, needle, made, Operator::Overflow),
                &originals(&text),
            )
        };
        // A count that would go below zero was miscounted.
        for made in [
            "self.len = self.len.saturating_sub(1)",
            "self.len = self.len.checked_sub(1)?",
        ] {
            assert_eq!(
                masked("self.len -= 1;", "self.len -= 1", made),
                Some(Masking::Miscount)
            );
        }
        assert_eq!(
            masked(
                "self.len = self.len - 1;",
                "self.len - 1",
                "self.len.saturating_sub(1)"
            ),
            None
        );
        // Half the overflow guarded: another operation on the line.
        assert_eq!(
            masked(
                "let r = a * b + 1; // (a + b)",
                "a * b",
                "a.checked_mul(b)?"
            ),
            Some(Masking::HalfChecked)
        );
        assert_eq!(
            masked("let r = (a - b) - 1;", "(a - b)", "a.checked_sub(b)?"),
            Some(Masking::HalfChecked)
        );
        // The same operation written again in the function, left as it was.
        let safe = "b.saturating_sub(1)";
        assert_eq!(
            masked("let x = b - 1;\n    let y = b - 1;", "b - 1", safe),
            Some(Masking::LeftElsewhere)
        );
        // Not another operation that only contains its text.
        assert_eq!(
            masked("let y = ab - 10;\n    let x = b - 1;", "b - 1", safe),
            None
        );
        // The whole operation guarded: a comment, a unary minus, a
        // division, a call's arguments do not count.
        for line in [
            "let r = a * b; // a - b",
            "let r = a * b / -1;",
            "let r = g(a * b, &*c);",
        ] {
            assert_eq!(masked(line, "a * b", "a.wrapping_mul(b)"), None, "{line}");
        }
        // Already safe, or not made safe.
        assert_eq!(
            masked(
                "let r = a.wrapping_add(b) + 1;",
                "a.wrapping_add(b)",
                "a.checked_add(b)?"
            ),
            None
        );
        assert_eq!(
            masked("self.len -= 1;", "self.len -= 1", "self.len -= 2"),
            None
        );
    }

    #[test]
    fn a_synthesized_bare_number_is_less_natural_than_a_name() {
        let text = "const MAX: usize = 3;\nfn f(n: usize) -> bool {\n    n > 0\n}\n";
        let o = originals(text);
        let named = candidate(text, "n > 0", "n > 0 && n < MAX", Operator::Synthesis);
        let bare = candidate(text, "n > 0", "n > 0 && n < 3", Operator::Synthesis);
        let zero = candidate(text, "n > 0", "n > 0 && n != 0", Operator::Synthesis);
        assert!(unnatural(&named, &o) < unnatural(&bare, &o));
        assert_eq!(unnatural(&named, &o), unnatural(&zero, &o));
        // A slip of a literal is no new number.
        let slip = candidate(text, "0", "2", Operator::Value);
        assert_eq!(unnatural(&slip, &o), 0);
    }

    #[test]
    fn each_operator_has_its_unnaturalness() {
        // `v.len() - 1` made shorter, as long, and with a new bare number,
        // by every operator.
        let text = "fn f(v: &[u8]) -> usize {\n    v.len() - 1\n}\n";
        let o = originals(text);
        let expected = [
            (Operator::Delete, [3, 3, 3]),
            (Operator::Swap, [4, 4, 4]),
            (Operator::Insert, [4, 4, 4]),
            (Operator::Condition, [2, 2, 2]),
            (Operator::Binary, [0, 0, 0]),
            (Operator::Value, [0, 0, 0]),
            (Operator::Identifier, [0, 0, 0]),
            (Operator::Method, [0, 0, 0]),
            (Operator::Range, [0, 0, 0]),
            (Operator::Arguments, [1, 1, 1]),
            (Operator::Offset, [0, 1, 1]),
            (Operator::Synthesis, [2, 2, 3]),
            (Operator::Guard, [4, 4, 5]),
            (Operator::Idiom, [1, 1, 1]),
            (Operator::Adapted, [4, 4, 4]),
            (Operator::Given, [2, 2, 2]),
        ];
        for (operator, made) in expected {
            let unnaturalness = ["v.len()", "v.len() + w", "v.len() - 7"]
                .map(|new| unnatural(&candidate(text, "v.len() - 1", new, operator), &o));
            assert_eq!(unnaturalness, made, "{operator}");
        }
    }

    #[test]
    fn identity_arithmetic_is_unnatural() {
        let text = "fn f(v: &[u8]) -> usize {\n    v.len() - 1\n}\n";
        let o = originals(text);
        let times = candidate(text, "-", "*", Operator::Binary);
        let plus = candidate(text, "-", "+", Operator::Binary);
        let back = candidate(text, "v.len() - 1", "v.len()", Operator::Offset);
        let zero = candidate(text, "1", "0", Operator::Value);
        let added = candidate(text, "v.len()", "v.len() + 1", Operator::Offset);
        assert_eq!(unnatural(&times, &o), 5);
        assert_eq!(unnatural(&zero, &o), 5);
        assert_eq!(unnatural(&plus, &o), 0);
        assert_eq!(unnatural(&back, &o), 0);
        assert_eq!(unnatural(&added, &o), 1);
        assert!(extent(&back, &o).0 < extent(&plus, &o).0);
        assert!(writes_identity(&zero, &o) && !writes_identity(&added, &o));
        // titlecase: `word[1..]` made `word[0..]` is `word`; not `[0..n]`.
        for (slice, whole) in [("w[1..]", true), ("w[1..n]", false), ("w[1..=n]", false)] {
            let text =
                format!("fn f(w: &str, n: usize) -> bool {{\n    {slice}.contains('/')\n}}\n");
            let o = originals(&text);
            let zero = candidate(&text, "1", "0", Operator::Value);
            assert_eq!(writes_identity(&zero, &o), whole, "{slice}");
            assert_eq!(unnatural(&zero, &o), if whole { 5 } else { 0 }, "{slice}");
        }
        // In tokens, not bytes: `!=` for `==` is no bigger than `>`.
        let text = "fn f(n: u8) -> bool {\n    n % 2 == 0\n}\n";
        let o = originals(text);
        let negated = candidate(text, "==", "!=", Operator::Binary);
        let greater = candidate(text, "==", ">", Operator::Binary);
        assert_eq!(extent(&negated, &o), (0, 2));
        assert_eq!(extent(&greater, &o), extent(&negated, &o));
        assert_eq!(tokens("a.b(c, &d) != 0"), 11);
        // A path names one thing.
        assert_eq!(tokens(" | ItemBody::Rule"), 2);
        assert_eq!(tokens("u32::MAX"), 1);
        assert_eq!(tokens("Some(ItemBody::Rule)"), 4);
    }

    #[test]
    fn a_character_made_one_of_another_kind_is_told() {
        // winnow: `one_of('1'..='9')` to `'+'..='9'` passed every test.
        let text =
            "fn first(c: char, b: u8) -> bool {\n    ('1'..='9').contains(&c) && b != b' '\n}\n";
        let originals = originals(text);
        let edit = |old: &str, new: &str| Candidate::replacing(text, old, new, Operator::Value, 2);
        assert!(reclassed(&edit("'1'", "'+'"), &originals));
        assert!(!reclassed(&edit("'1'", "'0'"), &originals));
        assert!(reclassed(&edit("b' '", "b'a'"), &originals));
        assert!(!reclassed(&edit("b' '", "b'\\t'"), &originals));
        assert!(!reclassed(&edit("'1'", "x"), &originals));
    }

    #[test]
    fn a_line_written_alike_left_as_it_was_is_told() {
        // delaunator: both walks of the hull stop at `< 0.`; the fix makes
        // both `<= 0.`.
        let text = "fn walk(p: P) {\n    loop {\n        if p.orient(&points[n], &points[q]) < 0. {\n            break;\n        }\n    }\n    loop {\n        if p.orient(&points[q], &points[e]) < 0. {\n            break;\n        }\n    }\n}\n";
        let o = originals(text);
        let one = candidate(text, "< 0.", "<= 0.", Operator::Binary);
        assert_eq!(alike_left(&one, &o), Some(3));
        let at = |needle: &str| {
            let start = text.find(needle).unwrap() + needle.len() - 4;
            PatchEdit {
                file: crate::code::source::FileId::new(0),
                edit: crate::code::source::Edit::replace(start..start + 4, "<= 0."),
                operator: Operator::Binary,
                line: 3,
            }
        };
        let twice = Candidate::from_edits([at("[q]) < 0."), at("[e]) < 0.")]);
        assert_eq!(alike_left(&twice, &o), None);
        // Where the other line already reads as the patch makes this one
        // (the slip made on one line only), nothing is left.
        let fixed = text.replacen("[q]) < 0.", "[q]) <= 0.", 1);
        let o = originals(&fixed);
        let restore = candidate(&fixed, "< 0.", "<= 0.", Operator::Binary);
        assert_eq!(alike_left(&restore, &o), None);
    }

    #[test]
    fn a_line_alike_in_an_arm_that_names_what_it_keeps_is_not_left() {
        // diffy: `Both` sliced `theirs`; the fix slices `ours`, and the
        // `Theirs` arm above rightly keeps `theirs`.
        let text = "fn out(r: R) {\n    match r {\n        R::Theirs(range) => {\n            output.extend(theirs[range.range()].iter().copied());\n        }\n        R::Both(range, _) => {\n            output.extend(theirs[range.range()].iter().copied());\n        }\n    }\n}\n";
        // `theirs` on the `Both` arm's line (7) made `ours`.
        let fix = |text: &str| {
            let at = text.rfind("theirs[").unwrap();
            Candidate::from_edits([PatchEdit {
                file: crate::code::source::FileId::new(0),
                edit: crate::code::source::Edit::replace(at..at + 6, "ours"),
                operator: Operator::Identifier,
                line: 7,
            }])
        };
        assert_eq!(alike_left(&fix(text), &originals(text)), None);
        // Under an arm that names something else, the line counts.
        let other = text.replace("R::Theirs(range)", "R::Left(range)");
        assert_eq!(alike_left(&fix(&other), &originals(&other)), Some(4));
    }

    #[test]
    fn a_check_replaced_by_an_unrelated_one_is_told() {
        // sucds: `val >> width != 0` made `len == 0` passed every test.
        let text = "fn f(val: u64, width: usize, len: usize) {\n    if val >> width != 0 {\n        return;\n    }\n}\n";
        let o = originals(text);
        let swapped = candidate(text, "val >> width != 0", "len == 0", Operator::Condition);
        assert!(unrelated_condition(&swapped, &o));
        let guarded = candidate(
            text,
            "val >> width != 0",
            "width < 64 && val >> width != 0",
            Operator::Synthesis,
        );
        assert!(!unrelated_condition(&guarded, &o));
        let other = candidate(text, "val >> width != 0", "len == 0", Operator::Binary);
        assert!(!unrelated_condition(&other, &o));
    }

    #[test]
    fn a_number_its_message_writes_is_told() {
        // nmea: `1..=12` made `3..=12` above "Invalid month < 1 or > 12".
        let text = "fn f(month: u32) -> Result<(), &'static str> {\n    if !(1..=12).contains(&month) {\n        return Err(\"Invalid month < 1 or > 12\");\n    }\n    Ok(())\n}\n";
        // The `1` of `(1..=12)` in `text` made `new`.
        let edit = |text: &str, new: &str| {
            let start = text.find("..=").unwrap() - 1;
            Candidate::from_edits([PatchEdit {
                file: crate::code::source::FileId::new(0),
                edit: crate::code::source::Edit::replace(start..start + 1, new),
                operator: Operator::Value,
                line: 2,
            }])
        };
        let o = originals(text);
        assert_eq!(contradicted(&edit(text, "3"), &o), Some(3));
        // A number the message writes too, or no number replaced.
        assert_eq!(contradicted(&edit(text, "12"), &o), None);
        let op = Candidate::replacing(text, "..=", "..", Operator::Range, 2);
        assert_eq!(contradicted(&op, &o), None);
        // Made on both checks at once (an edit over both lines alike).
        let both = "fn f(m: u32, d: u32) -> Result<(), &'static str> {\n    if !(1..=12).contains(&m) {\n        return Err(\"month < 1\");\n    }\n    if !(1..=31).contains(&d) {\n        return Err(\"day < 1\");\n    }\n    Ok(())\n}\n";
        let start = both.find("1..=12").unwrap();
        let end = both.find("1..=31").unwrap() + 1;
        let made = both[start..end]
            .replace("(1..", "(3..")
            .replacen('1', "3", 1);
        let twice = Candidate::from_edits([PatchEdit {
            file: crate::code::source::FileId::new(0),
            edit: crate::code::source::Edit::replace(start..end, made),
            operator: Operator::Parallel,
            line: 2,
        }]);
        assert_eq!(contradicted(&twice, &originals(both)), Some(3));
        // The restored check agrees with its message.
        let buggy = text.replacen("(1..=12)", "(3..=12)", 1);
        assert_eq!(contradicted(&edit(&buggy, "1"), &originals(&buggy)), None);
    }
}
