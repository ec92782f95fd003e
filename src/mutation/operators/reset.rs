//! Resets: a method that puts some fields of `self` back as a constructor
//! makes them (`self.lookup.clear(); self.storage.clear();`) and leaves
//! out one whose every constructor gives the same constant: that field
//! set back too, `self.weight = 0;` after a reset (clru's `clear` kept a
//! weighted cache's weight, a real bug). A collection its constructors
//! give empty may be cleared instead (`self.items.clear();`). A method
//! that writes `*self` or takes `self` apart (`let Self { .. } = self`)
//! names its fields otherwise: it gets none.

use crate::code::source::Edit;
use crate::code::{function_around, occurrences, self_field, text_without_spaces, without_spaces};
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind, StatementSite};
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
/// V;` for the constant `V` every constructor gives it, and for an empty
/// collection `self.f.clear();` too, tried first.
fn resets(site: &Site, statement: &StatementSite, cx: &Context) -> Vec<String> {
    let Some(owner) = &site.self_type else {
        return Vec::new();
    };
    let (Some(initial), Some(fields)) = (
        cx.space.initial.get(owner),
        cx.space.struct_fields.get(owner),
    ) else {
        return Vec::new();
    };
    // Every statement of the crate comes here: those of `self` alone are
    // parsed.
    let reset = &cx.text[statement.range.clone()];
    if !reset.starts_with("self.")
        || !resets_a_field(reset, |field| initial.get(field).cloned().flatten())
    {
        return Vec::new();
    }
    let Some(body) = function_around(cx.text, statement.range.start) else {
        return Vec::new();
    };
    let body = &cx.text[body];
    if body.contains("*self") || body.contains("Self {") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (field, ty) in fields {
        let Some(Some(value)) = initial.get(field) else {
            continue;
        };
        if names_field(body, field) {
            continue;
        }
        if EMPTY.iter().any(|e| value.ends_with(e)) && is_collection(ty) {
            out.push(format!("self.{field}.clear();"));
        }
        out.push(format!("self.{field} = {value};"));
    }
    out
}

/// Whether `statement` resets a field of `self`: it empties it in place
/// (`self.items.clear();`) or gives it the value the constructors give
/// (`initial`: `self.count = 0;`).
fn resets_a_field(statement: &str, initial: impl Fn(&str) -> Option<String>) -> bool {
    let Ok(syn::Stmt::Expr(expr, _)) = syn::parse_str::<syn::Stmt>(statement) else {
        return false;
    };
    let field_of_self = |e: &syn::Expr| match e {
        syn::Expr::Field(f) => self_field(f).map(|f| f["self.".len()..].to_string()),
        _ => None,
    };
    match &expr {
        syn::Expr::MethodCall(call) => {
            call.args.is_empty()
                && EMPTYING.contains(&call.method.to_string().as_str())
                && field_of_self(&call.receiver).is_some()
        }
        syn::Expr::Assign(assign) => field_of_self(&assign.left).is_some_and(|field| {
            initial(&field)
                .is_some_and(|v| text_without_spaces(&v) == without_spaces(&*assign.right))
        }),
        _ => false,
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
    fn a_statement_resets_a_field_when_it_empties_it_or_sets_back_its_first_value() {
        let initial = |field: &str| (field == "count").then(|| "0".to_string());
        assert!(resets_a_field("self.items.clear();", initial));
        assert!(resets_a_field("self.count = 0;", initial));
        assert!(!resets_a_field("self.count = 1;", initial));
        assert!(!resets_a_field("self.items.push(1);", initial));
        assert!(!resets_a_field("items.clear();", initial));
        assert!(!resets_a_field("self.other = 0;", initial));
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
