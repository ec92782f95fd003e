//! Finds where the names of `key = value` lines and `[section]` headers
//! start.

/// A cursor over one line's bytes.
pub struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, at: 0 }
    }

    /// Steps over spaces and tabs.
    pub fn skip_spaces(&mut self) {
        while self.at < self.bytes.len() && matches!(self.bytes[self.at], b' ' | b'\t') {
            self.at += 1;
        }
    }

    /// How many bytes it stepped over.
    pub fn consumed_len(&self) -> usize {
        self.at
    }
}

/// Where the key of a `key = value` line starts, after its indentation.
pub fn key_start(line: &str) -> usize {
    let mut start = 0;
    let mut cursor = Cursor::new(line.as_bytes());
    cursor.skip_spaces();
    start += cursor.consumed_len();
    start
}

/// Where the name of a `[section]` header starts, after `[` and spaces.
pub fn section_start(line: &str) -> usize {
    let mut offset = 1;
    let mut cursor = Cursor::new(&line.as_bytes()[1..]);
    offset += cursor.consumed_len();
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_start_after_the_indentation() {
        assert_eq!(key_start("  a = 1"), 2);
        assert_eq!(key_start("a = 1"), 0);
    }

    #[test]
    fn section_names_start_after_the_spaces() {
        assert_eq!(section_start("[core]"), 1);
        assert_eq!(section_start("[  core]"), 3);
    }
}
