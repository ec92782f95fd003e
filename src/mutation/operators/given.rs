//! The edits of a patch given to `cargo autofix validate`: not an operator
//! of the search (it applies to no site and is not in the registry), but
//! its edits are told apart from the search's like any operator's.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// An edit of a given patch.
pub(super) struct Given;

impl MutationOperator for Given {
    fn operator(&self) -> Operator {
        Operator::Given
    }

    fn name(&self) -> &'static str {
        "given"
    }

    fn applies(&self, _: &SiteKind) -> bool {
        false
    }

    fn edits(&self, _: &Site, _: &Context) -> Vec<Edit> {
        Vec::new()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        // A given edit may be anything: between a slip and new code.
        2
    }
}
