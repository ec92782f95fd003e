#[test]
fn a_common_year() {
    assert_eq!(app::summary(2023), "2023: 365 days, the last is day 365");
}

#[test]
fn a_leap_year() {
    assert_eq!(app::summary(2024), "2024: 366 days, the last is day 366");
}

#[test]
fn the_year_two_thousand() {
    assert_eq!(app::summary(2000), "2000: 366 days, the last is day 366");
}

#[test]
fn the_year_nineteen_hundred() {
    assert_eq!(app::summary(1900), "1900: 365 days, the last is day 365");
}
