//! The variants a pattern matches: `A | B` of one of the crate's enums
//! given a variant it forgot (`| ItemBody::Rule`), one it should not have
//! (`A | B` to `A`), or another in place of one (`E::Open` to `E::Closed`).
//! A pattern that binds names gets no new alternative (it would not bind
//! them), and a replacement keeps the shape of what it replaces.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// Add, remove or replace a variant of an or-pattern over one enum.
pub(super) struct Variant;

impl MutationOperator for Variant {
    fn operator(&self) -> Operator {
        Operator::Variant
    }

    fn name(&self) -> &'static str {
        "variant"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Pattern { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Pattern {
            range,
            owner,
            variants,
            binds,
            exhaustive,
        } = &site.kind
        else {
            return Vec::new();
        };
        let Some(declared) = cx.space.enums.get(owner) else {
            return Vec::new();
        };
        let name_of = |pattern: &str| {
            let end = pattern.find(['(', ' ', '{']).unwrap_or(pattern.len());
            pattern[..end].to_string()
        };
        let missing: Vec<&String> = declared
            .iter()
            .filter(|pattern| !variants.iter().any(|(name, _)| *name == name_of(pattern)))
            .collect();
        let mut edits = Vec::new();
        // A forgotten variant, the commonest slip of the three.
        if !binds {
            for pattern in &missing {
                edits.push(Edit::replace(
                    range.end..range.end,
                    format!(" | {owner}::{pattern}"),
                ));
            }
        }
        if *exhaustive {
            return edits;
        }
        // One too many: an alternative left out, with its `|`.
        if variants.len() >= 2 {
            for (index, (_, at)) in variants.iter().enumerate() {
                let cut = match variants.get(index + 1) {
                    Some((_, next)) => at.start..next.start,
                    None => variants[index - 1].1.end..at.end,
                };
                edits.push(Edit::replace(cut, String::new()));
            }
        }
        // Another in its place, of the same shape when names are bound.
        for (name, at) in variants {
            let text = &cx.text[at.clone()];
            let shape = |pattern: &str| pattern[name_of(pattern).len()..].to_string();
            let written = declared.iter().find(|p| name_of(p) == *name);
            for pattern in &missing {
                let same_shape = written.is_some_and(|w| shape(w) == shape(pattern));
                if same_shape && *binds {
                    // The last segment of the path, before what it binds.
                    let head = text.find(['(', '{']).unwrap_or(text.len());
                    let start = text[..head].rfind("::").map_or(0, |i| i + 2);
                    if text[start..].starts_with(name.as_str()) {
                        let end = start + name.len();
                        let replaced =
                            format!("{}{}{}", &text[..start], name_of(pattern), &text[end..]);
                        edits.push(Edit::replace(at.clone(), replaced));
                    }
                } else if !binds {
                    edits.push(Edit::replace(at.clone(), format!("{owner}::{pattern}")));
                }
            }
        }
        edits
    }

    /// A variant forgotten, or one too many, is a slip of one name.
    fn unusualness(&self, _: &str, _: &str) -> usize {
        0
    }
}
