use calc::{eval, Calculator, Error};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn arithmetic() {
    assert_eq!(eval("1 + 2 * 3").unwrap(), 7.0);
    assert_eq!(eval("(1 + 2) * 3").unwrap(), 9.0);
    assert_eq!(eval("2 * 3 + 4 * 5").unwrap(), 26.0);
}

#[test]
fn subtraction_and_division_group_to_the_left() {
    assert_eq!(eval("10 - 3 - 2").unwrap(), 5.0);
    assert_eq!(eval("100 / 10 / 5").unwrap(), 2.0);
    assert_eq!(eval("7 - 2").unwrap(), 5.0);
}

#[test]
fn powers_group_to_the_right() {
    assert_eq!(eval("2 ^ 3 ^ 2").unwrap(), 512.0);
    assert_eq!(eval("2 ^ 10").unwrap(), 1024.0);
}

#[test]
fn negation() {
    assert_eq!(eval("-3 + 5").unwrap(), 2.0);
    assert_eq!(eval("-2 ^ 2").unwrap(), -4.0);
    assert_eq!(eval("4 * -2").unwrap(), -8.0);
}

#[test]
fn remainders() {
    assert_eq!(eval("17 % 5").unwrap(), 2.0);
    assert_eq!(eval("-1 % 5").unwrap(), 4.0);
}

#[test]
fn functions() {
    assert_eq!(eval("sqrt(16) + abs(-2)").unwrap(), 6.0);
    assert_eq!(eval("max(1, 7, 3)").unwrap(), 7.0);
    assert_eq!(eval("min(4, 2 * 3)").unwrap(), 4.0);
    assert!(close(eval("hypot(3, 4)").unwrap(), 5.0));
    assert_eq!(eval("round(2.5)").unwrap(), 3.0);
}

#[test]
fn errors() {
    assert_eq!(eval("1 / 0"), Err(Error::DivisionByZero));
    assert_eq!(eval("1 +"), Err(Error::UnexpectedEnd));
    assert_eq!(eval("(1 + 2"), Err(Error::Expected(")")));
    assert_eq!(eval("y + 1"), Err(Error::UnknownVariable("y".into())));
    assert_eq!(eval("foo(1)"), Err(Error::UnknownFunction("foo".into())));
    assert_eq!(
        eval("sqrt(1, 2)"),
        Err(Error::Arity {
            name: "sqrt".into(),
            expected: 1,
            got: 2
        })
    );
    assert!(matches!(eval("1 2"), Err(Error::Unexpected(_))));
}

#[test]
fn variables() {
    let mut calc = Calculator::new();
    calc.eval_line("price = 40").unwrap();
    calc.eval_line("tax_rate = 0.25").unwrap();
    let total = calc.eval_line("price * (1 + tax_rate)").unwrap();
    assert_eq!(total, 50.0);
    assert_eq!(calc.get("price"), Some(40.0));
}

#[test]
fn previous_answer() {
    let mut calc = Calculator::new();
    calc.eval_line("6 * 7").unwrap();
    assert_eq!(calc.eval_line("ans / 2").unwrap(), 21.0);
    assert_eq!(calc.get("ans"), Some(21.0));
}

#[test]
fn compound_interest() {
    let mut calc = Calculator::new();
    for line in ["principal = 1000", "rate = 0.05", "years = 3"] {
        calc.eval_line(line).unwrap();
    }
    let amount = calc
        .eval_line("round(principal * (1 + rate) ^ years * 100) / 100")
        .unwrap();
    assert!(close(amount, 1157.63), "{amount}");
}
