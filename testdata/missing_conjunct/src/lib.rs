/// "pass" for at least 50 points over at least one attempt, else "fail".
pub fn grade(points: u32, attempts: u32) -> &'static str {
    if points >= 50 {
        "pass"
    } else {
        "fail"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enough_points() {
        assert_eq!(grade(60, 1), "pass");
    }

    #[test]
    fn just_enough() {
        assert_eq!(grade(50, 3), "pass");
    }

    #[test]
    fn too_few_points() {
        assert_eq!(grade(40, 1), "fail");
    }

    #[test]
    fn just_too_few() {
        assert_eq!(grade(49, 2), "fail");
    }

    #[test]
    fn no_attempt_no_pass() {
        assert_eq!(grade(60, 0), "fail");
    }
}
