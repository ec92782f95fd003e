//! What a reduced test still executes of the crate. The reduction keeps
//! the failure (the same assertion failing at the same place, its expected
//! value untouched); this says what else it kept: the reduced version runs
//! once more in an instrumented copy, as in the baseline, and its lines are
//! compared with the original's, the most suspicious ones (Ochiai over the
//! baseline's tests) by name. It is said, not required: the spectrum's top
//! lines include whatever the failing tests happen to call besides the
//! fault (a getter in an earlier assertion), which a reduction should shed.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::baseline::Baseline;
use crate::cargo::TestId;
use crate::code::TestFunction;
use crate::code::source::Location;
use crate::evaluate::Settings;
use crate::exit::{Context, Result};
use crate::localize::spectrum_of;
use crate::localize::{Metric, rank_suspects};
use crate::system::Budget;

/// The most suspicious lines named, at most.
pub const TOP: usize = 5;

/// The crate's lines the original test executed, against the reduced one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StillRuns {
    /// Lines of the crate the original executed (the test's own function
    /// and what follows it in its file left out), and how many of those the
    /// reduced test executes.
    pub original_lines: usize,
    pub kept_lines: usize,
    /// The most suspicious of the original's lines, most suspicious first.
    pub top: Vec<TopLine>,
}

/// One of the most suspicious lines the original test executed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopLine {
    /// `file:line`.
    pub place: String,
    /// Its worst-case rank by Ochiai over the baseline's tests.
    pub rank: usize,
    /// Whether the reduced test executes it.
    pub kept: bool,
}

/// Runs `reduced_file` (the test's file with the reduced function) with
/// coverage, and compares what test `test` executes with the baseline's run
/// of the original.
pub fn still_runs(
    baseline: &Baseline,
    test: TestId,
    function: &TestFunction,
    reduced_file: &str,
    settings: &Settings,
    budget: Budget,
) -> Result<StillRuns> {
    let name = &baseline.suite.get(test).full_name;
    let original = baseline
        .records
        .iter()
        .find(|r| r.test == test)
        .context("the original test has no coverage record")?;
    let first_line = function.text[..function.item.start].matches('\n').count() as u32 + 1;
    let test_file = baseline.sources.find(&function.path);
    // Lines from the test function on may move in the reduced file.
    let comparable = |lines: &BTreeSet<Location>| -> BTreeSet<Location> {
        lines
            .iter()
            .filter(|l| Some(l.file) != test_file || l.line < first_line)
            .copied()
            .collect()
    };
    let before = comparable(&original.lines);
    let files = BTreeMap::from([(function.path.clone(), reduced_file.to_string())]);
    let reduced = settings.coverage(baseline, [test], &files, budget)?;
    let after = reduced
        .records
        .iter()
        .find(|r| reduced.suite.get(r.test).full_name == *name)
        .map(|r| comparable(&r.lines))
        .with_context(|| format!("the reduced test `{name}` did not run"))?;
    let spectrum = spectrum_of(baseline, None, &[], &Default::default());
    let top = rank_suspects(&spectrum, Metric::Ochiai)
        .into_iter()
        .filter(|s| s.score > 0.0 && before.contains(&s.location))
        .take(TOP)
        .map(|s| TopLine {
            place: baseline.sources.display(s.location),
            rank: s.rank,
            kept: after.contains(&s.location),
        })
        .collect();
    Ok(StillRuns {
        original_lines: before.len(),
        kept_lines: before.intersection(&after).count(),
        top,
    })
}
