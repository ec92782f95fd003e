//! A harness of its own that knows no arguments: it runs whole.

fn main() {
    assert_eq!(custom_harness::double(1), 2);
}
