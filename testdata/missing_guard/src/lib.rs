/// The average of `values`, rounded down; 0 for no values.
pub fn average(values: &[u32]) -> u32 {
    let total: u32 = values.iter().sum();
    total / values.len() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_one() {
        assert_eq!(average(&[7]), 7);
    }

    #[test]
    fn of_three() {
        assert_eq!(average(&[1, 2, 6]), 3);
    }

    #[test]
    fn rounded_down() {
        assert_eq!(average(&[1, 2]), 1);
    }

    #[test]
    fn of_none() {
        assert_eq!(average(&[]), 0);
    }
}
