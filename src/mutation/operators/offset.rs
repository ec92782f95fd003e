//! Off-by-one: `e` to `e - 1` or `e + 1` (an index, a range bound, an
//! argument, a compared or returned integer, a value given to a `let` or an
//! assignment), and `e ± 1` back to `e`. An `e` that already ends in a
//! decimal literal takes the one in it, as a person writes it: `e + 9` made
//! one more is `e + 10`, not `(e + 9) + 1`.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};
use crate::mutation::types::is_integer;

use super::{Context, MutationOperator, parenthesized};

/// `e` to `e + 1` or `e - 1`, and `e ± 1` back to `e`.
pub(super) struct Offset;

impl MutationOperator for Offset {
    fn operator(&self) -> Operator {
        Operator::Offset
    }

    fn name(&self) -> &'static str {
        "offset"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::Operand { .. } | SiteKind::BinaryOperator { .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::Operand {
                range,
                atomic,
                integer,
                ..
            } => {
                let known = cx.types.expression(site.file, range);
                if known.map_or(*integer, is_integer) {
                    let own = &cx.text[range.clone()];
                    [-1, 1]
                        .map(|by| Edit::replace(range.clone(), shifted(own, *atomic, by)))
                        .to_vec()
                } else {
                    Vec::new()
                }
            }
            SiteKind::BinaryOperator {
                operator,
                left,
                right,
                expression,
                ..
            } if (operator == "+" || operator == "-") && cx.text[right.clone()].trim() == "1" => {
                // `e - 1` back to `e`, and `e + 1`.
                vec![Edit::replace(expression.clone(), &cx.text[left.clone()])]
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, replaced: &str, made: &str) -> usize {
        // Taking a `± 1` away is as likely as adding one.
        if made.len() < replaced.len() { 0 } else { 1 }
    }
}

/// `own` made `by` more: `own + 1` or `own - 1`, or, when `own` is a sum or
/// a difference whose right operand is a decimal integer literal, that
/// literal changed (`c - b'A' + 9` made one more is `c - b'A' + 10`, `n - 1`
/// is `n`). The top operator stays `+` or `-`, so the result binds as `own`
/// did wherever it stands.
fn shifted(own: &str, atomic: bool, by: i128) -> String {
    if let Some((left, value, suffix)) = ends_in_a_literal(own) {
        return match value + by {
            0 => left.to_string(),
            v if v > 0 => format!("{left} + {v}{suffix}"),
            v => format!("{left} - {}{suffix}", -v),
        };
    }
    let own = parenthesized(own, atomic);
    if by < 0 {
        format!("{own} - {}", -by)
    } else {
        format!("{own} + {by}")
    }
}

/// `left + k` or `left - k` with `k` a decimal integer literal: `left`'s
/// text, the signed value of `k` and its suffix (`u8`...).
fn ends_in_a_literal(text: &str) -> Option<(&str, i128, &str)> {
    let syn::Expr::Binary(binary) = syn::parse_str::<syn::Expr>(text).ok()? else {
        return None;
    };
    let sign = match binary.op {
        syn::BinOp::Add(_) => 1,
        syn::BinOp::Sub(_) => -1,
        _ => return None,
    };
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(literal),
        ..
    }) = &*binary.right
    else {
        return None;
    };
    let written = literal.token().to_string();
    if ["0x", "0o", "0b"]
        .iter()
        .any(|base| written.starts_with(base))
    {
        return None;
    }
    let value: i128 = literal.base10_parse().ok()?;
    let text = text.trim_end();
    let rest = text.strip_suffix(written.as_str())?;
    // The literal's own suffix, within the text (`u8` of `2u8`).
    let suffix = &text[text.len() - literal.suffix().len()..];
    let left = rest
        .trim_end()
        .strip_suffix(if sign > 0 { '+' } else { '-' })?
        .trim_end();
    Some((left, sign * value, suffix))
}

#[cfg(test)]
mod tests {
    use super::shifted;

    #[test]
    fn a_literal_at_the_end_takes_the_offset() {
        assert_eq!(shifted("c - b'A' + 9", false, 1), "c - b'A' + 10");
        assert_eq!(shifted("c - b'A' + 9", false, -1), "c - b'A' + 8");
        assert_eq!(shifted("n - 1", false, 1), "n");
        assert_eq!(shifted("n + 1", false, -1), "n");
        assert_eq!(shifted("n - 1", false, -1), "n - 2");
        assert_eq!(shifted("n + 0", false, -1), "n - 1");
        assert_eq!(shifted("len - 2usize", false, 1), "len - 1usize");
    }

    #[test]
    fn anything_else_gets_the_offset_written_after_it() {
        assert_eq!(shifted("i", true, 1), "i + 1");
        assert_eq!(shifted("a * 2", false, -1), "(a * 2) - 1");
        assert_eq!(shifted("a + b", false, 1), "(a + b) + 1");
        // Not decimal: written as it is, offset after.
        assert_eq!(shifted("a + 0x10", false, 1), "(a + 0x10) + 1");
        assert_eq!(shifted("a + N", false, -1), "(a + N) - 1");
        // Text after the literal (a comment): written after it too.
        assert_eq!(shifted("n + 1 /* é */", false, 1), "(n + 1 /* é */) + 1");
    }
}
