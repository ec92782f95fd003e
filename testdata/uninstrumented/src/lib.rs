//! Calendar rules, shared with the integration test by `#[path]`.

pub mod calendar;
