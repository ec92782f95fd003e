//! The type oracle: what the compiler says about types at sites. A copy of
//! the crate gets, before the statements at the locations asked about,
//! `let _: () = x;` for every variable in scope and `let _: () = (e);` for
//! every operand whose variables are in scope there, and, where each
//! ingredient was found, the same for its variables. One `cargo check`
//! answers all of them: each probe fails with "expected `()`, found `T`",
//! and `T` is the type. (A probe that does not fail is of type `()`.)

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use anyhow::Result;

use crate::baseline::Baseline;
use crate::cargo::build::BuildOutcome;
use crate::code::crate_sources::Originals;
use crate::code::source::{Edit, FileId, Location, splice};
use crate::code::syntax::free_variables;
use crate::evaluate::Settings;
use crate::evaluate::copy::BuildCopy;
use crate::mutation::sites::{MutationSpace, SiteKind};
use crate::mutation::types::Types;

/// What a probe asks about.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Question {
    Variable { at: Location, name: String },
    Expression { file: FileId, range: Range<usize> },
}

/// The types of the variables and operands at `locations`, and of the
/// ingredients' variables where they were found. An empty answer (no
/// error to read, or a crate the probes break in other ways) leaves the
/// operators to the syntax.
pub fn infer_types(
    baseline: &Baseline,
    space: &MutationSpace,
    locations: &BTreeSet<Location>,
    settings: &Settings,
) -> Result<Types> {
    let originals = baseline.sources.originals();
    let probes = probes(space, locations, &originals);
    if probes.is_empty() {
        return Ok(Types::default());
    }
    // Each file's probes, spliced in; where each probe lies in the result.
    let mut texts = BTreeMap::new();
    let mut placed: Vec<(FileId, Range<usize>, Question)> = Vec::new();
    let mut by_file: BTreeMap<FileId, Vec<(usize, String, Question)>> = BTreeMap::new();
    for (file, at, text, question) in probes {
        by_file.entry(file).or_default().push((at, text, question));
    }
    for (file, mut file_probes) in by_file {
        file_probes.sort_by_key(|(at, _, _)| *at);
        let original = originals.text(file);
        let mut edits = Vec::new();
        let mut shift = 0;
        for (at, text, question) in file_probes {
            placed.push((file, at + shift..at + shift + text.len(), question));
            shift += text.len();
            edits.push(Edit::insert(at, text));
        }
        texts.insert(
            file,
            splice(original, &edits).expect("insertions never overlap"),
        );
    }
    let mut copy = BuildCopy::new(&baseline.workspace, &originals, &settings.features, "types")?;
    copy.write(&texts, &originals)?;
    let BuildOutcome::Failed { errors, .. } = copy.check()? else {
        return Ok(Types::default());
    };
    let mut types = Types::default();
    for error in errors {
        let (Some(label), Some((name, span))) = (&error.label, error.spans.first()) else {
            continue;
        };
        let Some(ty) = found_type(label) else {
            continue;
        };
        let Some(file) = originals.find_by_name(name) else {
            continue;
        };
        let question = placed
            .iter()
            .find(|(f, range, _)| *f == file && range.start <= span.start && span.end <= range.end);
        match question {
            Some((_, _, Question::Variable { at, name })) => types.set_variable(*at, name, &ty),
            Some((_, _, Question::Expression { file, range })) => {
                types.set_expression(*file, range, &ty)
            }
            None => {}
        }
    }
    Ok(types)
}

/// Every probe: file, where it goes, its text, and what it asks.
fn probes(
    space: &MutationSpace,
    locations: &BTreeSet<Location>,
    originals: &Originals,
) -> Vec<(FileId, usize, String, Question)> {
    // The statements (their start and the variables in scope there) at each location.
    let mut statements: BTreeMap<Location, Vec<(usize, &[String])>> = BTreeMap::new();
    for site in &space.sites {
        if let SiteKind::Statement(statement) = &site.kind {
            statements
                .entry(site.location())
                .or_default()
                .push((statement.range.start, &site.bound));
        }
    }
    let mut out = Vec::new();
    let mut asked: BTreeSet<(Location, String)> = BTreeSet::new();
    let mut variable = |out: &mut Vec<_>, at: Location, start: usize, name: &str| {
        if name != "self" && asked.insert((at, name.to_string())) {
            out.push((
                at.file,
                start,
                format!("let _: () = {name};"),
                Question::Variable {
                    at,
                    name: name.to_string(),
                },
            ));
        }
    };
    for &at in locations {
        for &(start, bound) in statements.get(&at).into_iter().flatten() {
            for name in bound {
                variable(&mut out, at, start, name);
            }
        }
    }
    for site in space
        .sites
        .iter()
        .filter(|s| locations.contains(&s.location()))
    {
        let range = match &site.kind {
            SiteKind::Operand { range, .. } => range,
            SiteKind::BinaryOperator {
                expression,
                operator,
                ..
            } if operator == "-" => expression,
            _ => continue,
        };
        // Only where its variables are in scope before the statement.
        let Some(&(start, bound)) = statements
            .get(&site.location())
            .and_then(|at| at.iter().rev().find(|(start, _)| *start <= range.start))
        else {
            continue;
        };
        let text = &originals.text(site.file)[range.clone()];
        let Ok(expr) = syn::parse_str::<syn::Expr>(text) else {
            continue;
        };
        if free_variables(&expr).iter().all(|v| bound.contains(v)) {
            out.push((
                site.file,
                start,
                format!("let _: () = ({text});"),
                Question::Expression {
                    file: site.file,
                    range: range.clone(),
                },
            ));
        }
    }
    for ingredient in space.statements.iter().chain(&space.conditions) {
        let at = ingredient.origin;
        if let Some(&(start, _)) = statements.get(&at).and_then(|s| s.first()) {
            for name in &ingredient.free {
                variable(&mut out, at, start, name);
            }
        }
    }
    out
}

/// The type in a probe's label: `expected `()`, found `usize`` gives
/// `usize`; `found integer` gives `integer`.
fn found_type(label: &str) -> Option<String> {
    let found = label.split_once("found ")?.1;
    match found.split_once('`') {
        Some((_, rest)) => Some(rest.split_once('`')?.0.to_string()),
        None => match found.trim() {
            "integer" => Some("integer".to_string()),
            "floating-point number" => Some("float".to_string()),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_type() {
        assert_eq!(
            found_type("expected `()`, found `usize`").as_deref(),
            Some("usize")
        );
        assert_eq!(
            found_type("expected `()`, found `&[&str]`").as_deref(),
            Some("&[&str]")
        );
        assert_eq!(
            found_type("expected `()`, found type parameter `T`").as_deref(),
            Some("T")
        );
        assert_eq!(
            found_type("expected `()`, found integer").as_deref(),
            Some("integer")
        );
        assert_eq!(found_type("something else"), None);
    }

    #[test]
    fn probes_ask_before_the_statements_of_the_locations() {
        let text = "fn f(n: usize, v: &[u8]) -> u8 {\n    let i = n + 1;\n    v[i - 1]\n}\n";
        let sources = crate::code::crate_sources::CrateSources::of_one_file(text);
        let space = crate::mutation::sites::collect_mutation_space(&sources, &Default::default());
        let at = Location::new(FileId::new(0), 3);
        let probes = probes(&space, &BTreeSet::from([at]), &sources.originals());
        let texts: Vec<&str> = probes.iter().map(|(_, _, t, _)| t.as_str()).collect();
        assert!(texts.contains(&"let _: () = n;"), "{texts:?}");
        assert!(texts.contains(&"let _: () = i;"), "{texts:?}");
        assert!(texts.contains(&"let _: () = (i - 1);"), "{texts:?}");
        let start = text.find("v[i").unwrap();
        assert!(probes.iter().all(|(_, offset, _, _)| *offset <= start));
    }
}
