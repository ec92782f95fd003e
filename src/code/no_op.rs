//! A patch's statements that change nothing, printed as what they mean: an
//! assignment the patch made neutral (`e.offset += 0;`, `n *= 1;`) is the
//! deletion of that statement, and a person writes the deletion. The place
//! must be a variable or a field of one (through `*` at most), so that
//! reading it has no effect of its own (`v[i] += 0` can panic, and stays).
//!
//! Pure: texts in, a text out.

use similar::{ChangeTag, TextDiff};

/// The integer suffixes a neutral literal may carry (`0u32`, `1_usize`).
const SUFFIXES: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// `patched` with each line the patch made (not one `original` had) that
/// is a neutral compound assignment deleted; `None` when there is none.
pub fn without_neutral_assignments(original: &str, patched: &str) -> Option<String> {
    let diff = TextDiff::from_lines(original, patched);
    let mut out = String::with_capacity(patched.len());
    let mut dropped = false;
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Delete => {}
            ChangeTag::Insert if is_neutral_assignment(change.value()) => dropped = true,
            ChangeTag::Insert | ChangeTag::Equal => out.push_str(change.value()),
        }
    }
    dropped.then_some(out)
}

/// Whether `line` is one statement `place op= neutral;`: `+= 0`, `-= 0`,
/// `|= 0`, `^= 0`, `<<= 0`, `>>= 0`, `*= 1`, `/= 1`, on a place whose
/// reading does nothing else.
fn is_neutral_assignment(line: &str) -> bool {
    let Some(statement) = line.trim().strip_suffix(';') else {
        return false;
    };
    let Some((left, value)) = statement.split_once('=') else {
        return false;
    };
    let left = left.trim_end();
    let Some((place, operator)) = ["<<", ">>", "+", "-", "|", "^", "*", "/"]
        .into_iter()
        .find_map(|op| Some((left.strip_suffix(op)?.trim_end(), op)))
    else {
        return false;
    };
    let neutral = if matches!(operator, "*" | "/") {
        "1"
    } else {
        "0"
    };
    let neutral_value = value.trim().strip_prefix(neutral).is_some_and(|suffix| {
        suffix.is_empty() || SUFFIXES.contains(&suffix.trim_start_matches('_'))
    });
    let place = place.trim_start_matches('*');
    let plain_place = !place.is_empty()
        && !place.starts_with(|c: char| c.is_ascii_digit())
        && place
            .split('.')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_'));
    neutral_value && plain_place
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_neutral_assignment_the_patch_made_is_its_deletion() {
        let original = "fn f(e: &mut E) {\n    e.offset += 1;\n    g(e);\n}\n";
        let patched = "fn f(e: &mut E) {\n    e.offset += 0;\n    g(e);\n}\n";
        assert_eq!(
            without_neutral_assignments(original, patched).as_deref(),
            Some("fn f(e: &mut E) {\n    g(e);\n}\n")
        );
        for neutral in [
            "n *= 1;",
            "*n -= 0usize;",
            "self.a.b |= 0;",
            "x <<= 0;",
            "x /= 1_u8;",
        ] {
            assert!(is_neutral_assignment(neutral), "{neutral}");
        }
        for kept in [
            "v[i] += 0;",
            "n *= 0;",
            "n += 10;",
            "f() += 0;",
            "n += 0 + k;",
            "n = 0;",
        ] {
            assert!(!is_neutral_assignment(kept), "{kept}");
        }
    }

    #[test]
    fn a_neutral_assignment_the_original_had_stays() {
        let original = "fn f(mut n: u8) -> u8 {\n    n += 0;\n    n\n}\n";
        let patched = "fn f(mut n: u8) -> u8 {\n    n += 0;\n    n + 1\n}\n";
        assert_eq!(without_neutral_assignments(original, patched), None);
    }
}
