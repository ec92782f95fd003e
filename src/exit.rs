//! Exit codes, and the error type that carries one to `main`.
//!
//! [`Error`] is the crate's one error type, in three kinds: a [`Failure`]
//! the user can act on (one line of text and a documented [`Exit`] code),
//! a [`Halt`] (a signal or the time limit, which callers catch to keep
//! what they found so far), and an internal error (exit code 1) with its
//! context chain. [`Error::exit`] maps each to its exit code.

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
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Why a run stopped early at the user's word: what `?` carries up to
/// whoever keeps the best result so far, then to `main` (dropping, and so
/// deleting, every scratch directory on the way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// A signal (Ctrl-C, SIGTERM, SIGHUP): the exit code it ends with.
    Signal(Exit),
    /// `--time-limit` ran out: the process that was running was killed,
    /// and no new one starts. The repair turns it into its best result so
    /// far; elsewhere it ends the run with exit code 7.
    TimeLimit,
}

impl Halt {
    /// The exit code a run that ends with this halt ends with.
    pub fn exit(self) -> Exit {
        match self {
            Halt::Signal(exit) => exit,
            Halt::TimeLimit => Exit::NoPatchFound,
        }
    }
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::Signal(exit) => {
                let by = match exit {
                    Exit::HungUp => " by SIGHUP",
                    Exit::Terminated => " by SIGTERM",
                    _ => "",
                };
                write!(
                    f,
                    "interrupted{by}: child processes stopped, scratch copy removed"
                )
            }
            Halt::TimeLimit => f.write_str("the time limit was reached before a patch was found"),
        }
    }
}

/// Every error of the crate, whichever layer raised it. Callers tell the
/// variants apart with `match` (never by downcasting), and [`Error::exit`]
/// is the one place that maps an error to its exit code.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A condition the user can act on: one line, one exit code.
    #[error("{0}")]
    Failure(Failure),
    /// The run was stopped: a signal, or the time limit.
    #[error("{0}")]
    Halt(Halt),
    /// Anything else: a bug or an unexpected I/O failure, with its context
    /// chain (printed on one line, outermost first).
    #[error("{0:#}")]
    Internal(anyhow::Error),
}

/// A result whose error is the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The exit code the run ends with when this error ends it.
    pub fn exit(&self) -> Exit {
        match self {
            Error::Failure(failure) => failure.exit,
            Error::Halt(halt) => halt.exit(),
            Error::Internal(_) => Exit::Internal,
        }
    }

    /// The halt this error is, if it is one.
    pub fn halt(&self) -> Option<Halt> {
        match self {
            Error::Halt(halt) => Some(*halt),
            _ => None,
        }
    }

    /// What the error means to the user: its exit code and one line (a
    /// [`Failure`]'s own; a halt's; an internal error's context chain).
    /// The binary prints it; the MCP server returns it as a tool error.
    pub fn described(&self) -> Failure {
        match self {
            Error::Failure(failure) => failure.clone(),
            other => Failure::new(other.exit(), other.to_string()),
        }
    }
}

/// A step's result, with a halt (a signal or the time limit) set apart
/// from other errors, which pass through.
pub fn halts<T>(result: Result<T>) -> Result<Result<T, Halt>> {
    match result {
        Ok(value) => Ok(Ok(value)),
        Err(Error::Halt(halt)) => Ok(Err(halt)),
        Err(error) => Err(error),
    }
}

impl From<Failure> for Error {
    fn from(failure: Failure) -> Self {
        Error::Failure(failure)
    }
}

impl From<Halt> for Error {
    fn from(halt: Halt) -> Self {
        Error::Halt(halt)
    }
}

impl From<anyhow::Error> for Error {
    fn from(error: anyhow::Error) -> Self {
        Error::Internal(error)
    }
}

/// Foreign errors that `?` propagates: internal errors.
macro_rules! internal_from {
    ($($foreign:ty),* $(,)?) => {$(
        impl From<$foreign> for Error {
            fn from(error: $foreign) -> Self {
                Error::Internal(error.into())
            }
        }
    )*};
}

internal_from!(
    std::io::Error,
    serde_json::Error,
    walkdir::Error,
    cargo_metadata::Error,
    toml::ser::Error,
);

/// Returns an internal error made of a message, as `anyhow::bail!` does
/// (with the crate's [`Error`]).
macro_rules! bail {
    ($($message:tt)+) => {
        return Err($crate::exit::Error::Internal(anyhow::anyhow!($($message)+)))
    };
}

/// Returns an internal error made of a message unless `condition` holds,
/// as `anyhow::ensure!` does (with the crate's [`Error`]).
macro_rules! ensure {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            $crate::exit::bail!($($message)+);
        }
    };
}

pub(crate) use {bail, ensure};

/// Context for an error on its way up, as `anyhow::Context` gives it, but
/// added to an internal error only: a [`Failure`] or a [`Halt`] passes
/// through unchanged, so that context never hides what the caller matches
/// on, nor changes the failure's one line.
pub trait Context<T> {
    fn context<C>(self, context: C) -> Result<T>
    where
        C: fmt::Display + Send + Sync + 'static;

    fn with_context<C, F>(self, context: F) -> Result<T>
    where
        C: fmt::Display + Send + Sync + 'static,
        F: FnOnce() -> C;
}

impl<T, E: Into<Error>> Context<T> for Result<T, E> {
    fn context<C>(self, context: C) -> Result<T>
    where
        C: fmt::Display + Send + Sync + 'static,
    {
        self.with_context(|| context)
    }

    fn with_context<C, F>(self, context: F) -> Result<T>
    where
        C: fmt::Display + Send + Sync + 'static,
        F: FnOnce() -> C,
    {
        self.map_err(|error| match error.into() {
            Error::Internal(error) => Error::Internal(error.context(context())),
            typed => typed,
        })
    }
}

impl<T> Context<T> for Option<T> {
    fn context<C>(self, context: C) -> Result<T>
    where
        C: fmt::Display + Send + Sync + 'static,
    {
        self.with_context(|| context)
    }

    fn with_context<C, F>(self, context: F) -> Result<T>
    where
        C: fmt::Display + Send + Sync + 'static,
        F: FnOnce() -> C,
    {
        self.ok_or_else(|| Error::Internal(anyhow::anyhow!("{}", context())))
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_has_one_exit_code_and_one_line() {
        let failure = Error::from(Failure::new(Exit::BadPatch, "no given patch applies"));
        assert_eq!(failure.exit(), Exit::BadPatch);
        assert_eq!(failure.to_string(), "no given patch applies");
        let time_up = Error::from(Halt::TimeLimit);
        assert_eq!(time_up.exit(), Exit::NoPatchFound);
        assert_eq!(
            time_up.to_string(),
            "the time limit was reached before a patch was found"
        );
        let hung_up = Error::from(Halt::Signal(Exit::HungUp));
        assert_eq!(hung_up.exit(), Exit::HungUp);
        assert_eq!(
            hung_up.described(),
            Failure::new(
                Exit::HungUp,
                "interrupted by SIGHUP: child processes stopped, scratch copy removed"
            )
        );
        let ctrl_c = Error::from(Halt::Signal(Exit::Interrupted));
        assert_eq!(ctrl_c.exit(), Exit::Interrupted);
        assert_eq!(
            ctrl_c.to_string(),
            "interrupted: child processes stopped, scratch copy removed"
        );
        let internal = Error::from(anyhow::anyhow!("unexpected"));
        assert_eq!(internal.exit(), Exit::Internal);
        assert_eq!(internal.halt(), None);
        assert_eq!(time_up.halt(), Some(Halt::TimeLimit));
    }

    #[test]
    fn context_is_added_to_internal_errors_only() {
        let io: Result<(), std::io::Error> = Err(std::io::Error::other("disk on fire"));
        let error = io.context("cannot write the report").unwrap_err();
        assert_eq!(error.exit(), Exit::Internal);
        assert_eq!(error.to_string(), "cannot write the report: disk on fire");
        // A failure or a halt passes through as it is: still told apart by
        // `match`, with its own exit code and line.
        let failure: Result<()> = Err(Failure::new(Exit::DiskFull, "no space left").into());
        let error = failure.context("cannot create a temp file").unwrap_err();
        assert!(matches!(&error, Error::Failure(f) if f.exit == Exit::DiskFull));
        assert_eq!(error.to_string(), "no space left");
        let halted: Result<()> = Err(Halt::Signal(Exit::Terminated).into());
        let error = halted.with_context(|| "cannot copy the crate").unwrap_err();
        assert_eq!(error.halt(), Some(Halt::Signal(Exit::Terminated)));
        let missing: Option<()> = None;
        let error = missing.context("no failure group").unwrap_err();
        assert_eq!(
            (error.exit(), error.to_string()),
            (Exit::Internal, "no failure group".to_string())
        );
    }

    #[test]
    fn bail_and_ensure_make_internal_errors() {
        fn checked(n: u8) -> Result<u8> {
            ensure!(n < 10, "{n} is too large");
            if n == 0 {
                bail!("zero");
            }
            Ok(n)
        }
        assert_eq!(checked(3).unwrap(), 3);
        assert_eq!(checked(0).unwrap_err().to_string(), "zero");
        let error = checked(12).unwrap_err();
        assert_eq!(
            (error.exit(), error.to_string()),
            (Exit::Internal, "12 is too large".to_string())
        );
    }
}
