//! A test body being reduced: its statements, and cuts (edits that keep
//! every line where it was, so that a panic's line in a reduced body is
//! the line of the original it came from), and the tidy form shown to the
//! user (lines a cut emptied removed).
//!
//! Pure: texts in, texts out.

use std::ops::Range;

use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::code::source::{Edit, splice};

/// One edit of a body: `range` replaced by `text`. When the replacement is
/// a part of the replaced text (an `if` by its block, perhaps re-indented),
/// `kept` is where that part was, so its lines stay where they were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    pub range: Range<usize>,
    pub text: String,
    pub kept: Option<Range<usize>>,
    /// What it does, for the progress lines: `if to its then block`.
    pub what: &'static str,
}

impl Cut {
    /// The range deleted.
    pub fn delete(range: Range<usize>) -> Cut {
        Cut {
            range,
            text: String::new(),
            kept: None,
            what: "statement deleted",
        }
    }

    /// `range` replaced by its part `kept`.
    pub fn keep_part(
        body: &str,
        range: Range<usize>,
        kept: Range<usize>,
        what: &'static str,
    ) -> Cut {
        Cut {
            text: body[kept.clone()].to_string(),
            range,
            kept: Some(kept),
            what,
        }
    }

    pub fn overlaps(&self, other: &Cut) -> bool {
        self.range.start < other.range.end && other.range.start < self.range.end
    }
}

/// `body` with `cuts` (none overlapping) applied, every line where it was:
/// a cut that removes lines leaves them empty.
pub fn apply(body: &str, cuts: &[&Cut]) -> String {
    let newlines = |range: Range<usize>| body[range].matches('\n').count();
    let edits: Vec<Edit> = cuts
        .iter()
        .map(|cut| {
            let (before, after) = match &cut.kept {
                Some(kept) => (
                    newlines(cut.range.start..kept.start),
                    newlines(kept.end..cut.range.end),
                ),
                None => (
                    0,
                    newlines(cut.range.clone()).saturating_sub(cut.text.matches('\n').count()),
                ),
            };
            Edit::replace(
                cut.range.clone(),
                format!("{}{}{}", "\n".repeat(before), cut.text, "\n".repeat(after)),
            )
        })
        .collect();
    splice(body, &edits).expect("cuts do not overlap")
}

/// The reduced body as the user reads it: lines that held code in
/// `original` and are blank in `reduced` (line for line) are dropped, and
/// so are comment lines above code that is all gone (up to the next blank
/// line); changed lines lose trailing blanks, and of the blank lines left,
/// those after an opening brace, before a closing one or after another go.
pub fn tidy(original: &str, reduced: &str) -> String {
    let old: Vec<&str> = original.split_inclusive('\n').collect();
    let new: Vec<&str> = reduced.split_inclusive('\n').collect();
    if old.len() != new.len() {
        return reduced.to_string();
    }
    let vacated = |i: usize| new[i].trim().is_empty() && !old[i].trim().is_empty();
    let is_comment = |line: &str| line.trim_start().starts_with("//");
    // A comment about lines that are all gone.
    let stale_comment = |i: usize| {
        let code: Vec<usize> = (i + 1..old.len())
            .take_while(|&j| !old[j].trim().is_empty() && !old[j].trim_start().starts_with('}'))
            .filter(|&j| !is_comment(old[j]))
            .collect();
        is_comment(old[i])
            && old[i] == new[i]
            && !code.is_empty()
            && code.iter().all(|&j| vacated(j))
    };
    let mut lines: Vec<String> = Vec::new();
    for (index, (old, new)) in old.iter().zip(&new).enumerate() {
        if vacated(index) || stale_comment(index) {
            continue;
        }
        if old == new {
            lines.push(new.to_string());
        } else {
            let newline = if new.ends_with('\n') { "\n" } else { "" };
            lines.push(format!("{}{newline}", new.trim_end()));
        }
    }
    let blank = |line: &String| line.trim().is_empty();
    let mut kept: Vec<String> = Vec::with_capacity(lines.len());
    for line in lines {
        let after_open_or_blank = kept
            .last()
            .is_some_and(|last| blank(last) || last.trim_end().ends_with('{'));
        if !(blank(&line) && after_open_or_blank) {
            kept.push(line);
        }
    }
    let before_close = |index: usize| {
        kept.get(index + 1)
            .is_some_and(|next| next.trim_start().starts_with('}'))
    };
    kept.iter()
        .enumerate()
        .filter(|(index, line)| !(blank(line) && before_close(*index)))
        .map(|(_, line)| line.as_str())
        .collect()
}

/// The statements of `body` (a block, braces included) at every depth (in
/// nested blocks, loops, closures; not in items declared in it), as byte
/// ranges in source order. `None` if the body does not parse.
pub fn statements(body: &str) -> Option<Vec<Range<usize>>> {
    struct Statements(Vec<Range<usize>>);
    impl<'ast> Visit<'ast> for Statements {
        fn visit_stmt(&mut self, stmt: &'ast syn::Stmt) {
            if matches!(stmt, syn::Stmt::Item(_)) {
                return;
            }
            self.0.push(stmt.span().byte_range());
            syn::visit::visit_stmt(self, stmt);
        }
    }
    let block: syn::Block = syn::parse_str(body).ok()?;
    let mut found = Statements(Vec::new());
    found.visit_block(&block);
    found.0.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    Some(found.0)
}

/// `body` keeping only the statements `kept` (indexes into `statements`):
/// the others are deleted, except those inside a deleted one.
pub fn keeping(body: &str, statements: &[Range<usize>], kept: &[usize]) -> String {
    let deleted: Vec<&Range<usize>> = statements
        .iter()
        .enumerate()
        .filter(|(index, _)| !kept.contains(index))
        .map(|(_, range)| range)
        .collect();
    let outermost: Vec<Cut> = deleted
        .iter()
        .filter(|range| {
            !deleted.iter().any(|other| {
                other != *range && other.start <= range.start && range.end <= other.end
            })
        })
        .map(|range| Cut::delete((*range).clone()))
        .collect();
    apply(body, &outermost.iter().collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "{\n    let a = 1;\n    if a > 0 {\n        let b = a;\n        assert_eq!(b, 2);\n    }\n    drop(a);\n}";

    fn texts(body: &str, ranges: &[Range<usize>]) -> Vec<String> {
        ranges.iter().map(|r| body[r.clone()].to_string()).collect()
    }

    #[test]
    fn statements_at_every_depth_in_order() {
        let found = statements(BODY).unwrap();
        assert_eq!(
            texts(BODY, &found),
            [
                "let a = 1;",
                "if a > 0 {\n        let b = a;\n        assert_eq!(b, 2);\n    }",
                "let b = a;",
                "assert_eq!(b, 2);",
                "drop(a);"
            ]
        );
        assert_eq!(
            statements("{ fn helper() { let x = 1; } helper(); }")
                .unwrap()
                .len(),
            1
        );
        assert_eq!(statements("{ let = ; }"), None);
    }

    #[test]
    fn deleting_keeps_lines_and_tidy_drops_the_emptied_ones() {
        let found = statements(BODY).unwrap();
        // Keep `let a`, the `if` and its assertion; delete `let b` and `drop(a)`.
        let reduced = keeping(BODY, &found, &[0, 1, 3]);
        assert_eq!(
            reduced,
            "{\n    let a = 1;\n    if a > 0 {\n        \n        assert_eq!(b, 2);\n    }\n    \n}"
        );
        assert_eq!(reduced.lines().count(), BODY.lines().count());
        assert_eq!(
            tidy(BODY, &reduced),
            "{\n    let a = 1;\n    if a > 0 {\n        assert_eq!(b, 2);\n    }\n}"
        );
        // A statement inside a deleted one is deleted with it.
        assert_eq!(
            keeping(BODY, &found, &[0, 3, 4]),
            "{\n    let a = 1;\n    \n\n\n\n    drop(a);\n}"
        );
    }

    #[test]
    fn a_kept_part_stays_on_its_lines() {
        let body = "{\n    if c {\n        x();\n    } else {\n        y();\n    }\n}";
        let if_range = body.find("if").unwrap()..body.rfind('}').unwrap() - 1;
        let inner = |block: &str| {
            let start = body.find(block).unwrap();
            start..start + block.len()
        };
        let then = Cut::keep_part(
            body,
            if_range.clone(),
            inner("\n        x();\n    "),
            "then",
        );
        let otherwise = Cut::keep_part(body, if_range, inner("\n        y();\n    "), "else");
        let with_then = apply(body, &[&then]);
        let with_else = apply(body, &[&otherwise]);
        for reduced in [&with_then, &with_else] {
            assert_eq!(reduced.lines().count(), body.lines().count());
        }
        assert_eq!(with_then.lines().nth(2), Some("        x();"));
        assert_eq!(with_else.lines().nth(4), Some("        y();"));
        assert_eq!(tidy(body, &with_else), "{\n        y();\n}");
        // Comments above code that is all gone go with it.
        let commented = "{\n    // one\n    a();\n\n    // two and three\n    b();\n    c();\n}";
        let found = statements(commented).unwrap();
        assert_eq!(
            tidy(commented, &keeping(commented, &found, &[2])),
            "{\n    // two and three\n    c();\n}"
        );
        // Blank lines the cuts leave at the edges or twice in a row go.
        let spaced = "{\n    a();\n\n    b();\n\n    c();\n\n    d();\n}";
        let found = statements(spaced).unwrap();
        assert_eq!(
            tidy(spaced, &keeping(spaced, &found, &[2])),
            "{\n    c();\n}"
        );
        assert_eq!(
            tidy(spaced, &keeping(spaced, &found, &[0])),
            "{\n    a();\n}"
        );
        assert_eq!(
            tidy(spaced, &keeping(spaced, &found, &[0, 3])),
            "{\n    a();\n\n    d();\n}"
        );
        // A replacement that is no part: padded after.
        let literal = Cut {
            range: inner("x();\n    } else {\n        y();"),
            text: "z();".into(),
            kept: None,
            what: "literal",
        };
        assert_eq!(
            apply(body, &[&literal]),
            "{\n    if c {\n        z();\n\n\n    }\n}"
        );
    }
}
