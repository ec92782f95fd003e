//! Literals replaced by their neighbours (radix kept) or by another
//! literal of the crate; a data item's values only by their neighbours and
//! the numerals one slip of a key away.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Literal, Site, SiteKind};

use super::{Context, MutationOperator};

/// Replace a literal by a neighbour or another literal of the crate.
pub(super) struct Value;

impl MutationOperator for Value {
    fn operator(&self) -> Operator {
        Operator::Value
    }

    fn name(&self) -> &'static str {
        "value"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Literal { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Literal {
            range,
            literal,
            data,
            ..
        } = &site.kind
        else {
            return Vec::new();
        };
        // Data is built one edit at a time: only the neighbours, and
        // the numerals one slip of a key away.
        let pool: &[Literal] = if *data { &[] } else { &cx.space.literals };
        let mut texts = literal.alternatives(pool);
        if *data {
            for slip in literal.slips(&cx.text[range.clone()]) {
                if !texts.contains(&slip) {
                    texts.push(slip);
                }
            }
        }
        texts
            .into_iter()
            .map(|text| Edit::replace(range.clone(), text))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        0
    }
}
