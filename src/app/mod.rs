//! The application: the command line, config files, validated options,
//! and the run that ties the pipeline together.

pub mod cli;
pub mod config;
pub mod options;
pub mod session;

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::app::cli::{Args, Format};
use crate::app::options::Options;
use crate::app::session::Session;
use crate::baseline::{self, Baseline};
use crate::exit::{Exit, Failure};
use crate::localize::{Localization, localize};
use crate::render::{self, Ranking};
use crate::repair::{self, Repair, RepairEnding};
use crate::system::console::{Console, write_product};

/// Runs `cargo autofix` from directory `cwd`: finds the package, settles the
/// options, measures the baseline, then prints the ranking or searches for
/// a patch.
pub fn run(args: Args, cwd: &Path) -> Result<Exit> {
    let started = Instant::now();
    let Session {
        options,
        baseline,
        console,
    } = Session::open(args, cwd)?;
    baseline.check_worth_localizing(&console)?;
    let localization = localize(&baseline, &options.localize, &console)?;
    let ranking = Ranking {
        metric: options.localize.metric,
        suspects: &localization.overall,
        baseline: &baseline,
        data: &localization.data,
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
        let repair = run_repair(&baseline, &localization, &options, &console, started)?;
        return finish_repair(repair, &options, &console);
    };
    write_product(&product)?;
    Ok(Exit::Success)
}

/// The repair, re-localizing between failure groups on the crate with the
/// patch so far.
fn run_repair(
    baseline: &Baseline,
    localization: &Localization,
    options: &Options,
    console: &Console,
    started: Instant,
) -> Result<Repair> {
    let mut relocalize = |patched: &_| -> Result<Option<(Baseline, Localization)>> {
        let next = baseline::establish(
            baseline.workspace.clone(),
            &options.baseline,
            console,
            patched,
        )?;
        if next.failing().count() == 0 {
            return Ok(None);
        }
        let localization = localize(&next, &options.localize, console)?;
        Ok(Some((next, localization)))
    };
    repair::repair(
        baseline,
        localization,
        &options.repair,
        console,
        started.elapsed(),
        &mut relocalize,
    )
}

/// Writes the report and the patch where the options say; the exit code.
fn finish_repair(repair: Repair, options: &Options, console: &Console) -> Result<Exit> {
    if let RepairEnding::Interrupted { note, best } = &repair.ending {
        console.warn(note);
        console.block(best);
        return Err(Failure::interrupted().into());
    }
    if let Some(path) = &options.report {
        let json =
            serde_json::to_string_pretty(&repair.report).context("cannot write the report")?;
        std::fs::write(path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    match repair.ending {
        RepairEnding::Fixed(diff) => {
            match &options.output {
                Some(path) => {
                    std::fs::write(path, &diff)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    console.status(
                        "Wrote",
                        format!(
                            "the patch to {} (apply it with `git apply`)",
                            path.display()
                        ),
                    );
                }
                None => write_product(&diff)?,
            }
            Ok(Exit::Success)
        }
        RepairEnding::NotFixed(why) => Err(Failure::new(Exit::NoPatchFound, why).into()),
        RepairEnding::Interrupted { .. } => unreachable!("handled above"),
    }
}
