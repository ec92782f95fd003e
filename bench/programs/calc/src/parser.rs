//! Precedence climbing over the tokens of one expression.

use crate::lexer::Token;
use crate::Error;

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Number(f64),
    Var(String),
    Neg(Box<Expr>),
    Binary(char, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

/// Binding power of a binary operator, and whether it groups to the right.
fn precedence(op: char) -> (u8, bool) {
    match op {
        '+' | '-' => (1, false),
        '*' | '/' | '%' => (2, false),
        '^' => (3, true),
        _ => unreachable!("not an operator: {op}"),
    }
}

pub struct Parser<'t> {
    tokens: &'t [Token],
    pos: usize,
}

impl<'t> Parser<'t> {
    pub fn new(tokens: &'t [Token]) -> Parser<'t> {
        Parser { tokens, pos: 0 }
    }

    fn peek(&self) -> Option<&'t Token> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self) -> Option<&'t Token> {
        let token = self.tokens.get(self.pos);
        self.pos += 1;
        token
    }

    fn eat(&mut self, expected: &Token) -> bool {
        if self.peek() == Some(expected) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Parses the whole input as one expression.
    pub fn parse(mut self) -> Result<Expr, Error> {
        let expr = self.expression(0)?;
        match self.peek() {
            None => Ok(expr),
            Some(token) => Err(Error::Unexpected(format!("{token:?}"))),
        }
    }

    fn expression(&mut self, min_precedence: u8) -> Result<Expr, Error> {
        let mut lhs = self.unary()?;
        while let Some(Token::Op(op)) = self.peek() {
            let (precedence, right_assoc) = precedence(*op);
            if precedence < min_precedence {
                break;
            }
            self.pos += 1;
            let next_min = if right_assoc {
                precedence
            } else {
                precedence + 1
            };
            let rhs = self.expression(next_min)?;
            lhs = Expr::Binary(*op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, Error> {
        if self.eat(&Token::Op('-')) {
            // Binds tighter than everything but `^`: -2^2 is -4.
            let operand = self.expression(3)?;
            return Ok(Expr::Neg(Box::new(operand)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, Error> {
        match self.next() {
            Some(Token::Number(value)) => Ok(Expr::Number(*value)),
            Some(Token::Ident(name)) => {
                if !self.eat(&Token::LParen) {
                    return Ok(Expr::Var(name.clone()));
                }
                let mut args = Vec::new();
                if !self.eat(&Token::RParen) {
                    loop {
                        args.push(self.expression(0)?);
                        if self.eat(&Token::RParen) {
                            break;
                        }
                        if !self.eat(&Token::Comma) {
                            return Err(Error::Expected(")"));
                        }
                    }
                }
                Ok(Expr::Call(name.clone(), args))
            }
            Some(Token::LParen) => {
                let inner = self.expression(0)?;
                if !self.eat(&Token::RParen) {
                    return Err(Error::Expected(")"));
                }
                Ok(inner)
            }
            Some(token) => Err(Error::Unexpected(format!("{token:?}"))),
            None => Err(Error::UnexpectedEnd),
        }
    }
}
