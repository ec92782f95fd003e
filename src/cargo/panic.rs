//! Why a test failed, read from libtest's output: the panic of the test's
//! own thread, its backtrace's functions, and what a `should_panic` test
//! expected its panic to say.

/// Why a test failed: its panic message and location, or how its process died.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Panic {
    pub message: String,
    /// `file:line:column` as the panic reported it.
    pub location: Option<String>,
    /// When the test ran with a backtrace: its frames' functions, innermost
    /// first (`cron::schedule::Schedule::next_after`): where a panic in the
    /// standard library or a dependency was called from.
    #[serde(default)]
    pub frames: Vec<String>,
    /// What a `#[should_panic(expected = ..)]` test wanted its panic to
    /// contain, when libtest says the panic did not: a string literal, as
    /// libtest prints it (`"capacity overflow"`).
    #[serde(default)]
    pub expected: Option<String>,
}

impl Panic {
    /// Whether it panicked outside the workspace: in the standard library
    /// or a dependency (an absolute location), not in code of the crate's.
    pub fn outside_workspace(&self) -> bool {
        self.location.as_deref().is_some_and(|l| l.starts_with('/'))
    }

    /// The file and line it panicked at (`src/lib.rs` and 38 of
    /// `src/lib.rs:38:9`).
    pub fn file_and_line(&self) -> Option<(&std::path::Path, u32)> {
        let mut parts = self.location.as_deref()?.rsplitn(3, ':');
        let (_column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
        Some((std::path::Path::new(file), line.parse().ok()?))
    }
}

/// The panic of the test's own thread, from libtest's output (the captured
/// output of a failed test is printed on stdout; with `--nocapture` or for a
/// custom harness it is on stderr); else what a custom harness printed
/// under the test's name.
pub fn parse_panic(test_name: &str, stdout: &str, stderr: &str) -> Option<Panic> {
    let mut panics = Vec::new();
    for output in [stdout, stderr] {
        let mut rest = output;
        while let Some(at) = rest.find(" panicked at ") {
            // `thread 'NAME' panicked at` or, since Rust 1.88, `thread 'NAME' (ID) panicked at`.
            let line_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
            let thread = rest[line_start..at]
                .strip_prefix("thread '")
                .and_then(|t| t.rsplit_once('\'').map(|(name, _)| name))
                .unwrap_or("");
            let after = &rest[at + " panicked at ".len()..];
            let (header, body) = after.split_once('\n').unwrap_or((after, ""));
            let location = header.strip_suffix(':').unwrap_or(header).to_string();
            let message: Vec<&str> = body.lines().take_while(|line| in_message(line)).collect();
            panics.push((
                thread == test_name,
                Panic {
                    message: message.join("\n"),
                    location: Some(location),
                    frames: frames(body),
                    expected: None,
                },
            ));
            rest = &after[header.len()..];
        }
    }
    if panics.is_empty() {
        return harness_failure(test_name, stdout);
    }
    let own = panics.iter().position(|(own, _)| *own).unwrap_or(0);
    Some(Panic {
        expected: [stdout, stderr].into_iter().find_map(expected_substring),
        ..panics.swap_remove(own).1
    })
}

/// How a test of a custom harness failed without a panic, by the message
/// it printed under its name (libtest-mimic's `---- NAME ----` block).
fn harness_failure(test_name: &str, stdout: &str) -> Option<Panic> {
    let header = format!("---- {test_name} ----\n");
    let at = stdout.find(&header)? + header.len();
    let message: Vec<&str> = stdout[at..].lines().take_while(|l| in_message(l)).collect();
    (!message.is_empty()).then(|| Panic {
        message: message.join("\n"),
        ..Panic::default()
    })
}

/// The substring libtest says a `should_panic(expected = ..)` test's panic
/// did not contain (`note: panic did not contain expected string`, then
/// ` expected substring: "..."`), quoted and escaped as a Rust literal.
fn expected_substring(output: &str) -> Option<String> {
    let wanted = output
        .lines()
        .find_map(|line| line.strip_prefix(" expected substring: "))?;
    let literal = wanted.len() >= 2 && wanted.starts_with('"') && wanted.ends_with('"');
    literal.then(|| wanted.to_string())
}

/// Whether a line after a panic's header is still its message (not the
/// blank line, `note:` or backtrace after it).
fn in_message(line: &str) -> bool {
    !line.is_empty() && !line.starts_with("note: ") && !line.starts_with("stack backtrace:")
}

/// The functions of the backtrace printed after a panic's message
/// (`body`), innermost first (`   6: cron::schedule::Schedule::next_after`;
/// the `at file:line` lines of a build with debug info passed over).
fn frames(body: &str) -> Vec<String> {
    let mut lines = body.lines().skip_while(|line| in_message(line));
    if lines.next() != Some("stack backtrace:") {
        return Vec::new();
    }
    lines
        .take_while(|line| line.starts_with(' '))
        .filter_map(|line| {
            let (number, function) = line.trim().split_once(": ")?;
            number
                .chars()
                .all(|c| c.is_ascii_digit())
                .then(|| function.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_custom_harness_failure_without_a_panic_is_read_from_its_block() {
        let stdout = "running 1 test\ntest 3UYS ... FAILED\n\nfailures:\n\n---- 3UYS ----\nunexpected error ScanError\n### Input:\n\nfailures:\n    3UYS\n";
        let panic = parse_panic("3UYS", stdout, "").unwrap();
        assert_eq!(panic.message, "unexpected error ScanError\n### Input:");
        assert_eq!(panic.location, None);
        assert_eq!(parse_panic("other", stdout, ""), None);
    }

    #[test]
    fn reads_the_functions_of_a_backtrace() {
        let stdout = [
            "---- t stdout ----",
            "thread 't' (1) panicked at /rustc/abc/library/alloc/src/collections/btree/search.rs:119:21:",
            "range start is greater than range end in BTreeSet",
            "stack backtrace:",
            "   0: __rustc::rust_begin_unwind",
            "             at /rustc/abc/library/std/src/panicking.rs:689:5",
            "   6: cron::schedule::Schedule::next_after",
            "   7: <cron::schedule::ScheduleIterator<Z> as core::iter::traits::iterator::Iterator>::next",
            "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
            "",
            "failures:",
            "    t",
        ]
        .join("\n");
        let panic = parse_panic("t", &stdout, "").unwrap();
        assert_eq!(
            panic.message,
            "range start is greater than range end in BTreeSet"
        );
        assert_eq!(
            panic.frames,
            [
                "__rustc::rust_begin_unwind",
                "cron::schedule::Schedule::next_after",
                "<cron::schedule::ScheduleIterator<Z> as core::iter::traits::iterator::Iterator>::next"
            ]
        );
        // Without a backtrace, none.
        let plain =
            "thread 't' panicked at src/lib.rs:3:5:\nboom\nnote: run with `RUST_BACKTRACE=1`\n";
        assert!(parse_panic("t", plain, "").unwrap().frames.is_empty());
    }

    #[test]
    fn parses_the_panic_of_the_test_thread() {
        let stdout = "\nrunning 1 test\ntest tests::a ... FAILED\n\nfailures:\n\n---- tests::a stdout ----\n\
thread '<unnamed>' panicked at src/lib.rs:3:5:\nworker died\n\
thread 'tests::a' (6703) panicked at src/lib.rs:10:9:\nassertion `left == right` failed\n  left: 1\n right: 2\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\nfailures:\n    tests::a\n";
        let panic = parse_panic("tests::a", stdout, "").unwrap();
        assert_eq!(panic.location.as_deref(), Some("src/lib.rs:10:9"));
        assert_eq!(
            panic.message,
            "assertion `left == right` failed\n  left: 1\n right: 2"
        );
    }

    #[test]
    fn reads_what_a_should_panic_test_expected_its_panic_to_say() {
        // As libtest 1.95 prints it.
        let stdout = "---- t stdout ----\n\nthread 't' (17556) panicked at src/lib.rs:3:48:\nattempt to add with overflow\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\nnote: panic did not contain expected string\n      panic message: \"attempt to add with overflow\"\n expected substring: \"capacity \\\"overflow\\\"\"\n\nfailures:\n    t\n";
        let panic = parse_panic("t", stdout, "").unwrap();
        assert_eq!(panic.message, "attempt to add with overflow");
        assert_eq!(
            panic.expected.as_deref(),
            Some(r#""capacity \"overflow\"""#)
        );
        let plain = "thread 't' panicked at src/lib.rs:3:5:\nboom\n";
        assert_eq!(parse_panic("t", plain, "").unwrap().expected, None);
    }

    #[test]
    fn falls_back_to_the_first_panic() {
        let stderr = "thread 'main' panicked at src/main.rs:2:5:\nboom\n";
        let panic = parse_panic("whole", "", stderr).unwrap();
        assert_eq!(panic.message, "boom");
        assert_eq!(parse_panic("x", "all good", ""), None);
    }
}
