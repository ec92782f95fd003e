//! Finds the workspace and the package to work on, through `cargo metadata`.

use std::path::{Path, PathBuf};

use cargo_metadata::{DependencyKind, MetadataCommand, TargetKind};

use super::Lockfile;
use crate::exit::{Context, Exit, Failure, Result};
use crate::system::scratch::ScratchDir;
use crate::system::{Budget, process};

/// The workspace that holds the package, as cargo sees it.
#[derive(Debug, Clone)]
pub struct Workspace {
    pub root: PathBuf,
    pub target_dir: PathBuf,
    pub package: Package,
    /// The other workspace members whose libraries the package's tests
    /// link: its path dependencies (dev-dependencies too) inside the
    /// workspace, and theirs, transitively. Their code is ranked and
    /// edited with the package's.
    pub linked: Vec<Package>,
    /// Whether every member's tests run (`--workspace`; the linked members
    /// are then every member but the package), not only the package's.
    pub whole: bool,
    /// How the code of the package and the linked members names the crates
    /// they depend on outside the workspace (registry, git and outside path
    /// dependencies: never edited), `-` written `_`.
    pub outside: Vec<String>,
}

impl Workspace {
    /// A scratch copy of the workspace whose builds go to
    /// `<target dir>/autofix/<purpose>`, unless `budget` ends first.
    pub fn scratch_copy(&self, purpose: &str, budget: Budget) -> Result<ScratchDir> {
        ScratchDir::create(&self.root, &self.target_dir, purpose, budget)
    }

    /// A scratch copy as [`scratch_copy`](Self::scratch_copy) makes one, or
    /// one an earlier build of the run gave back for the same `purpose`
    /// (see [`ScratchDir::reused`]).
    pub fn reused_copy(&self, purpose: &str, budget: Budget) -> Result<ScratchDir> {
        ScratchDir::reused(&self.root, &self.target_dir, purpose, budget)
    }

    /// The targets whose code is ranked and edited: the package's library
    /// and binaries, then each linked member's library.
    pub fn code_targets(&self) -> Vec<&Target> {
        let own = self
            .package
            .targets
            .iter()
            .filter(|t| t.kind.is_crate_code());
        let linked = self
            .linked
            .iter()
            .flat_map(|p| p.targets.iter().filter(|t| t.kind == Kind::Lib));
        own.chain(linked).collect()
    }

    /// The packages whose tests run: the package, and with `--workspace`
    /// every other member.
    pub fn tested(&self) -> Vec<&Package> {
        let others = self.linked.iter().filter(|_| self.whole);
        std::iter::once(&self.package).chain(others).collect()
    }

    /// The members other than the package whose tests run, as
    /// `name@version`.
    pub fn also_tested(&self) -> Vec<String> {
        self.tested()[1..]
            .iter()
            .map(|p| format!("{}@{}", p.name, p.version))
            .collect()
    }

    /// The package whose directory holds `path` (relative to the workspace
    /// root): the package or a linked member, the deepest directory first.
    pub fn package_of(&self, path: &Path) -> &Package {
        let absolute = self.root.join(path);
        std::iter::once(&self.package)
            .chain(&self.linked)
            .filter(|p| absolute.starts_with(p.dir()))
            .max_by_key(|p| p.dir().components().count())
            .unwrap_or(&self.package)
    }
}

/// The package whose tests are run and whose code is ranked.
#[derive(Debug, Clone)]
pub struct Package {
    pub name: String,
    pub version: String,
    /// Cargo's package id, as it appears in build messages.
    pub id: String,
    pub manifest_path: PathBuf,
    pub targets: Vec<Target>,
    /// `[package.metadata.autofix]`, if any.
    pub autofix_metadata: Option<serde_json::Value>,
    /// The other workspace members whose tests link this package (through
    /// path dependencies, transitively), as `name@version`: a patch to this
    /// package is validated with their tests too.
    pub dependents: Vec<String>,
    /// Whether it depends on libtest-mimic: its `harness = false` tests
    /// may speak libtest's protocol.
    pub mimics_libtest: bool,
}

impl Package {
    pub fn dir(&self) -> &Path {
        self.manifest_path
            .parent()
            .expect("a manifest path has a parent")
    }

    /// The name other crates know the library by (`my_crate`), if the
    /// package has one.
    pub fn lib_name(&self) -> Option<String> {
        self.targets
            .iter()
            .find(|t| t.kind == Kind::Lib)
            .map(|t| t.name.replace('-', "_"))
    }

    pub fn has_doctests(&self) -> bool {
        self.targets
            .iter()
            .any(|t| t.kind == Kind::Lib && t.doctest)
    }

    /// Whether the library's doctests are worth compiling merged when its
    /// edition does not merge them: editions 2018 and 2021 (2024 merges
    /// them itself; rustdoc cannot read a 2015 crate as 2024, whose paths
    /// differ).
    pub fn doctests_merge(&self) -> bool {
        self.targets.iter().any(|t| {
            t.kind == Kind::Lib && t.doctest && matches!(t.edition.as_str(), "2018" | "2021")
        })
    }
}

/// A build target of the package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    pub kind: Kind,
    pub src_path: PathBuf,
    pub doctest: bool,
    /// The Rust edition it is compiled in (`2021`).
    pub edition: String,
    /// Whether the target uses libtest (`harness = false` turns it off).
    pub harness: bool,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Kind {
    Lib,
    ProcMacro,
    Bin,
    Test,
    Bench,
    Example,
    BuildScript,
}

impl Kind {
    pub(super) fn from_cargo(kinds: &[TargetKind]) -> Kind {
        match kinds.first() {
            Some(TargetKind::Bin) => Kind::Bin,
            Some(TargetKind::Test) => Kind::Test,
            Some(TargetKind::Bench) => Kind::Bench,
            Some(TargetKind::Example) => Kind::Example,
            Some(TargetKind::CustomBuild) => Kind::BuildScript,
            Some(TargetKind::ProcMacro) => Kind::ProcMacro,
            _ => Kind::Lib,
        }
    }

    /// Whether the target's code is the crate's own (ranked), not test code.
    pub fn is_crate_code(self) -> bool {
        matches!(self, Kind::Lib | Kind::Bin)
    }
}

/// Where to look for the package: what the user gave on the command line.
#[derive(Debug, Clone, Default)]
pub struct PackageQuery {
    pub manifest_path: Option<PathBuf>,
    pub package: Option<String>,
    /// `--workspace`: every member's tests run, every member's code is
    /// ranked and edited.
    pub workspace: bool,
    pub lockfile: Lockfile,
}

/// Runs `cargo metadata` and picks the package.
pub fn discover(query: &PackageQuery, cwd: &Path) -> Result<Workspace> {
    let manifest = find_manifest(query, cwd)?;
    let mut metadata_command = MetadataCommand::new();
    metadata_command
        .manifest_path(&manifest)
        .no_deps()
        .other_options(query.lockfile.to_args());
    let mut command = metadata_command.cargo_command();
    command.current_dir(cwd);
    // Before the time limit starts: no budget ends it.
    let finished = process::run(command, None, Budget::unlimited())?;
    if !finished.success() {
        let first_error = finished
            .stderr
            .lines()
            .find(|line| line.starts_with("error"))
            .unwrap_or("cargo metadata failed")
            .trim_start_matches("error: ");
        return Err(Failure::new(
            Exit::NoPackage,
            format!(
                "cannot read the package at {}: {first_error}",
                manifest.display()
            ),
        )
        .into());
    }
    let metadata =
        MetadataCommand::parse(&finished.stdout).context("cannot parse `cargo metadata` output")?;
    let members: Vec<&cargo_metadata::Package> = metadata.workspace_packages();
    let member_names = || {
        members
            .iter()
            .map(|p| p.name.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let chosen = match &query.package {
        Some(name) => members
            .iter()
            .find(|p| p.name.as_str() == name)
            .ok_or_else(|| {
                Failure::new(
                    Exit::PackageSelection,
                    format!(
                        "no package `{name}` in this workspace; its packages are: {}",
                        member_names()
                    ),
                )
            })?,
        None => {
            let canonical = manifest.canonicalize().unwrap_or_else(|_| manifest.clone());
            let here = members.iter().find(|p| {
                p.manifest_path.as_std_path().canonicalize().ok().as_deref()
                    == Some(canonical.as_path())
            });
            match (here, members.as_slice()) {
                (Some(package), _) => package,
                (None, [only]) => only,
                (None, [first, ..]) if query.workspace => first,
                (None, _) => {
                    return Err(Failure::new(
                        Exit::PackageSelection,
                        format!(
                            "this workspace has several packages ({}): choose one with -p NAME, or --workspace for all",
                            member_names()
                        ),
                    )
                    .into());
                }
            }
        }
    };
    let package = to_package(chosen, &members);
    let reached = if query.workspace {
        members
            .iter()
            .copied()
            .filter(|m| m.id != chosen.id)
            .collect()
    } else {
        linked_members(chosen, &members)
    };
    let outside = outside_dependencies(chosen, &reached, &members);
    let linked = reached
        .into_iter()
        .map(|member| to_package(member, &members))
        .collect();
    Ok(Workspace {
        root: metadata.workspace_root.into_std_path_buf(),
        target_dir: metadata.target_directory.into_std_path_buf(),
        package,
        linked,
        whole: query.workspace,
        outside,
    })
}

/// The crate names (as code writes them) of the dependencies of `chosen`
/// and `reached` that are not workspace members.
fn outside_dependencies(
    chosen: &cargo_metadata::Package,
    reached: &[&cargo_metadata::Package],
    members: &[&cargo_metadata::Package],
) -> Vec<String> {
    let mut names: Vec<String> = std::iter::once(chosen)
        .chain(reached.iter().copied())
        .flat_map(|p| &p.dependencies)
        .filter(|d| d.kind != DependencyKind::Build && member_of(d, members).is_none())
        .map(|d| d.rename.as_ref().unwrap_or(&d.name).replace('-', "_"))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The member a path dependency points at, if it is one.
fn member_of<'m>(
    dependency: &cargo_metadata::Dependency,
    members: &[&'m cargo_metadata::Package],
) -> Option<&'m cargo_metadata::Package> {
    let dir = dependency.path.as_deref()?;
    members
        .iter()
        .copied()
        .find(|m| m.manifest_path.parent() == Some(dir))
}

/// The members `chosen` reaches through path dependencies (its normal and
/// dev-dependencies, then their normal ones), in the order first reached.
fn linked_members<'m>(
    chosen: &cargo_metadata::Package,
    members: &[&'m cargo_metadata::Package],
) -> Vec<&'m cargo_metadata::Package> {
    let mut linked: Vec<&cargo_metadata::Package> = Vec::new();
    let mut pending = vec![(chosen, true)];
    while let Some((package, is_chosen)) = pending.pop() {
        for dependency in &package.dependencies {
            let wanted = match dependency.kind {
                DependencyKind::Normal => true,
                DependencyKind::Development => is_chosen,
                _ => false,
            };
            let Some(member) = member_of(dependency, members) else {
                continue;
            };
            if wanted && member.id != chosen.id && !linked.iter().any(|l| l.id == member.id) {
                linked.push(member);
                pending.push((member, false));
            }
        }
    }
    linked
}

/// A package as this tool sees it.
fn to_package(chosen: &cargo_metadata::Package, members: &[&cargo_metadata::Package]) -> Package {
    let dependents = members
        .iter()
        .filter(|m| linked_members(m, members).iter().any(|l| l.id == chosen.id))
        .map(|m| format!("{}@{}", m.name, m.version))
        .collect();
    let harness_free = harness_free_targets(chosen.manifest_path.as_std_path(), &chosen.name);
    Package {
        name: chosen.name.to_string(),
        version: chosen.version.to_string(),
        id: chosen.id.repr.clone(),
        manifest_path: chosen.manifest_path.clone().into_std_path_buf(),
        targets: chosen
            .targets
            .iter()
            .map(|t| {
                let kind = Kind::from_cargo(&t.kind);
                // `[lib]` holds a proc-macro library's settings too.
                let section = if kind == Kind::ProcMacro {
                    Kind::Lib
                } else {
                    kind
                };
                Target {
                    harness: !harness_free.contains(&(section, t.name.clone())),
                    name: t.name.clone(),
                    kind,
                    src_path: t.src_path.clone().into_std_path_buf(),
                    doctest: t.doctest,
                    edition: t.edition.as_str().to_string(),
                }
            })
            .collect(),
        autofix_metadata: chosen.metadata.get("autofix").cloned(),
        dependents,
        mimics_libtest: chosen
            .dependencies
            .iter()
            .any(|d| d.name == "libtest-mimic" || d.name == "libtest2-mimic"),
    }
}

/// The targets (kind, name) declared with `harness = false` in the manifest
/// (`cargo metadata` does not report it). A bench and the library may share
/// a name, so the kind is part of the key.
fn harness_free_targets(manifest_path: &Path, package_name: &str) -> Vec<(Kind, String)> {
    let manifest = std::fs::read_to_string(manifest_path)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok());
    let Some(manifest) = manifest else {
        return Vec::new();
    };
    let mut targets = Vec::new();
    let mut note = |kind: Kind, table: &toml::Value, default_name: Option<&str>| {
        if table.get("harness").and_then(|h| h.as_bool()) == Some(false)
            && let Some(name) = table.get("name").and_then(|n| n.as_str()).or(default_name)
        {
            targets.push((kind, name.replace('-', "_")));
            targets.push((kind, name.to_string()));
        }
    };
    for (section, kind) in [
        ("test", Kind::Test),
        ("bench", Kind::Bench),
        ("bin", Kind::Bin),
    ] {
        for table in manifest
            .get(section)
            .and_then(|s| s.as_array())
            .into_iter()
            .flatten()
        {
            note(kind, table, None);
        }
    }
    if let Some(lib) = manifest.get("lib") {
        note(Kind::Lib, lib, Some(package_name));
    }
    targets
}

/// The manifest cargo would use: `--manifest-path`, or the nearest
/// `Cargo.toml` from `cwd` upwards.
fn find_manifest(query: &PackageQuery, cwd: &Path) -> Result<PathBuf, Failure> {
    if let Some(path) = &query.manifest_path {
        let path = cwd.join(path);
        if !path.is_file() {
            let what = if path.is_dir() {
                "is a directory"
            } else {
                "does not exist"
            };
            return Err(Failure::new(
                Exit::NoPackage,
                format!(
                    "--manifest-path {} {what}; point it at a Cargo.toml",
                    path.display()
                ),
            ));
        }
        return Ok(path);
    }
    cwd.ancestors()
        .map(|dir| dir.join("Cargo.toml"))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| {
            Failure::new(
                Exit::NoPackage,
                format!(
                    "could not find Cargo.toml in {} or any parent directory; run inside a cargo package or pass --manifest-path",
                    cwd.display()
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_reached_through_path_dependencies_are_linked() {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/members");
        let query = |package: &str| PackageQuery {
            package: Some(package.to_string()),
            ..PackageQuery::default()
        };
        let names =
            |packages: &[Package]| packages.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
        let app = discover(&query("app"), &fixture).unwrap();
        assert_eq!(names(&app.linked), ["calendar", "report"]);
        assert!(app.package.dependents.is_empty());
        let calendar = &app.linked[0];
        assert_eq!(calendar.dependents, ["report@0.1.0", "app@0.1.0"]);
        let targets: Vec<&Path> = app
            .code_targets()
            .iter()
            .map(|t| t.src_path.strip_prefix(&fixture).unwrap())
            .collect();
        assert_eq!(
            targets,
            [
                Path::new("app/src/lib.rs"),
                Path::new("calendar/src/lib.rs"),
                Path::new("report/src/lib.rs")
            ]
        );
        assert_eq!(
            app.package_of(Path::new("calendar/src/lib.rs")).name,
            "calendar"
        );
        assert_eq!(app.package_of(Path::new("app/tests/years.rs")).name, "app");
        // The lowest member links nothing.
        let calendar = discover(&query("calendar"), &fixture).unwrap();
        assert!(calendar.linked.is_empty());
    }

    #[test]
    fn harness_free_targets_are_keyed_by_kind() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("Cargo.toml");
        std::fs::write(
            &manifest,
            "[package]\nname = \"hex\"\nversion = \"0.1.0\"\n\n\
             [[bench]]\nname = \"hex\"\nharness = false\n\n[[test]]\nname = \"api\"\n\n\
             [[test]]\nname = \"custom-runner\"\nharness = false\n",
        )
        .unwrap();
        let targets = harness_free_targets(&manifest, "hex");
        assert!(targets.contains(&(Kind::Bench, "hex".to_string())));
        assert!(targets.contains(&(Kind::Test, "custom_runner".to_string())));
        // A bench named like the library does not make the library harness-free.
        assert!(!targets.contains(&(Kind::Lib, "hex".to_string())));
        assert!(!targets.iter().any(|(_, name)| name == "api"));
        std::fs::write(
            &manifest,
            "[package]\nname = \"my-lib\"\nversion = \"0.1.0\"\n\n[lib]\nharness = false\n",
        )
        .unwrap();
        let targets = harness_free_targets(&manifest, "my-lib");
        assert!(targets.contains(&(Kind::Lib, "my_lib".to_string())));
    }
}
