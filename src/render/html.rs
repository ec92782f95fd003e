//! A self-contained HTML page of the ranked files: each executed line is
//! coloured by Tarantula's hue (red: failing tests only, green: passing
//! only) with its brightness as saturation, as in the statistical debugging
//! seed; the score is in the tooltip. Unexecuted lines stay uncoloured.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;

use super::{Ranking, format_score};
use crate::localize::{Suspect, confidence, tarantula_hue};

pub fn page(ranking: &Ranking) -> String {
    let baseline = ranking.baseline;
    let totals = baseline.spectrum().totals;
    let by_line: BTreeMap<(&PathBuf, u32), &Suspect> = ranking
        .suspects
        .iter()
        .map(|s| ((&s.location.file, s.location.line), s))
        .collect();
    // Files in the order of their most suspicious line.
    let mut files: Vec<&PathBuf> = Vec::new();
    for suspect in ranking.suspects {
        if !files.contains(&&suspect.location.file) {
            files.push(&suspect.location.file);
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
            anchor(&suspect.location.file, suspect.location.line),
            escape(&suspect.location.to_string()),
            suspect.counts.failed,
            suspect.counts.passed,
            escape(ranking.code(suspect))
        );
    }
    out.push_str("</table>\n");
    for file in files {
        let Some(source) = baseline.sources.file(file) else {
            continue;
        };
        let _ = writeln!(
            out,
            "<h2>{}</h2>\n<pre>",
            escape(&file.display().to_string())
        );
        for (index, text) in source.text.lines().enumerate() {
            let line = index as u32 + 1;
            let id = anchor(file, line);
            let number = format!("<span class=\"no\">{line}</span>");
            match by_line.get(&(file, line)) {
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

fn anchor(file: &std::path::Path, line: u32) -> String {
    let name: String = file
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("{name}-{line}")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
