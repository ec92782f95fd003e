/// The number of whole tens in `x`, at most 9.
pub fn tens(x: u32) -> u32 {
    if x > 100 {
        return 9;
    }
    x / 10
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small() {
        assert_eq!(tens(5), 0);
    }

    #[test]
    fn just_below_the_cap() {
        assert_eq!(tens(95), 9);
    }

    #[test]
    fn at_the_cap() {
        assert_eq!(tens(100), 9);
    }

    #[test]
    fn far_above() {
        assert_eq!(tens(250), 9);
    }
}
