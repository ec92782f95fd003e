//! The variants a pattern matches: `A | B` of one of the crate's enums
//! given a variant it forgot (`| ItemBody::Rule`), one it should not have
//! (`A | B` to `A`), or another in place of one (`E::Open` to `E::Closed`).
//! A pattern that binds names gets no new alternative (it would not bind
//! them), and a replacement keeps the shape of what it replaces. A unit
//! variant written as a value becomes another unit variant of its enum
//! (`Some(Token::Eq)` to `Some(Token::Neq)`), the names nearest in spelling
//! first. A pattern of literals alone is given a literal the crate's other
//! patterns take beside one of its own (`' '` to `' ' | '\t'` where
//! another match takes `' ' | '\t' | '\x0C'`), then the counterpart of
//! one of its own (`'-'` to `'-' | '+'`, `'\n'` to `'\n' | '\r'`, `'e'`
//! to `'e' | 'E'`).

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// Add, remove or replace a variant of an or-pattern over one enum;
/// replace a unit variant written as a value.
pub(super) struct Variant;

/// The other unit variants a value's variant becomes, at most.
const VALUES: usize = 6;

impl MutationOperator for Variant {
    fn operator(&self) -> Operator {
        Operator::Variant
    }

    fn name(&self) -> &'static str {
        "variant"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::Pattern { .. } | SiteKind::UnitVariant { .. } | SiteKind::Alternatives { .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        if let SiteKind::UnitVariant { range, owner, name } = &site.kind {
            return other_units(owner, name, cx)
                .into_iter()
                .map(|other| Edit::replace(range.clone(), other))
                .collect();
        }
        if let SiteKind::Alternatives {
            range,
            literals,
            taken,
        } = &site.kind
        {
            return joining(literals, taken, cx)
                .into_iter()
                .map(|joined| Edit::replace(range.end..range.end, joined))
                .collect();
        }
        let SiteKind::Pattern {
            range,
            owner,
            variants,
            binds,
            exhaustive,
        } = &site.kind
        else {
            return Vec::new();
        };
        let Some(declared) = cx.space.enums.get(owner) else {
            return Vec::new();
        };
        let name_of = |pattern: &str| {
            let end = pattern.find(['(', ' ', '{']).unwrap_or(pattern.len());
            pattern[..end].to_string()
        };
        let missing: Vec<&String> = declared
            .iter()
            .filter(|pattern| !variants.iter().any(|(name, _)| *name == name_of(pattern)))
            .collect();
        let mut edits = Vec::new();
        // A forgotten variant, the commonest slip of the three.
        if !binds {
            for pattern in &missing {
                edits.push(Edit::replace(
                    range.end..range.end,
                    format!(" | {owner}::{pattern}"),
                ));
            }
        }
        if *exhaustive {
            return edits;
        }
        // One too many: an alternative left out, with its `|`.
        if variants.len() >= 2 {
            for (index, (_, at)) in variants.iter().enumerate() {
                let cut = match variants.get(index + 1) {
                    Some((_, next)) => at.start..next.start,
                    None => variants[index - 1].1.end..at.end,
                };
                edits.push(Edit::replace(cut, String::new()));
            }
        }
        // Another in its place, of the same shape when names are bound.
        for (name, at) in variants {
            let text = &cx.text[at.clone()];
            let shape = |pattern: &str| pattern[name_of(pattern).len()..].to_string();
            let written = declared.iter().find(|p| name_of(p) == *name);
            for pattern in &missing {
                let same_shape = written.is_some_and(|w| shape(w) == shape(pattern));
                if same_shape && *binds {
                    // The last segment of the path, before what it binds.
                    let head = text.find(['(', '{']).unwrap_or(text.len());
                    let start = text[..head].rfind("::").map_or(0, |i| i + 2);
                    if text[start..].starts_with(name.as_str()) {
                        let end = start + name.len();
                        let replaced =
                            format!("{}{}{}", &text[..start], name_of(pattern), &text[end..]);
                        edits.push(Edit::replace(at.clone(), replaced));
                    }
                } else if !binds {
                    edits.push(Edit::replace(at.clone(), format!("{owner}::{pattern}")));
                }
            }
        }
        edits
    }

    /// A variant forgotten, one too many or another, is a slip of one name.
    fn unusualness(&self, _: &str, _: &str) -> usize {
        0
    }
}

/// What can join a pattern of `literals` (as ` | '\t'`): each literal the
/// crate's other patterns take beside one of them, the most often first,
/// then the ones each such pattern has and this one lacks, together; never
/// one the match already takes (`taken`).
fn joining(literals: &[String], taken: &[String], cx: &Context) -> Vec<String> {
    let mut counted: Vec<(&String, usize)> = Vec::new();
    let mut together: Vec<Vec<&String>> = Vec::new();
    for pattern in &cx.space.literal_patterns {
        if !pattern.iter().any(|l| literals.contains(l)) {
            continue;
        }
        let lacked: Vec<&String> = pattern.iter().filter(|l| !taken.contains(l)).collect();
        for literal in &lacked {
            match counted.iter_mut().find(|(l, _)| l == literal) {
                Some((_, count)) => *count += 1,
                None => counted.push((literal, 1)),
            }
        }
        if lacked.len() >= 2 && !together.contains(&lacked) {
            together.push(lacked);
        }
    }
    // (A stable sort: among equals, the order the crate writes them in.)
    counted.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    let counterparts: Vec<String> = literals
        .iter()
        .filter_map(|literal| counterpart(literal))
        .filter(|c| !taken.contains(c) && !counted.iter().any(|(l, _)| *l == c))
        .collect();
    let alone = counted.into_iter().map(|(literal, _)| vec![literal]);
    alone
        .chain(together)
        .chain(counterparts.iter().map(|c| vec![c]))
        .map(|joined| joined.iter().map(|l| format!(" | {l}")).collect())
        .collect()
}

/// Characters that come in pairs, where a pattern that takes one often
/// forgot the other: a sign, a line end, a blank, brackets, quotes and
/// slashes (ms-converter's number characters `'0'..='9' | '.' | '-'`,
/// which forgot `'+'`, a real bug).
const COUNTERPARTS: &[(&str, &str)] = &[
    ("+", "-"),
    ("\\n", "\\r"),
    (" ", "\\t"),
    ("(", ")"),
    ("[", "]"),
    ("{", "}"),
    ("<", ">"),
    ("/", "\\\\"),
    ("\\'", "\""),
];

/// The counterpart of a char or byte literal as written (`'-'` to `'+'`,
/// `b'\n'` to `b'\r'`, a letter to its other case), if it has one.
fn counterpart(literal: &str) -> Option<String> {
    let (prefix, inner) = match literal.strip_prefix('b') {
        Some(rest) => ("b", rest),
        None => ("", literal),
    };
    let inner = inner.strip_prefix('\'')?.strip_suffix('\'')?;
    let other = COUNTERPARTS
        .iter()
        .find_map(|&(a, b)| match inner {
            _ if inner == a => Some(b.to_string()),
            _ if inner == b => Some(a.to_string()),
            _ => None,
        })
        .or_else(|| match inner.as_bytes() {
            [c] if c.is_ascii_lowercase() => Some(inner.to_ascii_uppercase()),
            [c] if c.is_ascii_uppercase() => Some(inner.to_ascii_lowercase()),
            _ => None,
        })?;
    Some(format!("{prefix}'{other}'"))
}

/// The unit variants of `owner` other than `name`, the nearest in spelling
/// first (edit distance, then declaration order), at most [`VALUES`].
fn other_units(owner: &str, name: &str, cx: &Context) -> Vec<String> {
    let mut others: Vec<(usize, usize, &String)> = cx
        .space
        .unit_variants(owner)
        .filter(|v| *v != name)
        .enumerate()
        .map(|(order, v)| (distance(name, v), order, v))
        .collect();
    others.sort();
    others
        .into_iter()
        .take(VALUES)
        .map(|(_, _, v)| v.clone())
        .collect()
}

/// The Levenshtein distance of two names, by chars, case aside.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(!ca.eq_ignore_ascii_case(&cb)));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use crate::mutation::patch::Operator;

    use std::collections::BTreeSet;

    use super::super::tests::{line, lines_in_order, lines_made, outcomes};
    use super::counterpart;

    #[test]
    fn a_unit_variant_as_a_value_becomes_another_of_its_enum_nearest_first() {
        let text = "enum Token { Eq, Neq, Geq, Assign, Not, Int(i64) }\nenum Partial { Eq, Bang }\nimpl Token {\n    fn flip(&self) -> Token {\n        Self::Not\n    }\n}\nfn two(first: Partial, second: Option<Partial>) -> Option<Token> {\n    match (first, second) {\n        (Partial::Bang, Some(Partial::Eq)) => Some(Token::Eq),\n        _ => None,\n    }\n}\n";
        let made = lines_made(text, Operator::Variant, 10);
        for expected in [
            "(Partial::Bang, Some(Partial::Eq)) => Some(Token::Neq),",
            "(Partial::Bang, Some(Partial::Eq)) => Some(Token::Assign),",
        ] {
            assert!(made.contains(expected), "{expected} not in {made:?}");
        }
        // A tuple variant is not offered.
        assert!(!made.iter().any(|l| l.contains("Token::Int")), "{made:?}");
        let made = lines_made(text, Operator::Variant, 5);
        assert!(made.contains("Self::Eq"), "{made:?}");
        assert_eq!(super::distance("Eq", "Neq"), 1);
        assert_eq!(super::distance("Eq", "Assign"), 6);
    }

    #[test]
    fn a_pattern_of_literals_is_given_one_the_crate_takes_beside_its_own() {
        let text = "fn blank(c: char) -> bool {\n    matches!(c, ' ' | '\\t' | '\\x0C' | '\\r')\n}\nfn key(s: &str) -> usize {\n    for (i, c) in s.char_indices() {\n        match c {\n            ':' | '\\t' => return i,\n            ' ' => return i + 1,\n            '#' => return 0,\n            _ => {}\n        }\n    }\n    0\n}\n";
        // Its arm for the rest runs nothing: each pattern's alternatives
        // are at its own arm's line, where a forgotten literal would run.
        let made = outcomes(text, Operator::Variant, 8);
        let space: BTreeSet<&str> = made.iter().map(|t| line(t, 8)).collect();
        for expected in [
            "' ' | '\\x0C' => return i + 1,",
            "' ' | '\\r' => return i + 1,",
            "' ' | '\\x0C' | '\\r' => return i + 1,",
        ] {
            assert!(space.contains(expected), "{expected:?} not in {space:?}");
        }
        assert!(
            made.iter()
                .all(|t| line(t, 7) == "':' | '\\t' => return i,")
        );
        let colon = outcomes(text, Operator::Variant, 7);
        assert!(
            colon
                .iter()
                .any(|t| line(t, 7) == "':' | '\\t' | '\\x0C' => return i,")
        );
        // `'\t'` is the match's already (another arm takes it), and no
        // other pattern takes `'#'`.
        assert!(!made.iter().any(|t| line(t, 8).contains("'\\t'")));
        assert!(outcomes(text, Operator::Variant, 9).is_empty());
    }

    /// ms-converter 1.4.0: the characters of a number, `'-'` and not
    /// `'+'`, in a pattern with a range.
    #[test]
    fn a_pattern_gets_the_counterpart_of_a_literal_it_takes() {
        let text = "fn end(s: &str) -> Option<usize> {\n    s.find(|c: char| !matches!(c, '0'..='9' | '.' | '-'))\n}\nfn blank(b: u8) -> bool {\n    matches!(b, b'\\n' | b'x')\n}\n";
        let made = outcomes(text, Operator::Variant, 2);
        let lines: BTreeSet<&str> = made.iter().map(|t| line(t, 2)).collect();
        assert_eq!(
            lines,
            BTreeSet::from(["s.find(|c: char| !matches!(c, '0'..='9' | '.' | '-' | '+'))"])
        );
        let made = outcomes(text, Operator::Variant, 5);
        let lines: BTreeSet<&str> = made.iter().map(|t| line(t, 5)).collect();
        assert_eq!(
            lines,
            BTreeSet::from([
                "matches!(b, b'\\n' | b'x' | b'\\r')",
                "matches!(b, b'\\n' | b'x' | b'X')"
            ])
        );
        assert_eq!(counterpart("'\\''").as_deref(), Some("'\"'"));
        assert_eq!(counterpart("'0'"), None);
    }

    #[test]
    fn a_pattern_gets_the_variant_it_forgot_loses_one_or_swaps_one() {
        let text = "pub enum Item { Rule, Text, List(u8), Heading { level: u8 } }\nimpl Item {\n    pub fn is_block(&self) -> bool {\n        matches!(*self, Item::List(..) | Item::Heading { .. })\n    }\n    pub fn level(&self) -> u8 {\n        match self {\n            Item::List(n) | Item::Heading { level: n } => *n,\n            _ => 0,\n        }\n    }\n}\n";
        let made = lines_in_order(text, Operator::Variant, 4);
        assert_eq!(
            made[..2],
            [
                "matches!(*self, Item::List(..) | Item::Heading { .. } | Item::Rule)",
                "matches!(*self, Item::List(..) | Item::Heading { .. } | Item::Text)",
            ]
        );
        assert!(made.contains(&"matches!(*self, Item::Heading { .. })".to_string()));
        assert!(made.contains(&"matches!(*self, Item::List(..))".to_string()));
        assert!(made.contains(&"matches!(*self, Item::Rule | Item::Heading { .. })".to_string()));
        // Names bound: nothing added, and only a variant of the same shape
        // takes another's place.
        let bound = outcomes(text, Operator::Variant, 7);
        let arms: BTreeSet<&str> = bound.iter().map(|t| line(t, 8)).collect();
        assert_eq!(
            arms,
            BTreeSet::from(["Item::Heading { level: n } => *n,", "Item::List(n) => *n,"])
        );
        // A match with no arm for the rest: only an alternative added (one
        // left out or replaced would leave a variant to no arm).
        let every = "pub enum E { A, B, C }\nfn f(e: E) -> u8 {\n    match e {\n        E::A | E::B => 1,\n        E::C => 2,\n    }\n}\n";
        let made = outcomes(every, Operator::Variant, 3);
        let before = every.matches("E::").count();
        assert_eq!(made.len(), 3, "{made:?}");
        assert!(
            made.iter().all(|t| t.matches("E::").count() == before + 1),
            "{made:?}"
        );
    }
}
