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
//! legal action with ε, the random kind any legal action. How likely a
//! deal makes the plays seen is each seat's kind summed out under the
//! prior (what the table's earlier hands showed, [`super::table`]). A
//! deal drawn at random seldom explains a keeper's plays (its model is
//! the contest's default client, exact), so each sampled deal then walks
//! toward the plays: the others trade cards at random, a trade kept as
//! Metropolis says (with probability the likelihood's ratio, or one when
//! it explains better), never against what the seat knows from the
//! exchange. The deals the walks end at count alike, and each seat's kind
//! is distributed given each. The search draws a deal, and each seat's
//! kind given that deal, and plays it out with each seat as its kind: a
//! seat that passed where it could have shed its weakest card is not
//! likely to be that kind of player, or not likely to hold that card.

use dalmuti_core::{Action, Cards, Event, Hand, PerSeat, PlayPosition, Seat, Seen, View};

use super::kind::Kind;
use rand::Rng;

use crate::BotRng;
use crate::weighing::{WeightedDeals, likelihood, mixture};

/// The kinds of player every other seat may be.
pub(super) const FAMILY: [Kind; 3] = [Kind::Keeper, Kind::Weakest, Kind::Random];

/// How likely each kind is before anything is seen at a table (then the
/// table's own spread, [`super::table::TableKinds`]).
pub(super) const PRIOR: [f64; 3] = [0.45, 0.45, 0.1];

/// ε: how often a kind is taken to play something other than its own
/// choice (any legal action).
const NOISE: f64 = 0.15;

/// ε for the keeper: the model is the kit's default client decision for
/// decision (`super::kit`), so a keeper's play it does not make is all but
/// ruled out.
const KEEPER_NOISE: f64 = 0.02;

/// Steps of each sampled deal's walk toward the plays seen.
const WALK_STEPS: usize = 40;

/// Decisions of other seats replayed per decision, over every deal: the
/// number of deals is cut to fit, down to [`FEWEST_DEALS`].
const REPLAY_BUDGET: usize = 4000;

/// Deals weighed however long the hand so far.
const FEWEST_DEALS: usize = 24;

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
    fits: impl Fn(&PerSeat<Cards>) -> bool,
    rng: &mut BotRng,
) -> Option<Belief> {
    let me = view.seat()?;
    let history = History::of(view)?;
    let replayed = history.actions.iter().filter(|(s, _)| *s != me).count();
    let samples = (REPLAY_BUDGET / replayed.max(1)).clamp(FEWEST_DEALS.min(samples), samples);
    let mine = view.cards()?;
    let walk = Walk {
        view,
        me,
        mine,
        history: &history,
        prior,
        seats: Seat::all(view.players())
            .filter(|&s| s != me && view.card_count(s) > 0)
            .collect(),
    };
    let mut deals = Vec::with_capacity(samples);
    for _ in 0..samples {
        let held = sample();
        let Some(ll) = walk.likelihood(&held) else {
            continue;
        };
        deals.push(walk.walk(held, ll, &fits, rng));
    }
    // Each deal is where its walk ended: drawn in proportion to how well
    // it explains the plays already, so all count alike.
    WeightedDeals::weigh(me, view.players(), prior, 0.0, deals)
}

/// What a walk from a sampled deal toward the plays seen needs.
struct Walk<'a> {
    view: &'a View<'a>,
    me: Seat,
    mine: Cards,
    history: &'a History,
    prior: &'a [f64; FAMILY.len()],
    /// The other seats still holding cards: those that may trade.
    seats: Vec<Seat>,
}

/// Each seat's log-likelihood of its decisions under each kind.
type Explained = PerSeat<[f64; FAMILY.len()]>;

impl Walk<'_> {
    fn likelihood(&self, held: &PerSeat<Cards>) -> Option<Explained> {
        self.likelihood_of(held, |s| s != self.me)
    }

    /// [`Self::likelihood`] of the seats `scored` says (the others' left
    /// at zero).
    fn likelihood_of(
        &self,
        held: &PerSeat<Cards>,
        scored: impl Fn(Seat) -> bool,
    ) -> Option<Explained> {
        let mut all = *held;
        all[self.me] = self.mine;
        replay(self.view, self.history, &all, scored)
    }

    /// How well a deal explains the plays: the log of its likelihood,
    /// each seat's kind summed out under the prior.
    fn score(&self, ll: &Explained) -> f64 {
        self.seats
            .iter()
            .map(|&s| mixture(&ll[s], self.prior).0)
            .sum()
    }

    /// [`WALK_STEPS`] steps of Metropolis from `held`: two other seats
    /// trade a card each, the trade kept with probability min(1, the
    /// likelihood's ratio), never where the seat knows better (`fits`).
    fn walk(
        &self,
        mut held: PerSeat<Cards>,
        mut ll: Explained,
        fits: &impl Fn(&PerSeat<Cards>) -> bool,
        rng: &mut BotRng,
    ) -> (PerSeat<Cards>, Explained) {
        if self.seats.len() < 2 {
            return (held, ll);
        }
        let mut now = self.score(&ll);
        for _ in 0..WALK_STEPS {
            let a = self.seats[rng.random_range(0..self.seats.len())];
            let b = self.seats[rng.random_range(0..self.seats.len())];
            let (Some(x), Some(y)) = (any_card(&held[a], rng), any_card(&held[b], rng)) else {
                continue;
            };
            if a == b || x == y {
                continue;
            }
            let mut next = held;
            next[a].remove(x, 1);
            next[a].add(y, 1);
            next[b].remove(y, 1);
            next[b].add(x, 1);
            if !fits(&next) {
                continue;
            }
            // A trade changes what only its two seats could do: the
            // others' decisions are explained as well as before.
            let Some(traded) = self.likelihood_of(&next, |s| s == a || s == b) else {
                continue;
            };
            let mut next_ll = ll;
            next_ll[a] = traded[a];
            next_ll[b] = traded[b];
            let then = self.score(&next_ll);
            if rng.random::<f64>().ln() < then - now {
                (held, ll, now) = (next, next_ll, then);
            }
        }
        (held, ll)
    }
}

/// One of `cards`, each as likely.
fn any_card(cards: &Cards, rng: &mut BotRng) -> Option<dalmuti_core::Card> {
    let n = cards.len() as usize;
    (n > 0)
        .then(|| cards.iter().nth(rng.random_range(0..n)))
        .flatten()
}

/// Plays the hand again from its first lead with every seat's cards as
/// they were then (`held` now and what each played since), and returns
/// the log-likelihood under each kind of the decisions of each seat
/// `scored` says (zero for the others); `None` if the deal cannot have
/// been (it always can: a guard).
fn replay(
    view: &View<'_>,
    history: &History,
    held: &PerSeat<Cards>,
    scored: impl Fn(Seat) -> bool,
) -> Option<Explained> {
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
    let mut ll = Explained::default();
    for &(seat, action) in &history.actions {
        if scored(seat) {
            let legal = hand.legal_actions(seat);
            let n = legal.len();
            if n > 1 {
                for (t, kind) in FAMILY.iter().enumerate() {
                    let p = likelihood(
                        kind.choice(&hand, seat, &legal),
                        action,
                        n,
                        if *kind == Kind::Keeper {
                            KEEPER_NOISE
                        } else {
                            NOISE
                        },
                    );
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
                let belief = search
                    .believe(&view, &PRIOR, 64, &known)
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

    #[test]
    fn a_walk_brings_the_deals_to_what_the_keepers_did() {
        let me = Seat::new(0);
        let (mut before, mut after, mut deals) = (0.0, 0.0, 0.0);
        for seed in 0..8 {
            let mut search = ClimbSearch::new(None, 8, seed);
            let mut rng = crate::bot_rng(seed);
            play_hand_of_five(seed, Kind::Keeper, |hand, plays| {
                if plays < 12 {
                    return;
                }
                let view = View::new(hand, Viewer::Seat(me));
                let known = super::super::Exchanged::of(&view);
                let history = History::of(&view).expect("plays to replay");
                let walk = Walk {
                    view: &view,
                    me,
                    mine: hand.held(me),
                    history: &history,
                    prior: &PRIOR,
                    seats: (1..5)
                        .map(Seat::new)
                        .filter(|&s| !hand.held(s).is_empty())
                        .collect(),
                };
                // How well the keepers' plays are explained: the keeper's
                // log-likelihood, summed over the seats.
                let keeper = |ll: &Explained| walk.seats.iter().map(|&s| ll[s][0]).sum::<f64>();
                for _ in 0..8 {
                    let held = search.sample_others(&view, &known);
                    let ll = walk.likelihood(&held).expect("a deal replays");
                    before += keeper(&ll);
                    let (walked, ll) = walk.walk(held, ll, &|h| known.allows(h), &mut rng);
                    after += keeper(&ll);
                    // The walk kept each trade's two seats up to date: the
                    // whole hand replayed explains the deal as it says.
                    let replayed = walk.likelihood(&walked).expect("a deal replays");
                    for s in (1..5).map(Seat::new) {
                        for (kept, again) in ll[s].iter().zip(&replayed[s]) {
                            assert!(
                                (kept - again).abs() < 1e-9,
                                "seat {s:?}: {kept} against {again}"
                            );
                        }
                    }
                    deals += 1.0;
                    // A walk trades cards: each seat keeps its count, and
                    // what the seat knows stays true.
                    for s in (1..5).map(Seat::new) {
                        assert_eq!(walked[s].len(), view.card_count(s));
                    }
                    assert!(known.allows(&walked));
                    view.sample(&walked).expect("a deal of the unseen cards");
                }
            });
        }
        assert!(deals > 50.0, "only {deals} deals");
        let (before, after) = (before / deals, after / deals);
        eprintln!("keeper log-likelihood per deal: {before:.2} sampled, {after:.2} walked");
        assert!(
            after > before + 10.0,
            "{before:.2} sampled, {after:.2} walked"
        );
    }
}
