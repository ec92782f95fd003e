//! Spectrum-based fault localization: scores every executed line by how
//! strongly its execution goes with failing tests, and ranks the lines.
//!
//! Pure: it takes the spectrum (four counts per line) and returns data.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use crate::code::source::Location;
use crate::localize::evidence::{FixClass, LineEvidence};

/// How many failing and passing tests executed a line (or, as totals, ran).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub failed: u32,
    pub passed: u32,
}

/// The coverage spectrum: per executed line, the tests that executed it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spectrum {
    pub totals: Counts,
    pub lines: BTreeMap<Location, Counts>,
}

impl Spectrum {
    /// Builds the spectrum from each test's verdict (`true` = failed) and
    /// the lines it executed.
    pub fn from_runs<'a>(
        runs: impl IntoIterator<Item = (bool, &'a BTreeSet<Location>)>,
    ) -> Spectrum {
        let mut spectrum = Spectrum::default();
        for (failed, lines) in runs {
            if failed {
                spectrum.totals.failed += 1;
            } else {
                spectrum.totals.passed += 1;
            }
            for line in lines {
                let counts = spectrum.lines.entry(*line).or_default();
                if failed {
                    counts.failed += 1;
                } else {
                    counts.passed += 1;
                }
            }
        }
        spectrum
    }
}

/// A suspiciousness metric over the four counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    #[default]
    Ochiai,
    Tarantula,
    /// DStar with star = 2.
    DStar,
    Op2,
    Jaccard,
}

impl Metric {
    pub const ALL: [Metric; 5] = [
        Metric::Ochiai,
        Metric::Tarantula,
        Metric::DStar,
        Metric::Op2,
        Metric::Jaccard,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Metric::Ochiai => "ochiai",
            Metric::Tarantula => "tarantula",
            Metric::DStar => "dstar",
            Metric::Op2 => "op2",
            Metric::Jaccard => "jaccard",
        }
    }

    /// The score of a line executed by `line.failed` failing and
    /// `line.passed` passing tests, out of `totals`.
    pub fn score(self, line: Counts, totals: Counts) -> f64 {
        let ef = f64::from(line.failed);
        let ep = f64::from(line.passed);
        let f = f64::from(totals.failed);
        let p = f64::from(totals.passed);
        let nf = f - ef;
        match self {
            Metric::Ochiai => {
                let denominator = (f * (ef + ep)).sqrt();
                if denominator == 0.0 {
                    0.0
                } else {
                    ef / denominator
                }
            }
            Metric::Tarantula => tarantula_hue(line, totals).map_or(0.0, |hue| 1.0 - hue),
            Metric::DStar => {
                let denominator = ep + nf;
                if denominator == 0.0 {
                    if ef == 0.0 { 0.0 } else { f64::INFINITY }
                } else {
                    ef * ef / denominator
                }
            }
            Metric::Op2 => ef - ep / (p + 1.0),
            Metric::Jaccard => {
                let denominator = f + ep;
                if denominator == 0.0 {
                    0.0
                } else {
                    ef / denominator
                }
            }
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = String;

    fn from_str(name: &str) -> Result<Metric, String> {
        Metric::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown metric `{name}` (expected one of: ochiai, tarantula, dstar, op2, jaccard)"))
    }
}

fn fraction(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        f64::from(part) / f64::from(whole)
    }
}

/// Tarantula's hue: 0.0 (red, only failing tests) to 1.0 (green, only
/// passing); `None` for a line no test executed.
pub fn tarantula_hue(line: Counts, totals: Counts) -> Option<f64> {
    let passed = fraction(line.passed, totals.passed);
    let failed = fraction(line.failed, totals.failed);
    (passed + failed > 0.0).then(|| passed / (passed + failed))
}

/// Tarantula's brightness, its confidence in the hue: the larger of the
/// shares of passing and of failing tests that executed the line.
pub fn confidence(line: Counts, totals: Counts) -> f64 {
    fraction(line.passed, totals.passed).max(fraction(line.failed, totals.failed))
}

/// A ranked line.
#[derive(Debug, Clone, PartialEq)]
pub struct Suspect {
    pub location: Location,
    pub score: f64,
    pub confidence: f64,
    pub counts: Counts,
    /// Worst-case rank: how many lines rank at least as high.
    pub rank: usize,
    /// In the dynamic slice of every failing test (of its group).
    pub in_slice: bool,
    /// A condition whose flip makes a failing test pass.
    pub critical: bool,
    /// The line where failing tests panicked, in the crate's own code (an
    /// index out of bounds, an overflow, an `unwrap` of `None`...).
    pub crash: bool,
    /// Changed by the diff given with `--in-diff`.
    pub in_diff: bool,
    /// What edits at the line did (`Some` for the lines the mutation
    /// refinement reorders, even where it tried no edit).
    pub mutation: Option<LineEvidence>,
}

/// The locations with a score above zero: where edits may help, and
/// where the type oracle is asked.
pub fn suspicious_locations(suspects: &[Suspect]) -> BTreeSet<Location> {
    suspects
        .iter()
        .filter(|s| s.score > 0.0)
        .map(|s| s.location)
        .collect()
}

/// Scores differing by less than this are ties (they come from the same
/// arithmetic on different counts).
const TIE: f64 = 1e-12;

fn tied(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= TIE
}

/// Ranks every line of the spectrum: by score, then confidence, then file
/// and line. Each line's rank is the worst case over its score ties.
pub fn rank_suspects(spectrum: &Spectrum, metric: Metric) -> Vec<Suspect> {
    rank_refined(spectrum, metric, &Marks::default())
}

/// Lines that evidence other than the spectrum points at.
#[derive(Debug, Clone, Copy, Default)]
pub struct Marks<'a> {
    /// In the dynamic slice of every failing test.
    pub slice: Option<&'a BTreeSet<Location>>,
    /// Conditions whose flip makes a failing test pass.
    pub critical: Option<&'a BTreeSet<Location>>,
    /// Where failing tests panicked in the crate's own code.
    pub crash: Option<&'a BTreeSet<Location>>,
}

impl Marks<'_> {
    fn has(set: Option<&BTreeSet<Location>>, location: &Location) -> bool {
        set.is_some_and(|set| set.contains(location))
    }
}

/// Ranks like [`rank_suspects`], but critical predicates come first, then
/// crash lines, then lines in the slice, each class ordered by score.
/// (SAT-TAR adds 1.0 to the score of the statements its second analysis
/// points at: above every spectrum score in [0, 1], which is this order.)
/// The score reported stays the metric's.
pub fn rank_refined(spectrum: &Spectrum, metric: Metric, marks: &Marks) -> Vec<Suspect> {
    let mut suspects: Vec<Suspect> = spectrum
        .lines
        .iter()
        .map(|(location, &counts)| Suspect {
            location: *location,
            score: metric.score(counts, spectrum.totals),
            confidence: confidence(counts, spectrum.totals),
            counts,
            rank: 0,
            in_slice: Marks::has(marks.slice, location),
            in_diff: false,
            critical: Marks::has(marks.critical, location),
            crash: Marks::has(marks.crash, location),
            mutation: None,
        })
        .collect();
    order(&mut suspects);
    suspects
}

/// Reorders the first `window` suspects (each with the evidence at its
/// line, or [`LineEvidence::UNTRIED`]) by ProFL class: lines where an edit
/// fixes a failing test without breaking a passing one first, then lines
/// where an edit fixes one but breaks another, then the rest in the
/// refined order, where of equal scores an untried line comes before one
/// where edits changed nothing, and that before one where they only broke
/// passing tests (ProFL's order of the last two classes; ties are broken
/// by the Metallaxis score). The lines after the window keep their places, but for
/// those where an edit was tried (for another ranking, or as a line the
/// compiler warns about) and fixes a failing test without breaking a
/// passing one: that evidence is as strong wherever the line ranked.
pub fn rerank_by_evidence(
    suspects: &mut [Suspect],
    evidence: &BTreeMap<Location, LineEvidence>,
    window: usize,
) {
    for (place, suspect) in suspects.iter_mut().enumerate() {
        let found = evidence.get(&suspect.location).copied();
        if place < window {
            suspect.mutation = Some(found.unwrap_or(LineEvidence::UNTRIED));
        } else if let Some(found) = found.filter(|e| e.class == FixClass::Clean) {
            suspect.mutation = Some(found);
        }
    }
    order(suspects);
}

/// Sorts the suspects and gives each its worst-case rank over its ties.
/// The order: lines where an edit makes a failing test pass first, by
/// class; critical predicates, then crash lines, then the slice; by score;
/// then, of equal scores, lines where no edit was tried before lines where
/// edits changed no test's outcome before lines where they only broke
/// passing tests (edits that found nothing at a line speak against it; an
/// untried line of the same score may still be the one); by the mutation
/// score; then by confidence and
/// position, which break the order but not the tie.
fn order(suspects: &mut [Suspect]) {
    let fixes = |s: &Suspect| {
        s.mutation
            .map(|m| m.class)
            .filter(|c| matches!(c, FixClass::Clean | FixClass::Noisy))
    };
    let class = |s: &Suspect| {
        (
            fixes(s).is_none(),
            fixes(s),
            !s.critical,
            !s.crash,
            !s.in_slice,
        )
    };
    // Lines where edits were evaluated and none made a failing test pass.
    let found_nothing = |s: &Suspect| match s.mutation {
        Some(m) if m.edits > 0 && fixes(s).is_none() => 1 + u8::from(m.class == FixClass::Negative),
        _ => 0,
    };
    let metallaxis = |s: &Suspect| s.mutation.map_or(0.0, |m| m.metallaxis);
    let by_score = |a: f64, b: f64| {
        if tied(a, b) {
            std::cmp::Ordering::Equal
        } else {
            b.total_cmp(&a)
        }
    };
    let same_rank = |a: &Suspect, b: &Suspect| {
        class(a) == class(b)
            && tied(a.score, b.score)
            && found_nothing(a) == found_nothing(b)
            && tied(metallaxis(a), metallaxis(b))
    };
    suspects.sort_by(|a, b| {
        class(a)
            .cmp(&class(b))
            .then(by_score(a.score, b.score))
            .then(found_nothing(a).cmp(&found_nothing(b)))
            .then(by_score(metallaxis(a), metallaxis(b)))
            .then(b.confidence.total_cmp(&a.confidence))
            .then_with(|| a.location.cmp(&b.location))
    });
    let mut start = 0;
    while start < suspects.len() {
        let mut end = start + 1;
        while end < suspects.len() && same_rank(&suspects[end], &suspects[start]) {
            end += 1;
        }
        for suspect in &mut suspects[start..end] {
            suspect.rank = end;
        }
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::FileId;

    fn at(line: u32) -> Location {
        Location::new(FileId::new(0), line)
    }

    /// Each run: failed?, lines executed.
    fn spectrum(runs: &[(bool, &[u32])]) -> Spectrum {
        let sets: Vec<(bool, BTreeSet<Location>)> = runs
            .iter()
            .map(|(failed, lines)| (*failed, lines.iter().map(|&l| at(l)).collect()))
            .collect();
        Spectrum::from_runs(sets.iter().map(|(failed, lines)| (*failed, lines)))
    }

    /// The statistical debugging seed's `middle()` event table: five passing
    /// runs (3,3,5) (1,2,3) (3,2,1) (5,5,5) (5,3,4), one failing (2,1,3).
    fn middle() -> Spectrum {
        spectrum(&[
            (false, &[1, 2, 3, 5, 6]),
            (false, &[1, 2, 3, 4]),
            (false, &[1, 2, 8, 9]),
            (false, &[1, 2, 8, 10, 12]),
            (false, &[1, 2, 3, 5, 12]),
            (true, &[1, 2, 3, 5, 6]),
        ])
    }

    /// The seed's `remove_html_markup()`: `abc` and `<b>abc</b>` pass,
    /// `"abc"` fails.
    fn remove_html_markup() -> Spectrum {
        spectrum(&[
            (false, &[1, 2, 3, 4, 6, 7, 9, 11, 13, 14, 16]),
            (false, &[1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 13, 14, 16]),
            (true, &[1, 2, 3, 4, 6, 7, 9, 11, 12, 13, 14, 16]),
        ])
    }

    #[test]
    fn middle_return_y_ranks_first_with_the_seeds_scores() {
        let ochiai = rank_suspects(&middle(), Metric::Ochiai);
        assert_eq!(ochiai[0].location, at(6));
        assert_eq!(ochiai[0].rank, 1);
        assert!((ochiai[0].score - 0.7071067811865475).abs() < 1e-12);
        let tarantula = rank_suspects(&middle(), Metric::Tarantula);
        assert_eq!(tarantula[0].location, at(6));
        assert!((tarantula[0].score - 0.8333333333333333).abs() < 1e-12);
        // The seed's full Ochiai and Tarantula order starts 6, 5, 3, 2/1.
        let order: Vec<u32> = ochiai.iter().map(|s| s.location.line).take(3).collect();
        assert_eq!(order, [6, 5, 3]);
        assert!((ochiai[1].score - 0.5773502691896258).abs() < 1e-12);
    }

    #[test]
    fn middle_hue_matches_the_seeds_colours() {
        let spectrum = middle();
        let hue = |line| tarantula_hue(spectrum.lines[&at(line)], spectrum.totals).unwrap() * 120.0;
        // hsl(20, ...) for line 6, hsl(34.29, ...) for line 5, hsl(45, ...) for line 3.
        assert!((hue(6) - 20.0).abs() < 1e-9);
        assert!((hue(5) - 34.285714285714285).abs() < 1e-9);
        assert!((hue(3) - 45.0).abs() < 1e-9);
        // Line 9 (only passing): green with brightness 0.2.
        assert!((hue(9) - 120.0).abs() < 1e-9);
        assert!((confidence(spectrum.lines[&at(9)], spectrum.totals) - 0.2).abs() < 1e-12);
    }

    #[test]
    fn remove_html_markup_quote_line_ranks_first_with_one() {
        for metric in [Metric::Ochiai, Metric::Tarantula] {
            let ranked = rank_suspects(&remove_html_markup(), metric);
            assert_eq!(ranked[0].location, at(12), "{metric}");
            assert_eq!(ranked[0].score, 1.0, "{metric}");
            assert_eq!(ranked[0].rank, 1, "{metric}");
            assert!(ranked[1].score < 1.0);
        }
    }

    #[test]
    fn other_metrics_follow_their_formulas() {
        let totals = Counts {
            failed: 2,
            passed: 4,
        };
        let line = Counts {
            failed: 2,
            passed: 1,
        };
        assert_eq!(Metric::DStar.score(line, totals), 4.0);
        assert_eq!(Metric::Op2.score(line, totals), 2.0 - 1.0 / 5.0);
        assert_eq!(Metric::Jaccard.score(line, totals), 2.0 / 3.0);
        let only_failing = Counts {
            failed: 2,
            passed: 0,
        };
        assert_eq!(Metric::DStar.score(only_failing, totals), f64::INFINITY);
        assert_eq!(Metric::DStar.score(Counts::default(), totals), 0.0);
    }

    #[test]
    fn ties_share_the_worst_case_rank_and_confidence_breaks_them() {
        // Lines 1 and 2 tie on Ochiai (the failing test and both passing
        // tests execute them: 1/sqrt(1*3)); line 3 misses one passing test.
        let spectrum = spectrum(&[(true, &[1, 2, 3]), (false, &[1, 2]), (false, &[1, 2, 3])]);
        let ranked = rank_suspects(&spectrum, Metric::Ochiai);
        assert_eq!(ranked[0].location, at(3));
        assert_eq!(ranked[0].rank, 1);
        assert_eq!((ranked[1].rank, ranked[2].rank), (3, 3));
        assert_eq!((ranked[1].location.line, ranked[2].location.line), (1, 2));
    }

    #[test]
    fn critical_predicates_then_slices_come_first() {
        let spectrum = middle();
        let slice = BTreeSet::from([at(2), at(3)]);
        let critical = BTreeSet::from([at(3)]);
        let crash = BTreeSet::from([at(5)]);
        let ranked_with = |crash| {
            let marks = Marks {
                slice: Some(&slice),
                critical: Some(&critical),
                crash,
            };
            rank_refined(&spectrum, Metric::Ochiai, &marks)
        };
        let ranked = ranked_with(None);
        let order: Vec<(u32, usize)> = ranked
            .iter()
            .take(4)
            .map(|s| (s.location.line, s.rank))
            .collect();
        // Line 3 (critical and in the slice), line 2 (in the slice), then by score.
        assert_eq!(order, [(3, 1), (2, 2), (6, 3), (5, 4)]);

        assert!(ranked[0].critical && ranked[0].in_slice && !ranked[2].in_slice);
        assert!(
            (ranked[2].score - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12,
            "scores stay the metric's"
        );
        // A crash line comes after the critical predicates, before the slice.
        let ranked = ranked_with(Some(&crash));
        let order: Vec<u32> = ranked.iter().take(3).map(|s| s.location.line).collect();
        assert_eq!(order, [3, 5, 2]);
        assert!(ranked[1].crash && !ranked[0].crash);
    }

    #[test]
    fn evidence_reorders_the_window_by_class_and_breaks_ties() {
        use crate::localize::evidence::FixClass;
        // Lines 1, 2 and 3 tie (every run executes them); line 4 scores lower.
        let spectrum = spectrum(&[
            (true, &[1, 2, 3, 4]),
            (false, &[1, 2, 3]),
            (false, &[1, 2, 3, 4]),
        ]);
        let evidence = |class, metallaxis| LineEvidence {
            edits: 3,
            class,
            metallaxis,
            muse: 0.0,
        };
        let mut ranked = rank_suspects(&spectrum, Metric::Ochiai);
        assert_eq!(ranked[0].location, at(4));
        assert_eq!(ranked[3].rank, 4);
        let found = BTreeMap::from([
            (at(1), evidence(FixClass::Negative, 0.0)),
            (at(2), evidence(FixClass::None, 0.2)),
            (at(3), evidence(FixClass::None, 0.5)),
            (at(4), evidence(FixClass::Clean, 1.0)),
        ]);
        rerank_by_evidence(&mut ranked, &found, 3);
        let order: Vec<(u32, usize)> = ranked.iter().map(|s| (s.location.line, s.rank)).collect();
        // The window (lines 4, 1, 2): 4 (a clean fix) first. Of the three
        // equal scores left, line 3 (outside the window: no edit tried),
        // then 2 (edits changed nothing), then 1 (edits only broke).
        assert_eq!(order, [(4, 1), (3, 2), (2, 3), (1, 4)]);
        assert!(ranked[1].mutation.is_none());
        // Within a class, equal scores are told apart by Metallaxis.
        let mut ranked = rank_suspects(&spectrum, Metric::Ochiai);
        rerank_by_evidence(&mut ranked, &found, 4);
        let order: Vec<(u32, usize)> = ranked.iter().map(|s| (s.location.line, s.rank)).collect();
        assert_eq!(order, [(4, 1), (3, 2), (2, 3), (1, 4)]);
        // A clean fix outside the window counts where it is; other evidence
        // there does not.
        let mut ranked = rank_suspects(&spectrum, Metric::Ochiai);
        let found = BTreeMap::from([
            (at(4), evidence(FixClass::None, 0.0)),
            (at(3), evidence(FixClass::Clean, 0.5)),
        ]);
        rerank_by_evidence(&mut ranked, &found, 2);
        let order: Vec<(u32, usize)> = ranked.iter().map(|s| (s.location.line, s.rank)).collect();
        // Line 4's edits found nothing, but it outscores lines 1 and 2
        // (one untried in the window, one outside it: they tie).
        assert_eq!(order, [(3, 1), (4, 2), (1, 4), (2, 4)]);
        let mut ranked = rank_suspects(&spectrum, Metric::Ochiai);
        let found = BTreeMap::from([(at(3), evidence(FixClass::None, 0.5))]);
        rerank_by_evidence(&mut ranked, &found, 2);
        assert!(
            ranked
                .iter()
                .all(|s| s.location != at(3) || s.mutation.is_none())
        );
    }

    #[test]
    fn metric_names_parse() {
        assert_eq!("DStar".parse::<Metric>(), Ok(Metric::DStar));
        assert!("cosine".parse::<Metric>().is_err());
    }
}
