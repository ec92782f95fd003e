//! The ranking as a text table, most suspicious first.

use std::fmt::Write;

use super::{Ranking, format_score, why};

/// Why a line ranks where it does: the ProFL class of its edits
/// (`clean-fix`, `noisy-fix`, `no-change`, `breaks-only`), `switch` (a
/// critical predicate), `slice` (in the dynamic slice of every failing
/// run); `diff` marks a line the `--in-diff` diff changes.
/// The ranking, or with several failure groups, one table per group.
pub fn tables(
    ranking: &Ranking,
    localization: &crate::localize::Localization,
    top: Option<usize>,
) -> String {
    if localization.groups.len() <= 1 {
        return table(ranking, top);
    }
    let mut out = String::new();
    for (index, group) in localization.groups.iter().enumerate() {
        let names: Vec<&str> = group
            .group
            .tests
            .iter()
            .map(|&t| ranking.baseline.suite.get(t).full_name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "group {} of {}: {} failing test{} ({}), {}",
            index + 1,
            localization.groups.len(),
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            names.join(", "),
            group.group.description
        );
        out.push_str(&table(
            &Ranking {
                suspects: &group.suspects,
                ..*ranking
            },
            top,
        ));
        out.push('\n');
    }
    out
}

/// The first `top` lines of the ranking (all if `None`), and a note on how
/// many more lines tie with the last one shown.
pub fn table(ranking: &Ranking, top: Option<usize>) -> String {
    let shown = &ranking.suspects[..top.unwrap_or(usize::MAX).min(ranking.suspects.len())];
    let rows: Vec<[String; 6]> = shown
        .iter()
        .map(|s| {
            [
                s.rank.to_string(),
                format_score(s.score),
                ranking.place(s.location),
                format!("{}/{}", s.counts.failed, s.counts.passed),
                why(s),
                ranking.code(s).to_string(),
            ]
        })
        .collect();
    let header = ["rank", "score", "file:line", "failed/passed", "why", "code"];
    let width = |column: usize| {
        rows.iter()
            .map(|r| r[column].len())
            .chain([header[column].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..5).map(width).collect();
    let mut out = String::new();
    for row in std::iter::once(header.map(str::to_string)).chain(rows) {
        let line = format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:<w3$}  {:<w4$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4]
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if let Some(last) = shown.last() {
        let hidden_ties = ranking.suspects[shown.len()..]
            .iter()
            .take_while(|s| s.rank == last.rank)
            .count();
        if hidden_ties > 0 {
            let _ = writeln!(
                out,
                "... and {hidden_ties} more lines tied at rank {} (score {})",
                last.rank,
                format_score(last.score)
            );
        }
    }
    out
}
