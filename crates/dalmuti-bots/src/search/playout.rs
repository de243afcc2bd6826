//! Determinizations (the hidden cards dealt at random, consistently with
//! what the seat knows) and the fast policy that plays them out.

use std::ops::ControlFlow;

use dalmuti_core::{
    Action, ActionList, Card, Cards, Event, Hand, PerSeat, PlayPosition, Rules, Seat, Seen, Set,
    Variant, View,
};
use rand::Rng;

use super::config::Playout;
use super::model::Kind;
use crate::BotRng;
use crate::heuristic;
use crate::knowledge::Knowledge;
use crate::learned::LearnedPolicy;

/// One in this many rollout decisions is a uniformly random legal action
/// instead of the worst legal set. A little noise keeps the playouts from
/// all following one line (the greedy line would, say, never pass a set it
/// could top), while most moves stay those of a sensible shedding player.
const EXPLORE_ONE_IN: u32 = 10;

/// What everyone at the table sees of the position being searched: every
/// determinization shares it, only the hidden cards differ.
#[derive(Clone, Debug)]
pub(super) struct Table {
    me: Seat,
    rules: Rules,
    players: usize,
    gone_out: Vec<Seat>,
    turn: Seat,
    top: Option<(Seat, Set)>,
    passes: u8,
    /// How many unseen cards nobody holds. A view of a real hand accounts
    /// for every card (its log has every play), so this is 0; a position
    /// set up with `Hand::from_position` has no log, and the cards played
    /// before it look unseen.
    unaccounted: u32,
    /// The trick being played, when the view's log holds it from its lead:
    /// each determinization replays it, so that what the trick's plays set
    /// going (the Wedgie's victim, Ratbert's return to the trick's winner)
    /// carries into the search as in the real hand.
    trick: Option<Trick>,
}

/// The trick being played: who led it, what everyone did since, and the
/// cards each seat put down in it.
#[derive(Clone, Debug)]
struct Trick {
    leader: Seat,
    actions: Vec<(Seat, Action)>,
    cards: PerSeat<Cards>,
    /// The seats gone out before the trick was led.
    gone_out: Vec<Seat>,
}

impl Trick {
    /// The trick of `view`, if a set is on the table and the log shows the
    /// trick from its lead.
    fn of(view: &View<'_>) -> Option<Trick> {
        view.top()?;
        let mut actions = Vec::new();
        let mut out_in_trick = Vec::new();
        for seen in view.log() {
            match seen {
                Seen::Event(Event::RoundWon { .. }) => {
                    actions.clear();
                    out_in_trick.clear();
                }
                Seen::Event(Event::Played { seat, set }) => actions.push((seat, Action::Play(set))),
                Seen::Event(Event::Passed { seat }) => actions.push((seat, Action::Pass)),
                Seen::Event(Event::WentOut { seat, .. }) => out_in_trick.push(seat),
                _ => {}
            }
        }
        let &(leader, Action::Play(_)) = actions.first()? else {
            return None;
        };
        let mut cards = PerSeat::<Cards>::default();
        for &(seat, action) in &actions {
            if let Action::Play(set) = action {
                cards[seat].add_all(&set.cards());
            }
        }
        let gone_out = view
            .finish_order()
            .iter()
            .copied()
            .filter(|s| !out_in_trick.contains(s))
            .collect();
        Some(Trick {
            leader,
            actions,
            cards,
            gone_out,
        })
    }
}

impl Table {
    /// The public position of a view in play, whose seat knows
    /// `knowledge`.
    pub(super) fn of(view: &View<'_>, knowledge: &Knowledge) -> Table {
        let held: u32 = Seat::all(view.players())
            .filter(|&s| s != knowledge.me)
            .map(|s| knowledge.counts[s])
            .sum();
        let unaccounted = knowledge.unseen.len().saturating_sub(held);
        Table {
            unaccounted,
            // A position set up mid-hand has no log of the trick's start.
            // In Dalmuti a trick leaves nothing but the set on the table and
            // the passes, which the position holds: no need to replay it.
            trick: if unaccounted == 0 && view.variant() == Variant::CorporateShuffle {
                Trick::of(view)
            } else {
                None
            },
            me: knowledge.me,
            rules: *view.rules(),
            players: view.players(),
            gone_out: view.finish_order().to_vec(),
            turn: view.turn().expect("searching a decision of play"),
            top: view.top(),
            passes: view.passes() as u8,
        }
    }

    /// The seat searching.
    pub(super) fn me(&self) -> Seat {
        self.me
    }

    /// How many players.
    pub(super) fn players(&self) -> usize {
        self.players
    }

    /// A determinization: the hand as it would be if the unseen cards lay
    /// as `knowledge` samples them.
    pub(super) fn determinize(&self, knowledge: &Knowledge, rng: &mut BotRng) -> Hand {
        let held = self.sample(knowledge, rng);
        self.hand_of(&held)
    }

    /// Every seat's cards in a deal of the unseen cards as `knowledge`
    /// samples them.
    pub(super) fn sample(&self, knowledge: &Knowledge, rng: &mut BotRng) -> PerSeat<Cards> {
        if self.unaccounted == 0 {
            knowledge.sample(rng)
        } else {
            self.without_unaccounted(knowledge, rng).sample(rng)
        }
    }

    /// Whether every card is accounted for (the view's log has every play
    /// of the hand), so that the hand can be replayed from its start.
    pub(super) fn accounted(&self) -> bool {
        self.unaccounted == 0
    }

    /// The position searched with every seat holding `held`.
    pub(super) fn hand_of(&self, held: &PerSeat<Cards>) -> Hand {
        if let Some(hand) = self.trick.as_ref().and_then(|t| self.replayed(t, held)) {
            return hand;
        }
        Hand::from_position(PlayPosition {
            rules: self.rules,
            held: held.as_slice(self.players).to_vec(),
            gone_out: self.gone_out.clone(),
            turn: self.turn,
            top: self.top,
            passes: self.passes,
        })
        .expect("a deal consistent with the view fits its position")
    }

    /// The trick replayed from its lead with the cards of `held` (plus the
    /// cards each seat played in it), if it reaches the position searched
    /// (it always should: the plays are public, and each seat is given back
    /// the very cards it played).
    fn replayed(&self, trick: &Trick, held: &PerSeat<Cards>) -> Option<Hand> {
        let mut start = held.as_slice(self.players).to_vec();
        for (i, cards) in start.iter_mut().enumerate() {
            cards.add_all(&trick.cards[Seat::new(i)]);
        }
        let mut hand = Hand::from_position(PlayPosition {
            rules: self.rules,
            held: start,
            gone_out: trick.gone_out.clone(),
            turn: trick.leader,
            top: None,
            passes: 0,
        })
        .ok()?;
        for &(seat, action) in &trick.actions {
            hand.apply(seat, action).ok()?;
        }
        let reached = hand.turn() == self.turn
            && hand.top() == self.top
            && hand.passes() == usize::from(self.passes)
            && hand.finish_order() == self.gone_out.as_slice();
        reached.then_some(hand)
    }

    /// `knowledge` less a random choice of the unaccounted cards (among
    /// those not known to be in a hand), taken as played: every way the
    /// earlier plays could have gone stays possible.
    fn without_unaccounted(&self, knowledge: &Knowledge, rng: &mut BotRng) -> Knowledge {
        let mut knowledge = knowledge.clone();
        let mut free = knowledge.unseen;
        for seat in Seat::all(self.players) {
            free.remove_all(&knowledge.known[seat]);
        }
        for _ in 0..self.unaccounted {
            let card = nth(&free, rng.random_range(0..free.len()));
            free.remove(card, 1);
            knowledge.unseen.remove(card, 1);
            knowledge.played.add(card, 1);
        }
        knowledge
    }
}

/// The `n`th card of `cards`, best first.
fn nth(cards: &Cards, mut n: u32) -> Card {
    for (card, count) in cards.kinds() {
        if n < u32::from(count) {
            return card;
        }
        n -= u32::from(count);
    }
    unreachable!("n is below the number of cards")
}

/// Plays `hand` to its end, every seat by `policy` (one decision in
/// [`EXPLORE_ONE_IN`] a uniformly random legal action); with
/// [`Playout::Model`], `me` plays as the heuristic and every other seat as
/// `kinds` says.
pub(super) fn play_out(
    hand: &mut Hand,
    policy: Playout,
    me: Seat,
    kinds: &PerSeat<Kind>,
    rng: &mut BotRng,
    legal: &mut Vec<Action>,
) {
    while let Some(seat) = hand.next_to_act() {
        let action = if rng.random_ratio(1, EXPLORE_ONE_IN) {
            random_legal(hand, seat, rng)
        } else {
            match policy {
                Playout::Greedy => hand.worst_legal(seat).expect("a seat to act can act"),
                Playout::Heuristic => heuristic::playout_play(hand, seat, legal),
                Playout::Model if seat == me => heuristic::playout_play(hand, seat, legal),
                Playout::Learned if seat == me => {
                    LearnedPolicy::shipped().play_in(hand, seat, legal)
                }
                Playout::Model | Playout::Learned => kinds[seat].play(hand, seat, legal, rng),
            }
        };
        hand.apply(seat, action)
            .expect("the policy plays legal actions");
    }
}

/// A legal action of `seat` chosen uniformly. The actions are listed once,
/// in place in a list on the stack (an `ArrayVec` writes only what is
/// pushed: returning a full list by value, 2 KiB, is what costs); counting
/// them, then walking them again to the one drawn, took two passes.
fn random_legal(hand: &Hand, seat: Seat, rng: &mut BotRng) -> Action {
    let mut legal = ActionList::new();
    hand.for_each_legal(seat, |a| {
        legal.push(a);
        ControlFlow::Continue(())
    });
    legal[rng.random_range(0..legal.len())]
}

/// Every seat's reward for a finished hand: 1 for going out first, 0 for
/// the last, evenly between.
pub(super) fn rewards(hand: &Hand) -> PerSeat<f64> {
    let order = hand.finish_order();
    let last = (order.len() - 1) as f64;
    let mut rewards = PerSeat::default();
    for (place, &seat) in order.iter().enumerate() {
        rewards[seat] = (last - place as f64) / last;
    }
    rewards
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot_rng;
    use dalmuti_core::{DealRng, Seed, Stage, Viewer};

    #[test]
    fn determinizations_keep_the_wedgie_victim_and_ratberts_fate() {
        // Greedy play of Corporate Shuffle hands; at every turn where the
        // Wedgie silences someone or the trick's winner takes Ratbert
        // back, every determinization must be in the same state.
        let rules = Rules {
            variant: Variant::CorporateShuffle,
            ..Rules::default()
        };
        let (mut wedged, mut ratbert) = (0, 0);
        for seed in 0..40 {
            let mut hand = Hand::deal(rules, 5, false, &mut DealRng::new(Seed::from(seed)));
            let mut rng = bot_rng(seed);
            while let Some(seat) = hand.next_to_act() {
                if hand.stage() == Stage::Play
                    && (hand.wedged().is_some() || hand.ratbert_to_take())
                {
                    wedged += usize::from(hand.wedged().is_some());
                    ratbert += usize::from(hand.ratbert_to_take());
                    let view = View::new(&hand, Viewer::Seat(seat));
                    let knowledge = Knowledge::from_view(&view);
                    let table = Table::of(&view, &knowledge);
                    assert!(table.trick.is_some());
                    for _ in 0..5 {
                        let d = table.determinize(&knowledge, &mut rng);
                        assert_eq!(d.wedged(), hand.wedged());
                        assert_eq!(d.ratbert_to_take(), hand.ratbert_to_take());
                        assert_eq!(
                            (d.turn(), d.top(), d.passes()),
                            (hand.turn(), hand.top(), hand.passes())
                        );
                        assert_eq!(d.finish_order(), hand.finish_order());
                        assert_eq!(d.held(seat), hand.held(seat));
                    }
                }
                let action = if rng.random_ratio(1, 3) {
                    random_legal(&hand, seat, &mut rng)
                } else {
                    hand.worst_legal(seat).unwrap()
                };
                hand.apply(seat, action).unwrap();
            }
        }
        assert!(wedged > 20 && ratbert > 20, "{wedged} {ratbert}");
    }
}
