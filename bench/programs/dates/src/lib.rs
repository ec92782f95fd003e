//! Calendar dates in the proleptic Gregorian calendar, without time zones.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

const DAYS_IN_MONTH: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/// Days from the start of the year to the first of each month, in a common year.
const DAYS_BEFORE_MONTH: [u32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

const WEEKDAYS: [Weekday; 7] = [
    Weekday::Monday,
    Weekday::Tuesday,
    Weekday::Wednesday,
    Weekday::Thursday,
    Weekday::Friday,
    Weekday::Saturday,
    Weekday::Sunday,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Date {
    year: i32,
    month: u32,
    day: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DateError {
    InvalidMonth(u32),
    InvalidDay { month: u32, day: u32 },
    Syntax(String),
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DateError::InvalidMonth(m) => write!(f, "no month {m}"),
            DateError::InvalidDay { month, day } => write!(f, "no day {day} in month {month}"),
            DateError::Syntax(s) => write!(f, "cannot read {s:?} as YYYY-MM-DD"),
        }
    }
}

impl std::error::Error for DateError {}

pub fn is_leap_year(year: i32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

pub fn days_in_month(year: i32, month: u32) -> u32 {
    if month == 2 && is_leap_year(year) {
        29
    } else {
        DAYS_IN_MONTH[month as usize - 1]
    }
}

pub fn days_in_year(year: i32) -> u32 {
    if is_leap_year(year) {
        366
    } else {
        365
    }
}

impl Date {
    pub fn new(year: i32, month: u32, day: u32) -> Result<Date, DateError> {
        if !(1..=12).contains(&month) {
            return Err(DateError::InvalidMonth(month));
        }
        if day == 0 || day > days_in_month(year, month) {
            return Err(DateError::InvalidDay { month, day });
        }
        Ok(Date { year, month, day })
    }

    pub fn year(&self) -> i32 {
        self.year
    }

    pub fn month(&self) -> u32 {
        self.month
    }

    pub fn day(&self) -> u32 {
        self.day
    }

    pub fn month_name(&self) -> &'static str {
        MONTH_NAMES[self.month as usize - 1]
    }

    /// The day of the year, from 1 (January 1st) to 366.
    pub fn ordinal(&self) -> u32 {
        let leap_day = if self.month > 2 && is_leap_year(self.year) {
            1
        } else {
            0
        };
        DAYS_BEFORE_MONTH[self.month as usize - 1] + leap_day + self.day
    }

    /// The date of the `ordinal`th day of `year`.
    pub fn from_ordinal(year: i32, ordinal: u32) -> Option<Date> {
        if ordinal == 0 || ordinal > days_in_year(year) {
            return None;
        }
        let mut rest = ordinal;
        let mut month = 1;
        while rest > days_in_month(year, month) {
            rest -= days_in_month(year, month);
            month += 1;
        }
        Some(Date {
            year,
            month,
            day: rest,
        })
    }

    /// Days since 1970-01-01 (negative before).
    pub fn days_since_epoch(&self) -> i64 {
        // Count whole 400-year cycles from year 0 to keep the loop short.
        let years_since_zero = self.year as i64;
        let cycles = years_since_zero.div_euclid(400);
        let year_in_cycle = years_since_zero.rem_euclid(400) as i32;
        let mut days = cycles * 146_097;
        for year in 0..year_in_cycle {
            days += days_in_year(year) as i64;
        }
        days += self.ordinal() as i64 - 1;
        days - 719_528
    }

    pub fn from_days_since_epoch(days: i64) -> Date {
        let days = days + 719_528;
        let cycles = days.div_euclid(146_097);
        let mut rest = days.rem_euclid(146_097) as u32;
        let mut year = 0;
        while rest >= days_in_year(year) {
            rest -= days_in_year(year);
            year += 1;
        }
        let year = (cycles * 400) as i32 + year;
        Date::from_ordinal(year, rest + 1).expect("the rest is within the year")
    }

    pub fn weekday(&self) -> Weekday {
        // 1970-01-01 was a Thursday.
        let index = (self.days_since_epoch() + 3).rem_euclid(7);
        WEEKDAYS[index as usize]
    }

    pub fn add_days(&self, days: i64) -> Date {
        Date::from_days_since_epoch(self.days_since_epoch() + days)
    }

    /// Adds calendar months; the day is clamped to the end of a shorter month
    /// (January 31st plus one month is February 28th or 29th).
    pub fn add_months(&self, months: i32) -> Date {
        let index = self.year * 12 + (self.month as i32 - 1) + months;
        let year = index.div_euclid(12);
        let month = index.rem_euclid(12) as u32 + 1;
        let day = self.day.min(days_in_month(year, month));
        Date { year, month, day }
    }

    /// Days from `self` to `other` (negative if `other` is earlier).
    pub fn days_until(&self, other: &Date) -> i64 {
        other.days_since_epoch() - self.days_since_epoch()
    }

    /// Whole years from `self` to `on`, as in someone's age.
    pub fn years_until(&self, on: &Date) -> i32 {
        let mut years = on.year - self.year;
        if (on.month, on.day) < (self.month, self.day) {
            years -= 1;
        }
        years
    }

    /// The last day of the date's month.
    pub fn end_of_month(&self) -> Date {
        Date {
            day: days_in_month(self.year, self.month),
            ..*self
        }
    }
}

impl PartialOrd for Date {
    fn partial_cmp(&self, other: &Date) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Date {
    fn cmp(&self, other: &Date) -> Ordering {
        (self.year, self.month, self.day).cmp(&(other.year, other.month, other.day))
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Date {
    type Err = DateError;

    fn from_str(text: &str) -> Result<Date, DateError> {
        let syntax = || DateError::Syntax(text.to_string());
        let mut parts = text.trim().splitn(3, '-');
        let year = parts.next().ok_or_else(syntax)?;
        let month = parts.next().ok_or_else(syntax)?;
        let day = parts.next().ok_or_else(syntax)?;
        if year.len() != 4 || month.len() != 2 || day.len() != 2 {
            return Err(syntax());
        }
        let year: i32 = year.parse().map_err(|_| syntax())?;
        let month: u32 = month.parse().map_err(|_| syntax())?;
        let day: u32 = day.parse().map_err(|_| syntax())?;
        Date::new(year, month, day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        text.parse().unwrap()
    }

    #[test]
    fn leap_years() {
        assert!(is_leap_year(2024));
        assert!(is_leap_year(2000));
        assert!(!is_leap_year(1900));
        assert!(!is_leap_year(2023));
    }

    #[test]
    fn month_lengths() {
        assert_eq!(days_in_month(2023, 1), 31);
        assert_eq!(days_in_month(2023, 2), 28);
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(2023, 4), 30);
        assert_eq!(days_in_month(2023, 12), 31);
    }

    #[test]
    fn validates_dates() {
        assert!(Date::new(2023, 2, 29).is_err());
        assert!(Date::new(2024, 2, 29).is_ok());
        assert_eq!(Date::new(2023, 13, 1), Err(DateError::InvalidMonth(13)));
        assert_eq!(
            Date::new(2023, 4, 31),
            Err(DateError::InvalidDay { month: 4, day: 31 })
        );
        assert!(Date::new(2023, 1, 0).is_err());
    }

    #[test]
    fn parses_and_formats() {
        let d = date("2024-03-09");
        assert_eq!((d.year(), d.month(), d.day()), (2024, 3, 9));
        assert_eq!(d.to_string(), "2024-03-09");
        assert_eq!(d.month_name(), "March");
        assert!("2024-3-09".parse::<Date>().is_err());
        assert!("2024/03/09".parse::<Date>().is_err());
        assert!("20x4-03-09".parse::<Date>().is_err());
    }

    #[test]
    fn ordinal_days() {
        assert_eq!(date("2023-01-01").ordinal(), 1);
        assert_eq!(date("2023-02-01").ordinal(), 32);
        assert_eq!(date("2023-12-31").ordinal(), 365);
        assert_eq!(date("2024-12-31").ordinal(), 366);
        assert_eq!(date("2024-03-01").ordinal(), 61);
    }

    #[test]
    fn from_ordinal_days() {
        assert_eq!(Date::from_ordinal(2024, 60), Some(date("2024-02-29")));
        assert_eq!(Date::from_ordinal(2023, 60), Some(date("2023-03-01")));
        assert_eq!(Date::from_ordinal(2023, 366), None);
        assert_eq!(Date::from_ordinal(2023, 0), None);
    }

    #[test]
    fn epoch_days() {
        assert_eq!(date("1970-01-01").days_since_epoch(), 0);
        assert_eq!(date("1970-01-02").days_since_epoch(), 1);
        assert_eq!(date("1969-12-31").days_since_epoch(), -1);
        assert_eq!(date("2000-03-01").days_since_epoch(), 11_017);
        assert_eq!(Date::from_days_since_epoch(19_723), date("2024-01-01"));
    }

    #[test]
    fn weekdays() {
        assert_eq!(date("1970-01-01").weekday(), Weekday::Thursday);
        assert_eq!(date("2024-02-29").weekday(), Weekday::Thursday);
        assert_eq!(date("2023-12-25").weekday(), Weekday::Monday);
        assert_eq!(date("1900-01-01").weekday(), Weekday::Monday);
    }

    #[test]
    fn adds_days() {
        assert_eq!(date("2023-12-31").add_days(1), date("2024-01-01"));
        assert_eq!(date("2024-02-28").add_days(1), date("2024-02-29"));
        assert_eq!(date("2024-03-01").add_days(-1), date("2024-02-29"));
        assert_eq!(date("2023-01-15").add_days(365), date("2024-01-15"));
    }

    #[test]
    fn adds_months() {
        assert_eq!(date("2024-01-31").add_months(1), date("2024-02-29"));
        assert_eq!(date("2023-01-31").add_months(1), date("2023-02-28"));
        assert_eq!(date("2023-11-15").add_months(3), date("2024-02-15"));
        assert_eq!(date("2023-03-15").add_months(-3), date("2022-12-15"));
        assert_eq!(date("2023-05-10").add_months(12), date("2024-05-10"));
        assert_eq!(date("2023-12-31").add_months(2), date("2024-02-29"));
    }

    #[test]
    fn differences() {
        assert_eq!(date("2024-01-01").days_until(&date("2024-12-31")), 365);
        assert_eq!(date("2024-03-01").days_until(&date("2024-02-01")), -29);
    }

    #[test]
    fn ages() {
        let birthday = date("1990-06-15");
        assert_eq!(birthday.years_until(&date("2024-06-14")), 33);
        assert_eq!(birthday.years_until(&date("2024-06-15")), 34);
        assert_eq!(birthday.years_until(&date("2024-12-01")), 34);
    }

    #[test]
    fn month_ends() {
        assert_eq!(date("2024-02-10").end_of_month(), date("2024-02-29"));
        assert_eq!(date("2023-09-01").end_of_month(), date("2023-09-30"));
    }

    #[test]
    fn ordering() {
        assert!(date("2023-12-31") < date("2024-01-01"));
        assert!(date("2024-02-01") > date("2024-01-31"));
    }
}
