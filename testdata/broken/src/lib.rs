pub fn half(x: u32) -> u32 {
    x / "2"
}

#[cfg(test)]
mod tests {
    #[test]
    fn halves() {
        assert_eq!(super::half(4), 2);
    }
}
