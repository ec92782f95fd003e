//! A self-contained HTML page of the ranked files: each executed line is
//! coloured by Tarantula's hue (red: failing tests only, green: passing
//! only) with its brightness as saturation, as in the statistical debugging
//! seed; the score is in the tooltip. Unexecuted lines stay uncoloured.

use super::{Ranking, format_score};
use crate::code::source::{FileId, Location};
use crate::localize::spectrum::{Suspect, confidence, tarantula_hue};
use crate::localize::spectrum_of;
use std::collections::BTreeMap;
use std::fmt::Write;

pub fn page(ranking: &Ranking) -> String {
    let baseline = ranking.baseline;
    let totals = spectrum_of(baseline, None, &[]).totals;
    let by_line: BTreeMap<Location, &Suspect> =
        ranking.suspects.iter().map(|s| (s.location, s)).collect();
    // Files in the order of their most suspicious line.
    let mut files: Vec<FileId> = Vec::new();
    for suspect in ranking.suspects {
        if !files.contains(&suspect.location.file) {
            files.push(suspect.location.file);
        }
    }
    let title = format!(
        "cargo autofix: {} ({})",
        baseline.workspace.package.name, ranking.metric
    );
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n\
         body {{ font-family: system-ui, sans-serif; margin: 2em; }}\n\
         pre {{ font-family: ui-monospace, monospace; font-size: 13px; line-height: 1.35; }}\n\
         .line {{ display: block; white-space: pre; }}\n\
         .no {{ display: inline-block; width: 4em; color: #888; user-select: none; }}\n\
         table {{ border-collapse: collapse; }} td, th {{ padding: 2px 8px; text-align: left; }}\n\
         </style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let _ = writeln!(
        out,
        "<p>{} passing and {} failing tests. Lines are coloured by Tarantula hue (red: executed mostly by failing tests; green: mostly by passing tests) and brightness (how many tests executed them); hover for the {} score.</p>",
        totals.passed, totals.failed, ranking.metric
    );
    out.push_str("<h2>Most suspicious lines</h2>\n<table>\n<tr><th>rank</th><th>score</th><th>line</th><th>failed/passed</th><th>code</th></tr>\n");
    for suspect in ranking.suspects.iter().take(20) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td><a href=\"#{}\">{}</a></td><td>{}/{}</td><td><code>{}</code></td></tr>",
            suspect.rank,
            format_score(suspect.score),
            anchor(ranking, suspect.location),
            escape(&ranking.place(suspect.location)),
            suspect.counts.failed,
            suspect.counts.passed,
            escape(&ranking.code(suspect))
        );
    }
    out.push_str("</table>\n");
    for file in files {
        let source = baseline.sources.get(file);
        let _ = writeln!(
            out,
            "<h2>{}</h2>\n<pre>",
            escape(&source.path.display().to_string())
        );
        for (index, text) in source.text.lines().enumerate() {
            let line = index as u32 + 1;
            let location = Location::new(file, line);
            let id = anchor(ranking, location);
            let number = format!("<span class=\"no\">{line}</span>");
            match by_line.get(&location) {
                Some(suspect) => {
                    let hue = tarantula_hue(suspect.counts, totals).unwrap_or(0.5);
                    let brightness = confidence(suspect.counts, totals);
                    let _ = writeln!(
                        out,
                        "<span class=\"line\" id=\"{id}\" style=\"background-color: hsl({:.1}, {:.1}%, 80%)\" title=\"rank {} &middot; {} {} &middot; failed {}/{} &middot; passed {}/{}\">{number}{}</span>",
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
                    let _ = writeln!(
                        out,
                        "<span class=\"line\" id=\"{id}\">{number}{}</span>",
                        escape(text)
                    );
                }
            }
        }
        out.push_str("</pre>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
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
