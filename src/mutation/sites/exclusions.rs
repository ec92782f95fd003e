//! Code never to mutate (`--exclude`).

use crate::code::CrateSources;

/// Code never to mutate (`--exclude`): files by path relative to the
/// workspace root (a directory ends in `/`), and functions by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exclusions {
    pub patterns: Vec<String>,
}

impl Exclusions {
    /// Whether code of `function` in `file` may not be mutated.
    pub fn excludes(&self, file: &std::path::Path, function: &str) -> bool {
        self.patterns.iter().any(|pattern| {
            let is_path = pattern.contains('/') || pattern.ends_with(".rs");
            if is_path {
                covers(pattern, file)
            } else {
                function == pattern
            }
        })
    }
}

impl Exclusions {
    /// The patterns that name no file and no function of the crate.
    pub fn unmatched<'a>(&'a self, sources: &CrateSources) -> Vec<&'a str> {
        self.patterns
            .iter()
            .filter(|pattern| {
                !sources.iter().any(|(_, file)| {
                    let defines = |name: &str| {
                        file.text
                            .match_indices(&format!("fn {name}"))
                            .any(|(at, m)| {
                                let next = file.text[at + m.len()..].chars().next();
                                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
                            })
                    };
                    covers(pattern, &file.path) || defines(pattern)
                })
            })
            .map(String::as_str)
            .collect()
    }
}

/// Whether a path pattern (`dir/`, `path/file.rs`) covers `file`.
fn covers(pattern: &str, file: &std::path::Path) -> bool {
    let file = file.to_string_lossy().replace('\\', "/");
    if pattern.ends_with('/') {
        file.starts_with(pattern)
    } else {
        (pattern.contains('/') || pattern.ends_with(".rs")) && file == pattern
    }
}

#[cfg(test)]
mod tests {
    use super::Exclusions;

    #[test]
    fn exclusions_match_files_directories_and_functions() {
        let exclusions = Exclusions {
            patterns: vec!["src/gen/".into(), "src/lib.rs".into(), "helper".into()],
        };
        let excludes =
            |file: &str, function| exclusions.excludes(std::path::Path::new(file), function);
        assert!(excludes("src/gen/a.rs", "f"));
        assert!(excludes("src/lib.rs", "f"));
        assert!(excludes("src/main.rs", "helper"));
        assert!(!excludes("src/main.rs", "main"));
    }
}
