//! The layout of source text: the indentation of a line, and a block's
//! lines moved to another indentation (a block's statements taken out of
//! it, by the reducer and by the mutation operators alike).

/// The blanks that start the line holding byte `offset` of `text`.
pub fn indentation(text: &str, offset: usize) -> &str {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// `code` (a block's inside) with its lines moved to `indent`: the
/// indentation of its first line of code is replaced by `indent` on every
/// line that starts with it.
pub fn outdented(code: &str, indent: &str) -> String {
    let Some(first) = code.lines().find(|line| !line.trim().is_empty()) else {
        return code.to_string();
    };
    let own = &first[..first.len() - first.trim_start_matches([' ', '\t']).len()];
    if !own.starts_with(indent) || own == indent || !code.contains('\n') {
        return code.to_string();
    }
    code.split_inclusive('\n')
        .map(|line| match line.strip_prefix(own) {
            Some(rest) => format!("{indent}{rest}"),
            None => line.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocks_lines_move_to_an_indentation() {
        let text = "fn f() {\n    if c {\n        a();\n        b();\n    }\n}\n";
        assert_eq!(indentation(text, text.find("a()").unwrap()), "        ");
        let inside = &text[text.find("\n        a").unwrap()..text.find("\n    }").unwrap()];
        assert_eq!(outdented(inside, "    "), "\n    a();\n    b();");
        // One line, or one already there, stays as it is.
        assert_eq!(outdented("a();", "    "), "a();");
        assert_eq!(
            outdented("\n    a();\n    b();", "    "),
            "\n    a();\n    b();"
        );
    }
}
