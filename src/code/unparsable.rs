//! Items syn cannot parse, left out of a file that rustc compiles: syn 2
//! rejects some code of edition 2015 that rustc accepts (a bare trait
//! object with bounds after a return type, `Box<FnMut(&A) -> Ordering +
//! Send>`, walkdir 2.2's), and one such item made the whole file, and with
//! a crate root every module under it, unreadable. The item is blanked
//! (every byte but a newline made a space, so each offset and line stays
//! where it was) and the rest is parsed: the item is not ranked or edited,
//! the builds still compile the file as written.

use std::ops::Range;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Items left out of one file, at most: a file with more is not the
/// dialect case this is for.
const LEFT_OUT: usize = 8;

/// `text` parsed with the items syn cannot parse blanked, and the errors
/// of those items (syn's first error in each); the error of the first when
/// no blanking makes the file parse.
pub fn parse_leaving_out(mut text: String) -> syn::Result<(syn::File, Vec<syn::Error>)> {
    let mut left_out: Vec<syn::Error> = Vec::new();
    loop {
        let error = match syn::parse_str::<syn::File>(&text) {
            Ok(file) => return Ok((file, left_out)),
            Err(error) => error,
        };
        let at = error.span().byte_range().start;
        let item = (left_out.len() < LEFT_OUT)
            .then(|| text.parse::<TokenStream>().ok())
            .flatten()
            .and_then(|stream| item_around(stream, at));
        let Some(item) = item else {
            return Err(left_out.into_iter().next().unwrap_or(error));
        };
        blank(&mut text, item);
        left_out.push(error);
    }
}

/// The bytes of the item (of the file, or of an `impl`, `trait` or `mod`
/// block in it) that holds offset `at`: from its first token (its
/// attributes and doc comments) to its last (a `;` or a closing brace).
fn item_around(stream: TokenStream, at: usize) -> Option<Range<usize>> {
    for item in items(stream) {
        let (Some(first), Some(last)) = (item.first(), item.last()) else {
            continue;
        };
        let range = first.span().byte_range().start..last.span().byte_range().end;
        if !range.contains(&at) {
            continue;
        }
        // Within a block of items, only the item inside is left out.
        let holds_items = item
            .iter()
            .any(|t| matches!(t, TokenTree::Ident(i) if i == "impl" || i == "trait" || i == "mod"));
        if let TokenTree::Group(block) = last
            && holds_items
            && block.delimiter() == Delimiter::Brace
            && block.span().byte_range().contains(&at)
            && let Some(inner) = item_around(block.stream(), at)
        {
            return Some(inner);
        }
        return Some(range);
    }
    None
}

/// The token trees of `stream` split into items: each ends with a `;` or
/// with a braced block that no `;`, `.` or other operator continues (`use
/// a::{b, c};` and `const S: T = T { .. };` end at their `;`).
fn items(stream: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut items = Vec::new();
    let mut item = Vec::new();
    let mut trees = stream.into_iter().peekable();
    while let Some(tree) = trees.next() {
        let ends = match &tree {
            TokenTree::Punct(p) => p.as_char() == ';',
            TokenTree::Group(g) => {
                g.delimiter() == Delimiter::Brace
                    && !matches!(trees.peek(), Some(TokenTree::Punct(p)) if p.as_char() != '#')
            }
            _ => false,
        };
        item.push(tree);
        if ends {
            items.push(std::mem::take(&mut item));
        }
    }
    if !item.is_empty() {
        items.push(item);
    }
    items
}

/// `range` of `text` made spaces, its newlines kept (each char becomes as
/// many spaces as its bytes: every offset after it stays).
fn blank(text: &mut String, range: Range<usize>) {
    let blanked: String = text[range.clone()]
        .chars()
        .map(|c| {
            if c == '\n' {
                "\n".to_string()
            } else {
                " ".repeat(c.len_utf8())
            }
        })
        .collect();
    text.replace_range(range, &blanked);
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALKDIR: &str = "use std::cmp::Ordering;\n\n/// Options.\nstruct Options {\n    max_open: usize,\n    sorter: Option<Box<\n        FnMut(&u8, &u8) -> Ordering + Send + Sync + 'static\n    >>,\n}\n\nimpl Options {\n    fn sort(&mut self) -> Option<Box<FnMut(&u8, &u8) -> Ordering + Send>> {\n        self.sorter.take()\n    }\n\n    fn open(&self) -> usize {\n        self.max_open + 1\n    }\n}\n\nfn depth(n: usize) -> usize {\n    n - 1\n}\n";

    #[test]
    fn an_item_syn_cannot_parse_is_blanked_and_the_rest_keeps_its_offsets() {
        assert!(syn::parse_str::<syn::File>(WALKDIR).is_err());
        let (file, left_out) = parse_leaving_out(WALKDIR.to_string()).unwrap();
        let lines: Vec<usize> = left_out.iter().map(|e| e.span().start().line).collect();
        assert_eq!(lines, [7, 12]);
        // The struct went whole; of the impl, only the method that cannot
        // be parsed; the function after them kept its place.
        let names: Vec<String> = file
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Fn(f) => Some(f.sig.ident.to_string()),
                syn::Item::Impl(i) => Some(format!("impl of {} items", i.items.len())),
                syn::Item::Struct(s) => Some(s.ident.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(names, ["impl of 1 items", "depth"]);
        let syn::Item::Fn(depth) = file.items.last().unwrap() else {
            panic!("{:?}", file.items.last());
        };
        let body = syn::spanned::Spanned::span(&depth.block.stmts[0]).byte_range();
        assert_eq!(&WALKDIR[body], "n - 1");
    }

    #[test]
    fn a_file_that_no_blanking_makes_parse_gives_its_error() {
        // Unbalanced braces: no item can be told apart.
        assert!(parse_leaving_out("fn f() {\n    let x = ;\n".to_string()).is_err());
        let items = items(
            "use a::{b, c};\nconst S: T = T { a: 1 }.b();\nstruct U {}\n"
                .parse()
                .unwrap(),
        );
        assert_eq!(items.len(), 3);
    }
}
