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
    "bench/programs/calc b8a113b86e826497 59927d69eff3d540 c67592d1090e8a46 ec7e9a2d99c4c960 8330 13972",
    "bench/programs/dates 0ea242a961cf735b 1589d80997db9f00 f4f5a5751e602b0e 0572b113027b560a 6763 10679",
    "bench/programs/intervals 6b10a65d4bd31cfa 075001936c91c29d b04a7c00087030b5 54e0a7102bb471a7 4224 9012",
    "bench/programs/ledger c93d70052640661e 8152b9ea7f411184 f19e74e4a34e6cb6 5bdb3513eb0c8b0c 4034 9325",
    "bench/programs/rle 630fbf85b6f19223 2ab7f352a499190b 9d1192403a771f1e 308aaa8c3a70bbff 4264 9530",
    "bench/programs/roman d41151a36782e54f 90d93b7661162b6d c270dcf17314484a d3e355381b5db618 2394 4936",
    "bench/programs/textstats 19d55311b1b0d5f8 d8dc79aeeaf31aef 36eb3d03c443ac03 783660d42fc562c5 4703 7443",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 d115aec04b173efd f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 581306727a7956d4 18db1cf04af2ccc6 542824fcbaf02536 1ae6325e36de7672 41 28",
    "testdata/attribution 77a5ec2af7fb2d70 77a5ec2af7fb2d70 fc17cbec3c02b723 9284ba3185043cb7 64 64",
    "testdata/bisect 32bb1b5bbb19de64 b0608e1b99812a08 e8ed16d38c59a2fc c15a43ef0b4729df 79 216",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa d02b02c7a03d0b0f 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail a23f2fd9d3c2a315 dfe3c47276c14ae8 4a344af6cbda55eb b1c151618a149a44 264 472",
    "testdata/clashes f22b0bcabcfa28b4 e87a80aed22a7c90 ce32042b6cbd56df ee9731864f49f347 107 138",
    "testdata/cli 490c496e6b639167 28d31f3047c6c840 47a4e6be6450e085 0bafedece4105858 139 225",
    "testdata/comparison 2879862ecd44b628 a6823f62dfdb05ef ca54dd256f570607 2170565fbf890b25 125 207",
    "testdata/const_fn 43489a7260dd0be6 7297d1aae45a6e6a a55ff41a7d1496dc 61c545d79c3f30cb 340 552",
    "testdata/const_macro aa980757c1b0b403 cb8697f219479272 ac0d84d27a119487 24246c0cf5f2b279 23 45",
    "testdata/const_table f84dfebeecfda0c6 796079106d5a961c 696ef62b458a4a42 c6a306c64bd6be57 152 179",
    "testdata/crash_in_std 41eca04ef13daf05 2868c955c07fc999 dcebbe82e53b9811 56ebc597abc07bd8 44 119",
    "testdata/crash_site 6c013ade2d19e90f 79049f25fe328c03 552bc44672ce7e11 ba9a76042f2086a5 1509 2013",
    "testdata/custom_harness 225aa390b45d841f 5af34822f07e29ff d614ef39a44dac5f 352a60b7579b87b2 62 177",
    "testdata/early_stop 3443bbae4783e9cf e09bfa0f7a89de54 09454fd3c8c9e537 bcd2cf57c69f2ff7 177 368",
    "testdata/face_cards 5cc0b04e176d8235 df09105826370c16 669b8ee1925dad10 e063697e320c0f68 282 428",
    "testdata/far_fault 481f4277affbcc80 8e7ee7de3f8d7099 b6812e392895f673 c85b510ccef18ff3 659 642",
    "testdata/features 6929832fc11f9201 3246439035bb9ed6 c64821610af43958 6c164d74f38cf571 29 61",
    "testdata/flaky 4d6fae5334f3aebe ad9730d7f72e9469 b761de8ae9acc419 4d19b5aa296c12a1 9 32",
    "testdata/forgotten_term ad0465a417ec930f 1834ce16a5961b75 f874cc64c49360cf ab86e966ace956c5 296 859",
    "testdata/forgotten_variant ed48f033a8315085 475cf0aca04c7d7c c13c9b40c5ff9193 c75d8a813da90322 235 569",
    "testdata/group_totals 4b5aa48ec27b2367 ba158cccccb4d5ed db0db75eb64e7742 7c9b17abf3f0c7e7 238 475",
    "testdata/half_repairable d489815414725e6d 37b83c218108a7f8 403e9c5e6cc288cc c2167afbf152f608 31 30",
    "testdata/hang 9192a384b397c133 c6ba42c839341417 90fe00bcc4f8492c db7c16fc5d41e281 225 349",
    "testdata/html_quotes f193350adbcbea4f 1906c7dca377bf44 e848a251b9aa9fb5 e20f9ab63991d54e 595 1188",
    "testdata/integration 152eb7ddbfaa454e 6098f10d052b88c9 40244d9468c2a6bd 39c0c8817109682c 215 453",
    "testdata/letter_weights 449ad6ab67aaf5fc 3f7f8b110c8d9a47 7e8ec455849dde0c 07aa79ecd6b54ceb 75 210",
    "testdata/log_repeats b227eac444cd852b 66e88baf04d3f3b5 6f34e6c47c9f5249 c33b7d3441a40b59 684 1180",
    "testdata/logged_mean d0f2497f4b8cabac a65465247fb1860e 9516f25a48e65b18 b88094fc513785bd 244 646",
    "testdata/long_test e6cf543368f122df 71ffd770fb1cbf9d c687d42be7261a50 88ab8523123e8917 350 919",
    "testdata/macro_body f0eaeb1e32b77bb9 d308008a3f8f003a e88e6186c7792377 930e5294bdd00d26 134 248",
    "testdata/macro_trait 79f058ef6823874c c2858841c85082c1 54487091425b26a2 bad37b3f1cd92d78 96 214",
    "testdata/median 04db3487f2ad7e1f 2212766e23758159 35a0e1f8840a2ed0 0291eb30e32b866a 48 105",
    "testdata/middle b6fb6c25830b20cb 4246bd6b580a8200 04232b33f49c0abe 737f7583e34bab2b 421 873",
    "testdata/missing_conjunct 5448f440c5e4c49a c4c81233f962a5a3 5505f4a7e471a704 fde3385b1c2e8ecd 25 120",
    "testdata/missing_guard 98933356c164c386 5deba7d908f20f6f bc47b9af6f9403b5 5d453c8e9ee045b1 25 81",
    "testdata/missing_statement 7805c3a8b3376f96 dd24568bbaf89fb9 921b0369745d29ab 44ad640ff542fd7d 385 437",
    "testdata/missing_twin ef8eedb3380dd388 8c2ce1f028e5ee57 f05de6a96ab327b6 59f1de1d2e20ac9a 226 442",
    "testdata/moved_data 995bf02f7556292f cc20d5f994ff20bc 89542ad90adfdfd1 682f1956191f7983 57 90",
    "testdata/no_std af64bfc8ef5d92ca 59be2be932fbdc30 23d8d46d3eaefb21 d88ddb592295ae7f 383 798",
    "testdata/no_std_2015 d786c1d7fc8accd9 66bfafa5861a622c 4b87976565507b68 da807a1db6fa4910 392 810",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f 7c172ede68906d18 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one b63c08e5b97fc287 f36bfff194521407 f4e7d79b0fe047ae dcf0fb633ec9fe36 98 256",
    "testdata/offset_branch 3daaba3e3f6ac587 8c8e32591564d455 083dc1c5788ec336 caebfc74c80ea9c7 66 237",
    "testdata/offset_index b169bf4c4087f383 b3acca9b6438739b 33942f6c1bb7298c af397dc923fb0320 45 129",
    "testdata/one_fault_two_groups 9eab9809993ad9a3 0ecce3d13efcba42 832b924cb97aab41 f81613326e0fa635 83 106",
    "testdata/overflowing_digits b1ef78b8cff8d170 0f522805b856caac e6821619fe28254c 76f6b40a84a58dd2 210 352",
    "testdata/parallel_lines 3746b630707bd3b4 e611f6a65007adc3 f8eedf3868d24441 abd9bc7a5ce9ce85 154 189",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f 7c172ede68906d18 43067ffb5c2ad3e6 9 24",
    "testdata/postage 6167ff0136e6a15f 1477645c1d66ebbe 3a38af53812554b5 19cf6361eb3e9329 103 134",
    "testdata/postage_rates 2a3c65d3d5099db5 d1369d27082bf80e 3e1711e149153ef5 787ab8c94de79bba 359 705",
    "testdata/range_ends efa9654269614a64 b21f4fa17b7541a8 b8aba781ff3e6119 47cb5fa03e03461d 63 83",
    "testdata/ranking e6a356cb0d88aefc a287a8014e48020b add7dcbc3a1b378f a3039e36cd54eebf 75 150",
    "testdata/remove_html_markup f193350adbcbea4f 1906c7dca377bf44 e848a251b9aa9fb5 e20f9ab63991d54e 595 1188",
    "testdata/reversed 4796d2171005e16b 3d58ddeffa75fa26 75c03f6240168241 dafaee73c7dc4a7e 42 197",
    "testdata/self_dependent acfcda084439dd17 bce2773d9337928b 9818ec490c25fa7e 21b04b5e971eceab 30 35",
    "testdata/separators 78f387b610169cd7 4fb437bc296c7cf1 ad5de11a1408e638 da9c60d9c7ac3d12 413 642",
    "testdata/shapes 30afc0061d018acd a8a89ce6d2165871 68187dcb3aff356d efcb9c68aba35303 746 1551",
    "testdata/signs 1773aafb81184bce c6c9c380f648527b 6d51386672852246 0aba46fc50a655a7 54 140",
    "testdata/starved_group d489815414725e6d 37b83c218108a7f8 403e9c5e6cc288cc c2167afbf152f608 31 30",
    "testdata/strict_lints e1aff0787c634cfc 545500a6dafc2c42 dbe24b97bfa11ae4 3e94bdd2b511ceeb 450 738",
    "testdata/swapped_arguments ce6e4b166dd74df1 ea548bb9bc6d5ef6 929150af42059d39 10e4beeee7e4cba7 24 88",
    "testdata/tied_lines 3983d7e6246364e9 c72279887240fe6d 1f187e0c23482a43 df156922842d5c50 43 116",
    "testdata/twin_guard af64611374db208e e4ca01dfce2f09d4 731087ac723dffe3 895afc9b717841ce 750 2650",
    "testdata/twin_leader e5f3dfdc9ea02c53 5dead64d761f010e eb749e5f06b14062 4b5fe1d3e65ac9b4 314 653",
    "testdata/two_faults 6bc5553be7ccb58d 6ee378389a4e24ef dddee4cf922e2673 553544a6e80014c1 103 334",
    "testdata/two_plausible df043d0063afd8b6 80e65306ace22c06 be1f211e4cd928c4 1ab023405e347bb4 54 186",
    "testdata/uneven_split f366e4669b613d82 f99fce1e1d3df4c1 8785e45214fabd0a 9f41056780f3cadd 71 150",
    "testdata/uninstrumented 58b970558e8a41f7 8755e2a8e4312459 f07c6cd5854a07a8 b19ec8c89df15210 208 260",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 02fbda202a625b2e 7bb0372bc26d1171 0 14",
    "testdata/unrepairable f9b4944db9b9f959 99acfbc60b6fbdaa 402c4204acb9ccde ca67153c9c70abff 169 490",
    "testdata/unsteady_test 18779fd47656914a 1706e105e025b60d a9ca35922acf0e1f 44f045095dee6074 258 725",
    "testdata/unused_binding 4190e060b6553f1e 3ee532847a7cb0a7 22f3ca39c9016027 de8b62f302486084 563 1445",
    "testdata/unzip_pairs db0421e16ba6600a 1542774987b785b9 05dc56b020cd5bd5 6ffe3fcbfaba04b4 85 253",
    "testdata/useless_comparison a5f57c9117b0d9c0 ceec80ddd432cb04 d9cfb66f71d5cf45 18051f4947ad39f3 56 83",
    "testdata/usual_form f25caea31e1c96f2 2b1864c807962f09 3384fd8e6039580f c03866d7318a1526 637 744",
    "testdata/word_pieces 9d751cc7cd7d8603 d7569016e0504ee2 b373f78b24d83386 ced6a402b4578a17 760 2046",
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
