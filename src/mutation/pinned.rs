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
    "bench/programs/calc 0771521bc5ecc4d7 6d2f9ea16e00693c 7079970697ae5324 dee7ad83ae92c883 8567 14450",
    "bench/programs/dates 45e42bea5c60067f 884e01575891fcc4 a78b7523d0d4669f e1d3b6bc915f23e7 6595 10547",
    "bench/programs/intervals 0b61d67954314ce3 56fa16c3c4b8247a 6b162cad5a4adc3b e18079670311abf2 4433 9303",
    "bench/programs/ledger a915c411a8f57401 fd1bd264a6817d21 8f702094eed04e4b 778905657b1fabd8 4185 9403",
    "bench/programs/rle 44f5005b05b52b3a 3999d1180d5293eb 8a382ebaf0c3dc12 387695a918dc9366 4132 9496",
    "bench/programs/roman 0507b87351bb8c22 531f0d217759162e 03f7d05ae2ac13dd 5049b6c02d855772 2126 4722",
    "bench/programs/textstats f11936b52496e16c f58cdbdadc1ef916 ef34916f260c0e16 9a8386884bea53ea 4817 7514",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 5a636d994aa6d5a3 ffe77f5e73ca2bed 13 57",
    "testdata/arithmetic 8df958b59c7ef74d 43431e3552b082b5 cfd3468bafc31d51 640dd9c6c7a3ca45 39 26",
    "testdata/attribution 3e776638721be067 3e776638721be067 47956539072890ba 91034de5b6edfbdc 76 76",
    "testdata/bisect 0a1469da279818ce 19d757b43082aae5 b3bcf667b59faa2a 8af745c3447a323f 86 219",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 3f615106483e2b29 3ef6ae1150df2af8 5 20",
    "testdata/clashes 4b1e2777999f141c 1843f3304751f3a9 1c402b391df03843 0606ec3422185cc8 99 129",
    "testdata/cli 1b275af7e828d148 d33b34aedf008c60 873489f771e09d47 3afcd1d2aa40ffe3 140 241",
    "testdata/comparison 85748c4c28d71554 d422e24c76fc1c23 342cbefc68343277 4686f4c5b25fdbeb 125 201",
    "testdata/const_table 0dd57b5cb17443e2 2cd4656b3eb2ff08 7af09ea79747ff4b 55b4ac02479b640b 119 146",
    "testdata/crash_site fae93278ac989291 7854c98c0dfd50d2 46195e14efd7f0c1 c3276737aa51f7a7 1174 1807",
    "testdata/early_stop 4ada4915f9c1f158 072ad3e8ae22e39b 1889f1d8adccc735 7bd5954b5cf72e94 144 346",
    "testdata/far_fault e0dd7af38c5bdd81 6d4d800e83b38d4c c0c7a474a420c63a 60b7bfdc55e97eb8 557 592",
    "testdata/features 5589f548ef92fc26 28ab81ea02c8be59 d20623a644b303b6 c04ae063c7687bd8 23 55",
    "testdata/flaky 4d6fae5334f3aebe 5436a579c019d74d 9d5e834ed2383ec5 0ab091107edfa3cd 9 32",
    "testdata/group_totals 0c33767a98ada0e8 be4eed50b03760fc afefda99d1d06757 2eccfdbbb9b1947d 232 495",
    "testdata/half_repairable 08756b746eeb3f3b aef5cf3690fa2093 6e6109a9e6bd8a12 a6b159ef64fb7561 28 27",
    "testdata/hang a5e17779983c02ed e3db329957946bc5 f22b0941c0f6f875 915f7c80c28328cc 214 341",
    "testdata/html_quotes a674a43fe34ff889 824297fbe4988f42 1c65cd22239e8abe 61d8d54167590be6 541 1172",
    "testdata/integration 5d73da6e3b7e9bd9 9f784e9b420b1ea6 b0343188d8958f85 cd6eaf61f393ee0b 208 446",
    "testdata/letter_weights 122c9de4511048fa 41551ea314cebbb6 debe989dbc21dfd9 a0a70f707304ebed 66 200",
    "testdata/log_repeats aa156038b4b24709 e35f65225240c60a 6cec7927fa89987f 0cddc9fd98ed4556 645 1176",
    "testdata/logged_mean 662b56e46cae153b 4dd4b4001627ca7d 18ea06dcd1e28cce 89fd6e9620b6ebd1 210 619",
    "testdata/long_test 333ca30355acb915 cf2ccc6b75c3850a 1c6651e67b73ebd6 bcf43f1fa8bfe58c 335 857",
    "testdata/macro_body 4c72d843249d6977 9afcd63b8cc05c2d 87bbefba59dca57c d71e47da2627e401 125 240",
    "testdata/median 3a1efbd568164813 1bf79b7ce927597f 1f87d4c704f8cf84 ea4c80ae673fe3d1 36 101",
    "testdata/middle 9468e93e4877ec5d 12d7102bdfdbcf67 6c893df56c8b6a93 7b4db8de2658c426 402 854",
    "testdata/missing_conjunct 5448f440c5e4c49a 418b8706e84e675d b3fa3be30396b6d9 0c76565a7f2494cf 25 116",
    "testdata/missing_guard 05f86e3ecd395e8d 4e5b3a808ffcd605 9ba8831b47a712a3 2eab49537e4b4559 17 75",
    "testdata/missing_statement 0da3fb5ba51562a7 6ad5ce0f9e177975 5b962f7cd5172b3f bc884a747f569870 381 427",
    "testdata/missing_twin b879dc90273ca76b 8c7e6e652d02283a 82a05fc6a2d26851 a0d3a19ef5e9ca8b 206 420",
    "testdata/moved_data e0e27071b78acf69 d8445d7ae53055a6 df1818dbb402320c 5dea17893bd30fbd 50 91",
    "testdata/no_std 47856f4bc41cf7ce 08995bebf982d4e6 6e9992da6ed002ae 61de53c049d4e4d5 288 711",
    "testdata/no_std_2015 1a08f8f397bc34bf 659ee06b2f6fc594 50494e04d04a7879 0f03e88fe3bcee31 300 723",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f d9fcad8aba7f1da6 e485d25dd1b8965a 9 24",
    "testdata/off_by_one 51c81ea51daab1d5 08bb9551a6b692d0 ec5464a1e66b8119 012acf8d89d4cef5 80 228",
    "testdata/offset_branch 9cae7a9fe469b26f fc5da1518a30fa0f 98627334b716dfee d495b480b138194a 52 231",
    "testdata/offset_index e883d5a565c30530 2cd126901e977008 1dc02f14a85f868c c91a032974e1ff0f 36 108",
    "testdata/overflowing_digits 341de93ec7e4047a ae7cb4cc88875dfd 08996240ebe4d9fa 8ddd115bee11dbc4 161 330",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f d9fcad8aba7f1da6 e485d25dd1b8965a 9 24",
    "testdata/postage 00067c64439035f6 f9315b1d8773f0ee 0358e9ebfe929028 f5f6eded93b0f3b1 93 126",
    "testdata/postage_rates f594d0c1a7be4c8d 24ad667d1ce16870 73f304d229072c7b 2d55ad341828cae9 293 630",
    "testdata/ranking 6648b52eef2f27d8 412971504c9c4159 50a7a4a5f3c9d247 669b0d3ecd6b1f93 77 154",
    "testdata/remove_html_markup a674a43fe34ff889 824297fbe4988f42 1c65cd22239e8abe 61d8d54167590be6 541 1172",
    "testdata/reversed 4ebc2ae1c4b08de3 3c7e3e4f4ad404f4 7410f367f2d6f74e 7da364f814b5333b 35 190",
    "testdata/self_dependent d2749fe5487ecc31 aac5db25797c50d0 a3662ee239aa1e45 b2d29abfd92d7d3e 27 32",
    "testdata/separators c9a218f97eda5fd4 1f72721780203c41 c50285e29a7dad25 5fc21514e219ae7a 371 664",
    "testdata/shapes 2d5bf5f01fab60b4 4b556cb94353123b 0d9bc5978e8c4de4 2bbd6ce3fa3378fa 450 1252",
    "testdata/signs c99ef6ea6d4abd8e c0876908cffb3805 5e6b1d62d045658a 0c19eac12b2cfad6 48 132",
    "testdata/starved_group 08756b746eeb3f3b aef5cf3690fa2093 6e6109a9e6bd8a12 a6b159ef64fb7561 28 27",
    "testdata/swapped_arguments 6246a48fcaaa98a4 7006475b813b65cd 577fa6ae15bba019 eeea881c36926040 20 87",
    "testdata/tied_lines 0a2018af652b9629 d41a642282420555 cc8df9606d83f558 3e36c5875a33590e 36 112",
    "testdata/two_faults 86ed4dd4be63bc62 1da053885f6c4fcc 43516b7625949dc9 826b433b40672f0f 97 324",
    "testdata/two_plausible 65f7ff2c02d4b31e dabf2b832134bd39 443166d9ef77fb22 c969d9553ea8c150 44 175",
    "testdata/uneven_split 6686e8413320f3e4 08333641419dc704 a204c79b584828bd 9f73fe3d40d9a692 59 137",
    "testdata/uninstrumented 469c5c1c519c701e d430129c5c7dac00 3b27df3468a720dc 874d4285bd1611e6 153 205",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 b8409a7f1ffc60a8 7bb0372bc26d1171 0 14",
    "testdata/unrepairable fcc1221025afa46b 8fd2acfb22f53eba 6c82f5489eacad05 8a1de29103ae9fb2 153 473",
    "testdata/unused_binding fee60b9343d88e83 d9226af01548b46c 24c089c98eae9071 49f597298addc268 577 1472",
    "testdata/unzip_pairs c52f9456c4167a55 3c28cf3c82911c3e 0bd62b7cdd95042c 4546fb9a55c3c9c1 76 245",
    "testdata/word_pieces d8f3efed5de0b49c 20fc23a568357428 e65ca1198c30e723 be93b4eddb3128c4 731 2021",
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
