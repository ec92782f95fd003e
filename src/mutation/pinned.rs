//! Pins what the operators make, so that a change meant to keep their
//! behaviour (a refactor) can show it did: over the fixtures' and the
//! benchmark programs' mutation spaces, a digest of every edit of every
//! operator at every site (with no types known, and with made-up types that
//! reach the typed paths), of the random draws for one seed, and of the
//! sweep's edits per location. The digests were computed before operators
//! became a table (and again for the operators `overflow`, `bounds`,
//! `jump`, `member` and `ends`, conditions of `self`'s fields, accumulations
//! made safe as a whole, and statements inserted on the site's variables
//! first); a change that alters them changes what a run does.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::code::source::{Edit, FileId, parse_file};
use crate::code::{CrateSources, KeepConst, Originals, SourceFile};
use crate::mutation::mutator::{Mutator, course};
use crate::mutation::operators::{Context, edits};
use crate::mutation::patch::{Operator, PatchEdit};
use crate::mutation::sites::{MutationSpace, SiteKind, collect_mutation_space};
use crate::mutation::types::{Types, Unused};

/// Per crate (its directory): the digest of its edits without types, with
/// made-up types, of 300 draws, and of the sweep, and the number of edits
/// (without types, with them). A failure shows the table as it is now.
const PINNED: &[&str] = &[
    "bench/programs/calc fc453cab4ca9b957 803cc00cfeb2fd42 97acc66e020f5c5c c48d418c4da571aa 8333 13975",
    "bench/programs/dates fd316a1fd765c9c3 efd8bccb4a187f2e 192b004ce37ef280 c9f92a6b6402a24c 6762 10678",
    "bench/programs/intervals ddbfc2913faf6cc4 467fa0c1e17a08e9 fd46c43cb8ac61a7 8bca5ee1ec83daa3 4177 8965",
    "bench/programs/ledger 2c6f91074e469f07 f57150de78bde565 3e4b693d128ff7ab eb9f6da29e37ccf2 4016 9307",
    "bench/programs/rle 9d13ea8cd58cc6ad 29dc063ef5632e37 bce2548f39fed09c c3a602a4f508e531 4233 9499",
    "bench/programs/roman a7ca2ac722944e14 1b7a3d70dfe5ed98 2085343917031f37 325080b3d5bee081 2368 4910",
    "bench/programs/textstats bd9d9046ff3cdf34 f294547b8907a5b7 23c7ff00e73cbe37 d577b6b86af14c61 4666 7406",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 d115aec04b173efd f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 581306727a7956d4 18db1cf04af2ccc6 542824fcbaf02536 1ae6325e36de7672 41 28",
    "testdata/attribution 77a5ec2af7fb2d70 77a5ec2af7fb2d70 fc17cbec3c02b723 9284ba3185043cb7 64 64",
    "testdata/bisect 9c68012603671974 1f0e573b6fa95128 9f5351523be0c8ca 7ed5f3785772ca2f 79 216",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa d02b02c7a03d0b0f 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail cda5484d32b1cc65 d05ba93d0f966cea 3b794f390a3ea775 d7ff16c7ffc661ce 262 470",
    "testdata/clashes e4506ee44961229c f3d7a920e7708b68 8d36ad3b3dc0cae1 c35975955bbf5de3 107 138",
    "testdata/cli 490c496e6b639167 28d31f3047c6c840 47a4e6be6450e085 0bafedece4105858 139 225",
    "testdata/comparison b54b4ebf5478faac b5f6bb617dcf83cf 6399d9cbf3aa5a70 9faf73eaaf19fb0d 125 207",
    "testdata/const_fn 4945463c1bec2d67 cbcd036c69fb0b57 20ea99deaa63ec15 0a5a53be2933cb54 342 554",
    "testdata/const_macro 72b77941d82a4ab3 2b58c9336ec049ea 56e11d6d48d43e85 2cd7b50740e8b9e9 23 45",
    "testdata/const_table f84dfebeecfda0c6 796079106d5a961c 696ef62b458a4a42 c6a306c64bd6be57 152 179",
    "testdata/crash_in_std 41eca04ef13daf05 2868c955c07fc999 dcebbe82e53b9811 56ebc597abc07bd8 44 119",
    "testdata/crash_site 9d458c0851cb1067 dc7a72e92565a843 552bc44672ce7e11 dade1cc6d96be4a5 1509 2013",
    "testdata/custom_harness 15b276ce76c5484b 8a54fbee9c7fdd33 74c58dcdb8529995 296d9496a7a0f07e 62 177",
    "testdata/early_stop 1440934273438476 04e3c43ba6df6d3f 6778a26dcf405bb4 b5ae63aae9049e6c 176 367",
    "testdata/face_cards 2bd8266f11047261 af01c48752d2dfae 470fdfc45fb141e4 2ce8c5b6aae51668 282 428",
    "testdata/far_fault 45bb0a099df891bc 36a8a00d5d174e59 ae321b80601df74f 8b3d46a3d5ec5223 659 642",
    "testdata/features 6929832fc11f9201 3246439035bb9ed6 c64821610af43958 6c164d74f38cf571 29 61",
    "testdata/flaky 4d6fae5334f3aebe ad9730d7f72e9469 b761de8ae9acc419 4d19b5aa296c12a1 9 32",
    "testdata/forgotten_term 9b2b41d3367ac587 936b5761094ab415 6702c00c5981098a 6110266e3314d6f5 295 858",
    "testdata/forgotten_variant 90eabe5d0c06f4cc 393470eea63ef389 835e2e8e701f39eb e3862db7ef8c4301 232 566",
    "testdata/group_totals efbf893e356a91e6 ad0d4a6f8578bde4 f16b307989af7b8f f8daac48cb72130e 236 473",
    "testdata/half_repairable d489815414725e6d 37b83c218108a7f8 403e9c5e6cc288cc c2167afbf152f608 31 30",
    "testdata/hang 9192a384b397c133 c6ba42c839341417 90fe00bcc4f8492c db7c16fc5d41e281 225 349",
    "testdata/html_quotes 9e28824b92337742 9ff34b13ca9da2b7 ccc42936113a567f 2a033de2f2f20bc3 592 1185",
    "testdata/integration 4cfa66477b469154 04064813b0141667 f417bba42b18e79d 539ef0199da7033c 212 450",
    "testdata/letter_weights 9b4f2f4cf7c44106 75174099fdde96bf 2f5c6c02599108b6 11ee860307f7a32b 74 209",
    "testdata/log_repeats 854ea7a779e05829 00bbfad3eba24571 6ae2ca4123962961 71bef13e7bb3ea10 677 1173",
    "testdata/logged_mean 3fbeb09518e2d722 e8a2b5e89808506e 010ab1005550d0f0 6214a531951587ad 240 642",
    "testdata/long_test 97e2fcf767878943 21b465d7b47b460d 49d0052172c78318 ec5a28464f913b43 350 919",
    "testdata/macro_body f0eaeb1e32b77bb9 d308008a3f8f003a e88e6186c7792377 930e5294bdd00d26 134 248",
    "testdata/macro_trait 79f058ef6823874c c2858841c85082c1 54487091425b26a2 bad37b3f1cd92d78 96 214",
    "testdata/median 04db3487f2ad7e1f 2212766e23758159 35a0e1f8840a2ed0 0291eb30e32b866a 48 105",
    "testdata/middle 2d77acbdb1b31efd e1007695577acf2a 97ab51b96182967a 6df701c91c556bf9 421 873",
    "testdata/missing_conjunct 25737f182b6bc862 eaebb9088b7dd55b e169ad5871c3eae5 9b4e237cf7c9c105 25 120",
    "testdata/missing_guard 98933356c164c386 5deba7d908f20f6f bc47b9af6f9403b5 5d453c8e9ee045b1 25 81",
    "testdata/missing_statement cc105d95d9f253b4 a46e5667f2b067d3 29168aad6367eda2 f6b804de7363d2b7 384 436",
    "testdata/missing_twin 8eee99a7131ef475 36d4f026e0bf7d6a f05de6a96ab327b6 8852fdff3d01edab 225 441",
    "testdata/moved_data 38e8287dc90bc61b ca806f88f2f0d5c0 1ed9f1db6a2f7dd3 308854c1c281b3af 57 90",
    "testdata/no_std 2a76ce7ec28ce473 11ad51341e5ffa95 4ec9c9ed13220ce9 fb5f16abaf96b05c 380 795",
    "testdata/no_std_2015 c794d46b28f18520 fd736f6a87b04b97 eeaee9e26ec90d74 fa86cea44aa04ab1 389 807",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f 7c172ede68906d18 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one c3008fca7c2499ea c2310dbdb6d74032 fd3070e24a6b1913 65ff32a65aaee4af 97 255",
    "testdata/offset_branch 3daaba3e3f6ac587 8c8e32591564d455 083dc1c5788ec336 caebfc74c80ea9c7 66 237",
    "testdata/offset_index b169bf4c4087f383 b3acca9b6438739b 33942f6c1bb7298c af397dc923fb0320 45 129",
    "testdata/one_fault_two_groups 9eab9809993ad9a3 0ecce3d13efcba42 832b924cb97aab41 f81613326e0fa635 83 106",
    "testdata/overflowing_digits fe6e6a4a1c978ac9 a61b02965ac5574d 69053e6100623916 ae0ec1378ea407d3 206 348",
    "testdata/parallel_lines 3746b630707bd3b4 e611f6a65007adc3 f8eedf3868d24441 abd9bc7a5ce9ce85 154 189",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f 7c172ede68906d18 43067ffb5c2ad3e6 9 24",
    "testdata/postage 145816ba3cc129f7 2dad4dc721747776 8ca84ee87a3d28d6 95ba1f1e95a32c99 103 134",
    "testdata/postage_rates d87a3a8ceb106b7b 549b4d5d0ac0682c 3aa7897e980e2522 635630e585627c00 359 705",
    "testdata/range_ends 26ce6ab6ad59a50c e5dfe448dc91a2b0 93605b7912f530c6 03678b33a036d959 63 83",
    "testdata/ranking e6a356cb0d88aefc a287a8014e48020b add7dcbc3a1b378f a3039e36cd54eebf 75 150",
    "testdata/remove_html_markup 9e28824b92337742 9ff34b13ca9da2b7 ccc42936113a567f 2a033de2f2f20bc3 592 1185",
    "testdata/reversed 4796d2171005e16b 3d58ddeffa75fa26 75c03f6240168241 dafaee73c7dc4a7e 42 197",
    "testdata/self_dependent acfcda084439dd17 bce2773d9337928b 9818ec490c25fa7e 21b04b5e971eceab 30 35",
    "testdata/separators ea7e95f33e3b85bb 10a35e35d4b1dd3b b2ce7e0bf204a011 ac8436fab3ee5550 408 637",
    "testdata/shapes 2903c0de26f4bcc9 abaa9fb4c620cf8d 964c43f78bca465b 0d53fcf51a3325e3 746 1551",
    "testdata/signs 1773aafb81184bce c6c9c380f648527b 6d51386672852246 0aba46fc50a655a7 54 140",
    "testdata/starved_group d489815414725e6d 37b83c218108a7f8 403e9c5e6cc288cc c2167afbf152f608 31 30",
    "testdata/strict_lints b3c2c8c46105c2db 7c861792d99f2c91 cd4baef2d31c6b2e 85bb9990f7d25588 449 737",
    "testdata/swapped_arguments ce6e4b166dd74df1 ea548bb9bc6d5ef6 929150af42059d39 10e4beeee7e4cba7 24 88",
    "testdata/tied_lines 3983d7e6246364e9 c72279887240fe6d 1f187e0c23482a43 df156922842d5c50 43 116",
    "testdata/twin_guard 89314679c33b1911 e8f1d4b39779cff5 0158079d9b535073 e62cf594e3197d6b 743 2643",
    "testdata/twin_leader 230885201db52dc7 d49685cff4493bfe eb749e5f06b14062 c97b8f70e48b4148 314 653",
    "testdata/two_faults 83c0c39fd07f42b1 19686ab88d8e0073 89b92a371e726169 1e104004182a4291 103 334",
    "testdata/two_plausible a81c6d7dc89a0dd6 8aff31c45dcd1c46 5449fcc7ccb4a6bc 70039fb593e60200 54 186",
    "testdata/uneven_split f366e4669b613d82 f99fce1e1d3df4c1 8785e45214fabd0a 9f41056780f3cadd 71 150",
    "testdata/uninstrumented 58b970558e8a41f7 8755e2a8e4312459 f07c6cd5854a07a8 b19ec8c89df15210 208 260",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 02fbda202a625b2e 7bb0372bc26d1171 0 14",
    "testdata/unrepairable 9029abf322852a8d 3cd783c84d627e96 7524bd00c38d4f30 105ba7de836cecbb 169 490",
    "testdata/unsteady_test 1ecd8a8171d6168a 85779d7dc149efad b5f6950854222e07 ef5adb659a4086f8 258 725",
    "testdata/unused_binding 46efcdd6cfcb68a3 d6f639221d6e7f9e d17f4b10118ae005 f4f48db040c12b3d 560 1442",
    "testdata/unzip_pairs 4d6acb212d1e8f12 8be3c68944214e81 c0a69711a25d7b4b 8ad9e7d3154267a4 84 252",
    "testdata/useless_comparison ee98e1ca418a6ef8 1f14b7109c3189ec fd4a6835e803c421 d9a048ad30a6f44b 56 83",
    "testdata/usual_form 8ab11cd5efbd75b6 ed7167b650a2991d 3384fd8e6039580f 24ea13d07408e342 637 744",
    "testdata/word_pieces e36dcdcccaf17068 bb7ebfcfb3f690c3 2d04f8f2e884118b 5c172840c2593e56 754 2040",
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
    let space = collect_mutation_space(&sources, &KeepConst::of(&sources), &Default::default());
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
