//! Plays of the 52-card pack (President, Daifugō): sets of one rank with a
//! Joker standing for a suit, same-suit sequences with Jokers filling any
//! place, and the lone Joker, in the six bytes of a [`Set`].
//!
//! The layout: `face` is the kind ([`OF_RANK`], [`SEQUENCE`] + suit,
//! [`LONE`]), `rank` the lowest place (15 for a lone Joker), `naturals` and
//! `wilds` the counts of cards of the pack and of Jokers, `flags` is
//! [`SUITED`] and `target` says where the Jokers stand: for a set, the
//! naturals' suits in its low four bits and the Jokers' in its high four;
//! for a sequence, the Jokers' places from its lowest, one in each half
//! (15 for none).

use std::fmt;

use super::{NotASet, Set};
use crate::card::Card;
use crate::card::suit::{ABOVE_TWO, Suit, TOP_PLACE};
use crate::cards::Cards;

/// `flags` of every play of the pack.
pub(super) const SUITED: u8 = 0x80;
/// `face` of a set of one rank.
const OF_RANK: u8 = 32;
/// `face` of a sequence of suit 0; + the suit's index.
const SEQUENCE: u8 = 36;
/// `face` of a lone Joker.
const LONE: u8 = 40;
/// A lone Joker's `rank`: above every place.
pub const LONE_JOKER_PLACE: u8 = 15;
/// No Joker in this half of a sequence's `target`.
const NONE: u8 = 0xF;

/// What kind of play a [`Set`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SetKind {
    /// A set of Dalmuti or Corporate Shuffle.
    Dalmuti,
    /// Cards of the pack of one rank, Jokers standing in.
    OfRank,
    /// Three or more cards of one suit in a row, Jokers filling places.
    Sequence,
    /// A Joker played alone: above every single card.
    LoneJoker,
}

impl Set {
    /// A lone Joker: beats any single card, whatever the order; beaten by
    /// the 3♠ alone where the rule set says so.
    pub const LONE_JOKER: Set = Set {
        rank: LONE_JOKER_PLACE,
        face: LONE,
        naturals: 0,
        wilds: 1,
        flags: SUITED,
        target: 0,
    };

    /// Whether this is a play of the 52-card pack (President, Daifugō).
    #[inline]
    pub const fn is_suited(&self) -> bool {
        self.flags & SUITED != 0
    }

    /// The kind of play.
    #[inline]
    pub fn kind(&self) -> SetKind {
        match self.face {
            _ if !self.is_suited() => SetKind::Dalmuti,
            OF_RANK => SetKind::OfRank,
            LONE => SetKind::LoneJoker,
            _ => SetKind::Sequence,
        }
    }

    /// Cards of the pack at `place` (1 for the 3 … 13 for the 2): the
    /// naturals of the suits in `naturals` (bit 0 spades … bit 3 clubs),
    /// Jokers standing for the suits in `joker_suits`, and `extra` Jokers
    /// beyond the four suits (only once all four are there).
    ///
    /// ```
    /// use dalmuti_core::{Set, SetKind};
    /// let nines = Set::of_rank(7, 0b0010, 0b0001, 0).unwrap(); // 9♥ and a Joker as 9♠
    /// assert_eq!(nines.to_string(), "9H JK as 9S");
    /// assert_eq!((nines.size(), nines.suit_mask(), nines.kind()), (2, 0b0011, SetKind::OfRank));
    /// assert_eq!("9H JK as 9S".parse::<Set>(), Ok(nines));
    /// assert!(Set::of_rank(7, 0b0010, 0, 1).is_none()); // a Joker stands for a suit first
    /// ```
    pub const fn of_rank(place: u8, naturals: u8, joker_suits: u8, extra: u8) -> Option<Set> {
        let jokers = joker_suits.count_ones() as u8 + extra;
        let ok = place >= 1
            && place <= TOP_PLACE
            && naturals != 0
            && naturals <= 0xF
            && joker_suits <= 0xF
            && naturals & joker_suits == 0
            && jokers <= 2
            && (extra == 0 || naturals | joker_suits == 0xF);
        if !ok {
            return None;
        }
        Some(Set {
            rank: place,
            face: OF_RANK,
            naturals: naturals.count_ones() as u8,
            wilds: jokers,
            flags: SUITED,
            target: naturals | joker_suits << 4,
        })
    }

    /// A sequence of `suit` from place `low` (0 below the 3 … 14 above the
    /// 2) of `len` cards, with Jokers at the places `low + i` for each bit
    /// `i` of `jokers_at` (at most two). Places 0 and 14 hold no card, so
    /// only a Joker stands there.
    ///
    /// ```
    /// use dalmuti_core::{Set, Suit};
    /// let run = Set::sequence(Suit::Hearts, 3, 3, 0b010).unwrap(); // 5♥, a Joker as 6♥, 7♥
    /// assert_eq!(run.to_string(), "5H JK 7H");
    /// assert_eq!(run.places(), (3, 5));
    /// assert_eq!("5H JK 7H".parse::<Set>(), Ok(run));
    /// assert_eq!("7H 6H 5H".parse::<Set>().unwrap().to_string(), "5H 6H 7H");
    /// assert!(Set::sequence(Suit::Hearts, 0, 3, 0).is_none()); // nothing is below the 3 but a Joker
    /// ```
    pub const fn sequence(suit: Suit, low: u8, len: u8, jokers_at: u16) -> Option<Set> {
        let jokers = jokers_at.count_ones() as u8;
        if len < 3 || low as u16 + len as u16 > ABOVE_TWO as u16 + 1 || jokers > 2 || jokers >= len
        {
            return None;
        }
        if jokers_at >> len != 0 {
            return None;
        }
        // Places beyond the ends hold only Jokers.
        if low == 0 && jokers_at & 1 == 0 {
            return None;
        }
        if low + len - 1 == ABOVE_TWO && jokers_at >> (len - 1) & 1 == 0 {
            return None;
        }
        let mut halves = [NONE, NONE];
        let mut k = 0;
        let mut i = 0;
        while i < len {
            if jokers_at >> i & 1 != 0 {
                halves[k] = i;
                k += 1;
            }
            i += 1;
        }
        Some(Set {
            rank: low,
            face: SEQUENCE + suit.index() as u8,
            naturals: len - jokers,
            wilds: jokers,
            flags: SUITED,
            target: halves[0] | halves[1] << 4,
        })
    }

    /// The suits the lock compares: a set's naturals and the suits its
    /// Jokers stand for (bit 4 for a Joker beyond the four suits, as the
    /// contest's server reads a set of five: `external.c`,
    /// `analyze_card`); a sequence's one suit; none for a lone Joker.
    #[inline]
    pub fn suit_mask(&self) -> u8 {
        match self.kind() {
            SetKind::OfRank => {
                let suits = self.target & 0xF | self.target >> 4;
                let extra = self.wilds - (self.target >> 4).count_ones() as u8;
                suits | u8::from(extra > 0) << 4
            }
            SetKind::Sequence => 1 << (self.face - SEQUENCE),
            _ => 0,
        }
    }

    /// The suit of a sequence.
    pub fn sequence_suit(&self) -> Option<Suit> {
        (self.kind() == SetKind::Sequence)
            .then(|| Suit::from_index(usize::from(self.face - SEQUENCE)))
            .flatten()
    }

    /// The lowest and highest places the play covers (1 for the 3 … 13
    /// for the 2; a sequence's Joker may stand at 0 or 14; a lone Joker
    /// covers 15).
    #[inline]
    pub fn places(&self) -> (u8, u8) {
        match self.kind() {
            SetKind::Sequence => (self.rank, self.rank + self.size() - 1),
            _ => (self.rank, self.rank),
        }
    }

    /// Where a sequence's Jokers stand, as bits from its lowest place.
    #[inline]
    pub(crate) fn sequence_jokers(&self) -> u16 {
        let mut at = 0u16;
        for half in [self.target & 0xF, self.target >> 4] {
            if half != NONE {
                at |= 1 << half;
            }
        }
        at
    }

    /// How many of the play's cards count as `place`: naturals and Jokers
    /// standing there (a lone Joker counts as none).
    #[inline]
    pub fn count_at(&self, place: u8) -> u8 {
        let (low, high) = self.places();
        match self.kind() {
            SetKind::OfRank if place == low => self.size(),
            SetKind::Sequence if (low..=high).contains(&place) => 1,
            _ => 0,
        }
    }

    /// The cards of the pack the play holds (no Joker), in a hand's bits.
    pub(crate) fn natural_mask(&self) -> u64 {
        match self.kind() {
            SetKind::OfRank => u64::from(self.target & 0xF) << (4 * (self.rank - 1)),
            SetKind::Sequence => {
                let suit = u32::from(self.face - SEQUENCE);
                let jokers = self.sequence_jokers();
                let mut mask = 0;
                for i in 0..self.size() {
                    if jokers >> i & 1 == 0 {
                        let place = u32::from(self.rank + i);
                        mask |= 1 << (4 * (place - 1) + suit);
                    }
                }
                mask
            }
            _ => 0,
        }
    }

    /// The cards the Jokers stand for (those of a set beyond the four
    /// suits, or beyond the ends of the order, stand for no card of the
    /// pack and are left out).
    pub fn jokers_stand_for(&self) -> Cards {
        let mask = match self.kind() {
            SetKind::OfRank => u64::from(self.target >> 4) << (4 * (self.rank - 1)),
            SetKind::Sequence => {
                let suit = self.face - SEQUENCE;
                let mut mask = 0;
                for i in 0..self.size() {
                    let place = self.rank + i;
                    if self.sequence_jokers() >> i & 1 != 0 && (1..=TOP_PLACE).contains(&place) {
                        mask |= 1 << (4 * u32::from(place - 1) + u32::from(suit));
                    }
                }
                mask
            }
            _ => 0,
        };
        Cards::from_pack(mask, 0)
    }

    /// The play's lowest card of the pack (the Joker for a lone Joker).
    pub(crate) fn first_natural(&self) -> Card {
        let mask = self.natural_mask();
        if mask == 0 {
            Card::JOKER
        } else {
            Card::from_suited_bit(mask.trailing_zeros())
        }
    }

    pub(super) fn fmt_suited(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            SetKind::LoneJoker => f.write_str("JK"),
            SetKind::OfRank => {
                let naturals = Cards::from_pack(self.natural_mask(), self.wilds);
                fmt::Display::fmt(&naturals, f)?;
                let stand = self.jokers_stand_for();
                if !stand.is_empty() {
                    write!(f, " as {stand}")?;
                }
                Ok(())
            }
            _ => {
                let suit = Suit::from_index(usize::from(self.face - SEQUENCE)).expect("a suit");
                let jokers = self.sequence_jokers();
                for i in 0..self.size() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    if jokers >> i & 1 != 0 {
                        f.write_str("JK")?;
                    } else {
                        let card = Card::suited(self.rank + i, suit).expect("a natural's place");
                        f.write_str(card.token())?;
                    }
                }
                Ok(())
            }
        }
    }

    /// Reads a play of the pack, as `Display` writes it.
    pub(super) fn parse_suited(text: &str) -> Result<Set, NotASet> {
        let short = || text.chars().take(60).collect::<String>();
        let (cards, stand) = match text.split_once(" as ") {
            Some((cards, stand)) => (cards, Some(stand)),
            None => (text, None),
        };
        let mut tokens = Vec::new();
        for token in cards.split(' ') {
            let card: Card = token.parse()?;
            if !card.is_suited() {
                return Err(NotASet::NotAPlay(format!(
                    "{} mixes cards of the pack with {token}, which is not one",
                    short()
                )));
            }
            tokens.push(card);
        }
        let naturals: Vec<(usize, Card)> = tokens
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, c)| !c.is_joker())
            .collect();
        let jokers = (tokens.len() - naturals.len()) as u8;
        if jokers > 2 {
            return Err(NotASet::NotAPlay(format!(
                "{}: a pack holds at most two Jokers",
                short()
            )));
        }
        let Some(&(_, first)) = naturals.first() else {
            return match (jokers, stand) {
                (1, None) => Ok(Set::LONE_JOKER),
                _ => Err(NotASet::NotAPlay(format!(
                    "{}: Jokers alone make no play but a lone Joker (JK)",
                    short()
                ))),
            };
        };
        let place = first.place().expect("a natural");
        let one_rank = naturals.iter().all(|(_, c)| c.place() == Some(place));
        if one_rank && (naturals.len() > 1 || stand.is_some() || jokers == 0) {
            let mut suits = 0u8;
            for (_, c) in &naturals {
                let bit = 1 << c.suit().expect("a natural").index();
                if suits & bit != 0 {
                    return Err(NotASet::NotAPlay(format!("{}: a card twice", short())));
                }
                suits |= bit;
            }
            let mut joker_suits = 0u8;
            if let Some(stand) = stand {
                for token in stand.split(' ') {
                    let card: Card = token.parse()?;
                    let (Some(p), Some(suit)) = (card.place(), card.suit()) else {
                        return Err(NotASet::NotAPlay(format!(
                            "{}: a Joker stands for a card of the pack, not {token}",
                            short()
                        )));
                    };
                    let bit = 1 << suit.index();
                    if p != place || (suits | joker_suits) & bit != 0 {
                        return Err(NotASet::NotAPlay(format!(
                            "{}: a Joker in a set stands for a missing suit of its rank, not {token}",
                            short()
                        )));
                    }
                    joker_suits |= bit;
                }
            }
            let named = joker_suits.count_ones() as u8;
            if named > jokers {
                return Err(NotASet::NotAPlay(format!(
                    "{}: more cards after `as` than Jokers",
                    short()
                )));
            }
            let extra = jokers - named;
            return Set::of_rank(place, suits, joker_suits, extra).ok_or_else(|| {
                NotASet::NotAPlay(format!(
                    "{}: say which suit each Joker stands for (`9H JK as 9S`) until all four are there",
                    short()
                ))
            });
        }
        if stand.is_some() {
            return Err(NotASet::NotAPlay(format!(
                "{}: only a set of one rank says `as`; a sequence shows each Joker where it stands (`5H JK 7H`)",
                short()
            )));
        }
        let suit = first.suit().expect("a natural");
        if naturals.iter().any(|(_, c)| c.suit() != Some(suit)) {
            return Err(NotASet::NotAPlay(format!(
                "{} is neither a set of one rank nor a sequence of one suit",
                short()
            )));
        }
        let len = tokens.len() as u8;
        if jokers == 0 {
            // Without Jokers the order of the cards does not matter.
            let mut places: Vec<u8> = naturals
                .iter()
                .map(|(_, c)| c.place().expect("natural"))
                .collect();
            places.sort_unstable();
            let low = places[0];
            let in_a_row = places.iter().enumerate().all(|(i, &p)| p == low + i as u8);
            return in_a_row
                .then(|| Set::sequence(suit, low, len, 0))
                .flatten()
                .ok_or_else(|| {
                    NotASet::NotAPlay(format!(
                        "{} is not three or more cards of one suit in a row",
                        short()
                    ))
                });
        }
        // With Jokers the text is the run, lowest first: each card at its
        // place, each Joker where it stands.
        let (i0, c0) = naturals[0];
        let low = i64::from(c0.place().expect("natural")) - i0 as i64;
        let fits = low >= 0
            && naturals
                .iter()
                .all(|&(i, c)| i64::from(c.place().expect("natural")) == low + i as i64);
        let jokers_at = tokens
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_joker())
            .fold(0u16, |m, (i, _)| m | 1 << i);
        fits.then(|| Set::sequence(suit, low as u8, len, jokers_at))
            .flatten()
            .ok_or_else(|| {
                NotASet::NotAPlay(format!(
                    "{}: a sequence is written lowest first, each Joker at its place (`5H JK 7H`), \
                     three or more in a row",
                    short()
                ))
            })
    }

    /// The play made of these cards of the pack when no Joker's role needs
    /// saying: a lone Joker, a set of one rank (Jokers beyond all four
    /// suits), a sequence without Jokers.
    pub(super) fn from_pack_cards(cards: &Cards) -> Result<Set, NotASet> {
        if cards.jokers() > 0 && cards.pack_mask() != 0 {
            let natural_suits = cards.pack_mask();
            let place = natural_suits.trailing_zeros() / 4;
            let all_four = natural_suits == 0xF << (4 * place);
            if !all_four {
                return Err(NotASet::NotAPlay(format!(
                    "{cards}: say what each Joker stands for (`9H JK as 9S`, `5H JK 7H`)"
                )));
            }
        }
        cards.to_string().parse()
    }
}

/// Whether `text` is a play of the pack: one of its card tokens is.
pub(crate) fn looks_suited(text: &str) -> bool {
    text.split(' ')
        .any(|t| t.parse::<Card>().is_ok_and(|c| c.is_suited()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_of_the_pack_round_trip_and_refuse_nonsense() {
        for text in [
            "3S",
            "9H JK as 9S",
            "9S 9H 9D 9C JK",
            "5H JK 7H",
            "JK 3S 4S",
            "KS AS 2S JK",
            "JK",
            "3S 4S 5S 6S 7S",
            "9S JK JK as 9H 9D",
            "5H JK JK",
        ] {
            let set: Set = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(set.to_string(), text);
            assert!(set.is_suited());
        }
        for bad in [
            "9H JK",
            "JK JK",
            "3S 5S",
            "3S 4H 5S",
            "9H 9H",
            "9H JK as 10H",
            "9H JK as 9H",
            "5H 6H JK as 7H",
            "JK JK JK 3S",
            "3S 5",
            "2S JK JK",
            "AS 2S",
        ] {
            assert!(bad.parse::<Set>().is_err(), "{bad} accepted");
        }
        let five: Set = "9S 9H 9D 9C JK".parse().unwrap();
        assert_eq!(five.suit_mask(), 0b1_1111);
        let run: Set = "JK 3S 4S".parse().unwrap();
        assert_eq!(run.places(), (0, 2));
        assert_eq!(run.cards().to_string(), "3S 4S JK");
        assert_eq!(run.count_at(1), 1);
        assert!(Set::LONE_JOKER.wedgie_target().is_none());
        assert!(
            !Set::sequence(Suit::Spades, 0, 3, 1)
                .unwrap()
                .is_world_ruler()
        );
    }
}
