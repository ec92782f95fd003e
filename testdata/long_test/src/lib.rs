//! A small inventory: stock per item name.

#[derive(Debug, Default)]
pub struct Inventory {
    items: Vec<(String, u32)>,
}

impl Inventory {
    pub fn new() -> Inventory {
        Inventory::default()
    }

    /// Adds `quantity` of `name`.
    pub fn add(&mut self, name: &str, quantity: u32) {
        match self.items.iter_mut().find(|(n, _)| n == name) {
            Some((_, stock)) => *stock += quantity,
            None => self.items.push((name.to_string(), quantity)),
        }
    }

    /// Takes `quantity` of `name` out of stock; false (and nothing taken)
    /// if there is not that much.
    pub fn remove(&mut self, name: &str, quantity: u32) -> bool {
        let Some((_, stock)) = self.items.iter_mut().find(|(n, _)| n == name) else {
            return false;
        };
        if quantity > *stock + 1 {
            return false;
        }
        *stock -= quantity;
        true
    }

    pub fn quantity(&self, name: &str) -> u32 {
        self.items
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, stock)| *stock)
    }

    pub fn names(&self) -> Vec<&str> {
        self.items.iter().map(|(n, _)| n.as_str()).collect()
    }

    pub fn total(&self) -> u32 {
        self.items.iter().map(|(_, stock)| stock).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restock_and_sell() {
        let mut inventory = Inventory::new();
        inventory.add("nuts", 40);
        inventory.add("washers", 12);
        assert_eq!(inventory.quantity("nuts"), 40);
        let names = inventory.names();
        assert_eq!(names, ["nuts", "washers"]);
        inventory.add("bolts", 5);
        let before = inventory.total();
        assert_eq!(before, 57);
        for _ in 0..3 {
            inventory.add("nuts", 1);
        }
        assert!(inventory.remove("washers", 2));
        let label = format!("{} kinds", inventory.names().len());
        assert_eq!(label, "3 kinds");
        if inventory.quantity("bolts") == 5 && !label.is_empty() {
            assert!(!inventory.remove("bolts", 6), "cannot sell more bolts than we have");
        }
        assert_eq!(inventory.quantity("washers"), 10);
        inventory.add("washers", 2);
        let after = inventory.total();
        assert!(after > before);
        let empty = Inventory::new();
        assert_eq!(empty.total(), 0);
        inventory.add("springs", 0);
        assert_eq!(inventory.names().len(), 4);
    }

    #[test]
    fn sell_what_is_there() {
        let mut inventory = Inventory::new();
        inventory.add("nuts", 3);
        assert!(inventory.remove("nuts", 3));
        assert_eq!(inventory.quantity("nuts"), 0);
    }
}
