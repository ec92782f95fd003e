/// The larger of two numbers.
pub fn max(a: i32, b: i32) -> i32 {
    if a > b {
        a
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn first_is_larger() {
        assert_eq!(super::max(3, 1), 3);
    }

    #[test]
    fn second_is_larger() {
        assert_eq!(super::max(1, 3), 3);
    }
}
