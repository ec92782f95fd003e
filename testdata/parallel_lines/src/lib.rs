//! Cells of a grid: the extent of a span between two corners, both of them
//! included, and whether a cell lies in it.

/// A cell's column and row.
pub type Cell = (u32, u32);

/// How many columns and rows the span from `from` to `to` covers, both
/// corners included (`to` not before `from` on either axis).
pub fn extent(from: Cell, to: Cell) -> (u32, u32) {
    let columns = to.0 - from.0 + 2;
    let rows = to.1 - from.1 + 2;
    (columns, rows)
}

/// Whether `cell` lies in the span from `from` to `to`.
pub fn contains(from: Cell, to: Cell, cell: Cell) -> bool {
    (from.0..=to.0).contains(&cell.0) && (from.1..=to.1).contains(&cell.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_covers_both_of_its_corners() {
        assert_eq!(extent((0, 0), (2, 3)), (3, 4));
        assert_eq!(extent((5, 5), (5, 5)), (1, 1));
    }

    #[test]
    fn a_span_holds_its_corners_and_what_lies_between() {
        assert!(contains((1, 1), (3, 3), (1, 3)));
        assert!(contains((1, 1), (3, 3), (2, 2)));
        assert!(!contains((1, 1), (3, 3), (4, 2)));
    }
}
