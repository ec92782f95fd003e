//! The application: the command line, config files, validated options,
//! and the run that ties the pipeline together.

pub mod cli;
pub mod config;
pub mod options;
pub mod output;
pub mod session;

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::app::cli::{Args, Format};
use crate::app::options::Options;
use crate::app::output::{annotation_prefix, check_outputs, deliver};
use crate::app::session::Session;
use crate::baseline::{self, Baseline};
use crate::exit::{Exit, Failure};
use crate::localize::{Localization, localize};
use crate::render::{self, Ranking};
use crate::repair::{self, Repair, RepairEnding};
use crate::system::console::{Console, write_product};
use crate::system::process;

/// Runs `cargo autofix` from directory `cwd`: finds the package, settles the
/// options, measures the baseline, then prints the ranking or searches for
/// a patch.
pub fn run(args: Args, cwd: &Path) -> Result<Exit> {
    let started = Instant::now();
    let (workspace, options) = Session::settle(args, cwd)?;
    check_outputs(&options)?;
    if !options.rank_only && !options.explain {
        // The time limit holds for the whole repair: no process runs past it.
        process::set_deadline(options.repair.time_limit.map(|limit| started + limit));
    }
    let Session {
        options,
        baseline,
        console,
        build_lock: _build_lock,
    } = Session::measure(workspace, options)?;
    baseline.check_worth_localizing(&console)?;
    let mut localization = localize(&baseline, &options.localize, &console)?;
    if let Some(changed) = &options.repair.in_diff {
        let locations = baseline.sources.locations_in(changed);
        if locations.is_empty() {
            console.warn("--in-diff: the diff changes no line of the crate's sources, so the repair has nothing to edit");
        }
        localization.mark_changed(&locations);
    }
    let nothing_ranked = render::nothing_ranked(&baseline);
    // A text ranking that would be an empty table is this explanation instead.
    let explained_instead = options.rank_only
        && !options.explain
        && !matches!(options.format, Format::Json | Format::Github)
        && localization.overall.is_empty();
    if let Some(why) = &nothing_ranked
        && !explained_instead
    {
        console.warn(why);
    }
    let ranking = Ranking {
        metric: options.localize.metric,
        suspects: &localization.overall,
        baseline: &baseline,
        data: &localization.data,
    };
    let mut undelivered = None;
    if let Some(path) = &options.html {
        undelivered = deliver(
            path,
            &render::html::page(&ranking),
            "the HTML page",
            &console,
        )
        .err();
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
            Format::Github => render::github::ranking(
                &ranking,
                options.top,
                &annotation_prefix(&baseline.workspace.root, cwd),
            ),
            _ => match &nothing_ranked {
                Some(why) if explained_instead => format!("{why}\n"),
                _ => render::text::tables(&ranking, &localization, options.top),
            },
        }
    } else {
        let repair = run_repair(&baseline, &localization, &options, &console, started)?;
        let prefix = annotation_prefix(&baseline.workspace.root, cwd);
        return finish_repair(repair, &options, &console, undelivered, &prefix);
    };
    write_product(&product)?;
    undelivered.map_or(Ok(Exit::Success), |failure| Err(failure.into()))
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
/// `undelivered`: an output that could not be written before.
fn finish_repair(
    repair: Repair,
    options: &Options,
    console: &Console,
    mut undelivered: Option<Failure>,
    prefix: &Path,
) -> Result<Exit> {
    if let RepairEnding::Interrupted { exit, note, best } = &repair.ending {
        console.warn(note);
        console.block(best);
        return Err(Failure::interrupted(*exit).into());
    }
    if let Some(path) = &options.report {
        let json =
            serde_json::to_string_pretty(&repair.report).context("cannot write the report")?;
        let failed = deliver(path, &(json + "\n"), "the report", console).err();
        undelivered = undelivered.or(failed);
    }
    let exit = match repair.ending {
        RepairEnding::Fixed(diff) => {
            match &options.output {
                Some(path) => {
                    let what = "the patch (apply it with `git apply`)";
                    let failed = deliver(path, &diff, what, console).err();
                    undelivered = undelivered.or(failed);
                }
                None if options.format != Format::Github => write_product(&diff)?,
                None => {}
            }
            if options.format == Format::Github {
                write_product(&render::github::patch(&diff, prefix))?;
            }
            Exit::Success
        }
        RepairEnding::NotFixed(why) => return Err(Failure::new(Exit::NoPatchFound, why).into()),
        RepairEnding::Interrupted { .. } => unreachable!("handled above"),
    };
    undelivered.map_or(Ok(exit), |failure| Err(failure.into()))
}
