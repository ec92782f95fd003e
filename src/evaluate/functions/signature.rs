//! What a function's signature says for its copies: what a copy leaves out
//! (attributes, the visibility), the parameters the dispatch passes on, the
//! turbofish that calls a copy, and a copy's declaration in a helper trait;
//! and the text of generics (a signature's, an `impl`'s, a trait's).

use std::ops::Range;

use syn::spanned::Spanned;

use super::Param;

/// A signature as the copies of its function need it.
pub(super) struct Signature {
    /// Whether the function takes `self` (in any form).
    pub receiver: bool,
    pub params: Vec<Param>,
    /// `::<T, N>`: the function's type and const parameters, for calls.
    pub turbofish: String,
    /// The signature as a trait declares it, with `{}` for the name.
    pub declaration: String,
}

impl Signature {
    /// `sig`, written in `text`.
    pub(super) fn read(text: &str, sig: &syn::Signature) -> Signature {
        let (receiver, params, declared) = parameters(text, sig);
        Signature {
            receiver,
            params,
            turbofish: turbofish(text, &sig.generics),
            declaration: declaration(text, sig, &declared),
        }
    }
}

/// The byte ranges of an item that a copy leaves out: the attributes it
/// must not keep and the visibility.
pub(super) fn dropped(
    attrs: &[syn::Attribute],
    vis: Option<&syn::Visibility>,
) -> Vec<Range<usize>> {
    let mut dropped: Vec<Range<usize>> = attrs
        .iter()
        .filter(|a| !kept_attribute(a))
        .map(range)
        .collect();
    if let Some(vis) = vis
        && !matches!(vis, syn::Visibility::Inherited)
    {
        dropped.push(range(vis));
    }
    dropped
}

/// Attributes a copy keeps: those that decide whether or how it compiles
/// and panics like the original.
fn kept_attribute(attr: &syn::Attribute) -> bool {
    const KEPT: &[&str] = &[
        "cfg",
        "cfg_attr",
        "track_caller",
        "inline",
        "cold",
        "target_feature",
        "allow",
        "warn",
        "deny",
        "expect",
    ];
    KEPT.iter().any(|name| attr.path().is_ident(name))
}

/// Whether the function takes `self`, its other parameters, and each
/// input as a trait declares it (`&self`, `_: T`).
fn parameters(text: &str, sig: &syn::Signature) -> (bool, Vec<Param>, Vec<String>) {
    let mut receiver = false;
    let mut params = Vec::new();
    let mut declared = Vec::new();
    for input in &sig.inputs {
        match input {
            syn::FnArg::Receiver(r) => {
                receiver = true;
                declared.push(text[range(r)].to_string());
            }
            syn::FnArg::Typed(typed) => {
                declared.push(format!("_: {}", &text[range(&typed.ty)]));
                params.push(match typed.pat.as_ref() {
                    syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                        Param::Name(text[range(&p.ident)].to_string())
                    }
                    pattern => Param::Pattern {
                        pattern: range(pattern),
                    },
                });
            }
        }
    }
    (receiver, params, declared)
}

/// `::<T, N>`, the type and const parameters of `generics` (empty if none).
fn turbofish(text: &str, generics: &syn::Generics) -> String {
    let type_parameters: Vec<String> = generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => Some(text[range(&t.ident)].to_string()),
            syn::GenericParam::Const(c) => Some(text[range(&c.ident)].to_string()),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    if type_parameters.is_empty() {
        String::new()
    } else {
        format!("::<{}>", type_parameters.join(", "))
    }
}

/// `sig` as a trait declares it, with `{}` for the name and the inputs
/// `declared`: `fn {}<T>(&self, _: u8) -> T where T: Clone;`.
fn declaration(text: &str, sig: &syn::Signature, declared: &[String]) -> String {
    let (generics, _, where_clause) = generics(text, &sig.generics);
    let prefix: String = [
        sig.asyncness.map(|_| "async "),
        matches!(sig.safety, syn::Safety::Unsafe(_)).then_some("unsafe "),
    ]
    .into_iter()
    .flatten()
    .collect();
    let abi = sig
        .abi
        .as_ref()
        .map(|a| format!("{} ", &text[range(a)]))
        .unwrap_or_default();
    let output = match &sig.output {
        syn::ReturnType::Default => String::new(),
        syn::ReturnType::Type(..) => format!(" {}", &text[range(&sig.output)]),
    };
    format!(
        "{prefix}{abi}fn {{}}{generics}({}){output} {where_clause};",
        declared.join(", ")
    )
}

/// `generics`, written in `text`: as declared (`<'a, T: Clone>`), as
/// arguments (`<'a, T>`), and the `where` clause.
pub(super) fn generics(text: &str, generics: &syn::Generics) -> (String, String, String) {
    let declaration = match (&generics.lt_token, &generics.gt_token) {
        (Some(lt), Some(gt)) => {
            text[lt.span.byte_range().start..gt.span.byte_range().end].to_string()
        }
        _ => String::new(),
    };
    let arguments: Vec<String> = generics
        .params
        .iter()
        .map(|p| match p {
            syn::GenericParam::Lifetime(l) => l.lifetime.to_string(),
            syn::GenericParam::Type(t) => t.ident.to_string(),
            syn::GenericParam::Const(c) => c.ident.to_string(),
        })
        .collect();
    let arguments = if arguments.is_empty() {
        String::new()
    } else {
        format!("<{}>", arguments.join(", "))
    };
    let where_clause = generics
        .where_clause
        .as_ref()
        .map(|w| text[range(w)].to_string())
        .unwrap_or_default();
    (declaration, arguments, where_clause)
}

fn range(node: &impl Spanned) -> Range<usize> {
    node.span().byte_range()
}
