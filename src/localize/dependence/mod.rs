//! Dynamic dependencies (the slicing seed): what each location defines and
//! uses, which condition it is control dependent on, and, over the trace of
//! a failing run, the backward slice from the last statement it executed in
//! the crate: the statements that can have influenced the failure.
//!
//! Facts come from syntax; dependencies come from a trace, so they are the
//! ones this run had, not every one the code could have. The trace holds
//! locations only, so calls and returns are inferred: a location of another
//! function than the current one enters it (a call from the last statement
//! run) unless that function is still active below (a return to it).

mod facts;
mod run;
#[cfg(test)]
mod tests;

pub use facts::{Facts, statement_facts};
pub use run::{Dependency, Run};
