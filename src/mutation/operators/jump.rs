//! Control flow: a `break`, `continue` or `return` replaced by another of
//! them (a loop that should leave the function, not fall through into
//! the code after it); an `if c { a }` with statements after it made a
//! guard that leaves, `if !c { continue; } a`, so that they too run only
//! when `c` holds (a duplicate skipped whole, not only its first steps);
//! an `else if` made an `if` of its own (`} else if c {` to `} if c {`: a
//! case asked also when an earlier branch ran, such as trimming a record
//! that an earlier branch took as the header); an `if c { a }` given an
//! `else` that returns what the function returns elsewhere (`else {
//! return Err(()); }`: input the loop took no notice of, now refused).

use crate::code::outdented;
use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{LoneIf, Site, SiteKind, StatementSite};

use super::guard::returned_values;
use super::{Context, MutationOperator};

/// Replace `break`, `continue` or `return` by another of them; make a
/// lone `if` a guard that leaves, or give it an `else` that returns; make
/// an `else if` an `if`.
pub(super) struct Jump;

impl MutationOperator for Jump {
    fn operator(&self) -> Operator {
        Operator::Jump
    }

    fn name(&self) -> &'static str {
        "jump"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Statement(statement)
            if statement.jumps
                || statement.lone_if.is_some()
                    && (!leaves(statement).is_empty() || statement.returns.is_some())
                || !statement.else_ifs.is_empty())
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Statement(statement) = &site.kind else {
            return Vec::new();
        };
        if let Some(lone) = &statement.lone_if {
            let mut made = made_guard(statement, lone, cx.text);
            made.extend(else_returning(statement, lone, site, cx));
            return made;
        }
        if !statement.else_ifs.is_empty() {
            let unchained =
                |els: &std::ops::Range<usize>| Edit::replace(els.clone(), String::new());
            return statement.else_ifs.iter().map(unchained).collect();
        }
        let own = cx.text[statement.range.clone()].trim();
        let Some(keyword) = ["break", "continue", "return"]
            .into_iter()
            .find(|k| own.starts_with(k))
        else {
            return Vec::new();
        };
        // `break value` leaves a `loop` with a value: left alone.
        let rest = own[keyword.len()..].trim_end_matches(';').trim();
        if keyword == "break" && !(rest.is_empty() || rest.starts_with('\'')) {
            return Vec::new();
        }
        let end = if own.ends_with(';') { ";" } else { "" };
        let mut made: Vec<String> = Vec::new();
        if let Some(returns) = &statement.returns
            && keyword != "return"
        {
            if returns.is_empty() {
                made.push("return".to_string());
            }
            made.extend(returned_values(returns, site, cx).map(|v| format!("return {v}")));
        }
        if statement.in_loop {
            made.extend(
                ["break", "continue"]
                    .into_iter()
                    .filter(|k| *k != keyword)
                    .map(str::to_string),
            );
        }
        made.into_iter()
            .map(|jump| Edit::replace(statement.range.clone(), format!("{jump}{end}")))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

/// How a lone `if`'s guard may leave: `continue` in a loop, `return` in a
/// function that returns nothing (not `break`: a loop cut short passes
/// where the tests do not look at what it left out).
fn leaves(statement: &StatementSite) -> Vec<&'static str> {
    let mut out = Vec::new();
    if statement.in_loop {
        out.push("continue");
    }
    if statement.returns.as_deref() == Some("") {
        out.push("return");
    }
    out
}

/// `if c { a }` (more statements after it) made `if !c { continue; } a`
/// (or `return`), its statements moved out one level.
fn made_guard(statement: &StatementSite, lone: &LoneIf, text: &str) -> Vec<Edit> {
    if !lone.followed {
        return Vec::new();
    }
    // From the start of the body's first line (where it has one of its
    // own), so that every line carries its indentation; the first goes
    // where the `if` was.
    let from = match body_indent(lone, text) {
        Some(own) => lone.body.start - own.len(),
        None => lone.body.start,
    };
    let moved = outdented(&text[from..lone.body.end], &statement.indent);
    let body = moved.trim_start();
    leaves(statement)
        .into_iter()
        .map(|leave| {
            let guard = format!("if {} {{ {leave}; }}", lone.negation);
            Edit::replace(
                statement.range.clone(),
                format!("{guard}\n{}{body}", statement.indent),
            )
        })
        .collect()
}

/// `if c { a }` given `else { return v; }`, for each value `v` the
/// function returns elsewhere or its type offers (see
/// [`returned_values`]); a function that returns nothing, `else { return;
/// }` in a loop when nothing follows (where it follows, the guard above
/// does the same).
fn else_returning(
    statement: &StatementSite,
    lone: &LoneIf,
    site: &Site,
    cx: &Context,
) -> Vec<Edit> {
    let Some(returns) = statement.returns.as_deref() else {
        return Vec::new();
    };
    let values: Vec<String> = if returns.is_empty() {
        let alone = statement.in_loop && !lone.followed;
        alone.then(String::new).into_iter().collect()
    } else {
        returned_values(returns, site, cx)
            .map(|v| format!(" {v}"))
            .collect()
    };
    let indent = &statement.indent;
    // The `else` block indented as the `if`'s own (two spaces, or four).
    let inner = match body_indent(lone, cx.text) {
        Some(own) if own.len() > indent.len() => own.to_string(),
        _ => format!("{indent}    "),
    };
    let end = statement.range.end;
    values
        .into_iter()
        .map(|value| {
            let branch = format!(" else {{\n{inner}return{value};\n{indent}}}");
            Edit::insert(end, branch)
        })
        .collect()
}

/// The indentation of the lone `if`'s first statement, when it starts a
/// line of its own.
fn body_indent<'t>(lone: &LoneIf, text: &'t str) -> Option<&'t str> {
    let line_start = text[..lone.body.start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..lone.body.start];
    before.trim().is_empty().then_some(before)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use crate::mutation::patch::Operator;

    use super::super::tests::outcomes;

    const QUEUE: &str = "pub fn visit(starts: &[u32], seen: &mut Vec<u32>, out: &mut Vec<u32>) {\n    for &next in starts {\n        if !seen.contains(&next) {\n            out.push(next);\n            seen.push(next);\n        }\n        out.push(0);\n    }\n    if starts.is_empty() {\n        out.clear();\n    }\n}\n";

    #[test]
    fn a_lone_if_becomes_a_guard_that_leaves_before_what_follows() {
        let made = outcomes(QUEUE, Operator::Jump, 3);
        let expected = |leave: &str| {
            QUEUE.replace(
                "        if !seen.contains(&next) {\n            out.push(next);\n            seen.push(next);\n        }\n",
                &format!("        if seen.contains(&next) {{ {leave}; }}\n        out.push(next);\n        seen.push(next);\n"),
            )
        };
        // `return` too: the function returns nothing.
        let all = ["continue", "return"].map(expected);
        assert_eq!(made, BTreeSet::from(all));
        // The last statement of its block: nothing follows it to skip.
        assert!(outcomes(QUEUE, Operator::Jump, 9).is_empty());
    }

    #[test]
    fn a_lone_if_gets_an_else_that_returns_what_the_function_returns_elsewhere() {
        let hex = "pub fn digits(s: &[u8]) -> Result<usize, ()> {\n    let mut n = 0;\n    for b in s {\n        if *b == b'#' {\n            return Err(());\n        }\n        if b.is_ascii_hexdigit() {\n            n += 1;\n        }\n    }\n    Ok(n)\n}\n";
        let made = outcomes(hex, Operator::Jump, 7);
        let refused = hex.replace(
            "            n += 1;\n        }\n",
            "            n += 1;\n        } else {\n            return Err(());\n        }\n",
        );
        assert!(made.contains(&refused), "{made:?}");
        // Nothing follows it in the loop: no guard, only `else`s.
        assert!(made.iter().all(|m| m.contains("} else {")), "{made:?}");
        // A function that returns nothing: `return` in a loop, when the
        // `if` ends the loop's body.
        let made = outcomes(QUEUE, Operator::Jump, 3);
        assert!(!made.iter().any(|m| m.contains("else")), "{made:?}");
        let last = "pub fn fill(v: &mut Vec<u8>, s: &[u8]) {\n    for b in s {\n        if *b > 0 {\n            v.push(*b);\n        }\n    }\n}\n";
        let made = outcomes(last, Operator::Jump, 3);
        let returned = last.replace(
            "            v.push(*b);\n        }\n",
            "            v.push(*b);\n        } else {\n            return;\n        }\n",
        );
        assert_eq!(made, BTreeSet::from([returned]));
        // Indented as the `if`'s own block is.
        let two = last.replace("    ", "  ");
        let made = outcomes(&two, Operator::Jump, 3);
        let returned = two.replace(
            "      v.push(*b);\n    }\n",
            "      v.push(*b);\n    } else {\n      return;\n    }\n",
        );
        assert_eq!(made, BTreeSet::from([returned]));
    }

    #[test]
    fn an_else_if_becomes_an_if_of_its_own() {
        let chain = "pub fn read(first: bool, trim: bool, r: &mut Vec<u8>) {\n    if first {\n        r.push(0);\n    } else if trim {\n        r.pop();\n    } else if r.is_empty() {\n        r.push(1);\n    }\n    r.push(2);\n}\n";
        let made = outcomes(chain, Operator::Jump, 2);
        let unchained =
            |case: &str| chain.replace(&format!("}} else if {case}"), &format!("}} if {case}"));
        assert_eq!(
            made,
            BTreeSet::from([unchained("trim"), unchained("r.is_empty()")])
        );
        // A chain that is its function's value: its branches give one each.
        let valued = "pub fn sign(n: i8) -> i8 {\n    if n > 0 {\n        1\n    } else if n < 0 {\n        -1\n    } else {\n        0\n    }\n}\n";
        assert!(outcomes(valued, Operator::Jump, 2).is_empty());
    }
}
