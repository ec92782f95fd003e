//! Days and years of the Gregorian calendar.

/// Whether `year` has a 29th of February.
pub fn is_leap(year: u32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 != 0)
}

/// The number of days in `month` (1 to 12) of `year`.
pub fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 => {
            if is_leap(year) {
                29
            } else {
                28
            }
        }
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_years() {
        assert!(is_leap(2024));
        assert!(!is_leap(2023));
    }

    #[test]
    fn month_lengths() {
        assert_eq!(days_in_month(2023, 4), 30);
        assert_eq!(days_in_month(2023, 12), 31);
        assert_eq!(days_in_month(2023, 2), 28);
    }
}
