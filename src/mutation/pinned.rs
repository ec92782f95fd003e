//! Pins what the operators make, so that a change meant to keep their
//! behaviour (a refactor) can show it did: over the fixtures' and the
//! benchmark programs' mutation spaces, a digest of every edit of every
//! operator at every site (with no types known, and with made-up types that
//! reach the typed paths), of the random draws for one seed, and of the
//! sweep's edits per location. The digests were computed before operators
//! became a table (and again for the operators `overflow`, `bounds`,
//! `jump`, `member` and `ends`, and conditions of `self`'s fields); a change that alters them changes what a run does.

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
    "bench/programs/calc 4f6b0d467254fe30 adb33e02c1bdee76 35bc31d5e6ecb0f5 2805f30aa3eecee8 8790 14472",
    "bench/programs/dates 916345b1cf5f3924 c11f3a862b59153d 94ac2dd261a35979 2761b833a6b58c01 6726 10606",
    "bench/programs/intervals 32c0c0578ea096cb 5e6bc8e2fe9b8036 dbd6560a3181c388 8162ff62df1a716d 4480 9312",
    "bench/programs/ledger d9e652b622d5e759 1c10dde518d38c0e db31ad75168f3382 9a7c815e11606642 4201 9419",
    "bench/programs/rle 87aead685f97a80a 359a184dfb3897bb 7f58ad1d179d7e17 1b02aff3a377fa39 4132 9496",
    "bench/programs/roman 2d5d7123a1587166 5be8ccf9ca0696fb e7e4e9133af813c8 0476383f1e948691 2144 4728",
    "bench/programs/textstats 962aad4027d4af78 3ce3e8a4440bb8b8 c9053f3107cb62a4 06e9a0b44140c40f 4913 7514",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 5a636d994aa6d5a3 f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 8df958b59c7ef74d 43431e3552b082b5 cfd3468bafc31d51 640dd9c6c7a3ca45 39 26",
    "testdata/attribution 3e776638721be067 3e776638721be067 47956539072890ba 91034de5b6edfbdc 76 76",
    "testdata/bisect 0a1469da279818ce e1d7e0452237982b b80f9976993ea6a0 a2f2c32d2ef063c0 86 219",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 3f615106483e2b29 3ef6ae1150df2af8 5 20",
    "testdata/clashes cff36ac7b8a44d6e 1dcbe53642349d93 ac05748053aa9bf7 4cff4ab510f5069a 99 129",
    "testdata/cli 1b275af7e828d148 162d3c8e7f297556 621ea44bca4bc6f4 72c2321b7139110b 140 241",
    "testdata/comparison 2879862ecd44b628 fd465721fd3aa919 6c9220ac4d7a6ebc 09223cc1803f51a7 125 201",
    "testdata/const_table 0dd57b5cb17443e2 2cd4656b3eb2ff08 7af09ea79747ff4b 9a26174261fbac55 119 146",
    "testdata/crash_site 993828cd8844ef70 56bb8f6f5d783e3a 2df289d1590a9b0d 428b247a7d137270 1167 1805",
    "testdata/early_stop f23157438c9df6ee bfc202825b71a96d 61a234f12fbe123d b92e0e03de90a82c 144 346",
    "testdata/far_fault e0dd7af38c5bdd81 6d4d800e83b38d4c c0c7a474a420c63a 60b7bfdc55e97eb8 557 592",
    "testdata/features 5589f548ef92fc26 28ab81ea02c8be59 d20623a644b303b6 7bd5583f32394c3c 23 55",
    "testdata/flaky 4d6fae5334f3aebe 5436a579c019d74d 9d5e834ed2383ec5 1af12b252e353771 9 32",
    "testdata/group_totals 0c33767a98ada0e8 72f21b3818b3c75c 2dc5aa08498dbd32 6b0807bee47871fe 232 495",
    "testdata/half_repairable 08756b746eeb3f3b aef5cf3690fa2093 6e6109a9e6bd8a12 a6b159ef64fb7561 28 27",
    "testdata/hang a5e17779983c02ed 44aa71bb719480c1 5d8629bd9851fb74 950ecff3b84c7004 214 341",
    "testdata/html_quotes 25a702d26eaaf4ab 6d3f28c1e88137f2 b057cc019ef60b6c c38d7d87b2b0ab7f 581 1172",
    "testdata/integration 67ffece7ae65a209 890e9640b54e248a f4b4e133bbdef651 ef7965539c27e4de 208 446",
    "testdata/letter_weights 122c9de4511048fa 41551ea314cebbb6 debe989dbc21dfd9 cbe6ab7432a15137 66 200",
    "testdata/log_repeats aa156038b4b24709 a959668269920d43 5aa03445fc23416c 94d4894cde7f1832 645 1176",
    "testdata/logged_mean 662b56e46cae153b a5e66cd84629faa7 8ddead74a5cd5227 185552ff1775c1bf 210 619",
    "testdata/long_test 4135c41ca9e4aab1 05fca39476808bee 202a3155c8562ac1 7353a0e4ac4e93ea 335 857",
    "testdata/macro_body 4c72d843249d6977 ef370b96b06cec1d 9a79cc820951adbb 69db9ed1efe1fd0f 125 240",
    "testdata/median 3a1efbd568164813 1bf79b7ce927597f 1f87d4c704f8cf84 ea4c80ae673fe3d1 36 101",
    "testdata/middle 9468e93e4877ec5d 4c610acbba31ec9b 67984ee4f4710dfd 8d0ce76de94b3b49 402 854",
    "testdata/missing_conjunct 5448f440c5e4c49a c1575be67c623b05 6297e36cf77bd965 b91cfb53ad2de481 25 116",
    "testdata/missing_guard 05f86e3ecd395e8d 4e5b3a808ffcd605 9ba8831b47a712a3 2eab49537e4b4559 17 75",
    "testdata/missing_statement ec077c294e340e7d 27da71ba3ddb7ea3 4ec0c021a976417e e38a5f067fd55453 381 427",
    "testdata/missing_twin b879dc90273ca76b 8c7e6e652d02283a 82a05fc6a2d26851 1d66db4c25a04af9 206 420",
    "testdata/moved_data e0e27071b78acf69 d8445d7ae53055a6 df1818dbb402320c 5dea17893bd30fbd 50 91",
    "testdata/no_std 47856f4bc41cf7ce 00227659b2978105 c939f807d106b4bc 665cb76f368f822b 288 711",
    "testdata/no_std_2015 1a08f8f397bc34bf 5ee93a41ffa1c0c8 eee4cc89baacebb2 4c3d0bbf10388ba1 300 723",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f d9fcad8aba7f1da6 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one 51c81ea51daab1d5 2c5bd8b8e8f57740 0a67cafcc45039ba 543ed1c4d09cf8cf 80 228",
    "testdata/offset_branch 9cae7a9fe469b26f 0e3136ecf3ea1eab b27823a1ca43faa7 96c0dfd35f803eb5 52 231",
    "testdata/offset_index e883d5a565c30530 1000485e6ee80e94 17e09c4de4153105 65bf4db55b393f5e 36 108",
    "testdata/overflowing_digits 341de93ec7e4047a c740e7237ec0c343 021f42ee2897d0e0 3f9c3478fa95498e 161 330",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f d9fcad8aba7f1da6 43067ffb5c2ad3e6 9 24",
    "testdata/postage 00067c64439035f6 f9315b1d8773f0ee 0358e9ebfe929028 f5f6eded93b0f3b1 93 126",
    "testdata/postage_rates f594d0c1a7be4c8d c09e62ebe3f697f8 07485e723ed70e55 c69fcfb7a0deacdb 293 630",
    "testdata/range_ends 6c6fd3333000055a 72d14d187c8a0886 98d229cd975f21e0 fd9289362b127b12 56 76",
    "testdata/ranking 6648b52eef2f27d8 412971504c9c4159 50a7a4a5f3c9d247 669b0d3ecd6b1f93 77 154",
    "testdata/remove_html_markup 25a702d26eaaf4ab 6d3f28c1e88137f2 b057cc019ef60b6c c38d7d87b2b0ab7f 581 1172",
    "testdata/reversed 4ebc2ae1c4b08de3 3c7e3e4f4ad404f4 7410f367f2d6f74e 3d0a676dc4a1671b 35 190",
    "testdata/self_dependent d2749fe5487ecc31 aac5db25797c50d0 a3662ee239aa1e45 92843f6d79e1827e 27 32",
    "testdata/separators c9a218f97eda5fd4 008f25c508812b31 54abc0e3374e0422 5af0f086b883811f 371 664",
    "testdata/shapes 2d5bf5f01fab60b4 c760953bb684e17f 1f422615763f8151 765532c7848d430f 450 1252",
    "testdata/signs c99ef6ea6d4abd8e c0876908cffb3805 5e6b1d62d045658a 8d1c23c93fa2a4ea 48 132",
    "testdata/starved_group 08756b746eeb3f3b aef5cf3690fa2093 6e6109a9e6bd8a12 a6b159ef64fb7561 28 27",
    "testdata/swapped_arguments 6246a48fcaaa98a4 7006475b813b65cd 577fa6ae15bba019 eeea881c36926040 20 87",
    "testdata/tied_lines 0a2018af652b9629 d41a642282420555 cc8df9606d83f558 3e36c5875a33590e 36 112",
    "testdata/two_faults 86ed4dd4be63bc62 4427efeb1b57a564 0eafe98c42e1e03d c93ae49f805787ff 97 324",
    "testdata/two_plausible 65f7ff2c02d4b31e 5f2f46b8fc4cf763 5b414aa1edb84a1d 54a671874662e51d 44 175",
    "testdata/uneven_split 6686e8413320f3e4 fbe91a5ed7a61d14 d42783a9d835f358 91682849f4f58ae7 59 137",
    "testdata/uninstrumented db844b17ad543196 3f024efeccd43044 62889f6dea7d5369 f621f8e8dfdaad49 153 205",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 b8409a7f1ffc60a8 7bb0372bc26d1171 0 14",
    "testdata/unrepairable fcc1221025afa46b 8ac94e585de53afc 45a6a73b148e843e 94d6a26b5445268e 153 473",
    "testdata/unused_binding 8259d636084e930b ea5b09fd2c8eba79 6e00b25dc6d593a7 5d44b201f58f72a1 577 1472",
    "testdata/unzip_pairs c52f9456c4167a55 3c28cf3c82911c3e 0bd62b7cdd95042c 4546fb9a55c3c9c1 76 245",
    "testdata/useless_comparison 7e0ea5b28d055014 6bae802c8b8c6600 92a46890d9ed2147 0d4d822329cb8c60 48 75",
    "testdata/word_pieces d8f3efed5de0b49c 84da010ca7a0d0c0 500ebc99acb8039f 7534563e1add43d6 731 2021",
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
