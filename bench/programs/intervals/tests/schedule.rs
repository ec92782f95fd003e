//! Meeting rooms: busy times as interval sets, in minutes since midnight.

use intervals::{Interval, IntervalSet};

fn minutes(hhmm: &str) -> i64 {
    let (h, m) = hhmm.split_once(':').unwrap();
    h.parse::<i64>().unwrap() * 60 + m.parse::<i64>().unwrap()
}

fn busy(meetings: &[(&str, &str)]) -> IntervalSet {
    IntervalSet::from_intervals(
        meetings
            .iter()
            .map(|(s, e)| Interval::new(minutes(s), minutes(e)).unwrap()),
    )
}

#[test]
fn free_slots_in_a_working_day() {
    let alice = busy(&[("09:00", "10:30"), ("12:00", "13:00"), ("10:00", "11:00")]);
    let bob = busy(&[("09:30", "10:00"), ("14:00", "15:30")]);
    let both = alice.union(&bob);
    let day = Interval::new(minutes("09:00"), minutes("17:00")).unwrap();
    let free: Vec<(i64, i64)> = both.gaps(day).iter().map(|i| (i.start, i.end)).collect();
    assert_eq!(
        free,
        [
            (minutes("11:00"), minutes("12:00")),
            (minutes("13:00"), minutes("14:00")),
            (minutes("15:30"), minutes("17:00")),
        ]
    );
}

#[test]
fn overlap_between_two_calendars() {
    let alice = busy(&[("09:00", "11:00"), ("13:00", "15:00")]);
    let bob = busy(&[("10:00", "14:00")]);
    let common = alice.intersection(&bob);
    assert_eq!(common.total_len(), 120);
}

#[test]
fn booking_and_cancelling() {
    let mut room = IntervalSet::new();
    for (s, e) in [("09:00", "10:00"), ("11:00", "12:00"), ("10:00", "11:00")] {
        room.insert(Interval::new(minutes(s), minutes(e)).unwrap());
    }
    assert_eq!(room.intervals().len(), 1);
    room.remove(Interval::new(minutes("10:15"), minutes("10:45")).unwrap());
    assert_eq!(room.intervals().len(), 2);
    assert!(room.contains(minutes("10:10")));
    assert!(!room.contains(minutes("10:30")));
    assert_eq!(room.total_len(), 150);
}
