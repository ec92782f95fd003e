//! Names replaced: a variable by another in scope (of a compatible type
//! where the types are known) or by `self`'s field of its name, a field by
//! a sibling of its type (a tuple struct's by index) or by the variable of
//! its name, an item by a
//! sibling item of its type.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};
use crate::mutation::types::compatible;

use super::{Context, MutationOperator};

/// Replace a variable by another variable in scope.
pub(super) struct Identifier;

impl MutationOperator for Identifier {
    fn operator(&self) -> Operator {
        Operator::Identifier
    }

    fn name(&self) -> &'static str {
        "identifier"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::Variable { .. } | SiteKind::Field { .. } | SiteKind::Item { .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::Field {
                range,
                name,
                expression,
            } => {
                // A sibling field of the same type; or the variable in scope
                // with the field's name (`self.year` for the `year` computed
                // just before).
                let siblings = cx.space.fields.get(name).into_iter().flatten();
                let mut edits: Vec<Edit> = siblings
                    .map(|sibling| Edit::replace(range.clone(), sibling.as_str()))
                    .collect();
                if name != "self" && site.bound.contains(name) {
                    edits.push(Edit::replace(expression.clone(), name.as_str()));
                }
                edits
            }
            SiteKind::Item { range, name } => cx
                .space
                .sibling_items(site.file, name)
                .map(|other| Edit::replace(range.clone(), other))
                .collect(),
            SiteKind::Variable { range, name } => {
                let location = site.location();
                let own = cx.types.variable(location, name);
                site.bound
                    .iter()
                    .filter(|n| *n != name && *n != "self")
                    .filter(|n| match (own, cx.types.variable(location, n)) {
                        (Some(a), Some(b)) => compatible(a, b),
                        _ => true,
                    })
                    .map(|n| Edit::replace(range.clone(), n.as_str()))
                    .chain(
                        // And `self`'s field of that name, the other way round.
                        (site.bound.iter().any(|n| n == "self")
                            && cx.space.fields.contains_key(name))
                        .then(|| Edit::replace(range.clone(), format!("self.{name}"))),
                    )
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        0
    }
}
