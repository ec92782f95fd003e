//! The ranking as one JSON object (its schema: `src/render/schemas/ranking.schema.json`).

use serde_json::{Value, json};

use super::{Ranking, json_score};
use crate::baseline::Predicate;
use crate::cargo::Verdict;
use crate::code::Spans;
use crate::localize::Localization;
use crate::localize::Suspect;
use crate::localize::Tree;

/// The version of the JSON of the ranking and of the repair report: it
/// changes when a field changes meaning or goes away (new fields do not
/// change it). The schemas are in `src/render/schemas/`.
pub const VERSION: u32 = 1;

/// The JSON Schema of [`localization`]'s object.
pub const RANKING_SCHEMA: &str = include_str!("schemas/ranking.schema.json");

/// The JSON Schema of the repair's report (`--report`).
pub const REPORT_SCHEMA: &str = include_str!("schemas/report.schema.json");

/// The whole localization: the overall ranking, and one per failure group.
pub fn localization(ranking: &Ranking, localization: &Localization) -> Value {
    let spans = Spans::of(&ranking.baseline.sources);
    let mut value = self::ranking(ranking, &spans);
    let suite = &ranking.baseline.suite;
    let groups: Vec<Value> = localization
        .groups
        .iter()
        .map(|g| {
            json!({
                "signature": g.group.description,
                "failing": suite.full_names(&g.group.tests),
                "critical": g.critical.iter().map(|&l| ranking.place(l)).collect::<Vec<_>>(),
                "crash": g.crash.map(|c| json!({
                    "at": ranking.place(c.location),
                    "kind": c.kind.name(),
                })),
                "ranking": entries(&Ranking { suspects: &g.suspects, ..*ranking }, &spans),
            })
        })
        .collect();
    value["groups"] = Value::Array(groups);
    value["switched_conditions"] = json!(localization.switched);
    value["mutation"] = match &localization.mutants {
        Some(m) => json!({
            "lines": m.chosen,
            "lines_tried": m.lines,
            "edits": m.edits,
            "compiled": m.compiled,
            "seconds": m.seconds,
            "cached": m.cached,
        }),
        None => Value::Null,
    };
    value["predicates"] = localization
        .predicates
        .iter()
        .map(|entry| {
            let mut value = predicate(ranking, &entry.predicate);
            value["rank"] = json!(entry.rank);
            value["score"] = json!(json_score(entry.score));
            value["increase"] = json!(entry.increase);
            value["failed"] = json!(entry.counts.failed);
            value["passed"] = json!(entry.counts.passed);
            value
        })
        .collect();
    value["tree"] = localization
        .tree
        .as_ref()
        .map_or(Value::Null, |tree| self::tree(ranking, tree));
    value["uninstrumented"] = ranking
        .baseline
        .uninstrumented
        .iter()
        .map(|left| {
            json!({
                "file": ranking.file(left.file),
                "lines": left.lines,
            })
        })
        .collect();
    value
}

/// Where a predicate's site is and what it says.
fn predicate(ranking: &Ranking, predicate: &Predicate) -> Value {
    let site = ranking.site(predicate);
    json!({
        "file": ranking.file(site.location.file),
        "line": site.location.line,
        "kind": site.kind.name(),
        "outcome": predicate.outcome.name(),
        "code": site.code,
        "description": site.describe(predicate.outcome),
    })
}

/// A node: a split on a predicate with its `present` and `absent` sides,
/// or a leaf with what it predicts; both with the tests that reach them.
fn tree(ranking: &Ranking, tree: &Tree<Predicate>) -> Value {
    let (failing, passing) = tree.counts();
    match tree {
        Tree::Leaf { .. } => json!({
            "failing": failing,
            "passing": passing,
            "predicts": tree.verdict(),
        }),
        Tree::Split {
            feature,
            gain,
            present,
            absent,
            ..
        } => json!({
            "failing": failing,
            "passing": passing,
            "split": predicate(ranking, feature),
            "gain": gain,
            "present": self::tree(ranking, present),
            "absent": self::tree(ranking, absent),
        }),
    }
}

fn entries(ranking: &Ranking, spans: &Spans) -> Vec<Value> {
    ranking
        .suspects
        .iter()
        .map(|s| entry(ranking, spans, s))
        .collect()
}

fn entry(ranking: &Ranking, spans: &Spans, s: &Suspect) -> Value {
    json!({
        "rank": s.rank,
        "file": ranking.file(s.location.file),
        "package": ranking.package(s.location.file),
        "line": s.location.line,
        "span": ranking.span(spans, s),
        "score": json_score(s.score),
        "confidence": s.confidence,
        "failed": s.counts.failed,
        "passed": s.counts.passed,
        "in_slice": s.in_slice,
        "in_diff": s.in_diff,
        "critical": s.critical,
        "crash": s.crash,
        "mutation": s.mutation.map(|m| json!({
            "class": m.class.name(),
            "edits": m.edits,
            "metallaxis": m.metallaxis,
            "muse": m.muse,
        })),
        "code": ranking.code(s),
    })
}

/// One ranking with the tests it was computed from.
fn ranking(ranking: &Ranking, spans: &Spans) -> Value {
    let baseline = ranking.baseline;
    let suite = &baseline.suite;
    let failing: Vec<String> = suite.full_names(baseline.failing().map(|r| &r.test));
    let failures: Vec<Value> = baseline
        .failing()
        .map(|r| match &r.outcome.verdict {
            Verdict::Failed(panic) => json!({
                "test": suite.get(r.test).full_name,
                "outcome": "failed",
                "message": panic.message,
                "location": panic.location,
            }),
            _ => json!({"test": suite.get(r.test).full_name, "outcome": "timed_out"}),
        })
        .collect();
    json!({
        "version": VERSION,
        "metric": ranking.metric.name(),
        "package": baseline.workspace.package.name,
        "linked": baseline.workspace.linked.iter().map(|p| &p.name).collect::<Vec<_>>(),
        "tests": {
            "passed": baseline.records.len() - failing.len(),
            "failed": failing.len(),
            "ignored": baseline.ignored(),
            "failing": failing,
            "failures": failures,
        },
        "ranking": entries(ranking, spans),
    })
}
