//! The product on stdout (a text table, JSON, GitHub workflow commands,
//! SARIF) and
//! the HTML page: views of a ranking. Pure: they return text.

pub mod explain;
pub mod github;
mod highlight;
pub mod html;
pub mod json;
pub mod judgement;
pub mod reduced;
pub mod sarif;
pub mod text;

use std::borrow::Cow;

use crate::baseline::Baseline;
use crate::baseline::{EventSite, Predicate};
use crate::code::source::{FileId, Location};
use crate::code::{Span, Spans, path_roots};
use crate::localize::{Metric, Suspect};
use crate::mutation::Constant;

/// A ranking with what it was computed from.
#[derive(Debug, Clone, Copy)]
pub struct Ranking<'a> {
    pub metric: Metric,
    pub suspects: &'a [Suspect],
    pub baseline: &'a Baseline,
    /// The `const` and `static` items, ranked at their first line.
    pub data: &'a [Constant],
}

impl Ranking<'_> {
    /// The original source text of a suspect's line, trimmed; for a
    /// `const` or `static` item of several lines, which lines it spans.
    pub fn code(&self, suspect: &Suspect) -> Cow<'_, str> {
        let text = self.baseline.sources.line_text(suspect.location);
        match self.data.iter().find(|c| c.location == suspect.location) {
            Some(item) if item.last_line > item.location.line => Cow::Owned(format!(
                "{text} … (lines {}-{})",
                item.location.line, item.last_line
            )),
            _ => Cow::Borrowed(text),
        }
    }

    /// The span of the code ranked at a suspect's line (`spans` are the
    /// crate's, [`Spans::of`]): its statement, or a `const` or `static`
    /// item's lines.
    pub fn span(&self, spans: &Spans, suspect: &Suspect) -> Option<Span> {
        let Some(item) = self.data.iter().find(|c| c.location == suspect.location) else {
            return spans.get(suspect.location);
        };
        let text = &self.baseline.sources.get(item.location.file).text;
        let line = |n: u32| text.lines().nth(n as usize - 1).unwrap_or("");
        let first = line(item.location.line);
        Some(Span {
            line: item.location.line,
            column: (first.chars().count() - first.trim_start().chars().count()) as u32 + 1,
            end_line: item.last_line,
            end_column: line(item.last_line).trim_end().chars().count() as u32 + 1,
        })
    }

    /// A file's path relative to the workspace root, with `/` (as JSON
    /// and other programs read it).
    pub fn file(&self, file: FileId) -> String {
        self.baseline
            .sources
            .get(file)
            .path
            .to_string_lossy()
            .replace('\\', "/")
    }

    /// The name of the package whose code `file` is: the package or a
    /// workspace member it links.
    pub fn package(&self, file: FileId) -> &str {
        let workspace = &self.baseline.workspace;
        &workspace
            .package_of(&self.baseline.sources.get(file).path)
            .name
    }

    /// `src/lib.rs:12`.
    pub fn place(&self, location: Location) -> String {
        self.baseline.sources.display(location)
    }

    /// The site a predicate observes.
    pub fn site(&self, predicate: &Predicate) -> &EventSite {
        &self.baseline.probes.events[predicate.site]
    }

    /// `` src/lib.rs:12 `c == '"'` is true ``.
    pub fn predicate(&self, predicate: &Predicate) -> String {
        let site = self.site(predicate);
        format!(
            "{} {}",
            self.place(site.location),
            site.describe(predicate.outcome)
        )
    }
}

/// Where the most suspicious line lies when it is in a workspace member
/// the package depends on, not in the package whose tests fail (one line;
/// with `--workspace` every member's tests run, and the test names say
/// whose fail).
pub fn elsewhere(ranking: &Ranking) -> Option<String> {
    if ranking.baseline.workspace.whole {
        return None;
    }
    let top = ranking.suspects.first()?;
    let member = ranking.package(top.location.file);
    let package = &ranking.baseline.workspace.package.name;
    (member != package).then(|| {
        format!(
            "the most suspicious line, {}, is in `{member}`, a workspace member `{package}` depends on, not in `{package}` whose tests fail",
            ranking.place(top.location)
        )
    })
}

/// At most this many lines share the top score for [`calls_outside`] to
/// read them.
const TOP_CALLS: usize = 5;

/// The dependency from outside the workspace that each line of the top
/// score calls into by a path (`idna::domain_to_ascii(..)`), when they all
/// name one: where the fault may be, and no patch goes. (The score, not the
/// rank: an edit that bends a test around a dependency's wrong answer
/// lifts a line above them.)
pub fn calls_outside(ranking: &Ranking) -> Option<String> {
    let outside = &ranking.baseline.workspace.outside;
    let best = ranking
        .suspects
        .iter()
        .map(|s| s.score)
        .fold(f64::MIN, f64::max);
    let top: Vec<&Suspect> = ranking
        .suspects
        .iter()
        .filter(|s| s.score == best)
        .collect();
    if top.len() > TOP_CALLS {
        return None;
    }
    let named = |s: &Suspect| -> Vec<String> {
        path_roots(&ranking.code(s))
            .into_iter()
            .filter(|name| outside.contains(name))
            .collect()
    };
    let (first, rest) = top.split_first()?;
    let common = named(first)
        .into_iter()
        .find(|name| rest.iter().all(|s| named(s).contains(name)))?;
    let lines = if top.len() == 1 {
        "line calls"
    } else {
        "lines all call"
    };
    Some(format!(
        "the most suspicious {lines} into `{common}`, a dependency outside the workspace, which cargo autofix does not edit (if the fault is there, fix it there)"
    ))
}

/// Why no line a failing test ran is ranked, when none is (no test fails,
/// or the failing tests ran no probed line: files left uninstrumented are
/// named with the lines they hold); `None` when some failing test ran a
/// probed line.
pub fn nothing_ranked(baseline: &Baseline) -> Option<String> {
    let failing = baseline.failing().count();
    if failing == 0 {
        return Some("no line is ranked: no test fails".to_string());
    }
    if baseline.failing().any(|r| !r.lines.is_empty()) {
        return None;
    }
    let tests = if failing == 1 {
        "the failing test ran".to_string()
    } else {
        format!("none of the {failing} failing tests ran")
    };
    let cause = if baseline.uninstrumented.is_empty() {
        "the code they run has none (it is a `const fn`, code that macros generate, \
         or code of the tests and other crates only)"
            .to_string()
    } else {
        let files: Vec<String> = baseline
            .uninstrumented
            .iter()
            .map(|left| {
                format!(
                    "{} ({} executable line{})",
                    baseline.sources.get(left.file).path.display(),
                    left.lines,
                    if left.lines == 1 { "" } else { "s" }
                )
            })
            .collect();
        let (verb, pronoun) = if files.len() == 1 {
            ("is", "its")
        } else {
            ("are", "their")
        };
        format!(
            "{} {verb} left uninstrumented because {pronoun} probes do not compile, and what they run may be there",
            files.join(", ")
        )
    };
    Some(format!(
        "no line a failing test ran is ranked: {tests} no probed line of the crate; {cause}"
    ))
}

/// The `why` column: the mutation class and the refinements' marks of a
/// suspect, or `-`.
pub fn why(suspect: &Suspect) -> String {
    let class = suspect
        .mutation
        .filter(|m| m.edits > 0)
        .map(|m| m.class.name());
    let marks: Vec<&str> = class
        .into_iter()
        .chain(
            [
                (suspect.critical, "switch"),
                (suspect.crash, "crash"),
                (suspect.in_slice, "slice"),
                (suspect.in_diff, "diff"),
            ]
            .into_iter()
            .filter_map(|(on, mark)| on.then_some(mark)),
        )
        .collect();
    if marks.is_empty() {
        "-".to_string()
    } else {
        marks.join(",")
    }
}

/// A score as JSON holds it: JSON has no infinity, so DStar's unbounded
/// score is written as `f64::MAX`.
pub fn json_score(score: f64) -> f64 {
    if score.is_infinite() { f64::MAX } else { score }
}

/// A score as the table shows it (DStar's unbounded score is `inf`).
pub fn format_score(score: f64) -> String {
    if score.is_infinite() {
        "inf".to_string()
    } else {
        format!("{score:.4}")
    }
}
