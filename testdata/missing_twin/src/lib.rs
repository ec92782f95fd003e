/// The sum of the squares of `values`, and how many there were.
pub fn sum_squares(values: &[i64]) -> (i64, usize) {
    let mut total = 0;
    let mut count = 0;
    for v in values {
        total += v * v;
    }
    (total, count)
}

/// The sum of the cubes of `numbers`, and how many there were.
pub fn sum_cubes(numbers: &[i64]) -> (i64, usize) {
    let mut sum = 0;
    let mut seen = 0;
    for n in numbers {
        sum += n * n * n;
        seen += 1;
    }
    (sum, seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_of_none() {
        assert_eq!(sum_squares(&[]), (0, 0));
    }

    #[test]
    fn squares() {
        assert_eq!(sum_squares(&[1, 2, 3]), (14, 3));
    }

    #[test]
    fn cubes() {
        assert_eq!(sum_cubes(&[1, 2]), (9, 2));
    }

    #[test]
    fn cubes_of_none() {
        assert_eq!(sum_cubes(&[]), (0, 0));
    }
}
