//! Ranks and cards, with the names the deck prints on them.

use std::fmt;
use std::str::FromStr;

/// How many distinct kinds of card there are: the twelve ranks and the Jester.
pub const CARD_KINDS: usize = 13;

/// The names printed on the cards, indexed by [`Card::index`] (1 to 13);
/// index 0 is unused so the rank number is the index.
const NAMES: [&str; CARD_KINDS + 1] = [
    "",
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
];

const PLURALS: [&str; CARD_KINDS + 1] = [
    "",
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
/// assert_eq!(knight.name(), "Knight");
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

    /// The card's name, e.g. "Earl Marshal".
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The name for several of these cards, e.g. "Baronesses".
    pub fn plural(self) -> &'static str {
        PLURALS[self.0 as usize]
    }
}

/// One card: a numbered rank or a Jester (wild).
///
/// Cards are written as the tokens of game records: `1` to `12`, and `J`
/// for a Jester.
///
/// ```
/// use dalmuti_core::{Card, Rank};
/// let jester: Card = "J".parse().unwrap();
/// assert!(jester.is_jester());
/// assert_eq!(Card::from(Rank::COOK).to_string(), "9");
/// assert_eq!("9".parse::<Card>().unwrap().name(), "Cook");
/// assert!("0".parse::<Card>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Card(u8);

impl Card {
    /// The wild card. Alone (or with the other Jester) it ranks 13, worse
    /// than a Peasant; with numbered cards it takes their rank.
    pub const JESTER: Card = Card(13);

    /// The card at this index: 1 to 12 for the ranks, 13 for the Jester.
    pub const fn from_index(index: usize) -> Option<Card> {
        if index >= 1 && index <= CARD_KINDS {
            Some(Card(index as u8))
        } else {
            None
        }
    }

    /// The card at `index` (1..=13), for tables built at compile time.
    pub(crate) const fn at(index: usize) -> Card {
        assert!(index >= 1 && index <= CARD_KINDS);
        Card(index as u8)
    }

    /// 1 to 12 for a numbered card, 13 for a Jester: the card's badness
    /// when played alone, and its slot in [`crate::Cards`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is a Jester.
    pub const fn is_jester(self) -> bool {
        self.0 == 13
    }

    /// The rank of a numbered card; `None` for a Jester.
    pub const fn rank(self) -> Option<Rank> {
        Rank::new(self.0)
    }

    /// The card's name, e.g. "Dalmuti" or "Jester".
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The name for several of these cards.
    pub fn plural(self) -> &'static str {
        PLURALS[self.0 as usize]
    }

    /// The record token: `1`..`12` or `J`.
    pub fn token(self) -> &'static str {
        const TOKENS: [&str; CARD_KINDS + 1] = [
            "", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "J",
        ];
        TOKENS[self.0 as usize]
    }

    /// Every kind of card, best first, Jester last.
    pub fn all() -> impl DoubleEndedIterator<Item = Card> + Clone {
        (1..=CARD_KINDS as u8).map(Card)
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
#[error("{token:?} is not a card (cards are 1 to 12, or J for a Jester)")]
pub struct BadCard {
    /// The text that was read.
    pub token: String,
}

impl FromStr for Card {
    type Err = BadCard;

    fn from_str(s: &str) -> Result<Card, BadCard> {
        if s == "J" {
            return Ok(Card::JESTER);
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

    #[test]
    fn names_follow_the_rulebook_chart() {
        let names: Vec<_> = Rank::all().map(Rank::name).collect();
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
        assert_eq!(Card::JESTER.name(), "Jester");
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
        for bad in ["", "0", "13", "j", "06", "+6", " 6", "Jester", "99999"] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?} accepted");
        }
    }
}
