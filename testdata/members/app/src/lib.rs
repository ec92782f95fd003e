//! What the app prints about a year.

/// A line about `year`'s February.
pub fn february(year: u32) -> String {
    let days = calendar::days_in_month(year, 2);
    if days == 29 {
        format!("February {year} has a leap day")
    } else {
        format!("February {year} has {days} days")
    }
}

/// A line about `year` as a whole.
pub fn summary(year: u32) -> String {
    let days = report::days_in_year(year);
    let new_years_eve = report::day_of_year(year, 12, 31);
    format!("{year}: {days} days, the last is day {new_years_eve}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ordinary_february() {
        assert_eq!(february(2023), "February 2023 has 28 days");
        assert_eq!(february(2024), "February 2024 has a leap day");
    }

    #[test]
    fn a_century_february() {
        assert_eq!(february(1900), "February 1900 has 28 days");
        assert_eq!(february(2000), "February 2000 has a leap day");
    }
}
