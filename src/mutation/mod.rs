//! What the repair can change, and how: the patch vocabulary (operators,
//! edits, candidates), the mutation space of a crate (sites and
//! ingredients), the operators that turn a site into an edit, and the
//! mutator that draws edits where the fault most likely is.

mod mutator;
mod operators;
mod patch;
mod sites;
mod types;

#[cfg(test)]
mod pinned;
pub use mutator::{Leg, Mutator, Part, course, whole};
pub use patch::{Candidate, Operator, PatchEdit, crossover};
pub use sites::{
    Constant, Exclusions, MutationSpace, OVERFLOWING_METHODS, SiteKind, collect_mutation_space,
    constants,
};
pub use types::{Types, Unused};
