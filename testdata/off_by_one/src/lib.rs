/// Whether `values` is sorted in ascending order.
pub fn is_sorted(values: &[i32]) -> bool {
    for i in 1..values.len() - 1 {
        if values[i - 1] > values[i] {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::is_sorted;

    #[test]
    fn ascending() {
        assert!(is_sorted(&[1, 2, 3]));
    }

    #[test]
    fn descending() {
        assert!(!is_sorted(&[3, 2, 1]));
    }

    #[test]
    fn single() {
        assert!(is_sorted(&[5]));
    }

    #[test]
    fn last_pair_out_of_order() {
        assert!(!is_sorted(&[1, 3, 2]));
    }

    #[test]
    fn longer_with_last_pair_out_of_order() {
        assert!(!is_sorted(&[1, 2, 3, 2]));
    }
}
