/// Twice `x`.
pub fn double(x: i32) -> i32 {
    x + 2
}

#[cfg(test)]
mod tests {
    use super::double;

    #[test]
    fn two() {
        assert_eq!(double(2), 4);
    }

    #[test]
    fn three() {
        assert_eq!(double(3), 6);
    }

    #[test]
    fn flaky() {
        // Fails the first time it runs with FLAKY_MARKER naming a file that
        // does not exist yet, and passes from then on.
        if let Some(marker) = std::env::var_os("FLAKY_MARKER") {
            let first_run = !std::path::Path::new(&marker).exists();
            std::fs::write(&marker, "").unwrap();
            assert!(!first_run, "fails on its first run only");
        }
    }
}
