/// The price in cents after taking `percent` off.
pub fn discounted(price: u32, percent: u32) -> u32 {
    let discount = price * percent / 100;
    let rest = price + discount;
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_percent_off() {
        assert_eq!(discounted(200, 10), 180);
    }

    #[test]
    fn nothing_off() {
        assert_eq!(discounted(200, 0), 200);
    }

    #[test]
    fn free_stays_free() {
        assert_eq!(discounted(0, 50), 0);
    }

    #[test]
    fn half_of_a_cent_rounds_to_nothing() {
        assert_eq!(discounted(1, 50), 1);
    }
}
