//! Where the code of a ranked line is: for each line that starts runnable
//! code, the span of that code, so that an editor or a script can map any
//! line inside a multi-line statement to the line it is ranked at.
//!
//! A statement's span is the whole statement, except for one that holds
//! blocks of statements ranked on their own (`if`, `while`, `for`, `loop`,
//! `match`, a block): there it is the head, up to the condition, iterable or
//! scrutinee. Several statements on one line share one span that covers them
//! all. Columns are 1-based and count characters; `end_column` is the
//! column after the last character (as in SARIF).

use std::collections::BTreeMap;

use proc_macro2::LineColumn;
use quote::ToTokens;
use syn::Expr;
use syn::spanned::Spanned;

use crate::code::crate_sources::CrateSources;
use crate::code::scope::Scope;
use crate::code::source::Location;
use crate::code::walk::{RunnableCode, walk_runnable_code};

/// A region of a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Span {
    #[schemars(range(min = 1))]
    pub line: u32,
    /// 1-based, in characters.
    #[schemars(range(min = 1))]
    pub column: u32,
    #[schemars(range(min = 1))]
    pub end_line: u32,
    /// The column after the last character.
    #[schemars(range(min = 1))]
    pub end_column: u32,
}

impl Span {
    fn between(start: LineColumn, end: LineColumn) -> Span {
        Span {
            line: start.line as u32,
            column: start.column as u32 + 1,
            end_line: end.line as u32,
            end_column: end.column as u32 + 1,
        }
    }

    /// The smallest span holding both.
    fn union(self, other: Span) -> Span {
        let start = (self.line, self.column).min((other.line, other.column));
        let end = (self.end_line, self.end_column).max((other.end_line, other.end_column));
        Span {
            line: start.0,
            column: start.1,
            end_line: end.0,
            end_column: end.1,
        }
    }
}

/// The spans of the ranked lines of every file of a crate.
#[derive(Debug, Clone, Default)]
pub struct Spans {
    by_file: Vec<BTreeMap<u32, Span>>,
}

impl Spans {
    pub fn of(sources: &CrateSources) -> Spans {
        Spans {
            by_file: sources
                .iter()
                .map(|(_, file)| line_spans(&file.syntax))
                .collect(),
        }
    }

    /// The ranked line whose code holds `location`'s line: the nearest at
    /// or above it whose span reaches down to it (a panic in the third line
    /// of a call is the call's statement's), `None` where no ranked code
    /// holds it.
    pub fn holding(&self, location: Location) -> Option<Location> {
        let spans = self.by_file.get(location.file.index())?;
        let (&line, _) = spans
            .range(..=location.line)
            .rev()
            .find(|(_, span)| span.end_line >= location.line)?;
        Some(Location::new(location.file, line))
    }

    /// The span of the code ranked at `location`, if code starts there.
    pub fn get(&self, location: Location) -> Option<Span> {
        self.by_file
            .get(location.file.index())?
            .get(&location.line)
            .copied()
    }
}

/// For each line where runnable code starts (as the probes count lines),
/// the span of that code.
pub fn line_spans(file: &syn::File) -> BTreeMap<u32, Span> {
    let mut collector = Collector::default();
    walk_runnable_code(file, &mut collector);
    collector.spans
}

#[derive(Default)]
struct Collector {
    spans: BTreeMap<u32, Span>,
}

impl Collector {
    fn add(&mut self, line: u32, span: Span) {
        self.spans
            .entry(line)
            .and_modify(|s| *s = s.union(span))
            .or_insert(span);
    }
}

impl RunnableCode for Collector {
    /// A `const fn` run at run time is probed (see `baseline::instrument`),
    /// so its lines are ranked: their spans too.
    fn enters_const_fn(&mut self, _: &syn::Signature, _: &syn::Block, _: &Scope) -> bool {
        true
    }

    fn statement(&mut self, stmt: &syn::Stmt, scope: &Scope) {
        let start = scope_start(stmt, scope.location);
        let end = match stmt {
            syn::Stmt::Expr(expr, _) => head_end(expr),
            _ => None,
        }
        .unwrap_or_else(|| stmt.span().end());
        self.add(scope.location, Span::between(start, end));
    }

    fn else_if(&mut self, else_branch: &Expr, _: &Scope) {
        if let Expr::If(nested) = else_branch {
            let start = nested.if_token.span.start();
            self.add(
                start.line as u32,
                Span::between(start, nested.cond.span().end()),
            );
        }
    }

    fn expression_body(&mut self, body: &Expr, _: &Scope) {
        let span = body.span();
        let end = head_end(body).unwrap_or_else(|| span.end());
        self.add(span.start().line as u32, Span::between(span.start(), end));
    }
}

/// Where a statement starts: its first token after its attributes (the
/// line it is ranked at).
fn scope_start(stmt: &syn::Stmt, line: u32) -> LineColumn {
    stmt.to_token_stream()
        .into_iter()
        .map(|tree| tree.span().start())
        .find(|start| start.line as u32 == line)
        .unwrap_or_else(|| stmt.span().start())
}

/// The end of the head of an expression that holds blocks ranked on their
/// own; `None` for any other expression.
fn head_end(expr: &Expr) -> Option<LineColumn> {
    Some(match expr {
        Expr::If(e) => e.cond.span().end(),
        Expr::While(e) => e.cond.span().end(),
        Expr::ForLoop(e) => e.expr.span().end(),
        Expr::Match(e) => e.expr.span().end(),
        Expr::Loop(e) => e.loop_token.span.end(),
        Expr::Block(e) => e.block.brace_token.span.open().end(),
        Expr::Unsafe(e) => e.unsafe_token.span.end(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::parse_file;

    fn spans(text: &str) -> BTreeMap<u32, Span> {
        line_spans(&parse_file(text).unwrap())
    }

    fn span(line: u32, column: u32, end_line: u32, end_column: u32) -> Span {
        Span {
            line,
            column,
            end_line,
            end_column,
        }
    }

    #[test]
    fn a_statement_over_several_lines_spans_them_all() {
        let spans = spans("fn f(a: u32) -> u32 {\n    let x = a\n        + 1;\n    x\n}\n");
        assert_eq!(spans[&2], span(2, 5, 3, 13));
        assert_eq!(spans[&4], span(4, 5, 4, 6));
        assert_eq!(spans.len(), 2, "{spans:?}");
    }

    #[test]
    fn a_compound_statement_spans_its_head_only() {
        let text = "fn f(a: u32) -> u32 {\n    if a > 1\n        && a < 9\n    {\n        return a;\n    } else if a == 0 {\n        return 1;\n    }\n    match a {\n        0 => 1,\n        _ => 2,\n    }\n}\n";
        let spans = spans(text);
        assert_eq!(spans[&2], span(2, 5, 3, 17), "{spans:?}");
        assert_eq!(spans[&5], span(5, 9, 5, 18));
        assert_eq!(spans[&6], span(6, 12, 6, 21));
        assert_eq!(spans[&9], span(9, 5, 9, 12));
        assert_eq!(spans[&10], span(10, 14, 10, 15));
    }

    /// rapidfuzz's `lcs_sim += mbleven2018(..., score_cutoff - lcs_sim)?;`
    /// panics at the fourth line of its call: the statement is ranked.
    #[test]
    fn a_line_inside_a_statement_is_held_by_the_statement() {
        let text = "fn f(a: u32) -> u32 {\n    let x = g(\n        a,\n        a - 1,\n    );\n    if x > 1 {\n        return x;\n    }\n    x\n}\n";
        let spans = Spans {
            by_file: vec![spans(text)],
        };
        let at = |line| Location::new(crate::code::source::FileId::new(0), line);
        assert_eq!(spans.holding(at(4)), Some(at(2)));
        assert_eq!(spans.holding(at(2)), Some(at(2)));
        // A block's line is its own statement's, not its `if`'s head.
        assert_eq!(spans.holding(at(7)), Some(at(7)));
        // A line with no code after a statement: nothing holds it.
        assert_eq!(spans.holding(at(8)), None);
    }

    #[test]
    fn statements_on_one_line_share_a_span_and_attributes_are_left_out() {
        let spans = spans("fn f() {\n    #[allow(unused)]\n    let a = 1; let b = 2;\n}\n");
        assert_eq!(spans[&3], span(3, 5, 3, 26), "{spans:?}");
        assert!(!spans.contains_key(&2));
    }
}
