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
    "bench/programs/calc e05618de6e9c6d81 35649637dd26843d 4df69ca1ccc88af6 586f5a880218c036 7852 13572",
    "bench/programs/dates 73f5a1d46b3c10bc 2e69034146868361 a9cc0ff424624e06 c741cd1bf54a6c46 6482 10392",
    "bench/programs/intervals 3f8c5a45b098e731 98ab3e7b03fdfa82 f2da49d7b5b27645 d993bea6fa15dc12 4149 8952",
    "bench/programs/ledger ce5503a633b44f95 7262a55181166350 913555dfa0a25cc8 13b5806e6f1815f3 3852 9172",
    "bench/programs/rle f7ee2a54a06cd55c 3e29126246162a19 a29c36f11a72c89e c0b51e8ff74907c6 4080 9426",
    "bench/programs/roman 4ab19ab022dd445f d8120de8b6c345c2 b7725b8c40fbc4a1 3ea7bf8eb122ffd4 2155 4743",
    "bench/programs/textstats c23d1a8793c88571 dd508719adbe6f93 403619b01f3f330f 5224fbf03ae540f5 4502 7290",
    "testdata/all_failing ab6fcc01a117f9ac b98251ccd7e40214 8afcea143a614496 f59c6d1e29fd5cdd 13 57",
    "testdata/arithmetic 8df958b59c7ef74d 43431e3552b082b5 41824d5d5f8643a2 640dd9c6c7a3ca45 39 26",
    "testdata/attribution 77a5ec2af7fb2d70 77a5ec2af7fb2d70 975cb26720800e95 9284ba3185043cb7 64 64",
    "testdata/bisect 01591ad6d5032c70 79d84fbbf66bcc52 e3bf9ce269dca85b 35200bbba6d9aaa0 76 213",
    "testdata/broken c229ad80e8bcd590 7311f33ad6816caa 291806929330acd3 3ef6ae1150df2af8 5 20",
    "testdata/cfg_tail 3293fba468ff046f 6591c75d097561c0 36b396139b50ac5a 7f6ed3f9840bfa08 260 468",
    "testdata/clashes f22b0bcabcfa28b4 e87a80aed22a7c90 275ddb8cbe459819 ee9731864f49f347 107 138",
    "testdata/cli ff7d5e7ade7be756 be5c4da8932045c9 630f105315e5d0a5 4866e95b45077993 129 218",
    "testdata/comparison 2879862ecd44b628 a6823f62dfdb05ef c0103c36655ca8a7 2170565fbf890b25 125 207",
    "testdata/const_fn f12172995e53e4e2 739e337fd740f399 7b44d477bee80d90 8208efcc8b72fd22 336 546",
    "testdata/const_macro aa980757c1b0b403 cb8697f219479272 5c7f6ea9f55ef581 24246c0cf5f2b279 23 45",
    "testdata/const_table c15c7aaae3c3a63c cc6b861418746c86 6dc236dfae91b596 f7f86eea1a39730d 122 149",
    "testdata/crash_in_std 1a20dd2a62c6e4b0 6ab382833aedcb4e f884187f5192adb9 c5768571f65f9bc8 41 118",
    "testdata/crash_site d6950d8cd57a7578 3d2b474072c50c88 c662931e97bf0b9e 4da3907dd8ef5d88 1194 1853",
    "testdata/early_stop bc622b9be6935382 b4c63cf85a7bc2fc 0a632e572be8ce09 f0039c2353724709 171 361",
    "testdata/face_cards 95e48c7c317a39f1 a5eb7a932715a969 7375e716841dda9d 641b58fe2dea1f60 269 416",
    "testdata/far_fault e6e17349bab4b9f9 b55192c6b40b91b1 e5cace99d955e3e9 8d3d0d57b93db4b3 511 550",
    "testdata/features 5589f548ef92fc26 28ab81ea02c8be59 f58e22873ef23d45 7bd5583f32394c3c 23 55",
    "testdata/flaky 4d6fae5334f3aebe 5436a579c019d74d bdbfa848b9284aa2 1af12b252e353771 9 32",
    "testdata/forgotten_term f7c7fbf463a2dc46 3683f80d4756d270 08f9057531cc5123 3f90dbcb415335ba 292 855",
    "testdata/forgotten_variant 0ab3118620870f7a 3e666c84202e5d66 956b05446e554d16 fcde4f376f3a6da5 232 565",
    "testdata/group_totals f5a80da1710778b9 827607adb9875d4a 6d1841feb41fc2db 3b2c691e3c60153c 228 473",
    "testdata/half_repairable b52bcf39d6c7750a 37b83c218108a7f8 8255c064a776ab54 c2167afbf152f608 31 30",
    "testdata/hang 06f2a0f50aa9c15c 069d8330a9f3226a cd03408caf3cca14 a1c5ec5df483e4b0 215 342",
    "testdata/html_quotes 4a2974a0d45ebb02 5e0a2503c239d7bd 6e5fa99cf1b40545 88555a05ab237bd5 591 1184",
    "testdata/integration d056f30967e248fb 4d0af4d238cb73b0 a992e2b226267336 13ab013c9932e231 214 452",
    "testdata/letter_weights 449ad6ab67aaf5fc 3f7f8b110c8d9a47 fd3b36aef619d1d4 07aa79ecd6b54ceb 75 210",
    "testdata/log_repeats 6fca1123588a04d9 5f327a2300c9b60f f7d1a17030cfab2f ee9cd6bfa0678f5b 649 1177",
    "testdata/logged_mean ae754ef633590673 12277bc5c5a3be7f 8fbfd50eecc1e6bb 46e0f2fdb8ad9959 224 628",
    "testdata/long_test 9b6addadbe59f45d e636f2f11dfac41a d02f56f26f22fac4 26da01dd4edee30d 342 910",
    "testdata/macro_body 0fc0a12349ffa6f6 418c4de22d18e66f c3b45f6f4a56a17c ac0baa0cd75f0859 130 242",
    "testdata/macro_trait ad39dac5a309e9c3 cf2fbaafa1bd8748 e466cc25fc04ab83 b720e3bdecc0aebf 87 205",
    "testdata/median 04db3487f2ad7e1f 2212766e23758159 961b28dbbe0cd23f 0291eb30e32b866a 48 105",
    "testdata/middle 27be27588192c90f a98ce6ba1a4ebca9 062ff7174e4a8941 71b652025f940173 404 858",
    "testdata/missing_conjunct 5448f440c5e4c49a c4c81233f962a5a3 7bd2ce003f69dd44 fde3385b1c2e8ecd 25 120",
    "testdata/missing_guard 98933356c164c386 5deba7d908f20f6f dd6488d0d1ad5cce 5d453c8e9ee045b1 25 81",
    "testdata/missing_statement 907a3cf31969b49d 6d2888944f564a0c 9a9dc90ee169285d 233bbebf86a93758 368 420",
    "testdata/missing_twin ab6e55dbd89c4e45 338d65c96c124262 c3bce34b8f8e1420 b451fc2767cc334f 208 424",
    "testdata/moved_data dbca4765721510bf b48778d6a7db35fe 853a49e432face72 a886e61b4cf69301 53 88",
    "testdata/no_std b7d96bb7ccef4d56 1514ac88fb2c8104 addeceda7685a15f 6c9e557f2a349fb7 322 744",
    "testdata/no_std_2015 bc04b00994867d02 4f64aff477dd8658 433a6910ea776ae1 e3fcb62422c89dc2 334 758",
    "testdata/no_tests 739123778cfd7c99 defe3bedec464b3f 8152397867a54170 43067ffb5c2ad3e6 9 24",
    "testdata/off_by_one 2be26be5408c3b7a ac74ac0666c9d4e3 f61950e6e691973d cd2e0f6ff793afd7 96 254",
    "testdata/offset_branch 08ea75f3473f7867 76470cdcb09956cd a8eac276aff2aca2 a507606424c1e88d 56 233",
    "testdata/offset_index fd0121c7e2175ce6 7ea145370133cc32 8d7dd9d54d26f566 bd8eaee2ebf67675 43 127",
    "testdata/overflowing_digits f816875596892769 46d2ed91a5629483 6484efbab67d6d1e 4d38e72ffd33bf13 203 345",
    "testdata/passing 739123778cfd7c99 defe3bedec464b3f 8152397867a54170 43067ffb5c2ad3e6 9 24",
    "testdata/postage 6167ff0136e6a15f 1477645c1d66ebbe bed53e86476bcb10 19cf6361eb3e9329 103 134",
    "testdata/postage_rates fca035fb88751100 a5c544de914d42e1 a34611a828aaca6a 33d6e463a5a4c862 324 664",
    "testdata/range_ends 35a5132fddd38235 6f7ed00bf71a9631 b2647b3022bd5b21 309c3fffdfea10de 61 81",
    "testdata/ranking fcfda8c277c3c8e3 216eef7e2bbbdb78 9c3e5b376206d4f8 2c5d9769a1b9228e 74 149",
    "testdata/remove_html_markup 4a2974a0d45ebb02 5e0a2503c239d7bd 6e5fa99cf1b40545 88555a05ab237bd5 591 1184",
    "testdata/reversed 4796d2171005e16b 3d58ddeffa75fa26 95886ca3c6203c0b dafaee73c7dc4a7e 42 197",
    "testdata/self_dependent 45e1ff1e6f6ce5f2 aac5db25797c50d0 cae5fe8292b48829 92843f6d79e1827e 27 32",
    "testdata/separators 387d4490f495aa54 26fe27b56a12f21d 8b6d5cc78ab00cde 3a2a3759cc9ad097 384 618",
    "testdata/shapes 35af970a5a6a9941 047661745b8d1ac7 80f575824f7a1de2 91aa831bfc297f22 624 1427",
    "testdata/signs c9cbc79659ae097c c6c9c380f648527b 32cc441c212185e4 0aba46fc50a655a7 52 140",
    "testdata/starved_group b52bcf39d6c7750a 37b83c218108a7f8 8255c064a776ab54 c2167afbf152f608 31 30",
    "testdata/strict_lints 157831620a35bbec f8ab3129b58d1a44 d7c717ce240f9e2b 5c4e016472fc1391 444 732",
    "testdata/swapped_arguments 6250598489130d32 16376ce2fb27a201 fda8ade539e7932c cc4dc443db6610e0 23 87",
    "testdata/tied_lines 0a2018af652b9629 d41a642282420555 f21a409625c0592f 3e36c5875a33590e 36 112",
    "testdata/twin_guard 13356fe5eaa4a9ff 6103acc5d0ca1ce7 774f7be83b79c304 9b846eac6599c359 686 2586",
    "testdata/twin_leader 351dc3713b731ecf 1d1755af42698910 0f482cf8b699e633 c99f1ea86ebb23e0 290 647",
    "testdata/two_faults 9ba405c8b517d8b0 7294a2788873519e 85dedceb51f32a2f 58667b04a766d46b 103 334",
    "testdata/two_plausible a168d66671cb7807 511a5044e96c6908 f2cf00cc499d15f9 6328c44cadaf37c9 49 180",
    "testdata/uneven_split 0974116ddbd971a5 a6a641a1e3376040 9aa976856cf32b06 61f7d3d711126968 66 145",
    "testdata/uninstrumented eb09c4db0b6a8db8 2f4eb6112d6efe3e 1911848140040221 1e6c5cca594ba621 171 223",
    "testdata/unparsable cbf29ce484222325 bd612ea5b46087a0 51a7f596d6a2bf8c 7bb0372bc26d1171 0 14",
    "testdata/unrepairable eb3fbd460f921751 8bfef7c77c586726 45c15f7e12d21a40 22d4a5be1ea007b0 163 482",
    "testdata/unsteady_test 32781840a7ea08ee 2ab1542385aa22aa 7e0744959616b0e1 a8ba94a2055fe907 247 712",
    "testdata/unused_binding d477da253695bee8 8233bc0e2aeb356c 09d4b3b6e9fe3d77 0b17cf8c08e5bb03 554 1433",
    "testdata/unzip_pairs bc563fab9a09ffcf e4f97beb88a4ec16 15dd7117ad9b0f64 c2b5054a6c7f5ecd 84 250",
    "testdata/useless_comparison 69d1b39ae3d45eef f2f9eabcb376ec67 41d3456dcc7af795 0d4d822329cb8c60 54 81",
    "testdata/usual_form 4612fc645a23bf6f f7a6cb2ab2c51fa4 d5a87584d86cc35a 496e595ede851c8c 622 711",
    "testdata/word_pieces d4668d954608357f f16df6d692a5ed74 ba7655192bb5a25c b33e2958c62a5ba9 737 2032",
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
