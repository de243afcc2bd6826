//! Who plays at this table, learned over its hands: the prior of each
//! hand's belief ([`super::belief`]). The kinds of player a table holds
//! do not change from hand to hand, while one hand shows little of them
//! until it is well under way; what the hands before found is what to
//! expect of the next before it has shown anything.
//!
//! The spread is the table's, not each seat's: seats are drawn again
//! between games (every three in the UECda contest), so what a seat
//! showed says little of who sits there next. A table of four keepers
//! soon expects keepers everywhere; a mixed one, a mix.

use dalmuti_core::{Cards, Seat, View};

use super::belief::{Belief, FAMILY, PRIOR};

/// How many seat-hands the starting prior counts for.
const START: f64 = 4.0;

/// How much a hand's finding still counts one hand later: a table's
/// players may change (a sim's pool, a server's seats), so the oldest
/// hands fade.
const FADE: f64 = 0.8;

/// Every kind keeps about this share at least (raised to it, then all
/// scaled to sum to one): a seat may be one the table has not shown yet.
const FLOOR: f64 = 0.05;

/// The spread of kinds at a table, and what the hand under way has shown.
#[derive(Clone, Debug)]
pub(super) struct TableKinds {
    /// Each kind's weight, summed over seat-hands (the start included),
    /// older hands faded.
    counts: [f64; FAMILY.len()],
    /// What the last decision of the hand under way found.
    current: Option<Found>,
}

/// What one decision's belief found of the other seats, and what tells
/// its hand from the next.
#[derive(Clone, Debug)]
struct Found {
    /// The seat's cards then: in a hand they only go.
    held: Cards,
    /// The plays made in the hand by then: in a hand they only grow.
    plays: usize,
    /// Each kind's probability, summed over the other seats.
    kinds: [f64; FAMILY.len()],
}

impl Default for TableKinds {
    fn default() -> TableKinds {
        TableKinds {
            counts: PRIOR.map(|p| p * START),
            current: None,
        }
    }
}

impl TableKinds {
    /// The prior for a decision at `view`: the spread found over the
    /// hands before this one. The first decision of a hand counts what
    /// the last hand's last belief found.
    pub(super) fn prior(&mut self, view: &View<'_>) -> [f64; FAMILY.len()] {
        let held = view.cards().unwrap_or_default();
        let plays = view.plays().count();
        let new_hand = self
            .current
            .as_ref()
            .is_some_and(|found| plays < found.plays || !found.held.contains(&held));
        if let Some(found) = self.current.take_if(|_| new_hand) {
            for (count, kind) in self.counts.iter_mut().zip(found.kinds) {
                *count = *count * FADE + kind;
            }
        }
        let total: f64 = self.counts.iter().sum();
        let spread = self.counts.map(|c| (c / total).max(FLOOR));
        let total: f64 = spread.iter().sum();
        spread.map(|p| p / total)
    }

    /// Keeps what `belief`, at `view`'s decision, finds of the other
    /// seats, as what this hand has shown so far.
    pub(super) fn saw(&mut self, view: &View<'_>, belief: &Belief) {
        let Some(me) = view.seat() else {
            return;
        };
        let mut kinds = [0.0; FAMILY.len()];
        for seat in Seat::all(view.players()).filter(|&s| s != me) {
            for (k, p) in kinds.iter_mut().zip(belief.kinds_of(seat)) {
                *k += p;
            }
        }
        self.current = Some(Found {
            held: view.cards().unwrap_or_default(),
            plays: view.plays().count(),
            kinds,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::climb::kind::{Kind, play_hand_of_five};
    use crate::climb::{ClimbSearch, Exchanged};
    use dalmuti_core::Viewer;

    /// Plays `hands` Daifugō hands of five, seats 1 to 4 as `others`,
    /// seat 0 its weakest, with seat 0's table learning at each of its
    /// plays; returns the prior at seat 0's first play of each hand, and
    /// whether every later play of a hand had the same one.
    fn priors(others: Kind, hands: u64) -> (Vec<[f64; FAMILY.len()]>, bool) {
        let mut table = TableKinds::default();
        let mut search = ClimbSearch::new(None, 8, 7);
        let mut firsts = Vec::new();
        let mut steady = true;
        for seed in 0..hands {
            let mut first = None;
            play_hand_of_five(100 + seed, others, |hand, _| {
                let view = View::new(hand, Viewer::Seat(Seat::new(0)));
                let prior = table.prior(&view);
                match first {
                    None => first = Some(prior),
                    Some(first) => steady &= first == prior,
                }
                let known = Exchanged::of(&view);
                if let Some(found) = search.believe(&view, &prior, 48, &known) {
                    table.saw(&view, &found);
                }
            });
            firsts.extend(first);
        }
        (firsts, steady)
    }

    #[test]
    fn what_a_table_showed_is_expected_of_it_the_next_hand() {
        for (others, k) in [(Kind::Keeper, 0), (Kind::Weakest, 1)] {
            let (firsts, steady) = priors(others, 6);
            assert_eq!(firsts.len(), 6);
            // Before anything is seen, the prior; a hand keeps its prior
            // to its end.
            assert_eq!(firsts[0], PRIOR);
            assert!(steady, "{others:?}: the prior changed within a hand");
            let last = firsts[5];
            assert!((last.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(
                last[k] > 0.65,
                "{others:?}: after five hands the table is expected as {last:?}"
            );
            assert!(last.iter().all(|&p| p >= 0.9 * FLOOR), "{last:?}");
        }
    }
}
