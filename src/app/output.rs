//! Where the products go: stdout, the files of `-o`, `--report` and
//! `--html` (checked before any work, and never lost if writing fails),
//! and the paths of GitHub annotations.

use std::path::{Path, PathBuf};

use crate::app::options::Options;
use crate::exit::{Exit, Failure};
use crate::system::console::{Console, write_product};

/// The path from the repository root (`$GITHUB_WORKSPACE`, else the
/// current directory) to the workspace root, for annotations; empty when
/// the workspace is not under it.
pub fn annotation_prefix(workspace_root: &Path, cwd: &Path) -> PathBuf {
    let base =
        std::env::var_os("GITHUB_WORKSPACE").map_or_else(|| cwd.to_path_buf(), PathBuf::from);
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    canonical(workspace_root)
        .strip_prefix(canonical(&base))
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Refuses, before any work, an output path that cannot be written: a
/// directory that does not exist or is read-only, or a directory given as
/// the file.
pub fn check_outputs(options: &Options) -> Result<(), Failure> {
    let outputs = [
        ("--output", &options.output),
        ("--report", &options.report),
        ("--html", &options.html),
    ];
    for (flag, path) in outputs {
        let Some(path) = path else { continue };
        let refuse = |why: String| {
            Failure::new(
                Exit::Output,
                format!("cannot write {flag} {}: {why}", path.display()),
            )
        };
        if path.is_dir() {
            return Err(refuse("it is a directory; name a file".to_string()));
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(refuse(format!(
                "the directory {} does not exist; create it or choose another path",
                parent.display()
            )));
        }
        let writable = if path.exists() {
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map(drop)
        } else {
            tempfile::NamedTempFile::new_in(parent).map(drop)
        };
        writable.map_err(|error| refuse(format!("{error}; choose a writable path")))?;
    }
    Ok(())
}

/// Writes `text` (`what`) to `path`; if that fails after all, prints it on
/// stdout instead, so that nothing is lost, and says so.
pub fn deliver(path: &Path, text: &str, what: &str, console: &Console) -> Result<(), Failure> {
    match std::fs::write(path, text) {
        Ok(()) => {
            console.status("Wrote", format!("{what} to {}", path.display()));
            Ok(())
        }
        Err(error) => {
            let _ = write_product(text);
            Err(Failure::new(
                Exit::Output,
                format!(
                    "cannot write {} ({error}); {what} was printed on stdout instead",
                    path.display()
                ),
            ))
        }
    }
}
