//! The one place that draws on the terminal: status lines, warnings and
//! progress bars on stderr (indicatif). The product goes to stdout elsewhere.

use std::fmt::Display;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Stderr output, quiet or not.
#[derive(Debug, Clone, Copy)]
pub struct Console {
    pub quiet: bool,
}

impl Console {
    /// A cargo-style status line: a right-aligned verb, then the message.
    pub fn status(&self, verb: &str, message: impl Display) {
        if !self.quiet {
            eprintln!("{verb:>12} {message}");
        }
    }

    /// Warnings are shown even when quiet.
    pub fn warn(&self, message: impl Display) {
        eprintln!("warning: {message}");
    }

    pub fn note(&self, message: impl Display) {
        if !self.quiet {
            eprintln!("note: {message}");
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
        Progress { bar }
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
        Progress { bar }
    }

    fn draw_target(&self) -> ProgressDrawTarget {
        if self.quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        }
    }
}

/// A live progress bar or spinner; cleared when dropped.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// Prints a line above the bar without tearing it.
    pub fn println(&self, line: impl AsRef<str>) {
        self.bar.suspend(|| eprintln!("{}", line.as_ref()));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
