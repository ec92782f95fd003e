//! cargo autofix: ranks the lines most likely to cause a crate's failing
//! tests (spectrum-based fault localization), and searches for a patch that
//! makes every test pass.
//!
//! The pipeline runs one way, a folder per layer (see ARCHITECTURE.md):
//! `system` (processes, terminal, scratch copies) < `cargo` < `code` <
//! `baseline` < `mutation` < `evaluate` < `localize` < `repair` < `reduce`
//! < `render` < `app`. The modules are private; this facade is what the binary, the
//! benchmark and the end-to-end tests use.

mod app;
mod baseline;
mod cargo;
mod code;
mod dd;
mod evaluate;
mod exit;
mod localize;
mod mutation;
mod reduce;
mod render;
mod repair;
mod system;

pub use app::{Args, Session, parse_args, run};
pub use cargo::Kind as TargetKind;
pub use cargo::{TestId, Verdict, parse_results, test_id};
pub use code::source::{FileId, Location};
pub use evaluate::{
    CandidateOutcome, Evaluator, EvaluatorKind, EvaluatorStats, FitnessModel, PreparedEvaluator,
};
pub use exit::{Error, Exit, Failure, Halt, Result};
pub use localize::{
    Counts, FixClass, LineEvidence, MUTATION_LINES, Marks, Metric, Spectrum, Suspect, rank_refined,
    rank_suspects, rerank_by_evidence,
};
pub use mutation::Candidate;
pub use repair::RepairReport;
pub use system::Budget;
pub use system::console::{colors, error_prefix};
pub use system::process::{Finished, Status, install_interrupt_handler, run as run_process};
