//! Runs every test of an instrumented build with a coverage file of its own,
//! and turns the probes each test hit into the lines it executed.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs;
use std::path::Path;

use anyhow::Result;

use crate::baseline::instrument::{COVERAGE_ENV, ProbeMap, TRACE_ENV};
use crate::cargo::suite::{RunSettings, TestId, TestOutcome, TestSuite};
use crate::code::source::Location;

/// One test's run: its outcome and the crate lines it executed.
#[derive(Debug, Clone)]
pub struct TestRecord {
    pub test: TestId,
    pub outcome: TestOutcome,
    pub lines: BTreeSet<Location>,
}

/// Runs `which` tests with coverage; coverage files go to `dir`.
pub fn run_with_coverage(
    suite: &TestSuite,
    which: &[TestId],
    probes: &ProbeMap,
    settings: &RunSettings,
    dir: &Path,
    on_done: impl Fn(TestId, &TestOutcome) + Sync,
) -> Result<Vec<TestRecord>> {
    fs::create_dir_all(dir)?;
    let file_of = |test: TestId| dir.join(format!("{}.hits", test.index()));
    let outcomes = suite.run(
        which,
        settings,
        |test| vec![(COVERAGE_ENV, OsString::from(file_of(test)))],
        on_done,
    )?;
    Ok(which
        .iter()
        .zip(outcomes)
        .map(|(&test, outcome)| TestRecord {
            test,
            outcome,
            lines: lines_hit(
                &fs::read_to_string(file_of(test)).unwrap_or_default(),
                probes,
            ),
        })
        .collect())
}

/// Runs `which` tests again, each tracing every probe it hits: the
/// locations it executed, in order (consecutive repeats of one location
/// merged). Tests whose trace is empty (no panic wrote it) are left out.
pub fn run_with_trace(
    suite: &TestSuite,
    which: &[TestId],
    probes: &ProbeMap,
    settings: &RunSettings,
    dir: &Path,
) -> Result<BTreeMap<TestId, Vec<Location>>> {
    if which.is_empty() {
        return Ok(BTreeMap::new());
    }
    fs::create_dir_all(dir)?;
    let file_of = |test: TestId| dir.join(format!("{}.trace", test.index()));
    suite.run(
        which,
        settings,
        |test| vec![(TRACE_ENV, OsString::from(file_of(test)))],
        |_, _| {},
    )?;
    let mut traces = BTreeMap::new();
    for &test in which {
        let mut trace: Vec<Location> = Vec::new();
        for id in fs::read_to_string(file_of(test))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.parse::<usize>().ok())
        {
            if let Some(location) = probes.locations.get(id)
                && trace.last() != Some(location)
            {
                trace.push(*location);
            }
        }
        if !trace.is_empty() {
            traces.insert(test, trace);
        }
    }
    Ok(traces)
}

/// The lines of the probe ids in a coverage file (one id per line; a torn
/// last line from a killed process is ignored).
fn lines_hit(hits: &str, probes: &ProbeMap) -> BTreeSet<Location> {
    hits.lines()
        .filter_map(|id| id.parse::<usize>().ok())
        .filter_map(|id| probes.locations.get(id).copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::FileId;

    #[test]
    fn maps_probe_ids_to_distinct_lines() {
        let at = |line| Location::new(FileId::new(0), line);
        let probes = ProbeMap {
            locations: vec![at(3), at(3), at(7)],
        };
        let lines = lines_hit("1\n0\n2\n2\n99\n1", &probes);
        assert_eq!(lines, BTreeSet::from([at(3), at(7)]));
    }
}
