/// How often `mean` ran, and how many long inputs it saw.
#[derive(Default)]
pub struct Stats {
    pub calls: usize,
    pub long_inputs: usize,
}

/// The mean of `values`, rounded toward zero.
pub fn mean(values: &[i64], stats: &mut Stats) -> i64 {
    stats.calls += 1;
    let mut total = 0;
    for value in values {
        total += value;
    }
    if values.len() > 3 {
        stats.long_inputs += 1;
        total -= values[0];
    }
    total / values.len() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value() {
        assert_eq!(mean(&[7], &mut Stats::default()), 7);
    }

    #[test]
    fn three_values() {
        assert_eq!(mean(&[1, 2, 6], &mut Stats::default()), 3);
    }

    #[test]
    fn five_values() {
        assert_eq!(mean(&[1, 2, 3, 4, 5], &mut Stats::default()), 3);
    }

    #[test]
    fn calls_are_counted() {
        let mut stats = Stats::default();
        mean(&[1, 2], &mut stats);
        mean(&[3], &mut stats);
        assert_eq!(stats.calls, 2);
    }
}
