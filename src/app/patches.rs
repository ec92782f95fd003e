//! The patches `cargo autofix validate` is given: diff files, directories
//! of them, or JSON lines on stdin (`-`).

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::exit::{Exit, Failure};
use crate::repair::GivenPatch;

/// Reads every input, in the order given (a directory's `.patch` and
/// `.diff` files by name); `stdin` is read for `-`.
pub fn read_patches(inputs: &[PathBuf], stdin: impl Read) -> Result<Vec<GivenPatch>, Failure> {
    let bad = |message: String| Failure::new(Exit::BadPatch, message);
    let mut stdin = Some(stdin);
    let mut patches = Vec::new();
    for input in inputs {
        if input == Path::new("-") {
            let mut text = String::new();
            stdin
                .take()
                .ok_or_else(|| bad("`-` (stdin) is given twice; give it once".to_string()))?
                .read_to_string(&mut text)
                .map_err(|e| bad(format!("cannot read the patches on stdin: {e}")))?;
            patches.extend(json_lines(&text)?);
        } else if input.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| {
                    bad(format!(
                        "cannot read the directory {}: {e}",
                        input.display()
                    ))
                })?
                .filter_map(|entry| Some(entry.ok()?.path()))
                .filter(|p| {
                    p.is_file() && p.extension().is_some_and(|e| e == "patch" || e == "diff")
                })
                .collect();
            if files.is_empty() {
                return Err(bad(format!(
                    "the directory {} holds no .patch or .diff file",
                    input.display()
                )));
            }
            files.sort();
            for file in files {
                patches.push(read_file(&file)?);
            }
        } else {
            patches.push(read_file(input)?);
        }
    }
    Ok(patches)
}

fn read_file(path: &Path) -> Result<GivenPatch, Failure> {
    let diff = std::fs::read_to_string(path).map_err(|e| {
        Failure::new(
            Exit::BadPatch,
            format!("cannot read the patch {}: {e}", path.display()),
        )
    })?;
    Ok(GivenPatch {
        name: path.display().to_string(),
        diff,
    })
}

/// One `{"name": ..., "patch": ...}` per non-empty line (`name` optional).
fn json_lines(text: &str) -> Result<Vec<GivenPatch>, Failure> {
    #[derive(serde::Deserialize)]
    struct Line {
        name: Option<String>,
        patch: String,
    }
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            let parsed: Line = serde_json::from_str(line).map_err(|e| {
                Failure::new(
                    Exit::BadPatch,
                    format!(
                        "line {} on stdin is not a JSON object with a string `patch` (and an optional `name`): {e}",
                        index + 1
                    ),
                )
            })?;
            Ok(GivenPatch {
                name: parsed.name.unwrap_or_else(|| format!("stdin:{}", index + 1)),
                diff: parsed.patch,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_come_from_files_directories_and_json_lines() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.patch"), "B").unwrap();
        std::fs::write(dir.path().join("a.diff"), "A").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a patch").unwrap();
        let stdin = "{\"name\": \"first\", \"patch\": \"X\"}\n\n{\"patch\": \"Y\"}\n";
        let patches = read_patches(
            &[dir.path().to_path_buf(), PathBuf::from("-")],
            stdin.as_bytes(),
        )
        .unwrap();
        let got: Vec<(&str, &str)> = patches
            .iter()
            .map(|p| (p.name.rsplit('/').next().unwrap(), p.diff.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("a.diff", "A"),
                ("b.patch", "B"),
                ("first", "X"),
                ("stdin:3", "Y")
            ]
        );
    }

    #[test]
    fn unreadable_input_is_a_bad_patch() {
        let missing = read_patches(&[PathBuf::from("/no/such.patch")], &b""[..]).unwrap_err();
        assert_eq!(missing.exit, Exit::BadPatch);
        let broken = read_patches(&[PathBuf::from("-")], &b"{\"name\": 1}"[..]).unwrap_err();
        assert!(
            broken
                .message
                .starts_with("line 1 on stdin is not a JSON object"),
            "{}",
            broken.message
        );
    }
}
