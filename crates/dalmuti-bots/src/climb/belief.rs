//! Who the other players are and what they hold, inferred from what they
//! did this hand, for the search of President and Daifugō (the Dalmuti
//! search's `opponents=infer`, for the pack).
//!
//! Each other seat may be any of a few kinds of player ([`FAMILY`]): a
//! keeper of groups (the UECda contest's default client), a player who
//! sheds its weakest play, a random one. Deals of the unseen cards are
//! sampled as the seat knows them (the exchange included); in each, the
//! hand is played again from its first lead, and at every decision
//! another seat made, each kind's choice there is compared with what the
//! seat did: a kind makes its own choice with probability 1 − ε and any
//! legal action with ε, the random kind any legal action. Each deal is
//! weighted by how likely it makes the plays seen (each seat's kind
//! summed out under the prior: what the table's earlier hands showed,
//! [`super::table`]), and each seat's kind is distributed
//! given the deal. The search draws a deal by weight, and each seat's
//! kind given that deal, and plays it out with each seat as its kind: a
//! seat that passed where it could have shed its weakest card is not
//! likely to be that kind of player, or not likely to hold that card.

use dalmuti_core::{Action, Cards, Event, Hand, PerSeat, PlayPosition, Seat, Seen, View};

use super::kind::Kind;
use crate::weighing::{WeightedDeals, likelihood};

/// The kinds of player every other seat may be.
pub(super) const FAMILY: [Kind; 3] = [Kind::Keeper, Kind::Weakest, Kind::Random];

/// How likely each kind is before anything is seen at a table (then the
/// table's own spread, [`super::table::TableKinds`]).
pub(super) const PRIOR: [f64; 3] = [0.45, 0.45, 0.1];

/// ε: how often a kind is taken to play something other than its own
/// choice (any legal action).
const NOISE: f64 = 0.15;

/// Decisions of other seats replayed per decision, over every deal: the
/// number of deals is cut to fit, down to [`FEWEST_DEALS`].
const REPLAY_BUDGET: usize = 4000;

/// Deals weighed however long the hand so far.
const FEWEST_DEALS: usize = 24;

/// The power a deal's likelihood is raised to (see
/// [`WeightedDeals::weigh`]; the Dalmuti search's belief measured it).
const TEMPER: f64 = 0.3;

/// The weighted deals of one decision, each other seat's kind of
/// [`FAMILY`] given each.
pub(super) type Belief = WeightedDeals<{ FAMILY.len() }>;

/// The plays of the hand so far, from its first lead, and what each seat
/// played.
struct History {
    actions: Vec<(Seat, Action)>,
    played: PerSeat<Cards>,
}

impl History {
    /// `None` when there is nothing to replay, or a card changed hands
    /// face down this hand (7-pass, 10-discard): the hands at the first
    /// lead are not then the hands now and the cards played.
    fn of(view: &View<'_>) -> Option<History> {
        let mut actions = Vec::new();
        let mut played = PerSeat::<Cards>::default();
        for seen in view.log() {
            match seen {
                Seen::Event(Event::Played { seat, set }) => {
                    played[seat].add_all(&set.cards());
                    actions.push((seat, Action::Play(set)));
                }
                Seen::Event(Event::Passed { seat }) => actions.push((seat, Action::Pass)),
                Seen::Given { .. }
                | Seen::Discarded { .. }
                | Seen::Event(Event::Given { .. } | Event::Discarded { .. }) => return None,
                _ => {}
            }
        }
        (!actions.is_empty()).then_some(History { actions, played })
    }
}

/// The belief at `view`'s decision, each seat's kind taken from `prior`
/// before its plays are seen, from up to `samples` deals drawn by `sample`
/// (the other seats' cards, as the seat knows them); `None` when there is
/// nothing to infer from.
pub(super) fn infer(
    view: &View<'_>,
    prior: &[f64; FAMILY.len()],
    samples: usize,
    mut sample: impl FnMut() -> PerSeat<Cards>,
) -> Option<Belief> {
    let me = view.seat()?;
    let history = History::of(view)?;
    let replayed = history.actions.iter().filter(|(s, _)| *s != me).count();
    let samples = (REPLAY_BUDGET / replayed.max(1)).clamp(FEWEST_DEALS.min(samples), samples);
    let mine = view.cards()?;
    let deals = (0..samples).filter_map(|_| {
        let mut held = sample();
        held[me] = mine;
        let ll = replay(view, me, &history, &held)?;
        held[me] = Cards::EMPTY;
        Some((held, ll))
    });
    WeightedDeals::weigh(me, view.players(), prior, TEMPER, deals)
}

/// Plays the hand again from its first lead with every seat's cards as
/// they were then (`held` now and what each played since), and returns
/// each seat's log-likelihood of its decisions under each kind; `None` if
/// the deal cannot have been (it always can: a guard).
fn replay(
    view: &View<'_>,
    me: Seat,
    history: &History,
    held: &PerSeat<Cards>,
) -> Option<PerSeat<[f64; FAMILY.len()]>> {
    let players = view.players();
    let start: Vec<Cards> = Seat::all(players)
        .map(|s| {
            let mut cards = held[s];
            cards.add_all(&history.played[s]);
            cards
        })
        .collect();
    let (leader, _) = history.actions[0];
    let mut hand = Hand::from_position(PlayPosition {
        rules: *view.rules(),
        held: start,
        gone_out: Vec::new(),
        turn: leader,
        top: None,
        passes: 0,
    })
    .ok()?;
    let mut ll = PerSeat::<[f64; FAMILY.len()]>::default();
    for &(seat, action) in &history.actions {
        if seat != me {
            let legal = hand.legal_actions(seat);
            let n = legal.len();
            if n > 1 {
                for (t, kind) in FAMILY.iter().enumerate() {
                    let p = likelihood(kind.choice(&hand, seat, &legal), action, n, NOISE);
                    ll[seat][t] += p.ln();
                }
            }
        }
        hand.apply(seat, action).ok()?;
    }
    Some(ll)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::climb::ClimbSearch;
    use crate::climb::kind::play_hand_of_five;
    use dalmuti_core::Viewer;

    /// Plays Daifugō hands of five, seats 1 to 4 as `others`, seat 0 its
    /// weakest; at seat 0's decisions once 12 plays are made, how likely
    /// its belief finds each kind for the others, on average.
    fn kinds_found(others: Kind, seeds: u64) -> [f64; FAMILY.len()] {
        let mut total = [0.0; FAMILY.len()];
        let mut counted = 0.0;
        for seed in 0..seeds {
            let mut search = ClimbSearch::new(None, 8, seed);
            play_hand_of_five(seed, others, |hand, plays| {
                if plays < 12 {
                    return;
                }
                let view = View::new(hand, Viewer::Seat(Seat::new(0)));
                let known = super::super::Exchanged::of(&view);
                let belief = infer(&view, &PRIOR, 64, || search.sample_others(&view, &known))
                    .expect("a hand with plays has a belief");
                for s in (1..5).map(Seat::new).filter(|&s| !hand.held(s).is_empty()) {
                    let found = belief.kinds_of(s);
                    assert!((found.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                    for (t, f) in total.iter_mut().zip(found) {
                        *t += f;
                    }
                    counted += 1.0;
                }
            });
        }
        assert!(counted > 20.0, "only {counted} beliefs");
        total.map(|t| t / counted)
    }

    #[test]
    fn keepers_and_shedders_are_told_apart_by_what_they_do() {
        let keepers = kinds_found(Kind::Keeper, 12);
        let shedders = kinds_found(Kind::Weakest, 12);
        assert!(keepers[0] > 0.6, "keepers seen as {keepers:?}");
        assert!(shedders[1] > 0.6, "shedders seen as {shedders:?}");
    }
}
