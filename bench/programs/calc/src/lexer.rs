//! Splits a line of input into tokens.

use crate::Error;

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Number(f64),
    Ident(String),
    Op(char),
    LParen,
    RParen,
    Comma,
    Assign,
}

pub fn tokenize(source: &str) -> Result<Vec<Token>, Error> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let value = text.parse().map_err(|_| Error::BadNumber(text))?;
            tokens.push(Token::Number(value));
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Ident(chars[start..i].iter().collect()));
            continue;
        }
        let token = match c {
            '+' | '-' | '*' | '/' | '%' | '^' => Token::Op(c),
            '(' => Token::LParen,
            ')' => Token::RParen,
            ',' => Token::Comma,
            '=' => Token::Assign,
            _ => return Err(Error::UnexpectedChar { c, at: i }),
        };
        tokens.push(token);
        i += 1;
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_operators() {
        assert_eq!(
            tokenize("12 + 3.5*x").unwrap(),
            vec![
                Token::Number(12.0),
                Token::Op('+'),
                Token::Number(3.5),
                Token::Op('*'),
                Token::Ident("x".into()),
            ]
        );
    }

    #[test]
    fn identifiers_with_underscores_and_digits() {
        assert_eq!(
            tokenize("max_len2 = _a").unwrap(),
            vec![
                Token::Ident("max_len2".into()),
                Token::Assign,
                Token::Ident("_a".into()),
            ]
        );
    }

    #[test]
    fn number_at_the_end() {
        assert_eq!(tokenize("(1)").unwrap().len(), 3);
        assert_eq!(tokenize("x+10").unwrap().last(), Some(&Token::Number(10.0)));
    }

    #[test]
    fn bad_input() {
        assert_eq!(
            tokenize("2 $ 3"),
            Err(Error::UnexpectedChar { c: '$', at: 2 })
        );
        assert_eq!(tokenize("1.2.3"), Err(Error::BadNumber("1.2.3".into())));
    }
}
