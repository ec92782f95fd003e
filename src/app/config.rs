//! Settings from files: `[package.metadata.autofix]` in Cargo.toml, and an
//! `autofix.toml` next to it (or at the workspace root), which wins. The
//! command line wins over both (see `options`).

use std::path::Path;

use serde::Deserialize;

use crate::cargo::discover::Workspace;
use crate::exit::{Exit, Failure};

/// Every setting a config file may hold; all optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Config {
    pub metric: Option<String>,
    pub seed: Option<u64>,
    pub population: Option<usize>,
    pub generations: Option<usize>,
    pub time_limit: Option<f64>,
    pub weight_passing: Option<f64>,
    pub weight_failing: Option<f64>,
    pub operators: Option<Vec<String>>,
    pub exclude: Option<Vec<String>>,
    pub jobs: Option<usize>,
    pub test_timeout: Option<f64>,
    pub evaluator: Option<String>,
    pub refine: Option<Vec<String>>,
}

impl Config {
    /// `over`'s settings where it has them, else `self`'s.
    fn overridden_by(self, over: Config) -> Config {
        Config {
            metric: over.metric.or(self.metric),
            seed: over.seed.or(self.seed),
            population: over.population.or(self.population),
            generations: over.generations.or(self.generations),
            time_limit: over.time_limit.or(self.time_limit),
            weight_passing: over.weight_passing.or(self.weight_passing),
            weight_failing: over.weight_failing.or(self.weight_failing),
            operators: over.operators.or(self.operators),
            exclude: over.exclude.or(self.exclude),
            jobs: over.jobs.or(self.jobs),
            test_timeout: over.test_timeout.or(self.test_timeout),
            evaluator: over.evaluator.or(self.evaluator),
            refine: over.refine.or(self.refine),
        }
    }
}

/// The package's config: its metadata table, overridden by `autofix.toml`
/// in the package directory or else the workspace root.
pub fn load(workspace: &Workspace) -> Result<Config, Failure> {
    let package = &workspace.package;
    let from_metadata = match &package.autofix_metadata {
        Some(value) => serde_path_to_error::deserialize(value.clone()).map_err(|error| {
            let key = match error.path().to_string() {
                path if path == "." => String::new(),
                path => format!(" key `{path}`"),
            };
            Failure::new(
                Exit::Usage,
                format!(
                    "[package.metadata.autofix]{key} in {}: {}",
                    package.manifest_path.display(),
                    error.inner()
                ),
            )
        })?,
        None => Config::default(),
    };
    let file = [package.dir(), workspace.root.as_path()]
        .into_iter()
        .map(|dir| dir.join("autofix.toml"))
        .find(|p| p.is_file());
    let from_file = match file {
        Some(path) => read_file(&path)?,
        None => Config::default(),
    };
    Ok(from_metadata.overridden_by(from_file))
}

fn read_file(path: &Path) -> Result<Config, Failure> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        Failure::new(
            Exit::Usage,
            format!("cannot read {}: {error}", path.display()),
        )
    })?;
    parse(&text)
        .map_err(|message| Failure::new(Exit::Usage, format!("{}:{message}", path.display())))
}

/// A config file's text parsed; an error says where (`LINE:COLUMN: `) and
/// which key.
fn parse(text: &str) -> Result<Config, String> {
    let deserializer = toml::Deserializer::parse(text).map_err(|error| located(text, &error))?;
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let key = error.path().to_string();
        let inner = error.into_inner();
        let at = located(text, &inner);
        if key == "." || at.contains(&format!("`{key}`")) {
            at
        } else {
            format!("{at} (key `{key}`)")
        }
    })
}

/// `LINE:COLUMN: message` of a toml error (just ` message` without a span).
fn located(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end();
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("{line}:{column}: {message}")
        }
        None => format!(" {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kebab_case_and_refuses_unknown_keys() {
        let config: Config =
            toml::from_str("population = 10\nweight-passing = 0.9\noperators = [\"value\"]\n")
                .unwrap();
        assert_eq!(config.population, Some(10));
        assert_eq!(config.weight_passing, Some(0.9));
        assert!(toml::from_str::<Config>("populaton = 10\n").is_err());
    }

    #[test]
    fn an_error_names_its_line_column_and_key() {
        let error = parse("seed = 1\njobs = \"many\"\n").unwrap_err();
        assert!(error.starts_with("2:8: "), "{error}");
        assert!(error.contains("`jobs`"), "{error}");
        let error = parse("seed = 1\npopulaton = 10\n").unwrap_err();
        assert!(error.starts_with("2:1: "), "{error}");
        assert!(error.contains("populaton"), "{error}");
        let error = parse("seed = [\n").unwrap_err();
        assert!(
            error.starts_with("2:1: ") || error.starts_with("1:"),
            "{error}"
        );
    }

    #[test]
    fn the_file_overrides_the_metadata() {
        let metadata = Config {
            population: Some(10),
            seed: Some(1),
            ..Default::default()
        };
        let file = Config {
            population: Some(20),
            ..Default::default()
        };
        let merged = metadata.overridden_by(file);
        assert_eq!((merged.population, merged.seed), (Some(20), Some(1)));
    }
}
