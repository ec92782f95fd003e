//! What the repair can change, and how: the patch vocabulary (operators,
//! edits, candidates), the mutation space of a crate (sites and
//! ingredients), the operators that turn a site into an edit, and the
//! mutator that draws edits where the fault most likely is.

pub mod mutator;
pub mod operators;
pub mod patch;
pub mod sites;
pub mod types;

#[cfg(test)]
mod pinned;
