//! Prints character classes back as pattern syntax.

/// A class of characters or of bytes, as inclusive ranges.
pub enum Class {
    Unicode(Vec<(char, char)>),
    Bytes(Vec<(u8, u8)>),
}

/// The class as a pattern: `[a-z]`, `(?-u:[\x00-\x7F])`. A class that
/// matches nothing prints as `[a&&b]`, which parses back to one.
pub fn print(class: &Class) -> String {
    let mut out = String::new();
    match class {
        Class::Unicode(ranges) => {
            if ranges.is_empty() {
                return "[a&&b]".to_string();
            }
            out.push('[');
            for &(start, end) in ranges {
                out.push(start);
                if start != end {
                    out.push('-');
                    out.push(end);
                }
            }
            out.push(']');
        }
        Class::Bytes(ranges) => {
            out.push_str("(?-u:[");
            for &(start, end) in ranges {
                out.push_str(&format!("\\x{start:02X}"));
                if start != end {
                    out.push_str(&format!("-\\x{end:02X}"));
                }
            }
            out.push_str("])");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_ranges() {
        assert_eq!(print(&Class::Unicode(vec![('a', 'z'), ('_', '_')])), "[a-z_]");
    }

    #[test]
    fn empty_unicode_class() {
        assert_eq!(print(&Class::Unicode(vec![])), "[a&&b]");
    }

    #[test]
    fn byte_ranges() {
        assert_eq!(
            print(&Class::Bytes(vec![(0, 0x7F), (0xFF, 0xFF)])),
            "(?-u:[\\x00-\\x7F\\xFF])"
        );
    }

    #[test]
    fn empty_byte_class() {
        assert_eq!(print(&Class::Bytes(vec![])), "[a&&b]");
    }
}
