//! Mutant schemata: a batch of candidates woven into one copy of the crate.
//!
//! Each function a candidate edits gets a copy holding that candidate's
//! edits (see `functions` for where copies go and how they are called), and
//! the original function starts with a dispatch on
//! `crate::__autofix_schema::variant(R)`, `R` being the function's region:
//! variant 0 runs the original body, variant `V` returns what copy `V`
//! returns. A candidate is then a set of switches, `R:V,...`, passed to the
//! test processes in `CARGO_AUTOFIX_SCHEMA`, and one build serves the batch.
//! Each copy is a body of its own, so the compiler reports every copy that
//! does not compile in one pass, and an error in one cannot hide another's.
//!
//! Pure: texts in, texts and switches out.

mod pieces;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::baseline::runtime_for_root;
use crate::code::Originals;
use crate::code::source::{Edit, FileId, parse_file, splice};
use crate::evaluate::data_reads;
use crate::evaluate::functions::{Functions, Shape};
use crate::evaluate::in_place;
use crate::mutation::Candidate;
use pieces::{Piece, dropped_consts, function_pieces, splice_pieces};

/// The environment variable that selects a candidate's variants.
pub const SCHEMA_ENV: &str = "CARGO_AUTOFIX_SCHEMA";

const RUNTIME: &str = include_str!("weave/runtime.rs");

/// A variant of a function: the function (its index in `Functions`) and
/// its text with the candidate's edits. Stable from one weaving to the next,
/// so a variant that broke the build can be left out of the next one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VariantKey {
    pub function: usize,
    pub text: String,
}

/// A woven batch.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    /// The woven text of every file that changes (crate roots always do).
    pub files: BTreeMap<FileId, String>,
    /// Per candidate of the batch, the switches that select it, or `None`
    /// if it could not be woven (it is evaluated on its own).
    pub switches: Vec<Option<String>>,
    /// Where each part of the woven code lies in the woven files.
    pub spans: Vec<(FileId, Range<usize>, Part)>,
}

/// A part of the woven code, for blaming a build error on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// A variant's copy, declaration or dispatch arm (or a function's
    /// control copy: its key's text is the unedited body).
    Variant(VariantKey),
    /// The edited text of a site woven in place, which these variants
    /// (of function `function`) run.
    Alternative {
        function: usize,
        site: Range<usize>,
        keys: Vec<VariantKey>,
    },
    /// The original code of a site woven in place.
    Original { function: usize, site: Range<usize> },
    /// A function woven in place, outside its sites' arms.
    InPlace(usize),
}

impl Part {
    /// The function (or data item) the part belongs to.
    pub fn function(&self) -> usize {
        match self {
            Part::Variant(key) => key.function,
            Part::Alternative { function, .. }
            | Part::Original { function, .. }
            | Part::InPlace(function) => *function,
        }
    }
}

impl Schema {
    /// The smallest part whose woven text holds `file`'s bytes `range`.
    pub fn part_at(&self, file: FileId, range: &Range<usize>) -> Option<&Part> {
        self.spans
            .iter()
            .filter(|(f, span, _)| *f == file && span.start <= range.start && range.end <= span.end)
            .min_by_key(|(_, span, _)| span.len())
            .map(|(_, _, part)| part)
    }
}

/// Why a candidate cannot be woven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unweavable {
    /// An edit outside every function body (a `const` item, say).
    OutsideFunctions,
    /// An edit in a function that cannot be copied (it is what this says)
    /// nor woven in place.
    NotCopyable(&'static str),
    /// An edit of a `const` or `static` item that cannot be woven (for the
    /// reason this says).
    Data(&'static str),
    /// An edit of a function woven in place that fits no site.
    NoSite,
}

/// A candidate's variant of one function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// The function's body with the candidate's edits.
    pub text: String,
    /// For a function woven in place, where the edits go (see `in_place::place`).
    pub placed: Vec<(usize, String)>,
}

impl Variant {
    /// Its key, as the variant of function `function`.
    pub fn key(&self, function: usize) -> VariantKey {
        VariantKey {
            function,
            text: self.text.clone(),
        }
    }
}

/// Each candidate's variants (function index -> variant), or why it
/// cannot be woven.
pub fn variants(
    originals: &Originals,
    functions: &Functions,
    candidate: &Candidate,
) -> Result<BTreeMap<usize, Variant>, Unweavable> {
    let mut edits: BTreeMap<usize, Vec<Edit>> = BTreeMap::new();
    for edit in candidate.edits() {
        let index = functions
            .around(edit.file, &edit.edit.range)
            .ok_or(Unweavable::OutsideFunctions)?;
        let function = functions.get(index);
        if let Some(reason) = function.not_copyable
            && function.sites.is_empty()
        {
            return Err(match function.shape {
                Shape::Data { .. } => Unweavable::Data(reason),
                _ => Unweavable::NotCopyable(reason),
            });
        }
        edits.entry(index).or_default().push(edit.edit.clone());
    }
    edits
        .into_iter()
        .map(|(index, edits)| {
            let function = functions.get(index);
            let text = originals.text(function.file);
            let placed = if function.not_copyable.is_some() {
                in_place::place(text, &function.sites, &edits).ok_or(Unweavable::NoSite)?
            } else {
                Vec::new()
            };
            let body = &text[function.body.clone()];
            let shifted: Vec<Edit> = edits
                .iter()
                .map(|e| {
                    let start = function.body.start;
                    Edit::replace(e.range.start - start..e.range.end - start, e.text.clone())
                })
                .collect();
            let body = splice(body, &shifted).expect("a candidate's edits never overlap");
            Ok((index, Variant { text: body, placed }))
        })
        .collect()
}

/// Weaves `batch` into the `originals`. `roots` are the crate roots (and
/// whether each is `#![no_std]`), which get the switch runtime. Variants in
/// `dropped` are left out: their candidates get no switches. With
/// `controls`, each woven function also gets a copy of its unedited body
/// (its key's text is the original body), which no switch selects: if it
/// does not compile, the weaving is at fault, not the candidates.
pub fn weave(
    originals: &Originals,
    roots: &[(FileId, bool)],
    functions: &Functions,
    batch: &[Candidate],
    dropped: &BTreeSet<VariantKey>,
    controls: bool,
) -> Schema {
    let (bodies, switches) = number_variants(originals, functions, batch, dropped);
    // The insertions and replacements of each file, with the part each
    // piece is (for blaming compiler errors).
    let mut pieces: BTreeMap<FileId, Vec<Piece>> = BTreeMap::new();
    for (&index, variants) in &bodies {
        let function = functions.get(index);
        let text = originals.text(function.file);
        pieces
            .entry(function.file)
            .or_default()
            .extend(function_pieces(function, text, index, variants, controls));
    }
    // A dispatch reads the switch, which a `const fn` cannot: a batch that
    // dispatches in one drops the `const` of every `const fn` that may lose
    // it, as the instrumented copy does (a `const fn` calling the one woven
    // could not keep it either), copies included.
    if bodies
        .keys()
        .any(|&index| functions.get(index).constness.is_some())
    {
        for (file, piece) in dropped_consts(functions) {
            pieces.entry(file).or_default().push(piece);
        }
    }
    let mut schema = Schema {
        switches,
        ..Schema::default()
    };
    let data = woven_data(functions, &bodies);
    for file in changed_files(originals, roots, &pieces, &data) {
        let original = originals.text(file);
        let mut file_pieces = pieces.remove(&file).unwrap_or_default();
        if let Some((_, no_std)) = roots.iter().find(|(f, _)| *f == file) {
            let regions = functions.len();
            file_pieces.push(Piece::insert(
                original.len(),
                vec![(runtime_for_root(RUNTIME, "REGIONS", regions, *no_std), None)],
            ));
        }
        let spans_before = schema.spans.len();
        let out = splice_pieces(file, original, file_pieces, &mut schema.spans);
        let out = read_through(out, &data, &mut schema.spans[spans_before..]);
        if out != original {
            schema.files.insert(file, out);
        }
    }
    schema
}

/// Each function's distinct variants among those of `batch`, numbered from
/// 1, and each candidate's switches (see `Schema::switches`; a candidate
/// with a variant in `dropped` gets none).
fn number_variants(
    originals: &Originals,
    functions: &Functions,
    batch: &[Candidate],
    dropped: &BTreeSet<VariantKey>,
) -> (BTreeMap<usize, Vec<Variant>>, Vec<Option<String>>) {
    let mut bodies: BTreeMap<usize, Vec<Variant>> = BTreeMap::new();
    let mut switches: Vec<Option<String>> = Vec::with_capacity(batch.len());
    for candidate in batch {
        let Ok(variants) = variants(originals, functions, candidate) else {
            switches.push(None);
            continue;
        };
        let keys = variants
            .iter()
            .map(|(&function, variant)| variant.key(function));
        if keys.clone().any(|key| dropped.contains(&key)) || variants.is_empty() {
            switches.push(variants.is_empty().then(String::new));
            continue;
        }
        let mut chosen = Vec::new();
        for (function, variant) in variants {
            let list = bodies.entry(function).or_default();
            let number = match list.iter().position(|v| v.text == variant.text) {
                Some(position) => position + 1,
                None => {
                    list.push(variant);
                    list.len()
                }
            };
            chosen.push(format!("{function}:{number}"));
        }
        switches.push(Some(chosen.join(",")));
    }
    (bodies, switches)
}

/// The names of the data items woven (those among `bodies`).
fn woven_data<'a>(
    functions: &'a Functions,
    bodies: &BTreeMap<usize, Vec<Variant>>,
) -> BTreeSet<&'a str> {
    bodies
        .keys()
        .map(|&index| functions.get(index))
        .filter(|f| matches!(f.shape, Shape::Data { .. }))
        .map(|f| f.name.as_str())
        .collect()
}

/// The files a weaving changes: those with pieces, the crate roots (they
/// get the switch runtime) and every file that reads a woven data item.
fn changed_files(
    originals: &Originals,
    roots: &[(FileId, bool)],
    pieces: &BTreeMap<FileId, Vec<Piece>>,
    data: &BTreeSet<&str>,
) -> BTreeSet<FileId> {
    let root_files: BTreeSet<FileId> = roots.iter().map(|(file, _)| *file).collect();
    let reading = originals
        .iter()
        .filter(|(_, _, text)| data.iter().any(|name| text.contains(name)))
        .map(|(file, _, _)| file);
    pieces
        .keys()
        .copied()
        .chain(root_files)
        .chain(reading)
        .collect()
}

/// `text` with every read of the woven data items `data` rewritten to read
/// through their lazy statics (`NAME` to `(*NAME)`, see `data_reads`), and
/// `spans` of it moved to match.
fn read_through(
    text: String,
    data: &BTreeSet<&str>,
    spans: &mut [(FileId, Range<usize>, Part)],
) -> String {
    if !data.iter().any(|name| text.contains(name)) {
        return text;
    }
    let Ok(syntax) = parse_file(&text) else {
        return text;
    };
    let mut reads = data_reads::reads(&syntax, data).wrap;
    if reads.is_empty() {
        return text;
    }
    reads.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(text.len() + 3 * reads.len());
    let mut cursor = 0;
    for read in &reads {
        out.push_str(&text[cursor..read.start]);
        out.push_str("(*");
        out.push_str(&text[read.clone()]);
        out.push(')');
        cursor = read.end;
    }
    out.push_str(&text[cursor..]);
    // An offset moves by what was inserted before it: `(*` of a read
    // starting before it, `)` of a read ending at or before it.
    let moved = |offset: usize| {
        offset
            + reads
                .iter()
                .map(|r| 2 * usize::from(r.start < offset) + usize::from(r.end <= offset))
                .sum::<usize>()
    };
    for (_, range, _) in spans {
        *range = moved(range.start)..moved(range.end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::Location;
    use crate::code::{CrateSources, KeepConst};
    use crate::mutation::{Operator, PatchEdit};

    const TEXT: &str = "fn f(a: u8, b: u8) -> u8 {\n    let c = a + b;\n    c * 2\n}\n";

    /// The variant whose part of the woven file holds `range`.
    fn key_at<'a>(schema: &'a Schema, range: &Range<usize>) -> Option<&'a VariantKey> {
        match schema.part_at(FileId::new(0), range)? {
            Part::Variant(key) => Some(key),
            _ => None,
        }
    }

    fn setup(text: &str) -> (Originals, Functions) {
        let sources = CrateSources::of_one_file(text);
        let keep_const = KeepConst::of(&sources);
        let functions = Functions::of(&sources, &keep_const, &[], &[]);
        (sources.originals(), functions)
    }

    fn edit(text: &str, needle: &str, replacement: &str) -> Candidate {
        let start = text.find(needle).unwrap();
        Candidate::original().with(PatchEdit {
            file: FileId::new(0),
            edit: Edit::replace(start..start + needle.len(), replacement),
            operator: Operator::Swap,
            line: Location::default().line,
        })
    }

    #[test]
    fn methods_in_a_macro_body_are_copied_in_the_body_and_dispatch_through_dollar_crate() {
        let text = "macro_rules! ring {\n    ($name:ident, $int:ty) => {\n        impl $name {\n            fn back(&mut self, by: $int) -> $int {\n                self.value + by\n            }\n            fn $name(&self) -> u8 { 7 }\n        }\n    };\n}\n";
        let (originals, functions) = setup(text);
        assert_eq!(functions.len(), 2);
        assert!(functions.get(0).in_macro);
        assert_eq!(
            functions.get(1).not_copyable,
            Some("named by a macro fragment")
        );
        let minus = edit(text, "+", "-");
        let schema = weave(
            &originals,
            &[],
            &functions,
            &[minus],
            &BTreeSet::new(),
            false,
        );
        assert_eq!(schema.switches, [Some("0:1".to_string())]);
        let woven = &schema.files[&FileId::new(0)];
        assert!(
            woven.contains("fn back(&mut self, by: $int) -> $int { match $crate::__autofix_schema::variant(0) { 1 => return Self::back__autofix_0_1(self, by), _ => {} }"),
            "{woven}"
        );
        // The copy goes in another `impl $name` block inside the transcriber.
        assert!(
            woven.contains("\nimpl $name  { \nfn back__autofix_0_1(&mut self, by: $int) -> $int {\n                self.value - by\n            } }\n    };\n}\n"),
            "{woven}"
        );
        let edited_fragment_name = edit(text, "7", "8");
        assert_eq!(
            variants(&originals, &functions, &edited_fragment_name),
            Err(Unweavable::NotCopyable("named by a macro fragment"))
        );
    }

    #[test]
    fn each_variant_is_a_copy_and_the_original_dispatches() {
        let (originals, functions) = setup(TEXT);
        let minus = edit(TEXT, "+", "-");
        let times = edit(TEXT, "+", "*");
        let schema = weave(
            &originals,
            &[],
            &functions,
            &[minus.clone(), times, minus, Candidate::original()],
            &BTreeSet::new(),
            false,
        );
        assert_eq!(
            schema.switches,
            [
                Some("0:1".to_string()),
                Some("0:2".to_string()),
                Some("0:1".to_string()),
                Some(String::new())
            ]
        );
        assert_eq!(
            schema.files[&FileId::new(0)],
            "fn f(a: u8, b: u8) -> u8 { match crate::__autofix_schema::variant(0) { 1 => return f__autofix_0_1(a, b), 2 => return f__autofix_0_2(a, b), _ => {} }\n    let c = a + b;\n    c * 2\n}\n\
             fn f__autofix_0_1(a: u8, b: u8) -> u8 {\n    let c = a - b;\n    c * 2\n}\n\
             fn f__autofix_0_2(a: u8, b: u8) -> u8 {\n    let c = a * b;\n    c * 2\n}\n"
        );
        let woven = &schema.files[&FileId::new(0)];
        let copy = woven.find("fn f__autofix_0_2").unwrap();
        let key = key_at(&schema, &(copy + 3..copy + 4)).unwrap();
        assert!(key.text.contains("a * b"), "{key:?}");
        let arm = woven.find("2 => return").unwrap();
        assert_eq!(key_at(&schema, &(arm..arm + 1)), Some(key));
    }

    #[test]
    fn a_control_copy_holds_the_unedited_body_and_no_switch_selects_it() {
        let (originals, functions) = setup(TEXT);
        let schema = weave(
            &originals,
            &[],
            &functions,
            &[edit(TEXT, "+", "-")],
            &BTreeSet::new(),
            true,
        );
        let woven = &schema.files[&FileId::new(0)];
        assert!(
            woven.contains(
                "fn f__autofix_0_2(a: u8, b: u8) -> u8 {\n    let c = a + b;\n    c * 2\n}"
            ),
            "{woven}"
        );
        assert!(!woven.contains("2 => return"), "{woven}");
        let control = woven.find("fn f__autofix_0_2").unwrap();
        let key = key_at(&schema, &(control..control + 2)).unwrap();
        assert_eq!(key.text, TEXT[TEXT.find('{').unwrap()..TEXT.len() - 1]);
    }

    #[test]
    fn lets_and_patterns_methods_and_helpers() {
        let text = "struct S(u8);\nimpl S {\n    pub fn get(&self, (a, _): (u8, u8)) -> u8 {\n        let x = self.0 + a;\n        x\n    }\n}\nimpl Iterator for S {\n    type Item = u8;\n    fn next(&mut self) -> Option<Self::Item> {\n        Some(self.0)\n    }\n}\n";
        let (originals, functions) = setup(text);
        // An inserted `let` is a variant like any other.
        let inserted = edit(text, "x\n", "let y = x;\n        y\n");
        let next = edit(text, "Some(self.0)", "None");
        let schema = weave(
            &originals,
            &[(FileId::new(0), false)],
            &functions,
            &[inserted, next],
            &BTreeSet::new(),
            false,
        );
        assert_eq!(
            schema.switches,
            [Some("0:1".to_string()), Some("1:1".to_string())]
        );
        let woven = &schema.files[&FileId::new(0)];
        assert!(
            woven.contains("pub fn get(&self, __autofix_p0: (u8, u8)) -> u8 { match crate::__autofix_schema::variant(0) { 1 => return Self::get__autofix_0_1(self, __autofix_p0), _ => {} } let (a, _) = __autofix_p0;"),
            "{woven}"
        );
        assert!(
            woven.contains("\nimpl S  { \n fn get__autofix_0_1(&self, (a, _): (u8, u8)) -> u8 {\n        let x = self.0 + a;\n        let y = x;\n        y\n    } }"),
            "{woven}"
        );
        assert!(
            woven.contains("1 => return <Self as __AutofixHelper1>::next__autofix_1_1(self),"),
            "{woven}"
        );
        assert!(
            woven.contains("trait __AutofixHelper1: Iterator where Self: Sized {  fn next__autofix_1_1(&mut self) -> Option<Self::Item> ; }\nimpl __AutofixHelper1 for S where Self: Sized { \nfn next__autofix_1_1(&mut self) -> Option<Self::Item> {\n        None\n    } }"),
            "{woven}"
        );
        assert!(woven.contains("const REGIONS: usize = 2;"), "{woven}");
        // A variant that broke the build is left out next time.
        let copy = woven
            .find("fn next__autofix_1_1(&mut self) -> Option<Self::Item> {")
            .unwrap();
        let key = key_at(&schema, &(copy..copy + 2)).unwrap().clone();
        let again = weave(
            &originals,
            &[],
            &functions,
            &[edit(text, "Some(self.0)", "None")],
            &BTreeSet::from([key]),
            true,
        );
        assert_eq!(again.switches, [None]);
        assert!(again.files.is_empty());
    }

    #[test]
    fn data_becomes_a_lazy_static_whose_value_the_switch_chooses() {
        let text = "const DAYS: [u32; 3] = [31, 28, 31];\nfn days(month: usize) -> u32 {\n    DAYS[month - 1]\n}\nfn first() -> u32 {\n    let d = DAYS;\n    d[0] + d[1]\n}\n";
        let (originals, functions) = setup(text);
        let feb = edit(text, "28", "29");
        let minus = edit(text, "d[0] + d[1]", "d[0] - d[1]");
        let schema = weave(
            &originals,
            &[(FileId::new(0), false)],
            &functions,
            &[feb, minus],
            &BTreeSet::new(),
            true,
        );
        assert_eq!(
            schema.switches,
            [Some("0:1".to_string()), Some("2:1".to_string())]
        );
        let woven = &schema.files[&FileId::new(0)];
        // Every read goes through the lazy static: in the original
        // functions and in the copies.
        assert!(
            woven.starts_with("static DAYS: crate::__autofix_schema::Lazy<[u32; 3]> = crate::__autofix_schema::Lazy::new(|| match crate::__autofix_schema::variant(0) { 1 => { [31, 29, 31] } _ => { [31, 28, 31] } });\nfn days(month: usize) -> u32 {\n    (*DAYS)[month - 1]\n}\n"),
            "{woven}"
        );
        assert!(
            !woven.contains(" DAYS;") && !woven.contains(" DAYS["),
            "{woven}"
        );
        assert_eq!(woven.matches("let d = (*DAYS);").count(), 3, "{woven}");
        // The variant's value is its own; the rest is the control's.
        let at = |needle: &str| {
            let start = woven.find(needle).unwrap();
            key_at(&schema, &(start..start + needle.len()))
        };
        assert_eq!(
            at("[31, 29, 31]").map(|k| k.text.as_str()),
            Some("[31, 29, 31]")
        );
        assert_eq!(at("Lazy<").map(|k| k.text.as_str()), Some("[31, 28, 31]"));
        // The spans after a rewritten read moved with it.
        let edited = at("d[0] - d[1]").expect("the copy's span");
        assert_eq!(edited.text, "{\n    let d = DAYS;\n    d[0] - d[1]\n}");
        let copy = woven.find("let d = (*DAYS);\n    d[0] - d[1]").unwrap();
        // Its body, `{` to `}`, with the `(*` and `)` inside the span.
        assert_eq!(at(&woven[copy - 6..copy + 34]), Some(edited));
    }

    #[test]
    fn a_const_fn_only_run_time_code_calls_loses_its_const_with_every_such_one() {
        let text = "pub const fn c(a: u8) -> u8 {\n    a + 1\n}\nconst fn d(a: u8) -> u8 {\n    c(a)\n}\nconst fn k() -> u8 {\n    1\n}\nconst K: u8 = k();\n";
        let (originals, functions) = setup(text);
        let schema = weave(
            &originals,
            &[],
            &functions,
            &[edit(text, "a + 1", "a - 1")],
            &BTreeSet::new(),
            false,
        );
        assert_eq!(schema.switches, [Some("0:1".to_string())]);
        let woven = &schema.files[&FileId::new(0)];
        // `d` calls `c`, so it could not stay `const`; a `const` item calls `k`.
        assert!(
            woven.starts_with(concat!(
                "pub fn c(a: u8) -> u8 { match crate::__autofix_schema::variant(0) { 1 => return c__autofix_0_1(a), _ => {} }\n    a + 1\n}\n",
                " fn c__autofix_0_1(a: u8) -> u8 {\n    a - 1\n}\n",
                "fn d(a: u8) -> u8 {\n    c(a)\n}\nconst fn k() -> u8 {\n    1\n}\n"
            )),
            "{woven}"
        );
        // A batch that weaves no `const fn` leaves every `const`.
        let schema = weave(
            &originals,
            &[],
            &functions,
            &[edit(text, "    1\n", "    2\n")],
            &BTreeSet::new(),
            false,
        );
        assert_eq!(schema.switches, [None]);
        assert!(schema.files.is_empty(), "{:?}", schema.files);
    }

    #[test]
    fn uncopyable_functions_are_woven_in_place_and_const_ones_a_const_context_calls_not_at_all() {
        let text = "const K: u8 = 1;\nfn it() -> impl Iterator<Item = u8> {\n    0..K\n}\nconst fn c() -> u8 {\n    1\n}\nstatic S: [u8; c() as usize] = [0];\n";
        let (originals, functions) = setup(text);
        let constant = edit(text, "= 1", "= 2");
        let opaque = edit(text, "0..K", "1..K");
        let in_const_fn = edit(text, "    1\n", "    2\n");
        assert_eq!(
            variants(&originals, &functions, &constant),
            Err(Unweavable::OutsideFunctions)
        );
        assert_eq!(
            variants(&originals, &functions, &in_const_fn),
            Err(Unweavable::NotCopyable("a const fn"))
        );
        let schema = weave(
            &originals,
            &[],
            &functions,
            &[constant, opaque, in_const_fn],
            &BTreeSet::new(),
            true,
        );
        assert_eq!(schema.switches, [None, Some("1:1".to_string()), None]);
        let woven = &schema.files[&FileId::new(0)];
        assert!(
            woven.contains("fn it() -> impl Iterator<Item = u8> {\n    match crate::__autofix_schema::variant(1) { 0 | 2..=u32::MAX => 0..K, 1 => 1..K, }\n}\n"),
            "{woven}"
        );
        // The edited text is the variant's; the original arm and the
        // `match` around them are the weaving's.
        let at = |needle: &str| {
            let start = woven.find(needle).unwrap();
            schema.part_at(FileId::new(0), &(start..start + needle.len()))
        };
        assert!(
            matches!(at("1..K"), Some(Part::Alternative { keys, .. }) if keys[0].text.contains("1..K"))
        );
        assert!(matches!(
            at("0..K"),
            Some(Part::Original { function: 1, .. })
        ));
        assert_eq!(at("match"), Some(&Part::InPlace(1)));
    }
}
