/// A handle to a slot of an arena.
pub struct Handle {
    pub id: u32,
    pub generation: u32,
    pub pinned: bool,
    pub root: bool,
}

/// Whether two handles name the same slot: one id and one generation, both
/// pinned or both at the root.
pub fn same_slot(a: &Handle, b: &Handle) -> bool {
    a.id == b.id && a.generation == b.generation && (a.pinned && b.pinned) || a.root && b.root
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(id: u32, generation: u32, pinned: bool, root: bool) -> Handle {
        Handle {
            id,
            generation,
            pinned,
            root,
        }
    }

    #[test]
    fn pinned_handles_match() {
        assert!(same_slot(&handle(1, 1, true, false), &handle(1, 1, true, false)));
    }

    #[test]
    fn root_handles_match() {
        assert!(same_slot(&handle(2, 3, false, true), &handle(2, 3, false, true)));
    }

    #[test]
    fn loose_handles_differ() {
        assert!(!same_slot(&handle(1, 1, false, false), &handle(1, 1, false, false)));
    }

    #[test]
    fn pinned_handles_of_other_slots_differ() {
        assert!(!same_slot(&handle(1, 1, true, false), &handle(2, 1, true, false)));
    }

    #[test]
    fn root_handles_of_other_slots_differ() {
        let (a, b) = (handle(1, 1, false, true), handle(2, 1, false, true));
        assert!(!same_slot(&a, &b));
    }

    #[test]
    fn root_handles_of_other_generations_differ() {
        let (old, new) = (handle(1, 1, false, true), handle(1, 2, false, true));
        assert!(!same_slot(&old, &new));
    }
}
