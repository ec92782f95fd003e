//! Validated options: the one value the pipeline reads its settings from.

use std::path::PathBuf;
use std::time::Duration;

use crate::cargo::Features;
use crate::cargo::discover::PackageQuery;
use crate::cli::{Args, Format};
use crate::exit::{Exit, Failure};
use crate::localize::Metric;

#[derive(Debug, Clone)]
pub struct Options {
    pub rank_only: bool,
    pub query: PackageQuery,
    pub features: Features,
    pub metric: Metric,
    /// `None` shows every line.
    pub top: Option<usize>,
    pub format: Format,
    pub html: Option<PathBuf>,
    pub quiet: bool,
    pub jobs: usize,
    pub test_timeout: Duration,
}

impl Options {
    pub fn from_args(args: Args) -> Result<Options, Failure> {
        let usage = |message: String| Failure::new(Exit::Usage, message);
        if !(args.test_timeout.is_finite() && args.test_timeout > 0.0) {
            return Err(usage(format!(
                "--test-timeout must be a positive number of seconds, not {}",
                args.test_timeout
            )));
        }
        let jobs = match args.jobs {
            Some(0) => return Err(usage("--jobs must be at least 1".to_string())),
            Some(jobs) => jobs,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(Options {
            rank_only: args.rank_only,
            query: PackageQuery {
                manifest_path: args.manifest_path,
                package: args.package,
            },
            features: Features {
                features: args
                    .features
                    .iter()
                    .flat_map(|f| f.split([',', ' ']))
                    .filter(|f| !f.is_empty())
                    .map(str::to_string)
                    .collect(),
                all_features: args.all_features,
                no_default_features: args.no_default_features,
            },
            metric: args.metric.parse().map_err(usage)?,
            top: (args.top > 0).then_some(args.top),
            format: args.format,
            html: args.html,
            quiet: args.quiet,
            jobs,
            test_timeout: Duration::from_secs_f64(args.test_timeout),
        })
    }
}
