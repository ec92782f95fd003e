//! The application: the command line, config files, validated options,
//! and the run that ties the pipeline together.

pub mod cli;
pub mod config;
pub mod options;
pub mod output;
pub mod patches;
pub mod session;

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::app::cli::{Args, Command, Format};
use crate::app::options::Options;
use crate::app::output::{annotation_prefix, check_outputs, deliver};
use crate::app::patches::read_patches;
use crate::app::session::Session;
use crate::baseline::{self, Baseline};
use crate::exit::{Exit, Failure, Halt};
use crate::localize::{Localization, localize};
use crate::reduce::reduce_test;
use crate::render::{self, Ranking};
use crate::repair::given::{GivenPatch, judge};
use crate::repair::{self, Repair, RepairEnding};
use crate::system::console::{Console, write_product};
use crate::system::process;

/// Runs `cargo autofix` from directory `cwd`: finds the package, settles the
/// options, measures the baseline, then prints the ranking or searches for
/// a patch.
pub fn run(mut args: Args, cwd: &Path) -> Result<Exit> {
    let started = Instant::now();
    let (validate, reduce) = match args.command.take() {
        Some(Command::Validate(validate)) => (Some(validate), None),
        Some(Command::Reduce(reduce)) => (None, Some(reduce)),
        None => (None, None),
    };
    if validate.is_some() {
        check_validate_args(&args)?;
    }
    if reduce.is_some() {
        check_reduce_args(&args)?;
    }
    let (workspace, options) = Session::settle(args, cwd)?;
    check_outputs(&options)?;
    // Bad patches fail before any work.
    let given = match &validate {
        Some(validate) => Some(read_patches(&validate.patches, std::io::stdin())?),
        None => None,
    };
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
    if let Some(reduce) = reduce {
        return run_reduce(&reduce.test, &baseline, &options, &console);
    }
    baseline.check_worth_localizing(&console)?;
    if let (Some(validate), Some(given)) = (validate, given) {
        return run_validate(&given, validate.reduce, &baseline, &options, &console);
    }
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
            Format::Sarif => format!(
                "{:#}
",
                render::sarif::log(
                    &ranking,
                    options.top,
                    None,
                    &annotation_prefix(&baseline.workspace.root, cwd)
                )
            ),
            _ => match &nothing_ranked {
                Some(why) if explained_instead => format!(
                    "{why}
"
                ),
                _ => render::text::tables(&ranking, &localization, options.top),
            },
        }
    } else {
        let repair = run_repair(&baseline, &localization, &options, &console, started)?;
        let prefix = annotation_prefix(&baseline.workspace.root, cwd);
        return finish_repair(repair, &ranking, &options, &console, undelivered, &prefix);
    };
    write_product(&product)?;
    undelivered.map_or(Ok(Exit::Success), |failure| Err(failure.into()))
}

/// `validate` takes the package, feature, test and output options; not
/// those of the ranking or the search.
fn check_validate_args(args: &Args) -> Result<(), Failure> {
    let misplaced = [
        (args.rank_only, "--rank-only"),
        (args.explain, "--explain"),
        (args.html.is_some(), "--html"),
        (args.in_diff.is_some(), "--in-diff"),
        (
            !matches!(args.format, Format::Text | Format::Json),
            "--format other than text or json",
        ),
    ];
    match misplaced.iter().find(|(given, _)| *given) {
        Some((_, flag)) => Err(Failure::new(
            Exit::Usage,
            format!("{flag} does not go with `validate`; drop it"),
        )),
        None => Ok(()),
    }
}

/// `reduce` takes the package, feature and test options, and the format;
/// not those of the ranking, the search or its outputs.
fn check_reduce_args(args: &Args) -> Result<(), Failure> {
    let misplaced = [
        (args.rank_only, "--rank-only"),
        (args.explain, "--explain"),
        (args.html.is_some(), "--html"),
        (args.in_diff.is_some(), "--in-diff"),
        (args.output.is_some(), "--output"),
        (args.report.is_some(), "--report"),
        (
            !matches!(args.format, Format::Text | Format::Json),
            "--format other than text or json",
        ),
    ];
    match misplaced.iter().find(|(given, _)| *given) {
        Some((_, flag)) => Err(Failure::new(
            Exit::Usage,
            format!("{flag} does not go with `reduce`; drop it"),
        )),
        None => Ok(()),
    }
}

/// `cargo autofix reduce TEST`: the test reduced, the function and the
/// diff (or JSON) on stdout.
fn run_reduce(
    name: &str,
    baseline: &Baseline,
    options: &Options,
    console: &Console,
) -> Result<Exit> {
    let reduced =
        reduce_test(baseline, name, &options.repair.evaluation, console).map_err(|error| {
            match Halt::of(&error) {
                Some(Halt::Signal(exit)) => Failure::interrupted(exit).into(),
                _ => error,
            }
        })?;
    console.status(
        "Reduced",
        format!(
            "{name}: {} statements to {}{}; {} builds, {} versions tried in {:.1} s",
            reduced.statements_before,
            reduced.statements_after,
            if reduced.complete { " (1-minimal)" } else { "" },
            reduced.builds,
            reduced.versions,
            reduced.seconds
        ),
    );
    write_product(&match options.format {
        Format::Json => format!("{:#}\n", render::reduced::json(&reduced)),
        _ => render::reduced::text(&reduced),
    })?;
    Ok(Exit::Success)
}

/// `cargo autofix validate`: the given patches evaluated as one batch and
/// ranked; the table (or JSON) on stdout, the reduced patch also to `-o`.
fn run_validate(
    given: &[GivenPatch],
    reduce: bool,
    baseline: &Baseline,
    options: &Options,
    console: &Console,
) -> Result<Exit> {
    let judgement =
        judge(given, baseline, &options.repair, reduce, console).map_err(
            |error| match Halt::of(&error) {
                Some(Halt::Signal(exit)) => Failure::interrupted(exit).into(),
                _ => error,
            },
        )?;
    if judgement.patches.iter().all(|p| p.refused.is_some()) {
        return Err(Failure::new(
            Exit::BadPatch,
            "none of the given patches applies to the crate (see the warnings above)",
        )
        .into());
    }
    let mut undelivered = None;
    if let Some(path) = &options.report {
        let json = format!("{:#}\n", render::judgement::json(&judgement));
        undelivered = deliver(path, &json, "the report", console).err();
    }
    let reduced = judgement.reduced.as_ref().and_then(|r| r.patch.clone());
    if let (Some(path), Some(patch)) = (&options.output, &reduced) {
        let failed = deliver(path, patch, "the reduced patch", console).err();
        undelivered = undelivered.or(failed);
    }
    write_product(&match options.format {
        Format::Json => format!("{:#}\n", render::judgement::json(&judgement)),
        _ => render::judgement::text(&judgement),
    })?;
    if let Some(failure) = undelivered {
        return Err(failure.into());
    }
    let plausible = judgement.patches.iter().any(|p| p.plausible);
    if !plausible {
        return Err(Failure::new(Exit::NoPatchFound, "no given patch passes every test").into());
    }
    match &judgement.reduced {
        Some(reduced) if reduced.patch.is_none() => Err(Failure::new(
            Exit::NoPatchFound,
            format!(
                "the reduced form of {} failed validation: {}",
                reduced.name,
                reduced.rejected.as_deref().unwrap_or("not validated")
            ),
        )
        .into()),
        _ => Ok(Exit::Success),
    }
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
/// `undelivered`: an output that could not be written before. `ranking`
/// (the one the repair started from) goes with the patch in SARIF.
fn finish_repair(
    repair: Repair,
    ranking: &Ranking,
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
                None if !matches!(options.format, Format::Github | Format::Sarif) => {
                    write_product(&diff)?
                }
                None => {}
            }
            match options.format {
                Format::Github => write_product(&render::github::patch(&diff, prefix))?,
                Format::Sarif => write_product(&format!(
                    "{:#}\n",
                    render::sarif::log(ranking, options.top, Some(&diff), prefix)
                ))?,
                _ => {}
            }
            Exit::Success
        }
        RepairEnding::NotFixed(why) => return Err(Failure::new(Exit::NoPatchFound, why).into()),
        RepairEnding::Interrupted { .. } => unreachable!("handled above"),
    };
    undelivered.map_or(Ok(exit), |failure| Err(failure.into()))
}
