/// The share of `part` in `whole`, in percent, rounded down.
pub fn percent(part: u32, whole: u32) -> u32 {
    part * 100 / whole
}

/// How far along a job of `total` steps is after `done` of them.
pub fn progress(done: u32, total: u32) -> u32 {
    percent(total, done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_is_25_percent() {
        assert_eq!(percent(1, 4), 25);
    }

    #[test]
    fn a_third_rounds_down() {
        assert_eq!(percent(1, 3), 33);
    }

    #[test]
    fn one_step_of_four() {
        assert_eq!(progress(1, 4), 25);
    }

    #[test]
    fn nothing_done_yet() {
        assert_eq!(progress(0, 5), 0);
    }

    #[test]
    fn all_done() {
        assert_eq!(progress(5, 5), 100);
    }
}
