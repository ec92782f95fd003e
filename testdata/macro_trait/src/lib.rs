//! A trait whose items a recursive macro writes (as petgraph writes its
//! graph traits), and a generic function over it with a bug: `first`
//! where `last` was meant.

#[macro_use]
mod macros;
pub mod algo;
pub mod graph;
