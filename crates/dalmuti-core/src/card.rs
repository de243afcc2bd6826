//! Ranks and cards, with the names the deck prints on them.

use std::fmt;
use std::str::FromStr;

pub(crate) mod suit;

/// How many distinct kinds of card there are in both decks: the World
/// Ruler (0), the twelve ranks, the Jester, the Twirling Wedgie, Ratbert and
/// the Dogbert. Each kind has its own record token, so cards read and write
/// the same whichever game they belong to; only their names differ
/// ([`crate::Variant::card_name`]).
pub const CARD_KINDS: usize = 17;

/// Each card's own name (Dalmuti's for the numbers), indexed by
/// [`Card::index`].
const NAMES: [&str; CARD_KINDS] = [
    "Dogbert, World Ruler",
    "Dalmuti",
    "Archbishop",
    "Earl Marshal",
    "Baroness",
    "Abbess",
    "Knight",
    "Seamstress",
    "Mason",
    "Cook",
    "Shepherdess",
    "Stonecutter",
    "Peasant",
    "Jester",
    "Twirling Wedgie",
    "Ratbert",
    "Dogbert",
];

const PLURALS: [&str; CARD_KINDS] = [
    "Dogberts, World Rulers",
    "Dalmutis",
    "Archbishops",
    "Earl Marshals",
    "Baronesses",
    "Abbesses",
    "Knights",
    "Seamstresses",
    "Masons",
    "Cooks",
    "Shepherdesses",
    "Stonecutters",
    "Peasants",
    "Jesters",
    "Twirling Wedgies",
    "Ratberts",
    "Dogberts",
];

const TOKENS: [&str; CARD_KINDS] = [
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "J", "T", "R", "D",
];

/// A card's rank, 1 (the Dalmuti, best) to 12 (the Peasant, worst).
///
/// The number is both the card's strength (lower is better) and how many
/// copies of it the deck holds. `Ord` compares the numbers, so the *smaller*
/// rank is the *better* card.
///
/// ```
/// use dalmuti_core::Rank;
/// let knight = Rank::new(6).unwrap();
/// assert_eq!(knight.number(), 6);
/// assert!(Rank::DALMUTI < knight); // the Dalmuti is better
/// assert!(Rank::new(13).is_none()); // Jesters have no rank of their own
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// Rank 1, the best card: one copy in the deck.
    pub const DALMUTI: Rank = Rank(1);
    /// Rank 2.
    pub const ARCHBISHOP: Rank = Rank(2);
    /// Rank 3.
    pub const EARL_MARSHAL: Rank = Rank(3);
    /// Rank 4.
    pub const BARONESS: Rank = Rank(4);
    /// Rank 5.
    pub const ABBESS: Rank = Rank(5);
    /// Rank 6.
    pub const KNIGHT: Rank = Rank(6);
    /// Rank 7.
    pub const SEAMSTRESS: Rank = Rank(7);
    /// Rank 8.
    pub const MASON: Rank = Rank(8);
    /// Rank 9.
    pub const COOK: Rank = Rank(9);
    /// Rank 10.
    pub const SHEPHERDESS: Rank = Rank(10);
    /// Rank 11.
    pub const STONECUTTER: Rank = Rank(11);
    /// Rank 12, the worst numbered card: twelve copies in the deck.
    pub const PEASANT: Rank = Rank(12);

    /// The rank with this number, if it is 1 to 12.
    #[inline]
    pub const fn new(number: u8) -> Option<Rank> {
        if number >= 1 && number <= 12 {
            Some(Rank(number))
        } else {
            None
        }
    }

    /// All twelve ranks, best first.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> + Clone {
        (1..=12).map(Rank)
    }

    /// The printed number, 1 to 12.
    pub const fn number(self) -> u8 {
        self.0
    }
}

/// One card of any deck of the engine: a numbered rank, a wild card (the
/// Jester or a Dogbert), one of Corporate Shuffle's three specials, or a
/// card of the 52-card pack (with its suit) or a Joker, for President and
/// Daifugō (see [`crate::Suit`]).
///
/// Cards are written as the tokens of game records: `1` to `12`, `J` for a
/// Jester; `0` (Dogbert, World Ruler), `T` (Twirling Wedgie), `R` (Ratbert)
/// and `D` (Dogbert) in Corporate Shuffle; in President and Daifugō a
/// rank (`3` … `10`, `J`, `Q`, `K`, `A`, `2`) and a suit letter (`S` `H` `D`
/// `C`), `10H` or `QS`, and `JK` for a Joker.
///
/// ```
/// use dalmuti_core::{Card, Rank, Variant};
/// let jester: Card = "J".parse().unwrap();
/// assert!(jester.is_wild());
/// assert_eq!(Card::from(Rank::COOK).to_string(), "9");
/// assert_eq!("9".parse::<Card>().unwrap().name(Variant::Dalmuti), "Cook");
/// assert_eq!("9".parse::<Card>().unwrap().name(Variant::CorporateShuffle), "Marketing");
/// assert_eq!(Card::TWIRLING_WEDGIE.value(), Some(6));
/// assert!("13".parse::<Card>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Card(u8);

impl Card {
    /// Dalmuti's wild card. Alone (or with the other Jester) it ranks 13,
    /// worse than a Peasant; with numbered cards it takes their rank.
    pub const JESTER: Card = Card(13);
    /// Corporate Shuffle's Dogbert, World Ruler: value 0, played only alone,
    /// and it wins its trick at once.
    pub const WORLD_RULER: Card = Card(0);
    /// Corporate Shuffle's Twirling Wedgie: a 6 whose player names another
    /// player, who must pass for the rest of the trick.
    pub const TWIRLING_WEDGIE: Card = Card(14);
    /// Corporate Shuffle's Ratbert: value 11, played only alone; the
    /// winner of its trick takes it back, unless the spec says otherwise.
    pub const RATBERT: Card = Card(15);
    /// Corporate Shuffle's wild card: with numbered cards it takes their
    /// value; alone (or with the other) it plays as a value its player
    /// declares, 1 to 10.
    pub const DOGBERT: Card = Card(16);

    /// The card at this index: 0 to 16; see [`Card::index`].
    pub const fn from_index(index: usize) -> Option<Card> {
        if index < CARD_KINDS {
            Some(Card(index as u8))
        } else {
            None
        }
    }

    /// The card at `index` (0..=16), for tables built at compile time.
    #[inline]
    pub(crate) const fn at(index: usize) -> Card {
        assert!(index < CARD_KINDS);
        Card(index as u8)
    }

    /// The card's slot: 0 the World Ruler, 1 to 12 the numbered cards, 13
    /// the Jester, 14 the Twirling Wedgie, 15 Ratbert, 16 the Dogbert. Also
    /// the order in which hands are written. The cards of the 52-card pack
    /// and the Joker are above all these ([`Card::is_suited`]): 32 + their
    /// bit in [`crate::Cards::pack_mask`], the Joker 84.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is a wild card: a Jester, a Dogbert or a Joker.
    pub const fn is_wild(self) -> bool {
        self.0 == 13 || self.0 == 16 || self.0 == crate::card::suit::JOKER_INDEX
    }

    /// Whether this is a Jester (Dalmuti's wild card).
    pub const fn is_jester(self) -> bool {
        self.0 == 13
    }

    /// The rank of a numbered card (1 to 12); `None` for the others.
    pub const fn rank(self) -> Option<Rank> {
        Rank::new(self.0)
    }

    /// The printed number of a numbered card (1 to 12).
    pub const fn number(self) -> Option<u8> {
        if self.0 >= 1 && self.0 <= 12 {
            Some(self.0)
        } else {
            None
        }
    }

    /// What the card is worth when it is played (lower is better): its
    /// number; 0 for the World Ruler, 6 for the Wedgie, 11 for Ratbert.
    /// `None` for a wild card, whose worth depends on its set.
    pub const fn value(self) -> Option<u8> {
        match self.0 {
            0..=12 => Some(self.0),
            14 => Some(6),
            15 => Some(11),
            _ => None,
        }
    }

    /// Its worth in the seating draw (lower is better): its value; 13 for a
    /// Jester and 12 for a Dogbert, the worst card of each deck (C3).
    pub const fn draw_value(self) -> u8 {
        match self.0 {
            13 => 13,
            16 => 12,
            _ => match self.value() {
                Some(v) => v,
                None => 13,
            },
        }
    }

    /// The name of the card itself; the numbers by Dalmuti's names.
    pub(crate) fn own_name(self) -> &'static str {
        match NAMES.get(self.0 as usize) {
            Some(name) => name,
            None => crate::card::suit::suited_name(self),
        }
    }

    /// The plural of [`Card::own_name`].
    pub(crate) fn own_plural(self) -> &'static str {
        match PLURALS.get(self.0 as usize) {
            Some(name) => name,
            None => crate::card::suit::suited_plural(self),
        }
    }

    /// A card from its raw value (crate use: suited cards are built in
    /// `suit.rs`).
    #[inline]
    pub(crate) const fn raw(value: u8) -> Card {
        Card(value)
    }

    /// The raw value behind [`Card::index`].
    #[inline]
    pub(crate) const fn value_byte(self) -> u8 {
        self.0
    }

    /// The record token: `0`..`12`, `J`, `T`, `R` or `D`; `3S` … `2C` and
    /// `JK` for the 52-card pack and the Joker.
    pub fn token(self) -> &'static str {
        match TOKENS.get(self.0 as usize) {
            Some(token) => token,
            None => crate::card::suit::suited_token(self),
        }
    }

    /// Every kind of card of both decks, in the order hands are written.
    /// See [`crate::Variant::kinds`] for one deck's.
    pub fn all() -> impl DoubleEndedIterator<Item = Card> + Clone {
        (0..CARD_KINDS as u8).map(Card)
    }
}

impl From<Rank> for Card {
    fn from(rank: Rank) -> Card {
        Card(rank.0)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// A token that is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{token:?} is not a card (cards are 1 to 12 and J for a Jester; 0, 1 to 10, T, R and D in \
     Corporate Shuffle; a rank 3 … 10, J, Q, K, A, 2 and a suit S, H, D, C (10H, QS) or JK for \
     a Joker in President and Daifugō)"
)]
pub struct BadCard {
    /// The text that was read.
    pub token: String,
}

impl FromStr for Card {
    type Err = BadCard;

    fn from_str(s: &str) -> Result<Card, BadCard> {
        match s {
            "J" => return Ok(Card::JESTER),
            "0" => return Ok(Card::WORLD_RULER),
            "T" => return Ok(Card::TWIRLING_WEDGIE),
            "R" => return Ok(Card::RATBERT),
            "D" => return Ok(Card::DOGBERT),
            _ => {}
        }
        if let Some(card) = crate::card::suit::parse_suited(s) {
            return Ok(card);
        }
        // Only canonical numbers: "06" or "+6" are not tokens of the format.
        let canonical =
            !s.is_empty() && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit());
        match s.parse::<u8>() {
            Ok(n) if canonical => Rank::new(n).map(Card::from),
            _ => None,
        }
        .ok_or_else(|| BadCard {
            token: s.chars().take(20).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn names_follow_the_rulebook_chart() {
        let names: Vec<_> = Rank::all()
            .map(|r| Card::from(r).name(Variant::Dalmuti))
            .collect();
        assert_eq!(
            names,
            [
                "Dalmuti",
                "Archbishop",
                "Earl Marshal",
                "Baroness",
                "Abbess",
                "Knight",
                "Seamstress",
                "Mason",
                "Cook",
                "Shepherdess",
                "Stonecutter",
                "Peasant"
            ]
        );
        assert_eq!(Card::JESTER.name(Variant::Dalmuti), "Jester");
    }

    #[test]
    fn lower_rank_is_better() {
        // Rulebook: "the Baroness (4) is better than the Abbess (5)".
        assert!(Rank::BARONESS < Rank::ABBESS);
    }

    #[test]
    fn tokens_round_trip_and_reject_noise() {
        for card in Card::all() {
            assert_eq!(card.token().parse::<Card>(), Ok(card));
        }
        for bad in [
            "", "00", "13", "j", "d", "06", "+6", " 6", "Jester", "99999", "-0",
        ] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?} accepted");
        }
    }
}
