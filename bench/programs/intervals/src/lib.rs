//! Half-open integer intervals `[start, end)` and sets of them, kept sorted
//! and disjoint: a calendar's busy times, the byte ranges of a download, the
//! lines of a file that changed.

use std::cmp::{max, min};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Interval {
    pub start: i64,
    pub end: i64,
}

impl Interval {
    /// `None` if `end` is before `start`.
    pub fn new(start: i64, end: i64) -> Option<Interval> {
        if end < start {
            return None;
        }
        Some(Interval { start, end })
    }

    pub fn len(&self) -> u64 {
        (self.end - self.start) as u64
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn contains(&self, x: i64) -> bool {
        self.start <= x && x < self.end
    }

    /// Whether the two share at least one point.
    pub fn overlaps(&self, other: &Interval) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// Whether the two overlap or meet end to start, so that their union is
    /// one interval.
    pub fn touches(&self, other: &Interval) -> bool {
        self.start <= other.end && other.start <= self.end
    }

    pub fn intersection(&self, other: &Interval) -> Option<Interval> {
        let start = max(self.start, other.start);
        let end = min(self.end, other.end);
        Interval::new(start, end).filter(|i| !i.is_empty())
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {})", self.start, self.end)
    }
}

/// Sorted, disjoint, non-empty intervals that do not touch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IntervalSet {
    intervals: Vec<Interval>,
}

impl IntervalSet {
    pub fn new() -> IntervalSet {
        IntervalSet::default()
    }

    pub fn from_intervals<I: IntoIterator<Item = Interval>>(intervals: I) -> IntervalSet {
        let mut intervals: Vec<Interval> =
            intervals.into_iter().filter(|i| !i.is_empty()).collect();
        intervals.sort();
        IntervalSet {
            intervals: merge_sorted(intervals),
        }
    }

    pub fn intervals(&self) -> &[Interval] {
        &self.intervals
    }

    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// The number of points covered.
    pub fn total_len(&self) -> u64 {
        self.intervals.iter().map(Interval::len).sum()
    }

    pub fn contains(&self, x: i64) -> bool {
        match self.intervals.binary_search_by(|i| i.start.cmp(&x)) {
            Ok(_) => true,
            Err(0) => false,
            Err(index) => self.intervals[index - 1].contains(x),
        }
    }

    /// Adds an interval, merging it with those it touches.
    pub fn insert(&mut self, interval: Interval) {
        if interval.is_empty() {
            return;
        }
        // The intervals that touch the new one are consecutive.
        let first = self.intervals.partition_point(|i| i.end < interval.start);
        let last = self.intervals.partition_point(|i| i.start <= interval.end);
        let mut merged = interval;
        if first < last {
            merged.start = min(merged.start, self.intervals[first].start);
            merged.end = max(merged.end, self.intervals[last - 1].end);
        }
        self.intervals.splice(first..last, [merged]);
    }

    /// Removes every point of `interval`, splitting an interval that
    /// covers it on both sides.
    pub fn remove(&mut self, interval: Interval) {
        let mut kept = Vec::with_capacity(self.intervals.len() + 1);
        for current in &self.intervals {
            if !current.overlaps(&interval) {
                kept.push(*current);
                continue;
            }
            if current.start < interval.start {
                kept.push(Interval {
                    start: current.start,
                    end: interval.start,
                });
            }
            if interval.end < current.end {
                kept.push(Interval {
                    start: interval.end,
                    end: current.end,
                });
            }
        }
        self.intervals = kept;
    }

    /// The parts of `within` that no interval covers.
    pub fn gaps(&self, within: Interval) -> Vec<Interval> {
        let mut gaps = Vec::new();
        let mut cursor = within.start;
        for interval in &self.intervals {
            if interval.end <= cursor {
                continue;
            }
            if interval.start >= within.end {
                break;
            }
            if let Some(gap) = Interval::new(cursor, interval.start) {
                if !gap.is_empty() {
                    gaps.push(gap);
                }
            }
            cursor = max(cursor, interval.end);
        }
        if cursor < within.end {
            gaps.push(Interval {
                start: cursor,
                end: within.end,
            });
        }
        gaps
    }

    /// The points in both sets.
    pub fn intersection(&self, other: &IntervalSet) -> IntervalSet {
        let (a, b) = (&self.intervals, &other.intervals);
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while i < a.len() && j < b.len() {
            if let Some(common) = a[i].intersection(&b[j]) {
                out.push(common);
            }
            if a[i].end < b[j].end {
                i += 1;
            } else {
                j += 1;
            }
        }
        IntervalSet { intervals: out }
    }

    pub fn union(&self, other: &IntervalSet) -> IntervalSet {
        IntervalSet::from_intervals(self.intervals.iter().chain(&other.intervals).copied())
    }
}

/// Merges sorted intervals that touch.
fn merge_sorted(sorted: Vec<Interval>) -> Vec<Interval> {
    let mut merged: Vec<Interval> = Vec::with_capacity(sorted.len());
    for interval in sorted {
        match merged.last_mut() {
            Some(last) if last.touches(&interval) => last.end = max(last.end, interval.end),
            _ => merged.push(interval),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(start: i64, end: i64) -> Interval {
        Interval::new(start, end).unwrap()
    }

    fn set(pairs: &[(i64, i64)]) -> IntervalSet {
        IntervalSet::from_intervals(pairs.iter().map(|&(s, e)| iv(s, e)))
    }

    fn pairs(set: &IntervalSet) -> Vec<(i64, i64)> {
        set.intervals().iter().map(|i| (i.start, i.end)).collect()
    }

    #[test]
    fn single_intervals() {
        assert_eq!(Interval::new(3, 1), None);
        assert!(iv(2, 2).is_empty());
        assert_eq!(iv(2, 7).len(), 5);
        assert!(iv(2, 7).contains(2));
        assert!(!iv(2, 7).contains(7));
        assert_eq!(iv(-3, 4).to_string(), "[-3, 4)");
    }

    #[test]
    fn overlapping_and_touching() {
        assert!(iv(0, 5).overlaps(&iv(4, 9)));
        assert!(!iv(0, 5).overlaps(&iv(5, 9)));
        assert!(!iv(6, 9).overlaps(&iv(0, 5)));
        assert!(iv(0, 5).touches(&iv(5, 9)));
        assert!(!iv(0, 5).touches(&iv(6, 9)));
    }

    #[test]
    fn intersections_of_intervals() {
        assert_eq!(iv(0, 5).intersection(&iv(3, 9)), Some(iv(3, 5)));
        assert_eq!(iv(0, 5).intersection(&iv(5, 9)), None);
        assert_eq!(iv(0, 10).intersection(&iv(2, 3)), Some(iv(2, 3)));
    }

    #[test]
    fn merges_sorted_input() {
        assert_eq!(pairs(&set(&[(0, 2), (1, 4), (6, 8)])), [(0, 4), (6, 8)]);
        assert_eq!(pairs(&set(&[(0, 2), (2, 4)])), [(0, 4)]);
    }

    #[test]
    fn merges_unsorted_input() {
        assert_eq!(
            pairs(&set(&[(10, 12), (0, 3), (2, 5), (11, 15)])),
            [(0, 5), (10, 15)]
        );
    }

    #[test]
    fn merges_nested_intervals() {
        assert_eq!(pairs(&set(&[(0, 10), (2, 3), (4, 6)])), [(0, 10)]);
    }

    #[test]
    fn drops_empty_intervals() {
        assert!(set(&[(3, 3), (5, 5)]).is_empty());
    }

    #[test]
    fn membership() {
        let s = set(&[(0, 3), (10, 20)]);
        assert!(s.contains(0));
        assert!(s.contains(2));
        assert!(!s.contains(3));
        assert!(s.contains(15));
        assert!(!s.contains(25));
        assert!(!s.contains(-1));
    }

    #[test]
    fn inserts() {
        let mut s = set(&[(0, 2), (5, 7), (10, 12)]);
        s.insert(iv(3, 4));
        assert_eq!(pairs(&s), [(0, 2), (3, 4), (5, 7), (10, 12)]);
        s.insert(iv(2, 5));
        assert_eq!(pairs(&s), [(0, 7), (10, 12)]);
        s.insert(iv(6, 30));
        assert_eq!(pairs(&s), [(0, 30)]);
        s.insert(iv(-5, -5));
        assert_eq!(pairs(&s), [(0, 30)]);
    }

    #[test]
    fn removes() {
        let mut s = set(&[(0, 10), (20, 30)]);
        s.remove(iv(3, 5));
        assert_eq!(pairs(&s), [(0, 3), (5, 10), (20, 30)]);
        s.remove(iv(8, 25));
        assert_eq!(pairs(&s), [(0, 3), (5, 8), (25, 30)]);
        s.remove(iv(-10, 100));
        assert!(s.is_empty());
    }

    #[test]
    fn gaps_between_intervals() {
        let s = set(&[(2, 4), (6, 8)]);
        assert_eq!(s.gaps(iv(0, 10)), [iv(0, 2), iv(4, 6), iv(8, 10)]);
        assert_eq!(s.gaps(iv(3, 7)), [iv(4, 6)]);
        assert_eq!(s.gaps(iv(2, 4)), []);
    }

    #[test]
    fn set_intersection() {
        let a = set(&[(0, 5), (10, 15)]);
        let b = set(&[(3, 12), (14, 20)]);
        assert_eq!(pairs(&a.intersection(&b)), [(3, 5), (10, 12), (14, 15)]);
        assert!(a.intersection(&IntervalSet::new()).is_empty());
    }

    #[test]
    fn set_union_and_length() {
        let a = set(&[(0, 5), (10, 15)]);
        let b = set(&[(3, 12)]);
        let u = a.union(&b);
        assert_eq!(pairs(&u), [(0, 15)]);
        assert_eq!(u.total_len(), 15);
        assert_eq!(a.total_len(), 10);
    }
}
