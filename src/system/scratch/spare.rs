//! Scratch copies kept for the run's next builds. A build done with its
//! copy gives it back, and the next build of the same workspace into the
//! same target dir takes it: at the same path, rustc compiles only what
//! changed (winnow's library and its unit tests: 6.3 s in a new copy,
//! 1.2 s after an edit in place). Only a copy that holds what it held when
//! made, but for the tool's own writes (which `reset` puts back), is kept:
//! one where a test or a build script left or changed a file is removed,
//! so a reused copy holds what a new one would.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use walkdir::WalkDir;

use super::ScratchDir;
use crate::exit::Result;
use crate::system::Budget;

/// The copies given back in this run (`None`: no run, a copy given back
/// is removed).
static SPARE: Mutex<Option<Vec<ScratchDir>>> = Mutex::new(None);

/// What a copy holds: each path under it, with a file's length and time
/// (`None`: a directory).
pub(super) type Listing = BTreeMap<PathBuf, Option<(u64, SystemTime)>>;

/// Lists what is under `root` (`None` if any of it cannot be read), but
/// lockfiles: cargo writes one where the workspace has none, the same for
/// every build of the same manifests.
fn listing(root: &Path) -> Option<Listing> {
    let mut listed = Listing::new();
    for entry in WalkDir::new(root).min_depth(1) {
        let entry = entry.ok()?;
        if entry.file_name() == "Cargo.lock" {
            continue;
        }
        let metadata = entry.metadata().ok()?;
        let stamp = match metadata.is_dir() {
            true => None,
            false => Some((metadata.len(), metadata.modified().ok()?)),
        };
        let relative = entry.path().strip_prefix(root).ok()?;
        listed.insert(relative.to_path_buf(), stamp);
    }
    Some(listed)
}

/// A run starts: copies given back are kept.
pub(super) fn start() {
    *SPARE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Vec::new());
}

/// The run ends: the copies kept are removed.
pub(super) fn end() {
    let spare = SPARE.lock().unwrap_or_else(|e| e.into_inner()).take();
    drop(spare);
}

/// The workspace changed (a server's next call): the copies kept hold
/// its earlier files and are removed.
pub fn forget_given_back() {
    let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    let forgotten = spare.as_mut().map(std::mem::take);
    drop(spare);
    drop(forgotten);
}

impl ScratchDir {
    /// A copy of the workspace at `root` as [`create`](Self::create) makes
    /// one, or one an earlier build of the run gave back building in the
    /// same target dir.
    pub fn reused(root: &Path, target_dir: &Path, purpose: &str, budget: Budget) -> Result<Self> {
        let building_in = target_dir.join("autofix").join(purpose);
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        let given_back = spare.as_mut().and_then(|spare| {
            let same = spare
                .iter()
                .rposition(|s| s.original_root == root && s.target_dir == building_in)?;
            Some(spare.swap_remove(same))
        });
        drop(spare);
        if let Some(copy) = given_back {
            return Ok(copy);
        }
        let mut copy = Self::create(root, target_dir, purpose, budget)?;
        copy.made = listing(&copy.root);
        Ok(copy)
    }

    /// Done with the copy: in a run, if it holds what it was made with but
    /// for the tool's writes, those are put back and it is kept for
    /// [`reused`](Self::reused) until the run ends; else it is removed.
    pub fn give_back(self) {
        let in_a_run = SPARE.lock().unwrap_or_else(|e| e.into_inner()).is_some();
        // A copy building in a target dir of its own (a read-only target
        // dir's) is never taken.
        let in_target = self.target_dir.parent().and_then(Path::file_name);
        let shared = in_target.is_some_and(|dir| dir == "autofix");
        if !in_a_run || !shared || !self.as_made() || self.reset().is_err() {
            return;
        }
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(spare) = spare.as_mut() {
            spare.push(self);
        }
    }

    /// Whether every path of the copy is as it was made, but those the
    /// tool wrote (which [`reset`](Self::reset) puts back).
    fn as_made(&self) -> bool {
        let (Some(made), Some(now)) = (&self.made, listing(&self.root)) else {
            return false;
        };
        let written = self.before.lock().unwrap_or_else(|e| e.into_inner());
        let unwritten = |listed: &Listing| -> Listing {
            let kept = listed
                .iter()
                .filter(|(path, _)| !written.contains_key(*path));
            kept.map(|(path, stamp)| (path.clone(), *stamp)).collect()
        };
        unwritten(made) == unwritten(&now)
    }
}
