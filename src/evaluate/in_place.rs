//! Weaving in place, for a function the weaver cannot copy (one returning
//! `impl Trait`: a copy's opaque type is another type, so the original
//! cannot return what a copy returns). Each edited expression or statement
//! (a *site*) becomes a `match` on the function's switch, the original code
//! first, so that an alternative of another type is the one the compiler
//! reports:
//! `(match crate::__autofix_schema::variant(R) { 0..=2 | 4..=u32::MAX => ORIGINAL, 3 => EDITED, })`.
//!
//! Sites are the syntax nodes that can be wrapped so without changing what
//! the rest of the function sees: expressions in value context (not a
//! method call's receiver, a borrowed or assigned place, a scrutinee, the
//! operand of a comparison, which borrow rather than move), statements
//! other than `let`s and items, and the whole body. A candidate's edits go
//! to the smallest site that holds them and whose edited text parses as
//! the same kind of code; sites nest, so another candidate's site may lie
//! inside this one's original arm.
//!
//! Unlike a copy, an alternative shares its function with the others: a
//! type error in one hides borrow errors in all of them (another build
//! finds those), an error in an original arm is the weaving's (the site is
//! not used again), and an alternative of another type than the original
//! (`match` arms of incompatible types) may still compile on its own.
//!
//! Pure: syntax and texts in, texts out.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::ops::Range;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Stmt, UnOp};

use crate::code::source::{Edit, splice};
use crate::code::{has_let, is_comparison, is_compound_assignment};

/// Where edits can be woven in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The node's bytes in its file.
    pub range: Range<usize>,
    pub kind: SiteKind,
}

/// What a site is, and so how its `match` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SiteKind {
    /// An expression inside another: the `match` is parenthesized.
    Operand,
    /// An expression statement without `;`, or a block's tail: the
    /// `match` stands alone.
    Expression,
    /// A statement (with its `;`): each arm is a block of statements.
    Statement,
    /// The function's body block: the `match` goes inside a block.
    Body,
}

/// The sites of a function's body, sorted by start, outer ones first.
pub fn sites(body: &syn::Block) -> Vec<Site> {
    let mut collector = Collector { sites: Vec::new() };
    collector.record(body, SiteKind::Body);
    collector.visit_block(body);
    let mut sites = collector.sites;
    sites.sort_by_key(|s| (s.range.start, std::cmp::Reverse(s.range.end), s.kind));
    sites.dedup_by_key(|s| s.range.clone());
    sites
}

struct Collector {
    sites: Vec<Site>,
}

impl Collector {
    fn record(&mut self, node: &impl Spanned, kind: SiteKind) {
        self.sites.push(Site {
            range: node.span().byte_range(),
            kind,
        });
    }

    /// An expression in a place context: not a site itself (wrapping would
    /// move what is borrowed), its parts visited.
    fn place(&mut self, expr: &Expr) {
        match expr {
            Expr::Paren(p) => self.place(&p.expr),
            Expr::Group(g) => self.place(&g.expr),
            _ => visit::visit_expr(self, expr),
        }
    }
}

/// Whether an expression has a value (a `let` condition has none).
fn has_value(expr: &Expr) -> bool {
    !has_let(expr) && !matches!(expr, Expr::Verbatim(_))
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        if has_value(expr) {
            self.record(expr, SiteKind::Operand);
        }
        visit::visit_expr(self, expr);
    }

    fn visit_stmt(&mut self, stmt: &'ast Stmt) {
        match stmt {
            Stmt::Expr(expr, None) => {
                if has_value(expr) {
                    self.record(expr, SiteKind::Expression);
                }
                visit::visit_expr(self, expr);
            }
            Stmt::Expr(_, Some(_)) | Stmt::Macro(_) => {
                self.record(stmt, SiteKind::Statement);
                visit::visit_stmt(self, stmt);
            }
            Stmt::Local(local) => {
                let Some(init) = &local.init else { return };
                // A plain binding moves the value; a pattern may borrow it.
                let plain = |pat: &syn::Pat| matches!(pat, syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none());
                let moved = match &local.pat {
                    syn::Pat::Type(typed) => plain(&typed.pat),
                    pat => plain(pat),
                };
                if moved {
                    self.visit_expr(&init.expr);
                } else {
                    self.place(&init.expr);
                }
                if let Some((_, diverge)) = &init.diverge {
                    self.visit_expr(diverge);
                }
            }
            Stmt::Item(_) => {}
        }
    }

    fn visit_expr_if(&mut self, expr: &'ast syn::ExprIf) {
        self.visit_expr(&expr.cond);
        self.visit_block(&expr.then_branch);
        // An `else` takes a block or an `if`, not a `match`.
        match expr.else_branch.as_ref().map(|(_, e)| &**e) {
            Some(Expr::If(next)) => self.visit_expr_if(next),
            Some(Expr::Block(block)) => self.visit_block(&block.block),
            Some(other) => self.visit_expr(other),
            None => {}
        }
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        self.place(&call.receiver);
        for arg in &call.args {
            self.visit_expr(arg);
        }
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        // The callee: another function is another type.
        self.place(&call.func);
        for arg in &call.args {
            self.visit_expr(arg);
        }
    }

    fn visit_expr_field(&mut self, field: &'ast syn::ExprField) {
        self.place(&field.base);
    }

    fn visit_expr_index(&mut self, index: &'ast syn::ExprIndex) {
        self.place(&index.expr);
        self.visit_expr(&index.index);
    }

    fn visit_expr_reference(&mut self, reference: &'ast syn::ExprReference) {
        self.place(&reference.expr);
    }

    fn visit_expr_raw_addr(&mut self, raw: &'ast syn::ExprRawAddr) {
        self.place(&raw.expr);
    }

    fn visit_expr_assign(&mut self, assign: &'ast syn::ExprAssign) {
        self.place(&assign.left);
        self.visit_expr(&assign.right);
    }

    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        let compares = is_comparison(&binary.op);
        let assigns = is_compound_assignment(&binary.op);
        if compares || assigns {
            self.place(&binary.left);
        } else {
            self.visit_expr(&binary.left);
        }
        if compares {
            self.place(&binary.right);
        } else {
            self.visit_expr(&binary.right);
        }
    }

    fn visit_expr_unary(&mut self, unary: &'ast syn::ExprUnary) {
        if matches!(unary.op, UnOp::Deref(_)) {
            self.place(&unary.expr);
        } else {
            self.visit_expr(&unary.expr);
        }
    }

    fn visit_expr_match(&mut self, expr: &'ast syn::ExprMatch) {
        self.place(&expr.expr);
        for arm in &expr.arms {
            if let syn::Pat::Guard(guarded) = &arm.pat {
                self.visit_expr(&guarded.guard);
            }
            self.visit_expr(&arm.body);
        }
    }

    fn visit_expr_let(&mut self, expr: &'ast syn::ExprLet) {
        self.place(&expr.expr);
    }

    fn visit_expr_struct(&mut self, expr: &'ast syn::ExprStruct) {
        for field in &expr.fields {
            // A shorthand field (`Word { width }`) is a name, not a place for a `match`.
            if field.colon_token.is_some() {
                self.visit_expr(&field.expr);
            } else {
                self.place(&field.expr);
            }
        }
        if let Some(rest) = &expr.rest {
            self.place(rest);
        }
    }

    fn visit_expr_repeat(&mut self, expr: &'ast syn::ExprRepeat) {
        // Its length is a constant.
        self.visit_expr(&expr.expr);
    }

    fn visit_expr_const(&mut self, _: &'ast syn::ExprConst) {}

    fn visit_pat(&mut self, _: &'ast syn::Pat) {}

    fn visit_type(&mut self, _: &'ast syn::Type) {}

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Where a candidate's edits of a function go: the sites (indices into
/// the function's sites), each with its edited text. `None` when some
/// edit fits no site.
pub fn place(text: &str, sites: &[Site], edits: &[Edit]) -> Option<Vec<(usize, String)>> {
    // Each edit's smallest site, then larger ones until the edits inside
    // each chosen site make code of its kind.
    let mut chosen: BTreeSet<usize> = edits
        .iter()
        .map(|edit| smallest(sites, &edit.range, None))
        .collect::<Option<_>>()?;
    loop {
        // A site inside another chosen one is that one's.
        let outer: BTreeSet<usize> = chosen
            .iter()
            .copied()
            .filter(|&i| {
                !chosen
                    .iter()
                    .any(|&j| j != i && holds(&sites[j].range, &sites[i].range))
            })
            .collect();
        let mut placed = Vec::new();
        let mut grown = None;
        for &index in &outer {
            let site = &sites[index];
            let mine: Vec<Edit> = edits
                .iter()
                .filter(|e| holds(&site.range, &e.range))
                .map(|e| {
                    let start = site.range.start;
                    Edit::replace(e.range.start - start..e.range.end - start, e.text.clone())
                })
                .collect();
            let edited = splice(&text[site.range.clone()], &mine).ok()?;
            if parses_as(&edited, site.kind) {
                placed.push((index, edited));
            } else {
                grown = Some((index, smallest(sites, &site.range, Some(index))?));
                break;
            }
        }
        match grown {
            Some((from, to)) => {
                chosen = outer;
                chosen.remove(&from);
                chosen.insert(to);
            }
            None => return Some(placed),
        }
    }
}

/// The smallest site holding `range` (other than `except`, and larger
/// than it).
fn smallest(sites: &[Site], range: &Range<usize>, except: Option<usize>) -> Option<usize> {
    sites
        .iter()
        .enumerate()
        .filter(|(_, s)| holds(&s.range, range) && except.is_none_or(|e| s.range != sites[e].range))
        .min_by_key(|(_, s)| s.range.len())
        .map(|(i, _)| i)
}

/// Whether `outer` holds `inner`.
fn holds(outer: &Range<usize>, inner: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Whether `text` is code of a site of `kind`.
fn parses_as(text: &str, kind: SiteKind) -> bool {
    match kind {
        SiteKind::Operand | SiteKind::Expression => syn::parse_str::<Expr>(text).is_ok(),
        SiteKind::Statement => syn::parse_str::<syn::Block>(&format!("{{ {text} }}")).is_ok(),
        SiteKind::Body => syn::parse_str::<syn::Block>(text).is_ok(),
    }
}

/// What a part of a function woven in place is, for blaming build errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// A site's edited text, which these variants (numbers) select.
    Alternative { site: usize, variants: Vec<usize> },
    /// A site's original code.
    Original { site: usize },
}

/// The function's body (`body`, a range of `text`) woven in place, for
/// variants numbered from 1, each placed (see `place`); `switch` is the
/// expression that reads the function's switch. Returns the woven body and
/// where its parts lie in it.
pub fn weave_body(
    text: &str,
    body: &Range<usize>,
    sites: &[Site],
    variants: &[Vec<(usize, String)>],
    switch: &str,
) -> (String, Vec<(Range<usize>, Role)>) {
    // Per site used, its distinct edited texts and the variants of each.
    let mut used: BTreeMap<usize, BTreeMap<&str, Vec<usize>>> = BTreeMap::new();
    for (number, placed) in variants.iter().enumerate() {
        for (site, edited) in placed {
            used.entry(*site)
                .or_default()
                .entry(edited)
                .or_default()
                .push(number + 1);
        }
    }
    let weaver = Weaver {
        text,
        sites,
        used,
        switch,
    };
    let mut out = String::new();
    let mut roles = Vec::new();
    let body_site = sites.iter().position(|s| s.range == *body);
    match body_site.filter(|i| weaver.used.contains_key(i)) {
        Some(index) => weaver.wrap(index, &mut out, &mut roles),
        None => weaver.render(body, None, &mut out, &mut roles),
    }
    (out, roles)
}

struct Weaver<'a> {
    text: &'a str,
    sites: &'a [Site],
    used: BTreeMap<usize, BTreeMap<&'a str, Vec<usize>>>,
    switch: &'a str,
}

impl Weaver<'_> {
    /// The original text of `range`, with the used sites inside it (other
    /// than `itself`) woven.
    fn render(
        &self,
        range: &Range<usize>,
        itself: Option<usize>,
        out: &mut String,
        roles: &mut Vec<(Range<usize>, Role)>,
    ) {
        let mut cursor = range.start;
        for &index in self.used.keys() {
            let site = &self.sites[index];
            if Some(index) == itself
                || site.range.start < cursor
                || site.range.end > range.end
                || site.range == *range
            {
                continue;
            }
            out.push_str(&self.text[cursor..site.range.start]);
            self.wrap(index, out, roles);
            cursor = site.range.end;
        }
        out.push_str(&self.text[cursor..range.end]);
    }

    /// Site `index` as a `match` on the switch: the original first (with
    /// the sites inside it woven), then each edited text.
    fn wrap(&self, index: usize, out: &mut String, roles: &mut Vec<(Range<usize>, Role)>) {
        let site = &self.sites[index];
        let alternatives = &self.used[&index];
        let (before, after, open, close) = match site.kind {
            SiteKind::Operand => ("(", ")", "", ""),
            SiteKind::Expression => ("", "", "", ""),
            SiteKind::Statement => ("", "", "{ ", " }"),
            SiteKind::Body => ("{ ", " }", "", ""),
        };
        let mut selected: Vec<usize> = alternatives.values().flatten().copied().collect();
        selected.sort_unstable();
        out.push_str(before);
        let _ = write!(
            out,
            "match {} {{ {} => {open}",
            self.switch,
            complement(&selected)
        );
        let start = out.len();
        self.render(&site.range, Some(index), out, roles);
        roles.push((start..out.len(), Role::Original { site: index }));
        out.push_str(close);
        for (edited, variants) in alternatives {
            let pattern: Vec<String> = variants.iter().map(ToString::to_string).collect();
            let _ = write!(out, ", {} => {open}", pattern.join(" | "));
            let start = out.len();
            out.push_str(edited);
            roles.push((
                start..out.len(),
                Role::Alternative {
                    site: index,
                    variants: variants.clone(),
                },
            ));
            out.push_str(close);
        }
        out.push_str(", }");
        out.push_str(after);
    }
}

/// A pattern for every `u32` not in `numbers` (sorted, distinct).
fn complement(numbers: &[usize]) -> String {
    let mut ranges = Vec::new();
    let mut next = 0;
    for &n in numbers {
        if n > next {
            ranges.push(if n - 1 == next {
                next.to_string()
            } else {
                format!("{next}..={}", n - 1)
            });
        }
        next = n + 1;
    }
    ranges.push(format!("{next}..=u32::MAX"));
    ranges.join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "fn f(v: Vec<u8>, k: u8) -> impl Iterator<Item = u8> {\n    let n = v.len();\n    v.push(k + 1);\n    if v[0] == k { n += 1; }\n    v.into_iter().map(move |x| x * 2 + k)\n}\n";

    fn body() -> (syn::Block, Range<usize>) {
        let file = syn::parse_file(TEXT).unwrap();
        let syn::Item::Fn(f) = &file.items[0] else {
            panic!()
        };
        let range = f.block.span().byte_range();
        (*f.block.clone(), range)
    }

    fn texts(sites: &[Site]) -> Vec<(&str, SiteKind)> {
        sites
            .iter()
            .map(|s| (&TEXT[s.range.clone()], s.kind))
            .collect()
    }

    fn edit(needle: &str, replacement: &str) -> Edit {
        let start = TEXT.find(needle).unwrap();
        Edit::replace(start..start + needle.len(), replacement)
    }

    #[test]
    fn sites_are_values_statements_and_the_body_but_no_place() {
        let (block, _) = body();
        let sites = sites(&block);
        let found = texts(&sites);
        for expected in [
            ("v.len()", SiteKind::Operand),
            ("v.push(k + 1);", SiteKind::Statement),
            ("k + 1", SiteKind::Operand),
            ("v[0] == k", SiteKind::Operand),
            ("n += 1;", SiteKind::Statement),
            ("x * 2 + k", SiteKind::Operand),
            (
                "v.into_iter().map(move |x| x * 2 + k)",
                SiteKind::Expression,
            ),
        ] {
            assert!(found.contains(&expected), "{expected:?} in {found:?}");
        }
        assert_eq!(found[0].1, SiteKind::Body);
        // A receiver, an indexed or compared place, an assigned one, a
        // callee: wrapping would move them.
        for place in ["v", "v[0]", "n"] {
            assert!(
                !found.iter().any(|(t, _)| *t == place),
                "{place} in {found:?}"
            );
        }
    }

    #[test]
    fn edits_go_to_the_smallest_site_whose_kind_they_keep() {
        let (block, _) = body();
        let sites = sites(&block);
        let at = |placed: Vec<(usize, String)>| -> Vec<(String, String)> {
            placed
                .into_iter()
                .map(|(i, t)| (TEXT[sites[i].range.clone()].to_string(), t))
                .collect()
        };
        let plus = place(TEXT, &sites, &[edit("k + 1", "k - 1")]).unwrap();
        assert_eq!(at(plus), [("k + 1".to_string(), "k - 1".to_string())]);
        // An operator alone is no site: its expression is.
        let times = edit("* 2", "/ 2");
        assert_eq!(
            at(place(TEXT, &sites, &[times]).unwrap()),
            [("x * 2".to_string(), "x / 2".to_string())]
        );
        // A statement inserted before another is not an expression.
        let at_push = TEXT.find("v.push").unwrap();
        let inserted = Edit::insert(at_push, "v.clear();\n    ");
        assert_eq!(
            at(place(TEXT, &sites, &[inserted]).unwrap()),
            [(
                "v.push(k + 1);".to_string(),
                "v.clear();\n    v.push(k + 1);".to_string()
            )]
        );
        // Two edits go to the smallest site that holds both.
        let both = place(
            TEXT,
            &sites,
            &[edit("k + 1", "k"), edit("v.push", "v.insert")],
        )
        .unwrap();
        assert_eq!(
            at(both),
            [("v.push(k + 1)".to_string(), "v.insert(k)".to_string())]
        );
    }

    #[test]
    fn the_original_comes_first_and_nested_sites_weave_inside_it() {
        let (block, range) = body();
        let sites = sites(&block);
        let outer = place(TEXT, &sites, &[edit("v.push(k + 1);", "")]).unwrap();
        let inner = place(TEXT, &sites, &[edit("k + 1", "k + 2")]).unwrap();
        let (woven, roles) = weave_body(TEXT, &range, &sites, &[outer, inner], "S");
        assert!(
            woven.contains("match S { 0 | 2..=u32::MAX => { v.push((match S { 0..=1 | 3..=u32::MAX => k + 1, 2 => k + 2, })); }, 1 => {  }, }\n"),
            "{woven}"
        );
        let alternative =
            |r: &Role| matches!(r, Role::Alternative { variants, .. } if variants == &[2]);
        let (span, _) = roles.iter().find(|(_, r)| alternative(r)).unwrap();
        assert_eq!(&woven[span.clone()], "k + 2");
        assert!(syn::parse_str::<syn::Block>(&woven).is_ok(), "{woven}");
        assert_eq!(complement(&[1, 2, 5]), "0 | 3..=4 | 6..=u32::MAX");
    }
}
