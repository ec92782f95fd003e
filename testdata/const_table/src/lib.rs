/// Days in each month of a common year.
const DAYS: [u32; 12] = [
    31, 28, 31, 31, 31, 30, //
    31, 31, 30, 31, 30, 31,
];

/// The days in month `month` (1 to 12) of a common year.
pub fn days_in(month: usize) -> u32 {
    DAYS[month - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn january() {
        assert_eq!(days_in(1), 31);
    }

    #[test]
    fn february() {
        assert_eq!(days_in(2), 28);
    }

    #[test]
    fn april() {
        assert_eq!(days_in(4), 30);
    }

    #[test]
    fn december() {
        assert_eq!(days_in(12), 31);
    }

    #[test]
    fn a_year() {
        assert_eq!((1..=12).map(days_in).sum::<u32>(), 365);
    }
}
