//! Range limits: `a..b` to `a..=b` and back.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// Turn `a..b` into `a..=b` and back.
pub(super) struct Range;

impl MutationOperator for Range {
    fn operator(&self) -> Operator {
        Operator::Range
    }

    fn name(&self) -> &'static str {
        "range"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::RangeLimits { .. })
    }

    fn edits(&self, site: &Site, _: &Context) -> Vec<Edit> {
        let SiteKind::RangeLimits {
            range, inclusive, ..
        } = &site.kind
        else {
            return Vec::new();
        };
        vec![Edit::replace(
            range.clone(),
            if *inclusive { ".." } else { "..=" },
        )]
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        0
    }
}
