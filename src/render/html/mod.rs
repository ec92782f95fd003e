//! A self-contained HTML page (inline CSS, no JavaScript, nothing fetched),
//! laid out like a coverage report: a header with the verdict (after a
//! repair: fixed, plausible, not fixed or interrupted; else "ranking
//! only"), each failing test with its panic message, and a link to the
//! most suspicious line; the patch; the ranking with its `why` column and
//! each failure group's ranking; after a repair, how the sweep and the
//! genetic search went (a plot where the fitness moved, a sentence where it
//! did not); the top predicates and the decision tree (where events were
//! recorded); then the ranked files, syntax-highlighted, each executed line
//! shaded by its score under the ranking's metric relative to the top
//! score, the first-ranked lines outlined and the ranks up to
//! `BADGE_RANKS` shown beside their lines. Unexecuted lines stay unshaded. The page is
//! well-formed XML as well as HTML (the tests parse it).
//!
//! The markup is written with maud's `html!`, which escapes every text and
//! attribute value it splices in; the few pieces spliced in unescaped
//! (`PreEscaped`) are constants of this module, each with its reason.
//! The parts: `summary` (the header and the patch), `tables` (the
//! rankings, the predicates and the decision tree), `search` (the search
//! and its plots) and `sources` (the ranked files).

mod search;
mod sources;
mod summary;
mod tables;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::Ranking;
use crate::code::source::Location;
use crate::localize::Localization;
use crate::localize::spectrum_of;
use crate::repair::RepairReport;

/// Rows of the overall ranking the page lists, and of each group's.
const TOP: usize = 20;
const GROUP_TOP: usize = 10;

/// The page's character set, as a void element that is also well-formed
/// XML: maud writes void elements as `<meta …>`, which an XML reader
/// rejects, so this fixed tag (no data in it) goes in as it is.
const META: PreEscaped<&str> = PreEscaped(r#"<meta charset="utf-8"/>"#);

/// The page's style sheet. The content of `<style>` is raw text in HTML
/// (an `&amp;` there is not read back as `&`), so this constant goes in
/// unescaped; it holds no `<`, hence cannot close the element early.
const STYLE: PreEscaped<&str> = PreEscaped(
    "
body { font-family: system-ui, sans-serif; margin: 2em; color: #1f2328; }
pre { font-family: ui-monospace, monospace; font-size: 13px; line-height: 1.35; margin: 0; }
.line { display: block; white-space: pre; position: relative; }
.no { display: inline-block; width: 3.5em; padding-left: 0.5em; color: #888; user-select: none; }
.ranked .no { color: #24292f; }
pre.source { padding-left: 3em; }
.ranked { box-shadow: inset 3px 0 0 #8c959f; }
.top { outline: 2px solid #b31d28; outline-offset: -1px; }
.badge { position: absolute; left: -2.7em; min-width: 1.8em; padding: 0 0.2em; border-radius: 0.9em; background: #57606a; color: #fff; font-weight: 600; text-align: center; user-select: none; }
.top .badge, .badge.first { background: #b31d28; }
.legend .badge { position: static; display: inline-block; }
.legend .bar { display: inline-block; width: 3px; height: 1em; background: #8c959f; vertical-align: middle; }
.scale { display: inline-block; width: 10em; height: 1em; vertical-align: middle; border: 1px solid #d0d7de; }
.kw { color: #8250df; font-weight: 600; } .str { color: #116329; } .com { color: #57606a; font-style: italic; }
.num { color: #0550ae; } .life { color: #953800; } .mac { color: #0a3069; font-weight: 600; } .ty { color: #6f3800; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: left; }
.summary { border: 1px solid #d0d7de; border-radius: 6px; padding: 0.5em 1.2em; margin-bottom: 1.5em; }
.verdict { font-size: 1.15em; } .verdict strong { padding: 0 0.4em; border-radius: 4px; color: #fff; }
.fixed strong { background: #1a7f37; } .plausible strong { background: #9a6700; }
.not-fixed strong, .interrupted strong { background: #cf222e; } .rank-only strong { background: #57606a; }
.failures { padding-left: 1.2em; } .failures li { margin-bottom: 0.4em; }
.message { background: #f6f8fa; border-left: 3px solid #cf222e; padding: 4px 8px; margin-top: 2px; white-space: pre-wrap; }
.tag { font-size: 0.85em; padding: 0 0.4em; border-radius: 4px; background: #dafbe1; color: #1a7f37; }
.tag.flaky { background: #fff8c5; color: #9a6700; }
.diff .add { background: #e6ffec; } .diff .del { background: #ffebe9; } .diff .hunk { color: #888; }
.reasons { list-style: none; padding-left: 0; } .reasons .for { color: #1a7f37; } .reasons .against { color: #cf222e; }
svg { font: 11px system-ui, sans-serif; }
",
);

/// The page of a ranking (with its localization's groups), and of the
/// repair that followed, if any.
pub fn page(
    ranking: &Ranking,
    localization: &Localization,
    repair: Option<&RepairReport>,
) -> String {
    let baseline = ranking.baseline;
    let totals = spectrum_of(baseline, None, &[], &Default::default()).totals;
    let title = format!(
        "cargo autofix: {} ({})",
        baseline.workspace.package.name, ranking.metric
    );
    let groups = &localization.groups;
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                (META)
                title { (title) }
                style { (STYLE) }
            }
            body {
                h1 { (title) }
                (summary::header(ranking, totals, repair))
                @if let Some(report) = repair {
                    (summary::patch(report))
                }
                h2 { "Most suspicious lines" }
                (tables::ranking(ranking, TOP))
                @if groups.len() > 1 {
                    @for (index, group) in groups.iter().enumerate() {
                        h3 {
                            "Failure group " (index + 1) " of " (groups.len()) ": "
                            (group.group.description)
                        }
                        p { (baseline.suite.full_names(&group.group.tests).join(", ")) }
                        (tables::ranking(&Ranking { suspects: &group.suspects, ..*ranking }, GROUP_TOP))
                    }
                }
                @if let Some(report) = repair {
                    (search::search(report))
                }
                (tables::predicates(ranking, localization))
                (sources::sources(ranking, totals))
            }
        }
    };
    let mut page = markup.into_string();
    page.push('\n');
    page
}

/// The id of a line of the sources below: its path with every character
/// but ASCII letters and digits as `-`, then its number.
fn anchor(ranking: &Ranking, location: Location) -> String {
    let name: String = ranking
        .baseline
        .sources
        .get(location.file)
        .path
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("{name}-{}", location.line)
}

/// A link to a line of the sources below, named by its place
/// (`src/lib.rs:12`).
fn link(ranking: &Ranking, location: Location) -> Markup {
    html! {
        a href={ "#" (anchor(ranking, location)) } { (ranking.place(location)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unescaped_constants_are_plain() {
        // The style sheet goes in raw: no `<` that could end `<style>`.
        assert!(!STYLE.0.contains('<'));
        let meta = roxmltree::Document::parse(META.0).unwrap();
        assert_eq!(meta.root_element().attribute("charset"), Some("utf-8"));
    }
}
