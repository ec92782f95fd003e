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
//! [`BADGE_RANKS`] shown beside their lines. Unexecuted lines stay
//! unshaded. The page is well-formed XML as well as HTML (the tests parse
//! it).

use std::collections::BTreeMap;
use std::fmt::Write;

use super::highlight::{State, tokens};
use super::{Ranking, format_score, nothing_ranked, why};
use crate::baseline::Predicate;
use crate::cargo::Verdict;
use crate::code::source::{FileId, Location};
use crate::localize::Tree;
use crate::localize::spectrum_of;
use crate::localize::{Counts, Suspect};
use crate::localize::{Localization, TREE_DEPTH};
use crate::repair::Level;
use crate::repair::{Outcome, RepairReport, StageReport};

/// Rows of the overall ranking the page lists, and of each group's.
const TOP: usize = 20;
const GROUP_TOP: usize = 10;
/// Predicates the page lists.
const PREDICATES_TOP: usize = 20;
/// Failing tests the header lists (a suite can fail by the hundred).
const FAILURES_TOP: usize = 20;
/// Of a panic message, the lines and the characters the header shows.
const MESSAGE_LINES: usize = 12;
const MESSAGE_CHARS: usize = 1500;
/// Lines ranked at most this (worst-case rank) get a badge with their rank.
const BADGE_RANKS: usize = 5;
/// The lightness of the darkest shade (the top score); white is 100%.
const DARKEST: f64 = 72.0;
/// Where a finite score's shade stops when some line scores DStar's `inf`:
/// the `inf` lines alone get the darkest shade.
const FINITE_CAP: f64 = 0.8;

const STYLE: &str = "\
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
    header(&mut out, ranking, totals, repair);
    if let Some(report) = repair {
        patch(&mut out, report);
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
    if let Some(report) = repair {
        search(&mut out, report);
    }
    predicates(&mut out, ranking, localization);
    sources(&mut out, ranking, totals);
    out.push_str("</body>\n</html>\n");
    out
}

/// What a reader looks for first: the verdict (with the repair's counts
/// and the reasons for and against its patch), the tests, how each failing
/// test failed, and where the most suspicious line is.
fn header(out: &mut String, ranking: &Ranking, totals: Counts, repair: Option<&RepairReport>) {
    let (class, label, sentence) = verdict(repair);
    let _ = writeln!(
        out,
        "<header class=\"summary\">\n<p class=\"verdict {class}\"><strong>{label}</strong> {}</p>",
        escape(&sentence)
    );
    if let Some(report) = repair {
        repair_facts(out, report);
    }
    let _ = writeln!(
        out,
        "<p class=\"facts\">Package <code>{}</code>: {} passing and {} failing tests; lines ranked by {}.</p>",
        escape(&ranking.baseline.workspace.package.name),
        totals.passed,
        totals.failed,
        ranking.metric
    );
    failures(out, ranking, repair);
    most_suspicious(out, ranking);
    out.push_str("</header>\n");
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
fn repair_facts(out: &mut String, report: &RepairReport) {
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
    if let Some(rejected) = &report.rejected_by_validation {
        let _ = writeln!(
            out,
            "<p>The best candidate failed validation: {}</p>",
            escape(rejected)
        );
    }
    let _ = writeln!(
        out,
        "<p>{} candidates evaluated ({} compiled) in {:.1} s.</p>",
        report.candidates_evaluated, report.candidates_compiled, report.elapsed_seconds
    );
}

/// Each failing test (the first [`FAILURES_TOP`]) with how it failed: its
/// panic message and where it panicked, or that it timed out; after a
/// repair, a tag on those the patch fixed and those found flaky.
fn failures(out: &mut String, ranking: &Ranking, repair: Option<&RepairReport>) {
    let baseline = ranking.baseline;
    let failing: Vec<_> = baseline.failing().collect();
    if failing.is_empty() {
        return;
    }
    out.push_str("<h2>Failing tests</h2>\n<ul class=\"failures\">\n");
    for record in failing.iter().take(FAILURES_TOP) {
        let name = &baseline.suite.get(record.test).full_name;
        let tag = repair.map_or("", |report| {
            if report.flaky_tests.contains(name) {
                " <span class=\"tag flaky\">flaky</span>"
            } else if report.fixed_tests.contains(name) {
                " <span class=\"tag\">fixed by the patch</span>"
            } else {
                ""
            }
        });
        let _ = write!(
            out,
            "<li class=\"failure\"><code class=\"test\">{}</code>{tag} ",
            escape(name)
        );
        match &record.outcome.verdict {
            Verdict::Failed(panic) => {
                if let Some(location) = &panic.location {
                    let _ = write!(out, "panicked at <code>{}</code>", escape(location));
                } else {
                    out.push_str("failed");
                }
                let _ = write!(
                    out,
                    "<pre class=\"message\">{}</pre>",
                    escape(&excerpt(&panic.message))
                );
            }
            Verdict::TimedOut => out.push_str("timed out"),
            Verdict::Passed => out.push_str("passed"),
        }
        out.push_str("</li>\n");
    }
    if failing.len() > FAILURES_TOP {
        let _ = writeln!(out, "<li>… and {} more</li>", failing.len() - FAILURES_TOP);
    }
    out.push_str("</ul>\n");
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
fn most_suspicious(out: &mut String, ranking: &Ranking) {
    let Some(first) = ranking.suspects.first() else {
        if let Some(why) = nothing_ranked(ranking.baseline) {
            let _ = writeln!(out, "<p class=\"most-suspicious\">{}.</p>", escape(&why));
        }
        return;
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
    let _ = writeln!(
        out,
        "<p class=\"most-suspicious\">Most suspicious line: <a href=\"#{}\">{}</a> <code>{}</code> (rank {}{ties}; {} {}).</p>",
        anchor(ranking, first.location),
        escape(&ranking.place(first.location)),
        escape(&ranking.code(first)),
        first.rank,
        ranking.metric,
        format_score(first.score)
    );
}

/// The patch, validated or (when some failure groups were fixed and not
/// others) partial, as a coloured unified diff.
fn patch(out: &mut String, report: &RepairReport) {
    let Some(patch) = report.patch.as_deref().or(report.partial_patch.as_deref()) else {
        return;
    };
    out.push_str("<h2>Patch</h2>\n");
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

/// The first `top` rows of a ranking, with the `why` column; each row
/// links to its line in the sources below.
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

/// How the repair searched: its counts, then per stage how the best
/// fitness moved in the sweep and the genetic search.
fn search(out: &mut String, report: &RepairReport) {
    let _ = writeln!(
        out,
        "<h2>The search</h2>\n<p>{} single edits swept at {} locations, {} generations of the genetic search, {} candidates evaluated ({} compiled), {:.1} s. Fitness is the weighted share of the tests a candidate passes: 1 when it passes every test, 0 when it does not build.</p>",
        report.swept_edits,
        report.swept_locations,
        report.generations,
        report.candidates_evaluated,
        report.candidates_compiled,
        report.elapsed_seconds
    );
    for (index, stage) in report.stages.iter().enumerate() {
        let _ = writeln!(
            out,
            "<h3>Stage {}: {}</h3>",
            index + 1,
            escape(&stage.group)
        );
        sweep_progress(out, stage);
        search_progress(out, stage);
    }
}

/// The sweep's best fitness by single edits evaluated: a plot when it
/// moved over several batches, else a sentence.
fn sweep_progress(out: &mut String, stage: &StageReport) {
    let (Some(first), Some(last)) = (stage.sweep_progress.first(), stage.sweep_progress.last())
    else {
        return;
    };
    let best: Vec<(f64, f64)> = stage
        .sweep_progress
        .iter()
        .map(|p| (p.edits as f64, p.best))
        .collect();
    let series = [("best", "#c0392b", best.as_slice())];
    if moves(&series) {
        out.push_str(&plot(
            "The sweep: best fitness by single edits evaluated",
            "single edits evaluated",
            &series,
        ));
        return;
    }
    let batches = stage.sweep_progress.len();
    let _ = writeln!(
        out,
        "<p class=\"progress\">The sweep evaluated {} single edits {}.</p>",
        last.edits,
        if batches == 1 {
            format!(
                "in one batch, the best of them of fitness {:.4} (one point: no plot)",
                first.best
            )
        } else {
            format!(
                "in {batches} batches; the best fitness stayed at {:.4} (no plot: it did not move)",
                first.best
            )
        }
    );
}

/// The genetic search's best and mean fitness by generation: a plot when
/// either moved over several generations, else a sentence.
fn search_progress(out: &mut String, stage: &StageReport) {
    let Some(first) = stage.search_progress.first() else {
        return;
    };
    let series = |pick: fn(&crate::repair::GenerationPoint) -> f64| -> Vec<(f64, f64)> {
        stage
            .search_progress
            .iter()
            .enumerate()
            .map(|(generation, p)| (generation as f64, pick(p)))
            .collect()
    };
    let (best, mean) = (series(|p| p.best), series(|p| p.mean));
    let series = [
        ("best", "#c0392b", best.as_slice()),
        ("mean", "#2c3e50", mean.as_slice()),
    ];
    if moves(&series) {
        out.push_str(&plot(
            "The genetic search: fitness by generation",
            "generation (0: the initial population)",
            &series,
        ));
        return;
    }
    let generations = stage.search_progress.len();
    let _ = writeln!(
        out,
        "<p class=\"progress\">The genetic search {}: best fitness {:.4}, mean {:.4}.</p>",
        if generations == 1 {
            "evaluated its initial population only (one point: no plot)".to_string()
        } else {
            format!("ran {generations} generations, the fitness flat throughout (no plot)")
        },
        first.best,
        first.mean
    );
}

/// One line of a plot: its name, its colour and its points.
type Series<'a> = (&'a str, &'a str, &'a [(f64, f64)]);

/// Whether a plot of `series` would show something: some series has two
/// points or more, and the values are not all the same (one dot, or a flat
/// line on an axis stretched around it, says nothing a sentence cannot).
fn moves(series: &[Series]) -> bool {
    let values = || {
        series
            .iter()
            .flat_map(|(_, _, p)| p.iter().map(|&(_, y)| y))
    };
    let low = values().fold(f64::INFINITY, f64::min);
    let high = values().fold(f64::NEG_INFINITY, f64::max);
    series.iter().any(|(_, _, p)| p.len() >= 2) && high - low > 1e-9
}

/// A line plot as inline SVG: the fitness on the y axis, from the lowest
/// value shown to the highest (ticks at both ends and the middle, with
/// grid lines), `x_label` on the x axis from 0 to its largest value.
/// Callers draw it only when [`moves`] says it shows something.
fn plot(title: &str, x_label: &str, series: &[Series]) -> String {
    let (width, height, left, bottom, top, right) = (520.0, 210.0, 64.0, 40.0, 22.0, 70.0);
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
    let (x0, x1, y0, y1) = (left, width - right, height - bottom, top);
    let to_x = |x: f64| x0 + x / x_max * (x1 - x0);
    let to_y = |y: f64| y1 + (y_max - y) / (y_max - y_min) * (y0 - y1);
    let mut svg = format!(
        "<svg class=\"plot\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{}\">\n<title>{}</title>\n<text x=\"{x0}\" y=\"12\">{}</text>\n",
        escape(title),
        escape(title),
        escape(title)
    );
    // The y axis: grid lines with their values, and its title.
    for value in [y_min, (y_min + y_max) / 2.0, y_max] {
        let y = to_y(value);
        let _ = writeln!(
            svg,
            "<line x1=\"{x0}\" y1=\"{y:.1}\" x2=\"{x1}\" y2=\"{y:.1}\" stroke=\"#e1e4e8\"/>\n<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{value:.4}</text>",
            x0 - 4.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        svg,
        "<text transform=\"translate(12 {:.1}) rotate(-90)\" text-anchor=\"middle\">fitness</text>",
        (y0 + y1) / 2.0
    );
    // The x axis: its line, ticks at 0 and the end, and its title.
    let _ = writeln!(
        svg,
        "<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"#888\"/>\n<line x1=\"{x0}\" y1=\"{y1}\" x2=\"{x0}\" y2=\"{y0}\" stroke=\"#888\"/>\n<text x=\"{x0}\" y=\"{}\" text-anchor=\"middle\">0</text>\n<text x=\"{x1}\" y=\"{}\" text-anchor=\"middle\">{x_max}</text>\n<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        y0 + 14.0,
        y0 + 14.0,
        (x0 + x1) / 2.0,
        height - 6.0,
        escape(x_label)
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
            x1 + 6.0,
            y1 + 14.0 * (index as f64 + 1.0)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

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

/// The ranked files, most suspicious first, after a legend of their marks.
fn sources(out: &mut String, ranking: &Ranking, totals: Counts) {
    let by_line: BTreeMap<Location, &Suspect> =
        ranking.suspects.iter().map(|s| (s.location, s)).collect();
    let mut files: Vec<FileId> = Vec::new();
    for suspect in ranking.suspects {
        if !files.contains(&suspect.location.file) {
            files.push(suspect.location.file);
        }
    }
    if files.is_empty() {
        return;
    }
    let shading = Shading::of(ranking.suspects);
    let marks = Marks::of(ranking.suspects);
    out.push_str("<h2>Sources</h2>\n");
    legend(out, ranking, shading, marks);
    for file in files {
        let source = ranking.baseline.sources.get(file);
        let _ = write!(
            out,
            "<h3>{}</h3>\n<pre class=\"source\">",
            escape(&source.path.display().to_string())
        );
        let mut state = State::default();
        for (index, text) in source.text.lines().enumerate() {
            let location = Location::new(file, index as u32 + 1);
            let (code, next) = highlighted(text, state);
            state = next;
            let line = Line {
                location,
                code: &code,
                suspect: by_line.get(&location).copied(),
            };
            line.write(out, ranking, totals, shading, marks);
        }
        out.push_str("</pre>\n");
    }
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

/// What the colours and marks of the sources mean.
fn legend(out: &mut String, ranking: &Ranking, shading: Shading, marks: Marks) {
    let _ = writeln!(
        out,
        "<ul class=\"legend\">\n<li><span class=\"scale\" style=\"background: linear-gradient(to right, {}, {})\"></span> background: the line's {} score relative to the top score ({}): white for 0 or less, the darkest red for the top{}. Hover over a line for its rank, score and tests.</li>",
        shade_colour(0.0),
        shade_colour(1.0),
        ranking.metric,
        format_score(shading.top),
        if shading.unbounded {
            "; lines scoring inf are darkest, finite scores stop short of it"
        } else {
            ""
        }
    );
    out.push_str("<li><span class=\"bar\"></span> a grey bar at the left: some test executed the line; lines without it never ran.</li>\n");
    let _ = writeln!(
        out,
        "<li><span class=\"badge first\">{}</span> the rank of the lines ranked {} or better (worst case among ties); the first-ranked line is outlined in red.</li>\n</ul>",
        marks.first,
        BADGE_RANKS.max(marks.first)
    );
}

/// One line of a source file, its code already highlighted.
struct Line<'a> {
    location: Location,
    code: &'a str,
    suspect: Option<&'a Suspect>,
}

impl Line<'_> {
    /// A block span, no newline after it (one line per line): a ranked
    /// line has its shade, its why, its rank and score in the tooltip, and
    /// its marks.
    fn write(
        &self,
        out: &mut String,
        ranking: &Ranking,
        totals: Counts,
        shading: Shading,
        marks: Marks,
    ) {
        let id = anchor(ranking, self.location);
        let number = format!("<span class=\"no\">{}</span>", self.location.line);
        let Some(suspect) = self.suspect else {
            let _ = write!(
                out,
                "<span class=\"line\" id=\"{id}\">{number}{}</span>",
                self.code
            );
            return;
        };
        let shade = shading.shade(suspect.score);
        let (class, badge) = (
            if marks.is_first(suspect) {
                "line ranked top"
            } else {
                "line ranked"
            },
            if marks.badge(suspect) {
                format!("<span class=\"badge\">{}</span>", suspect.rank)
            } else {
                String::new()
            },
        );
        let _ = write!(
            out,
            "<span class=\"{class}\" id=\"{id}\" data-why=\"{}\" data-shade=\"{shade:.3}\" style=\"background-color: {}\" title=\"rank {} · {} {} · failed {}/{} · passed {}/{}\">{number}{badge}{}</span>",
            escape(&why(suspect)),
            shade_colour(shade),
            suspect.rank,
            ranking.metric,
            format_score(suspect.score),
            suspect.counts.failed,
            totals.failed,
            suspect.counts.passed,
            totals.passed,
            self.code
        );
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

/// A line as escaped HTML with a span per classed piece, and the state
/// the next line starts in. Should the pieces not put the line back
/// together, the line is plain text and the next starts afresh.
fn highlighted(line: &str, state: State) -> (String, State) {
    let (tokens, next) = tokens(line, state);
    if tokens.iter().map(|(_, text)| *text).collect::<String>() != line {
        return (escape(line), State::Code);
    }
    let mut out = String::new();
    for (class, text) in tokens {
        match class {
            Some(class) => {
                let _ = write!(out, "<span class=\"{class}\">{}</span>", escape(text));
            }
            None => out.push_str(&escape(text)),
        }
    }
    (out, next)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
        let own = include_str!("html.rs");
        for start in [State::Code, State::Str, State::Raw(1), State::Comment(1)] {
            let mut state = start;
            for line in odd.iter().copied().chain(own.lines()) {
                // The line parses as XML and reads back as itself.
                let (code, next) = highlighted(line, state);
                let wrapped = format!("<pre>{code}</pre>");
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

    #[test]
    fn plots_only_what_moves() {
        let one = [(158.0, 1.0)];
        let flat = [(0.0, 0.99), (1.0, 0.99), (2.0, 0.99)];
        let rising = [(0.0, 0.5), (1.0, 0.99)];
        assert!(!moves(&[("best", "red", &one)]));
        assert!(!moves(&[("best", "red", &flat)]));
        assert!(moves(&[("best", "red", &flat), ("mean", "blue", &rising)]));
        let svg = plot(
            "fitness <by> generation",
            "generation",
            &[("mean", "blue", &rising)],
        );
        let document = roxmltree::Document::parse(&svg).unwrap();
        let texts: Vec<&str> = document
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .collect();
        for label in ["fitness", "generation", "0.5000", "0.9900", "0", "1"] {
            assert!(texts.contains(&label), "{label}: {texts:?}");
        }
    }

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
