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

use syn::spanned::Spanned;

use crate::code::crate_sources::CrateSources;
use crate::code::source::{Edit, FileId, Location, splice};
use crate::code::syntax::{RunnableCode, Scope, start_line, walk_runnable_code};

/// The environment variable that names a test run's coverage file.
pub const COVERAGE_ENV: &str = "CARGO_AUTOFIX_COVERAGE";

/// The environment variable that names the file a run's trace goes to.
pub const TRACE_ENV: &str = "CARGO_AUTOFIX_TRACE";

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
    /// Every file's instrumented text.
    pub files: Vec<(FileId, String)>,
}

/// Instruments every file of `sources`, numbering probes across all files.
pub fn instrument(sources: &CrateSources) -> Instrumented {
    let mut probes = ProbeMap::default();
    let mut edits_per_file = Vec::new();
    for (index, file) in sources.iter() {
        let mut inserter = ProbeInserter {
            file: index,
            probes: &mut probes,
            edits: Vec::new(),
        };
        walk_runnable_code(&file.syntax, &mut inserter);
        edits_per_file.push((index, inserter.edits));
    }
    let files = edits_per_file
        .into_iter()
        .map(|(index, mut edits)| {
            let file = sources.get(index);
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
    runtime_for_root(RUNTIME, "PROBES", probe_count, no_std)
}

/// A runtime template, with its size constant `constant` set to `size`, as
/// appended to a crate root (which, if `#![no_std]`, gets `extern crate std`
/// inside the module: the templates only `use std` paths).
pub(crate) fn runtime_for_root(
    template: &str,
    constant: &str,
    size: usize,
    no_std: bool,
) -> String {
    let declaration = format!("const {constant}: usize = 1;");
    assert!(
        template.contains(&declaration),
        "the template declares {constant}"
    );
    let sized = template.replace(
        &declaration,
        &format!("const {constant}: usize = {};", size.max(1)),
    );
    let with_std = if no_std {
        sized.replace("    // extern crate std;\n", "    extern crate std;\n")
    } else {
        sized
    };
    format!("\n{with_std}")
}

/// Whether a crate root declares `#![no_std]`, or may under some
/// configuration (`#![cfg_attr(not(test), no_std)]`: the library that
/// integration tests link is built without `cfg(test)`).
pub fn is_no_std(file: &syn::File) -> bool {
    file.attrs.iter().any(|attr| {
        attr.path().is_ident("no_std")
            || (attr.path().is_ident("cfg_attr")
                && quote::ToTokens::to_token_stream(&attr.meta)
                    .into_iter()
                    .any(|tree| matches!(tree, proc_macro2::TokenTree::Group(g) if g.stream().into_iter().any(|t| t.to_string() == "no_std"))))
    })
}

fn probe_call(id: usize) -> String {
    format!("crate::__autofix_rt::hit({id});")
}

struct ProbeInserter<'a> {
    file: FileId,
    probes: &'a mut ProbeMap,
    edits: Vec<Edit>,
}

impl ProbeInserter<'_> {
    fn new_probe(&mut self, line: u32) -> usize {
        self.probes.locations.push(Location::new(self.file, line));
        self.probes.locations.len() - 1
    }

    /// `expr` becomes `{ probe; expr }`, the probe reporting `line`.
    fn wrap_in_block(&mut self, expr: &syn::Expr, line: u32) {
        let id = self.new_probe(line);
        let range = expr.span().byte_range();
        self.edits
            .push(Edit::insert(range.start, format!("{{ {} ", probe_call(id))));
        self.edits.push(Edit::insert(range.end, " }"));
    }
}

impl RunnableCode for ProbeInserter<'_> {
    /// A probe statement right before the statement (before its attributes).
    fn statement(&mut self, stmt: &syn::Stmt, scope: &Scope) {
        let id = self.new_probe(scope.location);
        self.edits
            .push(Edit::insert(stmt.span().byte_range().start, probe_call(id)));
    }

    /// `else if c {..}` becomes `else { probe; if c {..} }`.
    fn else_if(&mut self, else_branch: &syn::Expr, _: &Scope) {
        if let syn::Expr::If(nested) = else_branch {
            self.wrap_in_block(else_branch, nested.if_token.span.start().line as u32);
        }
    }

    fn expression_body(&mut self, body: &syn::Expr, _: &Scope) {
        if let Some(line) = start_line(body) {
            self.wrap_in_block(body, line);
        }
    }
}

// The runtime template must compile on its own (as it will in every crate).
#[cfg(test)]
#[path = "instrument/runtime.rs"]
mod runtime_template;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::crate_sources::CrateSources;

    fn instrument_text(text: &str) -> (String, Vec<u32>) {
        let sources = {
            let mut sources = CrateSources::of_one_file(text);
            sources.roots.clear();
            sources
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

    /// The text with every probe id replaced by `N`.
    fn without_ids(text: &str) -> String {
        let mut out = String::new();
        for (i, part) in text.split("__autofix_rt::hit(").enumerate() {
            if i == 0 {
                out.push_str(part);
            } else {
                out.push_str("__autofix_rt::hit(N");
                out.push_str(part.trim_start_matches(|c: char| c.is_ascii_digit()));
            }
        }
        out
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
        let text = without_ids(&text);
        assert!(
            text.contains("} else { crate::__autofix_rt::hit(N); if x > 5 {"),
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
        let text = without_ids(&text);
        assert!(
            text.contains("|a: i32| { crate::__autofix_rt::hit(N); a * 2 }"),
            "{text}"
        );
        assert!(
            text.contains("Some(a) => { crate::__autofix_rt::hit(N); g(a) },"),
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
        let sources = CrateSources::of_one_file(text);
        let instrumented = instrument(&sources);
        let out = &instrumented.files[0].1;
        assert!(out.contains("const PROBES: usize = 2;"), "{out}");
        assert!(out.contains("mod __autofix_rt"));
        assert!(!out.contains("    extern crate std;\n"));
    }

    #[test]
    fn no_std_is_seen_also_under_cfg_attr() {
        let parse = |text: &str| syn::parse_file(text).unwrap();
        assert!(is_no_std(&parse("#![no_std]\nfn f() {}")));
        assert!(is_no_std(&parse(
            "#![cfg_attr(not(test), no_std)]\nfn f() {}"
        )));
        assert!(is_no_std(&parse(
            "#![cfg_attr(not(any(test, feature = \"std\")), no_std)]\nfn f() {}"
        )));
        assert!(!is_no_std(&parse(
            "#![cfg_attr(docsrs, feature(doc_cfg))]\nfn f() {}"
        )));
        assert!(!is_no_std(&parse("fn no_std() {}")));
    }
}
