//! Mutant schemata: a batch of candidates woven into one copy of the crate.
//!
//! Every edit has a guard (the expression, statement or insertion point
//! around it). Overlapping guards of a batch merge into regions; each
//! region holds, as a `match` on `crate::__autofix_schema::variant(R)`, the
//! original code (variant 0) and every distinct way the candidates change
//! it. A candidate is then a set of switches, `R:V,...`, passed to the test
//! processes in `CARGO_AUTOFIX_SCHEMA`, and one build serves the batch.
//!
//! Pure: texts in, texts and switches out.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::ops::Range;

use crate::baseline::instrument::runtime_for_root;
use crate::code::crate_sources::Originals;
use crate::code::source::{Edit, FileId, splice};
use crate::mutation::patch::{Candidate, Guard, PatchEdit};

/// The environment variable that selects a candidate's variants.
pub const SCHEMA_ENV: &str = "CARGO_AUTOFIX_SCHEMA";

const RUNTIME: &str = include_str!("weave/runtime.rs");

/// A variant of a region: its file, the region's original bytes, its text.
/// Stable from one weaving to the next, so a variant that broke the build
/// can be left out of the next one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VariantKey {
    pub file: FileId,
    pub region: (usize, usize),
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
    /// Where each variant's text lies in the woven files.
    pub spans: Vec<(FileId, Range<usize>, VariantKey)>,
}

impl Schema {
    /// The variant whose woven text holds `file`'s bytes `range`.
    pub fn variant_at(&self, file: FileId, range: &Range<usize>) -> Option<&VariantKey> {
        self.spans
            .iter()
            .filter(|(f, span, _)| *f == file && span.start <= range.start && range.end <= span.end)
            .min_by_key(|(_, span, _)| span.len())
            .map(|(_, _, key)| key)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Expression,
    Statement,
    Let,
    Insertion,
    /// Guards that overlap without nesting: nothing can be switched here.
    Broken,
}

/// A region's original bytes, their woven text, and where each variant is in it.
type Replacement = (Range<usize>, String, Vec<(Range<usize>, VariantKey)>);

/// A `let` region split around its initializer, and each variant's initializer
/// (`None` for a variant that is not the same `let`).
#[derive(Debug, Clone)]
struct LetParts {
    prefix: String,
    init: String,
    suffix: String,
    inits: Vec<Option<String>>,
}

#[derive(Debug, Clone)]
struct Region {
    file: FileId,
    range: Range<usize>,
    kind: Kind,
}

/// Weaves `batch` into the `originals` (every crate file's text). `roots`
/// are the crate roots (file index, `#![no_std]`), which get the switch
/// runtime. Variants in `dropped` are left out: their candidates get no
/// switches.
pub fn weave(
    originals: &Originals,
    roots: &[(FileId, bool)],
    batch: &[Candidate],
    dropped: &BTreeSet<VariantKey>,
) -> Schema {
    let mut weavable: Vec<bool> = batch
        .iter()
        .map(|c| c.edits().iter().all(|e| e.guard != Guard::None))
        .collect();
    let regions = merge_guards(batch, &weavable);

    // Each candidate's variant of each region.
    let mut variants: Vec<Vec<String>> = vec![Vec::new(); regions.len()];
    let mut chosen: Vec<Vec<(usize, usize)>> = vec![Vec::new(); batch.len()];
    for (index, candidate) in batch.iter().enumerate() {
        if !weavable[index] {
            continue;
        }
        for (region_index, region) in regions.iter().enumerate() {
            let inside: Vec<&PatchEdit> = candidate
                .edits()
                .iter()
                .filter(|e| e.file == region.file && belongs(e, region))
                .collect();
            if inside.is_empty() {
                continue;
            }
            let text = variant_text(originals.text(region.file), region, &inside);
            let key = VariantKey {
                file: region.file,
                region: (region.range.start, region.range.end),
                text: text.clone(),
            };
            if region.kind == Kind::Broken || dropped.contains(&key) {
                weavable[index] = false;
                break;
            }
            let list = &mut variants[region_index];
            let number = match list.iter().position(|t| *t == text) {
                Some(position) => position + 1,
                None => {
                    list.push(text);
                    list.len()
                }
            };
            chosen[index].push((region_index, number));
        }
    }

    // `let` regions switch their initializer; variants that are not the same
    // `let` with another initializer cannot be switched there.
    let mut let_parts: BTreeMap<usize, LetParts> = BTreeMap::new();
    for (region_index, region) in regions
        .iter()
        .enumerate()
        .filter(|(_, r)| r.kind == Kind::Let)
    {
        let original = &originals.text(region.file)[region.range.clone()];
        let Some((prefix, init, suffix)) = let_parts_of(original) else {
            continue;
        };
        let inits = variants[region_index]
            .iter()
            .map(|v| {
                let_parts_of(v)
                    .filter(|(p, _, s)| same_tokens(p, &prefix) && same_tokens(s, &suffix))
                    .map(|(_, i, _)| i)
            })
            .collect();
        let_parts.insert(
            region_index,
            LetParts {
                prefix,
                init,
                suffix,
                inits,
            },
        );
    }
    for (index, switches) in chosen.iter().enumerate() {
        let unswitchable = switches.iter().any(|&(r, v)| {
            regions[r].kind == Kind::Let
                && let_parts
                    .get(&r)
                    .is_none_or(|parts| parts.inits[v - 1].is_none())
        });
        if unswitchable {
            weavable[index] = false;
        }
    }
    // Only variants some weavable candidate uses are woven.
    let mut used: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (index, switches) in chosen.iter().enumerate() {
        if weavable[index] {
            used.extend(switches.iter().copied());
        }
    }

    // Render every region that has a used variant, and splice per file.
    let mut schema = Schema::default();
    let mut replacements: BTreeMap<FileId, Vec<Replacement>> = BTreeMap::new();
    for (region_index, region) in regions.iter().enumerate() {
        let live: Vec<usize> = (1..=variants[region_index].len())
            .filter(|v| used.contains(&(region_index, *v)))
            .collect();
        if live.is_empty() {
            continue;
        }
        let original = &originals.text(region.file)[region.range.clone()];
        let switch = format!("crate::__autofix_schema::variant({region_index})");
        let mut text = String::new();
        let mut spans = Vec::new();
        let key = |v: usize| VariantKey {
            file: region.file,
            region: (region.range.start, region.range.end),
            text: variants[region_index][v - 1].clone(),
        };
        // The original comes first: a `match` without an expected type takes
        // the type of its first arm, so a variant of another type is the one
        // the compiler reports.
        let (open, arm, close, original_body): (String, (&str, &str), &str, String) =
            match region.kind {
                Kind::Expression => (
                    format!("(match {switch} {{ "),
                    ("(", "), "),
                    "_ => unreachable!() })",
                    original.to_string(),
                ),
                Kind::Statement => (
                    format!("match {switch} {{ "),
                    ("{ ", " } "),
                    "_ => unreachable!() }",
                    original.to_string(),
                ),
                Kind::Insertion => (
                    format!("match {switch} {{ "),
                    ("{ ", " } "),
                    "_ => unreachable!() }",
                    String::new(),
                ),
                Kind::Let => {
                    let parts = &let_parts[&region_index];
                    (
                        format!("{}match {switch} {{ ", parts.prefix),
                        ("(", "), "),
                        "_ => unreachable!() }",
                        parts.init.clone(),
                    )
                }
                Kind::Broken => continue,
            };
        text.push_str(&open);
        let _ = write!(text, "0 => {}{original_body}{}", arm.0, arm.1);
        for v in live {
            let body = match region.kind {
                Kind::Let => let_parts[&region_index].inits[v - 1]
                    .clone()
                    .expect("checked above"),
                _ => variants[region_index][v - 1].clone(),
            };
            // The span takes in the arm's delimiters: an empty variant (a
            // deleted statement) is reported at its braces.
            let _ = write!(text, "{v} => ");
            let start = text.len();
            text.push_str(arm.0);
            text.push_str(&body);
            text.push_str(arm.1.trim_end_matches([' ', ',']));
            spans.push((start..text.len(), key(v)));
            text.push_str(&arm.1[arm.1.trim_end_matches([' ', ',']).len()..]);
        }
        text.push_str(close);
        if region.kind == Kind::Let {
            text.push_str(&let_parts[&region_index].suffix);
        }
        replacements
            .entry(region.file)
            .or_default()
            .push((region.range.clone(), text, spans));
    }
    let root_files: BTreeSet<FileId> = roots.iter().map(|(file, _)| *file).collect();
    for &file in replacements
        .keys()
        .chain(&root_files)
        .collect::<BTreeSet<_>>()
    {
        let original = originals.text(file);
        let mut out = String::with_capacity(original.len() * 2);
        let mut cursor = 0;
        for (range, text, spans) in replacements.get(&file).into_iter().flatten() {
            out.push_str(&original[cursor..range.start]);
            let start = out.len();
            for (span, key) in spans {
                schema
                    .spans
                    .push((file, start + span.start..start + span.end, key.clone()));
            }
            out.push_str(text);
            cursor = range.end;
        }
        out.push_str(&original[cursor..]);
        if let Some((_, no_std)) = roots.iter().find(|(f, _)| *f == file) {
            out.push_str(&runtime_for_root(
                RUNTIME,
                "REGIONS",
                regions.len(),
                *no_std,
            ));
        }
        schema.files.insert(file, out);
    }
    schema.switches = chosen
        .iter()
        .enumerate()
        .map(|(index, switches)| {
            weavable[index].then(|| {
                switches
                    .iter()
                    .map(|(r, v)| format!("{r}:{v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            })
        })
        .collect();
    schema
}

/// The batch's guards, per file, merged where they overlap (the outer one
/// decides how the region is switched).
fn merge_guards(batch: &[Candidate], weavable: &[bool]) -> Vec<Region> {
    // Sorted by file and start; at one offset an insertion point first (it
    // goes before the code there, as `splice` puts it), then outer ranges first.
    let mut guards: BTreeSet<(FileId, usize, bool, std::cmp::Reverse<usize>, u8)> = BTreeSet::new();
    for (candidate, _) in batch.iter().zip(weavable).filter(|(_, w)| **w) {
        for edit in candidate.edits() {
            // Codes order equal ranges: a statement form (a block arm) also
            // takes what an expression guard over the same bytes needs.
            let (range, kind) = match &edit.guard {
                Guard::Statement {
                    range,
                    is_let: false,
                } => (range.clone(), 0),
                Guard::Statement {
                    range,
                    is_let: true,
                } => (range.clone(), 1),
                Guard::Expression(range) => (range.clone(), 2),
                Guard::Insertion(at) => (*at..*at, 3),
                Guard::None => continue,
            };
            guards.insert((
                edit.file,
                range.start,
                !range.is_empty(),
                std::cmp::Reverse(range.end),
                kind,
            ));
        }
    }
    let kind_of = |code: u8| match code {
        0 => Kind::Statement,
        1 => Kind::Let,
        2 => Kind::Expression,
        _ => Kind::Insertion,
    };
    let mut regions: Vec<Region> = Vec::new();
    for (file, start, _, std::cmp::Reverse(end), code) in guards {
        if let Some(last) = regions.last_mut()
            && last.file == file
            && overlaps(&last.range, &(start..end))
        {
            if end > last.range.end {
                last.range.end = end;
                last.kind = Kind::Broken;
            }
            continue;
        }
        regions.push(Region {
            file,
            range: start..end,
            kind: kind_of(code),
        });
    }
    regions
}

/// Whether a guard or edit at `b` falls inside region `a` (a point must be
/// strictly inside a range; equal points coincide).
fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => a.start == b.start,
        (false, true) => a.start < b.start && b.start < a.end,
        (true, false) => false,
        (false, false) => a.start < b.end && b.start < a.end,
    }
}

/// Whether `edit` is switched by `region`.
fn belongs(edit: &PatchEdit, region: &Region) -> bool {
    if region.range.is_empty() {
        return edit.edit.range.is_empty()
            && edit.edit.range.start == region.range.start
            && edit.guard == Guard::Insertion(region.range.start);
    }
    region.range.start <= edit.edit.range.start
        && edit.edit.range.end <= region.range.end
        && !(edit.edit.range.is_empty()
            && (edit.edit.range.start == region.range.start
                || edit.edit.range.start == region.range.end))
}

/// The region's text with the candidate's edits in it.
fn variant_text(original: &str, region: &Region, edits: &[&PatchEdit]) -> String {
    if region.range.is_empty() {
        return edits.iter().map(|e| e.edit.text.as_str()).collect();
    }
    let shifted: Vec<Edit> = edits
        .iter()
        .map(|e| {
            Edit::replace(
                e.edit.range.start - region.range.start..e.edit.range.end - region.range.start,
                e.edit.text.clone(),
            )
        })
        .collect();
    splice(&original[region.range.clone()], &shifted).expect("a candidate's edits never overlap")
}

/// A `let` statement split around its initializer: (`let PAT = `, INIT,
/// `;`), or `None` if it has no initializer or has an `else`.
fn let_parts_of(text: &str) -> Option<(String, String, String)> {
    let trimmed_start = text.len() - text.trim_start().len();
    let stmt: syn::Stmt = syn::parse_str(text.trim()).ok()?;
    let syn::Stmt::Local(local) = stmt else {
        return None;
    };
    let init = local.init?;
    if init.diverge.is_some() {
        return None;
    }
    let range = syn::spanned::Spanned::span(&init.expr).byte_range();
    let range = trimmed_start + range.start..trimmed_start + range.end;
    Some((
        text[..range.start].to_string(),
        text[range.clone()].to_string(),
        text[range.end..].to_string(),
    ))
}

fn same_tokens(a: &str, b: &str) -> bool {
    a.split_whitespace().collect::<String>() == b.split_whitespace().collect::<String>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutation::patch::Operator;

    fn edit(range: Range<usize>, text: &str, guard: Guard) -> PatchEdit {
        PatchEdit {
            file: FileId::new(0),
            edit: Edit::replace(range, text),
            operator: Operator::Swap,
            line: 1,
            guard,
        }
    }

    fn originals() -> Originals {
        Originals::new(vec![("src/lib.rs".into(), TEXT.into())])
    }

    const TEXT: &str = "fn f(a: u8, b: u8) -> u8 {\n    let c = a + b;\n    c * 2\n}\n";

    fn range_of(needle: &str) -> Range<usize> {
        let start = TEXT.find(needle).unwrap();
        start..start + needle.len()
    }

    #[test]
    fn expression_variants_share_one_region() {
        let plus = range_of("+");
        let sum = range_of("a + b");
        let minus =
            Candidate::from_edits([edit(plus.clone(), "-", Guard::Expression(sum.clone()))]);
        let times = Candidate::from_edits([edit(plus, "*", Guard::Expression(sum.clone()))]);
        let schema = weave(
            &originals(),
            &[],
            &[minus, times, Candidate::original()],
            &BTreeSet::new(),
        );
        assert_eq!(
            schema.switches,
            [
                Some("0:1".to_string()),
                Some("0:2".to_string()),
                Some(String::new())
            ]
        );
        assert_eq!(
            schema.files[&FileId::new(0)],
            "fn f(a: u8, b: u8) -> u8 {\n    let c = (match crate::__autofix_schema::variant(0) { 0 => (a + b), 1 => (a - b), 2 => (a * b), _ => unreachable!() });\n    c * 2\n}\n"
        );
        let woven = &schema.files[&FileId::new(0)];
        let span = &schema.spans[1].1;
        assert_eq!(&woven[span.clone()], "(a * b)");
        assert_eq!(
            schema.variant_at(FileId::new(0), span).unwrap().text,
            "a * b"
        );
    }

    #[test]
    fn lets_switch_their_initializer_and_nested_guards_merge() {
        let statement = range_of("let c = a + b;");
        let variable = range_of("a + b").start..range_of("a + b").start + 1;
        let plus = range_of("+");
        // One candidate changes a variable (guarded by the whole `let`), the
        // other the operator (guarded by the expression inside it).
        let variable_edit = Candidate::from_edits([edit(
            variable,
            "b",
            Guard::Statement {
                range: statement.clone(),
                is_let: true,
            },
        )]);
        let operator_edit =
            Candidate::from_edits([edit(plus, "-", Guard::Expression(range_of("a + b")))]);
        let schema = weave(
            &originals(),
            &[],
            &[variable_edit, operator_edit],
            &BTreeSet::new(),
        );
        assert_eq!(
            schema.switches,
            [Some("0:1".to_string()), Some("0:2".to_string())]
        );
        assert!(
            schema.files[&FileId::new(0)].contains("let c = match crate::__autofix_schema::variant(0) { 0 => (a + b), 1 => (b + b), 2 => (a - b), _ => unreachable!() };"),
            "{}",
            schema.files[&FileId::new(0)]
        );
    }

    #[test]
    fn statements_insertions_and_dropped_variants() {
        let tail = range_of("c * 2");
        let deleted = Candidate::from_edits([edit(
            tail.clone(),
            "c",
            Guard::Statement {
                range: tail.clone(),
                is_let: false,
            },
        )]);
        let at = range_of("let c = a + b;").end;
        let inserted =
            Candidate::from_edits([edit(at..at, "\n    drop(a);", Guard::Insertion(at))]);
        let inserted_let = Candidate::from_edits([edit(at..at, "\n    let a = 1;", Guard::None)]);
        let schema = weave(
            &originals(),
            &[(FileId::new(0), false)],
            &[deleted.clone(), inserted, inserted_let],
            &BTreeSet::new(),
        );
        assert_eq!(
            schema.switches,
            [Some("1:1".to_string()), Some("0:1".to_string()), None]
        );
        let woven = &schema.files[&FileId::new(0)];
        assert!(woven.contains("let c = a + b;match crate::__autofix_schema::variant(0) { 0 => {  } 1 => { \n    drop(a); } _ => unreachable!() }"), "{woven}");
        assert!(woven.contains("match crate::__autofix_schema::variant(1) { 0 => { c * 2 } 1 => { c } _ => unreachable!() }\n}"), "{woven}");
        assert!(
            woven.contains("mod __autofix_schema") && woven.contains("const REGIONS: usize = 2;"),
            "{woven}"
        );
        // A variant that broke the build is left out next time.
        let key = schema
            .variant_at(
                FileId::new(0),
                &schema.spans.iter().find(|s| s.2.text == "c").unwrap().1,
            )
            .unwrap()
            .clone();
        let again = weave(
            &originals(),
            &[(FileId::new(0), false)],
            &[deleted],
            &BTreeSet::from([key]),
        );
        assert_eq!(again.switches, [None]);
        assert!(!again.files[&FileId::new(0)].contains("variant(1)"));
    }

    #[test]
    fn an_insertion_before_a_switched_statement_comes_first() {
        let tail = range_of("c * 2");
        let swapped = Candidate::from_edits([edit(
            tail.clone(),
            "c + 1",
            Guard::Statement {
                range: tail.clone(),
                is_let: false,
            },
        )]);
        let inserted = Candidate::from_edits([edit(
            tail.start..tail.start,
            "drop(a);\n    ",
            Guard::Insertion(tail.start),
        )]);
        let schema = weave(&originals(), &[], &[swapped, inserted], &BTreeSet::new());
        assert_eq!(
            schema.switches,
            [Some("1:1".to_string()), Some("0:1".to_string())]
        );
        assert!(
            schema.files[&FileId::new(0)].contains(
                "match crate::__autofix_schema::variant(0) { 0 => {  } 1 => { drop(a);\n     } _ => unreachable!() }match crate::__autofix_schema::variant(1) { 0 => { c * 2 } 1 => { c + 1 } _ => unreachable!() }"
            ),
            "{}",
            schema.files[&FileId::new(0)]
        );
    }

    #[test]
    fn a_let_whose_pattern_changes_cannot_be_switched() {
        let statement = range_of("let c = a + b;");
        let renamed = Candidate::from_edits([edit(
            statement.clone(),
            "let d = a + b;",
            Guard::Statement {
                range: statement,
                is_let: true,
            },
        )]);
        let schema = weave(&originals(), &[], &[renamed], &BTreeSet::new());
        assert_eq!(schema.switches, [None]);
    }
}
