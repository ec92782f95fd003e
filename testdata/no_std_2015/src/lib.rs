//! A `no_std` crate of edition 2015: paths in `use` start at the crate
//! root, where std is not.
#![no_std]

#[cfg(test)]
#[macro_use]
extern crate std;

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
    fletcher16(body) == ((tail[0] as u16) << 8 | tail[1] as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

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
    fn a_message_verifies() {
        let mut message: Vec<u8> = b"abcde".to_vec();
        message.extend_from_slice(&[0xC8, 0xF0]);
        assert!(verify(&message));
    }
}
