use crate::graph::Graph;

/// The last node of `graph`, if it has any.
pub fn last_node<G: Graph>(graph: &G) -> Option<G::Node> {
    let nodes = graph.nodes();
    if nodes.is_empty() {
        return None;
    }
    nodes.first().copied()
}

/// How many nodes `graph` has.
pub fn count<G: Graph>(graph: &G) -> usize {
    graph.nodes().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Line;

    #[test]
    fn an_empty_line_has_no_last_node() {
        assert_eq!(last_node(&Line(0)), None);
    }

    #[test]
    fn a_line_of_one_ends_where_it_starts() {
        assert_eq!(last_node(&Line(1)), Some(0));
    }

    #[test]
    fn a_line_of_three_ends_at_two() {
        assert_eq!(last_node(&Line(3)), Some(2));
    }

    #[test]
    fn a_line_counts_its_nodes() {
        assert_eq!(count(&Line(4)), 4);
    }
}
