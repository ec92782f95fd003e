//! Reads of the crate's data items (module-level `const` and `static`).
//!
//! A woven build makes a data item a `static` built lazily by the variant
//! the switch selects, so its type is no longer the item's. Every read of
//! it in code that runs (a function body, a closure) is rewritten to read
//! through the lazy static: `NAME` becomes `(*NAME)`, and so do module
//! paths to it (`crate::limits::NAME`, `max::NAME`) and reads in macro
//! arguments. A format string that names it (`"{NAME}"`) formats it
//! through the lazy static. A read no rewrite reaches keeps the item from
//! being woven: in a `const` context (another item's value, an array
//! length, a `const fn`), in a pattern, as a format string's width or
//! precision (`"{:NAME$}"`), or in a path that names something else too
//! (`other::NAME` outside code that runs).
//!
//! Names are matched as names: a path whose first segment is a type
//! (`u32::MAX`, `Self::MAX`) or the standard library names something else,
//! and so does a field or method of that name.

use std::collections::BTreeSet;
use std::ops::Range;

use proc_macro2::{Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::code::source::item_name;
use crate::code::{Mention, mentions, words};

/// Where the items named `names` are read in one file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reads {
    /// Reads in code that runs, to rewrite as `(*...)`: each a path's bytes.
    pub wrap: Vec<Range<usize>>,
    /// Names that name something else here (a type's associated item, a
    /// field, an import): left as they are.
    kept: Vec<Range<usize>>,
}

/// The reads of the items named `names` in `syntax` (the module holding the
/// switch runtime, `__autofix_schema`, aside).
pub fn reads(syntax: &syn::File, names: &BTreeSet<&str>) -> Reads {
    let mut finder = Finder {
        names,
        runtime: false,
        reads: Reads::default(),
    };
    finder.visit_file(syntax);
    finder.reads
}

/// The names among `names` that `text` holds as words (runs of letters,
/// digits and `_`): those it may read.
pub fn words_among<'n>(text: &str, names: &BTreeSet<&'n str>) -> BTreeSet<&'n str> {
    words(text)
        .filter_map(|word| names.get(word).copied())
        .collect()
}

/// The names among `names` that `syntax` reads where no rewrite reaches.
pub fn unreached(syntax: &syn::File, names: &BTreeSet<&str>) -> BTreeSet<String> {
    let reads = reads(syntax, names);
    let reached = |range: &Range<usize>| {
        reads
            .wrap
            .iter()
            .chain(&reads.kept)
            .any(|r| r.start <= range.start && range.end <= r.end)
    };
    // A width or precision (`{:NAME$}`) must be a `usize`; a value
    // (`{NAME}`, `{NAME:?}`) formats through the lazy static.
    mentions(syntax.to_token_stream(), names)
        .into_iter()
        .filter(|(_, mention)| match mention {
            Mention::Word(range) => !reached(range),
            Mention::Formatted => false,
            Mention::Width => true,
        })
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The names among `names` that `syntax` gives to something of its own:
/// an item, a binding, a generic `const` parameter, or an import (a glob
/// import: any name) from a path whose first segment is not among `ours`
/// (the crate's name, or `crate`, `self`, `super` in the crate's own
/// files). A rewritten read there would read that instead.
pub fn shadowed(syntax: &syn::File, names: &BTreeSet<&str>, ours: &[&str]) -> BTreeSet<String> {
    let mut finder = Shadows {
        names,
        ours,
        prefix: Vec::new(),
        shadowed: BTreeSet::new(),
    };
    finder.visit_file(syntax);
    finder.shadowed
}

struct Shadows<'a> {
    names: &'a BTreeSet<&'a str>,
    ours: &'a [&'a str],
    /// The segments of the `use` tree being visited, so far.
    prefix: Vec<String>,
    shadowed: BTreeSet<String>,
}

impl Shadows<'_> {
    fn declares(&mut self, ident: &proc_macro2::Ident) {
        let name = ident.to_string();
        if self.names.contains(name.as_str()) {
            self.shadowed.insert(name);
        }
    }

    /// Whether the `use` path being visited starts at the crate.
    fn starts_at_ours(&self) -> bool {
        self.prefix
            .first()
            .is_some_and(|first| self.ours.contains(&first.as_str()))
    }

    /// An import of `original` as `binding` (the same name unless renamed).
    fn imports(&mut self, original: &proc_macro2::Ident, binding: &proc_macro2::Ident) {
        if !self.starts_at_ours() || original != binding {
            self.declares(binding);
        }
    }
}

impl<'ast> Visit<'ast> for Shadows<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if let Some(ident) = item_name(item) {
            self.declares(ident);
        }
        visit::visit_item(self, item);
    }
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.declares(&p.ident);
        visit::visit_pat_ident(self, p);
    }
    fn visit_const_param(&mut self, p: &'ast syn::ConstParam) {
        self.declares(&p.ident);
    }
    fn visit_use_path(&mut self, u: &'ast syn::UsePath) {
        self.prefix.push(u.ident.to_string());
        self.visit_use_tree(&u.tree);
        self.prefix.pop();
    }
    fn visit_use_name(&mut self, u: &'ast syn::UseName) {
        self.imports(&u.ident, &u.ident);
    }
    fn visit_use_rename(&mut self, u: &'ast syn::UseRename) {
        self.imports(&u.ident, &u.rename);
    }
    fn visit_use_glob(&mut self, _: &'ast syn::UseGlob) {
        // Another crate's glob may bring any of the names.
        if !self.starts_at_ours() {
            self.shadowed
                .extend(self.names.iter().map(|n| n.to_string()));
        }
    }
}

/// What a path ending in one of the names is.
#[derive(Debug, PartialEq, Eq)]
enum Path {
    /// The crate's item, maybe: a bare name or a path through modules.
    Ours,
    /// Something else's: a type's or the standard library's.
    Theirs,
}

/// A path's segments (the last one a name): whose item it names.
fn classify(leading_colon: bool, segments: &[String]) -> Path {
    const PRIMITIVES: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "f32", "f64", "bool", "char", "str", "std", "core", "alloc",
    ];
    let first = &segments[0];
    let theirs = leading_colon
        || (segments.len() > 1
            && (PRIMITIVES.contains(&first.as_str())
                || first.starts_with(|c: char| c.is_ascii_uppercase())));
    if theirs { Path::Theirs } else { Path::Ours }
}

struct Finder<'a> {
    names: &'a BTreeSet<&'a str>,
    /// Whether the code being visited runs (not evaluated at compile time,
    /// not a pattern or a type).
    runtime: bool,
    reads: Reads,
}

impl Finder<'_> {
    fn with(&mut self, runtime: bool, visit: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.runtime, runtime);
        visit(self);
        self.runtime = outer;
    }

    fn note(&mut self, path: Path, range: Range<usize>) {
        match path {
            Path::Ours if self.runtime => self.reads.wrap.push(range),
            Path::Ours => {}
            Path::Theirs => self.reads.kept.push(range),
        }
    }

    /// A macro's tokens, as far as they read the names: a name (or a path
    /// ending in one) that is not a field, a method, a module or a macro.
    fn tokens(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |i: usize, c: char| matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let path_sep = |i: usize| {
            // `::` as tokens i and i + 1.
            matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
                && punct(i + 1, ':')
        };
        for (i, token) in tokens.iter().enumerate() {
            match token {
                TokenTree::Group(group) => self.tokens(group.stream()),
                TokenTree::Ident(ident) if self.names.contains(ident.to_string().as_str()) => {
                    let end = ident.span().byte_range().end;
                    let mut segments = vec![ident.to_string()];
                    let mut start = i;
                    while start >= 3 && path_sep(start - 2) {
                        let TokenTree::Ident(segment) = &tokens[start - 3] else {
                            break;
                        };
                        segments.insert(0, segment.to_string());
                        start -= 3;
                    }
                    let leading_colon = start >= 2 && path_sep(start - 2);
                    let begin = tokens[start].span().byte_range().start;
                    let named_else =
                        (i > 0 && punct(i - 1, '.')) || path_sep(i + 1) || punct(i + 1, '!');
                    let path = if named_else {
                        Path::Theirs
                    } else {
                        classify(leading_colon, &segments)
                    };
                    self.note(path, begin..end);
                }
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.with(f.sig.constness.is_none(), |v| visit::visit_item_fn(v, f));
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.with(f.sig.constness.is_none(), |v| {
            visit::visit_impl_item_fn(v, f)
        });
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.with(f.sig.constness.is_none(), |v| {
            visit::visit_trait_item_fn(v, f)
        });
    }
    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        for input in &c.inputs {
            self.visit_pat(input);
        }
        self.with(true, |v| v.visit_expr(&c.body));
    }
    fn visit_item_const(&mut self, c: &'ast syn::ItemConst) {
        self.with(false, |v| visit::visit_item_const(v, c));
    }
    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        self.with(false, |v| visit::visit_item_static(v, s));
    }
    fn visit_impl_item_const(&mut self, c: &'ast syn::ImplItemConst) {
        self.with(false, |v| visit::visit_impl_item_const(v, c));
    }
    fn visit_trait_item_const(&mut self, c: &'ast syn::TraitItemConst) {
        self.with(false, |v| visit::visit_trait_item_const(v, c));
    }
    fn visit_expr_const(&mut self, c: &'ast syn::ExprConst) {
        self.with(false, |v| visit::visit_expr_const(v, c));
    }
    fn visit_expr_repeat(&mut self, r: &'ast syn::ExprRepeat) {
        self.visit_expr(&r.expr);
        self.with(false, |v| v.visit_expr(&r.len));
    }
    fn visit_type(&mut self, t: &'ast syn::Type) {
        self.with(false, |v| visit::visit_type(v, t));
    }
    fn visit_pat(&mut self, p: &'ast syn::Pat) {
        self.with(false, |v| visit::visit_pat(v, p));
    }
    fn visit_generic_argument(&mut self, a: &'ast syn::GenericArgument) {
        self.with(false, |v| visit::visit_generic_argument(v, a));
    }
    fn visit_variant(&mut self, variant: &'ast syn::Variant) {
        self.with(false, |v| visit::visit_variant(v, variant));
    }
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if m.ident != "__autofix_schema" {
            visit::visit_item_mod(self, m);
        }
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        // An import names the item, whatever it is: `use` works on a
        // static as on a `const`.
        self.reads.kept.push(u.span().byte_range());
    }
    fn visit_expr_path(&mut self, e: &'ast syn::ExprPath) {
        let segments: Vec<String> = e
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let Some(last) = segments.last() else {
            return;
        };
        if !self.names.contains(last.as_str()) {
            return;
        }
        let plain = e.qself.is_none() && e.path.segments.iter().all(|s| s.arguments.is_none());
        let path = if plain {
            classify(e.path.leading_colon.is_some(), &segments)
        } else {
            Path::Theirs
        };
        self.note(path, e.path.span().byte_range());
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // Macros whose arguments hold a pattern: no rewrite for them.
        const PATTERNS: &[&str] = &["matches", "assert_matches", "debug_assert_matches"];
        let patterns = m
            .path
            .segments
            .last()
            .is_some_and(|s| PATTERNS.iter().any(|p| s.ident == p));
        let runtime = self.runtime && !patterns;
        self.with(runtime, |v| v.tokens(m.tokens.clone()));
    }
    fn visit_field_value(&mut self, f: &'ast syn::FieldValue) {
        // `S { NAME }` cannot become `S { (*NAME) }`.
        if f.colon_token.is_some() {
            visit::visit_field_value(self, f);
        }
    }
    fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
        // Not in an expression path: an item's or a field's own name, a
        // method, a type.
        if self.names.contains(i.to_string().as_str()) {
            self.reads.kept.push(i.span().byte_range());
        }
    }
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        // A bare name in a pattern may be the item itself (a `const`
        // pattern): no rewrite reaches it.
        if let Some((_, subpattern)) = &p.subpat {
            self.visit_pat(subpattern);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::parse_file;

    fn names<'a>(names: &[&'a str]) -> BTreeSet<&'a str> {
        names.iter().copied().collect()
    }

    fn wrapped<'t>(text: &'t str, of: &[&str]) -> Vec<&'t str> {
        let syntax = parse_file(text).unwrap();
        reads(&syntax, &names(of))
            .wrap
            .iter()
            .map(|r| &text[r.clone()])
            .collect()
    }

    #[test]
    fn reads_in_code_that_runs_are_wrapped_paths_and_macro_arguments_included() {
        let text = "mod max { pub(super) const SECONDS: u64 = 9; }\nconst LIMIT: u8 = 3;\nfn f(x: u8) -> u8 {\n    let n = u8::MAX.min(LIMIT);\n    assert_eq!(x, crate::LIMIT);\n    let g = |y: u8| y + self::LIMIT;\n    if u64::from(x) > max::SECONDS { Self::LIMIT } else { g(LIMIT) + n.LIMIT }\n}\n";
        assert_eq!(
            wrapped(text, &["LIMIT", "SECONDS"]),
            [
                "LIMIT",
                "crate::LIMIT",
                "self::LIMIT",
                "max::SECONDS",
                "LIMIT"
            ]
        );
    }

    #[test]
    fn reads_no_rewrite_reaches_keep_the_item_as_it_is() {
        let text = "use crate::limits::WIDE;\nconst A: u8 = 1;\nconst B: u8 = A + 1;\nconst C: usize = 2;\nconst D: u8 = 4;\nconst E: usize = 5;\nconst F: u8 = 6;\nconst G: u8 = 7;\nconst H: u8 = 8;\nconst I: u8 = 9;\nconst J: u8 = 10;\nconst K: u8 = 11;\nfn f(x: u8) -> u8 {\n    let _ = [0u8; C];\n    let _ = u8::MAX + x.G + WIDE;\n    println!(\"{K:?} {x:E$}\");\n    let _ = S { I, J: 1 };\n    if matches!(x, J) { 0 } else { match x { D => 1, _ => F } }\n}\nconst fn h() -> u8 { H }\n";
        let syntax = parse_file(text).unwrap();
        let all = names(&[
            "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "MAX", "WIDE",
        ]);
        let unreached: Vec<String> = unreached(&syntax, &all).into_iter().collect();
        // A in a `const`, C an array length, D a pattern, E a format
        // string's width, H a `const fn`, I a shorthand field, J a pattern
        // in a macro; F is read where a rewrite reaches, G is a field (and
        // J too, once), K formatted (through the lazy static), MAX a
        // type's, WIDE imported and read.
        assert_eq!(unreached, ["A", "C", "D", "E", "H", "I", "J"]);
    }

    #[test]
    fn a_file_shadows_the_names_it_gives_to_something_of_its_own() {
        let text = "use c::{A, B as Bee};\nuse other::C;\nuse c::limits::D as E;\nuse super::F;\nconst G: u8 = 1;\nfn h<const H: usize>() { let I = 2; match 3 { J => {} } }\nmod K {}\n";
        let syntax = parse_file(text).unwrap();
        let all = names(&[
            "A", "B", "Bee", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L",
        ]);
        let found: Vec<String> = shadowed(&syntax, &all, &["c", "super"])
            .into_iter()
            .collect();
        // A and F are the crate's, imported; B is imported as Bee, and D
        // as E; C comes from another crate; the rest are declared here.
        assert_eq!(found, ["Bee", "C", "E", "G", "H", "I", "J", "K"]);
        let globbed = parse_file("use std::f64::consts::*;\nuse c::*;\n").unwrap();
        assert_eq!(
            shadowed(&globbed, &names(&["PI"]), &["c"]),
            BTreeSet::from(["PI".to_string()])
        );
        let ours = parse_file("use c::*;\nuse super::*;\n").unwrap();
        assert!(shadowed(&ours, &names(&["PI"]), &["c", "super"]).is_empty());
    }
}
