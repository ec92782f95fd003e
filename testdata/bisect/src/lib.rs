//! Prices with a discount and a tax, for the shop's receipts.

/// The price after a discount of `percent` (0 to 100).
pub fn discounted(price: u32, percent: u32) -> u32 {
    let off = price * percent / 100;
    price - off
}

/// Whether an order of `items` ships free.
pub fn ships_free(items: u32) -> bool {
    items > 3
}

/// The tax on `price`, rounded down.
pub fn tax(price: u32) -> u32 {
    let rate = 8;
    price * rate / 100
}

/// The label printed on the receipt.
pub fn label(name: &str) -> String {
    format!("Item: {name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_percent_off() {
        assert_eq!(discounted(200, 10), 180);
    }

    #[test]
    fn three_items_ship_free() {
        assert!(ships_free(3));
        assert!(!ships_free(2));
    }

    #[test]
    fn tax_is_eight_percent() {
        assert_eq!(tax(250), 20);
    }

    #[test]
    fn labels_name_the_item() {
        assert!(label("pen").contains("pen"));
    }
}
