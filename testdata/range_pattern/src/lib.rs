//! Which bytes a path may hold unescaped.

/// The longest path accepted.
pub const MAX_LEN: usize = max_len();

const fn max_len() -> usize {
    16
}

/// Whether `byte` may appear in a path as it is: ASCII letters, digits,
/// `/` and `-`, and the bytes of UTF-8 sequences (0x80 and above).
pub fn is_path_byte(byte: u8) -> bool {
    match byte {
        b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' => true,
        0x7F..=0xFF => true,
        _ => false,
    }
}

/// Whether every byte of `path` may appear in a path, and it is not too long.
pub fn is_valid_path(path: &[u8]) -> bool {
    if path.is_empty() || path.len() > MAX_LEN {
        return false;
    }
    let mut i = 0;
    while i < path.len() {
        if !is_path_byte(path[i]) {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_valid() {
        assert!(is_valid_path(b"/a/b-1"));
    }

    #[test]
    fn utf8_paths_are_valid() {
        assert!(is_valid_path("/caf\u{e9}".as_bytes()));
    }

    #[test]
    fn spaces_and_empty_paths_are_not() {
        assert!(!is_valid_path(b"/a b"));
        assert!(!is_valid_path(b""));
    }

    #[test]
    fn long_paths_are_not() {
        assert!(!is_valid_path(b"/aaaaaaaaaaaaaaaaaaaa"));
    }

    #[test]
    fn del_is_not_a_path_byte() {
        assert!(!is_valid_path(&[b'/', 0x7F]));
    }
}
