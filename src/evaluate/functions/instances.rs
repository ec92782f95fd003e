//! How the copies of a function are compiled: a generic function is
//! compiled once per instantiation, in each crate that calls it, and a copy
//! whose body defines types of its own (a closure, an async block) hands
//! new types to what it calls. Copies of such a function calling a woven
//! generic function instantiate every variant of it once per copy: a
//! woven build that holds many variants of both is slow to compile (see
//! `evaluate::apart`).

use syn::visit::Visit;

/// Whether a function of signature `sig` is compiled per instantiation: it
/// has type parameters, takes `impl Trait`, or its container is generic
/// (`container_generic`: an `impl<T>`, or a trait for a default method).
pub fn is_generic(sig: &syn::Signature, container_generic: bool) -> bool {
    container_generic
        || generic_impl(&sig.generics)
        || sig.inputs.iter().any(|input| match input {
            syn::FnArg::Typed(typed) => has_impl_trait(&typed.ty),
            syn::FnArg::Receiver(_) => false,
        })
}

/// Whether `generics` (an `impl` block's or a function's own) has a type
/// parameter, which makes what it declares generic.
pub fn generic_impl(generics: &syn::Generics) -> bool {
    generics.type_params().next().is_some()
}

/// Whether `ty` names an `impl Trait`.
pub fn has_impl_trait(ty: &syn::Type) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    finder.visit_type(ty);
    finder.0
}

/// Whether `block` defines a type of its own for each copy of it: a
/// closure or an async block (also in an item nested in it, which each
/// copy declares anew).
pub fn makes_types(block: &syn::Block) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {
            self.0 = true;
        }
        fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    finder.visit_block(block);
    finder.0
}
