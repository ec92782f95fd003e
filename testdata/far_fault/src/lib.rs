//! A summary of a list of readings.

/// What `summarize` tells about readings.
#[derive(Debug, PartialEq)]
pub struct Summary {
    pub count: usize,
    pub sum: i64,
    pub min: i64,
    pub max: i64,
    pub mean: i64,
    pub trend: i64,
    pub middle: i64,
    pub above: usize,
    pub range: i64,
}

/// How far `to` lies above `from`.
fn difference(from: i64, to: i64) -> i64 {
    to - from
}

/// The summary of `readings` (zeros for none).
pub fn summarize(readings: &[i64]) -> Summary {
    let count = readings.len();
    let sum: i64 = readings.iter().sum();
    let min = readings.iter().copied().min().unwrap_or(0);
    let max = readings.iter().copied().max().unwrap_or(0);
    let first = readings.first().copied().unwrap_or(0);
    let last = readings.last().copied().unwrap_or(0);
    let trend = difference(first, last);
    let mean = if count == 0 { 0 } else { sum / count as i64 };
    let middle = readings.get(count / 2).copied().unwrap_or(0);
    let above = readings.iter().filter(|&&r| r > mean).count();
    let range = difference(max, min);
    Summary {
        count,
        sum,
        min,
        max,
        mean,
        trend,
        middle,
        above,
        range,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing() {
        let summary = summarize(&[]);
        assert_eq!((summary.count, summary.range, summary.trend), (0, 0, 0));
    }

    #[test]
    fn steady() {
        let summary = summarize(&[4, 4, 4]);
        assert_eq!((summary.count, summary.sum, summary.mean), (3, 12, 4));
        assert_eq!((summary.min, summary.max, summary.range), (4, 4, 0));
    }

    #[test]
    fn rising() {
        assert_eq!(summarize(&[1, 3, 6]).trend, 5);
    }

    #[test]
    fn falling() {
        assert_eq!(summarize(&[9, 2, 7, 3]).trend, -6);
    }

    #[test]
    fn spread() {
        let summary = summarize(&[2, 9, 5]);
        assert_eq!(
            summary,
            Summary {
                count: 3,
                sum: 16,
                min: 2,
                max: 9,
                mean: 5,
                trend: 3,
                middle: 9,
                above: 1,
                range: 7,
            }
        );
    }

    #[test]
    fn one_reading() {
        assert_eq!(summarize(&[8]).range, 0);
    }

    #[test]
    fn negative_readings() {
        let summary = summarize(&[-3, -10, -4]);
        assert_eq!((summary.min, summary.max, summary.range), (-10, -3, 7));
    }
}
