//! Guards: `if COND { return VALUE; }` (or `break;`, `continue;` in a
//! loop) inserted before a statement, with conditions under which the
//! statement panics (see [`panic_conditions`]), synthesized from the
//! variables in scope, the questions the crate asks of them elsewhere, or
//! found in the crate; right after a value is bound from a call of the
//! crate's, the questions its fields answer, with the errors the callee
//! returns (see [`JustBound`]).

use std::collections::BTreeSet;

use crate::code::source::Edit;
use crate::code::{name_parts, type_name};
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Declared, Site, SiteKind, StatementSite};
use crate::mutation::types::{compatible, is_integer};

use super::panics::panic_conditions;
use super::synthesis::{against_zero, asked, self_fields, synthesized, yes_or_no};
use super::{Context, MutationOperator, closest};

/// Insert `if COND { return VALUE; }` (or `break;`, `continue;`).
pub(super) struct Guard;

/// Values of a function's own returns a guard may return, at most.
const OWN_VALUES: usize = 3;

/// Lines away from the site within which a condition found in the crate
/// counts as near (tried before the synthesized ones).
const NEAR: usize = 8;

/// Errors of the callee a guard after its call may return, at most.
const CALLEE_ERRORS: usize = 2;

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
    let actions = exits(site, statement, cx);
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
    // Right after a value is bound from a call, the questions its fields
    // answer come after those, with the errors of the callee's as well.
    let bound = JustBound::before(site, statement, cx).unwrap_or_default();
    let checked: Vec<String> = actions
        .iter()
        .cloned()
        .chain(bound.errors.iter().map(|e| format!("return {e};")))
        .collect();
    let groups = [
        (
            panics.into_iter().chain(near.iter().cloned()).collect(),
            &actions,
        ),
        (bound.conditions, &checked),
        (
            synthesized(site, cx)
                .into_iter()
                .chain(asked(site, cx))
                .chain(far)
                .collect::<Vec<String>>(),
            &actions,
        ),
    ];
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (conditions, actions) in groups {
        for condition in conditions {
            if !seen.insert(condition.clone()) {
                continue;
            }
            for action in actions {
                out.push(Edit::insert(
                    statement.range.start,
                    format!("if {condition} {{ {action} }}\n{}", statement.indent),
                ));
            }
        }
    }
    out
}

/// How a guard before the statement leaves: `break;` and `continue;` in a
/// loop, `return V;` with a value of the function's return type.
pub(super) fn exits(site: &Site, statement: &StatementSite, cx: &Context) -> Vec<String> {
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
    actions
}

/// A value the statement right before a guard's site binds from a call of
/// the crate's (`t` of `let t = Self::parse_time(rest, config)?;`), and
/// what a check of it asks: the questions its fields answer (`t.day > 0`),
/// and the errors the callee itself returns (a caller that checks more
/// than the callee gives the callee's kind of error), those whose names the
/// failing tests share first. Speedate's day and time parts, a real bug:
/// `if t.day > 0 { return Err(ParseError::DurationHourValueTooLarge); }`.
#[derive(Default)]
struct JustBound {
    conditions: Vec<String>,
    errors: Vec<String>,
}

impl JustBound {
    fn before(site: &Site, statement: &StatementSite, cx: &Context) -> Option<JustBound> {
        let (name, value) = binding_before(cx.text, statement.range.start)?;
        let call = callee(&value)?;
        // Its type as the compiler says, else as the callee declares it
        // (one of the owner the call names, if it names one).
        let declared = || {
            let owned = |d: &&Declared| {
                let owner = call.owner.as_deref();
                owner.is_none_or(|owner| owner == "Self" || owner == d.owner)
            };
            let declared = cx.space.declared.get(&call.name)?.iter().find(owned)?;
            let returns = declared.returns.replace("Self", &declared.owner);
            let returns = syn::parse_str::<syn::Type>(&returns).ok()?;
            if call.taken_out {
                first_argument(&returns)
            } else {
                Some(returns)
            }
        };
        let ty = match cx.types.variable(site.location(), &name) {
            Some(ty) if ty != "Self" => syn::parse_str::<syn::Type>(ty).ok(),
            _ => declared(),
        }?;
        let fields = cx.space.struct_fields.get(&type_name(&ty)?)?;
        let conditions = fields
            .iter()
            .flat_map(|(field, ty)| {
                let read = format!("{name}.{field}");
                let zero = is_integer(ty).then(|| against_zero(&read));
                yes_or_no(&read, ty)
                    .into_iter()
                    .chain(zero.into_iter().flatten())
            })
            .collect();
        // Those sharing the most name parts with the failing tests' names
        // and messages first (`expect_.._hour_value_too_large_error`).
        let mut errors: Vec<(usize, &str)> = cx
            .space
            .returned
            .iter()
            .filter(|((_, function), _)| *function == call.name)
            .flat_map(|(_, values)| values)
            .filter(|value| value.error().is_some() && value.fits(&site.bound))
            .map(|value| {
                let parts: BTreeSet<String> = name_parts(&value.text).collect();
                let shared = parts.intersection(&cx.space.failing_words).count();
                (shared, value.text.as_str())
            })
            .collect();
        errors.sort_by_key(|(shared, _)| std::cmp::Reverse(*shared));
        let errors = errors
            .into_iter()
            .map(|(_, error)| error.to_string())
            .take(CALLEE_ERRORS)
            .collect();
        Some(JustBound { conditions, errors })
    }
}

/// The name and the value of a `let NAME = VALUE;` that ends right before
/// `start` (of up to four lines), when one does.
fn binding_before(text: &str, start: usize) -> Option<(String, syn::Expr)> {
    let before = text[..start].trim_end();
    let lines: Vec<&str> = before.lines().rev().take(4).collect();
    let lets = lines
        .iter()
        .any(|line| line.trim_start().starts_with("let "));
    if !before.ends_with(';') || !lets {
        return None;
    }
    (1..=lines.len()).find_map(|k| {
        let written: Vec<&str> = lines[..k].iter().rev().copied().collect();
        let syn::Stmt::Local(local) = syn::parse_str::<syn::Stmt>(&written.join("\n")).ok()? else {
            return None;
        };
        let pattern = match local.pat {
            syn::Pat::Type(typed) => *typed.pat,
            pattern => pattern,
        };
        let syn::Pat::Ident(ident) = pattern else {
            return None;
        };
        Some((ident.ident.to_string(), *local.init?.expr))
    })
}

/// What a value comes from: a call of a function or method, by name.
struct Call {
    name: String,
    /// The type a call by path names before the function (`Vec` of
    /// `Vec::new()`; `Self` as written).
    owner: Option<String>,
    /// The value is what the call's result holds, taken out by `?`,
    /// `.unwrap()` or `.expect(..)`.
    taken_out: bool,
}

/// The call a value comes from: `parse_time` of `Self::parse_time(rest)?`
/// or `p.parse_time(rest).unwrap()`.
fn callee(value: &syn::Expr) -> Option<Call> {
    let taken_out = |inner: &syn::Expr| {
        callee(inner).map(|call| Call {
            taken_out: true,
            ..call
        })
    };
    match value {
        syn::Expr::Try(tried) => taken_out(&tried.expr),
        syn::Expr::MethodCall(call) if call.method == "unwrap" || call.method == "expect" => {
            taken_out(&call.receiver)
        }
        syn::Expr::MethodCall(call) => Some(Call {
            name: call.method.to_string(),
            owner: None,
            taken_out: false,
        }),
        syn::Expr::Call(call) => {
            let syn::Expr::Path(path) = &*call.func else {
                return None;
            };
            let mut segments = path.path.segments.iter().rev();
            Some(Call {
                name: segments.next()?.ident.to_string(),
                owner: segments.next().map(|s| s.ident.to_string()),
                taken_out: false,
            })
        }
        _ => None,
    }
}

/// The first type argument of a type (`Span` of `Result<Span, Error>`).
fn first_argument(ty: &syn::Type) -> Option<syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let syn::PathArguments::AngleBracketed(arguments) = &path.path.segments.last()?.arguments
    else {
        return None;
    };
    arguments.args.iter().find_map(|argument| match argument {
        syn::GenericArgument::Type(ty) => Some(ty.clone()),
        _ => None,
    })
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
