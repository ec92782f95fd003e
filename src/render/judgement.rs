//! What `cargo autofix validate` found: a table of the given patches, best
//! first, or the same as JSON.

use std::fmt::Write;

use serde_json::{Value, json};

use super::json::VERSION;
use crate::repair::{Judged, Judgement};

/// The table, and the reduced patch after it when there is one (`git
/// apply` skips the text before a diff).
pub fn text(judgement: &Judgement) -> String {
    let mut out = String::new();
    let width = judgement
        .patches
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>7}  {:>5}  {:>6}  verdict",
        "rank", "patch", "fitness", "fixes", "breaks"
    );
    for (index, patch) in judgement.patches.iter().enumerate() {
        let rank = if patch.refused.is_some() {
            "-".to_string()
        } else {
            (index + 1).to_string()
        };
        let (fitness, fixes, breaks) = if patch.refused.is_some() {
            ("-".to_string(), "-".to_string(), "-".to_string())
        } else {
            let total = patch.fixes.len() + patch.still_failing.len();
            (
                format!("{:.4}", patch.fitness),
                format!("{}/{total}", patch.fixes.len()),
                patch.breaks.len().to_string(),
            )
        };
        let _ = writeln!(
            out,
            "{rank:>4}  {:<width$}  {fitness:>7}  {fixes:>5}  {breaks:>6}  {}",
            patch.name,
            verdict(patch)
        );
    }
    if !judgement.flaky_tests.is_empty() {
        let _ = writeln!(
            out,
            "\nflaky tests, left out: {}",
            judgement.flaky_tests.join(", ")
        );
    }
    if let Some(reduced) = &judgement.reduced {
        let _ = writeln!(
            out,
            "\n{}: {}; {}",
            reduced.name,
            if reduced.edits_after < reduced.edits_before {
                format!(
                    "reduced from {} edits to {}",
                    reduced.edits_before, reduced.edits_after
                )
            } else {
                "already minimal".to_string()
            },
            match (&reduced.patch, &reduced.rejected) {
                (Some(_), _) => "cargo test passes on a clean copy with it:".to_string(),
                (None, Some(why)) => format!("rejected by validation: {why}"),
                (None, None) => "not validated".to_string(),
            }
        );
        if let Some(patch) = &reduced.patch {
            out.push_str(patch);
        }
    }
    out
}

fn verdict(patch: &Judged) -> String {
    if let Some(why) = &patch.refused {
        return format!("does not apply: {why}");
    }
    if let Some(error) = &patch.build_error {
        let first = error.lines().next().unwrap_or_default();
        return format!("does not build: {first}");
    }
    let mut parts = Vec::new();
    if patch.plausible {
        parts.push(match patch.behaviour_change {
            Some(0) => "passes every test; the passing tests run the same lines".to_string(),
            Some(n) => format!("passes every test; the passing tests run {n} lines differently"),
            None => "passes every test".to_string(),
        });
    }
    if !patch.still_failing.is_empty() {
        parts.push(format!("still failing: {}", patch.still_failing.join(", ")));
    }
    if !patch.breaks.is_empty() {
        parts.push(format!("breaks: {}", patch.breaks.join(", ")));
    }
    parts.join("; ")
}

/// `{"version", "patches": [...], "flaky_tests", "reduced"}`.
pub fn json(judgement: &Judgement) -> Value {
    let mut value = serde_json::to_value(judgement).expect("a judgement is plain data");
    value["version"] = json!(VERSION);
    value
}
