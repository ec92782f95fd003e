//! What `cargo autofix reduce` found: the reduced test function, then the
//! reduction as a unified diff of its file (`git apply` skips the text
//! before a diff, so the whole output applies), or the same as JSON.

use std::fmt::Write;

use serde_json::{Value, json};

use super::json::VERSION;
use crate::reduce::ReducedTest;

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
    out.push_str(&dedent(&reduced.reduced));
    out.push('\n');
    out.push_str(&reduced.diff);
    out
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
