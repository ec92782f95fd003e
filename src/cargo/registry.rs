//! Where the sources of the package's dependencies from a registry sit in
//! cargo's home: read, never built (the token model of the patch choice
//! learns how Rust is written around here from them).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::cargo::Workspace;

/// The source directories of the package's direct dependencies that come
/// from a registry (`$CARGO_HOME/registry/src/<index>/<name>-<version>`),
/// the version `Cargo.lock` holds where there is one, else the newest one
/// unpacked. Dependencies not unpacked (or from git, or a path) are left
/// out: nothing here fetches.
pub fn dependency_sources(workspace: &Workspace) -> Vec<PathBuf> {
    let Some(home) = cargo_home() else {
        return Vec::new();
    };
    let locked = locked_versions(&workspace.root.join("Cargo.lock"));
    let indexes: Vec<PathBuf> = fs::read_dir(home.join("registry").join("src"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    let mut unpacked: BTreeMap<String, Vec<(Version, PathBuf)>> = BTreeMap::new();
    for dir in indexes
        .iter()
        .flat_map(|index| fs::read_dir(index).into_iter().flatten().flatten())
    {
        let name = dir.file_name().to_string_lossy().into_owned();
        let Some((crate_name, version)) = split_versioned(&name) else {
            continue;
        };
        let code_name = crate_name.replace('-', "_");
        if workspace.outside.contains(&code_name) {
            unpacked
                .entry(code_name)
                .or_default()
                .push((version, dir.path()));
        }
    }
    unpacked
        .into_iter()
        .filter_map(|(name, mut versions)| {
            versions.sort();
            let wanted = locked.get(&name);
            let chosen = versions
                .iter()
                .find(|(v, _)| Some(&v.text) == wanted)
                .or(versions.last());
            chosen.map(|(_, dir)| dir.clone())
        })
        .collect()
}

fn cargo_home() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
}

/// A version as unpacked: compared by its numbers, then as text.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Version {
    numbers: Vec<u64>,
    text: String,
}

/// `name-1.2.3` as the crate's name and its version (the version starts
/// after the last `-` followed by a digit).
fn split_versioned(dir_name: &str) -> Option<(&str, Version)> {
    let at = dir_name
        .match_indices('-')
        .map(|(i, _)| i)
        .find(|&i| dir_name[i + 1..].starts_with(|c: char| c.is_ascii_digit()))?;
    let text = &dir_name[at + 1..];
    let numbers = text
        .split(['.', '-', '+'])
        .map_while(|part| part.parse().ok())
        .collect();
    Some((
        &dir_name[..at],
        Version {
            numbers,
            text: text.to_string(),
        },
    ))
}

/// The version of each registry package `lockfile` holds, by the name code
/// writes it with (`-` written `_`); nothing if it cannot be read.
fn locked_versions(lockfile: &Path) -> BTreeMap<String, String> {
    #[derive(serde::Deserialize)]
    struct Lock {
        #[serde(default)]
        package: Vec<Locked>,
    }
    #[derive(serde::Deserialize)]
    struct Locked {
        name: String,
        version: String,
        source: Option<String>,
    }
    let Some(lock) = fs::read_to_string(lockfile)
        .ok()
        .and_then(|text| toml::from_str::<Lock>(&text).ok())
    else {
        return BTreeMap::new();
    };
    lock.package
        .into_iter()
        .filter(|p| {
            p.source
                .as_deref()
                .is_some_and(|s| s.starts_with("registry+"))
        })
        .map(|p| (p.name.replace('-', "_"), p.version))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_name_splits_at_its_version() {
        let (name, version) = split_versioned("unicode-width-0.1.14").unwrap();
        assert_eq!(
            (name, version.numbers.as_slice()),
            ("unicode-width", &[0, 1, 14][..])
        );
        let (name, version) = split_versioned("windows-sys-0.52.0-rc.1").unwrap();
        assert_eq!(
            (name, version.text.as_str()),
            ("windows-sys", "0.52.0-rc.1")
        );
        assert!(split_versioned("no-version").is_none());
        let older = split_versioned("a-0.9.0").unwrap().1;
        let newer = split_versioned("a-0.10.0").unwrap().1;
        assert!(older < newer);
    }

    #[test]
    fn the_lockfile_names_registry_packages_as_code_does() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("Cargo.lock");
        fs::write(
            &lock,
            "version = 3\n[[package]]\nname = \"memchr\"\nversion = \"2.7.1\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n[[package]]\nname = \"my-crate\"\nversion = \"0.1.0\"\n\n[[package]]\nname = \"unicode-width\"\nversion = \"0.1.14\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
        )
        .unwrap();
        let versions = locked_versions(&lock);
        assert_eq!(versions.get("memchr").map(String::as_str), Some("2.7.1"));
        assert_eq!(
            versions.get("unicode_width").map(String::as_str),
            Some("0.1.14")
        );
        assert!(!versions.contains_key("my_crate"));
        assert!(locked_versions(&dir.path().join("missing.lock")).is_empty());
    }
}
