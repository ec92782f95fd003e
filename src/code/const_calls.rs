//! Which `const fn`s must stay `const`: those a const context calls (a
//! `const` or `static` item, a `const` block, an array length, an enum
//! discriminant, a const generic argument), and, in turn, those their
//! bodies call. The other `const fn`s run only at run time, where the
//! instrumented copy may drop their `const` and probe them like any other
//! function. Functions are known by name (a path's last segment, a
//! method's name), so a name any const context calls keeps every function
//! of that name `const`. Const contexts a macro writes are not seen: the
//! build that fails then says so (`cannot call non-const`), and every
//! `const fn` keeps its `const` (see `baseline`).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use syn::visit::{self, Visit};

use crate::code::CrateSources;

/// Whether an attribute makes the function `const` where syn sees none:
/// the `const_fn` crate's `#[const_fn]`, `#[cfg_attr(feature = "const",
/// const_fn::const_fn)]` (tz-rs), or an attribute macro given the keyword
/// itself, `#[rustversion::attr(since(1.64), const)]` (dashu). Such a
/// function keeps its `const` like one a const context calls: no probe,
/// no schema dispatch in it.
pub fn made_const(attrs: &[syn::Attribute]) -> bool {
    let names_const_fn =
        |path: &syn::Path| path.segments.last().is_some_and(|s| s.ident == "const_fn");
    attrs.iter().any(|attr| {
        if attr.path().is_ident("cfg_attr") {
            let parser = syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated;
            attr.parse_args_with(parser)
                .is_ok_and(|metas| metas.iter().skip(1).any(|meta| names_const_fn(meta.path())))
        } else {
            names_const_fn(attr.path()) || gives_const(attr)
        }
    })
}

/// Whether an attribute's arguments hold the `const` keyword at their top
/// level: an attribute macro that adds it to the item.
fn gives_const(attr: &syn::Attribute) -> bool {
    let syn::Meta::List(list) = &attr.meta else {
        return false;
    };
    list.tokens
        .clone()
        .into_iter()
        .any(|token| matches!(token, proc_macro2::TokenTree::Ident(ident) if ident == "const"))
}

/// Which `const fn`s keep their `const` in a copy of the crate whose code
/// in them does what a `const fn` cannot (a probe, a schema's dispatch).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum KeepConst {
    /// Every one (a const context the walk did not see calls one).
    Every,
    /// Those of these names (see `const_required`).
    Named(BTreeSet<String>),
}

impl KeepConst {
    /// The `const fn`s the const contexts of `sources` need.
    pub fn of(sources: &CrateSources) -> KeepConst {
        KeepConst::Named(const_required(sources.iter().map(|(_, f)| &f.syntax)))
    }

    /// Whether the function of `sig` (written in a `macro_rules!` body when
    /// `in_macro`: every expansion would need the check) may lose its
    /// `const`: it is a `const fn` that runs only at run time.
    pub fn may_drop(&self, sig: &syn::Signature, in_macro: bool) -> bool {
        sig.constness.is_some()
            && !in_macro
            && match self {
                KeepConst::Every => false,
                KeepConst::Named(names) => !names.contains(&sig.ident.to_string()),
            }
    }

    /// Where the function of `sig` may lose its `const` (see `may_drop`):
    /// the keyword and the spaces after it, in `text`, the file's.
    pub fn dropped(
        &self,
        sig: &syn::Signature,
        text: &str,
        in_macro: bool,
    ) -> Option<Range<usize>> {
        let keyword = sig.constness.as_ref()?.span.byte_range();
        let after = &text[keyword.end..];
        let spaces = after.len() - after.trim_start().len();
        self.may_drop(sig, in_macro)
            .then_some(keyword.start..keyword.end + spaces)
    }
}

/// The names of the functions that must stay `const`, over every file.
fn const_required<'a>(files: impl IntoIterator<Item = &'a syn::File>) -> BTreeSet<String> {
    let mut calls = ConstCalls::default();
    for file in files {
        calls.visit_file(file);
    }
    let mut required = calls.from_contexts;
    let mut todo: Vec<String> = required.iter().cloned().collect();
    while let Some(name) = todo.pop() {
        for called in calls.by_const_fn.get(&name).into_iter().flatten() {
            if required.insert(called.clone()) {
                todo.push(called.clone());
            }
        }
    }
    required
}

#[derive(Default)]
struct ConstCalls {
    /// Names called in const contexts.
    from_contexts: BTreeSet<String>,
    /// Names each `const fn` (by name) calls in its body.
    by_const_fn: BTreeMap<String, BTreeSet<String>>,
    /// Where calls seen now go: `None` outside const code.
    into: Option<Sink>,
}

#[derive(Clone)]
enum Sink {
    Context,
    ConstFn(String),
}

impl ConstCalls {
    /// Visits `node` with the calls it makes going `into` a set.
    fn within(&mut self, into: Sink, visit: impl FnOnce(&mut Self)) {
        // A const context inside a `const fn` body is a const context.
        let into = match (&self.into, into) {
            (Some(Sink::Context), _) | (_, Sink::Context) => Sink::Context,
            (_, into) => into,
        };
        let outer = self.into.replace(into);
        visit(self);
        self.into = outer;
    }

    fn called(&mut self, name: String) {
        match &self.into {
            Some(Sink::Context) => {
                self.from_contexts.insert(name);
            }
            Some(Sink::ConstFn(function)) => {
                let calls = self.by_const_fn.entry(function.clone()).or_default();
                calls.insert(name);
            }
            None => {}
        }
    }

    fn function(
        &mut self,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
        visit: impl FnOnce(&mut Self),
    ) {
        if made_const(attrs) {
            // It keeps its `const` (no probe goes in): what it calls must too.
            self.within(Sink::Context, visit);
        } else if sig.constness.is_some() {
            self.within(Sink::ConstFn(sig.ident.to_string()), visit);
        } else {
            // A plain function's body is run-time code, even inside a
            // `const fn` (a nested item).
            let outer = self.into.take();
            visit(self);
            self.into = outer;
        }
    }
}

impl<'ast> Visit<'ast> for ConstCalls {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.function(&item.attrs, &item.sig, |this| {
            visit::visit_item_fn(this, item)
        });
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.function(&item.attrs, &item.sig, |this| {
            visit::visit_impl_item_fn(this, item)
        });
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        self.function(&item.attrs, &item.sig, |this| {
            visit::visit_trait_item_fn(this, item)
        });
    }

    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        self.within(Sink::Context, |this| visit::visit_item_const(this, item));
    }

    fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
        self.within(Sink::Context, |this| visit::visit_item_static(this, item));
    }

    fn visit_impl_item_const(&mut self, item: &'ast syn::ImplItemConst) {
        self.within(Sink::Context, |this| {
            visit::visit_impl_item_const(this, item)
        });
    }

    fn visit_trait_item_const(&mut self, item: &'ast syn::TraitItemConst) {
        self.within(Sink::Context, |this| {
            visit::visit_trait_item_const(this, item)
        });
    }

    fn visit_expr_const(&mut self, block: &'ast syn::ExprConst) {
        self.within(Sink::Context, |this| visit::visit_expr_const(this, block));
    }

    fn visit_expr_repeat(&mut self, repeat: &'ast syn::ExprRepeat) {
        self.visit_expr(&repeat.expr);
        self.within(Sink::Context, |this| this.visit_expr(&repeat.len));
    }

    fn visit_type_array(&mut self, array: &'ast syn::TypeArray) {
        self.visit_type(&array.elem);
        self.within(Sink::Context, |this| this.visit_expr(&array.len));
    }

    fn visit_variant(&mut self, variant: &'ast syn::Variant) {
        self.within(Sink::Context, |this| visit::visit_variant(this, variant));
    }

    fn visit_generic_argument(&mut self, argument: &'ast syn::GenericArgument) {
        match argument {
            syn::GenericArgument::Const(_) => {
                self.within(Sink::Context, |this| {
                    visit::visit_generic_argument(this, argument)
                });
            }
            _ => visit::visit_generic_argument(self, argument),
        }
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if let syn::Expr::Path(path) = &*call.func
            && let Some(last) = path.path.segments.last()
        {
            self.called(last.ident.to_string());
        }
        visit::visit_expr_call(self, call);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        self.called(call.method.to_string());
        visit::visit_expr_method_call(self, call);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn required(source: &str) -> Vec<String> {
        let file = syn::parse_file(source).expect("parses");
        const_required([&file]).into_iter().collect()
    }

    #[test]
    fn const_contexts_and_what_their_const_fns_call_stay_const() {
        let source = "
            const A: u8 = a();
            static B: u8 = Wrapper::b();
            const fn a() -> u8 { helper() + 1 }
            const fn helper() -> u8 { 1 }
            const fn run_time_only() -> u8 { other() }
            const fn other() -> u8 { 2 }
            fn f() -> [u8; len()] { [0; count()] }
            enum E { X = discriminant() }
            fn g() { let _ = run_time_only(); let _ = s::<{ generic() }>(); }
        ";
        assert_eq!(
            required(source),
            [
                "a",
                "b",
                "count",
                "discriminant",
                "generic",
                "helper",
                "len"
            ]
        );
    }

    #[test]
    fn a_const_block_in_a_run_time_function_is_a_const_context() {
        let source = "fn f() -> u8 { let a = const { x() }; a + y() }";
        assert_eq!(required(source), ["x"]);
    }

    /// A function an attribute makes `const` keeps it: what it calls too.
    #[test]
    fn what_a_function_made_const_by_an_attribute_calls_stays_const() {
        let source = "
            #[rustversion::attr(since(1.64), const)]
            fn f(&self) -> u8 { self.inner() }
            const fn inner(&self) -> u8 { 1 }
            const fn run_time_only() -> u8 { 2 }
        ";
        assert_eq!(required(source), ["inner"]);
    }
}
