//! Twins: the line one of two clones has and the other lacks. A guard
//! another arm of a `match` has first in its block, missing in this arm (an
//! empty Unicode class handled, an empty byte class not), goes first in
//! this arm's block where it tests what the arm's pattern binds (its one
//! name the arm does not bind renamed to the arm's one name). A statement
//! the crate writes right after a statement written as the one here, but
//! not here, goes after it (a check one parsing function makes right after
//! `let ast = match concat.asts.pop() { .. };` and its sibling does not).
//! A statement the crate writes right before a statement of the shape of
//! the one here (the same but for its variables' names), but not here, goes
//! before it, its variables renamed as the two statements' correspond
//! (`line_start.scan_all_space();` before `ix += line_start.bytes_scanned();`
//! goes before `bytecount += line_start.bytes_scanned();`).
//! A call the crate chains right after a call of a method, missing after a
//! call of it here, is chained here, its variables not in scope renamed:
//! `self` of another type to a variable here of that type
//! (`self.prefix.clone()` to `self.prefix.clone().join(&node.key)` where
//! `TrieNode` writes `prefix.clone().join(&self.key)`).
//! Few edits at a site, so the sweep tries them with the one-token ones.

use std::ops::Range;

use crate::code::source::Edit;
use crate::code::type_name;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Ingredient, Site, SiteKind, StatementSite};

use super::adapted::combinations;
use super::{Context, MutationOperator, closest, in_reach};

/// Edits at one site, at most (the nearest guards, the first followers).
const TWINS: usize = 4;

pub(super) struct Twin;

impl MutationOperator for Twin {
    fn operator(&self) -> Operator {
        Operator::Twin
    }

    fn name(&self) -> &'static str {
        "twin"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::BlockStart { arm: true, .. }
                | SiteKind::Statement(_)
                | SiteKind::Method { receiver: true, .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::BlockStart {
                at,
                indent,
                names,
                arm: true,
                ..
            } => closest(&cx.space.statements, site, cx.space)
                // (Not the arm's own first statement.)
                .filter(|i| i.guard && i.origin.file == site.file && i.origin != site.location())
                .filter_map(|i| fitted(i, site, names))
                .take(TWINS)
                .map(|text| Edit::insert(*at, format!("\n{indent}{text}")))
                .collect(),
            SiteKind::Statement(statement) => {
                let mut edits = leaders(site, statement, cx);
                if !statement.jumps && !statement.tail {
                    edits.extend(followers(site, statement, cx));
                }
                edits
            }
            SiteKind::Method {
                name,
                expression,
                receiver: true,
                ..
            } => chained(site, name, expression, cx),
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        2
    }
}

/// The guard's text where it fits the site and tests a name the arm
/// binds: as it is, or with its one unbound name renamed to the arm's one
/// name.
fn fitted(guard: &Ingredient, site: &Site, names: &[String]) -> Option<String> {
    if guard.fits(&site.bound) {
        return names
            .iter()
            .any(|n| guard.free.contains(n))
            .then(|| guard.text.clone());
    }
    let unbound: Vec<&String> = guard
        .free
        .iter()
        .filter(|name| !site.bound.contains(name))
        .collect();
    match (unbound.as_slice(), names) {
        ([from], [to]) if !guard.free.contains(to) => {
            Some(guard.renamed(&[(from.as_str(), to.as_str())]))
        }
        _ => None,
    }
}

/// The statements the crate writes after a statement written as this one,
/// other than the one after it here, inserted after it where their
/// variables are in scope.
fn followers(site: &Site, statement: &StatementSite, cx: &Context) -> Vec<Edit> {
    let own = &cx.text[statement.range.clone()];
    let next_here = cx.text[statement.range.end..].trim_start();
    let mut bound = site.bound.clone();
    bound.extend(statement.binds.iter().cloned());
    cx.space
        .followers_of(own)
        .filter(|text| !next_here.starts_with(text.as_str()))
        .filter_map(|text| whole_statement(cx, text))
        .filter(|i| i.fits(&bound))
        .take(TWINS)
        .map(|i| {
            Edit::insert(
                statement.range.end,
                format!("\n{}{}", statement.indent, i.text),
            )
        })
        .collect()
}

/// The ingredient written as `text`, when it is a whole statement (not a
/// block's value elsewhere, nor a compound statement's header).
fn whole_statement<'c>(cx: &'c Context, text: &str) -> Option<&'c Ingredient> {
    cx.space
        .statements
        .iter()
        .find(|i| i.text == text && i.closed && !i.header && !i.inert)
}

/// The statements the crate writes right before a statement of this one's
/// shape, renamed to its variables, inserted before it where their
/// variables are in scope, and where the statement before it here is not
/// the same. Not a `let`: it would bind what the statement does not use.
fn leaders(site: &Site, statement: &StatementSite, cx: &Context) -> Vec<Edit> {
    let own = &cx.text[statement.range.clone()];
    let before_here = cx.text[..statement.range.start].trim_end();
    let mut texts: Vec<String> = Vec::new();
    for (leader, renames) in cx.space.leaders_of(own) {
        let Some(ingredient) = whole_statement(cx, &leader.text).filter(|i| i.binds.is_empty())
        else {
            continue;
        };
        let renames: Vec<(&str, &str)> = renames
            .iter()
            .map(|(from, to)| (from.as_str(), to.as_str()))
            .collect();
        let in_scope = ingredient.free.iter().all(|name| {
            let name = renames
                .iter()
                .find(|(from, _)| from == name)
                .map_or(name.as_str(), |(_, to)| to);
            site.bound.iter().any(|b| b == name)
        });
        let text = ingredient.renamed(&renames);
        if in_scope && !before_here.ends_with(text.trim()) && !texts.contains(&text) {
            texts.push(text);
        }
        if texts.len() == TWINS {
            break;
        }
    }
    texts
        .into_iter()
        .map(|text| {
            Edit::insert(
                statement.range.start,
                format!("{text}\n{}", statement.indent),
            )
        })
        .collect()
}

/// The calls the crate chains right after a call of `name` that the call
/// here (`expression`) is not followed by, chained to it, nearest first.
fn chained(site: &Site, name: &str, expression: &Range<usize>, cx: &Context) -> Vec<Edit> {
    let Some(calls) = cx.space.chained.get(name) else {
        return Vec::new();
    };
    let next_here = cx.text[expression.end..].trim_start();
    let mut texts: Vec<String> = Vec::new();
    for call in in_reach(calls, site, cx.space) {
        let method = call.text[1..].trim_start();
        let method = &method[..method
            .find(|c: char| !c.is_alphanumeric() && c != '_')
            .unwrap_or(method.len())];
        let followed = next_here
            .strip_prefix('.')
            .map(str::trim_start)
            .and_then(|next| next.strip_prefix(method))
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
        if followed {
            continue;
        }
        for text in renamed_here(call, site, cx) {
            if !texts.contains(&text) {
                texts.push(text);
            }
        }
        if texts.len() >= TWINS {
            break;
        }
    }
    texts.truncate(TWINS);
    texts
        .into_iter()
        .map(|text| Edit::insert(expression.end, text))
        .collect()
}

/// `call`'s text with each variable not in scope here (or `self` of
/// another type) renamed to a variable here of its type, where the type
/// probes or the `impl` say it, else to one of the two bound last.
fn renamed_here(call: &Ingredient, site: &Site, cx: &Context) -> Vec<String> {
    let here: Vec<(&str, &str)> = cx.types.variables_at(site.location()).collect();
    let base = |ty: &str| {
        syn::parse_str::<syn::Type>(ty)
            .ok()
            .and_then(|t| type_name(&t))
    };
    let free: Vec<&str> = call.free.iter().map(String::as_str).collect();
    let mut choices: Vec<Vec<&str>> = Vec::new();
    for &name in &free {
        let foreign_self = name == "self" && call.self_type != site.self_type;
        if site.bound.iter().any(|b| b == name) && !foreign_self {
            choices.push(vec![name]);
            continue;
        }
        let wanted = if name == "self" {
            call.self_type.clone()
        } else {
            cx.types.variable(call.origin, name).and_then(base)
        };
        let typed: Vec<&str> = here
            .iter()
            .filter(|(other, ty)| *other != "self" && wanted.is_some() && base(ty) == wanted)
            .map(|(other, _)| *other)
            .collect();
        choices.push(if typed.is_empty() {
            site.bound
                .iter()
                .rev()
                .filter(|b| *b != "self" && !free.contains(&b.as_str()))
                .take(2)
                .map(String::as_str)
                .collect()
        } else {
            typed
        });
    }
    combinations(&choices, TWINS)
        .into_iter()
        .map(|names| {
            let renames: Vec<(&str, &str)> = free.iter().copied().zip(names).collect();
            call.renamed(&renames)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{line, outcomes};
    use crate::mutation::patch::Operator;

    #[test]
    fn a_call_the_crate_chains_after_the_same_method_is_chained_here() {
        let text = "struct Node { key: Key }\nimpl Node {\n    fn full(&self, prefix: &Key) -> Key {\n        prefix.clone().join(&self.key)\n    }\n}\nstruct Children<'a> { prefix: Key, inner: std::slice::Iter<'a, Node> }\nimpl Children<'_> {\n    fn next(&mut self) -> Option<Key> {\n        self.inner.next().map(|node| self.prefix.clone())\n    }\n}\n";
        // `self` is a `Node` there: here it is the closure's `node`.
        let made = outcomes(text, Operator::Twin, 10);
        let lines: Vec<&str> = made.iter().map(|t| line(t, 10)).collect();
        assert_eq!(
            lines,
            ["self.inner.next().map(|node| self.prefix.clone().join(&node.key))"]
        );
        // Where the call is chained already, nothing.
        assert!(outcomes(text, Operator::Twin, 4).is_empty());
    }
}
