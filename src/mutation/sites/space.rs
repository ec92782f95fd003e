//! The mutation space: the sites, and the ingredients mutations are made
//! of (statements, conditions, literals, method names), with what the
//! crate declares that some operators draw on (fields, items, methods,
//! enums, the values functions return).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use super::followers::{Leader, Neighbours, distinctive_shape};
use super::{Literal, Precondition, Site};
use crate::code::source::{FileId, Location};
use crate::code::text_without_spaces;

/// A piece of the crate's code that mutations reuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ingredient {
    /// The code as written (for a compound statement: its header, such as
    /// `if a < b` or `for x in items`).
    pub text: String,
    /// Whether `text` is a header that takes a block.
    pub header: bool,
    /// Whether `text` is a statement that ends in `;` or a block (for
    /// statements), or an expression that needs no parentheses (for conditions).
    pub closed: bool,
    /// Local variables it uses: it only goes where they are all in scope.
    pub free: BTreeSet<String>,
    /// Where it was found (its variables' types are known there).
    pub origin: Location,
    /// The byte of `origin`'s file that `text` starts at: a byte `b` of
    /// the file inside it is `b - start` of `text`.
    pub start: usize,
    /// Where in `text` each free variable occurs (for renaming).
    pub uses: Vec<(String, Range<usize>)>,
    /// Names a `let` statement binds.
    pub binds: Vec<String>,
    /// A statement that surely has no value but `()` (a `let`, a loop, an
    /// assignment): it cannot stand for a block's value.
    pub unit: bool,
    /// An expression that does nothing but produce a value (a variable, a
    /// tuple, arithmetic): useful only as a block's value.
    pub inert: bool,
    /// A guard, whole: `if c { return v; }` (or `break`, `continue`).
    pub guard: bool,
    /// What `self` is where it was found (see `Scope::self_type`).
    pub self_type: Option<String>,
    /// The names besides local variables it needs in scope (see
    /// `code::outer_names`): `Printer`, `fmt`, `Self`, `dispatch`.
    pub names: BTreeSet<String>,
    /// The line of the function it was found in, when it works there only:
    /// it names a loop's label or an item declared in that function.
    pub local_to: Option<u32>,
}

impl Ingredient {
    pub fn fits(&self, bound: &[String]) -> bool {
        self.free.iter().all(|name| bound.contains(name))
    }

    /// The text with variables renamed (`renames`: from, to).
    pub fn renamed(&self, renames: &[(&str, &str)]) -> String {
        let mut out = self.text.clone();
        for (name, range) in self.uses.iter().rev() {
            if let Some((_, to)) = renames.iter().find(|(from, _)| from == name) {
                out.replace_range(range.clone(), to);
            }
        }
        out
    }
}

/// A `const` or `static` item with literals: data that runs no code of its
/// own, ranked at its first line by the executed lines that read it. Its
/// literals are sites at that line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    pub name: String,
    /// Where it is ranked: its first line.
    pub location: Location,
    /// Its last line.
    pub last_line: u32,
    /// Its type without spaces, for a module-level item (an associated
    /// `const` is named through its type: `None`).
    pub ty: Option<String>,
    /// The locations of runnable code that name it.
    pub read_at: BTreeSet<Location>,
}

/// Methods (and functions: `cmp::min`, `cmp::max`) that are easily
/// confused with each other.
const METHOD_FAMILIES: &[&[&str]] = &[
    &["min", "max"],
    &["min_by", "max_by"],
    &["min_by_key", "max_by_key"],
    &["to_lowercase", "to_uppercase"],
    &["to_ascii_lowercase", "to_ascii_uppercase"],
    &["is_lowercase", "is_uppercase"],
    &["is_ascii_lowercase", "is_ascii_uppercase"],
    &["first", "last"],
    &["starts_with", "ends_with"],
    &["strip_prefix", "strip_suffix"],
    &["trim", "trim_start", "trim_end"],
    &["find", "rfind"],
    &["position", "rposition"],
    &["split_once", "rsplit_once"],
    &["any", "all"],
    &["is_some", "is_none"],
    &["is_ok", "is_err"],
    &["take", "skip"],
    &["take_while", "skip_while"],
    &["floor", "ceil", "round", "trunc"],
    &["saturating_sub", "wrapping_sub", "checked_sub"],
    &["saturating_add", "wrapping_add", "checked_add"],
    &["saturating_mul", "wrapping_mul", "checked_mul"],
    &["fetch_add", "fetch_sub"],
    &["fetch_min", "fetch_max"],
    &["fetch_and", "fetch_or", "fetch_xor"],
    &["push_back", "push_front"],
    &["pop_back", "pop_front"],
    &["front", "back"],
    &["front_mut", "back_mut"],
    &["first_mut", "last_mut"],
    &["nth", "nth_back"],
    &["split", "rsplit"],
    &["splitn", "rsplitn"],
    &["leading_zeros", "trailing_zeros"],
    &["leading_ones", "trailing_ones"],
    &["count_ones", "count_zeros"],
    &["rotate_left", "rotate_right"],
    &["to_le_bytes", "to_be_bytes"],
    &["from_le_bytes", "from_be_bytes"],
    &["is_sign_positive", "is_sign_negative"],
    &["is_positive", "is_negative"],
    &["lt", "le", "gt", "ge"],
    &["eq", "ne"],
    &[
        "is_alphabetic",
        "is_numeric",
        "is_alphanumeric",
        "is_whitespace",
    ],
    &[
        "is_ascii_alphabetic",
        "is_ascii_digit",
        "is_ascii_alphanumeric",
        "is_ascii_whitespace",
        "is_ascii_punctuation",
    ],
];

/// The names in a family of [`METHOD_FAMILIES`] with `name`, itself too.
pub fn method_siblings(name: &str) -> impl Iterator<Item = &'static str> + '_ {
    METHOD_FAMILIES
        .iter()
        .filter(move |family| family.contains(&name))
        .flat_map(|family| family.iter().copied())
}

/// An operand a function writes extended (see [`MutationSpace::extended`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Extension {
    /// The bare operand, without spaces: a variable or a field of one
    /// (`ptr`, `size.width`).
    pub operand: String,
    /// The extended expression as written (`ptr.offset(8)`).
    pub text: String,
    /// Where the operand starts in `text`.
    pub at: usize,
    /// A binary operation (`offset + closing_pos`), which may need
    /// parentheses where a method call does not.
    pub binary: bool,
    /// The variables it reads beside the operand's own.
    pub reads: BTreeSet<String>,
}

/// Everything the search can change, and what it can change it with.
#[derive(Debug, Clone, Default)]
pub struct MutationSpace {
    pub sites: Vec<Site>,
    pub statements: Vec<Ingredient>,
    pub conditions: Vec<Ingredient>,
    pub literals: Vec<Literal>,
    /// Method names by number of arguments and receiver (its text without
    /// whitespace): see `called_on`.
    methods: BTreeMap<(usize, String), BTreeSet<String>>,
    /// `const` and `static` items with literals (their literals are sites).
    pub constants: Vec<Constant>,
    /// Per field name, the other fields of the same type in the structs
    /// that declare it.
    pub fields: BTreeMap<String, BTreeSet<String>>,
    /// Per file, the `const` and `static` items at the top of its module
    /// (the names its functions use bare; not a `static mut`), with their
    /// types.
    pub items: BTreeMap<FileId, BTreeMap<String, String>>,
    /// Per method name, where it is declared (the crate's `impl` blocks and
    /// traits, methods taking `self`).
    pub declared: BTreeMap<String, Vec<Declared>>,
    /// Per owner (a struct's name), its named fields and their types
    /// without spaces.
    pub struct_fields: BTreeMap<String, Vec<(String, String)>>,
    /// Per owner (a struct's name), its struct literals in the crate's
    /// code outside tests (named bare or `Self`), each as the value it
    /// gives each field where that is a constant (`weight: 0`, `items:
    /// Vec::new()`, `None`; `None` for a value read from elsewhere): the
    /// states a method that resets the value goes back to.
    pub struct_literals: BTreeMap<String, Vec<BTreeMap<String, Option<String>>>>,
    /// Per enum of the crate (its name), its variants as a pattern that
    /// binds nothing names them after `Enum::`: `Rule`, `List(..)`,
    /// `Heading { .. }`.
    pub enums: BTreeMap<String, Vec<String>>,
    /// The crate's patterns of two or more literals alone (`' ' | '\t'`),
    /// each once: which literals it takes together (see the `variant`
    /// operator).
    pub literal_patterns: Vec<Vec<String>>,
    /// Per method name, the calls the crate chains right after a call of
    /// it, as ingredients whose text starts at the dot (`.join(&self.key)`
    /// after `prefix.clone()`): what a call written alike here may lack
    /// (see the `twin` operator).
    pub chained: BTreeMap<String, Vec<Ingredient>>,
    /// What the failing `should_panic(expected = ..)` tests want a panic
    /// to say and do not get, as string literals (`"capacity overflow"`):
    /// from the tests' runs, not the code: `space_of` sets it (see
    /// `Baseline::expected_panics`).
    pub expected_panics: Vec<String>,
    /// The preconditions the failing tests broke, with the lines that
    /// called the functions asserting them: from the tests' runs, set by
    /// `space_of` (see `sites::preconditions`).
    pub preconditions: Vec<Precondition>,
    /// The words of the failing tests' names and failure messages,
    /// lowercase (`too`, `large` of `rejects_too_large`): a test is most
    /// often named after what it expects. `space_of` sets it (see
    /// `Baseline::failing_words`).
    pub failing_words: BTreeSet<String>,
    /// Per file and function name, the values its `return`s and tail
    /// return, as written (`None`, `Err(Error::Empty)`, `input.is_empty()`),
    /// and `Err(E)` for each `.ok_or(E)` in a function returning a `Result`:
    /// what a guard added to it may return.
    pub returned: BTreeMap<(FileId, String), Vec<Returned>>,
    /// Per file and function (its name and the line of its `fn`), the
    /// variables it slices by a range and that range's bounds, as written
    /// (`buf` and `*len` for `&mut buf[*len..]`): where it gives such a
    /// variable whole, its part may be meant (see the `slice` operator).
    pub slices: BTreeMap<(FileId, String, u32), Vec<(String, String)>>,
    /// Per file and function (its name and the line of its `fn`), the
    /// operands it writes extended (`ptr.offset(8)`, `m.max(2)`, `offset +
    /// closing_pos`): where it gives such an operand bare, the extension
    /// may be meant (see the `extend` operator).
    pub extended: BTreeMap<(FileId, String, u32), Vec<Extension>>,
    /// Per statement (its text without whitespace), the statements the
    /// crate writes right after it: see `followers_of`.
    followers: BTreeMap<String, Vec<String>>,
    /// Per statement shape, the statements the crate writes right before
    /// one: see `leaders_of`.
    leaders: BTreeMap<String, Vec<Leader>>,
    /// Per file, the identifiers of its code: a name another file's
    /// ingredient needs is in scope there only if the file writes it
    /// (defines, imports or uses it; a comment does not count).
    pub words: BTreeMap<FileId, BTreeSet<String>>,
}

impl MutationSpace {
    /// The unit variants of the crate's enum `owner`: those [`Self::enums`]
    /// names bare (`Rule`, not `List(..)` or `Heading { .. }`).
    pub fn unit_variants(&self, owner: &str) -> impl Iterator<Item = &String> {
        let declared = self.enums.get(owner).into_iter().flatten();
        declared.filter(|v| !v.ends_with(')') && !v.ends_with('}'))
    }

    /// Notes that the crate calls method `name` with `arguments` arguments
    /// on `receiver` (its text).
    pub(super) fn add_method(&mut self, receiver: &str, arguments: usize, name: String) {
        let key = (arguments, text_without_spaces(receiver));
        self.methods.entry(key).or_default().insert(name);
    }

    /// The methods the crate calls with `arguments` arguments on a
    /// receiver written as `receiver`: of its type, most likely (any
    /// method of the crate with as many arguments seldom compiles).
    pub fn called_on(&self, receiver: &str, arguments: usize) -> impl Iterator<Item = &String> {
        let key = (arguments, text_without_spaces(receiver));
        self.methods.get(&key).into_iter().flatten()
    }

    /// Adds one file's `found` neighbours to what follows what.
    pub(super) fn add_neighbours(&mut self, found: Neighbours) {
        for (key, mut next) in found.followers {
            let list = self.followers.entry(key).or_default();
            next.retain(|n| !list.contains(n));
            list.extend(next);
        }
        for (key, mut before) in found.leaders {
            let list = self.leaders.entry(key).or_default();
            before.retain(|n| !list.contains(n));
            list.extend(before);
        }
    }

    /// The statements the crate writes right after a statement written as
    /// `statement` (none after a short one: see `followers`).
    pub fn followers_of(&self, statement: &str) -> impl Iterator<Item = &String> {
        let key = text_without_spaces(statement);
        self.followers.get(&key).into_iter().flatten()
    }

    /// The statements the crate writes right before a statement of the
    /// shape of `statement`, each with the renames that take the variables
    /// of the statement it leads to those of `statement` (only where every
    /// variable there corresponds to one here, and no two to the same).
    pub fn leaders_of(&self, statement: &str) -> Vec<(&Leader, Vec<(String, String)>)> {
        let Some((shape, names)) = distinctive_shape(statement) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for leader in self.leaders.get(&shape).into_iter().flatten() {
            let mut renames: Vec<(String, String)> = Vec::new();
            let consistent = leader.names.iter().zip(&names).all(|(from, to)| {
                match renames.iter().find(|(f, t)| f == from || t == to) {
                    Some((f, t)) => f == from && t == to,
                    None => {
                        renames.push((from.clone(), to.clone()));
                        true
                    }
                }
            });
            if consistent {
                renames.retain(|(from, to)| from != to);
                found.push((leader, renames));
            }
        }
        found
    }

    /// The values the function of `site` returns that can be returned
    /// there (their variables in scope).
    pub fn returned_at<'s>(&'s self, site: &'s Site) -> impl Iterator<Item = &'s Returned> {
        self.returned
            .get(&(site.file, site.function.clone()))
            .into_iter()
            .flatten()
            .filter(|value| value.fits(&site.bound))
    }
}

/// A method or associated function declared in the crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// The type of its `impl` (its last path segment, without generics) or
    /// its trait.
    pub owner: String,
    /// Whether it takes `self` (a method).
    pub receiver: bool,
    /// Whether it takes `&self`: a call whose value is thrown away does
    /// nothing (but through a `Cell` or I/O).
    pub reads_only: bool,
    /// Its arguments besides `self`.
    pub arguments: usize,
    /// Its return type without spaces (empty for `()`).
    pub returns: String,
}

impl MutationSpace {
    /// The other associated functions (no `self`) of the types that declare
    /// `name` as one, with `arguments` arguments and the same return type:
    /// those of `owner` itself, or, for `Self::name`, of any type that does
    /// (`UniCase::new` for `UniCase::unicode`).
    pub fn associated(&self, owner: &str, name: &str, arguments: usize) -> Vec<String> {
        self.declared_beside(name, arguments, false, |o| owner == "Self" || o == owner)
    }

    /// The other methods (taking `self`) of the types that declare `name`
    /// as one, with `arguments` arguments and the same return type: a
    /// strategy's `matches_all(path)` beside its `is_match(path)`, though
    /// the crate never calls it on that receiver.
    pub fn methods_beside(&self, name: &str, arguments: usize) -> Vec<String> {
        self.declared_beside(name, arguments, true, |_| true)
    }

    /// The names declared beside `name` (methods when `receiver`, else
    /// associated functions) by the owners `owned` accepts that declare
    /// it, with `arguments` arguments and its return type there.
    fn declared_beside(
        &self,
        name: &str,
        arguments: usize,
        receiver: bool,
        owned: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let own: Vec<(&str, &str)> = self
            .declared
            .get(name)
            .into_iter()
            .flatten()
            .filter(|d| d.receiver == receiver && d.arguments == arguments)
            .filter(|d| owned(&d.owner))
            .map(|d| (d.owner.as_str(), d.returns.as_str()))
            .collect();
        if own.is_empty() {
            return Vec::new();
        }
        self.declared
            .iter()
            .filter(|(other, _)| *other != name)
            .filter(|(_, declared)| {
                declared.iter().any(|d| {
                    d.receiver == receiver
                        && d.arguments == arguments
                        && own.contains(&(d.owner.as_str(), d.returns.as_str()))
                })
            })
            .map(|(other, _)| other.clone())
            .collect()
    }

    /// Whether every method the crate declares as `name` takes `&self`
    /// (false for a name it does not declare).
    pub fn reads_only(&self, name: &str) -> bool {
        self.declared
            .get(name)
            .is_some_and(|all| all.iter().all(|d| d.reads_only))
    }

    /// Members that may stand for `recv.name` (a field, when `field`) or
    /// `recv.name()` on the same receiver, each with the text after the
    /// `.`: methods with no arguments and fields of the same owners and the
    /// same type (those whose name holds the other's first: `is_negated()`
    /// for `negated`), then methods with no arguments of other owners that
    /// return the same type.
    pub fn members(&self, name: &str, field: bool) -> Vec<String> {
        // The owners of `name` and its type there.
        let typed: Vec<(&str, &str)> = if field {
            self.struct_fields
                .iter()
                .flat_map(|(owner, fields)| {
                    let own = fields.iter().filter(|(f, _)| f == name);
                    own.map(move |(_, ty)| (owner.as_str(), ty.as_str()))
                })
                .collect()
        } else {
            let declared = self.declared.get(name).into_iter().flatten();
            declared
                .filter(|d| d.receiver && d.arguments == 0)
                .map(|d| (d.owner.as_str(), d.returns.as_str()))
                .collect()
        };
        let stem = name.trim_start_matches("is_").trim_start_matches("get_");
        // Same owner and type: (whether the name lacks the stem, the text).
        let mut same: Vec<(bool, String)> = Vec::new();
        let mut others: Vec<String> = Vec::new();
        for (method, declared) in &self.declared {
            for d in declared.iter().filter(|d| d.receiver && d.arguments == 0) {
                if typed.contains(&(d.owner.as_str(), d.returns.as_str())) {
                    same.push((!method.contains(stem), format!("{method}()")));
                } else if !field && typed.iter().any(|(_, ty)| *ty == d.returns) {
                    others.push(format!("{method}()"));
                }
            }
        }
        for (owner, ty) in &typed {
            for (other, other_ty) in self.struct_fields.get(*owner).into_iter().flatten() {
                if other_ty == ty {
                    same.push((!other.contains(stem), other.clone()));
                }
            }
        }
        same.sort();
        let own = if field {
            name.to_string()
        } else {
            format!("{name}()")
        };
        let mut out: Vec<String> = Vec::new();
        let others = others.into_iter().take(OTHER_OWNERS);
        for text in same.into_iter().map(|(_, text)| text).chain(others) {
            if text != own && !out.contains(&text) {
                out.push(text);
            }
        }
        out
    }
}

/// Methods of other owners [`MutationSpace::members`] offers, at most.
const OTHER_OWNERS: usize = 12;

/// A value a function returns, as written, with the variables it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Returned {
    pub text: String,
    pub free: BTreeSet<String>,
}

impl Returned {
    /// Whether it can be returned where `bound` are in scope.
    pub fn fits(&self, bound: &[String]) -> bool {
        self.free.iter().all(|name| bound.contains(name))
    }

    /// `E` of a returned `Err(E)`: the function's error path.
    pub fn error(&self) -> Option<&str> {
        self.text
            .strip_prefix("Err(")
            .and_then(|rest| rest.strip_suffix(')'))
    }
}

impl MutationSpace {
    /// The other items of `file` with the type of its item `name`.
    pub fn sibling_items<'s>(&'s self, file: FileId, name: &str) -> impl Iterator<Item = &'s str> {
        let items = self.items.get(&file);
        let ty = items.and_then(|items| items.get(name));
        items
            .into_iter()
            .flatten()
            .filter(move |(other, other_ty)| *other != name && Some(*other_ty) == ty)
            .map(|(other, _)| other.as_str())
    }
}
