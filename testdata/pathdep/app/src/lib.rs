/// The sum of the squares of `values`.
pub fn sum_of_squares(values: &[i64]) -> i64 {
    let mut total = 0;
    for (index, value) in values.iter().enumerate() {
        if index > 0 {
            total += helper::square(*value);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::sum_of_squares;

    #[test]
    fn empty() {
        assert_eq!(sum_of_squares(&[]), 0);
    }

    #[test]
    fn several() {
        assert_eq!(sum_of_squares(&[1, 2, 3]), 14);
    }
}
