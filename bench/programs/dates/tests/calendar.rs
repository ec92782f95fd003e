use dates::{days_in_year, Date, Weekday};

#[test]
fn epoch_days_round_trip_over_four_centuries() {
    let start = Date::new(1900, 1, 1).unwrap().days_since_epoch();
    let mut previous: Option<Date> = None;
    for days in (start..start + 146_097).step_by(91) {
        let date = Date::from_days_since_epoch(days);
        assert_eq!(date.days_since_epoch(), days, "{date}");
        assert_eq!(date.weekday(), Weekday::Monday, "{date}");
        if let Some(previous) = previous {
            assert!(previous < date);
        }
        previous = Some(date);
    }
}

#[test]
fn ordinals_round_trip_in_leap_and_common_years() {
    for year in [1900, 2000, 2023, 2024] {
        for ordinal in 1..=days_in_year(year) {
            let date = Date::from_ordinal(year, ordinal).unwrap();
            assert_eq!(date.ordinal(), ordinal, "{date}");
        }
    }
}

#[test]
fn every_month_has_its_last_day() {
    for month in 1..=12 {
        let first = Date::new(2023, month, 1).unwrap();
        let last = first.end_of_month();
        assert_eq!(last.add_days(1).day(), 1, "{last}");
        assert_eq!(first.days_until(&last) + 1, last.day() as i64);
    }
}

#[test]
fn billing_dates_clamp_to_the_month_end() {
    let start = Date::new(2024, 1, 31).unwrap();
    let dates: Vec<String> = (0..4).map(|m| start.add_months(m).to_string()).collect();
    assert_eq!(
        dates,
        ["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"]
    );
}
