/// A record's summary: a weighted sum of its first eight bytes and its
/// last byte (the trailer), as one number.
pub fn summary(record: &[u8]) -> u64 {
    let first = u64::from(record[0]);
    let second = u64::from(record[1]);
    let third = u64::from(record[2]);
    let fourth = u64::from(record[3]);
    let fifth = u64::from(record[4]);
    let sixth = u64::from(record[5]);
    let seventh = u64::from(record[6]);
    let eighth = u64::from(record[7]);
    let mut sum = first;
    sum += 2 * second;
    sum += 3 * third;
    sum += 4 * fourth;
    sum += 5 * fifth;
    sum += 6 * sixth;
    sum += 7 * seventh;
    sum += 8 * eighth;
    let length = record.len() as u64;
    let weight = sum * 31;
    let scaled = weight + length;
    let shifted = scaled << 8;
    let trailer = u64::from(record[record.len()]);
    shifted | trailer
}

/// Whether a record is long enough to summarize.
pub fn summarizable(record: &[u8]) -> bool {
    record.len() >= 9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summarizes_a_record() {
        let record = [1, 0, 0, 0, 0, 0, 0, 0, 7];
        assert_eq!(summary(&record), ((31 + 9) << 8) | 7);
    }

    #[test]
    fn short_records_are_not_summarizable() {
        assert!(!summarizable(&[1, 2, 3]));
    }

    #[test]
    fn long_records_are_summarizable() {
        assert!(summarizable(&[0; 12]));
    }
}
