//! The mutation space of a crate: every place a mutation operator can apply
//! (a site), with its location and the variables in scope there, and the
//! ingredients mutations are made of (statements, conditions, literals and
//! method names found in the crate's own code: "plastic surgery").
//!
//! Sites and ingredients hold byte ranges into the original texts, never
//! reprinted code, so every edit built from them touches only its range.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use syn::spanned::Spanned;
use syn::{Expr, Stmt};

use crate::code::source::{FileId, Location};
use crate::code::{CrateSources, is_test_code};
use crate::code::{
    EnclosingStatement, RunnableCode, Scope, branch_values, free_variables, has_let, header,
    is_comparison, is_compound_assignment, mentions, pattern_bindings, variable_occurrences,
    walk_runnable_code, without_spaces,
};

/// A place in the crate where some operator can apply.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub file: FileId,
    /// The line (location) whose suspiciousness weighs this site.
    pub line: u32,
    /// Variables in scope at the site.
    pub bound: Vec<String>,
    /// The block statement the site is in.
    pub statement: Option<EnclosingStatement>,
    /// The function it is in (for data: the `const` or `static` item).
    pub function: String,
    /// What a `return` here returns: the function's return type without
    /// spaces (empty for `()`; `None` in a closure or in data).
    pub returns: Option<String>,
    pub kind: SiteKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SiteKind {
    Statement(StatementSite),
    /// An `if`/`while` condition, or a comparison or conjunction used as
    /// a value.
    Condition {
        range: Range<usize>,
        atomic: bool,
        /// Its negation: `x` for `!x`, else `!x` or `!(x)`.
        negation: String,
        /// The `<`, `<=`, `>`, `>=` tokens of its comparisons, those it
        /// joins with `&&`, `||` and `!` (the ends of a range check).
        bounds: Vec<Range<usize>>,
    },
    /// The operator token of a binary expression (`expression`), and its operands.
    BinaryOperator {
        range: Range<usize>,
        operator: String,
        expression: Range<usize>,
        left: Range<usize>,
        right: Range<usize>,
    },
    /// A literal; `data`: in a `const` or `static` item.
    Literal {
        range: Range<usize>,
        literal: Literal,
        data: bool,
    },
    /// A use of a local variable.
    Variable {
        range: Range<usize>,
        name: String,
    },
    /// A use of a module-level `const` or `static` of the site's file that
    /// has siblings of its type (`HEX_CHARS_UPPER` for `HEX_CHARS_LOWER`).
    Item {
        range: Range<usize>,
        name: String,
    },
    /// The name of a field access (`x.name`).
    Field {
        range: Range<usize>,
        name: String,
        /// The whole field access (`self.year`).
        expression: Range<usize>,
    },
    /// The method name of a method call (`expression`), or the function
    /// name of a call by path (`cmp::max(a, b)`, `Self::new(x)`: no
    /// receiver).
    Method {
        range: Range<usize>,
        name: String,
        arguments: usize,
        receiver: bool,
        /// For a call by path, the segment before the function's name
        /// (`cmp`, `Self`, a type).
        owner: Option<String>,
        expression: Range<usize>,
        /// With one argument: the receiver and the argument (`a` and `&b`
        /// in `a.cmp(&b)`), and whether the argument, its `&` taken away,
        /// can be a receiver without parentheses.
        operands: Option<(Range<usize>, Range<usize>, bool)>,
    },
    /// The `..` or `..=` of a range with an end (`expression`).
    RangeLimits {
        range: Range<usize>,
        inclusive: bool,
        expression: Range<usize>,
    },
    /// The arguments of a call or method call with two or more.
    Call {
        arguments: Vec<Range<usize>>,
    },
    /// An expression that is likely an integer: an index, a range bound, a
    /// call argument, a side of a comparison, a value given to a `let`, an
    /// assignment (`=`, `+=` and the like) or a function's result, or a
    /// branch's value there (not a literal). `integer`: the syntax says so
    /// (an index, a range bound, a `len()`).
    Operand {
        range: Range<usize>,
        atomic: bool,
        integer: bool,
    },
    /// `receiver.unwrap()` or `.expect(..)`: `call` runs from the method name
    /// to the end of the call.
    Unwrap {
        call: Range<usize>,
        receiver: Range<usize>,
    },
    /// An element read by index, `base[index]` (`expression`), not a slice.
    Index {
        expression: Range<usize>,
        base: Range<usize>,
        index: Range<usize>,
    },
    /// The iterable of a `for` loop.
    Iterable {
        range: Range<usize>,
        atomic: bool,
    },
    /// A pattern of a match arm or of `matches!` whose alternatives are
    /// variants of one of the crate's enums (`ItemBody::Paragraph |
    /// ItemBody::List(..)`): `owner` the enum's name as written before the
    /// variants, `variants` theirs, in order, with each one's bytes.
    Pattern {
        range: Range<usize>,
        owner: String,
        variants: Vec<(String, Range<usize>)>,
        /// Whether an alternative binds a name (then none can be added).
        binds: bool,
    },
    /// The start of the first block of an `if`, `while`, `for` or `loop`
    /// (just after its `{`), where a statement can go first: the site's
    /// `bound` has the names the header binds (`names`), such as `name` in
    /// `if let Some(name) = target {`.
    BlockStart {
        at: usize,
        /// The indentation of the block's statements.
        indent: String,
        names: Vec<String>,
        /// Whether the block has no statement.
        empty: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct StatementSite {
    /// The statement's bytes, attributes included.
    pub range: Range<usize>,
    /// The whole lines the statement fills, when nothing else is on them
    /// (from the line start through the newline): deleting these leaves no
    /// blank line behind.
    pub whole_lines: Option<Range<usize>>,
    /// The indentation of the statement's first line.
    pub indent: String,
    /// The last statement of its block, without a semicolon: the block's
    /// value (an `if`/`match` too). Code is inserted before it, and a
    /// statement swapped in keeps being a value.
    pub tail: bool,
    /// `return`, `break` or `continue`: code inserted goes before it.
    pub jumps: bool,
    /// The blocks of a compound statement (`if`/`else`, loop bodies), any one
    /// of which can replace it when its header is deleted.
    pub branches: Vec<Range<usize>>,
    /// Names the statement binds (a `let`), in scope after it.
    pub binds: Vec<String>,
    /// What a `return` in front of it returns (see `Scope::returns`).
    pub returns: Option<String>,
    /// Whether it is in a loop (of its function or closure).
    pub in_loop: bool,
    /// A block's value that surely is not `()` (a tuple, a call, an
    /// arithmetic expression...): only a valued statement may replace it.
    pub valued: bool,
}

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

/// Everything the search can change, and what it can change it with.
#[derive(Debug, Clone, Default)]
pub struct MutationSpace {
    pub sites: Vec<Site>,
    pub statements: Vec<Ingredient>,
    pub conditions: Vec<Ingredient>,
    pub literals: Vec<Literal>,
    /// Method names by number of arguments.
    pub methods: BTreeMap<usize, BTreeSet<String>>,
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
    /// Per enum of the crate (its name), its variants as a pattern that
    /// binds nothing names them after `Enum::`: `Rule`, `List(..)`,
    /// `Heading { .. }`.
    pub enums: BTreeMap<String, Vec<String>>,
    /// Per file and function name, the values its `return`s and tail
    /// return, as written (`None`, `Err(Error::Empty)`, `input.is_empty()`),
    /// and `Err(E)` for each `.ok_or(E)` in a function returning a `Result`:
    /// what a guard added to it may return.
    pub returned: BTreeMap<(FileId, String), Vec<Returned>>,
}

impl MutationSpace {
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
        let own: Vec<(&str, &str)> = self
            .declared
            .get(name)
            .into_iter()
            .flatten()
            .filter(|d| !d.receiver && d.arguments == arguments)
            .filter(|d| owner == "Self" || d.owner == owner)
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
                    !d.receiver
                        && d.arguments == arguments
                        && own.contains(&(d.owner.as_str(), d.returns.as_str()))
                })
            })
            .map(|(other, _)| other.clone())
            .collect()
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

/// Code never to mutate (`--exclude`): files by path relative to the
/// workspace root (a directory ends in `/`), and functions by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exclusions {
    pub patterns: Vec<String>,
}

impl Exclusions {
    /// Whether code of `function` in `file` may not be mutated.
    pub fn excludes(&self, file: &std::path::Path, function: &str) -> bool {
        self.patterns.iter().any(|pattern| {
            let is_path = pattern.contains('/') || pattern.ends_with(".rs");
            if is_path {
                covers(pattern, file)
            } else {
                function == pattern
            }
        })
    }
}

impl Exclusions {
    /// The patterns that name no file and no function of the crate.
    pub fn unmatched<'a>(&'a self, sources: &CrateSources) -> Vec<&'a str> {
        self.patterns
            .iter()
            .filter(|pattern| {
                !sources.iter().any(|(_, file)| {
                    let defines = |name: &str| {
                        file.text
                            .match_indices(&format!("fn {name}"))
                            .any(|(at, m)| {
                                let next = file.text[at + m.len()..].chars().next();
                                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
                            })
                    };
                    covers(pattern, &file.path) || defines(pattern)
                })
            })
            .map(String::as_str)
            .collect()
    }
}

/// Whether a path pattern (`dir/`, `path/file.rs`) covers `file`.
fn covers(pattern: &str, file: &std::path::Path) -> bool {
    let file = file.to_string_lossy().replace('\\', "/");
    if pattern.ends_with('/') {
        file.starts_with(pattern)
    } else {
        (pattern.contains('/') || pattern.ends_with(".rs")) && file == pattern
    }
}

impl Site {
    pub fn location(&self) -> Location {
        Location::new(self.file, self.line)
    }
}

impl SiteKind {
    /// Every byte range an edit at this site may replace (or insert at).
    fn ranges(&self) -> Vec<Range<usize>> {
        match self {
            SiteKind::Statement(s) => {
                let mut ranges = vec![s.range.clone()];
                ranges.extend(s.whole_lines.clone());
                ranges.extend(s.branches.iter().cloned());
                ranges
            }
            SiteKind::Condition { range, .. }
            | SiteKind::Literal { range, .. }
            | SiteKind::Variable { range, .. }
            | SiteKind::Item { range, .. }
            | SiteKind::Operand { range, .. }
            | SiteKind::Iterable { range, .. } => vec![range.clone()],
            SiteKind::BlockStart { at, .. } => vec![Range {
                start: *at,
                end: *at,
            }],
            SiteKind::Field {
                range, expression, ..
            } => vec![range.clone(), expression.clone()],
            SiteKind::BinaryOperator {
                range,
                expression,
                left,
                right,
                ..
            } => vec![
                range.clone(),
                expression.clone(),
                left.clone(),
                right.clone(),
            ],
            SiteKind::Method {
                range,
                expression,
                operands,
                ..
            } => [range.clone(), expression.clone()]
                .into_iter()
                .chain(operands.iter().flat_map(|(r, a, _)| [r.clone(), a.clone()]))
                .collect(),
            SiteKind::RangeLimits {
                range, expression, ..
            } => vec![range.clone(), expression.clone()],
            SiteKind::Call { arguments } => arguments.clone(),
            SiteKind::Unwrap { call, receiver } => vec![call.clone(), receiver.clone()],
            SiteKind::Index {
                expression,
                base,
                index,
            } => vec![expression.clone(), base.clone(), index.clone()],
            SiteKind::Pattern {
                range, variants, ..
            } => std::iter::once(range.clone())
                .chain(variants.iter().map(|(_, r)| r.clone()))
                .collect(),
        }
    }
}

/// Collects sites and ingredients from every crate file. Excluded code
/// gives ingredients but no sites.
pub fn collect_mutation_space(sources: &CrateSources, exclusions: &Exclusions) -> MutationSpace {
    let mut space = MutationSpace::default();
    for (index, file) in sources.iter() {
        collect_constants(index, &file.syntax, &mut space, &|name: &str| {
            exclusions.excludes(&file.path, name)
        });
    }
    for (index, file) in sources.iter() {
        let mut collector = Collector {
            file: index,
            text: &file.text,
            space: &mut space,
            callees: BTreeSet::new(),
            sites: Vec::new(),
            excluded: &|function: &str| exclusions.excludes(&file.path, function),
            conditions_end: 0,
            values: BTreeSet::new(),
        };
        walk_runnable_code(&file.syntax, &mut collector);
        let sites = std::mem::take(&mut collector.sites);
        space.sites.extend(sites);
    }
    let mut reads = reads_of(sources, &space.constants);
    for constant in &mut space.constants {
        constant.read_at = reads.remove(&constant.name).unwrap_or_default();
    }
    // Code with `$fragment`s (from a macro's transcriber) means nothing
    // elsewhere: no ingredient.
    let mut seen = BTreeSet::new();
    space
        .statements
        .retain(|i| !i.text.contains('$') && seen.insert(i.text.clone()));
    let mut seen = BTreeSet::new();
    space
        .conditions
        .retain(|i| !i.text.contains('$') && seen.insert(i.text.clone()));
    space.literals.sort();
    space.literals.dedup();
    space
}

/// The crate's `const` and `static` items with literals, and where
/// runnable code names them (what localization ranks data by).
pub fn constants(sources: &CrateSources) -> Vec<Constant> {
    let mut space = MutationSpace::default();
    for (file, source) in sources.iter() {
        collect_constants(file, &source.syntax, &mut space, &|_| false);
    }
    let mut reads = reads_of(sources, &space.constants);
    for constant in &mut space.constants {
        constant.read_at = reads.remove(&constant.name).unwrap_or_default();
    }
    space.constants
}

/// Where runnable code names each of `constants`: a path ending in its
/// name, or a macro call that mentions it (see `syntax::mentions`: as a
/// word or in a format string).
fn reads_of(
    sources: &CrateSources,
    constants: &[Constant],
) -> BTreeMap<String, BTreeSet<Location>> {
    struct Reads<'a> {
        file: FileId,
        names: &'a BTreeSet<&'a str>,
        reads: BTreeMap<String, BTreeSet<Location>>,
    }
    impl Reads<'_> {
        fn read(&mut self, name: &str, scope: &Scope) {
            if self.names.contains(name) {
                self.reads
                    .entry(name.to_string())
                    .or_default()
                    .insert(Location::new(self.file, scope.location));
            }
        }

        fn macro_call(&mut self, mac: &syn::Macro, scope: &Scope) {
            for (name, _) in mentions(mac.tokens.clone(), self.names) {
                self.read(name, scope);
            }
        }
    }
    impl RunnableCode for Reads<'_> {
        fn statement(&mut self, stmt: &Stmt, scope: &Scope) {
            if let Stmt::Macro(m) = stmt {
                self.macro_call(&m.mac, scope);
            }
        }
        fn expression(&mut self, expr: &Expr, scope: &Scope) {
            match expr {
                Expr::Path(path) => {
                    if let Some(last) = path.path.segments.last() {
                        self.read(&last.ident.to_string(), scope);
                    }
                }
                Expr::Macro(m) => self.macro_call(&m.mac, scope),
                _ => {}
            }
        }
    }
    let names: BTreeSet<&str> = constants.iter().map(|c| c.name.as_str()).collect();
    let mut visitor = Reads {
        file: FileId::new(0),
        names: &names,
        reads: BTreeMap::new(),
    };
    for (file, source) in sources.iter() {
        visitor.file = file;
        walk_runnable_code(&source.syntax, &mut visitor);
    }
    visitor.reads
}

struct Collector<'a> {
    file: FileId,
    text: &'a str,
    space: &'a mut MutationSpace,
    /// Ranges of paths called as functions: not variables.
    callees: BTreeSet<(usize, usize)>,
    sites: Vec<Site>,
    /// Whether a function's code may not be mutated.
    excluded: &'a dyn Fn(&str) -> bool,
    /// The end of the furthest condition site so far: an expression that
    /// starts before it is part of one (the walk goes outermost first).
    conditions_end: usize,
    /// Expressions (by their bytes) that give a `let`, an assignment or a
    /// function its value (see `branch_values`): operands, once the walk
    /// reaches them.
    values: BTreeSet<(usize, usize)>,
}

impl Collector<'_> {
    /// Marks the expressions that give `value` its value as operands.
    fn value(&mut self, value: &Expr) {
        for leaf in branch_values(value) {
            let range = leaf.span().byte_range();
            self.values.insert((range.start, range.end));
        }
    }

    fn site(&mut self, scope: &Scope, kind: SiteKind) {
        self.site_binding(scope, kind, &[]);
    }

    /// A value the function of `scope` returns (short ones, on one line):
    /// for its guards and early exits.
    fn returns(&mut self, scope: &Scope, text: String, free: BTreeSet<String>) {
        if text.len() > 80 || text.contains('\n') {
            return;
        }
        let values = self
            .space
            .returned
            .entry((self.file, scope.function.clone()))
            .or_default();
        if !values.iter().any(|v| v.text == text) {
            values.push(Returned { text, free });
        }
    }

    /// A site where `names` are in scope too.
    fn site_binding(&mut self, scope: &Scope, kind: SiteKind, names: &[String]) {
        if (self.excluded)(&scope.function) {
            return;
        }
        // In a macro's transcriber, an edit must keep its repetitions whole.
        if let Some(site) = &scope.in_macro
            && !kind.ranges().iter().all(|range| site.allows(range))
        {
            return;
        }
        let mut bound = scope.bound();
        for name in names {
            if !bound.contains(name) {
                bound.push(name.clone());
            }
        }
        self.sites.push(Site {
            file: self.file,
            line: scope.location,
            bound,
            statement: scope.statement.clone(),
            function: scope.function.clone(),
            returns: scope.returns.clone(),
            kind,
        });
    }

    /// An ingredient found here: `node`'s text, with its free variables
    /// and where they occur in it.
    fn ingredient(
        &self,
        node: &impl quote::ToTokens,
        range: Range<usize>,
        free: BTreeSet<String>,
        header: bool,
        closed: bool,
        scope: &Scope,
    ) -> Ingredient {
        let uses = variable_occurrences(node, &free)
            .into_iter()
            .filter(|(_, r)| range.start <= r.start && r.end <= range.end)
            .map(|(name, r)| (name, r.start - range.start..r.end - range.start))
            .collect();
        Ingredient {
            start: range.start,
            text: self.text[range].to_string(),
            header,
            closed,
            free,
            origin: Location::new(self.file, scope.location),
            uses,
            binds: Vec::new(),
            unit: false,
            inert: false,
        }
    }

    /// For `let mut x = init;`, the statement `x = init;`: an accumulator
    /// put back as it started (a buffer cleared, a count restarted), the
    /// statement most often missing from a loop.
    fn reset(&self, local: &syn::Local, scope: &Scope) -> Option<Ingredient> {
        let pat = match &local.pat {
            syn::Pat::Type(typed) => &*typed.pat,
            pat => pat,
        };
        let syn::Pat::Ident(ident) = pat else {
            return None;
        };
        let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
        if ident.mutability.is_none() || ident.by_ref.is_some() || ident.subpat.is_some() {
            return None;
        }
        // The initializer as an ingredient, then `name = ` before it.
        let expr = &*init.expr;
        let range = expr.span().byte_range();
        let mut reset = self.ingredient(expr, range, free_variables(expr), false, true, scope);
        let name = ident.ident.to_string();
        let prefix = format!("{name} = ");
        reset.text = format!("{prefix}{};", reset.text);
        reset.start -= prefix.len();
        for (_, at) in &mut reset.uses {
            *at = at.start + prefix.len()..at.end + prefix.len();
        }
        reset.uses.insert(0, (name.clone(), 0..name.len()));
        reset.free.insert(name);
        reset.unit = true;
        Some(reset)
    }

    /// An operand site for `expr` (not a literal: the value operator has those).
    fn operand(&mut self, expr: &Expr, integer: bool, scope: &Scope) {
        if matches!(expr, Expr::Lit(_)) {
            return;
        }
        let integer = integer || is_length(expr);
        self.site(
            scope,
            SiteKind::Operand {
                range: expr.span().byte_range(),
                atomic: is_atomic(expr),
                integer,
            },
        );
    }

    fn text_of(&self, range: &Range<usize>) -> &str {
        &self.text[range.clone()]
    }

    /// The statement's lines, if it has them to itself.
    fn whole_lines(&self, range: &Range<usize>) -> Option<Range<usize>> {
        let line_start = self.text[..range.start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.text[range.end..]
            .find('\n')
            .map_or(self.text.len(), |i| range.end + i + 1);
        let before_blank = self.text[line_start..range.start].trim().is_empty();
        let after_blank = self.text[range.end..line_end].trim().is_empty();
        (before_blank && after_blank).then_some(line_start..line_end)
    }

    /// Whether only whitespace and comments separate `offset` from the `}`
    /// that closes the block.
    fn ends_block(&self, offset: usize) -> bool {
        let mut rest = &self.text[offset..];
        loop {
            rest = rest.trim_start();
            if let Some(comment) = rest.strip_prefix("//") {
                rest = comment.split_once('\n').map_or("", |(_, after)| after);
            } else {
                return rest.starts_with('}');
            }
        }
    }

    fn indent_at(&self, offset: usize) -> String {
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        self.text[line_start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    }
}

/// A compound statement's header (`if c`, `while c`, `for p in e`; none for
/// `loop` and blocks) and its blocks.
type CompoundParts = (Option<Range<usize>>, Vec<Range<usize>>);

fn compound_parts(expr: &Expr) -> Option<CompoundParts> {
    let header_end = |body: &syn::Block| body.brace_token.span.open().byte_range().start;
    let start = expr.span().byte_range().start;
    Some(match expr {
        Expr::If(e) => {
            let mut branches = vec![e.then_branch.span().byte_range()];
            if let Some((_, else_branch)) = &e.else_branch {
                branches.push(else_branch.span().byte_range());
            }
            (Some(start..header_end(&e.then_branch)), branches)
        }
        Expr::While(e) => (
            Some(start..header_end(&e.body)),
            vec![e.body.span().byte_range()],
        ),
        Expr::ForLoop(e) => (
            Some(start..header_end(&e.body)),
            vec![e.body.span().byte_range()],
        ),
        Expr::Loop(e) => (None, vec![e.body.span().byte_range()]),
        Expr::Block(e) => (None, vec![e.block.span().byte_range()]),
        Expr::Unsafe(e) => (None, vec![e.block.span().byte_range()]),
        Expr::Match(_) => (None, Vec::new()),
        _ => return None,
    })
}

/// Whether an expression does nothing but produce a value.
fn is_inert(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(_) | Expr::Path(_) => true,
        Expr::Tuple(tuple) => tuple.elems.iter().all(is_inert),
        Expr::Binary(binary) => {
            !is_compound_assignment(&binary.op) && is_inert(&binary.left) && is_inert(&binary.right)
        }
        Expr::Unary(unary) => is_inert(&unary.expr),
        Expr::Paren(paren) => is_inert(&paren.expr),
        Expr::Field(field) => is_inert(&field.base),
        Expr::Reference(reference) => is_inert(&reference.expr),
        Expr::Cast(cast) => is_inert(&cast.expr),
        _ => false,
    }
}

/// Whether a statement surely has no value but `()`.
fn is_unit(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Local(_) | Stmt::Item(_) => true,
        Stmt::Expr(expr, _) => match expr {
            Expr::ForLoop(_) | Expr::While(_) | Expr::Assign(_) => true,
            Expr::Binary(binary) => is_compound_assignment(&binary.op),
            _ => false,
        },
        Stmt::Macro(_) => false,
    }
}

/// Whether an expression surely has a value other than `()`; a call is
/// taken to have one in a function that returns one (`returns`, see
/// `Scope::returns`).
fn is_valued(expr: &Expr, returns: Option<&str>) -> bool {
    match expr {
        Expr::Tuple(tuple) => !tuple.elems.is_empty(),
        Expr::Binary(binary) => !is_compound_assignment(&binary.op),
        Expr::Call(_) | Expr::MethodCall(_) => returns.is_some_and(|r| !r.is_empty()),
        Expr::Lit(_)
        | Expr::Path(_)
        | Expr::Struct(_)
        | Expr::Array(_)
        | Expr::Repeat(_)
        | Expr::Field(_)
        | Expr::Index(_)
        | Expr::Reference(_)
        | Expr::Unary(_)
        | Expr::Cast(_)
        | Expr::Range(_) => true,
        Expr::Paren(paren) => is_valued(&paren.expr, returns),
        _ => false,
    }
}

/// Whether an expression can be negated or combined without parentheses.
fn is_atomic(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Path(_)
            | Expr::Call(_)
            | Expr::MethodCall(_)
            | Expr::Field(_)
            | Expr::Lit(_)
            | Expr::Paren(_)
            | Expr::Index(_)
            | Expr::Macro(_)
    )
}

fn literal(lit: &syn::Lit) -> Option<Literal> {
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

impl RunnableCode for Collector<'_> {
    fn statement(&mut self, stmt: &Stmt, scope: &Scope) {
        let range = stmt.span().byte_range();
        let (tail, jumps, compound, binds) = match stmt {
            // Without a semicolon, a block's last statement is its value,
            // an `if` or `match` as much as any expression.
            Stmt::Expr(expr, semi) => (
                semi.is_none() && self.ends_block(range.end),
                matches!(expr, Expr::Return(_) | Expr::Break(_) | Expr::Continue(_)),
                compound_parts(expr),
                Vec::new(),
            ),
            Stmt::Local(local) => (false, false, None, pattern_bindings(&local.pat)),
            _ => (false, false, None, Vec::new()),
        };
        match stmt {
            Stmt::Local(local) => local.init.iter().for_each(|init| self.value(&init.expr)),
            Stmt::Expr(Expr::Assign(assign), _) => self.value(&assign.right),
            Stmt::Expr(Expr::Binary(binary), _) if is_compound_assignment(&binary.op) => {
                self.value(&binary.right)
            }
            _ => {}
        }
        // As an ingredient: a simple statement whole, a compound one by its header.
        match &compound {
            Some((Some(header), _)) => {
                if let Stmt::Expr(expr, _) = stmt {
                    let (free, node): (BTreeSet<String>, &Expr) = match expr {
                        Expr::If(e) => (free_variables(&e.cond), &e.cond),
                        Expr::While(e) => (free_variables(&e.cond), &e.cond),
                        Expr::ForLoop(e) => (free_variables(&e.expr), &e.expr),
                        _ => (BTreeSet::new(), expr),
                    };
                    // The header, trimmed like its text.
                    let text = self.text_of(header);
                    let start = header.start + (text.len() - text.trim_start().len());
                    let end = header.end - (text.len() - text.trim_end().len());
                    let mut ingredient = self.ingredient(node, start..end, free, true, true, scope);
                    ingredient.unit = true;
                    self.space.statements.push(ingredient);
                }
            }
            Some((None, _)) => {}
            None => {
                let mut ingredient = self.ingredient(
                    stmt,
                    range.clone(),
                    free_variables(stmt),
                    false,
                    !tail,
                    scope,
                );
                ingredient.binds = binds.clone();
                ingredient.unit = is_unit(stmt);
                ingredient.inert = matches!(stmt, Stmt::Expr(expr, _) if is_inert(expr));
                self.space.statements.push(ingredient);
                if let Stmt::Local(local) = stmt
                    && let Some(reset) = self.reset(local, scope)
                {
                    self.space.statements.push(reset);
                }
            }
        }
        let indent = self.indent_at(range.start);
        // First in a block before the statement: its edits are the more
        // pointed (a cap per operator keeps the first ones).
        if let Stmt::Expr(expr, _) = stmt
            && let Some(header) = header(expr)
            && let Some(block) = header.block
        {
            let kind = SiteKind::BlockStart {
                at: block.brace_token.span.open().byte_range().end,
                indent: format!("{indent}    "),
                names: header.binds.clone(),
                empty: block.stmts.is_empty(),
            };
            self.site_binding(scope, kind, &header.binds);
        }
        let site = StatementSite {
            whole_lines: self.whole_lines(&range),
            indent,
            branches: compound.map(|(_, branches)| branches).unwrap_or_default(),
            range,
            tail,
            jumps,
            binds,
            returns: scope.returns.clone(),
            in_loop: scope.loops > 0,
            valued: tail
                && matches!(stmt, Stmt::Expr(expr, None) if is_valued(expr, scope.returns.as_deref())),
        };
        self.site(scope, SiteKind::Statement(site));
    }

    fn condition(&mut self, cond: &Expr, scope: &Scope) {
        let range = cond.span().byte_range();
        self.conditions_end = self.conditions_end.max(range.end);
        let atomic = is_atomic(cond);
        let own = &self.text[range.clone()];
        let negation = match cond {
            Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Not(_)) => {
                // `!(a && b)` negates to `a && b`.
                let operand = match &*unary.expr {
                    Expr::Paren(paren) => &*paren.expr,
                    operand => operand,
                };
                self.text[operand.span().byte_range()].to_string()
            }
            _ if atomic => format!("!{own}"),
            _ => format!("!({own})"),
        };
        let mut conditions = Vec::new();
        collect_conditions(cond, &mut conditions);
        let bounds = conditions
            .iter()
            .filter_map(|part| match part {
                Expr::Binary(binary)
                    if matches!(
                        binary.op,
                        syn::BinOp::Lt(_)
                            | syn::BinOp::Le(_)
                            | syn::BinOp::Gt(_)
                            | syn::BinOp::Ge(_)
                    ) =>
                {
                    Some(binary.op.span().byte_range())
                }
                _ => None,
            })
            .collect();
        self.site(
            scope,
            SiteKind::Condition {
                range,
                atomic,
                negation,
                bounds,
            },
        );
        for part in conditions {
            let range = part.span().byte_range();
            let ingredient = self.ingredient(
                part,
                range,
                free_variables(part),
                false,
                is_atomic(part),
                scope,
            );
            self.space.conditions.push(ingredient);
        }
    }

    fn returned(&mut self, value: &Expr, scope: &Scope) {
        self.value(value);
        for leaf in branch_values(value) {
            if !matches!(leaf, Expr::Macro(_)) {
                let text = self.text_of(&leaf.span().byte_range()).to_string();
                self.returns(scope, text, free_variables(leaf));
            }
        }
    }

    fn iterable(&mut self, iterable: &Expr, scope: &Scope) {
        self.site(
            scope,
            SiteKind::Iterable {
                range: iterable.span().byte_range(),
                atomic: is_atomic(iterable),
            },
        );
    }

    fn expression(&mut self, expr: &Expr, scope: &Scope) {
        // A comparison or a conjunction that is a value (a `bool` function's
        // result, a closure's predicate, a match guard, a `let`) is a
        // condition as much as an `if`'s.
        if is_predicate(expr) && expr.span().byte_range().start >= self.conditions_end {
            self.condition(expr, scope);
        }
        let range = expr.span().byte_range();
        if self.values.remove(&(range.start, range.end)) {
            self.operand(expr, false, scope);
        }
        match expr {
            Expr::Binary(binary) => {
                let range = binary.op.span().byte_range();
                let operator = self.text_of(&range).to_string();
                let expression = binary.span().byte_range();
                self.site(
                    scope,
                    SiteKind::BinaryOperator {
                        range,
                        operator,
                        expression,
                        left: binary.left.span().byte_range(),
                        right: binary.right.span().byte_range(),
                    },
                );
                if is_comparison(&binary.op) {
                    self.operand(&binary.left, false, scope);
                    self.operand(&binary.right, false, scope);
                }
            }
            Expr::Index(index) => {
                self.operand(&index.index, true, scope);
                if !matches!(*index.index, Expr::Range(_)) {
                    self.site(
                        scope,
                        SiteKind::Index {
                            expression: index.span().byte_range(),
                            base: index.expr.span().byte_range(),
                            index: index.index.span().byte_range(),
                        },
                    );
                }
            }
            Expr::Return(ret) => {
                if let Some(value) = &ret.expr {
                    self.value(value);
                }
            }
            Expr::Lit(lit) => {
                if let Some(literal) = literal(&lit.lit) {
                    self.space.literals.push(literal.clone());
                    self.site(
                        scope,
                        SiteKind::Literal {
                            range: lit.span().byte_range(),
                            literal,
                            data: false,
                        },
                    );
                }
            }
            Expr::Call(call) => {
                let range = call.func.span().byte_range();
                self.callees.insert((range.start, range.end));
                self.arguments(call.args.iter(), scope);
                // A function called by path, where it has siblings, or
                // after one of the crate's types with other functions of
                // its kind (the sites are collected after every file's
                // declarations).
                let segments = match &*call.func {
                    Expr::Path(path) if path.qself.is_none() => Some(&path.path.segments),
                    _ => None,
                };
                if let Some(segments) = segments
                    && let Some(last) = segments.last()
                    && last.arguments.is_none()
                {
                    let name = last.ident.to_string();
                    let owner = segments.iter().rev().nth(1).map(|s| s.ident.to_string());
                    let associated = owner.as_ref().is_some_and(|owner| {
                        !self
                            .space
                            .associated(owner, &name, call.args.len())
                            .is_empty()
                    });
                    if associated || method_siblings(&name).next().is_some() {
                        self.site(
                            scope,
                            SiteKind::Method {
                                range: last.ident.span().byte_range(),
                                name,
                                arguments: call.args.len(),
                                receiver: false,
                                owner,
                                expression: call.span().byte_range(),
                                operands: None,
                            },
                        );
                    }
                }
            }
            Expr::Path(path) => {
                let range = path.span().byte_range();
                if let Some(ident) = path.path.get_ident()
                    && path.qself.is_none()
                    && ident != "self"
                    && scope.binds(&ident.to_string())
                    && !self.callees.contains(&(range.start, range.end))
                {
                    self.site(
                        scope,
                        SiteKind::Variable {
                            range,
                            name: ident.to_string(),
                        },
                    );
                } else if let Some(ident) = path.path.get_ident()
                    && path.qself.is_none()
                    && !scope.binds(&ident.to_string())
                    && !self.callees.contains(&(range.start, range.end))
                    && self
                        .space
                        .sibling_items(self.file, &ident.to_string())
                        .next()
                        .is_some()
                {
                    self.site(
                        scope,
                        SiteKind::Item {
                            range,
                            name: ident.to_string(),
                        },
                    );
                }
            }
            Expr::Field(field) => {
                if let syn::Member::Named(name) = &field.member {
                    self.site(
                        scope,
                        SiteKind::Field {
                            range: name.span().byte_range(),
                            name: name.to_string(),
                            expression: field.span().byte_range(),
                        },
                    );
                }
            }
            Expr::MethodCall(call) => {
                let name = call.method.to_string();
                let arguments = call.args.len();
                self.arguments(call.args.iter(), scope);
                if (name == "unwrap" || name == "expect") && arguments <= 1 {
                    self.site(
                        scope,
                        SiteKind::Unwrap {
                            call: call.method.span().byte_range().start
                                ..call.span().byte_range().end,
                            receiver: call.receiver.span().byte_range(),
                        },
                    );
                }
                self.space
                    .methods
                    .entry(arguments)
                    .or_default()
                    .insert(name.clone());
                // `x.ok_or(E)?` returns `Err(E)`: the function's error path.
                if name == "ok_or"
                    && let [error] = call.args.iter().collect::<Vec<_>>()[..]
                    && scope
                        .returns
                        .as_deref()
                        .is_some_and(|r| r.starts_with("Result<"))
                {
                    let text = self.text_of(&error.span().byte_range());
                    let text = format!("Err({text})");
                    self.returns(scope, text, free_variables(error));
                }
                let operands = match call.args.first() {
                    Some(argument) if arguments == 1 => {
                        let value = match argument {
                            Expr::Reference(reference) if reference.mutability.is_none() => {
                                &*reference.expr
                            }
                            argument => argument,
                        };
                        Some((
                            call.receiver.span().byte_range(),
                            argument.span().byte_range(),
                            is_atomic(value),
                        ))
                    }
                    _ => None,
                };
                self.site(
                    scope,
                    SiteKind::Method {
                        range: call.method.span().byte_range(),
                        name,
                        arguments,
                        receiver: true,
                        owner: None,
                        expression: call.span().byte_range(),
                        operands,
                    },
                );
            }
            Expr::Range(range_expr) if range_expr.end.is_some() => {
                for bound in range_expr.start.iter().chain(&range_expr.end) {
                    self.operand(bound, true, scope);
                }
                let inclusive = matches!(range_expr.limits, syn::RangeLimits::Closed(_));
                self.site(
                    scope,
                    SiteKind::RangeLimits {
                        range: range_expr.limits.span().byte_range(),
                        inclusive,
                        expression: range_expr.span().byte_range(),
                    },
                );
            }
            Expr::Match(expr_match) => {
                for arm in &expr_match.arms {
                    self.pattern(&arm.pat, scope);
                }
            }
            Expr::Macro(call) if call.mac.path.is_ident("matches") => {
                if let Some(pat) = matches_pattern(&call.mac) {
                    self.pattern(&pat, scope);
                }
            }
            _ => {}
        }
    }
}

impl Collector<'_> {
    /// A pattern site, if `pat`'s alternatives are variants of one of the
    /// crate's enums.
    fn pattern(&mut self, pat: &syn::Pat, scope: &Scope) {
        let alternatives: Vec<&syn::Pat> = match pat {
            syn::Pat::Or(or) => or.cases.iter().collect(),
            other => vec![other],
        };
        let mut owner = None;
        let mut variants = Vec::new();
        for alternative in &alternatives {
            let path = match alternative {
                syn::Pat::Path(path) if path.qself.is_none() => &path.path,
                syn::Pat::TupleStruct(tuple) if tuple.qself.is_none() => &tuple.path,
                syn::Pat::Struct(fields) if fields.qself.is_none() => &fields.path,
                _ => return,
            };
            let mut segments = path.segments.iter().rev();
            let (Some(variant), Some(enum_name)) = (segments.next(), segments.next()) else {
                return;
            };
            let enum_name = enum_name.ident.to_string();
            if owner.get_or_insert_with(|| enum_name.clone()) != &enum_name {
                return;
            }
            variants.push((variant.ident.to_string(), alternative.span().byte_range()));
        }
        let Some(owner) = owner else {
            return;
        };
        if !self.space.enums.contains_key(&owner) {
            return;
        }
        let binds = alternatives.iter().any(|a| !pattern_bindings(a).is_empty());
        self.site(
            scope,
            SiteKind::Pattern {
                range: pat.span().byte_range(),
                owner,
                variants,
                binds,
            },
        );
    }
}

/// The pattern of `matches!(value, PATTERN)` (its guard left out).
fn matches_pattern(mac: &syn::Macro) -> Option<syn::Pat> {
    mac.parse_body_with(|input: syn::parse::ParseStream| {
        input.parse::<Expr>()?;
        input.parse::<syn::Token![,]>()?;
        let pat = syn::Pat::parse_multi_with_leading_vert(input)?;
        input.parse::<proc_macro2::TokenStream>()?;
        Ok(pat)
    })
    .ok()
}

impl Collector<'_> {
    /// Argument sites: each argument an operand, and the list, if it has
    /// two or more, for swaps.
    fn arguments<'e>(&mut self, arguments: impl Iterator<Item = &'e Expr>, scope: &Scope) {
        let arguments: Vec<&Expr> = arguments.collect();
        for argument in &arguments {
            self.operand(argument, false, scope);
        }
        if arguments.len() >= 2 {
            let arguments = arguments.iter().map(|a| a.span().byte_range()).collect();
            self.site(scope, SiteKind::Call { arguments });
        }
    }
}

/// A comparison, a conjunction or disjunction (not a chain of `let`s), or
/// a `matches!`: surely a `bool`.
fn is_predicate(expr: &Expr) -> bool {
    if let Expr::Macro(call) = expr {
        return call.mac.path.is_ident("matches");
    }
    let Expr::Binary(binary) = expr else {
        return false;
    };
    let logical = matches!(binary.op, syn::BinOp::And(_) | syn::BinOp::Or(_));
    is_comparison(&binary.op) || (logical && !has_let(&binary.left) && !has_let(&binary.right))
}

/// `x.len()` or `x.count()`: an integer.
fn is_length(expr: &Expr) -> bool {
    matches!(expr, Expr::MethodCall(call) if call.args.is_empty() && (call.method == "len" || call.method == "count"))
}

/// A condition and its boolean parts (the operands of `&&`, `||` and `!`):
/// condition ingredients.
fn collect_conditions<'e>(cond: &'e Expr, out: &mut Vec<&'e Expr>) {
    out.push(cond);
    match cond {
        Expr::Binary(binary) if matches!(binary.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) => {
            collect_conditions(&binary.left, out);
            collect_conditions(&binary.right, out);
        }
        Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Not(_)) => {
            collect_conditions(&unary.expr, out)
        }
        Expr::Paren(paren) => collect_conditions(&paren.expr, out),
        _ => {}
    }
}

/// The literals of `const` and `static` items (outside test code) as
/// sites, and the items as [`Constant`]s.
fn collect_constants(
    file: FileId,
    syntax: &syn::File,
    space: &mut MutationSpace,
    excluded: &dyn Fn(&str) -> bool,
) {
    struct Finder<'a> {
        file: FileId,
        space: &'a mut MutationSpace,
        excluded: &'a dyn Fn(&str) -> bool,
        /// Inline modules and functions around the item.
        depth: usize,
    }
    impl Finder<'_> {
        /// A method or associated function of `owner`.
        fn declare(&mut self, owner: &str, sig: &syn::Signature) {
            let receiver = sig.receiver().is_some();
            let declared = Declared {
                owner: owner.to_string(),
                receiver,
                arguments: sig.inputs.len() - usize::from(receiver),
                returns: match &sig.output {
                    syn::ReturnType::Default => String::new(),
                    syn::ReturnType::Type(_, ty) => without_spaces(ty),
                },
            };
            let all = self
                .space
                .declared
                .entry(sig.ident.to_string())
                .or_default();
            if !all.contains(&declared) {
                all.push(declared);
            }
        }

        fn item(&mut self, attrs: &[syn::Attribute], name: &syn::Ident, ty: &syn::Type) {
            if self.depth == 0 && !is_test_code(attrs) {
                let items = self.space.items.entry(self.file).or_default();
                items.insert(name.to_string(), without_spaces(ty));
            }
        }

        fn constant(
            &mut self,
            item: &impl quote::ToTokens,
            attrs: &[syn::Attribute],
            name: &syn::Ident,
            ty: Option<&syn::Type>,
            value: &Expr,
        ) {
            let name = name.to_string();
            if is_test_code(attrs) || (self.excluded)(&name) {
                return;
            }
            let mut literals = Vec::new();
            syn::visit::Visit::visit_expr(&mut Literals(&mut literals), value);
            let Some(line) = crate::code::start_line(item) else {
                return;
            };
            let mut found = false;
            for lit in literals {
                let Some(literal) = literal(&lit.lit) else {
                    continue;
                };
                found = true;
                self.space.literals.push(literal.clone());
                self.space.sites.push(Site {
                    file: self.file,
                    line,
                    bound: Vec::new(),
                    statement: None,
                    function: name.clone(),
                    returns: None,
                    kind: SiteKind::Literal {
                        range: lit.span().byte_range(),
                        literal,
                        data: true,
                    },
                });
            }
            if found {
                self.space.constants.push(Constant {
                    name,
                    location: Location::new(self.file, line),
                    last_line: value.span().end().line as u32,
                    ty: ty.map(without_spaces),
                    read_at: BTreeSet::new(),
                });
            }
        }
    }
    struct Literals<'a, 'ast>(&'a mut Vec<&'ast syn::ExprLit>);
    impl<'ast> syn::visit::Visit<'ast> for Literals<'_, 'ast> {
        fn visit_expr_lit(&mut self, lit: &'ast syn::ExprLit) {
            self.0.push(lit);
        }
        // Array lengths and the like are types, not data.
        fn visit_type(&mut self, _: &'ast syn::Type) {}
        fn visit_expr_repeat(&mut self, repeat: &'ast syn::ExprRepeat) {
            self.visit_expr(&repeat.expr);
        }
    }
    impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
        fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
            self.item(&item.attrs, &item.ident, &item.ty);
            self.constant(item, &item.attrs, &item.ident, Some(&item.ty), &item.expr);
        }
        fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
            // A `static mut` is named only in `unsafe` code: no stand-in.
            if matches!(item.mutability, syn::StaticMutability::None) {
                self.item(&item.attrs, &item.ident, &item.ty);
            }
            self.constant(item, &item.attrs, &item.ident, Some(&item.ty), &item.expr);
        }
        fn visit_impl_item_const(&mut self, item: &'ast syn::ImplItemConst) {
            self.constant(item, &item.attrs, &item.ident, None, &item.expr);
        }
        fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
            if is_test_code(&item.attrs) {
                return;
            }
            let fields = self
                .space
                .struct_fields
                .entry(item.ident.to_string())
                .or_default();
            for field in &item.fields {
                if let Some(name) = &field.ident {
                    fields.push((name.to_string(), without_spaces(&field.ty)));
                }
            }
            // Fields of one struct with the same type stand for each other.
            let mut by_type: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for field in &item.fields {
                if let Some(name) = &field.ident {
                    by_type
                        .entry(without_spaces(&field.ty))
                        .or_default()
                        .push(name.to_string());
                }
            }
            for names in by_type.values() {
                for name in names {
                    let siblings = self.space.fields.entry(name.clone()).or_default();
                    siblings.extend(names.iter().filter(|n| *n != name).cloned());
                }
            }
        }
        fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
            if is_test_code(&item.attrs) {
                return;
            }
            let variants = item.variants.iter().map(|variant| {
                let name = variant.ident.to_string();
                match &variant.fields {
                    syn::Fields::Unit => name,
                    syn::Fields::Unnamed(_) => format!("{name}(..)"),
                    syn::Fields::Named(_) => format!("{name} {{ .. }}"),
                }
            });
            self.space
                .enums
                .entry(item.ident.to_string())
                .or_default()
                .extend(variants);
        }
        fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
            if !is_test_code(&item.attrs) {
                self.depth += 1;
                syn::visit::visit_item_mod(self, item);
                self.depth -= 1;
            }
        }
        fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
            if !is_test_code(&item.attrs) {
                self.depth += 1;
                syn::visit::visit_item_fn(self, item);
                self.depth -= 1;
            }
        }
        fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
            if is_test_code(&item.attrs) {
                return;
            }
            if let syn::Type::Path(path) = &*item.self_ty
                && let Some(last) = path.path.segments.last()
            {
                let owner = last.ident.to_string();
                for method in item.items.iter().filter_map(|i| match i {
                    syn::ImplItem::Fn(f) => Some(&f.sig),
                    _ => None,
                }) {
                    self.declare(&owner, method);
                }
            }
            syn::visit::visit_item_impl(self, item);
        }
        fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
            if is_test_code(&item.attrs) {
                return;
            }
            let owner = item.ident.to_string();
            for method in item.items.iter().filter_map(|i| match i {
                syn::TraitItem::Fn(f) => Some(&f.sig),
                _ => None,
            }) {
                self.declare(&owner, method);
            }
            syn::visit::visit_item_trait(self, item);
        }
        fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
            self.depth += 1;
            syn::visit::visit_impl_item_fn(self, item);
            self.depth -= 1;
        }
    }
    let mut finder = Finder {
        file,
        space,
        excluded,
        depth: 0,
    };
    syn::visit::Visit::visit_file(&mut finder, syntax);
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
    use super::*;
    use crate::code::CrateSources;

    fn space(text: &str) -> MutationSpace {
        let sources = CrateSources::of_one_file(text);
        collect_mutation_space(&sources, &Exclusions::default())
    }

    #[test]
    fn constants_are_read_by_paths_and_by_macro_calls_format_strings_included() {
        let text = "const MAX: u32 = 3999;\nconst WIDTH: usize = 4;\nconst UNREAD: u8 = 1;\nfn f(n: u32) -> String {\n    if n > MAX {\n        return String::new();\n    }\n    assert!(n < crate::MAX);\n    println!(\"{WIDTH:?}\");\n    format!(\"{n:>WIDTH$} of {MAX}\")\n}\n";
        let sources = CrateSources::of_one_file(text);
        let lines = |constants: &[Constant], name: &str| -> Vec<u32> {
            let constant = constants.iter().find(|c| c.name == name).unwrap();
            constant.read_at.iter().map(|l| l.line).collect()
        };
        let from_space = collect_mutation_space(&sources, &Exclusions::default()).constants;
        for constants in [constants(&sources), from_space] {
            assert_eq!(lines(&constants, "MAX"), [5, 8, 10]);
            assert_eq!(lines(&constants, "WIDTH"), [9, 10]);
            assert!(lines(&constants, "UNREAD").is_empty());
        }
    }

    #[test]
    fn macro_bodies_have_sites_within_their_repetitions_and_give_no_fragment_ingredients() {
        let text = "macro_rules! sum {\n    ($($x:expr),*) => {{\n        let mut s = 0;\n        $( s += $x; )*\n        s + 1\n    }};\n}\n";
        let space = space(text);
        let operators: Vec<(u32, &str)> = space
            .sites
            .iter()
            .filter_map(|s| match &s.kind {
                SiteKind::BinaryOperator {
                    range, expression, ..
                } => Some((s.line, &text[range.clone()]))
                    .filter(|_| !text[expression.clone()].is_empty()),
                _ => None,
            })
            .collect();
        assert_eq!(operators, [(4, "+="), (5, "+")]);
        assert!(space.sites.iter().all(|s| s.function == "sum"));
        let statements: Vec<&str> = space
            .sites
            .iter()
            .filter_map(|s| match &s.kind {
                SiteKind::Statement(st) => Some(&text[st.range.clone()]),
                _ => None,
            })
            .collect();
        assert!(statements.contains(&"s += $x;"), "{statements:?}");
        assert!(
            space.statements.iter().all(|i| !i.text.contains('$')),
            "{:?}",
            space.statements
        );
        assert!(space.statements.iter().any(|i| i.text == "let mut s = 0;"));
    }

    #[test]
    fn a_mutable_variable_can_be_put_back_as_it_started() {
        let text = "fn f(s: &str, k: usize) -> Vec<String> {\n    let mut out = Vec::new();\n    let mut word: String = s.repeat(k);\n    for c in s.chars() {\n        word.push(c);\n        out.push(word.clone());\n    }\n    out\n}\n";
        let space = space(text);
        let reset = space
            .statements
            .iter()
            .find(|i| i.text == "word = s.repeat(k);")
            .expect("the reset of word");
        assert_eq!(
            reset.free,
            BTreeSet::from(["k".to_string(), "s".to_string(), "word".to_string()])
        );
        assert_eq!(
            reset.renamed(&[("word", "w"), ("s", "t")]),
            "w = t.repeat(k);"
        );
        assert!(reset.unit && !reset.inert && reset.binds.is_empty());
        assert!(
            space
                .statements
                .iter()
                .any(|i| i.text == "out = Vec::new();")
        );
    }

    #[test]
    fn comparisons_used_as_values_are_conditions_once() {
        let text = "fn f(v: &[u32], n: u32) -> bool {\n    let big = v.iter().any(|&x| x > n && x != 0);\n    if let Some(&x) = v.first() && x > 1 {\n        return x < n;\n    }\n    if big || n == 0 {\n        return true;\n    }\n    v.len() > 2\n}\n";
        let space = space(text);
        let conditions: Vec<(u32, &str)> = space
            .sites
            .iter()
            .filter_map(|s| match &s.kind {
                SiteKind::Condition { range, .. } => Some((s.line, &text[range.clone()])),
                _ => None,
            })
            .collect();
        assert_eq!(
            conditions,
            [
                (2, "x > n && x != 0"),
                (3, "x > 1"),
                (4, "x < n"),
                (6, "big || n == 0"),
                (9, "v.len() > 2"),
            ]
        );
    }

    #[test]
    fn collects_sites_with_locations_and_scopes() {
        let text = "fn f(x: u32, y: u32) -> u32 {\n    let z = x + 1;\n    if z < y {\n        return y;\n    }\n    z\n}\n";
        let space = space(text);
        let kinds: Vec<(u32, &str)> = space
            .sites
            .iter()
            .map(|s| {
                let kind = match &s.kind {
                    SiteKind::Statement(_) => "statement",
                    SiteKind::Condition { .. } => "condition",
                    SiteKind::BinaryOperator { .. } => "operator",
                    SiteKind::Literal { .. } => "literal",
                    SiteKind::Variable { .. } => "variable",
                    SiteKind::Item { .. } => "item",
                    SiteKind::Field { .. } => "field",
                    SiteKind::Method { .. } => "method",
                    SiteKind::RangeLimits { .. } => "range",
                    SiteKind::Call { .. } => "call",
                    SiteKind::Operand { .. } => "operand",
                    SiteKind::Unwrap { .. } => "unwrap",
                    SiteKind::Iterable { .. } => "iterable",
                    SiteKind::BlockStart { .. } => "block",
                    SiteKind::Index { .. } => "index",
                    SiteKind::Pattern { .. } => "pattern",
                };
                (s.line, kind)
            })
            .collect();
        assert_eq!(
            kinds,
            [
                (2, "statement"),
                (2, "operand"),
                (2, "operator"),
                (2, "variable"),
                (2, "literal"),
                (3, "block"),
                (3, "statement"),
                (3, "condition"),
                (3, "operator"),
                (3, "operand"),
                (3, "operand"),
                (3, "variable"),
                (3, "variable"),
                (4, "statement"),
                (4, "operand"),
                (4, "variable"),
                (6, "statement"),
                (6, "operand"),
                (6, "variable"),
            ]
        );
        let return_site = &space.sites[13];
        assert_eq!(return_site.bound, ["x", "y", "z"]);
        let SiteKind::Statement(statement) = &return_site.kind else {
            panic!()
        };
        assert!(statement.jumps);
        assert_eq!(
            &text[statement.whole_lines.clone().unwrap()],
            "        return y;\n"
        );
        let SiteKind::Statement(tail) = &space.sites[16].kind else {
            panic!()
        };
        assert!(tail.tail);
    }

    #[test]
    fn ingredients_are_statements_headers_conditions_and_literals() {
        let text = "fn f(a: i32, s: &str) -> bool {\n    let n = a * 2;\n    if n > 3 && !s.is_empty() {\n        return true;\n    }\n    for c in s.chars() {\n        c.len_utf8();\n    }\n    false\n}\n";
        let space = space(text);
        let statements: Vec<(&str, bool)> = space
            .statements
            .iter()
            .map(|i| (i.text.as_str(), i.header))
            .collect();
        assert!(statements.contains(&("let n = a * 2;", false)));
        assert!(!statements.contains(&("n = a * 2;", false)), "not mutable");
        assert!(statements.contains(&("if n > 3 && !s.is_empty()", true)));
        assert!(statements.contains(&("for c in s.chars()", true)));
        assert!(statements.contains(&("false", false)));
        let let_n = space
            .statements
            .iter()
            .find(|i| i.text == "let n = a * 2;")
            .unwrap();
        assert_eq!(let_n.free, BTreeSet::from(["a".to_string()]));
        let conditions: Vec<&str> = space.conditions.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(
            conditions,
            [
                "n > 3 && !s.is_empty()",
                "n > 3",
                "!s.is_empty()",
                "s.is_empty()"
            ]
        );
        assert!(space.literals.contains(&Literal::Int {
            value: 3,
            suffix: String::new(),
            radix: 10,
            upper: false,
        }));
        assert!(space.methods[&0].contains("chars") && space.methods[&0].contains("is_empty"));
    }

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
    fn excluded_functions_give_ingredients_but_no_sites() {
        let text = "fn keep(a: u8) -> u8 {\n    a + 1\n}\nfn skip(b: u8) -> u8 {\n    b * 2\n}\n";
        let sources = CrateSources::of_one_file(text);
        let space = collect_mutation_space(
            &sources,
            &Exclusions {
                patterns: vec!["skip".into()],
            },
        );
        assert!(space.sites.iter().all(|s| s.line == 2));
        assert!(space.statements.iter().any(|i| i.text == "b * 2"));
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

    #[test]
    fn exclusions_match_files_directories_and_functions() {
        let exclusions = Exclusions {
            patterns: vec!["src/gen/".into(), "src/lib.rs".into(), "helper".into()],
        };
        let excludes =
            |file: &str, function| exclusions.excludes(std::path::Path::new(file), function);
        assert!(excludes("src/gen/a.rs", "f"));
        assert!(excludes("src/lib.rs", "f"));
        assert!(excludes("src/main.rs", "helper"));
        assert!(!excludes("src/main.rs", "main"));
    }

    #[test]
    fn callees_are_not_variables() {
        let space = space("fn f(g: fn() -> u8) -> u8 {\n    g()\n}\n");
        assert!(
            !space
                .sites
                .iter()
                .any(|s| matches!(s.kind, SiteKind::Variable { .. }))
        );
    }
}
