// The exported macro expanded in another crate: its probes must still
// reach the library's coverage runtime.
macro_body_fixture::ring!(Ring64, u64);

#[test]
fn a_ring_made_here_advances() {
    let mut ring = Ring64::new(4);
    ring.advance(6);
    assert_eq!(ring.value(), 2);
}

#[test]
fn a_ring_made_here_wraps_back() {
    let mut ring = Ring64::new(4);
    ring.back();
    assert_eq!(ring.value(), 3);
}
