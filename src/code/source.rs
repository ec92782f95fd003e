//! Rust source files as text, and edits as byte-range replacements of it.
//!
//! Everything that changes a source file (probes now, candidate patches
//! later) is a list of [`Edit`]s spliced into the original text, so every
//! byte outside an edit stays as it was and line numbers of untouched code
//! do not move.

use std::collections::BTreeSet;
use std::ops::Range;

use serde::{Deserialize, Serialize};

/// A source file of the crate under repair: its index in
/// `CrateSources::files`, which lists the files in path order. Inside the
/// pipeline files are `FileId`s; paths appear only at the edges (rendering,
/// diffs, reports).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct FileId(u32);

impl FileId {
    pub fn new(index: usize) -> FileId {
        FileId(u32::try_from(index).expect("fewer than 2^32 files"))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A line of a file of the crate: the unit of coverage and of ranking.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Location {
    pub file: FileId,
    /// 1-based.
    pub line: u32,
}

impl Location {
    pub fn new(file: FileId, line: u32) -> Location {
        Location { file, line }
    }

    /// Where an edit outside runnable code is (an item, a signature, a
    /// `macro_rules!`): no line of coverage stands for it, so it may change
    /// what any test does. Line 0, which no line of code has.
    pub fn anywhere(file: FileId) -> Location {
        Location { file, line: 0 }
    }

    pub fn is_anywhere(self) -> bool {
        self.line == 0
    }
}

/// Whether edits at `edited` may change what a test that executed `lines`
/// does: it executed one of them, or one is [`Location::anywhere`].
pub fn reaches(lines: &BTreeSet<Location>, edited: &BTreeSet<Location>) -> bool {
    edited.iter().any(|l| l.is_anywhere() || lines.contains(l))
}

/// One replacement of a byte range of a file's original text.
/// An empty range is an insertion.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

impl Edit {
    pub fn insert(at: usize, text: impl Into<String>) -> Edit {
        Edit {
            range: at..at,
            text: text.into(),
        }
    }

    pub fn replace(range: Range<usize>, text: impl Into<String>) -> Edit {
        Edit {
            range,
            text: text.into(),
        }
    }
}

/// Two edits that claim the same bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlap {
    pub first: Range<usize>,
    pub second: Range<usize>,
}

/// Applies `edits` to `original`. Edits may come in any order; insertions at
/// the same offset keep their given order. Overlapping edits are refused.
pub fn splice(original: &str, edits: &[Edit]) -> Result<String, Overlap> {
    let mut ordered: Vec<&Edit> = edits.iter().collect();
    ordered.sort_by_key(|edit| (edit.range.start, edit.range.end));
    let mut out =
        String::with_capacity(original.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut cursor = 0;
    let mut previous: Option<&Range<usize>> = None;
    for edit in ordered {
        if edit.range.start < cursor {
            return Err(Overlap {
                first: previous.cloned().unwrap_or(0..0),
                second: edit.range.clone(),
            });
        }
        out.push_str(&original[cursor..edit.range.start]);
        out.push_str(&edit.text);
        cursor = edit.range.end;
        previous = Some(&edit.range);
    }
    out.push_str(&original[cursor..]);
    Ok(out)
}

/// `text`, written into `original`, with its lines ending as those of
/// `original` do: a lone `\n` made `\r\n` where `original` ends its lines
/// so (edits write `\n`; a patch that mixes the two changes every line it
/// touches).
pub fn with_line_ends_of(original: &str, text: &str) -> String {
    if !original.contains("\r\n") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut previous = None;
    for c in text.chars() {
        if c == '\n' && previous != Some('\r') {
            out.push('\r');
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

/// Parses a whole file so that every span's `byte_range()` is an offset into
/// `text` itself. (`syn::parse_file` strips a BOM or shebang first, which
/// would shift every offset; here they are blanked out instead.) Items syn
/// cannot parse are left out (see `unparsable`).
pub fn parse_file(text: &str) -> syn::Result<syn::File> {
    parse_file_leaving_out(text).map(|(file, _)| file)
}

/// [`parse_file`], and syn's error for each item it left out.
pub fn parse_file_leaving_out(text: &str) -> syn::Result<(syn::File, Vec<syn::Error>)> {
    let mut masked = text.to_string();
    if masked.starts_with('\u{feff}') {
        masked.replace_range(0..3, "   ");
    }
    if masked.starts_with("#!") && !masked[2..].trim_start().starts_with('[') {
        let end = masked.find('\n').unwrap_or(masked.len());
        masked.replace_range(0..end, &" ".repeat(end));
    }
    super::unparsable::parse_leaving_out(masked)
}

/// The text of 1-based `line` of `text`, trimmed.
pub fn line_text(text: &str, line: u32) -> &str {
    text.lines()
        .nth((line as usize).saturating_sub(1))
        .unwrap_or("")
        .trim()
}

/// The name an item declares, if it declares one (a `const`, `static`,
/// `fn`, `mod`, type or named macro).
pub fn item_name(item: &syn::Item) -> Option<&syn::Ident> {
    match item {
        syn::Item::Const(i) => Some(&i.ident),
        syn::Item::Static(i) => Some(&i.ident),
        syn::Item::Fn(i) => Some(&i.sig.ident),
        syn::Item::Mod(i) => Some(&i.ident),
        syn::Item::Struct(i) => Some(&i.ident),
        syn::Item::Enum(i) => Some(&i.ident),
        syn::Item::Union(i) => Some(&i.ident),
        syn::Item::Type(i) => Some(&i.ident),
        syn::Item::Macro(i) => i.ident.as_ref(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::spanned::Spanned;

    #[test]
    fn splice_applies_edits_in_offset_order() {
        let text = "let a = 1;\nlet b = 2;\n";
        let edits = [
            Edit::replace(19..20, "3"),
            Edit::insert(0, "/*p*/"),
            Edit::insert(11, "/*q*/"),
        ];
        assert_eq!(
            splice(text, &edits).unwrap(),
            "/*p*/let a = 1;\n/*q*/let b = 3;\n"
        );
    }

    #[test]
    fn splice_keeps_order_of_insertions_at_one_offset() {
        let edits = [Edit::insert(1, "a"), Edit::insert(1, "b")];
        assert_eq!(splice("xy", &edits).unwrap(), "xaby");
    }

    #[test]
    fn written_lines_end_as_the_files_do() {
        let crlf = "let a = 1;\r\nlet b = 2;\r\n";
        assert_eq!(with_line_ends_of(crlf, "x;\n    y;"), "x;\r\n    y;");
        // Lines that already end so, and a file of `\n` lines, keep theirs.
        assert_eq!(with_line_ends_of(crlf, "x;\r\ny;"), "x;\r\ny;");
        assert_eq!(with_line_ends_of("a;\nb;\n", "x;\ny;"), "x;\ny;");
    }

    #[test]
    fn splice_refuses_overlaps() {
        let edits = [Edit::replace(0..4, "x"), Edit::replace(2..6, "y")];
        assert_eq!(
            splice("0123456789", &edits),
            Err(Overlap {
                first: 0..4,
                second: 2..6
            })
        );
    }

    #[test]
    fn spans_are_offsets_into_the_text_even_after_a_shebang() {
        let text = "#!/usr/bin/env run-cargo-script\n// \u{e9}\nfn main() { let x = 1; }\n";
        let file = parse_file(text).unwrap();
        let range = file.items[0].span().byte_range();
        assert_eq!(&text[range], "fn main() { let x = 1; }");
    }

    #[test]
    fn line_text_is_trimmed_and_one_based() {
        let text = "a\n  bc\r\n\nd";
        assert_eq!(line_text(text, 1), "a");
        assert_eq!(line_text(text, 2), "bc");
        assert_eq!(line_text(text, 3), "");
        assert_eq!(line_text(text, 9), "");
    }
}
