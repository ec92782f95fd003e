//! The application: the command line, config files, validated options,
//! and the run that ties the pipeline together.

mod cli;
mod config;
mod mcp;
mod options;
mod output;
mod patches;
mod session;

pub use cli::{Args, parse_args};
pub use session::Session;

use std::path::Path;
use std::time::Instant;

use crate::app::cli::{Command, Format};
use crate::app::options::Options;
use crate::app::output::{annotation_prefix, check_outputs, deliver};
use crate::app::patches::read_patches;
use crate::baseline::{self, Baseline};
use crate::cargo::TestTool;
use crate::cargo::Workspace;
use crate::cargo::nextest_installed;
use crate::exit::{Context, Exit, Failure, Halt, Result};
use crate::localize::{Localization, localize};
use crate::reduce::reduce_test;
use crate::render::{self, Ranking};
use crate::repair::Level;
use crate::repair::bisect;
use crate::repair::{self, Repair, RepairEnding};
use crate::repair::{GivenPatch, judge, ready_to_judge};
use crate::repair::{Shard, read_shards};
use crate::system::Budget;
use crate::system::console::{Console, write_product};
use crate::system::git::{self, ChangeSince};
use crate::system::scratch::{self, RunDir};

/// Runs `cargo autofix` from directory `cwd`: finds the package, settles the
/// options, measures the baseline, then prints the ranking or searches for
/// a patch.
pub fn run(mut args: Args, cwd: &Path) -> Result<Exit> {
    let started = Instant::now();
    let _run_dir = RunDir::create()?;
    let command = args.command.take();
    if let Some(command) = &command {
        check_subcommand_args(command, &args)?;
    }
    if let Some(Command::Mcp) = &command {
        return mcp::serve(args, cwd);
    }
    let (workspace, options) = Session::settle(args, cwd)?;
    if let Some(Command::Clean) = &command {
        return clean(&workspace.target_dir, &options);
    }
    let (target_dir, console) = (workspace.target_dir.clone(), options.console());
    let exit = work(command, workspace, options, cwd, started);
    // After a failure, its message is the last line.
    if let (Ok(_), Some(bytes)) = (&exit, scratch::kept_bytes(&target_dir)) {
        console.status(
            "Kept",
            format!(
                "{:.1} MiB of builds in {} for the next run (`cargo autofix clean` removes them)",
                mebibytes(bytes),
                target_dir.join("autofix").display()
            ),
        );
    }
    exit
}

/// What the command asks, from the settled options on.
fn work(
    command: Option<Command>,
    workspace: Workspace,
    mut options: Options,
    cwd: &Path,
    started: Instant,
) -> Result<Exit> {
    check_outputs(&options)?;
    check_test_tool(&options)?;
    let Inputs {
        mut given,
        mut since,
    } = Inputs::read(command.as_ref(), &workspace, &mut options)?;
    // The time limit holds for the whole repair, from the start: no process
    // runs past it. A ranking has none.
    let budget = if !options.rank_only && !options.explain {
        Budget::after(started, options.repair.time_limit)
    } else {
        Budget::unlimited()
    };
    let Session {
        options,
        baseline,
        console,
        build_lock: _build_lock,
    } = Session::measure(workspace, options, budget)?;
    if let Some(Command::Reduce(reduce)) = &command {
        return run_reduce(&reduce.test, &baseline, &options, &console, budget);
    }
    baseline.check_worth_localizing(&console)?;
    if let (Some(Command::Validate(validate)), Some(given)) = (&command, given.take()) {
        let reduce = validate.reduce;
        return run_validate(&given, reduce, &baseline, &options, &console, budget);
    }
    if let Some((rev, change)) = since.take() {
        return run_bisect(&rev, &change, &baseline, &options, &console, budget);
    }
    let mut localization = localize(&baseline, &options.localize, &console, budget)?;
    if let Some(changed) = &options.repair.in_diff {
        let locations = baseline.sources.locations_in(changed);
        if locations.is_empty() {
            console.warn("--in-diff: the diff changes no line of the crate's sources, so the repair has nothing to edit");
        }
        localization.mark_changed(&locations);
    }
    if let Some(shard) = options.shard {
        return run_shard(shard, &baseline, &localization, &options, &console, budget);
    }
    let nothing_ranked = render::nothing_ranked(&baseline);
    // A text ranking that would be an empty table is this explanation instead.
    let explained_instead = options.rank_only
        && !options.explain
        && !matches!(
            options.format,
            Format::Json | Format::Github | Format::Sarif
        )
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
    let notes = [render::elsewhere(&ranking), render::calls_outside(&ranking)];
    for note in notes.into_iter().flatten() {
        console.note(note);
    }
    // Annotations name files from the repository root.
    let prefix = annotation_prefix(&baseline.workspace.root, cwd);
    if !options.rank_only && !options.explain {
        let repair = run_repair(
            &baseline,
            &localization,
            &options,
            &console,
            started,
            budget,
        )?;
        return finish_repair(repair, &ranking, &localization, &options, &console, &prefix);
    }
    warn_changed_sources(&baseline, &console);
    let mut undelivered = None;
    if let Some(path) = &options.html {
        let page = render::html::page(&ranking, &localization, None);
        undelivered = deliver(path, &page, "the HTML page", &console).err();
    }
    let product = if options.explain {
        match options.format {
            Format::Dot => render::explain::dot(&ranking, &localization),
            _ => render::explain::listing(&ranking, &localization, options.top),
        }
    } else {
        match options.format {
            Format::Json => format!(
                "{:#}\n",
                render::json::localization(&ranking, &localization)
            ),
            Format::Github => render::github::ranking(&ranking, options.top, &prefix),
            Format::Sarif => format!(
                "{:#}\n",
                render::sarif::log(&ranking, options.top, None, &prefix)
            ),
            _ => match &nothing_ranked {
                Some(why) if explained_instead => format!("{why}\n"),
                _ => render::text::tables(&ranking, &localization, options.top),
            },
        }
    };
    write_product(&product)?;
    undelivered.map_or(Ok(Exit::Success), |failure| Err(failure.into()))
}

/// `--test-tool nextest` where a repair would run it: `cargo nextest` must
/// run here.
fn check_test_tool(options: &Options) -> Result<(), Failure> {
    let runs_tests = !options.rank_only && !options.explain;
    if options.repair.test_tool == TestTool::Nextest && runs_tests && !nextest_installed() {
        return Err(Failure::new(
            Exit::Usage,
            "--test-tool nextest: `cargo nextest` does not run here; install it (cargo install cargo-nextest) or drop the option",
        ));
    }
    Ok(())
}

/// What a subcommand reads before any work, so that bad patches, shards and
/// revisions fail first: `validate`'s patches, `bisect`'s revision and the
/// change since it (`merge`'s shards go into the options).
struct Inputs {
    given: Option<Vec<GivenPatch>>,
    since: Option<(String, ChangeSince)>,
}

impl Inputs {
    fn read(
        command: Option<&Command>,
        workspace: &Workspace,
        options: &mut Options,
    ) -> Result<Inputs> {
        let mut inputs = Inputs {
            given: None,
            since: None,
        };
        match command {
            Some(Command::Validate(validate)) => {
                inputs.given = Some(read_patches(&validate.patches, std::io::stdin())?);
            }
            Some(Command::Bisect(bisect)) => {
                // The package's directory and those of the members it links.
                let dirs: Vec<&Path> = std::iter::once(&workspace.package)
                    .chain(&workspace.linked)
                    .map(|p| p.dir())
                    .collect();
                let change = git::change_since(&dirs, &bisect.rev)?;
                if change.undo.trim().is_empty() {
                    let linked = if dirs.len() > 1 {
                        " (or the members it depends on)"
                    } else {
                        ""
                    };
                    let why = format!(
                        "no source file under {}{linked} changed since `{}`; name an older revision",
                        dirs[0].display(),
                        bisect.rev
                    );
                    return Err(Failure::new(Exit::BadRevision, why).into());
                }
                inputs.since = Some((bisect.rev.clone(), change));
            }
            Some(Command::Merge(merge)) => {
                options.repair.shards = Some(read_shards(&merge.shards)?);
            }
            Some(Command::Reduce(_) | Command::Clean | Command::Mcp) | None => {}
        }
        Ok(inputs)
    }
}

/// What the command line cannot say by itself: `validate`, `bisect` and
/// `reduce` print text or JSON (which options each subcommand takes at all
/// is `cli::parse_args`'s).
fn check_subcommand_args(command: &Command, args: &Args) -> Result<(), Failure> {
    let name = match command {
        Command::Validate(_) => "validate",
        Command::Bisect(_) => "bisect",
        Command::Reduce(_) => "reduce",
        Command::Merge(_) | Command::Clean | Command::Mcp => return Ok(()),
    };
    match args.format {
        Format::Text | Format::Json => Ok(()),
        _ => Err(Failure::new(
            Exit::Usage,
            format!("`{name}` prints text or json; drop --format or choose one of those"),
        )),
    }
}

fn mebibytes(bytes: u64) -> f64 {
    bytes as f64 / 1048576.0
}

/// `cargo autofix clean`: the builds kept in the target dir removed, and
/// how much space that freed.
fn clean(target_dir: &Path, options: &Options) -> Result<Exit> {
    let console = options.console();
    let dir = target_dir.join("autofix");
    match scratch::clean(target_dir, |lock| session::blocked(&console, lock))? {
        Some(bytes) => console.status(
            "Removed",
            format!("{} ({:.1} MiB)", dir.display(), mebibytes(bytes)),
        ),
        None => console.status("Clean", format!("nothing at {}", dir.display())),
    }
    Ok(Exit::Success)
}

/// `cargo autofix reduce TEST`: the test reduced, the function and the
/// diff (or JSON) on stdout.
fn run_reduce(
    name: &str,
    baseline: &Baseline,
    options: &Options,
    console: &Console,
    budget: Budget,
) -> Result<Exit> {
    let reduced = reduce_test(baseline, name, &options.repair.evaluation, console, budget)?;
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
    budget: Budget,
) -> Result<Exit> {
    let mut ready = ready_to_judge(baseline, &options.repair, console, budget)?;
    let judgement = judge(
        given,
        baseline,
        &mut ready,
        &options.repair,
        reduce,
        console,
        budget,
    )?;
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

/// `--shard K/N`: the shard's outcomes as JSON on stdout (or `-o`).
fn run_shard(
    shard: Shard,
    baseline: &Baseline,
    localization: &Localization,
    options: &Options,
    console: &Console,
    budget: Budget,
) -> Result<Exit> {
    let (report, halt) = repair::shard_sweep(
        baseline,
        localization,
        &options.repair,
        shard,
        console,
        budget,
    )?;
    console.status(
        "Sharded",
        format!(
            "{} of {} single edits decided{}",
            report.decided,
            report.edits,
            if report.complete {
                ""
            } else {
                " (stopped early: merge evaluates the rest)"
            }
        ),
    );
    let json = serde_json::to_string_pretty(&report).context("cannot write the shard")? + "\n";
    match &options.output {
        Some(path) => deliver(path, &json, "the shard's outcomes", console)?,
        None => write_product(&json)?,
    }
    // What was decided is written; a signal still ends with its code.
    match halt {
        Some(signal @ Halt::Signal(_)) => Err(signal.into()),
        _ => Ok(Exit::Success),
    }
}

/// `cargo autofix bisect REV`: the failure-inducing part of the change
/// since REV, as a diff on stdout (or JSON).
fn run_bisect(
    rev: &str,
    change: &ChangeSince,
    baseline: &Baseline,
    options: &Options,
    console: &Console,
    budget: Budget,
) -> Result<Exit> {
    for file in &change.other_files {
        console.warn(format!(
            "bisect: {file} (added, deleted or renamed since `{rev}`) stays as in the working tree"
        ));
    }
    let bisection = bisect(&change.undo, baseline, &options.repair, console, budget)?;
    console.status(
        "Bisected",
        format!(
            "{} of {} changes since `{rev}` make the tests fail ({} subsets tested, {} unresolved; {} builds, {:.1} s of tests, {:.1} s in all)",
            bisection.failure_inducing.len(),
            bisection.changes,
            bisection.tests,
            bisection.unresolved,
            bisection.builds,
            bisection.test_seconds,
            bisection.seconds
        ),
    );
    let mut undelivered = None;
    if let Some(path) = &options.output {
        undelivered = deliver(
            path,
            &bisection.diff,
            "the failure-inducing change",
            console,
        )
        .err();
    }
    write_product(&match options.format {
        Format::Json => {
            let mut json =
                serde_json::to_value(&bisection).context("cannot write the bisection")?;
            json["version"] = serde_json::json!(render::json::VERSION);
            json["since"] = serde_json::json!(rev);
            format!("{json:#}\n")
        }
        _ if options.output.is_some() => String::new(),
        _ => bisection.diff.clone(),
    })?;
    undelivered.map_or(Ok(Exit::Success), |failure| Err(failure.into()))
}

/// Says which of the package's sources changed while the run worked on a
/// copy of them: its patch is for the version at the start (the report's
/// `sources` has their blob ids), and may not apply to the files now.
fn warn_changed_sources(baseline: &Baseline, console: &Console) {
    let changed = baseline.sources.changed_under(&baseline.workspace.root);
    if !changed.is_empty() {
        let names: Vec<String> = changed.iter().map(|p| p.display().to_string()).collect();
        console.warn(format!(
            "{} changed during the run: the result is for the version at its start (the report's `sources` has its git blob ids); run again on the new version",
            names.join(", ")
        ));
    }
}

/// The repair, re-localizing between failure groups on the crate with the
/// patch so far, all on `budget` (the run's, which began at `started`);
/// its report names the sources it started from (and a warning says which
/// changed meanwhile).
fn run_repair(
    baseline: &Baseline,
    localization: &Localization,
    options: &Options,
    console: &Console,
    started: Instant,
    budget: Budget,
) -> Result<Repair> {
    let mut relocalize = |patched: &_| -> Result<Option<(Baseline, Localization)>> {
        let next = baseline::establish(
            baseline.workspace.clone(),
            &options.baseline,
            console,
            patched,
            budget,
        )?;
        if next.failing().count() == 0 {
            return Ok(None);
        }
        let localization = localize(&next, &options.localize, console, budget)?;
        Ok(Some((next, localization)))
    };
    repair::repair(
        baseline,
        localization,
        &options.repair,
        console,
        started.elapsed(),
        &mut relocalize,
        budget,
    )
    .map(|mut repair| {
        repair.report.sources = baseline.sources.blob_ids();
        warn_changed_sources(baseline, console);
        repair
    })
}

/// Writes the HTML page, the report and the patch where the options say;
/// the exit code. `ranking` and `localization` (what the repair started
/// from) go with the patch in SARIF and on the page.
fn finish_repair(
    repair: Repair,
    ranking: &Ranking,
    localization: &Localization,
    options: &Options,
    console: &Console,
    prefix: &Path,
) -> Result<Exit> {
    let mut undelivered = None;
    if let Some(path) = &options.html {
        let page = render::html::page(ranking, localization, Some(&repair.report));
        undelivered = deliver(path, &page, "the HTML page", console).err();
    }
    if options.report.is_some() || options.format == Format::Json {
        let json =
            serde_json::to_string_pretty(&repair.report).context("cannot write the report")? + "\n";
        if let Some(path) = &options.report {
            let failed = deliver(path, &json, "the report", console).err();
            undelivered = undelivered.or(failed);
        }
        // The report is the repair's JSON: the patch is in it.
        if options.format == Format::Json {
            write_product(&json)?;
        }
    }
    if let RepairEnding::Interrupted { exit, note, best } = &repair.ending {
        console.warn(note);
        console.block(best);
        // What was found is kept, marked: `git apply` skips the lines
        // before the first `diff`.
        if let (Some(path), false) = (&options.output, best.is_empty()) {
            let marked = format!(
                "cargo autofix was interrupted: this patch is NOT validated; review it, or run `cargo autofix validate` on it\n{best}"
            );
            let _ = deliver(path, &marked, "the unvalidated patch", console);
        }
        return Err(Halt::Signal(*exit).into());
    }
    let exit = match repair.ending {
        RepairEnding::Fixed(diff) => {
            match &options.output {
                Some(path) => {
                    let what = "the patch (apply it with `git apply`)";
                    let failed = deliver(path, &diff, what, console).err();
                    undelivered = undelivered.or(failed);
                }
                None if options.format == Format::Text => write_product(&diff)?,
                None => {}
            }
            match options.format {
                Format::Github => write_product(&render::github::patch(
                    &diff,
                    repair.report.confidence.as_ref(),
                    prefix,
                ))?,
                Format::Sarif => write_product(&format!(
                    "{:#}\n",
                    render::sarif::log(
                        ranking,
                        options.top,
                        Some((&diff, repair.report.confidence.as_ref())),
                        prefix
                    )
                ))?,
                _ => {}
            }
            match repair.report.confidence.as_ref().map(|c| c.level) {
                Some(Level::Likely) => Exit::Success,
                _ => Exit::OnlyPlausible,
            }
        }
        RepairEnding::NotFixed(why) => return Err(Failure::new(Exit::NoPatchFound, why).into()),
        RepairEnding::Interrupted { .. } => unreachable!("handled above"),
    };
    undelivered.map_or(Ok(exit), |failure| Err(failure.into()))
}
