//! A small decision tree that tells failing runs from passing ones by
//! boolean features (whether a run saw an event), as the statistical
//! debugging seed's `ClassifyingDebugger` does with scikit-learn: its
//! splits say which circumstances decide the outcome. ID3: each node
//! splits on the feature with the largest information gain (entropy of
//! pass/fail before, less the weighted entropy of the two sides), ties to
//! the earlier candidate; it stops when a node is pure, at the depth
//! limit, or when no feature gains anything.
//!
//! Pure, and generic over what a feature is.

use std::collections::BTreeSet;

/// A node of the tree, with the runs that reach it.
#[derive(Debug, Clone, PartialEq)]
pub enum Tree<F> {
    Leaf {
        failing: usize,
        passing: usize,
    },
    Split {
        feature: F,
        /// The information gain of the split, in bits.
        gain: f64,
        failing: usize,
        passing: usize,
        /// The runs that saw `feature`.
        present: Box<Tree<F>>,
        absent: Box<Tree<F>>,
    },
}

impl<F: Ord> Tree<F> {
    /// How many failing and passing runs reach this node.
    pub fn counts(&self) -> (usize, usize) {
        match self {
            Tree::Leaf { failing, passing }
            | Tree::Split {
                failing, passing, ..
            } => (*failing, *passing),
        }
    }

    /// What a node predicts on its own: `fail` when most of its runs
    /// failed, else `pass` (a tie passes).
    pub fn verdict(&self) -> &'static str {
        let (failing, passing) = self.counts();
        if failing > passing { "fail" } else { "pass" }
    }

    /// Whether a run with `features` is predicted to fail (a leaf predicts
    /// its [`Tree::verdict`]).
    pub fn predicts_failure(&self, features: &BTreeSet<F>) -> bool {
        match self {
            Tree::Leaf { .. } => self.verdict() == "fail",
            Tree::Split {
                feature,
                present,
                absent,
                ..
            } => {
                if features.contains(feature) {
                    present.predicts_failure(features)
                } else {
                    absent.predicts_failure(features)
                }
            }
        }
    }

    /// The number of splits on the longest path.
    pub fn depth(&self) -> usize {
        match self {
            Tree::Leaf { .. } => 0,
            Tree::Split {
                present, absent, ..
            } => 1 + present.depth().max(absent.depth()),
        }
    }
}

/// Learns a tree of at most `max_depth` splits over `candidates` from
/// `samples`: (failed?, the features present).
pub fn learn<F: Ord + Clone>(
    samples: &[(bool, &BTreeSet<F>)],
    candidates: &[F],
    max_depth: usize,
) -> Tree<F> {
    let failing = samples.iter().filter(|(failed, _)| *failed).count();
    let passing = samples.len() - failing;
    if max_depth == 0 || failing == 0 || passing == 0 {
        return Tree::Leaf { failing, passing };
    }
    let before = entropy(failing, passing);
    let mut best: Option<(&F, f64)> = None;
    for feature in candidates {
        let gain = before - split_entropy(samples, feature);
        if gain > GAIN_FLOOR && best.is_none_or(|(_, g)| gain > g + GAIN_FLOOR) {
            best = Some((feature, gain));
        }
    }
    let Some((feature, gain)) = best else {
        return Tree::Leaf { failing, passing };
    };
    let (with, without): (Vec<Sample<F>>, Vec<Sample<F>>) =
        samples.iter().partition(|(_, f)| f.contains(feature));
    Tree::Split {
        feature: feature.clone(),
        gain,
        failing,
        passing,
        present: Box::new(learn(&with, candidates, max_depth - 1)),
        absent: Box::new(learn(&without, candidates, max_depth - 1)),
    }
}

/// A run: failed?, and the features present.
type Sample<'a, F> = (bool, &'a BTreeSet<F>);

/// Gains smaller than this are no gain (and equal gains tie).
const GAIN_FLOOR: f64 = 1e-12;

/// The entropy of pass/fail, in bits.
pub fn entropy(failing: usize, passing: usize) -> f64 {
    let all = (failing + passing) as f64;
    [failing, passing]
        .into_iter()
        .filter(|&n| n > 0)
        .map(|n| {
            let p = n as f64 / all;
            -p * p.log2()
        })
        .sum()
}

/// The entropy after splitting on `feature`, each side weighted by its runs.
fn split_entropy<F: Ord>(samples: &[(bool, &BTreeSet<F>)], feature: &F) -> f64 {
    let mut counts = [[0usize; 2]; 2];
    for (failed, features) in samples {
        counts[usize::from(features.contains(feature))][usize::from(*failed)] += 1;
    }
    let all = samples.len() as f64;
    counts
        .iter()
        .map(|[passing, failing]| (failing + passing) as f64 / all * entropy(*failing, *passing))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight runs over features a, b, c, worked by hand:
    /// root 4 failing, 4 passing (1 bit). Gain(a) = 1 - 5/8 H(4/5) =
    /// 0.5488; gain(b) = gain(c) = 0. Under a: 4 failing, 1 passing
    /// (0.7219 bits): gain(b) = 0.7219 - 3/5 H(2/3) = 0.1710, gain(c) =
    /// 0.7219 - 4/5 H(3/4) = 0.0729. Under a and not b: 2 failing, 1
    /// passing: gain(c) = 0.9183 - 2/3 = 0.2516.
    fn samples() -> Vec<(bool, BTreeSet<char>)> {
        let set = |s: &str| s.chars().collect::<BTreeSet<char>>();
        vec![
            (true, set("ab")),
            (true, set("ab")),
            (true, set("a")),
            (false, set("b")),
            (false, set("")),
            (false, set("bc")),
            (true, set("ac")),
            (false, set("a")),
        ]
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn entropy_of_known_mixes() {
        assert_eq!(entropy(4, 4), 1.0);
        assert_eq!(entropy(3, 0), 0.0);
        assert!(close(entropy(4, 1), 0.7219));
        assert!(close(entropy(2, 1), 0.9183));
    }

    #[test]
    fn the_worked_example_splits_on_a_then_b_then_c() {
        let samples = samples();
        let refs: Vec<(bool, &BTreeSet<char>)> = samples.iter().map(|(f, s)| (*f, s)).collect();
        // `c` and `b` first among the candidates: ties would go to them.
        let tree = learn(&refs, &['c', 'b', 'a'], 3);
        let Tree::Split {
            feature: 'a',
            gain,
            present,
            absent,
            ..
        } = &tree
        else {
            panic!("root is not a: {tree:?}")
        };
        assert!(close(*gain, 0.5488), "{gain}");
        assert_eq!(
            **absent,
            Tree::Leaf {
                failing: 0,
                passing: 3
            }
        );
        let Tree::Split {
            feature: 'b',
            gain,
            present: a_and_b,
            absent: a_not_b,
            ..
        } = present.as_ref()
        else {
            panic!("a's side is not split on b: {present:?}")
        };
        assert!(close(*gain, 0.1710), "{gain}");
        assert_eq!(
            **a_and_b,
            Tree::Leaf {
                failing: 2,
                passing: 0
            }
        );
        let Tree::Split {
            feature: 'c',
            gain,
            present: with_c,
            absent: without_c,
            ..
        } = a_not_b.as_ref()
        else {
            panic!("a and not b is not split on c: {a_not_b:?}")
        };
        assert!(close(*gain, 0.2516), "{gain}");
        assert_eq!(
            **with_c,
            Tree::Leaf {
                failing: 1,
                passing: 0
            }
        );
        // The depth limit stops here, with one failing and one passing run.
        assert_eq!(
            **without_c,
            Tree::Leaf {
                failing: 1,
                passing: 1
            }
        );
        assert_eq!(tree.depth(), 3);
        assert_eq!(tree.counts(), (4, 4));
        // Seven of the eight runs are predicted right.
        let right = samples
            .iter()
            .filter(|(failed, features)| tree.predicts_failure(features) == *failed)
            .count();
        assert_eq!(right, 7);
    }

    #[test]
    fn depth_limits_and_pure_or_gainless_nodes_are_leaves() {
        let samples = samples();
        let refs: Vec<(bool, &BTreeSet<char>)> = samples.iter().map(|(f, s)| (*f, s)).collect();
        let shallow = learn(&refs, &['a', 'b', 'c'], 1);
        assert_eq!(shallow.depth(), 1);
        assert_eq!(
            learn(&refs, &['b', 'c'], 3),
            Tree::Leaf {
                failing: 4,
                passing: 4
            }
        );
        let passing_only = [(false, &samples[3].1)];
        assert_eq!(
            learn(&passing_only, &['a'], 3),
            Tree::Leaf {
                failing: 0,
                passing: 1
            }
        );
    }

    #[test]
    fn equal_gains_go_to_the_earlier_candidate() {
        let x = BTreeSet::from([1, 2]);
        let y = BTreeSet::new();
        let samples = [(true, &x), (false, &y)];
        let first = |tree: Tree<i32>| match tree {
            Tree::Split { feature, .. } => feature,
            Tree::Leaf { .. } => panic!("no split"),
        };
        assert_eq!(first(learn(&samples, &[2, 1], 3)), 2);
        assert_eq!(first(learn(&samples, &[1, 2], 3)), 1);
    }
}
