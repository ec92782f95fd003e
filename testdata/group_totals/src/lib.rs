//! Totals of groups of numbers, one number a line, groups separated by
//! blank lines (the calories each elf carries).

/// The total of each group, in order.
pub fn group_totals(text: &str) -> Vec<u32> {
    let mut totals = Vec::new();
    let mut total = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            totals.push(total);
        } else {
            total += line.parse::<u32>().unwrap_or(0);
        }
    }
    totals.push(total);
    totals
}

/// The largest total.
pub fn largest(text: &str) -> u32 {
    group_totals(text).into_iter().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_group() {
        assert_eq!(group_totals("1\n2\n3"), [6]);
    }

    #[test]
    fn groups_are_totalled_apart() {
        assert_eq!(group_totals("1\n2\n\n4\n\n5\n6"), [3, 4, 11]);
    }

    #[test]
    fn the_largest_group() {
        assert_eq!(largest("10\n\n1\n2\n\n3"), 10);
    }

    #[test]
    fn no_numbers() {
        assert_eq!(group_totals(""), [0]);
        assert_eq!(largest(""), 0);
    }
}
