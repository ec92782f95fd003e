pub fn middle(x: i32, y: i32, z: i32) -> i32 {
    if y < z {
        if x < y {
            return y;
        } else if x < z {
            return y;
        }
    } else {
        if x > y {
            return y;
        } else if x > z {
            return x;
        }
    }
    z
}

#[cfg(test)]
mod tests {
    use super::middle;

    #[test]
    fn middle_3_3_5() {
        assert_eq!(middle(3, 3, 5), 3);
    }

    #[test]
    fn middle_1_2_3() {
        assert_eq!(middle(1, 2, 3), 2);
    }

    #[test]
    fn middle_3_2_1() {
        assert_eq!(middle(3, 2, 1), 2);
    }

    #[test]
    fn middle_5_5_5() {
        assert_eq!(middle(5, 5, 5), 5);
    }

    #[test]
    fn middle_5_3_4() {
        assert_eq!(middle(5, 3, 4), 4);
    }

    #[test]
    fn middle_2_1_3() {
        assert_eq!(middle(2, 1, 3), 2);
    }
}
