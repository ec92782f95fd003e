/// The values from last to first, each doubled.
pub fn doubled_backwards(values: &[i32]) -> Vec<i32> {
    let mut out = Vec::new();
    for v in values.iter() {
        out.push(v * 2);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none() {
        assert_eq!(doubled_backwards(&[]), Vec::<i32>::new());
    }

    #[test]
    fn one() {
        assert_eq!(doubled_backwards(&[3]), vec![6]);
    }

    #[test]
    fn three() {
        assert_eq!(doubled_backwards(&[1, 2, 3]), vec![6, 4, 2]);
    }
}
