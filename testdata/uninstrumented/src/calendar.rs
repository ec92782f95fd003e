//! Gregorian leap years. `tests/calendar.rs` compiles this file into its
//! own crate (`#[path]`), where the crate root has no coverage runtime.

/// Whether `year` is a leap year.
pub fn is_leap(year: u32) -> bool {
    if year % 400 == 0 {
        return true;
    }
    if year % 100 == 0 {
        return true;
    }
    year % 4 == 0
}
