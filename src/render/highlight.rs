//! Rust syntax highlighting, one line at a time: keywords, strings and
//! characters, comments, numbers, lifetimes, macros (`name!`) and type-like
//! names (`Capitalized`). What a line ends inside of (a block comment, a
//! string, a raw string) carries to the next. A lexer of a few rules, not
//! a parser: it never fails, and the pieces of a line always put it back
//! together (else the line is shown plain).

/// What the lexer is inside of where a line ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum State {
    #[default]
    Code,
    /// Block comments nested this deep.
    Comment(usize),
    /// A string with escapes (`"…"`, `b"…"`, `c"…"`).
    Str,
    /// A raw string, closed by `"` and this many `#`.
    Raw(usize),
}

/// A piece of a line and its CSS class (`None`: plain text).
pub type Token<'a> = (Option<&'static str>, &'a str);

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "yield",
];

/// The pieces of a line that starts in `state`, and the state it ends in.
pub fn tokens(line: &str, state: State) -> (Vec<Token<'_>>, State) {
    let mut lexer = Lexer {
        line,
        pos: 0,
        plain: 0,
        tokens: Vec::new(),
    };
    let mut state = state;
    while lexer.pos < line.len() {
        let before = lexer.pos;
        state = match state {
            State::Code => lexer.code(),
            State::Comment(depth) => lexer.comment(lexer.pos, depth),
            State::Str => lexer.string(lexer.pos),
            State::Raw(hashes) => lexer.raw(lexer.pos, hashes),
        };
        if lexer.pos == before {
            // No rule moved on: the character is plain text.
            lexer.pos += lexer.char_len(before);
        }
    }
    if lexer.plain < line.len() {
        lexer.tokens.push((None, &line[lexer.plain..]));
    }
    (lexer.tokens, state)
}

/// A position in a line (always at a character boundary), where the
/// plain text not yet emitted starts, and the pieces so far.
struct Lexer<'a> {
    line: &'a str,
    pos: usize,
    plain: usize,
    tokens: Vec<Token<'a>>,
}

impl<'a> Lexer<'a> {
    fn rest(&self, from: usize) -> &'a str {
        self.line.get(from..).unwrap_or("")
    }

    fn char_at(&self, at: usize) -> Option<char> {
        self.rest(at).chars().next()
    }

    fn char_len(&self, at: usize) -> usize {
        self.char_at(at).map_or(1, char::len_utf8)
    }

    /// Emits the plain text before `pos`, then `pos..end` as `class`.
    fn emit(&mut self, class: &'static str, end: usize) {
        if self.plain < self.pos {
            self.tokens.push((None, &self.line[self.plain..self.pos]));
        }
        self.tokens.push((Some(class), &self.line[self.pos..end]));
        self.pos = end;
        self.plain = end;
    }

    /// One token of code (or one plain character), and the state after it.
    fn code(&mut self) -> State {
        let at = self.pos;
        let rest = self.rest(at);
        let Some(c) = rest.chars().next() else {
            return State::Code;
        };
        if rest.starts_with("//") {
            self.emit("com", self.line.len());
            State::Code
        } else if rest.starts_with("/*") {
            self.comment(at + 2, 1)
        } else if c == '"' {
            self.string(at + 1)
        } else if c == '\'' {
            self.quote(at);
            State::Code
        } else if c.is_ascii_digit() {
            let end = self.number_end(at);
            self.emit("num", end);
            State::Code
        } else if c.is_alphabetic() || c == '_' {
            self.word(at)
        } else {
            self.pos += c.len_utf8();
            State::Code
        }
    }

    /// A block comment from `from` (past its opening), `depth` deep.
    fn comment(&mut self, from: usize, depth: usize) -> State {
        let mut depth = depth;
        let mut at = from;
        while at < self.line.len() {
            let rest = self.rest(at);
            if rest.starts_with("/*") {
                depth += 1;
                at += 2;
            } else if rest.starts_with("*/") {
                depth -= 1;
                at += 2;
                if depth == 0 {
                    self.emit("com", at);
                    return State::Code;
                }
            } else {
                at += self.char_len(at);
            }
        }
        self.emit("com", self.line.len());
        State::Comment(depth)
    }

    /// A string from `from` (past its opening quote) to its closing
    /// quote, or to the end of the line, where it goes on.
    fn string(&mut self, from: usize) -> State {
        let mut chars = self.rest(from).char_indices();
        while let Some((offset, c)) = chars.next() {
            match c {
                '\\' if chars.next().is_none() => break,
                '"' => {
                    self.emit("str", from + offset + 1);
                    return State::Code;
                }
                _ => {}
            }
        }
        self.emit("str", self.line.len());
        State::Str
    }

    /// A raw string from `from` (past its opening quote) to `"`
    /// followed by `hashes` `#`, or to the end of the line.
    fn raw(&mut self, from: usize, hashes: usize) -> State {
        let closing = format!("\"{}", "#".repeat(hashes));
        match self.rest(from).find(&closing) {
            Some(offset) => {
                self.emit("str", from + offset + closing.len());
                State::Code
            }
            None => {
                self.emit("str", self.line.len());
                State::Raw(hashes)
            }
        }
    }

    /// At a `'`: a character literal, a lifetime (or label), or a
    /// plain quote.
    fn quote(&mut self, at: usize) {
        if let Some(end) = self.char_end(at) {
            self.emit("str", end);
        } else if let Some(c) = self.char_at(at + 1).filter(|&c| is_word_start(c)) {
            let end = self.word_end(at + 1 + c.len_utf8());
            self.emit("life", end);
        } else {
            self.pos = at + 1;
        }
    }

    /// Where the character literal opened by the `'` at `at` ends: one
    /// character, or an escape (`\n`, `\'`, `\u{1F600}`), then `'`.
    fn char_end(&self, at: usize) -> Option<usize> {
        let first = self.char_at(at + 1)?;
        if first == '\\' {
            let escaped = self.char_at(at + 2)?;
            let from = at + 2 + escaped.len_utf8();
            let offset = self.rest(from).find('\'')?;
            // `\u{10FFFF}` is the longest escape.
            return (offset <= 8).then_some(from + offset + 1);
        }
        let after = at + 1 + first.len_utf8();
        (first != '\'' && self.char_at(after) == Some('\'')).then_some(after + 1)
    }

    /// At a letter or `_`: a literal with a prefix (`b'x'`, `b"…"`,
    /// `r"…"`, `r#"…"#`, `br"…"`, `c"…"`), a raw identifier, or a word:
    /// a keyword, a macro's name with its `!`, a type-like name, or
    /// plain.
    fn word(&mut self, at: usize) -> State {
        let rest = self.rest(at);
        let raw_prefix = ["br", "cr", "r"].into_iter().find(|p| rest.starts_with(p));
        if let Some(prefix) = raw_prefix {
            let after = at + prefix.len();
            let hashes = self.rest(after).chars().take_while(|&c| c == '#').count();
            if self.char_at(after + hashes) == Some('"') {
                return self.raw(after + hashes + 1, hashes);
            }
            if prefix == "r" && hashes == 1 && self.char_at(after + 1).is_some_and(is_word_start) {
                // A raw identifier, `r#match`: plain.
                self.pos = self.word_end(after + 1);
                return State::Code;
            }
        }
        if rest.starts_with("b\"") || rest.starts_with("c\"") {
            return self.string(at + 2);
        }
        if rest.starts_with("b'")
            && let Some(end) = self.char_end(at + 1)
        {
            self.emit("str", end);
            return State::Code;
        }
        let end = self.word_end(at);
        let word = &self.line[at..end];
        let after = self.rest(end);
        if KEYWORDS.contains(&word) {
            self.emit("kw", end);
        } else if after.starts_with('!') && !after.starts_with("!=") {
            self.emit("mac", end + 1);
        } else if is_type_like(word) {
            self.emit("ty", end);
        } else {
            self.pos = end;
        }
        State::Code
    }

    /// The end of the word whose characters go on from `from`.
    fn word_end(&self, from: usize) -> usize {
        let length: usize = self
            .rest(from)
            .chars()
            .take_while(|&c| c.is_alphanumeric() || c == '_')
            .map(char::len_utf8)
            .sum();
        from + length
    }

    /// The end of the number starting at `at`: digits, letters and `_`
    /// (`0x1F`, `1_000u64`), a `.` followed by a digit (`1.5`, not
    /// `1..2` or `1.max(2)`), an exponent's sign (`1e-3`).
    fn number_end(&self, at: usize) -> usize {
        let hex = self.rest(at).starts_with("0x") || self.rest(at).starts_with("0X");
        let mut end = at;
        let mut dot = false;
        while let Some(c) = self.char_at(end) {
            let next = self.char_at(end + 1);
            let previous = self.line[..end].chars().next_back();
            if c.is_ascii_alphanumeric() || c == '_' {
                end += 1;
            } else if c == '.' && !dot && next.is_some_and(|n| n.is_ascii_digit()) {
                dot = true;
                end += 1;
            } else if (c == '+' || c == '-')
                && !hex
                && matches!(previous, Some('e' | 'E'))
                && next.is_some_and(|n| n.is_ascii_digit())
            {
                end += 1;
            } else {
                break;
            }
        }
        end
    }
}

fn is_word_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

/// A name that starts with a capital and is not all capitals (`Vec`,
/// `Option`; not the constant `TOP`).
fn is_type_like(word: &str) -> bool {
    word.starts_with(|c: char| c.is_uppercase()) && word.chars().any(|c| c.is_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classed pieces of a line (plain text left out).
    fn classed(line: &str) -> Vec<(&'static str, &str)> {
        tokens(line, State::Code)
            .0
            .into_iter()
            .filter_map(|(class, text)| class.map(|c| (c, text)))
            .collect()
    }

    #[test]
    fn highlight_classes_the_pieces_of_a_line() {
        assert_eq!(
            classed(r#"let s: &'static str = format!("{}", 'x', b'\n', 1.5e-3); // hi"#),
            [
                ("kw", "let"),
                ("life", "'static"),
                ("mac", "format!"),
                ("str", "\"{}\""),
                ("str", "'x'"),
                ("str", "b'\\n'"),
                ("num", "1.5e-3"),
                ("com", "// hi"),
            ]
        );
        assert_eq!(
            classed("for i in 0..n { v.push(Vec::new()); if x != TOP { r#match(1.max(2)) } }"),
            [
                ("kw", "for"),
                ("kw", "in"),
                ("num", "0"),
                ("ty", "Vec"),
                ("kw", "if"),
                ("num", "1"),
                ("num", "2"),
            ]
        );
        assert_eq!(
            classed(r##"x = r#"a "b" c"#; y = '\''; z = '\u{1F600}';"##),
            [
                ("str", r##"r#"a "b" c"#"##),
                ("str", r"'\''"),
                ("str", r"'\u{1F600}'"),
            ]
        );
    }

    #[test]
    fn highlight_carries_strings_and_comments_across_lines() {
        let lines = [
            "let s = \"one",
            "two fn \\",
            "three\"; let r = r##\"raw",
            "still \"# raw\"##; /* a /* nested",
            "*/ still */ fn",
        ];
        let mut state = State::Code;
        let mut states = Vec::new();
        let mut pieces = Vec::new();
        for line in lines {
            let (tokens, next) = tokens(line, state);
            pieces.push(tokens);
            states.push(next);
            state = next;
        }
        assert_eq!(
            states,
            [
                State::Str,
                State::Str,
                State::Raw(2),
                State::Comment(2),
                State::Code
            ]
        );
        assert_eq!(pieces[1], [(Some("str"), "two fn \\")]);
        assert_eq!(pieces[4].last(), Some(&(Some("kw"), "fn")));
    }

    #[test]
    fn highlight_never_fails_and_keeps_every_character() {
        let odd = [
            "'",
            "\"",
            "\\",
            "'\\",
            "b'",
            "b'\\",
            "r#",
            "r###\"",
            "br\"",
            "c\"x",
            "'é'",
            "\"é\\",
            "x.0.1",
            "/*/",
            "*/",
            "0x",
            "1e",
            "1e+",
            "'a",
            "'ab'",
            "<&>\"'",
            "é'é",
            "_!",
            "a!=b",
            "#[cfg(test)]",
        ];
        let own = include_str!("highlight.rs");
        for start in [State::Code, State::Str, State::Raw(1), State::Comment(1)] {
            let mut state = start;
            for line in odd.iter().copied().chain(own.lines()) {
                let (pieces, next) = tokens(line, state);
                let whole: String = pieces.iter().map(|(_, text)| *text).collect();
                assert_eq!(whole, line, "{start:?}");
                state = next;
            }
        }
    }
}
