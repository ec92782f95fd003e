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
    "bench/programs/calc c6b5c10ce6413cb0 74685bb86d1c4a57 ad8e6a685f295f08 c84c58a5ad2bf427 7480 13268",
    "bench/programs/dates 74fc06a2fd578493 99d6535400870a3f b7c74c5cf721f8da 3dd1e383de914f6f 6347 10281",
    "bench/programs/intervals 5a94a865cfd74f7e 08baabbad2087d2f cf5c203666dbf4c0 03fa51e16558906b 4001 8834",
    "bench/programs/ledger 39b2ce4d18bd9d3f 47285b5c644af494 15519fd12a7a986c 7e0dd2f925a609a2 3670 9020",
    "bench/programs/rle 81632fffaec641b8 765a9e4900a6f184 aea884bd1b442eca d0a5e2d655d4c870 3928 9302",
    "bench/programs/roman d34cb6d187e385f4 a7c7a48954c607a6 5b918f21de888b99 770b0af61434fb13 2011 4629",
    "bench/programs/textstats b61e49c235f36e93 97a7c90431ba1fa0 c990d5b3539c808c bd97220df473b761 4327 7133",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 b9ecf744d5a63a80 f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 8df958b59c7ef74d 43431e3552b082b5 ce84151a8f79f792 640dd9c6c7a3ca45 39 26",
    "testdata/attribution 77a5ec2af7fb2d70 77a5ec2af7fb2d70 975cb26720800e95 9284ba3185043cb7 64 64",
    "testdata/bisect 01591ad6d5032c70 79d84fbbf66bcc52 75813b7b63d1b856 35200bbba6d9aaa0 76 213",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 91eb92b8eb644911 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail 3528b02b0b642924 52259493a488a324 fcdd3c2843d1c761 c4d7a2d4a97c1bee 248 459",
    "testdata/clashes f2674fa164250da5 743a8cf41d1aa2bc 64dd371e18f3865d ee9731864f49f347 95 129",
    "testdata/cli 0a4ec316d9223a21 4e5c11ba25efd35d 40364c40c19c787e 4866e95b45077993 96 197",
    "testdata/comparison 2879862ecd44b628 a6823f62dfdb05ef ef1c36c46eb4928b 2170565fbf890b25 125 207",
    "testdata/const_fn fb4c3cab627d170d d0fdc1c280e22656 897e3618ef7c0354 730165268ee8d570 324 534",
    "testdata/const_macro aa980757c1b0b403 cb8697f219479272 d0e92e8b0cba56c8 24246c0cf5f2b279 23 45",
    "testdata/const_table c15c7aaae3c3a63c cc6b861418746c86 b174aea383c722fe f7f86eea1a39730d 122 149",
    "testdata/crash_site f6bf58633aa73f09 a01e3155d3957440 52236ce32d0ef80f 4da3907dd8ef5d88 1185 1847",
    "testdata/early_stop 023fa210dbcd2ed1 71680ed2c1cce9a8 0c80602085c4a008 86c5f103ec0d992f 157 351",
    "testdata/face_cards 2414f61eadf071bf e02c4a630f509f8a 34ec17a7012d510e 15180a8f2ad83319 245 395",
    "testdata/far_fault 437f26b1a56e493f 4e63c53d505acbf6 b73fcdbdf091c31d 8d3d0d57b93db4b3 442 487",
    "testdata/features 5589f548ef92fc26 28ab81ea02c8be59 6a2b2bb6ded38611 7bd5583f32394c3c 23 55",
    "testdata/flaky 4d6fae5334f3aebe 5436a579c019d74d 68f68737d42b5b93 1af12b252e353771 9 32",
    "testdata/forgotten_term 5c441b90c9f6d57f 84e307c8d337dc4b 27a4f5e02118bf3a 21a5164cfc770ab5 263 826",
    "testdata/forgotten_variant e831d6dbde2cdbd5 d4680d1567f92d09 e29fa3e4dd18189f 454e3736c65c8780 231 564",
    "testdata/group_totals 0113fcd3d8de3ece 7498238efa0a0869 3963f7e51d05f692 33cce21c73056833 197 448",
    "testdata/half_repairable 736e3ecf35771608 463b3fc4915516a2 151838d3415517ba c2167afbf152f608 25 24",
    "testdata/hang 688c70acb2eb5c1d 2f6f7af2ebddfc0d ad8d17c536e69b05 10de4dfc16bc5dbf 214 341",
    "testdata/html_quotes c1c56c504a115a09 69de1debf762036e dd2f4d0f368eb5cb 85488aef1c8fb61f 581 1174",
    "testdata/integration 75717573bbd1c3c7 5199a7d43fc46224 376da097c5d314de eca940634bf85632 206 444",
    "testdata/letter_weights 5c02db3d09112060 e0e976c5e42bedcf 381afe10e1d37060 1a815afa652a51d9 71 206",
    "testdata/log_repeats 1ac3d5db56993aff a6166f63b58e7139 872165191f724b4d aa7086691bf5bc86 627 1158",
    "testdata/logged_mean 1b3226e616fbb0be 5086a5d4b7e51663 d30cef2b15137429 96deaabce42b3774 216 623",
    "testdata/long_test 413f326300366d33 0176699af72dfbf5 da96004a91e2b6aa cc11c262b551d622 293 864",
    "testdata/macro_body df8f27ee8bf625ab c68b928f144523d5 ffee9dd4ab6ac79b 7842c28b050b6853 126 241",
    "testdata/macro_trait 7601b6121ccf9b7f ee623fc24be75cd6 9474db0c996e3550 5aeab5339a1ff93d 61 190",
    "testdata/median 95d953b55bb5f108 601dd012878ee6fa 9ba934375583a4ff 0291eb30e32b866a 28 93",
    "testdata/middle 65a6d137071c70b9 50553b0fa1590c63 f006509e034f64fa 7a2cd44bed120015 402 856",
    "testdata/missing_conjunct 5448f440c5e4c49a c4c81233f962a5a3 c90a2773be071f5c fde3385b1c2e8ecd 25 120",
    "testdata/missing_guard 53a3f4295077fb68 c7ceff1efb76eff0 120b6a8d6ec190cc 5d453c8e9ee045b1 16 75",
    "testdata/missing_statement 907a3cf31969b49d 6d2888944f564a0c 9ea2c2bf5d31d048 233bbebf86a93758 368 420",
    "testdata/missing_twin 9765118d19896ab9 2df386161ba04da2 94863a5bccba5c29 cb6ed1bc14881692 206 422",
    "testdata/moved_data ca5731171b68631c a290ee43f0338ce1 4147e4da1fa2959f a886e61b4cf69301 35 76",
    "testdata/no_std 595b4c11ed69332a d6c253a398319af1 43e8543d43fbd7d4 9f5e251d2e04d685 311 736",
    "testdata/no_std_2015 8f8f6dca966474a7 2a7eefc246500609 6b24cb621379a2b1 45dc9b7450212c7c 323 753",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f af39edf68fc44f6a 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one 745e118258a60bb5 b3c60307cb2afad8 d48616f6c6685175 825523848e877875 92 250",
    "testdata/offset_branch 08ea75f3473f7867 76470cdcb09956cd b061faf07dfeffd7 a507606424c1e88d 56 233",
    "testdata/offset_index 4fdb52da00ae515c c83db5c671f50208 a9cabb56f1b30d6c 98092b344a75bfcb 42 126",
    "testdata/overflowing_digits 3b1fa1eb9bf5a754 b144def540383694 6e2862f345f1071a 22269c8812985cb3 165 307",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f af39edf68fc44f6a 43067ffb5c2ad3e6 9 24",
    "testdata/postage d92267237c4d1852 974d1bfab0f0b4d2 4a18acbdfcc6bea5 19cf6361eb3e9329 91 126",
    "testdata/postage_rates c7c344e9ee6217c0 c99c8b9f2a1e7b40 29b930ecefa29c5d fe4223fcb824d7f8 287 634",
    "testdata/range_ends eb842698902ba988 3f04bf8fc1510a88 c6570c94b9d6a4ce b32d21c687cf2987 60 80",
    "testdata/ranking 5f0926ba8c8b2ca6 3e8ff7e8f02c6157 8b79bd0ee7739ebe 2c5d9769a1b9228e 47 128",
    "testdata/remove_html_markup c1c56c504a115a09 69de1debf762036e dd2f4d0f368eb5cb 85488aef1c8fb61f 581 1174",
    "testdata/reversed 45a05bec8a4997b1 34ac82f7c5d7abea 851e54f30d74ab62 0a7129f5fee92a15 35 190",
    "testdata/self_dependent d2749fe5487ecc31 aac5db25797c50d0 ef54a886cd6fffc1 92843f6d79e1827e 27 32",
    "testdata/separators b7f237720b7b6dce c6b3a58b0e5399ef 7a3e705a532c627d 8c7c61a0e2ee482b 355 592",
    "testdata/shapes 684b1ab1b3781fb2 dd1682ef183600c0 5438cabaa5850b1d 1fe4dc9620704dae 594 1412",
    "testdata/signs 9bde38102d4d5743 40d4f78c9fccbe08 4a6e629999322821 0aba46fc50a655a7 46 134",
    "testdata/starved_group 736e3ecf35771608 463b3fc4915516a2 151838d3415517ba c2167afbf152f608 25 24",
    "testdata/swapped_arguments 6250598489130d32 16376ce2fb27a201 7473dbf2b94616d5 cc4dc443db6610e0 23 87",
    "testdata/tied_lines 0a2018af652b9629 d41a642282420555 d9c0323fa64b24af 3e36c5875a33590e 36 112",
    "testdata/twin_guard dd3c7a433296db7e ca1e112e88fe7068 275aa1037c63a9a5 d6e8562111cc08a7 650 2550",
    "testdata/twin_leader 475d2d4b92c2c24c 6ca05d49a683b00b 2d3793d24a54d8d4 c99f1ea86ebb23e0 272 635",
    "testdata/two_faults 86ed4dd4be63bc62 49ac361bc93c28ac 1918fa5233369d95 58667b04a766d46b 97 328",
    "testdata/two_plausible 36332fabdae38f72 25d6c4bf10297b13 8b90a6db00ac8704 2c6472727fa197da 48 179",
    "testdata/uneven_split a5d58f2e7d6bff99 de5753998eba8a7c b8a1717c55b5b6de 05b1267588a5c604 65 144",
    "testdata/uninstrumented da699e02b8f4a90a 3bac6c1fabf130b0 ab5f5bde8eb0c3df b25ce1508e40c5d3 169 221",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 00fcd20ba1209b45 7bb0372bc26d1171 0 14",
    "testdata/unrepairable 71e31dcedde369ed 321a2406fecc960c 60a51a24a339774e 132485ccc246e975 149 477",
    "testdata/unused_binding 07b0cac07263c510 8962941a06d705c0 8ec48e9da5143d76 c75439cc5dbf965c 503 1398",
    "testdata/unzip_pairs 63500ee10c3775a9 ea380dd048b3dda0 c97626bf1a610f8d 2166230bbad1cf38 68 237",
    "testdata/useless_comparison 7e0ea5b28d055014 6bae802c8b8c6600 1e1c4d2dd0ef227e 0d4d822329cb8c60 48 75",
    "testdata/usual_form 4612fc645a23bf6f 16d1d979edc546bf b99c21392e6b10c5 e17294985ea1d859 622 711",
    "testdata/word_pieces 83ce6e778bdebb48 e880d104d2c0a7f4 1b2dfc432cfece96 fb2f96c393d7cf94 688 1992",
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
