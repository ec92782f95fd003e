//! A case a `match` forgot: before an arm whose pattern is one literal, a
//! copy of it for another literal of its kind that the match writes and
//! no arm takes, the body's own uses of the pattern's literal made the new
//! one's (`'"' => vec!['\\', '"'],` gives `'\\' => vec!['\\', '\\'],`).

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
        matches!(kind, SiteKind::Arm { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
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
        let mut replaced: Vec<&std::ops::Range<usize>> =
            std::iter::once(pattern).chain(uses).collect();
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
}
