//! Unified diffs: the patch as one that `git apply` accepts from the
//! workspace root (`a/` and `b/` paths relative to it), and the lines a
//! given diff changes (`--in-diff`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;

use similar::TextDiff;

/// One changed file: its path relative to the workspace root, its original
/// and its patched text.
#[derive(Debug, Clone, Copy)]
pub struct FileChange<'a> {
    pub path: &'a Path,
    pub original: &'a str,
    pub patched: &'a str,
}

/// A unified diff of every change, with three lines of context.
pub fn unified_diff(changes: &[FileChange]) -> String {
    let mut out = String::new();
    for change in changes {
        let path = change.path.to_string_lossy().replace('\\', "/");
        let _ = writeln!(out, "diff --git a/{path} b/{path}");
        let diff = TextDiff::from_lines(change.original, change.patched);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{path}"), &format!("b/{path}"))
                .to_string(),
        );
    }
    out
}

/// The lines a unified diff changes, per file (its `+++ b/` path): the
/// new-side numbers of added lines, and for a deletion, the line now where
/// the deleted lines were.
pub fn changed_lines(diff: &str) -> BTreeMap<String, BTreeSet<u32>> {
    let mut changed: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    let mut file: Option<String> = None;
    let mut line = 0u32;
    for text in diff.lines() {
        if let Some(path) = text.strip_prefix("+++ ") {
            let path = path.split('\t').next().unwrap_or(path);
            file =
                (path != "/dev/null").then(|| path.strip_prefix("b/").unwrap_or(path).to_string());
        } else if text.starts_with("--- ") {
            continue;
        } else if let Some(header) = text.strip_prefix("@@ ") {
            line = header
                .split(' ')
                .find_map(|part| part.strip_prefix('+'))
                .and_then(|range| range.split(',').next()?.parse().ok())
                .unwrap_or(0);
        } else if let Some(file) = &file {
            let lines = changed.entry(file.clone()).or_default();
            match text.chars().next() {
                Some('+') => {
                    lines.insert(line);
                    line += 1;
                }
                Some('-') => {
                    lines.insert(line.max(1));
                }
                Some(' ') | None => line += 1,
                _ => {}
            }
        }
    }
    changed.retain(|_, lines| !lines.is_empty());
    changed
}

/// The file and first new-side line of the first hunk of a unified diff.
pub fn first_change(diff: &str) -> Option<(String, u32)> {
    let file = diff
        .lines()
        .find_map(|l| l.strip_prefix("+++ b/"))?
        .to_string();
    let hunk = diff.lines().find(|l| l.starts_with("@@"))?;
    // `@@ -3,7 +3,7 @@`: the new side starts at line 3.
    let start: u32 = hunk
        .split(' ')
        .find_map(|part| part.strip_prefix('+'))?
        .split(',')
        .next()?
        .parse()
        .ok()?;
    // The hunk starts with context: the first line that changes.
    let offset = diff
        .lines()
        .skip_while(|l| !l.starts_with("@@"))
        .skip(1)
        .take_while(|l| !l.starts_with('-') && !l.starts_with('+'))
        .count() as u32;
    Some((file, start + offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::source::{Edit, splice};

    #[test]
    fn a_diff_touches_only_the_edited_lines() {
        let original: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let patched = splice(&original, &[Edit::replace(56..57, "X")]).unwrap();
        let diff = unified_diff(&[FileChange {
            path: Path::new("src/lib.rs"),
            original: &original,
            patched: &patched,
        }]);
        assert_eq!(
            diff,
            "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -6,7 +6,7 @@\n line 6\n line 7\n line 8\n-line 9\n+Xine 9\n line 10\n line 11\n line 12\n"
        );
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // runs git, outside the product
    fn git_apply_accepts_the_diff() {
        let dir = tempfile::tempdir().unwrap();
        let original = "fn a() {}\nfn b() {}\n// no newline at the end";
        let patched = "fn a() {}\nfn c() {}\n// no newline at the end";
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), original).unwrap();
        let diff = unified_diff(&[FileChange {
            path: Path::new("src/lib.rs"),
            original,
            patched,
        }]);
        std::fs::write(dir.path().join("fix.patch"), &diff).unwrap();
        let status = std::process::Command::new("git")
            .args(["apply", "fix.patch"])
            .current_dir(dir.path())
            .status()
            .unwrap();
        assert!(status.success(), "{diff}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
            patched
        );
    }

    #[test]
    fn a_diff_gives_the_lines_it_changes() {
        let diff = "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -3,7 +3,7 @@ fn f() {\n a\n b\n c\n-d\n+D\n e\n@@ -20,3 +20,2 @@\n x\n-y\n z\n--- a/src/gone.rs\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n";
        let changed = changed_lines(diff);
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(changed["src/lib.rs"], BTreeSet::from([6, 21]));
    }
}
