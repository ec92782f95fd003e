//! What a function's signature says for its copies: what a copy leaves out
//! (attributes, the visibility), the parameters the dispatch passes on, the
//! turbofish that calls a copy, and a copy's declaration in a helper trait;
//! and the text of generics (a signature's, an `impl`'s, a trait's), with
//! the bounds a helper trait must say that its impl's header implies.

use std::collections::BTreeSet;
use std::ops::Range;

use syn::punctuated::Punctuated;
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

/// `where_clause` with the bounds an `impl`'s header implies and a trait
/// declaration does not (for a helper trait copying the impl's methods):
/// `T: 'a` and `'b: 'a` for each parameter inside a reference `&'a ...`
/// of the self type or the trait path (a supertrait
/// `Offset<<&'a [T] as Stream>::Checkpoint>` needs `T: 'a` said), and
/// `Self: Sized` when the self type is sized by its form (see [`sized`]: a
/// trait declared `trait Offset<Start = Self>` is `Offset<Self>` as a
/// supertrait, which needs it; so are `Add`, `Sub` and the other operators).
pub(super) fn with_implied_bounds(
    where_clause: &str,
    generics: &syn::Generics,
    self_ty: &syn::Type,
    trait_path: &syn::Path,
    unsized_types: &BTreeSet<String>,
) -> String {
    use syn::visit::Visit;
    let mut outlives = Outlives {
        types: generics
            .type_params()
            .map(|t| t.ident.to_string())
            .collect(),
        lifetimes: generics
            .lifetimes()
            .map(|l| l.lifetime.to_string())
            .collect(),
        within: Vec::new(),
        bounds: Vec::new(),
    };
    outlives.visit_type(self_ty);
    outlives.visit_path(trait_path);
    let mut bounds = outlives.bounds;
    if sized(self_ty, generics, unsized_types) {
        bounds.push("Self: Sized".to_string());
    }
    if bounds.is_empty() {
        return where_clause.to_string();
    }
    let bounds = bounds.join(", ");
    match where_clause.trim_end() {
        "" => format!("where {bounds}"),
        clause if clause.ends_with(',') => format!("{clause} {bounds}"),
        clause => format!("{clause}, {bounds}"),
    }
}

/// Whether `ty` is sized by its form: a reference, a pointer, a tuple, an
/// array, a function pointer, a type parameter of `generics` not declared
/// `?Sized`, or a path to a type not in `unsized_types` (see
/// [`unsized_types`]). A foreign unsized type (`bstr::BStr`) is taken for
/// sized: that helper does not compile, and its functions are woven in place.
fn sized(ty: &syn::Type, generics: &syn::Generics, unsized_types: &BTreeSet<String>) -> bool {
    match ty {
        syn::Type::Reference(_)
        | syn::Type::Ptr(_)
        | syn::Type::Tuple(_)
        | syn::Type::Array(_)
        | syn::Type::FnPtr(_) => true,
        syn::Type::Paren(inner) => sized(&inner.elem, generics, unsized_types),
        syn::Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return false;
            };
            let name = last.ident.to_string();
            let mut in_where = generics.where_clause.iter().flat_map(|w| &w.predicates);
            let declared_unsized = generics
                .type_params()
                .any(|t| t.ident == name && maybe_unsized(&t.bounds))
                || in_where.any(|p| {
                    matches!(p, syn::WherePredicate::Type(t)
                        if matches!(&t.bounded_ty, syn::Type::Path(b) if b.path.is_ident(&name))
                            && maybe_unsized(&t.bounds))
                });
            !declared_unsized && !unsized_types.contains(&name)
        }
        _ => false,
    }
}

/// Whether `bounds` say `?Sized`.
fn maybe_unsized(bounds: &Punctuated<syn::TypeParamBound, syn::Token![+]>) -> bool {
    bounds
        .iter()
        .any(|b| matches!(b, syn::TypeParamBound::Trait(t) if t.maybe.is_some()))
}

/// The names of the unsized types a path may name: the standard library's
/// (`str`, `Path`...) and the crate's structs whose last field is unsized
/// by its form (`[u8]`, `dyn Trait`, one of those names) or may be (a
/// parameter declared `?Sized`).
pub(super) fn unsized_types<'a>(files: impl Iterator<Item = &'a syn::File>) -> BTreeSet<String> {
    use syn::visit::Visit;
    /// Each struct's name, its last field's type, and whether that type is
    /// a parameter of the struct declared `?Sized` (`Cell<T: ?Sized>`).
    struct Structs(Vec<(String, syn::Type, bool)>);
    impl<'ast> syn::visit::Visit<'ast> for Structs {
        fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
            if let Some(last) = item.fields.iter().last() {
                let maybe = item.generics.type_params().any(|t| {
                    matches!(&last.ty, syn::Type::Path(p) if p.path.is_ident(&t.ident))
                        && maybe_unsized(&t.bounds)
                });
                self.0
                    .push((item.ident.to_string(), last.ty.clone(), maybe));
            }
        }
    }
    let mut structs = Structs(Vec::new());
    for file in files {
        structs.visit_file(file);
    }
    let mut names: BTreeSet<String> = ["str", "Path", "OsStr", "CStr", "ByteStr"]
        .map(String::from)
        .into();
    // A struct ending in an unsized struct is unsized: to a fixed point.
    loop {
        let before = names.len();
        for (name, last, maybe) in &structs.0 {
            let tail_unsized = *maybe
                || match last {
                    syn::Type::Slice(_) | syn::Type::TraitObject(_) => true,
                    syn::Type::Path(path) => path
                        .path
                        .segments
                        .last()
                        .is_some_and(|s| names.contains(&s.ident.to_string())),
                    _ => false,
                };
            if tail_unsized {
                names.insert(name.clone());
            }
        }
        if names.len() == before {
            return names;
        }
    }
}

/// The walk behind [`with_implied_bounds`]: the generics' parameters, the
/// lifetimes of the references it is inside, the bounds found.
struct Outlives {
    types: Vec<String>,
    lifetimes: Vec<String>,
    within: Vec<String>,
    bounds: Vec<String>,
}

impl Outlives {
    fn bound(&mut self, parameter: String) {
        for lifetime in &self.within {
            let bound = format!("{parameter}: {lifetime}");
            if parameter != *lifetime && !self.bounds.contains(&bound) {
                self.bounds.push(bound);
            }
        }
    }
}

impl<'ast> syn::visit::Visit<'ast> for Outlives {
    fn visit_type_reference(&mut self, reference: &'ast syn::TypeReference) {
        match &reference.lifetime {
            Some(lifetime) => {
                self.within.push(lifetime.to_string());
                syn::visit::visit_type_reference(self, reference);
                self.within.pop();
            }
            None => syn::visit::visit_type_reference(self, reference),
        }
    }

    fn visit_type_path(&mut self, path: &'ast syn::TypePath) {
        if path.qself.is_none()
            && let Some(ident) = path.path.get_ident()
            && self.types.contains(&ident.to_string())
        {
            self.bound(ident.to_string());
        }
        syn::visit::visit_type_path(self, path);
    }

    fn visit_lifetime(&mut self, lifetime: &'ast syn::Lifetime) {
        let name = lifetime.to_string();
        if self.lifetimes.contains(&name) {
            self.bound(name);
        }
    }
}

/// A trait's path as a `use` in a function body can name it: its
/// arguments left out, and its first segment after `self::` when the
/// module declares or imports it (`names`, see [`module_names`]): an
/// edition-2015 crate reads a `use` path from the crate root, where
/// `use fmt::Debug` finds no `fmt` (`self::fmt` reads the same in every
/// edition). A path from `std`, another crate or `crate` is left as it is.
pub(super) fn use_path(path: &syn::Path, names: &BTreeSet<String>) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let lead = match path.leading_colon {
        Some(_) => "::",
        None if segments.len() > 1 && names.contains(&segments[0]) => "self::",
        None => "",
    };
    format!("{lead}{}", segments.join("::"))
}

/// The names a file's module declares as modules or brings in with a
/// `use` or an `extern crate` at its top (`fmt` of `use std::fmt;` or
/// `use std::fmt::{self, Write};`).
pub(super) fn module_names(file: &syn::File) -> BTreeSet<String> {
    fn leaves(tree: &syn::UseTree, parent: Option<&syn::Ident>, out: &mut BTreeSet<String>) {
        match tree {
            syn::UseTree::Path(path) => leaves(&path.tree, Some(&path.ident), out),
            syn::UseTree::Name(name) if name.ident == "self" => {
                out.extend(parent.map(ToString::to_string));
            }
            syn::UseTree::Name(name) => {
                out.insert(name.ident.to_string());
            }
            syn::UseTree::Rename(rename) => {
                out.insert(rename.rename.to_string());
            }
            syn::UseTree::Group(group) => {
                group.items.iter().for_each(|t| leaves(t, parent, out));
            }
            syn::UseTree::Glob(_) => {}
        }
    }
    let mut names = BTreeSet::new();
    for item in &file.items {
        match item {
            syn::Item::Use(item) => leaves(&item.tree, None, &mut names),
            syn::Item::Mod(item) => {
                names.insert(item.ident.to_string());
            }
            syn::Item::ExternCrate(item) => {
                let name = item.rename.as_ref().map_or(&item.ident, |(_, r)| r);
                names.insert(name.to_string());
            }
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trait_path_from_the_modules_imports_starts_at_self() {
        // aho-corasick (edition 2015): `use fmt::Debug as _;` in a copy of
        // `impl fmt::Debug`'s method did not resolve, and failed the build.
        let file: syn::File = syn::parse_str(
            "use std::fmt;\nuse std::io::{self, Write as W};\nmod parse;\nextern crate alloc as a;\nuse std::*;\n",
        )
        .unwrap();
        let names = module_names(&file);
        assert_eq!(
            names,
            BTreeSet::from(["W", "a", "fmt", "io", "parse"].map(String::from))
        );
        let path = |p: &str| use_path(&syn::parse_str(p).unwrap(), &names);
        assert_eq!(path("fmt::Debug"), "self::fmt::Debug");
        assert_eq!(path("parse::Parse<T>"), "self::parse::Parse");
        assert_eq!(path("std::fmt::Debug"), "std::fmt::Debug");
        assert_eq!(path("::serde::Serialize"), "::serde::Serialize");
        assert_eq!(path("Debug"), "Debug");
    }
}
