//! A line calculator with variables: `rate = 0.2`, `price * (1 + rate)`,
//! `max(a, b) ^ 2`.

pub mod lexer;
pub mod parser;

use std::collections::HashMap;
use std::fmt;

use lexer::{tokenize, Token};
use parser::{Expr, Parser};

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    UnexpectedChar {
        c: char,
        at: usize,
    },
    BadNumber(String),
    Unexpected(String),
    UnexpectedEnd,
    Expected(&'static str),
    UnknownVariable(String),
    UnknownFunction(String),
    Arity {
        name: String,
        expected: usize,
        got: usize,
    },
    DivisionByZero,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnexpectedChar { c, at } => write!(f, "unexpected {c:?} at {at}"),
            Error::BadNumber(text) => write!(f, "bad number {text}"),
            Error::Unexpected(token) => write!(f, "unexpected {token}"),
            Error::UnexpectedEnd => f.write_str("unexpected end of input"),
            Error::Expected(what) => write!(f, "expected {what}"),
            Error::UnknownVariable(name) => write!(f, "unknown variable {name}"),
            Error::UnknownFunction(name) => write!(f, "unknown function {name}"),
            Error::Arity {
                name,
                expected,
                got,
            } => write!(f, "{name} takes {expected} arguments, not {got}"),
            Error::DivisionByZero => f.write_str("division by zero"),
        }
    }
}

impl std::error::Error for Error {}

fn apply(op: char, left: f64, right: f64) -> Result<f64, Error> {
    let value = match op {
        '+' => left + right,
        '-' => left - right,
        '*' => left * right,
        '/' if right == 0.0 => return Err(Error::DivisionByZero),
        '/' => left / right,
        '%' if right == 0.0 => return Err(Error::DivisionByZero),
        '%' => left.rem_euclid(right),
        '^' => left.powf(right),
        _ => unreachable!("not an operator: {op}"),
    };
    Ok(value)
}

fn call(name: &str, args: &[f64]) -> Result<f64, Error> {
    let arity = |expected: usize| {
        if args.len() == expected {
            Ok(())
        } else {
            Err(Error::Arity {
                name: name.to_string(),
                expected,
                got: args.len(),
            })
        }
    };
    match name {
        "sqrt" => arity(1).map(|_| args[0].sqrt()),
        "abs" => arity(1).map(|_| args[0].abs()),
        "round" => arity(1).map(|_| args[0].round()),
        "min" => Ok(args.iter().copied().fold(f64::INFINITY, f64::min)),
        "max" => Ok(args.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
        "hypot" => arity(2).map(|_| args[0].hypot(args[1])),
        _ => Err(Error::UnknownFunction(name.to_string())),
    }
}

/// Evaluates lines one after the other; assignments define variables, and
/// `ans` is the value of the previous line.
#[derive(Debug, Default)]
pub struct Calculator {
    vars: HashMap<String, f64>,
}

impl Calculator {
    pub fn new() -> Calculator {
        Calculator::default()
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.vars.get(name).copied()
    }

    pub fn eval_line(&mut self, line: &str) -> Result<f64, Error> {
        let tokens = tokenize(line)?;
        let (target, body) = match tokens.as_slice() {
            [Token::Ident(name), Token::Assign, rest @ ..] => (Some(name.clone()), rest),
            _ => (None, tokens.as_slice()),
        };
        let expr = Parser::new(body).parse()?;
        let value = self.eval(&expr)?;
        if let Some(name) = target {
            self.vars.insert(name, value);
        }
        self.vars.insert("ans".to_string(), value);
        Ok(value)
    }

    pub fn eval(&self, expr: &Expr) -> Result<f64, Error> {
        match expr {
            Expr::Number(value) => Ok(*value),
            Expr::Var(name) => self
                .get(name)
                .ok_or_else(|| Error::UnknownVariable(name.clone())),
            Expr::Neg(inner) => Ok(-self.eval(inner)?),
            Expr::Binary(op, left, right) => {
                let left = self.eval(left)?;
                let right = self.eval(right)?;
                apply(*op, left, right)
            }
            Expr::Call(name, args) => {
                let values = args
                    .iter()
                    .map(|arg| self.eval(arg))
                    .collect::<Result<Vec<f64>, Error>>()?;
                call(name, &values)
            }
        }
    }
}

/// Evaluates one expression without variables.
pub fn eval(line: &str) -> Result<f64, Error> {
    Calculator::new().eval_line(line)
}
