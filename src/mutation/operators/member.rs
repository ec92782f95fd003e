//! Members of the same receiver: `x.negated` to `x.is_negated()`,
//! `network.edge_count()` to `network.edge_bound()`, `s.len()` to `s.len`
//! (methods with no arguments and fields of the owners that declare the
//! member, of its type; see [`MutationSpace::members`]). Not where the
//! call is a statement of its own (`self.pop();`): the value is thrown
//! away there, and a field or a getter in its place only drops the call's
//! effect, which is the `delete` operator's edit, not a member mistaken
//! for another.
//!
//! [`MutationSpace::members`]: crate::mutation::sites::MutationSpace::members

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// Replace a field or a method with no arguments by another member of
/// its receiver's type.
pub(super) struct Member;

impl MutationOperator for Member {
    fn operator(&self) -> Operator {
        Operator::Member
    }

    fn name(&self) -> &'static str {
        "member"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::Field { .. }
                | SiteKind::Method {
                    arguments: 0,
                    receiver: true,
                    ..
                }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            // A field becomes a method (its sibling fields are the
            // identifier operator's).
            SiteKind::Field { range, name, .. } => cx
                .space
                .members(name, true)
                .into_iter()
                .filter(|member| member.ends_with("()"))
                .map(|method| Edit::replace(range.clone(), method))
                .collect(),
            SiteKind::Method {
                range,
                name,
                arguments: 0,
                receiver: true,
                expression,
                ..
            } if !site.is_statement(expression, cx.text) => cx
                .space
                .members(name, false)
                .into_iter()
                .map(|member| match member.strip_suffix("()") {
                    Some(method) => Edit::replace(range.clone(), method),
                    None => Edit::replace(range.start..expression.end, member),
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        0
    }
}
