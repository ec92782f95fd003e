/// Three times `x`.
pub fn triple(x: i32) -> i32 {
    let factor = 2;
    x * factor
}

#[cfg(test)]
mod tests {
    #[test]
    fn triples_one() {
        assert_eq!(super::triple(1), 3);
    }

    #[test]
    fn triples_two() {
        assert_eq!(super::triple(2), 6);
    }
}
