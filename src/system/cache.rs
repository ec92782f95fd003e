//! Results kept between runs in the target dir's `autofix/cache/`, each
//! under a key that hashes everything the result depends on: a hit is
//! what the same work would compute again, and any change of an input
//! (a source file, the lockfile, a feature, the toolchain, this tool)
//! makes another key. `cargo autofix clean` removes them with the builds.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::system::{Budget, process};

/// A key being built: a SHA-1 over labelled parts.
#[derive(Clone)]
pub struct Key {
    hash: sha1_smol::Sha1,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Key({})", self.hash.digest())
    }
}

impl Key {
    /// A key for results of `kind`, made by this build of the tool with
    /// the toolchain that builds in `dir` (its `rustc -vV`, as a
    /// `rust-toolchain` file there chooses it) and the environment's
    /// compiler flags.
    pub fn new(kind: &str, dir: &Path) -> Key {
        let mut key = Key {
            hash: sha1_smol::Sha1::new(),
        };
        key.add("kind", kind.as_bytes());
        key.add("tool", tool_identity().as_bytes());
        key.add("rustc", rustc_version(dir).as_bytes());
        for variable in [
            "RUSTFLAGS",
            "CARGO_ENCODED_RUSTFLAGS",
            "CARGO_BUILD_RUSTFLAGS",
        ] {
            let value = std::env::var(variable).unwrap_or_default();
            key.add(variable, value.as_bytes());
        }
        key
    }

    /// Adds a part: its label and its bytes, each with its length, so
    /// that no two different lists of parts hash alike.
    pub fn add(&mut self, label: &str, bytes: &[u8]) -> &mut Key {
        for part in [label.as_bytes(), bytes] {
            self.hash.update(&(part.len() as u64).to_le_bytes());
            self.hash.update(part);
        }
        self
    }

    /// Adds every file under `dir` (its path and contents), but the target
    /// dir `skip` and hidden entries (`.git`).
    pub fn add_tree(&mut self, dir: &Path, skip: &Path) -> &mut Key {
        let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_entry(|entry| {
                entry.depth() == 0
                    || !(entry.file_name().to_string_lossy().starts_with('.')
                        || entry.path() == skip
                        || entry.file_name() == "target")
            })
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_file())
            .map(|entry| entry.into_path())
            .collect();
        files.sort();
        for file in files {
            let relative = file.strip_prefix(dir).unwrap_or(&file);
            let contents = fs::read(&file).unwrap_or_default();
            self.add(&relative.to_string_lossy(), &contents);
        }
        self
    }

    /// The key as it is: a hex digest.
    pub fn digest(&self) -> String {
        self.hash.digest().to_string()
    }

    fn file_name(&self) -> String {
        format!("{}.json", self.digest())
    }
}

/// This build of the tool: its version, and its binary's size and
/// modification time (a rebuilt tool may decide differently).
fn tool_identity() -> String {
    let binary = std::env::current_exe()
        .and_then(fs::metadata)
        .map(|m| format!("{} {:?}", m.len(), m.modified().ok()))
        .unwrap_or_default();
    format!("{} {binary}", env!("CARGO_PKG_VERSION"))
}

fn rustc_version(dir: &Path) -> String {
    let mut command = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()));
    command.arg("-vV").current_dir(dir);
    // A moment's work, whose failure only changes the key: no budget ends it.
    match process::run(command, Some(Duration::from_secs(60)), Budget::unlimited()) {
        Ok(finished) if finished.success() => finished.stdout,
        _ => String::new(),
    }
}

fn dir(target_dir: &Path) -> PathBuf {
    target_dir.join("autofix").join("cache")
}

/// The result kept under `key`, if there is one.
pub fn read(target_dir: &Path, key: &Key) -> Option<String> {
    fs::read_to_string(dir(target_dir).join(key.file_name())).ok()
}

/// Keeps `text` under `key` (written whole, then renamed into place, so a
/// reader never sees half of it). A result that cannot be kept is only
/// not kept: the caller goes on.
pub fn write(target_dir: &Path, key: &Key, text: &str) {
    let dir = dir(target_dir);
    let path = dir.join(key.file_name());
    let partial = path.with_extension("partial");
    let _ = fs::create_dir_all(&dir)
        .and_then(|()| fs::write(&partial, text))
        .and_then(|()| fs::rename(&partial, &path));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_changes_with_every_part_and_a_kept_result_is_read_back() {
        let temp = tempfile::tempdir().unwrap();
        let tree = temp.path().join("crate");
        fs::create_dir_all(tree.join("src")).unwrap();
        fs::create_dir_all(tree.join("target/debug")).unwrap();
        fs::write(tree.join("src/lib.rs"), "fn a() {}").unwrap();
        fs::write(tree.join("target/debug/out"), "built").unwrap();
        let key = |tree: &Path| {
            let mut key = Key::new("test", temp.path());
            key.add("features", b"default")
                .add_tree(tree, &tree.join("target"));
            key.file_name()
        };
        let first = key(&tree);
        assert_eq!(key(&tree), first, "the same inputs, the same key");
        fs::write(tree.join("target/debug/out"), "built again").unwrap();
        assert_eq!(key(&tree), first, "the target dir is not an input");
        fs::write(tree.join("src/lib.rs"), "fn a() { }").unwrap();
        assert_ne!(key(&tree), first, "an edit changes the key");
        let mut features = Key::new("test", temp.path());
        features.add("features", b"defaul").add("t", b"");
        let mut other = Key::new("test", temp.path());
        other.add("features", b"default");
        assert_ne!(
            features.file_name(),
            other.file_name(),
            "parts are delimited"
        );

        let target = temp.path().join("target");
        assert_eq!(read(&target, &other), None);
        write(&target, &other, "{\"kept\": true}");
        assert_eq!(read(&target, &other).as_deref(), Some("{\"kept\": true}"));
        assert_eq!(read(&target, &features), None);
    }
}
