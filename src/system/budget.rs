//! The time a piece of work may take: a value passed down from where the
//! time limit is read (the command line's `--time-limit`, an MCP call's
//! `time_limit`) to every process it runs, which halts once it has ended.

use std::time::{Duration, Instant};

use crate::exit::Halt;

/// When the work must end (`None`: it has all the time it needs). No
/// process starts after it, and the one running then is killed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    until: Option<Instant>,
}

impl Budget {
    /// No end.
    pub fn unlimited() -> Budget {
        Budget { until: None }
    }

    /// Ends at `end`.
    pub fn until(end: Instant) -> Budget {
        Budget { until: Some(end) }
    }

    /// Ends `limit` after `started`, if there is a limit.
    pub fn after(started: Instant, limit: Option<Duration>) -> Budget {
        Budget {
            until: limit.map(|limit| started + limit),
        }
    }

    /// This budget, ended at `end` if that is sooner: a step that must
    /// leave time for the steps after it.
    pub fn sooner(self, end: Option<Instant>) -> Budget {
        let until = match (self.until, end) {
            (Some(until), Some(end)) => Some(until.min(end)),
            (until, end) => until.or(end),
        };
        Budget { until }
    }

    /// When it ends (`None`: never).
    pub fn end(self) -> Option<Instant> {
        self.until
    }

    /// The time left (`None`: no end).
    pub fn left(self) -> Option<Duration> {
        self.until
            .map(|until| until.saturating_duration_since(Instant::now()))
    }

    /// Whether it has ended.
    pub fn ended(self) -> bool {
        self.left().is_some_and(|left| left.is_zero())
    }

    /// Whether `halt`, which stopped a step run on a budget of its own cut
    /// from this one, is only the end of the step's budget: not a signal,
    /// and not the end of this budget, which whoever set it handles.
    pub fn outlasts(self, halt: Halt) -> bool {
        halt == Halt::TimeLimit && !self.ended()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::Exit;

    #[test]
    fn narrowing_keeps_the_sooner_end() {
        let now = Instant::now();
        let (near, far) = (now + Duration::from_secs(10), now + Duration::from_secs(60));
        assert_eq!(Budget::until(far).sooner(Some(near)).end(), Some(near));
        assert_eq!(Budget::until(near).sooner(Some(far)).end(), Some(near));
        assert_eq!(Budget::until(near).sooner(None).end(), Some(near));
        assert_eq!(Budget::unlimited().sooner(Some(far)).end(), Some(far));
    }

    #[test]
    fn unlimited_never_ends() {
        let budget = Budget::unlimited();
        assert_eq!(budget.left(), None);
        assert!(!budget.ended());
        assert_eq!(budget.sooner(None), budget);
        assert_eq!(Budget::after(Instant::now(), None), budget);
    }

    #[test]
    fn a_budget_ends_at_its_end() {
        let now = Instant::now();
        let past = Budget::until(now);
        assert!(past.ended());
        assert_eq!(past.left(), Some(Duration::ZERO));
        let future = Budget::after(now, Some(Duration::from_secs(60)));
        assert!(!future.ended());
        assert!(
            future
                .left()
                .is_some_and(|left| left > Duration::from_secs(50))
        );
    }

    #[test]
    fn only_a_steps_own_end_is_outlasted() {
        let run = Budget::after(Instant::now(), Some(Duration::from_secs(60)));
        assert!(run.outlasts(Halt::TimeLimit));
        assert!(!run.outlasts(Halt::Signal(Exit::Interrupted)));
        assert!(!Budget::until(Instant::now()).outlasts(Halt::TimeLimit));
        assert!(Budget::unlimited().outlasts(Halt::TimeLimit));
    }
}
