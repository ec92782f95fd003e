//! Pins what the operators make, so that a change meant to keep their
//! behaviour (a refactor) can show it did: over the fixtures' and the
//! benchmark programs' mutation spaces, a digest of every edit of every
//! operator at every site (with no types known, and with made-up types that
//! reach the typed paths), of the random draws for one seed, and of the
//! sweep's edits per location. The digests were computed before operators
//! became a table; a change that alters them changes what a run does.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::code::crate_sources::{CrateSources, Originals, SourceFile};
use crate::code::source::{Edit, FileId, parse_file};
use crate::mutation::mutator::{Mutator, course};
use crate::mutation::operators::{Context, edits};
use crate::mutation::patch::{Operator, PatchEdit};
use crate::mutation::sites::{MutationSpace, SiteKind, collect_mutation_space};
use crate::mutation::types::{Types, Unused};

/// Per crate (its directory): the digest of its edits without types, with
/// made-up types, of 300 draws, and of the sweep, and the number of edits
/// (without types, with them). A failure shows the table as it is now.
const PINNED: &[&str] = &[
    "bench/programs/calc 93505624d0ef96e3 9cdf0332416b792a 4ebce411d74210f1 81481ee6f9aec77d 6621 12693",
    "bench/programs/dates e05fdd13154b2bc1 1b8b98cbd2c71e6b 5a6aaa678c3b1334 64cf004f3943abda 5194 9113",
    "bench/programs/intervals 33c028cd74f0394f d72e76712a720dc1 52b9362378deb7ea cdb6a53a45dfc59b 3844 8660",
    "bench/programs/ledger a6b177c34836892f 6b93fd4c36833419 2413f0edb4746e74 aa2db8572d7aac74 3249 7728",
    "bench/programs/rle d6d4a95cd6286aaa c0a4b062c5b3e308 f3f16dadfd9caf77 86d93c229c5becfc 3818 8665",
    "bench/programs/roman ebf947ff4032e5c2 5923458abccf57eb 9f753737a302ec38 0768119a2e7e83c7 1887 4062",
    "bench/programs/textstats 6b258bfe2280631b 1fcbdcd914aabf8c 8c68bcf5c2fe7a20 718b6f8205dfb531 4316 6975",
    "testdata/all_failing db4139b97473c8ce 150ebc285817c735 f80c1493eaff7d24 3464adff9f970d74 10 47",
    "testdata/arithmetic 4f2a85f48171e104 43431e3552b082b5 dc27789871428f42 640dd9c6c7a3ca45 30 26",
    "testdata/attribution 3e776638721be067 3e776638721be067 47956539072890ba 91034de5b6edfbdc 76 76",
    "testdata/bisect 043f1405209c1348 7c410acf9d0f0aba 80738d3bf9961ea1 9282d7920d74d009 76 185",
    "testdata/broken c229ad80e8bcd590 97b6e0caca1f2de2 81ddf6ae9f664e43 379fabe8b7b76851 5 17",
    "testdata/clashes 62487dca90537be6 3e765d2a4bac0baa 78be06f90c7eccc3 b1d7bff6bdfde160 31 52",
    "testdata/cli cea858d3e6fd87fc 98d02ebf3ecb9158 50f0109b6ae608b0 ebe474741a736e35 134 199",
    "testdata/comparison 73eba786a2bf54c4 3535cae72bfe65ed 7e0218f91f94400a b985bc638ed8f3ed 80 111",
    "testdata/const_table 53aafe879f19fb90 e9753401c05e641d ce71a951b0138f65 03f3ecbed86834ab 115 133",
    "testdata/crash_site 60ece520e5f5bb10 e758916d79001a76 50dd307280a5e4ea 8f092bcaa4811d49 1134 1781",
    "testdata/far_fault 71be046245fd11a3 7b48b8ec5601d87a d1437f2526ebb6c3 a39351f02859d30e 554 585",
    "testdata/features 8e45b79be5e01aca 9c65cb7bc91449e5 ddf8267d2d62d342 f5c64590d1e698a3 14 40",
    "testdata/flaky 2460eadbbb98f03e 715f1683d61aed16 8044f78bfd2d67c1 2e95f0304628e56e 6 24",
    "testdata/group_totals d2d55a53b9bac8f6 1d625340ed442690 b01a599b019df5be 2885209d28349a58 225 436",
    "testdata/half_repairable 36c1e8a6fe3c0288 e28f3be24008f0ba 45526092ca220238 d60677ff9e5ba092 25 25",
    "testdata/hang aef3076cb2c311e1 e693a15099554843 f3636fd4132e28c5 3bb0e61734210c04 199 302",
    "testdata/html_quotes efbbe523b643c17a 70bd18ef770cdc1e 9ee5ab2037e0b8a8 6fb449231ba1c5d0 503 1131",
    "testdata/integration fe55d632876d5bce bfd5d16ee73f1526 2ebbd5c47d7e1ccc b533a63fa5ddb0dd 190 415",
    "testdata/log_repeats 64e7fab990ee5fdb 3958f70b7ab4ddfe e7ead76af7bd1879 ab636cced01d6ad6 640 1171",
    "testdata/logged_mean b559f26b082da0d6 c8158eac04f6cb2c 17bee1a00666d519 35255cbbdfcf1a40 191 609",
    "testdata/long_test 7dd057343c4ed78d 39e21fadb43388a4 d7460bd13d527e93 f7097f9d3032ec45 262 772",
    "testdata/macro_body 9e5ad0f9c14f0e84 95c01d4d3db4be9e 893b7f5a5561b748 902bf3c880ddaf8e 112 214",
    "testdata/median 3a1efbd568164813 077d4f4ca6e340fe 651800efa24a26c1 12932b66a296d29b 36 85",
    "testdata/middle 9211ff042e6be3d6 fd7bdab150da7ef0 082dbd176d46d718 daf4ec508ccc5392 282 854",
    "testdata/missing_conjunct a1a47a3d8a09399d 1c14dd6d2923d03a 6fa7e0bc0b80d975 e0f5232e544c6d4a 19 50",
    "testdata/missing_guard 05f86e3ecd395e8d ea48baad49123e13 d8782b3471b3aa6f a8c2f66864aed71a 17 61",
    "testdata/missing_statement f084c75c056d8062 1296ce8d2d967253 83b1108b6216fe78 0afa5ba57c732baa 114 213",
    "testdata/missing_twin 87006b7eb1700258 42e9a35d89fbc2dd 2b693c1d99b22a20 33b1b6d3bf999c49 188 314",
    "testdata/moved_data 7577b25e713e57c1 fd190f459af5bc24 40507e66250cde87 d51c35bac59aef7d 47 85",
    "testdata/no_std 27003f8bedd4e021 d0b1d2d96a0531b8 6414128d1d255c73 8fb6a750e721a164 269 663",
    "testdata/no_std_2015 c461f7097beeb0fd 07e53df288b5f853 a6ddcf8a4000b5c7 c4c15434e9f4f30b 279 668",
    "testdata/no_tests 21c14789f0a34917 80d7574e25c2a397 86e99b717bd9870f 7d39e5c0eb0249f3 6 16",
    "testdata/off_by_one 3d4db98347180928 b5172df4d2d8a48c d5d3838f7f410c06 577c975ad644ad70 70 218",
    "testdata/offset_branch 1d896443627a074d 4b32981a5032398a 67b287834699f981 d8ac4d54c7817315 51 219",
    "testdata/offset_index 46cff8a850431920 ec6edeb57c7e43f7 387f54258c5948dc c3e9aecbca7d2f2d 31 88",
    "testdata/passing 21c14789f0a34917 80d7574e25c2a397 86e99b717bd9870f 7d39e5c0eb0249f3 6 16",
    "testdata/postage 00067c64439035f6 f9315b1d8773f0ee 6215767e00cbef2d f5f6eded93b0f3b1 93 126",
    "testdata/postage_rates a50a2614c3342d91 1906bb3fa3956893 5f760a51a561bdb1 9fdf4c8776c06283 271 567",
    "testdata/ranking 6648b52eef2f27d8 c163fdf65a8f11dd 456fb8a50da80834 9445eb9c5307e69d 77 126",
    "testdata/remove_html_markup efbbe523b643c17a 70bd18ef770cdc1e 9ee5ab2037e0b8a8 6fb449231ba1c5d0 503 1131",
    "testdata/reversed 846c94f4d7f49558 6b7a4cb6561753fe af94760970167934 658b0ddfcbb5d93d 32 155",
    "testdata/self_dependent db239340c924d3bd 6a8ae65886506b59 b03efa1830f64aa7 df2a14e41605ca51 21 27",
    "testdata/separators 98b7de0f2fcad0ea 795499d1218b8d46 a9188c341571fbcf e295cc73d32c807d 348 571",
    "testdata/shapes 472fc22fb43e0dc3 79c2d8ec88411241 4cf37f0b8f73479c 0c37f0bc4352bf3d 324 1008",
    "testdata/signs e7bbc8e197e2cd41 2ed1146367dfe660 28549d19320dd0e3 601a48584e6cb994 42 129",
    "testdata/starved_group 36c1e8a6fe3c0288 e28f3be24008f0ba 45526092ca220238 d60677ff9e5ba092 25 25",
    "testdata/swapped_arguments bcfa2ce648427f90 895f293966f667e5 59d3bdbe0ba5cdbd 40a3764dc7e6156d 17 73",
    "testdata/tied_lines c3a7913182e663f6 225fb48bd2e82f4a d107d358c9640f05 067960459cc14de6 30 110",
    "testdata/two_faults f267e33536b913be efad3bf7683a2a31 78d90bb281ddfea1 08aae6df26c48160 78 239",
    "testdata/two_plausible 87552c7a52cbe527 b1dc96362268641f ede1b6f41fce6169 02eb4d1f3bcafb2e 38 127",
    "testdata/uninstrumented ffdab0d4986ba506 4342a939c2105d94 31faa479ad22827e 072cb8344afee64f 138 180",
    "testdata/unparsable cbf29ce484222325 5fd514c5b6440906 ad6ceeb3dd61cbc9 d5a46efd1b309b1d 0 11",
    "testdata/unrepairable 6548df94abd93276 5a4a56bf60803496 1ff3d65e07092db0 fb48c09d5cff2de2 144 401",
    "testdata/unused_binding 0249b248ed3b3562 6a2dfe3e1adc13fa 0266388ec36dce0b 8be5451c46f81f44 516 1364",
    "testdata/unzip_pairs c52f9456c4167a55 50d21de0629449f5 8e579b43330e76ad 24d9b32364ef5a63 76 181",
    "testdata/word_pieces 1fdabf4e25f7d953 c784dbf4ca0910cb 968bf6663d9158ea 86c0c9059ac34a02 723 2013",
];

/// FNV-1a, 64 bits: a digest that stays the same across Rust versions.
#[derive(Clone, Copy)]
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }

    fn add_edit(&mut self, operator: Operator, file: FileId, line: u32, edit: &Edit) {
        self.add(operator.name().as_bytes());
        self.add(&(file.index() as u64).to_le_bytes());
        self.add(&line.to_le_bytes());
        self.add(&(edit.range.start as u64).to_le_bytes());
        self.add(&(edit.range.end as u64).to_le_bytes());
        self.add(edit.text.as_bytes());
    }

    fn add_patch_edit(&mut self, edit: &PatchEdit) {
        self.add_edit(edit.operator, edit.file, edit.line, &edit.edit);
    }
}

/// The crates pinned: every fixture and benchmark program, by directory.
fn crate_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = Vec::new();
    for parent in ["testdata", "bench/programs"] {
        for entry in fs::read_dir(root.join(parent)).unwrap() {
            let path = entry.unwrap().path();
            if path.join("src").is_dir() {
                dirs.push(path);
            }
        }
    }
    dirs.sort();
    dirs
}

/// Every `.rs` file under `dir`, in path order.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crate's source files under `src/` that parse (every one a root
/// where it is `lib.rs` or `main.rs`).
fn sources_of(dir: &Path) -> CrateSources {
    let mut paths = Vec::new();
    rust_files(&dir.join("src"), &mut paths);
    let mut sources = CrateSources::default();
    for path in paths {
        let text = fs::read_to_string(&path).unwrap();
        let Ok(syntax) = parse_file(&text) else {
            continue;
        };
        let relative = path.strip_prefix(dir).unwrap().to_path_buf();
        if relative.ends_with("lib.rs") || relative.ends_with("main.rs") {
            sources.roots.push(FileId::new(sources.files.len()));
        }
        sources.files.push(SourceFile {
            path: relative,
            text,
            syntax,
        });
    }
    sources
}

/// One of a few types, by a name's digest.
fn made_up_type(name: &str) -> &'static str {
    const TYPES: &[&str] = &[
        "usize",
        "u32",
        "i64",
        "bool",
        "Vec<u32>",
        "Option<usize>",
        "String",
        "&[u8]",
        "integer",
        "&str",
        "usize",
        "i32",
    ];
    let mut digest = Digest::new();
    digest.add(name.as_bytes());
    TYPES[(digest.0 % TYPES.len() as u64) as usize]
}

/// Made-up types for every variable in scope at a site or free in an
/// ingredient, every operand and arithmetic expression, and some variables
/// warned about: what reaches the operators' typed paths.
fn made_up_types(space: &MutationSpace) -> Types {
    let mut types = Types::default();
    let mut warned = BTreeSet::new();
    for site in &space.sites {
        let here = site.location();
        for name in &site.bound {
            types.set_variable(here, name, made_up_type(name));
            let mut digest = Digest::new();
            digest.add(name.as_bytes());
            if digest.0.is_multiple_of(4)
                && warned.insert((site.file, site.function.clone(), name.clone()))
            {
                types.add_unused(Unused {
                    at: here,
                    name: name.clone(),
                    function: site.function.clone(),
                    never_used: digest.0.is_multiple_of(8),
                });
            }
        }
        match &site.kind {
            SiteKind::Operand { range, .. } => {
                let ty = made_up_type(&format!("{}", range.start));
                types.set_expression(site.file, range, ty);
            }
            SiteKind::BinaryOperator { expression, .. } => {
                let ty = made_up_type(&format!("{}", expression.end));
                types.set_expression(site.file, expression, ty);
            }
            _ => {}
        }
    }
    for ingredient in &space.statements {
        for name in &ingredient.free {
            types.set_variable(ingredient.origin, name, made_up_type(name));
        }
    }
    types
}

/// The digest of every edit of every operator at every site, and how many.
fn edits_digest(space: &MutationSpace, originals: &Originals, types: &Types) -> (u64, usize) {
    let mut digest = Digest::new();
    let mut count = 0;
    for site in &space.sites {
        let cx = Context {
            space,
            text: originals.text(site.file),
            types,
        };
        for operator in Operator::all() {
            for edit in edits(operator, site, &cx) {
                digest.add_edit(operator, site.file, site.line, &edit);
                count += 1;
            }
        }
    }
    (digest.0, count)
}

/// The digests of 300 random draws (seed 11, every line weighing by its
/// number) and of the sweep's edits, in batches over every location.
fn search_digests(space: &MutationSpace, originals: &Originals, types: &Types) -> (u64, u64) {
    let weight = |l: crate::code::source::Location| f64::from(l.line % 7 + 1);
    let mutator = Mutator::new(space, originals, types, &Operator::all(), weight);
    let mut draws = Digest::new();
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..300 {
        match mutator.mutation(&mut rng) {
            Some(edit) => draws.add_patch_edit(&edit),
            None => draws.add(b"none"),
        }
    }
    let locations: Vec<_> = mutator.weights().map(|(l, _, _)| l).collect();
    let legs = course(&locations);
    let mut sweep = Digest::new();
    let mut next = 0;
    while next < legs.len() {
        for edit in mutator.batch_at(&legs, &mut next, 40, 3) {
            sweep.add_patch_edit(&edit);
        }
        sweep.add(b"batch");
    }
    (draws.0, sweep.0)
}

/// One row of the table for the crate in `dir`.
fn pinned_row(dir: &Path) -> String {
    let sources = sources_of(dir);
    let originals = sources.originals();
    let space = collect_mutation_space(&sources, &Default::default());
    let untyped = Types::default();
    let typed = made_up_types(&space);
    let (plain, plain_count) = edits_digest(&space, &originals, &untyped);
    let (with_types, typed_count) = edits_digest(&space, &originals, &typed);
    let (draws, sweep) = search_digests(&space, &originals, &typed);
    let name = dir.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
    format!(
        "{} {plain:016x} {with_types:016x} {draws:016x} {sweep:016x} {plain_count} {typed_count}",
        name.display()
    )
}

#[test]
fn operators_make_the_edits_and_draws_pinned() {
    let rows: Vec<String> = crate_dirs().iter().map(|d| pinned_row(d)).collect();
    let changed: Vec<&String> = rows
        .iter()
        .filter(|r| !PINNED.contains(&r.as_str()))
        .collect();
    let table: String = rows.iter().map(|r| format!("    \"{r}\",\n")).collect();
    assert!(
        changed.is_empty(),
        "changed or new: {changed:#?}\nthe table now:\n{table}"
    );
    assert_eq!(rows.len(), PINNED.len(), "a crate is gone");
}
