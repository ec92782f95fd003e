//! How reduced versions of a test fare: a batch of bodies woven into one
//! build of a scratch copy (see `weave`), each run alone with its switch,
//! its verdict read back in the original's lines. A copy that does not
//! compile is found in the build's errors and left out of the next build;
//! errors no copy can be blamed for send the rest to one build each.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use crate::cargo::{BuildOutcome, CompileError};
use crate::cargo::{Kind, Workspace};
use crate::cargo::{RunSettings, TestId, TestSuite, Verdict};
use crate::code::Originals;
use crate::code::TestFunction;
use crate::code::source::FileId;
use crate::evaluate::BuildCopy;
use crate::evaluate::Settings;
use crate::exit::{Result, bail};
use crate::reduce::weave::{REDUCE_ENV, Woven, weave};
use crate::system::scratch::MAIN_TARGET;
use crate::system::{Budget, process};

/// Woven builds a batch may take before the rest are built one by one.
const MAX_WOVEN_BUILDS: usize = 3;

/// How one version of the test did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trial {
    /// It ran: its verdict, the panic's location in the original's lines.
    Ran(Verdict),
    /// It does not compile: the first error.
    Unresolved(String),
}

/// Builds and runs versions of one test.
#[derive(Debug)]
pub struct TestOracle {
    copy: BuildCopy,
    /// The test's file alone (file 0).
    originals: Originals,
    function: TestFunction,
    suite: TestSuite,
    test: TestId,
    target: BTreeSet<(Kind, String)>,
    timeout: Duration,
    jobs: usize,
    /// The time its builds and runs may take: its end is a halt.
    budget: Budget,
    cache: HashMap<String, Trial>,
    /// Builds run, and distinct versions decided.
    pub builds: usize,
    pub tried: usize,
}

impl TestOracle {
    /// An oracle for `test` (of `suite`, written as `function`), each run
    /// allowed `timeout`, building in a scratch copy of `workspace`, all
    /// until `budget` ends.
    pub fn new(
        workspace: &Workspace,
        function: TestFunction,
        suite: TestSuite,
        test: TestId,
        timeout: Duration,
        settings: &Settings,
        budget: Budget,
    ) -> Result<TestOracle> {
        let originals = Originals::new(vec![(function.path.clone(), function.text.clone())]);
        let copy = BuildCopy::new(workspace, &originals, &settings.cargo, MAIN_TARGET, budget)?;
        Ok(TestOracle {
            copy,
            originals,
            function,
            target: BTreeSet::from([suite.target_of(test)]),
            suite,
            test,
            timeout,
            jobs: settings.jobs.max(1),
            budget,
            cache: HashMap::new(),
            builds: 0,
            tried: 0,
        })
    }

    /// How each of `bodies` (the test's body, braces included, with its
    /// lines where they were) fares.
    pub fn trials(&mut self, bodies: &[String]) -> Result<Vec<Trial>> {
        let mut pending: Vec<&str> = Vec::new();
        for body in bodies {
            if !self.cache.contains_key(body) && !pending.contains(&body.as_str()) {
                pending.push(body);
            }
        }
        let mut decided: BTreeMap<&str, Trial> = BTreeMap::new();
        for _ in 0..MAX_WOVEN_BUILDS {
            if pending.is_empty() {
                break;
            }
            let woven = weave(&self.function, &pending);
            match self.build(&woven.text)? {
                Ok(suite) => {
                    let trials = self.run(&suite, &woven, pending.len())?;
                    decided.extend(pending.drain(..).zip(trials));
                }
                Err(errors) => {
                    let blamed = self.culprits(&errors, &woven);
                    if blamed.is_empty() {
                        break;
                    }
                    for (copy, error) in blamed {
                        decided.insert(pending[copy - 1], Trial::Unresolved(error));
                    }
                    pending.retain(|body| !decided.contains_key(body));
                }
            }
        }
        // What no woven build decided, one build each.
        for body in pending {
            let woven = weave(&self.function, &[body]);
            let trial = match self.build(&woven.text)? {
                Ok(suite) => self.run(&suite, &woven, 1)?.remove(0),
                Err(errors) => Trial::Unresolved(
                    errors
                        .first()
                        .map_or_else(|| "it does not build".to_string(), ToString::to_string),
                ),
            };
            decided.insert(body, trial);
        }
        for (body, trial) in decided {
            self.tried += 1;
            self.cache.insert(body.to_string(), trial);
        }
        Ok(bodies.iter().map(|b| self.cache[b].clone()).collect())
    }

    /// Builds the test's target with `text` as the test's file: the suite
    /// of that build, or its errors.
    fn build(&mut self, text: &str) -> Result<Result<TestSuite, Vec<CompileError>>> {
        let texts = BTreeMap::from([(FileId::new(0), text.to_string())]);
        self.copy.write(&texts, &self.originals)?;
        self.builds += 1;
        Ok(match self.copy.build(Some(&self.target), self.budget)? {
            BuildOutcome::Built(executables) => {
                Ok(self
                    .suite
                    .with_build(&executables, Some(&self.target), self.copy.dirs())?)
            }
            BuildOutcome::Failed { errors, summary } if errors.is_empty() => {
                bail!("cannot build the test's target in a scratch copy: {summary}")
            }
            BuildOutcome::Failed { errors, .. } => Err(errors),
        })
    }

    /// Runs copies `1..=count` of a woven build, `jobs` at a time.
    fn run(&self, suite: &TestSuite, woven: &Woven, count: usize) -> Result<Vec<Trial>> {
        let path = self.function.path.to_string_lossy().replace('\\', "/");
        let (test, timeout, budget) = (self.test, self.timeout, self.budget);
        process::in_parallel(self.jobs, count, budget, |index| {
            let env = || vec![(REDUCE_ENV, OsString::from((index + 1).to_string()))];
            let settings = RunSettings {
                jobs: 1,
                timeout,
                budget,
            };
            let verdict = suite
                .run(&[test], &settings, |_| env(), |_, _| {})?
                .remove(0)
                .verdict;
            Ok(Trial::Ran(in_original_lines(verdict, &path, woven)))
        })
    }

    /// The copy each error is about: the first of its spans that lies in
    /// one.
    fn culprits(&self, errors: &[CompileError], woven: &Woven) -> BTreeMap<usize, String> {
        let path = self.function.path.to_string_lossy().replace('\\', "/");
        let mut blamed = BTreeMap::new();
        for error in errors {
            let copy = error
                .spans
                .iter()
                .filter(|(file, _)| Path::new(file) == Path::new(&path))
                .find_map(|(_, range)| woven.copy_at(range));
            if let Some(copy) = copy {
                blamed.entry(copy).or_insert_with(|| error.to_string());
            }
        }
        blamed
    }
}

/// `verdict` with a panic located in the woven file (`path`) moved to the
/// original's line.
fn in_original_lines(verdict: Verdict, path: &str, woven: &Woven) -> Verdict {
    let Verdict::Failed(mut panic) = verdict else {
        return verdict;
    };
    let location = panic.location.as_deref().unwrap_or("");
    let mut parts = location.rsplitn(3, ':');
    let moved = match (parts.next(), parts.next(), parts.next()) {
        (Some(column), Some(line), Some(file)) if file == path => line
            .parse::<u32>()
            .ok()
            .map(|line| format!("{file}:{}:{column}", woven.original_line(line))),
        _ => None,
    };
    if moved.is_some() {
        panic.location = moved;
    }
    Verdict::Failed(panic)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cargo::Panic;
    use std::path::PathBuf;

    #[test]
    fn panics_in_copies_move_to_the_original_lines() {
        let text = "#[test]\nfn t() {\n    a();\n    b();\n}\nfn after() { panic!() }\n";
        let function = TestFunction {
            path: PathBuf::from("tests/t.rs"),
            text: text.to_string(),
            item: 0..text.find("\nfn after").unwrap(),
            body: text.find('{').unwrap()..text.find("\nfn after").unwrap(),
            output: String::new(),
        };
        let woven = weave(&function, &["{\n    \n    b();\n}"]);
        let lines: Vec<&str> = woven.text.lines().collect();
        let b_line = lines.iter().rposition(|l| *l == "    b();").unwrap() + 1;
        let after_line = woven.text.lines().count();
        let failed = |location: String| {
            Verdict::Failed(Panic {
                message: "boom".into(),
                location: Some(location),
                ..Panic::default()
            })
        };
        let moved = |location: String| in_original_lines(failed(location), "tests/t.rs", &woven);
        assert_eq!(
            moved(format!("tests/t.rs:{b_line}:5")),
            failed("tests/t.rs:4:5".into())
        );
        assert_eq!(
            moved(format!("tests/t.rs:{after_line}:14")),
            failed("tests/t.rs:6:14".into())
        );
        assert_eq!(
            moved("src/lib.rs:9:1".into()),
            failed("src/lib.rs:9:1".into())
        );
        assert_eq!(
            in_original_lines(Verdict::Passed, "tests/t.rs", &woven),
            Verdict::Passed
        );
    }
}
