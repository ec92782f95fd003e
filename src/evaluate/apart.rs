//! Which candidates of a batch a woven build keeps apart. A generic
//! function is compiled once per instantiation, and each copy of a function
//! whose body defines types of its own (a closure, an async block) hands
//! new ones to what it calls: woven together, `m` copies of such a function
//! calling a generic function with `g` variants compile `m * g` versions of
//! it in every test crate that reaches them (pathfinding's `yen`, 68
//! copies, each handing a closure to `dijkstra`'s variants: one test crate
//! took 140 s to compile, 6 s with `yen`'s variants alone). The batch is
//! split so that no build holds more than [`PRODUCT`] such pairs.

use std::collections::BTreeMap;

use crate::code::Originals;
use crate::evaluate::functions::Functions;
use crate::evaluate::weave::variants;
use crate::mutation::Candidate;

/// The most variants of a function defining types, times the variants of a
/// generic function, one woven build holds: beyond it, the copies cost more
/// to compile than another build of the crate.
const PRODUCT: usize = 64;

/// A woven build's share of a batch.
#[derive(Default)]
struct Part {
    members: Vec<usize>,
    /// Per function, how many of the members have a variant of it.
    variants: BTreeMap<usize, usize>,
}

/// The `fresh` candidates of `batch` (indexes) in parts, each to be woven
/// in a build of its own, in order; most batches are one part. A candidate
/// that cannot be woven goes with the first.
pub fn parts(
    originals: &Originals,
    functions: &Functions,
    batch: &[Candidate],
    fresh: &[usize],
) -> Vec<Vec<usize>> {
    let mut parts: Vec<Part> = Vec::new();
    for &index in fresh {
        let touched: Vec<usize> = variants(originals, functions, &batch[index])
            .map(|found| found.into_keys().collect())
            .unwrap_or_default();
        let fits = |part: &Part| touched.is_empty() || fits(part, &touched, functions);
        let at = match parts.iter().position(fits) {
            Some(at) => at,
            None => {
                parts.push(Part::default());
                parts.len() - 1
            }
        };
        let part = &mut parts[at];
        part.members.push(index);
        for &function in &touched {
            *part.variants.entry(function).or_default() += 1;
        }
    }
    parts.into_iter().map(|part| part.members).collect()
}

/// Whether `part` can take a candidate with variants of `touched` and stay
/// within [`PRODUCT`] (a part that holds nothing takes anything).
fn fits(part: &Part, touched: &[usize], functions: &Functions) -> bool {
    if part.members.is_empty() {
        return true;
    }
    let mut counts = part.variants.clone();
    for &function in touched {
        *counts.entry(function).or_default() += 1;
    }
    counts.iter().all(|(&maker, &copies)| {
        !functions.get(maker).makes_types
            || counts.iter().all(|(&generic, &variants)| {
                generic == maker || !functions.get(generic).generic || copies * variants <= PRODUCT
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::{Edit, FileId, Location};
    use crate::code::{CrateSources, KeepConst};
    use crate::mutation::{Operator, PatchEdit};

    /// `run` hands a closure to the generic `walk`; `plain` does neither.
    const TEXT: &str = "fn walk<F: Fn(u8) -> u8>(f: F) -> u8 {\n    f(1) + 1\n}\n\
        fn run() -> u8 {\n    walk(|x| x * 2) + 3\n}\n\
        fn plain(a: u8) -> u8 {\n    a - 4\n}\n";

    /// `count` candidates, each replacing `needle` with another number.
    fn edits(needle: &str, count: usize) -> Vec<Candidate> {
        let start = TEXT.find(needle).unwrap();
        (0..count)
            .map(|n| {
                Candidate::original().with(PatchEdit {
                    file: FileId::new(0),
                    edit: Edit::replace(start..start + needle.len(), (n + 10).to_string()),
                    operator: Operator::Swap,
                    line: Location::default().line,
                })
            })
            .collect()
    }

    fn parts_of(batch: &[Candidate]) -> Vec<Vec<usize>> {
        let sources = CrateSources::of_one_file(TEXT);
        let functions = Functions::of(&sources, &KeepConst::of(&sources), &[], &[]);
        let fresh: Vec<usize> = (0..batch.len()).collect();
        parts(&sources.originals(), &functions, batch, &fresh)
    }

    #[test]
    fn copies_that_make_types_are_kept_apart_from_many_variants_of_a_generic_function() {
        // 10 copies of `run` times 10 variants of `walk`: over the bound.
        let batch: Vec<Candidate> = [edits("+ 1", 10), edits("+ 3", 10), edits("- 4", 5)].concat();
        let parts = parts_of(&batch);
        assert_eq!(parts.len(), 2, "{parts:?}");
        // `walk`'s variants first; `run`'s that fit (6 * 10 > 64 is where
        // it stops), then `plain`'s, which fit anywhere, with the first.
        assert_eq!(
            parts[0],
            [(0..16).collect::<Vec<_>>(), (20..25).collect()].concat()
        );
        assert_eq!(parts[1], (16..20).collect::<Vec<_>>());
        // Few of either: one build.
        let few: Vec<Candidate> = [edits("+ 1", 4), edits("+ 3", 4), edits("- 4", 5)].concat();
        assert_eq!(parts_of(&few), [(0..13).collect::<Vec<_>>()]);
    }
}
