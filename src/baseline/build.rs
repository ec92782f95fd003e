//! The instrumented copy built: probes that break the build left out (event
//! probes, a macro's probes, a file's), until it builds or the crate is
//! found not to build without probes either.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::anyhow;

use crate::baseline::instrument::{Instrumented, LeftOut as ProbesLeftOut, MacroId};
use crate::cargo::CargoFlags;
use crate::cargo::{BuildOutcome, BuildRequest, CompileError, TestExecutable, build_tests};
use crate::cargo::{Kind, Workspace};
use crate::code::CrateSources;
use crate::code::source::FileId;
use crate::exit::{Error, Exit, Failure, Result};
use crate::system::Budget;
use crate::system::console::Console;
use crate::system::scratch::ScratchDir;

/// Rounds of leaving out the event probes that errors point at, before
/// every event probe of a file with errors goes.
const EVENT_ROUNDS: usize = 3;

/// What building an instrumented copy found does not compile: files and
/// macros left unprobed, and whether every `const fn` keeps its `const`. A
/// later build of the same crate (a patched version's, re-measured) leaves
/// them out from the start, instead of a failed build for each.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Unprobed {
    files: BTreeSet<FileId>,
    /// Macros by file and name (a patch above one moves its lines).
    macros: BTreeSet<(FileId, String)>,
    const_fns: bool,
}

impl Unprobed {
    pub(super) fn of(dropped: &[FileId], left_out: &ProbesLeftOut) -> Unprobed {
        Unprobed {
            files: dropped.iter().copied().collect(),
            macros: (left_out.macros.iter())
                .map(|m| (m.file, m.name.clone()))
                .collect(),
            const_fns: left_out.const_fns,
        }
    }
}

/// Builds the instrumented copy. Should event probes break the build (an
/// error's primary span lies in what one inserted or observes), those
/// probes are left out and the build retried. Should probes break a file's
/// build (a file also compiled into a test crate by `#[path]`, say), that
/// file is restored and the build retried; should they break it only in
/// the body of a macro (one expanded in a const context, say), only that
/// macro's probes are left out. If the copy does not build even without
/// probes, the crate itself does not build. What `known` holds is left
/// out from the start. Returns the test executables, the files whose
/// probes were dropped, and the macros and event sites whose probes were.
/// With `only`, the executables of these targets
/// alone (with one package tested: cargo would apply their names to each).
/// The end of `budget` halts it.
#[allow(clippy::too_many_arguments)]
pub(super) fn build_instrumented(
    workspace: &Workspace,
    scratch: &ScratchDir,
    sources: &CrateSources,
    instrumented: &Instrumented,
    known: &Unprobed,
    features: &CargoFlags,
    only: Option<&BTreeSet<(Kind, String)>>,
    console: &Console,
    budget: Budget,
) -> Result<(Vec<TestExecutable>, Vec<FileId>, ProbesLeftOut)> {
    let mut probing = Probing {
        scratch,
        sources,
        instrumented,
        probed: instrumented.files.iter().map(|(file, _)| *file).collect(),
        dropped: Vec::new(),
        left_out: ProbesLeftOut {
            macros: (instrumented.macros.iter())
                .filter(|m| known.macros.contains(&(m.file, m.name.clone())))
                .cloned()
                .collect(),
            events: BTreeSet::new(),
            const_fns: known.const_fns,
        },
        event_rounds: 0,
    };
    probing.dropped.extend(known.files.iter().copied());
    probing.probed.retain(|file| !known.files.contains(file));
    let anything_known = !probing.left_out.macros.is_empty() || known.const_fns;
    for (file, text) in &instrumented.files {
        if !probing.probed.contains(file) {
            continue;
        }
        let without;
        let text = if anything_known {
            without = instrumented.text_without(sources, *file, &probing.left_out);
            &without
        } else {
            text
        };
        scratch.write(&sources.get(*file).path, text)?;
    }
    let manifest_path = scratch.path_of(&workspace.package.manifest_path);
    let also = workspace.also_tested();
    let only = only.filter(|_| also.is_empty());
    let request = BuildRequest {
        manifest_path: &manifest_path,
        package: &workspace.package.name,
        version: &workspace.package.version,
        also: &also,
        cargo: features,
        target_dir: &scratch.target_dir,
        // The probes and their runtime are the tool's code: a crate's
        // `#![deny(trivial_numeric_casts, unsafe_code, ..)]` is not for them.
        cap_lints: true,
        budget,
    };
    let (first_errors, first_summary) = loop {
        let (errors, summary) = match build_with_spinner(&request, only, console)? {
            BuildOutcome::Built(executables) => {
                return Ok((executables, probing.dropped, probing.left_out));
            }
            BuildOutcome::Failed { errors, summary } => (errors, summary),
        };
        if !probing.leave_out_blamed(&errors, console)? {
            break (errors, summary);
        }
    };
    // Does the crate build at all without probes?
    probing.restore_probed()?;
    Err(why_unbuilt(&request, &first_errors, &first_summary)?)
}

/// Builds the tests of the copy `request` names (of `only` some targets),
/// a spinner telling what compiles.
fn build_with_spinner(
    request: &BuildRequest,
    only: Option<&BTreeSet<(Kind, String)>>,
    console: &Console,
) -> Result<BuildOutcome> {
    let spinner = console.spinner("Building");
    spinner.set_message(format!("tests of {}", request.package));
    let outcome = build_tests(request, only, |name| {
        spinner.set_message(format!("compiled {name}"))
    })?;
    drop(spinner);
    Ok(outcome)
}

/// Why the instrumented copy did not build (its first errors and summary
/// given): the crate does not build without probes either, or the probes
/// broke the build.
fn why_unbuilt(
    request: &BuildRequest,
    first_errors: &[CompileError],
    first_summary: &str,
) -> Result<Error> {
    Ok(match build_tests(request, None, |_| {})? {
        BuildOutcome::Failed { errors, summary } => Failure::new(
            Exit::BuildFailed,
            format!(
                "the crate does not build: {}",
                first_error(&errors, &summary)
            ),
        )
        .into(),
        BuildOutcome::Built(_) => anyhow!(
            "coverage probes broke the build (a bug in cargo-autofix, please report it): {}",
            first_error(first_errors, first_summary)
        )
        .into(),
    })
}

/// The instrumented copy as its builds go: which files are probed, and
/// which probes were left out.
struct Probing<'a> {
    scratch: &'a ScratchDir,
    sources: &'a CrateSources,
    instrumented: &'a Instrumented,
    /// The files with probes in the copy.
    probed: BTreeSet<FileId>,
    /// Files and macros whose probes were dropped: told only once the crate
    /// builds (if it does not build at all, the probes were not the trouble).
    dropped: Vec<FileId>,
    left_out: ProbesLeftOut,
    /// Rounds of leaving out event probes so far.
    event_rounds: usize,
}

impl Probing<'_> {
    /// Leaves out the probes a failed build's `errors` point at, rewriting
    /// the files they are in: whether it did (else the probes are not the
    /// trouble, or no more can go).
    fn leave_out_blamed(&mut self, errors: &[CompileError], console: &Console) -> Result<bool> {
        // A const context the instrumenter did not see (one a macro writes,
        // say) calls a `const fn` whose `const` it dropped: every `const fn`
        // keeps its `const`, unprobed, and the build is tried again.
        let const_call = |e: &CompileError| e.message.contains("cannot call non-const");
        if !self.left_out.const_fns && errors.iter().any(const_call) {
            console.detail(
                "Unprobed",
                "const fns: a const context calls one, so all keep their `const`",
            );
            self.left_out.const_fns = true;
            for &file in &self.probed {
                let text = self
                    .instrumented
                    .text_without(self.sources, file, &self.left_out);
                self.scratch.write(&self.sources.get(file).path, &text)?;
            }
            return Ok(true);
        }
        let blamed: Vec<FileId> = self
            .probed
            .iter()
            .copied()
            .filter(|&file| errors.iter().any(|e| self.in_file(file, e)))
            .collect();
        if blamed.is_empty() {
            // An error outside the probed files may come from a probed
            // macro body, expanded where it is invoked (in a test module,
            // say): leave out every macro's probes, once, and try again.
            let macros: BTreeSet<_> = self
                .instrumented
                .macros
                .iter()
                .filter(|m| !self.left_out.macros.contains(*m))
                .cloned()
                .collect();
            if macros.is_empty() {
                return Ok(false);
            }
            self.leave_out_macros(macros)?;
            return Ok(true);
        }
        let events = blamed_events(
            self.sources,
            self.instrumented,
            &blamed,
            &self.left_out,
            errors,
        );
        if !events.is_empty() {
            self.leave_out_events(events, &blamed)?;
            return Ok(true);
        }
        // A macro's probes that errors point at go first, and the build is
        // tried again before any file goes: expanded elsewhere (a macro
        // that writes a trait's items, say), they break files whose own
        // probes are fine.
        let macros = self.blamed_macros(&blamed, errors);
        if !macros.is_empty() {
            self.leave_out_macros(macros)?;
            return Ok(true);
        }
        self.restore(blamed, errors, console)?;
        Ok(true)
    }

    /// Whether `error` lies in `file`.
    fn in_file(&self, file: FileId, error: &CompileError) -> bool {
        error
            .file
            .as_deref()
            .map(|f| lexically_normal(Path::new(f)))
            == Some(lexically_normal(&self.sources.get(file).path))
    }

    /// The macros of the `blamed` files, not yet left out, that an error
    /// lies in.
    fn blamed_macros(&self, blamed: &[FileId], errors: &[CompileError]) -> BTreeSet<MacroId> {
        self.instrumented
            .macros
            .iter()
            .filter(|m| blamed.contains(&m.file) && !self.left_out.macros.contains(*m))
            .filter(|m| {
                errors.iter().any(|e| {
                    self.in_file(m.file, e)
                        && e.line
                            .is_some_and(|l| (m.line..=m.last_line).contains(&(l as u32)))
                })
            })
            .cloned()
            .collect()
    }

    /// Leaves out the probes of `macros`, rewriting the probed files they
    /// are in.
    fn leave_out_macros(&mut self, macros: BTreeSet<MacroId>) -> Result<()> {
        let files: BTreeSet<FileId> = macros.iter().map(|m| m.file).collect();
        self.left_out.macros.extend(macros);
        for file in files.into_iter().filter(|f| self.probed.contains(f)) {
            let text = self
                .instrumented
                .text_without(self.sources, file, &self.left_out);
            self.scratch.write(&self.sources.get(file).path, &text)?;
        }
        Ok(())
    }

    /// Leaves out the event probes `events` (and, once errors have kept
    /// coming from event probes for `EVENT_ROUNDS` rounds, all of the
    /// `blamed` files'), rewriting the `blamed` files.
    fn leave_out_events(&mut self, events: BTreeSet<usize>, blamed: &[FileId]) -> Result<()> {
        self.event_rounds += 1;
        self.left_out.events.extend(events);
        if self.event_rounds > EVENT_ROUNDS {
            // Errors keep coming from event probes: all of these files' go.
            for &file in blamed {
                let regions = self
                    .instrumented
                    .event_regions(self.sources, file, &self.left_out);
                self.left_out
                    .events
                    .extend(regions.into_iter().map(|(site, _)| site));
            }
        }
        for &file in blamed {
            let text = self
                .instrumented
                .text_without(self.sources, file, &self.left_out);
            self.scratch.write(&self.sources.get(file).path, &text)?;
        }
        Ok(())
    }

    /// Restores the `blamed` files (their probes are dropped), telling the
    /// first error in each.
    fn restore(
        &mut self,
        blamed: Vec<FileId>,
        errors: &[CompileError],
        console: &Console,
    ) -> Result<()> {
        for index in blamed {
            let file = self.sources.get(index);
            if let Some(error) = errors.iter().find(|e| self.in_file(index, e)) {
                console.detail(
                    "Unprobed",
                    format!(
                        "{}: the probes do not compile: {error}",
                        file.path.display()
                    ),
                );
            }
            self.dropped.push(index);
            self.scratch.write(&file.path, &file.text)?;
            self.probed.remove(&index);
        }
        Ok(())
    }

    /// Restores every file still probed.
    fn restore_probed(&self) -> Result<()> {
        for &file in &self.probed {
            let source = self.sources.get(file);
            self.scratch.write(&source.path, &source.text)?;
        }
        Ok(())
    }
}

/// The event sites of `files` in whose region (the innermost) (in the text built, without
/// the probes `left_out`) an error's primary span lies.
fn blamed_events(
    sources: &CrateSources,
    instrumented: &Instrumented,
    files: &[FileId],
    left_out: &ProbesLeftOut,
    errors: &[CompileError],
) -> BTreeSet<usize> {
    let mut blamed = BTreeSet::new();
    for &file in files {
        let path = lexically_normal(&sources.get(file).path);
        let regions = instrumented.event_regions(sources, file, left_out);
        for error in errors {
            let Some((span_file, span)) = error.spans.first() else {
                continue;
            };
            if lexically_normal(Path::new(span_file)) != path {
                continue;
            }
            // The innermost site around it (a returned value may hold a condition).
            blamed.extend(
                regions
                    .iter()
                    .filter(|(_, region)| region.start <= span.start && span.end <= region.end)
                    .min_by_key(|(_, region)| region.len())
                    .map(|(site, _)| *site),
            );
        }
    }
    blamed
}

/// `tests/../src/a.rs` as `src/a.rs` (rustc names a file included by
/// `#[path]` through the including file's directory).
fn lexically_normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir
                if matches!(
                    normal.components().next_back(),
                    Some(std::path::Component::Normal(_))
                ) =>
            {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

fn first_error(errors: &[CompileError], summary: &str) -> String {
    errors
        .first()
        .map_or_else(|| summary.to_string(), ToString::to_string)
}

/// Tells the macros and event sites whose probes were left out (those of
/// files left uninstrumented, `dropped`, are told with the files).
pub(super) fn tell_probes_left_out(
    left_out_probes: &ProbesLeftOut,
    dropped: &[FileId],
    instrumented: &Instrumented,
    sources: &CrateSources,
    console: &Console,
) {
    for id in left_out_probes
        .macros
        .iter()
        .filter(|m| !dropped.contains(&m.file))
    {
        console.warn(format!(
            "coverage probes do not compile in the body of macro `{}` ({}:{}); it is left unprobed, the lines that invoke it are ranked instead",
            id.name,
            sources.get(id.file).path.display(),
            id.line
        ));
    }
    let events_left_out = left_out_probes
        .events
        .iter()
        .filter(|&&site| !dropped.contains(&instrumented.probes.events[site].location.file))
        .count();
    if events_left_out > 0 {
        console.note(format!(
            "{events_left_out} of {} event probes do not compile where they are; they are left out",
            instrumented.probes.events.len()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_through_other_directories_are_normalized() {
        assert_eq!(
            lexically_normal(Path::new("tests/../src/calendar.rs")),
            Path::new("src/calendar.rs")
        );
        assert_eq!(
            lexically_normal(Path::new("./src/./a/../b.rs")),
            Path::new("src/b.rs")
        );
        assert_eq!(
            lexically_normal(Path::new("../outside/x.rs")),
            Path::new("../outside/x.rs")
        );
    }
}
