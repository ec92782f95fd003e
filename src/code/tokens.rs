//! Small helpers over tokens and text: the words of a text, a node as
//! text, the line a node starts at, kinds of operators, a macro call's
//! arguments, and where tokens mention names.

use std::collections::BTreeSet;
use std::ops::Range;

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

/// The words of `text`: its runs of letters, digits and `_` (identifiers,
/// keywords and numbers; a text match, no parse).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
}

/// A type (or any node) as text without spaces: `Option<usize>`.
pub fn without_spaces(node: &impl ToTokens) -> String {
    text_without_spaces(&node.to_token_stream().to_string())
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

/// An operation that panics on some values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panicking {
    /// `v[i]`, `s[a..b]`.
    Index,
    /// `.unwrap()`, `.expect(..)`.
    Unwrap,
    /// `/`, `%` and their assignments.
    Division,
}

/// The names the operations of `kind` at `line` work on: for an index, the
/// indexed value's and the index's (`self.pattern[i + 1]`: `pattern`,
/// `i`); for an unwrap, those of the chain unwrapped (`map.get(&k).unwrap()`:
/// `map`, `get`, `k`); for a division, the divisor's. `self`, keywords and
/// numbers left out; empty when the line has no such operation.
pub fn operand_names(line: &str, kind: Panicking) -> BTreeSet<String> {
    let tokens: Vec<&str> = crate::code::naturalness::lex(line).collect();
    let mut names = BTreeSet::new();
    for (i, &token) in tokens.iter().enumerate() {
        match kind {
            Panicking::Index if token == "[" && i > 0 => {
                let before = tokens[i - 1];
                if !(is_name(before) || before == ")" || before == "]") {
                    continue;
                }
                names.extend(chain_before(&tokens, i - 1));
                let close = matching(&tokens, i, 1).unwrap_or(tokens.len() - 1);
                names.extend(tokens[i + 1..close].iter().copied().filter(|t| is_name(t)));
            }
            Panicking::Unwrap
                if (token == "unwrap" || token == "expect")
                    && i >= 2
                    && tokens[i - 1] == "."
                    && tokens.get(i + 1) == Some(&"(") =>
            {
                names.extend(chain_before(&tokens, i - 2));
            }
            Panicking::Division if matches!(token, "/" | "%" | "/=" | "%=") => {
                names.extend(chain_after(&tokens, i + 1));
            }
            _ => {}
        }
    }
    names.into_iter().map(str::to_string).collect()
}

/// The names the local variables among `names` are computed from: for
/// each, the names of the value its nearest `let` above `line` binds it to
/// (`let mut iter = chunk[..self.offset - start].chars();` makes `iter`
/// come from `chunk`, `offset` and `start`), looked for up to the header of
/// the function `line` is in. What panicked at `line` may have been made
/// so a few lines above.
pub fn defined_from(text: &str, line: u32, names: &BTreeSet<String>) -> BTreeSet<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = BTreeSet::new();
    let mut wanted = names.clone();
    for index in (0..(line as usize).saturating_sub(1).min(lines.len())).rev() {
        if wanted.is_empty() {
            break;
        }
        let start = lines[index].trim_start();
        if start.starts_with("fn ") || start.starts_with("pub fn ") || start.contains(" fn ") {
            break;
        }
        if !start.starts_with("let ") {
            continue;
        }
        // The statement, up to its `;` (a few lines at most).
        let statement: String = lines[index..lines.len().min(index + 6)].join("\n");
        let tokens: Vec<&str> = crate::code::naturalness::lex(&statement)
            .take_while(|&t| t != ";")
            .collect();
        let Some(equals) = tokens.iter().position(|&t| t == "=") else {
            continue;
        };
        let bound: Vec<&str> = tokens[..equals]
            .iter()
            .copied()
            .filter(|t| wanted.contains(*t))
            .collect();
        if bound.is_empty() {
            continue;
        }
        for name in bound {
            wanted.remove(name);
        }
        found.extend(
            tokens[equals + 1..]
                .iter()
                .filter(|t| is_name(t))
                .map(|t| t.to_string()),
        );
    }
    found
}

/// A name a person gave: not a keyword, `self` or a number.
fn is_name(token: &str) -> bool {
    const KEYWORDS: [&str; 18] = [
        "self", "Self", "as", "mut", "let", "if", "else", "return", "in", "for", "while", "match",
        "ref", "move", "true", "false", "loop", "break",
    ];
    token.starts_with(|c: char| c.is_alphabetic() || c == '_') && !KEYWORDS.contains(&token)
}

/// The index of the bracket matching `tokens[at]`, searching forward
/// (`step` 1) or backward (`step` -1).
fn matching(tokens: &[&str], at: usize, step: isize) -> Option<usize> {
    let (open, close) = match tokens[at] {
        "(" | ")" => ("(", ")"),
        "[" | "]" => ("[", "]"),
        _ => return None,
    };
    let (deeper, shallower) = if step > 0 {
        (open, close)
    } else {
        (close, open)
    };
    let mut depth = 0;
    let mut i = at as isize;
    while i >= 0 && (i as usize) < tokens.len() {
        let t = tokens[i as usize];
        if t == deeper {
            depth += 1;
        } else if t == shallower {
            depth -= 1;
            if depth == 0 {
                return Some(i as usize);
            }
        }
        i += step;
    }
    None
}

/// The names of the path or method chain that ends at `tokens[end]`
/// (`a.b(c)[d].e`), read backward.
fn chain_before<'t>(tokens: &[&'t str], end: usize) -> Vec<&'t str> {
    let mut names = Vec::new();
    let mut i = end as isize;
    while i >= 0 {
        let t = tokens[i as usize];
        if t == ")" || t == "]" {
            let Some(open) = matching(tokens, i as usize, -1) else {
                break;
            };
            names.extend(
                tokens[open + 1..i as usize]
                    .iter()
                    .copied()
                    .filter(|t| is_name(t)),
            );
            i = open as isize - 1;
            continue;
        }
        if is_name(t) || t == "self" {
            if is_name(t) {
                names.push(t);
            }
            i -= 1;
            if i >= 0 && matches!(tokens[i as usize], "." | "::") {
                i -= 1;
                continue;
            }
        }
        break;
    }
    names
}

/// The names of the operand that starts at `tokens[start]` (a path, a
/// method chain or a parenthesized expression), read forward.
fn chain_after<'t>(tokens: &[&'t str], start: usize) -> Vec<&'t str> {
    let mut names = Vec::new();
    let mut i = start;
    while i < tokens.len() {
        let t = tokens[i];
        if t == "(" || t == "[" {
            let close = matching(tokens, i, 1).unwrap_or(tokens.len() - 1);
            names.extend(tokens[i + 1..close].iter().copied().filter(|t| is_name(t)));
            i = close + 1;
        } else if is_name(t) || t == "self" {
            if is_name(t) {
                names.push(t);
            }
            i += 1;
        } else {
            break;
        }
        if i < tokens.len() && matches!(tokens[i], "." | "::") {
            i += 1;
        } else if i < tokens.len() && tokens[i] != "(" && tokens[i] != "[" {
            break;
        }
    }
    names
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

    fn names(line: &str, kind: Panicking) -> Vec<String> {
        operand_names(line, kind).into_iter().collect()
    }

    #[test]
    fn the_operands_of_what_panics_are_named() {
        assert_eq!(
            names(
                "        self.pattern[pattern_idx].next_char.is_none()",
                Panicking::Index
            ),
            ["pattern", "pattern_idx"]
        );
        assert_eq!(
            names("let x = bytes[i + 1] + v[0];", Panicking::Index),
            ["bytes", "i", "v"]
        );
        assert!(names("let a = [0u8; 4]; let v = vec![1];", Panicking::Index).is_empty());
        assert_eq!(
            names("let e = map.get(&key).unwrap();", Panicking::Unwrap),
            ["get", "key", "map"]
        );
        assert_eq!(
            names(
                "total / (self.count - skipped) + x % n",
                Panicking::Division
            ),
            ["count", "n", "skipped"]
        );
        assert_eq!(names("avg /= self.len();", Panicking::Division), ["len"]);
    }

    #[test]
    fn a_local_is_defined_from_the_names_of_its_value() {
        let text = "fn other() {\n    let iter = nothing;\n}\nfn prev(&mut self, chunk: &str, start: usize) {\n    let mut iter = chunk[..self.offset - start]\n        .chars().rev();\n    let n = 3;\n    let mut ch = iter.next().unwrap();\n}\n";
        let wanted = BTreeSet::from(["iter".to_string(), "next".to_string()]);
        assert_eq!(
            defined_from(text, 8, &wanted)
                .into_iter()
                .collect::<Vec<_>>(),
            ["chars", "chunk", "offset", "rev", "start"]
        );
        // Not past the function's header: `other`'s `iter` is not this one.
        assert!(defined_from(text, 5, &wanted).is_empty());
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
