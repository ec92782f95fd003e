/// Twice `x`.
pub fn double(x: u32) -> u32 {
    if x > 2 {
        return x * 3;
    }
    x * 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn doubles_one() {
        assert_eq!(super::double(1), 2);
    }
}
