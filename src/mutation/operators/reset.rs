//! Resets: a method that puts some fields of `self` back as a constructor
//! makes them (`self.lookup.clear(); self.storage.clear();`) and leaves
//! out one whose every constructor gives the same constant: that field
//! set back too, `self.weight = 0;` after a reset (clru's `clear` kept a
//! weighted cache's weight, a real bug). A collection its constructors
//! give empty may be cleared instead (`self.items.clear();`). A method
//! that writes `*self` or takes `self` apart (`let Self { .. } = self`)
//! names its fields otherwise: it gets none.

use crate::code::source::Edit;
use crate::code::{function_around, occurrences, self_field, text_without_spaces};
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind, StatementSite, constant_value};
use crate::mutation::types::is_collection;

use super::statement::insert;
use super::{Context, MutationOperator};

/// Set back a field a resetting method leaves as it was.
pub(super) struct Reset;

impl MutationOperator for Reset {
    fn operator(&self) -> Operator {
        Operator::Reset
    }

    fn name(&self) -> &'static str {
        "reset"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Statement(_))
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Statement(statement) = &site.kind else {
            return Vec::new();
        };
        resets(site, statement, cx)
            .iter()
            .map(|reset| insert(statement, (false, true), reset, cx.text))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        4
    }

    fn writes_statements(&self) -> bool {
        true
    }
}

/// Methods that empty a collection (or a type of the crate's) in place.
const EMPTYING: &[&str] = &["clear", "reset"];

/// Constructor values of an empty collection.
const EMPTY: &[&str] = &["::new()", "::default()", "Default::default()"];

/// After a statement that resets a field of `self`, the statements that
/// reset each field of its type the function never names: `self.f =
/// V;` for the constant `V` every struct literal that agrees with the
/// reset gives it (one that gives the reset field the value it is set
/// back to: qp-trie's `new()`, `Trie { root: None, count: 0 }`, not the
/// `Trie { root, count }` a split builds), and for an empty collection
/// `self.f.clear();` too, tried first.
fn resets(site: &Site, statement: &StatementSite, cx: &Context) -> Vec<String> {
    let Some(owner) = &site.self_type else {
        return Vec::new();
    };
    let (Some(literals), Some(fields)) = (
        cx.space.struct_literals.get(owner),
        cx.space.struct_fields.get(owner),
    ) else {
        return Vec::new();
    };
    // Every statement of the crate comes here: those of `self` alone are
    // parsed.
    let reset = &cx.text[statement.range.clone()];
    let Some((field, value)) = reset
        .starts_with("self.")
        .then(|| reset_of(reset))
        .flatten()
    else {
        return Vec::new();
    };
    let agreeing: Vec<_> = literals
        .iter()
        .filter(|literal| match &value {
            None => true,
            Some(value) => literal
                .get(&field)
                .and_then(Option::as_deref)
                .is_some_and(|given| text_without_spaces(given) == *value),
        })
        .collect();
    let Some(body) = function_around(cx.text, statement.range.start) else {
        return Vec::new();
    };
    let body = &cx.text[body];
    if agreeing.is_empty() || body.contains("*self") || body.contains("Self {") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (field, ty) in fields {
        let mut given = agreeing.iter().filter_map(|literal| literal.get(field));
        let Some(Some(value)) = given.next() else {
            continue;
        };
        if given.any(|other| other.as_ref() != Some(value)) || names_field(body, field) {
            continue;
        }
        if EMPTY.iter().any(|e| value.ends_with(e)) && is_collection(ty) {
            out.push(format!("self.{field}.clear();"));
        }
        out.push(format!("self.{field} = {value};"));
    }
    out
}

/// The field of `self` that `statement` resets and the value it gives
/// it, without spaces: it empties it in place (`self.items.clear();`: no
/// value) or sets it to a constant (`self.count = 0;`).
fn reset_of(statement: &str) -> Option<(String, Option<String>)> {
    let Ok(syn::Stmt::Expr(expr, _)) = syn::parse_str::<syn::Stmt>(statement) else {
        return None;
    };
    let field_of_self = |e: &syn::Expr| match e {
        syn::Expr::Field(f) => self_field(f).map(|f| f["self.".len()..].to_string()),
        _ => None,
    };
    match &expr {
        syn::Expr::MethodCall(call)
            if call.args.is_empty() && EMPTYING.contains(&call.method.to_string().as_str()) =>
        {
            Some((field_of_self(&call.receiver)?, None))
        }
        syn::Expr::Assign(assign) => {
            let value = constant_value(&assign.right)?;
            Some((
                field_of_self(&assign.left)?,
                Some(text_without_spaces(&value)),
            ))
        }
        _ => None,
    }
}

/// Whether `body` names `self.field` (read or written).
pub(super) fn names_field(body: &str, field: &str) -> bool {
    occurrences(body, 0..body.len(), &format!("self.{field}"))
        .next()
        .is_some()
}

#[cfg(test)]
mod tests {
    use super::super::tests::outcomes;
    use super::*;
    use std::collections::BTreeSet;

    /// clru 0.6.0: `clear` emptied the map and the list and kept the
    /// weight, which every constructor starts at 0.
    #[test]
    fn a_clear_sets_back_the_field_it_forgot() {
        let text = "pub struct Cache {\n    map: Vec<u32>,\n    list: Vec<u32>,\n    weight: usize,\n    cap: usize,\n    seen: Vec<u32>,\n}\n\nimpl Cache {\n    pub fn new(cap: usize) -> Self {\n        Self { map: Vec::new(), list: Vec::new(), weight: 0, cap, seen: Vec::new() }\n    }\n    pub fn with(cap: usize) -> Cache {\n        Cache { map: Vec::new(), list: Vec::new(), weight: 0, cap, seen: Vec::with_capacity(cap) }\n    }\n    pub fn clear(&mut self) {\n        self.map.clear();\n        self.list.clear();\n    }\n    pub fn add(&mut self, w: usize) {\n        self.weight += w;\n    }\n}\n";
        let made = outcomes(text, Operator::Reset, 18);
        let fixed = text.replace(
            "self.list.clear();\n",
            "self.list.clear();\n        self.weight = 0;\n",
        );
        assert!(made.contains(&fixed), "{made:#?}");
        // `cap` is given from a parameter, `seen` differently by the two
        // constructors: neither has a value to be set back to.
        assert!(
            made.iter()
                .all(|m| !m.contains("self.cap =") && !m.contains("self.seen"))
        );
        // A statement that resets nothing, and a method that is no reset.
        assert!(outcomes(text, Operator::Reset, 22).is_empty());
    }

    #[test]
    fn a_statement_resets_a_field_when_it_empties_it_or_sets_it_to_a_constant() {
        let reset = |statement| reset_of(statement);
        assert_eq!(reset("self.items.clear();"), Some(("items".into(), None)));
        let zero = Some(("count".to_string(), Some("0".to_string())));
        assert_eq!(reset("self.count = 0;"), zero);
        assert_eq!(reset("self.items.push(1);"), None);
        assert_eq!(reset("items.clear();"), None);
        assert_eq!(reset("self.count = n;"), None);
    }

    /// qp-trie 0.7.5: `clear` set the root back to `None` and kept the
    /// count; the literal a split builds gives both from variables.
    #[test]
    fn a_reset_follows_the_literals_that_agree_with_it() {
        let text = "pub struct Trie {\n    root: Option<u8>,\n    count: usize,\n}\n\nimpl Trie {\n    pub fn new() -> Trie {\n        Trie { root: None, count: 0 }\n    }\n    fn split(root: Option<u8>, count: usize) -> Trie {\n        Trie { root, count }\n    }\n    pub fn clear(&mut self) {\n        self.root = None;\n    }\n}\n";
        let made = outcomes(text, Operator::Reset, 14);
        let fixed = text.replace(
            "self.root = None;\n",
            "self.root = None;\n        self.count = 0;\n",
        );
        assert_eq!(made, BTreeSet::from([fixed]));
        // Set to what no literal gives: no reset.
        let other = text.replace("self.root = None;", "self.root = Some(1);");
        assert!(outcomes(&other, Operator::Reset, 14).is_empty());
    }

    #[test]
    fn a_field_is_named_by_its_whole_name() {
        assert!(names_field("{ self.weight += 1; }", "weight"));
        assert!(!names_field("{ self.weights.clear(); }", "weight"));
        assert!(is_collection("Vec<u8>"));
        assert!(is_collection("std::collections::HashMap<K,V>"));
        assert!(is_collection("Vec<std::string::String>"));
        assert!(is_collection("String"));
        assert!(!is_collection("usize"));
    }
}
