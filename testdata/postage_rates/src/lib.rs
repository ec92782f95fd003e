//! Postage for parcels: a base price, a price per started step of extra
//! weight, a weight limit, and a discount for many parcels.

mod rates {
    /// Grams the base price covers.
    pub const BASE_GRAMS: u32 = 500;
    /// Cents per started 100 g beyond the base.
    pub const PER_STEP: u32 = 40;
}

/// The base price, in cents.
pub const BASE_PRICE: u32 = 450;
/// Parcels heavier than this are refused.
const LIMIT_GRAMS: u32 = 20_000;
/// How many discount tiers there are.
const TIERS: usize = 3;
/// At least so many parcels: so many percent off.
const DISCOUNTS: [(u32, u32); TIERS] = [(10, 5), (50, 10), (100, 15)];

/// The postage of one parcel, in cents; `None` if it is too heavy.
pub fn cost(grams: u32) -> Option<u32> {
    if grams > LIMIT_GRAMS {
        return None;
    }
    let extra = grams.saturating_sub(rates::BASE_GRAMS - 100);
    let steps = extra.div_ceil(100);
    Some(BASE_PRICE + steps * rates::PER_STEP)
}

/// Why a parcel of `grams` is refused, if it is.
pub fn refusal(grams: u32) -> Option<String> {
    match grams {
        0..=LIMIT_GRAMS => None,
        _ => Some(format!("{grams} g is over the limit of {LIMIT_GRAMS} g")),
    }
}

/// The percentage off for sending `parcels` at once.
pub fn discount(parcels: u32) -> u32 {
    let reached = |tier: &&(u32, u32)| parcels >= tier.0;
    DISCOUNTS.iter().rev().find(reached).map_or(0, |&(_, off)| off)
}

/// The postage of all `weights`, discount taken off; `None` if one is too heavy.
pub fn total(weights: &[u32]) -> Option<u32> {
    let sum = weights.iter().map(|&w| cost(w)).sum::<Option<u32>>()?;
    let off = discount(weights.len() as u32);
    Some(sum - sum * off / 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_costs_the_base_price() {
        assert_eq!(cost(20), Some(BASE_PRICE));
    }

    #[test]
    fn the_base_weight_costs_the_base_price() {
        assert_eq!(cost(rates::BASE_GRAMS), Some(450));
    }

    #[test]
    fn each_started_step_costs_more() {
        assert_eq!(cost(501), Some(490));
        assert_eq!(cost(650), Some(530));
    }

    #[test]
    fn too_heavy_parcels_are_refused() {
        assert_eq!(cost(LIMIT_GRAMS), Some(450 + 195 * 40));
        assert_eq!(cost(LIMIT_GRAMS + 1), None);
        assert_eq!(
            refusal(20_001).as_deref(),
            Some("20001 g is over the limit of 20000 g")
        );
        assert_eq!(refusal(20_000), None);
    }

    #[test]
    fn many_parcels_get_a_discount() {
        assert_eq!(discount(9), 0);
        assert_eq!(discount(10), 5);
        assert_eq!(discount(120), 15);
        assert_eq!(total(&[100; 10]), Some(4275));
    }
}
