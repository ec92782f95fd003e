#[test]
fn runs_the_binary() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_attribution")).output().unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "12\n");
}
