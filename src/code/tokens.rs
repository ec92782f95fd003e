//! Small helpers over tokens and text: the words of a text, a node as
//! text, the line a node starts at, kinds of operators, a macro call's
//! arguments, and where tokens mention names.

use std::collections::BTreeSet;
use std::ops::Range;

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

/// The identifiers of `tokens`, into `out` (keywords among them; not the
/// words of comments or strings).
pub fn identifiers_in(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => {
                out.insert(ident.to_string());
            }
            TokenTree::Group(group) => identifiers_in(group.stream(), out),
            _ => {}
        }
    }
}

/// The words of `text`: its runs of letters, digits and `_` (identifiers,
/// keywords and numbers; a text match, no parse).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
}

/// The parts of the names in `text`, lowercase: its words split at `_` and
/// where a lowercase letter or a digit meets a capital
/// (`DurationHourValueTooLarge` and `duration_hour_value_too_large` both
/// give `duration`, `hour`, `value`, `too`, `large`).
pub fn name_parts(text: &str) -> impl Iterator<Item = String> + '_ {
    words(text).flat_map(|word| {
        let mut parts: Vec<String> = Vec::new();
        let mut previous: Option<char> = None;
        for c in word.chars() {
            let starts = c == '_'
                || (c.is_uppercase()
                    && previous.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit()));
            if starts || parts.is_empty() {
                parts.push(String::new());
            }
            if c != '_'
                && let Some(part) = parts.last_mut()
            {
                part.extend(c.to_lowercase());
            }
            previous = Some(c);
        }
        parts.into_iter().filter(|part| !part.is_empty())
    })
}

/// A type (or any node) as text without spaces: `Option<usize>`.
pub fn without_spaces(node: &impl ToTokens) -> String {
    text_without_spaces(&node.to_token_stream().to_string())
}

/// Where `needle` is written in `range` of `text` as a whole: where its
/// first or last character is a name's, no name character beside it
/// (`b - 1` not in `ab - 10`; `.len` in `self.len` but not in
/// `self.length`).
pub fn occurrences<'t>(
    text: &'t str,
    range: Range<usize>,
    needle: &'t str,
) -> impl Iterator<Item = Range<usize>> + 't {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let start = range.start;
    let (first, last) = (needle.chars().next(), needle.chars().next_back());
    text[range]
        .match_indices(needle)
        .map(move |(at, _)| start + at..start + at + needle.len())
        .filter(move |at| {
            let glued_before = first.is_some_and(word) && text[..at.start].ends_with(word);
            let glued_after = last.is_some_and(word) && text[at.end..].starts_with(word);
            !needle.is_empty() && !glued_before && !glued_after
        })
}

/// Whether `text` starts, blanks aside, with the integer literal `0` as a
/// whole operand, suffixed or not (`0 {`, `0u32)`; not `0.5`, `0x1`, `01`).
pub fn starts_with_zero(text: &str) -> bool {
    let Some(after) = text.trim_start().strip_prefix('0') else {
        return false;
    };
    let end = after
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(after.len());
    let suffix = after[..end].trim_start_matches('_');
    suffix.is_empty()
        || [
            "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        ]
        .contains(&suffix)
}

/// `text` with every whitespace character left out.
pub fn text_without_spaces(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The line where a node starts, skipping its outer attributes.
pub fn start_line(node: &impl ToTokens) -> Option<u32> {
    first_token_after_attributes(node.to_token_stream()).map(|span| span.start().line as u32)
}

fn first_token_after_attributes(tokens: TokenStream) -> Option<Span> {
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        if let TokenTree::Punct(p) = &token
            && p.as_char() == '#'
            && let Some(TokenTree::Group(_)) = tokens.peek()
        {
            tokens.next();
            continue;
        }
        return Some(token.span());
    }
    None
}

/// `<`, `<=`, `>`, `>=`, `==` and `!=`.
pub fn is_comparison(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(op, Lt(_) | Le(_) | Gt(_) | Ge(_) | Eq(_) | Ne(_))
}

/// `+=`, `-=` and the other compound assignments.
pub fn is_compound_assignment(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitXorAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}

/// The arguments of a function-like macro call whose body is a
/// comma-separated list of expressions (`assert_eq!(a, b)`, `vec![x]`);
/// none for any other body.
pub fn macro_arguments(mac: &syn::Macro) -> Punctuated<Expr, Token![,]> {
    mac.parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
        .unwrap_or_default()
}

/// The arguments of a call of one of the standard library's formatting
/// macros, or of `vec!`, that are values computed where it is called:
/// those after the format string (and `write!`'s destination), a named
/// one's value (`width = w`), `vec!`'s elements. None of another macro's
/// (its body may mean anything), nor an assertion's: a weakened assertion
/// is no one's fix.
pub fn value_arguments(mac: &syn::Macro) -> Vec<Expr> {
    let Some(name) = mac.path.get_ident() else {
        return Vec::new();
    };
    let skipped = match name.to_string().as_str() {
        "format" | "format_args" | "print" | "println" | "eprint" | "eprintln" | "panic"
        | "unreachable" | "todo" | "unimplemented" => 1,
        "write" | "writeln" => 2,
        "vec" => 0,
        _ => return Vec::new(),
    };
    let arguments = macro_arguments(mac).into_iter().skip(skipped);
    arguments
        .map(|argument| match argument {
            Expr::Assign(named) => *named.right,
            value => value,
        })
        .collect()
}

/// The parts of a `matches!(value, pattern if guard)` call: its body is
/// no list of expressions.
pub struct MatchesCall {
    pub value: Expr,
    pub pattern: syn::Pat,
    pub guard: Option<Expr>,
}

/// The parts of `mac` when it is a `matches!` call.
pub fn matches_call(mac: &syn::Macro) -> Option<MatchesCall> {
    if !mac.path.is_ident("matches") {
        return None;
    }
    mac.parse_body_with(|input: syn::parse::ParseStream| {
        let value = input.parse()?;
        input.parse::<Token![,]>()?;
        let pattern = syn::Pat::parse_multi_with_leading_vert(input)?;
        let guard = match input.parse::<Option<Token![if]>>()? {
            Some(_) => Some(input.parse()?),
            None => None,
        };
        input.parse::<Option<Token![,]>>()?;
        Ok(MatchesCall {
            value,
            pattern,
            guard,
        })
    })
    .ok()
}

/// Names code refers to that must be in scope where it is put (not local
/// variables): a path's first segment (`fmt` of `fmt::Result`, `Printer`
/// of `Printer::new()`), a name starting upper-case (`VECTOR_SIZE`, a
/// type, `Self`), a macro's name, a function called by its name
/// (`trace(..)`), and the label of a `break` or `continue` (`'outer`);
/// not the prelude's, the standard macros' or `std`, `core`, `alloc`,
/// `crate`.
pub fn outer_names(text: &str) -> BTreeSet<String> {
    fn walk(tokens: TokenStream, out: &mut BTreeSet<String>) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |i: usize| match tokens.get(i) {
            Some(TokenTree::Punct(p)) => Some(p.as_char()),
            _ => None,
        };
        for (i, token) in tokens.iter().enumerate() {
            match token {
                TokenTree::Group(group) => walk(group.stream(), out),
                // The label of a `break 'outer` or `continue 'outer`.
                TokenTree::Ident(ident)
                    if i >= 2
                        && punct(i - 1) == Some('\'')
                        && matches!(&tokens[i - 2], TokenTree::Ident(k) if k == "break" || k == "continue") =>
                {
                    out.insert(format!("'{ident}"));
                }
                TokenTree::Ident(ident) => {
                    let name = ident.to_string();
                    // A later segment, a field or method, a lifetime.
                    let before = |back: usize| i.checked_sub(back).and_then(punct);
                    let segment = before(1) == Some(':') && before(2) == Some(':');
                    if segment || matches!(before(1), Some('.' | '\'')) {
                        continue;
                    }
                    let path_root = punct(i + 1) == Some(':') && punct(i + 2) == Some(':');
                    let is_macro = punct(i + 1) == Some('!')
                        && matches!(tokens.get(i + 2), Some(TokenTree::Group(_)));
                    let upper = name.starts_with(|c: char| c.is_uppercase());
                    // A function called by its name (`trace(..)`), not a keyword's group.
                    let called = matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
                        && !KEYWORDS.contains(&name.as_str());
                    if (path_root || is_macro || upper || called)
                        && !PRELUDE.split_whitespace().any(|p| p == name)
                    {
                        out.insert(name);
                    }
                }
                _ => {}
            }
        }
    }
    let mut names = BTreeSet::new();
    if let Ok(tokens) = text.parse::<TokenStream>() {
        walk(tokens, &mut names);
    }
    names
}

/// What every module has in scope (see [`outer_names`]).
const PRELUDE: &str = "std core alloc crate Some None Ok Err Option Result Vec String Box Default Clone \
     Copy Iterator IntoIterator ToString ToOwned PartialEq Eq PartialOrd Ord Send Sync \
     Sized Drop Fn FnMut FnOnce From Into AsRef AsMut Extend DoubleEndedIterator \
     ExactSizeIterator TryFrom TryInto FromIterator vec format write writeln print \
     println eprint eprintln panic assert assert_eq assert_ne debug_assert \
     debug_assert_eq debug_assert_ne unreachable unimplemented todo matches dbg \
     format_args concat stringify cfg env line column file module_path drop u8 u16 u32 \
     u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 char str bool";

/// The names a format string captures (`{start}`, `{end:?}`; not `{0}`,
/// `{}` or an escaped `{{x}}`).
pub fn format_captures(format: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = format;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if let Some(escaped) = rest.strip_prefix('{') {
            rest = escaped;
            continue;
        }
        let end = rest.find(['}', ':']).unwrap_or(rest.len());
        let name = rest[..end].trim();
        if name.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        {
            names.push(name.to_string());
        }
    }
    names
}

/// How tokens mention a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mention {
    /// As a word, at these bytes.
    Word(Range<usize>),
    /// As a value a format string formats (`"{NAME}"`, `"{NAME:?}"`).
    Formatted,
    /// As a format string's width or precision (`"{:NAME$}"`).
    Width,
}

/// Each mention of one of `names` in `tokens` (a macro call's, a file's),
/// groups included.
pub fn mentions<'n>(tokens: TokenStream, names: &BTreeSet<&'n str>) -> Vec<(&'n str, Mention)> {
    let mut found = Vec::new();
    for token in tokens {
        match token {
            TokenTree::Group(group) => found.extend(mentions(group.stream(), names)),
            TokenTree::Ident(ident) => {
                if let Some(&name) = names.get(ident.to_string().as_str()) {
                    found.push((name, Mention::Word(ident.span().byte_range())));
                }
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                for &name in names {
                    if text.contains(&format!("{{{name}}}")) || text.contains(&format!("{{{name}:"))
                    {
                        found.push((name, Mention::Formatted));
                    }
                    if text.contains(&format!("{name}$")) {
                        found.push((name, Mention::Width));
                    }
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
    found
}

/// The first names of the paths in `code` (`a` of `a::b::c(..)`).
pub fn path_roots(code: &str) -> Vec<String> {
    let mut roots: Vec<String> = Vec::new();
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &before[start..];
        let continues = before[..start].ends_with("::");
        if !name.is_empty() && !continues && !roots.iter().any(|r| r == name) {
            roots.push(name.to_string());
        }
    }
    roots
}

/// A statement's shape: its tokens, each name that reads as a local
/// variable written `$`, and those names in order (`bytecount +=
/// line_start.bytes_scanned();` is `$ += $ . bytes_scanned ( ) ;` with
/// `bytecount`, `line_start`). A name reads as a variable when it starts
/// lowercase or with `_`, is no keyword, follows no `.` or `::` and is
/// followed by no `(`, `!` or `::` (a method, field, function, macro or
/// path). `None` for a text that does not lex.
pub fn shape(text: &str) -> Option<(String, Vec<String>)> {
    let tokens: TokenStream = text.parse().ok()?;
    let (mut shape, mut names) = (String::new(), Vec::new());
    shape_of(tokens, &mut shape, &mut names);
    Some((shape, names))
}

/// Whether `word` is one of Rust's keywords that start lowercase.
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// Rust's keywords that start lowercase (strict, and reserved).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

fn shape_of(tokens: TokenStream, shape: &mut String, names: &mut Vec<String>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let punct = |token: Option<&TokenTree>, chars: &[char]| matches!(token, Some(TokenTree::Punct(p)) if chars.contains(&p.as_char()));
    for (index, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                shape.push_str(open);
                shape.push(' ');
                shape_of(group.stream(), shape, names);
                shape.push_str(close);
            }
            TokenTree::Ident(ident) => {
                let name = ident.to_string();
                let before = index.checked_sub(1).and_then(|i| tokens.get(i));
                let after = tokens.get(index + 1);
                let path = matches!(after, Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint);
                let call = matches!(after, Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis);
                let variable = name.starts_with(|c: char| c.is_lowercase() || c == '_')
                    && !KEYWORDS.contains(&name.as_str())
                    && !punct(before, &['.', ':'])
                    && !punct(after, &['!'])
                    && !path
                    && !call;
                if variable {
                    shape.push('$');
                    names.push(name);
                } else {
                    shape.push_str(&name);
                }
            }
            other => shape.push_str(&other.to_string()),
        }
        shape.push(' ');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_is_an_operand_of_its_own() {
        assert!(starts_with_zero(" 0 {") && starts_with_zero("0)") && starts_with_zero("0"));
        assert!(starts_with_zero(" 0u32 {") && starts_with_zero("0_usize;"));
        assert!(!starts_with_zero(" 0.5") && !starts_with_zero("0x1") && !starts_with_zero("01"));
        assert!(!starts_with_zero(" n") && !starts_with_zero("0..n"));
    }

    #[test]
    fn a_needle_is_found_whole_at_its_name_ends_only() {
        let found = |text: &str, needle| occurrences(text, 0..text.len(), needle).count();
        assert_eq!(found("let y = ab - 10; let x = b - 1;", "b - 1"), 1);
        assert_eq!(found("self.len + self.length", ".len"), 1);
        assert_eq!(found("self.len + myself.len", "self.len"), 1);
        assert_eq!(found("abc", ""), 0);
        // Only within the range, given in the text's offsets.
        let text = "x + 1; x + 1;";
        let mut within = occurrences(text, 6..text.len(), "x + 1");
        assert_eq!(within.next(), Some(7..12));
        assert_eq!(within.next(), None);
    }

    #[test]
    fn names_split_into_lowercase_parts() {
        let parts = |text: &str| name_parts(text).collect::<Vec<String>>();
        let expected = ["duration", "hour", "value", "too", "large"];
        assert_eq!(
            parts("Err(ParseError::DurationHourValueTooLarge)")[3..],
            expected
        );
        assert_eq!(
            parts("main/expect_duration_hour_value_too_large")[2..],
            expected
        );
        assert_eq!(parts("HTTPError u8x4"), ["httperror", "u8x4"]);
    }

    #[test]
    fn outer_names_are_what_code_needs_in_scope_besides_its_variables() {
        let text =
            "if self.start.line == end { return Printer::new().print(self, f, fmt::Alternate); }";
        assert_eq!(
            outer_names(text),
            BTreeSet::from(["Printer".to_string(), "fmt".into()])
        );
        let text =
            "let sign = opt(dispatch! { x; }); Self { n: VECTOR_SIZE as usize, s: String::new() }";
        assert_eq!(
            outer_names(text),
            BTreeSet::from(["Self", "VECTOR_SIZE", "dispatch", "opt"].map(String::from))
        );
        // A loop's label, a function called by its name.
        let text =
            "if n > 0 { break 'PATTERNS; } let p = trace(\"x\", alt((a, b))); drop(p); if (a) {}";
        assert_eq!(
            outer_names(text),
            BTreeSet::from(["'PATTERNS".to_string(), "alt".into(), "trace".into()])
        );
        // Lifetimes, fields, later segments, the standard macros.
        assert!(
            outer_names("fn f<'A>(x: &'A T) { x.Inner; a::B::C; vec![1]; }")
                .iter()
                .eq(["T", "a"])
        );
    }

    #[test]
    fn path_roots_are_the_first_segments() {
        assert_eq!(
            path_roots("total += cube::cube(side) + std::mem::take(&mut x) + a::b::c;"),
            ["cube", "std", "a"]
        );
        assert_eq!(path_roots("Vec::<u8>::new()"), ["Vec"]);
        assert!(path_roots("let x = y;").is_empty());
    }

    #[test]
    fn tokens_mention_names_as_words_and_in_format_strings() {
        let text = "f(A, \"{B} {C:?} {:>D$} {E\", [F::G]);";
        let tokens: TokenStream = text.parse().unwrap();
        let names = BTreeSet::from(["A", "B", "C", "D", "E", "G", "H"]);
        let a = text.find('A').unwrap();
        let g = text.find('G').unwrap();
        assert_eq!(
            mentions(tokens, &names),
            [
                ("A", Mention::Word(a..a + 1)),
                ("B", Mention::Formatted),
                ("C", Mention::Formatted),
                ("D", Mention::Width),
                ("G", Mention::Word(g..g + 1)),
            ]
        );
    }

    #[test]
    fn a_shape_leaves_out_the_names_of_variables_only() {
        let (shape, names) = super::shape("bytecount += line_start.bytes_scanned();").unwrap();
        assert_eq!(shape, "$ + = $ . bytes_scanned ( ) ; ");
        assert_eq!(names, ["bytecount", "line_start"]);
        // Functions, macros, paths, fields, keywords and types stay.
        let (shape, names) =
            super::shape("let n: usize = self.len + f(x, T::MAX) + m!(y);").unwrap();
        assert_eq!(
            shape,
            "let $ : usize = self . len + f ( $ , T : : MAX ) + m ! ( $ ) ; "
        );
        assert_eq!(names, ["n", "x", "y"]);
    }
}
