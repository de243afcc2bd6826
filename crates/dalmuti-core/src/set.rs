//! Sets: what a player puts on the table.

use std::fmt;

use crate::card::{Card, Rank};
use crate::cards::Cards;
use crate::seat::Seat;

pub(crate) mod play;
pub use play::SetKind;

/// The rank of a set of Jesters alone: worse than a Peasant (12).
pub const JESTERS_ALONE_RANK: u8 = 13;

/// The values a set of Dogberts alone may be declared as (Corporate
/// Shuffle): never 0 (the World Ruler's) nor 11 (Ratbert's).
pub const DECLARED_VALUES: std::ops::RangeInclusive<u8> = 1..=10;

/// The set holds the Twirling Wedgie.
const WEDGIE: u8 = 1;
/// The set's wild cards are Dogberts, not Jesters.
const DOGBERTS: u8 = 2;
/// No Wedgie target.
const NO_TARGET: u8 = u8::MAX;

/// A set: what a player puts on the table.
///
/// In Dalmuti: one or more cards of one rank plus any number of Jesters,
/// which take that rank; or Jesters alone, which rank 13. In Corporate
/// Shuffle: numbered cards of one value plus any number of Dogberts; the
/// Twirling Wedgie as a 6, alone or with 6s and Dogberts; Dogberts alone,
/// played as a value their player declares (1 to 10); the World Ruler or
/// Ratbert, alone. A set holding the Wedgie also names its target, the
/// player who must pass for the rest of the trick (see
/// [`Set::wedgie_target`]).
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
/// // Corporate Shuffle: Dogberts alone say what they are worth.
/// let dogberts: Set = "D D as 3".parse().unwrap();
/// assert_eq!((dogberts.size(), dogberts.rank_number()), (2, 3));
/// assert!("D D".parse::<Set>().is_err());
/// assert!("0 0".parse::<Set>().is_err());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Set {
    // A play of the 52-card pack (President, Daifugō) uses the same six
    // bytes (see `play.rs`): `face` says which kind (32 a set of one rank,
    // 36 + suit a sequence, 40 a lone Joker) and `flags` is `SUITED`, so
    // that the Wedgie's and the Dogberts' bits read as clear.
    /// What the set is worth (lower is better): 0 to 12, or 13 for
    /// Jesters alone.
    rank: u8,
    /// The kind of the natural (not wild) cards, as [`Card::index`].
    face: u8,
    /// How many natural cards of `face`; none for wild cards alone, or for
    /// a Wedgie with no 6.
    naturals: u8,
    wilds: u8,
    /// [`WEDGIE`] and [`DOGBERTS`].
    flags: u8,
    /// The Wedgie's target seat, or [`NO_TARGET`].
    target: u8,
}

impl Set {
    /// `naturals` cards of `rank` (at least one) plus `jesters` Jesters.
    #[inline]
    pub const fn new(rank: Rank, naturals: u8, jesters: u8) -> Option<Set> {
        if naturals == 0 || naturals.checked_add(jesters).is_none() {
            return None;
        }
        Some(Set::raw(rank.number(), rank.number(), naturals, jesters, 0))
    }

    /// `jesters` Jesters played alone (rank 13); at least one.
    #[inline]
    pub const fn jesters_alone(jesters: u8) -> Option<Set> {
        if jesters == 0 {
            return None;
        }
        Some(Set::raw(JESTERS_ALONE_RANK, 13, 0, jesters, 0))
    }

    /// `naturals` cards of `rank` plus `dogberts` Dogberts (Corporate
    /// Shuffle); at least one natural, and `rank` 1 to 10.
    pub const fn with_dogberts(rank: Rank, naturals: u8, dogberts: u8) -> Option<Set> {
        if naturals == 0 || rank.number() > 10 || naturals.checked_add(dogberts).is_none() {
            return None;
        }
        let flags = if dogberts > 0 { DOGBERTS } else { 0 };
        Some(Set::raw(
            rank.number(),
            rank.number(),
            naturals,
            dogberts,
            flags,
        ))
    }

    /// `dogberts` Dogberts alone, played as `value` (1 to 10).
    pub const fn dogberts_as(dogberts: u8, value: u8) -> Option<Set> {
        if dogberts == 0 || value < *DECLARED_VALUES.start() || value > *DECLARED_VALUES.end() {
            return None;
        }
        Some(Set::raw(value, 16, 0, dogberts, DOGBERTS))
    }

    /// The Twirling Wedgie with `sixes` 6s and `dogberts` Dogberts, naming
    /// no target yet (see [`Set::with_target`]).
    pub const fn wedgie(sixes: u8, dogberts: u8) -> Option<Set> {
        if sixes as u16 + dogberts as u16 + 1 > u8::MAX as u16 {
            return None;
        }
        let flags = if dogberts > 0 {
            WEDGIE | DOGBERTS
        } else {
            WEDGIE
        };
        Some(Set::raw(6, 6, sixes, dogberts, flags))
    }

    /// The World Ruler, alone.
    pub const WORLD_RULER: Set = Set::raw(0, 0, 1, 0, 0);

    /// Ratbert, alone.
    pub const RATBERT: Set = Set::raw(11, 15, 1, 0, 0);

    #[inline]
    const fn raw(rank: u8, face: u8, naturals: u8, wilds: u8, flags: u8) -> Set {
        Set {
            rank,
            face,
            naturals,
            wilds,
            flags,
            target: NO_TARGET,
        }
    }

    /// The same set naming `target` as the Wedgie's victim (or no one).
    /// Only a set holding the Twirling Wedgie names anyone.
    ///
    /// ```
    /// use dalmuti_core::{Seat, Set};
    /// let wedgie: Set = "6 T".parse().unwrap();
    /// let aimed = wedgie.with_target(Some(Seat::new(3))).unwrap();
    /// assert_eq!(aimed.wedgie_target(), Some(Seat::new(3)));
    /// assert!("6 6".parse::<Set>().unwrap().with_target(Some(Seat::new(3))).is_err());
    /// ```
    pub fn with_target(self, target: Option<Seat>) -> Result<Set, NotASet> {
        if self.is_suited() {
            // A play of the pack names no one; its `target` byte holds
            // where its Jokers stand.
            return match target {
                Some(_) => Err(NotASet::TargetWithoutWedgie),
                None => Ok(self),
            };
        }
        match target {
            Some(_) if !self.holds_wedgie() => Err(NotASet::TargetWithoutWedgie),
            _ => Ok(Set {
                target: target.map_or(NO_TARGET, |s| s.index() as u8),
                ..self
            }),
        }
    }

    /// Reads a set from a group of cards, or says why it is not one. A set
    /// of Dogberts alone needs a declared value: see [`Set::from_cards_as`].
    pub fn from_cards(cards: &Cards) -> Result<Set, NotASet> {
        Set::from_cards_as(cards, None)
    }

    /// Reads a set from a group of cards and the value declared for it,
    /// which a set of Dogberts alone requires and every other set forbids.
    ///
    /// ```
    /// use dalmuti_core::{NotASet, Set};
    /// let d = "D".parse().unwrap();
    /// assert_eq!(Set::from_cards_as(&d, Some(4)).unwrap().rank_number(), 4);
    /// assert_eq!(Set::from_cards_as(&d, Some(0)), Err(NotASet::DeclaredValue(0)));
    /// let ruler = "0".parse().unwrap();
    /// assert!(Set::from_cards_as(&ruler, Some(4)).is_err());
    /// ```
    pub fn from_cards_as(cards: &Cards, declared: Option<u8>) -> Result<Set, NotASet> {
        if cards.is_empty() {
            return Err(NotASet::Empty);
        }
        if cards.suited_bits() != 0 {
            if declared.is_some() {
                return Err(NotASet::DeclaredNotAlone);
            }
            if !cards.is_suited() {
                return Err(NotASet::NotAPlay(format!(
                    "{cards} mixes cards of the pack with cards of another game"
                )));
            }
            return Set::from_pack_cards(cards);
        }
        let mut deck = None;
        for (card, _) in cards.kinds() {
            match (deck, card.variant()) {
                (Some(a), Some(b)) if a != b => return Err(NotASet::MixedDecks(*cards)),
                (None, Some(b)) => deck = Some(b),
                _ => {}
            }
        }
        let size = cards.len();
        for alone in [Card::WORLD_RULER, Card::RATBERT] {
            if cards.count(alone) > 0 && size > 1 {
                return Err(NotASet::AloneOnly(alone));
            }
        }
        let (jesters, dogberts) = (cards.count(Card::JESTER), cards.count(Card::DOGBERT));
        let wedgie = cards.count(Card::TWIRLING_WEDGIE);
        let mut rank = None;
        for (card, n) in cards.kinds() {
            if card.is_wild() || card == Card::TWIRLING_WEDGIE {
                continue;
            }
            if rank.is_some() {
                return Err(NotASet::MixedRanks(*cards));
            }
            rank = Some((card, n));
        }
        if size > 255 || wedgie > 1 {
            return Err(NotASet::TooLarge);
        }
        let only_dogberts = rank.is_none() && wedgie == 0 && dogberts > 0;
        match declared {
            Some(_) if !only_dogberts => return Err(NotASet::DeclaredNotAlone),
            None if only_dogberts => return Err(NotASet::DeclaredMissing),
            _ => {}
        }
        if wedgie > 0 {
            let sixes = match rank {
                None => 0,
                Some((card, n)) if card.number() == Some(6) => n,
                Some(_) => return Err(NotASet::MixedRanks(*cards)),
            };
            return Set::wedgie(sixes, dogberts).ok_or(NotASet::TooLarge);
        }
        let set = match rank {
            Some((card, _)) if card == Card::WORLD_RULER => Some(Set::WORLD_RULER),
            Some((card, _)) if card == Card::RATBERT => Some(Set::RATBERT),
            Some((card, n)) => {
                let rank = card.rank().expect("a numbered card");
                if dogberts > 0 {
                    Set::with_dogberts(rank, n, dogberts)
                } else {
                    Set::new(rank, n, jesters)
                }
            }
            None if dogberts > 0 => {
                let value = declared.expect("checked above");
                return Set::dogberts_as(dogberts, value).ok_or(NotASet::DeclaredValue(value));
            }
            None => Set::jesters_alone(jesters),
        };
        set.ok_or(NotASet::TooLarge)
    }

    /// What the set is worth as a number, lower is better: 1..=12 for
    /// numbered cards (and their wild cards), 13 for Jesters alone; in
    /// Corporate Shuffle 0 for the World Ruler, 6 with the Wedgie, 11 for
    /// Ratbert, the declared value for Dogberts alone.
    #[inline]
    pub const fn rank_number(&self) -> u8 {
        self.rank
    }

    /// The numbered rank it plays as, or `None` for Jesters alone, the
    /// World Ruler and Ratbert.
    pub const fn rank(&self) -> Option<Rank> {
        if (self.rank == 11 && self.face == 15) || self.is_suited() {
            return None;
        }
        Rank::new(self.rank)
    }

    /// The card every card of this set counts as: its rank, the special it
    /// is, or the wild card for wild cards alone. A Wedgie counts as a 6.
    /// For a play of the pack, its lowest natural card (the Joker for a
    /// lone Joker).
    #[inline]
    pub fn face(&self) -> Card {
        if self.is_suited() {
            return self.first_natural();
        }
        Card::at(self.face as usize)
    }

    /// [`Set::face`] of a set of Dalmuti or Corporate Shuffle, without the
    /// branch: their play path.
    #[inline]
    pub(crate) fn kind_face(&self) -> Card {
        // A set of these games has its face below 17 by construction.
        Card::raw(self.face)
    }

    /// How many cards.
    #[inline]
    pub const fn size(&self) -> u8 {
        self.naturals + self.wilds + (self.flags & WEDGIE)
    }

    /// How many cards of [`Set::face`] (not the Wedgie, not wild cards).
    #[inline]
    pub const fn naturals(&self) -> u8 {
        self.naturals
    }

    /// How many wild cards: Jesters, or Dogberts.
    #[inline]
    pub const fn wilds(&self) -> u8 {
        self.wilds
    }

    /// The wild card of this set's deck, as far as the set can tell: a
    /// Dogbert if it holds any, else a Jester.
    #[inline]
    pub fn wild(&self) -> Card {
        if self.is_suited() {
            Card::JOKER
        } else if self.flags & DOGBERTS != 0 {
            Card::DOGBERT
        } else {
            Card::JESTER
        }
    }

    /// [`Set::wild`] of a set of Dalmuti or Corporate Shuffle.
    #[inline]
    pub(crate) fn kind_wild(&self) -> Card {
        if self.flags & DOGBERTS != 0 {
            Card::DOGBERT
        } else {
            Card::JESTER
        }
    }

    /// Whether the set holds the Twirling Wedgie.
    #[inline]
    pub const fn holds_wedgie(&self) -> bool {
        self.flags & WEDGIE != 0
    }

    /// Whom the Wedgie makes pass for the rest of the trick: `None` when the
    /// set has no Wedgie, or when its play ends the hand (C5).
    pub fn wedgie_target(&self) -> Option<Seat> {
        (self.target != NO_TARGET && !self.is_suited()).then(|| Seat::new(self.target as usize))
    }

    /// The value declared for a set of Dogberts alone.
    pub const fn declared(&self) -> Option<u8> {
        if self.naturals == 0 && self.flags == DOGBERTS && !self.is_suited() {
            Some(self.rank)
        } else {
            None
        }
    }

    /// Whether this is the World Ruler, which wins its trick at once.
    #[inline]
    pub const fn is_world_ruler(&self) -> bool {
        self.rank == 0 && self.face == 0
    }

    /// Whether this is Ratbert.
    #[inline]
    pub const fn is_ratbert(&self) -> bool {
        self.face == 15
    }

    /// Whether the set holds one of Corporate Shuffle's three specials,
    /// whose powers the play path handles out of line.
    #[inline]
    pub(crate) const fn is_special(&self) -> bool {
        self.face == 0 || self.face == 15 || self.flags & WEDGIE != 0
    }

    /// The cards it is made of.
    pub fn cards(&self) -> Cards {
        if self.is_suited() {
            return Cards::from_pack(self.natural_mask(), self.wilds);
        }
        let mut cards = Cards::EMPTY;
        if self.naturals > 0 {
            cards.add(self.face(), self.naturals);
        }
        if self.holds_wedgie() {
            cards.add(Card::TWIRLING_WEDGIE, 1);
        }
        cards.add(self.wild(), self.wilds);
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
    /// The cards, and `as V` for Dogberts alone: the record's words. A play
    /// of the pack: a set's cards then `as` the cards its Jokers stand for
    /// (`9H JK as 9S`); a sequence's cards in order, each Joker where it
    /// stands (`5H JK 7H`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_suited() {
            return self.fmt_suited(f);
        }
        fmt::Display::fmt(&self.cards(), f)?;
        if let Some(value) = self.declared() {
            write!(f, " as {value}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Set({self}")?;
        if let Some(target) = self.wedgie_target() {
            write!(f, " wedgie {target}")?;
        }
        f.write_str(")")
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
    /// Cards of the two games together.
    #[error("{0} mixes cards of Dalmuti and of Corporate Shuffle")]
    MixedDecks(Cards),
    /// The World Ruler or Ratbert with other cards.
    #[error("{} ({}) is played only alone", .0.own_name(), .0)]
    AloneOnly(Card),
    /// Dogberts alone without `as V`.
    #[error("a set of Dogberts alone must say what it plays as: `D as 5` (1 to 10)")]
    DeclaredMissing,
    /// `as V` for a set that is not Dogberts alone.
    #[error("only a set of Dogberts alone is played `as` a value")]
    DeclaredNotAlone,
    /// A declared value outside 1..=10.
    #[error("Dogberts alone play as 1 to 10, not {0}")]
    DeclaredValue(u8),
    /// A Wedgie target named for a set without the Wedgie.
    #[error("only a set holding the Twirling Wedgie (T) names a player")]
    TargetWithoutWedgie,
    /// More than 255 cards, or two Wedgies.
    #[error("too many cards for one set")]
    TooLarge,
    /// A token is not a card.
    #[error(transparent)]
    BadCard(#[from] crate::card::BadCard),
    /// Words that are not `CARDS` or `CARDS as V`.
    #[error("{0:?} is not a set (cards, then `as V` for Dogberts alone)")]
    BadWords(String),
    /// Cards of the pack that make no play.
    #[error("{0}")]
    NotAPlay(String),
}

impl std::str::FromStr for Set {
    type Err = NotASet;

    /// Cards as record tokens, then `as V` for Dogberts alone; a play of
    /// the pack as [`Set`]'s `Display` writes it.
    fn from_str(s: &str) -> Result<Set, NotASet> {
        if play::looks_suited(s) {
            return Set::parse_suited(s);
        }
        match s.split_once(" as ") {
            Some((cards, value)) => {
                let value = value
                    .parse::<u8>()
                    .ok()
                    .filter(|_| {
                        !value.starts_with('+') && (value == "0" || !value.starts_with('0'))
                    })
                    .ok_or_else(|| NotASet::BadWords(s.chars().take(40).collect()))?;
                Set::from_cards_as(&cards.parse::<Cards>()?, Some(value))
            }
            None => Set::from_cards(&s.parse::<Cards>()?),
        }
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
        assert_eq!((s.rank_number(), s.naturals(), s.wilds()), (5, 1, 2));
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

#[cfg(test)]
mod corporate_tests {
    use super::*;

    fn set(s: &str) -> Set {
        s.parse().unwrap()
    }

    #[test]
    fn the_wedgie_is_a_six_alone_or_with_sixes_and_dogberts() {
        for (text, size) in [("T", 1), ("6 6 T", 3), ("T D", 2), ("6 T D", 3)] {
            let s = set(text);
            assert_eq!((s.rank_number(), s.size()), (6, size), "{text}");
            assert!(s.holds_wedgie());
            assert_eq!(s.to_string(), text);
        }
        assert!(set("5").tops(&set("T")));
        assert!(set("T").tops(&set("7")));
        assert!(!set("T").tops(&set("6")));
        assert!(matches!("5 T".parse::<Set>(), Err(NotASet::MixedRanks(_))));
    }

    #[test]
    fn the_world_ruler_and_ratbert_go_alone() {
        assert!(set("0").tops(&set("1")));
        assert!(set("0").is_world_ruler());
        assert!(set("R").is_ratbert());
        assert_eq!(set("R").rank_number(), 11);
        assert!(set("10").tops(&set("R")));
        assert!(set("D as 10").tops(&set("R")));
        for bad in ["0 0", "0 D", "R D", "1 R", "0 1"] {
            let err = bad.parse::<Set>().unwrap_err();
            assert!(matches!(err, NotASet::AloneOnly(_)), "{bad}: {err}");
        }
        assert_eq!(
            "0 D".parse::<Set>().unwrap_err().to_string(),
            "Dogbert, World Ruler (0) is played only alone"
        );
    }

    #[test]
    fn dogberts_alone_declare_one_to_ten_and_only_they_do() {
        assert_eq!(set("D D as 3").to_string(), "D D as 3");
        assert_eq!("D as 0".parse::<Set>(), Err(NotASet::DeclaredValue(0)));
        assert_eq!("D as 11".parse::<Set>(), Err(NotASet::DeclaredValue(11)));
        assert_eq!("D".parse::<Set>(), Err(NotASet::DeclaredMissing));
        assert_eq!("5 D as 5".parse::<Set>(), Err(NotASet::DeclaredNotAlone));
        assert_eq!("J as 5".parse::<Set>(), Err(NotASet::DeclaredNotAlone));
        assert!("D as 05".parse::<Set>().is_err());
        assert!("D as x".parse::<Set>().is_err());
        let five_d = set("5 D");
        assert_eq!((five_d.rank_number(), five_d.wilds()), (5, 1));
        assert_ne!(five_d, set("5 J"));
        assert_eq!(set("5 5"), Set::with_dogberts(Rank::ABBESS, 2, 0).unwrap());
    }

    #[test]
    fn the_two_decks_do_not_mix() {
        for bad in ["5 J D", "11 D", "12 T", "J T"] {
            assert!(
                matches!(bad.parse::<Set>(), Err(NotASet::MixedDecks(_))),
                "{bad}"
            );
        }
    }
}
