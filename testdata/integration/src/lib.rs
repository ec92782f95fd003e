/// Counts the words of `text`, separated by whitespace.
pub fn word_count(text: &str) -> usize {
    let mut count = 0;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_whitespace() {
            in_word = false;
        } else if !in_word {
            in_word = true;
        }
    }
    count += usize::from(in_word);
    count
}
