/// Where the record in `bytes` ends: the index of its first zero byte, or
/// its length if it has none. A record with a byte 0xFF before its end is
/// corrupt: `None`.
pub fn record_end(bytes: &[u8]) -> Option<usize> {
    for (i, &b) in bytes.iter().enumerate() {
        if b == 0xFF {
            break;
        }
        if b == 0 {
            return Some(i);
        }
    }
    Some(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_at_the_first_zero() {
        assert_eq!(record_end(&[7, 8, 0, 9, 0]), Some(2));
        assert_eq!(record_end(&[0]), Some(0));
    }

    #[test]
    fn without_a_zero_ends_at_its_length() {
        assert_eq!(record_end(&[7, 8]), Some(2));
        assert_eq!(record_end(&[]), Some(0));
    }

    #[test]
    fn a_corrupt_record_has_no_end() {
        assert_eq!(record_end(&[7, 0xFF, 0]), None);
        assert_eq!(record_end(&[0xFF]), None);
    }
}
