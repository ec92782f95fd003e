//! Both ends of a range check moved together: every `<`, `<=`, `>`, `>=`
//! a condition joins made inclusive if it was not and the other way round
//! (`y > 2050 || y <= 1950` to `y >= 2050 || y < 1950`), a two-token
//! fix no single edit makes. With more than two comparisons, each pair too.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// Flip the inclusivity of two or more comparisons of a condition at once.
pub(super) struct Ends;

impl MutationOperator for Ends {
    fn operator(&self) -> Operator {
        Operator::Ends
    }

    fn name(&self) -> &'static str {
        "ends"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Condition { bounds, .. } if bounds.len() >= 2)
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Condition { range, bounds, .. } = &site.kind else {
            return Vec::new();
        };
        if bounds.len() < 2 {
            return Vec::new();
        }
        let mut sets: Vec<Vec<usize>> = vec![(0..bounds.len()).collect()];
        if bounds.len() > 2 {
            for first in 0..bounds.len() {
                for second in first + 1..bounds.len() {
                    sets.push(vec![first, second]);
                }
            }
        }
        sets.into_iter()
            .map(|set| {
                let mut text = cx.text[range.clone()].to_string();
                // From the last, so that earlier offsets hold.
                for &i in set.iter().rev() {
                    let token = bounds[i].start - range.start..bounds[i].end - range.start;
                    let flipped = match &text[token.clone()] {
                        "<" => "<=",
                        "<=" => "<",
                        ">" => ">=",
                        _ => ">",
                    };
                    text.replace_range(token, flipped);
                }
                Edit::replace(range.clone(), text)
            })
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}
