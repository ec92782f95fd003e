/// The value just before position `index` (the one at `index - 1`), or
/// `None` at the start.
pub fn previous(values: &[i32], index: usize) -> Option<i32> {
    if index == 0 {
        return None;
    }
    Some(values[index])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_before_the_start() {
        assert_eq!(previous(&[4, 5, 6], 0), None);
    }

    #[test]
    fn before_the_second() {
        assert_eq!(previous(&[4, 5, 6], 1), Some(4));
    }

    #[test]
    fn before_the_end() {
        assert_eq!(previous(&[4, 5, 6], 3), Some(6));
    }

    #[test]
    fn in_a_long_list() {
        assert_eq!(previous(&[1, 2, 3, 4, 5, 6, 7], 5), Some(5));
    }
}
