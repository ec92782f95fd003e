//! cargo autofix: ranks the lines most likely to cause a crate's failing
//! tests (spectrum-based fault localization), and searches for a patch that
//! makes every test pass.
//!
//! The pipeline runs one way, a module per stage; see ARCHITECTURE.md.

pub mod baseline;
pub mod cargo;
pub mod cli;
pub mod console;
pub mod coverage;
pub mod crate_sources;
pub mod exit;
pub mod instrument;
pub mod localize;
pub mod options;
pub mod process;
pub mod render;
pub mod scratch;
pub mod source;
pub mod suite;
pub mod syntax;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use crate::cli::Format;
use crate::console::Console;
use crate::exit::{Exit, Failure};
use crate::localize::rank_suspects;
use crate::options::Options;
use crate::render::Ranking;

/// Runs `cargo autofix` with validated options, from directory `cwd`.
pub fn run(options: &Options, cwd: &Path) -> Result<Exit> {
    let console = Console {
        quiet: options.quiet,
    };
    if !options.rank_only {
        return Err(Failure::new(
            Exit::Usage,
            "the repair search is not available yet; run with --rank-only",
        )
        .into());
    }
    let baseline = baseline::establish(options, &console, cwd)?;
    let suspects = rank_suspects(&baseline.spectrum(), options.metric);
    let ranking = Ranking {
        metric: options.metric,
        suspects: &suspects,
        baseline: &baseline,
    };
    if let Some(path) = &options.html {
        std::fs::write(path, render::html::page(&ranking))
            .with_context(|| format!("cannot write {}", path.display()))?;
        console.status("Wrote", path.display());
    }
    let product = match options.format {
        Format::Text => render::text::table(&ranking, options.top),
        Format::Json => format!("{:#}\n", render::json::ranking(&ranking)),
    };
    write_stdout(&product)?;
    Ok(Exit::Success)
}

/// Writes the product to stdout; a closed pipe (`| head`) is not an error.
fn write_stdout(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}
