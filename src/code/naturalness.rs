//! How usual a piece of code reads where it stands: a token trigram model
//! trained at run time on the crate's own sources and its dependencies'
//! (no network, no weights shipped), after the work on the naturalness of
//! software: code is repetitive, and an edit that reads like the code
//! around it is more often what a person wrote. A candidate's *surprise*
//! is how many bits more its edited lines cost the model than the original
//! lines did, with the original lines left out of the counts (otherwise
//! the code before the patch would read as familiar only because it was
//! read).
//!
//! The smoothing is interpolated absolute discounting (the simpler sibling
//! of Kneser-Ney): each order gives up a fixed discount of every count to
//! the order below it, down to a uniform share of the vocabulary.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;

use crate::code::source::{Edit, splice};

/// The model's order: a token is predicted from the two before it.
const ORDER: usize = 3;

/// What each count gives up to the order below.
const DISCOUNT: f64 = 0.75;

/// At most this much text of the dependencies is read, and no file
/// larger than [`FILE_TEXT`] (generated tables, not code a person wrote).
const DEPENDENCY_TEXT: usize = 4 << 20;
const FILE_TEXT: u64 = 256 << 10;

/// The start of a text (padding before its first token), and a token the
/// model never read.
const START: u32 = 0;
const UNKNOWN: u32 = 1;

/// A gram: its last token and up to two before it (`START`-padded), with
/// its order; the context of a gram is the same without its last token.
type Gram = (u8, [u32; ORDER]);
type Context = (u8, [u32; ORDER - 1]);

/// Counts of every gram read, and per context its total and the number of
/// distinct tokens that followed it.
#[derive(Debug, Default)]
pub struct TokenModel {
    words: HashMap<String, u32>,
    grams: HashMap<Gram, u32>,
    contexts: HashMap<Context, (u32, u32)>,
}

impl TokenModel {
    /// A model of `texts` (Rust source files).
    fn train<'t>(texts: impl IntoIterator<Item = &'t str>) -> TokenModel {
        let mut model = TokenModel::default();
        model.words.insert("<start>".into(), START);
        model.words.insert("<unknown>".into(), UNKNOWN);
        for text in texts {
            model.learn(text);
        }
        model
    }

    /// Counts the grams of one more text.
    fn learn(&mut self, text: &str) {
        let tokens: Vec<u32> = lex(text).map(|t| self.intern(t)).collect();
        for (gram, context) in grams(&[], &tokens) {
            let count = self.grams.entry(gram).or_default();
            *count += 1;
            let first = *count == 1;
            let (total, types) = self.contexts.entry(context).or_default();
            *total += 1;
            *types += u32::from(first);
        }
    }

    /// A model of the crate's own files and the Rust files under
    /// `dependencies` (their sources: see [`DEPENDENCY_TEXT`]), each to its
    /// share of the limit.
    pub fn of_crate<'t>(
        own: impl IntoIterator<Item = &'t str>,
        dependencies: &[PathBuf],
    ) -> TokenModel {
        // Each dependency its share, so that a large one does not crowd out the rest.
        let share = DEPENDENCY_TEXT / dependencies.len().max(1);
        let mut model = TokenModel::train(own);
        for dir in dependencies {
            let mut read = 0;
            let files = walkdir::WalkDir::new(dir)
                .sort_by_file_name()
                .into_iter()
                .flatten()
                .filter(|e| {
                    e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs")
                });
            for entry in files {
                if read >= share {
                    break;
                }
                if entry.metadata().is_ok_and(|m| m.len() <= FILE_TEXT)
                    && let Ok(text) = std::fs::read_to_string(entry.path())
                {
                    read += text.len();
                    model.learn(&text);
                }
            }
        }
        model
    }

    /// How many more bits the lines `edits` touch in `text` cost after the
    /// edits than before, the lines before the edits left out of the
    /// counts; edits on lines apart are scored apart and summed. Positive:
    /// the patched lines read less usual than the original ones.
    pub fn surprise(&self, text: &str, edits: &[Edit]) -> f64 {
        let mut ordered: Vec<&Edit> = edits.iter().collect();
        ordered.sort_by_key(|e| (e.range.start, e.range.end));
        let mut groups: Vec<(Range<usize>, Vec<Edit>)> = Vec::new();
        for edit in ordered {
            let lines = touched_lines(text, &edit.range);
            match groups.last_mut() {
                Some((span, group)) if lines.start <= span.end => {
                    span.end = span.end.max(lines.end);
                    group.push(edit.clone());
                }
                _ => groups.push((lines, vec![edit.clone()])),
            }
        }
        groups
            .iter()
            .map(|(lines, group)| self.surprise_within(text, lines.clone(), group))
            .sum()
    }

    /// [`TokenModel::surprise`] of edits within whole `lines` of `text`.
    fn surprise_within(&self, text: &str, lines: Range<usize>, edits: &[Edit]) -> f64 {
        let local: Vec<Edit> = edits
            .iter()
            .map(|e| {
                Edit::replace(
                    e.range.start - lines.start..e.range.end - lines.start,
                    e.text.clone(),
                )
            })
            .collect();
        let original_text = &text[lines.clone()];
        let Ok(patched_text) = splice(original_text, &local) else {
            return 0.0;
        };
        let history = self.known(lex(history_before(text, lines.start)));
        let original = self.known(lex(original_text));
        let patched = self.known(lex(&patched_text));
        let left_out = LeftOut::of(self, &history, &original);
        self.bits(&history, &patched, &left_out) - self.bits(&history, &original, &left_out)
    }

    fn intern(&mut self, token: &str) -> u32 {
        let next = self.words.len() as u32;
        *self.words.entry(token.to_string()).or_insert(next)
    }

    fn known<'t>(&self, tokens: impl Iterator<Item = &'t str>) -> Vec<u32> {
        tokens
            .map(|t| self.words.get(t).copied().unwrap_or(UNKNOWN))
            .collect()
    }

    /// The bits `tokens` cost after `history`, with `left_out`'s grams
    /// taken out of the counts.
    fn bits(&self, history: &[u32], tokens: &[u32], left_out: &LeftOut) -> f64 {
        grams(history, tokens)
            .filter(|((order, _), _)| usize::from(*order) == ORDER)
            .map(|(gram, _)| -self.probability(gram, left_out).log2())
            .sum()
    }

    /// The probability of a gram's last token after its context,
    /// interpolated over the orders.
    fn probability(&self, (_, tokens): Gram, left_out: &LeftOut) -> f64 {
        let mut p = 1.0 / (self.words.len() + 1) as f64;
        for order in 1..=ORDER {
            let gram = gram_of(order, &tokens);
            let context = context_of(gram);
            let (total, types) = left_out.context(context, self.contexts.get(&context));
            if total == 0 {
                continue;
            }
            let count = left_out.gram(gram, self.grams.get(&gram));
            let total = f64::from(total);
            p = (f64::from(count) - DISCOUNT).max(0.0) / total
                + DISCOUNT * f64::from(types) / total * p;
        }
        p
    }
}

/// The counts of the grams of a text the model read, to take out of its
/// counts when scoring that text against an edit of it.
#[derive(Default)]
struct LeftOut {
    grams: HashMap<Gram, u32>,
    /// Per context: the grams taken out, and how many distinct tokens after
    /// it are gone with them (their every count taken out).
    contexts: HashMap<Context, (u32, u32)>,
}

impl LeftOut {
    fn of(model: &TokenModel, history: &[u32], tokens: &[u32]) -> LeftOut {
        let mut left_out = LeftOut::default();
        for (gram, _) in grams(history, tokens) {
            *left_out.grams.entry(gram).or_default() += 1;
        }
        for (&gram, &count) in &left_out.grams {
            let (total, gone) = left_out.contexts.entry(context_of(gram)).or_default();
            *total += count;
            *gone += u32::from(model.grams.get(&gram).is_some_and(|&c| c <= count));
        }
        left_out
    }

    fn gram(&self, gram: Gram, count: Option<&u32>) -> u32 {
        let count = count.copied().unwrap_or(0);
        count.saturating_sub(self.grams.get(&gram).copied().unwrap_or(0))
    }

    fn context(&self, context: Context, counts: Option<&(u32, u32)>) -> (u32, u32) {
        let (total, types) = counts.copied().unwrap_or((0, 0));
        let (taken, gone) = self.contexts.get(&context).copied().unwrap_or((0, 0));
        (total.saturating_sub(taken), types.saturating_sub(gone))
    }
}

/// Each token of `tokens` as the gram of the highest order, with the
/// `history` (and `START` padding) before it, and that gram's context.
fn grams<'a>(history: &'a [u32], tokens: &'a [u32]) -> impl Iterator<Item = (Gram, Context)> + 'a {
    let padded: Vec<u32> = std::iter::repeat_n(START, ORDER - 1)
        .chain(history.iter().copied())
        .collect();
    let skip = padded.len();
    let all: Vec<u32> = padded.into_iter().chain(tokens.iter().copied()).collect();
    (skip..all.len()).flat_map(move |i| {
        let highest: [u32; ORDER] = std::array::from_fn(|k| all[i + 1 + k - ORDER]);
        (1..=ORDER).map(move |order| {
            let gram = gram_of(order, &highest);
            (gram, context_of(gram))
        })
    })
}

/// The gram of `order` ending with the last of `tokens`, the rest zeroed.
fn gram_of(order: usize, tokens: &[u32; ORDER]) -> Gram {
    let mut kept = [START; ORDER];
    kept[ORDER - order..].copy_from_slice(&tokens[ORDER - order..]);
    (order as u8, kept)
}

fn context_of((order, tokens): Gram) -> Context {
    let mut context = [START; ORDER - 1];
    context.copy_from_slice(&tokens[..ORDER - 1]);
    if order == 1 {
        context = [START; ORDER - 1];
    }
    (order, context)
}

/// The whole lines of `text` that `range` touches (without the last
/// line's end).
fn touched_lines(text: &str, range: &Range<usize>) -> Range<usize> {
    let start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |i| range.end + i);
    start..end
}

/// The two lines before `start`, the history the first edited token is
/// read after.
fn history_before(text: &str, start: usize) -> &str {
    let before = &text[..start];
    let from = before
        .trim_end_matches('\n')
        .rmatch_indices('\n')
        .nth(1)
        .map_or(0, |(i, _)| i + 1);
    &before[from..]
}

/// The tokens of Rust source text: identifiers and keywords, numbers as
/// written, operators (longest first), delimiters; string and character
/// literals each one token (`"<str>"`, `'<char>'`), comments left out.
pub fn lex(text: &str) -> impl Iterator<Item = &str> {
    lexed(text).map(|(token, _)| token)
}

/// [`lex`]'s tokens, each with the bytes of `text` it was read from.
pub fn lexed(text: &str) -> impl Iterator<Item = (&str, Range<usize>)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let rest = &text[at..];
            let trimmed = rest.trim_start();
            at += rest.len() - trimmed.len();
            if trimmed.is_empty() {
                return None;
            }
            if let Some(after) = trimmed.strip_prefix("//") {
                at += 2 + after.find('\n').unwrap_or(after.len());
                continue;
            }
            if trimmed.starts_with("/*") {
                at += block_comment_len(trimmed);
                continue;
            }
            let (token, len) = next_token(trimmed);
            at += len;
            return Some((token, at - len..at));
        }
    })
}

/// The length of the (nested) block comment `text` starts with.
fn block_comment_len(text: &str) -> usize {
    let mut depth = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        match &bytes[i..i + 2] {
            b"/*" => {
                depth += 1;
                i += 2;
            }
            b"*/" => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    text.len()
}

const OPERATORS: [&str; 24] = [
    "<<=", ">>=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=",
    "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "..",
];

/// The first token of `text` (not blank, not a comment) and its length.
fn next_token(text: &str) -> (&str, usize) {
    let bytes = text.as_bytes();
    let word = |from: usize| {
        from + text[from..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(text.len() - from)
    };
    let first = text.chars().next().unwrap_or(' ');
    // Strings, raw and byte strings.
    let prefix = text
        .find(|c: char| c != 'b' && c != 'r' && c != 'c')
        .unwrap_or(0);
    if prefix <= 2 && text[prefix..].starts_with(['"', '#']) && (prefix > 0 || first == '"') {
        let raw = text[..prefix].contains('r');
        let hashes = text[prefix..].len() - text[prefix..].trim_start_matches('#').len();
        let open = prefix + hashes;
        if text[open..].starts_with('"') && (raw || hashes == 0) {
            return (
                "\"<str>\"",
                open + 1 + string_len(&text[open + 1..], raw, hashes),
            );
        }
    }
    if first == '\'' || text.starts_with("b'") {
        let quote = usize::from(first == 'b');
        let body = &text[quote + 1..];
        let mut chars = body.char_indices();
        match (chars.next(), chars.next()) {
            (Some((_, '\\')), _) => {
                let close = body[1..].find('\'').map_or(body.len(), |i| i + 2);
                return ("'<char>'", quote + 1 + close);
            }
            (Some(_), Some((i, '\''))) => return ("'<char>'", quote + 1 + i + 1),
            // A lifetime or a label.
            _ => return (&text[..word(1)], word(1).max(1)),
        }
    }
    if first.is_ascii_digit() {
        let mut end = 0;
        while end < bytes.len() {
            let b = bytes[end];
            let decimal_point = b == b'.'
                && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)
                && !text[..end].contains('.');
            if b.is_ascii_alphanumeric() || b == b'_' || decimal_point {
                end += 1;
            } else {
                break;
            }
        }
        return (&text[..end], end);
    }
    if first.is_alphabetic() || first == '_' {
        let end = word(0);
        return (&text[..end], end);
    }
    if let Some(op) = OPERATORS.iter().find(|op| text.starts_with(**op)) {
        return (op, op.len());
    }
    let len = first.len_utf8();
    (&text[..len], len)
}

/// The length of a string literal's body and closing quote (and hashes).
fn string_len(body: &str, raw: bool, hashes: usize) -> usize {
    let close: String = std::iter::once('"')
        .chain(std::iter::repeat_n('#', hashes))
        .collect();
    if raw {
        return body.find(&close).map_or(body.len(), |i| i + close.len());
    }
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    body.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<&str> {
        lex(text).collect()
    }

    #[test]
    fn lexes_rust_as_its_tokens() {
        assert_eq!(
            tokens("let x: u8 = a[i + 1] << 2; // note\nif x >= 0x7F { s.push_str(\"a\\\"b\"); }"),
            [
                "let",
                "x",
                ":",
                "u8",
                "=",
                "a",
                "[",
                "i",
                "+",
                "1",
                "]",
                "<<",
                "2",
                ";",
                "if",
                "x",
                ">=",
                "0x7F",
                "{",
                "s",
                ".",
                "push_str",
                "(",
                "\"<str>\"",
                ")",
                ";",
                "}"
            ]
        );
        assert_eq!(
            tokens("for i in 0..n { 'outer: loop { break 'outer; } } /* a /* b */ c */ 1.5"),
            [
                "for", "i", "in", "0", "..", "n", "{", "'outer", ":", "loop", "{", "break",
                "'outer", ";", "}", "}", "1.5"
            ]
        );
        assert_eq!(
            tokens("f(b'x', '\\n', 'a', r#\"q\"u\"#, b\"z\", &'a str)"),
            [
                "f",
                "(",
                "'<char>'",
                ",",
                "'<char>'",
                ",",
                "'<char>'",
                ",",
                "\"<str>\"",
                ",",
                "\"<str>\"",
                ",",
                "&",
                "'a",
                "str",
                ")"
            ]
        );
    }

    /// A function whose guard reads `<=` where the crate writes `<`.
    const BUGGY: &str = "fn get(v: &[u8], index: usize) -> u8 {\n    if index <= v.len() {\n        return v[index];\n    }\n    0\n}\n";

    /// A model of code where `index < len` guards every access, written
    /// many times, and of [`BUGGY`].
    fn trained() -> TokenModel {
        TokenModel::train([corpus().as_str(), BUGGY])
    }

    #[test]
    fn an_edit_back_to_the_usual_form_reads_more_natural_than_another() {
        let model = trained();
        let at = BUGGY.find("<=").unwrap();
        let restore = [Edit::replace(at..at + 2, "<")];
        let other = [Edit::replace(at..at + 2, ">")];
        let restored = model.surprise(BUGGY, &restore);
        let flipped = model.surprise(BUGGY, &other);
        assert!(restored < 0.0, "{restored}");
        assert!(flipped > restored + 3.0, "{flipped} vs {restored}");
    }

    /// The corpus of [`trained`] as one text.
    fn corpus() -> String {
        (0..30)
            .map(|k| {
                format!(
                    "fn get{k}(v: &[u8], index: usize) -> u8 {{\n    if index < v.len() {{\n        return v[index];\n    }}\n    0\n}}\n"
                )
            })
            .collect()
    }

    #[test]
    fn a_text_left_out_of_its_own_model_costs_a_uniform_guess() {
        let model = trained();
        let tokens = model.known(lex(BUGGY));
        let uniform = tokens.len() as f64 * ((model.words.len() + 1) as f64).log2();
        let left_out = LeftOut::of(&model, &[], &tokens);
        let bits = model.bits(&[], &tokens, &LeftOut::default());
        assert!(bits < uniform / 2.0, "{bits} vs {uniform}");
        let all_of_it = TokenModel::train([BUGGY]);
        let alone = all_of_it.known(lex(BUGGY));
        let cost = all_of_it.bits(&[], &alone, &LeftOut::of(&all_of_it, &[], &alone));
        let guess = alone.len() as f64 * ((all_of_it.words.len() + 1) as f64).log2();
        assert!((cost - guess).abs() < 1e-9, "{cost} vs {guess}");
        assert!(model.bits(&[], &tokens, &left_out) > bits);
        assert_eq!(model.surprise(BUGGY, &[]), 0.0);
    }

    #[test]
    fn edits_on_lines_apart_are_scored_apart() {
        // Between the two edits, the code that makes `<` the usual form:
        // scored as one stretch, it would be left out of the counts.
        let text = format!("{BUGGY}{}fn h() -> u8 {{ 0 }}\n", corpus());
        let model = TokenModel::train([text.as_str()]);
        let at = text.find("<=").unwrap();
        let restore = Edit::replace(at..at + 2, "<");
        let zero = text.rfind('0').unwrap();
        let one = Edit::replace(zero..zero + 1, "1");
        let apart = model.surprise(&text, &[one.clone(), restore.clone()]);
        let each = model.surprise(&text, &[restore]) + model.surprise(&text, &[one]);
        assert!((apart - each).abs() < 1e-9, "{apart} vs {each}");
    }
}
