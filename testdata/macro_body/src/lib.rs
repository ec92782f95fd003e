//! Ring counters for several integer types, written by one macro.

/// A counter from 0 to `modulus - 1` that wraps around both ways.
#[macro_export]
macro_rules! ring {
    ($name:ident, $int:ty) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name {
            value: $int,
            modulus: $int,
        }

        impl $name {
            pub fn new(modulus: $int) -> Self {
                Self { value: 0, modulus }
            }

            pub fn value(&self) -> $int {
                self.value
            }

            /// Steps forward by `n`, wrapping at the modulus.
            pub fn advance(&mut self, n: $int) {
                self.value = (self.value + n % self.modulus) % self.modulus;
            }

            /// Steps back by one, wrapping below zero.
            pub fn back(&mut self) {
                if self.value == 0 {
                    self.value = self.modulus + 1;
                } else {
                    self.value -= 1;
                }
            }
        }
    };
}

ring!(Ring8, u8);
ring!(Ring16, u16);
ring!(Ring32, u32);

/// The sum of the counters' values.
pub fn total(rings: &[Ring8]) -> u32 {
    let mut sum = 0;
    for ring in rings {
        sum += u32::from(ring.value());
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advance_wraps_at_the_modulus() {
        let mut ring = Ring8::new(10);
        ring.advance(13);
        assert_eq!(ring.value(), 3);
    }

    #[test]
    fn back_from_three_is_two() {
        let mut ring = Ring16::new(10);
        ring.advance(3);
        ring.back();
        assert_eq!(ring.value(), 2);
    }

    #[test]
    fn back_from_zero_wraps_to_the_last_value() {
        let mut ring = Ring8::new(10);
        ring.back();
        assert_eq!(ring.value(), 9);
    }

    #[test]
    fn a_wide_ring_wraps_back_too() {
        let mut ring = Ring32::new(1000);
        ring.back();
        assert_eq!(ring.value(), 999);
    }

    #[test]
    fn total_adds_the_values() {
        let mut a = Ring8::new(5);
        a.advance(2);
        let mut b = Ring8::new(7);
        b.advance(4);
        assert_eq!(total(&[a, b]), 6);
    }
}
