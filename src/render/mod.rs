//! The product on stdout (a text table or JSON) and the HTML page: views of
//! a ranking. Pure: they return text.

pub mod explain;
pub mod html;
pub mod json;
pub mod text;

use crate::baseline::Baseline;
use crate::code::source::Location;
use crate::localize::spectrum::{Metric, Suspect};

/// A ranking with what it was computed from.
#[derive(Debug, Clone, Copy)]
pub struct Ranking<'a> {
    pub metric: Metric,
    pub suspects: &'a [Suspect],
    pub baseline: &'a Baseline,
}

impl Ranking<'_> {
    /// The original source text of a suspect's line, trimmed.
    pub fn code(&self, suspect: &Suspect) -> &str {
        self.baseline.sources.line_text(suspect.location)
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
