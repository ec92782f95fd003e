//! What a session of `cargo autofix mcp` saves an agent that validates
//! patches again and again: a `validate` call of the same patches in one
//! server session, against `cargo autofix validate` as a fresh process
//! each time, side by side in one run.
//!
//! ```text
//! cargo bench --bench mcp -- [DIR [PATCH...]] [--rounds N]
//! ```
//!
//! DIR is a package whose tests fail (default: a copy of
//! `testdata/middle`); the patches are the files given, else
//! `DIR/patches/*.patch`. Both sides are warmed once first (the builds
//! kept in the target dir serve both), then each is timed `--rounds`
//! times (default 3); the medians and their ratio are printed.

#![allow(clippy::print_stdout, clippy::disallowed_methods)]

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::json;

/// `cargo-autofix autofix ARGS` in `dir`.
fn autofix(dir: &Path) -> Command {
    common::command(dir, &[])
}

fn median(mut seconds: Vec<f64>) -> f64 {
    seconds.sort_by(f64::total_cmp);
    seconds[seconds.len() / 2]
}

fn main() -> Result<()> {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut rounds = 3;
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args.get(i + 1).context("--rounds N")?.parse()?;
        args.drain(i..i + 2);
    }
    let _copy;
    let dir: PathBuf = match args.first() {
        Some(dir) => PathBuf::from(dir).canonicalize()?,
        None => {
            _copy = common::fixture("middle");
            _copy.path().to_path_buf()
        }
    };
    let mut patches: Vec<PathBuf> = args.iter().skip(1).map(PathBuf::from).collect();
    if patches.is_empty() {
        for entry in std::fs::read_dir(dir.join("patches")).context("no patches given")? {
            patches.push(entry?.path());
        }
        patches.sort();
    }
    let patches: Vec<PathBuf> = patches
        .iter()
        .map(|p| p.canonicalize())
        .collect::<Result<_, _>>()?;
    let given: Vec<serde_json::Value> = patches
        .iter()
        .map(|p| {
            Ok(json!({
                "name": p.file_name().unwrap().to_string_lossy(),
                "diff": std::fs::read_to_string(p)?,
            }))
        })
        .collect::<Result<_>>()?;

    let cli = || -> Result<f64> {
        let started = Instant::now();
        let output = autofix(&dir)
            .arg("validate")
            .args(&patches)
            .args(["--format", "json"])
            .output()?;
        let seconds = started.elapsed().as_secs_f64();
        // 0: a patch passes; 7: none does. Both are answers.
        if !matches!(output.status.code(), Some(0 | 7)) {
            bail!(
                "cargo autofix validate failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        Ok(seconds)
    };
    println!(
        "{} patches on {} ({rounds} rounds each, after one warm-up)",
        patches.len(),
        dir.display()
    );
    cli()?;
    let fresh: Vec<f64> = (0..rounds).map(|_| cli()).collect::<Result<_>>()?;

    let mut client = common::mcp::Client::start(autofix(&dir).arg("mcp"));
    let mut call = || -> Result<f64> {
        let started = Instant::now();
        let result = client.call("validate", json!({"patches": given}));
        let seconds = started.elapsed().as_secs_f64();
        if result["isError"] != false {
            bail!("the validate call failed: {}", result["content"][0]["text"]);
        }
        Ok(seconds)
    };
    let first = call()?;
    let again: Vec<f64> = (0..rounds).map(|_| call()).collect::<Result<_>>()?;
    client.close();

    let (fresh, again) = (median(fresh), median(again));
    println!();
    println!("| validate of {} patches | median seconds |", patches.len());
    println!("|---|---|");
    println!("| `cargo autofix validate`, a fresh process each time | {fresh:.2} |");
    println!("| `mcp`, the session's first call (measures the package) | {first:.2} |");
    println!("| `mcp`, a later call in the same session | {again:.2} |");
    println!(
        "| ratio, fresh process / later call | {:.1}x |",
        fresh / again
    );
    Ok(())
}
