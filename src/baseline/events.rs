//! Events beyond lines (the statistical debugging seed's "events other
//! than lines"): each `if`, `else if` and `while` condition's outcome, and
//! the sign (or `None`/`Some`, `Err`/`Ok`) of values bound by `let` and
//! returned by functions, observed by probes inserted as text edits, like
//! the coverage probes, and recorded per test as (site, outcome) pairs.
//!
//! A condition `c` becomes `crate::__autofix_rt::branch(ID, c)`, which
//! returns `c` unchanged. A value is observed through a reference by a
//! method of one of two runtime traits: `ObserveValue`, implemented for the
//! integer types, `Option<T>` and `Result<T, E>`, and `ObserveOther`,
//! implemented for every `&T` and recording nothing. Called as
//! `(&x).__autofix_observe(ID)`, method resolution takes the first where
//! the type is one of those (autoref specialization) and the second for
//! anything else, generic parameters included: types are never guessed
//! from syntax. So `let x = e;` gets the observation of `x` after it, and
//! a returned `e` becomes `{ let v: R = e; observe v; v }` with `R` the
//! declared return type (the annotation keeps `e`'s inference as it was).
//! Returns are observed only where `R` reads as an integer, `Option` or
//! `Result` (a type alias named `Result` included), lets only with a plain
//! binding, no attributes, no `else` and no literal value (a literal's sign
//! tells nothing). An observation that does not compile is dropped by the
//! baseline's build on its own ([`EventEdit::site`]).

use std::sync::Arc;

use syn::spanned::Spanned;

use crate::code::MacroSite;
use crate::code::source::{Edit, FileId, Location};
use crate::code::{RunnableCode, Scope, walk_runnable_code};

/// The outcomes a site can record: its slot in the runtime is
/// `site * OUTCOMES + outcome.code()`.
pub const OUTCOMES: usize = 9;

/// What a probe saw.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Outcome {
    False,
    True,
    Negative,
    Zero,
    Positive,
    None,
    Some,
    Err,
    Ok,
}

impl Outcome {
    pub const ALL: [Outcome; OUTCOMES] = [
        Outcome::False,
        Outcome::True,
        Outcome::Negative,
        Outcome::Zero,
        Outcome::Positive,
        Outcome::None,
        Outcome::Some,
        Outcome::Err,
        Outcome::Ok,
    ];

    /// Its number in the runtime (the order of [`Outcome::ALL`]).
    pub fn code(self) -> usize {
        self as usize
    }

    pub fn from_code(code: usize) -> Option<Outcome> {
        Outcome::ALL.get(code).copied()
    }

    pub fn name(self) -> &'static str {
        match self {
            Outcome::False => "false",
            Outcome::True => "true",
            Outcome::Negative => "negative",
            Outcome::Zero => "zero",
            Outcome::Positive => "positive",
            Outcome::None => "none",
            Outcome::Some => "some",
            Outcome::Err => "err",
            Outcome::Ok => "ok",
        }
    }

    /// How a value or condition with this outcome reads: `< 0`, `is None`.
    fn reads(self) -> &'static str {
        match self {
            Outcome::False => "is false",
            Outcome::True => "is true",
            Outcome::Negative => "< 0",
            Outcome::Zero => "== 0",
            Outcome::Positive => "> 0",
            Outcome::None => "is None",
            Outcome::Some => "is Some",
            Outcome::Err => "is Err",
            Outcome::Ok => "is Ok",
        }
    }
}

/// What a site observes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SiteKind {
    Condition,
    /// The value a `let` binds.
    Let,
    /// The value a function returns (its tail or a `return`).
    Returned,
}

impl SiteKind {
    pub const ALL: [SiteKind; 3] = [SiteKind::Condition, SiteKind::Let, SiteKind::Returned];

    pub fn name(self) -> &'static str {
        match self {
            SiteKind::Condition => "condition",
            SiteKind::Let => "let",
            SiteKind::Returned => "returned",
        }
    }
}

/// A place where events are observed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EventSite {
    pub location: Location,
    pub kind: SiteKind,
    /// The condition's text, the variable bound, or the function returning.
    pub code: String,
}

impl EventSite {
    /// `` `c == '"'` is true``, `` `n` < 0``, `` `parse` returns None``.
    pub fn describe(&self, outcome: Outcome) -> String {
        match self.kind {
            SiteKind::Condition | SiteKind::Let => format!("`{}` {}", self.code, outcome.reads()),
            SiteKind::Returned => {
                format!(
                    "`{}` returns {}",
                    self.code,
                    outcome.reads().trim_start_matches("is ")
                )
            }
        }
    }
}

/// An event of one run: a site saw an outcome.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Predicate {
    pub site: usize,
    pub outcome: Outcome,
}

impl Predicate {
    /// The predicate a runtime slot stands for.
    pub fn from_slot(slot: usize) -> Predicate {
        Predicate {
            site: slot / OUTCOMES,
            outcome: Outcome::from_code(slot % OUTCOMES).expect("a remainder below OUTCOMES"),
        }
    }
}

/// An insertion of an event probe: the site it belongs to, and the macro
/// whose transcriber it is in, if any.
#[derive(Debug, Clone)]
pub struct EventEdit {
    pub edit: Edit,
    pub site: usize,
    pub in_macro: Option<Arc<MacroSite>>,
}

/// The event probes of one file, numbering its sites after those already
/// in `sites` (to which they are added). `text` is the file's text.
pub fn event_probes(
    file: FileId,
    text: &str,
    syntax: &syn::File,
    sites: &mut Vec<EventSite>,
) -> Vec<EventEdit> {
    let mut inserter = EventInserter {
        file,
        text,
        sites,
        edits: Vec::new(),
    };
    walk_runnable_code(syntax, &mut inserter);
    inserter.edits
}

const INTEGERS: [&str; 12] = [
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
];

/// Whether a declared type may be observed: an integer, or a path whose
/// last segment is `Option` or `Result`, without `impl Trait` in it.
pub fn observable_type(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    let name = last.ident.to_string();
    let has_impl = quote::ToTokens::to_token_stream(ty)
        .into_iter()
        .any(|t| contains_impl(&t));
    !has_impl
        && path.qself.is_none()
        && (INTEGERS.contains(&name.as_str()) || name == "Option" || name == "Result")
}

fn contains_impl(token: &proc_macro2::TokenTree) -> bool {
    match token {
        proc_macro2::TokenTree::Ident(ident) => ident == "impl",
        proc_macro2::TokenTree::Group(group) => {
            group.stream().into_iter().any(|t| contains_impl(&t))
        }
        _ => false,
    }
}

fn is_literal(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::Lit(_) => true,
        syn::Expr::Unary(unary) => is_literal(&unary.expr),
        syn::Expr::Paren(paren) => is_literal(&paren.expr),
        _ => false,
    }
}

/// Text collapsed to one line, at most 60 characters.
fn short(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 60 {
        format!("{}…", one_line.chars().take(59).collect::<String>())
    } else {
        one_line
    }
}

struct EventInserter<'a> {
    file: FileId,
    text: &'a str,
    sites: &'a mut Vec<EventSite>,
    edits: Vec<EventEdit>,
}

impl EventInserter<'_> {
    /// A new site whose insertions are `(at, text)`, if they keep a
    /// macro's transcriber well formed.
    fn add(
        &mut self,
        kind: SiteKind,
        code: String,
        scope: &Scope,
        insertions: Vec<(usize, String)>,
    ) {
        if let Some(site) = &scope.in_macro {
            let start = insertions.iter().map(|(at, _)| *at).min().unwrap_or(0);
            let end = insertions.iter().map(|(at, _)| *at).max().unwrap_or(0);
            if !site.allows(&(start..end)) {
                return;
            }
        }
        let id = self.sites.len();
        self.sites.push(EventSite {
            location: Location::new(self.file, scope.location),
            kind,
            code,
        });
        for (at, text) in insertions {
            self.edits.push(EventEdit {
                edit: Edit::insert(at, text),
                site: id,
                in_macro: scope.in_macro.clone(),
            });
        }
    }
}

/// `crate`, or `$crate` in a macro's transcriber.
fn krate(scope: &Scope) -> &'static str {
    if scope.in_macro.is_some() {
        "$crate"
    } else {
        "crate"
    }
}

/// The statement that observes `value` (an expression of a place) at site `id`.
fn observation(value: &str, id: usize, scope: &Scope) -> String {
    let krate = krate(scope);
    format!(
        "{{ #[allow(unused_imports)] use {krate}::__autofix_rt::{{ObserveValue as _, ObserveOther as _}}; (&{value}).__autofix_observe({id}); }}"
    )
}

impl RunnableCode for EventInserter<'_> {
    fn condition(&mut self, cond: &syn::Expr, scope: &Scope) {
        let range = cond.span().byte_range();
        let id = self.sites.len();
        let open = format!("{}::__autofix_rt::branch({id}, ", krate(scope));
        let code = short(&self.text[range.clone()]);
        self.add(
            SiteKind::Condition,
            code,
            scope,
            vec![(range.start, open), (range.end, ")".to_string())],
        );
    }

    fn statement(&mut self, stmt: &syn::Stmt, scope: &Scope) {
        let syn::Stmt::Local(local) = stmt else {
            return;
        };
        let (pat, annotated) = match &local.pat {
            syn::Pat::Type(typed) => (typed.pat.as_ref(), Some(typed.ty.as_ref())),
            other => (other, None),
        };
        let syn::Pat::Ident(binding) = pat else {
            return;
        };
        let Some(init) = &local.init else {
            return;
        };
        if !local.attrs.is_empty()
            || binding.by_ref.is_some()
            || binding.subpat.is_some()
            || init.diverge.is_some()
            || is_literal(&init.expr)
            || matches!(
                init.expr.as_ref(),
                syn::Expr::Closure(_) | syn::Expr::Reference(_)
            )
            || annotated.is_some_and(|ty| !observable_type(ty))
        {
            return;
        }
        let range = stmt.span().byte_range();
        let name = self.text[binding.ident.span().byte_range()].to_string();
        let id = self.sites.len();
        let observe = observation(&name, id, scope);
        // The empty insertion marks where the site starts: a binding whose
        // type cannot be inferred by then is reported at its pattern.
        self.add(
            SiteKind::Let,
            name,
            scope,
            vec![(range.start, String::new()), (range.end, observe)],
        );
    }

    fn returned(&mut self, value: &syn::Expr, scope: &Scope) {
        let Some(type_range) = scope.return_type.clone() else {
            return;
        };
        let type_text = &self.text[type_range];
        let observable = syn::parse_str::<syn::Type>(type_text).is_ok_and(|ty| observable_type(&ty))
            // In a macro's transcriber, `$t` does not parse: judge it with
            // fragments taken as types.
            || (scope.in_macro.is_some()
                && syn::parse_str::<syn::Type>(&type_text.replace('$', ""))
                    .is_ok_and(|ty| observable_type(&ty)));
        // A tail `return e` is observed as a `return`.
        if !observable || is_literal(value) || matches!(value, syn::Expr::Return(_)) {
            return;
        }
        let range = value.span().byte_range();
        let id = self.sites.len();
        let open = format!("{{ let __autofix_value: {type_text} = ");
        let close = format!(
            "; {} __autofix_value }}",
            observation("__autofix_value", id, scope)
        );
        self.add(
            SiteKind::Returned,
            scope.function.clone(),
            scope,
            vec![(range.start, open), (range.end, close)],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::{parse_file, splice};

    fn probed(text: &str) -> (String, Vec<EventSite>) {
        let syntax = parse_file(text).unwrap();
        let mut sites = Vec::new();
        let edits = event_probes(FileId::new(0), text, &syntax, &mut sites);
        let edits: Vec<Edit> = edits.into_iter().map(|e| e.edit).collect();
        (splice(text, &edits).unwrap(), sites)
    }

    #[test]
    fn conditions_are_wrapped_and_keep_their_value() {
        let (text, sites) = probed(
            "fn f(x: i32) -> bool {\n    if x < 0 {\n        return true;\n    } else if x > 5 {\n    }\n    while x == 3 {}\n    if let Some(y) = Some(x) {}\n    false\n}\n",
        );
        assert!(
            text.contains("if crate::__autofix_rt::branch(0, x < 0) {"),
            "{text}"
        );
        assert!(
            text.contains("else if crate::__autofix_rt::branch(1, x > 5) {"),
            "{text}"
        );
        assert!(
            text.contains("while crate::__autofix_rt::branch(2, x == 3) {}"),
            "{text}"
        );
        assert!(text.contains("if let Some(y) = Some(x) {}"), "{text}");
        let lines: Vec<(u32, &str)> = sites
            .iter()
            .map(|s| (s.location.line, s.code.as_str()))
            .collect();
        assert_eq!(lines, [(2, "x < 0"), (4, "x > 5"), (6, "x == 3")]);
        assert!(sites.iter().all(|s| s.kind == SiteKind::Condition));
        // `bool` is no observable return type.
        assert!(syn::parse_file(&text).is_ok());
    }

    #[test]
    fn lets_and_returns_of_observable_types_are_observed() {
        let (text, sites) = probed(
            "fn f(s: &str) -> Option<usize> {\n    let n = s.len();\n    let mut k = 0;\n    let t: String = s.into();\n    let (a, b) = (1, 2);\n    if n == 0 {\n        return None;\n    }\n    s.find('x')\n}\nfn g() -> impl Fn() { || () }\n",
        );
        let kinds: Vec<(SiteKind, u32, &str)> = sites
            .iter()
            .map(|s| (s.kind, s.location.line, s.code.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                (SiteKind::Returned, 9, "f"),
                (SiteKind::Let, 2, "n"),
                (SiteKind::Condition, 6, "n == 0"),
                (SiteKind::Returned, 7, "f"),
            ]
        );
        assert!(
            text.contains("let n = s.len();{ #[allow(unused_imports)] use crate::__autofix_rt::{ObserveValue as _, ObserveOther as _}; (&n).__autofix_observe(1); }"),
            "{text}"
        );
        assert!(
            text.contains("return { let __autofix_value: Option<usize> = None; { #[allow(unused_imports)] use crate::__autofix_rt::{ObserveValue as _, ObserveOther as _}; (&__autofix_value).__autofix_observe(3); } __autofix_value };"),
            "{text}"
        );
        assert!(
            text.contains("{ let __autofix_value: Option<usize> = s.find('x');"),
            "{text}"
        );
        assert!(syn::parse_file(&text).is_ok(), "{text}");
    }

    #[test]
    fn returns_in_closures_and_async_blocks_are_not_the_functions() {
        let (_, sites) = probed(
            "fn f() -> Option<u8> {\n    let c = |x: u8| -> Option<u8> { return Some(x) };\n    let _f = async { return 3u8; };\n    c(1)\n}\n",
        );
        let returned: Vec<u32> = sites
            .iter()
            .filter(|s| s.kind == SiteKind::Returned)
            .map(|s| s.location.line)
            .collect();
        assert_eq!(returned, [4]);
    }

    #[test]
    fn macro_bodies_name_the_runtime_through_dollar_crate() {
        let (text, sites) = probed(
            "macro_rules! m {\n    ($x:expr) => {{\n        if $x > 1 { 2 } else { 3 }\n    }};\n}\n",
        );
        assert!(
            text.contains("if $crate::__autofix_rt::branch(0, $x > 1) {"),
            "{text}"
        );
        assert_eq!(sites.len(), 1);
    }

    #[test]
    fn predicates_describe_themselves() {
        let at = Location::new(FileId::new(0), 3);
        let site = |kind, code: &str| EventSite {
            location: at,
            kind,
            code: code.to_string(),
        };
        assert_eq!(
            site(SiteKind::Condition, "c == '\"'").describe(Outcome::True),
            "`c == '\"'` is true"
        );
        assert_eq!(
            site(SiteKind::Let, "n").describe(Outcome::Negative),
            "`n` < 0"
        );
        assert_eq!(
            site(SiteKind::Returned, "parse").describe(Outcome::None),
            "`parse` returns None"
        );
        let predicate = Predicate::from_slot(2 * OUTCOMES + Outcome::Some.code());
        assert_eq!((predicate.site, predicate.outcome), (2, Outcome::Some));
    }
}
