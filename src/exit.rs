//! Exit codes, and the error type that carries one to `main`.
//!
//! Every failure the user can act on is a [`Failure`]: one line of text and a
//! documented [`Exit`] code. Anything else that goes wrong is an internal error
//! (exit code 1) with its context chain.

use std::fmt;

/// The documented exit codes of `cargo autofix` (see README and `--help`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The ranking was printed, or a validated patch was found.
    Success = 0,
    /// An internal error: a bug in cargo-autofix or an unexpected I/O failure.
    Internal = 1,
    /// The command line was invalid (clap's own code); `reduce`: no test
    /// has the name given.
    Usage = 2,
    /// No cargo package here: no `Cargo.toml`, or `--manifest-path` does not exist.
    NoPackage = 3,
    /// The package to work on is ambiguous or unknown (workspace without `-p`).
    PackageSelection = 4,
    /// The crate or its tests do not build before any change.
    BuildFailed = 5,
    /// Nothing to localize: the crate has no tests, every test passes, or every
    /// failing test is flaky;
    /// `reduce`: the test passes, or cannot be reduced.
    NothingToLocalize = 6,
    /// The search ended without a validated patch (also: the time limit ran out).
    NoPatchFound = 7,
    /// An output file (`-o`, `--report`, `--html`) cannot be written.
    Output = 8,
    /// `validate`: a patch cannot be read, or no given patch applies.
    BadPatch = 9,
    /// `bisect`: the revision is unknown, not in a git repository, or the
    /// library's sources did not change since it.
    BadRevision = 10,
    /// The disk of the temp dir is full: a child's output, or a scratch
    /// copy, did not fit.
    DiskFull = 11,
    /// A module of the crate lives outside the workspace (a `#[path]`
    /// leading out of it), where the scratch copy cannot hold it.
    ModuleOutside = 12,
    /// A validated patch was found, but only `plausible`: something speaks
    /// against it (its reasons are printed and in the report).
    OnlyPlausible = 13,
    /// Stopped by SIGHUP; child processes were killed, scratch files removed.
    HungUp = 129,
    /// Interrupted by Ctrl-C (SIGINT); child processes were killed, scratch files removed.
    Interrupted = 130,
    /// Stopped by SIGTERM; child processes were killed, scratch files removed.
    Terminated = 143,
}

impl Exit {
    pub fn code(self) -> i32 {
        self as i32
    }

    /// What the code means, in a few words (as in [`EXIT_CODES_HELP`]).
    pub fn meaning(self) -> &'static str {
        match self {
            Exit::Success => "success",
            Exit::Internal => "internal error",
            Exit::Usage => "invalid arguments",
            Exit::NoPackage => "no cargo package found",
            Exit::PackageSelection => "package selection",
            Exit::BuildFailed => "the crate or its tests do not build before any change",
            Exit::NothingToLocalize => {
                "nothing to localize: no tests, every test passes, or every failing test is flaky"
            }
            Exit::NoPatchFound => "no patch found within the budget",
            Exit::Output => "an output file cannot be written",
            Exit::BadPatch => "a patch cannot be read, or none applies",
            Exit::BadRevision => "bad revision",
            Exit::DiskFull => "no space left in the temp dir",
            Exit::ModuleOutside => "a module outside the workspace",
            Exit::OnlyPlausible => "a patch found, but only plausible",
            Exit::HungUp | Exit::Interrupted | Exit::Terminated => "stopped",
        }
    }
}

/// An error the user can act on: one line, one exit code.
#[derive(Debug)]
pub struct Failure {
    pub exit: Exit,
    pub message: String,
}

impl Failure {
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        Failure {
            exit,
            message: message.into(),
        }
    }

    /// The run was stopped by a signal (`exit` says which).
    pub fn interrupted(exit: Exit) -> Self {
        let by = match exit {
            Exit::HungUp => " by SIGHUP",
            Exit::Terminated => " by SIGTERM",
            _ => "",
        };
        Failure::new(
            exit,
            format!("interrupted{by}: child processes stopped, scratch copy removed"),
        )
    }

    /// Whether `error` is (or was caused by) a failure that exits with `exit`.
    pub fn is(error: &anyhow::Error, exit: Exit) -> bool {
        error
            .chain()
            .any(|c| c.downcast_ref::<Failure>().is_some_and(|f| f.exit == exit))
    }
}

/// Why a run stopped early at the user's word, if `error` says it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// A signal (Ctrl-C, SIGTERM, SIGHUP): the exit code it ends with.
    Signal(Exit),
    /// `--time-limit` ran out.
    TimeLimit,
}

impl Halt {
    /// Whether `error` (or its cause) is a halt, and which.
    pub fn of(error: &anyhow::Error) -> Option<Halt> {
        error.chain().find_map(|cause| {
            if cause.downcast_ref::<TimeUp>().is_some() {
                return Some(Halt::TimeLimit);
            }
            let failure = cause.downcast_ref::<Failure>()?;
            matches!(
                failure.exit,
                Exit::HungUp | Exit::Interrupted | Exit::Terminated
            )
            .then_some(Halt::Signal(failure.exit))
        })
    }
}

impl Halt {
    /// The error that ends the run with this halt.
    pub fn into_error(self) -> anyhow::Error {
        match self {
            Halt::Signal(exit) => Failure::interrupted(exit).into(),
            Halt::TimeLimit => TimeUp.into(),
        }
    }
}

/// The time limit ran out: the process that was running was killed, and
/// no new one starts. The repair turns it into its best result so far;
/// elsewhere it ends the run with exit code 7.
#[derive(Debug, Clone, Copy)]
pub struct TimeUp;

impl fmt::Display for TimeUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the time limit was reached before a patch was found")
    }
}

impl std::error::Error for TimeUp {}

/// What `error` means to the user: its exit code and one line (a
/// [`Failure`]'s own; a halt's; an internal error's context chain). The
/// binary prints it; the MCP server returns it as a tool error.
pub fn described(error: &anyhow::Error) -> Failure {
    if let Some(failure) = error.chain().find_map(|c| c.downcast_ref::<Failure>()) {
        return Failure::new(failure.exit, failure.message.clone());
    }
    match Halt::of(error) {
        Some(Halt::TimeLimit) => Failure::new(Exit::NoPatchFound, TimeUp.to_string()),
        // A signal that stopped a command with nothing to keep.
        Some(Halt::Signal(exit)) => Failure::interrupted(exit),
        None => Failure::new(Exit::Internal, format!("{error:#}")),
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// The exit code table as it appears in `--help` and the README.
pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0    ranking printed, or a validated patch printed that is likely the fix
  1    internal error
  2    invalid command line; reduce: no test has that name
  3    no cargo package found (no Cargo.toml, or --manifest-path does not exist)
  4    package selection: a workspace with several packages and neither -p nor
       --workspace, or an unknown -p
  5    the crate or its tests do not build before any change
  6    nothing to localize: no tests, every test passes, or every failing test is
       flaky; reduce: the test passes, or cannot be reduced
  7    no patch found within the budget (or the time limit ran out); validate: no patch
       passes every test
  8    an output file (-o, --report, --html) cannot be written
  9    validate: a patch cannot be read, or no given patch applies
  10   bisect: no such revision in a git repository, or no change of the library since it
  11   no space left in the temp dir (TMPDIR) for scratch copies and captured output
  12   a module of the crate lives outside the workspace (a #[path] leading out of it)
  13   a validated patch printed, but only plausible: something speaks against it (the
       reasons are printed); review it before you apply it
  129  stopped by SIGHUP
  130  interrupted (Ctrl-C)
  143  stopped by SIGTERM";
