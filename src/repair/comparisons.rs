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
/// (`>`, only where the two sides are equal), and what the tests never
/// decide, both passing: the cases where the two differ, where off-by-one
/// slips live (euclid's `depth <= zero`, fixed as `> zero` like its
/// neighbours `width > zero && height > zero`, made `>= zero`; qp-trie's
/// `.choice >= prefix.len()`, fixed as `>= prefix.len() * 2`, made `==`
/// where `<=` passed too).
pub fn rival_comparison<'a>(
    chosen: &Plausible,
    alternatives: &'a [Plausible],
) -> Option<(&'a str, &'static str)> {
    let (file, line, own) = comparison(chosen)?;
    let never = never_the_case(chosen);
    let differ = |other: &str| (holds(other) ^ holds(own)) & !never;
    alternatives
        .iter()
        .filter_map(comparison)
        .filter(|&(f, l, other)| f == file && l == line && other != own)
        .map(|(_, _, other)| (other, differ(other)))
        .filter(|&(_, cases)| cases != 0)
        .min_by_key(|&(_, cases)| cases.count_ones())
        .map(|(other, cases)| (other, undecided(cases)))
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

/// What the tests never decide when two comparisons that differ in
/// `cases` both pass.
fn undecided(cases: u8) -> &'static str {
    match cases {
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
    /// sides; of two rivals the nearer is named. An edit of another line
    /// says nothing.
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
            rival_comparison(&chosen, &alternatives).map(|(r, why)| (r.to_string(), why))
        };
        let equal = "the case where the two sides are equal";
        assert_eq!(rival(&[with(">", 7)]), Some((">".into(), equal)));
        let greater = "the case where the left side is the greater";
        assert_eq!(
            rival(&[with("<=", 7), with("==", 7)]),
            Some(("==".into(), greater))
        );
        let any = "which comparison is meant";
        assert_eq!(rival(&[with("<=", 7)]), Some(("<=".into(), any)));
        for (replacement, line) in [("<", 8), (">=", 7)] {
            let rival = rival(&[with(replacement, line)]);
            assert_eq!(rival, None, "{replacement} at {line}");
        }
        // `year % 400 != 0` made `== 0` where `<= 0` passes too: one check
        // for an unsigned year; `< 0` differs from `== 0` where both sides
        // are equal.
        let mut zero = with("==", 7);
        zero.edits[0].against_zero = true;
        let alternatives = [zero.clone(), with("<=", 7)];
        assert_eq!(rival_comparison(&zero, &alternatives), None);
        let alternatives = [zero.clone(), with("<", 7)];
        assert_eq!(rival_comparison(&zero, &alternatives), Some(("<", equal)));
    }
}
