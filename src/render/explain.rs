//! `--explain`: the top suspects with their dynamic dependencies in a
//! failing run, in the slicing seed's style
//! (`src/lib.rs:12  quote = !quote;  <= c (line 5), tag (line 9); <- if (line 11)`),
//! then, where events were recorded, the top predicates and the decision
//! tree over them; or, with `--format dot`, each group's slice as a
//! Graphviz graph.

use std::fmt::Write;

use super::{Ranking, format_score};
use crate::baseline::Predicate;
use crate::code::source::Location;
use crate::localize::Suspect;
use crate::localize::Tree;
use crate::localize::{Dependency, Run};
use crate::localize::{GroupRanking, Localization, TREE_DEPTH, checks_lent};

/// The top suspects of each group with their dependencies.
pub fn listing(ranking: &Ranking, localization: &Localization, top: Option<usize>) -> String {
    let mut out = String::new();
    let several = localization.groups.len() > 1;
    for (index, group) in localization.groups.iter().enumerate() {
        if several {
            let _ = writeln!(
                out,
                "group {} of {}: {}",
                index + 1,
                localization.groups.len(),
                group.group.description
            );
        }
        let runs: Vec<Run> = group
            .group
            .tests
            .iter()
            .filter_map(|t| ranking.baseline.traces.get(t))
            .map(|trace| Run::new(trace, &localization.facts))
            .collect();
        for suspect in group.suspects.iter().take(top.unwrap_or(usize::MAX)) {
            let code = ranking.code(suspect);
            let _ = write!(
                out,
                "{:<4} {}  {code}",
                suspect.rank,
                ranking.place(suspect.location)
            );
            match runs.iter().find(|run| run.executed(&suspect.location)) {
                Some(run) => {
                    let dependencies = run.dependencies_of(&suspect.location);
                    let text = describe(&dependencies, suspect.location, &|l| ranking.place(l));
                    if !text.is_empty() {
                        let _ = write!(out, "  {text}");
                    }
                }
                None => out.push_str("  (in no traced failing run)"),
            }
            out.push('\n');
        }
        if several {
            out.push('\n');
        }
    }
    predicates(&mut out, ranking, localization, top);
    out
}

/// The top predicates and the tree, after a blank line (nothing without
/// events).
fn predicates(
    out: &mut String,
    ranking: &Ranking,
    localization: &Localization,
    top: Option<usize>,
) {
    if localization.predicates.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\npredicates, by {} over the tests that saw them (increase: how much likelier a test fails when it saw one than when it reached its site):",
        localization.metric
    );
    for entry in localization
        .predicates
        .iter()
        .take(top.unwrap_or(usize::MAX))
    {
        let _ = writeln!(
            out,
            "{:<4} {}  {:+.3}  {}/{}  {}",
            entry.rank,
            format_score(entry.score),
            entry.increase,
            entry.counts.failed,
            entry.counts.passed,
            ranking.predicate(&entry.predicate)
        );
    }
    if let Some(tree) = &localization.tree {
        let runs = &ranking.baseline.records;
        let right = runs
            .iter()
            .filter(|r| tree.predicts_failure(&r.events) != r.outcome.verdict.passed())
            .count();
        let _ = writeln!(
            out,
            "\ndecision tree telling failing tests from passing ones (depth {}, at most {TREE_DEPTH}; right about {right} of {} tests):",
            tree.depth(),
            runs.len()
        );
        tree_lines(out, ranking, tree, "", "");
    }
}

/// A node as `PREDICATE?` with `yes:` and `no:` branches, or a leaf as
/// `fail (1 failing, 0 passing)`; `label` goes before it.
fn tree_lines(
    out: &mut String,
    ranking: &Ranking,
    tree: &Tree<Predicate>,
    indent: &str,
    label: &str,
) {
    let (failing, passing) = tree.counts();
    match tree {
        Tree::Leaf { .. } => {
            let verdict = tree.verdict();
            let _ = writeln!(
                out,
                "{indent}{label}{verdict} ({failing} failing, {passing} passing)"
            );
        }
        Tree::Split {
            feature,
            present,
            absent,
            ..
        } => {
            let _ = writeln!(
                out,
                "{indent}{label}{}? ({failing} failing, {passing} passing)",
                ranking.predicate(feature)
            );
            let deeper = format!("{indent}  ");
            tree_lines(out, ranking, present, &deeper, "yes: ");
            tree_lines(out, ranking, absent, &deeper, "no: ");
        }
    }
}

/// `<= a (line 3), b (line 5); <- if (line 2)`; `place` names a location
/// in another file than `at`'s.
fn describe(
    dependencies: &[Dependency],
    at: Location,
    place_elsewhere: &dyn Fn(Location) -> String,
) -> String {
    let place = |from: &Location| {
        if from.file == at.file {
            format!("line {}", from.line)
        } else {
            place_elsewhere(*from)
        }
    };
    let mut data = Vec::new();
    let mut control = Vec::new();
    for dependency in dependencies {
        let from = place(dependency.from());
        match dependency {
            Dependency::Data { variable, .. } => data.push(format!("{variable} ({from})")),
            Dependency::Argument { .. } => data.push(format!("arguments ({from})")),
            Dependency::Return { .. } => data.push(format!("returned ({from})")),
            Dependency::WrittenBack { variable, .. } => {
                data.push(format!("{variable} written back ({from})"))
            }
            Dependency::Control { kind, .. } => control.push(format!("{kind} ({from})")),
            Dependency::Potential { variable, .. } => {
                control.push(format!("not writing {variable} ({from})"))
            }
        }
    }
    let mut parts = Vec::new();
    if !data.is_empty() {
        parts.push(format!("<= {}", data.join(", ")));
    }
    if !control.is_empty() {
        parts.push(format!("<- {}", control.join(", ")));
    }
    parts.join("; ")
}

/// Each group's slice as a graph: a node per statement of the slice of its
/// first traced failing run, data dependencies as solid edges labelled with
/// the variable (or `arguments`, `returned` across calls), control
/// dependencies dashed.
pub fn dot(ranking: &Ranking, localization: &Localization) -> String {
    let mut out =
        String::from("digraph dependencies {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (index, group) in localization.groups.iter().enumerate() {
        let Some((&test, trace)) = group
            .group
            .tests
            .iter()
            .find_map(|t| ranking.baseline.traces.get_key_value(t))
        else {
            continue;
        };
        let run = Run::new(trace, &localization.facts);
        let slice = run.slice(|| checks_lent(ranking.baseline, test));
        let _ = writeln!(
            out,
            "  subgraph cluster_{index} {{\n    label=\"{}\";",
            escape(&group.group.description)
        );
        for location in &slice {
            let code = ranking.baseline.sources.line_text(*location);
            let place = ranking.place(*location);
            let suspect = suspect_at(group, location);
            let rank = suspect
                .map(|s| format!(" (rank {})", s.rank))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "    \"{index}:{place}\" [label=\"{place}{rank}\\n{}\"];",
                escape(code)
            );
        }
        for location in &slice {
            for dependency in run.dependencies_of(location) {
                let from = dependency.from();
                let attributes = match &dependency {
                    Dependency::Data { variable, .. } => format!("label=\"{}\"", escape(variable)),
                    Dependency::Argument { .. } => "label=\"arguments\"".to_string(),
                    Dependency::Return { .. } => "label=\"returned\"".to_string(),
                    Dependency::WrittenBack { variable, .. } => {
                        format!("label=\"{} written back\"", escape(variable))
                    }
                    Dependency::Control { kind, .. } => format!("style=dashed, label=\"{kind}\""),
                    Dependency::Potential { variable, .. } => {
                        format!("style=dotted, label=\"not writing {}\"", escape(variable))
                    }
                };
                if slice.contains(from) {
                    let (from, to) = (ranking.place(*from), ranking.place(*location));
                    let _ = writeln!(
                        out,
                        "    \"{index}:{from}\" -> \"{index}:{to}\" [{attributes}];"
                    );
                }
            }
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

fn suspect_at<'a>(group: &'a GroupRanking, location: &Location) -> Option<&'a Suspect> {
    group.suspects.iter().find(|s| &s.location == location)
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::FileId;

    #[test]
    fn dependencies_read_like_the_seed() {
        let at = |line| Location::new(FileId::new(0), line);
        let place = |l: Location| format!("src/a.rs:{}", l.line);
        let dependencies = [
            Dependency::Data {
                variable: "c".into(),
                from: at(5),
            },
            Dependency::Data {
                variable: "tag".into(),
                from: at(9),
            },
            Dependency::Control {
                kind: "if",
                from: at(11),
            },
        ];
        assert_eq!(
            describe(&dependencies, at(12), &place),
            "<= c (line 5), tag (line 9); <- if (line 11)"
        );
        let elsewhere = [Dependency::Data {
            variable: "x".into(),
            from: Location::new(FileId::new(1), 3),
        }];
        assert_eq!(describe(&elsewhere, at(12), &place), "<= x (src/a.rs:3)");
        assert_eq!(describe(&[], at(12), &place), "");
    }
}
