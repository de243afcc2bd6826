//! A group of cards (a hand, a gift, a deck) as counts per kind.

use std::fmt;
use std::str::FromStr;

use crate::card::suit::{JOKER_BIT, PACK};
use crate::card::{BadCard, CARD_KINDS, Card};

/// Count slots, one per kind of card ([`Card::index`]).
pub(crate) const SLOTS: usize = CARD_KINDS;

/// The order in which a Peon (an Intern) pays tribute, best first: the
/// Dogberts, then by value with the Wedgie before the 6s (C4), Ratbert last;
/// in Dalmuti the ranks and then the Jesters. Each deck holds only its own
/// cards, so one order serves both.
const TRIBUTE_ORDER: [Card; CARD_KINDS] = {
    let order = [16, 0, 1, 2, 3, 4, 5, 14, 6, 7, 8, 9, 10, 11, 12, 13, 15];
    let mut cards = [Card::at(0); CARD_KINDS];
    let mut i = 0;
    while i < CARD_KINDS {
        cards[i] = Card::at(order[i]);
        i += 1;
    }
    cards
};

/// The order of [`Cards::best`] for the pack: the Joker, then 2♠ 2♥ 2♦ 2♣,
/// A♠ … down to 3♣.
const SUITED_BEST: [Card; 53] = {
    let mut cards = [Card::JOKER; 53];
    let mut i = 1;
    while i < 53 {
        // i = 1 is 2♠ (place 13, suit 0), i = 52 is 3♣.
        let k = i - 1;
        let place = 13 - k / 4;
        let suit = k % 4;
        cards[i] = Card::from_suited_bit((4 * (place - 1) + suit) as u32);
        i += 1;
    }
    cards
};

/// A multiset of cards: how many of each kind.
///
/// Order does not matter in Dalmuti (players sort their hands), so a group of
/// cards is seventeen counters and copying it is as cheap as copying two
/// integers. It is written as record tokens separated by spaces in the order
/// of [`Card::index`]: best first, Corporate Shuffle's specials after the
/// numbers, wild cards last: `"3 6 6 J"`, `"0 6 T R D"`.
///
/// ```
/// use dalmuti_core::{Card, Cards, Rank};
/// let hand: Cards = "6 J 6 3".parse().unwrap();
/// assert_eq!(hand.len(), 4);
/// assert_eq!(hand.count(Rank::KNIGHT.into()), 2);
/// assert_eq!(hand.to_string(), "3 6 6 J");
/// assert!(hand.contains(&"6 J".parse().unwrap()));
/// assert_eq!(hand.best(2).to_string(), "3 6"); // Jesters are worst here
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Cards {
    /// Slot `Card::index()` holds that card's count.
    counts: [u8; SLOTS],
    /// The cards of the 52-card pack and the Jokers (President, Daifugō),
    /// one bit each as [`crate::card::suit`] lays them out, little-endian: seven
    /// bytes, so that `Cards` stays 24 bytes with the alignment of a byte
    /// and Dalmuti's hands, copied at every deal, do not grow to 32. `n`
    /// Jokers are the `n` lowest of bits 52 and 53.
    suited: [u8; 7],
}

/// The two Joker bits of [`Cards::pack_mask`] (and the Jokers above it).
const JOKERS: u64 = 0b11 << JOKER_BIT;

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards {
        counts: [0; SLOTS],
        suited: [0; 7],
    };

    /// Cards from raw counts (slot = `Card::index()`).
    pub(crate) const fn from_counts(counts: [u8; SLOTS]) -> Cards {
        Cards {
            counts,
            suited: [0; 7],
        }
    }

    /// Cards of the 52-card pack from their mask (bit `4 × (place − 1) +
    /// suit`, see [`crate::Suit`]) and a number of Jokers (0 to 2).
    ///
    /// ```
    /// use dalmuti_core::Cards;
    /// let cards = Cards::from_pack(0b1_0001, 1);
    /// assert_eq!(cards.to_string(), "3S 4S JK");
    /// assert_eq!(cards.pack_mask(), 0b1_0001);
    /// assert_eq!(cards.jokers(), 1);
    /// ```
    pub const fn from_pack(mask: u64, jokers: u8) -> Cards {
        let joker_bits = match jokers {
            0 => 0,
            1 => 1 << JOKER_BIT,
            _ => JOKERS,
        };
        let mut cards = Cards::EMPTY;
        cards.set_suited((mask & PACK) | joker_bits);
        cards
    }

    /// The suited mask: the pack's 52 bits and the Jokers' two.
    #[inline]
    pub(crate) const fn suited_bits(&self) -> u64 {
        let b = self.suited;
        u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], 0])
    }

    #[inline]
    pub(crate) const fn set_suited(&mut self, bits: u64) {
        let b = bits.to_le_bytes();
        self.suited = [b[0], b[1], b[2], b[3], b[4], b[5], b[6]];
    }

    /// The cards of the 52-card pack held, one bit each (bit `4 × (place −
    /// 1) + suit`); no Joker.
    #[inline]
    pub const fn pack_mask(&self) -> u64 {
        self.suited_bits() & PACK
    }

    /// How many Jokers (President, Daifugō).
    #[inline]
    pub const fn jokers(&self) -> u8 {
        ((self.suited_bits() >> JOKER_BIT) & 0b11).count_ones() as u8
    }

    /// Whether these are cards of the 52-card pack and Jokers only (and
    /// at least one card): a hand of President or Daifugō.
    pub fn is_suited(&self) -> bool {
        self.suited_bits() != 0 && self.counts == [0; SLOTS]
    }

    /// One card.
    pub fn one(card: Card) -> Cards {
        let mut cards = Cards::EMPTY;
        cards.add(card, 1);
        cards
    }

    /// How many of this card.
    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        if card.is_suited() {
            if card.is_joker() {
                self.jokers()
            } else {
                ((self.suited_bits() >> card.suited_bit()) & 1) as u8
            }
        } else {
            self.counts[card.index()]
        }
    }

    /// How many of a card of the other games (not of the pack): the play
    /// path of Dalmuti and Corporate Shuffle, without the branch.
    #[inline]
    pub(crate) fn count_kind(&self, card: Card) -> u8 {
        debug_assert!(!card.is_suited());
        self.counts[card.index()]
    }

    /// How many wild cards (Jesters or Dogberts; a deck has one kind).
    #[inline]
    pub fn wilds(&self) -> u8 {
        self.counts[Card::JESTER.index()] + self.counts[Card::DOGBERT.index()]
    }

    /// A bit mask of the numbered ranks (bit r for rank r, 1..=12; no
    /// special or wild card) held at least `n` times. A flat loop the
    /// compiler unrolls into straight-line compares, without branches.
    #[inline]
    pub(crate) fn ranks_with_at_least(&self, n: u8) -> u16 {
        let mut mask = 0u32;
        for (i, &c) in self.counts.iter().enumerate() {
            mask |= u32::from(c >= n) << i;
        }
        (mask & 0b1_1111_1111_1110) as u16
    }

    /// How many of the card with this index (1..=13); see [`Card::index`].
    #[inline]
    pub(crate) fn count_at(&self, index: usize) -> u8 {
        self.counts[index]
    }

    /// The number of cards.
    #[inline]
    pub fn len(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum::<u32>() + self.suited_bits().count_ones()
    }

    /// Whether there are no cards.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; SLOTS] && self.suited == [0; 7]
    }

    /// Adds `n` copies of `card`.
    ///
    /// # Panics
    /// If a count would pass 255, far beyond any deck; for the pack, if a
    /// card would be held twice or more than two Jokers.
    #[inline]
    pub fn add(&mut self, card: Card, n: u8) {
        if card.is_suited() {
            let bits = self.suited_bits();
            if card.is_joker() {
                let jokers = self.jokers() + n;
                assert!(jokers <= 2, "more than two Jokers");
                self.set_suited((bits & !JOKERS) | Cards::from_pack(0, jokers).suited_bits());
            } else if n > 0 {
                let bit = 1 << card.suited_bit();
                assert!(n == 1 && bits & bit == 0, "a card of the pack held twice");
                self.set_suited(bits | bit);
            }
            return;
        }
        self.counts[card.index()] = self.counts[card.index()]
            .checked_add(n)
            .expect("card count overflow");
    }

    /// Adds one `card`, for a deal: no deck holds 255 of a card, so the
    /// count cannot overflow.
    #[inline]
    pub(crate) fn add_one(&mut self, card: Card) {
        let slot = &mut self.counts[card.index()];
        *slot = slot.wrapping_add(1);
    }

    /// Removes `n` copies of `card`, which the caller has checked are
    /// there: the play path, which checks before it changes anything.
    #[inline]
    pub(crate) fn take(&mut self, card: Card, n: u8) {
        let slot = &mut self.counts[card.index()];
        debug_assert!(*slot >= n);
        *slot = slot.wrapping_sub(n);
    }

    /// Removes `n` copies of `card`; returns false and changes nothing if
    /// there are fewer.
    #[inline]
    pub fn remove(&mut self, card: Card, n: u8) -> bool {
        if card.is_suited() {
            if self.count(card) < n {
                return false;
            }
            let gone = if card.is_joker() {
                Cards::from_pack(0, n)
            } else {
                Cards::from_pack(u64::from(n > 0) << card.suited_bit(), 0)
            };
            return self.remove_all(&gone);
        }
        let slot = &mut self.counts[card.index()];
        if *slot < n {
            return false;
        }
        *slot -= n;
        true
    }

    /// Whether every card of `other` is here (with multiplicity).
    #[inline]
    pub fn contains(&self, other: &Cards) -> bool {
        // Every count compared, without stopping early: one vector compare.
        self.counts
            .iter()
            .zip(&other.counts)
            .fold(true, |all, (a, b)| all & (a >= b))
            & (other.pack_mask() & !self.pack_mask() == 0)
            & (other.jokers() <= self.jokers())
    }

    /// Adds every card of `other`.
    ///
    /// # Panics
    /// If a count would pass 255.
    pub fn add_all(&mut self, other: &Cards) {
        // Overflow checked once for all counts, so the sum is one vector add.
        let mut sum = self.counts;
        let mut overflow = false;
        for (a, b) in sum.iter_mut().zip(&other.counts) {
            let (s, o) = a.overflowing_add(*b);
            *a = s;
            overflow |= o;
        }
        assert!(!overflow, "card count overflow");
        self.counts = sum;
        if other.suited != [0; 7] {
            let (mine, theirs) = (self.pack_mask(), other.pack_mask());
            assert!(mine & theirs == 0, "a card of the pack held twice");
            let jokers = self.jokers() + other.jokers();
            assert!(jokers <= 2, "more than two Jokers");
            self.set_suited(Cards::from_pack(mine | theirs, jokers).suited_bits());
        }
    }

    /// Removes every card of `other`; returns false and changes nothing if
    /// one is missing.
    pub fn remove_all(&mut self, other: &Cards) -> bool {
        if !self.contains(other) {
            return false;
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a = a.wrapping_sub(*b);
        }
        if other.suited != [0; 7] {
            let left = Cards::from_pack(
                self.pack_mask() & !other.pack_mask(),
                self.jokers() - other.jokers(),
            );
            self.suited = left.suited;
        }
        true
    }

    /// The cards of `self` that `other` lacks: what `other` would need to
    /// hold `self`.
    pub fn missing_from(&self, other: &Cards) -> Cards {
        let mut out = Cards::EMPTY;
        for i in 0..CARD_KINDS {
            out.counts[i] = self.counts[i].saturating_sub(other.counts[i]);
        }
        out.set_suited(
            Cards::from_pack(
                self.pack_mask() & !other.pack_mask(),
                self.jokers().saturating_sub(other.jokers()),
            )
            .suited_bits(),
        );
        out
    }

    /// Each kind present with its count, in the order of [`Card::index`]:
    /// the cards of the pack from 3♠ up, then the Jokers.
    pub fn kinds(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        let pack = self.pack_mask();
        let jokers = self.jokers();
        Card::all()
            .map(|card| (card, self.counts[card.index()]))
            .filter(|&(_, n)| n > 0)
            .chain(
                (0..52u32)
                    .filter(move |&b| pack >> b & 1 != 0)
                    .map(|b| (Card::from_suited_bit(b), 1)),
            )
            .chain((jokers > 0).then_some((Card::JOKER, jokers)))
    }

    /// Every card, one item per copy, in the order of [`Card::index`].
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.kinds()
            .flat_map(|(card, n)| std::iter::repeat_n(card, n as usize))
    }

    /// The `n` best cards, or all of them if there are fewer: what a Peon
    /// pays in tax. In Dalmuti the lowest ranks, Jesters counting as the
    /// worst; in Corporate Shuffle the Dogberts first, then by value, the
    /// Wedgie before the 6s and Ratbert last (C4).
    ///
    /// Cards of the pack go as the UECda contest's server takes a poor
    /// player's best cards (`external.c`, `trans_strong_card`): the Jokers,
    /// then from the 2 down, spades, hearts, diamonds, clubs within a rank.
    pub fn best(&self, n: u32) -> Cards {
        let mut out = self.take_in(TRIBUTE_ORDER.iter().copied(), n);
        let left = n - out.len().min(n);
        if left > 0 && self.suited != [0; 7] {
            out.add_all(&self.take_in(SUITED_BEST.iter().copied(), left));
        }
        out
    }

    /// The `n` worst cards: [`Cards::best`]'s order backwards (Jesters or
    /// Ratbert first; the 3♣ first of the pack, Jokers last).
    pub fn worst(&self, n: u32) -> Cards {
        if self.suited != [0; 7] {
            return self.take_in(SUITED_BEST.iter().rev().copied(), n);
        }
        self.take_in(TRIBUTE_ORDER.iter().rev().copied(), n)
    }

    fn take_in(&self, order: impl Iterator<Item = Card>, n: u32) -> Cards {
        let mut out = Cards::EMPTY;
        let mut left = n;
        for card in order {
            if left == 0 {
                break;
            }
            let take = (self.count(card) as u32).min(left);
            if take > 0 {
                out.add(card, take as u8);
            }
            left -= take;
        }
        out
    }
}

/// Which numbered ranks (1 to 12) a group of cards holds at least once,
/// twice, three and four times: four 16-bit masks (bit r for rank r) in one
/// word, kept up to date as cards are played so that finding the worst set
/// that can be played is a shift and a mask instead of a scan of the
/// seventeen counts. Larger sets fall back to the scan.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct RankMasks(u64);

/// The lanes of [`RankMasks`] for "at least 1" up to "at least n": index n,
/// n = 0..=4.
const LANES_UP_TO: [u64; 5] = [0, 0xffff, 0xffff_ffff, 0xffff_ffff_ffff, u64::MAX];

/// Bits 1..=12 of each lane: the numbered ranks.
const RANK_BITS: u64 = 0x1ffe_1ffe_1ffe_1ffe;

impl RankMasks {
    /// The most copies [`RankMasks::at_least`] answers for.
    pub(crate) const LANES: u8 = 4;

    /// The masks of `cards`.
    pub(crate) fn of(cards: &Cards) -> RankMasks {
        // Eight counts at a time: a byte's high bit says whether its count
        // reaches n (no carry crosses bytes: at most 127 + 127), and one
        // multiplication gathers the eight high bits into a byte.
        const HIGH: u64 = 0x8080_8080_8080_8080;
        const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let word =
            |at: usize| u64::from_le_bytes(cards.counts[at..at + 8].try_into().expect("8 counts"));
        let (low, high) = (word(0), word(8));
        let mut masks = 0;
        for n in 1..=RankMasks::LANES {
            let reaches = |w: u64| {
                let seven = (w & LOW) + u64::from(0x80 - n) * 0x0101_0101_0101_0101;
                ((((w | seven) & HIGH) >> 7).wrapping_mul(GATHER) >> 56) as u16
            };
            let lane = reaches(low) | reaches(high) << 8;
            masks |= u64::from(lane & 0b1_1111_1111_1110) << (16 * (n - 1));
        }
        RankMasks(masks)
    }

    /// The ranks held at least `n` times, `n` in 1..=4.
    #[inline]
    pub(crate) fn at_least(self, n: u8) -> u16 {
        debug_assert!((1..=RankMasks::LANES).contains(&n));
        (self.0 >> (16 * u32::from(n - 1))) as u16
    }

    /// `n` copies of `card` are taken from a group that held `had`.
    #[inline]
    pub(crate) fn take(&mut self, card: Card, had: u8, n: u8) {
        // Lanes from `had - n` (0-based: "at least had - n + 1") below
        // `had` lose the card; cards that are not ranks have no bit.
        let lanes = LANES_UP_TO[usize::from(had.min(RankMasks::LANES))]
            & !LANES_UP_TO[usize::from((had - n).min(RankMasks::LANES))];
        self.0 &= !((RANK_BITS & (0x0001_0001_0001_0001 << card.index())) & lanes);
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(card.token())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cards({self})")
    }
}

impl FromStr for Cards {
    type Err = BadCard;

    /// Reads record tokens separated by single spaces; the empty string is
    /// no cards.
    fn from_str(s: &str) -> Result<Cards, BadCard> {
        let mut cards = Cards::EMPTY;
        if s.is_empty() {
            return Ok(cards);
        }
        for token in s.split(' ') {
            let card: Card = token.parse()?;
            let full = match (card.is_suited(), card.is_joker()) {
                (false, _) => u8::MAX,
                (true, true) => 2,
                (true, false) => 1,
            };
            if cards.count(card) == full {
                return Err(BadCard {
                    token: token.to_string(),
                });
            }
            cards.add(card, 1);
        }
        Ok(cards)
    }
}

impl FromIterator<Card> for Cards {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Cards {
        let mut cards = Cards::EMPTY;
        for card in iter {
            cards.add(card, 1);
        }
        cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing_rejects_bad_spacing_and_tokens() {
        assert_eq!("".parse::<Cards>().unwrap(), Cards::EMPTY);
        for bad in [" 6", "6 ", "6  6", "6,6", "x", "6 13"] {
            assert!(bad.parse::<Cards>().is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn interns_pay_dogberts_first_and_ratbert_last() {
        let intern: Cards = "1 5 6 T R D".parse().unwrap();
        assert_eq!(intern.best(2).to_string(), "1 D");
        assert_eq!(intern.best(4).to_string(), "1 5 T D");
        let no_wild: Cards = "6 6 T R".parse().unwrap();
        assert_eq!(no_wild.best(1).to_string(), "T"); // C4: the Wedgie before a plain 6
        assert_eq!(no_wild.worst(1).to_string(), "R");
        let ruler: Cards = "0 1 D".parse().unwrap();
        assert_eq!(ruler.best(2).to_string(), "0 D");
    }

    #[test]
    fn best_and_worst_treat_jesters_as_worst() {
        // Rulebook taxation example: Dana must pass the Archbishop and
        // Baroness out of J 2 4 6 7 7 7 8 8 9 9 11 11 12 12 12.
        let dana: Cards = "J 2 4 6 7 7 7 8 8 9 9 11 11 12 12 12".parse().unwrap();
        assert_eq!(dana.best(2).to_string(), "2 4");
        assert_eq!(dana.worst(2).to_string(), "12 J");
        let jesters: Cards = "J J 12".parse().unwrap();
        assert_eq!(jesters.best(1).to_string(), "12");
    }

    use crate::card::Rank;

    #[test]
    fn rank_masks_agree_with_counting() {
        let hand: Cards = "1 3 3 5 5 5 9 12 12 12 12 J J".parse().unwrap();
        for n in 1..=5u8 {
            let expected = Rank::all()
                .filter(|&r| hand.count(r.into()) >= n)
                .fold(0u16, |m, r| m | 1 << r.number());
            assert_eq!(hand.ranks_with_at_least(n), expected, "n = {n}");
        }
        let mut huge = Cards::EMPTY;
        huge.add(Rank::KNIGHT.into(), 200);
        assert_eq!(huge.ranks_with_at_least(150), 1 << 6);
        assert_eq!(huge.ranks_with_at_least(201), 0);
    }

    #[test]
    fn rank_masks_follow_the_cards_taken() {
        let mut hand: Cards = "1 3 3 5 5 5 9 12 12 12 12 12 J J".parse().unwrap();
        let mut masks = RankMasks::of(&hand);
        let check = |hand: &Cards, masks: RankMasks| {
            assert_eq!(masks, RankMasks::of(hand));
            for n in 1..=RankMasks::LANES {
                assert_eq!(masks.at_least(n), hand.ranks_with_at_least(n), "{hand} {n}");
            }
        };
        check(&hand, masks);
        for (card, n) in [
            ("12", 1),
            ("12", 3),
            ("5", 2),
            ("J", 2),
            ("3", 2),
            ("12", 1),
        ] {
            let card: Card = card.parse().unwrap();
            masks.take(card, hand.count(card), n);
            hand.take(card, n);
            check(&hand, masks);
        }
        let corporate: Cards = "0 6 6 T R D D".parse().unwrap();
        let mut masks = RankMasks::of(&corporate);
        for card in [
            Card::WORLD_RULER,
            Card::RATBERT,
            Card::DOGBERT,
            Card::TWIRLING_WEDGIE,
        ] {
            masks.take(card, corporate.count(card), 1);
        }
        assert_eq!(
            masks,
            RankMasks::of(&corporate),
            "only numbered ranks have bits"
        );
    }

    #[test]
    fn remove_all_is_all_or_nothing() {
        let mut hand: Cards = "5 5 J".parse().unwrap();
        assert!(!hand.remove_all(&"5 5 5".parse().unwrap()));
        assert_eq!(hand.to_string(), "5 5 J");
        assert!(hand.remove_all(&"5 J".parse().unwrap()));
        assert_eq!(hand.to_string(), "5");
    }
}
