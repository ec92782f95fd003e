//! SARIF 2.1.0 (`--format sarif`), for code-scanning uploads: the top
//! suspects as results of rule `suspicious-line` (with their spans, ranks
//! and scores), and after a repair the patch as one result of rule
//! `plausible-patch` on the first line it changes.

use std::fmt::Write;
use std::path::Path;

use serde_json::{Value, json};

use super::{Ranking, format_score, json_score};
use crate::code::{Span, Spans};
use crate::code::{first_change, hunk_edits, parse_diff};
use crate::repair::Confidence;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The SARIF log of a ranking: its top `top` suspects with a positive
/// score (all of those for `None`),
/// and the validated patch, if any. `prefix` leads from the repository
/// root to the workspace root (SARIF paths are relative to the repository).
pub fn log(
    ranking: &Ranking,
    top: Option<usize>,
    patch: Option<(&str, Option<&Confidence>)>,
    prefix: &Path,
) -> Value {
    let spans = Spans::of(&ranking.baseline.sources);
    let failing = ranking.baseline.failing().count();
    let passing = ranking.baseline.passing().count();
    // Lines no failing test executed (score 0) are not findings.
    let mut results: Vec<Value> = ranking
        .suspects
        .iter()
        .filter(|s| s.score > 0.0)
        .take(top.unwrap_or(usize::MAX))
        .map(|suspect| {
            let file = &ranking.baseline.sources.get(suspect.location.file).path;
            let span = ranking.span(&spans, suspect).unwrap_or(Span {
                line: suspect.location.line,
                column: 1,
                end_line: suspect.location.line,
                end_column: 1,
            });
            json!({
                "ruleId": "suspicious-line",
                "ruleIndex": 0,
                "level": "warning",
                "message": {"text": format!(
                    "Suspicious line, rank {} ({} {}): executed by {} of {failing} failing and {} of {passing} passing tests",
                    suspect.rank,
                    ranking.metric.name(),
                    format_score(suspect.score),
                    suspect.counts.failed,
                    suspect.counts.passed,
                )},
                "locations": [location(prefix, file, json!({
                    "startLine": span.line,
                    "startColumn": span.column,
                    "endLine": span.end_line,
                    "endColumn": span.end_column,
                }))],
                "properties": {
                    "rank": suspect.rank,
                    "metric": ranking.metric.name(),
                    "score": json_score(suspect.score),
                    "failed": suspect.counts.failed,
                    "passed": suspect.counts.passed,
                    "in_slice": suspect.in_slice,
                    "critical": suspect.critical,
                    "crash": suspect.crash,
                    "in_diff": suspect.in_diff,
                    "mutation": suspect.mutation.map(|m| m.class.name()),
                },
            })
        })
        .collect();
    if let Some((diff, confidence)) = patch {
        let (file, line) = first_change(diff).unwrap_or_default();
        let said = confidence.map_or(String::new(), |c| format!(" ({})", c.summary()));
        results.push(json!({
            "ruleId": "plausible-patch",
            "ruleIndex": 1,
            "level": "note",
            "message": {"text": format!("A patch that passes every test{said}; review it before applying:\n{diff}")},
            "locations": [location(prefix, Path::new(&file), json!({"startLine": line.max(1)}))],
            "fixes": fixes(ranking, diff, prefix),
            "properties": {"patch": diff, "confidence": confidence},
        }));
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "cargo-autofix",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": [
                    {
                        "id": "suspicious-line",
                        "name": "SuspiciousLine",
                        "shortDescription": {"text": "A line that goes with the failing tests"},
                        "fullDescription": {"text": "Spectrum-based fault localization: the line is executed by failing tests more than by passing ones. The rank counts every line ranked at least as high."},
                        "defaultConfiguration": {"level": "warning"},
                    },
                    {
                        "id": "plausible-patch",
                        "name": "PlausiblePatch",
                        "shortDescription": {"text": "A patch that makes every test pass"},
                        "fullDescription": {"text": "Found by search, reduced to its essential edits and validated with cargo test on a clean copy: plausible, not proven correct."},
                        "defaultConfiguration": {"level": "note"},
                    },
                ],
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// The patch as a SARIF fix: per file, each run of changed lines as a
/// replacement of the original bytes (none if the diff cannot be read
/// back, which a patch of this crate always can).
fn fixes(ranking: &Ranking, diff: &str, prefix: &Path) -> Vec<Value> {
    let sources = &ranking.baseline.sources;
    let Ok(files) = parse_diff(diff) else {
        return Vec::new();
    };
    let mut changes = Vec::new();
    for patch in files {
        let Some(file) = sources.find_diff_path(&patch.path) else {
            return Vec::new();
        };
        let source = sources.get(file);
        let Ok(edits) = hunk_edits(&source.text, &patch.hunks) else {
            return Vec::new();
        };
        let replacements: Vec<Value> = edits
            .iter()
            .map(|edit| {
                json!({
                    "deletedRegion": {"byteOffset": edit.range.start, "byteLength": edit.range.len()},
                    "insertedContent": {"text": edit.text},
                })
            })
            .collect();
        changes.push(json!({
            "artifactLocation": {"uri": uri(&prefix.join(&source.path))},
            "replacements": replacements,
        }));
    }
    vec![json!({
        "description": {"text": "The validated patch"},
        "artifactChanges": changes,
    })]
}

/// A SARIF location in `file` (relative to the workspace root).
fn location(prefix: &Path, file: &Path, region: Value) -> Value {
    json!({"physicalLocation": {
        "artifactLocation": {"uri": uri(&prefix.join(file))},
        "region": region,
    }})
}

/// A relative path as a URI reference: `/` separators, and every byte
/// that may not stand in a path segment percent-encoded.
fn uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&byte) {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(
            uri(Path::new("crates/my crate/src/lib.rs")),
            "crates/my%20crate/src/lib.rs"
        );
        assert_eq!(uri(Path::new("src/ä.rs")), "src/%C3%A4.rs");
    }
}
