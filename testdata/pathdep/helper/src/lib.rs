/// The square of `x`.
pub fn square(x: i64) -> i64 {
    x * x
}
