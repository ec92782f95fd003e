//! Fields left out: a function that does one thing to several fields of
//! `self` of one type, a statement (`self.dimmed = false;`) or an operand of
//! a `&&` or `||` chain (`!self.dimmed`) written again with only the
//! field's name changed, and never names other fields of that type: the
//! statement or the operand for one of those, or for two (a struct's new
//! fields forgotten where the old ones are listed; termcolor's `clear` and
//! `is_none` left out two new style flags, a real bug).

use crate::code::source::Edit;
use crate::code::{function_around, occurrences, text_without_spaces, without_spaces};
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::reset::names_field;
use super::statement::insert;
use super::{Context, MutationOperator};

/// The statement or operand for a field of the same type left out.
pub(super) struct Fields;

impl MutationOperator for Fields {
    fn operator(&self) -> Operator {
        Operator::Fields
    }

    fn name(&self) -> &'static str {
        "fields"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::Statement(_) | SiteKind::BinaryOperator { .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::Statement(statement) => {
                let template = &cx.text[statement.range.clone()];
                let body = function_text(cx, statement.range.start);
                left_out(site, template, body, cx, |other| body.contains(other))
                    .into_iter()
                    .map(|written| {
                        let joined = written.join(&format!("\n{}", statement.indent));
                        insert(statement, (false, true), &joined, cx.text)
                    })
                    .collect()
            }
            SiteKind::BinaryOperator {
                range,
                operator,
                expression,
                right,
                ..
            } if (operator == "&&" || operator == "||")
                && outermost(cx.text, expression, operator) =>
            {
                let chain = &cx.text[expression.clone()];
                let template = &cx.text[right.clone()];
                let operands = operands_of(chain, operator);
                let body = function_text(cx, right.start);
                let between = joint(cx.text, range.start, operator, chain.contains('\n'));
                left_out(site, template, body, cx, |other| {
                    operands.contains(&text_without_spaces(other))
                })
                .into_iter()
                .map(|written| {
                    let added: String = written.iter().map(|w| format!("{between}{w}")).collect();
                    Edit::insert(right.end, added)
                })
                .collect()
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, made: &str) -> usize {
        if made.contains(';') { 4 } else { 2 }
    }
}

/// `template` written for one or two of the fields of `site`'s `self` type
/// that `body`, its function, never names: those of the type of the one
/// field `template` names, when `written_again` finds it written for
/// another field of that type, and the function names at least as many
/// fields of that type as it leaves out (a list of most of them, not a
/// few chosen).
fn left_out(
    site: &Site,
    template: &str,
    body: &str,
    cx: &Context,
    written_again: impl Fn(&str) -> bool,
) -> Vec<Vec<String>> {
    let Some(fields) = site
        .self_type
        .as_ref()
        .and_then(|owner| cx.space.struct_fields.get(owner))
    else {
        return Vec::new();
    };
    let named: Vec<&(String, String)> = fields
        .iter()
        .filter(|(field, _)| names_field(template, field))
        .collect();
    let [(field, ty)] = named[..] else {
        return Vec::new();
    };
    let (listed, missing): (Vec<&String>, Vec<&String>) = fields
        .iter()
        .filter(|(other, other_ty)| other_ty == ty && other != field)
        .map(|(other, _)| other)
        .partition(|other| names_field(body, other));
    let again = listed
        .iter()
        .any(|other| written_again(&renamed(template, field, other)));
    if !again || listed.len() + 1 < missing.len() {
        return Vec::new();
    }
    let written: Vec<String> = missing
        .iter()
        .map(|m| renamed(template, field, m))
        .collect();
    let mut out: Vec<Vec<String>> = written.iter().map(|w| vec![w.clone()]).collect();
    for (i, first) in written.iter().enumerate() {
        for second in &written[i + 1..] {
            out.push(vec![first.clone(), second.clone()]);
        }
    }
    out
}

/// The text of the function around `at` (empty outside one).
fn function_text<'a>(cx: &Context<'a>, at: usize) -> &'a str {
    function_around(cx.text, at).map_or("", |range| &cx.text[range])
}

/// `template` with `.field` made `.by` wherever it names the field.
fn renamed(template: &str, field: &str, by: &str) -> String {
    let (needle, by) = (format!(".{field}"), format!(".{by}"));
    let mut out = String::with_capacity(template.len());
    let mut from = 0;
    for at in occurrences(template, 0..template.len(), &needle) {
        out.push_str(&template[from..at.start]);
        out.push_str(&by);
        from = at.end;
    }
    out.push_str(&template[from..]);
    out
}

/// The operands of a chain of `operator`, each without spaces.
fn operands_of(chain: &str, operator: &str) -> Vec<String> {
    let Ok(expr) = syn::parse_str::<syn::Expr>(chain) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut next = Some(&expr);
    while let Some(e) = next {
        next = None;
        match e {
            syn::Expr::Binary(b) if op_text(&b.op) == Some(operator) => {
                out.push(without_spaces(&b.right));
                next = Some(&b.left);
            }
            other => out.push(without_spaces(other)),
        }
    }
    out
}

fn op_text(op: &syn::BinOp) -> Option<&'static str> {
    match op {
        syn::BinOp::And(_) => Some("&&"),
        syn::BinOp::Or(_) => Some("||"),
        _ => None,
    }
}

/// Whether the chain at `expression` is not itself an operand of a longer
/// chain of `operator` (which gets the edit).
fn outermost(text: &str, expression: &std::ops::Range<usize>, operator: &str) -> bool {
    !text[expression.end..].trim_start().starts_with(operator)
        && !text[..expression.start].trim_end().ends_with(operator)
}

/// What goes before an added operand: the operator, on a line of its own
/// indented as the operator at `at` where the chain spans lines.
fn joint(text: &str, at: usize, operator: &str, multiline: bool) -> String {
    if !multiline {
        return format!(" {operator} ");
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = text[line_start..at]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    format!("\n{indent}{operator} ")
}

#[cfg(test)]
mod tests {
    use super::super::tests::outcomes;
    use super::*;

    const STYLE: &str = "pub struct Spec {\n    fg: Option<u8>,\n    bold: bool,\n    intense: bool,\n    dimmed: bool,\n    italic: bool,\n    width: usize,\n}\n\nimpl Spec {\n    pub fn is_none(&self) -> bool {\n        self.fg.is_none()\n            && !self.bold\n            && !self.dimmed\n    }\n    pub fn clear(&mut self) {\n        self.fg = None;\n        self.bold = false;\n        self.dimmed = false;\n    }\n}\n";

    /// termcolor 1.1.0: `is_none` and `clear` listed the old style flags
    /// and not the two new ones.
    #[test]
    fn a_chain_gets_the_operands_of_the_fields_it_left_out() {
        let made = outcomes(STYLE, Operator::Fields, 12);
        let both = STYLE.replace(
            "&& !self.dimmed\n",
            "&& !self.dimmed\n            && !self.intense\n            && !self.italic\n",
        );
        let one = STYLE.replace(
            "&& !self.dimmed\n",
            "&& !self.dimmed\n            && !self.italic\n",
        );
        assert!(made.contains(&both), "{made:#?}");
        assert!(made.contains(&one), "{made:#?}");
        // Fields of another type, and fields the function names, are not added.
        assert!(
            made.iter()
                .all(|m| !m.contains("self.width") && !m.contains("!self.fg"))
        );
        // Each link of the chain is a site: the outermost one gets the edits.
        assert_eq!(made.len(), 3);
    }

    #[test]
    fn a_statement_is_written_again_for_the_fields_left_out() {
        let made = outcomes(STYLE, Operator::Fields, 19);
        let both = STYLE.replace(
            "self.dimmed = false;\n",
            "self.dimmed = false;\n        self.intense = false;\n        self.italic = false;\n",
        );
        assert!(made.contains(&both), "{made:#?}");
        assert_eq!(made.len(), 3);
        // `self.fg = None;` is written for no other field of its type.
        assert!(outcomes(STYLE, Operator::Fields, 17).is_empty());
    }

    /// Two of five flags read together are a choice, not a list.
    #[test]
    fn a_few_fields_chosen_are_no_list() {
        let text = "pub struct F {\n    a: bool,\n    b: bool,\n    c: bool,\n    d: bool,\n    e: bool,\n}\n\nimpl F {\n    pub fn any(&self) -> bool {\n        self.a || self.b\n    }\n}\n";
        assert!(outcomes(text, Operator::Fields, 11).is_empty());
        let four = text.replace("    e: bool,\n", "");
        assert_eq!(outcomes(&four, Operator::Fields, 10).len(), 3);
    }

    #[test]
    fn a_field_is_renamed_by_its_whole_name() {
        assert_eq!(
            renamed("self.dim == other.dim && self.dimmed", "dim", "bold"),
            "self.bold == other.bold && self.dimmed"
        );
    }
}
