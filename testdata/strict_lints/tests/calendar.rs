use strict_lints::{day_of_year, days_in_month, is_leap};

#[test]
fn months_have_their_days() {
    assert_eq!(days_in_month(1, false), 31);
    assert_eq!(days_in_month(2, false), 28);
    assert_eq!(days_in_month(2, true), 29);
    assert_eq!(days_in_month(4, false), 30);
    assert_eq!(days_in_month(12, false), 31);
}

#[test]
fn leap_years() {
    assert!(is_leap(2024));
    assert!(!is_leap(1900));
    assert!(is_leap(2000));
}

#[test]
fn days_of_the_year() {
    assert_eq!(day_of_year(2023, 1, 1), 1);
    assert_eq!(day_of_year(2023, 3, 1), 60);
    assert_eq!(day_of_year(2024, 12, 31), 366);
}
