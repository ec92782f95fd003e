//! The benchmark's results: summary figures, `RESULTS.md`, `results.json`
//! and `ranks.svg`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

use cargo_autofix::Metric;
use serde_json::{Value, json};

use crate::Settings;
use crate::run::{BugRecord, REFINEMENTS, RepairRecord};
use crate::speed::SpeedRecord;

fn median(sorted: &[f64]) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let mid = sorted.len() / 2;
    Some(if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    })
}

pub fn one_line(record: &BugRecord) -> String {
    if !record.check.ok {
        return format!("setup check failed: {:?}", record.check);
    }
    let rank = |rank: Option<usize>| rank.map_or("-".to_string(), |r| r.to_string());
    let repair = |r: &RepairRecord| {
        format!(
            "{}{} in {:.0} s, {} candidates ({} compiled){}",
            if r.plausible() { "fixed" } else { "not fixed" },
            if r.plausible() && r.by_sweep {
                " by the sweep"
            } else {
                ""
            },
            r.seconds,
            r.candidates,
            r.compiled,
            if r.restores_original {
                ", restores the original"
            } else {
                ""
            }
        )
    };
    let mut line = format!(
        "ochiai rank {}/{} ({} refined, {} groups)",
        rank(record.ranks.get("ochiai").copied().flatten()),
        record.executed_lines,
        rank(record.refined_ranks.get("all").copied().flatten()),
        record.groups
    );
    if let Some(r) = &record.repair {
        let _ = write!(line, "; {}", repair(r));
    }
    if let Some(r) = &record.repair_unrefined {
        let _ = write!(line, "; --refine none: {}", repair(r));
    }
    if let Some(r) = &record.repair_previous {
        let _ = write!(line, "; previous build: {}", repair(r));
    }
    line
}

/// Summary figures over the checked cases.
struct Summary {
    bugs: usize,
    /// Top-1/3/5 counts and mean EXAM per metric, then per refinement.
    per_metric: Vec<(String, [usize; 3], f64)>,
    per_refinement: Vec<(String, [usize; 3], f64)>,
    /// The repair as it ships, and with `--refine none`.
    refined: RepairSummary,
    unrefined: RepairSummary,
}

struct RepairSummary {
    /// Repairs run.
    runs: usize,
    fixed: usize,
    restored: usize,
    /// Plausible patches the sweep found (no genetic search).
    by_sweep: usize,
    median_swept_edits: Option<f64>,
    median_fix_seconds: Option<f64>,
    median_candidates_per_second: Option<f64>,
    median_compile_share: Option<f64>,
}

fn summarize(records: &[BugRecord]) -> Summary {
    let checked: Vec<&BugRecord> = records.iter().filter(|r| r.check.ok).collect();
    // Top-1/3/5 and EXAM (the share of executed lines read before reaching
    // the fault, all of them if never) of one rank per case.
    let accuracy = |name: &str, rank: &dyn Fn(&BugRecord) -> Option<usize>| {
        let ranks: Vec<Option<usize>> = checked.iter().map(|r| rank(r)).collect();
        let top = [1, 3, 5].map(|n| ranks.iter().filter(|r| r.is_some_and(|r| r <= n)).count());
        let exam = checked
            .iter()
            .zip(&ranks)
            .map(|(r, rank)| rank.map_or(1.0, |rank| rank as f64 / r.executed_lines.max(1) as f64))
            .sum::<f64>()
            / checked.len().max(1) as f64;
        (name.to_string(), top, exam)
    };
    let per_metric = Metric::ALL
        .into_iter()
        .map(|metric| accuracy(metric.name(), &|r| r.ranks[metric.name()]))
        .collect();
    let per_refinement = REFINEMENTS
        .into_iter()
        .map(|name| accuracy(name, &|r| r.refined_ranks.get(name).copied().flatten()))
        .collect();
    let repairs = |which: &dyn Fn(&BugRecord) -> Option<&RepairRecord>| -> Vec<RepairRecord> {
        checked.iter().filter_map(|r| which(r).cloned()).collect()
    };
    Summary {
        bugs: checked.len(),
        per_metric,
        per_refinement,
        refined: summarize_repairs(&repairs(&|r| r.repair.as_ref())),
        unrefined: summarize_repairs(&repairs(&|r| r.repair_unrefined.as_ref())),
    }
}

fn summarize_repairs(repairs: &[RepairRecord]) -> RepairSummary {
    let plausible: Vec<&RepairRecord> = repairs.iter().filter(|r| r.plausible()).collect();
    let sorted = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values
    };
    let tried: Vec<&RepairRecord> = repairs.iter().filter(|r| r.candidates > 0).collect();
    RepairSummary {
        runs: repairs.len(),
        fixed: plausible.len(),
        restored: plausible.iter().filter(|r| r.restores_original).count(),
        by_sweep: plausible.iter().filter(|r| r.by_sweep).count(),
        median_swept_edits: median(&sorted(
            repairs.iter().map(|r| r.swept_edits as f64).collect(),
        )),
        median_fix_seconds: median(&sorted(plausible.iter().map(|r| r.seconds).collect())),
        median_candidates_per_second: median(&sorted(
            tried.iter().map(|r| r.candidates_per_second).collect(),
        )),
        median_compile_share: median(&sorted(
            tried
                .iter()
                .map(|r| r.compiled as f64 / r.candidates as f64)
                .collect(),
        )),
    }
}

pub fn results_json(
    records: &[BugRecord],
    speed: &[SpeedRecord],
    settings: &Settings,
    elapsed: Duration,
) -> Value {
    let summary = summarize(records);
    json!({
        "date": today(),
        "cores": std::thread::available_parallelism().map_or(1, |n| n.get()),
        "command": settings.command,
        "time_limit_seconds": settings.time_limit,
        "elapsed_seconds": elapsed.as_secs_f64(),
        "summary": {
            "bugs": summary.bugs,
            "localization": accuracy_json(&summary.per_metric, "metric"),
            "refinements": accuracy_json(&summary.per_refinement, "refinement"),
            "repair": repair_json(&summary.refined),
            "repair_unrefined": repair_json(&summary.unrefined),
            "by_kind": by_kind(records)
                .iter()
                .map(|(kind, k)| json!({
                    "kind": kind, "cases": k.cases, "plausible": k.plausible,
                    "restores_original": k.restored, "median_time_to_fix_seconds": k.median_fix_seconds,
                }))
                .collect::<Vec<Value>>(),
            "operators": operators(records)
                .iter()
                .map(|(name, o)| json!({
                    "operator": name, "tried": o.tried, "compiled": o.compiled, "in_patches": o.in_patches,
                }))
                .collect::<Vec<Value>>(),
        },
        "bugs": records,
        "speed": speed,
    })
}

fn accuracy_json(rows: &[(String, [usize; 3], f64)], key: &str) -> Value {
    rows.iter()
        .map(|(name, top, exam)| {
            json!({key: name, "top1": top[0], "top3": top[1], "top5": top[2], "mean_exam": exam})
        })
        .collect()
}

fn repair_json(summary: &RepairSummary) -> Value {
    json!({
        "runs": summary.runs,
        "plausible": summary.fixed,
        "restores_original": summary.restored,
        "found_by_the_sweep": summary.by_sweep,
        "median_swept_edits": summary.median_swept_edits,
        "median_time_to_fix_seconds": summary.median_fix_seconds,
        "median_candidates_per_second": summary.median_candidates_per_second,
        "median_compile_share": summary.median_compile_share,
    })
}

pub fn markdown(
    records: &[BugRecord],
    speed: &[SpeedRecord],
    settings: &Settings,
    elapsed: Duration,
) -> String {
    let summary = summarize(records);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let percent = |n: usize| {
        if summary.bugs == 0 {
            0.0
        } else {
            100.0 * n as f64 / summary.bugs as f64
        }
    };
    let mut md = format!(
        "# Benchmark results\n\nDate: {} · machine: {cores} cores · command: `{}` · repair time limit: {} s per bug · total time: {:.1} min\n\n\
         Made by `bench/main.rs` from `bench/corpus.toml`; `bench/results.json` has every figure, `bench/ranks.svg` plots them.\n\n",
        today(),
        settings.command,
        settings.time_limit,
        elapsed.as_secs_f64() / 60.0
    );
    let _ = writeln!(
        md,
        "## Summary ({} cases that passed the setup check)\n",
        summary.bugs
    );
    let accuracy_table = |md: &mut String, heading: &str, rows: &[(String, [usize; 3], f64)]| {
        let _ = writeln!(
            md,
            "| {heading} | top-1 | top-3 | top-5 | mean EXAM |\n|---|---|---|---|---|"
        );
        for (name, top, exam) in rows {
            let _ = writeln!(
                md,
                "| {name} | {} ({:.0}%) | {} ({:.0}%) | {} ({:.0}%) | {exam:.3} |",
                top[0],
                percent(top[0]),
                top[1],
                percent(top[1]),
                top[2],
                percent(top[2]),
            );
        }
    };
    accuracy_table(&mut md, "metric", &summary.per_metric);
    if !settings.rank_only {
        repair_table(&mut md, &summary, &percent);
    }
    md.push_str(
        "\nRanks are worst-case ranks (ties count against us) of the faulty line's location (for a case with several \
         faults, the best-ranked one; for a removed line, the better of the executed location above the gap and the \
         statement right below it); EXAM is rank / executed lines (1.0 when the line was never executed).\n",
    );
    if !settings.rank_only {
        md.push_str(
        "\nA patch \
         *restores the original* when the patched file has the same tokens as the original file, or as the original with \
         one of the bug's `equivalent` lines (listed in the corpus, checked by hand: `> 69` for `>= 70` on integers) in \
         place of the faulty line; any other fix counts as plausible only. Both repairs run with the same seed and time \
         limit (which one goes first alternates from case to case); `--refine none` searches one failure group after \
         another too, but weighs locations by the group's plain spectrum score, with no slice or critical-predicate \
         boost, no critical-predicate seeds and no feedback.\n",
        );
    }
    md.push_str(
        "\n## Localization refinements\n\nOchiai ranks of the faulty line with each refinement on its own and with all \
         of them, recomputed from one `--rank-only --format json` run per case (its counts and its `in_slice`, \
         `critical` and `mutation` marks). *plain*: one spectrum over all failing tests; *groups*: each failure group's \
         own spectrum, taking the best rank among the groups; *slices*: one spectrum, lines in the slice of every traced \
         failing test of some group first; *switching*: one spectrum, critical predicates first; *mutation*: one \
         spectrum, its first ten lines reordered by the ProFL class of their edits (the edits were made at the top lines \
         of the refined rankings: a line of the plain top ten without any counts as one where edits change nothing); \
         *all but mutation*: per group, critical predicates, then the group's slice, then the rest; *all*: that, with \
         the first ten lines reordered by ProFL class, as `--rank-only` ranks each group; *all, by metallaxis* and \
         *all, by muse*: the first ten lines reordered by that mutation score alone instead.\n\n",
    );
    accuracy_table(&mut md, "refinement", &summary.per_refinement);
    timing_section(&mut md, records);
    if settings.rank_only {
        localization_cases(&mut md, records);
        return md;
    }
    kinds_section(&mut md, records);
    operators_section(&mut md, records);
    historical_section(&mut md, records);
    previous_section(&mut md, records);
    if !speed.is_empty() {
        speed_section(&mut md, speed);
    }
    cases_section(&mut md, records);
    md
}

/// Every case: its ranks, its repair and `--refine none`'s.
fn cases_section(md: &mut String, records: &[BugRecord]) {
    md.push_str(
        "\n## Cases\n\n| case | kind | rank (ochiai / tarantula / dstar / op2 / jaccard) | rank (plain / groups / slices / switching / mutation / all but mutation / all / metallaxis / muse) | groups | lines | localize (s) | repair | time (s) | candidates | compiled | stages | restores | `--refine none` |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let joined = |ranks: &BTreeMap<String, Option<usize>>,
                  names: &mut dyn Iterator<Item = &str>| {
        names
            .map(|name| {
                ranks
                    .get(name)
                    .copied()
                    .flatten()
                    .map_or("-".into(), |x| x.to_string())
            })
            .collect::<Vec<String>>()
            .join(" / ")
    };
    let outcome = |p: &RepairRecord| {
        if p.plausible() {
            "plausible"
        } else {
            "not found"
        }
    };
    for r in records {
        match (&r.repair, r.check.ok) {
            (Some(p), true) => writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {:.1} | {} | {:.0} | {} | {} | {} | {} | {} |",
                r.id,
                r.kind,
                joined(&r.ranks, &mut Metric::ALL.iter().map(|m| m.name())),
                joined(&r.refined_ranks, &mut REFINEMENTS.into_iter()),
                r.groups,
                r.executed_lines,
                r.localize_seconds,
                outcome(p),
                p.seconds,
                p.candidates,
                p.compiled,
                p.stages,
                if p.restores_original { "yes" } else { "no" },
                r.repair_unrefined
                    .as_ref()
                    .map_or("-".to_string(), |u| format!(
                        "{} in {:.0} s",
                        outcome(u),
                        u.seconds
                    )),
            ),
            _ => writeln!(
                md,
                "| {} | {} | setup check failed | | | | | | | | | | | |",
                r.id, r.kind
            ),
        }
        .expect("writing to a String cannot fail");
    }
}

/// The repair's figures, as shipped and with `--refine none`.
fn repair_table(md: &mut String, summary: &Summary, percent: &dyn Fn(usize) -> f64) {
    let fmt = |v: Option<f64>, unit: &str| v.map_or("-".to_string(), |v| format!("{v:.2}{unit}"));
    let share = |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{:.0}%", s * 100.0));
    let (with, without) = (&summary.refined, &summary.unrefined);
    // A column for a repair that did not run says so.
    let column = |r: &RepairSummary, cell: String| {
        if r.runs == 0 { "-".to_string() } else { cell }
    };
    type Cell<'a> = &'a dyn Fn(&RepairSummary) -> String;
    let rows: [(&str, Cell); 7] = [
        ("plausible patches (apply, pass `cargo test`)", &|r| {
            format!("{} of {} ({:.0}%)", r.fixed, r.runs, percent(r.fixed))
        }),
        ("restore the original (token for token)", &|r| {
            format!("{} ({:.0}%)", r.restored, percent(r.restored))
        }),
        (
            "found by the sweep (single edits, no genetic search)",
            &|r| format!("{}", r.by_sweep),
        ),
        ("median time to fix", &|r| fmt(r.median_fix_seconds, " s")),
        ("median single edits swept", &|r| {
            fmt(r.median_swept_edits, "")
        }),
        ("median candidates per second", &|r| {
            fmt(r.median_candidates_per_second, "")
        }),
        ("median share of candidates that compiled", &|r| {
            share(r.median_compile_share)
        }),
    ];
    md.push_str("\n| repair | as shipped | `--refine none` |\n|---|---|---|\n");
    for (name, cell) in rows {
        let _ = writeln!(
            md,
            "| {name} | {} | {} |",
            column(with, cell(with)),
            column(without, cell(without))
        );
    }
}

/// `--rank-only` with and without the mutation refinement against a plain
/// `cargo test` of the same buggy copy, in the same run.
fn timing_section(md: &mut String, records: &[BugRecord]) {
    let checked: Vec<&BugRecord> = records.iter().filter(|r| r.check.ok).collect();
    // The second run and the cycle are timed by `--rank-only` runs only.
    if checked.iter().all(|r| r.cycle_seconds == 0.0) {
        md.push_str(
            "\n## Time of `--rank-only`\n\nNot measured in this run: `--rank-only` runs time it \
             against a plain `cargo test` and an edit-build-test cycle.\n",
        );
        return;
    }
    let median_of = |value: &dyn Fn(&BugRecord) -> f64| {
        let mut values: Vec<f64> = checked.iter().map(|r| value(r)).collect();
        values.sort_by(f64::total_cmp);
        median(&values).unwrap_or(0.0)
    };
    let cycle = |r: &BugRecord| r.cycle_seconds.max(1e-3);
    type Measure = dyn Fn(&BugRecord) -> f64;
    let rows: [(&str, &Measure); 5] = [
        ("plain `cargo test` (built)", &|r| r.cargo_test_seconds),
        ("edit-build-test cycle", &|r| r.cycle_seconds),
        ("`--rank-only` (every refinement)", &|r| r.localize_seconds),
        ("`--rank-only` without the mutation refinement", &|r| {
            r.localize_seconds - r.mutation_seconds
        }),
        ("`--rank-only` again, unchanged code", &|r| r.rerun_seconds),
    ];
    md.push_str(
        "\n## Time of `--rank-only`\n\nPer case, one `cargo test --no-fail-fast --lib --bins --tests` of the buggy copy \
         (the setup check's, after `cargo test --no-run`: the crate is built), then one `--rank-only` (its builds share \
         the subject's target dir with the earlier cases; the cache is removed first), the same `--rank-only` again, and \
         an edit-build-test cycle (a comment appended to the buggy file, then that `cargo test`, the copy built before). \
         Without the mutation refinement is the first run less the time the refinement reported.\n\n\
         | | median (s) | median ratio to the cycle | worst ratio |\n|---|---|---|---|\n",
    );
    for (name, value) in rows {
        let ratio = |r: &BugRecord| value(r) / cycle(r);
        let worst = checked.iter().map(|r| ratio(r)).fold(0.0, f64::max);
        let _ = writeln!(
            md,
            "| {name} | {:.2} | {:.1}x | {worst:.1}x |",
            median_of(value),
            median_of(&ratio)
        );
    }
    let same = checked.iter().filter(|r| r.rerun_same).count();
    let _ = writeln!(
        md,
        "\nThe second run ranked as the first in {same} of {} cases.",
        checked.len()
    );
}

/// One row per case: ranks and times (`--rank-only` runs).
fn localization_cases(md: &mut String, records: &[BugRecord]) {
    md.push_str(
        "\n## Cases\n\n| case | kind | rank (ochiai / tarantula / dstar / op2 / jaccard) | rank (plain / groups / slices / switching / mutation / all but mutation / all / metallaxis / muse) | groups | lines | `cargo test` (s) | cycle (s) | `--rank-only` (s) | mutation (s) | again (s) |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let joined = |ranks: &BTreeMap<String, Option<usize>>, names: &[&str]| {
        names
            .iter()
            .map(|name| {
                ranks
                    .get(*name)
                    .copied()
                    .flatten()
                    .map_or("-".into(), |x| x.to_string())
            })
            .collect::<Vec<String>>()
            .join(" / ")
    };
    let metrics: Vec<&str> = Metric::ALL.iter().map(|m| m.name()).collect();
    for r in records {
        if !r.check.ok {
            let _ = writeln!(
                md,
                "| {} | {} | setup check failed | | | | | | | | |",
                r.id, r.kind
            );
            continue;
        }
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2} |",
            r.id,
            r.kind,
            joined(&r.ranks, &metrics),
            joined(&r.refined_ranks, &REFINEMENTS),
            r.groups,
            r.executed_lines,
            r.cargo_test_seconds,
            r.cycle_seconds,
            r.localize_seconds,
            r.mutation_seconds,
            r.rerun_seconds,
        );
    }
}

fn speed_section(md: &mut String, speed: &[SpeedRecord]) {
    md.push_str(
        "\n## Evaluation speed\n\nThe single edits a sweep tries first (every edit at each location the plain \
         spectrum ranks, most suspicious first, typed) evaluated by the schema evaluator as one batch; an even \
         sample of them evaluated, one after the other in the same run, by the rebuild evaluator (one \
         incremental build per candidate) and the naive loop (write the files, `cargo test`, which also runs \
         doctests, killed after 60 s). Costs are per candidate; no cutoff (every selected test runs). \
         *Same outcome*: built or not and the same tests passing in both evaluators; *same fitness*: the naive \
         loop's fitness equals the schema evaluator's. *Invocations / batch*: woven builds (compiler runs) per \
         batch. *One by one*: candidates built on their own, and why. *Time*: the schema evaluator's wall time \
         building, testing, and the rest (weaving, attributing errors); *timeouts*: time in test processes that \
         ran out of time, summed over workers. *Cost / tests*: the per-candidate cost over the median time of \
         one candidate's own test run. *Bound*: the most *naive / schema* could be, were building and the \
         rest free: the naive loop's cost over the woven candidates' own test runs, spread over the jobs.\n\n\
         | subject | candidates (sample) | compiled | per second | schema (s) | rebuild (s) | naive (s) | naive / schema | bound | rebuild / schema | same outcome | same fitness | invocations / batch | one by one | time: build / tests / rest (s) | timeouts (s) | cost / tests |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for s in speed {
        let reasons: Vec<String> = s
            .separate_reasons
            .iter()
            .map(|(why, n)| format!("{n}: {why}"))
            .collect();
        let _ = writeln!(
            md,
            "| {} | {} ({}) | {} | {:.1} | {:.3} | {:.3} | {:.3} | {:.1}x | {:.0}x | {:.1}x | {}/{} | {}/{} | {:.1} | {} ({:.0}%){} | {:.1} / {:.1} / {:.1} | {:.1} | {} |",
            s.subject,
            s.candidates,
            s.sample,
            s.compiled,
            s.candidates_per_second,
            s.schema_per_candidate,
            s.rebuild_per_candidate,
            s.naive_per_candidate,
            s.ratio,
            s.tests_bound,
            s.rebuild_ratio,
            s.same_outcome,
            s.sample,
            s.same_fitness_as_naive,
            s.sample,
            s.woven_builds as f64 / s.batches.max(1) as f64,
            s.separate,
            100.0 * s.separate as f64 / s.candidates.max(1) as f64,
            if reasons.is_empty() {
                String::new()
            } else {
                format!(": {}", reasons.join("; "))
            },
            s.build_seconds,
            s.test_seconds,
            s.other_seconds,
            s.timeout_seconds,
            s.cost_over_tests
                .map_or("-".to_string(), |c| format!("{c:.1}x"))
        );
    }
}

/// The shipped repair's results for one kind of bug.
#[derive(Default)]
struct KindSummary {
    cases: usize,
    plausible: usize,
    restored: usize,
    median_fix_seconds: Option<f64>,
}

/// Per kind of bug (single bugs; combinations are `multi-fault`).
fn by_kind(records: &[BugRecord]) -> BTreeMap<String, KindSummary> {
    let mut kinds: BTreeMap<String, (KindSummary, Vec<f64>)> = BTreeMap::new();
    for record in records.iter().filter(|r| r.check.ok) {
        let Some(repair) = &record.repair else {
            continue;
        };
        let (kind, times) = kinds.entry(record.kind.clone()).or_default();
        kind.cases += 1;
        if repair.plausible() {
            kind.plausible += 1;
            kind.restored += usize::from(repair.restores_original);
            times.push(repair.seconds);
        }
    }
    kinds
        .into_iter()
        .map(|(name, (mut kind, mut times))| {
            times.sort_by(f64::total_cmp);
            kind.median_fix_seconds = median(&times);
            (name, kind)
        })
        .collect()
}

fn kinds_section(md: &mut String, records: &[BugRecord]) {
    md.push_str(
        "\n## By kind of bug\n\nThe repair as shipped.\n\n| kind | cases | plausible | restore the original | median time to fix (s) |\n|---|---|---|---|---|\n",
    );
    for (name, kind) in by_kind(records) {
        let _ = writeln!(
            md,
            "| {name} | {} | {} | {} | {} |",
            kind.cases,
            kind.plausible,
            kind.restored,
            kind.median_fix_seconds
                .map_or("-".to_string(), |t| format!("{t:.1}"))
        );
    }
}

/// One operator's totals over the shipped repairs.
#[derive(Default)]
struct OperatorSummary {
    tried: usize,
    compiled: usize,
    /// Plausible patches with an edit by it.
    in_patches: usize,
}

fn operators(records: &[BugRecord]) -> BTreeMap<String, OperatorSummary> {
    let mut out: BTreeMap<String, OperatorSummary> = BTreeMap::new();
    for repair in records.iter().filter_map(|r| r.repair.as_ref()) {
        for (name, [tried, compiled]) in &repair.operators {
            let o = out.entry(name.clone()).or_default();
            o.tried += tried;
            o.compiled += compiled;
        }
        if repair.plausible() {
            let mut used = repair.patch_operators.clone();
            used.sort();
            used.dedup();
            for name in used {
                out.entry(name).or_default().in_patches += 1;
            }
        }
    }
    out
}

fn operators_section(md: &mut String, records: &[BugRecord]) {
    md.push_str(
        "\n## Operators\n\nCandidates each operator made over every shipped repair (sweep and genetic search), the share that compiled, and the plausible patches with an edit by it.\n\n| operator | tried | compiled | share | in patches |\n|---|---|---|---|---|\n",
    );
    for (name, o) in operators(records) {
        let _ = writeln!(
            md,
            "| {name} | {} | {} | {:.0}% | {} |",
            o.tried,
            o.compiled,
            100.0 * o.compiled as f64 / o.tried.max(1) as f64,
            o.in_patches
        );
    }
}

fn historical_section(md: &mut String, records: &[BugRecord]) {
    let historical: Vec<&BugRecord> = records.iter().filter(|r| r.historical.is_some()).collect();
    if historical.is_empty() {
        return;
    }
    md.push_str(
        "\n## Real bugs\n\nA published version's fix reverted, with the test that came with it. *Restores the fix*: the patch gives the published fix's tokens. *Confidence*: what the tool said of its patch, with the reasons against it.\n\n| case | shape | history | repair | restores the fix | confidence | patch |\n|---|---|---|---|---|---|---|\n",
    );
    for r in historical {
        let repair = r.repair.as_ref();
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.id,
            r.shape.as_deref().unwrap_or("-"),
            r.historical.as_deref().unwrap_or(""),
            repair.map_or("-", |p| if p.plausible() {
                "plausible"
            } else {
                "not found"
            }),
            repair.map_or("-", |p| if p.restores_original { "yes" } else { "no" }),
            repair.map_or("-".to_string(), confidence_cell),
            repair
                .and_then(|p| p.patch.as_deref())
                .map_or(String::new(), |patch| format!(
                    "`{}`",
                    changed(patch).replace('|', "\\|")
                )),
        );
    }
}

/// The confidence the tool gave its patch, with the reasons against it.
fn confidence_cell(repair: &RepairRecord) -> String {
    let Some(level) = &repair.confidence else {
        return "-".to_string();
    };
    let against: Vec<&str> = repair
        .reasons
        .iter()
        .filter_map(|r| r.strip_prefix("- "))
        .collect();
    if against.is_empty() {
        level.clone()
    } else {
        format!("{level}: {}", against.join("; ").replace('|', "\\|"))
    }
}

/// A patch's changed lines, trimmed and joined (`- a / + b`).
fn changed(patch: &str) -> String {
    patch
        .lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .map(|l| format!("{} {}", &l[..1], l[1..].trim()))
        .collect::<Vec<_>>()
        .join(" / ")
}

fn previous_section(md: &mut String, records: &[BugRecord]) {
    let compared: Vec<&BugRecord> = records
        .iter()
        .filter(|r| r.repair_previous.is_some())
        .collect();
    if compared.is_empty() {
        return;
    }
    let lost: Vec<&str> = compared
        .iter()
        .filter(|r| {
            r.repair_previous
                .as_ref()
                .is_some_and(RepairRecord::plausible)
        })
        .map(|r| r.id.as_str())
        .collect();
    let _ = write!(
        md,
        "\n## Against the previous build\n\nThe {} cases this build does not fix, repaired by the earlier build (`--previous`), same seed and time limit: it fixes {} of them{}.\n",
        compared.len(),
        lost.len(),
        if lost.is_empty() {
            String::new()
        } else {
            format!(" ({})", lost.join(", "))
        }
    );
}

/// Today's date (UTC) as YYYY-MM-DD.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
