/// Removes HTML tags from `s`, keeping quoted text.
pub fn remove_html_markup(s: &str) -> String {
    let mut tag = false;
    let mut quote = false;
    let mut out = String::new();

    for c in s.chars() {
        if c == '<' && !quote {
            tag = true;
        } else if c == '>' && !quote {
            tag = false;
        } else if c == '"' || c == '\'' && tag {
            quote = !quote;
        } else if !tag {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::remove_html_markup;

    #[test]
    fn plain_text() {
        assert_eq!(remove_html_markup("abc"), "abc");
    }

    #[test]
    fn bold_tag() {
        assert_eq!(remove_html_markup("<b>abc</b>"), "abc");
    }

    #[test]
    fn quoted_attribute() {
        // The test the repair seed adds to rule out fixes that break quotes in tags.
        assert_eq!(remove_html_markup("<foo quote='>abc'>me</foo>"), "me");
    }

    #[test]
    fn double_quoted_attribute() {
        assert_eq!(remove_html_markup("<a href=\">\">x</a>"), "x");
    }

    #[test]
    fn double_quotes() {
        assert_eq!(remove_html_markup("\"abc\""), "\"abc\"");
    }
}
