use long_test::Inventory;

#[test]
fn an_order_too_large() {
    let mut inventory = Inventory::new();
    inventory.add("gears", 7);
    inventory.add("nuts", 2);
    let ordered = 8;
    assert_eq!(inventory.names().len(), 2);
    assert!(!inventory.remove("gears", ordered), "an order larger than the stock");
}

#[test]
fn an_order_that_fits() {
    let mut inventory = Inventory::new();
    inventory.add("gears", 7);
    assert!(inventory.remove("gears", 7));
}
