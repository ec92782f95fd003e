/// Letter postage: up to each weight in grams, the price in cents.
const RATES: [(u32, u32); 4] = [(20, 85), (100, 145), (250, 720), (1000, 510)];

/// The price in cents of a letter of `grams`, or `None` above the last limit.
pub fn price(grams: u32) -> Option<u32> {
    RATES
        .iter()
        .find(|(limit, _)| grams <= *limit)
        .map(|(_, cents)| *cents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postcard() {
        assert_eq!(price(5), Some(85));
    }

    #[test]
    fn a_thick_letter() {
        assert_eq!(price(60), Some(145));
    }

    #[test]
    fn a_small_parcel() {
        assert_eq!(price(200), Some(270));
    }

    #[test]
    fn a_large_parcel() {
        assert_eq!(price(800), Some(510));
    }

    #[test]
    fn too_heavy() {
        assert_eq!(price(1001), None);
    }

    #[test]
    fn dearer_by_weight() {
        let prices: Vec<u32> = [10, 50, 200, 500].iter().filter_map(|&g| price(g)).collect();
        assert!(prices.windows(2).all(|w| w[0] < w[1]), "{prices:?}");
    }
}
