//! Mutation operators: each turns a site of the mutation space into an edit.

use std::ops::Range;

use rand::Rng;
use rand::prelude::*;

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Ingredient, MutationSpace, Site, SiteKind, StatementSite};

/// Whether the operator applies to a site of this kind.
pub(crate) fn applies(operator: Operator, kind: &SiteKind) -> bool {
    matches!(
        (operator, kind),
        (
            Operator::Delete | Operator::Swap | Operator::Insert,
            SiteKind::Statement(_)
        ) | (Operator::Condition, SiteKind::Condition { .. })
            | (Operator::Binary, SiteKind::BinaryOperator { .. })
            | (Operator::Value, SiteKind::Literal { .. })
            | (Operator::Identifier, SiteKind::Variable { .. })
            | (Operator::Method, SiteKind::Method { .. })
            | (Operator::Range, SiteKind::RangeLimits { .. })
    )
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

/// The one-token edits `operator` can make at `site` (see
/// [`Mutator::neighbourhood`]); none for the operators that need ingredients.
pub(crate) fn one_token_edits(operator: Operator, site: &Site) -> Vec<Edit> {
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
            Operator::Binary,
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
            Operator::Binary,
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
    use crate::code::crate_sources::CrateSources;
    use crate::code::source::splice;
    use crate::mutation::sites::collect_mutation_space;
    use std::collections::BTreeSet;

    fn sources(text: &str) -> CrateSources {
        CrateSources::of_one_file(text)
    }

    /// Every distinct text `operator` makes at the sites on `line`.
    fn outcomes(text: &str, operator: Operator, line: u32) -> BTreeSet<String> {
        let sources = sources(text);
        let space = collect_mutation_space(&sources, &Default::default());
        let mut rng = StdRng::seed_from_u64(7);
        let mut out = BTreeSet::new();
        for site in space.sites.iter().filter(|s| s.line == line) {
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
        let lines: BTreeSet<String> = outcomes(MIDDLE, Operator::Binary, 3)
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
    fn operator_names_parse() {
        for operator in Operator::ALL {
            assert_eq!(operator.name().parse::<Operator>(), Ok(operator));
        }
        assert!("nope".parse::<Operator>().is_err());
    }
}
