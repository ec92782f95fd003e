//! Many reduced versions of one test in one build: each body becomes a
//! function of its own beside the test (`__autofix_reduce_K`, same return
//! type), and the test starts, on the line of its `{`, with a dispatch on
//! `CARGO_AUTOFIX_REDUCE=K`; without it the test runs as written. Every
//! copy is a body of its own, so one build reports every copy that does
//! not compile. Copies keep the lines of the body they come from (see
//! `body`), so a panic's line in a copy maps back to the original's.
//!
//! Pure: texts in, a woven text and its map out.

use std::fmt::Write;
use std::ops::Range;

use crate::code::{TestFunction, line_at};

/// The environment variable that selects a copy (1-based; absent: the test
/// as written).
pub const REDUCE_ENV: &str = "CARGO_AUTOFIX_REDUCE";

/// A test file with the copies woven in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Woven {
    pub text: String,
    /// Where copy `k` (index `k - 1`) lies in `text`, and the line of its `{`.
    copies: Vec<(Range<usize>, u32)>,
    /// The line of the original body's `{`.
    body_line: u32,
    /// The last line of the original test function, and how many lines the
    /// copies add after it.
    item_end_line: u32,
    added_lines: u32,
}

/// `function`'s file with a copy of it for each of `bodies` (blocks, braces
/// included, with the original body's lines).
pub fn weave(function: &TestFunction, bodies: &[&str]) -> Woven {
    let text = &function.text;
    let mut dispatch = String::from(
        " if let ::std::option::Option::Some(__autofix_copy) = ::std::env::var_os(\"CARGO_AUTOFIX_REDUCE\") { match __autofix_copy.to_str() {",
    );
    for k in 1..=bodies.len() {
        let _ = write!(
            dispatch,
            " ::std::option::Option::Some(\"{k}\") => return __autofix_reduce_{k}(),"
        );
    }
    dispatch.push_str(" _ => {} } }");
    let open = function.body.start + 1;
    let mut out = String::with_capacity(text.len() * (bodies.len() + 1));
    out.push_str(&text[..open]);
    out.push_str(&dispatch);
    out.push_str(&text[open..function.item.end]);
    let mut copies = Vec::new();
    for (index, body) in bodies.iter().enumerate() {
        let start = out.len();
        let _ = write!(
            out,
            "\n#[allow(warnings, clippy::all)]\nfn __autofix_reduce_{}() {} ",
            index + 1,
            function.output
        );
        let line = line_at(&out, out.len());
        out.push_str(body);
        copies.push((start..out.len(), line));
    }
    let item_end_line = line_at(text, function.item.end);
    let added_lines = line_at(&out, out.len()) - item_end_line;
    out.push_str(&text[function.item.end..]);
    Woven {
        text: out,
        copies,
        body_line: function.body_line(),
        item_end_line,
        added_lines,
    }
}

impl Woven {
    /// The copy (1-based) whose text holds bytes `range`.
    pub fn copy_at(&self, range: &Range<usize>) -> Option<usize> {
        self.copies
            .iter()
            .position(|(span, _)| span.start <= range.start && range.end <= span.end)
            .map(|index| index + 1)
    }

    /// The original file's line for `line` of the woven text: in a copy, the
    /// line of the body it came from; after the copies, shifted back.
    pub fn original_line(&self, line: u32) -> u32 {
        let copies_start = self.item_end_line + 1;
        if line < copies_start {
            return line;
        }
        if line > self.item_end_line + self.added_lines {
            return line - self.added_lines;
        }
        let (_, first) = self
            .copies
            .iter()
            .rev()
            .find(|(_, first)| *first <= line)
            .expect("a line among the copies is in one");
        line - first + self.body_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn function(text: &str) -> TestFunction {
        let item = text.find("#[test]").unwrap()..text.find("}\n// after").unwrap() + 1;
        let body = text.find("() {").unwrap() + 3..item.end;
        TestFunction {
            path: PathBuf::from("tests/t.rs"),
            text: text.to_string(),
            item,
            body,
            output: String::new(),
        }
    }

    const FILE: &str =
        "use x::f;\n#[test]\nfn t() {\n    f(1);\n    f(2);\n}\n// after\nfn g() {}\n";

    #[test]
    fn copies_go_after_the_test_and_the_dispatch_on_its_first_line() {
        let function = function(FILE);
        let woven = weave(
            &function,
            &["{\n    f(1);\n    \n}", "{\n    \n    f(2);\n}"],
        );
        let lines: Vec<&str> = woven.text.lines().collect();
        assert!(
            lines[2].starts_with("fn t() { if let ::std::option::Option::Some(__autofix_copy)")
        );
        assert!(lines[2].contains("Some(\"2\") => return __autofix_reduce_2(),"));
        assert_eq!(lines[3..6], ["    f(1);", "    f(2);", "}"]);
        assert_eq!(
            lines[6..8],
            [
                "#[allow(warnings, clippy::all)]",
                "fn __autofix_reduce_1()  {"
            ]
        );
        assert_eq!(lines.len(), FILE.lines().count() + 10);
        // The original's lines, copies' lines and later lines map back.
        assert_eq!(woven.original_line(4), 4);
        let f1 = lines.iter().position(|l| *l == "    f(1);").unwrap();
        let copy_f2 = lines.iter().rposition(|l| *l == "    f(2);").unwrap();
        assert_eq!(woven.original_line(f1 as u32 + 1), 4);
        assert_eq!(woven.original_line(copy_f2 as u32 + 1), 5);
        assert_eq!(woven.original_line(lines.len() as u32), 8);
        // Bytes of a copy belong to it.
        let at = woven.text.rfind("f(2)").unwrap();
        assert_eq!(woven.copy_at(&(at..at + 4)), Some(2));
        assert_eq!(woven.copy_at(&(0..3)), None);
    }
}
