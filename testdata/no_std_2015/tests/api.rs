//! Links the library as it is built outside its own tests: `no_std`.
extern crate no_std_2015;

#[test]
fn a_message_with_its_checksum_verifies() {
    let mut message = b"no_std".to_vec();
    let sum = no_std_2015::fletcher16(&message);
    message.push((sum >> 8) as u8);
    message.push(sum as u8);
    assert!(no_std_2015::verify(&message));
    assert_eq!(sum, 0xE889);
}
