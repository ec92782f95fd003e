//! How the repair searched: its counts, and per stage how the best fitness
//! moved in the sweep and the genetic search, as a line plot in inline SVG
//! where it moved and as a sentence where it did not.

use maud::{Markup, html};

use crate::repair::{GenerationPoint, RepairReport, StageReport};

/// How the repair searched: its counts, then per stage how the best
/// fitness moved in the sweep and the genetic search.
pub(super) fn search(report: &RepairReport) -> Markup {
    html! {
        h2 { "The search" }
        p {
            (report.swept_edits) " single edits swept at " (report.swept_locations)
            " locations, " (report.generations) " generations of the genetic search, "
            (report.candidates_evaluated) " candidates evaluated ("
            (report.candidates_compiled) " compiled), " (tenths(report.elapsed_seconds))
            " s. Fitness is the weighted share of the tests a candidate passes: 1 when it \
             passes every test, 0 when it does not build."
        }
        @for (index, stage) in report.stages.iter().enumerate() {
            h3 { "Stage " (index + 1) ": " (stage.group) }
            // White space between the stage's two plots, which sit side
            // by side where the page is wide enough.
            (sweep_progress(stage)) "\n" (search_progress(stage))
        }
    }
}

/// The sweep's best fitness by single edits evaluated: a plot when it
/// moved over several batches, else a sentence.
fn sweep_progress(stage: &StageReport) -> Markup {
    let (Some(first), Some(last)) = (stage.sweep_progress.first(), stage.sweep_progress.last())
    else {
        return html! {};
    };
    let best: Vec<(f64, f64)> = stage
        .sweep_progress
        .iter()
        .map(|p| (p.edits as f64, p.best))
        .collect();
    let series = [("best", "#c0392b", best.as_slice())];
    if moves(&series) {
        return plot(
            "The sweep: best fitness by single edits evaluated",
            "single edits evaluated",
            &series,
        );
    }
    let batches = stage.sweep_progress.len();
    let how = if batches == 1 {
        format!(
            "in one batch, the best of them of fitness {:.4} (one point: no plot)",
            first.best
        )
    } else {
        format!(
            "in {batches} batches; the best fitness stayed at {:.4} (no plot: it did not move)",
            first.best
        )
    };
    html! {
        p.progress { "The sweep evaluated " (last.edits) " single edits " (how) "." }
    }
}

/// The genetic search's best and mean fitness by generation: a plot when
/// either moved over several generations, else a sentence.
fn search_progress(stage: &StageReport) -> Markup {
    let Some(first) = stage.search_progress.first() else {
        return html! {};
    };
    let series = |pick: fn(&GenerationPoint) -> f64| -> Vec<(f64, f64)> {
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
        return plot(
            "The genetic search: fitness by generation",
            "generation (0: the initial population)",
            &series,
        );
    }
    let generations = stage.search_progress.len();
    let how = if generations == 1 {
        "evaluated its initial population only (one point: no plot)".to_string()
    } else {
        format!("ran {generations} generations, the fitness flat throughout (no plot)")
    };
    html! {
        p.progress {
            "The genetic search " (how) ": best fitness " (format!("{:.4}", first.best))
            ", mean " (format!("{:.4}", first.mean)) "."
        }
    }
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

/// A number to a tenth: a coordinate of the plot, a time in seconds.
fn tenths(value: f64) -> String {
    format!("{value:.1}")
}

/// A line plot as inline SVG: the fitness on the y axis, from the lowest
/// value shown to the highest (ticks at both ends and the middle, with
/// grid lines), `x_label` on the x axis from 0 to its largest value.
/// Callers draw it only when [`moves`] says it shows something. The SVG
/// elements without content are closed with an end tag (`<line …></line>`),
/// which HTML and XML both read.
fn plot(title: &str, x_label: &str, series: &[Series]) -> Markup {
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
    html! {
        svg.plot width=(width) height=(height) viewBox={ "0 0 " (width) " " (height) }
            role="img" aria-label=(title) {
            title { (title) }
            text x=(x0) y="12" { (title) }
            // The y axis: grid lines with their values, and its title.
            @for value in [y_min, (y_min + y_max) / 2.0, y_max] {
                @let y = to_y(value);
                line x1=(x0) y1=(tenths(y)) x2=(x1) y2=(tenths(y)) stroke="#e1e4e8" {}
                text x=(x0 - 4.0) y=(tenths(y + 4.0)) text-anchor="end" { (format!("{value:.4}")) }
            }
            text transform={ "translate(12 " (tenths((y0 + y1) / 2.0)) ") rotate(-90)" }
                text-anchor="middle" { "fitness" }
            // The x axis: its line, ticks at 0 and the end, and its title.
            line x1=(x0) y1=(y0) x2=(x1) y2=(y0) stroke="#888" {}
            line x1=(x0) y1=(y1) x2=(x0) y2=(y0) stroke="#888" {}
            text x=(x0) y=(y0 + 14.0) text-anchor="middle" { "0" }
            text x=(x1) y=(y0 + 14.0) text-anchor="middle" { (x_max) }
            text x=(tenths((x0 + x1) / 2.0)) y=(height - 6.0) text-anchor="middle" { (x_label) }
            @for (index, (name, colour, points)) in series.iter().enumerate() {
                @let path: Vec<String> = points
                    .iter()
                    .map(|&(x, y)| format!("{},{}", tenths(to_x(x)), tenths(to_y(y))))
                    .collect();
                polyline fill="none" stroke=(colour) stroke-width="2" points=(path.join(" ")) {}
                @for &(x, y) in points.iter() {
                    circle cx=(tenths(to_x(x))) cy=(tenths(to_y(y))) r="2.5" fill=(colour) {}
                }
                text x=(x1 + 6.0) y=(y1 + 14.0 * (index as f64 + 1.0)) fill=(colour) { (name) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        )
        .into_string();
        let document = roxmltree::Document::parse(&svg).unwrap();
        let texts: Vec<&str> = document
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .collect();
        for label in ["fitness", "generation", "0.5000", "0.9900", "0", "1"] {
            assert!(texts.contains(&label), "{label}: {texts:?}");
        }
        // The title is escaped, in the text and in the attribute alike.
        assert!(texts.contains(&"fitness <by> generation"), "{texts:?}");
        let root = document.root_element();
        assert_eq!(
            root.attribute("aria-label"),
            Some("fitness <by> generation")
        );
    }
}
