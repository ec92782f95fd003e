//! Middle values.

/// The median of `values`: the lower of the two middle values for an even
/// count; `None` for no values.
pub fn median(values: &[i64]) -> Option<i64> {
    let mut sorted = values.to_vec();
    let middle = sorted.len().checked_sub(1)? / 2;
    sorted.get(middle).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_values() {
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn one_value() {
        assert_eq!(median(&[7]), Some(7));
    }

    #[test]
    fn sorted_values() {
        assert_eq!(median(&[1, 2, 3]), Some(2));
    }

    #[test]
    fn unsorted_values() {
        assert_eq!(median(&[9, 1, 5]), Some(5));
        assert_eq!(median(&[4, 8, 1, 2]), Some(2));
    }
}
