//! Links the library as it is built outside its own tests: `no_std`.

#[test]
fn a_message_with_its_checksum_verifies() {
    let mut message = b"no_std".to_vec();
    let sum = no_std_fixture::fletcher16(&message);
    message.extend_from_slice(&sum.to_be_bytes());
    assert!(no_std_fixture::verify(&message));
    assert_eq!(sum, 0xE889);
}
