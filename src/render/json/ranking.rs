//! The ranking's JSON as types: what `--rank-only --format json` prints,
//! and what its schema is derived from (the doc comments are the schema's
//! descriptions, so they speak of the JSON, not of the code).

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;

use super::VERSION;
use crate::baseline::{Outcome, Predicate, SiteKind};
use crate::cargo::Verdict;
use crate::code::{Span, Spans};
use crate::localize::{FixClass, Localization, Metric, PanicKind, Suspect, Tree};
use crate::render::{Ranking, json_score};

/// The ranking of suspicious lines: overall and per failure group. A new
/// field may appear without a new version; a field that changes meaning or
/// goes away changes `version`.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(title = "cargo autofix --rank-only --format json")]
pub struct RankingJson {
    /// The version of this format.
    #[schemars(schema_with = "version")]
    pub version: u32,
    /// The suspiciousness metric the lines are ranked by.
    #[schemars(schema_with = "metric")]
    pub metric: &'static str,
    /// The package whose tests ran.
    pub package: String,
    /// The workspace members the package depends on through path
    /// dependencies, transitively: their libraries' code is ranked (and
    /// edited) too.
    pub linked: Vec<String>,
    pub tests: Tests,
    /// Every executed line of non-test code, most suspicious first, for
    /// all the failing tests together.
    pub ranking: Vec<Entry>,
    /// One per failure group (failing tests with the same failure
    /// signature), largest first.
    pub groups: Vec<Group>,
    /// Conditions forced both ways by predicate switching.
    pub switched_conditions: usize,
    /// What the mutation refinement tried; null when it did not run.
    pub mutation: Option<MutationRun>,
    /// Events beyond lines that the tests saw (a condition's outcome; the
    /// sign, variant or Ok/Err of a value bound by `let` or returned), most
    /// suspicious first, by the metric over the tests that saw each. Empty
    /// when events were not recorded (`--refine` without `predicates`).
    pub predicates: Vec<RankedPredicate>,
    /// A decision tree (at most 3 splits deep, ID3 by information gain)
    /// telling failing tests from passing ones by the predicates they saw;
    /// null when events were not recorded.
    pub tree: Option<Node>,
    /// Files whose probes do not compile, left without probes: the ranking
    /// misses their executable lines.
    pub uninstrumented: Vec<Uninstrumented>,
}

/// The tests that ran.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Tests {
    pub passed: usize,
    pub failed: usize,
    /// Tests marked `#[ignore]`, which did not run.
    pub ignored: usize,
    /// The failing tests' names.
    pub failing: Vec<TestName>,
    /// How each failing test failed, in the same order.
    pub failures: Vec<Failure>,
    /// The outcomes and the lines each test executed were read back from
    /// an earlier run on the same sources, settings and toolchain (kept in
    /// `target/autofix/cache/`), not measured by this one.
    pub cached: bool,
}

/// libtest's name for a unit test of the library; target/name for other
/// test targets.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct TestName(pub String);

/// How a failing test failed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Failure {
    /// It panicked.
    Failed {
        test: TestName,
        /// The panic message.
        message: String,
        /// The panic's file:line:column, when it said.
        location: Option<String>,
    },
    /// It ran past its time limit.
    TimedOut { test: TestName },
}

/// The failing tests with one failure signature, and their ranking.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Group {
    /// How the group's tests fail.
    pub signature: String,
    pub failing: Vec<TestName>,
    /// The file:line of each critical predicate (a condition whose outcome,
    /// forced the other way, makes a failing test pass).
    pub critical: Vec<String>,
    /// Where the group's tests panicked in the crate's own code, and the
    /// kind of panic; null when they failed elsewhere (an assertion in a
    /// test, an exit, a timeout).
    pub crash: Option<CrashSite>,
    /// Every line the group's tests executed, most suspicious first.
    pub ranking: Vec<Entry>,
}

/// Where failing tests panicked, and how.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrashSite {
    /// file:line
    pub at: String,
    #[schemars(schema_with = "panic_kind")]
    pub kind: &'static str,
}

/// A ranked line.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Entry {
    /// Worst-case rank: how many lines rank at least as high.
    #[schemars(range(min = 1))]
    pub rank: usize,
    /// Relative to the workspace root, with `/`.
    pub file: String,
    /// The package whose code it is: the package or a linked member.
    pub package: String,
    #[schemars(range(min = 1))]
    pub line: u32,
    /// The code ranked at the line: its statement (the head of an if,
    /// while, for, loop or match), or a const or static item. Null where no
    /// code starts on the line.
    pub span: Option<Span>,
    /// DStar's unbounded score is written as 1.7976931348623157e308.
    pub score: f64,
    /// Tarantula's confidence: the larger of the shares of passing and of
    /// failing tests that executed the line.
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
    /// Failing tests that executed the line.
    pub failed: u32,
    /// Passing tests that executed the line.
    pub passed: u32,
    /// In the dynamic slice of every failing test (of its group).
    pub in_slice: bool,
    /// Changed by the diff given with `--in-diff`.
    pub in_diff: bool,
    /// A condition whose flip makes a failing test pass.
    pub critical: bool,
    /// The line where failing tests panicked, in the crate's own code.
    pub crash: bool,
    /// What edits at the line did; null where the mutation refinement did
    /// not reorder the line.
    pub mutation: Option<LineMutation>,
    /// The line's code, trimmed.
    pub code: String,
}

/// What the edits at one line did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LineMutation {
    /// The best class among the line's edits (ProFL's).
    #[schemars(schema_with = "fix_class")]
    pub class: &'static str,
    /// Compiled edits evaluated at the line.
    pub edits: usize,
    /// The best Ochiai score of an edit, a failing test that passes and a
    /// passing test that fails killing it.
    pub metallaxis: f64,
    /// The mean share of all fail-to-pass changes an edit makes, less
    /// (weighted) its share of all pass-to-fail changes.
    pub muse: f64,
}

/// What the mutation refinement tried.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MutationRun {
    /// Lines chosen (the top of each ranking, and lines the compiler warns
    /// about).
    pub lines: usize,
    /// Lines whose edits were all run: more than those chosen when the
    /// experiment went further down the rankings, fewer when its budget ran
    /// out.
    pub lines_tried: usize,
    /// Edits evaluated.
    pub edits: usize,
    /// Edits that compiled.
    pub compiled: usize,
    /// How long the edits took when they were run (by an earlier run when
    /// `cached`).
    #[schemars(range(min = 0))]
    pub seconds: f64,
    /// Read from target/autofix/cache: an earlier run on the same sources,
    /// lockfile, settings and toolchain found it.
    pub cached: bool,
}

/// Where a predicate's site is and what it says.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PredicateSite {
    pub file: String,
    #[schemars(range(min = 1))]
    pub line: u32,
    #[schemars(schema_with = "site_kind")]
    pub kind: &'static str,
    #[schemars(schema_with = "outcome")]
    pub outcome: &'static str,
    /// The condition, the variable bound, or the function returning.
    pub code: String,
    /// The predicate in words: `` `c == '"'` is true ``.
    pub description: String,
}

/// A predicate, ranked.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RankedPredicate {
    #[serde(flatten)]
    pub predicate: PredicateSite,
    /// Worst-case rank over ties of score and increase.
    #[schemars(range(min = 1))]
    pub rank: usize,
    pub score: f64,
    /// Failure(P) - Context(P): the share of failing tests among those that
    /// saw it, less that among those that reached its site.
    #[schemars(range(min = -1, max = 1))]
    pub increase: f64,
    /// Failing tests that saw it.
    pub failed: u32,
    /// Passing tests that saw it.
    pub passed: u32,
}

/// A node of the decision tree: a split on a predicate, or a leaf with
/// what it predicts.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Node {
    /// Failing tests that reach the node.
    pub failing: usize,
    /// Passing tests that reach the node.
    pub passing: usize,
    #[serde(flatten)]
    pub kind: NodeKind,
}

/// A leaf, or a split with its two sides.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum NodeKind {
    Leaf {
        /// What most of the node's tests did (a tie passes).
        #[schemars(schema_with = "verdict")]
        predicts: &'static str,
    },
    Split {
        split: PredicateSite,
        /// Information gain in bits.
        #[schemars(range(min = 0))]
        gain: f64,
        /// The tests that saw the predicate.
        present: Box<Node>,
        /// The tests that did not.
        absent: Box<Node>,
    },
}

/// A file left without probes.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Uninstrumented {
    pub file: String,
    /// Its executable lines, which the ranking misses.
    pub lines: usize,
}

impl RankingJson {
    /// The whole localization: the overall ranking, and one per failure
    /// group.
    pub fn of(ranking: &Ranking, localization: &Localization) -> RankingJson {
        let spans = Spans::of(&ranking.baseline.sources);
        let baseline = ranking.baseline;
        let groups = localization
            .groups
            .iter()
            .map(|g| Group {
                signature: g.group.description.clone(),
                failing: test_names(baseline.suite.full_names(&g.group.tests)),
                critical: g.critical.iter().map(|&l| ranking.place(l)).collect(),
                crash: g.crash.map(|c| CrashSite {
                    at: ranking.place(c.location),
                    kind: c.kind.name(),
                }),
                ranking: entries(
                    &Ranking {
                        suspects: &g.suspects,
                        ..*ranking
                    },
                    &spans,
                ),
            })
            .collect();
        RankingJson {
            version: VERSION,
            metric: ranking.metric.name(),
            package: baseline.workspace.package.name.clone(),
            linked: baseline
                .workspace
                .linked
                .iter()
                .map(|p| p.name.clone())
                .collect(),
            tests: tests(ranking),
            ranking: entries(ranking, &spans),
            groups,
            switched_conditions: localization.switched,
            mutation: localization.mutants.as_ref().map(|m| MutationRun {
                lines: m.chosen,
                lines_tried: m.lines,
                edits: m.edits,
                compiled: m.compiled,
                seconds: m.seconds,
                cached: m.cached,
            }),
            predicates: localization
                .predicates
                .iter()
                .map(|entry| RankedPredicate {
                    predicate: predicate(ranking, &entry.predicate),
                    rank: entry.rank,
                    score: json_score(entry.score),
                    increase: entry.increase,
                    failed: entry.counts.failed,
                    passed: entry.counts.passed,
                })
                .collect(),
            tree: localization.tree.as_ref().map(|tree| node(ranking, tree)),
            uninstrumented: baseline
                .uninstrumented
                .iter()
                .map(|left| Uninstrumented {
                    file: ranking.file(left.file),
                    lines: left.lines,
                })
                .collect(),
        }
    }
}

fn test_names(names: Vec<String>) -> Vec<TestName> {
    names.into_iter().map(TestName).collect()
}

/// The tests the ranking was computed from.
fn tests(ranking: &Ranking) -> Tests {
    let baseline = ranking.baseline;
    let suite = &baseline.suite;
    let failing = suite.full_names(baseline.failing().map(|r| &r.test));
    let failures = baseline
        .failing()
        .map(|r| {
            let test = TestName(suite.get(r.test).full_name.clone());
            match &r.outcome.verdict {
                Verdict::Failed(panic) => Failure::Failed {
                    test,
                    message: panic.message.clone(),
                    location: panic.location.clone(),
                },
                _ => Failure::TimedOut { test },
            }
        })
        .collect();
    Tests {
        passed: baseline.records.len() - failing.len(),
        failed: failing.len(),
        ignored: baseline.ignored(),
        failing: test_names(failing),
        failures,
        cached: baseline.cached,
    }
}

fn entries(ranking: &Ranking, spans: &Spans) -> Vec<Entry> {
    ranking
        .suspects
        .iter()
        .map(|s| entry(ranking, spans, s))
        .collect()
}

fn entry(ranking: &Ranking, spans: &Spans, s: &Suspect) -> Entry {
    Entry {
        rank: s.rank,
        file: ranking.file(s.location.file),
        package: ranking.package(s.location.file).to_string(),
        line: s.location.line,
        span: ranking.span(spans, s),
        score: json_score(s.score),
        confidence: s.confidence,
        failed: s.counts.failed,
        passed: s.counts.passed,
        in_slice: s.in_slice,
        in_diff: s.in_diff,
        critical: s.critical,
        crash: s.crash,
        mutation: s.mutation.map(|m| LineMutation {
            class: m.class.name(),
            edits: m.edits,
            metallaxis: m.metallaxis,
            muse: m.muse,
        }),
        code: ranking.code(s).into_owned(),
    }
}

fn predicate(ranking: &Ranking, predicate: &Predicate) -> PredicateSite {
    let site = ranking.site(predicate);
    PredicateSite {
        file: ranking.file(site.location.file),
        line: site.location.line,
        kind: site.kind.name(),
        outcome: predicate.outcome.name(),
        code: site.code.clone(),
        description: site.describe(predicate.outcome),
    }
}

fn node(ranking: &Ranking, tree: &Tree<Predicate>) -> Node {
    let (failing, passing) = tree.counts();
    let kind = match tree {
        Tree::Leaf { .. } => NodeKind::Leaf {
            predicts: tree.verdict(),
        },
        Tree::Split {
            feature,
            gain,
            present,
            absent,
            ..
        } => NodeKind::Split {
            split: predicate(ranking, feature),
            gain: *gain,
            present: Box::new(node(ranking, present)),
            absent: Box::new(node(ranking, absent)),
        },
    };
    Node {
        failing,
        passing,
        kind,
    }
}

/// The schema of a string that is one of `names`.
fn one_of(names: impl IntoIterator<Item = &'static str>) -> Schema {
    let names: Vec<&str> = names.into_iter().collect();
    json_schema!({"type": "string", "enum": names})
}

fn version(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "integer", "const": VERSION})
}

fn metric(_: &mut SchemaGenerator) -> Schema {
    one_of(Metric::ALL.map(Metric::name))
}

fn panic_kind(_: &mut SchemaGenerator) -> Schema {
    one_of(PanicKind::ALL.map(PanicKind::name))
}

fn fix_class(_: &mut SchemaGenerator) -> Schema {
    one_of(FixClass::ALL.map(FixClass::name))
}

fn site_kind(_: &mut SchemaGenerator) -> Schema {
    one_of(SiteKind::ALL.map(SiteKind::name))
}

fn outcome(_: &mut SchemaGenerator) -> Schema {
    one_of(Outcome::ALL.map(Outcome::name))
}

fn verdict(_: &mut SchemaGenerator) -> Schema {
    // What `Tree::verdict` says.
    one_of(["fail", "pass"])
}
