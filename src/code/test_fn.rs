//! Where a test function is written: found from its target's root file and
//! its libtest name (`tests::middle_2_1_3` is function `middle_2_1_3` of
//! module `tests`), following `mod` declarations as rustc does, test
//! modules included.

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use syn::spanned::Spanned;

use crate::code::crate_sources::{module_dir, path_attribute};
use crate::code::source::parse_file;

/// A test function and the file that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFunction {
    /// The file, relative to the workspace root.
    pub path: PathBuf,
    /// The file's text.
    pub text: String,
    /// The function item, attributes included (byte range of `text`).
    pub item: Range<usize>,
    /// Its body, braces included.
    pub body: Range<usize>,
    /// Its return type as written (`-> Result<(), String>`), or empty.
    pub output: String,
}

impl TestFunction {
    /// The body as written.
    pub fn body_text(&self) -> &str {
        &self.text[self.body.clone()]
    }

    /// The 1-based line of the body's `{`.
    pub fn body_line(&self) -> u32 {
        line_at(&self.text, self.body.start)
    }

    /// Whether the body lends one of its variables mutably (`&mut buf`,
    /// `&mut v[..]`, in a macro's arguments too): a call may write there,
    /// and a later statement may check what it wrote. `&mut
    /// Stats::default()` lends a temporary, which nothing reads after.
    pub fn lends_a_variable(&self) -> bool {
        self.body_text()
            .parse::<proc_macro2::TokenStream>()
            .is_ok_and(lends_a_variable)
    }
}

/// Whether `tokens` hold `& mut name` where `name` is not followed by a
/// path, a call or a macro's `!` (a variable, not a value made there).
fn lends_a_variable(tokens: proc_macro2::TokenStream) -> bool {
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    tokens.iter().enumerate().any(|(i, token)| match token {
        TokenTree::Group(group) => lends_a_variable(group.stream()),
        TokenTree::Punct(p) if p.as_char() == '&' => match &tokens[i + 1..] {
            [TokenTree::Ident(m), TokenTree::Ident(name), after @ ..] if m == "mut" => {
                let made_here = match after.first() {
                    Some(TokenTree::Punct(p)) => p.as_char() == ':' || p.as_char() == '!',
                    Some(TokenTree::Group(g)) => g.delimiter() != proc_macro2::Delimiter::Bracket,
                    _ => false,
                };
                name != "self" && !made_here
            }
            _ => false,
        },
        _ => false,
    })
}

/// The 1-based line of byte `offset` of `text`.
pub fn line_at(text: &str, offset: usize) -> u32 {
    text[..offset].matches('\n').count() as u32 + 1
}

/// The function of test `name` (its libtest name) in the target whose root
/// file is `root` (absolute, under `workspace_root`).
pub fn find_test_function(
    root: &Path,
    workspace_root: &Path,
    name: &str,
) -> Result<TestFunction, String> {
    let segments: Vec<&str> = name.split("::").collect();
    let (text, syntax) = read(root)?;
    let found = find_in(
        root,
        &text,
        &syntax.items,
        &module_dir(root, true),
        false,
        &segments,
    )?;
    let (file, text, function) = found;
    let path = file
        .strip_prefix(workspace_root)
        .map_err(|_| format!("{} is outside the workspace", file.display()))?
        .to_path_buf();
    let sig = &function.sig;
    if !sig.inputs.is_empty() || sig.asyncness.is_some() || !sig.generics.params.is_empty() {
        return Err(format!(
            "`{name}` takes parameters or is async: only plain `#[test]` functions can be reduced"
        ));
    }
    let output = match &sig.output {
        syn::ReturnType::Default => String::new(),
        output => text[output.span().byte_range()].to_string(),
    };
    Ok(TestFunction {
        path,
        item: function.span().byte_range(),
        body: function.block.span().byte_range(),
        output,
        text,
    })
}

fn read(file: &Path) -> Result<(String, syn::File), String> {
    let text = fs::read_to_string(file)
        .map_err(|error| format!("cannot read {}: {error}", file.display()))?;
    let syntax = parse_file(&text)
        .map_err(|error| format!("syn cannot parse {}: {error}", file.display()))?;
    Ok((text, syntax))
}

/// Finds `segments` (modules, then the function) among `items` of `file`;
/// `dir` is where its `mod x;` declarations look for files, `nested`
/// whether `items` are an inline module's.
fn find_in(
    file: &Path,
    text: &str,
    items: &[syn::Item],
    dir: &Path,
    nested: bool,
    segments: &[&str],
) -> Result<(PathBuf, String, syn::ItemFn), String> {
    let not_found = || {
        format!(
            "cannot find the source of `{}` in {} (a test written by a macro cannot be reduced)",
            segments.join("::"),
            file.display()
        )
    };
    let [first, rest @ ..] = segments else {
        return Err(not_found());
    };
    if rest.is_empty() {
        return items
            .iter()
            .find_map(|item| match item {
                syn::Item::Fn(function) if function.sig.ident == first => {
                    Some((file.to_path_buf(), text.to_string(), function.clone()))
                }
                _ => None,
            })
            .ok_or_else(not_found);
    }
    let module = items
        .iter()
        .find_map(|item| match item {
            syn::Item::Mod(module) if module.ident == first => Some(module),
            _ => None,
        })
        .ok_or_else(not_found)?;
    let name = first.trim_start_matches("r#");
    let explicit = path_attribute(&module.attrs);
    match &module.content {
        Some((_, inner)) => {
            let inner_dir = dir.join(explicit.as_deref().unwrap_or(name));
            find_in(file, text, inner, &inner_dir, true, rest)
        }
        None => {
            let candidates = match explicit {
                Some(path) if !nested => vec![file.parent().unwrap_or(Path::new("")).join(path)],
                Some(path) => vec![dir.join(path)],
                None => vec![
                    dir.join(format!("{name}.rs")),
                    dir.join(name).join("mod.rs"),
                ],
            };
            let found = candidates
                .into_iter()
                .find(|c| c.is_file())
                .ok_or_else(not_found)?;
            let (text, syntax) = read(&found)?;
            let dir = module_dir(&found, false);
            find_in(&found, &text, &syntax.items, &dir, false, rest)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_lends_its_variables_not_values_made_there() {
        let lends = |body: &str| lends_a_variable(body.parse().unwrap());
        assert!(lends(
            "{ let mut buf = [0; 4]; assert_eq!(decode(b\"ab\", &mut buf), Ok(())); }"
        ));
        assert!(lends("{ fill(&mut v[..2]); fill(&mut state.items); }"));
        assert!(lends("{ f(&mut out as &mut [u8]); }"));
        assert!(!lends(
            "{ assert_eq!(mean(&[1, 2], &mut Stats::default()), 1); }"
        ));
        assert!(!lends(
            "{ f(&mut vec![1]); f(&mut Stats { calls: 0 }); f(&mut make()); }"
        ));
        assert!(!lends("{ let v = &x; f(v); }"));
    }

    #[test]
    fn finds_tests_in_inline_and_file_modules() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        fs::create_dir_all(src.join("outer")).unwrap();
        fs::write(
            src.join("lib.rs"),
            "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn inline() {\n        assert!(true);\n    }\n}\nmod outer;\n",
        )
        .unwrap();
        fs::write(src.join("outer.rs"), "#[cfg(test)]\nmod deep;\n").unwrap();
        fs::write(
            src.join("outer/deep.rs"),
            "#[test]\nfn filed() -> Result<(), String> { Ok(()) }\n",
        )
        .unwrap();
        let root = src.join("lib.rs");

        let inline = find_test_function(&root, dir.path(), "tests::inline").unwrap();
        assert_eq!(inline.path, Path::new("src/lib.rs"));
        assert_eq!(
            &inline.text[inline.item.clone()],
            "#[test]\n    fn inline() {\n        assert!(true);\n    }"
        );
        assert_eq!(inline.body_text(), "{\n        assert!(true);\n    }");
        assert_eq!(inline.body_line(), 5);
        assert_eq!(inline.output, "");

        let filed = find_test_function(&root, dir.path(), "outer::deep::filed").unwrap();
        assert_eq!(filed.path, Path::new("src/outer/deep.rs"));
        assert_eq!(filed.output, "-> Result<(), String>");
        assert_eq!(filed.body_text(), "{ Ok(()) }");

        let missing = find_test_function(&root, dir.path(), "tests::nothing").unwrap_err();
        assert!(
            missing.contains("cannot find the source of `nothing`"),
            "{missing}"
        );
    }
}
