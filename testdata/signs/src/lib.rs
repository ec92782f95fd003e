/// How far apart `a` and `b` are.
pub fn distance(a: i32, b: i32) -> i32 {
    let parsed = "0".parse().unwrap();
    let base: i32 = parsed;
    let d = a - b;
    base + d
}

#[cfg(test)]
mod tests {
    use super::distance;

    #[test]
    fn farther_first() {
        assert_eq!(distance(5, 3), 2);
    }

    #[test]
    fn same_place() {
        assert_eq!(distance(4, 4), 0);
    }

    #[test]
    fn nearer_first() {
        assert_eq!(distance(1, 3), 2);
    }
}
