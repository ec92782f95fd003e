//! The top of the page: the header (the verdict, the repair's reasons and
//! counts, the failing tests and the most suspicious line) and the patch.

use maud::{Markup, display, html};

use super::super::{Ranking, format_score, nothing_ranked};
use super::link;
use crate::baseline::TestRecord;
use crate::cargo::Verdict;
use crate::localize::Counts;
use crate::repair::Level;
use crate::repair::{Outcome, RepairReport};

/// Failing tests the header lists (a suite can fail by the hundred).
const FAILURES_TOP: usize = 20;
/// Of a panic message, the lines and the characters the header shows.
const MESSAGE_LINES: usize = 12;
const MESSAGE_CHARS: usize = 1500;

/// What a reader looks for first: the verdict (with the repair's counts
/// and the reasons for and against its patch), the tests, how each failing
/// test failed, and where the most suspicious line is.
pub(super) fn header(ranking: &Ranking, totals: Counts, repair: Option<&RepairReport>) -> Markup {
    let (class, label, sentence) = verdict(repair);
    html! {
        header.summary {
            p.verdict.(class) { strong { (label) } " " (sentence) }
            @if let Some(report) = repair {
                (repair_facts(report))
            }
            p.facts {
                "Package " code { (ranking.baseline.workspace.package.name) } ": "
                (totals.passed) " passing and " (totals.failed) " failing tests; lines ranked by "
                (display(ranking.metric)) "."
            }
            (failures(ranking, repair))
            (most_suspicious(ranking))
        }
    }
}

/// The verdict's CSS class, its label and the sentence after it: the
/// repair's outcome with the report's confidence level, or "ranking only".
fn verdict(repair: Option<&RepairReport>) -> (&'static str, &'static str, String) {
    let Some(report) = repair else {
        return (
            "rank-only",
            "Ranking only",
            "no repair was attempted: the lines below are ranked by how suspicious they are."
                .to_string(),
        );
    };
    match report.outcome {
        Outcome::Fixed => match report.confidence.as_ref().map(|c| c.level) {
            Some(Level::Likely) => (
                "fixed",
                "Fixed",
                "the patch below passes every test, and nothing speaks against it (confidence: likely).".to_string(),
            ),
            Some(Level::Plausible) => (
                "plausible",
                "Plausible",
                "the patch below passes every test, but something speaks against it (confidence: plausible): review it.".to_string(),
            ),
            None => (
                "fixed",
                "Fixed",
                "the patch below passes every test.".to_string(),
            ),
        },
        Outcome::NotFixed => (
            "not-fixed",
            "Not fixed",
            "no patch passes every test.".to_string(),
        ),
        Outcome::Interrupted => (
            "interrupted",
            "Interrupted",
            match &report.interrupted {
                Some(how) => format!("before a patch was validated: {how}."),
                None => "before a patch was validated.".to_string(),
            },
        ),
    }
}

/// The reasons for and against the repair's patch, why validation
/// rejected its best candidate (if it did), and its counts.
fn repair_facts(report: &RepairReport) -> Markup {
    html! {
        @if let Some(confidence) = &report.confidence {
            ul.reasons {
                @for reason in &confidence.reasons {
                    @if reason.supports {
                        li.for { "+ " (reason.text) }
                    } @else {
                        li.against { "- " (reason.text) }
                    }
                }
            }
        }
        @if let Some(rejected) = &report.rejected_by_validation {
            p { "The best candidate failed validation: " (rejected) }
        }
        p {
            (report.candidates_evaluated) " candidates evaluated ("
            (report.candidates_compiled) " compiled) in "
            (format!("{:.1}", report.elapsed_seconds)) " s."
        }
    }
}

/// Each failing test (the first [`FAILURES_TOP`]) with how it failed.
fn failures(ranking: &Ranking, repair: Option<&RepairReport>) -> Markup {
    let failing: Vec<_> = ranking.baseline.failing().collect();
    if failing.is_empty() {
        return html! {};
    }
    html! {
        h2 { "Failing tests" }
        ul.failures {
            @for record in failing.iter().take(FAILURES_TOP) {
                (failure(ranking, record, repair))
            }
            @if failing.len() > FAILURES_TOP {
                li { "… and " (failing.len() - FAILURES_TOP) " more" }
            }
        }
    }
}

/// A failing test with its panic message and where it panicked, or that
/// it timed out; after a repair, a tag if the patch fixed it or if it was
/// found flaky.
fn failure(ranking: &Ranking, record: &TestRecord, repair: Option<&RepairReport>) -> Markup {
    let name = &ranking.baseline.suite.get(record.test).full_name;
    let tag = repair.and_then(|report| {
        if report.flaky_tests.contains(name) {
            Some(html! { span.tag.flaky { "flaky" } })
        } else if report.fixed_tests.contains(name) {
            Some(html! { span.tag { "fixed by the patch" } })
        } else {
            None
        }
    });
    html! {
        li.failure {
            code.test { (name) }
            @if let Some(tag) = tag {
                " " (tag)
            }
            " "
            @match &record.outcome.verdict {
                Verdict::Failed(panic) => {
                    @if let Some(location) = &panic.location {
                        "panicked at " code { (location) }
                    } @else {
                        "failed"
                    }
                    pre.message { (excerpt(&panic.message)) }
                }
                Verdict::TimedOut => "timed out",
                Verdict::Passed => "passed",
            }
        }
    }
}

/// A panic message cut to [`MESSAGE_LINES`] lines and [`MESSAGE_CHARS`]
/// characters (an `assert_eq!` of two long values can fill a screen), with
/// `…` where it was cut; `(no message)` for an empty one.
fn excerpt(message: &str) -> String {
    let message = message.trim_end();
    if message.is_empty() {
        return "(no message)".to_string();
    }
    let lines: Vec<&str> = message.lines().take(MESSAGE_LINES).collect();
    let mut text = lines.join("\n");
    let mut cut = lines.len() < message.lines().count();
    if text.chars().count() > MESSAGE_CHARS {
        text = text.chars().take(MESSAGE_CHARS).collect();
        cut = true;
    }
    if cut {
        text.push_str(" …");
    }
    text
}

/// A link to the first-ranked line with its code and score; or why no
/// line is ranked.
fn most_suspicious(ranking: &Ranking) -> Markup {
    let Some(first) = ranking.suspects.first() else {
        return html! {
            @if let Some(why) = nothing_ranked(ranking.baseline) {
                p.most-suspicious { (why) "." }
            }
        };
    };
    let tied = ranking
        .suspects
        .iter()
        .skip(1)
        .take_while(|s| s.rank == first.rank)
        .count();
    let ties = match tied {
        0 => String::new(),
        1 => ", tied with 1 other line".to_string(),
        n => format!(", tied with {n} other lines"),
    };
    html! {
        p.most-suspicious {
            "Most suspicious line: " (link(ranking, first.location))
            " " code { (ranking.code(first)) }
            " (rank " (first.rank) (ties) "; " (display(ranking.metric)) " "
            (format_score(first.score)) ")."
        }
    }
}

/// The patch, validated or (when some failure groups were fixed and not
/// others) partial, as a coloured unified diff: one block span per line,
/// nothing between them.
pub(super) fn patch(report: &RepairReport) -> Markup {
    let Some(patch) = report.patch.as_deref().or(report.partial_patch.as_deref()) else {
        return html! {};
    };
    html! {
        h2 { "Patch" }
        @if report.patch.is_none() {
            p { "The patch of the failure groups fixed (not validated):" }
        }
        pre.diff {
            @for line in patch.lines() {
                span class=(diff_class(line)) { (line) }
            }
        }
    }
}

/// The classes of a line of a diff: `line`, and `add`, `del` or `hunk`
/// but on context lines and the files' header lines.
fn diff_class(line: &str) -> &'static str {
    match line.chars().next() {
        _ if line.starts_with("+++") || line.starts_with("---") => "line",
        Some('+') => "line add",
        Some('-') => "line del",
        Some('@') => "line hunk",
        _ => "line",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_cuts_long_messages() {
        assert_eq!(excerpt(""), "(no message)");
        assert_eq!(excerpt("boom\n"), "boom");
        let long = "line\n".repeat(MESSAGE_LINES + 3);
        let cut = excerpt(&long);
        assert_eq!(cut.lines().count(), MESSAGE_LINES);
        assert!(cut.ends_with(" …"));
    }
}
