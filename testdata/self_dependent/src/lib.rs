/// The sum of the first `n` positive integers, in closed form.
pub fn triangle(n: u64) -> u64 {
    n * (n - 1) / 2
}

#[cfg(test)]
mod tests {
    use super::triangle;

    #[test]
    fn agrees_with_the_previous_version() {
        for n in 1..50 {
            assert_eq!(triangle(n), previous::triangle(n), "n = {n}");
        }
    }

    #[test]
    fn zero() {
        assert_eq!(triangle(0), 0);
    }

    #[test]
    fn one() {
        assert_eq!(triangle(1), 1);
    }
}
