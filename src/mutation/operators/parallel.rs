//! The same edit on the lines beside: lines next to each other written
//! alike (`let min = high.0 + 1 + low.0;` above `let max = high.1.zip(low.1)
//! .map(|(high, low)| high + 1 + low);`, `let s = (s * 100.0).floor();`
//! above `let l = (l * 100.0).floor();`) most likely carry the same slip,
//! and fixing one of them alone leaves the test failing. Each edit the
//! one-token and small-rewrite operators make at a site is made again on
//! the run of lines around it (past a blank or comment line or two) that
//! start as the site's line does and where it finds its place: the tokens
//! it replaces found once on that line (with the tokens around them where
//! they are found more than once), or, for tokens it only inserts, the
//! tokens on either side of them. An edit of a whole expression is also
//! made at each other occurrence of that expression in its statement
//! (`s.len()` made `s.chars().count()` in every arm of a `match`).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::code::source::Edit;
use crate::code::{is_keyword, lexed, line_of, lines_alike, same_place};
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator, applies, edits};

/// The operators whose edits are made again on the lines beside.
const BASES: &[Operator] = &[
    Operator::Binary,
    Operator::Overflow,
    Operator::Bounds,
    Operator::Condition,
    Operator::Value,
    Operator::Member,
    Operator::Method,
    Operator::Variant,
    Operator::Range,
    Operator::Identifier,
    Operator::Offset,
    Operator::Term,
    Operator::Slice,
    Operator::Arguments,
    Operator::Idiom,
];

/// Lines one edit is made on, at most.
const RUN: usize = 4;

/// Tokens on either side a change's place is told by, at most.
const CONTEXT: usize = 3;

pub(super) struct Parallel;

impl MutationOperator for Parallel {
    fn operator(&self) -> Operator {
        Operator::Parallel
    }

    fn name(&self) -> &'static str {
        "parallel"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        BASES.iter().any(|base| applies(*base, kind))
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let mut seen = BTreeSet::new();
        let mut known = BTreeMap::new();
        BASES
            .iter()
            .filter(|base| applies(**base, &site.kind))
            .flat_map(|base| edits(*base, site, cx))
            .flat_map(|edit| {
                let alike = on_lines_alike(&edit, cx.text);
                alike
                    .into_iter()
                    .chain(throughout_statement(&edit, site, cx.text))
                    .chain(throughout_function(&edit, cx.text, &mut known))
            })
            .filter(|edit| seen.insert((edit.range.start, edit.range.end, edit.text.clone())))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        1
    }
}

/// `edit` made on its line and again on the lines around it written alike
/// (see the module's documentation), as one edit; none when no line beside
/// takes it.
fn on_lines_alike(edit: &Edit, text: &str) -> Option<Edit> {
    let line = line_of(text, &edit.range)?;
    if edit.text.contains('\n') {
        return None;
    }
    let before = &text[line.clone()];
    let after = format!(
        "{}{}{}",
        &text[line.start..edit.range.start],
        edit.text,
        &text[edit.range.end..line.end]
    );
    let change = Change::between(before, &after)?;
    let made_on = |other: &Range<usize>| {
        let other_text = &text[other.clone()];
        let (place, made) = change
            .made_on(other_text)
            .filter(|_| alike(before, other_text))?;
        Some((other.start + place.start..other.start + place.end, made))
    };
    let mut run = vec![(edit.range.clone(), edit.text.clone())];
    let mut above = line.clone();
    while run.len() < RUN {
        let Some(made) = line_before(text, above.start).and_then(|l| made_on(&l).map(|m| (l, m)))
        else {
            break;
        };
        above = made.0;
        run.insert(0, made.1);
    }
    let mut below = line;
    while run.len() < RUN {
        let Some(made) = line_after(text, below.end).and_then(|l| made_on(&l).map(|m| (l, m)))
        else {
            break;
        };
        below = made.0;
        run.push(made.1);
    }
    (run.len() >= 2).then(|| spliced(text, &run))
}

/// `edit` made on its line and again on every line of its function written
/// like it that has the tokens it replaces at the same place (the nearest
/// [`RUN`] lines in all), as one edit; none when no such line is there.
/// `known` keeps the lines alike found for each line (by its start).
fn throughout_function(
    edit: &Edit,
    text: &str,
    known: &mut BTreeMap<usize, Vec<Range<usize>>>,
) -> Option<Edit> {
    if edit.text.contains('\n') {
        return None;
    }
    let line = line_of(text, &edit.range)?;
    let alike = known
        .entry(line.start)
        .or_insert_with(|| lines_alike(text, &line));
    let mut parts: Vec<(Range<usize>, String)> = alike
        .iter()
        .filter_map(|other| {
            Some((
                same_place(text, &line, &edit.range, other)?,
                edit.text.clone(),
            ))
        })
        .take(RUN - 1)
        .collect();
    if parts.is_empty() {
        return None;
    }
    parts.push((edit.range.clone(), edit.text.clone()));
    parts.sort_by_key(|(range, _)| range.start);
    Some(spliced(text, &parts))
}

/// One edit of `text` that makes each of `parts` (in order, apart), the
/// text between them kept.
fn spliced(text: &str, parts: &[(Range<usize>, String)]) -> Edit {
    let whole = parts[0].0.start..parts[parts.len() - 1].0.end;
    let mut made = String::new();
    let mut at = whole.start;
    for (range, replacement) in parts {
        made.push_str(&text[at..range.start]);
        made.push_str(replacement);
        at = range.end;
    }
    Edit::replace(whole, made)
}

/// The tokens of `text` in `range`, as ranges of `text`.
fn tokens_in(text: &str, range: &Range<usize>) -> Vec<Range<usize>> {
    lexed(&text[range.clone()])
        .map(|(_, r)| range.start + r.start..range.start + r.end)
        .collect()
}

/// Tokens an expression has at least for [`throughout_statement`] to
/// make its edit at each of its occurrences (`s.len()` has five).
const EXPRESSION: usize = 3;

/// `edit` made again at every other occurrence, in the statement around
/// it, of the expression it replaces (`s.len()` made `s.chars().count()`
/// in each arm of a `match`): the same tokens, not read on something else
/// (after `.` or `::`). None when it replaces fewer than [`EXPRESSION`]
/// tokens or the statement has that expression once.
fn throughout_statement(edit: &Edit, site: &Site, text: &str) -> Option<Edit> {
    let statement = site.statement.as_ref()?.range.clone();
    if edit.range.start < statement.start || edit.range.end > statement.end {
        return None;
    }
    let replaced: Vec<&str> = tokens_in(text, &edit.range)
        .into_iter()
        .map(|t| &text[t])
        .collect();
    if replaced.len() < EXPRESSION {
        return None;
    }
    let tokens = tokens_in(text, &statement);
    let mut occurrences: Vec<Range<usize>> = Vec::new();
    let mut at = 0;
    while at + replaced.len() <= tokens.len() {
        let here = &tokens[at..at + replaced.len()];
        let read_on = at > 0 && matches!(&text[tokens[at - 1].clone()], "." | "::");
        if !read_on
            && here
                .iter()
                .zip(&replaced)
                .all(|(t, r)| &text[t.clone()] == *r)
        {
            occurrences.push(here[0].start..here[here.len() - 1].end);
            at += replaced.len();
        } else {
            at += 1;
        }
    }
    if occurrences.len() < 2 || !occurrences.contains(&edit.range) {
        return None;
    }
    let parts: Vec<(Range<usize>, String)> = occurrences
        .into_iter()
        .map(|o| (o, edit.text.clone()))
        .collect();
    Some(spliced(text, &parts))
}

/// What an edit changes on its line, in tokens: those it replaces, the
/// text it puts in their place (the blanks between the tokens kept before
/// and after included), and the tokens on either side, nearest first.
#[derive(Debug)]
struct Change {
    replaced: Vec<String>,
    made: String,
    left: Vec<String>,
    right: Vec<String>,
}

impl Change {
    /// The change that makes `after` of `before` (each one line).
    fn between(before: &str, after: &str) -> Option<Change> {
        let old: Vec<(&str, Range<usize>)> = lexed(before).collect();
        let new: Vec<(&str, Range<usize>)> = lexed(after).collect();
        let same = |a: &Range<usize>, b: &Range<usize>| before[a.clone()] == after[b.clone()];
        let prefix = old
            .iter()
            .zip(&new)
            .take_while(|((_, a), (_, b))| same(a, b))
            .count();
        let most = old.len().min(new.len()) - prefix;
        let suffix = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take(most)
            .take_while(|((_, a), (_, b))| same(a, b))
            .count();
        if prefix == old.len() && prefix == new.len() {
            return None;
        }
        let texts = |tokens: &[(&str, Range<usize>)]| -> Vec<String> {
            tokens
                .iter()
                .map(|(_, r)| before[r.clone()].to_string())
                .collect()
        };
        Some(Change {
            replaced: texts(&old[prefix..old.len() - suffix]),
            made: after[gap(&new, prefix, suffix, after.len())].to_string(),
            left: texts(&old[..prefix]).into_iter().rev().collect(),
            right: texts(&old[old.len() - suffix..]),
        })
    }

    /// Where on `line` the change goes and what it puts there: the blanks
    /// between the tokens around the replaced ones, and the made text;
    /// none unless exactly one place has the replaced tokens (told apart by
    /// the tokens around them where need be; for a change that only
    /// inserts, at least one token of each side).
    fn made_on(&self, line: &str) -> Option<(Range<usize>, String)> {
        let tokens: Vec<(&str, Range<usize>)> = lexed(line).collect();
        let text = |i: usize| &line[tokens[i].1.clone()];
        let width = self.replaced.len();
        let mut places: Vec<usize> = (0..(tokens.len() + 1).saturating_sub(width))
            .filter(|&at| (0..width).all(|k| text(at + k) == self.replaced[k]))
            .collect();
        let fits = |at: usize, context: usize| {
            let mut left = self.left.iter().take(context).enumerate();
            let mut right = self.right.iter().take(context).enumerate();
            left.all(|(k, t)| at > k && text(at - 1 - k) == t)
                && right.all(|(k, t)| at + width + k < tokens.len() && text(at + width + k) == t)
        };
        // A change that only inserts is placed by a token on each side.
        for context in usize::from(width == 0)..=CONTEXT {
            places.retain(|&at| fits(at, context));
            if places.len() <= 1 {
                break;
            }
        }
        let [at] = places[..] else {
            return None;
        };
        let kept_after = tokens.len() - at - width;
        let place = gap(&tokens, at, kept_after, line.len());
        Some((place, self.made.clone()))
    }
}

/// The bytes of a line (`len` long, of `tokens`) between its first `kept`
/// tokens and its last `kept_after`: the blanks around what lies between
/// them included.
fn gap(
    tokens: &[(&str, Range<usize>)],
    kept: usize,
    kept_after: usize,
    len: usize,
) -> Range<usize> {
    let start = kept.checked_sub(1).map_or(0, |i| tokens[i].1.end);
    let end = tokens
        .get(tokens.len() - kept_after)
        .map_or(len, |t| t.1.start);
    start..end
}

/// Whether two lines are written alike: their first two tokens the same
/// but for names and numbers (`let min =` and `let max =`).
fn alike(one: &str, other: &str) -> bool {
    let shape = |line: &str| -> Vec<String> {
        lexed(line)
            .take(2)
            .map(|(token, _)| match token.chars().next() {
                Some(c) if (c.is_alphanumeric() || c == '_') && !is_keyword(token) => {
                    "_".to_string()
                }
                _ => token.to_string(),
            })
            .collect()
    };
    let (a, b) = (shape(one), shape(other));
    a.len() == 2 && a == b
}

/// Blank and comment lines passed over between two lines alike, at most.
const BETWEEN: usize = 2;

/// Whether a line holds no code: blank, or a comment.
fn no_code(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with("//")
}

/// The line with code before the one starting at `start` (past
/// [`BETWEEN`] blank or comment lines at most).
fn line_before(text: &str, start: usize) -> Option<Range<usize>> {
    let mut start = start;
    for _ in 0..=BETWEEN {
        let end = start.checked_sub(1)?;
        let begin = text[..end].rfind('\n').map_or(0, |i| i + 1);
        if !no_code(&text[begin..end]) {
            return Some(begin..end);
        }
        start = begin;
    }
    None
}

/// The line with code after the one ending (before its newline) at `end`
/// (past [`BETWEEN`] blank or comment lines at most).
fn line_after(text: &str, end: usize) -> Option<Range<usize>> {
    let mut end = end;
    for _ in 0..=BETWEEN {
        let begin = end + 1;
        if begin > text.len() {
            return None;
        }
        let stop = text[begin..].find('\n').map_or(text.len(), |i| begin + i);
        if !no_code(&text[begin..stop]) {
            return Some(begin..stop);
        }
        end = stop;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::{CrateSources, KeepConst};
    use crate::mutation::sites::collect_mutation_space;

    fn made(text: &str, from: &str, to: &str) -> Option<String> {
        let at = text.find(from).unwrap();
        let edit = Edit::replace(at..at + from.len(), to);
        let made = on_lines_alike(&edit, text)?;
        let mut out = text.to_string();
        out.replace_range(made.range, &made.text);
        Some(out)
    }

    #[test]
    fn an_offset_dropped_on_two_lines_written_alike() {
        let text = "fn f() {\n    let min = high.0 + 1 + low.0;\n    let max = high.1.zip(low.1).map(|(high, low)| high + 1 + low);\n    (min, max)\n}\n";
        assert_eq!(
            made(text, "high.0 + 1", "high.0").as_deref(),
            Some(
                "fn f() {\n    let min = high.0 + low.0;\n    let max = high.1.zip(low.1).map(|(high, low)| high + low);\n    (min, max)\n}\n"
            )
        );
    }

    #[test]
    fn a_method_replaced_on_each_line_of_a_run() {
        let text = "    let h = h.floor();\n    let s = (s * 100.0).floor();\n    let l = (l * 100.0).floor();\n    format!(\"{h} {s} {l}\")\n";
        let at = text.find("floor();\n    let l").unwrap();
        let edit = Edit::replace(at..at + 5, "round");
        let made = on_lines_alike(&edit, text).unwrap();
        let mut out = text.to_string();
        out.replace_range(made.range, &made.text);
        assert_eq!(
            out,
            "    let h = h.round();\n    let s = (s * 100.0).round();\n    let l = (l * 100.0).round();\n    format!(\"{h} {s} {l}\")\n"
        );
    }

    #[test]
    fn blank_and_comment_lines_between_two_alike_are_passed_over() {
        let text = "    let lo = a.0 + 1;\n\n    // The upper end.\n    let hi = b.0 + 1;\n";
        assert_eq!(
            made(text, "a.0 + 1", "a.0").as_deref(),
            Some("    let lo = a.0;\n\n    // The upper end.\n    let hi = b.0;\n")
        );
        let text = "    let lo = a.0 + 1;\n\n\n\n    let hi = b.0 + 1;\n";
        assert_eq!(made(text, "a.0 + 1", "a.0"), None, "too far apart");
    }

    #[test]
    fn an_insertion_goes_between_the_same_tokens() {
        let text = "    let s = (s * 100.0).floor();\n    let l = (l * 100.0).floor();\n";
        assert_eq!(
            made(text, "100.0)", "100.0 + 0.5)").as_deref(),
            Some(
                "    let s = (s * 100.0 + 0.5).floor();\n    let l = (l * 100.0 + 0.5).floor();\n"
            )
        );
    }

    #[test]
    fn an_expression_is_edited_wherever_its_statement_has_it() {
        let text = "fn pad(s: &str, p: Option<usize>) -> usize {\n    let len = match p {\n        Some(p) if p < s.len() => p,\n        _ => s.len(),\n    };\n    len + x.s.len()\n}\n";
        let space = collect_mutation_space(
            &CrateSources::of_one_file(text),
            &KeepConst::Every,
            &Default::default(),
        );
        let site = space.sites.iter().find(|s| s.line == 4).unwrap();
        let at = text.find("_ => s.len()").unwrap() + 5;
        let edit = Edit::replace(at..at + 7, "s.chars().count()");
        let made = throughout_statement(&edit, site, text).unwrap();
        let mut out = text.to_string();
        out.replace_range(made.range, &made.text);
        assert_eq!(
            out,
            "fn pad(s: &str, p: Option<usize>) -> usize {\n    let len = match p {\n        Some(p) if p < s.chars().count() => p,\n        _ => s.chars().count(),\n    };\n    len + x.s.len()\n}\n"
        );
        // One token (an operator) is not an expression to find again.
        let at = text.find("p < s").unwrap() + 2;
        assert_eq!(
            throughout_statement(&Edit::replace(at..at + 1, "<="), site, text),
            None
        );
    }

    #[test]
    fn an_edit_is_made_again_on_a_line_alike_further_down_its_function() {
        // delaunator: the forward and the backward walk of the hull both
        // stop at `< 0.`, thirteen lines apart; the fix made both `<= 0.`.
        let text = "fn add(p: P) {\n    loop {\n        if p.orient(&points[n], &points[q]) < 0. {\n            break;\n        }\n        n = q;\n    }\n    loop {\n        if p.orient(&points[q], &points[e]) < 0. {\n            break;\n        }\n    }\n}\nfn far() {\n    if p.orient(&points[a], &points[b]) < 0. {}\n}\n";
        let at = text.find("< 0.").unwrap();
        let edit = Edit::replace(at..at + 1, "<=");
        let made = throughout_function(&edit, text, &mut BTreeMap::new()).unwrap();
        let mut out = text.to_string();
        out.replace_range(made.range, &made.text);
        assert_eq!(out.matches("<= 0.").count(), 2, "{out}");
        assert!(out.contains("[b]) < 0."), "another function is left alone");
        // A token the other line does not have at that place.
        let at = text.find("[n]").unwrap() + 1;
        let edit = Edit::replace(at..at + 1, "m");
        assert_eq!(throughout_function(&edit, text, &mut BTreeMap::new()), None);
    }

    #[test]
    fn no_edit_where_no_line_beside_is_alike_or_takes_it() {
        // The next line starts otherwise.
        let text = "    let min = a + 1;\n    return b + 1;\n";
        assert_eq!(made(text, "a + 1", "a"), None);
        // The next line has the replaced tokens twice, with nothing
        // around them to tell which.
        let text = "    x = a < b;\n    y = c < d && e < f;\n";
        assert_eq!(made(text, "<", "<="), None);
        // Told apart by the tokens around them.
        let text = "    x = a < b;\n    y = a < b && e < f;\n";
        assert_eq!(
            made(text, "<", "<=").as_deref(),
            Some("    x = a <= b;\n    y = a <= b && e < f;\n")
        );
    }
}
