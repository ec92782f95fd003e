//! Counting the long words of a text.

/// How long a word must be to count, and words that always count.
const LIST: (usize, Vec<&str>) = (2, Vec::new());

/// The words of `text` longer than the threshold, and the words that always count.
pub fn long_words(text: &str) -> usize {
    let always = LIST.1.into_iter().count();
    let long = text.split_whitespace().filter(|w| w.len() > LIST.0).count();
    long + always
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none() {
        assert_eq!(long_words(""), 0);
    }

    #[test]
    fn short_words() {
        assert_eq!(long_words("a be"), 0);
    }

    #[test]
    fn some_long_words() {
        assert_eq!(long_words("a bb ccc dddd eeeee"), 2);
    }

    #[test]
    fn four_letters() {
        assert_eq!(long_words("word"), 1);
    }
}
