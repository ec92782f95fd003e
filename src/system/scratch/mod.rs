//! Scratch copies of the workspace: everything we build or modify lives here.
//!
//! The copy leaves out `target/` and VCS directories, and points relative
//! path dependencies that lead outside the workspace at their original,
//! absolute location. Builds use a target dir under the user's target dir
//! (`target/autofix/<name>`), kept between runs so that dependencies are
//! compiled once. The user's source tree is only ever read.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use tempfile::TempDir;
use walkdir::WalkDir;

use crate::exit::{Context, Result, ensure};
use crate::system::lock::Lock;
use crate::system::{Budget, process};

mod spare;

use spare::Listing;
pub use spare::forget_given_back;

/// The target dir (under `<target>/autofix/`) of the copies that are never
/// built at the same time: the instrumented one, the type probes', the
/// woven one, the one a patch is validated in. Sharing it, they compile
/// the dependencies once.
/// (Repair workers build in parallel: each has its own.)
pub const MAIN_TARGET: &str = "main";

const VCS_DIRS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul"];

/// Scratch dirs are `<temp dir>/cargo-autofix-XXXXXX/`, each holding the
/// copy (`crate/`) and a lock file its run holds while it lives.
const PREFIX: &str = "cargo-autofix-";
const COPY: &str = "crate";
const LIFE_LOCK: &str = "run.lock";

/// A copy of the workspace in a temp dir, removed when dropped.
#[derive(Debug)]
pub struct ScratchDir {
    /// Removed (with the copy) when dropped.
    _temp: TempDir,
    /// Held while the copy is in use; a later run removes a scratch dir
    /// whose lock is free (its run was killed before it could clean up).
    _alive: Lock,
    /// The copy: `crate/` in the temp dir.
    root: PathBuf,
    original_root: PathBuf,
    /// The target dir builds in this copy use.
    pub target_dir: PathBuf,
    /// What each file written held before its first write (`None`: it did
    /// not exist), for [`reset`](Self::reset).
    before: Mutex<BTreeMap<PathBuf, Option<Vec<u8>>>>,
    /// What a copy made to be reused held when made (see `spare`).
    made: Option<Listing>,
}

impl ScratchDir {
    /// Copies the workspace at `root` (whose target dir is `target_dir`) into
    /// a new temp dir, unless `budget` ends first. Builds in it will use
    /// `<target_dir>/autofix/<purpose>`.
    pub fn create(
        root: &Path,
        target_dir: &Path,
        purpose: &str,
        budget: Budget,
    ) -> Result<ScratchDir> {
        let (temp, alive) = new_scratch_dir()?;
        let copy = temp.path().join(COPY);
        fs::create_dir(&copy).with_context(|| format!("cannot create {}", copy.display()))?;
        copy_tree(root, &copy, target_dir, budget)?;
        rewrite_outside_path_dependencies(root, &copy)?;
        let autofix = target_dir.join("autofix");
        let shared_target = autofix.join(purpose);
        let target_dir = match fs::create_dir_all(&shared_target) {
            Ok(()) => {
                // The dependencies are most likely built already: in the
                // user's own target dir for `main`, in `main` for the others.
                let built = if purpose == MAIN_TARGET {
                    target_dir.join("debug")
                } else {
                    autofix.join(MAIN_TARGET).join("debug")
                };
                seed(&shared_target, &built, budget);
                shared_target
            }
            // A read-only target dir: build inside the scratch dir instead.
            Err(_) => temp.path().join("target"),
        };
        Ok(ScratchDir {
            _temp: temp,
            _alive: alive,
            root: copy,
            original_root: root.to_path_buf(),
            target_dir,
            before: Mutex::default(),
            made: None,
        })
    }

    /// The copy of the workspace root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `original` (a path inside the user's workspace) lives in the copy.
    pub fn path_of(&self, original: &Path) -> PathBuf {
        match original.strip_prefix(&self.original_root) {
            Ok(relative) => self.root().join(relative),
            Err(_) => original.to_path_buf(),
        }
    }

    /// A file of the copy, by its path relative to the workspace root.
    /// Refuses any other path, so that nothing outside the copy is written.
    pub fn file(&self, relative: &Path) -> Result<PathBuf> {
        let inside = relative
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        ensure!(
            inside,
            "refusing to touch {} outside the scratch copy",
            relative.display()
        );
        Ok(self.root().join(relative))
    }

    /// Replaces a file of the copy, given relative to the workspace root:
    /// every write of the tool into a copy goes through here. Refuses a
    /// path that leaves the copy, also through a symbolic link on the way
    /// (the copy holds none, see [`copy_tree`]; this keeps it so).
    /// A file that already holds `text` is left as it is: a new
    /// modification time would have cargo compile its crate again.
    pub fn write(&self, relative: &Path, text: &str) -> Result<()> {
        let path = self.file(relative)?;
        self.ensure_no_link_on_the_way(relative)?;
        if fs::read(&path).is_ok_and(|bytes| bytes == text.as_bytes()) {
            return Ok(());
        }
        let mut before = self.before.lock().unwrap_or_else(|e| e.into_inner());
        if !before.contains_key(relative) {
            before.insert(relative.to_path_buf(), fs::read(&path).ok());
        }
        fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    }

    /// Puts back what every file written held when the copy was made (a
    /// file that did not exist is removed): the copy is the workspace's
    /// again, at the same path, so that its next build is incremental (a
    /// copy at a new path compiles the crate from scratch).
    pub fn reset(&self) -> Result<()> {
        let mut before = self.before.lock().unwrap_or_else(|e| e.into_inner());
        for (relative, bytes) in std::mem::take(&mut *before) {
            let path = self.root.join(&relative);
            match bytes {
                Some(bytes) => fs::write(&path, bytes)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => {
                    let _ = fs::remove_file(&path);
                }
            }
        }
        Ok(())
    }

    /// Fails if a component of `relative` under the copy is a symbolic link.
    fn ensure_no_link_on_the_way(&self, relative: &Path) -> Result<()> {
        let mut path = self.root().to_path_buf();
        for component in relative.components() {
            path.push(component);
            let is_link = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
            ensure!(
                !is_link,
                "refusing to write {}: {} is a symbolic link, and the write could leave the scratch copy",
                relative.display(),
                path.display()
            );
        }
        Ok(())
    }
}

/// A new scratch dir in the temp dir, readable by its owner only (it holds
/// copies of the user's sources), and its life lock, held.
fn new_scratch_dir() -> Result<(TempDir, Lock)> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(PREFIX);
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
    let temp = builder
        .tempdir()
        .map_err(|error| process::space_error(error, &std::env::temp_dir()))
        .context("cannot create a scratch directory")?;
    let alive = Lock::create(&temp.path().join(LIFE_LOCK))?;
    Ok((temp, alive))
}

/// The run's own scratch dir, for as long as the run lives: it holds the
/// temp files of the run and of every process it starts (`tmp/`, their
/// `TMPDIR`: captured output, the linker's files), and the record of the
/// process groups it started, so that the next run can stop them and
/// remove everything if this one is killed (see [`remove_stale`]).
#[derive(Debug)]
pub struct RunDir {
    _temp: TempDir,
    _alive: Lock,
}

impl RunDir {
    /// Makes the run's dir and sends the run's temp files into it.
    pub fn create() -> Result<RunDir> {
        let (temp, alive) = new_scratch_dir()?;
        let tmp = temp.path().join(RUN_TMP);
        fs::create_dir(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        process::set_run_dir(Some(process::RunFiles {
            tmp,
            groups: temp.path().join(RUN_GROUPS),
        }));
        spare::start();
        Ok(RunDir {
            _temp: temp,
            _alive: alive,
        })
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        spare::end();
        process::set_run_dir(None);
    }
}

/// In a run's dir: the temp dir of the run and its children, and the
/// record of the process groups it started.
const RUN_TMP: &str = "tmp";
const RUN_GROUPS: &str = "groups";

/// Removes the scratch dirs under the temp dir whose runs are gone (killed
/// before they could clean up: their lock is free), after stopping the
/// process groups such a run recorded that are still running (a hanging
/// test, say). Returns how many dirs.
pub fn remove_stale() -> usize {
    let Ok(entries) = fs::read_dir(std::env::temp_dir()) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let is_ours = entry.file_name().to_string_lossy().starts_with(PREFIX)
            && entry.file_type().is_ok_and(|t| t.is_dir());
        let lock = entry.path().join(LIFE_LOCK);
        // A dir without its lock yet is being made; never touch it.
        if !is_ours || !lock.is_file() {
            continue;
        }
        if let Ok(Some(_dead)) = Lock::try_acquire(&lock) {
            process::kill_recorded_groups(&entry.path().join(RUN_GROUPS));
            if fs::remove_dir_all(entry.path()).is_ok() {
                removed += 1;
            }
        }
    }
    removed
}

/// Holds the build lock of `target_dir`'s `autofix/` for the whole run, so
/// that two runs in one crate never build into each other's scratch
/// target dirs; a second run waits (`on_wait` says so) until the first
/// ends, or `budget` does. `None` when the target dir cannot be written
/// (then every scratch copy builds in its own dir, which needs no lock).
pub fn lock_target_dir(
    target_dir: &Path,
    budget: Budget,
    on_wait: impl FnOnce(&Path),
) -> Result<Option<Lock>> {
    let dir = target_dir.join("autofix");
    if fs::create_dir_all(&dir).is_err() {
        return Ok(None);
    }
    let path = dir.join("run.lock");
    Lock::wait(&path, budget, || on_wait(&path)).map(Some)
}

/// The size of the builds kept in `target_dir`'s `autofix/`, if it is a
/// directory (a link is not followed).
pub fn kept_bytes(target_dir: &Path) -> Option<u64> {
    let dir = target_dir.join("autofix");
    if !fs::symlink_metadata(&dir).ok()?.is_dir() {
        return None;
    }
    let files = WalkDir::new(&dir).follow_links(false).into_iter();
    let sizes = files
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| e.metadata().ok());
    Some(sizes.map(|m| m.len()).sum())
}

/// `cargo autofix clean`: removes `<target_dir>/autofix`, the builds kept
/// between runs, once no other run in this crate uses them (`on_wait` is
/// told when one does); the bytes it held, or `None` if there was none. A
/// link there is removed, never followed.
pub fn clean(target_dir: &Path, on_wait: impl FnOnce(&Path)) -> Result<Option<u64>> {
    let dir = target_dir.join("autofix");
    let Ok(found) = fs::symlink_metadata(&dir) else {
        return Ok(None);
    };
    if !found.is_dir() {
        // A link (or a file): only it goes.
        fs::remove_file(&dir).with_context(|| format!("cannot remove {}", dir.display()))?;
        return Ok(Some(0));
    }
    // Measured once no run writes there.
    let _lock = lock_target_dir(target_dir, Budget::unlimited(), on_wait)?;
    let bytes = kept_bytes(target_dir).unwrap_or(0);
    fs::remove_dir_all(&dir).with_context(|| format!("cannot remove {}", dir.display()))?;
    Ok(Some(bytes))
}

/// A new target dir starts from the builds in `built` (a profile dir,
/// `debug`: the user's for `main`, `main`'s for a rebuild worker): a copy,
/// all but `incremental` (which holds the crates' own state), with the
/// modification times kept, so that cargo finds every dependency fresh.
/// Without it a first run compiles all of them again (40 s for `hex`'s
/// dev-dependencies, in each rebuild worker too, both at once); the copy
/// takes about a second. Nothing is copied from more than
/// [`SEED_LIMIT`] bytes, and a copy that fails leaves the dir to build from
/// scratch.
fn seed(target: &Path, built: &Path, budget: Budget) {
    let to = target.join("debug");
    if to.exists() || !built.is_dir() || size(built).is_none_or(|size| size > SEED_LIMIT) {
        return;
    }
    let partial = target.join("debug.seeding");
    let _ = fs::remove_dir_all(&partial);
    match copy_built(built, &partial, budget) {
        Ok(()) => drop(fs::rename(&partial, &to)),
        Err(_) => drop(fs::remove_dir_all(&partial)),
    }
}

/// The most a new target dir copies (a large workspace's builds are better
/// left where they are: most of them are not this package's dependencies).
const SEED_LIMIT: u64 = 4 << 30;

/// The build products' bytes under `dir` (`None` if it cannot be read).
fn size(dir: &Path) -> Option<u64> {
    let mut total = 0;
    for entry in built_products(dir) {
        let entry = entry.ok()?;
        if entry.file_type().is_file() {
            total += entry.metadata().ok()?.len();
        }
    }
    Some(total)
}

/// Everything under a profile dir but its `incremental` dir.
fn built_products(
    dir: &Path,
) -> walkdir::FilterEntry<walkdir::IntoIter, fn(&walkdir::DirEntry) -> bool> {
    fn not_incremental(entry: &walkdir::DirEntry) -> bool {
        entry.depth() != 1 || entry.file_name() != "incremental"
    }
    WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_entry(not_incremental as fn(&walkdir::DirEntry) -> bool)
}

/// Copies the build products under `from` to `to`, times kept.
fn copy_built(from: &Path, to: &Path, budget: Budget) -> Result<()> {
    copy_entries(built_products(from), from, to, true, budget)
}

/// Whether directory `dir` stores no sources: a version-control store, or
/// a cargo target dir (every one carries this tag, nested ones too).
pub fn is_store(dir: &Path) -> bool {
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    VCS_DIRS.contains(&name.as_ref()) || dir.join("CACHEDIR.TAG").is_file()
}

/// Copies the workspace's sources: symbolic links are followed, so the copy
/// holds the content of every link (a file or a directory, inside the
/// workspace or outside it), never the link. A link copied as a link would
/// send every write into the copy (probes, woven code, candidates) through
/// to the user's file. Links that dangle or loop are left out, as they
/// hold nothing to build.
fn copy_tree(from: &Path, to: &Path, target_dir: &Path, budget: Budget) -> Result<()> {
    let target_dir = target_dir
        .canonicalize()
        .unwrap_or_else(|_| target_dir.to_path_buf());
    let walker = WalkDir::new(from)
        .follow_links(true)
        .into_iter()
        .filter_entry(|entry| {
            if !entry.file_type().is_dir() || entry.depth() == 0 {
                return true;
            }
            // The target dir before its first build has no tag yet.
            let is_target = entry.path() == target_dir
                || entry.path().canonicalize().is_ok_and(|p| p == target_dir);
            !is_store(entry.path()) && !is_target
        })
        .filter(|entry| match entry {
            Err(error) => error.loop_ancestor().is_none() && !dangles(error),
            Ok(_) => true,
        });
    copy_entries(walker, from, to, false, budget)
}

/// Whether a walk's error is a symbolic link that points nowhere.
fn dangles(error: &walkdir::Error) -> bool {
    error
        .path()
        .is_some_and(|path| path.is_symlink() && !path.exists())
}

/// Copies what `walker` lists under `from` to the same place under `to`:
/// directories, symlinks and files (with their modification times if
/// `keep_times`).
fn copy_entries(
    walker: impl Iterator<Item = walkdir::Result<walkdir::DirEntry>>,
    from: &Path,
    to: &Path,
    keep_times: bool,
    budget: Budget,
) -> Result<()> {
    for entry in walker {
        process::check_interrupted(budget)?;
        let entry = entry.with_context(|| format!("cannot read {}", from.display()))?;
        let relative = entry
            .path()
            .strip_prefix(from)
            .expect("walkdir stays under its root");
        let destination = to.join(relative);
        let file_type = entry.file_type();
        if file_type.is_dir() {
            fs::create_dir_all(&destination)
                .with_context(|| format!("cannot create {}", destination.display()))?;
        } else if file_type.is_symlink() {
            copy_symlink(entry.path(), &destination)?;
        } else {
            fs::copy(entry.path(), &destination)
                .with_context(|| format!("cannot copy {}", entry.path().display()))?;
            if keep_times {
                let modified = entry.metadata()?.modified()?;
                fs::File::options()
                    .write(true)
                    .open(&destination)?
                    .set_modified(modified)?;
            }
        }
    }
    Ok(())
}

#[cfg(unix)]
fn copy_symlink(link: &Path, destination: &Path) -> Result<()> {
    let points_to = fs::read_link(link)?;
    std::os::unix::fs::symlink(&points_to, destination)
        .with_context(|| format!("cannot copy symlink {}", link.display()))
}

#[cfg(not(unix))]
fn copy_symlink(link: &Path, destination: &Path) -> Result<()> {
    fs::copy(link, destination)
        .map(drop)
        .with_context(|| format!("cannot copy {}", link.display()))
}

/// Relative `path = ...` dependencies that point outside the workspace
/// would dangle in the copy: make them absolute.
fn rewrite_outside_path_dependencies(original_root: &Path, copy_root: &Path) -> Result<()> {
    for entry in WalkDir::new(copy_root) {
        let entry = entry?;
        if entry.file_name() != "Cargo.toml" || !entry.file_type().is_file() {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(copy_root)
            .expect("under the copy root");
        let original_dir = original_root
            .join(relative)
            .parent()
            .expect("a manifest has a directory")
            .to_path_buf();
        let text = fs::read_to_string(entry.path())?;
        let Ok(mut manifest) = text.parse::<toml::Table>() else {
            continue; // cargo will report a broken manifest itself.
        };
        if rewrite_manifest(&mut manifest, &original_dir, original_root) {
            fs::write(entry.path(), toml::to_string(&manifest)?)?;
        }
    }
    Ok(())
}

/// Rewrites, in a parsed manifest, every relative path dependency that
/// leaves `root`. Returns whether anything changed.
fn rewrite_manifest(manifest: &mut toml::Table, manifest_dir: &Path, root: &Path) -> bool {
    let mut changed = false;
    let mut fix_table = |deps: &mut toml::Value| {
        let Some(deps) = deps.as_table_mut() else {
            return;
        };
        for dep in deps.iter_mut().map(|(_, value)| value) {
            let Some(path) = dep.get("path").and_then(|p| p.as_str()) else {
                continue;
            };
            if Path::new(path).is_absolute() {
                continue;
            }
            let resolved = normalize(&manifest_dir.join(path));
            if !resolved.starts_with(root) {
                dep.as_table_mut()
                    .expect("a dependency with a path is a table")
                    .insert(
                        "path".into(),
                        resolved.to_string_lossy().into_owned().into(),
                    );
                changed = true;
            }
        }
    };
    const SECTIONS: &[&str] = &[
        "dependencies",
        "dev-dependencies",
        "build-dependencies",
        "dev_dependencies",
        "build_dependencies",
    ];
    for section in SECTIONS {
        if let Some(deps) = manifest.get_mut(*section) {
            fix_table(deps);
        }
    }
    if let Some(targets) = manifest.get_mut("target").and_then(|t| t.as_table_mut()) {
        for platform in targets.iter_mut().map(|(_, value)| value) {
            for section in SECTIONS {
                if let Some(deps) = platform.get_mut(*section) {
                    fix_table(deps);
                }
            }
        }
    }
    if let Some(deps) = manifest
        .get_mut("workspace")
        .and_then(|w| w.get_mut("dependencies"))
    {
        fix_table(deps);
    }
    if let Some(patches) = manifest.get_mut("patch").and_then(|p| p.as_table_mut()) {
        for registry in patches.iter_mut().map(|(_, value)| value) {
            fix_table(registry);
        }
    }
    changed
}

/// Removes `.` and `..` components without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests;
