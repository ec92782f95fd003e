//! Fields left out: a function that does one thing to several fields of
//! `self` of one type, a statement (`self.dimmed = false;`) or an operand of
//! a `&&` or `||` chain (`!self.dimmed`) written again with only the
//! field's name changed, and never names other fields of that type: the
//! statement or the operand for one of those, or for two (a struct's new
//! fields forgotten where the old ones are listed; termcolor's `clear` and
//! `is_none` left out two new style flags, a real bug).

use crate::code::source::Edit;
use crate::code::{function_around, text_without_spaces, without_spaces};
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
                left_out(site, template, statement.range.start, cx, |other| {
                    function_text(cx, statement.range.start).contains(other)
                })
                .into_iter()
                .map(|fields| {
                    let written: Vec<String> =
                        fields.iter().map(|f| renamed(template, f)).collect();
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
            } if operator == "&&" || operator == "||" => {
                if !outermost(cx.text, expression, operator) {
                    return Vec::new();
                }
                let chain = &cx.text[expression.clone()];
                let template = &cx.text[right.clone()];
                let operands = operands_of(chain, operator);
                left_out(site, template, right.start, cx, |other| {
                    operands.contains(&text_without_spaces(other))
                })
                .into_iter()
                .map(|fields| {
                    let between = joint(cx.text, range.start, operator, chain.contains('\n'));
                    let added: String = fields
                        .iter()
                        .map(|f| format!("{between}{}", renamed(template, f)))
                        .collect();
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

/// The fields of `site`'s `self` type that `template` (at `at`) would be
/// written for: one or two of those of its one field's type that the
/// function never names, when `written_again` finds it written for another
/// field of that type (each as [`renamed`], `(field, by)`).
fn left_out(
    site: &Site,
    template: &str,
    at: usize,
    cx: &Context,
    written_again: impl Fn(&str) -> bool,
) -> Vec<Vec<(String, String)>> {
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
    let body = function_text(cx, at);
    let alike = fields
        .iter()
        .filter(|(other, other_ty)| other_ty == ty && other != field);
    let (mut again, mut missing) = (false, Vec::new());
    for (other, _) in alike {
        if names_field(body, other) {
            again |= written_again(&renamed(template, &(field.clone(), other.clone())));
        } else {
            missing.push((field.clone(), other.clone()));
        }
    }
    if !again {
        return Vec::new();
    }
    let mut out: Vec<Vec<(String, String)>> = missing.iter().map(|m| vec![m.clone()]).collect();
    for (i, first) in missing.iter().enumerate() {
        for second in &missing[i + 1..] {
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
fn renamed(template: &str, (field, by): &(String, String)) -> String {
    let needle = format!(".{field}");
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find(&needle) {
        let after = &rest[at + needle.len()..];
        let whole = !after
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..at]);
        out.push_str(if whole { "." } else { &needle });
        if whole {
            out.push_str(by);
        }
        rest = after;
    }
    out.push_str(rest);
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

    #[test]
    fn a_field_is_renamed_by_its_whole_name() {
        let by = ("dim".to_string(), "bold".to_string());
        assert_eq!(
            renamed("self.dim == other.dim && self.dimmed", &by),
            "self.bold == other.bold && self.dimmed"
        );
    }
}
