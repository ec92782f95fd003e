//! Collapses repeated lines of a log.

/// The most repeats one entry stands for.
pub const MAX_REPEATS: usize = 3;

/// Each run of equal lines as one entry, `line (xN)` for N > 1, N at most
/// [`MAX_REPEATS`]: a longer run goes on in a new entry.
pub fn collapse(lines: &[&str]) -> Vec<String> {
    let mut runs = Vec::new();
    let mut current = None;
    let mut count = 0;
    for &line in lines {
        if current == Some(line) {
            count += 1;
            continue;
        }
        if let Some(previous) = current {
            runs.push((previous, count));
        }
        current = Some(line);
        count = 1;
    }
    if let Some(previous) = current {
        runs.push((previous, count));
    }
    runs.into_iter()
        .map(|(line, count)| {
            if count == 1 {
                line.to_string()
            } else {
                format!("{line} (x{count})")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_to_collapse() {
        assert_eq!(collapse(&["a", "b"]), ["a", "b"]);
        assert!(collapse(&[]).is_empty());
    }

    #[test]
    fn a_run_becomes_one_entry() {
        assert_eq!(collapse(&["a", "a", "b"]), ["a (x2)", "b"]);
    }

    #[test]
    fn a_long_run_goes_on_in_a_new_entry() {
        assert_eq!(collapse(&["a"; 5]), ["a (x3)", "a (x2)"]);
    }

    #[test]
    fn runs_of_the_longest_length_stay_whole() {
        assert_eq!(collapse(&["b", "b", "b", "c"]), ["b (x3)", "c"]);
    }
}
