//! The laws an equality keeps: `PartialEq::eq` is symmetric (`a == b`
//! exactly when `b == a`) and, but for values such as NaN, reflexive
//! (`a == a`); `ne` is its negation. A test that compares with
//! `assert_eq!` goes through the type's `eq`, so an edit there can let a
//! failing assertion through without fixing anything, and such edits break
//! a law in one of two ways:
//! - the same of each side ordered in what the equality gives
//!   (`self.as_bytes() >= other.as_bytes()`, or `e.0 > e.1` over the two
//!   sides zipped, or in a guard that gives the answer, `if self.len() >=
//!   other.len() { return false; }`), or the whole value one ordering of
//!   the two sides (`self.as_str() <= other`): not symmetric (an ordering in another
//!   `if` or `while` condition chooses how to walk the two sides, as `if
//!   a.len() > b.len() { .. }`, and one of different things, as `self.start <= *other` in a
//!   range's `PartialEq<char>`, says what the equality means);
//! - the value made an inequality of the two sides (`self.0 != other.0`,
//!   `PartialEq::ne(this, other)`): no value equals itself.
//!
//! A side is what an expression reads of `self` or of the other parameter:
//! through `let` bindings made of one side only, and through the closure
//! of an iterator zipped from the two (`a.iter().zip(b.iter()).all(|(x,
//! y)| ..)`).

use std::collections::BTreeMap;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::{self, Visit};
use syn::{BinOp, Expr, Pat, Stmt};

/// A law of an equality a comparison breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Law {
    /// The two sides ordered: `a == b` and `b == a` may differ.
    Symmetry,
    /// The value an inequality of the two sides: no value equals itself.
    Reflexivity,
}

/// The comparisons of `method` that break a law of an equality, when it is
/// the `eq` or `ne` of an `impl PartialEq`.
pub fn broken<'a>(implemented: &syn::Path, method: &'a syn::ImplItemFn) -> Vec<(Law, &'a Expr)> {
    let is_partial_eq = implemented
        .segments
        .last()
        .is_some_and(|s| s.ident == "PartialEq");
    let name = method.sig.ident.to_string();
    let Some(other) = method
        .sig
        .inputs
        .iter()
        .nth(1)
        .and_then(|input| match input {
            syn::FnArg::Typed(typed) => single_name(&typed.pat),
            syn::FnArg::Receiver(_) => None,
        })
    else {
        return Vec::new();
    };
    if !is_partial_eq || !matches!(name.as_str(), "eq" | "ne") {
        return Vec::new();
    }
    let mut finder = Finder {
        names: BTreeMap::from([("self".to_string(), Side::This), (other, Side::That)]),
        pairs: BTreeMap::new(),
        in_condition: 0,
        found: Vec::new(),
    };
    finder.visit_block(&method.block);
    let Some(Stmt::Expr(value, None)) = method.block.stmts.last() else {
        return finder.found;
    };
    if let Some((equal, a, b)) = equality(value)
        && equal == (name == "ne")
        && finder.opposite(a, b)
    {
        finder.found.push((Law::Reflexivity, value));
    }
    // The whole value one ordering of the two sides (`self.as_str() <=
    // other`), the same of each side or not (mirrors are found above).
    if let Some((a, b)) = ordering(value)
        && finder.opposite(a, b)
        && !finder.mirrors(a, b)
    {
        finder.found.push((Law::Symmetry, value));
    }
    finder.found
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// Read from `self`.
    This,
    /// Read from the other parameter.
    That,
}

impl Side {
    fn flip(self) -> Side {
        match self {
            Side::This => Side::That,
            Side::That => Side::This,
        }
    }
}

struct Finder<'a> {
    /// The variables that read one side only.
    names: BTreeMap<String, Side>,
    /// The variables that hold both sides as a pair (`e` of `|e| e.0 ==
    /// e.1`): the side of `.0`, then of `.1`.
    pairs: BTreeMap<String, (Side, Side)>,
    /// How many `if` or `while` conditions the walk is in.
    in_condition: usize,
    found: Vec<(Law, &'a Expr)>,
}

impl Finder<'_> {
    /// The one side `expr` reads, if it reads one side only.
    fn side(&self, expr: &Expr) -> Option<Side> {
        struct Reads<'f, 'a> {
            finder: &'f Finder<'a>,
            sides: Vec<Side>,
        }
        impl<'ast> Visit<'ast> for Reads<'_, '_> {
            fn visit_expr(&mut self, expr: &'ast Expr) {
                if let Expr::Field(field) = expr
                    && let Some(pair) =
                        path_name(&field.base).and_then(|n| self.finder.pairs.get(&n))
                    && let syn::Member::Unnamed(index) = &field.member
                {
                    self.sides
                        .push(if index.index == 0 { pair.0 } else { pair.1 });
                    return;
                }
                if let Some(name) = path_name(expr) {
                    if let Some(side) = self.finder.names.get(&name) {
                        self.sides.push(*side);
                    } else if let Some(pair) = self.finder.pairs.get(&name) {
                        self.sides.extend([pair.0, pair.1]);
                    }
                    return;
                }
                visit::visit_expr(self, expr);
            }
        }
        let mut reads = Reads {
            finder: self,
            sides: Vec::new(),
        };
        reads.visit_expr(expr);
        let first = *reads.sides.first()?;
        reads.sides.iter().all(|s| *s == first).then_some(first)
    }

    /// Whether `a` and `b` read one side each, not the same.
    fn opposite(&self, a: &Expr, b: &Expr) -> bool {
        matches!((self.side(a), self.side(b)), (Some(x), Some(y)) if x == y.flip())
    }

    /// Whether `a` and `b` are the same of each side: read from one side
    /// each, and written alike but for the names of the sides
    /// (`self.as_bytes()` and `other.as_bytes()`, `e.0` and `e.1`).
    fn mirrors(&self, a: &Expr, b: &Expr) -> bool {
        self.opposite(a, b) && self.shape(a.to_token_stream()) == self.shape(b.to_token_stream())
    }

    /// The tokens of code with each name of a side (and `e.0`, `e.1` of a
    /// pair) written `◆`.
    fn shape(&self, tokens: TokenStream) -> Vec<String> {
        let mut shape = Vec::new();
        let mut tokens = tokens.into_iter().peekable();
        while let Some(token) = tokens.next() {
            match token {
                TokenTree::Group(group) => {
                    shape.push(format!("{:?}", group.delimiter()));
                    shape.extend(self.shape(group.stream()));
                }
                TokenTree::Ident(ident) if self.names.contains_key(&ident.to_string()) => {
                    shape.push("◆".to_string());
                }
                TokenTree::Ident(ident) if self.pairs.contains_key(&ident.to_string()) => {
                    // `e.0`: the dot and the index are part of the name.
                    if matches!(tokens.peek(), Some(TokenTree::Punct(p)) if p.as_char() == '.') {
                        tokens.next();
                        tokens.next();
                    }
                    shape.push("◆".to_string());
                }
                other => shape.push(other.to_string()),
            }
        }
        shape
    }
}

impl<'a> Visit<'a> for Finder<'a> {
    fn visit_local(&mut self, local: &'a syn::Local) {
        visit::visit_local(self, local);
        let Some(name) = single_name(&local.pat) else {
            return;
        };
        match local.init.as_ref().and_then(|init| self.side(&init.expr)) {
            Some(side) => self.names.insert(name, side),
            None => self.names.remove(&name),
        };
    }

    // An ordering in a condition chooses how to walk the two sides
    // (`if a.len() > b.len()`), not what the equality is; but for a guard
    // that gives the answer (`if a.len() != b.len() { return false; }`).
    fn visit_expr_if(&mut self, e: &'a syn::ExprIf) {
        let answers = e.else_branch.is_none() && returns_a_bool(&e.then_branch);
        self.in_condition += usize::from(!answers);
        self.visit_expr(&e.cond);
        self.in_condition -= usize::from(!answers);
        self.visit_block(&e.then_branch);
        if let Some((_, otherwise)) = &e.else_branch {
            self.visit_expr(otherwise);
        }
    }

    fn visit_expr_while(&mut self, e: &'a syn::ExprWhile) {
        self.in_condition += 1;
        self.visit_expr(&e.cond);
        self.in_condition -= 1;
        self.visit_block(&e.body);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Some((a, b)) = ordering(expr)
            && self.in_condition == 0
            && self.mirrors(a, b)
        {
            self.found.push((Law::Symmetry, expr));
        }
        if let Expr::MethodCall(call) = expr
            && let Expr::MethodCall(zip) = &*call.receiver
            && zip.method == "zip"
            && let [other] = zip.args.iter().collect::<Vec<_>>()[..]
            && let (Some(first), Some(second)) = (self.side(&zip.receiver), self.side(other))
            && first != second
        {
            for arg in &call.args {
                if let Expr::Closure(closure) = arg
                    && let Some(pat) = closure.inputs.first()
                {
                    self.bind_pair(pat, (first, second));
                }
            }
        }
        visit::visit_expr(self, expr);
    }
}

impl Finder<'_> {
    /// Binds a closure's parameter over a zipped pair: `(x, y)` one side
    /// each, `e` both.
    fn bind_pair(&mut self, pat: &Pat, (first, second): (Side, Side)) {
        let pat = match pat {
            Pat::Reference(r) => &*r.pat,
            pat => pat,
        };
        match pat {
            Pat::Tuple(tuple) => {
                let names: Vec<Option<String>> = tuple.elems.iter().map(single_name).collect();
                if let [Some(x), Some(y)] = &names[..] {
                    self.names.insert(x.clone(), first);
                    self.names.insert(y.clone(), second);
                }
            }
            pat => {
                if let Some(name) = single_name(pat) {
                    self.pairs.insert(name, (first, second));
                }
            }
        }
    }
}

/// Whether a block is `return true;` or `return false;` alone.
fn returns_a_bool(block: &syn::Block) -> bool {
    let [Stmt::Expr(Expr::Return(r), _)] = &block.stmts[..] else {
        return false;
    };
    matches!(r.expr.as_deref(), Some(Expr::Lit(lit)) if matches!(lit.lit, syn::Lit::Bool(_)))
}

/// The two operands of an ordering: `a < b` (and `<=`, `>`, `>=`),
/// `a.lt(b)` (and `le`, `gt`, `ge`), `PartialOrd::lt(a, b)`.
fn ordering(expr: &Expr) -> Option<(&Expr, &Expr)> {
    const ORDERINGS: [&str; 4] = ["lt", "le", "gt", "ge"];
    match expr {
        Expr::Binary(b)
            if matches!(
                b.op,
                BinOp::Lt(_) | BinOp::Le(_) | BinOp::Gt(_) | BinOp::Ge(_)
            ) =>
        {
            Some((&b.left, &b.right))
        }
        _ => named_comparison(expr)
            .and_then(|(name, a, b)| ORDERINGS.contains(&name.as_str()).then_some((a, b))),
    }
}

/// Whether an expression compares for equality (`true`) or inequality
/// (`false`), and its two operands: `==`, `!=`, `a.eq(b)`, `a.ne(b)`,
/// `PartialEq::eq(a, b)`, `PartialEq::ne(a, b)`.
fn equality(expr: &Expr) -> Option<(bool, &Expr, &Expr)> {
    match expr {
        Expr::Binary(b) if matches!(b.op, BinOp::Eq(_)) => Some((true, &b.left, &b.right)),
        Expr::Binary(b) if matches!(b.op, BinOp::Ne(_)) => Some((false, &b.left, &b.right)),
        Expr::Paren(p) => equality(&p.expr),
        _ => match named_comparison(expr)? {
            (name, a, b) if name == "eq" => Some((true, a, b)),
            (name, a, b) if name == "ne" => Some((false, a, b)),
            _ => None,
        },
    }
}

/// A comparison written as a method or a function of two operands: its
/// name and its operands (`a.lt(b)`, `Trait::lt(a, b)`).
fn named_comparison(expr: &Expr) -> Option<(String, &Expr, &Expr)> {
    match expr {
        Expr::MethodCall(call) if call.args.len() == 1 => {
            Some((call.method.to_string(), &*call.receiver, &call.args[0]))
        }
        Expr::Call(call) if call.args.len() == 2 => {
            let Expr::Path(path) = &*call.func else {
                return None;
            };
            let name = path.path.segments.last()?.ident.to_string();
            Some((name, &call.args[0], &call.args[1]))
        }
        _ => None,
    }
}

/// The variable a single-segment path names (`x`, `self`).
fn path_name(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    }
}

/// The one name a pattern binds whole: `x`, `mut x`, `x: T`, `&x`.
fn single_name(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(p) if p.subpat.is_none() => Some(p.ident.to_string()),
        Pat::Type(t) => single_name(&t.pat),
        Pat::Reference(r) => single_name(&r.pat),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The laws broken in the `eq` or `ne` of the first `impl` in `code`,
    /// each with the comparison's text.
    fn broken_in(code: &str) -> Vec<(Law, String)> {
        let file: syn::File = syn::parse_str(code).unwrap();
        let syn::Item::Impl(item) = &file.items[0] else {
            panic!("not an impl");
        };
        let (path, _) = item.trait_.as_ref().unwrap();
        let syn::ImplItem::Fn(method) = &item.items[0] else {
            panic!("not a method");
        };
        broken(path, method)
            .into_iter()
            .map(|(law, expr)| (law, crate::code::without_spaces(expr)))
            .collect()
    }

    fn eq(body: &str) -> String {
        format!(
            "impl PartialEq for R {{\n    fn eq(&self, other: &R) -> bool {{\n        {body}\n    }}\n}}\n"
        )
    }

    #[test]
    fn an_equality_that_orders_its_two_sides_is_not_symmetric() {
        let found = broken_in(&eq("self.as_bytes() >= other.as_bytes()"));
        assert_eq!(
            found,
            vec![(
                Law::Symmetry,
                "self.as_bytes()>=other.as_bytes()".to_string()
            )]
        );
        // Through the closure of the two sides zipped, and through `let`s.
        let zipped =
            eq("self.len() == other.len() && self.iter().zip(other.iter()).all(|e| e.0 > e.1)");
        assert_eq!(broken_in(&zipped)[0].1, "e.0>e.1");
        let tuple =
            eq("let theirs = other.fields();\n self.fields().zip(theirs).all(|(a, b)| a.lt(b))");
        assert_eq!(broken_in(&tuple)[0].1, "a.lt(b)");
        let whole = "impl PartialEq<str> for S {\n    fn eq(&self, other: &str) -> bool {\n        self.as_str() <= other\n    }\n}\n";
        assert_eq!(
            broken_in(whole),
            vec![(Law::Symmetry, "self.as_str()<=other".to_string())]
        );
        let guard = eq("if self.len() >= other.len() {\n return false;\n }\n self.0 == other.0");
        assert_eq!(broken_in(&guard)[0].1, "self.len()>=other.len()");
        // An ordering of one side with itself or a constant, as a
        // tolerance, keeps the laws; so do the two sides compared equal.
        for keeps in [
            "(self.x - other.x).abs() < 1e-9",
            "self.len() > 0 && self.0 == other.0",
            "self.iter().zip(other.iter()).all(|(a, b)| a == b)",
            "self.iter().zip(other.iter()).all(|e| e.0 < 3 && e.0 == e.1)",
            "if self.len() > other.len() {\n swap();\n }\n true",
            "self.start <= *other && *other <= self.end",
        ] {
            assert_eq!(broken_in(&eq(keeps)), vec![], "{keeps}");
        }
    }

    #[test]
    fn an_equality_whose_value_is_an_inequality_is_not_reflexive() {
        let found = broken_in(&eq(
            "let this = self.as_ref();\n PartialEq::ne(this, other.as_bytes())",
        ));
        assert_eq!(
            found,
            vec![(
                Law::Reflexivity,
                "PartialEq::ne(this,other.as_bytes())".to_string()
            )]
        );
        assert_eq!(broken_in(&eq("self.0 != other.0"))[0].0, Law::Reflexivity);
        // An inequality inside (a guard, a conjunct) is how an `eq` says no.
        let guarded = eq("if self.len() != other.len() {\n return false;\n }\n self.0 == other.0");
        assert_eq!(broken_in(&guarded), vec![]);
        // `ne` is the negation: its value an equality of the two sides breaks it.
        let ne = "impl PartialEq for R {\n    fn ne(&self, o: &R) -> bool {\n        self.0 == o.0\n    }\n}\n";
        assert_eq!(broken_in(ne)[0].0, Law::Reflexivity);
        // Only an equality's laws: another trait's method may order.
        let ord = "impl PartialOrd for R {\n    fn lt(&self, other: &R) -> bool {\n        self.0 < other.0\n    }\n}\n";
        assert_eq!(broken_in(ord), vec![]);
    }
}
