//! Whether a patch answers the crash: the edit the failing tests' panic
//! calls for (checked or saturating arithmetic for an overflow, a
//! bounds-safe access or a guard for an index out of bounds...), at the
//! line where they panicked, on what panicked. Such a fix reads as usual
//! as a one-token slip, and the new code it writes is not held against it.

use std::collections::BTreeSet;

use crate::code::{CrateSources, Panicking, operand_names, words};
use crate::localize::{Crash, PanicKind};
use crate::mutation::{Candidate, Operator};

/// Whether the candidate makes, at the line where the failing tests
/// panicked, the edit that kind of panic calls for (checked or saturating
/// arithmetic for an overflow, a bounds-safe access or a guard for an index
/// out of bounds...) on what panicked: a guard must name one of `operands`
/// (see [`crash_operands`]) where there are some (`if self.pattern.is_empty()`
/// before `self.pattern[i]`, not `if input.is_empty()`); for a failed
/// assertion, the asserted precondition checked by the caller that broke it
/// (see `sites::preconditions`). Such a fix reads as usual as a one-token
/// slip.
pub fn answers(candidate: &Candidate, crash: Option<&Crash>, operands: &BTreeSet<String>) -> bool {
    let Some(crash) = crash else {
        return false;
    };
    let fixes = fixes(crash.kind);
    candidate.edits().iter().any(|e| {
        // An assertion a caller broke: the precondition checked there
        // (the `precondition` operator writes nothing else).
        if e.operator == Operator::Precondition {
            return crash.kind == PanicKind::Assertion;
        }
        e.location() == crash.location
            && fixes.contains(&e.operator)
            // The other fixes rewrite the panicking operation itself.
            && (e.operator != Operator::Guard
                || operands.is_empty()
                || words(guard_condition(&e.edit.text)).any(|w| operands.contains(w)))
    })
}

/// The operators whose edits a kind of panic calls for at its line (none
/// for an assertion's, which says what is wrong, not how it went wrong).
pub fn fixes(kind: PanicKind) -> &'static [Operator] {
    match kind {
        PanicKind::Overflow => &[Operator::Overflow, Operator::Idiom],
        PanicKind::Index => &[Operator::Bounds, Operator::Guard],
        PanicKind::Unwrap => &[Operator::Idiom, Operator::Guard],
        PanicKind::Division => &[Operator::Guard],
        PanicKind::Assertion | PanicKind::Other => &[],
    }
}

/// The names the operation that panicked works on, and those its locals
/// were computed from (see `code::operand_names`): what a guard answering
/// the crash tests.
pub fn crash_operands(crash: Option<&Crash>, sources: &CrateSources) -> BTreeSet<String> {
    let Some(crash) = crash else {
        return BTreeSet::new();
    };
    let panicking = match crash.kind {
        PanicKind::Index => Panicking::Index,
        PanicKind::Unwrap => Panicking::Unwrap,
        PanicKind::Division => Panicking::Division,
        PanicKind::Overflow | PanicKind::Assertion | PanicKind::Other => return BTreeSet::new(),
    };
    let file = &sources.get(crash.location.file).syntax;
    operand_names(file, crash.location.line, panicking)
}

/// The condition of a guard's text (`if COND { return V; }`): what it
/// tests, not what it returns.
fn guard_condition(guard: &str) -> &str {
    let guard = guard.trim_start();
    let condition = guard.strip_prefix("if ").unwrap_or(guard);
    condition.split_once(" {").map_or(condition, |(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::{FileId, Location};

    #[test]
    fn a_guard_answers_a_crash_when_it_names_what_panicked() {
        let text = "fn f(&self) -> bool {\n    self.pattern[pattern_idx].next_char.is_none()\n}\n";
        let sources = CrateSources::of_one_file(text);
        let crash = Crash {
            location: Location::new(FileId::new(0), 2),
            kind: PanicKind::Index,
        };
        let operands = crash_operands(Some(&crash), &sources);
        let answers = |candidate: &Candidate| answers(candidate, Some(&crash), &operands);
        let guard = |condition: &str| {
            let written = format!("    if {condition} {{ return true; }}\n    self");
            Candidate::replacing(text, "    self", &written, Operator::Guard, 2)
        };
        assert!(answers(&guard("self.pattern.is_empty()")));
        assert!(answers(&guard("pattern_idx >= self.pattern.len()")));
        assert!(!answers(&guard("input.is_empty()")));
        // What it returns does not count, only what it tests.
        let returning = "    if input.is_empty() { return self.pattern.len(); }\n    self";
        let returning = Candidate::replacing(text, "    self", returning, Operator::Guard, 2);
        assert!(!answers(&returning));
        // A bounds-safe access rewrites the operation itself.
        let bounds = Candidate::replacing(
            text,
            "self.pattern[pattern_idx]",
            "self.pattern.get(pattern_idx)",
            Operator::Bounds,
            2,
        );
        assert!(answers(&bounds));
        let elsewhere = Crash {
            location: Location::new(FileId::new(0), 3),
            ..crash
        };
        assert!(!super::answers(
            &guard("self.pattern.is_empty()"),
            Some(&elsewhere),
            &crash_operands(Some(&elsewhere), &sources)
        ));
        // A guard may name what the value that panicked was made of.
        let made = "fn prev(&self, chunk: &str, start: usize) -> Option<char> {\n    let mut iter = chunk[..self.offset - start].chars();\n    let ch = iter.next().unwrap();\n    Some(ch)\n}\n";
        let unwrap = Crash {
            location: Location::new(FileId::new(0), 3),
            kind: PanicKind::Unwrap,
        };
        let operands = crash_operands(Some(&unwrap), &CrateSources::of_one_file(made));
        let written = "    if self.offset == start { return None; }\n    let ch";
        let guard_above = Candidate::replacing(made, "    let ch", written, Operator::Guard, 3);
        assert!(super::answers(&guard_above, Some(&unwrap), &operands));
        // A precondition checked by its caller answers the assertion that
        // failed in the function called, and only that kind of panic.
        let checked = Candidate::replacing(made, "    let ch", written, Operator::Precondition, 3);
        let asserted = Crash {
            location: Location::new(FileId::new(1), 38),
            kind: PanicKind::Assertion,
        };
        assert!(super::answers(&checked, Some(&asserted), &BTreeSet::new()));
        assert!(!super::answers(&checked, Some(&unwrap), &operands));
    }
}
