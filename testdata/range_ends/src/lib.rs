/// Whether `year` is one a two-digit year can name: 1950 through 2049.
pub fn two_digit(year: u32) -> bool {
    if year > 2050 || year <= 1950 {
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside() {
        assert!(two_digit(1999));
        assert!(two_digit(2000));
    }

    #[test]
    fn far_outside() {
        assert!(!two_digit(1800));
        assert!(!two_digit(2100));
    }

    #[test]
    fn the_first_and_the_last_year() {
        assert!(two_digit(1950));
        assert!(!two_digit(1949));
        assert!(two_digit(2049));
        assert!(!two_digit(2050));
    }
}
