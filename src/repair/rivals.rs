//! What plausible patches tell about each other, for the choice: where
//! one writes a number and another an expression of a variable in the same
//! place, the tests do not tell a constant from a measure; where one
//! replaces a statement by code another inserts beside it, the removal is
//! not needed to pass, and nothing checks it (csv-core: `self.has_read =
//! false;` replaced by `self.output_pos = 0;`, where inserting the reset
//! and keeping the other is the fix); where one answers an unwrap's panic
//! with a value made up and another leaves the function there, the failure
//! is hidden rather than told (rust-ini: `char::from_u32(c).unwrap()` made
//! `unwrap_or_default()`, pushing a NUL, where the fix returns the parser's
//! error); where one replaces the method a call statement calls and
//! another deletes that statement, no test needs the new call's effect
//! (peekmore: `self.decrement_cursor();` made `self.peek();`, where
//! deleting the statement is the fix).

use proc_macro2::TokenTree;

use crate::code::free_variables;
use crate::code::source::{FileId, Location};
use crate::mutation::{Candidate, Operator, PatchEdit};
use crate::repair::search::Scored;

/// What the other plausible patches tell about one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Told {
    /// Another writes a number where it writes an expression of a
    /// variable, or the other way round.
    pub constant_or_measure: bool,
    /// It replaces a statement by one another inserts at the same place.
    pub needless_removal: bool,
    /// It replaces the method a statement calls (one edit, `method`)
    /// where another deletes that statement.
    pub needless_call: bool,
    /// It makes an unwrap give a value of its own making (`unwrap()` to
    /// `unwrap_or_default()`) where another leaves the function at the
    /// same code (`?`, `None => return self.error(..)`).
    pub made_up: bool,
}

/// What each of `plausible` is told by the others, in their order.
pub fn of(plausible: &[Scored]) -> Vec<Told> {
    let candidates = || plausible.iter().map(|scored| &scored.candidate);
    let written: Vec<Option<Written>> = candidates().map(written).collect();
    let inserted: Vec<Placed> = candidates()
        .filter_map(|c| placed(c, Operator::Insert))
        .collect();
    let leaving: Vec<&PatchEdit> = candidates()
        .filter_map(one_edit)
        .filter(|edit| leaves(&edit.edit.text))
        .collect();
    let deleted: Vec<Location> = candidates()
        .filter_map(one_edit)
        .filter(|edit| edit.operator == Operator::Delete)
        .map(PatchEdit::location)
        .collect();
    candidates()
        .zip(&written)
        .map(|(candidate, mine)| Told {
            constant_or_measure: mine.as_ref().is_some_and(|mine| {
                written
                    .iter()
                    .flatten()
                    .any(|other| other.place == mine.place && other.number != mine.number)
            }),
            needless_removal: placed(candidate, Operator::Swap)
                .is_some_and(|swapped| inserted.contains(&swapped)),
            needless_call: one_edit(candidate).is_some_and(|edit| {
                edit.operator == Operator::Method && deleted.contains(&edit.location())
            }),
            made_up: one_edit(candidate).is_some_and(|edit| {
                edit.edit.text.trim_start().starts_with("unwrap_or")
                    && leaving.iter().any(|other| other.overlaps(edit))
            }),
        })
        .collect()
}

/// A candidate's edit, when it is one.
fn one_edit(candidate: &Candidate) -> Option<&PatchEdit> {
    match candidate.edits() {
        [edit] => Some(edit),
        _ => None,
    }
}

/// Whether code leaves its function: a `return` or a `?` among its tokens
/// (not in a string).
fn leaves(code: &str) -> bool {
    fn any(tokens: proc_macro2::TokenStream) -> bool {
        tokens.into_iter().any(|tree| match tree {
            TokenTree::Ident(ident) => ident == "return",
            TokenTree::Punct(punct) => punct.as_char() == '?',
            TokenTree::Group(group) => any(group.stream()),
            TokenTree::Literal(_) => false,
        })
    }
    code.parse().is_ok_and(any)
}

/// A one-edit candidate's code, its white space made single spaces, and
/// the place (location) it was made at.
#[derive(Debug, PartialEq, Eq)]
struct Placed {
    place: (FileId, u32),
    code: String,
}

/// What `candidate` writes and where, when it is one edit by `operator`.
fn placed(candidate: &Candidate, operator: Operator) -> Option<Placed> {
    one_edit(candidate)
        .filter(|edit| edit.operator == operator)
        .map(|edit| Placed {
            place: (edit.file, edit.line),
            code: edit
                .edit
                .text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        })
}

/// What a one-edit candidate writes at its place: a number, or an
/// expression that reads a variable.
struct Written {
    place: (FileId, usize, usize),
    number: bool,
}

/// What `candidate` writes, when it is one edit writing a number (an
/// integer or a float literal) or an expression that reads a variable.
fn written(candidate: &Candidate) -> Option<Written> {
    let [edit] = candidate.edits() else {
        return None;
    };
    let text = edit.edit.text.trim();
    let number = match syn::parse_str::<syn::Lit>(text) {
        Ok(syn::Lit::Int(_) | syn::Lit::Float(_)) => true,
        Ok(_) => return None,
        Err(_) if free_variables(&syn::parse_str::<syn::Expr>(text).ok()?).is_empty() => {
            return None;
        }
        Err(_) => false,
    };
    let range = &edit.edit.range;
    Some(Written {
        place: (edit.file, range.start, range.end),
        number,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::Edit;
    use crate::evaluate::CandidateOutcome;
    use crate::mutation::PatchEdit;

    fn scored(candidate: Candidate) -> Scored {
        Scored {
            candidate,
            outcome: CandidateOutcome::Tested(Vec::new()),
            fitness: 0.0,
        }
    }

    /// A patch of one edit of `operator`, `range` of the file made `code`.
    fn edit(operator: Operator, range: std::ops::Range<usize>, code: &str, line: u32) -> Scored {
        scored(Candidate::original().with(PatchEdit {
            file: FileId::new(0),
            edit: Edit::replace(range, code),
            operator,
            line,
        }))
    }

    #[test]
    fn a_number_and_a_variable_written_in_the_same_place_are_told() {
        // pulldown-cmark: `scan_space(4)` to `scan_space(3)` and to
        // `scan_space(4 - indent)` passed every test; the second is right.
        let text =
            "fn f(s: &mut S, indent: usize) -> bool {\n    s.scan_space(4) && s.done(2)\n}\n";
        let edit = |old: &str, new: &str| Candidate::replacing(text, old, new, Operator::Value, 2);
        let place = |c: &Candidate| written(c).map(|w| (w.place, w.number));
        let (three, measured) = (place(&edit("4", "3")), place(&edit("4", "4 - indent")));
        assert_eq!(three.map(|t| t.1), Some(true));
        assert_eq!(measured.map(|m| m.1), Some(false));
        assert_eq!(three.map(|t| t.0), measured.map(|m| m.0));
        // Another place, a path that is no variable, a changed operator.
        assert_ne!(place(&edit("2", "1")).map(|p| p.0), three.map(|t| t.0));
        assert!(place(&edit("4", "usize::MAX")).is_none());
        assert!(place(&edit("&&", "||")).is_none());
        let told = of(&[scored(edit("4", "3")), scored(edit("4", "4 - indent"))]);
        assert!(
            told.iter()
                .all(|t| t.constant_or_measure && !t.needless_removal)
        );
        let alone = of(&[scored(edit("4", "3")), scored(edit("2", "1"))]);
        assert!(alone.iter().all(|t| !t.constant_or_measure));
    }

    /// rust-ini: `char::from_u32(c).unwrap()` made `unwrap_or_default()`
    /// passes, and so does the published fix, a `match` whose `None`
    /// returns the parser's error.
    #[test]
    fn a_value_made_up_where_another_patch_leaves_is_told() {
        let text = "fn f(&mut self, c: u32) -> Result<(), E> {\n    self.push(char::from_u32(c).unwrap());\n    Ok(())\n}\n";
        let edit =
            |old: &str, new: &str| scored(Candidate::replacing(text, old, new, Operator::Idiom, 2));
        let default = edit("unwrap()", "unwrap_or_default()");
        let leaves = edit(
            "char::from_u32(c).unwrap()",
            "match char::from_u32(c) { Some(v) => v, None => return self.error(\"?\") }",
        );
        let told = of(&[default.clone(), leaves]);
        assert!(told[0].made_up);
        assert!(!told[1].made_up);
        // Alone, or beside a patch that leaves elsewhere or only in a string.
        assert!(!of(std::slice::from_ref(&default))[0].made_up);
        let elsewhere = edit("Ok(())", "return Ok(())");
        assert!(!of(&[default.clone(), elsewhere])[0].made_up);
        let in_a_string = edit("char::from_u32(c).unwrap()", "f(\"?\")");
        assert!(!of(&[default, in_a_string])[0].made_up);
    }

    /// csv-core's `reset`: the published fix inserts `self.output_pos = 0;`;
    /// a swap that writes it in place of `self.has_read = false;` passes
    /// too, the removal unchecked.
    #[test]
    fn a_swap_whose_code_an_insert_adds_beside_the_statement_is_told() {
        let text = "fn reset(&mut self) {\n    self.state = 0;\n    self.has_read = false;\n}\n";
        let at = text.find("    self.has_read").unwrap();
        let swap = |line| {
            edit(
                Operator::Swap,
                at + 4..at + 23,
                "self.output_pos = 0;",
                line,
            )
        };
        let insert = |line| edit(Operator::Insert, at..at, "    self.output_pos = 0;\n", line);
        let told = of(&[swap(3), insert(3)]);
        assert!(told[0].needless_removal);
        assert!(!told[1].needless_removal, "the insert removes nothing");
        assert!(!of(&[swap(3)])[0].needless_removal, "alone");
        assert!(
            !of(&[swap(3), insert(2)])[0].needless_removal,
            "inserted elsewhere"
        );
    }

    /// peekmore's `advance_cursor_while`: the published fix deletes
    /// `self.decrement_cursor();`; `self.peek();` in its place passes too.
    #[test]
    fn a_call_replaced_where_deleting_the_statement_passes_is_told() {
        let text = "fn f(&mut self) -> &mut Self {\n    self.decrement_cursor();\n    self\n}\n";
        let at = text.find("    self.decrement").unwrap();
        let call = |line| edit(Operator::Method, at + 9..at + 25, "peek", line);
        let delete = |line| edit(Operator::Delete, at..at + 29, "", line);
        let told = of(&[call(2), delete(2)]);
        assert!(told[0].needless_call);
        assert!(!told[1].needless_call, "the deletion calls nothing");
        assert!(!of(&[call(2)])[0].needless_call, "alone");
        assert!(
            !of(&[call(2), delete(3)])[0].needless_call,
            "deleted elsewhere"
        );
    }
}
