//! An integration test: another crate, which names the public base price.

use postage_rates::BASE_PRICE;

#[test]
fn no_parcel_costs_less_than_the_base_price() {
    for grams in [1, 100, 400] {
        let cost = postage_rates::cost(grams).unwrap();
        assert!(cost >= BASE_PRICE, "{grams} g cost {cost}, less than {BASE_PRICE}");
    }
}
