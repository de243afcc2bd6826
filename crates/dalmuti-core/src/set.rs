//! Sets: what a player puts on the table.

use std::fmt;

use crate::card::{Card, Rank};
use crate::cards::Cards;

/// The rank of a set of Jesters alone: worse than a Peasant (12).
pub const JESTERS_ALONE_RANK: u8 = 13;

/// A set: one or more cards of one rank plus any number of Jesters, which
/// take that rank; or one or more Jesters alone, which rank 13.
///
/// A `Set` cannot be empty or mix ranks: the constructors refuse.
///
/// ```
/// use dalmuti_core::{Rank, Set};
/// let knights: Set = "6 6 J".parse().unwrap(); // a Jester as a third Knight
/// assert_eq!((knights.size(), knights.rank_number()), (3, 6));
/// let abbesses = Set::new(Rank::ABBESS, 3, 0).unwrap();
/// assert!(abbesses.tops(&knights));
/// assert!(!knights.tops(&abbesses));
/// assert_eq!("J".parse::<Set>().unwrap().rank_number(), 13);
/// assert!("5 6".parse::<Set>().is_err());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Set {
    /// 1..=12, or 13 for Jesters alone.
    rank: u8,
    /// Numbered cards: at least one unless `rank` is 13, then none.
    naturals: u8,
    jesters: u8,
}

impl Set {
    /// `naturals` cards of `rank` (at least one) plus `jesters` Jesters.
    pub const fn new(rank: Rank, naturals: u8, jesters: u8) -> Option<Set> {
        if naturals == 0 || naturals.checked_add(jesters).is_none() {
            return None;
        }
        Some(Set {
            rank: rank.number(),
            naturals,
            jesters,
        })
    }

    /// `jesters` Jesters played alone (rank 13); at least one.
    pub const fn jesters_alone(jesters: u8) -> Option<Set> {
        if jesters == 0 {
            return None;
        }
        Some(Set {
            rank: JESTERS_ALONE_RANK,
            naturals: 0,
            jesters,
        })
    }

    /// Reads a set from a group of cards, or says why it is not one.
    pub fn from_cards(cards: &Cards) -> Result<Set, NotASet> {
        let mut rank = None;
        for (card, n) in cards.kinds() {
            if let Some(r) = card.rank() {
                if rank.is_some() {
                    return Err(NotASet::MixedRanks(*cards));
                }
                rank = Some((r, n));
            }
        }
        let jesters = cards.jesters();
        match rank {
            Some((r, n)) => Set::new(r, n, jesters).ok_or(NotASet::TooLarge),
            None => Set::jesters_alone(jesters).ok_or(NotASet::Empty),
        }
    }

    /// The set's rank as a number: 1..=12, or 13 for Jesters alone.
    #[inline]
    pub const fn rank_number(&self) -> u8 {
        self.rank
    }

    /// The numbered rank, or `None` for Jesters alone.
    pub const fn rank(&self) -> Option<Rank> {
        Rank::new(self.rank)
    }

    /// The card every card of this set counts as: its rank, or a Jester for
    /// Jesters alone.
    pub fn face(&self) -> Card {
        Card::from_index(self.rank as usize).expect("a set's rank is 1..=13")
    }

    /// How many cards.
    #[inline]
    pub const fn size(&self) -> u8 {
        self.naturals + self.jesters
    }

    /// How many numbered cards.
    #[inline]
    pub const fn naturals(&self) -> u8 {
        self.naturals
    }

    /// How many Jesters.
    #[inline]
    pub const fn jesters(&self) -> u8 {
        self.jesters
    }

    /// The cards it is made of.
    pub fn cards(&self) -> Cards {
        let mut cards = Cards::EMPTY;
        if self.naturals > 0 {
            cards.add(self.face(), self.naturals);
        }
        cards.add(Card::JESTER, self.jesters);
        cards
    }

    /// Whether this set tops `other`: the same number of cards and a
    /// strictly better (lower) rank.
    #[inline]
    pub const fn tops(&self, other: &Set) -> bool {
        self.size() == other.size() && self.rank < other.rank
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.cards(), f)
    }
}

impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Set({self})")
    }
}

/// Why a group of cards is not a set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotASet {
    /// No cards at all.
    #[error("an empty group of cards is not a set")]
    Empty,
    /// Numbered cards of two or more ranks.
    #[error("{0} is not a set of one rank")]
    MixedRanks(Cards),
    /// More than 255 cards.
    #[error("too many cards for one set")]
    TooLarge,
    /// A token is not a card.
    #[error(transparent)]
    BadCard(#[from] crate::card::BadCard),
}

impl std::str::FromStr for Set {
    type Err = NotASet;

    fn from_str(s: &str) -> Result<Set, NotASet> {
        Set::from_cards(&s.parse()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> Set {
        s.parse().unwrap()
    }

    #[test]
    fn jesters_take_the_rank_of_the_other_cards() {
        let s = set("J 5 J");
        assert_eq!((s.rank_number(), s.naturals(), s.jesters()), (5, 1, 2));
    }

    #[test]
    fn jesters_alone_rank_thirteen_and_lose_to_peasants() {
        // Rulebook: a Jester played by itself is worse than even a Peasant.
        assert!(set("12").tops(&set("J")));
        assert!(set("12 12").tops(&set("J J")));
        assert!(!set("J").tops(&set("12")));
    }

    #[test]
    fn topping_needs_the_same_size_and_a_strictly_better_rank() {
        assert!(!set("9 9 9 9").tops(&set("11 11 11"))); // five Cooks cannot answer four... nor four three
        assert!(!set("11 11 11").tops(&set("11 11 11")));
        assert!(set("10 10 10").tops(&set("12 12 12")));
    }

    #[test]
    fn mixed_ranks_and_empty_groups_are_not_sets() {
        assert_eq!(
            "5 6".parse::<Set>().unwrap_err().to_string(),
            "5 6 is not a set of one rank"
        );
        assert_eq!("".parse::<Set>(), Err(NotASet::Empty));
    }
}
