/// The letter grade of a score out of 100.
pub fn grade(score: u32) -> char {
    if score >= 90 {
        'A'
    } else if score >= 80 {
        'B'
    } else if score > 70 {
        'C'
    } else {
        'F'
    }
}

#[cfg(test)]
mod tests {
    use super::grade;

    #[test]
    fn a() {
        assert_eq!(grade(95), 'A');
        assert_eq!(grade(90), 'A');
    }

    #[test]
    fn b() {
        assert_eq!(grade(85), 'B');
        assert_eq!(grade(80), 'B');
    }

    #[test]
    fn c() {
        assert_eq!(grade(75), 'C');
    }

    #[test]
    fn c_at_the_boundary() {
        assert_eq!(grade(70), 'C');
    }

    #[test]
    fn f() {
        assert_eq!(grade(50), 'F');
        assert_eq!(grade(69), 'F');
    }
}
