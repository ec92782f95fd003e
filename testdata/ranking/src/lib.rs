//! A league table.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    pub score: u32,
}

/// Sorts the players best first (the highest score), equal scores by name.
pub fn rank(players: &mut [Player]) {
    players.sort_by(|a, b| a.score.cmp(&b.score).then(a.name.cmp(&b.name)));
}

/// The names of the first `n` players of the table.
pub fn leaders(players: &[Player], n: usize) -> Vec<String> {
    let mut table = players.to_vec();
    rank(&mut table);
    table.into_iter().take(n).map(|p| p.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(name: &str, score: u32) -> Player {
        Player {
            name: name.to_string(),
            score,
        }
    }

    #[test]
    fn one_player() {
        assert_eq!(leaders(&[player("ann", 3)], 5), ["ann"]);
    }

    #[test]
    fn equal_scores_go_by_name() {
        assert_eq!(leaders(&[player("cid", 2), player("ann", 2)], 2), ["ann", "cid"]);
    }

    #[test]
    fn the_best_first() {
        let players = [player("ann", 3), player("bob", 5), player("cid", 3)];
        assert_eq!(leaders(&players, 3), ["bob", "ann", "cid"]);
    }
}
