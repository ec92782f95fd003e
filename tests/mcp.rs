//! `cargo autofix mcp`: the server spoken to as an agent speaks to it,
//! JSON-RPC lines on its stdin and stdout.

#![allow(clippy::disallowed_methods)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::mcp::Client;
use common::*;

/// `patches/NAME` of `dir`, named by its path as the command line names it.
fn patch(dir: &Path, name: &str) -> Value {
    let path = format!("patches/{name}");
    let diff = std::fs::read_to_string(dir.join(&path)).unwrap();
    json!({"name": path, "diff": diff})
}

/// Per patch, in the order given: its name, whether it passes, the tests
/// it fixes and breaks.
fn verdicts(judgement: &Value) -> Vec<(String, bool, Value, Value)> {
    judgement["patches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["plausible"].as_bool().unwrap(),
                p["fixes"].clone(),
                p["breaks"].clone(),
            )
        })
        .collect()
}

#[test]
fn an_agent_ranks_validates_repairs_and_reduces_over_mcp() {
    let dir = fixture("middle");
    let temp = tempfile::tempdir().unwrap();
    let before = snapshot(dir.path());
    let mut client = Client::start(command(dir.path(), &["mcp"]).env("TMPDIR", temp.path()));

    let tools = client.request("tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["rank", "explain", "validate", "repair", "reduce_test"]
    );
    for tool in tools["result"]["tools"].as_array().unwrap() {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }

    // The ranking: the CLI's JSON, line 6 first, its progress notified.
    let rank = client.call("rank", json!({"top": 5}));
    assert_eq!(rank["isError"], false, "{rank}");
    let ranking = &rank["structuredContent"];
    assert_matches_schema(ranking, "src/render/schemas/ranking.schema.json");
    assert_eq!(ranking["ranking"][0]["line"], 6, "{ranking:#}");
    assert!(ranking["ranking"].as_array().unwrap().len() <= 5);
    assert_eq!(ranking["tests"]["failing"], json!(["tests::middle_2_1_3"]));
    assert!(
        client.notifications.iter().any(|n| {
            n["method"] == "notifications/progress" && n["params"]["progressToken"] == "rank"
        }),
        "no progress notification: {:?}",
        client.notifications
    );

    let explain = client.call("explain", json!({"group": 1}));
    assert_eq!(explain["isError"], false, "{explain}");
    assert_eq!(
        explain["structuredContent"]["failing"],
        json!(["tests::middle_2_1_3"])
    );
    let no_group = client.call("explain", json!({"group": 7}));
    assert_eq!(no_group["isError"], true);
    assert_eq!(no_group["structuredContent"]["exit_code"], 2, "{no_group}");

    // Three patches ranked as `cargo autofix validate` ranks them (run
    // while the server lives: it holds the build lock only during a
    // call), twice in one session (the second reuses the first's evaluator).
    let names = ["breaking.patch", "overfitting.patch", "right.patch"];
    let patches: Vec<Value> = names.iter().map(|name| patch(dir.path(), name)).collect();
    let paths: Vec<String> = names.iter().map(|name| format!("patches/{name}")).collect();
    let mut cli_args = vec!["validate", "--format", "json"];
    cli_args.extend(paths.iter().map(String::as_str));
    let cli = autofix(dir.path(), &cli_args);
    assert_exit(&cli, 0);
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let expected = verdicts(&cli);
    let order: Vec<(&str, bool)> = expected.iter().map(|v| (v.0.as_str(), v.1)).collect();
    assert_eq!(
        order,
        [
            ("patches/right.patch", true),
            ("patches/overfitting.patch", true),
            ("patches/breaking.patch", false)
        ]
    );
    for _ in 0..2 {
        let judged = client.call("validate", json!({"patches": patches}));
        assert_eq!(judged["isError"], false, "{judged}");
        assert_eq!(verdicts(&judged["structuredContent"]), expected);
    }
    let stale = client.call(
        "validate",
        json!({"patches": [{"diff": "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -3,1 +3,1 @@\n-nothing like this\n+at all\n"}]}),
    );
    assert_eq!(stale["isError"], true, "{stale}");
    assert_eq!(stale["structuredContent"]["exit_code"], 9, "{stale}");

    let repair = client.call("repair", json!({"time_limit": 120}));
    assert_eq!(repair["isError"], false, "{repair}");
    let report = &repair["structuredContent"];
    assert_matches_schema(report, "src/render/schemas/report.schema.json");
    assert_eq!(report["outcome"], "fixed", "{report:#}");
    assert_eq!(
        changed_lines(report["patch"].as_str().unwrap()),
        ["-            return y;", "+            return x;"]
    );

    let reduced = client.call("reduce_test", json!({"test": "tests::middle_2_1_3"}));
    assert_eq!(reduced["isError"], false, "{reduced}");
    assert_eq!(
        reduced["structuredContent"]["test"], "tests::middle_2_1_3",
        "{reduced}"
    );
    let unknown = client.call("reduce_test", json!({"test": "no_such_test"}));
    assert_eq!(unknown["isError"], true);
    assert_eq!(unknown["structuredContent"]["exit_code"], 2, "{unknown}");

    assert_eq!(client.close(), 0);
    assert_eq!(snapshot(dir.path()), before, "the package's files changed");
    assert_eq!(scratch_dirs(temp.path()), Vec::<String>::new());
}

#[test]
fn an_edit_to_the_package_is_measured_again() {
    let dir = fixture("middle");
    let temp = tempfile::tempdir().unwrap();
    let mut client = Client::start(command(dir.path(), &["mcp"]).env("TMPDIR", temp.path()));
    let first = client.call("rank", json!({}));
    assert_eq!(first["structuredContent"]["tests"]["failed"], 1, "{first}");
    // The agent applies the right fix: every test passes now.
    let lib = dir.path().join("src/lib.rs");
    let fixed = std::fs::read_to_string(&lib).unwrap().replacen(
        "x < z {\n            return y;",
        "x < z {\n            return x;",
        1,
    );
    std::fs::write(&lib, fixed).unwrap();
    let second = client.call("rank", json!({}));
    assert_eq!(second["isError"], true, "{}", second["content"][0]);
    assert_eq!(second["structuredContent"]["exit_code"], 6, "{second}");
    assert_eq!(client.close(), 0);
}

#[cfg(target_os = "linux")]
#[test]
fn a_cancelled_call_leaves_no_process_and_no_scratch_dir() {
    let dir = fixture("hang");
    let temp = tempfile::tempdir().unwrap();
    let mut client = Client::start(
        command(dir.path(), &["mcp", "-j", "1", "--test-timeout", "600"])
            .env("TMPDIR", temp.path()),
    );
    let id = client.send_request("tools/call", json!({"name": "rank", "arguments": {}}));
    let started = Instant::now();
    while running_processes_mentioning("zero_takes_no_steps", dir.path()).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "the hanging test never started"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    client.send(json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "the agent changed its mind"}
    }));
    // The server goes on: it answers the next request.
    let tools = client.request("tools/list", json!({}));
    assert!(tools["result"]["tools"].is_array(), "{tools}");
    let cancelled = Instant::now();
    while !running_processes_mentioning("zero_takes_no_steps", dir.path()).is_empty() {
        assert!(
            cancelled.elapsed() < Duration::from_secs(10),
            "the hanging test survived the cancellation"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Only the server's own run dir is left while it lives.
    let waited = Instant::now();
    while scratch_dirs(temp.path()).len() > 1 {
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "scratch dirs left: {:?}",
            scratch_dirs(temp.path())
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(client.close(), 0);
    assert_eq!(scratch_dirs(temp.path()), Vec::<String>::new());
}
