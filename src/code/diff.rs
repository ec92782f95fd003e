//! Unified diffs: the patch as one that `git apply` accepts from the
//! workspace root (`a/` and `b/` paths relative to it), the lines a given
//! diff changes (`--in-diff`), and a given diff read back as byte-range
//! edits of the original files (`validate`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;

use similar::TextDiff;

use crate::code::source::Edit;

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

/// One file's part of a unified diff: its path as the diff gives it (the
/// `+++` side, without `b/`) and its hunks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePatch {
    pub path: String,
    pub hunks: Vec<Hunk>,
}

/// One hunk: the old side's first line (1-based) and its lines in order,
/// each with its line ending (none for a last line without one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub old_start: u32,
    pub lines: Vec<(Side, String)>,
}

/// Which side of a diff a hunk line belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Both,
    Old,
    New,
}

impl Hunk {
    /// The old side's text, line by line.
    fn old_lines(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .filter(|(side, _)| *side != Side::New)
            .map(|(_, text)| text.as_str())
    }
}

/// Reads a unified diff (`git diff`, `diff -u`): the files it changes, in
/// order. Refuses what cannot become edits of existing files: a new,
/// deleted, renamed or binary file, a hunk that ends early, no hunk at all.
pub fn parse_diff(diff: &str) -> Result<Vec<FilePatch>, String> {
    let mut files: Vec<FilePatch> = Vec::new();
    let mut old_path: Option<String> = None;
    let mut lines = diff.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let text = line.trim_end_matches(['\n', '\r']);
        if text.starts_with("Binary files ") || text == "GIT binary patch" {
            return Err(format!("it changes a binary file ({text})"));
        }
        if let Some(path) = text.strip_prefix("--- ") {
            old_path = Some(diff_path(path));
        } else if let Some(path) = text.strip_prefix("+++ ") {
            let new_path = diff_path(path);
            let old = old_path.take().unwrap_or_default();
            if old == "/dev/null" {
                return Err(format!(
                    "it creates {new_path}; only changes to existing files can be evaluated"
                ));
            }
            if new_path == "/dev/null" {
                return Err(format!(
                    "it deletes {old}; only changes to existing files can be evaluated"
                ));
            }
            if old != new_path {
                return Err(format!(
                    "it renames {old} to {new_path}; only changes in place can be evaluated"
                ));
            }
            files.push(FilePatch {
                path: new_path,
                hunks: Vec::new(),
            });
        } else if let Some(header) = text.strip_prefix("@@ ") {
            let file = files
                .last_mut()
                .ok_or("a hunk comes before any `---`/`+++` file header")?;
            let (old_start, old_count, new_count) =
                hunk_header(header).ok_or_else(|| format!("unreadable hunk header `{text}`"))?;
            let (mut old_left, mut new_left) = (old_count, new_count);
            let mut hunk = Hunk {
                old_start,
                lines: Vec::new(),
            };
            while old_left + new_left > 0 {
                let Some(line) = lines.next() else {
                    return Err(format!("the hunk `{text}` in {} ends early", file.path));
                };
                let (side, body) = match line.as_bytes().first() {
                    Some(b' ') => (Side::Both, &line[1..]),
                    Some(b'-') => (Side::Old, &line[1..]),
                    Some(b'+') => (Side::New, &line[1..]),
                    // An empty context line whose space an editor removed.
                    Some(b'\n' | b'\r') => (Side::Both, line),
                    Some(b'\\') => {
                        // `\ No newline at end of file`: the line before has no ending.
                        if let Some((_, last)) = hunk.lines.last_mut() {
                            strip_ending(last);
                        }
                        continue;
                    }
                    _ => return Err(format!("the hunk `{text}` in {} ends early", file.path)),
                };
                if side != Side::New {
                    old_left = old_left.checked_sub(1).ok_or_else(|| {
                        format!(
                            "the hunk `{text}` in {} has more old lines than it says",
                            file.path
                        )
                    })?;
                }
                if side != Side::Old {
                    new_left = new_left.checked_sub(1).ok_or_else(|| {
                        format!(
                            "the hunk `{text}` in {} has more new lines than it says",
                            file.path
                        )
                    })?;
                }
                hunk.lines.push((side, body.to_string()));
            }
            if lines.peek().is_some_and(|l| l.starts_with('\\')) {
                lines.next();
                if let Some((_, last)) = hunk.lines.last_mut() {
                    strip_ending(last);
                }
            }
            file.hunks.push(hunk);
        }
    }
    if files.iter().all(|f| f.hunks.is_empty()) {
        return Err("it holds no hunk (is it a unified diff?)".to_string());
    }
    Ok(files)
}

/// A `---`/`+++` path without its `a/` or `b/` prefix (either side may
/// have either: `git diff -R` swaps them) and a trailing timestamp.
fn diff_path(text: &str) -> String {
    let path = text.split('\t').next().unwrap_or(text).trim_end();
    ["a/", "b/"]
        .iter()
        .find_map(|prefix| path.strip_prefix(prefix))
        .unwrap_or(path)
        .to_string()
}

/// `-3,7 +3,8 @@ ...`: the old start, the old and the new line counts.
fn hunk_header(header: &str) -> Option<(u32, usize, usize)> {
    let mut parts = header.split(' ');
    let range = |part: &str| -> Option<(u32, usize)> {
        let mut numbers = part.split(',');
        let start = numbers.next()?.parse().ok()?;
        let count = numbers.next().map_or(Some(1), |c| c.parse().ok())?;
        Some((start, count))
    };
    let (old_start, old_count) = range(parts.next()?.strip_prefix('-')?)?;
    let (_, new_count) = range(parts.next()?.strip_prefix('+')?)?;
    Some((old_start, old_count, new_count))
}

fn strip_ending(line: &mut String) {
    if line.ends_with('\n') {
        line.pop();
        if line.ends_with('\r') {
            line.pop();
        }
    }
}

/// The edits that apply `hunks` to `original`, one per run of changed
/// lines (context lines are not edited). A hunk must match the original
/// exactly, at its line or, if the file moved on, at the nearest line
/// where its old side stands (as `git apply` does); else the hunk does
/// not apply, and the error says which.
pub fn hunk_edits(original: &str, hunks: &[Hunk]) -> Result<Vec<Edit>, String> {
    let lines: Vec<&str> = original.split_inclusive('\n').collect();
    let mut starts = Vec::with_capacity(lines.len() + 1);
    let mut offset = 0;
    for line in &lines {
        starts.push(offset);
        offset += line.len();
    }
    starts.push(offset);
    let mut edits: Vec<Edit> = Vec::new();
    let mut taken_until = 0;
    for hunk in hunks {
        let old: Vec<&str> = hunk.old_lines().collect();
        let matches_at =
            |at: usize| at + old.len() <= lines.len() && lines[at..at + old.len()] == old[..];
        // `-0,0`: an insertion before the first line.
        let wanted = (hunk.old_start as usize).saturating_sub(1).min(lines.len());
        let at = (0..=lines.len())
            .flat_map(|distance| [wanted.checked_sub(distance), Some(wanted + distance)])
            .flatten()
            .filter(|&at| at >= taken_until && at <= lines.len())
            .find(|&at| matches_at(at))
            .ok_or_else(|| {
                format!(
                    "the hunk at line {} does not match the file",
                    hunk.old_start
                )
            })?;
        taken_until = at + old.len();
        let mut line = at;
        let mut run: Option<(usize, String)> = None;
        for (side, text) in hunk
            .lines
            .iter()
            .chain([(Side::Both, String::new())].iter())
        {
            match side {
                Side::Both => {
                    if let Some((first, new)) = run.take() {
                        edits.push(Edit::replace(starts[first]..starts[line], new));
                    }
                    line += 1;
                }
                Side::Old => {
                    run.get_or_insert_with(|| (line, String::new()));
                    line += 1;
                }
                Side::New => run
                    .get_or_insert_with(|| (line, String::new()))
                    .1
                    .push_str(text),
            }
        }
    }
    Ok(edits)
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

    /// `original` patched by reading back the diff from it to `patched`.
    fn round_trip(original: &str, patched: &str) -> String {
        let diff = unified_diff(&[FileChange {
            path: Path::new("src/lib.rs"),
            original,
            patched,
        }]);
        let files = parse_diff(&diff).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].path, "src/lib.rs");
        splice(original, &hunk_edits(original, &files[0].hunks).unwrap()).unwrap()
    }

    #[test]
    fn a_diff_read_back_gives_the_patched_text() {
        let original: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let patched = original
            .replace("line 4\n", "line four\nline 4.5\n")
            .replace("line 20\n", "")
            .replace("line 29\n", "line 29\r\n");
        assert_eq!(round_trip(&original, &patched), patched);
        // Without a newline at the end, on either side.
        assert_eq!(round_trip("a\nb", "a\nc"), "a\nc");
        assert_eq!(round_trip("a\nb", "a\nb\n"), "a\nb\n");
        assert_eq!(round_trip("a\nb\n", "a\nb"), "a\nb");
    }

    #[test]
    fn only_the_changed_lines_become_edits() {
        let diff = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -2,4 +2,4 @@\n b\n-c\n+C\n d\n e\n";
        let files = parse_diff(diff).unwrap();
        let edits = hunk_edits("a\nb\nc\nd\ne\n", &files[0].hunks).unwrap();
        assert_eq!(edits, [Edit::replace(4..6, "C\n")]);
    }

    #[test]
    fn a_hunk_applies_where_its_lines_moved_to_and_nowhere_else() {
        let diff = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,2 +1,2 @@\n x\n-y\n+Y\n";
        let hunks = &parse_diff(diff).unwrap()[0].hunks;
        let moved = "new\nlines\nx\ny\n";
        assert_eq!(
            splice(moved, &hunk_edits(moved, hunks).unwrap()).unwrap(),
            "new\nlines\nx\nY\n"
        );
        let error = hunk_edits("x\nz\n", hunks).unwrap_err();
        assert_eq!(error, "the hunk at line 1 does not match the file");
    }

    #[test]
    fn what_cannot_be_edits_is_refused() {
        let created = "--- /dev/null\n+++ b/src/new.rs\n@@ -0,0 +1 @@\n+fn f() {}\n";
        assert!(
            parse_diff(created)
                .unwrap_err()
                .contains("creates src/new.rs")
        );
        let short = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,3 +1,3 @@\n a\n-b\n";
        assert!(parse_diff(short).unwrap_err().contains("ends early"));
        assert!(parse_diff("just text\n").unwrap_err().contains("no hunk"));
    }
}
