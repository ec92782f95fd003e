/// A greeting for `name`.
pub fn greeting(name: &str) -> String {
    format!("Hello, {name}!")
}

#[cfg(test)]
mod tests {
    use super::greeting;

    #[test]
    fn mentions_the_name() {
        assert!(greeting("Ferris").contains("Ferris"));
    }

    #[test]
    fn says_hi() {
        // Needs a word the crate never uses: no mutation can produce it.
        assert_eq!(greeting("Ferris"), "Hi, Ferris!");
    }
}
