//! A buffer given whole where its filled part is meant: `buf` to
//! `&buf[..len]` (or `&buf[len..]`), `len` a bound the function slices
//! that same variable with elsewhere (`&mut buf[*len..]` gives
//! `&buf[..*len]`: smol_str copied a whole inline buffer, NUL padding
//! included, where its first `len` bytes were meant).

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator, read_whole};

/// Give a variable's part the function slices elsewhere.
pub(super) struct Slice;

impl MutationOperator for Slice {
    fn operator(&self) -> Operator {
        Operator::Slice
    }

    fn name(&self) -> &'static str {
        "slice"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Variable { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Variable { range, name } = &site.kind else {
            return Vec::new();
        };
        let key = (site.file, site.function.clone(), site.function_line);
        let Some(slices) = cx.space.slices.get(&key) else {
            return Vec::new();
        };
        // Not the slice itself (`buf[..]`).
        if !read_whole(cx.text, range) {
            return Vec::new();
        }
        let before = cx.text[..range.start].trim_end();
        let borrowed = before.ends_with('&') || before.ends_with("&mut");
        let borrow = if borrowed { "" } else { "&" };
        slices
            .iter()
            .filter(|(sliced, _)| sliced == name)
            .flat_map(|(_, bound)| {
                [
                    format!("{borrow}{name}[..{bound}]"),
                    format!("{borrow}{name}[{bound}..]"),
                ]
            })
            .map(|text| Edit::replace(range.clone(), text))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::lines_made;
    use crate::mutation::patch::Operator;

    #[test]
    fn a_buffer_given_whole_gets_the_part_the_function_slices_elsewhere() {
        let text = "pub fn push(buf: &mut [u8; 4], len: &mut usize, c: char, heap: &mut Vec<u8>) {\n    if *len < 4 {\n        c.encode_utf8(&mut buf[*len..]);\n    } else {\n        heap.extend_from_slice(buf);\n        use_it(&buf);\n    }\n}\n";
        assert_eq!(
            lines_made(text, Operator::Slice, 5),
            [
                "heap.extend_from_slice(&buf[*len..]);".to_string(),
                "heap.extend_from_slice(&buf[..*len]);".into(),
            ]
            .into()
        );
        // Already borrowed: the borrow is kept, not doubled.
        assert!(lines_made(text, Operator::Slice, 6).contains("use_it(&buf[..*len]);"));
        // The slice itself is left alone.
        assert!(lines_made(text, Operator::Slice, 3).is_empty());
    }
}
