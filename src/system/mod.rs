//! The system edge: child processes, the terminal, scratch copies.

pub mod console;
pub mod process;
pub mod scratch;
