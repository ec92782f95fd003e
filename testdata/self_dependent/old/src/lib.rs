/// The sum of the first `n` positive integers, the way version 0.1 did it.
pub fn triangle(n: u64) -> u64 {
    (1..=n).sum()
}
