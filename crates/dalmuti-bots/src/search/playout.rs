//! Determinizations (the hidden cards dealt at random, consistently with
//! what the seat knows) and the fast policy that plays them out.

use std::ops::ControlFlow;

use dalmuti_core::{Action, Card, Cards, Hand, PerSeat, PlayPosition, Rules, Seat, Set, View};
use rand::Rng;

use crate::BotRng;
use crate::knowledge::Knowledge;

/// One in this many rollout decisions is a uniformly random legal action
/// instead of the worst legal set. A little noise keeps the playouts from
/// all following one line (the greedy line would, say, never pass a set it
/// could top), while most moves stay those of a sensible shedding player.
const EXPLORE_ONE_IN: u32 = 10;

/// What everyone at the table sees of the position being searched: every
/// determinization shares it, only the hidden cards differ.
#[derive(Clone, Debug)]
pub(super) struct Table {
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
}

impl Table {
    /// The public position of a view in play, whose seat knows
    /// `knowledge`.
    pub(super) fn of(view: &View<'_>, knowledge: &Knowledge) -> Table {
        let held: u32 = Seat::all(view.players())
            .filter(|&s| s != knowledge.me)
            .map(|s| knowledge.counts[s])
            .sum();
        Table {
            unaccounted: knowledge.unseen.len().saturating_sub(held),
            rules: *view.rules(),
            players: view.players(),
            gone_out: view.finish_order().to_vec(),
            turn: view.turn().expect("searching a decision of play"),
            top: view.top(),
            passes: view.passes() as u8,
        }
    }

    /// A determinization: the hand as it would be if the unseen cards lay
    /// as `knowledge` samples them.
    pub(super) fn determinize(&self, knowledge: &Knowledge, rng: &mut BotRng) -> Hand {
        let held = if self.unaccounted == 0 {
            knowledge.sample(rng)
        } else {
            self.without_unaccounted(knowledge, rng).sample(rng)
        };
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

/// Plays `hand` to its end with the fast policy.
pub(super) fn play_out(hand: &mut Hand, rng: &mut BotRng) {
    while let Some(seat) = hand.next_to_act() {
        let action = if rng.random_ratio(1, EXPLORE_ONE_IN) {
            random_legal(hand, seat, rng)
        } else {
            hand.worst_legal(seat).expect("a seat to act can act")
        };
        hand.apply(seat, action)
            .expect("the policy plays legal actions");
    }
}

/// A legal action of `seat` chosen uniformly, without building the list
/// (a list of actions is 2 KiB to fill and copy).
fn random_legal(hand: &Hand, seat: Seat, rng: &mut BotRng) -> Action {
    let mut count = 0;
    hand.for_each_legal(seat, |_| {
        count += 1;
        ControlFlow::Continue(())
    });
    let mut pick = rng.random_range(0..count);
    let mut chosen = None;
    hand.for_each_legal(seat, |a| {
        if pick == 0 {
            chosen = Some(a);
            return ControlFlow::Break(());
        }
        pick -= 1;
        ControlFlow::Continue(())
    });
    chosen.expect("pick is below the number of legal actions")
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
