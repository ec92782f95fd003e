//! What `git` says about the package's history: the change since a
//! revision (`cargo autofix bisect REV`).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::exit::{Exit, Failure, Result};
use crate::system::{Budget, process};

/// The change from `rev` to the working tree under `dir`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeSince {
    /// The modified files, as a unified diff from the working tree back to
    /// `rev` (what undoes the change), paths from the repository root.
    pub undo: String,
    /// Files added, deleted or renamed since `rev` (they stay as they are).
    pub other_files: Vec<String>,
}

/// The change since `rev` of the files under `dirs` (tracked ones; untracked
/// files are not part of it), asked of the repository that holds the first.
pub fn change_since(dirs: &[&Path], rev: &str) -> Result<ChangeSince> {
    let dir = dirs.first().copied().unwrap_or(Path::new("."));
    let pathspecs: Vec<&str> = dirs.iter().filter_map(|d| d.to_str()).collect();
    let git = |args: &[&str]| -> Result<String> {
        let mut command = Command::new("git");
        command.args(args).current_dir(dir);
        // Asked before the time limit starts: no budget to end it.
        let finished = process::run(command, Some(Duration::from_secs(120)), Budget::unlimited())?;
        if !finished.success() {
            let why = finished
                .stderr
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .trim_start_matches("fatal: ")
                .to_string();
            // `rev-parse --quiet` says nothing of a name it does not know.
            let why = if why.is_empty() {
                "no commit has that name".to_string()
            } else {
                why
            };
            return Err(Failure::new(
                Exit::BadRevision,
                format!("git cannot show the change since `{rev}` in {}: {why}; name a commit of the repository that holds the package", dir.display()),
            )
            .into());
        }
        Ok(finished.stdout)
    };
    git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{rev}^{{commit}}"),
    ])?;
    let undo = git(&[
        "diff",
        "-R",
        "--no-color",
        "--no-ext-diff",
        "--diff-filter=M",
        rev,
        "--",
    ]
    .into_iter()
    .chain(pathspecs.iter().copied())
    .collect::<Vec<_>>())?;
    let other_files = git(&[
        "diff",
        "--name-status",
        "--no-color",
        "--diff-filter=ADR",
        rev,
        "--",
    ]
    .into_iter()
    .chain(pathspecs.iter().copied())
    .collect::<Vec<_>>())?
    .lines()
    .map(|line| line.replace('\t', " "))
    .collect();
    Ok(ChangeSince { undo, other_files })
}
