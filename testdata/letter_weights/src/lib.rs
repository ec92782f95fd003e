/// The score of `word`: the sum of its letters' weights, `weights[0]` for
/// `a`, `weights[1]` for `b` and so on; a letter the table does not reach
/// weighs nothing.
pub fn score(word: &str, weights: &[u32]) -> u32 {
    let mut total = 0;
    for b in word.bytes() {
        let letter = usize::from(b - b'a');
        total += weights[letter];
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEIGHTS: [u32; 5] = [1, 3, 3, 2, 1];

    #[test]
    fn letters_in_the_table() {
        assert_eq!(score("bad", &WEIGHTS), 6);
        assert_eq!(score("", &WEIGHTS), 0);
    }

    #[test]
    fn repeated_letters() {
        assert_eq!(score("cee", &WEIGHTS), 5);
    }

    #[test]
    fn letters_past_the_table_weigh_nothing() {
        assert_eq!(score("bz", &WEIGHTS), 3);
        assert_eq!(score("zebra", &WEIGHTS), 1 + 3 + 1);
    }
}
