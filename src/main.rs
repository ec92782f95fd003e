//! The `cargo-autofix` binary: parses the command line, runs, and turns the
//! outcome into a documented exit code.

use std::process::ExitCode;

use cargo_autofix::{colors, error_prefix, install_interrupt_handler, parse_args, run};

// The error line is the binary's own output (see `print_stderr` in Cargo.toml).
#[allow(clippy::print_stderr)]
fn main() -> ExitCode {
    let args = match parse_args(std::env::args_os()) {
        Ok(args) => args,
        Err(error) => {
            if error.use_stderr() {
                let line = one_line(&error.render().to_string());
                let line = line.strip_prefix("error:").unwrap_or(&line);
                eprintln!("{}{line}", error_prefix(colors(color_asked().as_deref())));
            } else {
                // --help, --version
                let _ = error.print();
            }
            return ExitCode::from(error.exit_code() as u8);
        }
    };
    let prefix = error_prefix(args.color_on_stderr());
    let outcome = install_interrupt_handler().and_then(|()| {
        let cwd = std::env::current_dir()?;
        run(args, &cwd)
    });
    let exit = match outcome {
        Ok(exit) => exit,
        Err(error) => {
            eprintln!("{prefix} {error}");
            error.exit()
        }
    };
    ExitCode::from(exit.code() as u8)
}

/// clap's error in one line: its first line and its tips, without the
/// usage block.
/// The `--color` of a command line clap refused, if it says one.
fn color_asked() -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .enumerate()
        .find_map(|(i, arg)| match arg.strip_prefix("--color") {
            Some(value) if value.starts_with('=') => Some(value[1..].to_string()),
            Some("") => args.get(i + 1).cloned(),
            _ => None,
        })
}

fn one_line(rendered: &str) -> String {
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("error: invalid command line");
    let rest: Vec<&str> = lines.collect();
    let tips: String = rest
        .iter()
        .filter(|l| l.starts_with("tip:"))
        .map(|tip| format!(" ({tip})"))
        .collect();
    // A subcommand's error points at that subcommand's help.
    let command = rest
        .iter()
        .find_map(|l| l.strip_prefix("Usage: cargo autofix "))
        .and_then(|usage| usage.split_whitespace().next())
        .filter(|word| word.chars().all(|c| c.is_ascii_lowercase()))
        .map_or(String::new(), |name| format!(" {name}"));
    format!("{first}{tips}; see `cargo autofix{command} --help`")
}
