//! Dynamic dependencies (the slicing seed): what each location defines and
//! uses, which condition it is control dependent on, and, over the trace of
//! a failing run, the backward slice from the last statement it executed in
//! the crate: the statements that can have influenced the failure.
//!
//! Facts come from syntax; dependencies come from a trace, so they are the
//! ones this run had, not every one the code could have.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use syn::{Expr, Stmt};

use crate::crate_sources::CrateSources;
use crate::source::Location;
use crate::syntax::{
    RunnableCode, Scope, pattern_bindings, self_field, start_line, variables_used,
    walk_runnable_code,
};

/// What one location does with variables.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// The function it is in: variables are that function's.
    pub function: String,
    pub defines: BTreeSet<String>,
    pub uses: BTreeSet<String>,
    /// The condition (if, else if, loop, match) it runs under.
    pub control: Option<Location>,
    /// `if`, `while`, `for`, `loop` or `match` for a location that decides
    /// what runs under it.
    pub decides: Option<&'static str>,
}

/// The facts of every location of the crate.
pub fn statement_facts(sources: &CrateSources) -> BTreeMap<Location, Facts> {
    let mut facts = BTreeMap::new();
    for file in &sources.files {
        let mut collector = Collector {
            file: &file.path,
            facts: &mut facts,
        };
        walk_runnable_code(&file.syntax, &mut collector);
    }
    facts
}

struct Collector<'a> {
    file: &'a Path,
    facts: &'a mut BTreeMap<Location, Facts>,
}

impl Collector<'_> {
    fn record(
        &mut self,
        line: u32,
        scope: &Scope,
        defines: BTreeSet<String>,
        uses: BTreeSet<String>,
        decides: Option<&'static str>,
    ) {
        let location = Location {
            file: self.file.to_path_buf(),
            line,
        };
        let control = scope.control.filter(|c| *c != line).map(|c| Location {
            file: self.file.to_path_buf(),
            line: c,
        });
        let entry = self.facts.entry(location).or_insert_with(|| Facts {
            function: scope.function.clone(),
            control,
            ..Facts::default()
        });
        entry.defines.extend(defines);
        entry.uses.extend(uses);
        entry.decides = entry.decides.or(decides);
    }
}

/// The variable an assignment target writes: `x`, `self.f`, or the base of
/// `x[i]` or `x.f`.
fn written(target: &Expr) -> Option<String> {
    match target {
        Expr::Path(path) => path.path.get_ident().map(ToString::to_string),
        Expr::Field(field) => self_field(field).or_else(|| written(&field.base)),
        Expr::Index(index) => written(&index.expr),
        Expr::Unary(unary) => written(&unary.expr),
        Expr::Paren(paren) => written(&paren.expr),
        _ => None,
    }
}

impl RunnableCode for Collector<'_> {
    fn statement(&mut self, stmt: &Stmt, scope: &Scope) {
        let mut defines = BTreeSet::new();
        let (uses, decides) = match stmt {
            Stmt::Local(local) => {
                defines.extend(pattern_bindings(&local.pat));
                (
                    local
                        .init
                        .as_ref()
                        .map(|init| variables_used(&init.expr))
                        .unwrap_or_default(),
                    None,
                )
            }
            Stmt::Expr(expr, _) => match expr {
                Expr::If(e) => (variables_used(&e.cond), Some("if")),
                Expr::While(e) => (variables_used(&e.cond), Some("while")),
                Expr::Loop(_) => (BTreeSet::new(), Some("loop")),
                Expr::Match(e) => (variables_used(&e.expr), Some("match")),
                Expr::ForLoop(e) => {
                    defines.extend(pattern_bindings(&e.pat));
                    (variables_used(&e.expr), Some("for"))
                }
                Expr::Block(_) | Expr::Unsafe(_) => (BTreeSet::new(), None),
                Expr::Assign(assign) => {
                    defines.extend(written(&assign.left));
                    let mut uses = variables_used(&assign.right);
                    if !matches!(assign.left.as_ref(), Expr::Path(_))
                        || written(&assign.left).is_none()
                    {
                        uses.extend(variables_used(&assign.left));
                    }
                    (uses, None)
                }
                Expr::Binary(binary) if is_compound_assignment(&binary.op) => {
                    defines.extend(written(&binary.left));
                    (variables_used(expr), None)
                }
                // `v.push(x)`: a method called on a variable may change it.
                Expr::MethodCall(call) => {
                    defines.extend(written(&call.receiver));
                    (variables_used(expr), None)
                }
                other => (variables_used(other), None),
            },
            Stmt::Macro(mac) => (variables_used(&mac.mac), None),
            Stmt::Item(_) => return,
        };
        self.record(scope.location, scope, defines, uses, decides);
    }

    fn else_if(&mut self, else_branch: &Expr, scope: &Scope) {
        if let Expr::If(nested) = else_branch {
            let line = nested.if_token.span.start().line as u32;
            self.record(
                line,
                scope,
                BTreeSet::new(),
                variables_used(&nested.cond),
                Some("if"),
            );
        }
    }

    fn expression_body(&mut self, body: &Expr, scope: &Scope) {
        if let Some(line) = start_line(body) {
            self.record(line, scope, BTreeSet::new(), variables_used(body), None);
        }
    }
}

fn is_compound_assignment(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitXorAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}

/// A dependency of one execution of a location.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dependency {
    /// It read `variable`, last written at `from`.
    Data { variable: String, from: Location },
    /// It ran because the condition at `from` (an `if`, loop...) decided so.
    Control { kind: &'static str, from: Location },
}

/// The dependencies of the last execution of `location` in `trace`.
pub fn dependencies_at(
    trace: &[Location],
    location: &Location,
    facts: &BTreeMap<Location, Facts>,
) -> Vec<Dependency> {
    let Some(at) = trace.iter().rposition(|l| l == location) else {
        return Vec::new();
    };
    let Some(own) = facts.get(location) else {
        return Vec::new();
    };
    let mut dependencies = Vec::new();
    for variable in &own.uses {
        let writer = trace[..at].iter().rev().find(|l| {
            facts
                .get(*l)
                .is_some_and(|f| f.function == own.function && f.defines.contains(variable))
        });
        if let Some(from) = writer {
            dependencies.push(Dependency::Data {
                variable: variable.clone(),
                from: from.clone(),
            });
        }
    }
    if let Some(control) = &own.control {
        let kind = facts.get(control).and_then(|f| f.decides).unwrap_or("if");
        dependencies.push(Dependency::Control {
            kind,
            from: control.clone(),
        });
    }
    dependencies
}

/// The dynamic backward slice of a failing run's trace: from the last
/// location the run executed in the crate, every earlier execution it
/// depends on, through data (the last write of each variable read, in the
/// same function) and control (the condition it ran under), transitively.
pub fn backward_slice(trace: &[Location], facts: &BTreeMap<Location, Facts>) -> BTreeSet<Location> {
    let mut slice = BTreeSet::new();
    let Some((last, earlier)) = trace.split_last() else {
        return slice;
    };
    // What is still wanted: variables (by function) and conditions.
    let mut wanted_variables: BTreeSet<(String, String)> = BTreeSet::new();
    let mut wanted_conditions: BTreeSet<Location> = BTreeSet::new();
    let mut take = |location: &Location,
                    variables: &mut BTreeSet<(String, String)>,
                    conditions: &mut BTreeSet<Location>| {
        slice.insert(location.clone());
        if let Some(facts) = facts.get(location) {
            variables.extend(
                facts
                    .uses
                    .iter()
                    .map(|v| (facts.function.clone(), v.clone())),
            );
            conditions.extend(facts.control.clone());
        }
    };
    take(last, &mut wanted_variables, &mut wanted_conditions);
    for location in earlier.iter().rev() {
        let Some(own) = facts.get(location) else {
            continue;
        };
        let writes_wanted: Vec<(String, String)> = own
            .defines
            .iter()
            .map(|v| (own.function.clone(), v.clone()))
            .filter(|key| wanted_variables.contains(key))
            .collect();
        let decides_wanted = wanted_conditions.remove(location);
        if writes_wanted.is_empty() && !decides_wanted {
            continue;
        }
        for key in writes_wanted {
            wanted_variables.remove(&key);
        }
        take(location, &mut wanted_variables, &mut wanted_conditions);
    }
    slice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crate_sources::SourceFile;
    use std::path::PathBuf;

    fn facts_of(text: &str) -> BTreeMap<Location, Facts> {
        let sources = CrateSources {
            files: vec![SourceFile {
                path: PathBuf::from("src/lib.rs"),
                text: text.to_string(),
                syntax: crate::source::parse_file(text).unwrap(),
            }],
            roots: vec![0],
            ..Default::default()
        };
        statement_facts(&sources)
    }

    fn at(line: u32) -> Location {
        Location {
            file: PathBuf::from("src/lib.rs"),
            line,
        }
    }

    fn lines(set: &BTreeSet<Location>) -> Vec<u32> {
        set.iter().map(|l| l.line).collect()
    }

    const MIDDLE: &str = "pub fn middle(x: i32, y: i32, z: i32) -> i32 {\n    if y < z {\n        if x < y {\n            return y;\n        } else if x < z {\n            return y;\n        }\n    } else {\n        if x > y {\n            return y;\n        } else if x > z {\n            return x;\n        }\n    }\n    z\n}\n";

    #[test]
    fn middle_facts_follow_the_seed() {
        let facts = facts_of(MIDDLE);
        assert_eq!(
            facts[&at(2)].uses,
            BTreeSet::from(["y".to_string(), "z".into()])
        );
        assert_eq!(facts[&at(3)].control, Some(at(2)));
        assert_eq!(
            facts[&at(5)].uses,
            BTreeSet::from(["x".to_string(), "z".into()])
        );
        assert_eq!(
            facts[&at(5)].control,
            Some(at(3)),
            "an else-if depends on its if"
        );
        assert_eq!(facts[&at(6)].control, Some(at(5)));
        assert_eq!(facts[&at(6)].uses, BTreeSet::from(["y".to_string()]));
        assert_eq!(facts[&at(15)].control, None);
    }

    #[test]
    fn the_slice_of_middle_2_1_3_holds_the_conditions_and_the_return() {
        // middle(2, 1, 3) executes lines 2, 3, 5 and 6.
        let facts = facts_of(MIDDLE);
        let slice = backward_slice(&[at(2), at(3), at(5), at(6)], &facts);
        assert_eq!(lines(&slice), [2, 3, 5, 6]);
        let deps = dependencies_at(&[at(2), at(3), at(5), at(6)], &at(6), &facts);
        assert_eq!(
            deps,
            [Dependency::Control {
                kind: "if",
                from: at(5)
            }]
        );
    }

    #[test]
    fn a_write_that_cannot_reach_the_failure_is_left_out() {
        let text = "pub fn f(a: i32) -> i32 {\n    let mut log = Vec::new();\n    let b = a * 2;\n    log.push(b);\n    let c = b + 1;\n    c\n}\n";
        let facts = facts_of(text);
        assert!(facts[&at(4)].defines.contains("log"));
        let slice = backward_slice(&[at(2), at(3), at(4), at(5), at(6)], &facts);
        assert_eq!(
            lines(&slice),
            [3, 5, 6],
            "`log` cannot influence the result"
        );
        let deps = dependencies_at(&[at(2), at(3), at(4), at(5), at(6)], &at(5), &facts);
        assert_eq!(
            deps,
            [Dependency::Data {
                variable: "b".into(),
                from: at(3)
            }]
        );
    }

    #[test]
    fn fields_of_self_and_loops_carry_dependencies() {
        let text = "struct S { count: u32, total: u32 }\nimpl S {\n    fn add(&mut self, values: &[u32]) -> u32 {\n        for v in values {\n            self.total += v;\n        }\n        self.count += 1;\n        self.total / self.count\n    }\n}\n";
        let facts = facts_of(text);
        assert_eq!(facts[&at(5)].control, Some(at(4)));
        assert_eq!(facts[&at(4)].decides, Some("for"));
        assert!(facts[&at(5)].defines.contains("self.total"));
        let trace = [at(4), at(5), at(5), at(7), at(8)];
        assert_eq!(lines(&backward_slice(&trace, &facts)), [4, 5, 7, 8]);
    }
}
