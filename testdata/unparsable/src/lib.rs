#[cfg(feature = "nightly")]
mod nightly;

pub fn negate(x: i32) -> i32 {
    x
}

#[cfg(test)]
mod tests {
    #[test]
    fn negates() {
        assert_eq!(super::negate(2), -2);
    }

    #[test]
    fn zero() {
        assert_eq!(super::negate(0), 0);
    }
}
