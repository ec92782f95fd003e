//! What follows what: for each statement of the crate (known by its text
//! without whitespace), the statements written right after it in a block;
//! and for each shape of statement (its text with its variables' names
//! left out: see `code::shape`), the statements written right before one.
//! A statement that follows the same statement elsewhere, or leads a
//! statement of the same shape, missing here, is the one clone that got a
//! line the other did not (see the `twin` operator).

use std::collections::BTreeMap;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::code::{shape, text_without_spaces};

/// A statement shorter than this (without whitespace) says too little
/// about what follows it (`i += 1;`); so does a shape (`$ = $ + 1 ;`).
const DISTINCTIVE: usize = 16;

/// A statement written right before one of a given shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Leader {
    /// The variables of the statement it leads, in the shape's order.
    pub names: Vec<String>,
    /// The leading statement as written.
    pub text: String,
}

/// What follows what in one file (see the module's documentation).
#[derive(Debug, Default)]
pub(super) struct Neighbours {
    /// Per statement's text without whitespace, the texts of the
    /// statements right after it, in order, each once.
    pub followers: BTreeMap<String, Vec<String>>,
    /// Per statement shape, the statements right before one, each once.
    pub leaders: BTreeMap<String, Vec<Leader>>,
}

/// The neighbours of the statements of `file` (written in `text`).
pub(super) fn neighbours(file: &syn::File, text: &str) -> Neighbours {
    let mut pairs = Pairs {
        text,
        out: Neighbours::default(),
    };
    pairs.visit_file(file);
    pairs.out
}

/// The shape of a statement written as `text`, and its variables, when it
/// is distinctive enough to look for clones by.
pub(super) fn distinctive_shape(text: &str) -> Option<(String, Vec<String>)> {
    shape(text).filter(|(shape, _)| text_without_spaces(shape).len() >= DISTINCTIVE)
}

struct Pairs<'a> {
    text: &'a str,
    out: Neighbours,
}

impl<'ast> Visit<'ast> for Pairs<'_> {
    fn visit_block(&mut self, block: &'ast syn::Block) {
        for pair in block.stmts.windows(2) {
            let [first, next] = pair else { continue };
            let first = &self.text[first.span().byte_range()];
            let next = &self.text[next.span().byte_range()];
            let key = text_without_spaces(first);
            if key.len() >= DISTINCTIVE {
                let list = self.out.followers.entry(key).or_default();
                if !list.iter().any(|n| n == next) {
                    list.push(next.to_string());
                }
            }
            if let Some((shape, names)) = distinctive_shape(next) {
                let leader = Leader {
                    names,
                    text: first.to_string(),
                };
                let list = self.out.leaders.entry(shape).or_default();
                if !list.contains(&leader) {
                    list.push(leader);
                }
            }
        }
        visit::visit_block(self, block);
    }
}
