//! The mutation space of a crate: every place a mutation operator can apply
//! (a site), with its location and the variables in scope there, and the
//! ingredients mutations are made of (statements, conditions, literals and
//! method names found in the crate's own code: "plastic surgery").
//!
//! Sites and ingredients hold byte ranges into the original texts, never
//! reprinted code, so every edit built from them touches only its range.
//!
//! The folder: `site` (the kinds of site), `space` (the mutation space
//! and its ingredients), `literal`, `exclusions` (`--exclude`), `items`
//! (what the crate's items declare, and data: `const` and `static` items
//! and the code that reads them), `followers` (what statement follows
//! which, and which leads a statement of a shape), `preconditions` (the assertions
//! failing tests tripped, with their callers), `floors` (the `let`
//! values a later subtraction or division needs above a floor), and the walk over runnable code that
//! collects the sites, `collector`, with its `statements`, `conditions`,
//! `expressions`, `extensions` (the operands a function writes extended)
//! and `arms` (a `match`'s literal arms, for a case it forgot).

mod arms;
mod collector;
mod conditions;
mod exclusions;
mod expressions;
mod extensions;
mod floors;
mod followers;
mod items;
mod literal;
mod preconditions;
mod prior;
mod site;
mod space;
mod statements;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use crate::baseline::Baseline;
use crate::code::source::item_name;
use crate::code::{CrateSources, KeepConst, identifiers_in, walk_runnable_code};
use collector::Collector;
pub use collector::is_atomic;
pub use conditions::negation;
pub use exclusions::Exclusions;
use floors::floors;
use followers::neighbours;
pub use items::constant_value;
use items::{collect_constants, reads_of};
pub use literal::Literal;
pub use preconditions::Precondition;
pub use site::{LoneIf, OVERFLOWING_METHODS, Site, SiteKind, StatementSite};
pub use space::{Constant, Declared, Ingredient, MutationSpace, Returned, method_siblings};

/// The mutation space of the crate `baseline` holds, with what its test
/// runs say and its code does not: the messages its failing
/// `should_panic` tests expect their panics to say, the words the
/// failing tests are named and fail with, and the preconditions they broke.
pub fn space_of(baseline: &Baseline, exclusions: &Exclusions) -> MutationSpace {
    let mut space = collect_mutation_space(&baseline.sources, &baseline.keep_const, exclusions);
    space.expected_panics = baseline.expected_panics();
    space.failing_words = baseline.failing_words();
    space.preconditions = preconditions::preconditions(baseline);
    space
}

/// Collects sites and ingredients from every crate file (and the bodies of
/// the `const fn`s that may lose their `const`: see `KeepConst`). Excluded
/// code gives ingredients but no sites.
pub fn collect_mutation_space(
    sources: &CrateSources,
    keep_const: &KeepConst,
    exclusions: &Exclusions,
) -> MutationSpace {
    let mut space = MutationSpace::default();
    for (index, file) in sources.iter() {
        collect_constants(index, &file.syntax, &mut space, &|name: &str| {
            exclusions.excludes(&file.path, name)
        });
    }
    for (index, file) in sources.iter() {
        let local_items = function_items(&file.syntax);
        let floors = floors(&file.syntax);
        let mut collector = Collector {
            local_items: &local_items,
            floors: &floors,
            file: index,
            text: &file.text,
            space: &mut space,
            callees: BTreeSet::new(),
            operand_literals: BTreeSet::new(),
            sites: Vec::new(),
            excluded: &|function: &str| exclusions.excludes(&file.path, function),
            keep_const,
            conditions_end: 0,
            values: BTreeSet::new(),
        };
        walk_runnable_code(&file.syntax, &mut collector);
        let sites = std::mem::take(&mut collector.sites);
        space.sites.extend(sites);
        space.add_neighbours(neighbours(&file.syntax, &file.text));
        space.words.insert(index, identifiers(&file.syntax));
    }
    let mut reads = reads_of(sources, &space.constants);
    for constant in &mut space.constants {
        constant.read_at = reads.remove(&constant.name).unwrap_or_default();
    }
    // Code with `$fragment`s (from a macro's transcriber) means nothing
    // elsewhere: no ingredient.
    let mut seen = BTreeSet::new();
    space
        .statements
        .retain(|i| !i.text.contains('$') && seen.insert(i.text.clone()));
    let mut seen = BTreeSet::new();
    space
        .conditions
        .retain(|i| !i.text.contains('$') && seen.insert(i.text.clone()));
    space.literals.sort();
    space.literals.dedup();
    space
}

/// The identifiers of `file`'s code (not of its comments or strings).
fn identifiers(file: &syn::File) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    identifiers_in(quote::ToTokens::to_token_stream(file), &mut names);
    names
}

/// The names the items declared inside `file`'s function bodies bind
/// (`static ST_BEGIN_TAGS` in `get_html_end_tag`).
fn function_items(file: &syn::File) -> BTreeSet<String> {
    struct Items {
        depth: usize,
        names: BTreeSet<String>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Items {
        fn visit_block(&mut self, block: &'ast syn::Block) {
            self.depth += 1;
            syn::visit::visit_block(self, block);
            self.depth -= 1;
        }
        fn visit_item(&mut self, item: &'ast syn::Item) {
            if self.depth > 0 {
                self.names.extend(item_name(item).map(ToString::to_string));
            }
            syn::visit::visit_item(self, item);
        }
    }
    let mut items = Items {
        depth: 0,
        names: BTreeSet::new(),
    };
    syn::visit::Visit::visit_file(&mut items, file);
    items.names
}

/// The crate's `const` and `static` items with literals, and where
/// runnable code names them (what localization ranks data by).
pub fn constants(sources: &CrateSources) -> Vec<Constant> {
    let mut space = MutationSpace::default();
    for (file, source) in sources.iter() {
        collect_constants(file, &source.syntax, &mut space, &|_| false);
    }
    let mut reads = reads_of(sources, &space.constants);
    for constant in &mut space.constants {
        constant.read_at = reads.remove(&constant.name).unwrap_or_default();
    }
    space.constants
}
