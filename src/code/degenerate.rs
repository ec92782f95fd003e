//! Code no one writes as a fix, which a patch that passes the tests may
//! still make: a `match` or an `if` whose every branch gives the same value
//! (its value no longer depends on what it tests: `Unicode(_) => false` made
//! `true` beside `Ascii(_) => true`), a condition that repeats an earlier
//! one that decided it already (an `else if` of the same condition, or an
//! `if` right after a guard of the same condition that leaves the block:
//! never true where it is tested), an arm whose every variant an earlier
//! arm matches whole (never reached), a comparison of a value with itself
//! (`start > start`: rust-lapper's bounds check made always false), a
//! condition joined with one it implies or that implies it (`*d < after &&
//! *d <= after`: one of the two decides nothing).
//!
//! Read from the syntax of one file; a patch makes code degenerate when the
//! patched file has such code the original does not (see [`made_degenerate`]).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Pat, Stmt};

use crate::code::control::branch_values;
use crate::code::laws::{self, Law};
use crate::code::macro_body::macro_rules;
use crate::code::tokens::{is_compound_assignment, without_spaces};
use crate::code::variables::{free_variables, pattern_bindings};

/// What a patch made degenerate, and where (lines of the patched file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Degenerate {
    /// Every branch of the `match` or `if` at `line` gives the same value.
    SameValue { line: u32 },
    /// The condition at `line` repeats the one at `earlier`, which decided
    /// it: it is never true here.
    Decided { line: u32, earlier: u32 },
    /// The arm at `line` matches nothing an earlier arm does not.
    Unreachable { line: u32 },
    /// The `while` loop at `line` never ends once it starts: its condition
    /// reads only variables its body leaves alone, and nothing in the body
    /// leaves the loop.
    Endless { line: u32 },
    /// The `eq` (or `ne`) at `line` now orders its two sides: `a == b`
    /// and `b == a` may differ.
    Asymmetric { line: u32 },
    /// The value of the `eq` (or `ne`) at `line` is now an inequality (an
    /// equality) of its two sides: no value equals itself.
    Irreflexive { line: u32 },
    /// The `||` (or `&&`) at `line` joins a condition with its negation
    /// (`a || !a`): always true (always false).
    Tautology { line: u32 },
    /// The `&&` (or `||`) chain at `line` joins a condition with one it
    /// implies or that implies it (`a < b && a <= b`, `a && a`): one of
    /// them decides nothing.
    Redundant { line: u32 },
    /// The comparison at `line` compares a value with itself (`a > a`):
    /// its outcome no longer depends on the value.
    SelfCompared { line: u32 },
    /// The operation at `line` takes a value with itself (`a - a`,
    /// `a.saturating_sub(a)`, `x.log(x)`): its result no longer depends on
    /// the value.
    SelfApplied { line: u32 },
    /// The operation at `line` gives one value whatever its other operand
    /// (`x % 1`, `x * 0`, `x & 0`): it no longer depends on it.
    Constant { line: u32 },
}

impl Degenerate {
    /// Why no one would write it, for a reason against the patch.
    pub fn describe(&self) -> String {
        match self {
            Degenerate::SameValue { line } => format!(
                "every branch of the `match` or `if` at line {line} now gives the same value: it no longer depends on what it tests"
            ),
            Degenerate::Decided { line, earlier } => format!(
                "the condition at line {line} repeats the one at line {earlier}, which decided it already: it is never true where it is tested"
            ),
            Degenerate::Unreachable { line } => format!(
                "the arm at line {line} can no longer be reached: an earlier arm matches all it matches"
            ),
            Degenerate::Endless { line } => format!(
                "the loop at line {line} never ends once it starts: its condition reads only what its body leaves alone"
            ),
            Degenerate::Asymmetric { line } => format!(
                "the equality at line {line} now orders its two sides: `a == b` and `b == a` no longer agree"
            ),
            Degenerate::Irreflexive { line } => format!(
                "the equality at line {line} is now an inequality of its two sides: no value equals itself"
            ),
            Degenerate::Tautology { line } => format!(
                "the condition at line {line} joins a condition with its negation (`a || !a`): it no longer depends on either"
            ),
            Degenerate::Redundant { line } => format!(
                "the condition at line {line} joins a condition with one it implies (`a < b && a <= b`): one of the two decides nothing"
            ),
            Degenerate::SelfApplied { line } => format!(
                "the operation at line {line} takes a value with itself: its result no longer depends on the value"
            ),
            Degenerate::Constant { line } => format!(
                "the operation at line {line} gives one value whatever its operand (`x % 1`, `x * 0`): its result no longer depends on it"
            ),
            Degenerate::SelfCompared { line } => format!(
                "the comparison at line {line} compares a value with itself: its outcome no longer depends on the value"
            ),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Degenerate::SameValue { .. } => "same value",
            Degenerate::Decided { .. } => "decided",
            Degenerate::Unreachable { .. } => "unreachable",
            Degenerate::Endless { .. } => "endless",
            Degenerate::Asymmetric { .. } => "asymmetric",
            Degenerate::Irreflexive { .. } => "irreflexive",
            Degenerate::Tautology { .. } => "tautology",
            Degenerate::Redundant { .. } => "redundant",
            Degenerate::SelfCompared { .. } => "self-compared",
            Degenerate::SelfApplied { .. } => "self-applied",
            Degenerate::Constant { .. } => "constant",
        }
    }
}

/// The first degenerate code `patched` has that `original` has not (each
/// told apart by its kind and its tokens, so code the patch moved but did
/// not touch counts as the same).
pub fn made_degenerate(original: &str, patched: &str) -> Option<Degenerate> {
    let before: BTreeSet<Key> = find(original).into_iter().map(|(key, _)| key).collect();
    find(patched)
        .into_iter()
        .find(|(key, _)| !before.contains(key))
        .map(|(_, found)| found)
}

/// What tells one piece of degenerate code from another: its kind and
/// the tokens of the code it is found in.
type Key = (&'static str, String);

/// The degenerate code of a file, each with its key.
fn find(text: &str) -> Vec<(Key, Degenerate)> {
    let Ok(file) = syn::parse_file(text) else {
        return Vec::new();
    };
    let mut finder = Finder { found: Vec::new() };
    finder.visit_file(&file);
    finder.found
}

struct Finder {
    found: Vec<(Key, Degenerate)>,
}

fn line(node: &impl Spanned) -> u32 {
    node.span().start().line as u32
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        match expr {
            Expr::Match(m) => {
                let arms = m.arms.iter().map(|arm| {
                    let mut bound = pattern_bindings(&arm.pat);
                    if let Expr::Block(b) = &*arm.body {
                        bound.extend(block_lets(&b.block));
                    }
                    (&*arm.body, bound)
                });
                if let Some(value) = same_value(arms) {
                    // Told apart by what it matches and the value, so an
                    // edit elsewhere in an arm leaves it the same.
                    let patterns = m.arms.iter().map(|arm| without_spaces(&arm.pat));
                    let decides = std::iter::once(without_spaces(&m.expr)).chain(patterns);
                    let found = Degenerate::SameValue { line: line(m) };
                    self.note_as(decides.chain([value]).collect(), found);
                }
                for arm in unreachable_arms(&m.arms) {
                    let line = line(&arm.pat);
                    self.note(arm, Degenerate::Unreachable { line });
                }
            }
            Expr::If(e) if e.else_branch.is_some() => {
                if let Some(value) = same_value(if_branches(e).into_iter()) {
                    let found = Degenerate::SameValue { line: line(e) };
                    let conditions = if_chain(e).into_iter().map(|e| without_spaces(&e.cond));
                    self.note_as(conditions.chain([value]).collect(), found);
                }
                self.repeated_in_chain(e);
            }
            Expr::While(w) if endless(w) => self.note(w, Degenerate::Endless { line: line(w) }),
            Expr::Binary(b) if joins_negation(b) => {
                self.note(b, Degenerate::Tautology { line: line(b) })
            }
            Expr::Binary(b) if joins_implied(b) => {
                self.note(b, Degenerate::Redundant { line: line(b) })
            }
            Expr::Binary(b) if compares_itself(b) => {
                self.note(b, Degenerate::SelfCompared { line: line(b) })
            }
            Expr::Binary(b) if applies_itself(b) => {
                self.note(b, Degenerate::SelfApplied { line: line(b) })
            }
            Expr::Binary(b) if absorbs(b) => self.note(b, Degenerate::Constant { line: line(b) }),
            Expr::MethodCall(m) if called_with_itself(m) => {
                self.note(m, Degenerate::SelfApplied { line: line(m) })
            }
            _ => {}
        }
        visit::visit_expr(self, expr);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        // The conditions of the guards just before (`if C { return ..; }`),
        // with their lines: a statement between them ends the run.
        let mut guards: Vec<(String, u32)> = Vec::new();
        for stmt in &block.stmts {
            let Stmt::Expr(Expr::If(e), _) = stmt else {
                guards.clear();
                continue;
            };
            let condition = self.decided(e, &guards);
            if e.else_branch.is_none() && diverges(&e.then_branch) {
                guards.push((condition, line(&e.cond)));
            } else {
                guards.clear();
            }
        }
        visit::visit_block(self, block);
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if let Some((implemented, _)) = &item.trait_ {
            for method in item.items.iter().filter_map(|i| match i {
                syn::ImplItem::Fn(method) => Some(method),
                _ => None,
            }) {
                for (law, expr) in laws::broken(implemented, method) {
                    let line = line(expr);
                    self.note(
                        expr,
                        match law {
                            Law::Symmetry => Degenerate::Asymmetric { line },
                            Law::Reflexivity => Degenerate::Irreflexive { line },
                        },
                    );
                }
            }
        }
        visit::visit_item_impl(self, item);
    }

    // The transcribers of `macro_rules!`, where impls are often written.
    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        for rule in macro_rules(item) {
            for stmt in rule.body.iter().flatten() {
                self.visit_stmt(stmt);
            }
        }
    }
}

impl Finder {
    /// Notes `found` in the code `node`.
    fn note(&mut self, node: &impl quote::ToTokens, found: Degenerate) {
        self.found
            .push(((found.kind(), without_spaces(node)), found));
    }

    /// Notes `found`, told apart by the texts `key` (the parts of the code
    /// that make it degenerate).
    fn note_as(&mut self, key: Vec<String>, found: Degenerate) {
        self.found.push(((found.kind(), key.join("\u{1f}")), found));
    }

    /// An `else if` whose condition an earlier condition of the same chain
    /// repeats.
    fn repeated_in_chain(&mut self, first: &syn::ExprIf) {
        let mut seen: Vec<(String, u32)> = vec![(without_spaces(&first.cond), line(&first.cond))];
        for e in if_chain(first).into_iter().skip(1) {
            let condition = self.decided(e, &seen);
            seen.push((condition, line(&e.cond)));
        }
    }

    /// Notes `e` as decided when one of the `earlier` conditions (with
    /// their lines) is its own and it reads the same twice; its condition.
    fn decided(&mut self, e: &syn::ExprIf, earlier: &[(String, u32)]) -> String {
        let condition = without_spaces(&e.cond);
        if let Some((_, at)) = earlier.iter().find(|(c, _)| *c == condition)
            && pure(&e.cond)
        {
            let found = Degenerate::Decided {
                line: line(&e.cond),
                earlier: *at,
            };
            self.note(e, found);
        }
        condition
    }
}

/// The branches of an `if`/`else` chain: the value each block ends in
/// (and the final `else`), with the names its block binds with `let`.
fn if_branches(e: &syn::ExprIf) -> Vec<(&Expr, Vec<String>)> {
    fn ending(block: &syn::Block) -> Option<(&Expr, Vec<String>)> {
        let value = block.stmts.last().and_then(|s| match s {
            Stmt::Expr(expr, None) => Some(expr),
            _ => None,
        });
        value.map(|value| (value, block_lets(block)))
    }
    let chain = if_chain(e);
    let mut branches: Vec<_> = chain.iter().map(|e| ending(&e.then_branch)).collect();
    match chain
        .last()
        .and_then(|e| e.else_branch.as_ref())
        .map(|(_, e)| &**e)
    {
        Some(Expr::Block(other)) => branches.push(ending(&other.block)),
        Some(other) => branches.push(Some((other, Vec::new()))),
        None => {}
    }
    // A branch without a value gives the `if` none to compare.
    if branches.iter().any(Option::is_none) {
        return Vec::new();
    }
    branches.into_iter().flatten().collect()
}

/// The `if`s of an `if`/`else if` chain, in order.
fn if_chain(first: &syn::ExprIf) -> Vec<&syn::ExprIf> {
    let mut chain = vec![first];
    while let Some(Expr::If(e)) = chain
        .last()
        .and_then(|e| e.else_branch.as_ref())
        .map(|(_, e)| &**e)
    {
        chain.push(e);
    }
    chain
}

/// The names a block's own `let` statements bind.
fn block_lets(block: &syn::Block) -> Vec<String> {
    block
        .stmts
        .iter()
        .filter_map(|stmt| match stmt {
            Stmt::Local(local) => Some(pattern_bindings(&local.pat)),
            _ => None,
        })
        .flatten()
        .collect()
}

/// Whether at least two branches all give one value, which reads no name
/// its own branch binds (`Ok(v) => v, Err(v) => v` depends on what it
/// matches, and so does `let v = ..; Ok(v)` in each branch of an `if`). A
/// branch that gives no value (it ends in a statement) rules it out. The
/// value, when they do.
fn same_value<'e>(branches: impl Iterator<Item = (&'e Expr, Vec<String>)>) -> Option<String> {
    let mut values: BTreeSet<String> = BTreeSet::new();
    let mut count = 0;
    for (body, bound) in branches {
        let found = branch_values(body);
        if found.is_empty() {
            return None;
        }
        for value in found {
            if free_variables(value).iter().any(|v| bound.contains(v)) {
                return None;
            }
            values.insert(without_spaces(value));
            count += 1;
        }
    }
    let value = values.pop_first()?;
    (count >= 2 && values.is_empty()).then_some(value)
}

/// The arms whose every alternative names a variant an earlier arm
/// without a guard matches whole (`A(_)`, `A { .. }`, `A`).
fn unreachable_arms(arms: &[syn::Arm]) -> Vec<&syn::Arm> {
    let mut whole: BTreeSet<String> = BTreeSet::new();
    let mut found = Vec::new();
    for arm in arms {
        let (pat, guarded) = match &arm.pat {
            Pat::Guard(g) => (&*g.pat, true),
            pat => (pat, false),
        };
        let alternatives = alternatives(pat);
        let covered = alternatives
            .iter()
            .all(|alt| variant_path(alt).is_some_and(|path| whole.contains(&path)));
        if covered && !alternatives.is_empty() {
            found.push(arm);
        }
        if !guarded {
            whole.extend(alternatives.iter().filter_map(|alt| whole_variant(alt)));
        }
    }
    found
}

fn alternatives(pat: &Pat) -> Vec<&Pat> {
    match pat {
        Pat::Or(or) => or.cases.iter().collect(),
        Pat::Paren(p) => alternatives(&p.pat),
        other => vec![other],
    }
}

/// The variant (or unit struct, constant) a pattern names: `E::A` of
/// `E::A(x, _)`, `E::B { .. }`, `E::C`, `None`.
fn variant_path(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Path(p) => Some(without_spaces(&p.path)),
        Pat::TupleStruct(p) => Some(without_spaces(&p.path)),
        Pat::Struct(p) => Some(without_spaces(&p.path)),
        Pat::Ident(p)
            if p.subpat.is_none() && p.ident.to_string().starts_with(char::is_uppercase) =>
        {
            Some(p.ident.to_string())
        }
        _ => None,
    }
}

/// The variant a pattern matches whole: every field a wildcard, a rest or
/// a plain binding.
fn whole_variant(pat: &Pat) -> Option<String> {
    let any = |p: &Pat| match p {
        Pat::Wild(_) | Pat::Rest(_) => true,
        Pat::Ident(i) => i.subpat.is_none() && !i.ident.to_string().starts_with(char::is_uppercase),
        _ => false,
    };
    let whole = match pat {
        Pat::TupleStruct(p) => p.elems.iter().all(any),
        Pat::Struct(p) => p.fields.iter().all(|f| any(&f.pat)),
        _ => true,
    };
    if whole { variant_path(pat) } else { None }
}

/// Whether a block always leaves where it ends: its last statement returns,
/// breaks, continues or panics.
fn diverges(block: &syn::Block) -> bool {
    match block.stmts.last() {
        Some(Stmt::Expr(Expr::Return(_) | Expr::Break(_) | Expr::Continue(_), _)) => true,
        Some(Stmt::Macro(m)) => is_panic(&m.mac),
        Some(Stmt::Expr(Expr::Macro(m), _)) => is_panic(&m.mac),
        _ => false,
    }
}

fn is_panic(mac: &syn::Macro) -> bool {
    mac.path.segments.last().is_some_and(|s| {
        matches!(
            s.ident.to_string().as_str(),
            "panic" | "unreachable" | "unimplemented" | "todo"
        )
    })
}

/// Whether a `while` loop, once it starts, never ends: its condition
/// (no `let`, no call, no macro) reads local variables only (not `self`),
/// and its body neither changes one of them (an assignment, a `&mut`, a
/// method called on it) nor leaves (`break`, `return`, `?`, a macro such as
/// `panic!`).
fn endless(w: &syn::ExprWhile) -> bool {
    struct Touches<'n> {
        names: &'n BTreeSet<String>,
        touched: bool,
    }
    impl Touches<'_> {
        fn mentions(&self, node: &impl quote::ToTokens) -> bool {
            !free_variables(node).is_disjoint(self.names)
        }
    }
    impl<'ast> Visit<'ast> for Touches<'_> {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            self.touched |= match expr {
                Expr::Break(_) | Expr::Return(_) | Expr::Try(_) => true,
                Expr::Assign(a) => self.mentions(&a.left),
                Expr::Binary(b) if is_compound_assignment(&b.op) => self.mentions(&b.left),
                Expr::Reference(r) => r.mutability.is_some() && self.mentions(&r.expr),
                Expr::MethodCall(m) => self.mentions(&m.receiver),
                _ => false,
            };
            visit::visit_expr(self, expr);
        }
        // A macro, in a statement or an expression, may do anything
        // (`panic!` leaves).
        fn visit_macro(&mut self, _: &'ast syn::Macro) {
            self.touched = true;
        }
    }
    let cond = &*w.cond;
    let reads = free_variables(cond);
    if reads.is_empty() || reads.contains("self") || !plain(cond) {
        return false;
    }
    let mut body = Touches {
        names: &reads,
        touched: false,
    };
    body.visit_block(&w.body);
    !body.touched
}

/// Whether a condition is made of values, operators and fields only: no
/// `let`, call or macro.
fn plain(condition: &Expr) -> bool {
    struct Plain(bool);
    impl<'ast> Visit<'ast> for Plain {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            if matches!(
                expr,
                Expr::Call(_)
                    | Expr::MethodCall(_)
                    | Expr::Macro(_)
                    | Expr::Let(_)
                    | Expr::Assign(_)
            ) {
                self.0 = false;
            }
            visit::visit_expr(self, expr);
        }
    }
    let mut plain = Plain(true);
    plain.visit_expr(condition);
    plain.0
}

/// Whether evaluating a condition twice gives the same answer, as far as
/// its text tells: no call that consumes or changes what it reads
/// (`it.next()`, `v.pop()`, `r.read(..)`), no assignment, no macro.
fn pure(condition: &Expr) -> bool {
    struct Pure(bool);
    impl<'ast> Visit<'ast> for Pure {
        fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
            let name = call.method.to_string();
            const CHANGING: [&str; 8] = [
                "next", "pop", "take", "read", "recv", "poll", "remove", "insert",
            ];
            if CHANGING.iter().any(|c| name.starts_with(c)) || name.starts_with("try_") {
                self.0 = false;
            }
            visit::visit_expr_method_call(self, call);
        }
        fn visit_expr_assign(&mut self, _: &'ast syn::ExprAssign) {
            self.0 = false;
        }
        fn visit_macro(&mut self, _: &'ast syn::Macro) {
            self.0 = false;
        }
    }
    let mut pure = Pure(true);
    pure.visit_expr(condition);
    pure.0
}

/// Whether `new` in place of `range` of `text` writes an operation that
/// changes nothing: a new operator before a neutral operand or a new
/// neutral operand after an operator (`x * 1`, `x / 1`, `x + 0`, `x -
/// 0`), or a slice made to start at 0 with no end (`s[0..]`, which is
/// `s`). No one writes those as a fix.
pub fn changes_nothing(text: &str, range: std::ops::Range<usize>, new: &str) -> bool {
    let before = text[..range.start].trim_end();
    let after = text[range.end..].trim_start();
    let lone = |digits: &str, rest: &str| {
        rest.strip_prefix(digits)
            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.'))
    };
    let whole_slice =
        || before.ends_with('[') && after.strip_prefix("..").is_some_and(|r| r.starts_with(']'));
    match new.trim() {
        "*" | "/" => lone("1", after),
        "+" | "-" => lone("0", after),
        "1" => before.ends_with(['*', '/']) && !before.ends_with("**"),
        "0" => before.ends_with(['+', '-']) || whole_slice(),
        _ => false,
    }
}

/// Whether `b` takes a value with itself where the result no longer
/// depends on it (`a - a`, `a / a`, `a % a`, `a ^ a`, and `a & a`, `a |
/// a`, which are `a`).
fn applies_itself(b: &syn::ExprBinary) -> bool {
    use syn::BinOp::{BitAnd, BitOr, BitXor, Div, Rem, Sub};
    matches!(
        b.op,
        Sub(_) | Div(_) | Rem(_) | BitXor(_) | BitAnd(_) | BitOr(_)
    ) && itself(&b.left, &b.right)
}

/// Whether `b` gives one value whatever its operand: `x % 1`, `x * 0`,
/// `0 * x`, `x & 0`, `0 & x`.
fn absorbs(b: &syn::ExprBinary) -> bool {
    use syn::BinOp::{BitAnd, Mul, Rem};
    let is = |e: &Expr, value: u128| match bare(e) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int),
            ..
        }) => int.base10_parse::<u128>().ok() == Some(value),
        _ => false,
    };
    match b.op {
        Rem(_) => is(&b.right, 1),
        Mul(_) | BitAnd(_) => is(&b.left, 0) || is(&b.right, 0),
        _ => false,
    }
}

/// Whether a method is called on a value with that value as its one
/// argument (`a.saturating_sub(a)`, `x.log(x)`, `a.max(&a)`).
fn called_with_itself(m: &syn::ExprMethodCall) -> bool {
    let (Some(argument), 1) = (m.args.first(), m.args.len()) else {
        return false;
    };
    let argument = match bare(argument) {
        Expr::Reference(r) => &*r.expr,
        other => other,
    };
    itself(&m.receiver, argument)
}

/// Whether `other` is `value` again, parentheses aside, and reading it
/// twice gives the same (see `pure`).
fn itself(value: &Expr, other: &Expr) -> bool {
    without_spaces(bare(value)) == without_spaces(bare(other)) && pure(value)
}

/// `e` without the parentheses around it.
fn bare(mut e: &Expr) -> &Expr {
    while let Expr::Paren(p) = e {
        e = &p.expr;
    }
    e
}

/// Whether `b` is an `||` or `&&` of a condition and its negation
/// (`a || !a`, `!a && a`; parentheses aside).
fn joins_negation(b: &syn::ExprBinary) -> bool {
    if !is_logical(&b.op) {
        return false;
    }
    let negation_of = |negated: &Expr, other: &Expr| match bare(negated) {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
            without_spaces(bare(&u.expr)) == without_spaces(bare(other))
        }
        _ => false,
    };
    negation_of(&b.left, &b.right) || negation_of(&b.right, &b.left)
}

/// Whether `b` is an `&&` (or `||`) chain in which one condition implies
/// another: the same condition twice, or two comparisons of the same two
/// values one of which implies the other (`a < b` implies `a <= b`, `a !=
/// b` and `b > a`), their sides pure.
fn joins_implied(b: &syn::ExprBinary) -> bool {
    fn operands<'e>(e: &'e Expr, and: bool, out: &mut Vec<&'e Expr>) {
        match bare(e) {
            Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) == and && is_logical(&b.op) => {
                operands(&b.left, and, out);
                operands(&b.right, and, out);
            }
            other => out.push(other),
        }
    }
    if !is_logical(&b.op) {
        return false;
    }
    let and = matches!(b.op, syn::BinOp::And(_));
    let mut parts = Vec::new();
    operands(&b.left, and, &mut parts);
    operands(&b.right, and, &mut parts);
    parts.iter().enumerate().any(|(i, p)| {
        parts[i + 1..]
            .iter()
            .any(|q| implies(p, q) || implies(q, p))
    })
}

fn is_logical(op: &syn::BinOp) -> bool {
    matches!(op, syn::BinOp::And(_) | syn::BinOp::Or(_))
}

/// Whether the condition `p` implies `q`: the same condition, or
/// comparisons of the same two values (in either order) whose operators
/// say so.
fn implies(p: &Expr, q: &Expr) -> bool {
    fn comparison(e: &Expr) -> Option<(&Expr, &'static str, &Expr)> {
        let Expr::Binary(b) = bare(e) else {
            return None;
        };
        let op = match b.op {
            syn::BinOp::Lt(_) => "<",
            syn::BinOp::Le(_) => "<=",
            syn::BinOp::Gt(_) => ">",
            syn::BinOp::Ge(_) => ">=",
            syn::BinOp::Eq(_) => "==",
            syn::BinOp::Ne(_) => "!=",
            _ => return None,
        };
        Some((&b.left, op, &b.right))
    }
    fn flipped(op: &str) -> &str {
        match op {
            "<" => ">",
            ">" => "<",
            "<=" => ">=",
            ">=" => "<=",
            same => same,
        }
    }
    let stronger = |a: &str, b: &str| {
        a == b
            || matches!(
                (a, b),
                ("<", "<=" | "!=") | (">", ">=" | "!=") | ("==", "<=" | ">=")
            )
    };
    if itself(p, q) {
        return true;
    }
    let (Some((lp, op_p, rp)), Some((lq, op_q, rq))) = (comparison(p), comparison(q)) else {
        return false;
    };
    if itself(lp, lq) && itself(rp, rq) {
        stronger(op_p, op_q)
    } else if itself(lp, rq) && itself(rp, lq) {
        stronger(op_p, flipped(op_q))
    } else {
        false
    }
}

/// Whether `b` compares a value with itself (`a > a`, `x.len() == x.len()`;
/// parentheses aside), its side pure (see [`pure`]: `it.next() ==
/// it.next()` compares two values).
fn compares_itself(b: &syn::ExprBinary) -> bool {
    use syn::BinOp::{Eq, Ge, Gt, Le, Lt, Ne};
    matches!(b.op, Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_)) && itself(&b.left, &b.right)
}
