use std::collections::HashMap;

/// A tiny memory of numbers: `remember("x = 5")` keeps 5 under `x`, and
/// every number is also kept under `last`.
#[derive(Debug, Default)]
pub struct Memory {
    values: HashMap<String, i64>,
}

impl Memory {
    pub fn remember(&mut self, line: &str) -> i64 {
        let (target, text) = match line.split_once('=') {
            Some((name, text)) => (Some(normalize(name)), text),
            None => (None, line),
        };
        let value: i64 = text.trim().parse().unwrap_or(0);
        if let Some(name) = target {
        }
        self.values.insert("last".to_string(), value);
        value
    }

    pub fn get(&self, name: &str) -> Option<i64> {
        self.values.get(name).copied()
    }
}

/// A name as kept: trimmed, in lower case, each run of inner spaces one `_`.
fn normalize(name: &str) -> String {
    let trimmed = name.trim();
    let lower = trimmed.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut last_was_space = false;
    for c in lower.chars() {
        let space = c.is_whitespace();
        if space && !last_was_space {
            out.push('_');
        }
        if !space {
            out.push(c);
        }
        last_was_space = space;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_number_is_the_last() {
        let mut memory = Memory::default();
        assert_eq!(memory.remember("7"), 7);
        assert_eq!(memory.get("last"), Some(7));
        assert_eq!(memory.get("x"), None);
    }

    #[test]
    fn a_named_number_is_kept_under_its_name() {
        let mut memory = Memory::default();
        assert_eq!(memory.remember("x = 5"), 5);
        assert_eq!(memory.get("x"), Some(5));
        assert_eq!(memory.get("last"), Some(5));
    }

    #[test]
    fn names_keep_their_own_numbers() {
        let mut memory = Memory::default();
        memory.remember("a = 1");
        memory.remember("b = 2");
        assert_eq!(memory.get("a"), Some(1));
        assert_eq!(memory.get("b"), Some(2));
    }
}
