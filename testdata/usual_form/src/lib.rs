/// A rectangle on a grid of whole units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub width: u32,
    pub height: u32,
}

impl Rect {
    pub fn new(width: u32, height: u32) -> Rect {
        Rect { width, height }
    }

    pub fn area(&self) -> u32 {
        self.width * self.height
    }

    pub fn perimeter(&self) -> u32 {
        2 * (self.width + self.height)
    }

    /// The area of `k` copies side by side.
    pub fn tiled_area(&self, k: u32) -> u32 {
        k * self.width * self.height
    }

    /// Whether `other` has room for this one, either way round.
    pub fn fits_in(&self, other: &Rect) -> bool {
        self.width * self.height <= other.width * other.height
            && ((self.width <= other.width && self.height <= other.height)
                || (self.width <= other.height && self.height <= other.width))
    }

    /// The area of a quarter, rounded down.
    pub fn quarter_area(&self) -> u32 {
        self.width * self.height / 4
    }

    /// The cells of a triangle cut along the diagonal, rounded down.
    pub fn half_area(&self) -> u32 {
        self.width * self.width / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_and_perimeter() {
        let r = Rect::new(2, 3);
        assert_eq!(r.area(), 6);
        assert_eq!(r.perimeter(), 10);
        assert_eq!(r.tiled_area(4), 24);
        assert_eq!(Rect::new(4, 5).quarter_area(), 5);
    }

    #[test]
    fn fits() {
        assert!(Rect::new(2, 3).fits_in(&Rect::new(3, 2)));
        assert!(!Rect::new(2, 5).fits_in(&Rect::new(3, 3)));
    }

    #[test]
    fn half_of_a_square() {
        assert_eq!(Rect::new(3, 3).half_area(), 4);
    }

    #[test]
    fn half_of_a_wide_one() {
        assert_eq!(Rect::new(4, 5).half_area(), 10);
        assert_eq!(Rect::new(6, 1).half_area(), 3);
    }
}
