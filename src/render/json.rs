//! The ranking as one JSON object (the schema is in the README).

use serde_json::{Value, json};

use super::Ranking;
use crate::localize::Suspect;
use crate::refine::Localization;
use crate::suite::Verdict;

/// The whole localization: the overall ranking, and one per failure group.
pub fn localization(ranking: &Ranking, localization: &Localization) -> Value {
    let mut value = self::ranking(ranking);
    let tests = &ranking.baseline.suite.tests;
    let groups: Vec<Value> = localization
        .groups
        .iter()
        .map(|g| {
            json!({
                "signature": g.group.signature.to_string(),
                "failing": g.group.tests.iter().map(|&t| tests[t].id.as_str()).collect::<Vec<_>>(),
                "critical": g.critical.iter().map(|l| l.to_string()).collect::<Vec<_>>(),
                "ranking": entries(&Ranking { suspects: &g.suspects, ..*ranking }),
            })
        })
        .collect();
    value["groups"] = Value::Array(groups);
    value["switched_conditions"] = json!(localization.switched);
    value
}

fn entries(ranking: &Ranking) -> Vec<Value> {
    ranking.suspects.iter().map(|s| entry(ranking, s)).collect()
}

fn entry(ranking: &Ranking, s: &Suspect) -> Value {
    json!({
        "rank": s.rank,
        "file": s.location.file.to_string_lossy().replace('\\', "/"),
        "line": s.location.line,
        // JSON has no infinity: DStar's unbounded score is written as f64::MAX.
        "score": if s.score.is_infinite() { f64::MAX } else { s.score },
        "confidence": s.confidence,
        "failed": s.counts.failed,
        "passed": s.counts.passed,
        "in_slice": s.in_slice,
        "critical": s.critical,
        "code": ranking.code(s),
    })
}

/// One ranking with the tests it was computed from.
pub fn ranking(ranking: &Ranking) -> Value {
    let baseline = ranking.baseline;
    let tests = &baseline.suite.tests;
    let failing: Vec<&str> = baseline
        .failing()
        .map(|r| tests[r.test].id.as_str())
        .collect();
    let failures: Vec<Value> = baseline
        .failing()
        .map(|r| match &r.outcome.verdict {
            Verdict::Failed(panic) => json!({
                "test": tests[r.test].id,
                "outcome": "failed",
                "message": panic.message,
                "location": panic.location,
            }),
            _ => json!({"test": tests[r.test].id, "outcome": "timed_out"}),
        })
        .collect();
    json!({
        "metric": ranking.metric.name(),
        "package": baseline.workspace.package.name,
        "tests": {
            "passed": baseline.records.len() - failing.len(),
            "failed": failing.len(),
            "ignored": baseline.ignored(),
            "failing": failing,
            "failures": failures,
        },
        "ranking": entries(ranking),
    })
}
