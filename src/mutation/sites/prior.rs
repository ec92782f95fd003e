//! Values read after a step that were meant before it: a compound
//! assignment (`self.t += self.step;`) whose place the statements after it
//! in its block read (`Some(self.t)`) is a site where the value before the
//! step is kept and read instead (`let t = self.t; self.t += self.step;
//! Some(t)`): an iterator that yields from its second value on.

use std::collections::BTreeSet;
use std::ops::Range;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Stmt};

use super::SiteKind;
use super::collector::Collector;
use crate::code::{
    Scope, free_variables, is_compound_assignment, pattern_bindings, text_without_spaces,
};

impl Collector<'_> {
    /// The site of a step (`stmt`) whose place the statements after it
    /// (`rest`) read before any of them writes it again.
    pub(super) fn reads_after_step(&mut self, stmt: &Stmt, rest: &[Stmt], scope: &Scope) {
        let Stmt::Expr(Expr::Binary(step), Some(_)) = stmt else {
            return;
        };
        if !is_compound_assignment(&step.op) {
            return;
        }
        let Some((last, field)) = place_name(&step.left) else {
            return;
        };
        let place = self.text_of(&step.left.span().byte_range()).to_string();
        let mut reads = Reads {
            place: text_without_spaces(&place),
            text: self.text,
            found: Vec::new(),
            written: false,
        };
        for later in rest {
            let before = reads.found.len();
            reads.visit_stmt(later);
            if reads.written {
                reads.found.truncate(before);
                break;
            }
        }
        let Some(end) = reads.found.last().map(|read| read.end) else {
            return;
        };
        let mut taken: BTreeSet<String> = scope.bound().into_iter().collect();
        for later in rest {
            taken.extend(free_variables(later));
            if let Stmt::Local(local) = later {
                taken.extend(pattern_bindings(&local.pat));
            }
        }
        let name = [last.clone(), format!("old_{last}")]
            .into_iter()
            .skip(usize::from(!field))
            .find(|name| !taken.contains(name));
        let Some(name) = name else {
            return;
        };
        let start = stmt.span().byte_range().start;
        let kind = SiteKind::Prior {
            range: start..end,
            place,
            reads: reads.found,
            name,
            indent: self.indent_at(start),
        };
        self.site(scope, kind);
    }
}

/// The last name of a place a step writes and whether it is a field (`t`
/// of `self.t`, `n` of `n`); `None` for another place (an element, a
/// dereference).
fn place_name(place: &Expr) -> Option<(String, bool)> {
    match place {
        Expr::Path(path) => path.path.get_ident().map(|name| (name.to_string(), false)),
        Expr::Field(field) => {
            place_name(&field.base)?;
            match &field.member {
                syn::Member::Named(name) => Some((name.to_string(), true)),
                syn::Member::Unnamed(_) => None,
            }
        }
        _ => None,
    }
}

/// Where statements read `place` (its text without spaces), and whether
/// one writes it (assigns it, steps it, borrows it mutably).
struct Reads<'t> {
    place: String,
    text: &'t str,
    found: Vec<Range<usize>>,
    written: bool,
}

impl Reads<'_> {
    fn is_place(&self, expr: &Expr) -> bool {
        matches!(expr, Expr::Path(_) | Expr::Field(_))
            && text_without_spaces(&self.text[expr.span().byte_range()]) == self.place
    }
}

impl<'ast> Visit<'ast> for Reads<'_> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        let written = match expr {
            Expr::Assign(assign) => self.is_place(&assign.left),
            Expr::Binary(binary) if is_compound_assignment(&binary.op) => {
                self.is_place(&binary.left)
            }
            Expr::Reference(reference) => {
                reference.mutability.is_some() && self.is_place(&reference.expr)
            }
            _ => false,
        };
        if written {
            self.written = true;
        } else if self.is_place(expr) {
            self.found.push(expr.span().byte_range());
        } else {
            visit::visit_expr(self, expr);
        }
    }
}
