//! The crate's own source files: found by following `mod` declarations from
//! each library and binary root, as rustc does, leaving out test modules.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use syn::punctuated::Punctuated;
use syn::{Attribute, Meta, Token};

use crate::cargo::Target;
use crate::code::source::{self, FileId, Location};
use crate::system::scratch::{is_store, normalize};

/// One source file of the crate, parsed.
#[derive(Debug)]
pub struct SourceFile {
    /// Relative to the workspace root.
    pub path: PathBuf,
    pub text: String,
    pub syntax: syn::File,
}

/// The crate's source files (in path order: a [`FileId`] is an index into
/// `files`), its roots, and the files that could not be read.
#[derive(Debug, Default)]
pub struct CrateSources {
    pub files: Vec<SourceFile>,
    /// Crate roots (lib.rs, main.rs, src/bin/*.rs).
    pub roots: Vec<FileId>,
    /// Files that exist but that syn cannot parse: path and reason.
    pub unparsable: Vec<(PathBuf, String)>,
    /// Items of the parsed files that syn cannot parse, left out of their
    /// file's syntax (see `source::parse_file`): path, line and reason.
    pub left_out: Vec<(PathBuf, usize, String)>,
    /// Module files a `#[path]` puts outside the workspace, or names by an
    /// absolute path (the user's file, not the copy's): the declaring file,
    /// and where the module is in the user's file system.
    pub outside: Vec<(PathBuf, PathBuf)>,
}

impl CrateSources {
    /// A crate of one file, its root: `src/lib.rs` holding `text` (for tests).
    #[cfg(test)]
    pub fn of_one_file(text: &str) -> CrateSources {
        CrateSources {
            files: vec![SourceFile {
                path: PathBuf::from("src/lib.rs"),
                text: text.to_string(),
                syntax: source::parse_file(text).expect("the test's source parses"),
            }],
            roots: vec![FileId::new(0)],
            ..Default::default()
        }
    }

    /// The files whose text under `root` (the user's workspace) is no
    /// longer the text read: edited, or gone, since.
    pub fn changed_under(&self, root: &Path) -> Vec<&Path> {
        self.files
            .iter()
            .filter(|file| {
                std::fs::read_to_string(root.join(&file.path))
                    .ok()
                    .as_deref()
                    != Some(file.text.as_str())
            })
            .map(|file| file.path.as_path())
            .collect()
    }

    /// Each file's git blob id of the text read (what `git hash-object
    /// FILE` prints for it), by path.
    pub fn blob_ids(&self) -> BTreeMap<String, String> {
        self.files
            .iter()
            .map(|file| {
                let mut hash = sha1_smol::Sha1::new();
                hash.update(format!("blob {}\0", file.text.len()).as_bytes());
                hash.update(file.text.as_bytes());
                (file.path.display().to_string(), hash.digest().to_string())
            })
            .collect()
    }

    pub fn get(&self, file: FileId) -> &SourceFile {
        &self.files[file.index()]
    }

    /// Every file with its id.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(index, file)| (FileId::new(index), file))
    }

    /// The file at `path` (relative to the workspace root).
    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.path == path)
            .map(FileId::new)
    }

    /// The locations of `changed` lines (per diff path, see
    /// [`CrateSources::find_diff_path`]) in the crate's files.
    pub fn locations_in(&self, changed: &BTreeMap<String, BTreeSet<u32>>) -> BTreeSet<Location> {
        let mut locations = BTreeSet::new();
        for (diff_path, lines) in changed {
            if let Some(file) = self.find_diff_path(diff_path) {
                locations.extend(lines.iter().map(|&line| Location::new(file, line)));
            }
        }
        locations
    }

    /// The file a diff names: its path relative to the workspace root, or
    /// to a directory above it (as `git diff` gives it from a repository
    /// root).
    pub fn find_diff_path(&self, diff_path: &str) -> Option<FileId> {
        self.iter()
            .find(|(_, source)| {
                let path = source.path.to_string_lossy().replace('\\', "/");
                diff_path == path || diff_path.ends_with(&format!("/{path}"))
            })
            .map(|(file, _)| file)
    }

    /// `src/lib.rs:12`.
    pub fn display(&self, location: Location) -> String {
        format!(
            "{}:{}",
            self.get(location.file).path.display(),
            location.line
        )
    }

    /// The trimmed text of a location's line.
    pub fn line_text(&self, location: Location) -> &str {
        source::line_text(&self.get(location.file).text, location.line)
    }

    /// The files' paths and texts, which (unlike syntax trees) threads can share.
    pub fn originals(&self) -> Originals {
        Originals {
            files: self
                .files
                .iter()
                .map(|f| (f.path.clone(), f.text.clone()))
                .collect(),
        }
    }
}

/// The crate's files as text: path (relative to the workspace root) and
/// original text, by [`FileId`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Originals {
    files: Vec<(PathBuf, String)>,
}

impl Originals {
    /// Paths (relative to the workspace root) and texts, a file per id.
    pub fn new(files: Vec<(PathBuf, String)>) -> Originals {
        Originals { files }
    }

    /// These files, then `more` (with the ids after theirs).
    pub fn followed_by(&self, more: Vec<(PathBuf, String)>) -> Originals {
        let mut files = self.files.clone();
        files.extend(more);
        Originals { files }
    }

    pub fn path(&self, file: FileId) -> &Path {
        &self.files[file.index()].0
    }

    pub fn text(&self, file: FileId) -> &str {
        &self.files[file.index()].1
    }

    /// Every file with its id, path and text.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &Path, &str)> {
        self.files
            .iter()
            .enumerate()
            .map(|(index, (path, text))| (FileId::new(index), path.as_path(), text.as_str()))
    }

    /// The file a compiler message names (`src/lib.rs`, with `/` on every platform).
    pub fn find_by_name(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|(path, _)| path.to_string_lossy().replace('\\', "/") == name)
            .map(FileId::new)
    }

    /// `src/lib.rs:12`.
    pub fn display(&self, location: Location) -> String {
        format!("{}:{}", self.path(location.file).display(), location.line)
    }
}

/// Reads every source file of the `targets` (the workspace's code targets)
/// from the copy of the workspace at `workspace_root`; `original_root` is
/// where the (absolute) target paths point.
pub fn read_crate_sources(
    targets: &[&Target],
    original_root: &Path,
    workspace_root: &Path,
) -> CrateSources {
    let mut sources = CrateSources::default();
    let mut index_of: BTreeMap<PathBuf, usize> = BTreeMap::new();
    let mut roots: Vec<usize> = Vec::new();
    for target in targets {
        let Ok(src_path) = target.src_path.strip_prefix(original_root) else {
            continue;
        };
        let Some(root) = load(
            &workspace_root.join(src_path),
            workspace_root,
            &mut sources,
            &mut index_of,
        ) else {
            continue;
        };
        if roots.contains(&root) {
            continue;
        }
        roots.push(root);
        let mut visited = BTreeSet::new();
        let mut pending = vec![root];
        while let Some(file) = pending.pop() {
            if !visited.insert(file) {
                continue;
            }
            let absolute = workspace_root.join(&sources.files[file].path);
            let dir = module_dir(&absolute, file == root);
            let mut declared = Vec::new();
            collect_mod_files(
                &sources.files[file].syntax.items,
                &absolute,
                &dir,
                false,
                &mut declared,
            );
            for child in declared {
                // Where the module is in the user's workspace: an absolute
                // `#[path]` names the user's file, not the copy's.
                let in_users = match child.strip_prefix(workspace_root) {
                    Ok(relative) => normalize(&original_root.join(relative)),
                    Err(_) => normalize(&child),
                };
                let child = normalize(&child);
                if !child.starts_with(workspace_root) || !in_users.starts_with(original_root) {
                    let declaring = sources.files[file].path.clone();
                    sources.outside.push((declaring, in_users));
                    continue;
                }
                pending.extend(load(&child, workspace_root, &mut sources, &mut index_of));
            }
        }
    }
    in_path_order(sources, &roots)
}

/// The Rust files under `package_dir` (in the workspace at
/// `workspace_root`) that are not among `sources`: the package's tests,
/// examples, benches, build script and test modules, which may name the
/// crate's items. Paths are relative to the workspace root, as in
/// `Originals`; version-control stores and target dirs are skipped.
pub fn files_outside(
    package_dir: &Path,
    workspace_root: &Path,
    sources: &CrateSources,
) -> Vec<(PathBuf, String)> {
    let inside: BTreeSet<&Path> = sources.files.iter().map(|f| f.path.as_path()).collect();
    let walker = walkdir::WalkDir::new(package_dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| entry.depth() == 0 || !is_store(entry.path()));
    let mut files = Vec::new();
    for entry in walker.flatten() {
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let Ok(relative) = path.strip_prefix(workspace_root) else {
            continue;
        };
        if inside.contains(relative) {
            continue;
        }
        if let Ok(text) = fs::read_to_string(path) {
            files.push((relative.to_path_buf(), text));
        }
    }
    files
}

/// The same sources with the files sorted by path (roots renumbered), so
/// that file ids, and locations, order as paths do.
fn in_path_order(sources: CrateSources, roots: &[usize]) -> CrateSources {
    let CrateSources {
        files,
        unparsable,
        left_out,
        outside,
        ..
    } = sources;
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by(|&a, &b| files[a].path.cmp(&files[b].path));
    let new_index = |old: usize| order.iter().position(|&o| o == old).expect("a permutation");
    let roots = roots
        .iter()
        .map(|&old| FileId::new(new_index(old)))
        .collect();
    let mut slots: Vec<Option<SourceFile>> = files.into_iter().map(Some).collect();
    let files = order
        .iter()
        .map(|&old| slots[old].take().expect("each file once"))
        .collect();
    CrateSources {
        files,
        roots,
        unparsable,
        left_out,
        outside,
    }
}

/// Loads and parses a file once; `None` if it is missing, unparsable, or
/// outside the workspace (then it is not ours to rank or change).
fn load(
    path: &Path,
    root: &Path,
    sources: &mut CrateSources,
    index_of: &mut BTreeMap<PathBuf, usize>,
) -> Option<usize> {
    let path = path.strip_prefix(root).ok()?.to_path_buf();
    if let Some(&index) = index_of.get(&path) {
        return Some(index);
    }
    if sources.unparsable.iter().any(|(p, _)| *p == path) {
        return None;
    }
    let text = fs::read_to_string(root.join(&path)).ok()?;
    match source::parse_file_leaving_out(&text) {
        Ok((syntax, left_out)) => {
            sources.left_out.extend(
                left_out
                    .iter()
                    .map(|e| (path.clone(), e.span().start().line, e.to_string())),
            );
            sources.files.push(SourceFile {
                path: path.clone(),
                text,
                syntax,
            });
            let index = sources.files.len() - 1;
            index_of.insert(path, index);
            Some(index)
        }
        Err(error) => {
            let line = error.span().start().line;
            sources
                .unparsable
                .push((path, format!("line {line}: {error}")));
            None
        }
    }
}

/// The directory where `mod x;` in `file` looks for `x.rs`.
pub fn module_dir(file: &Path, is_crate_root: bool) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
    let is_mod_rs = is_crate_root || file.file_name().is_some_and(|n| n == "mod.rs");
    if is_mod_rs {
        dir
    } else {
        dir.join(file.file_stem().unwrap_or_default())
    }
}

/// Files declared by `mod x;` items (recursing into inline modules).
fn collect_mod_files(
    items: &[syn::Item],
    file: &Path,
    dir: &Path,
    nested: bool,
    out: &mut Vec<PathBuf>,
) {
    for item in items {
        let syn::Item::Mod(module) = item else {
            continue;
        };
        if is_test_code(&module.attrs) {
            continue;
        }
        let name = module.ident.to_string();
        let explicit = path_attribute(&module.attrs);
        match &module.content {
            Some((_, items)) => {
                let inner = match &explicit {
                    Some(path) => dir.join(path),
                    None => dir.join(name.trim_start_matches("r#")),
                };
                collect_mod_files(items, file, &inner, true, out);
            }
            None => {
                let named = explicit.is_some();
                let candidates = match explicit {
                    // A top-level #[path] is relative to the declaring file's directory.
                    Some(path) if !nested => {
                        vec![file.parent().unwrap_or(Path::new("")).join(path)]
                    }
                    Some(path) => vec![dir.join(path)],
                    None => {
                        let name = name.trim_start_matches("r#");
                        vec![
                            dir.join(format!("{name}.rs")),
                            dir.join(name).join("mod.rs"),
                        ]
                    }
                };
                // A `#[path]` module is taken even where no file is: one
                // outside the workspace is not in the copy read here.
                if let Some(found) = candidates.into_iter().find(|c| named || c.is_file()) {
                    out.push(found);
                }
            }
        }
    }
}

/// The path a `#[path = "..."]` attribute gives a module, if it has one.
pub fn path_attribute(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// The lines of a file's test items (`#[cfg(test)]` modules, `#[test]`
/// functions...), as inclusive ranges.
pub fn test_line_ranges(file: &syn::File) -> Vec<std::ops::RangeInclusive<u32>> {
    struct Ranges(Vec<std::ops::RangeInclusive<u32>>);
    impl<'ast> syn::visit::Visit<'ast> for Ranges {
        fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
            if is_test_code(&module.attrs) {
                self.0.push(lines_of(module));
            } else {
                syn::visit::visit_item_mod(self, module);
            }
        }
        fn visit_item_fn(&mut self, function: &'ast syn::ItemFn) {
            if is_test_code(&function.attrs) {
                self.0.push(lines_of(function));
            }
        }
    }
    fn lines_of(node: &impl syn::spanned::Spanned) -> std::ops::RangeInclusive<u32> {
        let span = node.span();
        span.start().line as u32..=span.end().line as u32
    }
    let mut ranges = Ranges(Vec::new());
    syn::visit::Visit::visit_file(&mut ranges, file);
    ranges.0
}

/// The functions of a file with code (free functions, methods, trait
/// methods with a body) by name, with the lines of their bodies.
pub fn function_lines(file: &syn::File) -> Vec<(String, std::ops::RangeInclusive<u32>)> {
    struct Functions(Vec<(String, std::ops::RangeInclusive<u32>)>);
    impl Functions {
        fn add(&mut self, name: &syn::Ident, block: &syn::Block) {
            let span = syn::spanned::Spanned::span(block);
            let lines = span.start().line as u32..=span.end().line as u32;
            self.0.push((name.to_string(), lines));
        }
    }
    impl<'ast> syn::visit::Visit<'ast> for Functions {
        fn visit_item_fn(&mut self, function: &'ast syn::ItemFn) {
            self.add(&function.sig.ident, &function.block);
            syn::visit::visit_item_fn(self, function);
        }
        fn visit_impl_item_fn(&mut self, function: &'ast syn::ImplItemFn) {
            self.add(&function.sig.ident, &function.block);
            syn::visit::visit_impl_item_fn(self, function);
        }
        fn visit_trait_item_fn(&mut self, function: &'ast syn::TraitItemFn) {
            if let Some(block) = &function.default {
                self.add(&function.sig.ident, block);
            }
            syn::visit::visit_trait_item_fn(self, function);
        }
    }
    let mut functions = Functions(Vec::new());
    syn::visit::Visit::visit_file(&mut functions, file);
    functions.0
}

/// Attributes that make an item test code: `#[test]`-like attributes
/// (`#[test]`, `#[tokio::test]`, `#[rstest]`, ...) and `cfg`s that need `test`.
pub fn is_test_code(attrs: &[Attribute]) -> bool {
    const TEST_ATTRIBUTES: &[&str] = &[
        "test",
        "bench",
        "rstest",
        "test_case",
        "quickcheck",
        "proptest",
    ];
    attrs.iter().any(|attr| {
        let path = attr.path();
        if path.is_ident("cfg") {
            return attr
                .parse_args::<Meta>()
                .is_ok_and(|meta| cfg_requires_test(&meta));
        }
        path.segments
            .last()
            .is_some_and(|last| TEST_ATTRIBUTES.contains(&last.ident.to_string().as_str()))
    })
}

/// Whether a `cfg` predicate can only hold when compiling tests.
fn cfg_requires_test(meta: &Meta) -> bool {
    match meta {
        Meta::Path(path) => path.is_ident("test"),
        Meta::List(list) => {
            let Ok(nested) = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            else {
                return false;
            };
            if list.path.is_ident("all") {
                nested.iter().any(cfg_requires_test)
            } else if list.path.is_ident("any") {
                !nested.is_empty() && nested.iter().all(cfg_requires_test)
            } else {
                false
            }
        }
        Meta::NameValue(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(source: &str) -> Vec<Attribute> {
        let item: syn::ItemFn = syn::parse_str(&format!("{source} fn f() {{}}")).unwrap();
        item.attrs
    }

    #[test]
    fn recognises_test_code() {
        assert!(is_test_code(&attrs("#[test]")));
        assert!(is_test_code(&attrs("#[tokio::test]")));
        assert!(is_test_code(&attrs("#[cfg(test)]")));
        assert!(is_test_code(&attrs("#[cfg(all(test, feature = \"x\"))]")));
        assert!(is_test_code(&attrs("#[cfg(any(test, all(test, unix)))]")));
        assert!(!is_test_code(&attrs("#[cfg(not(test))]")));
        assert!(!is_test_code(&attrs("#[cfg(any(test, unix))]")));
        assert!(!is_test_code(&attrs("#[inline]")));
    }

    #[test]
    fn test_items_have_line_ranges() {
        let file = source::parse_file("fn a() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n#[test]\nfn top() {}\n").unwrap();
        assert_eq!(test_line_ranges(&file), [2..=6, 7..=8]);
    }

    #[test]
    fn module_dirs_follow_rustc() {
        assert_eq!(
            module_dir(Path::new("/c/src/lib.rs"), true),
            Path::new("/c/src")
        );
        assert_eq!(
            module_dir(Path::new("/c/src/a/mod.rs"), false),
            Path::new("/c/src/a")
        );
        assert_eq!(
            module_dir(Path::new("/c/src/a.rs"), false),
            Path::new("/c/src/a")
        );
    }

    #[test]
    fn finds_declared_modules_and_skips_test_modules() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        fs::create_dir_all(src.join("a")).unwrap();
        fs::create_dir_all(src.join("outer")).unwrap();
        fs::write(src.join("lib.rs"), "mod a;\nmod outer { mod inner; }\n#[path = \"elsewhere.rs\"] mod renamed;\n#[cfg(test)] mod tests;\n").unwrap();
        fs::write(src.join("a.rs"), "mod b;\n").unwrap();
        fs::write(src.join("a/b.rs"), "fn b() {}\n").unwrap();
        fs::write(src.join("outer/inner.rs"), "fn i() {}\n").unwrap();
        fs::write(src.join("elsewhere.rs"), "fn e() {}\n").unwrap();
        fs::write(src.join("tests.rs"), "fn t() {}\n").unwrap();
        let syntax = source::parse_file(&fs::read_to_string(src.join("lib.rs")).unwrap()).unwrap();
        let mut found = Vec::new();
        collect_mod_files(&syntax.items, &src.join("lib.rs"), &src, false, &mut found);
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(&src).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            names,
            [
                PathBuf::from("a.rs"),
                PathBuf::from("outer/inner.rs"),
                PathBuf::from("elsewhere.rs")
            ]
        );
    }

    #[test]
    fn files_outside_are_the_other_targets_rust_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in [
            ("src/lib.rs", "pub const INSIDE: u8 = 1;\n"),
            ("src/tests.rs", "use super::TESTED;\n"),
            ("tests/it.rs", "use c::MAX;\n"),
            ("examples/e.rs", "fn main() { c::SHOWN; }\n"),
            (
                "target/CACHEDIR.TAG",
                "Signature: 8a477f597d28d172789f06886806bc55\n",
            ),
            ("target/debug/build/x/out.rs", "BUILT\n"),
            (".git/hook.rs", "HIDDEN\n"),
            ("tests/data.txt", "TEXT\n"),
        ] {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let mut sources = CrateSources::of_one_file("pub const INSIDE: u8 = 1;\n");
        sources.files[0].path = PathBuf::from("src/lib.rs");
        let files = files_outside(root, root, &sources);
        let paths: Vec<&str> = files.iter().map(|(p, _)| p.to_str().unwrap()).collect();
        assert_eq!(paths, ["examples/e.rs", "src/tests.rs", "tests/it.rs"]);
        assert_eq!(files[2].1, "use c::MAX;\n");
    }
}
