//! Words broken into pieces no wider than a limit, and the widths of the
//! words of a line: iterators returned as `impl Iterator`, as text-layout
//! crates write them.

/// The pieces of `word`, each `width` characters wide but the last, which
/// may be narrower. A width of 0 is taken as 1.
pub fn pieces(word: &str, width: usize) -> impl Iterator<Item = &str> + '_ {
    let width = width.max(1);
    let mut chars = word.char_indices();
    let mut start = 0;
    let mut count = 0;
    std::iter::from_fn(move || {
        for (index, _) in chars.by_ref() {
            if count > width {
                let piece = &word[start..index];
                start = index;
                count = 1;
                return Some(piece);
            }
            count += 1;
        }
        if start < word.len() {
            let piece = &word[start..];
            start = word.len();
            return Some(piece);
        }
        None
    })
}

/// The width in characters of each word of `line` (words are separated by
/// spaces; runs of spaces make no empty words).
pub fn widths(line: &str) -> impl Iterator<Item = usize> + '_ {
    line.split(' ')
        .filter(|word| !word.is_empty())
        .map(|word| word.chars().count())
}

/// The number of pieces of width `width` the words of `line` break into.
pub fn piece_count(line: &str, width: usize) -> usize {
    let mut total = 0;
    for word in line.split(' ').filter(|word| !word.is_empty()) {
        total += pieces(word, width).count();
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(word: &str, width: usize) -> Vec<&str> {
        pieces(word, width).collect()
    }

    #[test]
    fn a_word_breaks_into_equal_pieces() {
        assert_eq!(all("abcdef", 2), ["ab", "cd", "ef"]);
    }

    #[test]
    fn the_last_piece_may_be_narrower() {
        assert_eq!(all("abcde", 2), ["ab", "cd", "e"]);
    }

    #[test]
    fn a_narrow_word_is_one_piece() {
        assert_eq!(all("abc", 5), ["abc"]);
    }

    #[test]
    fn an_empty_word_has_no_pieces() {
        assert!(all("", 3).is_empty());
    }

    #[test]
    fn characters_not_bytes() {
        assert_eq!(all("été", 1), ["é", "t", "é"]);
    }

    #[test]
    fn widths_skip_runs_of_spaces() {
        assert_eq!(widths("a  bb ccc").collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn pieces_of_a_line() {
        assert_eq!(piece_count("abcd ef g", 2), 4);
    }

    #[test]
    fn one_piece_per_narrow_word() {
        assert_eq!(piece_count("a b c", 4), 3);
    }
}
