//! The patch as a unified diff that `git apply` accepts from the workspace
//! root (`a/` and `b/` paths relative to it).

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
}
