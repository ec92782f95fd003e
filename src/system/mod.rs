//! The system edge: child processes, the terminal, scratch copies.

pub mod console;
pub mod lock;
pub mod process;
pub mod scratch;
