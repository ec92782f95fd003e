//! Builds the package's test executables with `cargo test --no-run` and reads
//! cargo's JSON messages: which executables exist, or why the build failed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use cargo_metadata::Message;
use cargo_metadata::diagnostic::DiagnosticLevel;

use super::CargoFlags;
use super::discover::Kind;
use crate::exit::Result;
use crate::system::Budget;
use crate::system::process::{self, Finished};

/// What to build: a package of a workspace copy, into a given target dir.
#[derive(Debug, Clone)]
pub struct BuildRequest<'a> {
    pub manifest_path: &'a Path,
    /// The package's name and version.
    pub package: &'a str,
    pub version: &'a str,
    /// Other packages (`name@version`) whose tests run too: a patch's
    /// validation in a workspace. Empty for every build of a candidate.
    pub also: &'a [String],
    pub cargo: &'a CargoFlags,
    pub target_dir: &'a Path,
    /// Lints only warn (`--cap-lints=warn`), so that a mutant's new warning
    /// is no error in a crate that denies warnings. For candidate builds.
    pub cap_lints: bool,
    /// The time the build (or the test run) may take: cargo is killed,
    /// and the work halts, once it ends.
    pub budget: Budget,
}

/// A test executable cargo built: libtest's (or a custom) harness.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TestExecutable {
    /// The name of the package whose target it is.
    pub package: String,
    pub target: String,
    pub kind: Kind,
    pub path: PathBuf,
}

/// One compiler error, located in the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    pub message: String,
    /// File as rustc names it (relative to the workspace root for members).
    pub file: Option<String>,
    pub line: Option<usize>,
    /// Every span of the diagnostic and its notes (file, byte range), the
    /// primary one first: where the error is, and what it is about.
    pub spans: Vec<(String, std::ops::Range<usize>)>,
    /// The first label of its spans, the primary one's first (`expected
    /// `()`, found `usize``).
    pub label: Option<String>,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

#[derive(Debug)]
pub enum BuildOutcome {
    Built(Vec<TestExecutable>),
    /// The build failed; the errors in the order rustc reported them (may be
    /// empty when cargo failed before compiling, then `summary` says why).
    Failed {
        errors: Vec<CompileError>,
        summary: String,
    },
}

/// `cargo SUBCOMMAND` for the request's package, target dir and features.
fn cargo_for(subcommand: &[&str], request: &BuildRequest) -> Command {
    let mut command = super::command();
    command
        .args(subcommand)
        .arg("--manifest-path")
        .arg(request.manifest_path)
        .args(["--package", &package_spec(request)])
        .args(request.also.iter().flat_map(|spec| ["--package", spec]))
        .arg("--target-dir")
        .arg(request.target_dir)
        // What tests `cargo test` runs see (a test that runs cargo itself,
        // as trybuild's do, builds there: see `TestSuite::target_dir`).
        .env("CARGO_TARGET_DIR", request.target_dir)
        .args(request.cargo.to_args())
        // No debug info for the package's own code, none linked into its
        // test executables: it costs a fifth of a build and nothing here
        // reads it (panic locations do not need it). The dependencies keep
        // the profile's, so that they are the very builds of the user's
        // `cargo test` (see `scratch::ScratchDir::create`).
        .args(["--config", &package_profile(request.package, "debug", "0")])
        .args([
            "--config",
            &package_profile(request.package, "strip", "\"debuginfo\""),
        ])
        .current_dir(request.manifest_path.parent().unwrap_or(Path::new(".")));
    if request.cap_lints {
        match cap_lints_wrapper(request.target_dir) {
            Some(wrapper) => {
                command.env("RUSTC_WORKSPACE_WRAPPER", wrapper);
            }
            None => {
                let mut flags = std::env::var("RUSTFLAGS").unwrap_or_default();
                flags.push_str(" --cap-lints=warn");
                command.env("RUSTFLAGS", flags.trim_start());
            }
        }
    }
    if request.cargo.echo {
        crate::system::console::echo(&command);
    }
    command
}

/// The package id spec that names the request's package to cargo: its
/// directory's `file://` URL, name and version. By name alone, a package
/// whose lockfile holds another version of itself (a dev-dependency's
/// dependency) is ambiguous; by name and version too, when that is the
/// same version, published (`criterion` depends on `tinytemplate`).
fn package_spec(request: &BuildRequest) -> String {
    let spec = format!("{}@{}", request.package, request.version);
    match request.manifest_path.parent() {
        Some(dir) if cfg!(unix) && dir.is_absolute() => {
            // What a URL's path cannot hold as it is.
            let path = dir
                .to_string_lossy()
                .replace('%', "%25")
                .replace('#', "%23")
                .replace('?', "%3F");
            format!("file://{path}#{spec}")
        }
        _ => spec,
    }
}

/// A `--config` setting of the dev profile (which the test profile
/// inherits) for `package` alone.
fn package_profile(package: &str, key: &str, value: &str) -> String {
    format!("profile.dev.package.\"{package}\".{key}={value}")
}

/// The script that runs rustc with `--cap-lints=warn` (in `target_dir`),
/// for cargo to run as `RUSTC_WORKSPACE_WRAPPER`: it wraps the package's
/// own compilations only, so the dependencies are built exactly as in a
/// build without the cap and the two share them (the cap in `RUSTFLAGS`
/// would change every dependency's flags: each would be compiled twice).
/// `None` where no script can run, or when the user has a workspace wrapper
/// of their own: then the cap goes into `RUSTFLAGS`.
fn cap_lints_wrapper(target_dir: &Path) -> Option<PathBuf> {
    const SCRIPT: &str = "#!/bin/sh\nexec \"$@\" --cap-lints=warn\n";
    if std::env::var_os("RUSTC_WORKSPACE_WRAPPER").is_some() {
        return None;
    }
    script(target_dir, "autofix-cap-lints", SCRIPT)
}

/// The executable shell script `name` in `target_dir` with the text
/// `text` (written once, atomically: builds in other processes may be
/// running it). `None` where no script can run.
fn script(target_dir: &Path, name: &str, text: &str) -> Option<PathBuf> {
    if !cfg!(unix) {
        return None;
    }
    let path = target_dir.join(name);
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
        std::fs::create_dir_all(target_dir).ok()?;
        let temporary = target_dir.join(format!("{name}.{}", std::process::id()));
        std::fs::write(&temporary, text).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let executable = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(&temporary, executable).ok()?;
        }
        std::fs::rename(&temporary, &path).ok()?;
    }
    Some(path)
}

/// How a test run compiles the doctests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doctests {
    /// As `cargo test` does: in the crate's edition, which before 2024
    /// means one executable (one rustc and one link) per doctest.
    AsCargo,
    /// Merged into one executable, as edition 2024 compiles them, in a
    /// crate of an earlier edition (228 doctests: 15.5 s as cargo does,
    /// 1.3 s merged; `Package::doctests_merge` says where it is worth it).
    /// Each still runs in its own process, and rustdoc compiles apart those
    /// it cannot merge. A pass is a pass; a failure may be the edition's and
    /// is for a run [`Doctests::AsCargo`] to confirm.
    Merged,
}

/// The script cargo runs as `RUSTDOC` for [`Doctests::Merged`]: rustdoc
/// (`$AUTOFIX_RUSTDOC`, the user's `RUSTDOC` if set) told edition 2024
/// when it runs doctests (`--test`), and nothing else changed.
const MERGING_RUSTDOC: &str = r#"#!/bin/sh
rustdoc="${AUTOFIX_RUSTDOC:-rustdoc}"
case " $* " in *" --test "*) ;; *) exec "$rustdoc" "$@" ;; esac
for arg do
  shift
  case "$arg" in --edition=*) arg=--edition=2024 ;; esac
  set -- "$@" "$arg"
done
exec "$rustdoc" "$@"
"#;

/// Has `command` (a cargo test run) compile the doctests as `doctests`
/// says; as cargo does where no script can run.
fn compile_doctests(command: &mut Command, doctests: Doctests, target_dir: &Path) {
    if doctests == Doctests::AsCargo {
        return;
    }
    if let Some(wrapper) = script(target_dir, "autofix-rustdoc", MERGING_RUSTDOC) {
        if let Some(rustdoc) = std::env::var_os("RUSTDOC") {
            command.env("AUTOFIX_RUSTDOC", rustdoc);
        }
        command.env("RUSTDOC", wrapper);
    }
}

/// Whether the doctests of a test run (`run_all_tests`, `run_doctests`)
/// were merged into one executable: rustdoc says so only then.
pub fn doctests_merged(finished: &Finished) -> bool {
    finished.stdout.contains("merged doctests compilation")
}

/// Runs the package's whole test suite as a user would, doctests included,
/// without stopping at the first failing test executable.
pub fn run_all_tests(
    request: &BuildRequest,
    timeout: Option<Duration>,
    doctests: Doctests,
) -> Result<Finished> {
    let mut command = cargo_for(&["test"], request);
    command.arg("--no-fail-fast");
    compile_doctests(&mut command, doctests, request.target_dir);
    process::run(command, timeout, request.budget)
}

/// `cargo nextest run --no-fail-fast` (no doctests: see [`run_doctests`]).
pub fn run_nextest(request: &BuildRequest, timeout: Option<Duration>) -> Result<Finished> {
    let mut command = cargo_for(&["nextest", "run"], request);
    command.args(["--no-fail-fast", "--color", "never"]);
    process::run(command, timeout, request.budget)
}

/// `cargo test --doc`: the library's doctests.
pub fn run_doctests(
    request: &BuildRequest,
    timeout: Option<Duration>,
    doctests: Doctests,
) -> Result<Finished> {
    let mut command = cargo_for(&["test", "--doc"], request);
    command.arg("--no-fail-fast");
    compile_doctests(&mut command, doctests, request.target_dir);
    process::run(command, timeout, request.budget)
}

/// Whether `cargo nextest` can run here (asked before the time limit
/// starts: no budget ends it).
pub fn nextest_installed() -> bool {
    let mut command = super::command();
    command.args(["nextest", "--version"]);
    let finished = process::run(command, Some(Duration::from_secs(60)), Budget::unlimited());
    finished.is_ok_and(|f| f.success())
}

/// The tests that nextest's output reports failed (`FAIL`, `TIMEOUT`,
/// a signal...): libtest's names, the binary left out.
pub fn nextest_failures(output: &str) -> BTreeSet<String> {
    output
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let (status, rest) = line.split_once(' ')?;
            let failed = status == "FAIL"
                || status == "TIMEOUT"
                || status == "ABORT"
                || status == "LEAK-FAIL"
                || status.starts_with("SIG");
            // `[   0.004s] (6/6) binary-id test-name`: the name is last.
            let rest = rest.trim_start().strip_prefix('[')?;
            (failed && rest.contains("s]"))
                .then(|| rest.split_whitespace().last().map(str::to_string))
                .flatten()
        })
        .collect()
}

/// Builds the package's test executables (with `only`, those of these
/// targets alone: kind and name). `on_artifact` hears the name of each
/// crate as it finishes compiling.
pub fn build_tests(
    request: &BuildRequest,
    only: Option<&BTreeSet<(Kind, String)>>,
    mut on_artifact: impl FnMut(&str),
) -> Result<BuildOutcome> {
    let command = cargo_test_no_run(request, only);
    compile(command, request.budget, &mut on_artifact, false)
}

/// `cargo test --no-run` with JSON messages, of `only` some targets.
fn cargo_test_no_run(request: &BuildRequest, only: Option<&BTreeSet<(Kind, String)>>) -> Command {
    let mut command = cargo_for(&["test"], request);
    command.args(["--no-run", "--message-format=json"]);
    for (kind, name) in only.into_iter().flatten() {
        match kind {
            Kind::Lib | Kind::ProcMacro => command.arg("--lib"),
            Kind::Bin => command.args(["--bin", name]),
            Kind::Test => command.args(["--test", name]),
            Kind::Bench => command.args(["--bench", name]),
            Kind::Example => command.args(["--example", name]),
            Kind::BuildScript => continue,
        };
    }
    command
}

/// Builds the package's tests (`cargo test --no-run`) for what rustc says
/// about them: every diagnostic, errors and warnings (lints run only when
/// there is no error). A build, not a `cargo check`: it shares the
/// dependencies the other builds in the target dir compiled, where a check
/// would type-check every dependency once more on a first run (25 s of
/// `hex`'s dev-dependencies), for about 0.5 s more than a check when the
/// crate compiles.
pub fn diagnose_tests(request: &BuildRequest) -> Result<Vec<CompileError>> {
    diagnostics(cargo_test_no_run(request, None), request.budget)
}

/// What rustc says about the package's code as its users build it
/// (`cargo build`: its library and binaries, not their unit tests), as
/// [`diagnose_tests`]. A crate's unit tests can be most of what rustc
/// checks before it stops at a type error in the code (winnow: 6.5 s with
/// them, 2.2 s without). The dependencies are the test builds' but where
/// a dev-dependency asks a shared one for more features (resolver 2): that
/// one is built once more, on a first run.
pub fn diagnose_code(request: &BuildRequest) -> Result<Vec<CompileError>> {
    let mut command = cargo_for(&["build"], request);
    command.arg("--message-format=json");
    diagnostics(command, request.budget)
}

/// The errors and warnings of a cargo build `command`.
fn diagnostics(command: Command, budget: Budget) -> Result<Vec<CompileError>> {
    Ok(match compile(command, budget, &mut |_| {}, true)? {
        BuildOutcome::Built(_) => Vec::new(),
        BuildOutcome::Failed { errors, .. } => errors,
    })
}

/// Runs a cargo build command with JSON messages: its test executables, or
/// its errors (and with `warnings`, its warnings: then the outcome is always
/// `Failed`, holding them).
fn compile(
    command: Command,
    budget: Budget,
    on_artifact: &mut dyn FnMut(&str),
    warnings: bool,
) -> Result<BuildOutcome> {
    let mut executables = Vec::new();
    let mut errors = Vec::new();
    let (finished, _) = process::run_streaming(command, None, budget, |line| {
        let Ok(message) = serde_json::from_str::<Message>(line) else {
            return;
        };
        match message {
            Message::CompilerArtifact(artifact) => {
                on_artifact(&artifact.target.name);
                if let Some(path) = artifact.executable
                    && artifact.profile.test
                {
                    executables.push(TestExecutable {
                        package: package_name(&artifact.package_id.repr),
                        target: artifact.target.name.clone(),
                        kind: Kind::from_cargo(&artifact.target.kind),
                        path: path.into_std_path_buf(),
                    });
                }
            }
            Message::CompilerMessage(message)
                if matches!(
                    message.message.level,
                    DiagnosticLevel::Error | DiagnosticLevel::Ice
                ) || (warnings && message.message.level == DiagnosticLevel::Warning) =>
            {
                errors.push(compile_error(&message.message));
            }
            _ => {}
        }
    })?;
    if finished.success() && !warnings {
        executables.sort_by(|a, b| (a.kind, &a.target).cmp(&(b.kind, &b.target)));
        return Ok(BuildOutcome::Built(executables));
    }
    let summary = finished
        .stderr
        .lines()
        .find(|line| line.starts_with("error"))
        .unwrap_or("cargo test --no-run failed")
        .trim_start_matches("error: ")
        .to_string();
    Ok(BuildOutcome::Failed { errors, summary })
}

/// The package name in a package id as cargo's messages write it:
/// `path+file:///dir/name#1.0.0`, `path+file:///dir#name@1.0.0`, or (before
/// cargo 1.77) `name 1.0.0 (path+file:///dir)`.
fn package_name(id: &str) -> String {
    if let Some((name, _)) = id.split_once(' ') {
        return name.to_string();
    }
    let (url, fragment) = id.split_once('#').unwrap_or((id, ""));
    match fragment.split_once('@') {
        Some((name, _)) => name.to_string(),
        None => url.rsplit('/').next().unwrap_or(url).to_string(),
    }
}

fn compile_error(diagnostic: &cargo_metadata::diagnostic::Diagnostic) -> CompileError {
    let primary = diagnostic.spans.iter().find(|span| span.is_primary);
    let mut spans: Vec<&cargo_metadata::diagnostic::DiagnosticSpan> = primary.into_iter().collect();
    let mut pending: Vec<&cargo_metadata::diagnostic::Diagnostic> = vec![diagnostic];
    while let Some(next) = pending.pop() {
        spans.extend(next.spans.iter().filter(|s| Some(*s) != primary));
        pending.extend(&next.children);
    }
    // A span inside a macro expansion also stands for the macro call that
    // expanded to it (and that call for its own caller...).
    let mut located = Vec::new();
    for span in spans {
        let mut next = Some(span);
        while let Some(span) = next {
            located.push((
                span.file_name.clone(),
                span.byte_start as usize..span.byte_end as usize,
            ));
            next = span.expansion.as_ref().map(|expansion| &expansion.span);
        }
    }
    CompileError {
        message: diagnostic.message.clone(),
        file: primary.map(|span| span.file_name.clone()),
        line: primary.map(|span| span.line_start),
        spans: located,
        label: primary
            .into_iter()
            .chain(&diagnostic.spans)
            .find_map(|span| span.label.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cargo matches the URL against the manifest's directory as given, a
    /// space as it is, `#` and `%` escaped (checked with `cargo pkgid`).
    #[cfg(unix)]
    #[test]
    fn the_package_is_named_by_its_directory_with_what_a_url_cannot_hold_escaped() {
        let features = CargoFlags::default();
        let request = |manifest_path| BuildRequest {
            manifest_path,
            package: "app",
            version: "0.1.0",
            also: &[],
            cargo: &features,
            target_dir: Path::new("/target"),
            cap_lints: false,
            budget: Budget::unlimited(),
        };
        assert_eq!(
            package_spec(&request(Path::new("/tmp/a b#1%/Cargo.toml"))),
            "file:///tmp/a b%231%25#app@0.1.0"
        );
        assert_eq!(package_spec(&request(Path::new("Cargo.toml"))), "app@0.1.0");
    }

    #[test]
    fn package_names_are_read_from_ids() {
        assert_eq!(package_name("path+file:///w/calendar#0.1.0"), "calendar");
        assert_eq!(
            package_name("path+file:///w/dir#percent-encoding@2.3.2"),
            "percent-encoding"
        );
        assert_eq!(
            package_name("calendar 0.1.0 (path+file:///w/calendar)"),
            "calendar"
        );
        assert_eq!(
            package_name("registry+https://github.com/rust-lang/crates.io-index#hex@0.4.3"),
            "hex"
        );
    }

    #[test]
    fn capped_lints_let_a_denied_warning_build_and_share_the_dependencies() {
        let temp = tempfile::tempdir().unwrap();
        let (app, dep) = (temp.path().join("app"), temp.path().join("dep"));
        for (dir, manifest, lib) in [
            (
                &app,
                "[package]\nname = \"app\"\nedition = \"2021\"\n[dependencies]\ndep = { path = \"../dep\" }\n",
                "#![deny(unused_variables)]\npub fn f() -> u8 { let unused = 1; dep::g() }\n",
            ),
            (
                &dep,
                "[package]\nname = \"dep\"\nedition = \"2021\"\n",
                "pub fn g() -> u8 { 2 }\n",
            ),
        ] {
            std::fs::create_dir_all(dir.join("src")).unwrap();
            std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
            std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
        }
        let manifest_path = app.join("Cargo.toml");
        let target_dir = temp.path().join("target");
        let features = CargoFlags::default();
        let request = |cap_lints| BuildRequest {
            manifest_path: &manifest_path,
            package: "app",
            version: "0.0.0",
            also: &[],
            cargo: &features,
            target_dir: &target_dir,
            cap_lints,
            budget: Budget::unlimited(),
        };
        let denied = build_tests(&request(false), None, |_| {}).unwrap();
        assert!(
            matches!(&denied, BuildOutcome::Failed { errors, .. } if errors.iter().any(|e| e.message.contains("unused"))),
            "{denied:?}"
        );
        let capped = build_tests(&request(true), None, |_| {}).unwrap();
        assert!(matches!(capped, BuildOutcome::Built(_)), "{capped:?}");
        // The dependency was built once, for both (not so with the cap in
        // RUSTFLAGS, which only a workspace wrapper of the user's brings).
        if std::env::var_os("RUSTC_WORKSPACE_WRAPPER").is_none() {
            let builds = std::fs::read_dir(target_dir.join("debug/deps"))
                .unwrap()
                .flatten()
                .filter(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.starts_with("libdep-") && name.ends_with(".rlib")
                })
                .count();
            assert_eq!(builds, 1);
        }
    }

    #[test]
    fn merged_doctests_compile_as_one_executable_in_an_earlier_edition() {
        let temp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(temp.path().join("src")).unwrap();
        let manifest_path = temp.path().join("Cargo.toml");
        std::fs::write(
            &manifest_path,
            "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2018\"\n",
        )
        .unwrap();
        let doc = |n: u32| format!("/// ```\n/// assert_eq!(tiny::f({n}), {n});\n/// ```\n");
        let lib = format!("{}{}pub fn f(x: u32) -> u32 {{ x }}\n", doc(1), doc(2));
        std::fs::write(temp.path().join("src/lib.rs"), lib).unwrap();
        let target_dir = temp.path().join("target");
        let features = CargoFlags::default();
        let request = BuildRequest {
            manifest_path: &manifest_path,
            package: "tiny",
            version: "0.1.0",
            also: &[],
            cargo: &features,
            target_dir: &target_dir,
            cap_lints: false,
            budget: Budget::unlimited(),
        };
        let run = |doctests| {
            let finished = run_doctests(&request, None, doctests).unwrap();
            assert!(finished.success(), "{}", finished.stderr);
            assert!(finished.stdout.contains("2 passed"), "{}", finished.stdout);
            doctests_merged(&finished)
        };
        assert!(run(Doctests::Merged));
        assert!(!run(Doctests::AsCargo));
    }

    #[test]
    fn nextest_failures_are_read_from_its_output() {
        let output = "        PASS [   0.003s] (1/6) middle tests::middle_1_2_3\n        FAIL [   0.445s] (6/6) middle tests::middle_2_1_3\n     TIMEOUT [  60.001s] middle::api slow_one\n     SIGSEGV [   0.010s] middle tests::crash\n     Summary [   0.447s] 6 tests run: 5 passed, 1 failed, 0 skipped\n        FAIL [   0.445s] (6/6) middle tests::middle_2_1_3\nerror: test run failed\n";
        let failed: Vec<String> = nextest_failures(output).into_iter().collect();
        assert_eq!(failed, ["slow_one", "tests::crash", "tests::middle_2_1_3"]);
    }
}
