//! The crate's code as text and syntax: byte-range edits, the crate's own
//! source files, the walk over runnable code, unified diffs, where a test
//! function is written.

mod crate_sources;
mod diff;
mod macro_body;
pub mod source;
mod spans;
mod syntax;
mod test_fn;
#[cfg(test)]
pub use crate_sources::SourceFile;
pub use crate_sources::{
    CrateSources, Originals, files_outside, is_test_code, read_crate_sources, test_line_ranges,
};
pub use diff::{FileChange, changed_lines, first_change, hunk_edits, parse_diff, unified_diff};
pub use macro_body::{MacroSite, PLACEHOLDER, macro_rules};
pub use spans::{Span, Spans};
pub use syntax::{
    Code, EnclosingStatement, Mention, RunnableCode, Scope, branch_values, closure_parameters,
    free_variables, has_let, header, is_comparison, is_compound_assignment, let_bindings,
    macro_arguments, may_call, mentions, pattern_bindings, self_field, start_line,
    variable_occurrences, variables_used, walk_runnable_code, without_spaces, words,
};
pub use test_fn::{TestFunction, find_test_function, line_at};
