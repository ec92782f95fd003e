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
    "bench/programs/calc 4b086dd0cb5e455a 10efb08f78be9d13 7407cbb16c3fa0d0 3cb65cdcded759da 8274 13916",
    "bench/programs/dates 28d7488439cad818 192a640860694b5d dad480f50b6f9dc2 323f4a15740ceddf 6747 10663",
    "bench/programs/intervals 22752662530e037e 3cbcaf51bc6ed5cd a833663dba6de676 7830e257f70d979b 4221 9009",
    "bench/programs/ledger 4e837c8e44829aeb 97b46872764630e7 8d060d73bef5bf84 4422b27506ed139f 4026 9317",
    "bench/programs/rle a664e3ab74de52f2 60b440b1c6888528 ae9fef616735abb0 2a2e860ac635a618 4254 9520",
    "bench/programs/roman c9a09d205875c1d0 1b5eb87ef61517ee d735097a0495d01e d6101d98ca5a9e9f 2392 4934",
    "bench/programs/textstats a51e7fe876eb8be4 9d6ec36cab99f251 ab425b0d5e89c85a fee54348c2350079 4690 7430",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 45713ae05d67759e f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 9c444eb230bc0780 3aff39602f02e5c0 aea42e192ca82471 b52deb44d5ce59a6 40 27",
    "testdata/attribution 77a5ec2af7fb2d70 77a5ec2af7fb2d70 8d77d71861af4d8c 9284ba3185043cb7 64 64",
    "testdata/bisect 4a960aa9c521ede2 b386ef1cf6e0a6b2 759f5087412850a3 c661a601ffe65be9 78 215",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 8468cf7d935f3db4 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail d1ffdd70f6a02271 8ecbf54b089b131c eef60825f0bcdc59 5ca115cf00cdfc78 263 471",
    "testdata/clashes f22b0bcabcfa28b4 e87a80aed22a7c90 cf66787d027cb786 ee9731864f49f347 107 138",
    "testdata/cli 09fbf21756f31eed da59b7c68e792920 12ad407db3d8917c e26094fc3bf89568 137 223",
    "testdata/comparison 2879862ecd44b628 a6823f62dfdb05ef ecb82c56e31c5338 2170565fbf890b25 125 207",
    "testdata/const_fn 43489a7260dd0be6 7297d1aae45a6e6a 3e8ed2918ff75f91 61c545d79c3f30cb 340 552",
    "testdata/const_macro aa980757c1b0b403 cb8697f219479272 df95b818b9bc4358 24246c0cf5f2b279 23 45",
    "testdata/const_table f84dfebeecfda0c6 796079106d5a961c d55c3357c799525b c6a306c64bd6be57 152 179",
    "testdata/crash_in_std 41eca04ef13daf05 2868c955c07fc999 b356cf2362989444 56ebc597abc07bd8 44 119",
    "testdata/crash_site 7921151ef7953022 92fe83228de31a08 4927e733d7728a33 bb83da1a1f34b26e 1502 2006",
    "testdata/custom_harness a23d668c1cd8e7df 5acd31f78036c3b7 b11a05c1c1fde61e d27a2008c4a0d828 58 173",
    "testdata/early_stop 3443bbae4783e9cf e09bfa0f7a89de54 fad030bd9b225d92 bcd2cf57c69f2ff7 177 368",
    "testdata/face_cards 5cc0b04e176d8235 df09105826370c16 d489a39fa2168b4e e063697e320c0f68 282 428",
    "testdata/far_fault 4ef05e04a0eb9d0c 353b88d758a92575 7f845aea89e82698 fa81e082fc803c7b 655 638",
    "testdata/features 19339be75a2150f9 d4afdc45a986b5a8 cedff2246512afbb 6763af375987f623 24 56",
    "testdata/flaky 4d6fae5334f3aebe ad9730d7f72e9469 2e646aaf21041d0d 4d19b5aa296c12a1 9 32",
    "testdata/forgotten_term ad0465a417ec930f 1834ce16a5961b75 b11ab3f62efc14fe ab86e966ace956c5 296 859",
    "testdata/forgotten_variant ed48f033a8315085 475cf0aca04c7d7c 94fae3eab4d8b590 c75d8a813da90322 235 569",
    "testdata/group_totals 4b5aa48ec27b2367 ba158cccccb4d5ed a723a65a39812087 7c9b17abf3f0c7e7 238 475",
    "testdata/half_repairable d489815414725e6d 37b83c218108a7f8 5c4196fa603c5804 c2167afbf152f608 31 30",
    "testdata/hang b69c31863d025d9e bc57a6adce89c604 aa37400ce1930670 4d5a08735b675448 219 343",
    "testdata/html_quotes f193350adbcbea4f 1906c7dca377bf44 ec14d582b50e604a e20f9ab63991d54e 595 1188",
    "testdata/integration 152eb7ddbfaa454e 6098f10d052b88c9 93e9e68643b35b96 39c0c8817109682c 215 453",
    "testdata/letter_weights 449ad6ab67aaf5fc 3f7f8b110c8d9a47 e0426aa8d2a87a6a 07aa79ecd6b54ceb 75 210",
    "testdata/log_repeats b227eac444cd852b 66e88baf04d3f3b5 903e0541374ab7f0 c33b7d3441a40b59 684 1180",
    "testdata/logged_mean d0f2497f4b8cabac a65465247fb1860e 9529298841316682 b88094fc513785bd 244 646",
    "testdata/long_test e6cf543368f122df 71ffd770fb1cbf9d 3988a261d5963291 88ab8523123e8917 350 919",
    "testdata/macro_body eb5d0359821cfb38 3ac09093325d2fef d900f0a9ba84b35d 763cdb5b21e4694f 132 246",
    "testdata/macro_trait 79f058ef6823874c c2858841c85082c1 267bfc2870fde056 bad37b3f1cd92d78 96 214",
    "testdata/median 04db3487f2ad7e1f 2212766e23758159 9c1c882d30959191 0291eb30e32b866a 48 105",
    "testdata/middle b6fb6c25830b20cb 4246bd6b580a8200 89d148675a08c7e0 737f7583e34bab2b 421 873",
    "testdata/missing_conjunct 5448f440c5e4c49a c4c81233f962a5a3 32a43a7c88299987 fde3385b1c2e8ecd 25 120",
    "testdata/missing_guard 98933356c164c386 5deba7d908f20f6f b1b488166a425c7e 5d453c8e9ee045b1 25 81",
    "testdata/missing_statement 7efabead9530ff65 6d51003017bcb36c 32837e6666dd64d5 c695056c167f2878 384 436",
    "testdata/missing_twin 73989af802a913fe 429c2a0697fbaa15 a4fd69e0b8b03f1b 1ab11c9c865b55fc 222 438",
    "testdata/moved_data 995bf02f7556292f cc20d5f994ff20bc 92981b9e4b402e69 682f1956191f7983 57 90",
    "testdata/no_std e4f9126bef3c0ce7 45397e33be286de3 a7e0e84976ae967e 982615b1d165054e 377 792",
    "testdata/no_std_2015 04dfa0ed9abc89ac 994b49996e88bba1 1f91b357566def61 4597b72776096153 386 804",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f 50679064d1cfef0f 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one b63c08e5b97fc287 f36bfff194521407 62c7baa61ea981ee dcf0fb633ec9fe36 98 256",
    "testdata/offset_branch e26d7fedf72d17dd 76470cdcb09956cd 40c9566c4314c4e3 a507606424c1e88d 62 233",
    "testdata/offset_index b169bf4c4087f383 b3acca9b6438739b e623055664e674e0 af397dc923fb0320 45 129",
    "testdata/one_fault_two_groups 9eab9809993ad9a3 0ecce3d13efcba42 cedee362aa949368 f81613326e0fa635 83 106",
    "testdata/overflowing_digits a5b01ac4a23b882b 3243060d6feeb815 2622cb0e8e245ec8 a4f4210930e0d067 207 349",
    "testdata/parallel_lines 3746b630707bd3b4 e611f6a65007adc3 9620b223cf78b671 abd9bc7a5ce9ce85 154 189",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f 50679064d1cfef0f 43067ffb5c2ad3e6 9 24",
    "testdata/postage 6167ff0136e6a15f 1477645c1d66ebbe c63b5725fcdf181c 19cf6361eb3e9329 103 134",
    "testdata/postage_rates 445f7d9280b1dc3b 12d01053c2a17f5a 8bd7371a8d67afda 7f4546d081657ad2 356 702",
    "testdata/range_ends efa9654269614a64 b21f4fa17b7541a8 af6d1782cf8e84c3 47cb5fa03e03461d 63 83",
    "testdata/ranking e6a356cb0d88aefc a287a8014e48020b c975de88dec5281f a3039e36cd54eebf 75 150",
    "testdata/remove_html_markup f193350adbcbea4f 1906c7dca377bf44 ec14d582b50e604a e20f9ab63991d54e 595 1188",
    "testdata/reversed 4796d2171005e16b 3d58ddeffa75fa26 536a9d3990335777 dafaee73c7dc4a7e 42 197",
    "testdata/self_dependent 6eb759724957704f a08644641289c4bb 49827dfb7c669ce4 ff01cadd70539405 29 34",
    "testdata/separators f010d23c9d58b169 041acb67152a6333 4d187db5ac5391f1 8460978ae7a34340 412 641",
    "testdata/shapes 30afc0061d018acd a8a89ce6d2165871 a97850eb8fdfa918 efcb9c68aba35303 746 1551",
    "testdata/signs 1773aafb81184bce c6c9c380f648527b 8c5605d43121c1c8 0aba46fc50a655a7 54 140",
    "testdata/starved_group d489815414725e6d 37b83c218108a7f8 5c4196fa603c5804 c2167afbf152f608 31 30",
    "testdata/strict_lints d57ee1b48274f7e5 d9e417825e1ba63d b8ab708fb8f7ebe1 e99a5bcace39b87a 445 733",
    "testdata/swapped_arguments ce6e4b166dd74df1 ea548bb9bc6d5ef6 8edeb439784701e0 10e4beeee7e4cba7 24 88",
    "testdata/tied_lines 5dfe6b2fcfe31ae9 274fc29cde9db98f 840b189432821e01 1a53fd2e487a2f68 42 115",
    "testdata/twin_guard 2d4f829f184e4bfc 458fa0ba8d32841e 4c984e8fc10fa26a 33bde4cc1f25c8d6 748 2648",
    "testdata/twin_leader e5f3dfdc9ea02c53 5dead64d761f010e 834a4be17c7e094c 4b5fe1d3e65ac9b4 314 653",
    "testdata/two_faults 6bc5553be7ccb58d 6ee378389a4e24ef fbc400c2cafa6dda 553544a6e80014c1 103 334",
    "testdata/two_plausible 2d2ce304a18fae45 6aac51be2fbc1325 8c7451787a180b5d 00fde52167b640d7 53 185",
    "testdata/uneven_split d4f7da0e5380972c 43a2b678e86ebb1f 28dc5a844a7c49ae f57e0d0104e1905b 68 147",
    "testdata/uninstrumented c835611d586bb03c 4b1cf38878ebd4e2 8183fe65d4e98c4a 4d6066d31d16eff7 203 255",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 170208a4670fccea 7bb0372bc26d1171 0 14",
    "testdata/unrepairable 46fe43ad888ddae9 fa6c2abdf3944e76 551ea90ad71ff78a 9fabd5af70fb5d4c 167 488",
    "testdata/unsteady_test 7be3a94f24b1c520 de3aab4979db23d3 68a135893cef66e8 f5c98b41a4203fc4 256 723",
    "testdata/unused_binding 1649c06153c519c6 71ae8b17cbe7e5d1 929bbc7475102e49 fb35d5a2cce3d438 560 1442",
    "testdata/unzip_pairs bc563fab9a09ffcf f0f91a9fdca7b3b6 04dbdae2d2e7d85f dba9fda6ba82244d 84 252",
    "testdata/useless_comparison 4e0e96bea80cc209 4dfb91e1618354d5 c2294787aef8f6a2 b021121f94452a82 55 82",
    "testdata/usual_form 3dd5ddf2db00d384 e48a99fa58902fb3 5ce27089992b0d13 8a6fe822b0d75e5a 628 735",
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
