//! Settings from files: `[package.metadata.autofix]` in Cargo.toml, and an
//! `autofix.toml` next to it (or at the workspace root), which wins. The
//! command line wins over both (see `options`).

use std::path::Path;

use serde::Deserialize;

use crate::cargo::Workspace;
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
    pub test_tool: Option<String>,
    /// What `.config/nextest.toml` at the workspace root says, if it exists.
    #[serde(skip)]
    pub nextest: Option<Nextest>,
}

/// The settings of a nextest project that bear on running its tests here.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Nextest {
    /// The default profile's `slow-timeout`: `period` times `terminate-after`
    /// (none when tests are never terminated).
    pub terminate_after: Option<std::time::Duration>,
    /// The smallest `max-threads` of a test group, if there are groups.
    pub group_threads: Option<usize>,
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
            test_tool: over.test_tool.or(self.test_tool),
            nextest: over.nextest.or(self.nextest),
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
    let mut config = from_metadata.overridden_by(from_file);
    let nextest = workspace.root.join(".config/nextest.toml");
    if nextest.is_file() {
        let text = std::fs::read_to_string(&nextest).map_err(|error| {
            Failure::new(
                Exit::Usage,
                format!("cannot read {}: {error}", nextest.display()),
            )
        })?;
        config.nextest = Some(parse_nextest(&text).map_err(|message| {
            Failure::new(Exit::Usage, format!("{}: {message}", nextest.display()))
        })?);
    }
    Ok(config)
}

/// The parts of a nextest config that matter here: the default profile's
/// slow timeout (`"60s"` or `{ period = "60s", terminate-after = 2 }`) and
/// the test groups' `max-threads`.
fn parse_nextest(text: &str) -> Result<Nextest, String> {
    let value: toml::Table =
        toml::from_str(text).map_err(|e| e.message().trim_end().to_string())?;
    let slow = value
        .get("profile")
        .and_then(|p| p.get("default"))
        .and_then(|d| d.get("slow-timeout"));
    let terminate_after = match slow {
        Some(toml::Value::Table(table)) => {
            let period = table
                .get("period")
                .and_then(toml::Value::as_str)
                .map(nextest_duration)
                .transpose()?;
            let times = table
                .get("terminate-after")
                .and_then(toml::Value::as_integer);
            match (period, times) {
                (Some(period), Some(times)) if times > 0 => Some(period * times as u32),
                _ => None,
            }
        }
        _ => None,
    };
    let group_threads = value
        .get("test-groups")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flatten()
        .filter_map(|(_, group)| group.get("max-threads")?.as_integer())
        .filter(|&n| n > 0)
        .map(|n| n as usize)
        .min();
    Ok(Nextest {
        terminate_after,
        group_threads,
    })
}

/// `"60s"`, `"2m"`, `"500ms"`, `"1h"` as nextest writes durations.
fn nextest_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration such as \"60s\""))?;
    let seconds = match unit.trim() {
        "ms" => number / 1000.0,
        "s" | "" => number,
        "m" => number * 60.0,
        "h" => number * 3600.0,
        other => return Err(format!("unknown unit `{other}` in `{text}`")),
    };
    Ok(std::time::Duration::from_secs_f64(seconds))
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
    fn a_nextest_config_gives_the_timeout_and_the_group_threads() {
        let text = "[profile.default]\nslow-timeout = { period = \"30s\", terminate-after = 4 }\n\n[test-groups]\nserial = { max-threads = 1 }\ntwo = { max-threads = 2 }\n";
        assert_eq!(
            parse_nextest(text).unwrap(),
            Nextest {
                terminate_after: Some(std::time::Duration::from_secs(120)),
                group_threads: Some(1),
            }
        );
        // A slow timeout that only warns terminates nothing.
        let warn_only = parse_nextest("[profile.default]\nslow-timeout = \"60s\"\n").unwrap();
        assert_eq!(warn_only, Nextest::default());
        assert!(
            parse_nextest(
                "[profile.default]\nslow-timeout = { period = \"1x\", terminate-after = 2 }\n"
            )
            .unwrap_err()
            .contains("unknown unit")
        );
    }

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
