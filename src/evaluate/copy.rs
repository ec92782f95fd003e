//! A long-lived scratch copy that candidates' versions of the crate are
//! written into and built in, incrementally: only the files that differ
//! from the last version written are rewritten. Dropped, it is given back
//! for the run's next build copy (the type probes' copy becomes the
//! search's): rustc then compiles only what differs between the two.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::cargo::CargoFlags;
use crate::cargo::{BuildOutcome, BuildRequest, CompileError, build_tests, diagnose_code};
use crate::cargo::{Kind, Workspace};
use crate::code::Originals;
use crate::code::source::FileId;
use crate::evaluate::Texts;
use crate::exit::Result;
use crate::system::Budget;
use crate::system::scratch::ScratchDir;

/// A scratch copy of the workspace for building versions of the crate.
#[derive(Debug)]
pub struct BuildCopy {
    /// Held until the copy is dropped (then given back).
    scratch: Option<ScratchDir>,
    manifest_path: PathBuf,
    package: String,
    version: String,
    /// The other members whose tests run (`--workspace`), `name@version`.
    also: Vec<String>,
    cargo: CargoFlags,
    /// Files of the copy that differ from the originals, with their text.
    written: BTreeMap<FileId, String>,
}

impl BuildCopy {
    /// A copy of `workspace` holding `originals` (which may differ from the
    /// workspace: the crate as a partial repair left it), building in
    /// `<target>/autofix/<purpose>`, unless `budget` ends first.
    pub fn new(
        workspace: &Workspace,
        originals: &Originals,
        features: &CargoFlags,
        purpose: &str,
        budget: Budget,
    ) -> Result<BuildCopy> {
        let scratch = workspace.reused_copy(purpose, budget)?;
        for (_, path, text) in originals.iter() {
            scratch.write(path, text)?;
        }
        Ok(BuildCopy {
            manifest_path: scratch.path_of(&workspace.package.manifest_path),
            scratch: Some(scratch),
            package: workspace.package.name.clone(),
            version: workspace.package.version.clone(),
            also: workspace.also_tested(),
            cargo: features.clone(),
            written: BTreeMap::new(),
        })
    }

    /// Brings the copy to `texts` over `originals`: restores what the last
    /// version changed and this one does not, writes what differs.
    pub fn write(&mut self, texts: &Texts, originals: &Originals) -> Result<()> {
        let restore: Vec<FileId> = self
            .written
            .keys()
            .filter(|f| !texts.contains_key(f))
            .copied()
            .collect();
        for file in restore {
            self.scratch()
                .write(originals.path(file), originals.text(file))?;
            self.written.remove(&file);
        }
        for (&file, text) in texts {
            if self.written.get(&file) != Some(text) {
                self.scratch().write(originals.path(file), text)?;
                self.written.insert(file, text.clone());
            }
        }
        Ok(())
    }

    /// The copy's root: the workspace's copy.
    pub fn root(&self) -> &Path {
        self.scratch().root()
    }

    /// The copy's root and the target dir it builds in.
    pub fn dirs(&self) -> (&Path, &Path) {
        (self.root(), &self.scratch().target_dir)
    }

    fn scratch(&self) -> &ScratchDir {
        self.scratch.as_ref().expect("held until dropped")
    }

    /// Builds the test executables of what the copy holds (with `only`,
    /// those of these targets alone; every target when several packages'
    /// tests run, whose target names cargo would apply to each), lints
    /// capped to warnings, so that a mutant's new warning is no error.
    pub fn build(
        &self,
        only: Option<&BTreeSet<(Kind, String)>>,
        budget: Budget,
    ) -> Result<BuildOutcome> {
        let only = only.filter(|_| self.also.is_empty());
        build_tests(&self.request(budget), only, |_| {})
    }

    /// What rustc says about the copy's code as it stands, built as its
    /// users build it (its library and binaries, not their tests).
    pub fn diagnose(&self, budget: Budget) -> Result<Vec<CompileError>> {
        diagnose_code(&self.request(budget))
    }

    fn request(&self, budget: Budget) -> BuildRequest<'_> {
        BuildRequest {
            manifest_path: &self.manifest_path,
            package: &self.package,
            version: &self.version,
            also: &self.also,
            cargo: &self.cargo,
            target_dir: &self.scratch().target_dir,
            cap_lints: true,
            budget,
        }
    }
}

impl Drop for BuildCopy {
    fn drop(&mut self) {
        if let Some(scratch) = self.scratch.take() {
            scratch.give_back();
        }
    }
}
