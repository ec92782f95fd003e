//! A harness of its own, written with libtest-mimic: it answers libtest's
//! `--list` and runs the test it is given by name.

use libtest_mimic::{Arguments, Failed, Trial};

fn check(x: u32, twice: u32) -> Result<(), Failed> {
    let got = custom_harness::double(x);
    if got == twice {
        Ok(())
    } else {
        Err(format!("double({x}) gave {got}, not {twice}").into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let trials = vec![
        Trial::test("doubles_zero", || check(0, 0)),
        Trial::test("doubles_two", || check(2, 4)),
        Trial::test("doubles_three", || check(3, 6)),
        Trial::test("doubles_ten", || check(10, 20)).with_ignored_flag(true),
    ];
    libtest_mimic::run(&args, trials).exit();
}
