/// Twice the larger of two numbers.
pub fn double_max(a: i32, b: i32) -> i32 {
    alpha::max(a, b) * 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn doubles() {
        assert_eq!(super::double_max(4, 2), 8);
    }
}
