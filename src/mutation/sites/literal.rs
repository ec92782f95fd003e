//! Literals: the values a literal site holds, read from the syntax, and
//! what each may become (the crate's other literals, an integer's
//! neighbours, the slips of a key in data).

use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Literal {
    /// An integer; `radix` 16 (with `upper` hex digits), 8, 2 or 10, as written.
    Int {
        value: u128,
        suffix: String,
        radix: u32,
        upper: bool,
    },
    Float(String),
    Str(String),
    Char(String),
    Bool(bool),
}

impl Literal {
    fn same_kind(&self, other: &Literal) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// A literal of the syntax as a [`Literal`] (`None`: a byte string and the like).
pub(super) fn literal(lit: &syn::Lit) -> Option<Literal> {
    Some(match lit {
        syn::Lit::Int(int) => {
            let digits = int.base10_digits();
            let written = int.token().to_string();
            let radix = match written.get(..2) {
                Some("0x") => 16,
                Some("0o") => 8,
                Some("0b") => 2,
                _ => 10,
            };
            Literal::Int {
                value: digits.parse().ok()?,
                suffix: int.suffix().to_string(),
                radix,
                upper: written
                    .chars()
                    .any(|c| c.is_ascii_uppercase() && c.is_ascii_hexdigit()),
            }
        }
        syn::Lit::Float(float) => Literal::Float(float.to_string()),
        syn::Lit::Str(s) => Literal::Str(s.token().to_string()),
        syn::Lit::Char(c) => Literal::Char(c.token().to_string()),
        syn::Lit::Bool(b) => Literal::Bool(b.value),
        _ => return None,
    })
}

impl Literal {
    /// The literals a site holding `self` may become: its neighbours (for
    /// integers), its negation (for booleans), the crate's other literals of
    /// the same kind.
    /// Neighbours first (they are the likelier slip), integers written in
    /// the site's radix.
    pub fn alternatives(&self, pool: &[Literal]) -> Vec<String> {
        let mut out = Vec::new();
        match self {
            Literal::Int { value, .. } => {
                out.push(self.with_value(value + 1));
                if *value > 0 {
                    out.push(self.with_value(value - 1));
                }
                let mut others: Vec<u128> = pool
                    .iter()
                    .filter_map(|other| match other {
                        Literal::Int { value: v, .. } if v != value => Some(*v),
                        _ => None,
                    })
                    .collect();
                others.sort_unstable();
                out.extend(others.into_iter().map(|v| self.with_value(v)));
            }
            Literal::Bool(b) => out.push((!b).to_string()),
            _ => out.extend(
                pool.iter()
                    .filter(|l| l.same_kind(self) && *l != self)
                    .map(Literal::text),
            ),
        }
        let mut seen = BTreeSet::new();
        out.retain(|text| seen.insert(text.clone()));
        out
    }

    /// This integer literal's form with another value.
    fn with_value(&self, value: u128) -> String {
        let Literal::Int {
            suffix,
            radix,
            upper,
            ..
        } = self
        else {
            return self.text();
        };
        match (radix, upper) {
            (16, true) => format!("{value:#X}{suffix}").replacen("0X", "0x", 1),
            (16, false) => format!("{value:#x}{suffix}"),
            (8, _) => format!("{value:#o}{suffix}"),
            (2, _) => format!("{value:#b}{suffix}"),
            _ => format!("{value}{suffix}"),
        }
    }

    /// The slips of one keystroke that turn some decimal numeral into
    /// `written` (this literal as written), undone: a digit one more or
    /// one less, two adjacent digits swapped, a digit left out (a `0` put
    /// back) or one too many (taken out). Data tables are typed by hand,
    /// and a wrong entry is most often one of these (`243` typed `234`,
    /// `1.015` typed `1.15`). Likelier slips first; none starts with a `0`
    /// that was not there, none is `written` itself.
    pub fn slips(&self, written: &str) -> Vec<String> {
        let decimal = matches!(self, Literal::Int { radix: 10, .. } | Literal::Float(_));
        // The digits before any suffix or exponent (`_` and `.` stay put).
        let end = written
            .find(|c: char| !(c.is_ascii_digit() || c == '_' || c == '.'))
            .unwrap_or(written.len());
        if !decimal || end == 0 {
            return Vec::new();
        }
        let (number, rest) = written.split_at(end);
        let digits: Vec<usize> = number
            .char_indices()
            .filter(|(_, c)| c.is_ascii_digit())
            .map(|(i, _)| i)
            .collect();
        let with = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut bytes = number.as_bytes().to_vec();
            edit(&mut bytes);
            String::from_utf8(bytes).expect("ASCII digits")
        };
        let mut out = Vec::new();
        for &i in &digits {
            let d = number.as_bytes()[i];
            for to in [d.wrapping_add(1), d.wrapping_sub(1)] {
                if to.is_ascii_digit() {
                    out.push(with(&|b| b[i] = to));
                }
            }
        }
        // Adjacent digits of one part (not across `.`), swapped.
        for pair in digits.windows(2) {
            let (i, j) = (pair[0], pair[1]);
            if !number[i..j].contains('.') {
                out.push(with(&|b| b.swap(i, j)));
            }
        }
        // A digit left out (a `0` put back before or after a digit), or
        // one too many (taken out, unless it is its part's only digit).
        for &i in &digits {
            out.push(with(&|b| b.insert(i, b'0')));
            out.push(with(&|b| b.insert(i + 1, b'0')));
        }
        let part_len = |k: usize| {
            let start = number[..k].rfind('.').map_or(0, |p| p + 1);
            let stop = number[k..].find('.').map_or(number.len(), |p| k + p);
            number[start..stop]
                .bytes()
                .filter(u8::is_ascii_digit)
                .count()
        };
        for &i in &digits {
            if part_len(i) > 1 {
                out.push(with(&|b| {
                    b.remove(i);
                }));
            }
        }
        let mut seen = BTreeSet::new();
        out.into_iter()
            .filter(|n| !n.starts_with('0') || number.starts_with('0'))
            .filter(|n| !n.ends_with('.') && !n.starts_with('.'))
            .map(|n| format!("{n}{rest}"))
            .filter(|n| n != written && seen.insert(n.clone()))
            .collect()
    }

    fn text(&self) -> String {
        match self {
            Literal::Int { value, .. } => self.with_value(*value),
            Literal::Float(s) | Literal::Str(s) | Literal::Char(s) => s.clone(),
            Literal::Bool(b) => b.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Literal;

    #[test]
    fn literal_alternatives() {
        let pool = vec![
            Literal::Int {
                value: 7,
                suffix: String::new(),
                radix: 10,
                upper: false,
            },
            Literal::Str("\"x\"".into()),
            Literal::Str("\"y\"".into()),
        ];
        let zero = Literal::Int {
            value: 0,
            suffix: "u8".into(),
            radix: 10,
            upper: false,
        };
        assert_eq!(zero.alternatives(&pool), ["1u8", "7u8"]);
        let nibble = Literal::Int {
            value: 15,
            suffix: String::new(),
            radix: 16,
            upper: true,
        };
        assert_eq!(nibble.alternatives(&pool), ["0x10", "0xE", "0x7"]);
        assert_eq!(Literal::Bool(true).alternatives(&pool), ["false"]);
        assert_eq!(Literal::Str("\"x\"".into()).alternatives(&pool), ["\"y\""]);
    }

    #[test]
    fn slips_of_a_key_in_decimal_data() {
        let int = |value| Literal::Int {
            value,
            suffix: String::new(),
            radix: 10,
            upper: false,
        };
        let slips = int(234).slips("234");
        for fixed in ["243", "334", "134", "244", "2034", "24", "23"] {
            assert!(slips.contains(&fixed.to_string()), "{fixed}: {slips:?}");
        }
        assert!(!slips.iter().any(|s| s == "234" || s.starts_with('0')));
        // Per digit: two neighbours, then swaps, then a 0 put back, then
        // a digit taken out; every one distinct.
        assert_eq!(slips.len(), 6 + 2 + 3 + 3, "{slips:?}");
        assert!(int(80).slips("80").contains(&"90".to_string()));
        // Underscores and suffixes stay; a swap does not cross the point.
        let slips = int(1_000).slips("1_000u32");
        assert!(slips.contains(&"2_000u32".into()), "{slips:?}");
        let float = Literal::Float("1.15".into());
        let slips = float.slips("1.15");
        assert!(slips.contains(&"1.015".into()), "{slips:?}");
        assert!(slips.contains(&"1.51".into()), "{slips:?}");
        assert!(!slips.contains(&"11.5".into()) && !slips.contains(&".15".into()));
        // Not decimal: no slips.
        let hex = Literal::Int {
            value: 15,
            suffix: String::new(),
            radix: 16,
            upper: false,
        };
        assert!(hex.slips("0xf").is_empty());
        assert!(Literal::Str("\"15\"".into()).slips("\"15\"").is_empty());
    }
}
