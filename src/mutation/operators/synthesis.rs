//! Conditions synthesized from the variables in scope, by type (`n > 0`,
//! `!v.is_empty()`, `i < MAX`, the mirror image of a comparison), added to
//! a condition as a conjunct or a disjunct, or in its place. The guards
//! use them too, and the predicates the crate asks of the values in scope
//! elsewhere ([`asked`]: a guard's only).

use quote::ToTokens;

use crate::code::occurrences;
use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Literal, Site, SiteKind};
use crate::mutation::types::{compatible, has_is_empty, is_integer, is_option};

use super::condition::conjunct;
use super::{Context, MAX_EDITS, MutationOperator};

/// Add a conjunct or disjunct to a condition, or replace it, with one
/// built from the variables in scope.
pub(super) struct Synthesis;

impl MutationOperator for Synthesis {
    fn operator(&self) -> Operator {
        Operator::Synthesis
    }

    fn name(&self) -> &'static str {
        "synthesis"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Condition { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Condition { range, atomic, .. } = &site.kind else {
            return Vec::new();
        };
        let own = &cx.text[range.clone()];
        let made = synthesized(site, cx);
        let conjuncts = made
            .iter()
            .map(|c| format!("{} && {c}", conjunct(own, *atomic)));
        let disjuncts = made.iter().map(|c| format!("{own} || {c}"));
        conjuncts
            .chain(disjuncts)
            .chain(made.iter().cloned())
            .map(|text| Edit::replace(range.clone(), text))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        2
    }

    fn synthesizes(&self) -> bool {
        true
    }
}

/// Conditions made of the variables in scope at a site, by type, in
/// tiers from the likeliest: the mirror images of a condition's own
/// comparisons; integers against the file's named constants (`run <
/// MAX_RUN`; those its functions name bare); collections empty or not,
/// options some or none, booleans; integers against zero; against each
/// other; against the crate's small literals. `self`'s fields count as
/// variables (after them), with their declared types. Within a tier,
/// variables the site's own line uses come first.
pub(super) fn synthesized(site: &Site, cx: &Context) -> Vec<String> {
    let fields = self_fields(site, cx);
    let variables = in_scope(site, cx, &fields);
    let integers: Vec<(&str, &str)> = variables
        .iter()
        .copied()
        .filter(|(_, ty)| is_integer(ty))
        .collect();
    let literals: Vec<u128> = cx
        .space
        .literals
        .iter()
        .filter_map(|l| match l {
            Literal::Int { value, .. } if (1..=64).contains(value) => Some(*value),
            _ => None,
        })
        .take(3)
        .collect();
    // Integer items of the file that its functions name bare (a bound
    // such as `MAX`; not one in an inline `mod`).
    let constants: Vec<(&str, &str)> = cx
        .space
        .items
        .get(&site.file)
        .into_iter()
        .flatten()
        .filter(|(_, ty)| is_integer(ty))
        .map(|(name, ty)| (name.as_str(), ty.as_str()))
        .collect();
    let mut out = match &site.kind {
        SiteKind::Condition { range, .. } => mirrored(&cx.text[range.clone()]),
        _ => Vec::new(),
    };
    for (name, ty) in &integers {
        for (constant, constant_ty) in &constants {
            if compatible(ty, constant_ty) {
                out.extend([
                    format!("{name} < {constant}"),
                    format!("{name} > {constant}"),
                ]);
            }
        }
    }
    for (name, ty) in &variables {
        out.extend(yes_or_no(name, ty));
    }
    for (name, _) in &integers {
        out.extend(against_zero(name));
    }
    for (i, (name, ty)) in integers.iter().enumerate() {
        for (other, other_ty) in &integers[i + 1..] {
            if compatible(ty, other_ty) {
                out.extend([
                    format!("{name} < {other}"),
                    format!("{name} > {other}"),
                    format!("{name} <= {other}"),
                    format!("{name} >= {other}"),
                    format!("{name} == {other}"),
                ]);
            }
        }
    }
    for (name, _) in &integers {
        for value in &literals {
            out.extend([format!("{name} < {value}"), format!("{name} > {value}")]);
        }
    }
    out.truncate(MAX_EDITS / 3);
    out
}

/// The yes-or-no questions a value of type `ty` answers by itself, written
/// as `name`: a collection empty or not, an option some or none, a boolean
/// (none for other types).
pub(super) fn yes_or_no(name: &str, ty: &str) -> Vec<String> {
    if has_is_empty(ty) {
        vec![format!("!{name}.is_empty()"), format!("{name}.is_empty()")]
    } else if is_option(ty) {
        vec![format!("{name}.is_some()"), format!("{name}.is_none()")]
    } else if ty == "bool" {
        vec![format!("!{name}"), name.to_string()]
    } else {
        Vec::new()
    }
}

/// An integer written as `name` against zero.
pub(super) fn against_zero(name: &str) -> [String; 3] {
    [
        format!("{name} > 0"),
        format!("{name} != 0"),
        format!("{name} == 0"),
    ]
}

/// The questions the crate asks elsewhere of the values in scope at a
/// site that are not integers, collections, options or booleans (those
/// [`synthesized`] has), and of `self`'s type: `self.numer.is_zero()`,
/// `self.is_zero()`, each as it is and negated. For a guard's condition
/// (`if self.numer.is_zero() { return Ordering::Equal; }`), not as a
/// conjunct: any predicate no test contradicts would pass there.
pub(super) fn asked(site: &Site, cx: &Context) -> Vec<String> {
    let fields = self_fields(site, cx);
    let mut out: Vec<String> = in_scope(site, cx, &fields)
        .into_iter()
        .filter(|(_, ty)| !(is_integer(ty) || has_is_empty(ty) || is_option(ty) || *ty == "bool"))
        .flat_map(|(name, _)| predicates_of(name, cx).into_iter().map(move |p| (name, p)))
        .chain(own_predicates(site, cx).into_iter().map(|p| ("self", p)))
        .flat_map(|(name, p)| [format!("{name}.{p}()"), format!("!{name}.{p}()")])
        .collect();
    out.truncate(MAX_EDITS / 3);
    out
}

/// The variables in scope at a site (not `self`) and `self`'s `fields`
/// after them, with their types; those the site's own line uses first.
fn in_scope<'a>(
    site: &Site,
    cx: &Context<'a>,
    fields: &'a [(String, String)],
) -> Vec<(&'a str, &'a str)> {
    let line = line_of(cx.text, site);
    let mut variables: Vec<(&str, &str)> = cx
        .types
        .variables_at(site.location())
        .filter(|(name, _)| *name != "self" && site.bound.iter().any(|b| b == name))
        .chain(fields.iter().map(|(name, ty)| (name.as_str(), ty.as_str())))
        .collect();
    variables.sort_by_key(|(name, _)| !mentions(line, name));
    variables
}

/// `self.name` and its declared type for each named field of `self`, in
/// a method of one type (see [`self_owner`]).
pub(super) fn self_fields(site: &Site, cx: &Context) -> Vec<(String, String)> {
    let Some(owner) = self_owner(site, cx) else {
        return Vec::new();
    };
    let fields = cx.space.struct_fields.get(owner).into_iter().flatten();
    fields
        .map(|(name, ty)| (format!("self.{name}"), ty.clone()))
        .collect()
}

/// The type whose method the site is in: `self` in scope, the function's
/// name declared for one owner only (its `impl` is known).
fn self_owner<'c>(site: &Site, cx: &Context<'c>) -> Option<&'c str> {
    if !site.bound.iter().any(|b| b == "self") {
        return None;
    }
    let mut owners = cx
        .space
        .declared
        .get(&site.function)
        .into_iter()
        .flatten()
        .filter(|d| d.receiver)
        .map(|d| d.owner.as_str());
    match (owners.next(), owners.next()) {
        (Some(owner), None) => Some(owner),
        _ => None,
    }
}

/// The predicates (methods named `is_*`, by Rust's convention a `bool`)
/// the crate calls with no arguments on a receiver written as `name`: a
/// question the crate asks of this very value elsewhere (`self.numer`'s
/// `is_zero`), of its type there most likely.
fn predicates_of<'c>(name: &str, cx: &Context<'c>) -> Vec<&'c str> {
    cx.space
        .called_on(name, 0)
        .filter(|m| m.starts_with("is_"))
        .map(String::as_str)
        .collect()
}

/// The predicates the crate declares for `self`'s own type (methods of its
/// `impl`s, a trait's impl for it too, taking no arguments and returning
/// `bool`): `self.is_zero()` in a method of `Ratio`.
fn own_predicates<'c>(site: &Site, cx: &Context<'c>) -> Vec<&'c str> {
    let Some(owner) = self_owner(site, cx) else {
        return Vec::new();
    };
    cx.space
        .declared
        .iter()
        .filter(|(_, all)| {
            all.iter()
                .any(|d| d.owner == owner && d.receiver && d.arguments == 0 && d.returns == "bool")
        })
        .map(|(name, _)| name.as_str())
        .collect()
}

/// The mirror image of each comparison of two values' different fields in
/// `condition`: `b.x < a.y` for `a.x < b.y`, the other half of a
/// symmetric relation (two intervals overlap when each starts before the
/// other ends).
pub(super) fn mirrored(condition: &str) -> Vec<String> {
    let Ok(expr) = syn::parse_str::<syn::Expr>(condition) else {
        return Vec::new();
    };
    let field = |e: &syn::Expr| match e {
        syn::Expr::Field(f) => match (&*f.base, &f.member) {
            (syn::Expr::Path(base), syn::Member::Named(name)) => {
                Some((base.path.get_ident()?.to_string(), name.to_string()))
            }
            _ => None,
        },
        _ => None,
    };
    let mut parts = vec![&expr];
    let mut out = Vec::new();
    while let Some(part) = parts.pop() {
        match part {
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) => {
                parts.extend([&*b.left, &*b.right]);
            }
            syn::Expr::Paren(p) => parts.push(&p.expr),
            syn::Expr::Binary(b) => {
                if let (Some((a, x)), Some((other, y))) = (field(&b.left), field(&b.right))
                    && a != other
                    && x != y
                {
                    let op = b.op.to_token_stream().to_string();
                    out.push(format!("{other}.{x} {op} {a}.{y}"));
                }
            }
            _ => {}
        }
    }
    out
}

/// The text of the site's line.
fn line_of<'t>(text: &'t str, site: &Site) -> &'t str {
    text.lines()
        .nth((site.line as usize).saturating_sub(1))
        .unwrap_or("")
}

/// Whether `line` mentions the identifier `name`.
fn mentions(line: &str, name: &str) -> bool {
    occurrences(line, 0..line.len(), name).next().is_some()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use crate::mutation::patch::Operator;

    use super::super::tests::{line, outcomes};

    const RATIO: &str = "use std::cmp::Ordering;\n\npub struct Ratio<T> {\n    numer: T,\n    denom: T,\n    count: usize,\n}\n\nimpl<T: Num> Zero for Ratio<T> {\n    fn is_zero(&self) -> bool {\n        self.numer.is_zero()\n    }\n}\n\nimpl<T: Num> Ratio<T> {\n    pub fn compare(&self, other: &Self) -> Ordering {\n        if self.numer == other.numer {\n            let ord = self.denom.cmp(&other.denom);\n            return ord.reverse();\n        }\n        Ordering::Less\n    }\n}\n";

    #[test]
    fn a_guard_asks_what_the_crate_asks_of_a_field_and_of_self() {
        let made: BTreeSet<String> = outcomes(RATIO, Operator::Guard, 18)
            .iter()
            .map(|t| line(t, 18).to_string())
            .collect();
        for expected in [
            "if self.numer.is_zero() { return Ordering::Equal; }",
            "if self.is_zero() { return Ordering::Equal; }",
        ] {
            assert!(made.contains(expected), "{expected} not in {made:?}");
        }
        // `self.denom` is never asked anything: no predicate is guessed.
        assert!(
            !made.iter().any(|l| l.contains("self.denom.is_")),
            "{made:?}"
        );
        // Not a conjunct of a condition: any predicate no test contradicts
        // passes there.
        let conjuncts = outcomes(RATIO, Operator::Synthesis, 17);
        assert!(!conjuncts.is_empty());
        assert!(
            !conjuncts.iter().any(|t| line(t, 17).contains("is_zero")),
            "{conjuncts:?}"
        );
    }
}
