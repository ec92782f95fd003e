//! What `cargo autofix reduce` found: the reduced test function, then the
//! reduction as a unified diff of its file (`git apply` skips the text
//! before a diff, so the whole output applies), or the same as JSON.

use std::fmt::Write;

use serde_json::{Value, json};

use super::json::VERSION;
use crate::reduce::ReducedTest;
use crate::reduce::StillRuns;

/// A comment line saying what was reduced, the function, a blank line,
/// the diff.
pub fn text(reduced: &ReducedTest) -> String {
    let mut out = String::new();
    let minimal = if reduced.complete {
        "1-minimal"
    } else {
        "stopped by the time limit, maybe not 1-minimal"
    };
    let _ = writeln!(
        out,
        "// {}: {} statements reduced to {} ({minimal}); it still fails with {}",
        reduced.test, reduced.statements_before, reduced.statements_after, reduced.failure
    );
    if let Some(still) = &reduced.still_runs {
        let _ = writeln!(out, "// {}", still_runs(still));
    }
    out.push_str(&dedent(&reduced.reduced));
    out.push('\n');
    out.push_str(&reduced.diff);
    out
}

/// What the reduced test still executes, in a sentence.
fn still_runs(still: &StillRuns) -> String {
    let places = |kept: bool| -> Vec<String> {
        let top = still.top.iter().filter(|t| t.kept == kept);
        top.map(|t| format!("{} (rank {})", t.place, t.rank))
            .collect()
    };
    let mut said = format!(
        "it executes {} of the {} lines of the crate the original executed",
        still.kept_lines, still.original_lines
    );
    let (kept, lost) = (places(true), places(false));
    if !still.top.is_empty() {
        let _ = write!(
            said,
            "; of its {} most suspicious (Ochiai)",
            still.top.len()
        );
    }
    if !kept.is_empty() {
        let _ = write!(said, ", still {}", kept.join(", "));
    }
    if !lost.is_empty() {
        let _ = write!(said, ", no longer {}", lost.join(", "));
    }
    said
}

/// The same as a JSON object.
pub fn json(reduced: &ReducedTest) -> Value {
    let mut value = json!({ "version": VERSION });
    if let (Some(object), Ok(Value::Object(fields))) =
        (value.as_object_mut(), serde_json::to_value(reduced))
    {
        object.extend(fields);
    }
    value
}

/// `code` with the indentation of its first line taken off every line
/// that has it.
fn dedent(code: &str) -> String {
    let indent: String = code
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    code.split_inclusive('\n')
        .map(|line| line.strip_prefix(indent.as_str()).unwrap_or(line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::TopLine;

    fn reduced() -> ReducedTest {
        ReducedTest {
            test: "tests::t".into(),
            file: "src/lib.rs".into(),
            failure: "panic at src/lib.rs:3".into(),
            statements_before: 4,
            statements_after: 1,
            original: "    #[test]\n    fn t() {\n        a();\n        b();\n    }\n".into(),
            reduced: "    #[test]\n    fn t() {\n        b();\n    }\n".into(),
            diff: "diff --git a/src/lib.rs b/src/lib.rs\n".into(),
            builds: 3,
            versions: 9,
            seconds: 1.5,
            complete: true,
            still_runs: None,
        }
    }

    #[test]
    fn text_is_the_function_then_the_diff() {
        assert_eq!(
            text(&reduced()),
            "// tests::t: 4 statements reduced to 1 (1-minimal); it still fails with panic at src/lib.rs:3\n#[test]\nfn t() {\n    b();\n}\n\ndiff --git a/src/lib.rs b/src/lib.rs\n"
        );
        let stopped = ReducedTest {
            complete: false,
            ..reduced()
        };
        assert!(text(&stopped).contains("(stopped by the time limit, maybe not 1-minimal)"));
    }

    #[test]
    fn text_says_what_the_reduced_test_still_executes() {
        let line = |place: &str, rank, kept| TopLine {
            place: place.into(),
            rank,
            kept,
        };
        let measured = ReducedTest {
            still_runs: Some(StillRuns {
                original_lines: 9,
                kept_lines: 7,
                top: vec![
                    line("src/lib.rs:3", 1, true),
                    line("src/lib.rs:5", 2, false),
                ],
            }),
            ..reduced()
        };
        let said = text(&measured);
        assert_eq!(
            said.lines().nth(1),
            Some(
                "// it executes 7 of the 9 lines of the crate the original executed; of its 2 most suspicious (Ochiai), still src/lib.rs:3 (rank 1), no longer src/lib.rs:5 (rank 2)"
            )
        );
        assert_eq!(json(&measured)["still_runs"]["top"][1]["kept"], false);
    }

    #[test]
    fn json_has_every_field_and_the_version() {
        let value = json(&reduced());
        assert_eq!(value["version"], VERSION);
        assert_eq!(value["statements_after"], 1);
        assert_eq!(value["complete"], true);
        assert_eq!(
            value["reduced"],
            "    #[test]\n    fn t() {\n        b();\n    }\n"
        );
    }
}
