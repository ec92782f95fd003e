//! Room bookings, in minutes after midnight.

/// A room booked from `from` until `until` (not included).
#[derive(Debug, Clone, Copy)]
pub struct Booking {
    pub from: u32,
    pub until: u32,
}

impl Booking {
    /// Whether the two bookings need the room at the same time.
    pub fn clashes(&self, other: &Booking) -> bool {
        self.from < other.until
    }
}

/// The bookings of `day` that clash with `wanted`, by index.
pub fn clashing(day: &[Booking], wanted: &Booking) -> Vec<usize> {
    (0..day.len()).filter(|&i| day[i].clashes(wanted)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(from: u32, until: u32) -> Booking {
        Booking { from, until }
    }

    #[test]
    fn overlapping_bookings_clash() {
        assert!(at(540, 600).clashes(&at(570, 630)));
        assert!(at(570, 630).clashes(&at(540, 600)));
    }

    #[test]
    fn one_inside_the_other_clashes() {
        assert!(at(540, 720).clashes(&at(600, 630)));
    }

    #[test]
    fn back_to_back_bookings_do_not_clash() {
        assert!(!at(540, 600).clashes(&at(600, 660)));
    }

    #[test]
    fn an_earlier_booking_does_not_clash() {
        assert!(!at(600, 660).clashes(&at(480, 540)));
    }

    #[test]
    fn the_day_lists_the_clashes() {
        let day = [at(480, 540), at(540, 600), at(660, 720)];
        assert_eq!(clashing(&day, &at(570, 690)), vec![1, 2]);
    }
}
