//! `key=value` settings.

/// The keys and the values of `pairs` (`key=value`, spaces around either
/// trimmed; a pair without `=` has an empty value), in order.
pub fn unzip_pairs(pairs: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut keys = Vec::new();
    let mut values = Vec::new();
    for pair in pairs {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        keys.push(key.trim().to_string());
    }
    (keys, values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing() {
        let (keys, values) = unzip_pairs(&[]);
        assert!(keys.is_empty() && values.is_empty());
    }

    #[test]
    fn keys_in_order() {
        let (keys, _) = unzip_pairs(&["a=1", " b = 2"]);
        assert_eq!(keys, ["a", "b"]);
    }

    #[test]
    fn values_in_order() {
        let (_, values) = unzip_pairs(&["a=1", " b = 2 ", "c"]);
        assert_eq!(values, ["1", "2", ""]);
    }
}
