pub fn square(x: i64) -> i64 {
    x * x
}

#[cfg(feature = "cube")]
pub fn cube(x: i64) -> i64 {
    x * x + x
}

#[cfg(test)]
mod tests {
    #[test]
    fn squares() {
        assert_eq!(super::square(3), 9);
    }

    #[cfg(feature = "cube")]
    #[test]
    fn cubes() {
        assert_eq!(super::cube(2), 8);
    }
}
