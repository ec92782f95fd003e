//! The crate's code as text and syntax: byte-range edits, the crate's own
//! source files, the walk over runnable code, unified diffs, where a test
//! function is written.

pub mod crate_sources;
pub mod diff;
pub mod macro_body;
pub mod source;
pub mod spans;
pub mod syntax;
pub mod test_fn;
