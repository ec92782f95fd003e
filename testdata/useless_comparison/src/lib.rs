//! A fixed-size set of bits.

/// Words of 64 bits needed to hold `bits` bits.
fn words_for(bits: usize) -> usize {
    bits / 64 + (bits.rem_euclid(64) > 0) as usize
}

/// Bits `0..=max`.
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// A set with room for every bit from 0 to `max`, both included.
    pub fn with_max(max: usize) -> Bits {
        let words = words_for(max);
        Bits {
            words: vec![0; words],
        }
    }

    /// How many words the set holds.
    pub fn words(&self) -> usize {
        self.words.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_to_a_word_boundary_takes_the_next_word() {
        assert_eq!(Bits::with_max(64).words(), 2);
    }

    #[test]
    fn the_first_bit_takes_a_word() {
        assert_eq!(Bits::with_max(0).words(), 1);
    }

    #[test]
    fn small_sets_take_one_word() {
        assert_eq!(Bits::with_max(10).words(), 1);
        assert_eq!(Bits::with_max(63).words(), 1);
    }

    #[test]
    fn larger_sets_take_what_they_need() {
        assert_eq!(Bits::with_max(100).words(), 2);
        assert_eq!(Bits::with_max(130).words(), 3);
    }
}
