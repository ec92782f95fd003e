//! What follows what: for each statement of the crate (known by its text
//! without whitespace), the statements written right after it in a block.
//! A statement that follows the same statement elsewhere, missing here,
//! is the one clone that got a line the other did not (see the `twin`
//! operator).

use std::collections::BTreeMap;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::code::text_without_spaces;

/// A statement shorter than this (without whitespace) says too little
/// about what follows it (`i += 1;`).
const DISTINCTIVE: usize = 16;

/// Per statement of `file` (written in `text`, without whitespace), the
/// texts of the statements right after it, in order, each once.
pub(super) fn followers(file: &syn::File, text: &str) -> BTreeMap<String, Vec<String>> {
    let mut pairs = Pairs {
        text,
        out: BTreeMap::new(),
    };
    pairs.visit_file(file);
    pairs.out
}

struct Pairs<'a> {
    text: &'a str,
    out: BTreeMap<String, Vec<String>>,
}

impl<'ast> Visit<'ast> for Pairs<'_> {
    fn visit_block(&mut self, block: &'ast syn::Block) {
        for pair in block.stmts.windows(2) {
            let [first, next] = pair else { continue };
            let key = text_without_spaces(&self.text[first.span().byte_range()]);
            if key.len() < DISTINCTIVE {
                continue;
            }
            let next = self.text[next.span().byte_range()].to_string();
            let list = self.out.entry(key).or_default();
            if !list.contains(&next) {
                list.push(next);
            }
        }
        visit::visit_block(self, block);
    }
}
