//! Failure groups: failing tests separated by how they fail, so that two
//! faults show up as two groups (SAT-TAR separates failures by the
//! specification they violate). A test's signature is where it panicked,
//! when that is in the crate's own code (or, for a panic in the standard
//! library or a dependency, the line of the crate's that called it, by the
//! backtrace and the test's trace), and otherwise the pattern of its panic
//! message (numbers and quoted values blanked out).
//!
//! Pure: verdicts in, groups out.

use std::ops::RangeInclusive;
use std::path::Path;

use crate::baseline::Baseline;
use crate::cargo::{TestId, Verdict};
use crate::code::source::Location;
use crate::code::{CrateSources, Spans, function_lines, test_line_ranges};

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Signature {
    /// A panic in the crate's code, at this line.
    PanicAt(Location),
    /// A panic elsewhere (in a test's assertion, say), by message pattern.
    Message(String),
    TimedOut,
}

/// Where failing tests panicked in the crate's own code, and how: the
/// place a fix most likely goes (a guard before it, a bounds-safe or
/// overflow-safe form of it), and which shapes of fix to try first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crash {
    pub location: Location,
    pub kind: PanicKind,
}

/// What a panic's message says went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PanicKind {
    /// An index or a range out of bounds (slices, strings, vectors).
    Index,
    /// Arithmetic that overflowed (`attempt to add with overflow`).
    Overflow,
    /// `unwrap` or `expect` of a `None` or an `Err`.
    Unwrap,
    /// Division or remainder by zero.
    Division,
    /// An `assert!`, `assert_eq!` or `debug_assert!` of the crate's own.
    Assertion,
    /// `panic!`, `unreachable!`, `todo!` and the rest.
    Other,
}

impl PanicKind {
    pub const ALL: [PanicKind; 6] = [
        PanicKind::Index,
        PanicKind::Overflow,
        PanicKind::Unwrap,
        PanicKind::Division,
        PanicKind::Assertion,
        PanicKind::Other,
    ];

    /// The kind of a panic with `message` (libstd's wording).
    pub fn of(message: &str) -> PanicKind {
        let first = message.lines().next().unwrap_or("");
        let has = |words: &[&str]| words.iter().any(|w| first.contains(w));
        if has(&[
            "out of bounds",
            "out of range for slice",
            "slice index starts at",
            "is not a char boundary",
        ]) {
            PanicKind::Index
        } else if has(&["with overflow", "attempt to negate", "attempt to shift"]) {
            PanicKind::Overflow
        } else if has(&["divide by zero", "remainder with a divisor of zero"]) {
            PanicKind::Division
        } else if has(&["on a `None` value", "on an `Err` value"]) {
            PanicKind::Unwrap
        } else if first.starts_with("assertion") {
            PanicKind::Assertion
        } else {
            PanicKind::Other
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PanicKind::Index => "index",
            PanicKind::Overflow => "overflow",
            PanicKind::Unwrap => "unwrap",
            PanicKind::Division => "division",
            PanicKind::Assertion => "assertion",
            PanicKind::Other => "panic",
        }
    }
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
    let called_from = caller(baseline);
    let signatures: Vec<(TestId, Signature)> = baseline
        .failing()
        .map(|r| {
            let signature = match sign(&r.outcome.verdict) {
                Signature::Message(pattern) => called_from(r.test, &r.outcome.verdict)
                    .map_or(Signature::Message(pattern), Signature::PanicAt),
                signature => signature,
            };
            (r.test, signature)
        })
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
    let spans = Spans::of(sources);
    move |verdict| {
        // A line of the crate's own (non-test) code, at the ranked line
        // whose code holds it.
        let crate_code = |path: &Path, line: u32| {
            let file = sources.find(path)?;
            let in_tests = test_lines[file.index()].iter().any(|r| r.contains(&line));
            let at = Location::new(file, line);
            (!in_tests).then(|| spans.holding(at).unwrap_or(at))
        };
        signature(verdict, crate_code)
    }
}

/// Where the crate called a panic of the standard library or a dependency
/// (an absolute location: `BTreeSet::range` given a start past its end,
/// `step_by(0)`): the innermost frame of the panic's backtrace that is a
/// function of the crate's own code, at the last line of it the test's
/// trace executed. `None` without a backtrace or a trace.
fn caller(baseline: &Baseline) -> impl Fn(TestId, &Verdict) -> Option<Location> + '_ {
    let sources = &baseline.sources;
    let functions: Vec<Vec<(String, RangeInclusive<u32>)>> = sources
        .files
        .iter()
        .map(|f| function_lines(&f.syntax))
        .collect();
    let tests: Vec<Vec<RangeInclusive<u32>>> = sources
        .files
        .iter()
        .map(|f| test_line_ranges(&f.syntax))
        .collect();
    let ours = format!("{}::", baseline.workspace.package.name.replace('-', "_"));
    move |test, verdict| {
        let Verdict::Failed(panic) = verdict else {
            return None;
        };
        if !panic.outside_workspace() {
            return None;
        }
        let trace = baseline.traces.get(&test)?;
        panic.frames.iter().find_map(|frame| {
            // A path of the crate's (`cron::schedule::..`, `<cron::X as ..>`),
            // not one that only ends in its name (`mycron::`).
            let mut paths = frame.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'));
            if !paths.any(|path| path.starts_with(&ours)) {
                return None;
            }
            let name = frame.rsplit("::").find(|s| !s.starts_with("{{"))?;
            trace.iter().rev().copied().find(|at| {
                let (file, line) = (at.file.index(), at.line);
                !tests[file].iter().any(|r| r.contains(&line))
                    && functions[file]
                        .iter()
                        .any(|(f, lines)| f == name && lines.contains(&line))
            })
        })
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
    let at = panic
        .file_and_line()
        .and_then(|(file, line)| crate_code(file, line));
    match at {
        Some(at) => Signature::PanicAt(at),
        None => Signature::Message(message_pattern(&panic.message)),
    }
}

/// The first line of a message with numbers and quoted values blanked out:
/// in double quotes, and in backquotes but for the assertion's own
/// (``assertion `left == right` failed``), so that one check's message
/// about many inputs (``expected error span 3..5 for `'\u{110000}'` ``,
/// litrs) reads as one.
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
            '"' | '`' => {
                let kept = c == '`' && (out == "assertion " || out == "assertion failed: ");
                out.push(c);
                for close in chars.by_ref() {
                    if close == c {
                        break;
                    }
                    if kept {
                        out.push(close);
                    }
                }
                out.extend((!kept).then_some('_'));
                out.push(c);
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

    #[test]
    fn panic_kinds_are_read_from_libstds_messages() {
        for (message, kind) in [
            (
                "index out of bounds: the len is 3 but the index is 3",
                PanicKind::Index,
            ),
            (
                "range end index 6 out of range for slice of length 5",
                PanicKind::Index,
            ),
            ("byte index 6 is out of bounds of `hello`", PanicKind::Index),
            ("attempt to add with overflow", PanicKind::Overflow),
            ("attempt to subtract with overflow", PanicKind::Overflow),
            ("attempt to divide by zero", PanicKind::Division),
            (
                "called `Option::unwrap()` on a `None` value",
                PanicKind::Unwrap,
            ),
            (
                "called `Result::unwrap()` on an `Err` value: Empty",
                PanicKind::Unwrap,
            ),
            ("assertion failed: n > 0", PanicKind::Assertion),
            (
                "assertion `left == right` failed\n  left: 1",
                PanicKind::Assertion,
            ),
            ("internal error: entered unreachable code", PanicKind::Other),
        ] {
            assert_eq!(PanicKind::of(message), kind, "{message}");
        }
    }
    use crate::cargo::Panic;
    use crate::code::source::FileId;

    fn failed(message: &str, location: &str) -> Verdict {
        Verdict::Failed(Panic {
            message: message.into(),
            location: Some(location.into()),
            ..Panic::default()
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
        assert_eq!(
            message_pattern("Expected error span Some(3..5) for `'\\u{110000}'` but got None"),
            message_pattern("Expected error span Some(1..2) for `\"\\u{FFFFFF}\"` but got None"),
        );
        assert_eq!(
            message_pattern("assertion `left != right` failed: for `x`"),
            "assertion `left != right` failed: for `_`"
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
