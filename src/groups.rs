//! Failure groups: failing tests separated by how they fail, so that two
//! faults show up as two groups (SAT-TAR separates failures by the
//! specification they violate). A test's signature is where it panicked,
//! when that is in the crate's own code, and otherwise the pattern of its
//! panic message (numbers and quoted values blanked out).
//!
//! Pure: verdicts in, groups out.

use std::fmt;
use std::path::Path;

use crate::source::Location;
use crate::suite::Verdict;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Signature {
    /// A panic in the crate's code, at this line.
    PanicAt(Location),
    /// A panic elsewhere (in a test's assertion, say), by message pattern.
    Message(String),
    TimedOut,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Signature::PanicAt(location) => write!(f, "panic at {location}"),
            Signature::Message(pattern) => write!(f, "\"{pattern}\""),
            Signature::TimedOut => f.write_str("timed out"),
        }
    }
}

/// Failing tests with one signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureGroup {
    pub signature: Signature,
    /// Suite indexes of its tests.
    pub tests: Vec<usize>,
}

/// The signature of a failed test. `is_crate_code(file, line)` tells a line
/// of the crate's own (non-test) code.
pub fn signature(verdict: &Verdict, is_crate_code: impl Fn(&Path, u32) -> bool) -> Signature {
    let panic = match verdict {
        Verdict::TimedOut => return Signature::TimedOut,
        Verdict::Failed(panic) => panic,
        Verdict::Passed => return Signature::Message(String::new()),
    };
    let at = panic.location.as_deref().and_then(|location| {
        let mut parts = location.rsplitn(3, ':');
        let (_column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
        Some(Location {
            file: file.into(),
            line: line.parse().ok()?,
        })
    });
    match at {
        Some(at) if is_crate_code(&at.file, at.line) => Signature::PanicAt(at),
        _ => Signature::Message(message_pattern(&panic.message)),
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
/// their first test.
pub fn group_failures(failing: &[(usize, Signature)]) -> Vec<FailureGroup> {
    let mut groups: Vec<FailureGroup> = Vec::new();
    for (test, signature) in failing {
        match groups.iter_mut().find(|g| g.signature == *signature) {
            Some(group) => group.tests.push(*test),
            None => groups.push(FailureGroup {
                signature: signature.clone(),
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
    use crate::suite::Panic;

    fn failed(message: &str, location: &str) -> Verdict {
        Verdict::Failed(Panic {
            message: message.into(),
            location: Some(location.into()),
        })
    }

    fn crate_code(file: &Path, line: u32) -> bool {
        file == Path::new("src/lib.rs") && line < 40
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
            Signature::PanicAt(Location {
                file: "src/lib.rs".into(),
                line: 12
            })
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
        let groups = group_failures(&[(1, a.clone()), (2, b.clone()), (3, b.clone())]);
        assert_eq!(
            groups,
            [
                FailureGroup {
                    signature: b,
                    tests: vec![2, 3]
                },
                FailureGroup {
                    signature: a,
                    tests: vec![1]
                }
            ]
        );
    }
}
