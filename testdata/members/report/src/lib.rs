//! Summaries of whole years.

/// The number of days in `year`.
pub fn days_in_year(year: u32) -> u32 {
    (1..=12).map(|month| calendar::days_in_month(year, month)).sum()
}

/// The day of the year (1-based) of `day` in `month`.
pub fn day_of_year(year: u32, month: u32, day: u32) -> u32 {
    let before: u32 = (1..month)
        .map(|m| calendar::days_in_month(year, m))
        .sum();
    before + day
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_common_year() {
        assert_eq!(super::days_in_year(2023), 365);
        assert_eq!(super::day_of_year(2023, 3, 1), 60);
    }
}
