/// Why a total cannot be split.
#[derive(Debug, PartialEq)]
pub enum SplitError {
    Uneven,
}

/// Each share of `total` split into `parts` equal whole shares.
pub fn share(total: u32, parts: u32) -> Result<u32, SplitError> {
    let each = total / parts;
    if each * parts != total {
        return Err(SplitError::Uneven);
    }
    Ok(each)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even() {
        assert_eq!(share(12, 3), Ok(4));
        assert_eq!(share(0, 5), Ok(0));
    }

    #[test]
    fn uneven() {
        assert_eq!(share(10, 3), Err(SplitError::Uneven));
    }

    #[test]
    fn into_no_parts() {
        assert_eq!(share(10, 0), Err(SplitError::Uneven));
    }
}
