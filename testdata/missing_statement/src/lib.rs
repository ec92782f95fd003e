/// Running statistics of a stream of numbers.
#[derive(Debug, Default)]
pub struct Stats {
    count: u32,
    total: u32,
}

impl Stats {
    pub fn new() -> Stats {
        Stats::default()
    }

    /// Adds every value of `values`.
    pub fn add_all(&mut self, values: &[u32]) {
        for value in values {
            self.total += value;
            self.count += 1;
        }
    }

    /// Adds one value.
    pub fn add(&mut self, value: u32) {
        self.total += value;
    }

    /// The mean of the values so far, rounded down.
    pub fn mean(&self) -> Option<u32> {
        if self.count == 0 {
            None
        } else {
            Some(self.total / self.count)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Stats;

    #[test]
    fn empty_has_no_mean() {
        assert_eq!(Stats::new().mean(), None);
    }

    #[test]
    fn mean_of_many() {
        let mut stats = Stats::new();
        stats.add_all(&[2, 4, 6]);
        assert_eq!(stats.mean(), Some(4));
    }

    #[test]
    fn mean_after_adding_one_by_one() {
        let mut stats = Stats::new();
        stats.add(3);
        stats.add(5);
        assert_eq!(stats.mean(), Some(4));
    }
}
