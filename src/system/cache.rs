//! Results kept between runs in the target dir's `autofix/cache/`, each
//! under a key that hashes everything the result depends on: a hit is
//! what the same work would compute again, and any change of an input
//! (a source file, the lockfile, a feature, the toolchain, this tool)
//! makes another key. `cargo autofix clean` removes them with the builds.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::exit::Result;
use crate::system::{Budget, process, scratch};

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

    /// A key for results of `kind` derived from others kept under
    /// `digest` (whose key named the tool and the toolchain).
    pub fn derived(kind: &str, digest: &str) -> Key {
        let mut key = Key {
            hash: sha1_smol::Sha1::new(),
        };
        key.add("kind", kind.as_bytes())
            .add("from", digest.as_bytes());
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

    /// Adds every file under `dir` (its path and contents) that a scratch
    /// copy holds: through links, but not the target dir `skip` nor a
    /// version-control store or another target dir (see
    /// [`scratch::is_store`]). Hidden files count (`.cargo/config.toml`
    /// changes the build).
    pub fn add_tree(&mut self, dir: &Path, skip: &Path) -> &mut Key {
        let skip = skip.canonicalize().unwrap_or_else(|_| skip.to_path_buf());
        let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
            .follow_links(true)
            .into_iter()
            .filter_entry(|entry| {
                !entry.file_type().is_dir()
                    || entry.depth() == 0
                    || !(scratch::is_store(entry.path())
                        || entry.path() == skip
                        || entry.path().canonicalize().is_ok_and(|p| p == skip))
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

/// The most the kept results take: past it, those read or written longest
/// ago are removed.
const LIMIT: u64 = 256 << 20;

/// The result kept under `key`, if there is one (marked as used now).
pub fn read(target_dir: &Path, key: &Key) -> Option<String> {
    let path = dir(target_dir).join(key.file_name());
    let text = fs::read_to_string(&path).ok()?;
    let _ = fs::File::options()
        .append(true)
        .open(&path)
        .and_then(|file| file.set_modified(std::time::SystemTime::now()));
    Some(text)
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
    prune(&dir, LIMIT);
}

/// Removes the results used longest ago until those left take at most
/// `limit` bytes.
fn prune(dir: &Path, limit: u64) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut kept: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            Some((metadata.modified().ok()?, metadata.len(), entry.path()))
        })
        .collect();
    let mut total: u64 = kept.iter().map(|(_, len, _)| len).sum();
    kept.sort();
    for (_, len, path) in kept {
        if total <= limit {
            break;
        }
        if fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

/// The result of `compute` kept under `key`: read back if a run kept it
/// (`true`: it was), else computed and kept. Without a key (an input that
/// cannot be named), computed only. A kept result that no longer reads as
/// a `T` (another tool's) is computed again.
pub fn kept_or<T: Serialize + DeserializeOwned>(
    target_dir: &Path,
    key: Option<&Key>,
    compute: impl FnOnce() -> Result<T>,
) -> Result<(T, bool)> {
    let kept = key
        .and_then(|key| read(target_dir, key))
        .and_then(|text| serde_json::from_str(&text).ok());
    if let Some(kept) = kept {
        return Ok((kept, true));
    }
    let computed = compute()?;
    if let Some(key) = key
        && let Ok(text) = serde_json::to_string(&computed)
    {
        write(target_dir, key, &text);
    }
    Ok((computed, false))
}

/// A map kept as a list of pairs (`#[serde(with = "cache::pairs")]`): JSON
/// keys are strings, and a map's keys here are often structs.
pub mod pairs {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &BTreeMap<K, V>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(map.iter())
    }

    pub fn deserialize<'de, K, V, D>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        Ok(Vec::<(K, V)>::deserialize(deserializer)?
            .into_iter()
            .collect())
    }
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
        fs::create_dir_all(tree.join(".git")).unwrap();
        fs::write(tree.join(".git/HEAD"), "ref: main").unwrap();
        assert_eq!(
            key(&tree),
            first,
            "the version-control store is not an input"
        );
        fs::write(tree.join("src/lib.rs"), "fn a() { }").unwrap();
        assert_ne!(key(&tree), first, "an edit changes the key");
        let edited = key(&tree);
        fs::create_dir_all(tree.join(".cargo")).unwrap();
        fs::write(tree.join(".cargo/config.toml"), "[build]").unwrap();
        assert_ne!(
            key(&tree),
            edited,
            "cargo's config in the package is an input"
        );
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

    #[test]
    fn kept_or_computes_once_per_key_and_never_without_one() {
        let temp = tempfile::tempdir().unwrap();
        let calls = std::cell::Cell::new(0);
        let compute = || {
            calls.set(calls.get() + 1);
            Ok(vec![calls.get()])
        };
        let key = Key::derived("test", "digest");
        assert_eq!(
            kept_or(temp.path(), Some(&key), compute).unwrap(),
            (vec![1], false)
        );
        assert_eq!(
            kept_or(temp.path(), Some(&key), compute).unwrap(),
            (vec![1], true)
        );
        assert_eq!(
            kept_or(temp.path(), None, compute).unwrap(),
            (vec![2], false)
        );
        assert_eq!(
            kept_or(temp.path(), None, compute).unwrap(),
            (vec![3], false)
        );
        // A kept result of another shape is computed again.
        let other = kept_or(temp.path(), Some(&key), || Ok("text".to_string())).unwrap();
        assert_eq!(other, ("text".to_string(), false));
        let failed: Result<(u8, bool)> =
            kept_or(temp.path(), Some(&Key::derived("test", "other")), || {
                crate::exit::bail!("halted")
            });
        assert!(failed.is_err());
        assert_eq!(
            read(temp.path(), &Key::derived("test", "other")),
            None,
            "nothing kept"
        );
    }

    #[test]
    fn the_results_used_longest_ago_go_first() {
        let temp = tempfile::tempdir().unwrap();
        let keys: Vec<Key> = (0..3)
            .map(|n| Key::derived("test", &n.to_string()))
            .collect();
        for key in &keys {
            write(temp.path(), key, &"x".repeat(100));
            std::thread::sleep(Duration::from_millis(20));
        }
        // The first read again: now the second is the oldest.
        assert!(read(temp.path(), &keys[0]).is_some());
        prune(&dir(temp.path()), 250);
        let left: Vec<bool> = keys
            .iter()
            .map(|k| read(temp.path(), k).is_some())
            .collect();
        assert_eq!(left, [true, false, true]);
    }
}
