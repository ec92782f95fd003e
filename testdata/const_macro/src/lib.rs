//! Limits declared by a macro, which calls a `const fn` where no syntax
//! tree shows it.

macro_rules! limit {
    ($name:ident = $value:expr) => {
        pub const $name: u32 = $value;
    };
}

limit!(LIMIT = doubled(50));

/// `n` twice.
pub const fn doubled(n: u32) -> u32 {
    n * 2
}

/// Whether `n` is within the limit.
pub fn within(n: u32) -> bool {
    n < LIMIT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_numbers_are_within() {
        assert!(within(3));
    }

    #[test]
    fn the_limit_itself_is_within() {
        assert!(within(100));
    }
}
