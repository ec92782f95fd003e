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
    "bench/programs/calc d5f5440b1731ecfb a0a3c7035333ce14 d58252afbf11549c 0fe9490b640b864d 8382 14314",
    "bench/programs/dates 1311bee53547deb9 60040680936ad2fb b29def32a6b43325 3b7db67214a440c1 6616 10505",
    "bench/programs/intervals 1842e91f25137b46 23a59414e71815cf 9c2aef530925fe4e 2b60b99ee4428f0d 4290 9148",
    "bench/programs/ledger 8a2438edd7b6daab 648825898b39d3eb 59d37277732764e2 a604e3f05aa7615f 4110 9393",
    "bench/programs/rle ff47ea0139e46a7a 2b0c025370d08440 3693c29fbd85b53e 1b51d0392b256428 3914 9300",
    "bench/programs/roman dd8d81ea21ee6af3 d4abd4846bceadcd 8b5f07fab7fd86a5 f2f29e97b6f371ef 2035 4674",
    "bench/programs/textstats 8b76454eb13b771d aaab2e563c93860f 0718c60874bd8fa9 b2037b9a3f913489 4430 7225",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 0a51d8700e0449f0 f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 4b22aa21223c87f5 7abcb870254211a5 6544e9522fa9b7fa c1ffb1610f717bad 45 32",
    "testdata/attribution 3e776638721be067 3e776638721be067 4b3616a243bf1dbe 91034de5b6edfbdc 76 76",
    "testdata/bisect 0a1469da279818ce e1d7e0452237982b 752232201a7fed5f a2f2c32d2ef063c0 86 219",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 4f2b4fbb0d3c41e8 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail ac6825fe5465603b 4db17046edd2e8d5 b2b846ed6be1ab58 baa0ed60564699f5 247 458",
    "testdata/clashes f2674fa164250da5 15cbead172f79610 f1625d00845e3af0 c4ef18cc649dbe63 95 125",
    "testdata/cli e9adce5056210274 4789d22c97ddc834 c4608fb93fa501fb 567aa7e6842d227f 98 199",
    "testdata/comparison 2879862ecd44b628 fd465721fd3aa919 29be260dc703c11a 09223cc1803f51a7 125 201",
    "testdata/const_fn 77ba3336f1ee8e2e fa1bdc1c39d25e3d b1eca25b680b840e 0cc6a232c403bb7c 319 531",
    "testdata/const_macro aa980757c1b0b403 cb8697f219479272 0129e53d804609e2 24246c0cf5f2b279 23 45",
    "testdata/const_table 0dd57b5cb17443e2 2cd4656b3eb2ff08 d4902bbd2111329e 9a26174261fbac55 119 146",
    "testdata/crash_site 4ceeaea6c2549ae0 e3dd8509048fe3ea 9fd6468ea9712c3f 951384d5ec255fc8 1167 1805",
    "testdata/early_stop bdd3a54ff28b9999 c4d194cbc2608cee fe2cc95a80f0f407 409d5c61941f271d 156 358",
    "testdata/face_cards 82a2f66db67c7bfb c72027514d762224 177600d1f739db61 e05f18fb77298211 234 385",
    "testdata/far_fault 4d5d8e5b2eeab050 0fa01e00a673fa9d 3e4d70fa830b2649 f26f93388c4e1a64 441 476",
    "testdata/features 5589f548ef92fc26 28ab81ea02c8be59 ff5c1d433378f7b7 7bd5583f32394c3c 23 55",
    "testdata/flaky 4d6fae5334f3aebe 5436a579c019d74d 48b9d6b35b1e958f 1af12b252e353771 9 32",
    "testdata/forgotten_variant 9adf38dce99a7eb6 c786e9008e5b3fc2 38caba8ba2e6b8d4 c8fcd1ee59e12109 230 563",
    "testdata/group_totals 19df0f8d8285d177 c8cbd2a9db1a4ec9 eac539f07b5f390e f80b9d1c617b5f2d 204 467",
    "testdata/half_repairable 08756b746eeb3f3b aef5cf3690fa2093 f743b2ffe511798b a6b159ef64fb7561 28 27",
    "testdata/hang 688c70acb2eb5c1d 2f6f7af2ebddfc0d f65f833ba36bcec1 10de4dfc16bc5dbf 214 341",
    "testdata/html_quotes c1c56c504a115a09 ee6e668c4bf658fc dd0d0eb4b7c16a61 a938582392e25911 581 1172",
    "testdata/integration 75717573bbd1c3c7 5199a7d43fc46224 cf3108f75d629c39 eca940634bf85632 206 444",
    "testdata/letter_weights 3cb5d00f4cf4e6ae c9b0ca179fbdf6e2 38aa7c4304046c29 ad919bb928815190 66 200",
    "testdata/log_repeats d0cd38f992037c9f 39167209e57369db 0feff2e0017084e5 70adf142046b4fa1 636 1167",
    "testdata/logged_mean f09a42aa6fd1d54b 297fccc496b2584f 67a29cf8c11f50e5 4599c18b9cc3ad1b 210 619",
    "testdata/long_test 413f326300366d33 1f07e63938d56387 d4731332fc9855e9 8691418249ada130 293 862",
    "testdata/macro_body 41e18b82a1e3d29b 0bb45a71a55c5ab5 1014bc64266511c0 81f6883d1b4a8d71 125 240",
    "testdata/macro_trait 7601b6121ccf9b7f e3d2651d8a5c9438 b4555fa7357238be 306c706f71ec54b7 61 188",
    "testdata/median 95d953b55bb5f108 601dd012878ee6fa 63809b2964f17fcb 0291eb30e32b866a 28 93",
    "testdata/middle 65a6d137071c70b9 4307c0115e4672af 738a0224811b852f b29721ad84d53b25 402 854",
    "testdata/missing_conjunct 5448f440c5e4c49a c1575be67c623b05 dc8072fba222cead b91cfb53ad2de481 25 116",
    "testdata/missing_guard 3411130c50670c9e 658601c35963371e a7fb8ccc688851aa 5d451eb511a4a500 13 71",
    "testdata/missing_statement 8ed2f4dddd2e4789 ff2d220bc183efe3 937c8b991d68ee00 233bbebf86a93758 382 428",
    "testdata/missing_twin 9765118d19896ab9 bad36a0cd6701604 4f382f6fadc80578 69752a232a2bd160 206 420",
    "testdata/moved_data ca5731171b68631c a290ee43f0338ce1 dfa7fb47e2f1952f a886e61b4cf69301 35 76",
    "testdata/no_std 1232aaf913f3d6c2 d3624dcb893b06ae 0302a2182fdb0867 0bd3b627afaa7974 302 732",
    "testdata/no_std_2015 480f75cb27f5c36c 4c5dd24252e0489e cd901271e6107c4d fa106a3fc9c33f62 314 747",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f c0d302e3f55cd849 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one f58a47739cf698b5 b44a05d3ad057cc2 e61fdb2b349e6f5f a4a3538ec26c5002 84 250",
    "testdata/offset_branch 9cae7a9fe469b26f 0e3136ecf3ea1eab 7207e35a84477297 96c0dfd35f803eb5 52 231",
    "testdata/offset_index 3a0fc06c7a4bd653 a5a656f3cb496ffd 218c9a360f5fb34c 4c216715e8519c6b 40 124",
    "testdata/overflowing_digits 3b1fa1eb9bf5a754 205a0f3910e6ce1d b02fe821b2937053 22269c8812985cb3 165 334",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f c0d302e3f55cd849 43067ffb5c2ad3e6 9 24",
    "testdata/postage d92267237c4d1852 6d4a89794a15563c ab2b4bf00d951664 7e8e8bdd5ba2d95b 91 124",
    "testdata/postage_rates c7c344e9ee6217c0 acdb00f2de92eff0 f94b6325198827b0 08d9aa595cab6e67 287 626",
    "testdata/range_ends eb842698902ba988 3f04bf8fc1510a88 3eead1fd89cbd39d b32d21c687cf2987 60 80",
    "testdata/ranking 5f0926ba8c8b2ca6 2dac1e4df8c0a075 f5f8eced28852437 dc08d0f46f0573a0 47 124",
    "testdata/remove_html_markup c1c56c504a115a09 ee6e668c4bf658fc dd0d0eb4b7c16a61 a938582392e25911 581 1172",
    "testdata/reversed 45a05bec8a4997b1 34ac82f7c5d7abea 34c84142c9eb73e9 0a7129f5fee92a15 35 190",
    "testdata/self_dependent d2749fe5487ecc31 aac5db25797c50d0 1e577333be959654 92843f6d79e1827e 27 32",
    "testdata/separators b7f237720b7b6dce 935ea5b94d3bbda9 ba803bfa30ffedd4 8c7c61a0e2ee482b 355 648",
    "testdata/shapes 3aa748fe94b24fa0 ed743ba7fa9049e9 a588cab90be76e07 e58120224a9296d3 442 1244",
    "testdata/signs 9bde38102d4d5743 3735dafc539737a0 5ad8f22a288e5232 27f6d781e848cefe 46 130",
    "testdata/starved_group 08756b746eeb3f3b aef5cf3690fa2093 f743b2ffe511798b a6b159ef64fb7561 28 27",
    "testdata/swapped_arguments 6246a48fcaaa98a4 7006475b813b65cd 24b098bd070edf96 eeea881c36926040 20 87",
    "testdata/tied_lines 0a2018af652b9629 d41a642282420555 88d889146ee035a0 3e36c5875a33590e 36 112",
    "testdata/twin_guard 89e31f67e7774b18 4c0ac6e7c911ef06 bab13d3756ce2e90 c46ecfe9dde43330 690 2586",
    "testdata/twin_leader 10ea90abdcd3d787 0f4c35af24f4b5b6 5d12e86665ff480a 3a8023b020cceae4 270 633",
    "testdata/two_faults 86ed4dd4be63bc62 4427efeb1b57a564 b482053a821032e6 c93ae49f805787ff 97 324",
    "testdata/two_plausible 36332fabdae38f72 25d6c4bf10297b13 ca4ca09850650250 2c6472727fa197da 48 179",
    "testdata/uneven_split a53f0896a3060364 69cffed59e35f608 23fb9c51b03a7812 2097ec5256ac0410 64 142",
    "testdata/uninstrumented da699e02b8f4a90a 3bac6c1fabf130b0 c2f28e4addc737b5 b25ce1508e40c5d3 169 221",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 62d44a0b35dfc1ae 7bb0372bc26d1171 0 14",
    "testdata/unrepairable 17e08d5c6d865c31 c71f4abd740ffd5a ed17b2f66e1b51c6 b7d5290895cc5940 149 469",
    "testdata/unused_binding 4d0012e21e81c6ff b5d0287cf6fd2995 912aec2c7bfadf6e 71a4e3e5d124d387 501 1396",
    "testdata/unzip_pairs 63500ee10c3775a9 ea380dd048b3dda0 34bfb730e6e90ae1 2166230bbad1cf38 68 237",
    "testdata/useless_comparison 7e0ea5b28d055014 6bae802c8b8c6600 f470206305b4976f 0d4d822329cb8c60 48 75",
    "testdata/word_pieces 8cbaf357f696578c 52f8918934ac8526 780adfe79e6a381c ae23714ae7354fc8 686 1976",
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
