//! A `no_std` crate: std comes in only for its unit tests.
#![cfg_attr(not(test), no_std)]

/// The Fletcher-16 checksum of `data`.
pub fn fletcher16(data: &[u8]) -> u16 {
    let mut sum1: u16 = 0;
    let mut sum2: u16 = 0;
    for &byte in &data[1..] {
        sum1 = (sum1 + u16::from(byte)) % 255;
        sum2 = (sum2 + sum1) % 255;
    }
    (sum2 << 8) | sum1
}

/// Whether `data` ends with its own Fletcher-16 checksum (big-endian).
pub fn verify(data: &[u8]) -> bool {
    if data.len() < 2 {
        return false;
    }
    let (body, tail) = data.split_at(data.len() - 2);
    fletcher16(body) == u16::from_be_bytes([tail[0], tail[1]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abcde() {
        assert_eq!(fletcher16(b"abcde"), 0xC8F0);
    }

    #[test]
    fn abcdef() {
        assert_eq!(fletcher16(b"abcdef"), 0x2057);
    }

    #[test]
    fn single_byte() {
        assert_eq!(fletcher16(&[1]), 0x0101);
    }

    #[test]
    fn too_short_does_not_verify() {
        assert!(!verify(&[7]));
    }

    #[test]
    fn empty_is_refused() {
        assert!(!verify(&[]));
    }
}
