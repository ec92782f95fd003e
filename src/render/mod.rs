//! The product on stdout (a text table, JSON, GitHub workflow commands,
//! SARIF) and
//! the HTML page: views of a ranking. Pure: they return text.

pub mod explain;
pub mod github;
pub mod html;
pub mod json;
pub mod judgement;
pub mod sarif;
pub mod text;

use std::borrow::Cow;

use crate::baseline::Baseline;
use crate::code::source::Location;
use crate::code::spans::{Span, Spans};
use crate::localize::spectrum::{Metric, Suspect};
use crate::mutation::sites::Constant;

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

    /// `src/lib.rs:12`.
    pub fn place(&self, location: Location) -> String {
        self.baseline.sources.display(location)
    }
}

/// A score as the table shows it (DStar's unbounded score is `inf`).
pub fn format_score(score: f64) -> String {
    if score.is_infinite() {
        "inf".to_string()
    } else {
        format!("{score:.4}")
    }
}
