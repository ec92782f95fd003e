/// Why a number does not parse.
#[derive(Debug, PartialEq)]
pub enum ParseError {
    Empty,
    NotADigit(char),
    TooLarge,
}

/// The decimal number `text` as a `u32`.
pub fn parse(text: &str) -> Result<u32, ParseError> {
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut value: u32 = 0;
    for c in text.chars() {
        let digit = c.to_digit(10).ok_or(ParseError::NotADigit(c))?;
        value = value.checked_mul(10).ok_or(ParseError::TooLarge)?;
        value += digit;
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small() {
        assert_eq!(parse("123"), Ok(123));
        assert_eq!(parse("0"), Ok(0));
    }

    #[test]
    fn the_largest() {
        assert_eq!(parse("4294967295"), Ok(u32::MAX));
    }

    #[test]
    fn not_numbers() {
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert_eq!(parse("1x"), Err(ParseError::NotADigit('x')));
    }

    #[test]
    fn too_large_by_a_digit() {
        assert_eq!(parse("42949672950"), Err(ParseError::TooLarge));
    }

    #[test]
    fn too_large_by_the_last_digit() {
        assert_eq!(parse("4294967296"), Err(ParseError::TooLarge));
    }
}
