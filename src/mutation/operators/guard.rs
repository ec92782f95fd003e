//! Guards: `if COND { return VALUE; }` (or `break;`, `continue;` in a
//! loop) inserted before a statement, with conditions under which the
//! statement panics (see [`panic_conditions`]), synthesized from the
//! variables in scope, the questions the crate asks of them elsewhere, or
//! found in the crate.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind, StatementSite};
use crate::mutation::types::{compatible, is_integer};

use super::panics::panic_conditions;
use super::synthesis::{asked, self_fields, synthesized};
use super::{Context, MutationOperator, closest};

/// Insert `if COND { return VALUE; }` (or `break;`, `continue;`).
pub(super) struct Guard;

/// Values of a function's own returns a guard may return, at most.
const OWN_VALUES: usize = 3;

/// Lines away from the site within which a condition found in the crate
/// counts as near (tried before the synthesized ones).
const NEAR: usize = 8;

impl MutationOperator for Guard {
    fn operator(&self) -> Operator {
        Operator::Guard
    }

    fn name(&self) -> &'static str {
        "guard"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Statement(_))
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::Statement(statement) => guards(site, statement, cx),
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        4
    }

    fn writes_statements(&self) -> bool {
        true
    }

    fn synthesizes(&self) -> bool {
        true
    }
}

/// `if COND { return VALUE; }` (or `break;`, `continue;` in a loop)
/// inserted before the statement; conditions synthesized here or found in
/// the crate, values of the function's return type.
fn guards(site: &Site, statement: &StatementSite, cx: &Context) -> Vec<Edit> {
    let mut actions: Vec<String> = Vec::new();
    if statement.in_loop {
        actions.extend(["break;".to_string(), "continue;".to_string()]);
    }
    if let Some(returns) = &statement.returns {
        actions.extend(returned_values(returns, site, cx).map(|v| format!("return {v};")));
        if returns.is_empty() {
            actions.push("return;".to_string());
        }
    }
    if actions.is_empty() {
        return Vec::new();
    }
    // The conditions under which the statement panics come first (a
    // guard is most often the fix of a crash); then one the code tests a
    // few lines away (the same check, missing here); then the synthesized
    // ones and the predicates the crate calls on these values elsewhere;
    // then the crate's others, nearest first.
    let panics = statement_panics(site, statement, cx);
    let near = near_conditions(site, cx);
    let far = closest(&cx.space.conditions, site, cx.space)
        .filter(|i| i.fits(&site.bound) && !near.contains(&i.text))
        .map(|i| i.text.clone())
        .take(6);
    let mut conditions: Vec<String> = panics
        .into_iter()
        .chain(near.iter().cloned())
        .chain(synthesized(site, cx))
        .chain(asked(site, cx))
        .chain(far)
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    conditions.retain(|c| seen.insert(c.clone()));
    let mut out = Vec::new();
    for condition in conditions {
        for action in &actions {
            out.push(Edit::insert(
                statement.range.start,
                format!("if {condition} {{ {action} }}\n{}", statement.indent),
            ));
        }
    }
    out
}

/// The conditions under which the statement panics, with the types the
/// oracle knows of its operands (of its variables and `self`'s fields too).
fn statement_panics(site: &Site, statement: &StatementSite, cx: &Context) -> Vec<String> {
    let start = statement.range.start;
    let fields = self_fields(site, cx);
    let type_of = |range: std::ops::Range<usize>, text: &str| -> Option<String> {
        let absolute = start + range.start..start + range.end;
        cx.types
            .expression(site.file, &absolute)
            .or_else(|| cx.types.variable(site.location(), text))
            .or_else(|| {
                fields
                    .iter()
                    .find(|(name, _)| name == text)
                    .map(|(_, ty)| ty.as_str())
            })
            .map(str::to_string)
    };
    panic_conditions(&cx.text[statement.range.clone()], &type_of)
}

/// The two conditions found in the crate that fit the site and are
/// tested nearest it, within [`NEAR`] lines (the crate's conditions are
/// kept once each, where first found: so they are looked for in the
/// site's own lines).
fn near_conditions(site: &Site, cx: &Context) -> Vec<String> {
    let first = (site.line as usize).saturating_sub(NEAR + 1);
    let window: Vec<(usize, &str)> = cx
        .text
        .lines()
        .enumerate()
        .skip(first)
        .take(2 * NEAR + 1)
        .map(|(index, line)| ((index + 1).abs_diff(site.line as usize), line))
        .collect();
    let mut near: Vec<(usize, &str)> = cx
        .space
        .conditions
        .iter()
        .filter(|i| i.fits(&site.bound))
        .filter_map(|i| {
            let lines = window
                .iter()
                .filter(|(_, line)| line.contains(i.text.as_str()));
            Some((lines.map(|(distance, _)| *distance).min()?, i.text.as_str()))
        })
        .collect();
    near.sort();
    near.dedup();
    near.into_iter()
        .take(2)
        .map(|(_, text)| text.to_string())
        .collect()
}

/// Values a function returning `returns` (without spaces) can return
/// early: the values it returns elsewhere (its own error, a constant; the
/// first few), literals of its type (an `Ordering`'s three), variables of
/// its type in scope.
pub(super) fn returned_values<'a>(
    returns: &'a str,
    site: &'a Site,
    cx: &'a Context,
) -> impl Iterator<Item = String> + 'a {
    let literals: Vec<String> = match returns {
        "bool" => vec!["false".into(), "true".into()],
        "String" => vec!["String::new()".into()],
        ty if is_integer(ty) => vec!["0".into(), "1".into()],
        ty if ty.starts_with("Option<") => vec!["None".into()],
        ty if ty.starts_with("Vec<") => vec!["Vec::new()".into()],
        // A comparison's special case (`if self.is_zero() { return
        // Ordering::Equal; }`), written with the type's own path.
        ty if ty == "Ordering" || ty.ends_with("::Ordering") => ["Equal", "Less", "Greater"]
            .iter()
            .map(|v| format!("{ty}::{v}"))
            .collect(),
        _ => Vec::new(),
    };
    let own: Vec<String> = cx
        .space
        .returned_at(site)
        .filter(|value| !literals.contains(&value.text))
        .map(|value| value.text.clone())
        .take(OWN_VALUES)
        .collect();
    let variables = cx
        .types
        .variables_at(site.location())
        .filter(move |(name, ty)| {
            *name != "self"
                && site.bound.iter().any(|b| b == name)
                && compatible(&ty.replace(' ', ""), returns)
        })
        .map(|(name, _)| name.to_string());
    own.into_iter().chain(literals).chain(variables)
}
