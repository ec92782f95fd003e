pub trait Graph {
    trait_items!([] type Node: Copy + PartialEq; fn nodes(&self) -> Vec<Self::Node>;);
}

/// The nodes 0, 1, ..., n - 1 in a line.
pub struct Line(pub usize);

impl Graph for Line {
    type Node = usize;

    fn nodes(&self) -> Vec<usize> {
        (0..self.0).collect()
    }
}
