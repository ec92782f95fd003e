//! The crate's items, read before any runnable code: the literals of
//! `const` and `static` items as sites (data, ranked by the code that reads
//! it: `reads_of`), and what the crate declares that the sites of runnable
//! code are checked against (module-level items, struct fields, enums,
//! methods), with the constants its struct literals give each field (what
//! a reset sets a field back to).

use std::collections::{BTreeMap, BTreeSet};

use syn::spanned::Spanned;
use syn::{Expr, Stmt};

use super::literal::literal;
use super::{Constant, Declared, MutationSpace, Site, SiteKind};
use crate::code::source::{FileId, Location};
use crate::code::{
    CrateSources, RunnableCode, Scope, is_test_code, mentions, type_name, walk_runnable_code,
    without_spaces,
};

/// The literals of `const` and `static` items (outside test code) as
/// sites, and the items as [`Constant`]s; and what the file declares
/// (see `Finder`).
pub(super) fn collect_constants(
    file: FileId,
    syntax: &syn::File,
    space: &mut MutationSpace,
    excluded: &dyn Fn(&str) -> bool,
) {
    let mut finder = Finder {
        file,
        space,
        excluded,
        depth: 0,
        owner: None,
    };
    syn::visit::Visit::visit_file(&mut finder, syntax);
}

/// The longest value of a data item whose literals are sites. Each edit of
/// a data item weaves a copy of all of it, so the edits of a longer one (a
/// generated table: cfg-expr's 88 KB list of targets, 2,000 literals) made a
/// woven file of hundreds of megabytes; such an item is ranked, not edited,
/// and its literals are not offered as the crate's.
const DATA_LIMIT: usize = 16 * 1024;

/// The visitor of `collect_constants`: `const` and `static` items with
/// literals, module-level items, struct fields, enums and the methods
/// declared in `impl` blocks and traits.
struct Finder<'a> {
    file: FileId,
    space: &'a mut MutationSpace,
    excluded: &'a dyn Fn(&str) -> bool,
    /// Inline modules and functions around the item.
    depth: usize,
    /// The type of the `impl` block around the item: what `Self` names.
    owner: Option<String>,
}

impl Finder<'_> {
    /// A method or associated function of `owner`.
    fn declare(&mut self, owner: &str, sig: &syn::Signature) {
        let receiver = sig.receiver().is_some();
        // `&self` (not `&mut self`, `self`, or `self: Box<Self>`).
        let reads_only = sig
            .receiver()
            .is_some_and(|r| matches!(r.kind, syn::ReceiverKind::Reference(_, _, None)));
        let declared = Declared {
            owner: owner.to_string(),
            receiver,
            reads_only,
            arguments: sig.inputs.len() - usize::from(receiver),
            returns: match &sig.output {
                syn::ReturnType::Default => String::new(),
                syn::ReturnType::Type(_, ty) => without_spaces(ty),
            },
        };
        let all = self
            .space
            .declared
            .entry(sig.ident.to_string())
            .or_default();
        if !all.contains(&declared) {
            all.push(declared);
        }
    }

    fn item(&mut self, attrs: &[syn::Attribute], name: &syn::Ident, ty: &syn::Type) {
        if self.depth == 0 && !is_test_code(attrs) {
            let items = self.space.items.entry(self.file).or_default();
            items.insert(name.to_string(), without_spaces(ty));
        }
    }

    fn constant(
        &mut self,
        item: &impl quote::ToTokens,
        attrs: &[syn::Attribute],
        name: &syn::Ident,
        ty: Option<&syn::Type>,
        value: &Expr,
    ) {
        let name = name.to_string();
        if is_test_code(attrs) || (self.excluded)(&name) {
            return;
        }
        let mut literals = Vec::new();
        syn::visit::Visit::visit_expr(&mut Literals(&mut literals), value);
        let Some(line) = crate::code::start_line(item) else {
            return;
        };
        let mut found = false;
        let generated = value.span().byte_range().len() > DATA_LIMIT;
        for lit in literals {
            let Some(literal) = literal(&lit.lit) else {
                continue;
            };
            found = true;
            if generated {
                continue;
            }
            self.space.literals.push(literal.clone());
            self.space.sites.push(Site {
                file: self.file,
                line,
                bound: Vec::new(),
                statement: None,
                function: name.clone(),
                function_line: 0,
                returns: None,
                self_type: None,
                kind: SiteKind::Literal {
                    range: lit.span().byte_range(),
                    literal,
                    data: true,
                    operand: false,
                },
            });
        }
        if found {
            self.space.constants.push(Constant {
                name,
                location: Location::new(self.file, line),
                last_line: value.span().end().line as u32,
                ty: ty.map(without_spaces),
                read_at: BTreeSet::new(),
            });
        }
    }
}

/// The text of a value that reads nothing but constants: a literal
/// (`0`, `-1`, `false`), a path (`None`, `Mode::Idle`), or a new or
/// default value (`Vec::new()`, `Default::default()`: not `Instant::now()`).
pub fn constant_value(value: &Expr) -> Option<String> {
    use quote::ToTokens;
    match value {
        Expr::Lit(lit) => Some(lit.lit.to_token_stream().to_string()),
        Expr::Unary(neg) if matches!(neg.op, syn::UnOp::Neg(_)) => {
            matches!(&*neg.expr, Expr::Lit(_)).then(|| without_spaces(neg))
        }
        Expr::Path(path) if path.qself.is_none() => {
            let first = path.path.segments.first()?.ident.to_string();
            let constant = path.path.segments.len() > 1 || first.starts_with(char::is_uppercase);
            constant.then(|| without_spaces(path))
        }
        Expr::Call(call) if call.args.is_empty() => {
            let Expr::Path(path) = &*call.func else {
                return None;
            };
            let last = path.path.segments.last()?.ident.to_string();
            (last == "new" || last == "default").then(|| without_spaces(call))
        }
        _ => None,
    }
}

/// The literals of an item's value (not of its types).
struct Literals<'a, 'ast>(&'a mut Vec<&'ast syn::ExprLit>);

impl<'ast> syn::visit::Visit<'ast> for Literals<'_, 'ast> {
    fn visit_expr_lit(&mut self, lit: &'ast syn::ExprLit) {
        self.0.push(lit);
    }
    // Array lengths and the like are types, not data.
    fn visit_type(&mut self, _: &'ast syn::Type) {}
    fn visit_expr_repeat(&mut self, repeat: &'ast syn::ExprRepeat) {
        self.visit_expr(&repeat.expr);
    }
}

impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        self.item(&item.attrs, &item.ident, &item.ty);
        self.constant(item, &item.attrs, &item.ident, Some(&item.ty), &item.expr);
    }
    fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
        // A `static mut` is named only in `unsafe` code: no stand-in.
        if matches!(item.mutability, syn::StaticMutability::None) {
            self.item(&item.attrs, &item.ident, &item.ty);
        }
        self.constant(item, &item.attrs, &item.ident, Some(&item.ty), &item.expr);
    }
    fn visit_impl_item_const(&mut self, item: &'ast syn::ImplItemConst) {
        self.constant(item, &item.attrs, &item.ident, None, &item.expr);
    }
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        if is_test_code(&item.attrs) {
            return;
        }
        let fields = self
            .space
            .struct_fields
            .entry(item.ident.to_string())
            .or_default();
        // A tuple struct's fields are named by their index (`self.1`).
        let names: Vec<String> = item
            .fields
            .iter()
            .enumerate()
            .map(|(at, field)| {
                field
                    .ident
                    .as_ref()
                    .map_or(at.to_string(), ToString::to_string)
            })
            .collect();
        for (name, field) in names.iter().zip(&item.fields) {
            fields.push((name.clone(), without_spaces(&field.ty)));
        }
        // Fields of one struct with the same type stand for each other.
        let mut by_type: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, field) in names.iter().zip(&item.fields) {
            by_type
                .entry(without_spaces(&field.ty))
                .or_default()
                .push(name.clone());
        }
        for names in by_type.values() {
            for name in names {
                let siblings = self.space.fields.entry(name.clone()).or_default();
                siblings.extend(names.iter().filter(|n| *n != name).cloned());
            }
        }
    }
    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        if is_test_code(&item.attrs) {
            return;
        }
        let variants = item.variants.iter().map(|variant| {
            let name = variant.ident.to_string();
            match &variant.fields {
                syn::Fields::Unit => name,
                syn::Fields::Unnamed(_) => format!("{name}(..)"),
                syn::Fields::Named(_) => format!("{name} {{ .. }}"),
            }
        });
        self.space
            .enums
            .entry(item.ident.to_string())
            .or_default()
            .extend(variants);
    }
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_code(&item.attrs) {
            self.depth += 1;
            syn::visit::visit_item_mod(self, item);
            self.depth -= 1;
        }
    }
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test_code(&item.attrs) {
            self.depth += 1;
            syn::visit::visit_item_fn(self, item);
            self.depth -= 1;
        }
    }
    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if is_test_code(&item.attrs) {
            return;
        }
        let owner = type_name(&item.self_ty);
        if let Some(owner) = &owner {
            for method in item.items.iter().filter_map(|i| match i {
                syn::ImplItem::Fn(f) => Some(&f.sig),
                _ => None,
            }) {
                self.declare(owner, method);
            }
        }
        let outer = std::mem::replace(&mut self.owner, owner);
        syn::visit::visit_item_impl(self, item);
        self.owner = outer;
    }
    fn visit_expr_struct(&mut self, literal: &'ast syn::ExprStruct) {
        let named = match literal.path.get_ident() {
            Some(name) if name == "Self" => self.owner.clone(),
            name => name.map(ToString::to_string),
        };
        if let Some(owner) = named {
            let fields = literal
                .fields
                .iter()
                .filter_map(|field| match &field.member {
                    syn::Member::Named(name) => {
                        Some((name.to_string(), constant_value(&field.expr)))
                    }
                    syn::Member::Unnamed(_) => None,
                });
            let literals = self.space.struct_literals.entry(owner).or_default();
            literals.push(fields.collect());
        }
        syn::visit::visit_expr_struct(self, literal);
    }
    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        if is_test_code(&item.attrs) {
            return;
        }
        let owner = item.ident.to_string();
        for method in item.items.iter().filter_map(|i| match i {
            syn::TraitItem::Fn(f) => Some(&f.sig),
            _ => None,
        }) {
            self.declare(&owner, method);
        }
        syn::visit::visit_item_trait(self, item);
    }
    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.depth += 1;
        syn::visit::visit_impl_item_fn(self, item);
        self.depth -= 1;
    }
}

/// Where runnable code names each of `constants`: a path ending in its
/// name, or a macro call that mentions it (see `code::mentions`: as a
/// word or in a format string).
pub(super) fn reads_of(
    sources: &CrateSources,
    constants: &[Constant],
) -> BTreeMap<String, BTreeSet<Location>> {
    struct Reads<'a> {
        file: FileId,
        names: &'a BTreeSet<&'a str>,
        reads: BTreeMap<String, BTreeSet<Location>>,
    }
    impl Reads<'_> {
        fn read(&mut self, name: &str, scope: &Scope) {
            if self.names.contains(name) {
                self.reads
                    .entry(name.to_string())
                    .or_default()
                    .insert(Location::new(self.file, scope.location));
            }
        }

        fn macro_call(&mut self, mac: &syn::Macro, scope: &Scope) {
            for (name, _) in mentions(mac.tokens.clone(), self.names) {
                self.read(name, scope);
            }
        }
    }
    impl RunnableCode for Reads<'_> {
        fn statement(&mut self, stmt: &Stmt, scope: &Scope) {
            if let Stmt::Macro(m) = stmt {
                self.macro_call(&m.mac, scope);
            }
        }
        fn expression(&mut self, expr: &Expr, scope: &Scope) {
            match expr {
                Expr::Path(path) => {
                    if let Some(last) = path.path.segments.last() {
                        self.read(&last.ident.to_string(), scope);
                    }
                }
                Expr::Macro(m) => self.macro_call(&m.mac, scope),
                _ => {}
            }
        }
    }
    let names: BTreeSet<&str> = constants.iter().map(|c| c.name.as_str()).collect();
    let mut visitor = Reads {
        file: FileId::new(0),
        names: &names,
        reads: BTreeMap::new(),
    };
    for (file, source) in sources.iter() {
        visitor.file = file;
        walk_runnable_code(&source.syntax, &mut visitor);
    }
    visitor.reads
}
