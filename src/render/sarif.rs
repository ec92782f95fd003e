//! SARIF 2.1.0 (`--format sarif`), for code-scanning uploads: the top
//! suspects as results of rule `suspicious-line` (with their spans, ranks
//! and scores), and after a repair the patch as one result of rule
//! `plausible-patch` on the first line it changes.
//!
//! The log is built from the typed objects below, each with only the
//! SARIF properties this tool fills in.

use std::fmt::Write;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::{Ranking, format_score, json_score};
use crate::code::{Span, Spans};
use crate::code::{first_change, hunk_edits, parse_diff};
use crate::repair::Confidence;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The rules of the log, in the order `ruleIndex` counts: the suspects'
/// (at [`SUSPICIOUS_LINE`]) and the patch's (at [`PLAUSIBLE_PATCH`]).
const RULES: [Rule; 2] = [
    Rule {
        id: "suspicious-line",
        name: "SuspiciousLine",
        short_description: Description {
            text: "A line that goes with the failing tests",
        },
        full_description: Description {
            text: "Spectrum-based fault localization: the line is executed by failing tests more than by passing ones. The rank counts every line ranked at least as high.",
        },
        default_configuration: Configuration {
            level: Level::Warning,
        },
    },
    Rule {
        id: "plausible-patch",
        name: "PlausiblePatch",
        short_description: Description {
            text: "A patch that makes every test pass",
        },
        full_description: Description {
            text: "Found by search, reduced to its essential edits and validated with cargo test on a clean copy: plausible, not proven correct.",
        },
        default_configuration: Configuration { level: Level::Note },
    },
];
const SUSPICIOUS_LINE: usize = 0;
const PLAUSIBLE_PATCH: usize = 1;

/// The SARIF log of a ranking: its top `top` suspects with a positive
/// score (all of those for `None`),
/// and the validated patch, if any. `prefix` leads from the repository
/// root to the workspace root (SARIF paths are relative to the repository).
/// Returned as a JSON value, whose objects print their keys in
/// alphabetical order (serde_json's maps are sorted).
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
    let mut results: Vec<Finding> = ranking
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
            Finding {
                rule_id: RULES[SUSPICIOUS_LINE].id,
                rule_index: SUSPICIOUS_LINE,
                level: Level::Warning,
                message: Message {
                    text: format!(
                        "Suspicious line, rank {} ({} {}): executed by {} of {failing} failing and {} of {passing} passing tests",
                        suspect.rank,
                        ranking.metric.name(),
                        format_score(suspect.score),
                        suspect.counts.failed,
                        suspect.counts.passed,
                    ),
                },
                locations: [location(
                    prefix,
                    file,
                    Region {
                        start_line: span.line,
                        start_column: Some(span.column),
                        end_line: Some(span.end_line),
                        end_column: Some(span.end_column),
                    },
                )],
                fixes: None,
                properties: Properties::Suspect(SuspectProperties {
                    rank: suspect.rank,
                    metric: ranking.metric.name(),
                    score: json_score(suspect.score),
                    failed: suspect.counts.failed,
                    passed: suspect.counts.passed,
                    in_slice: suspect.in_slice,
                    critical: suspect.critical,
                    crash: suspect.crash,
                    in_diff: suspect.in_diff,
                    mutation: suspect.mutation.map(|m| m.class.name()),
                }),
            }
        })
        .collect();
    if let Some((diff, confidence)) = patch {
        results.push(patch_finding(ranking, diff, confidence, prefix));
    }
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "cargo-autofix",
                    version: env!("CARGO_PKG_VERSION"),
                    rules: &RULES,
                },
            },
            column_kind: "unicodeCodePoints",
            results,
        }],
    };
    serde_json::to_value(log).expect("a SARIF log has only string keys")
}

/// The patch as a result on the first line it changes, with its confidence
/// in the message (when judged) and its edits as a fix.
fn patch_finding<'a>(
    ranking: &Ranking,
    diff: &'a str,
    confidence: Option<&'a Confidence>,
    prefix: &Path,
) -> Finding<'a> {
    let (file, line) = first_change(diff).unwrap_or_default();
    let said = confidence.map_or(String::new(), |c| format!(" ({})", c.summary()));
    Finding {
        rule_id: RULES[PLAUSIBLE_PATCH].id,
        rule_index: PLAUSIBLE_PATCH,
        level: Level::Note,
        message: Message {
            text: format!(
                "A patch that passes every test{said}; review it before applying:\n{diff}"
            ),
        },
        locations: [location(
            prefix,
            Path::new(&file),
            Region {
                start_line: line.max(1),
                start_column: None,
                end_line: None,
                end_column: None,
            },
        )],
        fixes: Some(fixes(ranking, diff, prefix)),
        properties: Properties::Patch(PatchProperties {
            patch: diff,
            confidence,
        }),
    }
}

/// The patch as a SARIF fix: per file, each run of changed lines as a
/// replacement of the original bytes (none if the diff cannot be read
/// back, which a patch of this crate always can).
fn fixes(ranking: &Ranking, diff: &str, prefix: &Path) -> Vec<Fix> {
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
        let replacements = edits
            .into_iter()
            .map(|edit| Replacement {
                deleted_region: ByteRegion {
                    byte_offset: edit.range.start,
                    byte_length: edit.range.len(),
                },
                inserted_content: ArtifactContent { text: edit.text },
            })
            .collect();
        changes.push(ArtifactChange {
            artifact_location: ArtifactLocation {
                uri: uri(&prefix.join(&source.path)),
            },
            replacements,
        });
    }
    vec![Fix {
        description: Message {
            text: "The validated patch".to_string(),
        },
        artifact_changes: changes,
    }]
}

/// A SARIF location in `file` (relative to the workspace root).
fn location(prefix: &Path, file: &Path, region: Region) -> Location {
    Location {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: uri(&prefix.join(file)),
            },
            region,
        },
    }
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

/// SARIF's `sarifLog`: this tool's one run.
#[derive(Debug, Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

/// SARIF's `run`: the tool and its results; columns count characters, as
/// [`Span`]'s do.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    column_kind: &'static str,
    results: Vec<Finding<'a>>,
}

/// SARIF's `tool`.
#[derive(Debug, Serialize)]
struct Tool {
    driver: Driver,
}

/// SARIF's `toolComponent`: this crate, with its two [`RULES`].
#[derive(Debug, Serialize)]
struct Driver {
    name: &'static str,
    version: &'static str,
    rules: &'static [Rule; 2],
}

/// SARIF's `reportingDescriptor`: a rule and the level of its results.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: &'static str,
    short_description: Description,
    full_description: Description,
    default_configuration: Configuration,
}

/// SARIF's `multiformatMessageString`, in plain text.
#[derive(Debug, Serialize)]
struct Description {
    text: &'static str,
}

/// SARIF's `reportingConfiguration`.
#[derive(Debug, Serialize)]
struct Configuration {
    level: Level,
}

/// A SARIF level: `warning` for a suspect, `note` for a patch.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    Warning,
    Note,
}

/// SARIF's `result`: a suspect, or the patch with its fix.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Finding<'a> {
    rule_id: &'static str,
    /// The rule's index in [`RULES`].
    rule_index: usize,
    level: Level,
    message: Message,
    locations: [Location; 1],
    /// The patch's (absent for a suspect).
    #[serde(skip_serializing_if = "Option::is_none")]
    fixes: Option<Vec<Fix>>,
    properties: Properties<'a>,
}

/// SARIF's `message`, in plain text.
#[derive(Debug, Serialize)]
struct Message {
    text: String,
}

/// SARIF's `location`: a region of a file.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

/// SARIF's `physicalLocation`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

/// SARIF's `artifactLocation`: a [`uri`] relative to the repository root.
#[derive(Debug, Serialize)]
struct ArtifactLocation {
    uri: String,
}

/// SARIF's `region` in lines and columns: a suspect's span, or only the
/// first line a patch changes.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<u32>,
}

/// A result's property bag (its keys in snake case, as in `--format
/// json`).
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Properties<'a> {
    Suspect(SuspectProperties),
    Patch(PatchProperties<'a>),
}

/// What the ranking knows of a suspect; `mutation` is its best fix class
/// (null where the mutation refinement did not reach it).
#[derive(Debug, Serialize)]
struct SuspectProperties {
    rank: usize,
    metric: &'static str,
    score: f64,
    failed: u32,
    passed: u32,
    in_slice: bool,
    critical: bool,
    crash: bool,
    in_diff: bool,
    mutation: Option<&'static str>,
}

/// The patch as a diff, and the confidence in it (null without one).
#[derive(Debug, Serialize)]
struct PatchProperties<'a> {
    patch: &'a str,
    confidence: Option<&'a Confidence>,
}

/// SARIF's `fix`: the patch's changes to each file.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Fix {
    description: Message,
    artifact_changes: Vec<ArtifactChange>,
}

/// SARIF's `artifactChange`: the replacements in one file.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

/// SARIF's `replacement`: bytes of the original file and their new text.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: ByteRegion,
    inserted_content: ArtifactContent,
}

/// SARIF's `region` in bytes of the original file.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ByteRegion {
    byte_offset: usize,
    byte_length: usize,
}

/// SARIF's `artifactContent`, as text.
#[derive(Debug, Serialize)]
struct ArtifactContent {
    text: String,
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

    /// Missing values the log shows as null stay null, the others absent.
    #[test]
    fn null_and_absent_properties() {
        let region = Region {
            start_line: 6,
            start_column: None,
            end_line: None,
            end_column: None,
        };
        let finding = Finding {
            rule_id: RULES[PLAUSIBLE_PATCH].id,
            rule_index: PLAUSIBLE_PATCH,
            level: Level::Note,
            message: Message {
                text: "patch".to_string(),
            },
            locations: [location(Path::new(""), Path::new("src/lib.rs"), region)],
            fixes: None,
            properties: Properties::Patch(PatchProperties {
                patch: "",
                confidence: None,
            }),
        };
        assert_eq!(
            serde_json::to_value(finding).unwrap(),
            serde_json::json!({
                "ruleId": "plausible-patch",
                "ruleIndex": 1,
                "level": "note",
                "message": {"text": "patch"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": "src/lib.rs"},
                    "region": {"startLine": 6},
                }}],
                "properties": {"patch": "", "confidence": null},
            })
        );
    }
}
