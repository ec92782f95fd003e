/// A greeting for `name`, shouted if `loud`, at most 40 bytes long.
pub fn greeting(name: &str, loud: bool) -> String {
    let trimmed = name.trim();
    let mut text = format!("Hello, {trimmed}!");
    if loud {
        text = text.to_uppercase();
    }
    let length = text.len();
    if length > 40 {
        text.truncate(40);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::greeting;

    #[test]
    fn mentions_the_name() {
        assert!(greeting(" Ferris ", false).contains("Ferris"));
    }

    #[test]
    fn shouts() {
        assert_eq!(greeting("ferris", true), "HELLO, FERRIS!");
    }

    #[test]
    fn says_hi() {
        // Needs a word the crate never uses: no mutation can produce it.
        assert_eq!(greeting("Ferris", false), "Hi, Ferris!");
    }
}
