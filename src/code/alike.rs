//! Lines written alike within one function: the same tokens but for names,
//! numbers and string literals (`if p.orient(&points[n], &points[q]) < 0.
//! {` and, thirteen lines down, `if p.orient(&points[q], &points[e]) < 0.
//! {`). Code copied and adapted carries its slips along, so a fix of one
//! such line often belongs on the other too, and a patch that changes one
//! of them and leaves the other as it was reads as half a fix.

use std::ops::Range;

use super::naturalness::lexed;
use super::tokens::is_keyword;

/// Tokens a line has at least to count as written like another: shorter
/// lines (`i += 1;`, `}`) are alike by chance.
const MIN_TOKENS: usize = 6;

/// Lines of a function looked at, at most (past them, a function is too
/// long for two lines in it to be one thought).
const MAX_LINES: usize = 400;

/// The line (without its newline) that holds all of `range`, if one does.
pub fn line_of(text: &str, range: &Range<usize>) -> Option<Range<usize>> {
    let start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[range.start..]
        .find('\n')
        .map_or(text.len(), |i| range.start + i);
    (range.end <= end).then_some(start..end)
}

/// The body (braces included) of the innermost function of `text` whose
/// body holds `offset`: found by its `fn` line above `offset` and the
/// braces' nesting. None outside any function, or past [`MAX_LINES`].
pub fn function_around(text: &str, offset: usize) -> Option<Range<usize>> {
    let mut end = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    for _ in 0..MAX_LINES {
        let start = text[..end.saturating_sub(1)]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let line = &text[start..end];
        if lexed(line).any(|(token, _)| token == "fn")
            && let Some(body) = body_from(text, start)
            && body.contains(&offset)
        {
            return Some(body);
        }
        if start == 0 {
            return None;
        }
        end = start;
    }
    None
}

/// The first `{ .. }` of `text` from `start` on, braces matched (none
/// when a `;` comes first).
pub fn body_from(text: &str, start: usize) -> Option<Range<usize>> {
    let mut depth = 0usize;
    let mut open = None;
    for (token, range) in lexed(&text[start..]) {
        match token {
            "{" => {
                open.get_or_insert(start + range.start);
                depth += 1;
            }
            "}" if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return Some(open?..start + range.end);
                }
            }
            ";" if open.is_none() => return None,
            _ => {}
        }
    }
    None
}

/// A line's tokens as ranges of the line, and its shape: each token, with
/// names (no keywords), numbers and literals written `_` (the lexer reads
/// each string or character literal as one placeholder already).
fn shaped(line: &str) -> (Vec<Range<usize>>, Vec<&str>) {
    lexed(line)
        .map(|(token, range)| {
            let general =
                token.starts_with(|c: char| c.is_alphanumeric() || c == '_') && !is_keyword(token);
            (range, if general { "_" } else { token })
        })
        .unzip()
}

/// The lines of the function around `line` (a line of `text`, without its
/// newline) other than it written like it (see the module's
/// documentation), nearest first; none outside a function.
pub fn lines_alike(text: &str, line: &Range<usize>) -> Vec<Range<usize>> {
    let (tokens, shape) = shaped(&text[line.clone()]);
    if tokens.len() < MIN_TOKENS {
        return Vec::new();
    }
    let Some(within) = function_around(text, line.start) else {
        return Vec::new();
    };
    let mut alike: Vec<Range<usize>> = Vec::new();
    let mut start = within.start;
    while start < within.end {
        let end = text[start..within.end]
            .find('\n')
            .map_or(within.end, |i| start + i);
        if start != line.start && shaped(&text[start..end]).1 == shape {
            alike.push(start..end);
        }
        start = end + 1;
    }
    alike.sort_by_key(|other| other.start.abs_diff(line.start));
    alike
}

/// Where on `other`, a line of `text` written like the line `line`, the
/// bytes `range` of `text` (on `line`) lie: between the same tokens, which
/// hold the same text there. None when `range` starts or ends inside a
/// token, or `other` holds something else there.
pub fn same_place(
    text: &str,
    line: &Range<usize>,
    range: &Range<usize>,
    other: &Range<usize>,
) -> Option<Range<usize>> {
    let part = range.start - line.start..range.end - line.start;
    let place = place_on(&text[line.clone()], &part, &text[other.clone()])?;
    Some(other.start + place.start..other.start + place.end)
}

/// [`same_place`] within the lines' own texts.
fn place_on(line: &str, part: &Range<usize>, other: &str) -> Option<Range<usize>> {
    let (mine, _) = shaped(line);
    let (theirs, _) = shaped(other);
    if mine.len() != theirs.len() {
        return None;
    }
    // A byte offset of `line` between or at tokens, as one of `other`.
    let map = |at: usize| -> Option<usize> {
        if let Some(i) = mine.iter().position(|t| t.start == at) {
            return Some(theirs[i].start);
        }
        if let Some(i) = mine.iter().position(|t| t.end == at) {
            return Some(theirs[i].end);
        }
        let i = mine.iter().position(|t| t.start > at)?;
        (i > 0 && mine[i - 1].end < at).then(|| theirs[i].start)
    };
    let inside = |t: &&Range<usize>| t.start >= part.start && t.end <= part.end;
    let same = mine
        .iter()
        .zip(&theirs)
        .filter(|(t, _)| inside(t))
        .all(|(a, b)| line[a.clone()] == other[b.clone()]);
    let place = map(part.start)?..map(part.end)?;
    (same && place.start <= place.end).then_some(place)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALKS: &str = "fn walk(p: P) {\n    loop {\n        let q = hull.next[n];\n        if p.orient(&points[n], &points[q]) < 0. {\n            break;\n        }\n        n = q;\n    }\n    loop {\n        let q = hull.prev[e];\n        if p.orient(&points[q], &points[e]) < 0. {\n            break;\n        }\n    }\n}\nfn other() {\n    if p.orient(&points[a], &points[b]) < 0. {\n    }\n}\n";

    fn line(text: &str, needle: &str) -> Range<usize> {
        let at = text.find(needle).unwrap();
        line_of(text, &(at..at)).unwrap()
    }

    #[test]
    fn lines_alike_in_one_function_but_not_in_another() {
        let first = line(WALKS, "if p.orient(&points[n]");
        let body = function_around(WALKS, first.start).unwrap();
        assert!(WALKS[body.clone()].starts_with("{\n    loop"));
        assert!(WALKS[body].ends_with("    }\n}"));
        let alike = lines_alike(WALKS, &first);
        assert_eq!(alike.len(), 1, "the other function's line is not in it");
        assert_eq!(
            WALKS[alike[0].clone()].trim(),
            "if p.orient(&points[q], &points[e]) < 0. {"
        );
        // `let q = hull.next[n];` and `let q = hull.prev[e];` differ in a
        // field's name only, but a field is a name too: alike.
        let fetch = line(WALKS, "let q = hull.next");
        assert_eq!(lines_alike(WALKS, &fetch).len(), 1);
        // Short lines are not compared.
        let step = line(WALKS, "n = q;");
        assert!(lines_alike(WALKS, &step).is_empty());
    }

    #[test]
    fn the_same_place_on_a_line_alike() {
        let one = "    if p.orient(&points[n], &points[q]) < 0. {";
        let other = "        if p.orient(&points[q], &points[e]) < 0. {";
        let lt = one.find('<').unwrap();
        let place = place_on(one, &(lt..lt + 1), other).unwrap();
        assert_eq!(&other[place], "<");
        // With the blank before it.
        let place = place_on(one, &(lt - 1..lt + 1), other).unwrap();
        assert_eq!(&other[place], " <");
        // An insertion right after a token.
        let after = one.find("0.").unwrap() + 2;
        let place = place_on(one, &(after..after), other).unwrap();
        assert_eq!(
            &other[..place.start],
            "        if p.orient(&points[q], &points[e]) < 0."
        );
        // The name `n` is `q` on the other line: not the same text there.
        let n = one.find("n]").unwrap();
        assert_eq!(place_on(one, &(n..n + 1), other), None);
        // Inside a token.
        let inside = one.find("orient").unwrap() + 2;
        assert_eq!(place_on(one, &(inside..inside), other), None);
    }
}
