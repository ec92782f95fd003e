//! The bodies of `macro_rules!` definitions as Rust code: each rule's
//! transcriber parsed as statements (items included), with every `$name`
//! fragment (and `$crate`) taken as an opaque placeholder identifier that
//! keeps the fragment's span, so the nodes found there have the lines and
//! byte ranges of the original text.
//!
//! A repetition `$( ... ) sep op` is read once, as if it expanded to one
//! copy: its statements are walked (probed and mutated) like the others;
//! an edit must stay inside it or cover it whole ([`MacroSite::allows`]).
//! Fragments of kind `vis` and `item` read as nothing, `lifetime` as a
//! lifetime, `block` as `{}`, every other kind as an identifier.

use std::collections::BTreeMap;
use std::ops::Range;

use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use syn::parse::Parser;

/// What a placeholder identifier starts with: `$x` reads as
/// `__autofix_frag_x`, `$crate` as `__autofix_frag_crate`.
pub const PLACEHOLDER: &str = "__autofix_frag_";

/// A `macro_rules!` transcriber being walked: which macro, and where its
/// repetitions are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroSite {
    pub name: String,
    /// The line of `macro_rules!` (with the file, what identifies the macro).
    pub line: u32,
    /// The last line of the definition.
    pub last_line: u32,
    /// Each repetition's bytes, from `$` through its operator, and the
    /// bytes inside its parentheses.
    pub repetitions: Vec<(Range<usize>, Range<usize>)>,
}

impl MacroSite {
    /// Whether an edit of `range` (empty for an insertion) keeps the
    /// transcriber well formed: it lies inside each repetition it touches,
    /// or covers it whole.
    pub fn allows(&self, range: &Range<usize>) -> bool {
        self.repetitions.iter().all(|(whole, inner)| {
            range.end <= whole.start
                || range.start >= whole.end
                || (inner.start <= range.start && range.end <= inner.end)
                || (range.start <= whole.start && whole.end <= range.end)
        })
    }
}

/// One rule of a macro: its transcriber as statements, or why it is not
/// Rust that can be walked.
#[derive(Debug)]
pub struct Rule {
    pub site: MacroSite,
    pub body: Result<Vec<syn::Stmt>, String>,
}

/// The rules of `item` if it is a `macro_rules!` definition (none
/// otherwise, or if its rules are not `(matcher) => {transcriber}` pairs).
pub fn macro_rules(item: &syn::ItemMacro) -> Vec<Rule> {
    let Some(name) = &item.ident else {
        return Vec::new();
    };
    if !item.mac.path.is_ident("macro_rules") {
        return Vec::new();
    }
    let line = item.mac.path.segments[0].ident.span().start().line as u32;
    let last_line = syn::spanned::Spanned::span(item).end().line as u32;
    let mut rules = Vec::new();
    let mut tokens = item.mac.tokens.clone().into_iter().peekable();
    loop {
        let (
            Some(TokenTree::Group(matcher)),
            Some(TokenTree::Punct(eq)),
            Some(TokenTree::Punct(gt)),
        ) = (tokens.next(), tokens.next(), tokens.next())
        else {
            break;
        };
        let Some(TokenTree::Group(transcriber)) = tokens.next() else {
            break;
        };
        if eq.as_char() != '=' || gt.as_char() != '>' {
            break;
        }
        let mut kinds = BTreeMap::new();
        fragment_kinds(matcher.stream(), &mut kinds);
        let mut repetitions = Vec::new();
        let body = substitute(transcriber.stream(), &kinds, &mut repetitions).and_then(|stream| {
            syn::Block::parse_within
                .parse2(stream)
                .map_err(|error| error.to_string())
        });
        rules.push(Rule {
            site: MacroSite {
                name: name.to_string(),
                line,
                last_line,
                repetitions,
            },
            body,
        });
        if matches!(tokens.peek(), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
            tokens.next();
        }
    }
    rules
}

/// `$name:kind` in a matcher, repetitions included.
fn fragment_kinds(stream: TokenStream, kinds: &mut BTreeMap<String, String>) {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(group) => fragment_kinds(group.stream(), kinds),
            TokenTree::Punct(p) if p.as_char() == '$' => {
                if let (
                    Some(TokenTree::Ident(name)),
                    Some(TokenTree::Punct(colon)),
                    Some(TokenTree::Ident(kind)),
                ) = (tokens.get(i + 1), tokens.get(i + 2), tokens.get(i + 3))
                    && colon.as_char() == ':'
                {
                    kinds.insert(name.to_string(), kind.to_string());
                }
            }
            _ => {}
        }
    }
}

/// The transcriber with fragments as placeholders and repetitions read
/// once; records the repetitions' byte ranges.
fn substitute(
    stream: TokenStream,
    kinds: &BTreeMap<String, String>,
    repetitions: &mut Vec<(Range<usize>, Range<usize>)>,
) -> Result<TokenStream, String> {
    let mut out = TokenStream::new();
    let mut tokens = stream.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            TokenTree::Punct(dollar) if dollar.as_char() == '$' => match tokens.next() {
                Some(TokenTree::Ident(name)) => {
                    let span = dollar.span().join(name.span()).unwrap_or(name.span());
                    out.extend(placeholder(&name.to_string(), kinds, span));
                }
                Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis => {
                    out.extend(substitute(group.stream(), kinds, repetitions)?);
                    // An optional separator, then `*`, `+` or `?`.
                    let is_operator = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if matches!(p.as_char(), '*' | '+' | '?'));
                    if !is_operator(tokens.peek()) {
                        tokens.next();
                    }
                    let Some(operator) = tokens.next().filter(|t| is_operator(Some(t))) else {
                        return Err("a repetition without `*`, `+` or `?`".to_string());
                    };
                    let inner =
                        group.span_open().byte_range().end..group.span_close().byte_range().start;
                    let whole = dollar.span().byte_range().start..operator.span().byte_range().end;
                    repetitions.push((whole, inner));
                }
                _ => return Err("a `$` that is neither a fragment nor a repetition".to_string()),
            },
            // An attribute with fragments (`#[$name $($args)*]`) need not be
            // Rust until expanded: it reads as `#[__autofix_frag_attribute]`.
            TokenTree::Group(group)
                if group.delimiter() == Delimiter::Bracket
                    && ends_with_hash(&out)
                    && has_fragment(group.stream()) =>
            {
                let ident = Ident::new(&format!("{PLACEHOLDER}attribute"), group.span());
                let mut rebuilt = Group::new(Delimiter::Bracket, TokenTree::Ident(ident).into());
                rebuilt.set_span(group.span());
                out.extend([TokenTree::Group(rebuilt)]);
            }
            TokenTree::Group(group) => {
                let mut rebuilt = Group::new(
                    group.delimiter(),
                    substitute(group.stream(), kinds, repetitions)?,
                );
                rebuilt.set_span(group.span());
                out.extend([TokenTree::Group(rebuilt)]);
            }
            other => out.extend([other]),
        }
    }
    Ok(out)
}

/// Whether the last token is `#` or `#!` (what starts an attribute).
fn ends_with_hash(stream: &TokenStream) -> bool {
    let tokens: Vec<TokenTree> = stream.clone().into_iter().collect();
    let is =
        |t: Option<&TokenTree>, c: char| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c);
    match tokens.as_slice() {
        [.., before, last] if is(Some(last), '!') => is(Some(before), '#'),
        [.., last] => is(Some(last), '#'),
        [] => false,
    }
}

/// Whether a token stream holds a `$` at any depth.
fn has_fragment(stream: TokenStream) -> bool {
    stream.into_iter().any(|token| match token {
        TokenTree::Punct(p) => p.as_char() == '$',
        TokenTree::Group(g) => has_fragment(g.stream()),
        _ => false,
    })
}

/// What fragment `$name` reads as, by its kind in the matcher.
fn placeholder(name: &str, kinds: &BTreeMap<String, String>, span: Span) -> Vec<TokenTree> {
    let ident = Ident::new(&format!("{PLACEHOLDER}{name}"), span);
    match kinds.get(name).map(String::as_str) {
        Some("vis" | "item") => Vec::new(),
        Some("lifetime") => {
            let mut quote = Punct::new('\'', Spacing::Joint);
            quote.set_span(span);
            vec![TokenTree::Punct(quote), TokenTree::Ident(ident)]
        }
        Some("block") => {
            let mut block = Group::new(Delimiter::Brace, TokenStream::new());
            block.set_span(span);
            vec![TokenTree::Group(block)]
        }
        _ => vec![TokenTree::Ident(ident)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::spanned::Spanned;

    fn rules_of(text: &str) -> (syn::File, Vec<Rule>) {
        let file = crate::code::source::parse_file(text).unwrap();
        let rules = match &file.items[0] {
            syn::Item::Macro(item) => macro_rules(item),
            _ => panic!("not a macro"),
        };
        (file, rules)
    }

    #[test]
    fn fragments_become_placeholders_that_keep_their_place() {
        let text = "macro_rules! area {\n    ($t:ty, $w:ident) => {\n        impl $t {\n            pub fn area(&self) -> u32 {\n                self.$w * 2 + $crate::ONE\n            }\n        }\n    };\n    () => { 0 };\n}\n";
        let (_, rules) = rules_of(text);
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].site.name, "area");
        assert_eq!((rules[0].site.line, rules[0].site.last_line), (1, 10));
        let stmts = rules[0].body.as_ref().unwrap();
        let syn::Stmt::Item(syn::Item::Impl(imp)) = &stmts[0] else {
            panic!("{stmts:?}")
        };
        let syn::ImplItem::Fn(method) = &imp.items[0] else {
            panic!()
        };
        let syn::Stmt::Expr(expr, None) = &method.block.stmts[0] else {
            panic!()
        };
        assert_eq!(&text[expr.span().byte_range()], "self.$w * 2 + $crate::ONE");
        assert_eq!(expr.span().start().line, 5);
        assert!(matches!(
            rules[1].body.as_deref(),
            Ok([syn::Stmt::Expr(_, None)])
        ));
    }

    #[test]
    fn repetitions_are_read_once_and_edits_stay_inside_them() {
        let text =
            "macro_rules! sum {\n    ($($x:expr),*) => {{ let mut s = 0; $( s += $x; )* s }};\n}\n";
        let (_, rules) = rules_of(text);
        let site = &rules[0].site;
        let stmts = rules[0].body.as_ref().unwrap();
        assert_eq!(stmts.len(), 1, "one block expression");
        assert_eq!(site.repetitions.len(), 1);
        let (whole, inner) = site.repetitions[0].clone();
        assert_eq!(&text[whole.clone()], "$( s += $x; )*");
        assert_eq!(&text[inner.clone()], " s += $x; ");
        let statement = text.find("s += $x;").unwrap();
        assert!(site.allows(&(statement..statement + 8)));
        assert!(site.allows(&(statement..statement)));
        assert!(site.allows(&(whole.start - 2..whole.end)));
        assert!(!site.allows(&(statement..whole.end)));
        assert!(!site.allows(&(whole.start - 2..statement + 1)));
    }

    #[test]
    fn kinds_that_are_not_expressions_read_as_what_they_stand_for() {
        let (_, rules) = rules_of(
            "macro_rules! getter {\n    ($v:vis $n:ident, $l:lifetime, $b:block) => {\n        $v fn $n<$l>(x: &$l u8) -> u8 { let _ = $b; *x }\n    };\n}\n",
        );
        assert!(rules[0].body.is_ok(), "{:?}", rules[0].body);
    }

    #[test]
    fn attributes_with_fragments_read_as_one_placeholder() {
        let text = "macro_rules! flags {\n    ($(#[$inner:ident $($args:tt)*])* $name:ident) => {\n        $(#[$inner $($args)*])*\n        pub struct $name;\n        $crate::more! { $name }\n    };\n}\n";
        let (_, rules) = rules_of(text);
        let stmts = rules[0].body.as_ref().unwrap();
        assert!(matches!(&stmts[0], syn::Stmt::Item(syn::Item::Struct(s)) if s.attrs.len() == 1));
        assert!(matches!(&stmts[1], syn::Stmt::Macro(_)));
        assert_eq!(
            rules[0].site.repetitions.len(),
            1,
            "the attribute's own is not read"
        );
    }

    #[test]
    fn bodies_that_are_not_statements_say_why() {
        let (_, rules) = rules_of("macro_rules! arms {\n    ($p:pat) => { $p => 1, };\n}\n");
        assert!(rules[0].body.is_err());
        let (_, rules) = rules_of("fn_like!(x);\n");
        assert!(rules.is_empty());
    }
}
