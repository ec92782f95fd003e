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
    "bench/programs/calc d5f5440b1731ecfb 2a790a13122abb4c b3074313e37af35f 8ef5ff0148c98ba2 8382 14360",
    "bench/programs/dates 1311bee53547deb9 acef821aa2c79615 c1a0d7672ec5bb3e 35d222b3af27b9c4 6616 10557",
    "bench/programs/intervals 1842e91f25137b46 e312b0d7037930cb c68e4734226b18b1 dae3e659bfb6d295 4290 9166",
    "bench/programs/ledger 8a2438edd7b6daab 39999d6a3430b595 7d5b642b3cec3e3f 47f05d9ffe84e68a 4110 9413",
    "bench/programs/rle ff47ea0139e46a7a 462c05d3dbee51f4 d1e9ccd05976c254 b897a1a5e43fe00a 3914 9304",
    "bench/programs/roman dd8d81ea21ee6af3 0210496798d3e237 ca0fb1d050bac758 d6f9d769ffa2d28f 2035 4684",
    "bench/programs/textstats 8b76454eb13b771d a88e9cae07ece557 5af28900a85976b3 6489b058d5885bd9 4430 7229",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 b9ecf744d5a63a80 f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 4b22aa21223c87f5 7abcb870254211a5 1730d8c340404d28 c1ffb1610f717bad 45 32",
    "testdata/attribution 3e776638721be067 3e776638721be067 86ed98d22ee4e169 91034de5b6edfbdc 76 76",
    "testdata/bisect 0a1469da279818ce af1a4e3a0f745f8d c8c8b083c8bc2fea d30ec45b6f843aa1 86 223",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 91eb92b8eb644911 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail ac6825fe5465603b 4db17046edd2e8d5 699ce2d3550bd2c3 baa0ed60564699f5 247 458",
    "testdata/clashes f2674fa164250da5 743a8cf41d1aa2bc 26707ef21f9fdca7 ee9731864f49f347 95 129",
    "testdata/cli e9adce5056210274 4789d22c97ddc834 c2e0b80c7d8d65af 567aa7e6842d227f 98 199",
    "testdata/comparison 2879862ecd44b628 a6823f62dfdb05ef ef1c36c46eb4928b 2170565fbf890b25 125 207",
    "testdata/const_fn 77ba3336f1ee8e2e 750bc4777c8e5043 55169aba2ca8460d a2e7dc4b43c05fb8 319 533",
    "testdata/const_macro aa980757c1b0b403 cb8697f219479272 d0e92e8b0cba56c8 24246c0cf5f2b279 23 45",
    "testdata/const_table 0dd57b5cb17443e2 2cd4656b3eb2ff08 45790aaf97b83e03 9a26174261fbac55 119 146",
    "testdata/crash_site 4ceeaea6c2549ae0 83f0e1618bb55e48 b5cc5ac356bc5ce3 d558a7b55437e282 1167 1833",
    "testdata/early_stop bdd3a54ff28b9999 afada21be204dfde 47ce0440a86303ba 8c937ab558fe1b67 156 362",
    "testdata/face_cards 82a2f66db67c7bfb c72027514d762224 e5e5edae73373e8a e05f18fb77298211 234 385",
    "testdata/far_fault 4d5d8e5b2eeab050 f35457ba2e93f991 ff918e76cdd038a8 11e72ff0e83ba852 441 486",
    "testdata/features 5589f548ef92fc26 28ab81ea02c8be59 6a2b2bb6ded38611 7bd5583f32394c3c 23 55",
    "testdata/flaky 4d6fae5334f3aebe 5436a579c019d74d 68f68737d42b5b93 1af12b252e353771 9 32",
    "testdata/forgotten_term c5caf9aaef9b7f3d 3201997947a3ab2d 4edaead5d51bff17 ea42e965188b20ae 260 823",
    "testdata/forgotten_variant 9adf38dce99a7eb6 c786e9008e5b3fc2 a2f1fa3034e15dd9 c8fcd1ee59e12109 230 563",
    "testdata/group_totals 19df0f8d8285d177 c8cbd2a9db1a4ec9 4ba70c34156b4158 f80b9d1c617b5f2d 204 467",
    "testdata/half_repairable 08756b746eeb3f3b aef5cf3690fa2093 a35672de0f36e5a7 a6b159ef64fb7561 28 27",
    "testdata/hang 688c70acb2eb5c1d 2f6f7af2ebddfc0d ad8d17c536e69b05 10de4dfc16bc5dbf 214 341",
    "testdata/html_quotes c1c56c504a115a09 69de1debf762036e a80a5e456b6d887b 85488aef1c8fb61f 581 1174",
    "testdata/integration 75717573bbd1c3c7 5199a7d43fc46224 1e6457284996e17f eca940634bf85632 206 444",
    "testdata/letter_weights 3cb5d00f4cf4e6ae d4bad89e9893d80c 2a6140c3bca286cb f10604d8a6a2f233 66 206",
    "testdata/log_repeats d0cd38f992037c9f 39167209e57369db 2fb796e3f38d29cb 70adf142046b4fa1 636 1167",
    "testdata/logged_mean f09a42aa6fd1d54b 42e25569dbf71e03 7f9aab3f2e5ff7d5 f0021c2c6c885c7f 210 623",
    "testdata/long_test 413f326300366d33 0176699af72dfbf5 aae0d6d55fd699cb cc11c262b551d622 293 864",
    "testdata/macro_body 41e18b82a1e3d29b 0bb45a71a55c5ab5 ffee9dd4ab6ac79b 81f6883d1b4a8d71 125 240",
    "testdata/macro_trait 7601b6121ccf9b7f ee623fc24be75cd6 a3f1a845d2386eaa 5aeab5339a1ff93d 61 190",
    "testdata/median 95d953b55bb5f108 601dd012878ee6fa eb6cb4506371d76d 0291eb30e32b866a 28 93",
    "testdata/middle 65a6d137071c70b9 50553b0fa1590c63 f006509e034f64fa 7a2cd44bed120015 402 856",
    "testdata/missing_conjunct 5448f440c5e4c49a c4c81233f962a5a3 c90a2773be071f5c fde3385b1c2e8ecd 25 120",
    "testdata/missing_guard 3411130c50670c9e 658601c35963371e a2b24a11e5b7bbbc 5d451eb511a4a500 13 71",
    "testdata/missing_statement 8ed2f4dddd2e4789 ff2d220bc183efe3 c0f9b01582ebe342 233bbebf86a93758 382 428",
    "testdata/missing_twin 9765118d19896ab9 2df386161ba04da2 94863a5bccba5c29 cb6ed1bc14881692 206 422",
    "testdata/moved_data ca5731171b68631c a290ee43f0338ce1 c390282a45346af7 a886e61b4cf69301 35 76",
    "testdata/no_std 1232aaf913f3d6c2 3923ae525be56ea6 34ece1f64662f810 b02d02d7f7882db8 302 736",
    "testdata/no_std_2015 480f75cb27f5c36c 83721652cea828e8 163415e441c0a0b1 ac0d048f0a92cfda 314 753",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f af39edf68fc44f6a 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one f58a47739cf698b5 b44a05d3ad057cc2 a8c26c7dd1e4a12d a4a3538ec26c5002 84 250",
    "testdata/offset_branch 9cae7a9fe469b26f f5aa00945ebd19a7 23427312b6a58e6c b38ee332a7110859 52 233",
    "testdata/offset_index 3a0fc06c7a4bd653 a5a656f3cb496ffd cce613c25410c8d2 4c216715e8519c6b 40 124",
    "testdata/overflowing_digits 3b1fa1eb9bf5a754 205a0f3910e6ce1d 3fc60ddc287bfcb2 22269c8812985cb3 165 334",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f af39edf68fc44f6a 43067ffb5c2ad3e6 9 24",
    "testdata/postage d92267237c4d1852 974d1bfab0f0b4d2 d89affa9ab046691 19cf6361eb3e9329 91 126",
    "testdata/postage_rates c7c344e9ee6217c0 c99c8b9f2a1e7b40 a1ebfac2ed1f3d3b fe4223fcb824d7f8 287 634",
    "testdata/range_ends eb842698902ba988 3f04bf8fc1510a88 c6570c94b9d6a4ce b32d21c687cf2987 60 80",
    "testdata/ranking 5f0926ba8c8b2ca6 3e8ff7e8f02c6157 994bdf4dc055b35a 2c5d9769a1b9228e 47 128",
    "testdata/remove_html_markup c1c56c504a115a09 69de1debf762036e a80a5e456b6d887b 85488aef1c8fb61f 581 1174",
    "testdata/reversed 45a05bec8a4997b1 34ac82f7c5d7abea cff4cf0fce690ed0 0a7129f5fee92a15 35 190",
    "testdata/self_dependent d2749fe5487ecc31 aac5db25797c50d0 ef54a886cd6fffc1 92843f6d79e1827e 27 32",
    "testdata/separators b7f237720b7b6dce 935ea5b94d3bbda9 65dd73ec89541785 8c7c61a0e2ee482b 355 648",
    "testdata/shapes 3aa748fe94b24fa0 ed743ba7fa9049e9 b5ba2989f110627b e58120224a9296d3 442 1244",
    "testdata/signs 9bde38102d4d5743 40d4f78c9fccbe08 bc93e83e736d68cc 0aba46fc50a655a7 46 134",
    "testdata/starved_group 08756b746eeb3f3b aef5cf3690fa2093 a35672de0f36e5a7 a6b159ef64fb7561 28 27",
    "testdata/swapped_arguments 6246a48fcaaa98a4 7006475b813b65cd 1125a613e89e7363 eeea881c36926040 20 87",
    "testdata/tied_lines 0a2018af652b9629 d41a642282420555 d9c0323fa64b24af 3e36c5875a33590e 36 112",
    "testdata/twin_guard 89e31f67e7774b18 26c355cf9d8deb6a fd7b3b70f2f0ec5b 03634fd1224fe630 690 2594",
    "testdata/twin_leader 10ea90abdcd3d787 0f4c35af24f4b5b6 99ef4a40746f09c6 3a8023b020cceae4 270 633",
    "testdata/two_faults 86ed4dd4be63bc62 49ac361bc93c28ac a0a20aba07f0f8c8 58667b04a766d46b 97 328",
    "testdata/two_plausible 36332fabdae38f72 25d6c4bf10297b13 8b90a6db00ac8704 2c6472727fa197da 48 179",
    "testdata/uneven_split a53f0896a3060364 5474518c1bcd8a82 32db0b84a01201ea 60e8940be60c1406 64 144",
    "testdata/uninstrumented da699e02b8f4a90a 3bac6c1fabf130b0 ab5f5bde8eb0c3df b25ce1508e40c5d3 169 221",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 00fcd20ba1209b45 7bb0372bc26d1171 0 14",
    "testdata/unrepairable 17e08d5c6d865c31 72d33668748c28a4 7aadb7904d6c21cb ec3e49f2257cd903 149 477",
    "testdata/unused_binding 4d0012e21e81c6ff b5d0287cf6fd2995 1166d36d78bdd901 71a4e3e5d124d387 501 1396",
    "testdata/unzip_pairs 63500ee10c3775a9 ea380dd048b3dda0 4cf0550a270e21d7 2166230bbad1cf38 68 237",
    "testdata/useless_comparison 7e0ea5b28d055014 6bae802c8b8c6600 5b0a210c9e3c6547 0d4d822329cb8c60 48 75",
    "testdata/usual_form 4612fc645a23bf6f 16d1d979edc546bf b99c21392e6b10c5 e17294985ea1d859 622 711",
    "testdata/word_pieces 8cbaf357f696578c be5d68707df5a286 f95c169d2577f541 35af67aba70a5f93 686 1984",
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
