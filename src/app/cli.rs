//! The command line, as clap parses it. Validated into [`crate::app::options::Options`]
//! before anything runs.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::exit::EXIT_CODES_HELP;

const ABOUT: &str = "Find the lines most likely to cause failing tests, and search for a patch that makes every test pass";

// One line per paragraph: clap wraps them to the terminal's width.
const LONG_ABOUT: &str = "\
Find the lines most likely to cause failing tests, and search for a patch that makes every test pass.

cargo autofix runs the package's tests in a scratch copy with line coverage, and scores every executed line by how strongly it goes with the failing tests (spectrum-based fault localization; Ochiai by default). `--rank-only` prints that ranking. Without it, a sweep tries every single edit at the most suspicious lines, most suspicious first, and, if none makes every test pass, a genetic search combines edits. The best candidate is reduced to its essential edits, validated with `cargo test` on a clean copy, and printed as a unified diff for `git apply`. The user's files are never modified.

Settings can also come from `[package.metadata.autofix]` in Cargo.toml or an `autofix.toml` beside it (keys as the long options, e.g. `population = 60`); the command line wins.";

#[derive(Debug, Clone, Parser)]
#[command(name = "cargo-autofix", bin_name = "cargo autofix", version, about = ABOUT, long_about = LONG_ABOUT, after_help = EXIT_CODES_HELP, allow_negative_numbers = true)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Only rank the suspicious lines; do not search for a fix
    #[arg(global = true, long)]
    pub rank_only: bool,

    /// Show the top suspects with their dynamic dependencies in a failing run (with --format dot:
    /// the dependency graph of each group's slice, for Graphviz); do not search for a fix
    #[arg(global = true, long)]
    pub explain: bool,

    /// Path to Cargo.toml
    #[arg(
        global = true,
        long,
        value_name = "PATH",
        help_heading = "Package Selection"
    )]
    pub manifest_path: Option<PathBuf>,

    /// Package whose tests run (required in a workspace with several packages); the members
    /// it depends on by path are ranked and repaired with it
    #[arg(
        global = true,
        short = 'p',
        long,
        value_name = "NAME",
        help_heading = "Package Selection"
    )]
    pub package: Option<String>,

    /// Run the tests of every workspace member, and rank and repair the code of every member
    #[arg(
        global = true,
        long,
        conflicts_with = "package",
        help_heading = "Package Selection"
    )]
    pub workspace: bool,

    /// Assert that `Cargo.lock` will remain unchanged
    #[arg(global = true, long, help_heading = "Manifest Options")]
    pub locked: bool,

    /// Run without accessing the network
    #[arg(global = true, long, help_heading = "Manifest Options")]
    pub offline: bool,

    /// Equivalent to specifying both --locked and --offline
    #[arg(global = true, long, help_heading = "Manifest Options")]
    pub frozen: bool,

    /// Space or comma separated list of features to activate
    #[arg(
        global = true,
        short = 'F',
        long,
        value_name = "FEATURES",
        help_heading = "Feature Selection"
    )]
    pub features: Vec<String>,

    /// Activate all available features
    #[arg(global = true, long, help_heading = "Feature Selection")]
    pub all_features: bool,

    /// Directory for all generated artifacts; scratch builds go to its `autofix/` [default: the workspace's target dir]
    #[arg(
        global = true,
        long,
        value_name = "DIR",
        help_heading = "Compilation Options"
    )]
    pub target_dir: Option<PathBuf>,

    /// Do not activate the `default` feature
    #[arg(global = true, long, help_heading = "Feature Selection")]
    pub no_default_features: bool,

    /// Build the dependencies (not the workspace's members) optimized (opt-level 1) in the
    /// scratch builds: a one-time rebuild of them, then faster tests where the tests spend their
    /// time in dependency code (property tests, random generators). Your own builds are untouched
    #[arg(global = true, long, help_heading = "Compilation Options")]
    pub optimize_dependencies: bool,

    /// Measure everything again: read nothing kept in target/autofix/cache from an earlier run on
    /// the same sources (the tests' coverage, the type probes, predicate switching, the mutation
    /// refinement), and keep nothing. For tests whose outcome depends on more than the package's
    /// files (the environment, the clock, files elsewhere)
    #[arg(global = true, long)]
    pub no_cache: bool,

    /// Suspiciousness metric: ochiai, tarantula, dstar, op2, jaccard [default: ochiai]
    #[arg(
        global = true,
        long,
        value_name = "NAME",
        help_heading = "Localization"
    )]
    pub metric: Option<String>,

    /// What sharpens the ranking, comma separated: slices (prefer lines in the dynamic slice of
    /// every failing test of a group), crash (prefer the line where a group's tests panicked in
    /// the crate's own code: an index out of bounds, an overflow, an unwrap), switching (prefer conditions whose flip makes a failing test
    /// pass), mutation (try the repair's single edits at the top 10 lines of each ranking, at
    /// lines binding a variable the compiler warns is unused, and further down while no edit fixes
    /// a whole failure group, and put lines where an edit fixes a failing test without breaking a
    /// passing one first; --rank-only and
    /// --explain only), feedback (the repair learns where edits help), predicates (record conditions'
    /// outcomes and values' signs per test, rank them and learn a decision tree; --rank-only and
    /// --explain only); all or none [default: all]
    #[arg(
        global = true,
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Localization"
    )]
    pub refine: Option<Vec<String>>,

    /// How many lines the ranking shows (0 shows all; lines tied with the last one are counted
    /// below it) [default: 20; --format github and sarif: 10, lines of a positive score only]
    #[arg(global = true, long, value_name = "N", help_heading = "Output")]
    pub top: Option<usize>,

    /// Output format on stdout
    #[arg(global = true, long, value_enum, default_value_t = Format::Text, help_heading = "Output")]
    pub format: Format,

    /// Also write a self-contained HTML page of the ranked files, coloured by suspiciousness
    #[arg(global = true, long, value_name = "FILE", help_heading = "Output")]
    pub html: Option<PathBuf>,

    /// Coloring on stderr: auto, always, never [default: auto, or CARGO_TERM_COLOR]
    #[arg(
        global = true,
        long,
        value_name = "WHEN",
        value_parser = ["auto", "always", "never"],
        help_heading = "Output"
    )]
    pub color: Option<String>,

    /// Print only warnings and errors on stderr
    #[arg(global = true, short, long, help_heading = "Output")]
    pub quiet: bool,

    /// Say more on stderr: -v the details of each stage (what was typed, probed, switched,
    /// learned; each generation of the search), -vv also every cargo command run
    #[arg(global = true, short, long, action = clap::ArgAction::Count, conflicts_with = "quiet", help_heading = "Output")]
    pub verbose: u8,

    /// Tests run in parallel while localizing, and repair workers (each with its own scratch copy);
    /// at most the number of CPUs [default: number of CPUs]
    #[arg(
        global = true,
        short = 'j',
        long,
        value_name = "N",
        help_heading = "Test Execution"
    )]
    pub jobs: Option<usize>,

    /// Seconds a test may run before it is killed and counted as timed out [default: 60]
    #[arg(
        global = true,
        long,
        value_name = "SECS",
        help_heading = "Test Execution"
    )]
    pub test_timeout: Option<f64>,

    /// What runs the final validation of a patch: cargo (cargo test) or nextest (cargo nextest
    /// run, then the doctests with cargo test --doc) [default: cargo]
    #[arg(
        global = true,
        long,
        value_name = "TOOL",
        help_heading = "Test Execution"
    )]
    pub test_tool: Option<String>,

    /// Seed of the random choices: the same seed repeats the same search [default: 0]
    #[arg(global = true, long, value_name = "N", help_heading = "Repair")]
    pub seed: Option<u64>,

    /// Candidates per generation, 2 to 10000 [default: 40]
    #[arg(global = true, long, value_name = "N", help_heading = "Repair")]
    pub population: Option<usize>,

    /// Generations to evolve at most [default: 20]
    #[arg(global = true, long, value_name = "N", help_heading = "Repair")]
    pub generations: Option<usize>,

    /// Seconds the whole repair may take, from start to patch; no process runs past it (allow 5 s
    /// for cleanup; 0: no limit) [default: 600]
    #[arg(global = true, long, value_name = "SECS", help_heading = "Repair")]
    pub time_limit: Option<f64>,

    /// Fitness weight of the originally passing tests [default: 0.99]
    #[arg(global = true, long, value_name = "W", help_heading = "Repair")]
    pub weight_passing: Option<f64>,

    /// Fitness weight of the originally failing tests [default: 0.01]
    #[arg(global = true, long, value_name = "W", help_heading = "Repair")]
    pub weight_failing: Option<f64>,

    /// Mutation operators to use, comma separated: operator, grouping, overflow, bounds, condition,
    /// value, member, method, variant, arm, jump, range, ends, identifier, offset, term, slice,
    /// extend, arguments, idiom, parallel, synthesis, twin, prior, reset, fields, precondition,
    /// delete, guard, swap, insert, adapted [default: all]
    #[arg(
        global = true,
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Repair"
    )]
    pub operators: Option<Vec<String>>,

    /// Never mutate this file (relative to the workspace root; a directory ends in `/`) or this
    /// function (a name); may be repeated
    #[arg(global = true, long, value_name = "PATH|FN", help_heading = "Repair")]
    pub exclude: Vec<String>,

    /// How candidates are built: `schema` weaves a whole generation into one build, each candidate
    /// selected at run time; `rebuild` builds each candidate on its own [default: schema]
    #[arg(global = true, long, value_name = "KIND", help_heading = "Repair")]
    pub evaluator: Option<String>,

    /// Evaluate only the K-th of N slices (0-based) of the sweep's single edits for the first
    /// failure group, and write their outcomes as JSON (stdout or -o) for `cargo autofix merge`
    #[arg(global = true, long, value_name = "K/N", help_heading = "Repair")]
    pub shard: Option<String>,

    /// Edit only the lines this unified diff changes (`git diff > change.patch`), and mark them in
    /// the ranking: regressions usually live in the last change
    #[arg(global = true, long, value_name = "FILE", help_heading = "Repair")]
    pub in_diff: Option<PathBuf>,

    /// Write the patch to FILE instead of stdout
    #[arg(
        global = true,
        short,
        long,
        value_name = "FILE",
        help_heading = "Output"
    )]
    pub output: Option<PathBuf>,

    /// Write a JSON report of the repair to FILE
    #[arg(global = true, long, value_name = "FILE", help_heading = "Output")]
    pub report: Option<PathBuf>,
}

impl Args {
    pub fn package_query(&self) -> crate::cargo::PackageQuery {
        crate::cargo::PackageQuery {
            manifest_path: self.manifest_path.clone(),
            package: self.package.clone(),
            workspace: self.workspace,
            lockfile: self.lockfile(),
        }
    }

    /// Whether stderr is coloured.
    pub fn color_on_stderr(&self) -> bool {
        crate::system::console::colors(self.color.as_deref())
    }

    /// `--locked`, `--offline`, `--frozen`.
    pub fn lockfile(&self) -> crate::cargo::Lockfile {
        crate::cargo::Lockfile {
            locked: self.locked,
            offline: self.offline,
            frozen: self.frozen,
        }
    }
}

#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Evaluate patches from anywhere (unified diffs) as one batch: which failing tests each
    /// fixes and which passing tests each breaks, best first
    #[command(after_help = VALIDATE_HELP)]
    Validate(ValidateArgs),
    /// Find the part of the change since REV that makes the tests fail (they passed at REV):
    /// delta debugging over the changes of the library's sources
    #[command(after_help = BISECT_HELP)]
    Bisect(BisectArgs),
    /// Repair with the outcomes of the shards' single edits (`--shard K/N` runs) known: the
    /// sweep reads them instead of evaluating, then the repair goes on as usual
    Merge(MergeArgs),
    /// The smallest version of a failing test that still fails the same way: delta debugging over
    /// its statements, then its ifs, conditions and literal arguments
    #[command(after_help = REDUCE_HELP)]
    Reduce(ReduceArgs),
    /// Remove the builds kept between runs (`autofix/` in the package's target dir) and say how
    /// much space that freed; the next run compiles the dependencies again
    Clean,
    /// Serve the ranking, patch validation, the repair and test reduction to coding agents: a
    /// Model Context Protocol server on stdin and stdout, for the package here
    #[command(after_help = MCP_HELP)]
    Mcp,
}

const MCP_HELP: &str = "\
The server speaks JSON-RPC (MCP) on stdin and stdout; status lines and warnings go to stderr and,
for a call that asks for progress, into its progress notifications. Tools: rank, explain,
validate, repair, reduce_test. The package is measured at the first call and kept while its files
do not change; calls run one at a time. The options given here are every call's defaults.
Register it with an agent as the command `cargo` with the arguments `autofix mcp`.";

#[derive(Debug, Clone, clap::Args)]
pub struct MergeArgs {
    /// The shards' JSON outputs, one per shard of one run
    #[arg(value_name = "SHARD", required = true)]
    pub shards: Vec<PathBuf>,
}

const BISECT_HELP: &str = "\
The change of the library's modified source files since REV (git diff REV) is split into its runs of
changed lines; delta debugging finds a maximal set of them with which every test passes and a
minimal set with which the failure occurs. Their difference, the failure-inducing change, is
printed as a unified diff (`git apply -R` undoes it). Added, deleted and renamed files and files
outside the library stay as they are in the working tree.
Exit code 0: found; 10: REV is not a commit of the repository, the library did not change since,
or the tests fail at REV too.";

#[derive(Debug, Clone, clap::Args)]
pub struct BisectArgs {
    /// A git revision at which the tests passed (a commit, a branch, HEAD~3...)
    #[arg(value_name = "REV")]
    pub rev: String,
}

const REDUCE_HELP: &str = "\
Prints the reduced test function, then the reduction as a unified diff of the test's file (the
whole output applies with `git apply`). \"The same way\": the same failure signature as the
failure groups (a panic in the crate by its line, any other by its message pattern) at the same
place. The result is 1-minimal: deleting any remaining statement loses the failure. Your files
are not changed. Exit code 0: reduced; 2: no test has that name; 6: the test passes (or cannot be
reduced: written by a macro, async, with parameters).";

#[derive(Debug, Clone, clap::Args)]
pub struct ReduceArgs {
    /// The failing test, named as cargo autofix prints it: `tests::middle_2_1_3` for a unit test,
    /// `api/two_words` for test `two_words` of integration test target `api`
    #[arg(value_name = "TEST")]
    pub test: String,
}

const VALIDATE_HELP: &str = "\
The patches that pass every test come first, the one that changes least what the passing tests
execute first (the repair's guard against overfitting patches); then the others by fitness.
Exit code 0: some patch passes every test (with --reduce: and its reduced form was validated);
7: none does; 9: no patch applies, or a patch cannot be read.";

#[derive(Debug, Clone, clap::Args)]
pub struct ValidateArgs {
    /// Unified diffs (`git diff` output): files, directories (their *.patch and *.diff files),
    /// or `-` for JSON lines on stdin, one {"name": ..., "patch": ...} per patch
    #[arg(value_name = "PATCH", required = true)]
    pub patches: Vec<PathBuf>,

    /// Reduce the best patch that passes every test to its essential edits (ddmin), validate it
    /// with cargo test on a clean copy, and print it (or write it to -o)
    #[arg(long)]
    pub reduce: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    /// The ranking; after a repair, its report (the patch in `patch`).
    Json,
    /// Graphviz, for `--explain`.
    Dot,
    /// GitHub Actions workflow commands: annotations on the top suspects
    /// (at most 10) and on the patch.
    Github,
    /// SARIF 2.1.0, for code-scanning uploads: the top suspects (--top),
    /// and the patch after a repair.
    Sarif,
}

/// The options every subcommand takes: where the package is, how cargo
/// resolves it, and what goes to stderr.
const EVERY_COMMAND: &[&str] = &[
    "manifest_path",
    "package",
    "workspace",
    "locked",
    "offline",
    "frozen",
    "target_dir",
    "color",
    "quiet",
    "verbose",
];

/// The options of every subcommand that builds and runs the tests.
const TEST_RUNS: &[&str] = &[
    "features",
    "all_features",
    "no_default_features",
    "optimize_dependencies",
    "no_cache",
    "jobs",
    "test_timeout",
    "time_limit",
    "format",
];

/// Whether `subcommand` takes the option `id`: the others are refused, and
/// left out of its `--help`. `merge` is a repair, and takes what a repair
/// takes but the ranking's own and `--shard`.
fn takes(subcommand: &str, id: &str) -> bool {
    let own: &[&str] = match subcommand {
        "validate" => &[
            "test_tool",
            "weight_passing",
            "weight_failing",
            "evaluator",
            "output",
            "report",
        ],
        "bisect" => &["weight_passing", "weight_failing", "evaluator", "output"],
        "reduce" => &[],
        "clean" => return EVERY_COMMAND.contains(&id),
        // Each tool says how it answers: the outputs are its results.
        "mcp" => {
            return ![
                "rank_only",
                "explain",
                "shard",
                "format",
                "top",
                "html",
                "output",
                "report",
                "in_diff",
            ]
            .contains(&id);
        }
        _ => return !["rank_only", "explain", "shard"].contains(&id),
    };
    EVERY_COMMAND.contains(&id) || TEST_RUNS.contains(&id) || own.contains(&id)
}

/// The subcommand the arguments name, if any: the first argument that is
/// not an option or an option's value (`help NAME` names NAME).
fn subcommand_named(command: &clap::Command, args: &[OsString]) -> Option<String> {
    let takes_value = |arg: Option<&clap::Arg>| arg.is_some_and(|a| a.get_action().takes_values());
    let mut tokens = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(token) = tokens.next() {
        if token == "--" {
            return None;
        } else if let Some(long) = token.strip_prefix("--") {
            let arg = command.get_arguments().find(|a| a.get_long() == Some(long));
            if takes_value(arg) {
                tokens.next();
            }
        } else if let Some(shorts) = token.strip_prefix('-').filter(|s| !s.is_empty()) {
            // `-qj 4`, `-j4`: the first short option that takes a value
            // takes the rest of the argument, or else the next one.
            let mut chars = shorts.chars();
            while let Some(short) = chars.next() {
                let arg = command
                    .get_arguments()
                    .find(|a| a.get_short() == Some(short));
                if takes_value(arg) {
                    if chars.as_str().is_empty() {
                        tokens.next();
                    }
                    break;
                }
            }
        } else if token == "help" {
            return tokens.next().map(|name| name.into_owned());
        } else {
            return Some(token.into_owned());
        }
    }
    None
}

/// Parses the process arguments. Cargo runs `cargo-autofix autofix ARGS...`;
/// the extra `autofix` is dropped so both spellings work. A subcommand takes
/// only its own options (see [`takes`]), wherever they are written.
pub fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Args, clap::Error> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == "autofix") {
        args.remove(1);
    }
    let mut command = Args::command();
    let subcommand = subcommand_named(&command, &args)
        .filter(|name| command.get_subcommands().any(|s| s.get_name() == name));
    // Options the subcommand does not take stay with the command before it.
    let foreign: Vec<clap::Id> = match &subcommand {
        Some(name) => command
            .get_arguments()
            .filter(|a| a.is_global_set() && !takes(name, a.get_id().as_str()))
            .map(|a| a.get_id().clone())
            .collect(),
        None => Vec::new(),
    };
    for id in &foreign {
        command = command.mut_arg(id, |a| a.global(false));
    }
    let matches = command.try_get_matches_from_mut(args)?;
    if let Some(name) = &subcommand {
        // Written before the subcommand's name.
        let given = foreign.iter().find(|id| {
            matches.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine)
        });
        if let Some(id) = given {
            let flag = id.as_str().replace('_', "-");
            let message = format!("--{flag} does not go with `{name}`; drop it");
            let kind = clap::error::ErrorKind::ArgumentConflict;
            return Err(match command.find_subcommand_mut(name) {
                Some(subcommand) => subcommand.error(kind, message),
                None => command.error(kind, message),
            });
        }
    }
    Args::from_arg_matches(&matches)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_subcommand_name_is_optional() {
        let via_cargo =
            parse_args(["cargo-autofix", "autofix", "--rank-only"].map(OsString::from)).unwrap();
        let direct = parse_args(["cargo-autofix", "--rank-only"].map(OsString::from)).unwrap();
        assert!(via_cargo.rank_only && direct.rank_only);
    }

    #[test]
    fn clap_definition_is_consistent() {
        Args::command().debug_assert();
    }

    #[test]
    fn the_operators_help_names_every_operator_in_the_sweeps_order() {
        let command = Args::command();
        let argument = command.get_arguments().find(|a| a.get_id() == "operators");
        let help = argument.and_then(|a| a.get_help()).unwrap().to_string();
        let names: Vec<&str> = crate::mutation::Operator::in_sweep_order()
            .map(|o| o.name())
            .collect();
        assert!(
            help.contains(&format!(": {} [", names.join(", "))),
            "{help}"
        );
    }

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        parse_args(
            std::iter::once("cargo-autofix")
                .chain(args.iter().copied())
                .map(OsString::from),
        )
    }

    fn help(args: &[&str]) -> String {
        let error = parse(args).unwrap_err();
        assert_eq!(error.kind(), clap::error::ErrorKind::DisplayHelp);
        error.render().to_string()
    }

    #[test]
    fn a_subcommand_shows_and_takes_only_its_own_options() {
        let reduce = help(&["reduce", "--help"]);
        for shown in [
            "--manifest-path",
            "--jobs",
            "--locked",
            "--color",
            "--verbose",
        ] {
            assert!(reduce.contains(shown), "{shown} missing:\n{reduce}");
        }
        for hidden in ["--population", "--rank-only", "--report", "--html"] {
            assert!(!reduce.contains(hidden), "{hidden} shown:\n{reduce}");
        }
        assert_eq!(help(&["help", "reduce"]), reduce);
        let validate = help(&["-q", "validate", "-h"]);
        assert!(validate.contains("--report") && !validate.contains("--seed"));
        assert!(help(&["--help"]).contains("--population"));

        let after = parse(&["reduce", "t", "--population", "3"]).unwrap_err();
        assert_eq!(after.kind(), clap::error::ErrorKind::UnknownArgument);
        let before = parse(&["--population", "3", "reduce", "t"]).unwrap_err();
        assert_eq!(before.kind(), clap::error::ErrorKind::ArgumentConflict);
        assert!(
            before
                .to_string()
                .contains("--population does not go with `reduce`")
        );

        // An option's value named like a subcommand is a value.
        let args = parse(&["-j", "2", "--manifest-path", "merge", "reduce", "t"]).unwrap();
        assert_eq!(args.jobs, Some(2));
        assert!(matches!(args.command, Some(Command::Reduce(_))));
        let merge = parse(&["merge", "s.json", "--population", "3", "-vv"]).unwrap();
        assert_eq!((merge.population, merge.verbose), (Some(3), 2));
    }
}
