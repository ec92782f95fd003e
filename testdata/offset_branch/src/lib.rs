/// How many pages `items` fill at `per_page` a page: a last page that is
/// only partly full counts too.
pub fn pages(items: usize, per_page: usize) -> usize {
    let full = items / per_page;
    let count = if items % per_page == 0 {
        full
    } else {
        full
    };
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_items_no_pages() {
        assert_eq!(pages(0, 10), 0);
    }

    #[test]
    fn exactly_full_pages() {
        assert_eq!(pages(20, 10), 2);
        assert_eq!(pages(3, 1), 3);
    }

    #[test]
    fn a_partly_full_last_page() {
        assert_eq!(pages(21, 10), 3);
    }

    #[test]
    fn fewer_items_than_a_page() {
        assert_eq!(pages(4, 10), 1);
    }
}
