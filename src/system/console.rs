//! The one place that draws on the terminal: status lines, warnings and
//! progress bars on stderr (indicatif), and the product on stdout.

// The one module allowed to print (see `print_stderr` in Cargo.toml).
#![allow(clippy::print_stderr)]

use std::fmt::Display;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::exit::{Context, Result};
use crate::system::Budget;

/// `1st`, `2nd`, `3rd`, `4th`...
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `s` after a count other than one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// When stderr is coloured, as cargo decides it: `--color` (`auto`,
/// `always`, `never`), else `CARGO_TERM_COLOR`, else `auto`: on a terminal,
/// unless `NO_COLOR` is set.
pub fn colors(choice: Option<&str>) -> bool {
    let from_env = std::env::var("CARGO_TERM_COLOR").ok();
    match choice.or(from_env.as_deref()) {
        Some("always") => true,
        Some("never") => false,
        _ => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    }
}

/// `text` in bold and an ANSI colour (`32` green, `31` red, `33` yellow,
/// `36` cyan) when `on`, as cargo writes its status words.
pub fn paint(text: &str, colour: u8, on: bool) -> String {
    if on {
        format!("\x1b[1;{colour}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The `error:` that starts an error line.
pub fn error_prefix(color: bool) -> String {
    format!("{}:", paint("error", 31, color))
}

/// Where status lines and warnings also go, uncoloured, while set (the
/// MCP server's progress notifications): see [`forward`].
type Sink = Box<dyn Fn(&str) + Send>;
static SINK: Mutex<Option<Sink>> = Mutex::new(None);

/// Sends every status line and warning from now on to `sink` too, as
/// well as to stderr; `None` stops it.
pub fn forward(sink: Option<Sink>) {
    *SINK.lock().expect("console sink poisoned") = sink;
}

fn to_sink(line: &str) {
    if let Some(sink) = SINK.lock().ok().as_deref().and_then(Option::as_ref) {
        sink(line);
    }
}

/// Stderr output, quiet or not, coloured or not.
#[derive(Debug, Clone, Copy)]
pub struct Console {
    pub quiet: bool,
    pub color: bool,
    /// `-v` (1) shows how each stage did its work, `-vv` (2) also the
    /// commands run.
    pub verbose: u8,
}

impl Console {
    /// Nothing but warnings, uncoloured: for work whose progress is not
    /// the user's concern.
    pub const QUIET: Console = Console {
        quiet: true,
        color: false,
        verbose: 0,
    };

    /// A status line that only `-v` shows: how a stage did its work, in
    /// the tool's own terms.
    pub fn detail(&self, verb: &str, message: impl Display) {
        if self.verbose > 0 {
            self.status(verb, message);
        }
    }

    /// A cargo-style status line: a right-aligned verb, then the message.
    pub fn status(&self, verb: &str, message: impl Display) {
        to_sink(&format!("{verb} {message}"));
        if !self.quiet {
            eprintln!(
                "{} {message}",
                paint(&format!("{verb:>12}"), 32, self.color)
            );
        }
    }

    /// Warnings are shown even when quiet.
    pub fn warn(&self, message: impl Display) {
        to_sink(&format!("warning: {message}"));
        eprintln!("{}: {message}", paint("warning", 33, self.color));
    }

    /// A block of text (a diff, say) on stderr, shown even when quiet.
    pub fn block(&self, text: &str) {
        eprint!("{text}");
    }

    pub fn note(&self, message: impl Display) {
        if !self.quiet {
            eprintln!("{}: {message}", paint("note", 36, self.color));
        }
    }

    /// A bar over `len` steps; hidden when quiet or when stderr is not a terminal.
    pub fn progress(&self, verb: &str, len: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(len), self.draw_target());
        bar.set_style(
            ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.set_prefix(verb.to_string());
        Progress {
            bar,
            quiet: self.quiet,
        }
    }

    /// A bar over `len` steps of long work, the message after the count,
    /// and the time left: the rate so far's estimate, or `budget`'s if
    /// that ends first. Hidden when quiet or when stderr is not a terminal
    /// (a status line before and after says what it did).
    pub fn counter(&self, verb: &str, len: u64, budget: Budget) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(len), self.draw_target());
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>12} [{bar:25}] {pos}/{len} {msg} · {left} ({elapsed})",
            )
            .expect("valid template")
            .progress_chars("=> ")
            .with_key(
                "left",
                move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let estimate = (state.pos() > 0).then(|| state.eta());
                    let left = match (estimate, budget.left()) {
                        (Some(eta), Some(limit)) => Some(eta.min(limit)),
                        (eta, limit) => eta.or(limit),
                    };
                    let _ = match left {
                        Some(left) => write!(out, "{} left", short_duration(left)),
                        None => write!(out, "time left unknown"),
                    };
                },
            ),
        );
        bar.set_prefix(verb.to_string());
        bar.enable_steady_tick(Duration::from_millis(250));
        Progress {
            bar,
            quiet: self.quiet,
        }
    }

    /// A spinner for work of unknown length.
    pub fn spinner(&self, verb: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(None, self.draw_target());
        bar.set_style(
            ProgressStyle::with_template("{prefix:>12} {spinner} {msg} ({elapsed})")
                .expect("valid template"),
        );
        bar.set_prefix(verb.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress {
            bar,
            quiet: self.quiet,
        }
    }

    fn draw_target(&self) -> ProgressDrawTarget {
        if self.quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        }
    }
}

/// `1h 02m`, `3m 05s`, `42s`: a time left, to the second.
pub fn short_duration(duration: Duration) -> String {
    let seconds = duration.as_secs();
    match (seconds / 3600, seconds / 60 % 60, seconds % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m {s:02}s"),
        (h, m, _) => format!("{h}h {m:02}m"),
    }
}

/// `-vv`: a command about to run, as cargo shows one (`Running` and the
/// command line, with the environment it is given).
pub fn echo(command: &std::process::Command) {
    let mut line: Vec<String> = command
        .get_envs()
        .filter_map(|(key, value)| {
            Some(format!(
                "{}={}",
                key.to_string_lossy(),
                value?.to_string_lossy()
            ))
        })
        .collect();
    line.push(command.get_program().to_string_lossy().into_owned());
    line.extend(command.get_args().map(|a| a.to_string_lossy().into_owned()));
    eprintln!("{:>12} `{}`", "Running", line.join(" "));
}

/// Writes the product (a ranking, a patch) to stdout; a closed pipe (`| head`)
/// is not an error.
pub fn write_product(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}

/// A live progress bar or spinner; cleared when dropped.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    quiet: bool,
}

impl Progress {
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    pub fn set_position(&self, position: u64) {
        self.bar.set_position(position);
    }

    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// Prints a status line above the bar without tearing it (unless quiet).
    pub fn println(&self, line: impl AsRef<str>) {
        if !self.quiet {
            self.bar.suspend(|| eprintln!("{}", line.as_ref()));
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
