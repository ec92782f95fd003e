//! Control flow: a `break`, `continue` or `return` replaced by another of
//! them (a loop that should leave the function, not fall through into
//! the code after it).

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::guard::returned_values;
use super::{Context, MutationOperator};

/// Replace `break`, `continue` or `return` by another of them.
pub(super) struct Jump;

impl MutationOperator for Jump {
    fn operator(&self) -> Operator {
        Operator::Jump
    }

    fn name(&self) -> &'static str {
        "jump"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Statement(statement) if statement.jumps)
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Statement(statement) = &site.kind else {
            return Vec::new();
        };
        let own = cx.text[statement.range.clone()].trim();
        let Some(keyword) = ["break", "continue", "return"]
            .into_iter()
            .find(|k| own.starts_with(k))
        else {
            return Vec::new();
        };
        // `break value` leaves a `loop` with a value: left alone.
        let rest = own[keyword.len()..].trim_end_matches(';').trim();
        if keyword == "break" && !(rest.is_empty() || rest.starts_with('\'')) {
            return Vec::new();
        }
        let end = if own.ends_with(';') { ";" } else { "" };
        let mut made: Vec<String> = Vec::new();
        if let Some(returns) = &statement.returns
            && keyword != "return"
        {
            if returns.is_empty() {
                made.push("return".to_string());
            }
            made.extend(returned_values(returns, site, cx).map(|v| format!("return {v}")));
        }
        if statement.in_loop {
            made.extend(
                ["break", "continue"]
                    .into_iter()
                    .filter(|k| *k != keyword)
                    .map(str::to_string),
            );
        }
        made.into_iter()
            .map(|jump| Edit::replace(statement.range.clone(), format!("{jump}{end}")))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}
