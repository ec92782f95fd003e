/// `value` clamped into `low..=high`.
pub fn clamp(value: i32, low: i32, high: i32) -> i32 {
    if value < low {
        low
    } else if value > high {
        low
    } else {
        value
    }
}

/// The first word of `text` (all of it if it has no space).
pub fn first_word(text: &str) -> &str {
    match text.find(' ') {
        Some(end) => &text[..end],
        None => &text[..text.len() + 1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_inside() {
        assert_eq!(clamp(5, 0, 10), 5);
    }

    #[test]
    fn clamp_below() {
        assert_eq!(clamp(-3, 0, 10), 0);
    }

    #[test]
    fn clamp_above() {
        assert_eq!(clamp(15, 0, 10), 10);
    }

    #[test]
    fn first_of_two_words() {
        assert_eq!(first_word("hello world"), "hello");
    }

    #[test]
    fn first_of_one_word() {
        assert_eq!(first_word("hello"), "hello");
    }
}
