/// The volume of a box of cubes with these sides.
pub fn total_volume(sides: &[i64]) -> i64 {
    let mut total = 0;
    for &side in sides {
        if side > 0 {
            total += cube::cube(side);
        }
    }
    total
}

/// The volume of one cube, if its side is positive.
pub fn volume(side: i64) -> Option<i64> {
    if side > 0 {
        Some(cube::cube(side))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing() {
        assert_eq!(total_volume(&[]), 0);
        assert_eq!(volume(-1), None);
        assert_eq!(total_volume(&[-2]), 0);
    }

    #[test]
    fn a_box() {
        assert_eq!(total_volume(&[1, 2]), 9);
    }

    #[test]
    fn a_cube() {
        assert_eq!(volume(3), Some(27));
    }
}
