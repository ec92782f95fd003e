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
//!
//! The transcribers of `macro_rules!` definitions are probed like function
//! bodies (see `code::macro_body`): their probes name the runtime
//! `$crate::__autofix_rt`, which resolves wherever the macro expands, and
//! every expansion reports the body's line. A rule whose transcriber does
//! not parse is not probed ([`Instrumented::unhandled`]), and the probes of a
//! macro can be left out on their own ([`Instrumented::text_without`]).
//!
//! With events asked for, the event probes of `baseline::events` go in
//! with the line probes; each of their sites can be left out on its own.

use std::collections::BTreeSet;
use std::ops::Range;

use syn::spanned::Spanned;

use crate::baseline::events::{EventSite, event_probes};
use crate::code::CrateSources;
use crate::code::MacroSite;
use crate::code::source::{Edit, FileId, Location, splice};
use crate::code::{KeepConst, RunnableCode, Scope, start_line, walk_runnable_code};

/// The environment variable that names a test run's coverage file.
pub const COVERAGE_ENV: &str = "CARGO_AUTOFIX_COVERAGE";

/// The environment variable that names the file a run's trace goes to.
pub const TRACE_ENV: &str = "CARGO_AUTOFIX_TRACE";

const RUNTIME: &str = include_str!("instrument/runtime.rs");

/// How many hits a traced run keeps, its last (the runtime's ring): a
/// trace this long may have lost what ran first.
pub const TRACE_CAPACITY: usize = 100_000;

/// Where each probe is: `locations[id]`; and each event site: `events[site]`.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ProbeMap {
    pub locations: Vec<Location>,
    pub events: Vec<EventSite>,
}

/// A `macro_rules!` definition: its file, name and lines (from
/// `macro_rules!` to its end).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MacroId {
    pub file: FileId,
    pub line: u32,
    pub last_line: u32,
    pub name: String,
}

impl MacroId {
    fn of(file: FileId, site: &MacroSite) -> MacroId {
        MacroId {
            file,
            line: site.line,
            last_line: site.last_line,
            name: site.name.clone(),
        }
    }
}

/// A probe's text insertion, with the macro whose transcriber it is in
/// and, for an event probe, its site; `in_const_fn` for a `const fn`'s
/// dropped `const` and the probes of its body.
#[derive(Debug, Clone)]
struct Insertion {
    edit: Edit,
    in_macro: Option<MacroId>,
    event: Option<usize>,
    in_const_fn: bool,
}

/// Probes left out after a build failed: those in the transcribers of
/// `macros`, the event sites `events`, and with `const_fns` every `const
/// fn`'s (which keep their `const`).
#[derive(Debug, Clone, Default)]
pub struct LeftOut {
    pub macros: BTreeSet<MacroId>,
    pub events: BTreeSet<usize>,
    pub const_fns: bool,
}

/// The instrumented text of every crate source file.
#[derive(Debug)]
pub struct Instrumented {
    pub probes: ProbeMap,
    /// Every file's instrumented text.
    pub files: Vec<(FileId, String)>,
    /// Each file's insertions, those in a macro's transcriber with its id.
    edits: Vec<(FileId, Vec<Insertion>)>,
    /// The macros with probes in their transcribers.
    pub macros: BTreeSet<MacroId>,
    /// The rules of macros whose transcriber is not probed, with why.
    pub unhandled: Vec<(MacroId, String)>,
    /// The `const fn`s that keep their `const` (unless a build leaves out
    /// every `const fn`'s probes: see `LeftOut::const_fns`).
    pub keep_const: KeepConst,
}

impl Instrumented {
    /// `file`'s instrumented text without the probes `left_out`.
    pub fn text_without(&self, sources: &CrateSources, file: FileId, left_out: &LeftOut) -> String {
        self.splice_without(sources, file, left_out).0
    }

    /// Where each event site of `file` is in its instrumented text without
    /// the probes `left_out`: from its first insertion to the end of its
    /// last (the code observed included).
    pub fn event_regions(
        &self,
        sources: &CrateSources,
        file: FileId,
        left_out: &LeftOut,
    ) -> Vec<(usize, Range<usize>)> {
        self.splice_without(sources, file, left_out).1
    }

    fn splice_without(
        &self,
        sources: &CrateSources,
        file: FileId,
        left_out: &LeftOut,
    ) -> (String, Vec<(usize, Range<usize>)>) {
        let mut kept: Vec<&Insertion> = self
            .edits
            .iter()
            .filter(|(f, _)| *f == file)
            .flat_map(|(_, edits)| edits)
            .filter(|i| {
                i.in_macro
                    .as_ref()
                    .is_none_or(|id| !left_out.macros.contains(id))
            })
            .filter(|i| i.event.is_none_or(|site| !left_out.events.contains(&site)))
            .filter(|i| !(left_out.const_fns && i.in_const_fn))
            .collect();
        // Stable: insertions at one place keep their order (line probes first).
        kept.sort_by_key(|i| i.edit.range.start);
        let edits: Vec<Edit> = kept.iter().map(|i| i.edit.clone()).collect();
        let text = splice(&sources.get(file).text, &edits).expect("probe insertions never overlap");
        let mut regions: Vec<(usize, Range<usize>)> = Vec::new();
        // How much longer the text is so far (a dropped `const` shortens it).
        let mut shift: isize = 0;
        let moved =
            |at: usize, shift: isize| at.checked_add_signed(shift).expect("within the text");
        for insertion in kept {
            let edit = &insertion.edit;
            let start = moved(edit.range.start, shift);
            shift += edit.text.len() as isize - edit.range.len() as isize;
            let Some(site) = insertion.event else {
                continue;
            };
            let end = moved(edit.range.end, shift);
            match regions.iter_mut().find(|(s, _)| *s == site) {
                Some((_, region)) => region.end = end,
                None => regions.push((site, start..end)),
            }
        }
        (text, regions)
    }
}

/// Instruments every file of `sources`, numbering probes across all
/// files; with `events`, event probes go in too.
pub fn instrument(sources: &CrateSources, events: bool) -> Instrumented {
    let keep_const = KeepConst::of(sources);
    let mut probes = ProbeMap::default();
    let mut edits = Vec::new();
    let mut macros = BTreeSet::new();
    let mut unhandled = Vec::new();
    for (index, file) in sources.iter() {
        let mut inserter = ProbeInserter {
            file: index,
            text: &file.text,
            probes: &mut probes,
            edits: Vec::new(),
            unhandled: Vec::new(),
            keep_const: &keep_const,
            const_bodies: Vec::new(),
        };
        walk_runnable_code(&file.syntax, &mut inserter);
        let mut file_edits = inserter.edits;
        unhandled.append(&mut inserter.unhandled);
        if events {
            let event_edits = event_probes(index, &file.text, &file.syntax, &mut probes.events);
            file_edits.extend(event_edits.into_iter().map(|e| Insertion {
                edit: e.edit,
                in_macro: e.in_macro.as_ref().map(|m| MacroId::of(index, m)),
                event: Some(e.site),
                in_const_fn: false,
            }));
        }
        macros.extend(file_edits.iter().filter_map(|i| i.in_macro.clone()));
        edits.push((index, file_edits));
    }
    for (index, file_edits) in &mut edits {
        let file = sources.get(*index);
        if sources.roots.contains(index) {
            file_edits.push(Insertion {
                edit: Edit::insert(
                    file.text.len(),
                    runtime_module(
                        probes.locations.len(),
                        probes.events.len(),
                        *index,
                        is_no_std(&file.syntax),
                    ),
                ),
                in_macro: None,
                event: None,
                in_const_fn: false,
            });
        }
    }
    let mut instrumented = Instrumented {
        probes,
        files: Vec::new(),
        edits,
        macros,
        unhandled,
        keep_const,
    };
    instrumented.files = sources
        .iter()
        .map(|(index, _)| {
            let text = instrumented.text_without(sources, index, &LeftOut::default());
            (index, text)
        })
        .collect();
    instrumented
}

/// The runtime module to append to a crate root.
fn runtime_module(probe_count: usize, event_sites: usize, root: FileId, no_std: bool) -> String {
    let (events, root_number) = ("const EVENTS: usize = 1;", "const ROOT: usize = 0;");
    let capacity = "const TRACE_CAPACITY: usize = 100_000;";
    assert!(
        RUNTIME.contains(events) && RUNTIME.contains(root_number) && RUNTIME.contains(capacity),
        "the runtime declares EVENTS, ROOT and TRACE_CAPACITY"
    );
    let template = RUNTIME
        .replace(
            capacity,
            &format!("const TRACE_CAPACITY: usize = {TRACE_CAPACITY};"),
        )
        .replace(
            events,
            &format!("const EVENTS: usize = {};", event_sites.max(1)),
        )
        .replace(
            root_number,
            &format!("const ROOT: usize = {};", root.index()),
        );
    runtime_for_root(&template, "PROBES", probe_count, no_std)
}

/// A runtime template, with its size constant `constant` set to `size`, as
/// appended to a crate root (which, if `#![no_std]`, gets `extern crate std`
/// inside the module, and its `use std::` paths become `use self::std::`:
/// the templates only `use std` paths, at the module's top level).
pub fn runtime_for_root(template: &str, constant: &str, size: usize, no_std: bool) -> String {
    let declaration = format!("const {constant}: usize = 1;");
    assert!(
        template.contains(&declaration),
        "the template declares {constant}"
    );
    let sized = template.replace(
        &declaration,
        &format!("const {constant}: usize = {};", size.max(1)),
    );
    // std comes in as an item of the runtime's module, so its paths start
    // at `self`: in edition 2015 a `use std::...` path starts at the crate
    // root, where a `#![no_std]` crate has no std.
    let with_std = if no_std {
        sized
            .replace("    // extern crate std;\n", "    extern crate std;\n")
            .replace("    use std::", "    use self::std::")
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

/// The probe statement; in a macro's transcriber, the runtime is named
/// through `$crate`.
fn probe_call(id: usize, scope: &Scope) -> String {
    let krate = if scope.in_macro.is_some() {
        "$crate"
    } else {
        "crate"
    };
    format!("{krate}::__autofix_rt::hit({id});")
}

/// The statement's leading `#[cfg(..)]` attributes, as written, each
/// followed by a space.
fn cfg_attributes(stmt: &syn::Stmt) -> String {
    use proc_macro2::{Delimiter, TokenTree};
    use quote::ToTokens;
    let tokens: Vec<TokenTree> = stmt.to_token_stream().into_iter().collect();
    let mut cfgs = String::new();
    for pair in tokens.chunks(2) {
        let [TokenTree::Punct(hash), TokenTree::Group(group)] = pair else {
            break;
        };
        if hash.as_char() != '#' || group.delimiter() != Delimiter::Bracket {
            break;
        }
        if matches!(group.stream().into_iter().next(), Some(TokenTree::Ident(name)) if name == "cfg")
        {
            cfgs.push('#');
            cfgs.push_str(&group.to_string());
            cfgs.push(' ');
        }
    }
    cfgs
}

struct ProbeInserter<'a> {
    file: FileId,
    text: &'a str,
    probes: &'a mut ProbeMap,
    edits: Vec<Insertion>,
    unhandled: Vec<(MacroId, String)>,
    /// The `const fn`s a const context calls.
    keep_const: &'a KeepConst,
    /// The bodies of the `const fn`s whose `const` is dropped.
    const_bodies: Vec<Range<usize>>,
}

impl ProbeInserter<'_> {
    fn new_probe(&mut self, line: u32) -> usize {
        self.probes.locations.push(Location::new(self.file, line));
        self.probes.locations.len() - 1
    }

    fn push(&mut self, edit: Edit, scope: &Scope) {
        let in_macro = scope.in_macro.as_ref().map(|m| MacroId::of(self.file, m));
        let at = edit.range.start;
        let in_const_fn = self.const_bodies.iter().any(|body| body.contains(&at));
        self.edits.push(Insertion {
            edit,
            in_macro,
            event: None,
            in_const_fn,
        });
    }

    /// `expr` becomes `{ probe; expr }`, the probe reporting `line`.
    fn wrap_in_block(&mut self, expr: &syn::Expr, line: u32, scope: &Scope) {
        let range = expr.span().byte_range();
        if scope.in_macro.as_ref().is_some_and(|m| !m.allows(&range)) {
            return;
        }
        let id = self.new_probe(line);
        let open = format!("{{ {} ", probe_call(id, scope));
        self.push(Edit::insert(range.start, open), scope);
        self.push(Edit::insert(range.end, " }"), scope);
    }
}

impl RunnableCode for ProbeInserter<'_> {
    /// A `const fn` no const context calls runs only at run time: its
    /// `const` goes (with the space after it), and its body is probed.
    fn enters_const_fn(&mut self, sig: &syn::Signature, block: &syn::Block, scope: &Scope) -> bool {
        if sig.constness.is_none() {
            return true;
        }
        let in_macro = scope.in_macro.is_some();
        let Some(dropped) = self.keep_const.dropped(sig, self.text, in_macro) else {
            return false;
        };
        self.const_bodies.push(block.span().byte_range());
        self.edits.push(Insertion {
            edit: Edit {
                range: dropped,
                text: String::new(),
            },
            in_macro: None,
            event: None,
            in_const_fn: true,
        });
        true
    }

    /// A probe statement right before the statement (before its
    /// attributes), under the statement's own `#[cfg(..)]`s: a statement
    /// compiled out is not counted, and one of a few cfg-gated blocks
    /// that end a function (`#[cfg(feature = "x")] { .. }` then
    /// `#[cfg(not(feature = "x"))] { .. }`) stays its value.
    fn statement(&mut self, stmt: &syn::Stmt, scope: &Scope) {
        let id = self.new_probe(scope.location);
        let call = cfg_attributes(stmt) + &probe_call(id, scope);
        self.push(Edit::insert(stmt.span().byte_range().start, call), scope);
    }

    /// `else if c {..}` becomes `else { probe; if c {..} }`.
    fn else_if(&mut self, else_branch: &syn::Expr, scope: &Scope) {
        if let syn::Expr::If(nested) = else_branch {
            self.wrap_in_block(else_branch, nested.if_token.span.start().line as u32, scope);
        }
    }

    fn expression_body(&mut self, body: &syn::Expr, scope: &Scope) {
        if let Some(line) = start_line(body) {
            self.wrap_in_block(body, line, scope);
        }
    }

    fn unhandled_macro(&mut self, site: &MacroSite, reason: &str) {
        self.unhandled
            .push((MacroId::of(self.file, site), reason.to_string()));
    }
}

// The runtime template must compile on its own (as it will in every crate).
#[cfg(test)]
#[path = "instrument/runtime.rs"]
mod runtime_template;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::CrateSources;

    fn instrument_text(text: &str) -> (String, Vec<u32>) {
        let sources = {
            let mut sources = CrateSources::of_one_file(text);
            sources.roots.clear();
            sources
        };
        let instrumented = instrument(&sources, false);
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
    fn a_cfg_gated_statement_has_its_probe_under_the_same_cfg() {
        let source = "fn f() -> bool {\n    #[cfg(feature = \"x\")]\n    {\n        true\n    }\n    #[cfg(not(feature = \"x\"))]\n    {\n        false\n    }\n}\n";
        let (text, _) = instrument_text(source);
        assert!(
            without_ids(&text).contains(
                "#[cfg (not (feature = \"x\"))] crate::__autofix_rt::hit(N);#[cfg(not(feature = \"x\"))]\n    {"
            ),
            "{text}"
        );
        assert!(
            without_ids(&text).contains(
                "#[cfg (feature = \"x\")] crate::__autofix_rt::hit(N);#[cfg(feature = \"x\")]"
            ),
            "{text}"
        );
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
    fn test_code_const_fns_a_const_context_calls_and_const_contexts_are_left_alone() {
        let source = "\
const fn c() -> u8 { let a = 1; a }
const K: usize = { let k = c(); k as usize };
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
        assert!(
            text.starts_with("const fn c() -> u8 { let a = 1; a }"),
            "{text}"
        );
    }

    #[test]
    fn a_const_fn_only_run_time_code_calls_loses_its_const_and_is_probed() {
        let source = "pub const  fn r(x: u8) -> u8 {\n    let b = x + 1;\n    b\n}\n";
        let (text, lines) = instrument_text(source);
        assert_eq!(lines, [2, 3]);
        assert!(text.starts_with("pub fn r(x: u8) -> u8 {"), "{text}");
        assert!(syn::parse_file(&text).is_ok());
        // Left out (a const context a macro writes calls it), it is as written.
        let sources = CrateSources::of_one_file(source);
        let instrumented = instrument(&sources, false);
        let left_out = LeftOut {
            const_fns: true,
            ..LeftOut::default()
        };
        let without = instrumented.text_without(&sources, FileId::new(0), &left_out);
        assert!(without.starts_with(source), "{without}");
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
        let instrumented = instrument(&sources, false);
        let out = &instrumented.files[0].1;
        assert!(out.contains("const PROBES: usize = 2;"), "{out}");
        assert!(out.contains("mod __autofix_rt"));
        assert!(!out.contains("    extern crate std;\n"));
    }

    #[test]
    fn macro_bodies_are_probed_through_dollar_crate_at_their_own_lines() {
        let source = "\
macro_rules! area {
    ($t:ty, $w:ident) => {
        impl $t {
            fn area(&self) -> u32 {
                let a = self.$w;
                a * 2
            }
        }
    };
}
macro_rules! sum {
    ($($x:expr),*) => {{
        let mut s = 0;
        $( s += $x; )*
        s
    }};
}
macro_rules! twice {
    ($e:expr) => { $e * 2 };
}
macro_rules! arms {
    ($p:pat) => { $p => 1, };
}
fn f() -> u32 { twice!(sum!(1, 2)) }
macro_rules! items {
    ($(#[$m:ident $($a:tt)*])* $t:ident) => {
        $(#[$m $($a)*])*
        impl $t { fn get(&self) -> u8 { 1 } }
        $crate::area! { $t, x }
    };
}
";
        let sources = {
            let mut sources = CrateSources::of_one_file(source);
            sources.roots.clear();
            sources
        };
        let instrumented = instrument(&sources, false);
        let text = without_ids(&instrumented.files[0].1);
        assert!(
            text.contains("fn area(&self) -> u32 {\n                $crate::__autofix_rt::hit(N);let a = self.$w;\n                $crate::__autofix_rt::hit(N);a * 2"),
            "{text}"
        );
        assert!(
            text.contains("$( $crate::__autofix_rt::hit(N);s += $x; )*"),
            "{text}"
        );
        assert!(
            text.contains("=> { { $crate::__autofix_rt::hit(N); $e * 2 } };"),
            "{text}"
        );
        assert!(
            text.contains("fn f() -> u32 { crate::__autofix_rt::hit(N);twice!(sum!(1, 2)) }"),
            "{text}"
        );
        let mut lines: Vec<u32> = instrumented
            .probes
            .locations
            .iter()
            .map(|l| l.line)
            .collect();
        lines.sort();
        // A transcriber of items and macro calls expands to items: no probe
        // before the call, and the attribute with fragments is no obstacle.
        assert!(
            text.contains("fn get(&self) -> u8 { $crate::__autofix_rt::hit(N);1 } }\n        $crate::area! { $t, x }"),
            "{text}"
        );
        assert_eq!(lines, [5, 6, 12, 13, 14, 15, 19, 24, 28]);
        let names: Vec<&str> = instrumented
            .macros
            .iter()
            .map(|m| m.name.as_str())
            .collect();
        assert_eq!(names, ["area", "sum", "twice", "items"]);
        assert_eq!(instrumented.unhandled.len(), 1);
        assert_eq!(instrumented.unhandled[0].0.name, "arms");
        // A macro's probes can be left out on their own.
        let sum = instrumented
            .macros
            .iter()
            .find(|m| m.name == "sum")
            .unwrap()
            .clone();
        let without = without_ids(&instrumented.text_without(
            &sources,
            FileId::new(0),
            &LeftOut {
                macros: BTreeSet::from([sum]),
                ..LeftOut::default()
            },
        ));
        assert!(without.contains("$( s += $x; )*"), "{without}");
        assert!(
            without.contains("$crate::__autofix_rt::hit(N); $e * 2"),
            "{without}"
        );
    }

    #[test]
    fn event_sites_go_in_with_line_probes_and_can_be_left_out_one_by_one() {
        let source = "fn f(x: i32) -> Option<i32> {\n    let y = x.abs();\n    if y > 2 {\n        return None;\n    }\n    Some(y)\n}\n";
        let sources = {
            let mut sources = CrateSources::of_one_file(source);
            sources.roots.clear();
            sources
        };
        let instrumented = instrument(&sources, true);
        let file = FileId::new(0);
        // The tail, the let, the condition, the `return`.
        let kinds: Vec<(&str, u32)> = instrumented
            .probes
            .events
            .iter()
            .map(|s| (s.kind.name(), s.location.line))
            .collect();
        assert_eq!(
            kinds,
            [
                ("returned", 6),
                ("let", 2),
                ("condition", 3),
                ("returned", 4)
            ]
        );
        let all = instrumented.text_without(&sources, file, &LeftOut::default());
        assert_eq!(all, instrumented.files[0].1);
        assert!(syn::parse_file(&all).is_ok(), "{all}");
        let regions = instrumented.event_regions(&sources, file, &LeftOut::default());
        let region = |site: usize| {
            let range = regions.iter().find(|(s, _)| *s == site).unwrap().1.clone();
            all[range].to_string()
        };
        assert_eq!(region(2), "crate::__autofix_rt::branch(2, y > 2)");
        assert!(region(1).starts_with("let y = x.abs();{"), "{}", region(1));
        assert!(region(0).starts_with("{ let __autofix_value: Option<i32> = Some(y);"));
        // Leaving the condition out keeps every other probe.
        let left_out = LeftOut {
            events: BTreeSet::from([2]),
            ..LeftOut::default()
        };
        let without = instrumented.text_without(&sources, file, &left_out);
        assert!(without.contains("if y > 2 {"), "{without}");
        assert!(without.contains("(&y).__autofix_observe(1)"), "{without}");
        assert_eq!(
            without.matches("__autofix_rt::hit(").count(),
            all.matches("__autofix_rt::hit(").count()
        );
        let regions = instrumented.event_regions(&sources, file, &left_out);
        assert!(regions.iter().all(|(site, _)| *site != 2));
        assert_eq!(regions.len(), 3);
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
