//! `ranks.svg`: the rank distribution and the time to fix each bug.

use std::fmt::Write;

use crate::run::BugRecord;

/// Bars of the Ochiai rank distribution and of the time to fix each bug.
pub fn svg(records: &[BugRecord]) -> String {
    let checked: Vec<&BugRecord> = records.iter().filter(|r| r.check.ok).collect();
    let buckets = ["1", "2-3", "4-5", "6-10", "11-20", ">20", "none"];
    let bucket = |rank: Option<usize>| match rank {
        Some(1) => 0,
        Some(2..=3) => 1,
        Some(4..=5) => 2,
        Some(6..=10) => 3,
        Some(11..=20) => 4,
        Some(_) => 5,
        None => 6,
    };
    let mut out = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"440\" font-family=\"sans-serif\" font-size=\"12\">\n",
    );
    out.push_str("<text x=\"20\" y=\"24\" font-size=\"15\">Rank of the faulty line (Ochiai, worst case)</text>\n");
    let counts: Vec<usize> = (0..buckets.len())
        .map(|b| {
            checked
                .iter()
                .filter(|r| bucket(r.ranks["ochiai"]) == b)
                .count()
        })
        .collect();
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    for (i, (label, count)) in buckets.iter().zip(&counts).enumerate() {
        let height = 300.0 * *count as f64 / most as f64;
        let x = 30 + i * 55;
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{:.1}\" width=\"40\" height=\"{height:.1}\" fill=\"#c0392b\"/><text x=\"{}\" y=\"400\" text-anchor=\"middle\">{label}</text><text x=\"{}\" y=\"{:.1}\" text-anchor=\"middle\">{count}</text>",
            360.0 - height,
            x + 20,
            x + 20,
            355.0 - height
        );
    }
    out.push_str(
        "<text x=\"440\" y=\"24\" font-size=\"15\">Time to fix (s; grey: not fixed)</text>\n",
    );
    let longest = checked
        .iter()
        .filter_map(|r| r.repair.as_ref())
        .map(|p| p.seconds)
        .fold(1.0, f64::max);
    let row = (380.0 / checked.len().max(1) as f64).min(18.0);
    for (i, r) in checked.iter().enumerate() {
        let Some(p) = r.repair.as_ref() else {
            continue;
        };
        let y = 40.0 + i as f64 * row;
        let width = 300.0 * p.seconds / longest;
        let colour = if p.plausible() { "#2980b9" } else { "#bbbbbb" };
        let _ = writeln!(
            out,
            "<rect x=\"590\" y=\"{y:.1}\" width=\"{width:.1}\" height=\"{:.1}\" fill=\"{colour}\"/><text x=\"585\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"{:.0}\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.0}\">{:.0}</text>",
            row * 0.8,
            y + row * 0.7,
            (row * 0.7).min(11.0),
            r.id,
            594.0 + width,
            y + row * 0.7,
            (row * 0.7).min(11.0),
            p.seconds
        );
    }
    out.push_str("</svg>\n");
    out
}
