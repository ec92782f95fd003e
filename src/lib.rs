//! cargo autofix: ranks the lines most likely to cause a crate's failing
//! tests (spectrum-based fault localization), and searches for a patch that
//! makes every test pass.
//!
//! The pipeline runs one way, a module per stage; see ARCHITECTURE.md.

pub mod baseline;
pub mod candidate;
pub mod cargo;
pub mod cli;
pub mod config;
pub mod console;
pub mod coverage;
pub mod crate_sources;
pub mod dependence;
pub mod emit;
pub mod evaluate;
pub mod exit;
pub mod fitness;
pub mod groups;
pub mod instrument;
pub mod localize;
pub mod mutate;
pub mod options;
pub mod process;
pub mod reduce;
pub mod refine;
pub mod render;
pub mod repair;
pub mod scratch;
pub mod search;
pub mod sites;
pub mod source;
pub mod suite;
pub mod switching;
pub mod syntax;
pub mod validate;
pub mod weave;

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::cli::{Args, Format};
use crate::console::Console;
use crate::exit::Exit;
use crate::options::Options;
use crate::render::Ranking;

/// Runs `cargo autofix` from directory `cwd`: finds the package, settles the
/// options (command line over config files), measures the baseline, then
/// prints the ranking or searches for a patch.
pub fn run(args: Args, cwd: &Path) -> Result<Exit> {
    let started = Instant::now();
    let mut workspace = cargo::discover::discover(&args.package_query(), cwd)?;
    if let Some(dir) = &args.target_dir {
        workspace.target_dir = cwd.join(dir);
    }
    let config = config::load(&workspace)?;
    let options = Options::new(args, config)?;
    let console = Console {
        quiet: options.quiet,
    };
    let baseline = baseline::establish(workspace, &options, &console, &Default::default())?;
    let localization = refine::localize(&baseline, &options, &console)?;
    let ranking = Ranking {
        metric: options.metric,
        suspects: &localization.overall,
        baseline: &baseline,
    };
    if let Some(path) = &options.html {
        std::fs::write(path, render::html::page(&ranking))
            .with_context(|| format!("cannot write {}", path.display()))?;
        console.status("Wrote", path.display());
    }
    let product = if options.explain {
        match options.format {
            Format::Dot => render::explain::dot(&ranking, &localization),
            _ => render::explain::listing(&ranking, &localization, options.top),
        }
    } else if options.rank_only {
        match options.format {
            Format::Json => format!(
                "{:#}\n",
                render::json::localization(&ranking, &localization)
            ),
            _ => render::text::tables(&ranking, &localization, options.top),
        }
    } else {
        return repair::repair(
            &baseline,
            &localization,
            &options,
            &console,
            started.elapsed(),
        );
    };
    write_stdout(&product)?;
    Ok(Exit::Success)
}

/// Writes the product to stdout; a closed pipe (`| head`) is not an error.
pub(crate) fn write_stdout(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}
