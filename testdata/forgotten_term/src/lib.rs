//! Closing code fences in nested blocks: a fence inside a list item is
//! indented by the item's own indentation first.

/// Whether `line`, in a block whose content starts `indent` columns in,
/// closes a code fence: three backticks or more, after at most three
/// spaces of indentation beyond the block's.
pub fn closes_fence(line: &str, indent: usize) -> bool {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    if spaces >= 4 {
        return false;
    }
    let fence = &line[spaces..];
    fence.len() >= 3 && fence.bytes().all(|b| b == b'`')
}

/// The lines of `text` up to the one that closes its fence (`None`: the
/// fence is never closed).
pub fn fenced_lines(text: &str, indent: usize) -> Option<Vec<&str>> {
    let mut lines = Vec::new();
    for line in text.lines() {
        if closes_fence(line, indent) {
            return Some(lines);
        }
        lines.push(line);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_top_level_fence_closes_with_up_to_three_spaces() {
        assert!(closes_fence("```", 0));
        assert!(closes_fence("   ````", 0));
        assert!(!closes_fence("    ```", 0));
        assert!(!closes_fence("``", 0));
        assert!(!closes_fence("```rust", 0));
    }

    #[test]
    fn code_ends_at_the_closing_fence() {
        assert_eq!(fenced_lines("a\n  b\n```\nc", 0), Some(vec!["a", "  b"]));
        assert_eq!(fenced_lines("a\n    ```", 0), None);
    }

    #[test]
    fn a_fence_in_a_list_item_counts_the_items_indentation() {
        assert!(closes_fence("  ```", 2));
        assert!(closes_fence("     ```", 2));
        assert!(!closes_fence("      ```", 2));
        assert!(closes_fence("```", 2));
    }

    #[test]
    fn code_in_a_list_item_ends_at_its_fence() {
        assert_eq!(
            fenced_lines("  x\n      y\n     ```\nz", 2),
            Some(vec!["  x", "      y"])
        );
    }
}
