//! Scores of a small card game.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Card {
    Number(u8),
    Jack,
    Queen,
    King,
    Ace,
}

impl Card {
    /// Whether the card is a face card.
    pub fn is_face(&self) -> bool {
        matches!(self, Card::Jack | Card::Queen)
    }

    pub fn points(&self) -> u32 {
        match self {
            Card::Number(n) => *n as u32,
            Card::Ace => 11,
            _ if self.is_face() => 10,
            _ => 0,
        }
    }
}

/// The hand's total; an ace counts 1 when 11 would bust.
pub fn total(hand: &[Card]) -> u32 {
    let mut sum: u32 = hand.iter().map(Card::points).sum();
    let mut aces = hand.iter().filter(|c| **c == Card::Ace).count();
    while sum > 21 && aces > 0 {
        sum -= 10;
        aces -= 1;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use Card::*;

    #[test]
    fn numbers_add_up() {
        assert_eq!(total(&[Number(2), Number(9)]), 11);
    }

    #[test]
    fn an_ace_softens() {
        assert_eq!(total(&[Ace, Number(9), Number(5)]), 15);
    }

    #[test]
    fn faces_count_ten() {
        assert_eq!(total(&[Jack, Queen]), 20);
    }

    #[test]
    fn a_king_counts_ten() {
        assert_eq!(total(&[King, Number(5)]), 15);
    }

    #[test]
    fn no_face_among_numbers() {
        assert!(!Number(10).is_face());
        assert!(!Ace.is_face());
    }
}
