//! Arithmetic and indexing that cannot panic, the fixes of a crash at an
//! operation: `a + b` to `a.saturating_add(b)`, `a.checked_add(b)?` or
//! `.ok_or(E)?` with the function's own error, `.unwrap_or(0)`, `wrapping_`,
//! `.expect(M)` with what a failing `should_panic` test wants a panic to say;
//! `-x` to `x.wrapping_neg()`, `x.abs()` to `x.wrapping_abs()`, `x.pow(n)`
//! to `x.saturating_pow(n)` and the like;
//! `x += e` likewise as `x = x.saturating_add(e)`, and with it the
//! statements next to it that update `x` too (`x *= 10;` before it: an
//! accumulation overflows in each of its steps); a `let`'s value that a
//! later `x - 1` or `n / x` needs above a floor kept there where it is
//! given, `let x = E.max(1);`; `v[i]` to
//! `v.get(i).copied().unwrap_or_default()` or `*v.get(i)?`, and in a closure
//! given to `map`, `opt.map(|v| &v[0])` to `opt.and_then(|v| v.get(0))`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::ops::Range;

use crate::code::GivenTo;
use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{OVERFLOWING_METHODS, Site, SiteKind};
use crate::mutation::types::is_integer;

use super::{Context, MutationOperator, parenthesized};

/// Overflow-safe arithmetic at `+`, `-`, `*`, `<<`, `>>`, their assignments, a
/// unary minus, `abs()` and `pow(n)`.
pub(super) struct Overflow;

impl MutationOperator for Overflow {
    fn operator(&self) -> Operator {
        Operator::Overflow
    }

    fn name(&self) -> &'static str {
        "overflow"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        match kind {
            SiteKind::BinaryOperator { operator, .. } => method_of(operator).is_some(),
            SiteKind::Operand { floor, .. } => floor.is_some(),
            SiteKind::Negation { .. } => true,
            SiteKind::Method {
                name,
                receiver: true,
                ..
            } => OVERFLOWING_METHODS.contains(&name.as_str()),
            _ => false,
        }
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        if let SiteKind::Negation { .. } = &site.kind {
            return negated(site, cx);
        }
        if let SiteKind::Method {
            range, expression, ..
        } = &site.kind
        {
            return method_made_safe(range, expression, site, cx);
        }
        if let SiteKind::Operand {
            range,
            atomic,
            floor: Some(floor),
            ..
        } = &site.kind
        {
            return floored(range, *atomic, *floor, site, cx);
        }
        let SiteKind::BinaryOperator {
            operator,
            expression,
            left,
            right,
            ..
        } = &site.kind
        else {
            return Vec::new();
        };
        let Some(method) = method_of(operator) else {
            return Vec::new();
        };
        let assigns = operator.ends_with('=');
        // The type of the result (of the value added, for an assignment).
        let known = if assigns {
            cx.types.expression(site.file, right)
        } else {
            cx.types.expression(site.file, expression)
        };
        if known.is_some_and(|ty| !is_integer(ty)) {
            return Vec::new();
        }
        let left_text = cx.text[left.clone()].trim();
        let Some(receiver) = receiver(left_text, known) else {
            return Vec::new();
        };
        let right_text = cx.text[right.clone()].trim();
        if assigns {
            let run = accumulation(cx.text, expression, left_text);
            if run.len() > 1 {
                return accumulation_made_safe(&run, left_text, &receiver, site, cx);
            }
        }
        let mut made = Vec::new();
        for amount in operands(method, right_text, right, site, cx) {
            let safe =
                |kind: &str, tail: &str| format!("{receiver}.{kind}_{method}({amount}){tail}");
            if !is_shift(method) {
                made.push(safe("saturating", ""));
            }
            made.extend(early_exits(site, cx).map(|exit| safe("checked", &exit)));
            made.push(safe("checked", ".unwrap_or(0)"));
            made.push(safe("wrapping", ""));
        }
        // A method call needs no parentheses of its own: `(m << n) == 0`
        // becomes `m.checked_shl(n).unwrap_or(0) == 0`.
        let replaced = if assigns {
            expression.clone()
        } else {
            with_own_parentheses(cx.text, expression)
        };
        made.into_iter()
            .map(|value| {
                if assigns {
                    Edit::replace(replaced.clone(), format!("{left_text} = {value}"))
                } else {
                    Edit::replace(replaced.clone(), value)
                }
            })
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

/// A `let`'s value kept at or above the floor the subtractions and
/// divisions after it need: `E` to `E.max(1)` (an integer, or a value the
/// compiler was not asked about).
fn floored(
    range: &Range<usize>,
    atomic: bool,
    floor: u128,
    site: &Site,
    cx: &Context,
) -> Vec<Edit> {
    if !may_be_integer(range, site, cx) {
        return Vec::new();
    }
    let value = parenthesized(&cx.text[range.clone()], atomic);
    vec![Edit::replace(
        range.clone(),
        format!("{value}.max({floor})"),
    )]
}

/// A unary minus that cannot overflow: `-x` to `x.wrapping_neg()`,
/// `x.saturating_neg()`, `x.checked_neg()` with the function's early exits
/// or `.unwrap_or(0)` (an integer, or a value the compiler was not asked
/// about). With it, the minuses of the same shape on the lines next to it
/// (`-(rhi as i64)` below `-(rlo as i64)`): the same operation on the
/// other half of a value overflows the same way.
fn negated(site: &Site, cx: &Context) -> Vec<Edit> {
    let run = negation_run(site, cx);
    let Some(whole) = run.first().zip(run.last()).map(|(f, l)| f.0.start..l.0.end) else {
        return Vec::new();
    };
    let mut receivers = Vec::new();
    for (_, operand) in &run {
        let operand = without_own_parentheses(cx.text[operand.clone()].trim());
        let Some(receiver) = receiver(operand, None) else {
            return Vec::new();
        };
        receivers.push(receiver);
    }
    let made = |tail: &str| {
        let mut text = String::new();
        let mut at = whole.start;
        for ((expression, _), receiver) in run.iter().zip(&receivers) {
            text.push_str(&cx.text[at..expression.start]);
            let _ = write!(text, "{receiver}{tail}");
            at = expression.end;
        }
        Edit::replace(whole.clone(), text)
    };
    unary_forms(site, cx)
        .map(|(kind, tail)| made(&format!(".{kind}_neg(){tail}")))
        .collect()
}

/// The forms a unary operation `op` (`neg`, `abs`, `pow`) takes that cannot
/// overflow, as the prefix of `op`'s method and what follows the call:
/// `wrapping_op`, `saturating_op`, `checked_op` with each of the function's
/// early exits, then `checked_op` with `.unwrap_or(0)`. (A binary
/// operator's come in another order, `wrapping_` last: see `edits`.)
fn unary_forms<'a>(
    site: &'a Site,
    cx: &'a Context,
) -> impl Iterator<Item = (&'static str, String)> + 'a {
    [("wrapping", String::new()), ("saturating", String::new())]
        .into_iter()
        .chain(early_exits(site, cx).map(|exit| ("checked", exit)))
        .chain([("checked", ".unwrap_or(0)".to_string())])
}

/// Whether `range` of the site's file may be an integer: the type probes
/// say so, or were not asked.
fn may_be_integer(range: &Range<usize>, site: &Site, cx: &Context) -> bool {
    cx.types.expression(site.file, range).is_none_or(is_integer)
}

/// `x.abs()` or `x.pow(n)` (`name` the method's name, `expression` the
/// call) that cannot overflow: `x.wrapping_abs()`, `x.saturating_pow(n)`,
/// `x.checked_pow(n)` with the function's early exits or `.unwrap_or(0)`
/// (an integer, or a value the compiler was not asked about).
fn method_made_safe(
    name: &Range<usize>,
    expression: &Range<usize>,
    site: &Site,
    cx: &Context,
) -> Vec<Edit> {
    if !may_be_integer(expression, site, cx) {
        return Vec::new();
    }
    let before = &cx.text[expression.start..name.start];
    let method = &cx.text[name.clone()];
    let after = &cx.text[name.end..expression.end];
    unary_forms(site, cx)
        .map(|(kind, tail)| {
            Edit::replace(
                expression.clone(),
                format!("{before}{kind}_{method}{after}{tail}"),
            )
        })
        .collect()
}

/// A unary minus: its expression (with its own parentheses) and its
/// operand.
type Minus = (Range<usize>, Range<usize>);

/// The unary minuses, as their expressions (with their own parentheses)
/// and operands, of the shape of `site`'s, one on each line of a run of
/// lines of its function around it, in order; none when `site`'s is a
/// float's.
fn negation_run(site: &Site, cx: &Context) -> Vec<Minus> {
    let integer = |s: &Site| match &s.kind {
        SiteKind::Negation {
            expression,
            operand,
        } if may_be_integer(expression, s, cx) => {
            Some((with_own_parentheses(cx.text, expression), operand.clone()))
        }
        _ => None,
    };
    let Some(own) = integer(site) else {
        return Vec::new();
    };
    let shape = |operand: &Range<usize>| shape_of(&cx.text[operand.clone()]);
    let mut by_line: BTreeMap<u32, Vec<Minus>> = BTreeMap::new();
    for other in cx.space.sites.iter().filter(|s| {
        s.file == site.file && s.function_line == site.function_line && s.line != site.line
    }) {
        if let Some(found) = integer(other).filter(|(_, o)| shape(o) == shape(&own.1)) {
            by_line.entry(other.line).or_default().push(found);
        }
    }
    let one_on = |line: u32| match by_line.get(&line).map(Vec::as_slice) {
        Some([one]) => Some(one.clone()),
        _ => None,
    };
    let before = (1..site.line).rev().map_while(one_on);
    let mut run: Vec<_> = before.collect();
    run.reverse();
    run.push(own);
    run.extend((site.line + 1..).map_while(one_on));
    run
}

/// An expression's text without spaces, each name in it but `self`, `as`
/// and the primitive types made `_`: `rlo as i64` and `rhi as i64` have
/// one shape.
fn shape_of(text: &str) -> String {
    const KEPT: &[&str] = &[
        "self", "as", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
        "u128", "usize",
    ];
    let mut shape = String::new();
    let mut word = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            let name =
                !KEPT.contains(&word.as_str()) && !word.starts_with(|c: char| c.is_ascii_digit());
            shape.push_str(if name { "_" } else { &word });
            shape.push(' ');
            word.clear();
        }
        if !c.is_whitespace() {
            shape.push(c);
        }
    }
    shape
}

/// One statement of an accumulation: `x *= 10` (without its `;`), as its
/// range, its operator's method family and its right operand.
struct Update<'t> {
    range: Range<usize>,
    method: &'static str,
    right: &'t str,
}

/// The run of consecutive statements, one per line, that update `left`
/// with arithmetic assignments, the one at `expression` among them
/// (`x *= 10;` just before `x += d;`): where one of them overflows, the
/// others do at the same values, so the run is made safe as a whole.
/// Empty unless the statement at `expression` fills its line.
fn accumulation<'t>(text: &'t str, expression: &Range<usize>, left: &str) -> Vec<Update<'t>> {
    let update = |line: Range<usize>| -> Option<Update<'t>> {
        let full = &text[line.clone()];
        let statement = full.trim().strip_suffix(';')?;
        let start = line.start + full.find(statement)?;
        let rest = statement.strip_prefix(left)?.strip_prefix(' ')?;
        let (operator, right) = rest.split_once(' ')?;
        let method = method_of(operator).filter(|_| operator.ends_with('='))?;
        let right = right.trim();
        (!right.is_empty() && !right.contains(';')).then_some(Update {
            range: start..start + statement.len(),
            method,
            right,
        })
    };
    let line_at = |at: usize| {
        let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
        let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        start..end
    };
    let own_line = line_at(expression.start);
    let Some(own) = update(own_line.clone()).filter(|u| u.range == *expression) else {
        return Vec::new();
    };
    let mut before = Vec::new();
    let mut line = own_line.clone();
    while line.start > 0 {
        line = line_at(line.start - 1);
        let Some(found) = update(line.clone()) else {
            break;
        };
        before.push(found);
    }
    let mut run: Vec<Update> = before.into_iter().rev().chain([own]).collect();
    line = own_line;
    while line.end < text.len() {
        line = line_at(line.end + 1);
        let Some(found) = update(line.clone()) else {
            break;
        };
        run.push(found);
    }
    run
}

/// The edits that make every statement of an accumulation safe the same
/// way: saturating, leaving the function early, wrapping.
fn accumulation_made_safe(
    run: &[Update],
    left: &str,
    receiver: &str,
    site: &Site,
    cx: &Context,
) -> Vec<Edit> {
    let whole = run[0].range.start..run[run.len() - 1].range.end;
    let made = |kind: &str, tail: &str| {
        let mut text = String::new();
        let mut at = whole.start;
        for update in run {
            text.push_str(&cx.text[at..update.range.start]);
            let (method, right) = (update.method, update.right);
            let _ = write!(text, "{left} = {receiver}.{kind}_{method}({right}){tail}");
            at = update.range.end;
        }
        Edit::replace(whole.clone(), text)
    };
    let shifts = run.iter().any(|u| is_shift(u.method));
    let mut edits = Vec::new();
    if !shifts {
        edits.push(made("saturating", ""));
    }
    edits.extend(early_exits(site, cx).map(|exit| made("checked", &exit)));
    edits.push(made("wrapping", ""));
    edits
}

/// `v[i]` to `v.get(i).copied().unwrap_or_default()`, or leaving the
/// function early when it is out of bounds.
pub(super) struct Bounds;

impl MutationOperator for Bounds {
    fn operator(&self) -> Operator {
        Operator::Bounds
    }

    fn name(&self) -> &'static str {
        "bounds"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Index { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Index {
            expression,
            base,
            index,
            closure,
        } = &site.kind
        else {
            return Vec::new();
        };
        let base = cx.text[base.clone()].trim();
        let base = if base.contains(|c: char| c.is_whitespace() || "*&!-".contains(c)) {
            format!("({base})")
        } else {
            base.to_string()
        };
        let index = cx.text[index.clone()].trim();
        let get = format!("{base}.get({index})");
        let mut made = vec![format!("{get}.copied().unwrap_or_default()")];
        made.extend(early_exits(site, cx).map(|exit| format!("*{get}{exit}")));
        let mapped = closure
            .as_ref()
            .filter(|closure| closure.method == "map")
            .and_then(|closure| mapped_fallibly(&get, expression, closure, cx.text));
        made.into_iter()
            .map(|text| Edit::replace(expression.clone(), text))
            .chain(mapped)
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

/// `opt.map(|v| &v[0])` to `opt.and_then(|v| v.get(0))`: in a closure
/// given to `map`, an index out of bounds gives `None` instead of a panic,
/// the closure returning `Some` of what it gave (`.map(|(k, v)| (k,
/// &v[0]))` to `.and_then(|(k, v)| Some((k, v.get(0)?)))`). On an
/// iterator, which has no `and_then`, it does not compile.
fn mapped_fallibly(
    get: &str,
    expression: &Range<usize>,
    closure: &GivenTo,
    text: &str,
) -> Option<Edit> {
    let body = &closure.body;
    if !(body.start <= expression.start && expression.end <= body.end) {
        return None;
    }
    let before = text[body.start..expression.start].trim_end();
    // `&v[0]` reads the element where it is: `v.get(0)?`; `v[0]`, a copy:
    // `*v.get(0)?`.
    let (start, read) = match before.strip_suffix('&') {
        Some(rest) if !rest.ends_with('&') => (body.start + rest.len(), format!("{get}?")),
        _ => (expression.start, format!("*{get}?")),
    };
    let (head, tail) = (&text[body.start..start], &text[expression.end..body.end]);
    // `|v| &v[0]` gives the element alone: `|v| v.get(0)`.
    let new_body = if head.trim().is_empty() && tail.trim().is_empty() && start < expression.start {
        get.to_string()
    } else {
        format!("Some({head}{read}{tail})")
    };
    let parameters = &text[closure.name.end..body.start];
    Some(Edit::replace(
        closure.name.start..body.end,
        format!("and_then{parameters}{new_body}"),
    ))
}

/// `range` with the parentheses around it when they are its own (a
/// parenthesized expression, not a call's, a macro's or an index's).
fn with_own_parentheses(text: &str, range: &Range<usize>) -> Range<usize> {
    let (before, after) = (&text[..range.start], &text[range.end..]);
    let Some(outer) = before.strip_suffix('(').map(str::trim_end) else {
        return range.clone();
    };
    if !after.starts_with(')') {
        return range.clone();
    }
    let word = &outer[outer
        .trim_end_matches(|c: char| c.is_alphanumeric() || c == '_')
        .len()..];
    let called = if word.is_empty() {
        outer.ends_with(['>', ']', ')', '!'])
    } else {
        !["if", "while", "match", "return", "in", "else", "break"].contains(&word)
    };
    if called {
        range.clone()
    } else {
        range.start - 1..range.end + 1
    }
}

/// Whether a method family shifts (`shl`, `shr`): no `saturating_` kin.
fn is_shift(method: &str) -> bool {
    matches!(method, "shl" | "shr")
}

/// The right operand as the safe methods' argument. `<<` and `>>` shift by
/// any integer, `checked_shl` and its kin by a `u32` only: an amount not
/// known to be one is also tried widened (`u32::from(IPV6_BITS - prefix)`
/// for a `u8`), only widened when the compiler said it is a `u8` or `u16`,
/// and converted (`width as u32`) when it said another integer type.
fn operands(
    method: &str,
    right_text: &str,
    right: &Range<usize>,
    site: &Site,
    cx: &Context,
) -> Vec<String> {
    let plain = without_own_parentheses(right_text).to_string();
    if !is_shift(method) || right_text.starts_with(|c: char| c.is_ascii_digit()) {
        return vec![plain];
    }
    let widened = format!("u32::from({plain})");
    let ty = cx
        .types
        .expression(site.file, right)
        .or_else(|| cx.types.variable(site.location(), right_text));
    match ty {
        Some("u32") => vec![plain],
        Some("u8" | "u16") => vec![widened],
        Some(ty) if is_integer(ty) && ty != "integer" => receiver(&plain, None)
            .map(|operand| format!("{operand} as u32"))
            .into_iter()
            .collect(),
        Some(ty) if ty != "integer" => vec![plain],
        _ => vec![plain, widened],
    }
}

/// `(a - b)` as `a - b`: a call's argument needs no parentheses of its own.
fn without_own_parentheses(text: &str) -> &str {
    let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) else {
        return text;
    };
    let mut depth = 0usize;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return text,
            ')' => depth -= 1,
            _ => {}
        }
    }
    inner
}

/// The method family of an arithmetic operator (`+` and `+=`: `add`).
fn method_of(operator: &str) -> Option<&'static str> {
    Some(match operator.trim_end_matches('=') {
        "+" => "add",
        "-" => "sub",
        "*" => "mul",
        "<<" => "shl",
        ">>" => "shr",
        _ => return None,
    })
}

/// The left operand as a method's receiver: in parentheses unless it is a
/// path, a call or a field; a bare literal gets its type's suffix (none
/// when the type is unknown: its method would be ambiguous).
fn receiver(left: &str, ty: Option<&str>) -> Option<String> {
    let literal = left.starts_with(|c: char| c.is_ascii_digit())
        && left.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if literal {
        return match ty {
            _ if left.contains(['u', 'i']) => Some(left.to_string()),
            Some(ty) if ty != "integer" => Some(format!("{left}{ty}")),
            _ => None,
        };
    }
    let plain = left
        .chars()
        .all(|c| c.is_alphanumeric() || "_.:()".contains(c));
    Some(if plain {
        left.to_string()
    } else {
        format!("({left})")
    })
}

/// How a function leaves early from a `None` (`?`, `.ok_or(E)?` with each
/// error the function returns), by its return type; or how it panics with
/// what a failing `should_panic` test wants the panic to say
/// (`.expect("capacity overflow")`).
fn early_exits<'a>(site: &'a Site, cx: &'a Context) -> impl Iterator<Item = String> + 'a {
    let returns = site.returns.as_deref().unwrap_or("");
    let option = returns.starts_with("Option<").then(|| "?".to_string());
    let errors = returns.starts_with("Result<").then(|| {
        let unit = (returns.ends_with(",()>")).then(|| ".ok_or(())?".to_string());
        let own = cx
            .space
            .returned_at(site)
            .filter_map(|value| value.error())
            .filter(|error| *error != "()")
            .map(|error| format!(".ok_or({error})?"))
            .take(3);
        unit.into_iter().chain(own).collect::<Vec<_>>()
    });
    let expected = cx.space.expected_panics.iter();
    let panics = expected.map(|literal| format!(".expect({literal})"));
    option
        .into_iter()
        .chain(errors.into_iter().flatten())
        .chain(panics)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{line, lines_made, outcomes_given, outcomes_typed};
    use crate::code::source::FileId;
    use crate::mutation::patch::Operator;
    use crate::mutation::types::Types;

    /// In a closure given to `map`, the element becomes `None` instead of
    /// a panic: the closure returns `Some` of what it gave, and `map` is
    /// made `and_then`; not in a closure given to another method.
    #[test]
    fn an_index_in_a_closure_given_to_map_is_read_as_an_option() {
        let text = "fn first(m: &M, k: u8) -> Option<&u8> {\n    m.get(k).map(|v| &v[0])\n}\nfn pair(it: &mut I) -> Option<(u8, &u8)> {\n    it.next().map(|(k, v)| (k, &v[0]))\n}\nfn copy(m: &M, k: u8) -> Option<u8> {\n    m.get(k).map(|v| v[0] + 1)\n}\nfn all(v: &[Vec<u8>]) -> bool {\n    v.iter().all(|w| w[0] > 1)\n}\n";
        let made = |line: u32| lines_made(text, Operator::Bounds, line);
        assert!(
            made(2).contains("m.get(k).and_then(|v| v.get(0))"),
            "{:?}",
            made(2)
        );
        assert!(made(5).contains("it.next().and_then(|(k, v)| Some((k, v.get(0)?)))"));
        assert!(made(8).contains("m.get(k).and_then(|v| Some(*v.get(0)? + 1))"));
        assert!(!made(11).iter().any(|line| line.contains("and_then")));
    }

    /// A left operand that starts with a number but is no literal (`8 *
    /// size_of::<usize>() - n`) is parenthesized as a receiver: its method
    /// applies to all of it (priority-queue's `.. - (x.leading_zeros() as
    /// usize) - 1` was made `.. - (..).saturating_sub(1)`, 2 more).
    #[test]
    fn a_left_operand_that_starts_with_a_number_is_a_receiver_whole() {
        let text = "fn log2(x: usize) -> usize {\n    8 * size_of::<usize>() - (x.leading_zeros() as usize) - 1\n}\n";
        let made = lines_made(text, Operator::Overflow, 2);
        assert!(
            made.contains(
                "(8 * size_of::<usize>() - (x.leading_zeros() as usize)).saturating_sub(1)"
            ),
            "{made:?}"
        );
        assert!(
            made.contains(
                "(8 * size_of::<usize>()).saturating_sub(x.leading_zeros() as usize) - 1"
            )
        );
        let wrong = "8 * size_of::<usize>() - (x.leading_zeros() as usize).saturating_sub(1)";
        assert!(!made.contains(wrong));
        let literal = "fn f(x: u8) -> u8 {\n    200u8 + x\n}\n";
        assert!(lines_made(literal, Operator::Overflow, 2).contains("200u8.saturating_add(x)"));
    }

    #[test]
    fn a_value_a_later_subtraction_needs_above_a_floor_is_kept_there() {
        let text = "fn unit(size: u64) -> char {\n    let exp = ((size as f64).ln() / 6.9) as usize;\n    UNITS[exp - 1]\n}\n";
        let made = lines_made(text, Operator::Overflow, 2);
        assert!(
            made.contains("let exp = (((size as f64).ln() / 6.9) as usize).max(1);"),
            "{made:?}"
        );
        // A value no later use needs above anything keeps its place.
        let free = "fn unit(size: u64) -> usize {\n    let exp = size as usize;\n    exp + 1\n}\n";
        assert!(lines_made(free, Operator::Overflow, 2).is_empty());
    }

    #[test]
    fn a_shift_amount_not_known_to_be_a_u32_is_also_tried_widened() {
        let text = "const BITS: u8 = 128;\npub fn mask(prefix: u8) -> u128 {\n    let mask = u128::MAX << (BITS - prefix);\n    mask\n}\n";
        let made = lines_made(text, Operator::Overflow, 3);
        for expected in [
            "let mask = u128::MAX.checked_shl(u32::from(BITS - prefix)).unwrap_or(0);",
            "let mask = u128::MAX.checked_shl(BITS - prefix).unwrap_or(0);",
            "let mask = u128::MAX.wrapping_shl(u32::from(BITS - prefix));",
        ] {
            assert!(made.contains(expected), "{expected} not in {made:?}");
        }
        // An amount the compiler calls a `u8` is only widened.
        let mut types = Types::default();
        let at = text.find("(BITS - prefix)").unwrap();
        types.set_expression(FileId::new(0), &(at..at + 15), "u8");
        let typed = outcomes_typed(text, Operator::Overflow, 3, &types);
        let shifts: Vec<&String> = typed.iter().filter(|t| t.contains("_shl(")).collect();
        assert_eq!(shifts.len(), 2, "{typed:?}");
        assert!(shifts.iter().all(|t| t.contains("u32::from(")), "{typed:?}");
    }

    #[test]
    fn a_unary_minus_is_made_overflow_safe_but_on_a_float() {
        let text = "fn neg(rlo: u64) -> Option<u64> {\n    let x = (-(rlo as i64)) as u64;\n    Some(-x)\n}\n";
        let made = lines_made(text, Operator::Overflow, 2);
        for expected in [
            "let x = (rlo as i64).wrapping_neg() as u64;",
            "let x = (rlo as i64).saturating_neg() as u64;",
            "let x = (rlo as i64).checked_neg()? as u64;",
            "let x = (rlo as i64).checked_neg().unwrap_or(0) as u64;",
        ] {
            assert!(made.contains(expected), "{expected} not in {made:?}");
        }
        assert!(lines_made(text, Operator::Overflow, 3).contains("Some(x.wrapping_neg())"));
        // Not a literal's minus, nor a float's.
        let literal = "fn one() -> i64 {\n    -1\n}\n";
        assert!(lines_made(literal, Operator::Overflow, 2).is_empty());
        let mut types = Types::default();
        let at = text.find("-x").unwrap();
        types.set_expression(FileId::new(0), &(at..at + 2), "f64");
        assert!(outcomes_typed(text, Operator::Overflow, 3, &types).is_empty());
    }

    #[test]
    fn abs_and_pow_are_made_overflow_safe_but_on_a_float() {
        let text =
            "fn f(x: i32, n: u32) -> Option<i32> {\n    let a = x.abs();\n    Some(a.pow(n))\n}\n";
        let made = lines_made(text, Operator::Overflow, 2);
        for expected in [
            "let a = x.wrapping_abs();",
            "let a = x.saturating_abs();",
            "let a = x.checked_abs()?;",
            "let a = x.checked_abs().unwrap_or(0);",
        ] {
            assert!(made.contains(expected), "{expected} not in {made:?}");
        }
        let made = lines_made(text, Operator::Overflow, 3);
        assert!(made.contains("Some(a.saturating_pow(n))"), "{made:?}");
        assert!(made.contains("Some(a.checked_pow(n)?)"), "{made:?}");
        let mut types = Types::default();
        let at = text.find("x.abs()").unwrap();
        types.set_expression(FileId::new(0), &(at..at + 7), "f64");
        assert!(outcomes_typed(text, Operator::Overflow, 2, &types).is_empty());
    }

    #[test]
    fn the_minuses_of_one_shape_on_the_next_lines_are_made_safe_with_it() {
        let text = "fn neg(rlo: u64, rhi: u64, d: i64) -> (u64, u64, i64) {\n    let lo = (-(rlo as i64)) as u64;\n    let hi = (-(rhi as i64)) as u64;\n    let e = -d;\n    (lo, hi, e)\n}\n";
        let both = "let lo = (rlo as i64).wrapping_neg() as u64;\n    let hi = (rhi as i64).wrapping_neg() as u64;";
        for line in [2, 3] {
            let made = outcomes_typed(text, Operator::Overflow, line, &Types::default());
            assert!(made.iter().any(|m| m.contains(both)), "{made:?}");
        }
        // `-d` is of another shape: alone.
        assert!(lines_made(text, Operator::Overflow, 4).contains("let e = d.wrapping_neg();"));
        assert_eq!(
            super::shape_of("self.lo as i64"),
            super::shape_of("self . hi as i64")
        );
        assert_ne!(super::shape_of("lo as i64"), super::shape_of("lo as i32"));
    }

    #[test]
    fn overflow_and_unwrap_panic_with_what_a_should_panic_test_expects() {
        let text = "fn len(cap: usize, bits: usize) -> usize {\n    (cap + bits - 1) / bits\n}\nfn first(v: &[u8]) -> u8 {\n    *v.first().unwrap()\n}\n";
        let expected = |space: &mut crate::mutation::MutationSpace| {
            space.expected_panics = vec!["\"capacity overflow\"".to_string()];
        };
        let made = outcomes_given(text, Operator::Overflow, 2, &Types::default(), expected);
        let made: Vec<&str> = made.iter().map(|t| line(t, 2)).collect();
        let wanted = "(cap.checked_add(bits).expect(\"capacity overflow\") - 1) / bits";
        assert!(made.contains(&wanted), "{made:?}");
        let made = outcomes_given(text, Operator::Idiom, 5, &Types::default(), expected);
        let made: Vec<&str> = made.iter().map(|t| line(t, 5)).collect();
        assert!(
            made.contains(&"*v.first().expect(\"capacity overflow\")"),
            "{made:?}"
        );
        // No test expects a message: no `expect`.
        let made = outcomes_typed(text, Operator::Overflow, 2, &Types::default());
        assert!(!made.iter().any(|t| t.contains("expect(")), "{made:?}");
    }
}
