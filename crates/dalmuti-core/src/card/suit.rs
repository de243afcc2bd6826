//! The 52-card pack and its Jokers: the cards of President and Daifugō.
//!
//! A card of the pack is a place in the order of the climbing games (3 low
//! … K, A, 2 high: places 1 to 13) and a suit. Places 0 (below the 3) and
//! 14 (above the 2) hold no card; a Joker may stand there at either end of
//! a sequence where a rule set allows it (the UECda contest's tables have
//! those columns, `protocol.html` § 13.2.2). In a hand the cards are one
//! bit each ([`crate::Cards::pack_mask`]): bit `4 × (place − 1) + suit`,
//! so that a rank is four neighbouring bits and a suit every fourth bit, as
//! contest programs lay them out; the Jokers are bits 52 and 53.

use std::fmt;

use crate::card::Card;

/// A suit, in the order the UECda contest's tables list them (rows 0 to 3),
/// which is also the order in which equal cards are chosen when a poor
/// player's best cards are taken (spades first: `rule.html` § 4.2.9).
///
/// ```
/// use dalmuti_core::{Card, Suit};
/// let queen = Card::suited(10, Suit::Spades).unwrap();
/// assert_eq!(queen.token(), "QS");
/// assert_eq!(queen.suit(), Some(Suit::Spades));
/// assert_eq!(queen.place(), Some(10));
/// assert_eq!("10H".parse::<Card>().unwrap(), Card::suited(8, Suit::Hearts).unwrap());
/// assert_eq!(Card::JOKER.token(), "JK");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// ♠, row 0.
    Spades,
    /// ♥, row 1.
    Hearts,
    /// ♦, row 2.
    Diamonds,
    /// ♣, row 3.
    Clubs,
}

impl Suit {
    /// The four suits, in table order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// 0 to 3, the row of the contest's tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit of row `index` (0 to 3).
    pub const fn from_index(index: usize) -> Option<Suit> {
        match index {
            0 => Some(Suit::Spades),
            1 => Some(Suit::Hearts),
            2 => Some(Suit::Diamonds),
            3 => Some(Suit::Clubs),
            _ => None,
        }
    }

    /// The record's letter: `S`, `H`, `D` or `C`.
    pub const fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    /// The suit's symbol: ♠ ♥ ♦ ♣.
    pub const fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }

    /// The suit's name in English.
    pub const fn name(self) -> &'static str {
        ["spades", "hearts", "diamonds", "clubs"][self as usize]
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// The lowest raw value of a suited card ([`Card::index`]).
pub(crate) const SUITED_BASE: u8 = 32;
/// The Joker's raw value.
pub(crate) const JOKER_INDEX: u8 = SUITED_BASE + JOKER_BIT as u8;
/// The Jokers' first bit in a hand's mask.
pub(crate) const JOKER_BIT: u32 = 52;
/// The bits of the 52 cards of the pack.
pub(crate) const PACK: u64 = (1 << 52) - 1;
/// The highest place of a card (the 2).
pub const TOP_PLACE: u8 = 13;
/// The place a Joker takes above the 2 at the top of a sequence.
pub const ABOVE_TWO: u8 = 14;

/// The ranks in the order of places 0 to 14, as words.
const RANKS: [&str; 15] = [
    "", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "",
];

const fn token_table() -> [[u8; 3]; 53] {
    let mut out = [[0u8; 3]; 53];
    let letters = [b'S', b'H', b'D', b'C'];
    let mut bit = 0;
    while bit < 52 {
        let place = bit / 4 + 1;
        let suit = bit % 4;
        let rank: &[u8] = match place {
            1 => b"3",
            2 => b"4",
            3 => b"5",
            4 => b"6",
            5 => b"7",
            6 => b"8",
            7 => b"9",
            8 => b"10",
            9 => b"J",
            10 => b"Q",
            11 => b"K",
            12 => b"A",
            _ => b"2",
        };
        let mut t = [0u8; 3];
        let mut i = 0;
        while i < rank.len() {
            t[i] = rank[i];
            i += 1;
        }
        t[i] = letters[suit];
        out[bit] = t;
        bit += 1;
    }
    out[52] = [b'J', b'K', 0];
    out
}

static TOKEN_BYTES: [[u8; 3]; 53] = token_table();

/// The token of a suited card or the Joker.
pub(crate) fn suited_token(card: Card) -> &'static str {
    let bit = usize::from(card.value_byte().saturating_sub(SUITED_BASE)).min(52);
    let bytes = &TOKEN_BYTES[bit];
    let len = bytes.iter().position(|&b| b == 0).unwrap_or(3);
    std::str::from_utf8(&bytes[..len]).expect("ASCII")
}

const NAME_RANKS: [&str; 14] = [
    "", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King",
    "Ace", "Two",
];

/// A suited card's name, e.g. "Queen of spades": kept in a table built
/// once, since names are `&'static str`.
pub(crate) fn suited_name(card: Card) -> &'static str {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        (0..53)
            .map(|bit| {
                if bit == 52 {
                    "Joker".to_string()
                } else {
                    format!(
                        "{} of {}",
                        NAME_RANKS[bit / 4 + 1],
                        Suit::ALL[bit % 4].name()
                    )
                }
            })
            .collect()
    });
    let bit = usize::from(card.value_byte().saturating_sub(SUITED_BASE)).min(52);
    &names[bit]
}

/// The plural of [`suited_name`]: only the Joker has several copies.
pub(crate) fn suited_plural(card: Card) -> &'static str {
    if card == Card::JOKER {
        "Jokers"
    } else {
        suited_name(card)
    }
}

/// A suited token (`3S` … `2C`, `10H`, `JK`), or `None`.
pub(crate) fn parse_suited(s: &str) -> Option<Card> {
    if s == "JK" {
        return Some(Card::JOKER);
    }
    // By characters: a word typed in any script must not panic here.
    let (at, _) = s.char_indices().last()?;
    let (rank, suit) = s.split_at(at);
    let suit = match suit {
        "S" => Suit::Spades,
        "H" => Suit::Hearts,
        "D" => Suit::Diamonds,
        "C" => Suit::Clubs,
        _ => return None,
    };
    let place = RANKS.iter().position(|&r| !r.is_empty() && r == rank)?;
    Card::suited(place as u8, suit)
}

/// The word for a place in the order: `3` … `2` for 1 … 13, and `Joker`'s
/// places beyond the ends as `below 3` and `above 2`.
pub fn place_word(place: u8) -> &'static str {
    match place {
        0 => "below 3",
        14 => "above 2",
        p => RANKS.get(usize::from(p)).copied().unwrap_or("?"),
    }
}

impl Card {
    /// The Joker of President and Daifugō (the rule set says how many the
    /// pack holds: none, one or two).
    pub const JOKER: Card = Card::raw(JOKER_INDEX);

    /// The card of the pack at `place` (1 for the 3 … 13 for the 2) in
    /// `suit`.
    pub const fn suited(place: u8, suit: Suit) -> Option<Card> {
        if place >= 1 && place <= TOP_PLACE {
            Some(Card::raw(
                SUITED_BASE + 4 * (place - 1) + suit.index() as u8,
            ))
        } else {
            None
        }
    }

    /// Whether this is a card of the 52-card pack or a Joker.
    #[inline]
    pub const fn is_suited(self) -> bool {
        self.value_byte() >= SUITED_BASE
    }

    /// Whether this is the Joker.
    #[inline]
    pub const fn is_joker(self) -> bool {
        self.value_byte() == JOKER_INDEX
    }

    /// The suit of a card of the pack; `None` for the Joker and for every
    /// card of the other games.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_suited() && !self.is_joker() {
            Suit::from_index(((self.value_byte() - SUITED_BASE) % 4) as usize)
        } else {
            None
        }
    }

    /// The place of a card of the pack in the order 3 (1) … K, A, 2 (13);
    /// `None` for the Joker and the cards of the other games.
    pub const fn place(self) -> Option<u8> {
        if self.is_suited() && !self.is_joker() {
            Some((self.value_byte() - SUITED_BASE) / 4 + 1)
        } else {
            None
        }
    }

    /// The card's bit in a hand's mask (Jokers share bit 52).
    #[inline]
    pub(crate) const fn suited_bit(self) -> u32 {
        (self.value_byte() - SUITED_BASE) as u32
    }

    /// The card of bit `bit` of a hand's mask (0..=51, or a Joker's).
    #[inline]
    pub(crate) const fn from_suited_bit(bit: u32) -> Card {
        if bit >= JOKER_BIT {
            Card::JOKER
        } else {
            Card::raw(SUITED_BASE + bit as u8)
        }
    }

    /// The 52 cards of the pack, 3♠ first, then by place and suit.
    pub fn pack() -> impl DoubleEndedIterator<Item = Card> + Clone {
        (0..52).map(Card::from_suited_bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_for_the_whole_pack() {
        let mut seen = std::collections::HashSet::new();
        for card in Card::pack().chain([Card::JOKER]) {
            let token = card.token();
            assert!(seen.insert(token), "{token} twice");
            assert_eq!(token.parse::<Card>(), Ok(card), "{token}");
        }
        assert_eq!(Card::suited(1, Suit::Spades).unwrap().token(), "3S");
        assert_eq!(Card::suited(13, Suit::Clubs).unwrap().token(), "2C");
        assert_eq!(
            Card::suited(1, Suit::Diamonds)
                .unwrap()
                .name(crate::Variant::Daifugo),
            "Three of diamonds"
        );
        for bad in [
            "1S", "11H", "JX", "S", "10", "3s", "KK", "Jk", "기사", "é", "3♠",
        ] {
            assert!(
                bad.parse::<Card>().map_or(true, |c| !c.is_suited()),
                "{bad}"
            );
        }
    }
}
