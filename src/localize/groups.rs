//! Failure groups: failing tests separated by how they fail, so that two
//! faults show up as two groups (SAT-TAR separates failures by the
//! specification they violate). A test's signature is where it panicked,
//! when that is in the crate's own code, and otherwise the pattern of its
//! panic message (numbers and quoted values blanked out).
//!
//! Pure: verdicts in, groups out.

use std::path::Path;

use crate::baseline::Baseline;
use crate::cargo::suite::{TestId, Verdict};
use crate::code::crate_sources::{CrateSources, test_line_ranges};
use crate::code::source::Location;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Signature {
    /// A panic in the crate's code, at this line.
    PanicAt(Location),
    /// A panic elsewhere (in a test's assertion, say), by message pattern.
    Message(String),
    TimedOut,
}

/// Failing tests with one signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureGroup {
    pub signature: Signature,
    /// How the signature reads: `panic at src/lib.rs:16`, `"assertion ... failed"`.
    pub description: String,
    pub tests: Vec<TestId>,
}

/// The failing tests of the baseline grouped by how they fail, the
/// largest group first.
pub fn failure_groups(baseline: &Baseline) -> Vec<FailureGroup> {
    let sign = signer(&baseline.sources);
    let signatures: Vec<(TestId, Signature)> = baseline
        .failing()
        .map(|r| (r.test, sign(&r.outcome.verdict)))
        .collect();
    group_failures(&signatures, |signature| {
        describe(&baseline.sources, signature)
    })
}

/// The signature of a failed verdict of a test of the crate of `sources`.
pub fn signer(sources: &CrateSources) -> impl Fn(&Verdict) -> Signature + '_ {
    let test_lines: Vec<Vec<std::ops::RangeInclusive<u32>>> = sources
        .files
        .iter()
        .map(|f| test_line_ranges(&f.syntax))
        .collect();
    move |verdict| {
        // A line of the crate's own (non-test) code.
        let crate_code = |path: &Path, line: u32| {
            let file = sources.find(path)?;
            let in_tests = test_lines[file.index()].iter().any(|r| r.contains(&line));
            (!in_tests).then_some(Location::new(file, line))
        };
        signature(verdict, crate_code)
    }
}

/// How a signature reads: `panic at src/lib.rs:16`, `"assertion ... failed"`.
pub fn describe(sources: &CrateSources, signature: &Signature) -> String {
    match signature {
        Signature::PanicAt(location) => format!("panic at {}", sources.display(*location)),
        Signature::Message(pattern) => format!("\"{pattern}\""),
        Signature::TimedOut => "timed out".to_string(),
    }
}

/// The signature of a failed test. `crate_code(file, line)` gives the
/// location of a line of the crate's own (non-test) code.
pub fn signature(
    verdict: &Verdict,
    crate_code: impl Fn(&Path, u32) -> Option<Location>,
) -> Signature {
    let panic = match verdict {
        Verdict::TimedOut => return Signature::TimedOut,
        Verdict::Failed(panic) => panic,
        Verdict::Passed => return Signature::Message(String::new()),
    };
    let at = panic.location.as_deref().and_then(|location| {
        let mut parts = location.rsplitn(3, ':');
        let (_column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
        crate_code(Path::new(file), line.parse().ok()?)
    });
    match at {
        Some(at) => Signature::PanicAt(at),
        None => Signature::Message(message_pattern(&panic.message)),
    }
}

/// The first line of a message with numbers and quoted values blanked out.
pub fn message_pattern(message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    let mut out = String::with_capacity(first.len());
    let mut chars = first.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '0'..='9' => {
                while chars
                    .peek()
                    .is_some_and(|c| c.is_ascii_digit() || *c == '.')
                {
                    chars.next();
                }
                out.push('N');
            }
            '"' => {
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                }
                out.push_str("\"_\"");
            }
            c => out.push(c),
        }
    }
    out
}

/// Groups failing tests by signature: the largest group first, then by
/// their first test. `describe` tells how a signature reads.
pub fn group_failures(
    failing: &[(TestId, Signature)],
    describe: impl Fn(&Signature) -> String,
) -> Vec<FailureGroup> {
    let mut groups: Vec<FailureGroup> = Vec::new();
    for (test, signature) in failing {
        match groups.iter_mut().find(|g| g.signature == *signature) {
            Some(group) => group.tests.push(*test),
            None => groups.push(FailureGroup {
                signature: signature.clone(),
                description: describe(signature),
                tests: vec![*test],
            }),
        }
    }
    groups.sort_by(|a, b| {
        b.tests
            .len()
            .cmp(&a.tests.len())
            .then(a.tests[0].cmp(&b.tests[0]))
    });
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cargo::suite::Panic;
    use crate::code::source::FileId;

    fn failed(message: &str, location: &str) -> Verdict {
        Verdict::Failed(Panic {
            message: message.into(),
            location: Some(location.into()),
        })
    }

    fn crate_code(file: &Path, line: u32) -> Option<Location> {
        (file == Path::new("src/lib.rs") && line < 40)
            .then_some(Location::new(FileId::new(0), line))
    }

    #[test]
    fn panics_in_crate_code_group_by_location_others_by_message() {
        assert_eq!(
            signature(
                &failed(
                    "index out of bounds: the len is 3 but the index is 3",
                    "src/lib.rs:12:9"
                ),
                crate_code
            ),
            Signature::PanicAt(Location::new(FileId::new(0), 12))
        );
        assert_eq!(
            signature(
                &failed(
                    "assertion `left == right` failed\n  left: 1\n right: 2",
                    "src/lib.rs:49:9"
                ),
                crate_code
            ),
            Signature::Message("assertion `left == right` failed".into())
        );
        assert_eq!(
            signature(&Verdict::TimedOut, crate_code),
            Signature::TimedOut
        );
        assert_eq!(
            message_pattern("expected \"a b\" at 12, got 3.5"),
            "expected \"_\" at N, got N"
        );
    }

    #[test]
    fn groups_are_largest_first() {
        let a = Signature::Message("a".into());
        let b = Signature::Message("b".into());
        let t = TestId::new;
        let groups = group_failures(
            &[(t(1), a.clone()), (t(2), b.clone()), (t(3), b.clone())],
            |s| format!("{s:?}"),
        );
        assert_eq!(
            groups,
            [
                FailureGroup {
                    signature: b,
                    description: "Message(\"b\")".into(),
                    tests: vec![t(2), t(3)]
                },
                FailureGroup {
                    signature: a,
                    description: "Message(\"a\")".into(),
                    tests: vec![t(1)]
                }
            ]
        );
    }
}
