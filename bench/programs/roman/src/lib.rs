//! Roman numerals between 1 and 3999.
//!
//! Formatting uses the subtractive forms (IV, IX, XL, XC, CD, CM); parsing
//! is strict and only accepts the canonical spelling of a number, so that
//! `"IIII"`, `"VX"` and `"IC"` are rejected.

use std::fmt;
use std::ops::{Add, Sub};
use std::str::FromStr;

/// The largest number with a standard Roman spelling.
pub const MAX: u32 = 3999;

/// Symbols and subtractive pairs, largest first.
const NUMERALS: [(u32, &str); 13] = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Roman(u32);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    OutOfRange(u32),
    Empty,
    InvalidSymbol(char),
    NotCanonical(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::OutOfRange(n) => write!(f, "{n} has no Roman numeral (1 to {MAX})"),
            Error::Empty => f.write_str("empty numeral"),
            Error::InvalidSymbol(c) => write!(f, "{c:?} is not a Roman digit"),
            Error::NotCanonical(s) => write!(f, "{s} is not written the standard way"),
        }
    }
}

impl std::error::Error for Error {}

impl Roman {
    pub fn new(value: u32) -> Result<Roman, Error> {
        if value == 0 || value > MAX {
            return Err(Error::OutOfRange(value));
        }
        Ok(Roman(value))
    }

    pub fn value(self) -> u32 {
        self.0
    }

    /// Adds, or `None` past 3999.
    pub fn checked_add(self, other: Roman) -> Option<Roman> {
        Roman::new(self.0 + other.0).ok()
    }

    /// Subtracts, or `None` at zero and below.
    pub fn checked_sub(self, other: Roman) -> Option<Roman> {
        if other.0 >= self.0 {
            return None;
        }
        Roman::new(self.0 - other.0).ok()
    }
}

impl fmt::Display for Roman {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        let mut out = String::new();
        for &(value, symbol) in NUMERALS.iter() {
            while rest >= value {
                out.push_str(symbol);
                rest -= value;
            }
        }
        f.pad(&out)
    }
}

fn digit_value(c: char) -> Option<u32> {
    let value = match c.to_ascii_uppercase() {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        'C' => 100,
        'D' => 500,
        'M' => 1000,
        _ => return None,
    };
    Some(value)
}

impl FromStr for Roman {
    type Err = Error;

    fn from_str(text: &str) -> Result<Roman, Error> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Error::Empty);
        }
        let mut digits = Vec::with_capacity(text.len());
        for c in text.chars() {
            digits.push(digit_value(c).ok_or(Error::InvalidSymbol(c))?);
        }
        let mut total = 0;
        for i in 0..digits.len() {
            if i + 1 < digits.len() && digits[i] < digits[i + 1] {
                total -= digits[i] as i64;
            } else {
                total += digits[i] as i64;
            }
        }
        if total <= 0 || total > MAX as i64 {
            return Err(Error::NotCanonical(text.to_string()));
        }
        let roman = Roman(total as u32);
        // Only the standard spelling is accepted: "IIII" and "IM" add up to
        // numbers too, but are not how anyone writes them.
        if roman.to_string() != text.to_ascii_uppercase() {
            return Err(Error::NotCanonical(text.to_string()));
        }
        Ok(roman)
    }
}

impl TryFrom<u32> for Roman {
    type Error = Error;

    fn try_from(value: u32) -> Result<Roman, Error> {
        Roman::new(value)
    }
}

impl Add for Roman {
    type Output = Roman;

    /// Panics past 3999, like integer overflow.
    fn add(self, other: Roman) -> Roman {
        self.checked_add(other).expect("Roman numeral overflow")
    }
}

impl Sub for Roman {
    type Output = Roman;

    /// Panics at zero and below.
    fn sub(self, other: Roman) -> Roman {
        self.checked_sub(other).expect("Roman numeral underflow")
    }
}

/// Parses every numeral of a whitespace-separated list, such as a list of
/// chapter numbers, and returns their values.
pub fn parse_list(text: &str) -> Result<Vec<u32>, Error> {
    text.split_whitespace()
        .map(|word| word.trim_matches(|c: char| c == ',' || c == '.'))
        .filter(|word| !word.is_empty())
        .map(|word| word.parse::<Roman>().map(Roman::value))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roman(n: u32) -> String {
        Roman::new(n).unwrap().to_string()
    }

    #[test]
    fn formats_single_symbols() {
        assert_eq!(roman(1), "I");
        assert_eq!(roman(5), "V");
        assert_eq!(roman(10), "X");
        assert_eq!(roman(50), "L");
        assert_eq!(roman(100), "C");
        assert_eq!(roman(500), "D");
        assert_eq!(roman(1000), "M");
    }

    #[test]
    fn formats_subtractive_pairs() {
        assert_eq!(roman(4), "IV");
        assert_eq!(roman(9), "IX");
        assert_eq!(roman(40), "XL");
        assert_eq!(roman(400), "CD");
        assert_eq!(roman(900), "CM");
    }

    #[test]
    fn formats_ninety() {
        assert_eq!(roman(90), "XC");
        assert_eq!(roman(99), "XCIX");
    }

    #[test]
    fn formats_years() {
        assert_eq!(roman(1666), "MDCLXVI");
        assert_eq!(roman(2024), "MMXXIV");
        assert_eq!(roman(1987), "MCMLXXXVII");
    }

    #[test]
    fn formats_with_padding() {
        assert_eq!(format!("{:>6}", Roman::new(12).unwrap()), "   XII");
    }

    #[test]
    fn rejects_out_of_range() {
        assert_eq!(Roman::new(0), Err(Error::OutOfRange(0)));
        assert_eq!(Roman::new(4000), Err(Error::OutOfRange(4000)));
        assert!(Roman::new(3999).is_ok());
    }

    #[test]
    fn parses_simple_numerals() {
        assert_eq!("III".parse::<Roman>().unwrap().value(), 3);
        assert_eq!("VIII".parse::<Roman>().unwrap().value(), 8);
        assert_eq!("mmxx".parse::<Roman>().unwrap().value(), 2020);
    }

    #[test]
    fn parses_subtractive_numerals() {
        assert_eq!("IV".parse::<Roman>().unwrap().value(), 4);
        assert_eq!("XLII".parse::<Roman>().unwrap().value(), 42);
        assert_eq!("MCMXCIV".parse::<Roman>().unwrap().value(), 1994);
    }

    #[test]
    fn rejects_bad_numerals() {
        assert_eq!("".parse::<Roman>(), Err(Error::Empty));
        assert_eq!("XIZ".parse::<Roman>(), Err(Error::InvalidSymbol('Z')));
        assert!(matches!(
            "IIII".parse::<Roman>(),
            Err(Error::NotCanonical(_))
        ));
        assert!(matches!("IC".parse::<Roman>(), Err(Error::NotCanonical(_))));
        assert!(matches!(
            "MMMM".parse::<Roman>(),
            Err(Error::NotCanonical(_))
        ));
    }

    #[test]
    fn checked_arithmetic() {
        let x = Roman::new(10).unwrap();
        let iv = Roman::new(4).unwrap();
        assert_eq!(x.checked_add(iv).unwrap().to_string(), "XIV");
        assert_eq!(x.checked_sub(iv).unwrap().to_string(), "VI");
        assert_eq!(iv.checked_sub(x), None);
        assert_eq!(x.checked_sub(x), None);
        assert_eq!(Roman::new(3990).unwrap().checked_add(x), None);
    }

    #[test]
    fn operators() {
        let a = Roman::new(1000).unwrap();
        let b = Roman::new(1).unwrap();
        assert_eq!((a - b).to_string(), "CMXCIX");
        assert_eq!((a + b + b).to_string(), "MII");
    }

    #[test]
    fn errors_display() {
        assert_eq!(
            Error::OutOfRange(0).to_string(),
            "0 has no Roman numeral (1 to 3999)"
        );
        assert_eq!(
            Error::InvalidSymbol('q').to_string(),
            "'q' is not a Roman digit"
        );
    }
}
