//! Coverage probes: a call into a small runtime before every statement of
//! every non-test function, so each test run reports the lines it executed.
//!
//! Probes are inserted as text edits into the original source, on the same
//! line as the statement they precede, so line numbers (in panic messages
//! and compiler errors) stay those of the original file. Besides statements,
//! an `else if` condition, a match arm whose body is an expression, and a
//! closure whose body is an expression get probes of their own.
//!
//! Left alone: `const fn`s and other const contexts, test code, and
//! everything inside macro invocations (statements that are macro calls get
//! a probe before them, but their tokens are not touched).

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::crate_sources::{CrateSources, is_test_code};
use crate::source::{Edit, LineIndex, Location, splice};

/// The environment variable that names a test run's coverage file.
pub const COVERAGE_ENV: &str = "CARGO_AUTOFIX_COVERAGE";

const RUNTIME: &str = include_str!("instrument/runtime.rs");

/// Where each probe is: `locations[id]`.
#[derive(Debug, Clone, Default)]
pub struct ProbeMap {
    pub locations: Vec<Location>,
}

/// The instrumented text of every crate source file.
#[derive(Debug)]
pub struct Instrumented {
    pub probes: ProbeMap,
    /// `(index into CrateSources::files, instrumented text)`.
    pub files: Vec<(usize, String)>,
}

/// Instruments every file of `sources`, numbering probes across all files.
pub fn instrument(sources: &CrateSources) -> Instrumented {
    let mut probes = ProbeMap::default();
    let mut edits_per_file = Vec::new();
    for (index, file) in sources.files.iter().enumerate() {
        let mut visitor = ProbeInserter {
            file: &file.path,
            lines: LineIndex::new(&file.text),
            probes: &mut probes,
            edits: Vec::new(),
            runnable: false,
        };
        visitor.visit_file(&file.syntax);
        edits_per_file.push((index, visitor.edits));
    }
    let files = edits_per_file
        .into_iter()
        .map(|(index, mut edits)| {
            let file = &sources.files[index];
            if sources.roots.contains(&index) {
                edits.push(Edit::insert(
                    file.text.len(),
                    runtime_module(probes.locations.len(), is_no_std(&file.syntax)),
                ));
            }
            let text = splice(&file.text, &edits).expect("probe insertions never overlap");
            (index, text)
        })
        .collect();
    Instrumented { probes, files }
}

/// The runtime module to append to a crate root.
fn runtime_module(probe_count: usize, no_std: bool) -> String {
    let sized = RUNTIME.replace(
        "const PROBES: usize = 1;",
        &format!("const PROBES: usize = {};", probe_count.max(1)),
    );
    let with_std = if no_std {
        sized.replace(
            "pub(crate) mod __autofix_rt {\n",
            "pub(crate) mod __autofix_rt {\n    extern crate std;\n",
        )
    } else {
        sized
    };
    format!("\n{with_std}")
}

fn is_no_std(file: &syn::File) -> bool {
    file.attrs.iter().any(|attr| attr.path().is_ident("no_std"))
}

fn probe_call(id: usize) -> String {
    format!("crate::__autofix_rt::hit({id});")
}

struct ProbeInserter<'a> {
    file: &'a PathBuf,
    lines: LineIndex,
    probes: &'a mut ProbeMap,
    edits: Vec<Edit>,
    /// Inside the body of a function that runs at run time (not const).
    runnable: bool,
}

impl ProbeInserter<'_> {
    fn new_probe(&mut self, line_span: Span) -> usize {
        let line = self.lines.line_of(line_span.byte_range().start);
        self.probes.locations.push(Location {
            file: self.file.clone(),
            line,
        });
        self.probes.locations.len() - 1
    }

    /// A probe statement right before `node` (before its attributes).
    fn probe_before(&mut self, node: &impl ToTokens) {
        let Some(first) = first_token_after_attributes(node.to_token_stream()) else {
            return;
        };
        let id = self.new_probe(first);
        let at = node.span().byte_range().start;
        self.edits.push(Edit::insert(at, probe_call(id)));
    }

    /// `expr` becomes `{ probe; expr }`; the probe's line is that of `line_of`.
    fn wrap_in_block(&mut self, expr: &syn::Expr, line_of: Span) {
        let id = self.new_probe(line_of);
        let range = expr.span().byte_range();
        self.edits
            .push(Edit::insert(range.start, format!("{{ {} ", probe_call(id))));
        self.edits.push(Edit::insert(range.end, " }"));
    }

    fn in_runnable_body(&mut self, runnable: bool, walk: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.runnable, runnable);
        walk(self);
        self.runnable = outer;
    }
}

/// The span of the first token that is not part of an outer attribute.
fn first_token_after_attributes(tokens: TokenStream) -> Option<Span> {
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match &token {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                if let Some(TokenTree::Group(_)) = tokens.peek() {
                    tokens.next();
                    continue;
                }
                return Some(token.span());
            }
            _ => return Some(token.span()),
        }
    }
    None
}

impl<'ast> Visit<'ast> for ProbeInserter<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if item_attrs(item).is_some_and(is_test_code) {
            return;
        }
        visit::visit_item(self, item);
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        let runnable = item.sig.constness.is_none();
        self.in_runnable_body(runnable, |this| this.visit_block(&item.block));
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Fn(f) => &f.attrs,
            syn::ImplItem::Const(c) => &c.attrs,
            syn::ImplItem::Type(t) => &t.attrs,
            syn::ImplItem::Macro(m) => &m.attrs,
            _ => return,
        };
        if is_test_code(attrs) {
            return;
        }
        visit::visit_impl_item(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        let runnable = item.sig.constness.is_none();
        self.in_runnable_body(runnable, |this| this.visit_block(&item.block));
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if is_test_code(&item.attrs) {
            return;
        }
        if let Some(block) = &item.default {
            let runnable = item.sig.constness.is_none();
            self.in_runnable_body(runnable, |this| this.visit_block(block));
        }
    }

    // Const contexts: no probe may run there.
    fn visit_item_const(&mut self, _: &'ast syn::ItemConst) {}
    fn visit_item_static(&mut self, _: &'ast syn::ItemStatic) {}
    fn visit_impl_item_const(&mut self, _: &'ast syn::ImplItemConst) {}
    fn visit_trait_item_const(&mut self, _: &'ast syn::TraitItemConst) {}
    fn visit_item_enum(&mut self, _: &'ast syn::ItemEnum) {}
    fn visit_type(&mut self, _: &'ast syn::Type) {}
    fn visit_expr_const(&mut self, _: &'ast syn::ExprConst) {}
    fn visit_generic_argument(&mut self, _: &'ast syn::GenericArgument) {}
    fn visit_expr_repeat(&mut self, expr: &'ast syn::ExprRepeat) {
        self.visit_expr(&expr.expr);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        if self.runnable {
            for stmt in &block.stmts {
                if !matches!(stmt, syn::Stmt::Item(_)) {
                    self.probe_before(stmt);
                }
            }
        }
        visit::visit_block(self, block);
    }

    fn visit_expr_if(&mut self, expr: &'ast syn::ExprIf) {
        // `else if c {..}` becomes `else { probe; if c {..} }`: the condition
        // of an `else if` is a location of its own.
        if self.runnable
            && let Some((_, else_branch)) = &expr.else_branch
            && let syn::Expr::If(nested) = else_branch.as_ref()
        {
            self.wrap_in_block(else_branch, nested.if_token.span);
        }
        visit::visit_expr_if(self, expr);
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if self.runnable && !matches!(arm.body.as_ref(), syn::Expr::Block(_)) {
            if let Some(first) = first_token_after_attributes(arm.body.to_token_stream()) {
                self.wrap_in_block(&arm.body, first);
            }
        }
        visit::visit_arm(self, arm);
    }

    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        if closure.constness.is_some() {
            return;
        }
        if self.runnable && !matches!(closure.body.as_ref(), syn::Expr::Block(_)) {
            if let Some(first) = first_token_after_attributes(closure.body.to_token_stream()) {
                self.wrap_in_block(&closure.body, first);
            }
        }
        visit::visit_expr_closure(self, closure);
    }
}

fn item_attrs(item: &syn::Item) -> Option<&[syn::Attribute]> {
    use syn::Item::*;
    Some(match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        ExternCrate(i) => &i.attrs,
        Fn(i) => &i.attrs,
        ForeignMod(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        TraitAlias(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => return None,
    })
}

// The runtime template must compile on its own (as it will in every crate).
#[cfg(test)]
#[path = "instrument/runtime.rs"]
mod runtime_template;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crate_sources::SourceFile;
    use crate::source;

    fn instrument_text(text: &str) -> (String, Vec<u32>) {
        let sources = CrateSources {
            files: vec![SourceFile {
                path: PathBuf::from("src/lib.rs"),
                text: text.to_string(),
                syntax: source::parse_file(text).unwrap(),
            }],
            roots: vec![],
            ..Default::default()
        };
        let instrumented = instrument(&sources);
        let lines = instrumented
            .probes
            .locations
            .iter()
            .map(|l| l.line)
            .collect();
        (instrumented.files[0].1.clone(), lines)
    }

    #[test]
    fn probes_precede_statements_on_their_own_line() {
        let (text, lines) =
            instrument_text("fn f(x: i32) -> i32 {\n    let y = x + 1;\n    y\n}\n");
        assert_eq!(
            text,
            "fn f(x: i32) -> i32 {\n    crate::__autofix_rt::hit(0);let y = x + 1;\n    crate::__autofix_rt::hit(1);y\n}\n"
        );
        assert_eq!(lines, [2, 3]);
    }

    #[test]
    fn else_if_conditions_get_their_own_probe() {
        let source = "fn m(x: i32) -> i32 {\n    if x < 0 {\n        1\n    } else if x > 5 {\n        2\n    } else {\n        3\n    }\n}\n";
        let (text, lines) = instrument_text(source);
        assert!(
            text.contains("} else { crate::__autofix_rt::hit(1); if x > 5 {"),
            "{text}"
        );
        assert!(text.ends_with("3\n    } }\n}\n"), "{text}");
        // if (2), else-if (4), the three branch values (3, 5, 7).
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(sorted, [2, 3, 4, 5, 7]);
        assert!(syn::parse_file(&text).is_ok());
    }

    #[test]
    fn match_arms_and_closures_with_expression_bodies_are_wrapped() {
        let source = "fn f(v: Option<i32>) -> i32 {\n    let g = |a: i32| a * 2;\n    match v {\n        Some(a) => g(a),\n        None => { 0 }\n    }\n}\n";
        let (text, lines) = instrument_text(source);
        assert!(
            text.contains("|a: i32| { crate::__autofix_rt::hit(2); a * 2 }"),
            "{text}"
        );
        assert!(
            text.contains("Some(a) => { crate::__autofix_rt::hit(3); g(a) },"),
            "{text}"
        );
        assert!(syn::parse_file(&text).is_ok());
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(sorted, [2, 2, 3, 4, 5]);
    }

    #[test]
    fn test_code_const_fns_and_const_contexts_are_left_alone() {
        let source = "\
const fn c() -> u8 { let a = 1; a }
const K: usize = { let k = 2; k };
static S: [u8; 2] = [0; { 1 + 1 }];
#[test]
fn t() { let x = 1; }
#[cfg(test)]
mod tests { fn helper() { let y = 2; } }
fn runs() { let z = [0u8; { 3 }]; }
";
        let (text, lines) = instrument_text(source);
        assert_eq!(lines, [8]);
        assert_eq!(text.matches("__autofix_rt::hit").count(), 1);
    }

    #[test]
    fn methods_nested_functions_and_trait_defaults_are_instrumented() {
        let source = "\
struct S;
impl S {
    fn m(&self) -> u8 {
        fn inner() -> u8 { 4 }
        inner()
    }
}
trait T {
    fn d(&self) -> u8 { 5 }
}
";
        let (_, lines) = instrument_text(source);
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(sorted, [4, 5, 9]);
    }

    #[test]
    fn crate_roots_get_the_runtime_sized_to_all_probes() {
        let text = "fn f() { let a = 1; let b = 2; }\n";
        let sources = CrateSources {
            files: vec![SourceFile {
                path: PathBuf::from("src/lib.rs"),
                text: text.to_string(),
                syntax: source::parse_file(text).unwrap(),
            }],
            roots: vec![0],
            ..Default::default()
        };
        let instrumented = instrument(&sources);
        let out = &instrumented.files[0].1;
        assert!(out.contains("const PROBES: usize = 2;"), "{out}");
        assert!(out.contains("mod __autofix_rt"));
        assert!(!out.contains("    extern crate std;\n"));
    }
}
