//! A case a `match` forgot: before an arm whose pattern is one literal, a
//! copy of it for another literal of its kind that the match writes and
//! no arm takes, the body's own uses of the pattern's literal made the new
//! one's (`'"' => vec!['\\', '"'],` gives `'\\' => vec!['\\', '\\'],`).
//! And a case an arm takes too many of: an arm with no guard, in a `match`
//! whose other arms have some, given one of theirs, or one of theirs with
//! a member it calls replaced by another of its owner (`0xf =>` beside `0
//! if self.is_nil() =>` gives `0xf if self.is_max() =>`).

use std::ops::Range;

use crate::code::free_variables;
use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// Add an arm for a literal no arm takes.
pub(super) struct Arm;

impl MutationOperator for Arm {
    fn operator(&self) -> Operator {
        Operator::Arm
    }

    fn name(&self) -> &'static str {
        "arm"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Arm { .. } | SiteKind::Unguarded { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        if let SiteKind::Unguarded { at, guards } = &site.kind {
            return guarded(*at, guards, site, cx);
        }
        let SiteKind::Arm {
            arm,
            pattern,
            uses,
            others,
            comma,
        } = &site.kind
        else {
            return Vec::new();
        };
        let line_start = cx.text[..arm.start].rfind('\n').map_or(0, |n| n + 1);
        let indent = &cx.text[line_start..arm.start];
        if !indent.chars().all(char::is_whitespace) {
            return Vec::new();
        }
        let mut replaced: Vec<&Range<usize>> = std::iter::once(pattern).chain(uses).collect();
        replaced.sort_by_key(|r| r.start);
        others
            .iter()
            .map(|other| {
                let mut copy = String::new();
                let mut at = arm.start;
                for range in &replaced {
                    copy.push_str(&cx.text[at..range.start]);
                    copy.push_str(other);
                    at = range.end;
                }
                copy.push_str(&cx.text[at..arm.end]);
                if *comma {
                    copy.push(',');
                }
                Edit::replace(arm.start..arm.start, format!("{copy}\n{indent}"))
            })
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        2
    }
}

/// The guards an unguarded arm may lack: each of its siblings' whose names
/// are in scope there, then each of those with a member it calls
/// (`.name()`) replaced by another of that member's owners (see
/// `MutationSpace::members`).
fn guarded(at: usize, guards: &[String], site: &Site, cx: &Context) -> Vec<Edit> {
    let mut conditions: Vec<String> = Vec::new();
    for guard in guards {
        let Ok(expr) = syn::parse_str::<syn::Expr>(guard) else {
            continue;
        };
        let in_scope = free_variables(&expr)
            .iter()
            .all(|name| name == "self" || site.bound.contains(name));
        if in_scope && !conditions.contains(guard) {
            conditions.push(guard.clone());
        }
    }
    for guard in conditions.clone() {
        for (call, name) in calls_without_arguments(&guard) {
            for member in cx.space.members(name, false).into_iter().take(MEMBERS) {
                let other = format!("{}.{member}{}", &guard[..call.start], &guard[call.end..]);
                if !conditions.contains(&other) {
                    conditions.push(other);
                }
            }
        }
    }
    conditions
        .into_iter()
        .map(|condition| Edit::replace(at..at, format!(" if {condition}")))
        .collect()
}

/// The members tried in place of one a guard calls.
const MEMBERS: usize = 4;

/// The calls without arguments in `text` (`.is_nil()`), as their bytes
/// from the `.` and their names.
fn calls_without_arguments(text: &str) -> Vec<(Range<usize>, &str)> {
    let mut calls = Vec::new();
    for (dot, _) in text.match_indices('.') {
        let after = &text[dot + 1..];
        let name_end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..name_end];
        if !name.is_empty() && after[name_end..].starts_with("()") {
            calls.push((dot..dot + 1 + name_end + 2, name));
        }
    }
    calls
}

#[cfg(test)]
mod tests {
    use super::super::tests::outcomes;
    use crate::mutation::patch::Operator;

    #[test]
    fn an_arm_is_copied_for_a_literal_the_match_writes_and_no_arm_takes() {
        let text = "pub fn escape(v: &str) -> String {\n    v.chars()\n        .flat_map(|c| match c {\n            '\"' => vec!['\\\\', '\"'],\n            '\\n' => vec!['\\\\', 'n'],\n            c => vec![c],\n        })\n        .collect()\n}\n";
        // At the line of the arm that takes the rest, where the case runs now.
        let made = outcomes(text, Operator::Arm, 6);
        let fix =
            "            '\\\\' => vec!['\\\\', '\\\\'],\n            '\"' => vec!['\\\\', '\"'],";
        assert!(made.iter().any(|t| t.contains(fix)), "{made:#?}");
        // The other arm copied, and `'n'`, which no arm takes either.
        assert!(
            made.iter()
                .any(|t| t.contains("'\\\\' => vec!['\\\\', 'n'],\n            '\\n'"))
        );
        assert!(made.iter().any(|t| t.contains("'n' => vec!['\\\\', 'n'],")));
        // Never a literal an arm already takes, nor one of another kind.
        assert!(!made.iter().any(|t| t.matches("'\"' =>").count() > 1));
        assert_eq!(made.len(), 4, "{made:#?}");
        // A match with no literal left over has no such site.
        let full = "pub fn f(c: char) -> u8 {\n    match c {\n        'a' => 1,\n        _ => 0,\n    }\n}\n";
        assert!(outcomes(full, Operator::Arm, 4).is_empty());
    }

    #[test]
    fn a_last_arm_without_a_comma_gets_one_in_its_copy() {
        // No arm takes the rest: the sites are at the match's line.
        let text = "pub fn f(b: u8) -> u8 {\n    match b {\n        _ if b > 9 => b'a',\n        b'a' => b'b'\n    }\n}\n";
        let made = outcomes(text, Operator::Arm, 2);
        assert!(
            made.iter()
                .any(|t| t.contains("b'b' => b'b',\n        b'a' => b'b'\n")),
            "{made:#?}"
        );
    }

    #[test]
    fn an_arm_without_a_guard_gets_its_siblings_or_one_of_another_member() {
        let text = "pub struct Id(u8);\nimpl Id {\n    pub fn is_nil(&self) -> bool { self.0 == 0 }\n    pub fn is_max(&self) -> bool { self.0 == 255 }\n    pub fn version(&self) -> Option<u8> {\n        match self.0 >> 4 {\n            0 if self.is_nil() => Some(0),\n            1 => Some(1),\n            0xf => Some(15),\n            _ => None,\n        }\n    }\n}\n";
        let made = super::super::tests::lines_made(text, Operator::Arm, 9);
        assert!(
            made.contains("0xf if self.is_max() => Some(15),"),
            "{made:?}"
        );
        assert!(
            made.contains("0xf if self.is_nil() => Some(15),"),
            "{made:?}"
        );
        // No guard where no arm takes what it turns away.
        let open = "pub fn f(b: u8, on: bool) -> u8 {\n    match b {\n        0 if on => 1,\n        1 => 2,\n        2 => 3,\n    }\n}\n";
        assert!(outcomes(open, Operator::Arm, 4).is_empty());
        // Nor a guard naming what the arm does not bind.
        let bound = "pub fn f(v: Option<u8>) -> u8 {\n    match v {\n        Some(x) if x > 3 => 1,\n        None => 2,\n        _ => 0,\n    }\n}\n";
        assert!(outcomes(bound, Operator::Arm, 4).is_empty());
    }
}
