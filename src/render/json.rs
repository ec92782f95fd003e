//! The ranking as one JSON object (the schema is in the README).

use serde_json::{Value, json};

use super::Ranking;
use crate::suite::Verdict;

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
    let entries: Vec<Value> = ranking
        .suspects
        .iter()
        .map(|s| {
            json!({
                "rank": s.rank,
                "file": s.location.file.to_string_lossy().replace('\\', "/"),
                "line": s.location.line,
                // JSON has no infinity: DStar's unbounded score is written as f64::MAX.
                "score": if s.score.is_infinite() { f64::MAX } else { s.score },
                "confidence": s.confidence,
                "failed": s.counts.failed,
                "passed": s.counts.passed,
                "code": ranking.code(s),
            })
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
        "ranking": entries,
    })
}
