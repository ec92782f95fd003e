//! Expressions: the sites of each kind of expression (operators, indexes,
//! literals, calls and method calls, paths, fields, ranges, patterns), and
//! the operands among them.

use std::ops::Range;

use syn::spanned::Spanned;
use syn::{
    Expr, ExprBinary, ExprCall, ExprField, ExprIndex, ExprLit, ExprMethodCall, ExprPath, ExprRange,
};

use super::arms::takes_the_rest;
use super::collector::{Collector, is_atomic};
use super::conditions::is_predicate;
use super::literal::literal;
use super::{SiteKind, method_siblings};
use crate::code::{Scope, arm_body_line, free_variables, is_comparison, pattern_bindings};

impl Collector<'_> {
    /// An expression's sites: a condition if it is a predicate used as a
    /// value, an operand if it gives something its value, then those of
    /// its kind.
    pub(super) fn collect_expression(&mut self, expr: &Expr, scope: &Scope) {
        // A comparison or a conjunction that is a value (a `bool` function's
        // result, a closure's predicate, a match guard, a `let`) is a
        // condition as much as an `if`'s.
        if is_predicate(expr) && expr.span().byte_range().start >= self.conditions_end {
            self.collect_condition(expr, scope);
        }
        let range = expr.span().byte_range();
        if self.values.remove(&(range.start, range.end)) {
            self.operand(expr, false, scope);
        }
        match expr {
            Expr::Binary(binary) => self.binary(binary, scope),
            Expr::Unary(unary)
                if matches!(unary.op, syn::UnOp::Neg(_))
                    && !matches!(*unary.expr, Expr::Lit(_)) =>
            {
                let kind = SiteKind::Negation {
                    expression: range,
                    operand: unary.expr.span().byte_range(),
                };
                self.site(scope, kind);
            }
            Expr::Index(index) => self.index(index, scope),
            Expr::Return(ret) => {
                if let Some(value) = &ret.expr {
                    self.value(value);
                }
            }
            Expr::Lit(lit) => self.literal_site(lit, scope),
            Expr::Call(call) => self.call(call, scope),
            Expr::Path(path) => self.path(path, scope),
            Expr::Field(field) => self.field(field, scope),
            Expr::MethodCall(call) => self.method_call(call, scope),
            Expr::Range(range_expr) if range_expr.end.is_some() => {
                self.range_limits(range_expr, scope)
            }
            Expr::Match(expr_match) => {
                // No arm takes the rest: each variant is some arm's.
                let exhaustive = !expr_match.arms.iter().any(takes_the_rest);
                for arm in &expr_match.arms {
                    self.pattern(&arm.pat, exhaustive, scope);
                    self.pattern_literals(&arm.pat, Some(&arm.body), scope);
                }
                self.literal_arms(expr_match, scope);
                self.unguarded_arms(expr_match, scope);
                self.match_alternatives(expr_match, scope);
            }
            Expr::Macro(call) if call.mac.path.is_ident("matches") => {
                if let Some(pat) = matches_pattern(&call.mac) {
                    self.pattern(&pat, false, scope);
                    self.pattern_literals(&pat, None, scope);
                    self.literal_alternatives(&[(&pat, scope.clone())]);
                }
            }
            _ => {}
        }
    }

    /// The operator token of a binary expression; a comparison's sides are
    /// operands.
    fn binary(&mut self, binary: &ExprBinary, scope: &Scope) {
        let range = binary.op.span().byte_range();
        let operator = self.text_of(&range).to_string();
        let expression = binary.span().byte_range();
        self.site(
            scope,
            SiteKind::BinaryOperator {
                range,
                operator,
                expression,
                left: binary.left.span().byte_range(),
                right: binary.right.span().byte_range(),
            },
        );
        if is_comparison(&binary.op) {
            self.operand(&binary.left, false, scope);
            self.operand(&binary.right, false, scope);
        }
        self.binary_extension(binary, scope);
        for (operand, left) in [(&binary.left, true), (&binary.right, false)] {
            let Some((inner, loosens)) = regroupable(binary, operand, left) else {
                continue;
            };
            let kind = SiteKind::Grouping {
                expression: binary.span().byte_range(),
                inner: operand.span().byte_range(),
                first: inner.left.span().byte_range(),
                second: inner.right.span().byte_range(),
                left,
                loosens,
            };
            self.site(scope, kind);
        }
    }

    /// `base[index]`: the index an integer operand, and the element read
    /// (not a slice).
    fn index(&mut self, index: &ExprIndex, scope: &Scope) {
        self.operand(&index.index, true, scope);
        if let (Expr::Range(range), Expr::Path(base)) = (&*index.index, &*index.expr)
            && let Some(name) = base.path.get_ident()
        {
            let key = (self.file, scope.function.clone(), scope.function_line);
            let bounds = range.start.iter().chain(&range.end);
            for bound in bounds {
                let written = (
                    name.to_string(),
                    self.text_of(&bound.span().byte_range()).to_string(),
                );
                let slices = self.space.slices.entry(key.clone()).or_default();
                if !slices.contains(&written) {
                    slices.push(written);
                }
            }
        }
        if !matches!(*index.index, Expr::Range(_)) {
            self.site(
                scope,
                SiteKind::Index {
                    expression: index.span().byte_range(),
                    base: index.expr.span().byte_range(),
                    index: index.index.span().byte_range(),
                    closure: scope.given_to.clone(),
                },
            );
        }
    }

    /// The literals a pattern matches, each a literal site: an alternative
    /// that is a literal (`0`), and the bounds of a range (`0x7F..=0xFF`,
    /// where an off-by-one lets a byte through). A match arm's are at the
    /// location its `body` runs first (where coverage says the arm was
    /// taken).
    fn pattern_literals(&mut self, pat: &syn::Pat, body: Option<&Expr>, scope: &Scope) {
        let alternatives: Vec<&syn::Pat> = match pat {
            syn::Pat::Or(or) => or.cases.iter().collect(),
            other => vec![other],
        };
        let mut literals: Vec<&ExprLit> = Vec::new();
        for alternative in alternatives {
            match alternative {
                syn::Pat::Lit(lit) => literals.push(lit),
                syn::Pat::Range(range) => {
                    let bounds = range.start.iter().chain(&range.end);
                    literals.extend(bounds.filter_map(|bound| match &**bound {
                        Expr::Lit(lit) => Some(lit),
                        _ => None,
                    }));
                }
                _ => {}
            }
        }
        if literals.is_empty() {
            return;
        }
        let mut at = scope.clone();
        at.location = body.and_then(arm_body_line).unwrap_or(scope.location);
        for lit in literals {
            self.literal_site(lit, &at);
        }
    }

    /// A literal site, and the literal as an ingredient.
    fn literal_site(&mut self, lit: &ExprLit, scope: &Scope) {
        if let Some(literal) = literal(&lit.lit) {
            self.space.literals.push(literal.clone());
            let range = lit.span().byte_range();
            let operand = self.operand_literals.remove(&(range.start, range.end));
            self.site(
                scope,
                SiteKind::Literal {
                    range,
                    literal,
                    data: false,
                    operand,
                },
            );
        }
    }

    /// A call: its callee is no variable, its arguments are sites, and a
    /// function called by path may be a method site.
    fn call(&mut self, call: &ExprCall, scope: &Scope) {
        let range = call.func.span().byte_range();
        self.callees.insert((range.start, range.end));
        self.arguments(call.args.iter(), scope);
        // A function called by path, where it has siblings, or
        // after one of the crate's types with other functions of
        // its kind (the sites are collected after every file's
        // declarations).
        let segments = match &*call.func {
            Expr::Path(path) if path.qself.is_none() => Some(&path.path.segments),
            _ => None,
        };
        if let Some(segments) = segments
            && let Some(last) = segments.last()
            && last.arguments.is_none()
        {
            let name = last.ident.to_string();
            let owner = segments.iter().rev().nth(1).map(|s| s.ident.to_string());
            let associated = owner.as_ref().is_some_and(|owner| {
                !self
                    .space
                    .associated(owner, &name, call.args.len())
                    .is_empty()
            });
            if associated || method_siblings(&name).next().is_some() {
                self.site(
                    scope,
                    SiteKind::Method {
                        range: last.ident.span().byte_range(),
                        name,
                        arguments: call.args.len(),
                        receiver: false,
                        owner,
                        expression: call.span().byte_range(),
                        operands: None,
                    },
                );
            }
        }
    }

    /// A path: a local variable (not a callee), a module-level item of
    /// the file with siblings of its type, or a unit variant of one of the
    /// crate's enums.
    fn path(&mut self, path: &ExprPath, scope: &Scope) {
        let range = path.span().byte_range();
        if let Some(kind) = self.unit_variant(path, scope) {
            self.site(scope, kind);
            return;
        }
        if let Some(ident) = path.path.get_ident()
            && path.qself.is_none()
            && ident != "self"
            && scope.binds(&ident.to_string())
            && !self.callees.contains(&(range.start, range.end))
        {
            self.site(
                scope,
                SiteKind::Variable {
                    range,
                    name: ident.to_string(),
                },
            );
        } else if let Some(ident) = path.path.get_ident()
            && path.qself.is_none()
            && !scope.binds(&ident.to_string())
            && !self.callees.contains(&(range.start, range.end))
            && self
                .space
                .sibling_items(self.file, &ident.to_string())
                .next()
                .is_some()
        {
            self.site(
                scope,
                SiteKind::Item {
                    range,
                    name: ident.to_string(),
                },
            );
        }
    }

    /// `Enum::Name` (or `Self::Name` in an `impl` of the enum), `Name` a
    /// unit variant of an enum the crate declares with another unit variant.
    fn unit_variant(&self, path: &ExprPath, scope: &Scope) -> Option<SiteKind> {
        let segments: Vec<_> = path.path.segments.iter().collect();
        let [.., owner, variant] = segments[..] else {
            return None;
        };
        if path.qself.is_some() || !variant.arguments.is_empty() {
            return None;
        }
        let owner = match owner.ident.to_string() {
            name if name == "Self" => scope.self_type.clone()?,
            name => name,
        };
        let name = variant.ident.to_string();
        let units: Vec<&String> = self.space.unit_variants(&owner).collect();
        (units.contains(&&name) && units.len() > 1).then(|| SiteKind::UnitVariant {
            range: variant.ident.span().byte_range(),
            owner,
            name,
        })
    }

    /// The name of a field access, or its index (`pair.1`).
    fn field(&mut self, field: &ExprField, scope: &Scope) {
        let (range, name) = match &field.member {
            syn::Member::Named(name) => (name.span().byte_range(), name.to_string()),
            syn::Member::Unnamed(index) => (index.span.byte_range(), index.index.to_string()),
        };
        let expression = field.span().byte_range();
        self.site(
            scope,
            SiteKind::Field {
                range,
                name,
                expression,
            },
        );
    }

    /// A method call: its arguments, an `unwrap` or `expect`, the method
    /// name as an ingredient, the error path of an `ok_or`, and the method
    /// site.
    fn method_call(&mut self, call: &ExprMethodCall, scope: &Scope) {
        let name = call.method.to_string();
        let arguments = call.args.len();
        self.arguments(call.args.iter(), scope);
        if (name == "unwrap" || name == "expect") && arguments <= 1 {
            self.site(
                scope,
                SiteKind::Unwrap {
                    call: call.method.span().byte_range().start..call.span().byte_range().end,
                    receiver: call.receiver.span().byte_range(),
                },
            );
        }
        self.method_extension(call, scope);
        let receiver = self.text_of(&call.receiver.span().byte_range()).to_string();
        self.space.add_method(&receiver, arguments, name.clone());
        if let Expr::MethodCall(inner) = &*call.receiver {
            self.chained(inner, call, scope);
        }
        // `x.ok_or(E)?` returns `Err(E)`: the function's error path.
        if name == "ok_or"
            && let [error] = call.args.iter().collect::<Vec<_>>()[..]
            && scope
                .returns
                .as_deref()
                .is_some_and(|r| r.starts_with("Result<"))
        {
            let text = self.text_of(&error.span().byte_range());
            let text = format!("Err({text})");
            self.returns(scope, text, free_variables(error));
        }
        self.site(
            scope,
            SiteKind::Method {
                range: call.method.span().byte_range(),
                name,
                arguments,
                receiver: true,
                owner: None,
                expression: call.span().byte_range(),
                operands: method_operands(call),
            },
        );
    }

    /// Notes `call`, chained right after `inner` (`.join(&self.key)` after
    /// `prefix.clone()`), as what the crate calls after `inner`'s method.
    fn chained(&mut self, inner: &ExprMethodCall, call: &ExprMethodCall, scope: &Scope) {
        let range = call.dot_token.span().byte_range().start..call.span().byte_range().end;
        let free = call.args.iter().flat_map(free_variables).collect();
        let ingredient = self.ingredient(call, range, free, false, true, scope);
        let calls = self
            .space
            .chained
            .entry(inner.method.to_string())
            .or_default();
        if !calls.iter().any(|c| c.text == ingredient.text) {
            calls.push(ingredient);
        }
    }

    /// The `..` or `..=` of a range with an end; its bounds are integer
    /// operands.
    fn range_limits(&mut self, range_expr: &ExprRange, scope: &Scope) {
        for bound in range_expr.start.iter().chain(&range_expr.end) {
            self.operand(bound, true, scope);
        }
        let inclusive = matches!(range_expr.limits, syn::RangeLimits::Closed(_));
        self.site(
            scope,
            SiteKind::RangeLimits {
                range: range_expr.limits.span().byte_range(),
                inclusive,
                expression: range_expr.span().byte_range(),
            },
        );
    }

    /// Argument sites: each argument an operand, and the list, if it has
    /// two or more, for swaps.
    fn arguments<'e>(&mut self, arguments: impl Iterator<Item = &'e Expr>, scope: &Scope) {
        let arguments: Vec<&Expr> = arguments.collect();
        for argument in &arguments {
            self.operand(argument, false, scope);
        }
        if arguments.len() >= 2 {
            let arguments = arguments.iter().map(|a| a.span().byte_range()).collect();
            self.site(scope, SiteKind::Call { arguments });
        }
    }

    /// A pattern site, if `pat`'s alternatives are variants of one of the
    /// crate's enums (`exhaustive`: of a `match` with no arm for the rest).
    fn pattern(&mut self, pat: &syn::Pat, exhaustive: bool, scope: &Scope) {
        let alternatives: Vec<&syn::Pat> = match pat {
            syn::Pat::Or(or) => or.cases.iter().collect(),
            other => vec![other],
        };
        let mut owner = None;
        let mut variants = Vec::new();
        for alternative in &alternatives {
            let path = match alternative {
                syn::Pat::Path(path) if path.qself.is_none() => &path.path,
                syn::Pat::TupleStruct(tuple) if tuple.qself.is_none() => &tuple.path,
                syn::Pat::Struct(fields) if fields.qself.is_none() => &fields.path,
                _ => return,
            };
            let mut segments = path.segments.iter().rev();
            let (Some(variant), Some(enum_name)) = (segments.next(), segments.next()) else {
                return;
            };
            let enum_name = enum_name.ident.to_string();
            if owner.get_or_insert_with(|| enum_name.clone()) != &enum_name {
                return;
            }
            variants.push((variant.ident.to_string(), alternative.span().byte_range()));
        }
        let Some(owner) = owner else {
            return;
        };
        if !self.space.enums.contains_key(&owner) {
            return;
        }
        let binds = alternatives.iter().any(|a| !pattern_bindings(a).is_empty());
        self.site(
            scope,
            SiteKind::Pattern {
                range: pat.span().byte_range(),
                owner,
                variants,
                binds,
                exhaustive,
            },
        );
    }
}

/// With one argument: the receiver and the argument, and whether the
/// argument, its `&` taken away, can be a receiver without parentheses.
fn method_operands(call: &ExprMethodCall) -> Option<(Range<usize>, Range<usize>, bool)> {
    match call.args.first() {
        Some(argument) if call.args.len() == 1 => {
            let value = match argument {
                Expr::Reference(reference) if reference.mutability.is_none() => &*reference.expr,
                argument => argument,
            };
            Some((
                call.receiver.span().byte_range(),
                argument.span().byte_range(),
                is_atomic(value),
            ))
        }
        _ => None,
    }
}

/// The pattern of `matches!(value, PATTERN)` (its guard left out).
fn matches_pattern(mac: &syn::Macro) -> Option<syn::Pat> {
    mac.parse_body_with(|input: syn::parse::ParseStream| {
        input.parse::<Expr>()?;
        input.parse::<syn::Token![,]>()?;
        let pat = syn::Pat::parse_multi_with_leading_vert(input)?;
        input.parse::<proc_macro2::TokenStream>()?;
        Ok(pat)
    })
    .ok()
}

/// The binary expression `operand` of `outer` is (its parentheses taken
/// away), where giving its middle operand to `outer`'s operator changes
/// the value: both operators arithmetic, bitwise or logical (see
/// [`binding`]), and not one associative operator twice, nor `+` then `-`
/// (`(a + b) - c` is `a + (b - c)`); with whether it binds more loosely
/// than `outer`.
fn regroupable<'a>(
    outer: &ExprBinary,
    operand: &'a Expr,
    left: bool,
) -> Option<(&'a ExprBinary, bool)> {
    let mut operand = operand;
    while let Expr::Paren(paren) = operand {
        operand = &paren.expr;
    }
    let Expr::Binary(inner) = operand else {
        return None;
    };
    let token = |op: &syn::BinOp| quote::ToTokens::to_token_stream(op).to_string();
    let (outer_op, inner_op) = (token(&outer.op), token(&inner.op));
    const ASSOCIATIVE: &[&str] = &["+", "*", "&", "|", "^", "&&", "||"];
    let same = outer_op == inner_op && ASSOCIATIVE.contains(&outer_op.as_str());
    // `(a + b) - c` and `a + (b - c)` are one value.
    let (first, then) = if left {
        (&inner_op, &outer_op)
    } else {
        (&outer_op, &inner_op)
    };
    let sum_then_difference = first == "+" && then == "-";
    let (outer_binds, inner_binds) = (binding(&outer_op)?, binding(&inner_op)?);
    (!same && !sum_then_difference).then_some((inner, inner_binds < outer_binds))
}

/// How tightly a binary operator binds (Rust's precedence, higher binds
/// tighter), for those that regroup: not a comparison, whose sides regroup
/// into nothing that compiles, nor an assignment.
pub(super) fn binding(operator: &str) -> Option<u8> {
    Some(match operator {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "&" => 7,
        "^" => 6,
        "|" => 5,
        "&&" => 3,
        "||" => 2,
        _ => return None,
    })
}
