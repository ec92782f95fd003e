//! Validated options: the one value the pipeline reads its settings from,
//! made of the command line over the config files over the defaults.

use std::path::PathBuf;
use std::time::Duration;

use crate::app::cli::{Args, Format};
use crate::app::config::Config;
use crate::baseline;
use crate::cargo::Features;
use crate::evaluate::fitness::Weights;
use crate::evaluate::{self, EvaluatorKind};
use crate::exit::{Exit, Failure};
use crate::localize;
use crate::localize::spectrum::Metric;
use crate::mutation::patch::Operator;
use crate::mutation::sites::Exclusions;
use crate::repair;

/// Every setting of a run, validated: what to do, how to show it, and each
/// stage's settings.
#[derive(Debug, Clone)]
pub struct Options {
    pub rank_only: bool,
    pub explain: bool,
    /// `None` shows every line.
    pub top: Option<usize>,
    pub format: Format,
    pub html: Option<PathBuf>,
    pub quiet: bool,
    pub output: Option<PathBuf>,
    pub report: Option<PathBuf>,
    pub baseline: baseline::Settings,
    pub localize: localize::Settings,
    pub repair: repair::Settings,
}

/// What sharpens the spectrum's ranking (`--refine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Refinements {
    slices: bool,
    switching: bool,
    feedback: bool,
}

impl Refinements {
    const ALL: Refinements = Refinements {
        slices: true,
        switching: true,
        feedback: true,
    };
    const NONE: Refinements = Refinements {
        slices: false,
        switching: false,
        feedback: false,
    };

    fn parse(list: &[String]) -> Result<Refinements, String> {
        let mut refinements = Refinements::NONE;
        for name in list.iter().map(|n| n.trim()) {
            match name {
                "all" => refinements = Refinements::ALL,
                "none" => {}
                "slices" => refinements.slices = true,
                "switching" => refinements.switching = true,
                "feedback" => refinements.feedback = true,
                other => {
                    return Err(format!(
                        "unknown refinement `{other}` (expected all, none, slices, switching, feedback)"
                    ));
                }
            }
        }
        Ok(refinements)
    }
}

impl Options {
    /// The command line over `config` over the defaults, validated.
    pub fn new(args: Args, config: Config) -> Result<Options, Failure> {
        let usage = |message: String| Failure::new(Exit::Usage, message);
        let seconds = |name: &str, value: f64| -> Result<Duration, Failure> {
            if value.is_finite() && value >= 0.0 {
                Ok(Duration::from_secs_f64(value))
            } else {
                Err(usage(format!(
                    "{name} must be a number of seconds, not {value}"
                )))
            }
        };
        let test_timeout = seconds(
            "--test-timeout",
            args.test_timeout.or(config.test_timeout).unwrap_or(60.0),
        )?;
        if test_timeout.is_zero() {
            return Err(usage(
                "--test-timeout must be more than 0 seconds".to_string(),
            ));
        }
        let jobs = match args.jobs.or(config.jobs) {
            Some(0) => return Err(usage("--jobs must be at least 1".to_string())),
            Some(jobs) => jobs,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let metric: Metric = args
            .metric
            .or(config.metric)
            .as_deref()
            .unwrap_or("ochiai")
            .parse()
            .map_err(usage)?;
        let weight = |name: &str, value: f64| {
            if value.is_finite() && value >= 0.0 {
                Ok(value)
            } else {
                Err(usage(format!(
                    "{name} must be a non-negative number, not {value}"
                )))
            }
        };
        let weight_passing = weight(
            "--weight-passing",
            args.weight_passing
                .or(config.weight_passing)
                .unwrap_or(0.99),
        )?;
        let weight_failing = weight(
            "--weight-failing",
            args.weight_failing
                .or(config.weight_failing)
                .unwrap_or(0.01),
        )?;
        if weight_passing + weight_failing == 0.0 {
            return Err(usage("the fitness weights cannot both be 0".to_string()));
        }
        let operators = match args.operators.or(config.operators) {
            Some(names) => names
                .iter()
                .map(|n| n.trim().parse::<Operator>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(usage)?,
            None => Operator::ALL.to_vec(),
        };
        if operators.is_empty() {
            return Err(usage("--operators needs at least one operator".to_string()));
        }
        if args.format == Format::Dot && !args.explain {
            return Err(usage("--format dot goes with --explain".to_string()));
        }
        let population = args.population.or(config.population).unwrap_or(40);
        if population < 2 {
            return Err(usage("--population must be at least 2".to_string()));
        }
        let time_limit = seconds(
            "--time-limit",
            args.time_limit.or(config.time_limit).unwrap_or(600.0),
        )?;
        let mut exclude = config.exclude.unwrap_or_default();
        exclude.extend(args.exclude);
        let exclude = Exclusions { patterns: exclude };
        let refine = match args.refine.or(config.refine) {
            Some(list) => Refinements::parse(&list).map_err(usage)?,
            None => Refinements::ALL,
        };
        let kind: EvaluatorKind = args
            .evaluator
            .or(config.evaluator)
            .as_deref()
            .unwrap_or("schema")
            .parse()
            .map_err(usage)?;
        let features = Features {
            features: args
                .features
                .iter()
                .flat_map(|f| f.split([',', ' ']))
                .filter(|f| !f.is_empty())
                .map(str::to_string)
                .collect(),
            all_features: args.all_features,
            no_default_features: args.no_default_features,
        };
        let evaluation = evaluate::Settings {
            kind,
            features: features.clone(),
            jobs,
            test_timeout,
        };
        Ok(Options {
            rank_only: args.rank_only,
            explain: args.explain,
            top: (args.top > 0).then_some(args.top),
            format: args.format,
            html: args.html,
            quiet: args.quiet,
            output: args.output,
            report: args.report,
            baseline: baseline::Settings {
                features,
                jobs,
                test_timeout,
                trace_failing: refine.slices,
                only: None,
            },
            localize: localize::Settings {
                metric,
                slices: refine.slices,
                switching: refine.switching,
                exclude: exclude.clone(),
                evaluation: evaluate::Settings {
                    kind: EvaluatorKind::Schema,
                    ..evaluation.clone()
                },
            },
            repair: repair::Settings {
                seed: args.seed.or(config.seed).unwrap_or(0),
                population,
                generations: args.generations.or(config.generations).unwrap_or(20),
                time_limit: (!time_limit.is_zero()).then_some(time_limit),
                weights: Weights {
                    passing: weight_passing,
                    failing: weight_failing,
                },
                operators,
                exclude,
                feedback: refine.feedback,
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
        assert_eq!(options.repair.operators, Operator::ALL);
    }

    #[test]
    fn bad_values_are_usage_errors() {
        for args in [
            &["--jobs", "0"][..],
            &["--population", "1"],
            &["--operators", "value,nope"],
            &["--metric", "cosine"],
            &["--test-timeout", "0"],
        ] {
            let error = options(args, Config::default()).unwrap_err();
            assert_eq!(error.exit, Exit::Usage, "{args:?}");
        }
    }
}
