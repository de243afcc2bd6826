//! A group of cards (a hand, a gift, a deck) as counts per kind.

use std::fmt;
use std::str::FromStr;

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
}

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards { counts: [0; SLOTS] };

    /// Cards from raw counts (slot = `Card::index()`).
    pub(crate) const fn from_counts(counts: [u8; SLOTS]) -> Cards {
        Cards { counts }
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
        self.counts.iter().map(|&c| c as u32).sum()
    }

    /// Whether there are no cards.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; SLOTS]
    }

    /// Adds `n` copies of `card`.
    ///
    /// # Panics
    /// If a count would pass 255, far beyond any deck.
    #[inline]
    pub fn add(&mut self, card: Card, n: u8) {
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
        true
    }

    /// The cards of `self` that `other` lacks: what `other` would need to
    /// hold `self`.
    pub fn missing_from(&self, other: &Cards) -> Cards {
        let mut out = Cards::EMPTY;
        for i in 0..CARD_KINDS {
            out.counts[i] = self.counts[i].saturating_sub(other.counts[i]);
        }
        out
    }

    /// Each kind present with its count, in the order of [`Card::index`].
    pub fn kinds(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        Card::all()
            .map(|card| (card, self.count(card)))
            .filter(|&(_, n)| n > 0)
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
    pub fn best(&self, n: u32) -> Cards {
        self.take_in(TRIBUTE_ORDER.iter().copied(), n)
    }

    /// The `n` worst cards: [`Cards::best`]'s order backwards (Jesters or
    /// Ratbert first).
    pub fn worst(&self, n: u32) -> Cards {
        self.take_in(TRIBUTE_ORDER.iter().rev().copied(), n)
    }

    fn take_in(&self, order: impl Iterator<Item = Card>, n: u32) -> Cards {
        let mut out = Cards::EMPTY;
        let mut left = n;
        for card in order {
            let take = (self.count(card) as u32).min(left);
            out.add(card, take as u8);
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
            if cards.count(card) == u8::MAX {
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
