use std::process::Command;

fn greet(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_greet")).args(args).output().unwrap();
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn greets_the_world() {
    assert_eq!(greet(&[]), "hello, world\n");
}

#[test]
fn greets_by_name() {
    assert_eq!(greet(&["ferris"]), "hello, ferris\n");
}

#[test]
fn shouts() {
    assert_eq!(greet(&["--shout", "ferris"]), "HELLO, FERRIS\n");
}
