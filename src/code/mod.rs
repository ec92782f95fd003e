//! The crate's code as text and syntax: byte-range edits, the crate's own
//! source files, the walk over runnable code (its scopes; the variables,
//! control flow and tokens of code), unified diffs, where a test
//! function is written, how usual an edit reads (a token model), where
//! code panics, which private fields the code reads.

mod alike;
mod const_calls;
mod control;
mod crate_sources;
mod degenerate;
#[cfg(test)]
mod degenerate_tests;
mod diff;
mod fields;
mod laws;
mod layout;
mod macro_body;
mod naturalness;
mod no_op;
mod panics;
mod scope;
pub mod source;
mod spans;
mod test_fn;
mod tokens;
mod unparsable;
mod variables;
mod walk;
pub use alike::{body_from, function_around, line_of, lines_alike, same_place};
pub use const_calls::{KeepConst, made_const};
pub use control::{branch_values, has_let, header, may_call};
#[cfg(test)]
pub use crate_sources::SourceFile;
pub use crate_sources::{
    CrateSources, Originals, files_outside, function_lines, is_test_code, read_crate_sources,
    test_line_ranges,
};
pub use degenerate::{Degenerate, changes_nothing, made_degenerate};
pub use diff::{FileChange, changed_lines, first_change, hunk_edits, parse_diff, unified_diff};
pub use fields::made_unread;
pub use layout::{indentation, outdented};
pub use macro_body::{MacroSite, PLACEHOLDER, macro_rules};
pub use naturalness::{TokenModel, lexed};
pub use no_op::without_neutral_assignments;
pub use panics::{Operation, Panicking, operand_names, operations};
pub use scope::{AfterCheck, EnclosingStatement, GivenTo, Scope};
pub use spans::{Span, Spans};
pub use test_fn::{TestFunction, find_test_function, line_at};
pub use tokens::{
    Mention, identifiers_in, is_comparison, is_compound_assignment, is_keyword, macro_arguments,
    mentions, name_parts, occurrences, outer_names, path_roots, shape, start_line,
    starts_with_zero, text_without_spaces, without_spaces, words,
};
pub use variables::{
    Code, closure_parameters, free_variables, let_bindings, pattern_bindings, self_field,
    variable_occurrences, variables_used,
};
pub use walk::{RunnableCode, arm_body_line, type_name, walk_runnable_code};
