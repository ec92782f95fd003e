//! Runs every test of an instrumented build with a coverage file of its own,
//! and turns the probes each test hit into the lines it executed.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs;
use std::path::Path;

use crate::baseline::events::Predicate;
use crate::baseline::instrument::{COVERAGE_ENV, ProbeMap, TRACE_ENV};
use crate::cargo::{RunSettings, TestId, TestOutcome, TestSuite, Verdict};
use crate::code::source::Location;
use crate::exit::Result;

/// One test's run: its outcome, the crate lines it executed and the
/// events its probes saw (none without event probes).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TestRecord {
    pub test: TestId,
    pub outcome: TestOutcome,
    pub lines: BTreeSet<Location>,
    pub events: BTreeSet<Predicate>,
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
        .map(|(&test, outcome)| {
            let hits = fs::read_to_string(file_of(test)).unwrap_or_default();
            TestRecord {
                test,
                outcome,
                lines: lines_hit(&hits, probes),
                events: events_seen(&hits, probes),
            }
        })
        .collect())
}

/// Runs `which` tests again, each tracing every probe it hits: the
/// locations it executed, in order (consecutive repeats of one location
/// merged). Tests whose trace is empty (no panic wrote it) are left out.
/// Those whose panic in `records` lies outside the workspace (the standard
/// library's, a dependency's) run with a backtrace, and their records get
/// its frames (`Panic::frames`): the functions that called it.
pub fn run_with_trace(
    suite: &TestSuite,
    which: &[TestId],
    probes: &ProbeMap,
    settings: &RunSettings,
    dir: &Path,
    records: &mut [TestRecord],
) -> Result<BTreeMap<TestId, Vec<Location>>> {
    if which.is_empty() {
        return Ok(BTreeMap::new());
    }
    fs::create_dir_all(dir)?;
    let file_of = |test: TestId| dir.join(format!("{}.trace", test.index()));
    let elsewhere: BTreeSet<TestId> = records
        .iter()
        .filter(|r| match &r.outcome.verdict {
            Verdict::Failed(panic) => panic.outside_workspace(),
            _ => false,
        })
        .map(|r| r.test)
        .collect();
    let outcomes = suite.run(
        which,
        settings,
        |test| {
            let mut env = vec![(TRACE_ENV, OsString::from(file_of(test)))];
            if elsewhere.contains(&test) {
                env.push(("RUST_BACKTRACE", OsString::from("1")));
            }
            env
        },
        |_, _| {},
    )?;
    for (test, outcome) in which.iter().zip(outcomes) {
        let (Verdict::Failed(again), Some(record)) = (
            outcome.verdict,
            records.iter_mut().find(|r| r.test == *test),
        ) else {
            continue;
        };
        if let Verdict::Failed(panic) = &mut record.outcome.verdict
            && panic.message == again.message
        {
            panic.frames = again.frames;
        }
    }
    let mut traces = BTreeMap::new();
    for &test in which {
        let mut trace: Vec<Location> = Vec::new();
        for id in merged_trace(&file_of(test)) {
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

/// The probe ids the crate roots' runtimes wrote to `path.ROOT` files
/// (`nanoseconds id` a line), in the order of their times (a crate's own
/// hits keep their order on a tie).
fn merged_trace(path: &Path) -> Vec<usize> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let prefix = format!("{}.", name.to_string_lossy());
    let mut hits: Vec<(u64, usize)> = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        if !entry.file_name().to_string_lossy().starts_with(&prefix) {
            continue;
        }
        let text = fs::read_to_string(entry.path()).unwrap_or_default();
        hits.extend(text.lines().filter_map(|line| {
            let (time, id) = line.split_once(' ')?;
            Some((time.parse().ok()?, id.parse().ok()?))
        }));
    }
    hits.sort_by_key(|&(time, _)| time);
    hits.into_iter().map(|(_, id)| id).collect()
}

/// The lines of the probe ids in a coverage file (one id per line; a torn
/// last line from a killed process is ignored).
fn lines_hit(hits: &str, probes: &ProbeMap) -> BTreeSet<Location> {
    hits.lines()
        .filter_map(|id| id.parse::<usize>().ok())
        .filter_map(|id| probes.locations.get(id).copied())
        .collect()
}

/// The events of a coverage file (`e` and a slot, one a line), those of
/// known sites.
fn events_seen(hits: &str, probes: &ProbeMap) -> BTreeSet<Predicate> {
    hits.lines()
        .filter_map(|line| line.strip_prefix('e')?.parse::<usize>().ok())
        .map(Predicate::from_slot)
        .filter(|p| p.site < probes.events.len())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::FileId;

    #[test]
    fn traces_of_crate_roots_merge_by_time() {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("3.trace");
        // A library's runtime and the package's, each with its own hits.
        fs::write(dir.path().join("3.trace.0"), "10 1\n30 2\n30 3\n").unwrap();
        fs::write(dir.path().join("3.trace.2"), "20 7\n40 8\n").unwrap();
        // Another test's trace, and a torn line, are not read.
        fs::write(dir.path().join("13.trace.0"), "15 9\n").unwrap();
        fs::write(dir.path().join("3.trace.4"), "50\n").unwrap();
        assert_eq!(merged_trace(&trace), [1, 7, 2, 3, 8]);
        assert!(merged_trace(&dir.path().join("4.trace")).is_empty());
    }

    #[test]
    fn maps_probe_ids_to_distinct_lines() {
        let at = |line| Location::new(FileId::new(0), line);
        let probes = ProbeMap {
            locations: vec![at(3), at(3), at(7)],
            events: Vec::new(),
        };
        let lines = lines_hit("1\n0\n2\n2\n99\ne4\n1", &probes);
        assert_eq!(lines, BTreeSet::from([at(3), at(7)]));
    }

    #[test]
    fn event_slots_are_sites_and_outcomes() {
        use crate::baseline::events::{EventSite, OUTCOMES, Outcome, SiteKind};
        let site = EventSite {
            location: Location::new(FileId::new(0), 4),
            kind: SiteKind::Condition,
            code: "x < 0".to_string(),
        };
        let probes = ProbeMap {
            locations: vec![Location::new(FileId::new(0), 4)],
            events: vec![site.clone(), site],
        };
        let slot = |site: usize, outcome: Outcome| site * OUTCOMES + outcome.code();
        let hits = format!(
            "0\ne{}\ne{}\ne{}\ne{}\ne",
            slot(1, Outcome::True),
            slot(0, Outcome::False),
            slot(1, Outcome::True),
            slot(2, Outcome::True)
        );
        let seen: Vec<(usize, Outcome)> = events_seen(&hits, &probes)
            .into_iter()
            .map(|p| (p.site, p.outcome))
            .collect();
        assert_eq!(seen, [(0, Outcome::False), (1, Outcome::True)]);
        assert_eq!(lines_hit(&hits, &probes).len(), 1);
    }
}
