//! The system edge: child processes, the terminal, scratch copies, git.

mod budget;
pub mod cache;
pub mod console;
pub mod git;
mod lock;
pub mod process;
pub mod scratch;
pub use budget::Budget;
pub use lock::Lock;
