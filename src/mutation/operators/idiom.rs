//! Rust idioms a fix often is: `a - b` to `a.saturating_sub(b)` or
//! `a.checked_sub(b).unwrap_or(0)`, `.unwrap()` to `.unwrap_or_default()`
//! (or to `.expect(M)` with what a failing `should_panic` test wants a
//! panic to say)
//! or to leaving the function when there is nothing to unwrap (`x?` where
//! it returns an `Option`; where it returns a `Result`, `match x { Some(v)
//! => v, None => return E }` with each error path it returns elsewhere,
//! such as a parser's `self.error("..")`),
//! a comparison that has no answer for NaN unwrapped, `a.partial_cmp(&b)
//! .unwrap()`, to one that has (`.unwrap_or(Ordering::Equal)`,
//! `a.total_cmp(&b)`: a sort of floats that panics on NaN),
//! `for x in it` to `for x in it.rev()`, and two sequences compared
//! element by element with `zip`, which stops at the shorter one (`a.zip(b)
//! .all(|(x, y)| x == y)` holds when one is a prefix of the other), to
//! `a.eq(b)` (`.any(|(x, y)| x != y)` to `a.ne(b)`), and the bytes between
//! two pointers to a `T`, `p as usize - q as usize`, made a count of
//! elements, `/ core::mem::size_of::<T>()`; a text's length in bytes,
//! `s.len()`, as its length in characters, `s.chars().count()`, and back;
//! the pieces a text is split into trimmed (`m.split(',')` to
//! `m.split(',').map(str::trim)`).

use std::ops::Range;

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};
use crate::mutation::types::{is_integer, is_text};

use super::{Context, MutationOperator, parenthesized, receiver_text};

/// `a - b` to `a.saturating_sub(b)`, `.unwrap()` to `.unwrap_or_default()`,
/// `for x in it` to `for x in it.rev()`.
pub(super) struct Idiom;

impl MutationOperator for Idiom {
    fn operator(&self) -> Operator {
        Operator::Idiom
    }

    fn name(&self) -> &'static str {
        "idiom"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(
            kind,
            SiteKind::BinaryOperator { .. }
                | SiteKind::Unwrap { .. }
                | SiteKind::Iterable { .. }
                | SiteKind::Method { .. }
        )
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        match &site.kind {
            SiteKind::BinaryOperator {
                operator,
                left,
                right,
                expression,
                ..
            } if operator == "-"
                && cx
                    .types
                    .expression(site.file, expression)
                    .is_none_or(is_integer) =>
            {
                let left_text = &cx.text[left.clone()];
                let receiver = if left_text.contains(' ') {
                    format!("({left_text})")
                } else {
                    left_text.to_string()
                };
                let right_text = &cx.text[right.clone()];
                let mut made = vec![
                    Edit::replace(
                        expression.clone(),
                        format!("{receiver}.saturating_sub({right_text})"),
                    ),
                    Edit::replace(
                        expression.clone(),
                        format!("{receiver}.checked_sub({right_text}).unwrap_or(0)"),
                    ),
                ];
                if let Some(size) = element_size(site, cx, left, right) {
                    let bytes = &cx.text[expression.clone()];
                    made.push(Edit::replace(
                        expression.clone(),
                        format!("({bytes}) / {size}"),
                    ));
                }
                made
            }
            SiteKind::Unwrap { call, receiver } => {
                let mut made = vec![Edit::replace(call.clone(), "unwrap_or_default()")];
                // The panic a failing `should_panic` test wants to see.
                let expected = cx.space.expected_panics.iter();
                made.extend(expected.map(|l| Edit::replace(call.clone(), format!("expect({l})"))));
                made.extend(leave_instead(site, cx, receiver.start..call.end, receiver));
                made.extend(ordered_anyway(cx.text, call, receiver));
                made
            }
            SiteKind::Iterable { range, atomic } => {
                let own = &cx.text[range.clone()];
                // A collection (a variable, a field) is iterated by `iter()`.
                let path = own
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
                let iterator = if path
                    && !own.contains("..")
                    && !own.starts_with(|c: char| c.is_ascii_digit())
                {
                    format!("{own}.iter()")
                } else {
                    parenthesized(own, *atomic)
                };
                vec![Edit::replace(range.clone(), format!("{iterator}.rev()"))]
            }
            SiteKind::Method {
                name,
                range,
                expression,
                arguments,
                receiver,
                ..
            } => method_idioms(name, range, expression, (*arguments, *receiver), site, cx),
            _ => Vec::new(),
        }
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

/// The idioms of a method call (`name` its method's name, `call` the
/// call, with so many arguments and whether on a receiver): a zipped
/// comparison made whole, a text's pieces trimmed, a text's other length.
fn method_idioms(
    name: &str,
    method: &Range<usize>,
    call: &Range<usize>,
    (arguments, receiver): (usize, bool),
    site: &Site,
    cx: &Context,
) -> Vec<Edit> {
    let made = match name {
        "all" | "any" => {
            zipped_comparison(&cx.text[call.clone()]).map(|text| Edit::replace(call.clone(), text))
        }
        _ if !receiver => None,
        _ if SPLITS.contains(&name) => trimmed_pieces(method, call, site, cx),
        "len" | "count" if arguments == 0 => receiver_text(method, call, cx.text)
            .and_then(|receiver| other_length(name, receiver, site, cx))
            .map(|text| Edit::replace(call.clone(), text)),
        _ => None,
    };
    made.into_iter().collect()
}

/// The methods that split a text into pieces.
const SPLITS: &[&str] = &["split", "rsplit", "split_terminator", "splitn", "rsplitn"];

/// The pieces a text is split into, trimmed: `m.split(',')` to
/// `m.split(',').map(str::trim)`, where the text is split at a character
/// or a string (a slice is split by a closure) or the compiler says the
/// receiver is text, and the pieces are not mapped already.
fn trimmed_pieces(
    name: &Range<usize>,
    call: &Range<usize>,
    site: &Site,
    cx: &Context,
) -> Option<Edit> {
    let arguments = cx.text[name.end..call.end].trim_end();
    let at_text = arguments
        .strip_suffix(')')
        .is_some_and(|a| a.trim_end().ends_with(['\'', '"']));
    let text = receiver_text(name, call, cx.text).is_some_and(|r| typed_text(r, site, cx));
    let mapped = cx.text[call.end..].trim_start().starts_with(".map(");
    ((at_text || text) && !mapped).then(|| Edit::insert(call.end, ".map(str::trim)"))
}

/// A text's other length: `s.len()` (bytes) as `s.chars().count()`
/// (characters), for a variable `s` the compiler says is text, and back
/// (`.chars()` says it is text: a `Cow<str>` the compiler was not asked
/// about, suffix's `from_parts`).
fn other_length(method: &str, receiver: &str, site: &Site, cx: &Context) -> Option<String> {
    match method {
        "len" => typed_text(receiver, site, cx).then(|| format!("{receiver}.chars().count()")),
        _ => Some(format!("{}.len()", receiver.strip_suffix(".chars()")?)),
    }
}

/// Whether the compiler says variable `name` is text at the site.
fn typed_text(name: &str, site: &Site, cx: &Context) -> bool {
    cx.types
        .variable(site.location(), name)
        .is_some_and(is_text)
}

/// Error paths of a function returning a `Result` that an unwrap may
/// leave by, at most.
const ERROR_PATHS: usize = 2;

/// `a.partial_cmp(&b).unwrap()` (`receiver` the comparison, `call` the
/// unwrap) made a comparison that has an answer when one side is NaN:
/// unordered taken as equal, or floats' total order. `Ordering` named as
/// the file imports it, else by its path.
fn ordered_anyway(text: &str, call: &Range<usize>, receiver: &Range<usize>) -> Vec<Edit> {
    let compared = &text[receiver.clone()];
    let Some((left, right)) = compared
        .rsplit_once(".partial_cmp(")
        .and_then(|(left, rest)| Some((left, rest.strip_suffix(')')?)))
    else {
        return Vec::new();
    };
    let imported = text.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("use ") && line.contains("cmp::") && line.contains("Ordering")
    });
    let ordering = if imported {
        "Ordering"
    } else {
        "::core::cmp::Ordering"
    };
    vec![
        Edit::replace(call.clone(), format!("unwrap_or({ordering}::Equal)")),
        Edit::replace(
            receiver.start..call.end,
            format!("{left}.total_cmp({right})"),
        ),
    ]
}

/// `x.unwrap()` (`whole`, `x` at `receiver`) made to leave the function
/// when there is nothing to unwrap: `x?` where the function returns an
/// `Option`; where it returns a `Result`, a `match` that returns one of
/// the values it returns elsewhere that is not `Ok(..)` (its error path),
/// for an `Option` and for a `Result` (the other does not compile).
fn leave_instead(
    site: &Site,
    cx: &Context,
    whole: Range<usize>,
    receiver: &Range<usize>,
) -> Vec<Edit> {
    let returns = site.returns.as_deref().unwrap_or("");
    let unwrapped = &cx.text[receiver.clone()];
    if returns.starts_with("Option<") {
        return vec![Edit::replace(whole, format!("{unwrapped}?"))];
    }
    if !returns.starts_with("Result<") {
        return Vec::new();
    }
    // A `match` read on (`.len()`, `?`, `[i]`) is parenthesized, or a
    // statement would end at its `}`.
    let after = cx.text[whole.end..].trim_start();
    let read_on = after.starts_with(['.', '?', '[']);
    cx.space
        .returned_at(site)
        .map(|value| value.text.as_str())
        .filter(|value| !value.starts_with("Ok("))
        .take(ERROR_PATHS)
        .flat_map(|error| {
            [("Some(v)", "None"), ("Ok(v)", "Err(_)")].map(|(some, none)| {
                let leave =
                    format!("match {unwrapped} {{ {some} => v, {none} => return {error} }}");
                let text = if read_on { format!("({leave})") } else { leave };
                Edit::replace(whole.clone(), text)
            })
        })
        .collect()
}

/// The size of what two pointers point to, when `left` and `right` are
/// `p as usize` and `q as usize` of pointers to one type `T` (not a byte):
/// their difference counts bytes, and the elements between them are that
/// divided by `core::mem::size_of::<T>()` (types from the compiler).
fn element_size(
    site: &Site,
    cx: &Context,
    left: &Range<usize>,
    right: &Range<usize>,
) -> Option<String> {
    let pointee = |side: &Range<usize>| {
        let name = cx.text[side.clone()]
            .trim()
            .strip_suffix("as usize")?
            .trim();
        let ty = cx.types.variable(site.location(), name)?;
        let ty = ty
            .strip_prefix("*const ")
            .or_else(|| ty.strip_prefix("*mut "))?;
        Some(ty.trim().to_string())
    };
    let (a, b) = (pointee(left)?, pointee(right)?);
    (a == b && !matches!(a.as_str(), "u8" | "i8" | "()"))
        .then(|| format!("core::mem::size_of::<{a}>()"))
}

/// `a.zip(b).all(|(x, y)| x == y)` as `a.eq(b)`, `a.zip(b).any(|(x, y)| x
/// != y)` as `a.ne(b)` (either order of `x` and `y`, by reference or not):
/// the same comparison without stopping at the shorter sequence.
fn zipped_comparison(text: &str) -> Option<String> {
    let call: syn::ExprMethodCall = syn::parse_str(text).ok()?;
    let syn::Expr::MethodCall(zip) = &*call.receiver else {
        return None;
    };
    if zip.method != "zip" || zip.args.len() != 1 || call.args.len() != 1 {
        return None;
    }
    let argument = &zip.args[0];
    let syn::Expr::Closure(closure) = &call.args[0] else {
        return None;
    };
    if closure.inputs.len() != 1 {
        return None;
    }
    // The pair's two names (`x`, `&x`), and the comparison's two sides
    // (`x`, `*x`): the same two.
    fn name(pat: &syn::Pat) -> Option<String> {
        match pat {
            syn::Pat::Ident(i) => Some(i.ident.to_string()),
            syn::Pat::Reference(r) => name(&r.pat),
            _ => None,
        }
    }
    fn operand(expr: &syn::Expr) -> Option<String> {
        match expr {
            syn::Expr::Path(p) => p.path.get_ident().map(ToString::to_string),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => operand(&u.expr),
            _ => None,
        }
    }
    let (syn::Pat::Tuple(pair), syn::Expr::Binary(body)) = (&closure.inputs[0], &*closure.body)
    else {
        return None;
    };
    let mut names: Vec<String> = pair.elems.iter().map(name).collect::<Option<_>>()?;
    let mut sides = vec![operand(&body.left)?, operand(&body.right)?];
    names.sort();
    sides.sort();
    if names.len() != 2 || names != sides {
        return None;
    }
    let method = match (call.method.to_string().as_str(), &body.op) {
        ("all", syn::BinOp::Eq(_)) => "eq",
        ("any", syn::BinOp::Ne(_)) => "ne",
        _ => return None,
    };
    let source = |node: &dyn syn::spanned::Spanned| {
        let range = node.span().byte_range();
        text.get(range).map(str::to_string)
    };
    Some(format!(
        "{}.{method}({})",
        source(&zip.receiver)?,
        source(argument)?
    ))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{line, lines_made, outcomes, outcomes_typed};
    use super::zipped_comparison;
    use crate::code::source::{FileId, Location};
    use crate::mutation::patch::Operator;
    use crate::mutation::types::Types;

    #[test]
    fn a_comparison_unwrapped_gets_an_answer_for_nan() {
        // delaunator: sorting distances panicked on a NaN.
        let text = "use std::cmp::Ordering;\nfn sortf(f: &mut [(usize, f64)]) {\n    f.sort_unstable_by(|&(_, da), &(_, db)| da.partial_cmp(&db).unwrap());\n}\n";
        let made = lines_made(text, Operator::Idiom, 3);
        for fixed in [
            "f.sort_unstable_by(|&(_, da), &(_, db)| da.partial_cmp(&db).unwrap_or(Ordering::Equal));",
            "f.sort_unstable_by(|&(_, da), &(_, db)| da.total_cmp(&db));",
        ] {
            assert!(made.contains(fixed), "{made:?}");
        }
        // Without the import, by its path; and no other unwrap gets it.
        let bare = text.replace("use std::cmp::Ordering;\n", "\n");
        let made = lines_made(&bare, Operator::Idiom, 3);
        assert!(
            made.iter()
                .any(|m| m.contains("unwrap_or(::core::cmp::Ordering::Equal)"))
        );
        let other = "fn f(v: Option<u8>) -> u8 {\n    v.unwrap()\n}\n";
        assert!(
            !lines_made(other, Operator::Idiom, 2)
                .iter()
                .any(|m| m.contains("Ordering"))
        );
    }

    #[test]
    fn the_bytes_between_two_pointers_are_made_a_count_of_elements() {
        let text = "fn offset<T>(a: &[T], b: &[T]) -> usize {\n    let fst = a.as_ptr();\n    let snd = b.as_ptr();\n    snd as usize - fst as usize\n}\n";
        let mut types = Types::default();
        let at = Location::new(FileId::new(0), 4);
        types.set_variable(at, "fst", "*const T");
        types.set_variable(at, "snd", "*const T");
        let made: Vec<String> = outcomes_typed(text, Operator::Idiom, 4, &types)
            .iter()
            .map(|t| line(t, 4).to_string())
            .collect();
        assert!(
            made.contains(&"(snd as usize - fst as usize) / core::mem::size_of::<T>()".to_string()),
            "{made:?}"
        );
        // Pointers to bytes count bytes; without their types, nothing.
        let mut types = Types::default();
        types.set_variable(at, "fst", "*const u8");
        types.set_variable(at, "snd", "*const u8");
        let bytes = outcomes_typed(text, Operator::Idiom, 4, &types);
        assert!(!bytes.iter().any(|t| t.contains("size_of")), "{bytes:?}");
        let unknown = outcomes(text, Operator::Idiom, 4);
        assert!(
            !unknown.iter().any(|t| t.contains("size_of")),
            "{unknown:?}"
        );
    }

    #[test]
    fn a_texts_length_in_bytes_is_made_its_length_in_characters_and_back() {
        let text = "fn pad(s: &str, v: &[u8], w: usize) -> usize {\n    let n = s.len().max(v.len());\n    w - s.chars().count()\n}\n";
        let mut types = Types::default();
        for line in [2, 3] {
            let at = Location::new(FileId::new(0), line);
            types.set_variable(at, "s", "&str");
            types.set_variable(at, "v", "&[u8]");
        }
        let made = outcomes_typed(text, Operator::Idiom, 2, &types);
        let made: Vec<&str> = made.iter().map(|t| line(t, 2)).collect();
        assert_eq!(made, ["let n = s.chars().count().max(v.len());"]);
        let made = outcomes_typed(text, Operator::Idiom, 3, &types);
        assert!(made.iter().any(|t| line(t, 3) == "w - s.len()"), "{made:?}");
        // Without the compiler's word that `s` is text, nothing; but
        // `.chars()` says so.
        assert!(outcomes(text, Operator::Idiom, 2).is_empty());
        let made = outcomes(text, Operator::Idiom, 3);
        assert!(made.iter().any(|t| line(t, 3) == "w - s.len()"), "{made:?}");
    }

    #[test]
    fn the_pieces_of_a_text_split_at_a_character_are_trimmed() {
        let text = "fn f(m: &str, v: &[u8]) {\n    for s in m.split(',') {\n        g(s);\n    }\n    let w: Vec<_> = v.split(|b| *b == 0).collect();\n    let t: Vec<_> = m.splitn(2, \"=\").map(h).collect();\n}\n";
        let made = outcomes(text, Operator::Idiom, 2);
        let made: Vec<&str> = made.iter().map(|t| line(t, 2)).collect();
        assert!(
            made.contains(&"for s in m.split(',').map(str::trim) {"),
            "{made:?}"
        );
        // A slice split by a closure; pieces mapped already.
        assert!(outcomes(text, Operator::Idiom, 5).is_empty());
        assert!(outcomes(text, Operator::Idiom, 6).is_empty());
    }

    #[test]
    fn an_unwrap_of_nothing_leaves_by_the_functions_error_path() {
        let text = "fn parse(&mut self, r: Result<u32, E>) -> Result<String, Error> {\n    if r.is_err() {\n        return self.error(\"not hex\");\n    }\n    let c = r.unwrap();\n    out.push(char::from_u32(c).unwrap());\n    Ok(out)\n}\n";
        let made = lines_made(text, Operator::Idiom, 6);
        for expected in [
            "out.push(char::from_u32(c).unwrap_or_default());",
            "out.push(match char::from_u32(c) { Some(v) => v, None => return self.error(\"not hex\") });",
            "out.push(match char::from_u32(c) { Ok(v) => v, Err(_) => return self.error(\"not hex\") });",
        ] {
            assert!(made.contains(expected), "{expected} not in {made:?}");
        }
        // Read on, the `match` is parenthesized; `Ok(out)` is no error path.
        let read_on = text.replace("r.unwrap();", "r.unwrap().min(9);");
        let made = outcomes(&read_on, Operator::Idiom, 5);
        assert!(
            made.iter().any(|t| t.contains(
                "let c = (match r { Ok(v) => v, Err(_) => return self.error(\"not hex\") }).min(9);"
            )),
            "{made:?}"
        );
        assert!(
            !made.iter().any(|t| t.contains("return Ok(out)")),
            "{made:?}"
        );
        // In a function returning an `Option`, `?`.
        let option = "fn first(v: &[u8]) -> Option<u8> {\n    let x = v.first().copied().unwrap();\n    Some(x)\n}\n";
        let made = lines_made(option, Operator::Idiom, 2);
        assert!(made.contains("let x = v.first().copied()?;"), "{made:?}");
    }

    #[test]
    fn sequences_compared_through_zip_are_compared_whole() {
        let text = "fn eq(a: &str, b: &str) -> bool {\n    a.chars().flat_map(f)\n        .zip(b.chars().flat_map(f))\n        .all(|(x, y)| x == y)\n}\n";
        let made: Vec<String> = outcomes(text, Operator::Idiom, 2)
            .iter()
            .map(|t| line(t, 2).to_string())
            .collect();
        assert!(
            made.contains(&"a.chars().flat_map(f).eq(b.chars().flat_map(f))".to_string()),
            "{made:?}"
        );
        let rewritten = zipped_comparison;
        assert_eq!(
            rewritten("a.iter().zip(b.iter()).any(|(&p, &q)| q != p)").as_deref(),
            Some("a.iter().ne(b.iter())")
        );
        // Not a comparison of the pair's two elements: left alone.
        assert_eq!(rewritten("a.iter().zip(b).all(|(x, y)| x < y)"), None);
        assert_eq!(rewritten("a.iter().zip(b).all(|(x, _)| x == 0)"), None);
        assert_eq!(rewritten("a.iter().zip(b).any(|(x, y)| x == y)"), None);
        assert_eq!(rewritten("a.iter().chain(b).all(|(x, y)| x == y)"), None);
    }
}
