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
/// For tests that build a space from sources alone (no baseline).
#[cfg(test)]
pub use sites::collect_mutation_space;
pub use sites::{
    Constant, Exclusions, MutationSpace, OVERFLOWING_METHODS, SiteKind, constants, space_of,
};
pub use types::{Types, Unused};
