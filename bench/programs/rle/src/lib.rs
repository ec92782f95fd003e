//! Run-length encoding.
//!
//! The byte codec writes each run as a (count, byte) pair, with runs of at
//! most 255 bytes. The text form writes a run of two or more characters as
//! its length followed by the character (`"aaab"` is `"3ab"`), which only
//! works for text without digits.

use std::fmt;

/// The longest run one (count, byte) pair can hold.
pub const MAX_RUN: usize = 255;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The encoded data does not consist of whole pairs.
    OddLength,
    /// A pair with a count of zero, at this byte offset.
    ZeroRun { offset: usize },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextError {
    /// Digits cannot be compressed: they would read as run lengths.
    Digit(char),
    /// A run length with no character after it.
    DanglingCount(String),
    /// A run length that does not fit in memory.
    BadCount(String),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::OddLength => f.write_str("encoded data ends in the middle of a pair"),
            DecodeError::ZeroRun { offset } => write!(f, "empty run at offset {offset}"),
        }
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Digit(c) => write!(f, "cannot compress the digit {c}"),
            TextError::DanglingCount(n) => write!(f, "run length {n} has no character"),
            TextError::BadCount(n) => write!(f, "bad run length {n}"),
        }
    }
}

impl std::error::Error for DecodeError {}
impl std::error::Error for TextError {}

/// Encodes `data` as (count, byte) pairs.
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 2 + 2);
    let mut bytes = data.iter();
    let Some(&first) = bytes.next() else {
        return out;
    };
    let mut current = first;
    let mut run = 1;
    for &byte in bytes {
        if byte == current && run < MAX_RUN {
            run += 1;
        } else {
            out.push(run as u8);
            out.push(current);
            current = byte;
            run = 1;
        }
    }
    out.push(run as u8);
    out.push(current);
    out
}

/// Decodes (count, byte) pairs.
pub fn decode(encoded: &[u8]) -> Result<Vec<u8>, DecodeError> {
    if encoded.len() % 2 != 0 {
        return Err(DecodeError::OddLength);
    }
    let mut out = Vec::with_capacity(encoded.len());
    for (index, pair) in encoded.chunks_exact(2).enumerate() {
        let (count, byte) = (pair[0] as usize, pair[1]);
        if count == 0 {
            return Err(DecodeError::ZeroRun { offset: index * 2 });
        }
        out.extend(std::iter::repeat(byte).take(count));
    }
    Ok(out)
}

/// The runs of `data`, as (byte, length), without a length limit.
pub fn runs(data: &[u8]) -> Vec<(u8, usize)> {
    let mut runs: Vec<(u8, usize)> = Vec::new();
    for &byte in data {
        match runs.last_mut() {
            Some((last, length)) if *last == byte => *length += 1,
            _ => runs.push((byte, 1)),
        }
    }
    runs
}

/// Size of the encoding over the size of the data (1.0 for empty data).
pub fn ratio(data: &[u8]) -> f64 {
    if data.is_empty() {
        return 1.0;
    }
    encode(data).len() as f64 / data.len() as f64
}

fn push_run(out: &mut String, length: usize, c: char) {
    if length > 1 {
        out.push_str(&length.to_string());
    }
    out.push(c);
}

/// Compresses text: `"aaabcc"` becomes `"3ab2c"`.
pub fn compress_text(text: &str) -> Result<String, TextError> {
    let mut out = String::new();
    let mut chars = text.chars();
    let Some(mut current) = chars.next() else {
        return Ok(out);
    };
    if current.is_ascii_digit() {
        return Err(TextError::Digit(current));
    }
    let mut length = 1;
    for c in chars {
        if c.is_ascii_digit() {
            return Err(TextError::Digit(c));
        }
        if c == current {
            length += 1;
        } else {
            push_run(&mut out, length, current);
            current = c;
            length = 1;
        }
    }
    push_run(&mut out, length, current);
    Ok(out)
}

/// Expands compressed text: `"3ab2c"` becomes `"aaabcc"`.
pub fn expand_text(compressed: &str) -> Result<String, TextError> {
    let chars: Vec<char> = compressed.chars().collect();
    let mut out = String::with_capacity(compressed.len());
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let digits: String = chars[start..i].iter().collect();
        let Some(&c) = chars.get(i) else {
            return Err(TextError::DanglingCount(digits));
        };
        let length = if digits.is_empty() {
            1
        } else {
            digits
                .parse::<usize>()
                .map_err(|_| TextError::BadCount(digits.clone()))?
        };
        out.extend(std::iter::repeat(c).take(length));
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_runs() {
        assert_eq!(encode(b"aaabcc"), [3, b'a', 1, b'b', 2, b'c']);
        assert_eq!(encode(b"x"), [1, b'x']);
        assert_eq!(encode(b""), Vec::<u8>::new());
    }

    #[test]
    fn splits_long_runs() {
        let data = vec![7u8; 600];
        assert_eq!(encode(&data), [255, 7, 255, 7, 90, 7]);
    }

    #[test]
    fn decodes_pairs() {
        assert_eq!(decode(&[2, b'z', 1, b'y']).unwrap(), b"zzy");
        assert_eq!(decode(&[]).unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn rejects_bad_encodings() {
        assert_eq!(decode(&[2, b'z', 1]), Err(DecodeError::OddLength));
        assert_eq!(
            decode(&[1, b'a', 0, b'b']),
            Err(DecodeError::ZeroRun { offset: 2 })
        );
    }

    #[test]
    fn lists_runs() {
        assert_eq!(runs(b"aabccc"), [(b'a', 2), (b'b', 1), (b'c', 3)]);
        assert_eq!(runs(&[0; 300]), [(0, 300)]);
        assert!(runs(b"").is_empty());
    }

    #[test]
    fn ratios() {
        assert_eq!(ratio(b""), 1.0);
        assert_eq!(ratio(b"aaaa"), 0.5);
        assert_eq!(ratio(b"ab"), 2.0);
    }

    #[test]
    fn compresses_text() {
        assert_eq!(compress_text("aaabcc").unwrap(), "3ab2c");
        assert_eq!(compress_text("abc").unwrap(), "abc");
        assert_eq!(compress_text("").unwrap(), "");
        assert_eq!(compress_text("zzzzzzzzzzzz").unwrap(), "12z");
    }

    #[test]
    fn refuses_digits() {
        assert_eq!(compress_text("ab1"), Err(TextError::Digit('1')));
        assert_eq!(compress_text("7up"), Err(TextError::Digit('7')));
    }

    #[test]
    fn expands_text() {
        assert_eq!(expand_text("3ab2c").unwrap(), "aaabcc");
        assert_eq!(expand_text("abc").unwrap(), "abc");
        assert_eq!(expand_text("10x").unwrap(), "xxxxxxxxxx");
    }

    #[test]
    fn rejects_dangling_counts() {
        assert_eq!(
            expand_text("2a3"),
            Err(TextError::DanglingCount("3".to_string()))
        );
        assert!(matches!(
            expand_text("99999999999999999999999a"),
            Err(TextError::BadCount(_))
        ));
    }
}
