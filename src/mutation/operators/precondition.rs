//! Preconditions checked where they were broken. At the line that called a
//! function whose assertion a failing test tripped (see
//! `sites::preconditions`), the asserted condition is written in the
//! call's terms (`self` as the receiver, each parameter as its argument:
//! `!p.stack.is_empty()` for `p.stack.pop()`, whose
//! `debug_assert!(!self.is_empty())` failed) and checked first: joined to
//! the condition of an `if` or `while` whose block makes the call (`if
//! !ctx.width_parsed && !p.stack.is_empty()`, ttf-parser's fix), or as a
//! guard before the call's statement (`if p.stack.is_empty() { return
//! None; }`).

use std::ops::Range;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, ExprCall, ExprMethodCall};

use crate::code::source::Edit;
use crate::code::{body_from, line_at};
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Precondition as Broken, Site, SiteKind, is_atomic, negation};

use super::condition::conjunct;
use super::guard::exits;
use super::{Context, MutationOperator, parenthesized};

/// Check a broken precondition before the call that broke it.
pub(super) struct Precondition;

impl MutationOperator for Precondition {
    fn operator(&self) -> Operator {
        Operator::Precondition
    }

    fn name(&self) -> &'static str {
        "precondition"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Condition { .. } | SiteKind::Statement(_))
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let broken = cx.space.preconditions.iter();
        let here = broken.filter(|p| p.caller.file == site.file);
        match &site.kind {
            SiteKind::Condition { range, atomic, .. } => {
                let own = conjunct(&cx.text[range.clone()], *atomic);
                here.filter(|p| calls_in_block(cx.text, range.end, p.caller.line))
                    .filter_map(|p| lifted(p, line_text(cx.text, p.caller.line)?))
                    .map(|checked| {
                        let checked = conjunct(&checked, false);
                        Edit::replace(range.clone(), format!("{own} && {checked}"))
                    })
                    .collect()
            }
            SiteKind::Statement(statement) => {
                let exits = exits(site, statement, cx);
                let code = &cx.text[statement.range.clone()];
                here.filter(|p| p.caller.line == site.line)
                    .filter_map(|p| lifted(p, code))
                    .filter_map(|checked| {
                        let parsed = syn::parse_str::<Expr>(&checked).ok()?;
                        Some(negation(&parsed, &checked))
                    })
                    .flat_map(|unmet| {
                        exits.iter().map(move |exit| {
                            let guard = format!("if {unmet} {{ {exit} }}\n{}", statement.indent);
                            Edit::insert(statement.range.start, guard)
                        })
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, replaced: &str, _: &str) -> usize {
        // A new condition joined to one; a guard is new statements.
        if replaced.is_empty() { 4 } else { 2 }
    }
}

/// The text of line `line` (1-based) of `text`, trimmed.
fn line_text(text: &str, line: u32) -> Option<&str> {
    text.lines().nth(line as usize - 1).map(str::trim)
}

/// Whether line `line` is inside the block that follows the condition
/// ending at `end` (an `if`'s or a loop's), and not on the condition's
/// own line.
fn calls_in_block(text: &str, end: usize, line: u32) -> bool {
    let Some(block) = body_from(text, end) else {
        return false;
    };
    text[end..block.start].trim().is_empty()
        && line_at(text, block.start) < line
        && line <= line_at(text, block.end)
}

/// The precondition written in the terms of its call in `code` (a
/// statement, or the line that makes the call): `self` as the receiver,
/// each parameter as its argument; `None` when `code` makes no such call
/// with as many arguments.
fn lifted(broken: &Broken, code: &str) -> Option<String> {
    let values = call_values(broken, code)?;
    let condition: Expr = syn::parse_str(&broken.condition).ok()?;
    let mut names = Names(Vec::new());
    names.visit_expr(&condition);
    let mut out = String::new();
    let mut at = 0;
    for (range, name) in names.0 {
        let Some(position) = broken.parameters.iter().position(|p| *p == name) else {
            continue;
        };
        out.push_str(&broken.condition[at..range.start]);
        out.push_str(&values[position]);
        at = range.end;
    }
    out.push_str(&broken.condition[at..]);
    Some(out)
}

/// The values a call of the precondition's function in `code` gives its
/// parameters, as operands: the receiver for `self`, then the arguments.
fn call_values(broken: &Broken, code: &str) -> Option<Vec<String>> {
    let code = code.trim();
    let mut finder = CallOf {
        name: &broken.callee,
        code,
        found: None,
    };
    match syn::parse_str::<syn::Stmt>(code) {
        Ok(statement) => finder.visit_stmt(&statement),
        Err(_) => finder.visit_expr(&syn::parse_str::<Expr>(code).ok()?),
    }
    finder
        .found
        .filter(|values| values.len() == broken.parameters.len())
}

/// The operands of the first call of a function named `name` in `code`:
/// its receiver (a method's), then its arguments.
struct CallOf<'a> {
    name: &'a str,
    code: &'a str,
    found: Option<Vec<String>>,
}

impl CallOf<'_> {
    fn operands<'e>(&self, values: impl Iterator<Item = &'e Expr>) -> Vec<String> {
        let operand = |e: &Expr| parenthesized(&self.code[e.span().byte_range()], is_atomic(e));
        values.map(operand).collect()
    }
}

impl<'ast> Visit<'ast> for CallOf<'_> {
    fn visit_expr_method_call(&mut self, call: &'ast ExprMethodCall) {
        if self.found.is_none() && call.method == self.name {
            let values = std::iter::once(&*call.receiver).chain(&call.args);
            self.found = Some(self.operands(values));
        }
        visit::visit_expr_method_call(self, call);
    }

    fn visit_expr_call(&mut self, call: &'ast ExprCall) {
        let named = match &*call.func {
            Expr::Path(path) => path
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == self.name),
            _ => false,
        };
        if self.found.is_none() && named {
            self.found = Some(self.operands(call.args.iter()));
        }
        visit::visit_expr_call(self, call);
    }
}

/// The single names a condition reads (`self`, parameters), with their
/// byte ranges, in order.
struct Names(Vec<(Range<usize>, String)>);

impl<'ast> Visit<'ast> for Names {
    fn visit_expr_path(&mut self, path: &'ast syn::ExprPath) {
        if path.qself.is_none()
            && let Some(name) = path.path.get_ident()
        {
            self.0.push((path.span().byte_range(), name.to_string()));
        }
        visit::visit_expr_path(self, path);
    }
}

#[cfg(test)]
mod tests {
    use crate::code::source::{FileId, Location};
    use crate::mutation::Operator;
    use crate::mutation::sites::Precondition as Broken;
    use crate::mutation::types::Types;

    use super::super::tests::{line, outcomes_given};

    /// ttf-parser: `p.stack.pop()` tripped `pop`'s
    /// `debug_assert!(!self.is_empty())`; the fix checks it in the `if`.
    const PARSER: &str = "pub fn parse(p: &mut Parser, parsed: bool) -> Option<f32> {\n    let dy = p.stack.pop();\n    if !parsed {\n        p.stack.pop();\n    }\n    Some(dy)\n}\n";

    fn made(text: &str, at: u32, condition: &str, parameters: &[&str], line: u32) -> Vec<String> {
        let broken = Broken {
            caller: Location::new(FileId::new(0), at),
            callee: "pop".to_string(),
            condition: condition.to_string(),
            parameters: parameters.iter().map(ToString::to_string).collect(),
        };
        let given = |space: &mut crate::mutation::MutationSpace| space.preconditions = vec![broken];
        let made = outcomes_given(text, Operator::Precondition, line, &Types::default(), given);
        made.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn a_broken_precondition_is_checked_in_the_condition_around_its_call() {
        let made = made(PARSER, 4, "!self.is_empty()", &["self"], 3);
        let lines: Vec<&str> = made.iter().map(|t| line(t, 3)).collect();
        assert_eq!(lines, ["if !parsed && !p.stack.is_empty() {"]);
        // Not for a call the block does not make.
        assert!(self::made(PARSER, 2, "!self.is_empty()", &["self"], 3).is_empty());
    }

    #[test]
    fn a_broken_precondition_guards_the_statement_that_calls_with_its_arguments() {
        let made = made(PARSER, 2, "self.len() > at + 1", &["self", "at"], 2);
        assert!(made.is_empty(), "`pop` takes no argument here: {made:?}");
        let text = PARSER.replace("let dy = p.stack.pop();", "let dy = p.stack.pop(n - 1);");
        let made = self::made(&text, 2, "self.len() > at", &["self", "at"], 2);
        let guards: Vec<&str> = made.iter().map(|t| line(t, 2)).collect();
        assert_eq!(guards, ["if !(p.stack.len() > (n - 1)) { return None; }"]);
    }
}
