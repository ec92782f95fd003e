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
    fn greets_and_leaves() {
        // Ends the process whatever the crate does: no edit fixes it.
        assert!(greeting("Ferris").contains("Ferris"));
        std::process::exit(1);
    }

    #[test]
    fn greets_and_leaves_again() {
        assert!(greeting("Crab").contains("Crab"));
        std::process::exit(1);
    }
}
