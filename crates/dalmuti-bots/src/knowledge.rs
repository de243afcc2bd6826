//! What a seat can infer about the cards it cannot see, and deals of those
//! cards consistent with it (determinizations, for search).
//!
//! Both games are counted the same way: the deck is the view's
//! ([`View::deck`]), and in Corporate Shuffle a Ratbert taken back by a
//! trick's winner ([`Event::RatbertTaken`]) is in a hand again, known to
//! everyone to be in that one.

use arrayvec::ArrayVec;
use dalmuti_core::{
    CARD_KINDS, Card, Cards, Event, MAX_DECK, MAX_PLAYERS, PerSeat, Seat, Seats, Seen, View,
};
use rand::Rng;
use rand::seq::SliceRandom;

use crate::BotRng;

/// Where a card stands in the order in which a Peon (an Intern) pays
/// tribute, best first: the engine's [`Cards::best`] order, Dogberts, the
/// World Ruler, 1 to 5, the Wedgie, 6 to 12, the Jester, Ratbert. Indexed by
/// [`Card::index`]; each deck holds only its own cards, so one order
/// serves both (a test checks it against `Cards::best`).
const TRIBUTE_PLACE: [u8; 17] = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 7, 16, 0];

/// A card's place in the tribute order (0 best): a Peon who paid tribute
/// keeps no card placed before the worst of its tribute.
pub fn tribute_place(card: Card) -> u8 {
    TRIBUTE_PLACE[card.index()]
}

/// Everything a seat knows about where the cards are, from its view alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// The seat that knows.
    pub me: Seat,
    /// How many players.
    pub players: usize,
    /// The viewer's own cards.
    pub mine: Cards,
    /// Every card played this hand and out of play: Ratbert, when a
    /// trick's winner took it back, is in a hand again and not counted.
    pub played: Cards,
    /// Cards played by each seat this hand (Ratbert included even if it
    /// came back).
    pub played_by: PerSeat<Cards>,
    /// Cards held by the other seats, together: the deck less the viewer's
    /// cards and every card out of play.
    pub unseen: Cards,
    /// How many cards each seat holds.
    pub counts: PerSeat<u32>,
    /// Cards the viewer knows a seat still holds: what it gave that seat in
    /// tax or exchange, and Ratbert when that seat took it back, as long as
    /// the seat has not played them since (as far as can be told: a played
    /// copy of the same card counts against it).
    pub known: PerSeat<Cards>,
    /// A place in the tribute order ([`tribute_place`]) before which a seat
    /// holds no card other than its `known` ones: a Peon's tribute was its
    /// best cards, so the rest of its dealt hand is no better than the worst
    /// of them. 0 (no constraint) for other seats.
    pub floor: PerSeat<u8>,
}

impl Knowledge {
    /// What the viewing seat of `view` knows (a spectator view is treated
    /// as seat 0 knowing no cards of its own).
    pub fn from_view(view: &View<'_>) -> Knowledge {
        let n = view.players();
        let me = view.seat().unwrap_or(Seat::GREATER_DALMUTI);
        let mine = view.cards().unwrap_or_default();
        let mut known = PerSeat::<Cards>::default();
        let mut floor = PerSeat::<u8>::default();
        // The exchanges come before any card is played.
        if let Some(tax) = view.my_tax() {
            if tax.dalmuti == me {
                known[tax.peon].add_all(&tax.gift);
                // The Peon gave its best cards: nothing it kept was better.
                let worst = tax.tribute.iter().map(tribute_place).max().unwrap_or(0);
                floor[tax.peon] = worst;
            } else {
                known[tax.dalmuti].add_all(&tax.tribute);
            }
        }
        if let Some(trade) = view.my_trade() {
            let (other, gave) = if trade.offerer == me {
                (trade.partner, trade.offered)
            } else {
                (trade.offerer, trade.returned)
            };
            known[other].add(gave, 1);
        }
        let mut played = Cards::EMPTY;
        let mut played_by = PerSeat::<Cards>::default();
        for seen in view.log() {
            match seen {
                Seen::Event(Event::Played { seat, set }) => {
                    let cards = set.cards();
                    played.add_all(&cards);
                    played_by[seat].add_all(&cards);
                    // A played copy of a known card is taken to be it.
                    known[seat] = known[seat].missing_from(&cards);
                }
                Seen::Event(Event::RatbertTaken { seat }) => {
                    played.remove(Card::RATBERT, 1);
                    known[seat].add(Card::RATBERT, 1);
                }
                _ => {}
            }
        }
        let mut unseen = view.deck().cards();
        unseen.remove_all(&mine);
        unseen.remove_all(&played);
        let mut counts = PerSeat::<u32>::default();
        for seat in Seat::all(n) {
            counts[seat] = view.card_count(seat);
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
        tribute_place(card) >= self.floor[seat]
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
        // Fixed-size lists on the stack, and seats as bit masks: a search
        // samples a deal every iteration.
        let n = self.players;
        let mut hands = PerSeat::<Cards>::default();
        let mut room = PerSeat::<u32>::default();
        let mut pool = self.unseen;
        hands[self.me] = self.mine;
        let others = Seats::first(n).without(Seats::only(self.me));
        // The others with room for another card, bit i for seat i.
        let mut with_room = 0u16;
        for seat in others.iter() {
            hands[seat] = self.known[seat];
            pool.remove_all(&self.known[seat]);
            room[seat] = self.counts[seat] - self.known[seat].len();
            with_room |= u16::from(room[seat] > 0) << seat.index();
        }
        let mut cards: ArrayVec<Card, MAX_DECK> = pool.iter().collect();
        cards.shuffle(rng);
        let floors = use_floors && others.iter().any(|s| self.floor[s] > 0);
        let takers = self.takers(others, floors);
        if floors {
            // Most constrained first: cards fewer seats may hold.
            cards = most_constrained_first(&cards, &takers);
        }
        for &card in &cards {
            let may_take = takers[card.index()] & with_room;
            // Weighted by room, so every consistent deal stays possible.
            let total: u32 = seats_of(may_take).map(|s| room[s]).sum();
            if total == 0 {
                return None;
            }
            let mut pick = rng.random_range(0..total);
            let seat = seats_of(may_take)
                .find(|&s| {
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
            if room[seat] == 0 {
                with_room &= !(1 << seat.index());
            }
        }
        Some(hands)
    }

    /// For each kind of card, the seats of `others` that may be dealt it
    /// (bit i for seat i): all of them unless `floors` are kept.
    fn takers(&self, others: Seats, floors: bool) -> [u16; CARD_KINDS] {
        let mut takers = [0u16; CARD_KINDS];
        for card in Card::all() {
            for seat in others.iter() {
                let allowed = !floors || self.allows(seat, card);
                takers[card.index()] |= u16::from(allowed) << seat.index();
            }
        }
        takers
    }
}

/// The seats of a bit mask (bit i for seat i), lowest first.
fn seats_of(mut mask: u16) -> impl Iterator<Item = Seat> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let seat = Seat::new(mask.trailing_zeros() as usize);
            mask &= mask - 1;
            seat
        })
    })
}

/// `cards` ordered by how many seats may take each ([`Knowledge::takers`]),
/// fewest first, keeping the order of equals: a stable sort by that
/// number, done as a counting sort over numbers found once per kind of
/// card (a comparison sort recounted them at every comparison, as much work
/// as the rest of a deal).
fn most_constrained_first(cards: &[Card], takers: &[u16; CARD_KINDS]) -> ArrayVec<Card, MAX_DECK> {
    let key = takers.map(|t| t.count_ones() as usize);
    // starts[k]: where the cards that k seats may take begin.
    let mut starts = [0usize; MAX_PLAYERS + 1];
    for card in cards {
        starts[key[card.index()]] += 1;
    }
    let mut at = 0;
    for start in &mut starts {
        let count = *start;
        *start = at;
        at += count;
    }
    let mut sorted = [Card::WORLD_RULER; MAX_DECK];
    for &card in cards {
        let slot = &mut starts[key[card.index()]];
        sorted[*slot] = card;
        *slot += 1;
    }
    sorted[..cards.len()].iter().copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot_rng;
    use dalmuti_core::{DealRng, Deck, Hand, Rules, Seed, Stage, Variant, Viewer};

    fn rules(variant: Variant) -> Rules {
        Rules {
            variant,
            ..Rules::default()
        }
    }

    /// A hand of five dealt from `seed`, taxed, with `plays` turns taken by
    /// the worst legal action.
    fn taxed_hand(variant: Variant, seed: u64, plays: usize) -> Hand {
        let mut hand = Hand::deal(
            rules(variant),
            5,
            false,
            &mut DealRng::new(Seed::from(seed)),
        );
        while hand.stage() != Stage::Play {
            let s = hand.next_to_act().unwrap();
            hand.apply(s, hand.worst_legal(s).unwrap()).unwrap();
        }
        for _ in 0..plays {
            let Some(s) = hand.next_to_act() else { break };
            hand.apply(s, hand.worst_legal(s).unwrap()).unwrap();
        }
        hand
    }

    /// What a seat knows must be true of the real hand: the unseen cards
    /// are exactly the others' cards, known cards are held, and nobody
    /// holds an unknown card its floor rules out.
    fn assert_true_of(k: &Knowledge, hand: &Hand, context: &str) {
        let mut others = Cards::EMPTY;
        for seat in Seat::all(hand.players()).filter(|&s| s != k.me) {
            let held = hand.held(seat);
            others.add_all(&held);
            assert!(held.contains(&k.known[seat]), "{context}: {seat}");
            for (card, _) in held.kinds() {
                let known = k.known[seat].count(card) > 0;
                assert!(known || k.allows(seat, card), "{context}: {seat} {card}");
            }
        }
        assert_eq!(k.unseen, others, "{context}");
    }

    #[test]
    fn samples_keep_counts_own_cards_and_known_gifts() {
        // Knowledge is the Dalmuti decks' (the pack's games sample with
        // `View::sample`).
        for variant in Variant::ALL.into_iter().filter(|v| !v.is_suited()) {
            for seed in 0..20 {
                let hand = taxed_hand(variant, seed, 12);
                let view = View::new(&hand, Viewer::Seat(Seat::GREATER_DALMUTI));
                let k = Knowledge::from_view(&view);
                assert_true_of(&k, &hand, &format!("{variant} {seed}"));
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
                for (card, _) in sample[peon].kinds() {
                    let known = k.known[peon].count(card) > 0;
                    assert!(known || k.allows(peon, card), "{variant} {seed}");
                }
            }
        }
    }

    #[test]
    fn ratbert_taken_back_is_counted_in_the_hand_that_took_it() {
        // Greedy play leads Ratbert at once and tops it: its trick's
        // winner takes it back. Every seat's knowledge stays true of the
        // real hand at every turn, and a sample deals Ratbert to its holder.
        let mut taken = 0;
        for seed in 0..30 {
            for plays in 0..200 {
                let hand = taxed_hand(Variant::CorporateShuffle, seed, plays);
                if hand.stage() == Stage::Over {
                    break;
                }
                for seat in hand.holding().iter() {
                    let view = View::new(&hand, Viewer::Seat(seat));
                    let k = Knowledge::from_view(&view);
                    assert_true_of(&k, &hand, &format!("seed {seed}, {plays} plays, {seat}"));
                    let sample = k.sample(&mut bot_rng(seed));
                    for holder in Seat::all(5).filter(|&s| k.known[s].count(Card::RATBERT) > 0) {
                        taken += 1;
                        assert_eq!(sample[holder].count(Card::RATBERT), 1);
                    }
                }
            }
        }
        assert!(taken > 100, "Ratbert came back only {taken} times");
    }

    #[test]
    fn the_tribute_order_is_the_engines() {
        for deck in [Deck::STANDARD, Deck::CORPORATE_SHUFFLE] {
            let kinds: Vec<Card> = deck.cards().kinds().map(|(c, _)| c).collect();
            for &a in &kinds {
                for &b in &kinds {
                    let mut pair = Cards::one(a);
                    pair.add(b, 1);
                    if a != b {
                        let better = if tribute_place(a) < tribute_place(b) {
                            a
                        } else {
                            b
                        };
                        assert_eq!(pair.best(1), Cards::one(better), "{a} {b}");
                    }
                }
            }
        }
    }
}
