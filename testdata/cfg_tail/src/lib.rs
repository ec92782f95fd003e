//! A function whose value is one of two `cfg`-gated blocks (as crates
//! write feature-dependent bodies), and a bug beside it: `>` where `>=`
//! was meant.

/// Whether `c` is an ASCII digit.
pub fn is_digit(c: char) -> bool {
    #[cfg(feature = "table")]
    {
        DIGITS.contains(&c)
    }
    #[cfg(not(feature = "table"))]
    {
        c.is_ascii_digit()
    }
}

#[cfg(feature = "table")]
const DIGITS: [char; 10] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/// How many leading characters of `s` are digits, at most `limit`.
pub fn leading_digits(s: &str, limit: usize) -> usize {
    let mut count = 0;
    for c in s.chars() {
        if !is_digit(c) || count > limit {
            break;
        }
        count += 1;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_digits() {
        assert_eq!(leading_digits("abc", 5), 0);
    }

    #[test]
    fn a_limit_of_zero_counts_nothing() {
        assert_eq!(leading_digits("123", 0), 0);
    }

    #[test]
    fn digits_up_to_the_limit() {
        assert_eq!(leading_digits("12345", 3), 3);
    }

    #[test]
    fn digits_then_letters() {
        assert_eq!(leading_digits("12ab", 5), 2);
    }
}
