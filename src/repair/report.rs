//! What a repair did, for people (the summary on stderr, the message when
//! no patch is found) and for programs (`--report`: a [`RepairReport`],
//! which the benchmark reads back with the same type).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::exit::Exit;
use crate::localize::Metric;
use crate::repair::choice::Measures;
use crate::repair::confidence::{Confidence, Level};
use crate::repair::search::Stop;
use crate::repair::settings::Settings;
use crate::repair::stage::{EditDescription, Plausible, Stage, percent};
use crate::system::console::Console;

/// Whether the repair produced a validated patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// `patch` holds a validated patch.
    Fixed,
    /// No patch made every test pass.
    NotFixed,
    /// Stopped by a signal: `interrupted` says how far it got, and
    /// `partial_patch` holds the best patch found, not validated.
    Interrupted,
}

/// The version of the report's JSON: it changes when a field changes
/// meaning or goes away (new fields do not change it). Its schema is
/// `src/render/schemas/report.schema.json`.
pub const REPORT_VERSION: u32 = 1;

/// What a repair did (`--report FILE`). A new field may appear without a
/// new version; a field that changes meaning or goes away changes
/// `version`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "cargo autofix --report FILE")]
pub struct RepairReport {
    /// The version of the report's format (read as 0 from reports written
    /// before versions).
    #[serde(default)]
    #[schemars(schema_with = "version")]
    pub version: u32,
    pub outcome: Outcome,
    /// 1 when fixed; else the best fitness of the last stage.
    #[schemars(range(min = 0, max = 1))]
    pub fitness: f64,
    pub candidates_evaluated: usize,
    pub candidates_compiled: usize,
    #[schemars(range(min = 0))]
    pub elapsed_seconds: f64,
    /// Single edits the sweeps evaluated, and at how many locations (absent
    /// from the reports of versions before the sweep).
    #[serde(default)]
    pub swept_edits: usize,
    #[serde(default)]
    pub swept_locations: usize,
    /// Generations the genetic searches evolved.
    pub generations: usize,
    /// The validated patch, a unified diff for `git apply`.
    pub patch: Option<String>,
    /// The patch for the failure groups fixed before the search stopped
    /// (not validated), when some were fixed and others not.
    pub partial_patch: Option<String>,
    /// Every originally failing test that is not flaky, once fixed.
    pub fixed_tests: Vec<String>,
    /// Originally failing tests of the last stage that no candidate made pass.
    pub never_passed: Vec<String>,
    pub flaky_tests: BTreeSet<String>,
    pub edits: Vec<EditReport>,
    /// Per operator: candidates tried and compiled.
    pub operators: BTreeMap<String, OperatorReport>,
    /// Why the best candidate failed validation, if it did.
    pub rejected_by_validation: Option<String>,
    /// Tests the search does not run (doctests, other members' tests) that
    /// fail with the validated patch as they did without it.
    #[serde(default)]
    pub still_failing: Vec<String>,
    /// What the validation of the patch ran (`cargo test, doctests
    /// included; the doctests merged into one executable`).
    #[serde(default)]
    pub validated_with: Option<String>,
    pub seed: u64,
    pub population: usize,
    /// The suspiciousness metric the locations were ranked by.
    #[schemars(schema_with = "metric")]
    pub metric: String,
    /// Seconds per part of the run: `localize` (of which
    /// `localize/build`, `localize/tests` and `localize/traces` measured
    /// the baseline, unless it was read back, and `localize/switching`,
    /// `localize/mutants` ran its experiments); summed over the failure
    /// groups, `types` (the type oracle), `prepare` (the evaluator: the
    /// schemata woven and built, the baseline's verdicts), `sweep`,
    /// `search`, `choose` (among plausible patches), `reduce`; `validate`.
    pub timings_seconds: BTreeMap<String, f64>,
    pub evaluation: EvaluationReport,
    pub stages: Vec<StageReport>,
    /// The version of each source file the repair started from (and its
    /// patch is for): its git blob id (`git hash-object FILE`), by path.
    #[serde(default)]
    #[schemars(schema_with = "blob_ids")]
    pub sources: BTreeMap<String, String>,
    /// When a signal stopped the repair: which, and how far it got;
    /// `partial_patch` then holds the best patch found, not validated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<String>,
    /// How sure the repair is of its patch, and why (with a patch only):
    /// `likely` exits 0, `plausible` 13.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
}

/// One edit of the patch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EditReport {
    pub file: String,
    #[schemars(range(min = 1))]
    pub line: u32,
    pub operator: String,
    pub replacement: String,
    /// The worst-case rank of its line in the failure group's ranking (0:
    /// unranked).
    #[serde(default)]
    pub rank: usize,
}

/// The candidates an operator's edits made: tried, and compiled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OperatorReport {
    pub tried: usize,
    pub compiled: usize,
}

/// How candidates were evaluated, summed over the stages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EvaluationReport {
    /// The evaluator (`--evaluator`).
    pub strategy: String,
    pub builds: usize,
    /// Candidates evaluated in a woven build.
    pub woven: usize,
    /// Candidates built on their own.
    pub separate: usize,
    /// Why candidates were built separately, and how many.
    #[serde(default)]
    pub separate_reasons: BTreeMap<String, usize>,
    #[schemars(range(min = 0))]
    pub build_seconds: f64,
    #[schemars(range(min = 0))]
    pub test_seconds: f64,
}

/// One failure group's search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StageReport {
    /// How the group's tests fail.
    pub group: String,
    pub tests: Vec<String>,
    pub found: bool,
    #[serde(default)]
    pub swept_edits: usize,
    #[serde(default)]
    pub swept_locations: usize,
    pub generations: usize,
    pub candidates_evaluated: usize,
    /// The stage's patch; its lines are in the files with the earlier
    /// stages' patches.
    pub edits: Vec<EditReport>,
    /// The top locations by suspiciousness.
    pub ranking_before: Vec<String>,
    /// The top locations by the weights the search ended with.
    pub ranking_after: Vec<RankedLocation>,
    /// The sweep's plausible patches, best first: the first is the patch.
    #[serde(default)]
    pub alternatives: Vec<AlternativeReport>,
    /// After each batch of the sweep: the edits evaluated so far and the
    /// best fitness.
    #[serde(default)]
    pub sweep_progress: Vec<SweepPoint>,
    /// Per generation of the genetic search (0: the initial population):
    /// the best and the mean fitness.
    #[serde(default)]
    pub search_progress: Vec<GenerationPoint>,
}

/// The single edits a sweep evaluated so far, and the best fitness.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SweepPoint {
    pub edits: usize,
    pub best: f64,
}

/// A generation's best and mean fitness.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GenerationPoint {
    pub best: f64,
    pub mean: f64,
}

/// A plausible patch of a sweep, with what decided its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AlternativeReport {
    pub edits: Vec<EditReport>,
    #[serde(flatten)]
    pub measures: Measures,
}

/// A location the search weighted highly, with its rank before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RankedLocation {
    /// `file:line`.
    pub location: String,
    /// Its rank by suspiciousness (0: unranked).
    pub rank_before: usize,
}

/// How the repair ended, as the report tells it.
#[derive(Debug, Clone, Default)]
pub struct Ending {
    pub patch: Option<String>,
    pub partial_patch: Option<String>,
    pub fixed_tests: Vec<String>,
    pub flaky: BTreeSet<String>,
    pub rejected: Option<String>,
    pub still_failing: Vec<String>,
    pub validated_with: Option<String>,
    pub confidence: Option<Confidence>,
}

impl RepairReport {
    /// Marks the report as that of a run stopped by the signal of `exit`,
    /// `note` saying how far it got.
    pub fn interrupt(&mut self, exit: Exit, note: &str) {
        self.outcome = Outcome::Interrupted;
        let signal = match exit {
            Exit::HungUp => "SIGHUP",
            Exit::Terminated => "SIGTERM",
            _ => "SIGINT",
        };
        let note = note.trim_end_matches(':');
        self.interrupted = Some(format!("{signal}: {note}"));
    }

    pub fn new(
        stages: &[Stage],
        ending: Ending,
        settings: &Settings,
        metric: &str,
        timings: BTreeMap<String, f64>,
        elapsed: Duration,
    ) -> RepairReport {
        let mut evaluation = EvaluationReport::default();
        let mut timings = timings;
        for stage in stages {
            for (name, seconds) in &stage.timings {
                *timings.entry(name.to_string()).or_default() += seconds;
            }
            evaluation.strategy = stage.evaluation.strategy.to_string();
            evaluation.builds += stage.evaluation.builds;
            evaluation.woven += stage.evaluation.woven;
            evaluation.separate += stage.evaluation.separate;
            for (why, count) in &stage.evaluation.separate_reasons {
                *evaluation.separate_reasons.entry(why.clone()).or_default() += count;
            }
            evaluation.build_seconds += stage.evaluation.build_seconds;
            evaluation.test_seconds += stage.evaluation.test_seconds;
        }
        let fixed = ending.patch.is_some();
        let last = stages.last();
        RepairReport {
            version: REPORT_VERSION,
            outcome: if fixed {
                Outcome::Fixed
            } else {
                Outcome::NotFixed
            },
            fitness: if fixed {
                1.0
            } else {
                last.map_or(0.0, |s| s.best.fitness)
            },
            candidates_evaluated: stages.iter().map(|s| s.counts.built).sum(),
            candidates_compiled: stages.iter().map(|s| s.counts.compiled).sum(),
            elapsed_seconds: elapsed.as_secs_f64(),
            generations: stages.iter().map(Stage::generations).sum(),
            swept_edits: stages.iter().map(|s| s.sweep.edits).sum(),
            swept_locations: stages.iter().map(|s| s.sweep.locations).sum(),
            patch: ending.patch,
            partial_patch: ending.partial_patch,
            fixed_tests: ending.fixed_tests,
            never_passed: last.map(|s| s.never_passed.clone()).unwrap_or_default(),
            flaky_tests: ending.flaky,
            edits: stages.iter().flat_map(|s| edit_reports(&s.edits)).collect(),
            operators: operator_totals(stages),
            rejected_by_validation: ending.rejected,
            still_failing: ending.still_failing,
            validated_with: ending.validated_with,
            seed: settings.seed,
            population: settings.population,
            metric: metric.to_string(),
            timings_seconds: timings,
            evaluation,
            stages: stages
                .iter()
                .map(|s| StageReport {
                    group: s.description.clone(),
                    tests: s.tests.clone(),
                    found: s.patch.is_some(),
                    generations: s.generations(),
                    swept_edits: s.sweep.edits,
                    swept_locations: s.sweep.locations,
                    candidates_evaluated: s.counts.built,
                    edits: edit_reports(&s.edits),
                    ranking_before: s.ranking_before.clone(),
                    ranking_after: s
                        .ranking_after
                        .iter()
                        .map(|(location, rank_before)| RankedLocation {
                            location: location.clone(),
                            rank_before: *rank_before,
                        })
                        .collect(),
                    alternatives: s
                        .alternatives
                        .iter()
                        .map(|a| AlternativeReport {
                            edits: edit_reports(&a.edits),
                            measures: a.measures.clone(),
                        })
                        .collect(),
                    sweep_progress: s
                        .sweep
                        .progress
                        .iter()
                        .map(|&(edits, best)| SweepPoint { edits, best })
                        .collect(),
                    search_progress: s
                        .search
                        .iter()
                        .flat_map(|search| &search.history)
                        .map(|&(best, mean)| GenerationPoint { best, mean })
                        .collect(),
                })
                .collect(),
            sources: BTreeMap::new(),
            interrupted: None,
            confidence: ending.confidence,
        }
    }
}

fn version(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "integer", "const": REPORT_VERSION})
}

fn metric(_: &mut SchemaGenerator) -> Schema {
    let names: Vec<&str> = Metric::ALL.map(Metric::name).to_vec();
    json_schema!({"type": "string", "enum": names})
}

/// Git blob ids by path.
fn blob_ids(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{40}$"}
    })
}

fn edit_reports(edits: &[EditDescription]) -> Vec<EditReport> {
    edits
        .iter()
        .map(|e| EditReport {
            file: e.file.to_string_lossy().replace('\\', "/"),
            line: e.line,
            operator: e.operator.name().to_string(),
            replacement: e.replacement.clone(),
            rank: e.rank,
        })
        .collect()
}

/// Candidates tried and compiled per operator, over every stage.
fn operator_totals(stages: &[Stage]) -> BTreeMap<String, OperatorReport> {
    let mut totals: BTreeMap<String, OperatorReport> = BTreeMap::new();
    for (operator, counts) in stages.iter().flat_map(Stage::operators) {
        let total = totals.entry(operator.name().to_string()).or_default();
        total.tried += counts.tried;
        total.compiled += counts.compiled;
    }
    totals
}

/// The repair's summary on stderr: operators, candidates, what was learned,
/// and what was fixed.
pub fn summarize(report: &RepairReport, stages: &[Stage], settings: &Settings, console: &Console) {
    let feedback = settings.feedback;
    let operators: Vec<String> = report
        .operators
        .iter()
        .map(|(operator, c)| format!("{operator} {}/{}", c.compiled, c.tried))
        .collect();
    console.detail(
        "Operators",
        format!("{} (compiled/tried)", operators.join(", ")),
    );
    let search = match report.generations {
        0 => String::new(),
        1 => ", 1 generation of the search".to_string(),
        n => format!(", {n} generations of the search"),
    };
    console.status(
        "Tried",
        format!(
            "{} candidate patches ({}% compiled{search}) in {:.1} s",
            report.candidates_evaluated,
            percent(report.candidates_compiled, report.candidates_evaluated),
            report.elapsed_seconds
        ),
    );
    for stage in stages {
        let learned: Vec<String> = stage
            .ranking_after
            .iter()
            .take(3)
            .map(|(location, before)| {
                if *before > 0 {
                    format!("{location} (was {before})")
                } else {
                    format!("{location} (unranked)")
                }
            })
            .collect();
        if feedback && stage.learned_anything() {
            console.detail(
                "Learned",
                format!("most promising after the search: {}", learned.join(", ")),
            );
        }
    }
    if !report.fixed_tests.is_empty() {
        let edits = report.edits.len();
        console.status("Fixed", abbreviate(&report.fixed_tests));
        let but = match report.still_failing.len() {
            0 => String::new(),
            n => format!(" but {n} that failed without it too"),
        };
        let what = format!(
            "a patch of {edits} edit{} that passes every test it was given ({}){but}",
            if edits == 1 { "" } else { "s" },
            (report.validated_with.as_deref()).unwrap_or(settings.test_tool.describe())
        );
        let (verb, said) = match report.confidence.as_ref().map(|c| c.level) {
            Some(Level::Likely) => (
                "Likely",
                format!("the fix: {what}; the evidence points at it and nothing speaks against it"),
            ),
            _ => (
                "Plausible",
                format!("but not sure: {what}; review it before you apply it"),
            ),
        };
        console.status(verb, said);
        for reason in report.confidence.iter().flat_map(|c| &c.reasons) {
            let sign = if reason.supports { '+' } else { '-' };
            console.status("", format!("{sign} {}", reason.text));
        }
        if let [stage] = stages
            && let Some(chosen) = stage.alternatives.get(stage.chosen)
        {
            // Each patch once: candidates made by different operators or
            // at different sites can write the same edit.
            let same_edits = |p: &Plausible| -> Vec<(PathBuf, u32, String)> {
                let edits = p.edits.iter();
                edits
                    .map(|e| (e.file.clone(), e.line, e.replacement.clone()))
                    .collect()
            };
            let mut shown = vec![same_edits(chosen)];
            for (i, other) in stage.alternatives.iter().enumerate() {
                if shown.len() > ALTERNATIVES_SHOWN || shown.contains(&same_edits(other)) {
                    continue;
                }
                shown.push(same_edits(other));
                let edits = described(other);
                let why = if i < stage.chosen {
                    "chosen before it, it failed validation on a clean copy or added a compiler warning".to_string()
                } else {
                    format!("after it: {}", other.measures.behind(&chosen.measures))
                };
                console.status("Also passes", format!("{edits}; {why}"));
            }
        }
    }
}

/// A plausible patch's edits on one line: where, by what, and the text.
fn described(plausible: &Plausible) -> String {
    let edits: Vec<String> = plausible
        .edits
        .iter()
        .map(|e| {
            format!(
                "{}:{} ({}) `{}`",
                e.file.display(),
                e.line,
                e.operator.name(),
                one_line(&e.replacement)
            )
        })
        .collect();
    edits.join(", ")
}

/// Plausible patches besides the chosen one listed after it, at most.
const ALTERNATIVES_SHOWN: usize = 3;

/// `text` on one line, shortened to 80 characters.
fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match joined.char_indices().nth(80) {
        Some((end, _)) => format!("{}...", &joined[..end]),
        None => joined,
    }
}

/// Why no patch was found, in one line.
pub fn not_found_message(
    stages: &[Stage],
    rejected: Option<&str>,
    cut_short: Option<&str>,
) -> String {
    // The first group left without a patch (the others are named after
    // it), or the last group searched.
    let mut unfixed = stages.iter().enumerate().filter(|(_, s)| s.patch.is_none());
    let Some((index, last)) = unfixed.next().or(stages.iter().enumerate().next_back()) else {
        return "no patch found".to_string();
    };
    let others: String = unfixed
        .map(|(i, s)| {
            format!(
                "; no patch either for failure group {} ({})",
                i + 1,
                s.description
            )
        })
        .collect();
    if let (None, Some(why)) = (rejected, cut_short) {
        return format!(
            "no patch found for the failures that remain after {} fixed failure group{}: {why}",
            stages.len(),
            if stages.len() == 1 { "" } else { "s" }
        );
    }
    let why = match (rejected, last.stop) {
        (Some(reason), _) => {
            format!("the best candidate passed the tests but not validation ({reason})")
        }
        (None, Stop::NothingToMutate) => "no suspicious code could be mutated".to_string(),
        (None, Stop::TimeLimit) => "the time limit was reached".to_string(),
        (None, Stop::Interrupted) => "it was interrupted".to_string(),
        _ => "the generation budget was spent".to_string(),
    };
    let group = if stages.len() > 1 {
        format!(" for failure group {} ({})", index + 1, last.description)
    } else {
        String::new()
    };
    let never = if last.never_passed.is_empty() {
        String::new()
    } else {
        format!("; never passed: {}", abbreviate(&last.never_passed))
    };
    format!(
        "no patch found{group}: {why} after {} single edits at {} locations, {} generations and {} candidates ({}% compiled), best fitness {:.4}{never}{others}",
        last.sweep.edits,
        last.sweep.locations,
        last.generations(),
        last.counts.built,
        percent(last.counts.compiled, last.counts.built),
        last.best.fitness
    )
}

/// The first few names, and how many more there are.
pub fn abbreviate(names: &[String]) -> String {
    const SHOWN: usize = 5;
    match names.len().checked_sub(SHOWN) {
        Some(more) if more > 0 => format!("{} and {more} more", names[..SHOWN].join(", ")),
        _ => names.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::confidence::Reason;

    #[test]
    fn long_lists_are_abbreviated() {
        let names: Vec<String> = (1..=7).map(|i| format!("t{i}")).collect();
        assert_eq!(abbreviate(&names[..2]), "t1, t2");
        assert_eq!(abbreviate(&names), "t1, t2, t3, t4, t5 and 2 more");
    }

    #[test]
    fn the_report_reads_back_as_written() {
        let report = RepairReport {
            version: REPORT_VERSION,
            outcome: Outcome::NotFixed,
            fitness: 0.99,
            candidates_evaluated: 3,
            candidates_compiled: 2,
            elapsed_seconds: 1.5,
            swept_edits: 12,
            swept_locations: 3,
            generations: 1,
            patch: None,
            partial_patch: Some("diff".into()),
            fixed_tests: vec![],
            never_passed: vec!["tests::a".into()],
            flaky_tests: BTreeSet::new(),
            edits: vec![EditReport {
                file: "src/lib.rs".into(),
                line: 3,
                operator: "value".into(),
                replacement: "1".into(),
                rank: 2,
            }],
            operators: BTreeMap::from([(
                "value".into(),
                OperatorReport {
                    tried: 3,
                    compiled: 2,
                },
            )]),
            rejected_by_validation: None,
            still_failing: vec![],
            validated_with: Some("cargo test, doctests included".into()),
            seed: 0,
            population: 40,
            metric: "ochiai".into(),
            timings_seconds: BTreeMap::from([("search".into(), 1.0)]),
            evaluation: EvaluationReport::default(),
            stages: vec![],
            sources: BTreeMap::new(),
            interrupted: None,
            confidence: Some(Confidence {
                level: Level::Plausible,
                reasons: vec![Reason {
                    supports: false,
                    text: "the edited line ranks 9th".into(),
                }],
            }),
        };
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["outcome"], "not_fixed");
        assert_eq!(json["confidence"]["level"], "plausible");
        assert_eq!(json["never_passed"][0], "tests::a");
        let back: RepairReport = serde_json::from_value(json).unwrap();
        assert_eq!(back, report);
    }
}
