/// The cube of `x`.
pub fn cube(x: i64) -> i64 {
    x * x + x
}
