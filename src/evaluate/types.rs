//! The type oracle: what the compiler says about types at sites (and,
//! from one build of the crate as it is, which variables it warns are
//! unused or needlessly `mut`). A copy of the crate gets, before the
//! statements at the locations asked about, `let _: () = x;` for every
//! variable in scope (and first in a block, for the names its `if let` or
//! `for` binds) and `let _: () = (e);` for every operand whose variables
//! are in scope there (the lines of a function with a warned variable are
//! asked about too), and, where each ingredient was found, the same for
//! its variables. One build (which stops at the type errors) answers all
//! of them: each probe fails with "expected `()`, found `T`", and `T` is
//! the type. (A probe that does not fail is of type `()`.)
//!
//! rustc reports such an error as it meets it, when an integer whose type
//! later code settles (`let mut n = 0;` returned as a `usize`) is still
//! "integer". So those probes are asked again in a second build, as
//! `drop(n);`: that compiles, and the lint that warns about dropping a
//! `Copy` value runs once the types are settled, naming the type. (Unless
//! it names `i32` or `f64`, the types of numbers nothing constrains: those
//! stay unsettled, since an edit may constrain them.)

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;

use crate::baseline::Baseline;
use crate::cargo::CompileError;
use crate::code::Originals;
use crate::code::free_variables;
use crate::code::source::{Edit, FileId, Location, splice};
use crate::evaluate::Settings;
use crate::evaluate::copy::BuildCopy;
use crate::exit::Result;
use crate::mutation::{MutationSpace, OVERFLOWING_METHODS, SiteKind};
use crate::mutation::{Types, Unused};
use crate::system::Budget;
use crate::system::cache;
use crate::system::scratch::MAIN_TARGET;

/// What a probe asks about.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Question {
    Variable { at: Location, name: String },
    Expression { file: FileId, range: Range<usize> },
}

/// A question, where its probe goes (a byte offset of its file), and the
/// variable or expression it probes.
#[derive(Debug, Clone)]
struct Probe {
    file: FileId,
    at: usize,
    probed: String,
    question: Question,
}

/// How a probe is written, and how its answer reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// `let _: () = x;`: a type error that names the type.
    Mismatch,
    /// `drop(x);`: a lint, once the types are settled (for `Copy` values).
    Drop,
}

impl Pass {
    fn probe(self, probed: &str) -> String {
        match self {
            Pass::Mismatch => format!("let _: () = {probed};"),
            Pass::Drop => format!("#[warn(dropping_copy_types)] drop({probed});"),
        }
    }
}

/// The types of the variables and operands at `locations`, and of the
/// ingredients' variables where they were found. An empty answer (no
/// error to read, or a crate the probes break in other ways) leaves the
/// operators to the syntax. The end of `budget` halts it.
pub fn infer_types(
    baseline: &Baseline,
    space: &MutationSpace,
    locations: &BTreeSet<Location>,
    settings: &Settings,
    budget: Budget,
) -> Result<Types> {
    if locations.is_empty() {
        return Ok(Types::default());
    }
    // The sites: which of them exist depends on the exclusions too.
    let inputs = format!(
        "{locations:?} {:?} {:?}",
        settings.cargo.to_args(),
        space.sites
    );
    let (types, _) = cache::kept_or(
        &baseline.workspace.target_dir,
        baseline.key("types", &inputs).as_ref(),
        || probe_types(baseline, space, locations, settings, budget),
    )?;
    Ok(types)
}

/// [`infer_types`] in a copy of the crate.
fn probe_types(
    baseline: &Baseline,
    space: &MutationSpace,
    locations: &BTreeSet<Location>,
    settings: &Settings,
    budget: Budget,
) -> Result<Types> {
    let originals = baseline.sources.originals();
    let mut copy = BuildCopy::new(
        &baseline.workspace,
        &originals,
        &settings.cargo,
        MAIN_TARGET,
        budget,
    )?;
    let mut types = Types::default();
    for warning in copy.diagnose(budget)? {
        if let Some(unused) = unused_variable(&warning, space, &originals) {
            types.add_unused(unused);
        }
    }
    // The lines of a function with a warned variable are asked about too:
    // a statement that should use it may be missing there, and its twin,
    // whose operands may take the variable's place, is most likely near.
    let mut asked = locations.clone();
    for unused in types.unused() {
        let near = space
            .sites
            .iter()
            .filter(|s| s.file == unused.at.file && s.function == unused.function);
        asked.extend(near.map(|s| s.location()));
    }
    let probes = probes(space, &asked, &originals);
    if probes.is_empty() {
        return Ok(types);
    }
    let answers = ask(&mut copy, &originals, &probes, Pass::Mismatch, budget)?;
    let mut unsettled = Vec::new();
    for (probe, ty) in probes.iter().zip(&answers) {
        match ty {
            Some(ty) if ty == "integer" || ty == "float" => unsettled.push(probe.clone()),
            _ => {}
        }
        if let Some(ty) = ty {
            record(&mut types, &probe.question, ty);
        }
    }
    if !unsettled.is_empty() {
        let answers = ask(&mut copy, &originals, &unsettled, Pass::Drop, budget)?;
        for (probe, ty) in unsettled.iter().zip(answers) {
            // `i32` and `f64` may be the fallback for a number nothing
            // constrains (`let mut run = 1;`), which an edit may settle
            // otherwise (`run < MAX_RUN` makes it a `usize`): left open.
            if let Some(ty) = ty.filter(|ty| ty != "i32" && ty != "f64") {
                record(&mut types, &probe.question, &ty);
            }
        }
    }
    Ok(types)
}

fn record(types: &mut Types, question: &Question, ty: &str) {
    match question {
        Question::Variable { at, name } => types.set_variable(*at, name, ty),
        Question::Expression { file, range } => types.set_expression(*file, range, ty),
    }
}

/// Writes `probes` into the copy as `pass` writes them, checks it, and
/// reads each probe's type from the diagnostic at it (`None`: no answer).
fn ask(
    copy: &mut BuildCopy,
    originals: &Originals,
    probes: &[Probe],
    pass: Pass,
    budget: Budget,
) -> Result<Vec<Option<String>>> {
    // Each file's probes, spliced in; where each probe lies in the result.
    let mut placed: Vec<(FileId, Range<usize>)> = vec![(FileId::new(0), 0..0); probes.len()];
    let mut by_file: BTreeMap<FileId, Vec<usize>> = BTreeMap::new();
    for (index, probe) in probes.iter().enumerate() {
        by_file.entry(probe.file).or_default().push(index);
    }
    let mut texts = BTreeMap::new();
    for (file, mut indices) in by_file {
        indices.sort_by_key(|&i| probes[i].at);
        let mut edits = Vec::new();
        let mut shift = 0;
        for index in indices {
            let text = pass.probe(&probes[index].probed);
            let at = probes[index].at;
            placed[index] = (file, at + shift..at + shift + text.len());
            shift += text.len();
            edits.push(Edit::insert(at, text));
        }
        texts.insert(
            file,
            splice(originals.text(file), &edits).expect("insertions never overlap"),
        );
    }
    copy.write(&texts, originals)?;
    let mut answers = vec![None; probes.len()];
    for diagnostic in copy.diagnose(budget)? {
        let (Some(label), Some((name, span))) = (&diagnostic.label, diagnostic.spans.first())
        else {
            continue;
        };
        let ty = match pass {
            Pass::Mismatch => found_type(label),
            Pass::Drop => argument_type(label),
        };
        let (Some(ty), Some(file)) = (ty, originals.find_by_name(name)) else {
            continue;
        };
        if let Some(index) = placed
            .iter()
            .position(|(f, range)| *f == file && range.start <= span.start && span.end <= range.end)
        {
            answers[index] = Some(ty);
        }
    }
    Ok(answers)
}

/// The statements at each location, as their start and the variables in
/// scope there. A location inside a statement with none of its own (an
/// arm's value in a `let x = match ..`) has the statement around it: its
/// variables are asked about before that statement, but for those the arm
/// binds.
fn statements_at<'s>(
    space: &'s MutationSpace,
    locations: &BTreeSet<Location>,
) -> BTreeMap<Location, Vec<(usize, &'s [String])>> {
    let mut statements: BTreeMap<Location, Vec<(usize, &[String])>> = BTreeMap::new();
    // By the bytes of the block statement each is.
    let mut by_bytes = HashMap::new();
    for site in &space.sites {
        if let SiteKind::Statement(statement) = &site.kind {
            let at = (statement.range.start, site.bound.as_slice());
            statements.entry(site.location()).or_default().push(at);
            if let Some(own) = &site.statement {
                by_bytes.entry(own.range.clone()).or_insert(at);
            }
        }
    }
    let mut inside = BTreeMap::new();
    for site in space
        .sites
        .iter()
        .filter(|s| locations.contains(&s.location()) && !statements.contains_key(&s.location()))
    {
        let around = site.statement.as_ref().and_then(|s| by_bytes.get(&s.range));
        if let Some(&around) = around {
            inside.entry(site.location()).or_insert(vec![around]);
        }
    }
    statements.extend(inside);
    statements
}

/// Every probe.
fn probes(
    space: &MutationSpace,
    locations: &BTreeSet<Location>,
    originals: &Originals,
) -> Vec<Probe> {
    let statements = statements_at(space, locations);
    let mut out = Vec::new();
    let mut asked: BTreeSet<(Location, String)> = BTreeSet::new();
    let mut variable = |out: &mut Vec<_>, at: Location, start: usize, name: &str| {
        if name != "self" && asked.insert((at, name.to_string())) {
            out.push(Probe {
                file: at.file,
                at: start,
                probed: name.to_string(),
                question: Question::Variable {
                    at,
                    name: name.to_string(),
                },
            });
        }
    };
    for &at in locations {
        for &(start, bound) in statements.get(&at).into_iter().flatten() {
            for name in bound {
                variable(&mut out, at, start, name);
            }
        }
    }
    // The names a block's header binds, first thing in the block.
    for site in &space.sites {
        if let SiteKind::BlockStart { at, names, .. } = &site.kind
            && locations.contains(&site.location())
        {
            for name in names {
                variable(&mut out, site.location(), *at, name);
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
            } if matches!(operator.as_str(), "-" | "+" | "*" | "<<") => expression,
            SiteKind::Negation { expression, .. } => expression,
            SiteKind::Method {
                name,
                expression,
                receiver: true,
                ..
            } if OVERFLOWING_METHODS.contains(&name.as_str()) => expression,
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
            out.push(Probe {
                file: site.file,
                at: start,
                probed: format!("({text})"),
                question: Question::Expression {
                    file: site.file,
                    range: range.clone(),
                },
            });
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

/// The variable `warning` is about, if it says a variable (or parameter) is
/// unused or need not be mutable.
fn unused_variable(
    warning: &CompileError,
    space: &MutationSpace,
    originals: &Originals,
) -> Option<Unused> {
    let file = originals.find_by_name(warning.file.as_deref()?)?;
    let at = Location::new(file, u32::try_from(warning.line?).ok()?);
    let (name, never_used) = match warning.message.strip_prefix("unused variable: `") {
        Some(rest) => (rest.strip_suffix('`')?.to_string(), true),
        None if warning.message == "variable does not need to be mutable" => {
            let (_, range) = warning.spans.first()?;
            let written = originals.text(file).get(range.clone())?;
            (written.strip_prefix("mut")?.trim().to_string(), false)
        }
        None => return None,
    };
    // The function of the first site from its line on (a parameter's line
    // has none).
    let function = space
        .sites
        .iter()
        .filter(|s| s.file == file && s.line >= at.line)
        .min_by_key(|s| s.line)?
        .function
        .clone();
    Some(Unused {
        at,
        name,
        function,
        never_used,
    })
}

/// The type in the lint's label: `argument has type `usize`` gives `usize`.
fn argument_type(label: &str) -> Option<String> {
    let rest = label.strip_prefix("argument has type `")?;
    Some(rest.strip_suffix('`')?.to_string())
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
        assert_eq!(
            argument_type("argument has type `usize`").as_deref(),
            Some("usize")
        );
    }

    #[test]
    fn probes_ask_before_the_statements_of_the_locations() {
        let text = "fn f(n: usize, v: &[u8]) -> u8 {\n    let i = n + 1;\n    v[i - 1]\n}\n";
        let sources = crate::code::CrateSources::of_one_file(text);
        let space = crate::mutation::collect_mutation_space(
            &sources,
            &crate::code::KeepConst::Every,
            &Default::default(),
        );
        let at = Location::new(FileId::new(0), 3);
        let probes = probes(&space, &BTreeSet::from([at]), &sources.originals());
        let texts: Vec<String> = probes
            .iter()
            .map(|p| Pass::Mismatch.probe(&p.probed))
            .collect();
        assert!(texts.contains(&"let _: () = n;".to_string()), "{texts:?}");
        assert!(texts.contains(&"let _: () = i;".to_string()), "{texts:?}");
        assert!(
            texts.contains(&"let _: () = (i - 1);".to_string()),
            "{texts:?}"
        );
        let start = text.find("v[i").unwrap();
        assert!(probes.iter().all(|p| p.at <= start));
    }

    #[test]
    fn an_arms_value_is_asked_about_before_the_statement_around_it() {
        let text = "fn f(s: &str, p: Option<usize>) -> usize {\n    let len = match p {\n        Some(p) => p,\n        None => s.len(),\n    };\n    len\n}\n";
        let sources = crate::code::CrateSources::of_one_file(text);
        let space = crate::mutation::collect_mutation_space(
            &sources,
            &crate::code::KeepConst::Every,
            &Default::default(),
        );
        let at = Location::new(FileId::new(0), 4);
        let probes = probes(&space, &BTreeSet::from([at]), &sources.originals());
        let start = text.find("let len").unwrap();
        let asked: Vec<(&str, usize)> = probes.iter().map(|p| (p.probed.as_str(), p.at)).collect();
        assert!(asked.contains(&("s", start)), "{asked:?}");
        assert!(asked.contains(&("(s.len())", start)), "{asked:?}");
    }
}
