//! How the repair searches: the settings of every stage.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use crate::cargo::TestTool;
use crate::evaluate;
use crate::evaluate::Weights;
use crate::mutation::Exclusions;
use crate::mutation::Operator;
use crate::repair::shard::ShardReport;

/// How the repair searches.
#[derive(Debug, Clone)]
pub struct Settings {
    pub seed: u64,
    pub population: usize,
    pub generations: usize,
    /// The whole run's budget, localization included.
    pub time_limit: Option<Duration>,
    pub weights: Weights,
    pub operators: Vec<Operator>,
    pub exclude: Exclusions,
    /// Weigh locations by what edits there did.
    pub feedback: bool,
    /// `--in-diff`: edit only these lines (per diff path; see
    /// `CrateSources::locations_in`).
    pub in_diff: Option<BTreeMap<String, BTreeSet<u32>>>,
    pub evaluation: evaluate::Settings,
    /// What runs the final validation.
    pub test_tool: TestTool,
    /// `merge`: the shards' outcomes of the first stage's single edits.
    pub shards: Option<Vec<ShardReport>>,
    /// Whether a genetic search follows a sweep that found no patch (not
    /// in the stage for every failure group at once: a sweep only).
    pub genetic: bool,
}
