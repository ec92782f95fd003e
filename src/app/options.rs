//! Validated options: the one value the pipeline reads its settings from,
//! made of the command line over the config files over the defaults.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use clap::ValueEnum;

use crate::app::cli::{Args, Format};
use crate::app::config::Config;
use crate::baseline;
use crate::cargo::{CargoFlags, TestTool};
use crate::evaluate::Weights;
use crate::evaluate::{self, EvaluatorKind};
use crate::exit::{Exit, Failure};
use crate::localize;
use crate::localize::Metric;
use crate::mutation::Exclusions;
use crate::mutation::Operator;
use crate::repair;
use crate::repair::Shard;
use crate::system::console::Console;

/// Every setting of a run, validated: what to do, how to show it, and each
/// stage's settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// What the user should know about how their settings were taken (a
    /// value lowered, say), one line each.
    pub notes: Vec<String>,
    pub rank_only: bool,
    pub explain: bool,
    /// `None` shows every line.
    pub top: Option<usize>,
    pub format: Format,
    /// `--shard K/N`: evaluate this slice of the sweep and stop.
    pub shard: Option<Shard>,
    pub html: Option<PathBuf>,
    pub quiet: bool,
    /// `-v`, `-vv`.
    pub verbose: u8,
    /// Whether stderr is coloured (see `console::colors`).
    pub color: bool,
    pub output: Option<PathBuf>,
    pub report: Option<PathBuf>,
    pub baseline: baseline::Settings,
    pub localize: localize::Settings,
    pub repair: repair::Settings,
}

/// The longest duration a setting may give, in seconds: a year (longer
/// ones overflow the clock, and no run is meant to take them).
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// The largest population: a generation is one batch of candidates held
/// in memory and woven into one build, and no run evaluates more than a
/// few thousand candidates a minute.
const MAX_POPULATION: usize = 10_000;

/// The most generations a search may be given.
const MAX_GENERATIONS: usize = 1_000_000;

/// A setting from the command line (`--name`) or else a config file
/// (`name = ...`), with how to name it in a message.
fn pick<T>(flag: Option<T>, key: Option<T>, name: &str) -> Option<(T, String)> {
    match (flag, key) {
        (Some(value), _) => Some((value, format!("--{name}"))),
        (None, Some(value)) => Some((value, format!("`{name}` in the config"))),
        (None, None) => None,
    }
}

/// What sharpens the spectrum's ranking (`--refine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Refinements {
    slices: bool,
    crash: bool,
    switching: bool,
    mutation: bool,
    feedback: bool,
    predicates: bool,
}

impl Refinements {
    const ALL: Refinements = Refinements {
        slices: true,
        crash: true,
        switching: true,
        mutation: true,
        feedback: true,
        predicates: true,
    };
    const NONE: Refinements = Refinements {
        slices: false,
        crash: false,
        switching: false,
        mutation: false,
        feedback: false,
        predicates: false,
    };

    fn parse(list: &[String]) -> Result<Refinements, String> {
        let mut refinements = Refinements::NONE;
        for name in list.iter().map(|n| n.trim()) {
            match name {
                "all" => refinements = Refinements::ALL,
                "none" => {}
                "slices" => refinements.slices = true,
                "crash" => refinements.crash = true,
                "switching" => refinements.switching = true,
                "mutation" => refinements.mutation = true,
                "feedback" => refinements.feedback = true,
                "predicates" => refinements.predicates = true,
                other => {
                    return Err(format!(
                        "unknown refinement `{other}` (expected all, none, slices, crash, switching, mutation, feedback, predicates)"
                    ));
                }
            }
        }
        Ok(refinements)
    }
}

/// A number as a person would write it: `1e308`, not 309 digits.
fn short_number(value: f64) -> String {
    if value.is_finite() && value.abs() >= 1e9 {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// A usage error: settings that do not make sense.
fn usage(message: String) -> Failure {
    Failure::new(Exit::Usage, message)
}

/// A number of seconds, from 0 to a year.
fn seconds((value, name): (f64, String)) -> Result<Duration, Failure> {
    if value.is_finite() && (0.0..=MAX_SECONDS).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(usage(format!(
            "{name} must be a number of seconds from 0 to {MAX_SECONDS} (a year), not {}",
            short_number(value)
        )))
    }
}

/// The time a test may take, how many candidates are evaluated at once
/// (no more than the CPUs), and how many of the baseline's tests run at
/// once (no more than a nextest test group allows); `notes` says what was
/// lowered.
fn runs(
    args: &Args,
    config: &Config,
    notes: &mut Vec<String>,
) -> Result<(Duration, usize, usize), Failure> {
    // A nextest project's terminate timeout is the default.
    let nextest = config.nextest.clone().unwrap_or_default();
    let default_timeout = nextest.terminate_after.map_or(60.0, |d| d.as_secs_f64());
    let test_timeout = seconds(
        pick(args.test_timeout, config.test_timeout, "test-timeout")
            .unwrap_or((default_timeout, String::new())),
    )?;
    if test_timeout.is_zero() {
        return Err(usage(
            "--test-timeout must be more than 0 seconds".to_string(),
        ));
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = match pick(args.jobs, config.jobs, "jobs") {
        Some((0, name)) => return Err(usage(format!("{name} must be at least 1"))),
        Some((jobs, name)) if jobs > cpus => {
            notes.push(format!(
                "{name} {jobs} is more than the {cpus} CPUs here; using {cpus} (more jobs than CPUs only slow each other down)"
            ));
            cpus
        }
        Some((jobs, _)) => jobs,
        None => cpus,
    };
    // A nextest test group that runs its tests one or a few at a time:
    // the baseline runs every test that way (which tests a group's
    // filter selects is nextest's own language).
    let baseline_jobs = match nextest.group_threads {
        Some(threads) if threads < jobs => {
            notes.push(format!(
                "a test group of .config/nextest.toml runs at most {threads} tests at a time; so do the baseline's test runs"
            ));
            threads
        }
        _ => jobs,
    };
    Ok((test_timeout, jobs, baseline_jobs))
}

/// The fitness weights: non-negative, not both 0.
fn weights(args: &Args, config: &Config) -> Result<Weights, Failure> {
    let weight = |(value, name): (f64, String)| {
        if value.is_finite() && value >= 0.0 {
            Ok(value)
        } else {
            Err(usage(format!(
                "{name} must be a non-negative number, not {value}"
            )))
        }
    };
    let weight_passing = weight(
        pick(args.weight_passing, config.weight_passing, "weight-passing")
            .unwrap_or((0.99, String::new())),
    )?;
    let weight_failing = weight(
        pick(args.weight_failing, config.weight_failing, "weight-failing")
            .unwrap_or((0.01, String::new())),
    )?;
    if weight_passing + weight_failing == 0.0 {
        return Err(usage("the fitness weights cannot both be 0".to_string()));
    }
    Ok(Weights {
        passing: weight_passing,
        failing: weight_failing,
    })
}

/// `--shard`, if given, after checking that the format, the shard and
/// what is asked go together.
fn shard(args: &Args) -> Result<Option<Shard>, Failure> {
    if args.format == Format::Dot && !args.explain {
        return Err(usage("--format dot goes with --explain".to_string()));
    }
    if matches!(args.format, Format::Github | Format::Sarif) && args.explain {
        let name = args
            .format
            .to_possible_value()
            .expect("no format is skipped");
        return Err(usage(format!(
            "--format {} annotates the ranking or the patch, not --explain",
            name.get_name()
        )));
    }
    let shard: Option<Shard> = args
        .shard
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(usage)?;
    if shard.is_some() && (args.rank_only || args.explain) {
        return Err(usage(
            "--shard evaluates a slice of the repair's sweep; it does not go with --rank-only or --explain".to_string(),
        ));
    }
    Ok(shard)
}

/// The lines `--in-diff`'s diff changes, by file.
fn in_diff(args: &Args) -> Result<Option<BTreeMap<String, BTreeSet<u32>>>, Failure> {
    let Some(path) = &args.in_diff else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(path)
        .map_err(|error| usage(format!("cannot read --in-diff {}: {error}", path.display())))?;
    Ok(Some(crate::code::changed_lines(&text)))
}

/// The features to build with (`--features` takes commas and spaces).
fn cargo_flags(args: &Args) -> CargoFlags {
    CargoFlags {
        features: args
            .features
            .iter()
            .flat_map(|f| f.split([',', ' ']))
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect(),
        all_features: args.all_features,
        no_default_features: args.no_default_features,
        lockfile: args.lockfile(),
        echo: args.verbose > 1,
        optimize_dependencies: args.optimize_dependencies,
    }
}

/// The operators named (every one if none is).
fn operators(names: Option<&[String]>) -> Result<Vec<Operator>, String> {
    let operators = match names {
        Some(names) => names
            .iter()
            .map(|n| n.trim().parse::<Operator>())
            .collect::<Result<Vec<_>, _>>()?,
        None => Operator::all(),
    };
    if operators.is_empty() {
        return Err("--operators needs at least one operator".to_string());
    }
    Ok(operators)
}

/// The genetic search's population (2 to [`MAX_POPULATION`]) and
/// generations (at most [`MAX_GENERATIONS`]).
fn search_sizes(args: &Args, config: &Config) -> Result<(usize, usize), Failure> {
    let population = match pick(args.population, config.population, "population") {
        Some((n, name)) if !(2..=MAX_POPULATION).contains(&n) => {
            return Err(usage(format!(
                "{name} must be from 2 to {MAX_POPULATION} (each generation builds and tests that many candidates), not {n}"
            )));
        }
        Some((n, _)) => n,
        None => 40,
    };
    let generations = match pick(args.generations, config.generations, "generations") {
        Some((n, name)) if n > MAX_GENERATIONS => {
            return Err(usage(format!(
                "{name} must be at most {MAX_GENERATIONS}, not {n}; --time-limit bounds a long search better"
            )));
        }
        Some((n, _)) => n,
        None => 20,
    };
    Ok((population, generations))
}

impl Options {
    /// Stderr as `--quiet` and `--color` ask.
    pub fn console(&self) -> Console {
        Console {
            quiet: self.quiet,
            color: self.color,
            verbose: self.verbose,
        }
    }

    /// The command line over `config` over the defaults, validated.
    pub fn new(args: Args, config: Config) -> Result<Options, Failure> {
        let mut notes = Vec::new();
        let (test_timeout, jobs, baseline_jobs) = runs(&args, &config, &mut notes)?;
        let test_tool: TestTool = pick(
            args.test_tool.clone(),
            config.test_tool.clone(),
            "test-tool",
        )
        .map(|(name, flag)| name.parse().map_err(|e| usage(format!("{flag}: {e}"))))
        .transpose()?
        .unwrap_or_default();
        let metric: Metric = args
            .metric
            .as_deref()
            .or(config.metric.as_deref())
            .unwrap_or("ochiai")
            .parse()
            .map_err(usage)?;
        let weights = weights(&args, &config)?;
        let operators =
            operators(args.operators.as_deref().or(config.operators.as_deref())).map_err(usage)?;
        let shard = shard(&args)?;
        let color = args.color_on_stderr();
        let (population, generations) = search_sizes(&args, &config)?;
        let time_limit = seconds(
            pick(args.time_limit, config.time_limit, "time-limit")
                .unwrap_or((600.0, String::new())),
        )?;
        let in_diff = in_diff(&args)?;
        let cargo = cargo_flags(&args);
        let mut exclude = config.exclude.unwrap_or_default();
        exclude.extend(args.exclude);
        let exclude = Exclusions { patterns: exclude };
        let refine = match args.refine.or(config.refine) {
            Some(list) => Refinements::parse(&list).map_err(usage)?,
            None => Refinements::ALL,
        };
        let kind: EvaluatorKind = args
            .evaluator
            .as_deref()
            .or(config.evaluator.as_deref())
            .unwrap_or("schema")
            .parse()
            .map_err(usage)?;
        let evaluation = evaluate::Settings {
            kind,
            cargo: cargo.clone(),
            jobs,
            test_timeout,
            cache: !args.no_cache,
        };
        Ok(Options {
            notes,
            rank_only: args.rank_only,
            explain: args.explain,
            top: match args.top {
                Some(0) => None,
                Some(top) => Some(top),
                // Annotations are findings: fewer, and only the best.
                None if matches!(args.format, Format::Github | Format::Sarif) => Some(10),
                None => Some(20),
            },
            format: args.format,
            shard,
            html: args.html,
            quiet: args.quiet,
            verbose: args.verbose,
            color,
            output: args.output,
            report: args.report,
            baseline: baseline::Settings {
                cargo,
                jobs: baseline_jobs,
                test_timeout,
                // The slices need the failing tests' traces; so does a
                // crash in the standard library (its caller's line).
                trace_failing: refine.slices || refine.crash,
                only: None,
                unprobed: None,
                // Events explain the ranking the user reads; a repair does
                // not use them.
                events: refine.predicates && (args.rank_only || args.explain),
                cache: !args.no_cache,
            },
            localize: localize::Settings {
                metric,
                slices: refine.slices,
                crash: refine.crash,
                switching: refine.switching,
                // A repair leaves most of its time to the sweep and the
                // search; the ranking the user reads waits for every condition.
                switching_budget: (!args.rank_only && !args.explain && !time_limit.is_zero())
                    .then(|| time_limit / localize::SWITCHING_SHARE),
                // A repair's sweep makes the same edits (with a cutoff): the
                // refinement is for the ranking the user reads.
                mutation: refine.mutation && (args.rank_only || args.explain),
                exclude: exclude.clone(),
                evaluation: evaluate::Settings {
                    kind: EvaluatorKind::Schema,
                    ..evaluation.clone()
                },
            },
            repair: repair::Settings {
                seed: args.seed.or(config.seed).unwrap_or(0),
                population,
                generations,
                time_limit: (!time_limit.is_zero()).then_some(time_limit),
                weights,
                operators,
                exclude,
                feedback: refine.feedback,
                in_diff,
                test_tool,
                shards: None,
                genetic: true,
                evaluation,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn options(args: &[&str], config: Config) -> Result<Options, Failure> {
        let args = crate::app::cli::parse_args(
            std::iter::once("cargo-autofix")
                .chain(args.iter().copied())
                .map(OsString::from),
        )
        .unwrap();
        Options::new(args, config)
    }

    #[test]
    fn command_line_wins_over_config_over_defaults() {
        let config = Config {
            population: Some(12),
            generations: Some(3),
            ..Default::default()
        };
        let options = options(&["--population", "30"], config).unwrap();
        assert_eq!(options.repair.population, 30);
        assert_eq!(options.repair.generations, 3);
        assert_eq!(options.repair.seed, 0);
        assert_eq!(options.repair.operators, Operator::all());
    }

    #[test]
    fn bad_values_are_usage_errors() {
        for args in [
            &["--jobs", "0"][..],
            &["--population", "1"],
            &["--operators", "value,nope"],
            &["--metric", "cosine"],
            &["--test-timeout", "0"],
            &["--time-limit", "1e20"],
            &["--test-timeout", "1e300"],
            &["--time-limit", "inf"],
        ] {
            let error = options(args, Config::default()).unwrap_err();
            assert_eq!(error.exit, Exit::Usage, "{args:?}");
        }
    }

    #[test]
    fn a_config_value_is_named_as_a_key() {
        let config = Config {
            jobs: Some(0),
            ..Default::default()
        };
        let error = options(&[], config).unwrap_err();
        assert_eq!(error.message, "`jobs` in the config must be at least 1");
        let config = Config {
            time_limit: Some(1e30),
            ..Default::default()
        };
        let error = options(&[], config).unwrap_err();
        assert!(
            error
                .message
                .starts_with("`time-limit` in the config must be"),
            "{}",
            error.message
        );
    }

    #[test]
    fn jobs_above_the_cpus_are_lowered_with_a_note() {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let options = options(&["-j", "100000"], Config::default()).unwrap();
        assert_eq!(options.baseline.jobs, cpus);
        assert_eq!(options.repair.evaluation.jobs, cpus);
        assert_eq!(options.notes.len(), 1, "{:?}", options.notes);
        assert!(options.notes[0].starts_with("--jobs 100000 is more than"));
    }

    #[test]
    fn annotations_show_the_top_ten_unless_told() {
        let top = |args: &[&str]| options(args, Config::default()).unwrap().top;
        assert_eq!(top(&[]), Some(20));
        assert_eq!(top(&["--format", "sarif"]), Some(10));
        assert_eq!(top(&["--format", "github"]), Some(10));
        assert_eq!(top(&["--format", "sarif", "--top", "3"]), Some(3));
        assert_eq!(top(&["--top", "0"]), None);
    }
}
