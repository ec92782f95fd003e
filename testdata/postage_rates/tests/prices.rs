//! An integration test: another crate, which names the public base price.

#[test]
fn no_parcel_costs_less_than_the_base_price() {
    for grams in [1, 100, 400] {
        assert!(postage_rates::cost(grams) >= Some(postage_rates::BASE_PRICE));
    }
}
