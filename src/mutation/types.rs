//! Types at sites, as the compiler prints them (`usize`, `&[&str]`,
//! `Option<u32>`, `integer` for an integer it has not settled yet): what
//! lets operators offer same-typed variables, integer offsets and
//! conditions that compile; and the variables the compiler warns are
//! unused or needlessly `mut`, where a statement may be missing. Filled by
//! the type oracle (`evaluate::types`); empty, every operator falls back on
//! what the syntax says.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::code::source::{FileId, Location};
use crate::system::cache;

#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Types {
    /// Per location, the type of each variable in scope there.
    #[serde(with = "cache::pairs")]
    variables: BTreeMap<Location, BTreeMap<String, String>>,
    /// The type of each probed expression, by file and byte range.
    #[serde(with = "cache::pairs")]
    expressions: BTreeMap<(FileId, usize, usize), String>,
    /// The local variables the compiler warns about.
    unused: Vec<Unused>,
}

/// A local variable the compiler warns about, where it is bound: never
/// used, or declared `mut` and never mutated. Either way a statement that
/// should use it may be missing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Unused {
    pub at: Location,
    pub name: String,
    /// The function it is bound in.
    pub function: String,
    /// Never used (else: `mut` and never mutated).
    pub never_used: bool,
}

impl Types {
    pub fn variable(&self, at: Location, name: &str) -> Option<&str> {
        self.variables.get(&at)?.get(name).map(String::as_str)
    }

    pub fn expression(&self, file: FileId, range: &Range<usize>) -> Option<&str> {
        self.expressions
            .get(&(file, range.start, range.end))
            .map(String::as_str)
    }

    /// The variables of known type at `at`.
    pub fn variables_at(&self, at: Location) -> impl Iterator<Item = (&str, &str)> {
        self.variables
            .get(&at)
            .into_iter()
            .flatten()
            .map(|(name, ty)| (name.as_str(), ty.as_str()))
    }

    /// Records a variable's type at a location; a settled type wins over
    /// an unsettled one (`usize` over `integer`).
    pub fn set_variable(&mut self, at: Location, name: &str, ty: &str) {
        let known = self.variables.entry(at).or_default();
        match known.get(name) {
            Some(old) if !is_unsettled(old) => {}
            _ => {
                known.insert(name.to_string(), ty.to_string());
            }
        }
    }

    pub fn set_expression(&mut self, file: FileId, range: &Range<usize>, ty: &str) {
        self.expressions
            .insert((file, range.start, range.end), ty.to_string());
    }

    pub fn add_unused(&mut self, unused: Unused) {
        self.unused.push(unused);
    }

    /// Every variable the compiler warns about.
    pub fn unused(&self) -> &[Unused] {
        &self.unused
    }

    /// The variables the compiler warns about that are in scope at a place
    /// of `function` at `at` (bound before it, in that function).
    pub fn unused_at<'s>(
        &'s self,
        at: Location,
        function: &'s str,
        bound: &'s [String],
    ) -> impl Iterator<Item = &'s Unused> + 's {
        self.unused.iter().filter(move |u| {
            u.at.file == at.file
                && u.at.line <= at.line
                && u.function == function
                && bound.contains(&u.name)
        })
    }

    /// How many variable types (over all locations) and expression types are known.
    pub fn counts(&self) -> (usize, usize) {
        (
            self.variables.values().map(BTreeMap::len).sum(),
            self.expressions.len(),
        )
    }
}

const INTEGERS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// An integer type (or an integer the compiler has not settled yet).
pub fn is_integer(ty: &str) -> bool {
    INTEGERS.contains(&ty) || ty == "integer"
}

/// A type whose value has `is_empty()`: strings (also held by a `Cow`,
/// `Box`, `Rc` or `Arc`), slices, arrays and the
/// standard collections (by reference or not).
pub fn has_is_empty(ty: &str) -> bool {
    let ty = ty.trim_start_matches('&').trim_start_matches("mut ");
    (ty.starts_with('[') && ty.ends_with(']')) || is_collection(ty) || is_text(ty)
}

/// A string or a standard collection, owned (its path aside:
/// `std::collections::HashMap<K, V>`): what `clear()` empties.
pub fn is_collection(ty: &str) -> bool {
    const COLLECTIONS: &[&str] = &[
        "Vec",
        "VecDeque",
        "HashMap",
        "BTreeMap",
        "HashSet",
        "BTreeSet",
        "BinaryHeap",
    ];
    let (path, generics) = ty.split_once('<').unwrap_or((ty, ""));
    let name = path.rsplit("::").next().unwrap_or(path);
    match generics {
        "" => name == "String",
        _ => COLLECTIONS.contains(&name),
    }
}

/// Text: `str` or `String`, by reference or not (a lifetime aside), or
/// held by a `Cow`, `Box`, `Rc` or `Arc`.
pub fn is_text(ty: &str) -> bool {
    let mut ty = ty.trim_start_matches('&');
    if let Some(rest) = ty.strip_prefix('\'') {
        ty = rest.split_once(' ').map_or(rest, |(_, t)| t);
    }
    let ty = ty.trim_start_matches("mut ");
    let (path, held) = match ty.split_once('<') {
        // A pointer to text: `Cow<'_, str>`, `Box<str>`, `Rc<str>`...
        Some((path, held)) => (path, held.strip_suffix('>').unwrap_or(held)),
        None => (ty, ""),
    };
    let held = held.rsplit(", ").next().unwrap_or(held);
    match path.rsplit("::").next().unwrap_or(path) {
        "Cow" | "Box" | "Rc" | "Arc" => matches!(held, "str" | "String"),
        name => held.is_empty() && matches!(name, "str" | "String"),
    }
}

pub fn is_option(ty: &str) -> bool {
    ty.trim_start_matches('&').starts_with("Option<")
}

/// A type the compiler has not settled yet.
fn is_unsettled(ty: &str) -> bool {
    ty == "integer" || ty == "float" || ty.contains('_')
}

/// Whether values of the two printed types may be used for each other
/// (`integer` goes with any integer type).
pub fn compatible(a: &str, b: &str) -> bool {
    a == b || (a == "integer" && is_integer(b)) || (b == "integer" && is_integer(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_of_types() {
        assert!(is_integer("usize") && is_integer("integer") && !is_integer("f64"));
        assert!(is_text("&str") && is_text("&'a str") && is_text("&mut String"));
        assert!(!is_text("&[u8]") && !is_text("Vec<char>"));
        assert!(is_text("std::borrow::Cow<'_, str>") && is_text("Box<str>"));
        assert!(is_text("alloc::string::String") && !is_text("Cow<'_, [u8]>"));
        assert!(has_is_empty("std::borrow::Cow<'_, str>") && has_is_empty("&'a str"));
        assert!(has_is_empty("&[u8]") && has_is_empty("&str") && has_is_empty("Vec<u32>"));
        assert!(has_is_empty("&mut Vec<u32>") && !has_is_empty("u32"));
        assert!(is_option("Option<usize>") && !is_option("Vec<Option<u8>>"));
        assert!(compatible("integer", "u8") && compatible("u8", "u8") && !compatible("u8", "i8"));
    }

    #[test]
    fn an_unused_variable_is_in_scope_after_its_binding_in_its_function() {
        let file = FileId::new(0);
        let mut types = Types::default();
        types.add_unused(Unused {
            at: Location::new(file, 4),
            name: "value".into(),
            function: "unzip".into(),
            never_used: true,
        });
        let bound = ["value".to_string()];
        let at = |line| Location::new(file, line);
        assert_eq!(types.unused_at(at(5), "unzip", &bound).count(), 1);
        assert_eq!(types.unused_at(at(3), "unzip", &bound).count(), 0);
        assert_eq!(types.unused_at(at(5), "other", &bound).count(), 0);
        assert_eq!(types.unused_at(at(5), "unzip", &[]).count(), 0);
        let elsewhere = Location::new(FileId::new(1), 5);
        assert_eq!(types.unused_at(elsewhere, "unzip", &bound).count(), 0);
    }

    #[test]
    fn settled_types_win() {
        let at = Location::new(FileId::new(0), 3);
        let mut types = Types::default();
        types.set_variable(at, "n", "integer");
        types.set_variable(at, "n", "usize");
        types.set_variable(at, "n", "integer");
        assert_eq!(types.variable(at, "n"), Some("usize"));
    }
}
