//! A self-contained HTML page (no JavaScript): the ranking with its `why`
//! column and each failure group's ranking, the top predicates and the
//! decision tree over them (where events were recorded); after a repair, the validated
//! patch and plots of the search (inline SVG); then the ranked files, each
//! executed line coloured by Tarantula's hue (red: failing tests only,
//! green: passing only) with its brightness as saturation, as in the
//! statistical debugging seed (the score is in the tooltip). Unexecuted
//! lines stay uncoloured. The page is well-formed XML as well as HTML (the
//! tests parse it).

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{Ranking, format_score, why};
use crate::baseline::events::Predicate;
use crate::code::source::{FileId, Location};
use crate::localize::spectrum::{Suspect, confidence, tarantula_hue};
use crate::localize::spectrum_of;
use crate::localize::tree::Tree;
use crate::localize::{Localization, TREE_DEPTH};
use crate::repair::confidence::Level;
use crate::repair::report::{Outcome, RepairReport};

/// Rows of the overall ranking the page lists, and of each group's.
const TOP: usize = 20;
const GROUP_TOP: usize = 10;
/// Predicates the page lists.
const PREDICATES_TOP: usize = 20;

const STYLE: &str = "\
body { font-family: system-ui, sans-serif; margin: 2em; }
pre { font-family: ui-monospace, monospace; font-size: 13px; line-height: 1.35; margin: 0; }
.line { display: block; white-space: pre; }
.no { display: inline-block; width: 4em; color: #888; user-select: none; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: left; }
.diff .add { background: #e6ffec; } .diff .del { background: #ffebe9; } .diff .hunk { color: #888; }
.reasons { list-style: none; padding-left: 0; } .reasons .for { color: #1a7f37; } .reasons .against { color: #cf222e; }
svg { font: 11px system-ui, sans-serif; }";

/// The page of a ranking (with its localization's groups), and of the
/// repair that followed, if any.
pub fn page(
    ranking: &Ranking,
    localization: &Localization,
    repair: Option<&RepairReport>,
) -> String {
    let baseline = ranking.baseline;
    let totals = spectrum_of(baseline, None, &[]).totals;
    let title = format!(
        "cargo autofix: {} ({})",
        baseline.workspace.package.name, ranking.metric
    );
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let _ = writeln!(
        out,
        "<p>{} passing and {} failing tests. Lines are coloured by Tarantula hue (red: executed mostly by failing tests; green: mostly by passing tests) and brightness (how many tests executed them); hover for the {} score.</p>",
        totals.passed, totals.failed, ranking.metric
    );
    if let Some(report) = repair {
        repair_section(&mut out, report);
    }
    out.push_str("<h2>Most suspicious lines</h2>\n");
    table(&mut out, ranking, TOP);
    if localization.groups.len() > 1 {
        for (index, group) in localization.groups.iter().enumerate() {
            let _ = writeln!(
                out,
                "<h3>Failure group {} of {}: {}</h3>\n<p>{}</p>",
                index + 1,
                localization.groups.len(),
                escape(&group.group.description),
                escape(&baseline.suite.full_names(&group.group.tests).join(", "))
            );
            table(
                &mut out,
                &Ranking {
                    suspects: &group.suspects,
                    ..*ranking
                },
                GROUP_TOP,
            );
        }
    }
    predicates(&mut out, ranking, localization);
    sources(&mut out, ranking, totals);
    out.push_str("</body>\n</html>\n");
    out
}

/// The top predicates and the decision tree (nothing without events).
fn predicates(out: &mut String, ranking: &Ranking, localization: &Localization) {
    if localization.predicates.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<h2>Predicates</h2>\n<p>Events the tests saw besides lines (a condition's outcome; the sign, variant or Ok/Err of a value bound or returned), by {} over the tests that saw each; increase: how much likelier a test fails when it saw the event than when it reached its site.</p>",
        ranking.metric
    );
    out.push_str("<table class=\"predicates\">\n<tr><th>rank</th><th>score</th><th>increase</th><th>failed/passed</th><th>line</th><th>event</th></tr>\n");
    for entry in localization.predicates.iter().take(PREDICATES_TOP) {
        let site = ranking.site(&entry.predicate);
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{:+.3}</td><td>{}/{}</td><td><a href=\"#{}\">{}</a></td><td><code>{}</code></td></tr>",
            entry.rank,
            format_score(entry.score),
            entry.increase,
            entry.counts.failed,
            entry.counts.passed,
            anchor(ranking, site.location),
            escape(&ranking.place(site.location)),
            escape(&site.describe(entry.predicate.outcome))
        );
    }
    out.push_str("</table>\n");
    if let Some(tree) = &localization.tree {
        let _ = writeln!(
            out,
            "<h3>Decision tree</h3>\n<p>Tells failing tests from passing ones by the predicates they saw (ID3, at most {TREE_DEPTH} splits deep).</p>\n<ul class=\"tree\">"
        );
        tree_item(out, ranking, tree, "");
        out.push_str("</ul>\n");
    }
}

/// One node as a list item: a split with its `yes` and `no` sides, or a leaf.
fn tree_item(out: &mut String, ranking: &Ranking, tree: &Tree<Predicate>, label: &str) {
    let (failing, passing) = tree.counts();
    match tree {
        Tree::Leaf { .. } => {
            let verdict = tree.verdict();
            let _ = writeln!(
                out,
                "<li class=\"leaf\">{label}<strong>{verdict}</strong> ({failing} failing, {passing} passing)</li>"
            );
        }
        Tree::Split {
            feature,
            present,
            absent,
            ..
        } => {
            let site = ranking.site(feature);
            let _ = writeln!(
                out,
                "<li class=\"split\">{label}<a href=\"#{}\">{}</a> <code>{}</code>? ({failing} failing, {passing} passing)\n<ul>",
                anchor(ranking, site.location),
                escape(&ranking.place(site.location)),
                escape(&site.describe(feature.outcome))
            );
            tree_item(out, ranking, present, "yes: ");
            tree_item(out, ranking, absent, "no: ");
            out.push_str("</ul></li>\n");
        }
    }
}

/// The first `top` rows of a ranking, with the `why` column.
fn table(out: &mut String, ranking: &Ranking, top: usize) {
    out.push_str("<table class=\"ranking\">\n<tr><th>rank</th><th>score</th><th>line</th><th>failed/passed</th><th>why</th><th>code</th></tr>\n");
    for suspect in ranking.suspects.iter().take(top) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td><a href=\"#{}\">{}</a></td><td>{}/{}</td><td>{}</td><td><code>{}</code></td></tr>",
            suspect.rank,
            format_score(suspect.score),
            anchor(ranking, suspect.location),
            escape(&ranking.place(suspect.location)),
            suspect.counts.failed,
            suspect.counts.passed,
            escape(&why(suspect)),
            escape(&ranking.code(suspect))
        );
    }
    out.push_str("</table>\n");
}

/// The repair's outcome, its patch, and plots of the sweep and the search.
fn repair_section(out: &mut String, report: &RepairReport) {
    out.push_str("<h2>Repair</h2>\n");
    let _ = writeln!(
        out,
        "<p>{}: {} candidates evaluated ({} compiled), {} single edits swept, {} generations, {:.1} s.</p>",
        match report.outcome {
            Outcome::Fixed => match report.confidence.as_ref().map(|c| c.level) {
                Some(Level::Likely) => "A patch that passes every test, likely the fix",
                _ => "A patch that passes every test, only plausible: review it",
            },
            Outcome::NotFixed => "No patch passes every test",
            Outcome::Interrupted => "Interrupted before a patch was validated",
        },
        report.candidates_evaluated,
        report.candidates_compiled,
        report.swept_edits,
        report.generations,
        report.elapsed_seconds
    );
    if let Some(confidence) = &report.confidence {
        out.push_str("<ul class=\"reasons\">\n");
        for reason in &confidence.reasons {
            let (class, sign) = if reason.supports {
                ("for", "+")
            } else {
                ("against", "-")
            };
            let _ = writeln!(
                out,
                "<li class=\"{class}\">{sign} {}</li>",
                escape(&reason.text)
            );
        }
        out.push_str("</ul>\n");
    }
    if let Some(patch) = report.patch.as_deref().or(report.partial_patch.as_deref()) {
        if report.patch.is_none() {
            out.push_str("<p>The patch of the failure groups fixed (not validated):</p>\n");
        }
        out.push_str("<pre class=\"diff\">");
        for line in patch.lines() {
            let class = match line.chars().next() {
                _ if line.starts_with("+++") || line.starts_with("---") => "line",
                Some('+') => "line add",
                Some('-') => "line del",
                Some('@') => "line hunk",
                _ => "line",
            };
            let _ = write!(out, "<span class=\"{class}\">{}</span>", escape(line));
        }
        out.push_str("</pre>\n");
    }
    for (index, stage) in report.stages.iter().enumerate() {
        let _ = writeln!(
            out,
            "<h3>Stage {}: {}</h3>",
            index + 1,
            escape(&stage.group)
        );
        if !stage.sweep_progress.is_empty() {
            let best: Vec<(f64, f64)> = stage
                .sweep_progress
                .iter()
                .map(|p| (p.edits as f64, p.best))
                .collect();
            out.push_str(&plot(
                "The sweep: best fitness by single edits evaluated",
                "edits",
                &[("best", "#c0392b", &best)],
            ));
        }
        if !stage.search_progress.is_empty() {
            let series =
                |pick: fn(&crate::repair::report::GenerationPoint) -> f64| -> Vec<(f64, f64)> {
                    stage
                        .search_progress
                        .iter()
                        .enumerate()
                        .map(|(generation, p)| (generation as f64, pick(p)))
                        .collect()
                };
            out.push_str(&plot(
                "The genetic search: fitness by generation",
                "generation",
                &[
                    ("best", "#c0392b", &series(|p| p.best)),
                    ("mean", "#2c3e50", &series(|p| p.mean)),
                ],
            ));
        }
    }
}

/// One line of a plot: its name, its colour and its points.
type Series<'a> = (&'a str, &'a str, &'a [(f64, f64)]);

/// A line plot as inline SVG, the y axis from the lowest value shown to
/// the highest.
fn plot(title: &str, x_label: &str, series: &[Series]) -> String {
    let (width, height, left, bottom, top, right) = (480.0, 180.0, 56.0, 28.0, 20.0, 70.0);
    let points = series.iter().flat_map(|(_, _, p)| p.iter());
    let (mut x_max, mut y_min, mut y_max) = (0.0f64, f64::MAX, f64::MIN);
    for &(x, y) in points {
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    if y_max - y_min < 1e-9 {
        y_min -= 0.01;
        y_max += 0.01;
    }
    let x_max = x_max.max(1.0);
    let to_x = |x: f64| left + x / x_max * (width - left - right);
    let to_y = |y: f64| top + (y_max - y) / (y_max - y_min) * (height - top - bottom);
    let mut svg = format!(
        "<svg class=\"plot\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{}\">\n<title>{}</title>\n",
        escape(title),
        escape(title)
    );
    let _ = writeln!(
        svg,
        "<text x=\"{left}\" y=\"12\">{}</text>\n<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\n<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{}\" stroke=\"#888\"/>",
        escape(title),
        height - bottom,
        width - right,
        height - bottom,
        height - bottom
    );
    let _ = writeln!(
        svg,
        "<text x=\"4\" y=\"{}\">{y_max:.4}</text>\n<text x=\"4\" y=\"{}\">{y_min:.4}</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{x_max} {x_label}</text>",
        to_y(y_max) + 4.0,
        to_y(y_min),
        width - right,
        height - 6.0
    );
    for (index, (name, colour, points)) in series.iter().enumerate() {
        let path: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", to_x(x), to_y(y)))
            .collect();
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
            path.join(" ")
        );
        for &(x, y) in points.iter() {
            let _ = writeln!(
                svg,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{colour}\"/>",
                to_x(x),
                to_y(y)
            );
        }
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" fill=\"{colour}\">{name}</text>",
            width - right + 6.0,
            top + 14.0 * (index as f64 + 1.0)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The ranked files, most suspicious first, one line per source line.
fn sources(out: &mut String, ranking: &Ranking, totals: crate::localize::spectrum::Counts) {
    let by_line: BTreeMap<Location, &Suspect> =
        ranking.suspects.iter().map(|s| (s.location, s)).collect();
    let mut files: Vec<FileId> = Vec::new();
    for suspect in ranking.suspects {
        if !files.contains(&suspect.location.file) {
            files.push(suspect.location.file);
        }
    }
    for file in files {
        let source = ranking.baseline.sources.get(file);
        let _ = write!(
            out,
            "<h2>{}</h2>\n<pre class=\"source\">",
            escape(&source.path.display().to_string())
        );
        for (index, text) in source.text.lines().enumerate() {
            let line = index as u32 + 1;
            let location = Location::new(file, line);
            let id = anchor(ranking, location);
            let number = format!("<span class=\"no\">{line}</span>");
            // Block spans, no newline between them: one line per line.
            match by_line.get(&location) {
                Some(suspect) => {
                    let hue = tarantula_hue(suspect.counts, totals).unwrap_or(0.5);
                    let brightness = confidence(suspect.counts, totals);
                    let _ = write!(
                        out,
                        "<span class=\"line ranked\" id=\"{id}\" data-why=\"{}\" style=\"background-color: hsl({:.1}, {:.1}%, 80%)\" title=\"rank {} · {} {} · failed {}/{} · passed {}/{}\">{number}{}</span>",
                        escape(&why(suspect)),
                        hue * 120.0,
                        brightness * 100.0,
                        suspect.rank,
                        ranking.metric,
                        format_score(suspect.score),
                        suspect.counts.failed,
                        totals.failed,
                        suspect.counts.passed,
                        totals.passed,
                        escape(text)
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        "<span class=\"line\" id=\"{id}\">{number}{}</span>",
                        escape(text)
                    );
                }
            }
        }
        out.push_str("</pre>\n");
    }
}

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

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
