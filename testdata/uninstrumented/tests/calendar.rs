#[path = "../src/calendar.rs"]
mod calendar;

#[test]
fn year_2000_is_leap() {
    assert!(calendar::is_leap(2000));
}

#[test]
fn year_1900_is_not_leap() {
    assert!(!calendar::is_leap(1900));
}

#[test]
fn year_2024_is_leap() {
    assert!(calendar::is_leap(2024));
}

#[test]
fn year_2023_is_not_leap() {
    assert!(!calendar::is_leap(2023));
}
