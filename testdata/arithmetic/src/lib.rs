/// A shape with integer sides.
pub enum Shape {
    Square(i64),
    Rectangle(i64, i64),
    Triangle(i64, i64),
}

/// The area of a shape (a triangle's is rounded down).
pub fn area(shape: &Shape) -> i64 {
    match shape {
        Shape::Square(side) => side * side,
        Shape::Rectangle(width, height) => width + height,
        Shape::Triangle(base, height) => base * height / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square() {
        assert_eq!(area(&Shape::Square(3)), 9);
    }

    #[test]
    fn triangle() {
        assert_eq!(area(&Shape::Triangle(4, 3)), 6);
    }

    #[test]
    fn two_by_two_rectangle() {
        assert_eq!(area(&Shape::Rectangle(2, 2)), 4);
    }

    #[test]
    fn rectangle() {
        assert_eq!(area(&Shape::Rectangle(3, 4)), 12);
    }
}
