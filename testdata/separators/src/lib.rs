/// Splits `text` into words at spaces and commas.
pub fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c == ' ' {
            if !current.is_empty() {
                words.push(current.clone());
                current.clear();
            }
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// How many words `text` has.
pub fn count(text: &str) -> usize {
    words(text).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_separate() {
        assert_eq!(words("to be"), ["to", "be"]);
    }

    #[test]
    fn runs_of_spaces_count_once() {
        assert_eq!(count("  a   b "), 2);
    }

    #[test]
    fn empty_text_has_no_words() {
        assert_eq!(count(""), 0);
    }

    #[test]
    fn commas_separate() {
        assert_eq!(words("a,b c"), ["a", "b", "c"]);
    }
}
