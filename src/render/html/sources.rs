//! The ranked files, most suspicious first, one block span per source line
//! as in an editor: syntax-highlighted, each executed line shaded by its
//! score relative to the top score, the first-ranked lines outlined and
//! the ranks up to [`BADGE_RANKS`] badged; the rank, score and counts in
//! the tooltip.

use std::collections::BTreeMap;

use maud::{Markup, display, html};

use super::super::highlight::{State, tokens};
use super::super::{Ranking, format_score, why};
use super::anchor;
use crate::code::source::{FileId, Location};
use crate::localize::{Counts, Suspect};

/// Lines ranked at most this (worst-case rank) get a badge with their rank.
const BADGE_RANKS: usize = 5;
/// The lightness of the darkest shade (the top score); white is 100%.
const DARKEST: f64 = 72.0;
/// Where a finite score's shade stops when some line scores DStar's `inf`:
/// the `inf` lines alone get the darkest shade.
const FINITE_CAP: f64 = 0.8;

/// How a line's score becomes the intensity of its shade, 0 (white) to 1
/// (the darkest): its score over the top finite score, negative scores
/// (Op2's) as 0. When some line scores DStar's unbounded `inf`, those lines
/// alone get 1 and the finite scores at most [`FINITE_CAP`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct Shading {
    /// The highest finite score.
    top: f64,
    /// Whether some line scores `inf`.
    unbounded: bool,
}

impl Shading {
    fn of(suspects: &[Suspect]) -> Shading {
        let finite = suspects.iter().map(|s| s.score).filter(|s| s.is_finite());
        Shading {
            top: finite.fold(0.0, f64::max),
            unbounded: suspects
                .iter()
                .any(|s| s.score.is_infinite() && s.score > 0.0),
        }
    }

    fn shade(self, score: f64) -> f64 {
        if score.is_infinite() && score > 0.0 {
            return 1.0;
        }
        if !score.is_finite() || self.top <= 0.0 {
            return 0.0;
        }
        let cap = if self.unbounded { FINITE_CAP } else { 1.0 };
        (score / self.top).clamp(0.0, 1.0) * cap
    }
}

/// The background of a line of that shade: white to red by lightness (text
/// stays readable on the darkest).
fn shade_colour(shade: f64) -> String {
    format!("hsl(0, 85%, {:.1}%)", 100.0 - (100.0 - DARKEST) * shade)
}

/// Which ranked lines are marked: those of the first rank are outlined,
/// those ranked at most [`BADGE_RANKS`] (or tied with the first) show their
/// rank beside the line.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Marks {
    /// The rank of the first line of the ranking (worst case: the number of
    /// lines tied with it).
    first: usize,
}

impl Marks {
    fn of(suspects: &[Suspect]) -> Marks {
        Marks {
            first: suspects.first().map_or(0, |s| s.rank),
        }
    }

    fn is_first(self, suspect: &Suspect) -> bool {
        suspect.rank == self.first
    }

    fn badge(self, suspect: &Suspect) -> bool {
        suspect.rank <= BADGE_RANKS.max(self.first)
    }
}

/// What the lines of every file are drawn with: the ranking, its suspects
/// by line, the tests' totals (for the tooltips), the shading and the marks.
struct View<'a> {
    ranking: &'a Ranking<'a>,
    by_line: BTreeMap<Location, &'a Suspect>,
    totals: Counts,
    shading: Shading,
    marks: Marks,
}

/// The ranked files, most suspicious first, after a legend of their marks.
pub(super) fn sources(ranking: &Ranking, totals: Counts) -> Markup {
    let mut files: Vec<FileId> = Vec::new();
    for suspect in ranking.suspects {
        if !files.contains(&suspect.location.file) {
            files.push(suspect.location.file);
        }
    }
    if files.is_empty() {
        return html! {};
    }
    let view = View {
        ranking,
        by_line: ranking.suspects.iter().map(|s| (s.location, s)).collect(),
        totals,
        shading: Shading::of(ranking.suspects),
        marks: Marks::of(ranking.suspects),
    };
    html! {
        h2 { "Sources" }
        (view.legend())
        @for file in files {
            h3 { (ranking.baseline.sources.get(file).path.display().to_string()) }
            (view.file(file))
        }
    }
}

impl View<'_> {
    /// What the colours and marks of the sources mean.
    fn legend(&self) -> Markup {
        let (shading, marks) = (self.shading, self.marks);
        html! {
            ul.legend {
                li {
                    span.scale style={
                        "background: linear-gradient(to right, " (shade_colour(0.0)) ", "
                        (shade_colour(1.0)) ")"
                    } {}
                    " background: the line's " (display(self.ranking.metric))
                    " score relative to the top score (" (format_score(shading.top))
                    "): white for 0 or less, the darkest red for the top"
                    @if shading.unbounded {
                        "; lines scoring inf are darkest, finite scores stop short of it"
                    }
                    ". Hover over a line for its rank, score and tests."
                }
                li {
                    span.bar {}
                    " a grey bar at the left: some test executed the line; lines without it \
                     never ran."
                }
                li {
                    span.badge.first { (marks.first) }
                    " the rank of the lines ranked " (BADGE_RANKS.max(marks.first))
                    " or better (worst case among ties); the first-ranked line is outlined in red."
                }
            }
        }
    }

    /// A file's lines, highlighted, with nothing between them (each is a
    /// block of its own).
    fn file(&self, file: FileId) -> Markup {
        let source = self.ranking.baseline.sources.get(file);
        let mut state = State::default();
        let lines = source.text.lines().enumerate().map(|(index, text)| {
            let (code, next) = highlighted(text, state);
            state = next;
            self.line(Location::new(file, index as u32 + 1), code)
        });
        html! {
            pre.source {
                @for line in lines {
                    (line)
                }
            }
        }
    }

    /// One line of a file, its code already highlighted; a ranked line has
    /// its shade, its why, its rank and score in the tooltip, and its marks.
    fn line(&self, location: Location, code: Markup) -> Markup {
        let id = anchor(self.ranking, location);
        let number = html! { span.no { (location.line) } };
        let Some(suspect) = self.by_line.get(&location).copied() else {
            return html! { span.line id=(id) { (number) (code) } };
        };
        let shade = self.shading.shade(suspect.score);
        let totals = self.totals;
        html! {
            span.line.ranked.top[self.marks.is_first(suspect)] id=(id)
                data-why=(why(suspect)) data-shade=(format!("{shade:.3}"))
                style={ "background-color: " (shade_colour(shade)) }
                title={
                    "rank " (suspect.rank) " · " (display(self.ranking.metric)) " "
                    (format_score(suspect.score))
                    " · failed " (suspect.counts.failed) "/" (totals.failed)
                    " · passed " (suspect.counts.passed) "/" (totals.passed)
                } {
                (number)
                @if self.marks.badge(suspect) {
                    span.badge { (suspect.rank) }
                }
                (code)
            }
        }
    }
}

/// A line with a span per classed piece, and the state the next line
/// starts in. Should the pieces not put the line back together, the line
/// is plain text and the next starts afresh.
fn highlighted(line: &str, state: State) -> (Markup, State) {
    let (tokens, next) = tokens(line, state);
    if tokens.iter().map(|(_, text)| *text).collect::<String>() != line {
        return (html! { (line) }, State::Code);
    }
    let code = html! {
        @for (class, text) in tokens {
            @if let Some(class) = class {
                span class=(class) { (text) }
            } @else {
                (text)
            }
        }
    };
    (code, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlighted_lines_are_escaped() {
        let odd = [
            "<&>\"'",
            "'é'",
            "\"é\\",
            "r#",
            "/*/",
            "#[cfg(test)]",
            "a!=b",
        ];
        let own = include_str!("sources.rs");
        for start in [State::Code, State::Str, State::Raw(1), State::Comment(1)] {
            let mut state = start;
            for line in odd.iter().copied().chain(own.lines()) {
                // The line parses as XML and reads back as itself.
                let (code, next) = highlighted(line, state);
                let wrapped = format!("<pre>{}</pre>", code.into_string());
                let document = roxmltree::Document::parse(&wrapped).unwrap();
                let text: String = document
                    .descendants()
                    .filter(|n| n.is_text())
                    .filter_map(|n| n.text())
                    .collect();
                assert_eq!(text, line);
                state = next;
            }
        }
    }

    #[test]
    fn shading_is_relative_to_the_top_score() {
        let plain = Shading {
            top: 0.5,
            unbounded: false,
        };
        assert_eq!(plain.shade(0.5), 1.0);
        assert_eq!(plain.shade(0.25), 0.5);
        assert_eq!(plain.shade(-1.0), 0.0);
        assert_eq!(plain.shade(f64::NAN), 0.0);
        let unbounded = Shading {
            top: 2.0,
            unbounded: true,
        };
        assert_eq!(unbounded.shade(f64::INFINITY), 1.0);
        assert_eq!(unbounded.shade(2.0), FINITE_CAP);
        let nothing = Shading {
            top: 0.0,
            unbounded: false,
        };
        assert_eq!(nothing.shade(0.0), 0.0);
        assert_eq!(shade_colour(0.0), "hsl(0, 85%, 100.0%)");
        assert_eq!(shade_colour(1.0), format!("hsl(0, 85%, {DARKEST:.1}%)"));
    }
}
