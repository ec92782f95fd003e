//! Blocks of a small document, and how many paragraphs they make.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    Paragraph,
    Heading(u8),
    Quote,
    Rule,
    Code,
    /// A soft line break: the paragraph goes on.
    Break,
}

impl Block {
    /// Whether the block ends the paragraph before it.
    pub fn interrupts(&self) -> bool {
        matches!(*self, Block::Heading(..) | Block::Quote | Block::Code)
    }
}

/// How many paragraphs `blocks` make: a run of paragraph blocks is one,
/// until a block interrupts it.
pub fn paragraphs(blocks: &[Block]) -> usize {
    let mut count = 0;
    let mut open = false;
    for block in blocks {
        match block {
            Block::Paragraph => {
                if !open {
                    count += 1;
                    open = true;
                }
            }
            other if other.interrupts() => open = false,
            _ => {}
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::Block::*;
    use super::*;

    #[test]
    fn a_heading_interrupts() {
        assert_eq!(paragraphs(&[Paragraph, Heading(1), Paragraph]), 2);
    }

    #[test]
    fn a_quote_and_code_interrupt() {
        assert_eq!(paragraphs(&[Paragraph, Quote, Paragraph, Code, Paragraph]), 3);
    }

    #[test]
    fn a_break_does_not() {
        assert_eq!(paragraphs(&[Paragraph, Break, Paragraph]), 1);
    }

    #[test]
    fn a_rule_interrupts() {
        assert_eq!(paragraphs(&[Paragraph, Rule, Paragraph]), 2);
    }

    #[test]
    fn nothing_is_no_paragraph() {
        assert_eq!(paragraphs(&[Code, Break]), 0);
        assert!(!Paragraph.interrupts());
    }
}
