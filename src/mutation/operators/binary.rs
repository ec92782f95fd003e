//! Operator replacement: a comparison, arithmetic, logical, bitwise or
//! compound-assignment operator replaced by another of its class, the
//! likeliest slip first.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// Replace a comparison, arithmetic, logical or compound-assignment operator.
pub(super) struct Binary;

impl MutationOperator for Binary {
    fn operator(&self) -> Operator {
        Operator::Binary
    }

    fn name(&self) -> &'static str {
        "operator"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::BinaryOperator { .. })
    }

    fn edits(&self, site: &Site, _: &Context) -> Vec<Edit> {
        let SiteKind::BinaryOperator {
            range, operator, ..
        } = &site.kind
        else {
            return Vec::new();
        };
        REPLACEMENTS
            .iter()
            .filter(|(own, _)| own == operator)
            .flat_map(|(_, others)| others.iter())
            .map(|o| Edit::replace(range.clone(), *o))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        0
    }
}

/// Per operator, the others of its class, the likeliest slip first: a
/// comparison's negation or its boundary (`!=` for `==`, `<=` for `<`),
/// then the one that holds in one more case or one fewer (`!=` for `>`,
/// `==` for `>=`), then its mirror image, which changes the outcome in
/// two; arithmetic's inverse operation. (When several patches pass every
/// test and change the passing tests' behaviour alike, the first made
/// wins: `!= 0` for `== 0`, not `> 0`; cron-parser's `fields.len() > 5`,
/// fixed as `!= 5`, not `< 5`.)
pub(super) const REPLACEMENTS: &[(&str, &[&str])] = &[
    ("==", &["!=", "<=", ">=", "<", ">"]),
    ("!=", &["==", "<", ">", "<=", ">="]),
    ("<", &["<=", "!=", ">", ">=", "=="]),
    ("<=", &["<", "==", ">=", ">", "!="]),
    (">", &[">=", "!=", "<", "<=", "=="]),
    (">=", &[">", "==", "<=", "<", "!="]),
    ("+", &["-", "*", "/", "%"]),
    ("-", &["+", "*", "/", "%"]),
    ("*", &["/", "+", "-", "%"]),
    ("/", &["*", "%", "-", "+"]),
    ("%", &["/", "*", "-", "+"]),
    ("&&", &["||"]),
    ("||", &["&&"]),
    ("+=", &["-=", "*=", "/=", "%="]),
    ("-=", &["+=", "*=", "/=", "%="]),
    ("*=", &["/=", "+=", "-=", "%="]),
    ("/=", &["*=", "%=", "-=", "+="]),
    ("%=", &["/=", "*=", "-=", "+="]),
    ("&", &["|", "^"]),
    ("|", &["&", "^"]),
    ("^", &["|", "&"]),
    ("<<", &[">>"]),
    (">>", &["<<"]),
    ("&=", &["|=", "^="]),
    ("|=", &["&=", "^="]),
    ("^=", &["|=", "&="]),
    ("<<=", &[">>="]),
    (">>=", &["<<="]),
];
