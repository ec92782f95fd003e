//! A crate measured and ready: the package found, the options settled
//! (command line over config files over defaults), the baseline measured.
//! `run` starts from one; so do the benchmark and the evaluator tests,
//! through the facade in `lib.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::app::cli::Args;
use crate::app::config;
use crate::app::options::Options;
use crate::baseline::{self, Baseline};
use crate::cargo::TestId;
use crate::cargo::{Kind, Workspace, discover};
use crate::code::source::Location;
use crate::evaluate::FitnessModel;
use crate::evaluate::infer_types;
use crate::evaluate::prepare;
use crate::evaluate::{EvaluatorKind, PreparedEvaluator};
use crate::exit::{Exit, Failure, Result};
use crate::localize::spectrum_of;
use crate::localize::{Suspect, rank_suspects, suspicious_locations};
use crate::mutation::Candidate;
use crate::mutation::Types;
use crate::mutation::course;
use crate::mutation::{MutationSpace, space_of};
use crate::repair::mutator;
use crate::system::console::Console;
use crate::system::scratch;
use crate::system::{Budget, Lock};

/// The package, its options and its baseline.
#[derive(Debug)]
pub struct Session {
    pub options: Options,
    pub baseline: Baseline,
    pub console: Console,
    /// The build lock of the target dir's `autofix/`, held while the
    /// session lives (see [`scratch::lock_target_dir`]).
    pub build_lock: Option<Lock>,
}

impl Session {
    /// Finds the package from `cwd` as `args` say, reads its config files,
    /// settles the options, and measures the baseline.
    pub fn open(args: Args, cwd: &Path) -> Result<Session> {
        let (workspace, options) = Session::settle(args, cwd)?;
        Session::measure(workspace, options, Budget::unlimited())
    }

    /// The package and the options, before anything is built.
    pub fn settle(args: Args, cwd: &Path) -> Result<(Workspace, Options)> {
        let mut workspace = discover(&args.package_query(), cwd)?;
        if let Some(dir) = &args.target_dir {
            workspace.target_dir = cwd.join(dir);
            let scratch_builds = workspace.target_dir.join("autofix");
            std::fs::create_dir_all(&scratch_builds).map_err(|error| {
                Failure::new(
                    Exit::Usage,
                    format!(
                        "--target-dir {} cannot be used ({error}); choose a writable directory",
                        dir.display()
                    ),
                )
            })?;
        }
        let config = config::load(&workspace)?;
        let options = Options::new(args, config)?;
        Ok((workspace, options))
    }

    /// Measures the baseline of a settled package, unless `budget` ends
    /// first (the wait for the build lock too).
    pub fn measure(workspace: Workspace, options: Options, budget: Budget) -> Result<Session> {
        let console = options.console();
        for note in &options.notes {
            console.warn(note);
        }
        let stale = scratch::remove_stale();
        if stale > 0 {
            console.status(
                "Removed",
                format!("{stale} scratch directories left behind by runs that were killed"),
            );
        }
        let target_dir = &workspace.target_dir;
        let build_lock =
            scratch::lock_target_dir(target_dir, budget, |lock| blocked(&console, lock))?;
        let overrides = Default::default();
        let baseline =
            baseline::establish(workspace, &options.baseline, &console, &overrides, budget)?;
        for pattern in options.repair.exclude.unmatched(&baseline.sources) {
            console.warn(format!(
                "the exclusion `{pattern}` (--exclude or `exclude` in the config) names no file and no function of the crate, so it excludes nothing"
            ));
        }
        Ok(Session {
            options,
            baseline,
            console,
            build_lock,
        })
    }

    /// The crate's mutation space and its locations ranked by the plain
    /// spectrum.
    fn space_and_suspects(&self) -> (MutationSpace, Vec<Suspect>) {
        let space = space_of(&self.baseline, &self.options.repair.exclude);
        let suspects = rank_suspects(
            &spectrum_of(&self.baseline, None, &space.constants, &Default::default()),
            self.options.localize.metric,
        );
        (space, suspects)
    }

    /// Up to `count` distinct candidates like those a search makes (one or
    /// two mutations at lines the plain spectrum finds suspicious).
    pub fn sample_candidates(&self, seed: u64, count: usize) -> Vec<Candidate> {
        let originals = self.baseline.sources.originals();
        let (space, suspects) = self.space_and_suspects();
        let types = Types::default();
        mutator(
            &space,
            &originals,
            &types,
            &suspects,
            &self.options.repair.operators,
        )
        .sample(&mut StdRng::seed_from_u64(seed), count)
    }

    /// The single edits a sweep tries first: every edit at each location
    /// the plain spectrum ranks, most suspicious first, typed by the type
    /// oracle, until there are at least `count` (whole locations).
    pub fn sweep_candidates(&self, count: usize) -> Result<Vec<Candidate>> {
        let originals = self.baseline.sources.originals();
        let (space, suspects) = self.space_and_suspects();
        let types = infer_types(
            &self.baseline,
            &space,
            &suspicious_locations(&suspects),
            &self.options.repair.evaluation,
            Budget::unlimited(),
        )?;
        let mutator = mutator(
            &space,
            &originals,
            &types,
            &suspects,
            &self.options.repair.operators,
        );
        let locations: Vec<Location> = suspects.iter().map(|s| s.location).collect();
        Ok(mutator
            .batch_at(&course(&locations), &mut 0, count, usize::MAX)
            .into_iter()
            .map(|edit| Candidate::original().with(edit))
            .collect())
    }

    /// Every file of the crate with the candidate's edits in it: path
    /// (relative to the workspace root) and text.
    pub fn files_with(&self, candidate: &Candidate) -> Vec<(PathBuf, String)> {
        let originals = self.baseline.sources.originals();
        let mut texts = candidate.texts(&originals);
        originals
            .iter()
            .map(|(file, path, text)| {
                let text = texts.remove(&file).unwrap_or_else(|| text.to_string());
                (path.to_path_buf(), text)
            })
            .collect()
    }

    /// The lines each test executes with `files` (path, text) in place of
    /// the crate's own, measured as the choice among plausible patches
    /// measures a patch (in the baseline's scratch copy).
    pub fn lines_with(
        &self,
        files: &BTreeMap<PathBuf, String>,
    ) -> Result<BTreeMap<String, BTreeSet<Location>>> {
        let tests = self.baseline.records.iter().map(|r| r.test);
        let evaluation = &self.options.repair.evaluation;
        let measured = evaluation.coverage(&self.baseline, tests, files, Budget::unlimited())?;
        let name = |test| measured.suite.get(test).full_name.clone();
        Ok(measured
            .records
            .iter()
            .map(|r| (name(r.test), r.lines.clone()))
            .collect())
    }

    /// Every test with its full name (`tests::a`, or `target/name` outside the library).
    pub fn tests(&self) -> Vec<(TestId, String)> {
        let suite = &self.baseline.suite;
        suite
            .ids()
            .map(|t| (t, suite.get(t).full_name.clone()))
            .collect()
    }

    /// The package's test executables: kind and target name.
    pub fn executables(&self) -> Vec<(Kind, String)> {
        self.baseline
            .suite
            .executables
            .iter()
            .map(|e| (e.kind, e.target.clone()))
            .collect()
    }

    /// An evaluator of `kind`, prepared (its copies built, the unchanged
    /// crate run) for fixing every failing test, with its fitness model.
    pub fn evaluator(
        &self,
        kind: EvaluatorKind,
    ) -> Result<(Box<dyn PreparedEvaluator>, FitnessModel)> {
        let failing: Vec<TestId> = self.baseline.failing().map(|r| r.test).collect();
        let settings = crate::evaluate::Settings {
            kind,
            ..self.options.repair.evaluation.clone()
        };
        let weights = self.options.repair.weights;
        let console = &self.console;
        let unlimited = Budget::unlimited();
        let prepared = prepare(
            &self.baseline,
            &failing,
            &[],
            weights,
            &settings,
            console,
            unlimited,
        )?;
        let (evaluator, model, _) = prepared.ready(&self.baseline.suite)?;
        Ok((evaluator, model))
    }
}

/// Says that another run holds the target dir's build lock.
pub fn blocked(console: &Console, lock: &Path) {
    console.status(
        "Blocking",
        format!(
            "waiting for another cargo autofix in this crate to finish (lock on {})",
            lock.display()
        ),
    );
}
