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
    "bench/programs/calc 5edad3232a106476 7ea48e800bedf301 b9befdcbec5bb327 f710ba7046c85507 8249 13891",
    "bench/programs/dates 4540683646939cc2 eb8f27aef820dc39 4f4194fc71be06ea 6518c7c3e6fd6467 6733 10649",
    "bench/programs/intervals ea69d82ea536639c 6e3858b543013859 5d0a35c43b37d53f 425c7e09ab8c1975 4209 8997",
    "bench/programs/ledger b8bb7083399c4315 ad8936c132c958d3 374a1421358d0341 ca74b7294f7268ab 4002 9293",
    "bench/programs/rle b25775166806b891 6cb38e76277be725 c8f05b24a5c360a0 99d47ce638711a47 4242 9508",
    "bench/programs/roman 5a116d5b7079a8b7 f25015cffb64e015 56e2e4d93b924316 b11bfb7f4b2b042a 2381 4923",
    "bench/programs/textstats 69ec7b04d5e573c5 9742b10c20064542 eae1cc2841230a8f 23d2532f1fdde11f 4664 7404",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 45713ae05d67759e f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 8df958b59c7ef74d 43431e3552b082b5 217abe464bdeb424 640dd9c6c7a3ca45 39 26",
    "testdata/attribution 77a5ec2af7fb2d70 77a5ec2af7fb2d70 8d77d71861af4d8c 9284ba3185043cb7 64 64",
    "testdata/bisect 01591ad6d5032c70 79d84fbbf66bcc52 14a69d15d680f9c2 35200bbba6d9aaa0 76 213",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 8468cf7d935f3db4 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail 3293fba468ff046f 6591c75d097561c0 c647d5370ddedfdf 7f6ed3f9840bfa08 260 468",
    "testdata/clashes f22b0bcabcfa28b4 e87a80aed22a7c90 cf66787d027cb786 ee9731864f49f347 107 138",
    "testdata/cli 09fbf21756f31eed da59b7c68e792920 12ad407db3d8917c e26094fc3bf89568 137 223",
    "testdata/comparison 2879862ecd44b628 a6823f62dfdb05ef ecb82c56e31c5338 2170565fbf890b25 125 207",
    "testdata/const_fn f12172995e53e4e2 739e337fd740f399 e03c7996ec293760 8208efcc8b72fd22 336 546",
    "testdata/const_macro aa980757c1b0b403 cb8697f219479272 df95b818b9bc4358 24246c0cf5f2b279 23 45",
    "testdata/const_table f84dfebeecfda0c6 796079106d5a961c d55c3357c799525b c6a306c64bd6be57 152 179",
    "testdata/crash_in_std 41eca04ef13daf05 2868c955c07fc999 b356cf2362989444 56ebc597abc07bd8 44 119",
    "testdata/crash_site 7921151ef7953022 92fe83228de31a08 4927e733d7728a33 bb83da1a1f34b26e 1502 2006",
    "testdata/custom_harness 1249bc952a52268f 975bfc34e5a828ca d2e2ff7ad0e01a87 030fe3ca1e924cc4 54 168",
    "testdata/early_stop bc622b9be6935382 5588a22744ac82b3 a378e72aa07b9c95 ff376382a5e7e50e 171 362",
    "testdata/face_cards 5cc0b04e176d8235 df09105826370c16 d489a39fa2168b4e e063697e320c0f68 282 428",
    "testdata/far_fault 4ef05e04a0eb9d0c 353b88d758a92575 7f845aea89e82698 fa81e082fc803c7b 655 638",
    "testdata/features 5589f548ef92fc26 28ab81ea02c8be59 f717e20152b756e8 7bd5583f32394c3c 23 55",
    "testdata/flaky 4d6fae5334f3aebe ad9730d7f72e9469 2e646aaf21041d0d 4d19b5aa296c12a1 9 32",
    "testdata/forgotten_term f7c7fbf463a2dc46 3683f80d4756d270 cd3589e0fe6e814b 3f90dbcb415335ba 292 855",
    "testdata/forgotten_variant 0ab3118620870f7a 3e666c84202e5d66 fb5dcb2ceb598dcb fcde4f376f3a6da5 232 565",
    "testdata/group_totals 4b5aa48ec27b2367 ba158cccccb4d5ed a723a65a39812087 7c9b17abf3f0c7e7 238 475",
    "testdata/half_repairable d489815414725e6d 37b83c218108a7f8 5c4196fa603c5804 c2167afbf152f608 31 30",
    "testdata/hang 5c840a98bbab2076 069d8330a9f3226a b8755f69ecd5c394 a1c5ec5df483e4b0 218 342",
    "testdata/html_quotes 6bc8f34ae65a8944 e4ee6e083b4651cf 86088539237a219e bd5ecd4bcdee6483 594 1187",
    "testdata/integration 152eb7ddbfaa454e 6098f10d052b88c9 93e9e68643b35b96 39c0c8817109682c 215 453",
    "testdata/letter_weights 449ad6ab67aaf5fc 3f7f8b110c8d9a47 e0426aa8d2a87a6a 07aa79ecd6b54ceb 75 210",
    "testdata/log_repeats e4e9532396dd31df 4b96de628f37331d 02833d53dd57dc91 d707a8507f8c1f45 683 1179",
    "testdata/logged_mean a39a97dea9f448ea d3465ca8f5f43609 c942f5d21b0128c7 d0b04acc5fe51bc5 241 642",
    "testdata/long_test 87200ec6d55932de c33c857f1ff538c0 e366689649f7ba7a f9f554761f3acd8a 348 916",
    "testdata/macro_body 0fc0a12349ffa6f6 df87e658e4a46971 5565e32ad659eb1e 5d9f6ca5e69b4e8d 130 244",
    "testdata/macro_trait 86898a37e708f5c9 b31f422450b55270 88670167c840cd50 f5d2a0de4849fa5b 94 212",
    "testdata/median 04db3487f2ad7e1f 2212766e23758159 9c1c882d30959191 0291eb30e32b866a 48 105",
    "testdata/middle b6fb6c25830b20cb 4246bd6b580a8200 89d148675a08c7e0 737f7583e34bab2b 421 873",
    "testdata/missing_conjunct 5448f440c5e4c49a c4c81233f962a5a3 32a43a7c88299987 fde3385b1c2e8ecd 25 120",
    "testdata/missing_guard 98933356c164c386 5deba7d908f20f6f b1b488166a425c7e 5d453c8e9ee045b1 25 81",
    "testdata/missing_statement 7efabead9530ff65 6d51003017bcb36c 32837e6666dd64d5 c695056c167f2878 384 436",
    "testdata/missing_twin 73989af802a913fe 429c2a0697fbaa15 a4fd69e0b8b03f1b 1ab11c9c865b55fc 222 438",
    "testdata/moved_data 995bf02f7556292f cc20d5f994ff20bc 92981b9e4b402e69 682f1956191f7983 57 90",
    "testdata/no_std c33ca6cfb7dbea95 7ae0c1a4f30de297 2f6d5a649e3de270 d995959387a0b4c8 372 787",
    "testdata/no_std_2015 56ad7ce07b2be04b b35d925f72b62f9c cb68bb999ead160a bd2d9c763ec50a44 380 798",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f 50679064d1cfef0f 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one 34ccde06bad9df4e 4d252def306ce52c 00d4df9421cefd73 c29298582dcc3c65 96 254",
    "testdata/offset_branch e26d7fedf72d17dd 76470cdcb09956cd 40c9566c4314c4e3 a507606424c1e88d 62 233",
    "testdata/offset_index fd0121c7e2175ce6 7ea145370133cc32 1e73f722be391729 bd8eaee2ebf67675 43 127",
    "testdata/overflowing_digits 2bc19ae310b84903 6401dafa20ca4f2d aa2dee55360fb55c 9a23383b5dedac01 205 347",
    "testdata/parallel_lines 8b3cf10e0fa4494b 7a4f99db830283a0 9fdbf959b697e13b a27643197d4d0ca0 152 187",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f 50679064d1cfef0f 43067ffb5c2ad3e6 9 24",
    "testdata/postage 6167ff0136e6a15f 1477645c1d66ebbe c63b5725fcdf181c 19cf6361eb3e9329 103 134",
    "testdata/postage_rates 11886b3c22e55610 d2629ae32b5ae1eb ef2830e34908a0da ef906af2ed0b636b 352 698",
    "testdata/range_ends 35a5132fddd38235 6f7ed00bf71a9631 136dbad8a5a8fdff 309c3fffdfea10de 61 81",
    "testdata/ranking e6a356cb0d88aefc a287a8014e48020b c975de88dec5281f a3039e36cd54eebf 75 150",
    "testdata/remove_html_markup 6bc8f34ae65a8944 e4ee6e083b4651cf 86088539237a219e bd5ecd4bcdee6483 594 1187",
    "testdata/reversed 4796d2171005e16b 3d58ddeffa75fa26 536a9d3990335777 dafaee73c7dc4a7e 42 197",
    "testdata/self_dependent 45e1ff1e6f6ce5f2 aac5db25797c50d0 12d91f6802e3f177 92843f6d79e1827e 27 32",
    "testdata/separators 119310e3a84bd87f 005246d8359db153 8f3eec6d64680c24 9cffdd7f161234c8 408 637",
    "testdata/shapes 30afc0061d018acd a8a89ce6d2165871 a97850eb8fdfa918 efcb9c68aba35303 746 1551",
    "testdata/signs 1773aafb81184bce c6c9c380f648527b 8c5605d43121c1c8 0aba46fc50a655a7 54 140",
    "testdata/starved_group d489815414725e6d 37b83c218108a7f8 5c4196fa603c5804 c2167afbf152f608 31 30",
    "testdata/strict_lints 157831620a35bbec f8ab3129b58d1a44 d848b1bc6389319b 5c4e016472fc1391 444 732",
    "testdata/swapped_arguments 6250598489130d32 16376ce2fb27a201 47c620a7da7d498c cc4dc443db6610e0 23 87",
    "testdata/tied_lines 61b9df554702997b cb0f9af5ff576373 ac539dbee32cae91 902fc6b1f7687a06 41 114",
    "testdata/twin_guard 1715b254245c371d 76558ac4302f5a07 e82236db58473d8e ad2b2678814556b1 739 2639",
    "testdata/twin_leader e5f3dfdc9ea02c53 5dead64d761f010e 834a4be17c7e094c 4b5fe1d3e65ac9b4 314 653",
    "testdata/two_faults 6bc5553be7ccb58d 6ee378389a4e24ef fbc400c2cafa6dda 553544a6e80014c1 103 334",
    "testdata/two_plausible a168d66671cb7807 511a5044e96c6908 46fa336e720101d0 6328c44cadaf37c9 49 180",
    "testdata/uneven_split 0974116ddbd971a5 a6a641a1e3376040 ac61afb078670166 61f7d3d711126968 66 145",
    "testdata/uninstrumented 0d0189509a92a547 70b690c42a5796e9 47cdc4c8635d75de eb9d7dcedfef076c 197 249",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 170208a4670fccea 7bb0372bc26d1171 0 14",
    "testdata/unrepairable eb3fbd460f921751 8bfef7c77c586726 8671a6d0eb532b97 22d4a5be1ea007b0 163 482",
    "testdata/unsteady_test 81d2f5ad6f65cce1 0ec7313cd98d1eff f73cd7d67a842e86 773a843d78842eda 248 713",
    "testdata/unused_binding d554f641d57725d4 f74d0c4ab971a41c 662f556a6bd1a6db 250f4c4d5055f8df 556 1436",
    "testdata/unzip_pairs bc563fab9a09ffcf f0f91a9fdca7b3b6 04dbdae2d2e7d85f dba9fda6ba82244d 84 252",
    "testdata/useless_comparison 69d1b39ae3d45eef f2f9eabcb376ec67 eaab3d8f2597fb17 0d4d822329cb8c60 54 81",
    "testdata/usual_form 4612fc645a23bf6f 4da0d00bea64aed2 54b92ac95030341b 44781872fdbabfc1 622 729",
    "testdata/word_pieces 8c59b11e157de406 44aa7ea83d8f1121 cf4e1681ddea8218 3f123846a94bad78 758 2044",
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
