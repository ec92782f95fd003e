//! An operand given bare where its function writes it extended elsewhere:
//! `ptr` to `ptr.offset(8)` (seahash read a tail from the chunk's start
//! where every other read of that function is eight bytes on), `m` to
//! `m.max(2)`, `closing_pos` to `offset + closing_pos` (see
//! `MutationSpace::extended`). The extension's other variables must be in
//! scope at the site.

use crate::code::source::Edit;
use crate::code::text_without_spaces;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator, read_whole};

/// Give an operand the extension its function gives it elsewhere.
pub(super) struct Extend;

impl MutationOperator for Extend {
    fn operator(&self) -> Operator {
        Operator::Extend
    }

    fn name(&self) -> &'static str {
        "extend"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Variable { .. } | SiteKind::Field { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let range = match &site.kind {
            SiteKind::Variable { range, .. } => range,
            SiteKind::Field { expression, .. } => expression,
            _ => return Vec::new(),
        };
        let key = (site.file, site.function.clone(), site.function_line);
        let Some(extensions) = cx.space.extended.get(&key) else {
            return Vec::new();
        };
        if !read_whole(cx.text, range) {
            return Vec::new();
        }
        let (before, after) = (&cx.text[..range.start], &cx.text[range.end..]);
        let operand = text_without_spaces(&cx.text[range.clone()]);
        extensions
            .iter()
            .filter(|e| e.operand == operand)
            // Not the extension this operand already is part of.
            .filter(|e| {
                let start = range.start.checked_sub(e.at);
                start.and_then(|s| cx.text.get(s..s + e.text.len())) != Some(e.text.as_str())
            })
            .filter(|e| {
                e.reads.iter().all(|read| {
                    site.bound.contains(read) || read.starts_with(|c: char| c.is_uppercase())
                })
            })
            .map(|e| {
                let bare = !e.binary || delimited(before, after);
                let text = if bare {
                    e.text.clone()
                } else {
                    format!("({})", e.text)
                };
                Edit::replace(range.clone(), text)
            })
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

/// Whether an operation written between `before` and `after` needs no
/// parentheses: it is a whole argument, element, value given or returned.
fn delimited(before: &str, after: &str) -> bool {
    let before = before.trim_end();
    let after = after.trim_start();
    let assigned = before
        .strip_suffix('=')
        .is_some_and(|b| !b.ends_with(['=', '<', '>', '!']));
    let opens =
        before.ends_with(['(', ',', '[', '{', ';']) || assigned || before.ends_with("return");
    opens && after.starts_with([')', ',', ']', '}', ';'])
}

#[cfg(test)]
mod tests {
    use super::super::tests::lines_made;
    use crate::mutation::patch::Operator;

    #[test]
    fn an_operand_given_bare_gets_the_extension_its_function_writes() {
        let text = "pub fn push(ptr: *const u8, n: usize, offset: usize, closing_pos: usize) -> u64 {\n    let a = read(ptr);\n    let b = read(ptr.offset(8));\n    let c = tail(ptr, n);\n    let span = offset + closing_pos;\n    let end = closing_pos * 2;\n    a + b + c\n}\n";
        // The bare `ptr` given to `tail` gets the offset the function reads with.
        assert!(lines_made(text, Operator::Extend, 4).contains("let c = tail(ptr.offset(8), n);"));
        // The extension itself is left alone (its receiver is not a site of it).
        assert!(lines_made(text, Operator::Extend, 3).is_empty());
        // An operation is parenthesized where it is not a whole value.
        assert!(
            lines_made(text, Operator::Extend, 6).contains("let end = (offset + closing_pos) * 2;")
        );
        // And bare where it is.
        assert!(lines_made(text, Operator::Extend, 2).contains("let a = read(ptr.offset(8));"));
    }
}
