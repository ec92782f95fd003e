//! Mutation operators: each turns a site of the mutation space into an edit.
//!
//! Locations are drawn with probability proportional to their
//! suspiciousness (lines no failing test executed are never chosen), then an
//! operator among those with a site there, then one of its sites.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use rand::Rng;
use rand::prelude::*;

use std::ops::Range;

use crate::candidate::{Candidate, Guard, PatchEdit};
use crate::sites::{Ingredient, MutationSpace, Site, SiteKind, StatementSite};
use crate::source::Edit;

/// The mutation operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// Delete a statement; of a compound statement, keep one of its blocks.
    Delete,
    /// Replace a statement by one from the crate (a compound one as its header with an empty body).
    Swap,
    /// Insert a statement from the crate after (or before a jump or a tail, around for a header).
    Insert,
    /// Replace, negate, or `&&`/`||`-combine a condition.
    Condition,
    /// Replace a comparison, arithmetic, logical or compound-assignment operator.
    BinaryOperator,
    /// Replace a literal by a neighbour or another literal of the crate.
    Value,
    /// Replace a variable by another variable in scope.
    Identifier,
    /// Replace a method by a sibling (`min`/`max`...) or another method of the crate.
    Method,
    /// Turn `a..b` into `a..=b` and back.
    Range,
}

impl Operator {
    pub const ALL: [Operator; 9] = [
        Operator::Delete,
        Operator::Swap,
        Operator::Insert,
        Operator::Condition,
        Operator::BinaryOperator,
        Operator::Value,
        Operator::Identifier,
        Operator::Method,
        Operator::Range,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Operator::Delete => "delete",
            Operator::Swap => "swap",
            Operator::Insert => "insert",
            Operator::Condition => "condition",
            Operator::BinaryOperator => "operator",
            Operator::Value => "value",
            Operator::Identifier => "identifier",
            Operator::Method => "method",
            Operator::Range => "range",
        }
    }

    /// Whether the operator applies to a site of this kind.
    fn applies_to(self, kind: &SiteKind) -> bool {
        matches!(
            (self, kind),
            (
                Operator::Delete | Operator::Swap | Operator::Insert,
                SiteKind::Statement(_)
            ) | (Operator::Condition, SiteKind::Condition { .. })
                | (Operator::BinaryOperator, SiteKind::BinaryOperator { .. })
                | (Operator::Value, SiteKind::Literal { .. })
                | (Operator::Identifier, SiteKind::Variable { .. })
                | (Operator::Method, SiteKind::Method { .. })
                | (Operator::Range, SiteKind::RangeLimits { .. })
        )
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Operator {
    type Err = String;

    fn from_str(name: &str) -> Result<Operator, String> {
        Operator::ALL
            .into_iter()
            .find(|o| o.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Operator::ALL.iter().map(|o| o.name()).collect();
                format!(
                    "unknown operator `{name}` (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

const OPERATOR_CLASSES: &[&[&str]] = &[
    &["<", "<=", ">", ">=", "==", "!="],
    &["+", "-", "*", "/", "%"],
    &["&&", "||"],
    &["+=", "-=", "*=", "/=", "%="],
    &["&", "|", "^"],
    &["<<", ">>"],
    &["&=", "|=", "^="],
    &["<<=", ">>="],
];

/// Methods that are easily confused with each other.
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
    &["saturating_sub", "wrapping_sub"],
    &["saturating_add", "wrapping_add"],
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

/// Draws random edits from a mutation space.
#[derive(Debug)]
pub struct Mutator<'a> {
    space: &'a MutationSpace,
    texts: Vec<&'a str>,
    operators: Vec<Operator>,
    /// Suspicious locations (file, line) with their weights, and their
    /// sites by operator.
    locations: Vec<Location>,
}

/// A suspicious location of the mutator.
#[derive(Debug, Clone)]
struct Location {
    file: usize,
    line: u32,
    /// The weight suspiciousness gives it, and the weight it has now.
    base: f64,
    weight: f64,
    sites: BTreeMap<Operator, Vec<usize>>,
}

impl<'a> Mutator<'a> {
    /// `suspiciousness(file, line)` weighs each location; locations that
    /// weigh nothing (no failing test executed them) are never mutated.
    pub fn new(
        space: &'a MutationSpace,
        texts: Vec<&'a str>,
        operators: &[Operator],
        suspiciousness: impl Fn(usize, u32) -> f64,
    ) -> Mutator<'a> {
        let mut by_location: BTreeMap<(usize, u32), BTreeMap<Operator, Vec<usize>>> =
            BTreeMap::new();
        for (index, site) in space.sites.iter().enumerate() {
            for &operator in operators {
                if operator.applies_to(&site.kind) {
                    by_location
                        .entry((site.file, site.location))
                        .or_default()
                        .entry(operator)
                        .or_default()
                        .push(index);
                }
            }
        }
        let locations = by_location
            .into_iter()
            .map(|((file, line), sites)| {
                // DStar's scores can be infinite; weights must add up.
                let base = suspiciousness(file, line).min(1e9);
                Location {
                    file,
                    line,
                    base,
                    weight: base,
                    sites,
                }
            })
            .filter(|location| location.base > 0.0)
            .collect();
        Mutator {
            space,
            texts,
            operators: operators.to_vec(),
            locations,
        }
    }

    /// Whether there is anything to mutate.
    pub fn is_empty(&self) -> bool {
        self.locations.is_empty()
    }

    pub fn operators(&self) -> &[Operator] {
        &self.operators
    }

    /// Sets each location's weight to its suspiciousness times
    /// `factor(file, line)` (what the search learned about it).
    pub fn reweigh(&mut self, factor: impl Fn(usize, u32) -> f64) {
        for location in &mut self.locations {
            location.weight = location.base * factor(location.file, location.line);
        }
    }

    /// The locations (file, line) with their suspiciousness and current weight.
    pub fn weights(&self) -> impl Iterator<Item = ((usize, u32), f64, f64)> + '_ {
        self.locations
            .iter()
            .map(|l| ((l.file, l.line), l.base, l.weight))
    }

    /// A random edit at a suspicious location, or `None` if none could be
    /// made (after a few tries: some sites have no fitting ingredient).
    pub fn mutation(&self, rng: &mut impl Rng) -> Option<PatchEdit> {
        for _ in 0..32 {
            let location = self.locations.choose_weighted(rng, |l| l.weight).ok()?;
            let operators: Vec<&Operator> = location.sites.keys().collect();
            let operator = **operators.choose(rng)?;
            if let Some(edit) = self.apply_at(location, operator, rng) {
                return Some(edit);
            }
        }
        None
    }

    /// A random edit by `operator` at `(file, line)`, if it has such a site.
    pub fn mutation_at(
        &self,
        rng: &mut impl Rng,
        file: usize,
        line: u32,
        operator: Operator,
    ) -> Option<PatchEdit> {
        let location = self
            .locations
            .iter()
            .find(|l| l.file == file && l.line == line)?;
        (0..8).find_map(|_| self.apply_at(location, operator, rng))
    }

    /// Up to `count` distinct candidates like those a search makes: one
    /// mutation of the original, every other one two (for benchmarks and
    /// tests of the evaluators).
    pub fn sample(&self, rng: &mut impl Rng, count: usize) -> Vec<Candidate> {
        let mut candidates: Vec<Candidate> = Vec::new();
        for attempt in 0..count * 20 {
            if candidates.len() >= count {
                break;
            }
            let Some(first) = self.mutation(rng) else {
                break;
            };
            let mut candidate = Candidate::original().with(first);
            if attempt % 2 == 1
                && let Some(second) = self.mutation(rng)
            {
                candidate = candidate.with(second);
            }
            if !candidates.contains(&candidate) {
                candidates.push(candidate);
            }
        }
        candidates
    }

    /// Every one-token edit at the heaviest locations, heaviest first (ties
    /// in source order), at most `limit`: each operator replaced by the
    /// others of its class, each condition negated, each integer literal
    /// moved by one and each boolean flipped, each method replaced by its
    /// siblings (`min`/`max`), each range made inclusive or exclusive. The
    /// commonest slips are one token wide; trying them all where the fault
    /// most likely is finds them without luck.
    pub fn neighbourhood(&self, limit: usize) -> Vec<PatchEdit> {
        let mut locations: Vec<&Location> = self.locations.iter().collect();
        locations.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        let mut edits = Vec::new();
        for location in locations {
            for (&operator, indices) in &location.sites {
                for &index in indices {
                    let site = &self.space.sites[index];
                    for edit in one_token_edits(operator, site) {
                        if edits.len() >= limit {
                            return edits;
                        }
                        edits.push(PatchEdit {
                            file: site.file,
                            guard: guard(site, &edit),
                            edit,
                            operator,
                            location: site.location,
                        });
                    }
                }
            }
        }
        edits
    }

    fn apply_at(
        &self,
        location: &Location,
        operator: Operator,
        rng: &mut impl Rng,
    ) -> Option<PatchEdit> {
        let site = &self.space.sites[*location.sites.get(&operator)?.choose(rng)?];
        let edit = apply(operator, site, self.space, self.texts[site.file], rng)?;
        Some(PatchEdit {
            file: site.file,
            guard: guard(site, &edit),
            edit,
            operator,
            location: site.location,
        })
    }
}

/// The one-token edits `operator` can make at `site` (see
/// [`Mutator::neighbourhood`]); none for the operators that need ingredients.
fn one_token_edits(operator: Operator, site: &Site) -> Vec<Edit> {
    let replace = |range: &Range<usize>, texts: Vec<String>| {
        texts
            .into_iter()
            .map(|t| Edit::replace(range.clone(), t))
            .collect()
    };
    match (&site.kind, operator) {
        (
            SiteKind::Condition {
                range, negation, ..
            },
            Operator::Condition,
        ) => replace(range, vec![negation.clone()]),
        (
            SiteKind::BinaryOperator {
                range, operator, ..
            },
            Operator::BinaryOperator,
        ) => {
            let others = OPERATOR_CLASSES
                .iter()
                .filter(|class| class.contains(&operator.as_str()))
                .flat_map(|class| class.iter())
                .filter(|o| **o != operator)
                .map(|o| o.to_string())
                .collect();
            replace(range, others)
        }
        (SiteKind::Literal { range, literal }, Operator::Value) => {
            replace(range, literal.alternatives(&[]))
        }
        (SiteKind::Method { range, name, .. }, Operator::Method) => {
            let siblings = METHOD_FAMILIES
                .iter()
                .filter(|family| family.contains(&name.as_str()))
                .flat_map(|family| family.iter())
                .filter(|m| **m != name)
                .map(|m| m.to_string())
                .collect();
            replace(range, siblings)
        }
        (
            SiteKind::RangeLimits {
                range, inclusive, ..
            },
            Operator::Range,
        ) => replace(range, vec![if *inclusive { ".." } else { "..=" }.into()]),
        _ => Vec::new(),
    }
}

/// Applies `operator` at `site` of a file with text `text`.
pub fn apply(
    operator: Operator,
    site: &Site,
    space: &MutationSpace,
    text: &str,
    rng: &mut impl Rng,
) -> Option<Edit> {
    match (&site.kind, operator) {
        (SiteKind::Statement(statement), Operator::Delete) => Some(delete(statement, text, rng)),
        (SiteKind::Statement(statement), Operator::Swap) => {
            let own = &text[statement.range.clone()];
            let ingredient = pick(&space.statements, rng, |i| {
                i.fits(&site.bound) && i.text != own
            })?;
            let replacement = if ingredient.header {
                format!("{} {{}}", ingredient.text)
            } else {
                as_statement(ingredient, statement.tail)
            };
            Some(Edit::replace(statement.range.clone(), replacement))
        }
        (SiteKind::Statement(statement), Operator::Insert) => {
            let mut bound = site.bound.clone();
            bound.extend(statement.binds.iter().cloned());
            let ingredient = pick(&space.statements, rng, |i| i.fits(&bound))?;
            let target = &text[statement.range.clone()];
            Some(if ingredient.header {
                Edit::replace(
                    statement.range.clone(),
                    format!("{} {{ {target} }}", ingredient.text),
                )
            } else if statement.jumps || statement.tail {
                Edit::insert(
                    statement.range.start,
                    format!("{}\n{}", as_statement(ingredient, false), statement.indent),
                )
            } else {
                Edit::insert(
                    statement.range.end,
                    format!("\n{}{}", statement.indent, as_statement(ingredient, false)),
                )
            })
        }
        (
            SiteKind::Condition {
                range,
                atomic,
                negation,
            },
            Operator::Condition,
        ) => {
            let own = &text[range.clone()];
            let own_operand = if *atomic {
                own.to_string()
            } else {
                format!("({own})")
            };
            Some(match rng.random_range(0..4) {
                0 => Edit::replace(range.clone(), negation.clone()),
                choice => {
                    let other = pick(&space.conditions, rng, |i| {
                        i.fits(&site.bound) && i.text != own
                    })?;
                    let operand = if other.closed {
                        other.text.clone()
                    } else {
                        format!("({})", other.text)
                    };
                    match choice {
                        1 => Edit::replace(range.clone(), other.text.clone()),
                        2 => Edit::replace(range.clone(), format!("{operand} && {own_operand}")),
                        _ => Edit::replace(range.clone(), format!("{operand} || {own_operand}")),
                    }
                }
            })
        }
        (
            SiteKind::BinaryOperator {
                range,
                operator: own,
                ..
            },
            Operator::BinaryOperator,
        ) => {
            let class = OPERATOR_CLASSES
                .iter()
                .find(|class| class.contains(&own.as_str()))?;
            let other = class
                .iter()
                .filter(|o| **o != own)
                .collect::<Vec<_>>()
                .choose(rng)
                .copied()?;
            Some(Edit::replace(range.clone(), *other))
        }
        (SiteKind::Literal { range, literal }, Operator::Value) => {
            let other = literal.alternatives(&space.literals).choose(rng)?.clone();
            Some(Edit::replace(range.clone(), other))
        }
        (SiteKind::Variable { range, name }, Operator::Identifier) => {
            let others: Vec<&String> = site
                .bound
                .iter()
                .filter(|n| *n != name && *n != "self")
                .collect();
            Some(Edit::replace(range.clone(), others.choose(rng)?.as_str()))
        }
        (
            SiteKind::Method {
                range,
                name,
                arguments,
                ..
            },
            Operator::Method,
        ) => {
            let siblings: Vec<&str> = METHOD_FAMILIES
                .iter()
                .filter(|family| family.contains(&name.as_str()))
                .flat_map(|family| family.iter().copied())
                .filter(|m| m != name)
                .collect();
            let from_crate: Vec<&str> = space
                .methods
                .get(arguments)
                .into_iter()
                .flatten()
                .map(String::as_str)
                .filter(|m| m != name)
                .collect();
            // Siblings first: they are the likelier mistake.
            let pool = if !siblings.is_empty() && (from_crate.is_empty() || rng.random_bool(0.5)) {
                siblings
            } else {
                from_crate
            };
            Some(Edit::replace(range.clone(), *pool.choose(rng)?))
        }
        (
            SiteKind::RangeLimits {
                range, inclusive, ..
            },
            Operator::Range,
        ) => Some(Edit::replace(
            range.clone(),
            if *inclusive { ".." } else { "..=" },
        )),
        _ => None,
    }
}

/// The node that switches `edit` (made at `site`) on and off in a woven build.
pub fn guard(site: &Site, edit: &Edit) -> Guard {
    // A statement guard covers the edit too (a deletion takes the whole line).
    let statement = |range: &Range<usize>, is_let: bool| Guard::Statement {
        range: range.start.min(edit.range.start)..range.end.max(edit.range.end),
        is_let,
    };
    match &site.kind {
        // An inserted statement; an inserted `let` could shadow what follows.
        SiteKind::Statement(_) if edit.range.is_empty() => {
            if edit.text.trim_start().starts_with("let ") {
                Guard::None
            } else {
                Guard::Insertion(edit.range.start)
            }
        }
        SiteKind::Statement(s) => {
            statement(&s.range, site.statement.as_ref().is_some_and(|e| e.is_let))
        }
        SiteKind::Condition { range, .. } | SiteKind::Literal { range, .. } => {
            Guard::Expression(range.clone())
        }
        SiteKind::BinaryOperator { expression, .. }
        | SiteKind::Method { expression, .. }
        | SiteKind::RangeLimits { expression, .. } => Guard::Expression(expression.clone()),
        SiteKind::Variable { .. } => match &site.statement {
            Some(enclosing) => statement(&enclosing.range, enclosing.is_let),
            None => Guard::None,
        },
    }
}

/// Deletes a statement: a simple one with its line, a compound one by its
/// header, keeping one of its blocks.
fn delete(statement: &StatementSite, text: &str, rng: &mut impl Rng) -> Edit {
    match statement.branches.choose(rng) {
        Some(branch) => Edit::replace(statement.range.clone(), &text[branch.clone()]),
        None => Edit::replace(
            statement
                .whole_lines
                .clone()
                .unwrap_or(statement.range.clone()),
            "",
        ),
    }
}

/// An ingredient's text as a statement in a position that is (`tail`) or is
/// not the value of its block.
fn as_statement(ingredient: &Ingredient, tail: bool) -> String {
    match (tail, ingredient.closed) {
        (true, true) if ingredient.text.ends_with(';') && !ingredient.text.starts_with("let ") => {
            ingredient.text.trim_end_matches(';').to_string()
        }
        (false, false) => format!("{};", ingredient.text),
        _ => ingredient.text.clone(),
    }
}

fn pick<'i>(
    pool: &'i [Ingredient],
    rng: &mut impl Rng,
    keep: impl Fn(&Ingredient) -> bool,
) -> Option<&'i Ingredient> {
    pool.iter()
        .filter(|i| keep(i))
        .collect::<Vec<_>>()
        .choose(rng)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crate_sources::{CrateSources, SourceFile};
    use crate::sites::collect_mutation_space;
    use crate::source::splice;
    use std::collections::BTreeSet;
    use std::path::PathBuf;

    fn sources(text: &str) -> CrateSources {
        CrateSources {
            files: vec![SourceFile {
                path: PathBuf::from("src/lib.rs"),
                text: text.to_string(),
                syntax: crate::source::parse_file(text).unwrap(),
            }],
            roots: vec![0],
            ..Default::default()
        }
    }

    /// Every distinct text `operator` makes at the sites on `line`.
    fn outcomes(text: &str, operator: Operator, line: u32) -> BTreeSet<String> {
        let sources = sources(text);
        let space = collect_mutation_space(&sources, |_, _| false);
        let mut rng = StdRng::seed_from_u64(7);
        let mut out = BTreeSet::new();
        for site in space.sites.iter().filter(|s| s.location == line) {
            for _ in 0..200 {
                if let Some(edit) = apply(operator, site, &space, text, &mut rng) {
                    out.insert(splice(text, &[edit]).unwrap());
                }
            }
        }
        out
    }

    fn line(text: &str, number: usize) -> &str {
        text.lines().nth(number - 1).unwrap().trim()
    }

    const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    }\n    z\n}\n";

    #[test]
    fn identifier_mutation_uses_variables_in_scope() {
        let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Identifier, 6)
            .iter()
            .map(|t| line(t, 6).to_string())
            .collect();
        assert_eq!(
            lines,
            BTreeSet::from(["return x;".to_string(), "return z;".into()])
        );
    }

    #[test]
    fn operator_replacement_stays_in_its_class() {
        let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::BinaryOperator, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        let expected = [
            "if x <= y {",
            "if x > y {",
            "if x >= y {",
            "if x == y {",
            "if x != y {",
        ];
        assert_eq!(lines, expected.iter().map(|s| s.to_string()).collect());
    }

    #[test]
    fn condition_mutation_sets_negates_and_combines() {
        let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Condition, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        assert!(lines.contains("if !(x < y) {"), "{lines:?}");
        assert!(lines.contains("if y < z {"), "{lines:?}");
        assert!(lines.contains("if (x < z) && (x < y) {"), "{lines:?}");
        assert!(lines.contains("if (y < z) || (x < y) {"), "{lines:?}");
    }

    #[test]
    fn negating_a_negation_takes_the_not_away() {
        let text = "fn f(v: &[u8], a: bool, b: bool) -> bool {\n    if !v.is_empty() {\n        return true;\n    }\n    while !(a && b) {}\n    false\n}\n";
        for (number, negation) in [(2, "if v.is_empty() {"), (5, "while a && b {}")] {
            let lines: BTreeSet<String> = outcomes(text, Operator::Condition, number)
                .iter()
                .map(|t| line(t, number as usize).to_string())
                .collect();
            assert!(lines.contains(negation), "{lines:?}");
            assert!(!lines.iter().any(|l| l.contains("!(!")), "{lines:?}");
        }
    }

    #[test]
    fn statement_delete_removes_the_line_or_keeps_one_branch() {
        let deleted = outcomes(MIDDLE, Operator::Delete, 6);
        assert!(
            deleted.contains(&MIDDLE.replace(
                "            return y;\n        }\n    }",
                "        }\n    }"
            )),
            "{deleted:?}"
        );
        let unwrapped = outcomes(MIDDLE, Operator::Delete, 2);
        let kept_then = MIDDLE.replace(
            "    if y < z {\n        if x < y {",
            "    {\n        if x < y {",
        );
        assert!(unwrapped.contains(&kept_then), "{unwrapped:?}");
    }

    #[test]
    fn statement_swap_and_insert_reuse_statements_that_fit_the_scope() {
        let text = "fn f(a: i32) -> i32 {\n    let b = a + 1;\n    let c = b * 2;\n    if c > 4 {\n        return c;\n    }\n    b\n}\n";
        let swapped: BTreeSet<String> = outcomes(text, Operator::Swap, 2)
            .iter()
            .map(|t| line(t, 2).to_string())
            .collect();
        // `let c = b * 2;` needs `b`, which is not in scope before line 2.
        assert!(!swapped.iter().any(|l| l.contains("b * 2")), "{swapped:?}");
        assert!(
            !swapped.contains("if c > 4 {}"),
            "`c` is not in scope on line 2: {swapped:?}"
        );
        let inserted = outcomes(text, Operator::Insert, 5);
        // Before a `return`, never after it.
        assert!(
            inserted
                .iter()
                .any(|t| t.contains("        b;\n        return c;")),
            "{inserted:?}"
        );
        // A header goes around the target.
        assert!(
            inserted
                .iter()
                .any(|t| t.contains("if c > 4 { return c; }")),
            "{inserted:?}"
        );
        let swapped_tail: BTreeSet<String> = outcomes(text, Operator::Swap, 7)
            .iter()
            .map(|t| line(t, 7).to_string())
            .collect();
        assert!(swapped_tail.contains("if c > 4 {}"), "{swapped_tail:?}");
    }

    #[test]
    fn value_method_and_range_mutations() {
        let text = "fn f(v: &[u32]) -> u32 {\n    let mut m = 0;\n    for i in 1..v.len() {\n        m = m.max(v[i] + 2);\n    }\n    m\n}\n";
        let values: BTreeSet<String> = outcomes(text, Operator::Value, 4)
            .iter()
            .map(|t| line(t, 4).to_string())
            .collect();
        assert_eq!(
            values,
            BTreeSet::from([
                "m = m.max(v[i] + 0);".into(),
                "m = m.max(v[i] + 1);".into(),
                "m = m.max(v[i] + 3);".to_string()
            ])
        );
        let methods: BTreeSet<String> = outcomes(text, Operator::Method, 4)
            .iter()
            .map(|t| line(t, 4).to_string())
            .collect();
        assert!(methods.contains("m = m.min(v[i] + 2);"), "{methods:?}");
        let ranges: BTreeSet<String> = outcomes(text, Operator::Range, 3)
            .iter()
            .map(|t| line(t, 3).to_string())
            .collect();
        assert_eq!(
            ranges,
            BTreeSet::from(["for i in 1..=v.len() {".to_string()])
        );
    }

    #[test]
    fn mutator_only_draws_from_suspicious_locations() {
        let sources = sources(MIDDLE);
        let space = collect_mutation_space(&sources, |_, _| false);
        let mutator = Mutator::new(&space, vec![MIDDLE], &Operator::ALL, |_, line| {
            if line == 6 { 0.7 } else { 0.0 }
        });
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..50 {
            let edit = mutator.mutation(&mut rng).unwrap();
            assert_eq!(edit.location, 6);
        }
        let nothing = Mutator::new(&space, vec![MIDDLE], &Operator::ALL, |_, _| 0.0);
        assert!(nothing.is_empty());
        assert_eq!(nothing.mutation(&mut rng), None);
    }

    #[test]
    fn neighbourhood_lists_every_one_token_edit_heaviest_location_first() {
        let sources = sources(MIDDLE);
        let space = collect_mutation_space(&sources, |_, _| false);
        let mutator = Mutator::new(&space, vec![MIDDLE], &Operator::ALL, |_, line| match line {
            5 => 0.9,
            2 => 0.5,
            _ => 0.0,
        });
        let changed = |edits: &[PatchEdit]| -> Vec<(u32, String)> {
            edits
                .iter()
                .map(|e| {
                    let text = splice(MIDDLE, std::slice::from_ref(&e.edit)).unwrap();
                    (e.location, line(&text, e.location as usize).to_string())
                })
                .collect()
        };
        let all = changed(&mutator.neighbourhood(100));
        // Line 5 (heavier) first: its negation and the five other comparisons.
        assert_eq!(all.len(), 12, "{all:?}");
        assert!(all[..6].iter().all(|(line, _)| *line == 5), "{all:?}");
        for expected in [
            "} else if !(x < z) {",
            "} else if x <= z {",
            "} else if x != z {",
        ] {
            assert!(all[..6].iter().any(|(_, t)| t == expected), "{all:?}");
        }
        assert!(all[6..].iter().any(|(_, t)| t == "if y >= z {"), "{all:?}");
        // No statement edits (they need ingredients), no unsuspicious lines.
        assert!(all.iter().all(|(line, _)| *line == 5 || *line == 2));
        assert_eq!(changed(&mutator.neighbourhood(4)), all[..4].to_vec());
    }

    #[test]
    fn operator_names_parse() {
        for operator in Operator::ALL {
            assert_eq!(operator.name().parse::<Operator>(), Ok(operator));
        }
        assert!("nope".parse::<Operator>().is_err());
    }
}
