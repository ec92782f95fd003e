//! The crate's functions as the weaver copies them: for each function that
//! runs at run time (outermost only: a nested function or closure belongs to
//! the function around it), where its body is, how a copy of it is declared
//! and called, and where copies go. Read once from the syntax, kept as plain
//! text and byte ranges (threads can share it).
//!
//! A copy of a function is the function's own text with a candidate's edits
//! in it, under another name: a free function beside the original; an
//! inherent method in another `impl` block of the same type; a trait-impl
//! method or a trait's default method in a private helper trait whose
//! supertrait is the trait (so `Self::Item` and the trait's other methods
//! still resolve). The original starts with a dispatch to its copies.
//!
//! Functions written in the transcriber of a `macro_rules!` definition are
//! here too (`in_macro`): their copies go beside them in the transcriber,
//! so every expansion has them, and their dispatch names the switch
//! runtime through `$crate`. Such a function is not copied when its name is
//! a `$fragment` (copies need a name of their own) or it is a trait method
//! (each expansion would declare the helper trait again).
//!
//! Module-level `const` and `static` items (data) are here too, as
//! `Shape::Data` with their value as the body: a woven build makes such an
//! item a `static` built lazily by the variant the switch selects (see
//! `weave`). Its type changes, so the woven build rewrites its reads to
//! read through the static (`data_reads`), in the crate's files and in the
//! package's other files (its tests, examples, test modules); it is woven
//! only where a rewrite reaches every read (code that runs, not a `const`
//! context or a pattern) and no file that names it has something of its
//! own by that name.

mod instances;
mod signature;

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::PathBuf;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::code::source::{self, FileId};
use crate::code::{CrateSources, KeepConst, is_test_code, made_const};
use crate::code::{PLACEHOLDER, macro_rules};
use crate::evaluate::data_reads;
use crate::evaluate::in_place::{self, Site};
use signature::Signature;

/// A function of the crate (or a data item: see `Shape::Data`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    pub file: FileId,
    /// The `fn` item, attributes included.
    pub item: Range<usize>,
    /// The body block (`{ ... }`).
    pub body: Range<usize>,
    pub name: String,
    /// The name's bytes.
    pub name_range: Range<usize>,
    /// Byte ranges of the item that a copy leaves out: attributes it must
    /// not keep (`#[export_name]`, docs...) and the visibility.
    pub dropped: Vec<Range<usize>>,
    /// Where copies go: the end of the item that holds the function at its
    /// level (the function itself, or its `impl` or `trait` block).
    pub insert_at: usize,
    pub shape: Shape,
    /// Whether the function takes `self` (in any form).
    pub receiver: bool,
    pub params: Vec<Param>,
    /// `::<T, N>`: the function's type and const parameters, for calls.
    pub turbofish: String,
    pub is_async: bool,
    pub is_unsafe: bool,
    /// The signature as a trait declares it, with `{}` for the name:
    /// `fn {}<T>(&self, _: u8) -> T where T: Clone;`.
    pub declaration: String,
    /// Why it cannot be copied, if it cannot.
    pub not_copyable: Option<&'static str>,
    /// The `const` of a `const fn` that runs only at run time, with the
    /// spaces after it: a woven build that dispatches in such a function
    /// drops it there, in its copies and in every other such function (see
    /// `weave`).
    pub constness: Option<Range<usize>>,
    /// Where its edits can be woven in place, if it cannot be copied (see
    /// `in_place`): none for data, a `const fn` or a function in a macro
    /// body.
    pub sites: Vec<Site>,
    /// Written in a `macro_rules!` transcriber.
    pub in_macro: bool,
    /// Compiled per instantiation, in the crates that call it (see
    /// `instances`).
    pub generic: bool,
    /// Its body defines types of its own (closures, async blocks), which
    /// each copy of it has anew.
    pub makes_types: bool,
}

/// Where a function lives, and so where its copies go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A free function (or an associated function of a module-level item
    /// list): copies go beside it.
    Free,
    /// A method of `impl<G> Type where W`: copies go in another block with
    /// this header (`{}` for the body).
    Inherent { block: String },
    /// A method of a trait impl, or a trait's default method: copies go in
    /// a helper trait declared with `trait` (`{}` for its name and `{}`
    /// for its declarations) and implemented with `implementation` (`{}`
    /// for the name and the copies); calls go through `<Self as NAME ARGS>`.
    Helper {
        declaration: String,
        implementation: String,
        arguments: String,
        /// The trait's path without its arguments (`fmt::Debug`): its
        /// methods are in scope in the original, so a copy `use`s it.
        trait_path: String,
    },
    /// A module-level `const` or `static` item, of type `ty`; `body` is its
    /// value, and a woven build replaces the text from `keyword` (`const`
    /// or `static`) to the item's end.
    Data { ty: String, keyword: usize },
}

/// A parameter other than `self`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    /// A plain binding (`x`, `mut x`): passed on by name.
    Name(String),
    /// A pattern (`(a, b)`, `_`): the original takes it as `__autofix_pN`
    /// and binds the pattern after the dispatch.
    Pattern { pattern: Range<usize> },
}

/// The crate's functions, by file and position.
#[derive(Debug, Clone, Default)]
pub struct Functions {
    functions: Vec<Function>,
}

impl Functions {
    /// The functions and data items of `sources`. `outside` holds the
    /// package's other files (its tests, examples, test modules), whose
    /// reads of a data item are rewritten too; `ours` are the first
    /// segments of a path there that name the crate's items (its name,
    /// `crate`, `super`).
    /// `keep_const` are the `const fn`s that may not lose their `const`.
    pub fn of(
        sources: &CrateSources,
        keep_const: &KeepConst,
        outside: &[(PathBuf, String)],
        ours: &[&str],
    ) -> Functions {
        let mut functions = Vec::new();
        let unsized_types = signature::unsized_types(sources.files.iter().map(|f| &f.syntax));
        for (file, source) in sources.iter() {
            let module_names = signature::module_names(&source.syntax);
            let mut collector = Collector {
                unsized_types: &unsized_types,
                module_names: &module_names,
                file,
                text: &source.text,
                container: Container::Items,
                container_generic: false,
                functions: &mut functions,
                in_macro: false,
                keep_const,
            };
            collector.visit_file(&source.syntax);
        }
        let data: Vec<&Function> = functions
            .iter()
            .filter(|f| matches!(f.shape, Shape::Data { .. }) && f.not_copyable.is_none())
            .collect();
        if !data.is_empty() {
            let names: BTreeSet<&str> = data.iter().map(|f| f.name.as_str()).collect();
            let unwoven = unwoven_data(sources, outside, ours, &names);
            for function in &mut functions {
                if matches!(function.shape, Shape::Data { .. })
                    && let Some(reason) = unwoven
                        .iter()
                        .find(|(name, _)| *name == function.name)
                        .map(|(_, reason)| *reason)
                {
                    function.not_copyable.get_or_insert(reason);
                }
            }
        }
        Functions { functions }
    }

    /// The outermost function whose body holds `range` of `file` (or the
    /// data item whose value does).
    pub fn around(&self, file: FileId, range: &Range<usize>) -> Option<usize> {
        self.functions.iter().position(|f| {
            let inside = match f.shape {
                Shape::Data { .. } => f.body.start <= range.start,
                _ => f.body.start < range.start,
            };
            f.file == file && inside && range.end <= f.body.end
        })
    }

    /// The names of the data items that may be woven.
    pub fn woven_data(&self) -> BTreeSet<&str> {
        self.functions
            .iter()
            .filter(|f| matches!(f.shape, Shape::Data { .. }) && f.not_copyable.is_none())
            .map(|f| f.name.as_str())
            .collect()
    }

    pub fn get(&self, index: usize) -> &Function {
        &self.functions[index]
    }

    /// Marks function `index` as one not to copy (a copy of it did not
    /// compile): it is woven in place, if it can be.
    pub fn set_not_copyable(&mut self, index: usize, why: &'static str) {
        self.functions[index].not_copyable = Some(why);
    }

    /// Marks function `index` as one not to weave at all (woven in place,
    /// it did not compile).
    pub fn set_unweavable(&mut self, index: usize, why: &'static str) {
        let function = &mut self.functions[index];
        function.not_copyable = Some(why);
        function.sites.clear();
    }

    /// Stops weaving in place at the site of function `index` at `range`
    /// (its original code did not compile as a `match` arm).
    pub fn drop_site(&mut self, index: usize, range: &Range<usize>) {
        self.functions[index].sites.retain(|s| s.range != *range);
    }

    pub fn len(&self) -> usize {
        self.functions.len()
    }
}

/// What holds the items being visited.
#[derive(Debug, Clone)]
enum Container {
    /// A file, an inline module or a block: functions are free.
    Items,
    Inherent {
        block: String,
        end: usize,
    },
    Helper {
        declaration: String,
        implementation: String,
        arguments: String,
        trait_path: String,
        end: usize,
    },
}

struct Collector<'a> {
    file: FileId,
    text: &'a str,
    container: Container,
    /// Whether the container makes its functions generic (an `impl<T>`, a
    /// trait).
    container_generic: bool,
    functions: &'a mut Vec<Function>,
    /// In a `macro_rules!` transcriber.
    in_macro: bool,
    keep_const: &'a KeepConst,
    /// The names of unsized types (see `signature::unsized_types`).
    unsized_types: &'a BTreeSet<String>,
    /// The names the file's module declares or imports at its top.
    module_names: &'a BTreeSet<String>,
}

impl Collector<'_> {
    fn text(&self, range: Range<usize>) -> &str {
        &self.text[range]
    }

    fn range(node: &impl Spanned) -> Range<usize> {
        node.span().byte_range()
    }

    /// `cfg`-like attributes of a container, which its helper items need too.
    fn cfg_attributes(&self, attrs: &[syn::Attribute]) -> String {
        attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
            .map(|a| format!("{} ", self.text(Self::range(a))))
            .collect()
    }

    fn function(
        &mut self,
        attrs: &[syn::Attribute],
        vis: Option<&syn::Visibility>,
        sig: &syn::Signature,
        block: &syn::Block,
        item: Range<usize>,
    ) {
        let signature = Signature::read(self.text, sig);
        let (shape, insert_at) = self.placement(item.end);
        let attribute_const = made_const(attrs);
        let sites = if sig.constness.is_some() || attribute_const || self.in_macro {
            Vec::new()
        } else {
            in_place::sites(block)
        };
        self.functions.push(Function {
            file: self.file,
            item,
            body: Self::range(block),
            name: sig.ident.to_string(),
            name_range: Self::range(&sig.ident),
            dropped: signature::dropped(attrs, vis),
            insert_at,
            shape,
            receiver: signature.receiver,
            params: signature.params,
            turbofish: signature.turbofish,
            is_async: sig.asyncness.is_some(),
            is_unsafe: matches!(sig.safety, syn::Safety::Unsafe(_)),
            declaration: signature.declaration,
            not_copyable: if attribute_const {
                Some("made const by an attribute")
            } else {
                self.not_copyable(sig)
            },
            constness: self.keep_const.dropped(sig, self.text, self.in_macro),
            sites,
            in_macro: self.in_macro,
            generic: instances::is_generic(sig, self.container_generic),
            makes_types: instances::makes_types(block),
        });
    }

    /// Why the function of `sig`, in the container visited, cannot be
    /// copied, if it cannot.
    fn not_copyable(&self, sig: &syn::Signature) -> Option<&'static str> {
        if sig.constness.is_some() && !self.keep_const.may_drop(sig, self.in_macro) {
            Some("a const fn")
        } else if matches!(&sig.output, syn::ReturnType::Type(_, ty) if instances::has_impl_trait(ty))
        {
            Some("returning `impl Trait`")
        } else if sig.variadic.is_some() {
            Some("variadic")
        } else if self.in_macro && sig.ident.to_string().starts_with(PLACEHOLDER) {
            Some("named by a macro fragment")
        } else if self.in_macro && matches!(self.container, Container::Helper { .. }) {
            Some("a trait method in a macro body")
        } else {
            None
        }
    }

    /// Where the copies of a function of the container visited go (its
    /// shape, and the offset), the function's item ending at `item_end`.
    fn placement(&self, item_end: usize) -> (Shape, usize) {
        match &self.container {
            Container::Items => (Shape::Free, item_end),
            Container::Inherent { block, end } => (
                Shape::Inherent {
                    block: block.clone(),
                },
                *end,
            ),
            Container::Helper {
                declaration,
                implementation,
                arguments,
                trait_path,
                end,
            } => (
                Shape::Helper {
                    declaration: declaration.clone(),
                    implementation: implementation.clone(),
                    arguments: arguments.clone(),
                    trait_path: trait_path.clone(),
                },
                *end,
            ),
        }
    }

    /// A module-level `const` or `static` item.
    fn data(
        &mut self,
        keyword: Range<usize>,
        name: &syn::Ident,
        ty: &syn::Type,
        value: &syn::Expr,
        item: Range<usize>,
        mutable: bool,
    ) {
        if self.in_macro || !matches!(self.container, Container::Items) {
            return;
        }
        let not_copyable = mutable.then_some("that is a `static mut`");
        self.functions.push(Function {
            file: self.file,
            insert_at: item.end,
            item,
            body: Self::range(value),
            name: name.to_string(),
            name_range: Self::range(name),
            dropped: Vec::new(),
            shape: Shape::Data {
                ty: self.text(Self::range(ty)).to_string(),
                keyword: keyword.start,
            },
            receiver: false,
            params: Vec::new(),
            turbofish: String::new(),
            is_async: false,
            is_unsafe: false,
            declaration: String::new(),
            not_copyable,
            constness: None,
            sites: Vec::new(),
            in_macro: false,
            generic: false,
            makes_types: false,
        });
    }

    /// Visits the items of a container.
    fn within(&mut self, (container, generic): (Container, bool), walk: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.container, container);
        let outer_generic = std::mem::replace(&mut self.container_generic, generic);
        walk(self);
        self.container = outer;
        self.container_generic = outer_generic;
    }
}

/// The data items among `names` that cannot be woven, and why: some read
/// of them no rewrite reaches (see `data_reads`), in the crate's files or
/// in the files `outside` it; or a file outside that names one cannot be
/// parsed, or has something of its own by that name.
fn unwoven_data(
    sources: &CrateSources,
    outside: &[(PathBuf, String)],
    ours: &[&str],
    names: &BTreeSet<&str>,
) -> Vec<(String, &'static str)> {
    const MISREAD: &str = "read where no rewrite reaches (a `const` context, a pattern)";
    let mut unwoven: Vec<(String, &'static str)> = Vec::new();
    let mut add = |found: BTreeSet<String>, reason: &'static str| {
        unwoven.extend(found.into_iter().map(|name| (name, reason)));
    };
    for (_, source) in sources.iter() {
        add(data_reads::unreached(&source.syntax, names), MISREAD);
    }
    for (_, text) in outside {
        let named = data_reads::words_among(text, names);
        if named.is_empty() {
            continue;
        }
        let Ok(syntax) = source::parse_file(text) else {
            add(
                named.iter().map(|n| n.to_string()).collect(),
                "named in a file of the package that does not parse",
            );
            continue;
        };
        add(data_reads::unreached(&syntax, &named), MISREAD);
        add(
            data_reads::shadowed(&syntax, &named, ours),
            "whose name a test or example of the package gives to something of its own",
        );
    }
    unwoven
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            syn::Item::Const(i) if !is_test_code(&i.attrs) => {
                let keyword = i.const_token.span.byte_range();
                let item = Self::range(i);
                self.data(keyword, &i.ident, &i.ty, &i.expr, item, false);
                return;
            }
            syn::Item::Static(i) if !is_test_code(&i.attrs) => {
                let keyword = i.static_token.span.byte_range();
                let mutable = matches!(i.mutability, syn::StaticMutability::Mut(_));
                let item = Self::range(i);
                self.data(keyword, &i.ident, &i.ty, &i.expr, item, mutable);
                return;
            }
            _ => return,
        };
        if !is_test_code(attrs) {
            visit::visit_item(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.function(
            &item.attrs,
            Some(&item.vis),
            &item.sig,
            &item.block,
            Self::range(item),
        );
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let cfg = self.cfg_attributes(&item.attrs);
        let (generics, arguments, where_clause) = signature::generics(self.text, &item.generics);
        let self_ty = self.text(Self::range(&item.self_ty)).to_string();
        let end = Self::range(item).end;
        let container = match &item.trait_ {
            None => Container::Inherent {
                block: format!("\n{cfg}impl{generics} {self_ty} {where_clause} {{ {{}} }}"),
                end,
            },
            Some((path, _)) => {
                let trait_path = self.text(Self::range(path)).to_string();
                let where_clause = signature::with_implied_bounds(
                    &where_clause,
                    &item.generics,
                    &item.self_ty,
                    path,
                    self.unsized_types,
                );
                Container::Helper {
                    declaration: format!(
                        "\n{cfg}#[allow(non_camel_case_types)] trait {{}}{generics}: {trait_path} {where_clause} {{ {{}} }}"
                    ),
                    implementation: format!(
                        "\n{cfg}impl{generics} {{}}{arguments} for {self_ty} {where_clause} {{ {{}} }}"
                    ),
                    arguments,
                    trait_path: signature::use_path(path, self.module_names),
                    end,
                }
            }
        };
        let generic = instances::generic_impl(&item.generics);
        self.within((container, generic), |this| {
            for impl_item in &item.items {
                if let syn::ImplItem::Fn(f) = impl_item
                    && !is_test_code(&f.attrs)
                {
                    this.function(&f.attrs, Some(&f.vis), &f.sig, &f.block, Self::range(f));
                }
            }
        });
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        let cfg = self.cfg_attributes(&item.attrs);
        let (generics, arguments, where_clause) = signature::generics(self.text, &item.generics);
        let name = item.ident.to_string();
        // The blanket implementation's own parameter goes after the trait's.
        let blanket = match generics.strip_suffix('>') {
            Some(open) => format!("{open}, __AutofixSelf: {name}{arguments} + ?Sized>"),
            None => format!("<__AutofixSelf: {name}{arguments} + ?Sized>"),
        };
        let container = Container::Helper {
            declaration: format!(
                "\n{cfg}#[allow(non_camel_case_types)] trait {{}}{generics}: {name}{arguments} {where_clause} {{ {{}} }}"
            ),
            implementation: format!(
                "\n{cfg}impl{blanket} {{}}{arguments} for __AutofixSelf {where_clause} {{ {{}} }}"
            ),
            arguments,
            trait_path: name,
            end: Self::range(item).end,
        };
        self.within((container, true), |this| {
            for trait_item in &item.items {
                if let syn::TraitItem::Fn(f) = trait_item
                    && let Some(block) = &f.default
                    && !is_test_code(&f.attrs)
                {
                    this.function(&f.attrs, None, &f.sig, block, Self::range(f));
                }
            }
        });
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.within((Container::Items, false), |this| {
            visit::visit_item_mod(this, item)
        });
    }

    /// The items of each transcriber that parses (see `code::macro_body`).
    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        if self.in_macro || is_test_code(&item.attrs) {
            return;
        }
        for rule in macro_rules(item) {
            for stmt in rule.body.iter().flatten() {
                if let syn::Stmt::Item(inner) = stmt {
                    self.in_macro = true;
                    self.within((Container::Items, false), |this| this.visit_item(inner));
                    self.in_macro = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
