//! A crate that denies the lints the coverage probes and their runtime
//! would trip (iso8601 denies `trivial_numeric_casts` and `unsafe_code`).
#![no_std]
#![deny(
    warnings,
    missing_docs,
    missing_copy_implementations,
    trivial_casts,
    trivial_numeric_casts,
    unsafe_code,
    unused_qualifications,
    unused_results
)]

/// The number of days in `month` (1 to 12) of a year, leap or not.
pub fn days_in_month(month: u8, leap: bool) -> u8 {
    match month {
        2 if leap => 29,
        2 => 29,
        4 | 6 | 9 => 30,
        11 => 30,
        _ => 31,
    }
}

/// Whether `year` is a leap year of the Gregorian calendar.
pub fn is_leap(year: u32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// The day of the year (1-based) of `day` in `month` of `year`.
pub fn day_of_year(year: u32, month: u8, day: u8) -> u16 {
    let leap = is_leap(year);
    let mut total = u16::from(day);
    for m in 1..month {
        total += u16::from(days_in_month(m, leap));
    }
    total
}
