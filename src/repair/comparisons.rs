//! Comparisons that pass alike. When a patch puts a comparison operator
//! in place of another and a second plausible patch puts another one at
//! the same place, the tests never decide the cases where the two differ:
//! `>` and `>=` differ where the two sides are equal, `==` and `<=` where
//! the left side is the smaller (which an unsigned value compared with
//! `0` never is: those two are one check there).

use std::path::Path;

use crate::mutation::Operator;
use crate::repair::stage::Plausible;

/// The comparisons an edit may put in place of another, each with the
/// cases where it holds (`LESS`, `EQUAL`, `GREATER`: the left side's).
const COMPARISONS: [(&str, u8); 6] = [
    ("<", LESS),
    ("<=", LESS | EQUAL),
    (">", GREATER),
    (">=", GREATER | EQUAL),
    ("==", EQUAL),
    ("!=", LESS | GREATER),
];
const LESS: u8 = 1;
const EQUAL: u8 = 2;
const GREATER: u8 = 4;

/// The cases where comparison `operator` holds.
fn holds(operator: &str) -> u8 {
    COMPARISONS
        .iter()
        .find(|(o, _)| *o == operator)
        .map_or(0, |(_, cases)| *cases)
}

/// When `chosen` replaces a comparison operator by another (`<=` by `>=`)
/// and another plausible patch puts another comparison in its place: that
/// one, the one that differs from the chosen one in the fewest cases first
/// (`>`, only where the two sides are equal). Both passing, the tests
/// never decide what happens where the two differ, where off-by-one slips
/// live (euclid's `depth <= zero`, fixed as `> zero` like its neighbours
/// `width > zero && height > zero`, made `>= zero`; qp-trie's `.choice >=
/// prefix.len()`, fixed as `>= prefix.len() * 2`, made `==` where `<=`
/// passed too).
pub fn rival_comparison<'a>(chosen: &Plausible, alternatives: &'a [Plausible]) -> Option<&'a str> {
    let (file, line, own) = comparison(chosen)?;
    let never = never_the_case(chosen);
    alternatives
        .iter()
        .filter_map(comparison)
        .filter(|&(f, l, other)| f == file && l == line && other != own)
        .map(|(_, _, other)| other)
        .filter(|other| (holds(other) ^ holds(own)) & !never != 0)
        .min_by_key(|other| (holds(other) ^ holds(own)).count_ones())
}

/// The case `chosen`'s comparison may never meet: an unsigned value is
/// never smaller than the `0` on its right (where the value is signed,
/// the tests of a sign seldom ask).
fn never_the_case(chosen: &Plausible) -> u8 {
    match chosen.edits.as_slice() {
        [edit] if edit.against_zero => LESS,
        _ => 0,
    }
}

/// What the tests never decide when comparisons `own` and `other` both
/// pass: the cases where they differ.
pub fn undecided(own: &str, other: &str) -> &'static str {
    match holds(own) ^ holds(other) {
        EQUAL => "the case where the two sides are equal",
        LESS => "the case where the left side is the smaller",
        GREATER => "the case where the left side is the greater",
        _ => "which comparison is meant",
    }
}

/// Where a patch of one edit puts a comparison operator in place of
/// another, and which.
fn comparison(plausible: &Plausible) -> Option<(&Path, u32, &str)> {
    match plausible.edits.as_slice() {
        [edit] if edit.operator == Operator::Binary => {
            let new = edit.replacement.trim();
            (holds(new) != 0).then_some((edit.file.as_path(), edit.line, new))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::repair::choice::Measures;
    use crate::repair::stage::EditDescription;

    fn one_token() -> Plausible {
        Plausible {
            edits: vec![EditDescription {
                file: PathBuf::from("src/lib.rs"),
                line: 7,
                operator: Operator::Binary,
                replacement: "<=".into(),
                rank: 1,
                against_zero: false,
            }],
            measures: Measures::default(),
        }
    }

    /// `>=` chosen where `>` passes too: the tests never decide equal
    /// sides; where `<=` passes too (the other way round), nothing; the
    /// nearer rival is named. An edit of another line says nothing.
    #[test]
    fn a_comparison_whose_rival_at_the_same_place_passes_too_is_named() {
        let with = |replacement: &str, line: u32| {
            let mut plausible = one_token();
            plausible.edits[0].replacement = replacement.into();
            plausible.edits[0].line = line;
            plausible
        };
        let chosen = with(">=", 7);
        let rival = |others: &[Plausible]| {
            let alternatives: Vec<Plausible> = std::iter::once(chosen.clone())
                .chain(others.iter().cloned())
                .collect();
            rival_comparison(&chosen, &alternatives).map(str::to_string)
        };
        assert_eq!(rival(&[with(">", 7)]).as_deref(), Some(">"));
        assert_eq!(
            rival(&[with("<=", 7), with("==", 7)]).as_deref(),
            Some("==")
        );
        for (replacement, line) in [("<", 8), (">=", 7)] {
            let rival = rival(&[with(replacement, line)]);
            assert_eq!(rival, None, "{replacement} at {line}");
        }
        assert_eq!(
            undecided(">=", "=="),
            "the case where the left side is the greater"
        );
        assert_eq!(undecided(">", "<="), "which comparison is meant");
        // `year % 400 != 0` made `== 0` where `<= 0` passes too: one check
        // for an unsigned year.
        let mut zero = with("==", 7);
        zero.edits[0].against_zero = true;
        let alternatives = [zero.clone(), with("<=", 7)];
        assert_eq!(rival_comparison(&zero, &alternatives), None);
        let alternatives = [zero.clone(), with(">=", 7)];
        assert_eq!(rival_comparison(&zero, &alternatives), Some(">="));
    }
}
