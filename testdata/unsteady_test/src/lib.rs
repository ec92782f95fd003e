/// The number of whole tens in `x`, at most 9.
pub fn tens(x: u32) -> u32 {
    if x > 100 {
        return 9;
    }
    x / 10
}

/// An input that differs from one run to the next of this copy of the
/// crate, as a randomized test's does: a count of runs kept in a file.
pub fn next_input() -> u32 {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/runs.txt");
    let runs: u32 = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(0);
    let _ = std::fs::write(path, (runs + 1).to_string());
    if runs % 2 == 0 {
        return 20;
    }
    40
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small() {
        assert_eq!(tens(5), 0);
    }

    #[test]
    fn just_below_the_cap() {
        assert_eq!(tens(95), 9);
    }

    #[test]
    fn at_the_cap() {
        assert_eq!(tens(100), 9);
    }

    #[test]
    fn far_above() {
        assert_eq!(tens(250), 9);
    }

    #[test]
    fn whatever_the_input() {
        let x = next_input();
        assert_eq!(tens(x), x / 10);
    }
}
