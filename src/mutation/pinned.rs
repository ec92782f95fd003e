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
    "bench/programs/calc 0104acd9b032e35f d02ad69395190d57 c75f8da0d4d7da95 0d69e0bcda437aa8 9235 14917",
    "bench/programs/dates 979b5ef7ea4b2479 d12d5f9d65f9d516 d8dc9f2bee2a1771 139a053c89d21494 6728 10608",
    "bench/programs/intervals 046bf4234ae06153 e4efa1fbb0232bba 8cc33047d628af6f fb98a06764efc8d8 4480 9312",
    "bench/programs/ledger 047e02d0036e28ad 7734ae0de59a62ae 9874417974c622ee adb1eb2ce5b9d4d3 4243 9461",
    "bench/programs/rle ab69de8f14eafccc e308bdfa46b495af b519ade324973432 3310b77e1906cc2f 4140 9504",
    "bench/programs/roman c1ee860f9daa9418 a8b45251c831e8d7 e346fc45ca82fe6b da612578692a562e 2226 4810",
    "bench/programs/textstats e6288aea6e4b81ba f9893c148e1cec9f 20cbb82cfd3eb099 3151f9b123870bfa 5098 7681",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 5a636d994aa6d5a3 f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 4b22aa21223c87f5 7abcb870254211a5 e5390b4eeb1de9a1 c1ffb1610f717bad 45 32",
    "testdata/attribution 3e776638721be067 3e776638721be067 47956539072890ba 91034de5b6edfbdc 76 76",
    "testdata/bisect 0a1469da279818ce e1d7e0452237982b b80f9976993ea6a0 a2f2c32d2ef063c0 86 219",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 3f615106483e2b29 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail 87d07a85eeac4aed 687018bdbacce5e9 dbfa392b5292e3da 5e2693ff0b930bb0 243 454",
    "testdata/clashes cff36ac7b8a44d6e 1dcbe53642349d93 ac05748053aa9bf7 4cff4ab510f5069a 99 129",
    "testdata/cli 54d805f8561b64e4 1ab6cf19e82f2106 d3ee7783842b1b3a b1d4112f0844ea15 140 241",
    "testdata/comparison 2879862ecd44b628 fd465721fd3aa919 6c9220ac4d7a6ebc 09223cc1803f51a7 125 201",
    "testdata/const_fn 34dd99fadda539c5 95b0182f5f314f8f df7d5a34b0512ca3 7aef272e58359fd8 297 507",
    "testdata/const_macro aa980757c1b0b403 cb8697f219479272 b49f4b88d525c75a 24246c0cf5f2b279 23 45",
    "testdata/const_table 0dd57b5cb17443e2 2cd4656b3eb2ff08 7af09ea79747ff4b 9a26174261fbac55 119 146",
    "testdata/crash_site 4ceeaea6c2549ae0 e3dd8509048fe3ea 9f0ab480e0e808c1 951384d5ec255fc8 1167 1805",
    "testdata/early_stop 390517ad15436006 f4e22b8174800ced 4cce23983deb8b06 6eac9d5f62baf1c0 144 346",
    "testdata/face_cards b97e41ebb505fc49 fe6ed09c83150896 ba2dfe9880b448a7 b76b4d3d51a37dcd 242 393",
    "testdata/far_fault 753503b82028fab3 da43193af3d741ca 005628e6e8bb7a62 40932d2853b5d287 557 592",
    "testdata/features 5589f548ef92fc26 28ab81ea02c8be59 d20623a644b303b6 7bd5583f32394c3c 23 55",
    "testdata/flaky 4d6fae5334f3aebe 5436a579c019d74d 9d5e834ed2383ec5 1af12b252e353771 9 32",
    "testdata/forgotten_variant 207cff613c658ab3 62dece887649f46f 43055bd923b35649 6661a6c684745b67 224 555",
    "testdata/group_totals eebdbfb80cc12992 919c486e9149b5ba 229b9a7edcf6e737 1da119344983d992 232 495",
    "testdata/half_repairable 08756b746eeb3f3b aef5cf3690fa2093 6e6109a9e6bd8a12 a6b159ef64fb7561 28 27",
    "testdata/hang 688c70acb2eb5c1d 2f6f7af2ebddfc0d b4a8103cf5890140 10de4dfc16bc5dbf 214 341",
    "testdata/html_quotes c1c56c504a115a09 ee6e668c4bf658fc 54a02b1fc86b9830 a938582392e25911 581 1172",
    "testdata/integration d77d3cdb2bbb89d7 4732c1e574af844c f85f9fc18816d755 0c716092cf836569 208 446",
    "testdata/letter_weights 3cb5d00f4cf4e6ae c9b0ca179fbdf6e2 73d4c6181aab42c9 ad919bb928815190 66 200",
    "testdata/log_repeats 825a89832cd054c7 2416ea90df5eaf15 66685c2604e5680d 8b72bb036c24b817 645 1176",
    "testdata/logged_mean f09a42aa6fd1d54b 297fccc496b2584f c986d0fa37cc4fcd 4599c18b9cc3ad1b 210 619",
    "testdata/long_test 507560d80a683d25 c6cd6b9b26d12b82 20faa60aabc1b67b 8ea76ed3f392c434 335 857",
    "testdata/macro_body 41e18b82a1e3d29b 0bb45a71a55c5ab5 9f8c214b9755900b 81f6883d1b4a8d71 125 240",
    "testdata/macro_trait 614a4850229db67d 1a5af33c814d071f c061750e692f6ec8 b099f7636c0d9e9a 89 210",
    "testdata/median f04a14ef746b4b85 e0e55ab519ebf6f5 204198c8a12b7410 24c53d15dd3f4458 36 101",
    "testdata/middle 65a6d137071c70b9 4307c0115e4672af 90a3b25d76aae635 b29721ad84d53b25 402 854",
    "testdata/missing_conjunct 5448f440c5e4c49a c1575be67c623b05 6297e36cf77bd965 b91cfb53ad2de481 25 116",
    "testdata/missing_guard 05f86e3ecd395e8d 4e5b3a808ffcd605 9ba8831b47a712a3 2eab49537e4b4559 17 75",
    "testdata/missing_statement e7fd2e4a9946c39b b9f68df5d72768b5 573ef35a62d7507e ed0de51637bb7bb1 381 427",
    "testdata/missing_twin 9765118d19896ab9 bad36a0cd6701604 4f98ba28d0f2754d 69752a232a2bd160 206 420",
    "testdata/moved_data e0e27071b78acf69 d8445d7ae53055a6 df1818dbb402320c 5dea17893bd30fbd 50 91",
    "testdata/no_std d4cea8134a4099b0 a5667df37fdbac63 fbdcb21fca15d15c 36467010bff7cd4d 288 711",
    "testdata/no_std_2015 3e3e2e5a2abd2eb5 a65aabb34a25683e df035d9055a88ddb 7f03dcb745fb1017 300 723",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f d9fcad8aba7f1da6 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one 51c81ea51daab1d5 2c5bd8b8e8f57740 0a67cafcc45039ba 543ed1c4d09cf8cf 80 228",
    "testdata/offset_branch 9cae7a9fe469b26f 0e3136ecf3ea1eab b27823a1ca43faa7 96c0dfd35f803eb5 52 231",
    "testdata/offset_index 6b2a78948c1f3156 e084efb7ab227f4e dcf3e7416d882542 65bf4db55b393f5e 36 108",
    "testdata/overflowing_digits 1f63354d0d3dcb48 f10ada12a7099385 ab2a7e808c756167 a6494d4d38cb1879 161 330",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f d9fcad8aba7f1da6 43067ffb5c2ad3e6 9 24",
    "testdata/postage 00067c64439035f6 f9315b1d8773f0ee 0358e9ebfe929028 f5f6eded93b0f3b1 93 126",
    "testdata/postage_rates d8de7c9d510d53a4 f794fc6af9b1fdd1 4043addfe0d69752 ae6ae50fb4ba95db 304 641",
    "testdata/range_ends 6c6fd3333000055a 72d14d187c8a0886 98d229cd975f21e0 fd9289362b127b12 56 76",
    "testdata/ranking 571f9614603e6088 a1e1023311ee1bf1 38ead7120c3e711d bd9634ff9e1d1d66 77 154",
    "testdata/remove_html_markup c1c56c504a115a09 ee6e668c4bf658fc 54a02b1fc86b9830 a938582392e25911 581 1172",
    "testdata/reversed 45a05bec8a4997b1 34ac82f7c5d7abea 19acac2ca9d2c4c3 0a7129f5fee92a15 35 190",
    "testdata/self_dependent d2749fe5487ecc31 aac5db25797c50d0 a3662ee239aa1e45 92843f6d79e1827e 27 32",
    "testdata/separators 99b954cd99954b6e 36eeda77cc6aa977 84893611a978aa1f de4c5b8566d74039 371 664",
    "testdata/shapes 2d5bf5f01fab60b4 c760953bb684e17f 1f422615763f8151 765532c7848d430f 450 1252",
    "testdata/signs 0067f5cd80f5e684 4bac50583320cebb eeb1c400590c5a02 362661ae1bd35b58 48 132",
    "testdata/starved_group 08756b746eeb3f3b aef5cf3690fa2093 6e6109a9e6bd8a12 a6b159ef64fb7561 28 27",
    "testdata/swapped_arguments 6246a48fcaaa98a4 7006475b813b65cd 577fa6ae15bba019 eeea881c36926040 20 87",
    "testdata/tied_lines 0a2018af652b9629 d41a642282420555 cc8df9606d83f558 3e36c5875a33590e 36 112",
    "testdata/two_faults 86ed4dd4be63bc62 4427efeb1b57a564 0eafe98c42e1e03d c93ae49f805787ff 97 324",
    "testdata/two_plausible 65f7ff2c02d4b31e 5f2f46b8fc4cf763 5b414aa1edb84a1d 54a671874662e51d 44 175",
    "testdata/uneven_split 6bcce980b83d5188 d231906d09d9d6f0 934645516556e4d0 aa033048bb0cbdab 59 137",
    "testdata/uninstrumented 66aa48bf80ffaeb6 d47edf17fa6162bc 2d22044aa31d29ba ad57a6c5652fa0f5 153 205",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 b8409a7f1ffc60a8 7bb0372bc26d1171 0 14",
    "testdata/unrepairable 2f4f26997847c199 bd797a0bf52fc246 aeee97ce01031fe1 7b9cd40b6df1d9ec 153 473",
    "testdata/unused_binding 7accbeac93e60ec5 2bc6c082732e71d3 6cb580fba10bcd70 6ec9fc6e5c962236 577 1472",
    "testdata/unzip_pairs 38e6fd26c563414b 6b13dc959858b63c 813eaa82562fbb6b 132248b52dbef490 76 245",
    "testdata/useless_comparison 7e0ea5b28d055014 6bae802c8b8c6600 92a46890d9ed2147 0d4d822329cb8c60 48 75",
    "testdata/word_pieces 972a1f644f3f1c3e 54688daa6a6981f6 95931056e07f21a2 00b5625149b787e0 731 2021",
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
