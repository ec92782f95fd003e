//! Arms a `match` forgot: each unguarded arm whose pattern is one literal
//! (`'"' => vec!['\\', c],`) is a site where a copy of it can go for
//! another literal of its kind that the match writes but no arm takes (an
//! escaper that forgot `'\\'`, a lexer that forgot a byte); and each
//! unguarded arm of a `match` whose other arms have guards is a site where
//! one of theirs can go (an arm that takes too much); and each pattern of
//! literals alone is a site where a literal the crate's other patterns take
//! beside one of its own can join it (`' '` that forgot `'\t'`).

use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Expr, ExprMatch};

use super::SiteKind;
use super::collector::Collector;
use crate::code::{Scope, arm_body_line};

impl Collector<'_> {
    /// The arm sites of a `match`: at the line of its arm that takes the
    /// rest (where the forgotten case runs now), else at the match's.
    pub(super) fn literal_arms(&mut self, expr_match: &ExprMatch, scope: &Scope) {
        let taken: Vec<String> = expr_match
            .arms
            .iter()
            .flat_map(|arm| literals(arm.pat.to_token_stream()))
            .map(|(text, _)| text)
            .collect();
        let written: Vec<String> = literals(expr_match.to_token_stream())
            .into_iter()
            .map(|(text, _)| text)
            .collect();
        let mut at = scope.clone();
        at.location = rest_line(expr_match).unwrap_or(scope.location);
        for arm in &expr_match.arms {
            let syn::Pat::Lit(lit) = &arm.pat else {
                continue;
            };
            let literal = lit.to_token_stream().to_string();
            let Some(kind) = kind_of(&literal) else {
                continue;
            };
            let mut others: Vec<String> = Vec::new();
            for text in &written {
                if kind_of(text) == Some(kind) && !taken.contains(text) && !others.contains(text) {
                    others.push(text.clone());
                }
            }
            if others.is_empty() {
                continue;
            }
            let uses = literals(arm.body.to_token_stream())
                .into_iter()
                .filter(|(text, _)| *text == literal)
                .map(|(_, range)| range)
                .collect();
            let start = arm.pat.span().byte_range().start;
            let end = match &arm.comma {
                Some(comma) => comma.span().byte_range().end,
                None => arm.body.span().byte_range().end,
            };
            let block = matches!(&*arm.body, Expr::Block(_));
            self.site(
                &at,
                SiteKind::Arm {
                    arm: start..end,
                    pattern: lit.span().byte_range(),
                    uses,
                    others,
                    comma: arm.comma.is_none() && !block,
                },
            );
        }
    }
}

impl Collector<'_> {
    /// The alternatives of a `match`'s patterns: each at the line where
    /// what no arm takes runs now, or, when the arm of the rest runs
    /// nothing (`_ => {}`), at the line of its own arm's body: where a case
    /// it forgot would run once taken.
    pub(super) fn match_alternatives(&mut self, expr_match: &ExprMatch, scope: &Scope) {
        let rest = rest_line(expr_match);
        let patterns: Vec<(&syn::Pat, Scope)> = expr_match
            .arms
            .iter()
            .map(|arm| {
                let mut at = scope.clone();
                at.location = rest
                    .or_else(|| arm_body_line(&arm.body))
                    .unwrap_or(scope.location);
                (&arm.pat, at)
            })
            .collect();
        self.literal_alternatives(&patterns);
    }

    /// The patterns of literals alone among `patterns` (a `match`'s arms',
    /// or the one of `matches!`), each noted (what the crate takes
    /// together) and a site at its line where another literal can join it.
    pub(super) fn literal_alternatives(&mut self, patterns: &[(&syn::Pat, Scope)]) {
        let taken: Vec<String> = patterns
            .iter()
            .flat_map(|(pat, _)| literals(pat.to_token_stream()))
            .map(|(text, _)| text)
            .collect();
        for (pat, at) in patterns {
            let Some(own) = literals_alone(pat) else {
                continue;
            };
            if own.len() >= 2 && !self.space.literal_patterns.contains(&own) {
                self.space.literal_patterns.push(own.clone());
            }
            let kind = SiteKind::Alternatives {
                range: pat.span().byte_range(),
                literals: own,
                taken: taken.clone(),
            };
            self.site(at, kind);
        }
    }
}

impl Collector<'_> {
    /// The arms of a `match` with guards elsewhere that have none, each
    /// before an arm that takes the rest (where what a guard turns away
    /// goes), at the arm's line.
    pub(super) fn unguarded_arms(&mut self, expr_match: &ExprMatch, scope: &Scope) {
        // (A guarded arm's pattern is a `Pat::Guard`.)
        let guards: Vec<String> = expr_match
            .arms
            .iter()
            .filter_map(|arm| match &arm.pat {
                syn::Pat::Guard(guarded) => Some(guarded.guard.span().byte_range()),
                _ => None,
            })
            .map(|guard| self.text_of(&guard).to_string())
            .collect();
        let Some(rest) = expr_match.arms.iter().position(takes_the_rest) else {
            return;
        };
        if guards.is_empty() {
            return;
        }
        for arm in &expr_match.arms[..rest] {
            if matches!(arm.pat, syn::Pat::Guard(_)) {
                continue;
            }
            let mut at = scope.clone();
            at.location = arm_body_line(&arm.body).unwrap_or(scope.location);
            let kind = SiteKind::Unguarded {
                at: arm.pat.span().byte_range().end,
                guards: guards.clone(),
            };
            self.site(&at, kind);
        }
    }
}

/// Where a case no arm of `expr_match` takes runs now: the first line of
/// the body of its arm that takes the rest (`None` without one, or when it
/// runs nothing: `_ => {}`).
fn rest_line(expr_match: &ExprMatch) -> Option<u32> {
    let rest = expr_match.arms.iter().find(|arm| takes_the_rest(arm))?;
    arm_body_line(&rest.body)
}

/// Whether an arm takes whatever comes to it: `_` or a name, unguarded (a
/// guarded arm's pattern is a `Pat::Guard`).
pub(super) fn takes_the_rest(arm: &syn::Arm) -> bool {
    matches!(
        &arm.pat,
        syn::Pat::Wild(_) | syn::Pat::Ident(syn::PatIdent { subpat: None, .. })
    )
}

/// The kind of a literal as written, by its first characters: a char, a
/// byte, a string or an integer (`None`: a byte string, a float, a bool).
fn kind_of(text: &str) -> Option<&'static str> {
    if text.starts_with('\'') {
        Some("char")
    } else if text.starts_with("b'") {
        Some("byte")
    } else if text.starts_with('"') {
        Some("str")
    } else if text.starts_with("0x")
        || text.starts_with(|c: char| c.is_ascii_digit()) && !text.contains(['.', 'e', 'E'])
    {
        Some("int")
    } else {
        None
    }
}

/// The literals of a pattern that is one literal or an or-pattern of
/// literals (of a kind `kind_of` knows) and ranges alone, as written, at
/// least one (`'0'..='9' | '.' | '-'` gives `'.'` and `'-'`); else `None`.
fn literals_alone(pat: &syn::Pat) -> Option<Vec<String>> {
    let alternatives: Vec<&syn::Pat> = match pat {
        syn::Pat::Or(or) => or.cases.iter().collect(),
        other => vec![other],
    };
    let each: Option<Vec<Option<String>>> = alternatives
        .into_iter()
        .map(|alternative| match alternative {
            syn::Pat::Lit(lit) => {
                let text = lit.to_token_stream().to_string();
                kind_of(&text).map(|_| Some(text))
            }
            syn::Pat::Range(_) => Some(None),
            _ => None,
        })
        .collect();
    let literals: Vec<String> = each?.into_iter().flatten().collect();
    (!literals.is_empty()).then_some(literals)
}

/// Every literal token of `tokens` (macros' arguments included: `vec!['\\',
/// c]`), as written, with its bytes.
fn literals(tokens: TokenStream) -> Vec<(String, Range<usize>)> {
    let mut out = Vec::new();
    for tree in tokens {
        match tree {
            TokenTree::Literal(lit) => out.push((lit.to_string(), lit.span().byte_range())),
            TokenTree::Group(group) => out.extend(literals(group.stream())),
            _ => {}
        }
    }
    out
}
