//! The deck as data, the shuffle and the deal.

use arrayvec::ArrayVec;

use crate::card::{CARD_KINDS, Card};
use crate::cards::Cards;
use crate::rng::{DealRng, bounded};
use crate::rules::Rules;
use crate::seat::{MAX_PLAYERS, PerSeat, Seat};
use crate::variant::Variant;

/// The most cards a deck may hold.
pub const MAX_DECK: usize = 80;

/// A deck's composition: how many copies of each card. Decks are data, not
/// code, so another deck (Corporate Shuffle's, say) is another value.
///
/// ```
/// use dalmuti_core::{Card, Deck, Rank, Rules};
/// let deck = Deck::STANDARD;
/// assert_eq!(deck.len(), 80);
/// assert_eq!(deck.cards().count(Rank::PEASANT.into()), 12);
/// assert_eq!(deck.cards().count(Card::JESTER), 2);
/// let stripped = Rules { stripped_deck: true, ..Rules::default() };
/// assert_eq!(Deck::for_table(&stripped, 4).len(), 57);
/// assert_eq!(Deck::for_table(&stripped, 5).len(), 68);
/// assert_eq!(Deck::for_table(&stripped, 6).len(), 80);
/// let cs = Rules { variant: dalmuti_core::Variant::CorporateShuffle, ..Rules::default() };
/// assert_eq!(Deck::for_table(&cs, 5).len(), 60);
/// assert_eq!(Deck::CORPORATE_SHUFFLE.cards().to_string().split(' ').filter(|t| *t == "10").count(), 10);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deck {
    cards: Cards,
    /// The cards laid out best first, Jesters last: the order before a
    /// shuffle, which is part of what a seed means. Only `len` are used.
    layout: [Card; MAX_DECK],
    len: u8,
}

const fn standard(worst_rank_kept: usize) -> Deck {
    // Rank n has n copies; two Jesters.
    let mut copies = [0u8; CARD_KINDS];
    let mut r = 1;
    while r <= worst_rank_kept {
        copies[r] = r as u8;
        r += 1;
    }
    copies[Card::JESTER.index()] = 2;
    laid_out(copies)
}

const fn corporate_shuffle() -> Deck {
    // Values 1 to 10, n copies of n; the World Ruler, the Twirling Wedgie
    // and Ratbert once each; two Dogberts.
    let mut copies = [0u8; CARD_KINDS];
    let mut r = 1;
    while r <= 10 {
        copies[r] = r as u8;
        r += 1;
    }
    copies[Card::WORLD_RULER.index()] = 1;
    copies[Card::TWIRLING_WEDGIE.index()] = 1;
    copies[Card::RATBERT.index()] = 1;
    copies[Card::DOGBERT.index()] = 2;
    laid_out(copies)
}

/// The 52-card pack and `jokers` Jokers, laid out 3♠ … 2♣ then the Jokers.
const fn pack(jokers: u8) -> Deck {
    let mut layout = [Card::JESTER; MAX_DECK];
    let mut i = 0;
    while i < 52 {
        layout[i] = Card::from_suited_bit(i as u32);
        i += 1;
    }
    let mut j = 0;
    while j < jokers as usize {
        layout[52 + j] = Card::JOKER;
        j += 1;
    }
    Deck {
        cards: Cards::from_pack(crate::card::suit::PACK, jokers),
        layout,
        len: 52 + jokers,
    }
}

/// A deck of these counts, laid out in the order of [`Card::index`].
const fn laid_out(copies: [u8; CARD_KINDS]) -> Deck {
    let mut counts = [0u8; crate::cards::SLOTS];
    let mut layout = [Card::JESTER; MAX_DECK];
    let mut len = 0;
    let mut r = 0;
    while r < CARD_KINDS {
        let copies = copies[r] as usize;
        counts[r] = copies as u8;
        let mut k = 0;
        while k < copies {
            layout[len] = Card::at(r);
            len += 1;
            k += 1;
        }
        r += 1;
    }
    Deck {
        cards: Cards::from_counts(counts),
        layout,
        len: len as u8,
    }
}

impl Deck {
    /// The Great Dalmuti's 80 cards: one Dalmuti, two Archbishops … twelve
    /// Peasants, and two Jesters.
    pub const STANDARD: Deck = standard(12);

    /// The stripped deck for four players: no Stonecutters or Peasants.
    pub const STRIPPED_FOR_FOUR: Deck = standard(10);

    /// The stripped deck for five players: no Peasants.
    pub const STRIPPED_FOR_FIVE: Deck = standard(11);

    /// Corporate Shuffle's 60 cards: the World Ruler, one CEO, two Vice
    /// Presidents … ten Engineers, the Twirling Wedgie, Ratbert and two
    /// Dogberts. Never stripped (C1).
    pub const CORPORATE_SHUFFLE: Deck = corporate_shuffle();

    /// The 52-card pack of President and Daifugō, with no Joker.
    pub const PACK: Deck = pack(0);
    /// The pack and one Joker: the UECda contest's 53 cards.
    pub const PACK_AND_JOKER: Deck = pack(1);
    /// The pack and two Jokers.
    pub const PACK_AND_TWO_JOKERS: Deck = pack(2);

    /// The deck a hand of `players` players uses under `rules`.
    pub fn for_table(rules: &Rules, players: usize) -> Deck {
        match (rules.variant, rules.stripped_deck, players) {
            (Variant::Daifugo | Variant::President, _, _) => match rules.climbing().jokers {
                0 => Deck::PACK,
                1 => Deck::PACK_AND_JOKER,
                _ => Deck::PACK_AND_TWO_JOKERS,
            },
            (Variant::CorporateShuffle, _, _) => Deck::CORPORATE_SHUFFLE,
            (Variant::Dalmuti, true, 4) => Deck::STRIPPED_FOR_FOUR,
            (Variant::Dalmuti, true, 5) => Deck::STRIPPED_FOR_FIVE,
            _ => Deck::STANDARD,
        }
    }

    /// The game this deck belongs to.
    pub fn variant(&self) -> Variant {
        if self.cards.suited_bits() != 0 {
            Variant::Daifugo
        } else if self.cards.count(Card::DOGBERT) > 0 {
            Variant::CorporateShuffle
        } else {
            Variant::Dalmuti
        }
    }

    /// Every card of the deck.
    pub fn cards(&self) -> Cards {
        self.cards
    }

    /// How many cards.
    pub fn len(&self) -> usize {
        self.cards.len() as usize
    }

    /// Whether the deck has no cards (never true of a real deck).
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The cards in a fresh order drawn from `rng`: the layout (best first,
    /// Jesters last) shuffled by [`DealRng::shuffle`].
    pub fn shuffled(&self, rng: &mut DealRng) -> ArrayVec<Card, MAX_DECK> {
        let mut cards = self.layout;
        rng.shuffle(&mut cards[..self.len as usize]);
        cards.into_iter().take(self.len as usize).collect()
    }

    /// Shuffles and deals to `players` seats, one card at a time clockwise
    /// starting with the Greater Dalmuti.
    pub fn deal(&self, players: usize, rng: &mut DealRng) -> PerSeat<Cards> {
        if self.cards.suited_bits() != 0 {
            return self.deal_pack(players, rng);
        }
        let draws = (self.len as usize).saturating_sub(1);
        let mut block = [0; 4 * MAX_DECK];
        let block = &mut block[..4 * draws];
        rng.fill_words(block);
        if let Some(hands) = self.deal_unchecked_draws(players, block) {
            return hands;
        }
        // A number fell where the bounded draw must check for bias (the
        // low half of the product below n: about once in 1.3 million deals
        // of 80 cards): deal again from the same numbers with the exact
        // draw, which takes more from the stream if it rejects some.
        let mut words = block.chunks_exact(4).map(word);
        self.deal_from(players, &mut || {
            words.next().unwrap_or_else(|| rng.next_u32())
        })
    }

    /// [`Deck::deal_from`] over a block of numbers, without the bounded
    /// draw's rejection step: `None` if any number needed it (the result
    /// might then differ), so that the loop has no branch on it.
    #[inline]
    fn deal_unchecked_draws(&self, players: usize, block: &[u8]) -> Option<PerSeat<Cards>> {
        let mut hands = [Cards::EMPTY; MAX_PLAYERS];
        let players = players.clamp(1, MAX_PLAYERS);
        let len = self.len as usize;
        if len == 0 {
            return Some(PerSeat::from_array(hands));
        }
        let mut cards = self.layout;
        let mut seat = (len - 1) % players;
        let mut biased_zone = false;
        for (i, x) in (1..len).rev().zip(block.chunks_exact(4).map(word)) {
            let n = i as u32 + 1;
            let m = u64::from(x) * u64::from(n);
            biased_zone |= (m as u32) < n;
            let j = (m >> 32) as usize;
            let card = cards[j];
            cards[j] = cards[i];
            hands[seat].add_one(card);
            seat = if seat == 0 { players - 1 } else { seat - 1 };
        }
        hands[0].add_one(cards[0]);
        (!biased_zone).then_some(PerSeat::from_array(hands))
    }

    /// [`DealRng::shuffle`] then [`deal_in_order`] in one pass, drawing
    /// from `next`: Fisher–Yates fixes the last position first and never
    /// touches it again, so each card is dealt as soon as its position is
    /// fixed, and the swap need only write the position still in play.
    fn deal_from(&self, players: usize, next: &mut impl FnMut() -> u32) -> PerSeat<Cards> {
        let mut hands = [Cards::EMPTY; MAX_PLAYERS];
        let players = players.clamp(1, MAX_PLAYERS);
        let len = self.len as usize;
        if len == 0 {
            return PerSeat::from_array(hands);
        }
        let mut cards = self.layout;
        let mut seat = (len - 1) % players;
        for i in (1..len).rev() {
            let j = bounded(i as u32 + 1, next) as usize;
            let card = cards[j];
            cards[j] = cards[i];
            hands[seat].add_one(card);
            seat = if seat == 0 { players - 1 } else { seat - 1 };
        }
        hands[0].add_one(cards[0]);
        PerSeat::from_array(hands)
    }

    /// The deal of a pack (President, Daifugō): the same shuffle, then card
    /// `i` of the shuffled pack to seat `i mod players`, as
    /// [`deal_in_order`] deals.
    fn deal_pack(&self, players: usize, rng: &mut DealRng) -> PerSeat<Cards> {
        let cards = self.shuffled(rng);
        deal_in_order(&cards, players)
    }

    /// How many cards seat `seat` is dealt at a table of `players`: the
    /// first `len % players` seats get one extra.
    pub fn share(&self, seat: Seat, players: usize) -> u32 {
        let n = self.len();
        (n / players + usize::from(seat.index() < n % players)) as u32
    }
}

/// A little-endian 32-bit number from four bytes.
#[inline]
fn word(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes.try_into().expect("four bytes"))
}

/// Deals `cards` in order, one at a time clockwise from seat 0.
pub fn deal_in_order(cards: &[Card], players: usize) -> PerSeat<Cards> {
    let mut hands = [Cards::EMPTY; MAX_PLAYERS];
    let hands_in_play = &mut hands[..players.clamp(1, MAX_PLAYERS)];
    let mut seat = 0;
    for &card in cards {
        hands_in_play[seat].add(card, 1);
        seat += 1;
        if seat == hands_in_play.len() {
            seat = 0;
        }
    }
    PerSeat::from_array(hands)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Seed;

    #[test]
    fn deal_sizes_favour_the_first_seats() {
        let deck = Deck::STANDARD;
        let hands = deck.deal(6, &mut DealRng::new(Seed::from(3)));
        let sizes: Vec<u32> = hands.as_slice(6).iter().map(Cards::len).collect();
        assert_eq!(sizes, [14, 14, 13, 13, 13, 13]);
        for seat in Seat::all(6) {
            assert_eq!(hands[seat].len(), deck.share(seat, 6));
        }
        let mut all = Cards::EMPTY;
        for h in hands.as_slice(6) {
            all.add_all(h);
        }
        assert_eq!(all, deck.cards());
    }

    #[test]
    fn one_pass_deal_is_shuffle_then_deal() {
        // Over streams with many zeros, which the bounded draw must reject
        // for most sizes (2^32 mod n > 0), and over real seeds.
        let stream = |seed: u32| {
            let mut x = seed;
            move || {
                x = x.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
                if x % 3 == 0 { 0 } else { x }
            }
        };
        for deck in [
            Deck::STANDARD,
            Deck::STRIPPED_FOR_FOUR,
            Deck::CORPORATE_SHUFFLE,
        ] {
            for players in [3, 4, 5, 7, 8, 16] {
                for seed in 0..20 {
                    let mut cards = deck.layout;
                    let cards = &mut cards[..deck.len as usize];
                    crate::rng::shuffle_with(cards, &mut stream(seed));
                    let fused = deck.deal_from(players, &mut stream(seed));
                    assert_eq!(fused, deal_in_order(cards, players), "{players} {seed}");

                    let mut a = DealRng::new(Seed::from(u64::from(seed)));
                    let mut b = a.clone();
                    let mut cards = deck.layout;
                    let cards = &mut cards[..deck.len as usize];
                    b.shuffle(cards);
                    assert_eq!(deck.deal(players, &mut a), deal_in_order(cards, players));
                    assert_eq!(
                        a.below(1 << 30),
                        b.below(1 << 30),
                        "the stream moved on alike"
                    );
                }
            }
        }
    }

    #[test]
    fn unchecked_draws_refuse_the_biased_zone() {
        let deck = Deck::STANDARD;
        let mut block = [0x5a; 4 * 79];
        let words = |b: &[u8]| b.chunks_exact(4).map(word).collect::<Vec<_>>();
        let from = |b: &[u8]| {
            let mut w = words(b).into_iter();
            deck.deal_from(5, &mut || w.next().unwrap())
        };
        assert_eq!(deck.deal_unchecked_draws(5, &block), Some(from(&block)));
        // Zero times n leaves 0 below n: the exact draw must decide.
        block[40..44].fill(0);
        assert_eq!(deck.deal_unchecked_draws(5, &block), None);
    }

    /// A seed means the same deal forever: these lines pin seed → deal. If
    /// this test fails, every saved seed in the world now deals differently.
    #[test]
    fn golden_deals() {
        let deal = |seed: u64, players: usize| {
            let hands = Deck::STANDARD.deal(players, &mut DealRng::new(Seed::from(seed)));
            hands
                .as_slice(players)
                .iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
        };
        let golden = include_str!("../tests/data/golden-deals.txt");
        let mut checked = 0;
        for block in golden.split("\n\n").filter(|b| !b.trim().is_empty()) {
            let mut lines = block.lines();
            let header = lines.next().unwrap();
            let (seed, players) = header
                .strip_prefix("seed ")
                .and_then(|h| h.split_once(" players "))
                .expect("header: seed S players N");
            let expected: Vec<String> = lines.map(str::to_string).collect();
            assert_eq!(
                deal(seed.parse().unwrap(), players.parse().unwrap()),
                expected,
                "{header}"
            );
            checked += 1;
        }
        assert!(checked >= 3);
    }
}
