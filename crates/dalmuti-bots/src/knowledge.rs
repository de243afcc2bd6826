//! What a seat can infer about the cards it cannot see, and deals of those
//! cards consistent with it (determinizations, for search).

use dalmuti_core::{Card, Cards, PerSeat, Seat, View};
use rand::Rng;
use rand::seq::SliceRandom;

use crate::BotRng;

/// Everything a seat knows about where the cards are, from its view alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// The seat that knows.
    pub me: Seat,
    /// How many players.
    pub players: usize,
    /// The viewer's own cards.
    pub mine: Cards,
    /// Every card played this hand so far.
    pub played: Cards,
    /// Cards played by each seat this hand.
    pub played_by: PerSeat<Cards>,
    /// Cards held by the other seats, together: the deck less the viewer's
    /// cards and every card played.
    pub unseen: Cards,
    /// How many cards each seat holds.
    pub counts: PerSeat<u32>,
    /// Cards the viewer knows a seat still holds: what it gave that seat in
    /// tax or exchange and the seat has not played since (as far as can be
    /// told: a played copy of the same card counts against it).
    pub known: PerSeat<Cards>,
    /// A card index (1..=13, see [`Card::index`]) below which a seat holds
    /// no card other than its `known` ones: a Peon's tribute was its best
    /// cards, so the rest of its dealt hand is no better than the worst of
    /// them.
    pub floor: PerSeat<u8>,
}

impl Knowledge {
    /// What the viewing seat of `view` knows (a spectator view is treated
    /// as seat 0 knowing no cards of its own).
    pub fn from_view(view: &View<'_>) -> Knowledge {
        let n = view.players();
        let me = view.seat().unwrap_or(Seat::GREATER_DALMUTI);
        let mine = view.cards().unwrap_or_default();
        let mut played = Cards::EMPTY;
        let mut played_by = PerSeat::<Cards>::default();
        for (seat, set) in view.plays() {
            played.add_all(&set.cards());
            played_by[seat].add_all(&set.cards());
        }
        let mut unseen = view.deck().cards();
        unseen.remove_all(&mine);
        unseen.remove_all(&played);
        let mut counts = PerSeat::<u32>::default();
        for seat in Seat::all(n) {
            counts[seat] = view.card_count(seat);
        }
        let mut known = PerSeat::<Cards>::default();
        let mut floor = PerSeat::<u8>::default();
        let still_held = |seat: Seat, gave: Cards, known: &mut PerSeat<Cards>| {
            for (card, k) in gave.kinds() {
                let left = k.saturating_sub(played_by[seat].count(card));
                known[seat].add(card, left);
            }
        };
        if let Some(tax) = view.my_tax() {
            if tax.dalmuti == me {
                still_held(tax.peon, tax.gift, &mut known);
                // The Peon gave its best cards: nothing it kept was better.
                let worst = tax.tribute.iter().last().map_or(0, |c| c.index() as u8);
                floor[tax.peon] = worst;
            } else {
                still_held(tax.dalmuti, tax.tribute, &mut known);
            }
        }
        if let Some(trade) = view.my_trade() {
            let (other, gave) = if trade.offerer == me {
                (trade.partner, trade.offered)
            } else {
                (trade.offerer, trade.returned)
            };
            still_held(other, Cards::one(gave), &mut known);
        }
        // Known cards must fit in the unseen pool and the seat's hand; if a
        // played copy made the guess wrong, drop it rather than contradict.
        for seat in Seat::all(n) {
            if !unseen.contains(&known[seat]) || known[seat].len() > counts[seat] {
                known[seat] = Cards::EMPTY;
            }
        }
        Knowledge {
            me,
            players: n,
            mine,
            played,
            played_by,
            unseen,
            counts,
            known,
            floor,
        }
    }

    /// Whether `seat` may hold an unknown `card` under what is known.
    fn allows(&self, seat: Seat, card: Card) -> bool {
        card.is_jester() || card.index() as u8 >= self.floor[seat]
    }

    /// Deals the unseen cards to the other seats at random, each seat
    /// getting exactly its card count and every known constraint kept; the
    /// viewer keeps its own cards. Returns every seat's holding.
    ///
    /// Cards that fewer seats may take are placed first; if a placement
    /// still runs out of room (rare), it starts over, and after a few tries
    /// it drops the floors rather than fail.
    pub fn sample(&self, rng: &mut BotRng) -> PerSeat<Cards> {
        for attempt in 0..16 {
            if let Some(hands) = self.try_sample(rng, attempt < 15) {
                return hands;
            }
        }
        unreachable!("a deal without floors always fits")
    }

    fn try_sample(&self, rng: &mut BotRng, use_floors: bool) -> Option<PerSeat<Cards>> {
        let n = self.players;
        let mut hands = PerSeat::<Cards>::default();
        let mut room = PerSeat::<u32>::default();
        let mut pool = self.unseen;
        hands[self.me] = self.mine;
        let others: Vec<Seat> = Seat::all(n).filter(|&s| s != self.me).collect();
        for &seat in &others {
            hands[seat] = self.known[seat];
            pool.remove_all(&self.known[seat]);
            room[seat] = self.counts[seat] - self.known[seat].len();
        }
        let mut cards: Vec<Card> = pool.iter().collect();
        cards.shuffle(rng);
        if use_floors {
            // Most constrained first: cards fewer seats may hold.
            cards.sort_by_key(|&c| others.iter().filter(|&&s| self.allows(s, c)).count());
        }
        let mut choices: Vec<Seat> = Vec::with_capacity(others.len());
        for card in cards {
            choices.clear();
            choices.extend(
                others
                    .iter()
                    .copied()
                    .filter(|&s| room[s] > 0 && (!use_floors || self.allows(s, card))),
            );
            // Weighted by room, so every consistent deal stays possible.
            let total: u32 = choices.iter().map(|&s| room[s]).sum();
            if total == 0 {
                return None;
            }
            let mut pick = rng.random_range(0..total);
            let seat = *choices
                .iter()
                .find(|&&s| {
                    if pick < room[s] {
                        true
                    } else {
                        pick -= room[s];
                        false
                    }
                })
                .expect("pick < total");
            hands[seat].add(card, 1);
            room[seat] -= 1;
        }
        Some(hands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot_rng;
    use dalmuti_core::{DealRng, Hand, Rules, Seed, Stage, Viewer};

    fn taxed_hand(seed: u64) -> Hand {
        let mut hand = Hand::deal(
            Rules::default(),
            5,
            false,
            &mut DealRng::new(Seed::from(seed)),
        );
        while hand.stage() != Stage::Play {
            let s = hand.next_to_act().unwrap();
            hand.apply(s, hand.worst_legal(s).unwrap()).unwrap();
        }
        // A few plays.
        for _ in 0..12 {
            let s = hand.next_to_act().unwrap();
            hand.apply(s, hand.worst_legal(s).unwrap()).unwrap();
        }
        hand
    }

    #[test]
    fn samples_keep_counts_own_cards_and_known_gifts() {
        for seed in 0..20 {
            let hand = taxed_hand(seed);
            let view = View::new(&hand, Viewer::Seat(Seat::GREATER_DALMUTI));
            let k = Knowledge::from_view(&view);
            let mut total = k.played;
            let mut rng = bot_rng(seed);
            let sample = k.sample(&mut rng);
            for seat in Seat::all(5) {
                assert_eq!(sample[seat].len(), hand.held(seat).len());
                total.add_all(&sample[seat]);
                assert!(sample[seat].contains(&k.known[seat]));
            }
            assert_eq!(total, hand.deck().cards());
            assert_eq!(
                sample[Seat::GREATER_DALMUTI],
                hand.held(Seat::GREATER_DALMUTI)
            );
            // The Greater Peon kept nothing better than its tribute.
            let peon = Seat::new(4);
            let floor = k.floor[peon];
            for (card, _) in sample[peon].kinds() {
                let known = k.known[peon].count(card) > 0;
                assert!(
                    known || card.is_jester() || card.index() as u8 >= floor,
                    "{seed}"
                );
            }
            // The truth is one of the deals it could sample.
            for (card, _) in hand.held(peon).kinds() {
                let known = k.known[peon].count(card) > 0;
                assert!(
                    known || card.is_jester() || card.index() as u8 >= floor,
                    "{seed}"
                );
            }
        }
    }
}
