use std::fmt;

/// Scores by rank, best first.
const SCORES: [u32; 4] = [10, 6, 3, 1];

/// The score of `rank` (0-based), 0 past the table.
pub fn score(rank: usize) -> u32 {
    SCORES.get(rank).copied().unwrap_or(0)
}

/// The larger of two values.
pub fn largest<T: PartialOrd + Copy>(a: T, b: T) -> T {
    if a > b {
        a
    } else {
        b
    }
}

/// The sum of a pair.
pub fn pair_sum((a, b): (u32, u32)) -> u32 {
    a + b
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    /// Moves the point by `dx`, `dy`.
    pub fn shift(&mut self, dx: i32, dy: i32) {
        self.x += dx;
        self.y += dy;
    }

    /// The Manhattan distance from the origin.
    pub fn norm(&self) -> i32 {
        fn abs(v: i32) -> i32 {
            if v < 0 { -v } else { v }
        }
        abs(self.x) + abs(self.y)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl From<Point> for String {
    fn from(point: Point) -> String {
        format!("{}:{}", point.x, point.y)
    }
}

/// Points added coordinate by coordinate (`Add` is `Add<Rhs = Self>`, and
/// its `Rhs` must be sized).
impl std::ops::Add for Point {
    type Output = Point;

    fn add(self, other: Point) -> Point {
        Point { x: self.x + other.x, y: self.y + other.y }
    }
}

/// A point equals the slice of its coordinates (the impl's header implies
/// `T: 'a`).
impl<'a, T: Into<i32> + Copy> PartialEq<&'a [T]> for Point {
    fn eq(&self, other: &&'a [T]) -> bool {
        other.len() == 2 && self.x == other[0].into() && self.y == other[1].into()
    }
}

/// A point shown as its point is: the impl calls the trait's own method,
/// which only the trait's impl has in scope (`Display` is not imported).
pub struct Label(pub Point);

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Counts down from a start.
pub struct Countdown(pub u32);

impl Iterator for Countdown {
    type Item = u32;

    fn next(&mut self) -> Option<Self::Item> {
        if self.0 == 0 {
            None
        } else {
            self.0 -= 1;
            Some(self.0 + 1)
        }
    }
}

pub trait Named {
    fn name(&self) -> String;

    /// A greeting with the name.
    fn greet(&self) -> String {
        format!("hello {}", self.name())
    }
}

impl Named for Point {
    fn name(&self) -> String {
        self.to_string()
    }
}

/// The evens below `n`.
pub fn evens(n: u32) -> impl Iterator<Item = u32> {
    (0..n).filter(|v| v % 2 == 0)
}

/// Reads the first byte.
///
/// # Safety
/// `bytes` must point at one readable byte.
pub unsafe fn first(bytes: *const u8) -> u8 {
    unsafe { *bytes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(score(0), 10);
        assert_eq!(score(4), 0);
    }

    #[test]
    fn largest_of_two() {
        assert_eq!(largest(3, 7), 7);
        assert_eq!(largest(2.5, 1.0), 2.5);
    }

    #[test]
    fn sums() {
        assert_eq!(pair_sum((2, 3)), 5);
    }

    #[test]
    fn shifting() {
        let mut p = Point { x: 1, y: 2 };
        p.shift(2, -3);
        assert_eq!(p, Point { x: 3, y: -1 });
        assert_eq!(p.norm(), 4);
    }

    #[test]
    fn texts() {
        let p = Point { x: 1, y: -2 };
        assert_eq!(p.to_string(), "(1, -2)");
        assert_eq!(String::from(p), "1:-2");
        assert_eq!(p.greet(), "hello (1, -2)");
        assert_eq!(Label(p).to_string(), "(1, -2)");
    }

    #[test]
    fn points_add_and_equal_slices() {
        let p = Point { x: 1, y: -2 };
        assert_eq!(p + p, Point { x: 2, y: -4 });
        assert!(p == &[1, -2][..] && p != &[1][..]);
    }

    #[test]
    fn countdown() {
        assert_eq!(Countdown(3).collect::<Vec<_>>(), [3, 2, 1]);
    }

    #[test]
    fn even_numbers() {
        assert_eq!(evens(7).collect::<Vec<_>>(), [0, 2, 4, 6]);
    }

    #[test]
    fn first_byte() {
        assert_eq!(unsafe { first([7u8].as_ptr()) }, 7);
    }

    #[test]
    fn score_of_the_second() {
        assert_eq!(score(1), 5);
    }

    /// Everything together (so that every function is suspicious).
    #[test]
    fn a_round_of_everything() {
        let mut p = Point { x: 2, y: 5 };
        p.shift(1, -1);
        let total = score(1)
            + largest(4, 9)
            + pair_sum((1, 2))
            + p.norm() as u32
            + Countdown(3).sum::<u32>()
            + evens(9).count() as u32
            + u32::from(unsafe { first([5u8].as_ptr()) })
            + p.greet().len() as u32
            + String::from(p).len() as u32
            + p.to_string().len() as u32
            + Label(p).to_string().len() as u32
            + (p + p).x as u32
            + u32::from(p == &[3, 4][..]);
        assert_eq!(total, TOTAL);
    }

    const TOTAL: u32 = 74;
}
