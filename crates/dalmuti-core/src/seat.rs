//! Seats around the table, their titles, and per-seat storage.

use std::fmt;
use std::ops::{Index, IndexMut};

/// The fewest players the engine seats.
pub const MIN_PLAYERS: usize = 3;
/// The most players the engine seats.
pub const MAX_PLAYERS: usize = 16;

/// A seat in one hand: 0 is the Greater Dalmuti, then clockwise (to the
/// left) up to the Greater Peon.
///
/// ```
/// use dalmuti_core::{Seat, Title};
/// let five = 5;
/// assert_eq!(Seat::new(0).title(five), Title::GreaterDalmuti);
/// assert_eq!(Seat::new(2).title(five), Title::Merchant { class: 1 });
/// assert_eq!(Seat::new(4).title(five), Title::GreaterPeon);
/// assert_eq!(Seat::new(4).next(five), Seat::new(0));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// Seat number `index` (0 = Greater Dalmuti).
    ///
    /// # Panics
    /// If `index` is 16 or more.
    pub const fn new(index: usize) -> Seat {
        assert!(index < MAX_PLAYERS, "a table has at most 16 seats");
        Seat(index as u8)
    }

    /// The Greater Dalmuti's seat.
    pub const GREATER_DALMUTI: Seat = Seat(0);

    /// The seat number, 0-based.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat to the left (clockwise) at a table of `players`.
    #[inline]
    pub const fn next(self, players: usize) -> Seat {
        Seat(((self.0 as usize + 1) % players) as u8)
    }

    /// The seat opposite this one in the order of classes: Greater Dalmuti ↔
    /// Greater Peon, Lesser Dalmuti ↔ Lesser Peon, and so on.
    pub const fn opposite(self, players: usize) -> Seat {
        Seat((players - 1 - self.0 as usize) as u8)
    }

    /// The title of this seat at a table of `players`.
    pub fn title(self, players: usize) -> Title {
        let i = self.index();
        if i == 0 {
            Title::GreaterDalmuti
        } else if i + 1 == players {
            Title::GreaterPeon
        } else if players >= 4 && i == 1 {
            Title::LesserDalmuti
        } else if players >= 4 && i + 2 == players {
            Title::LesserPeon
        } else {
            // With three players the middle seat is a Merchant: one player
            // cannot be both Lesser Dalmuti and Lesser Peon (docs/RULES.md).
            Title::Merchant {
                class: (i - if players >= 4 { 1 } else { 0 }) as u8,
            }
        }
    }

    /// Every seat at a table of `players`, Greater Dalmuti first.
    pub fn all(players: usize) -> impl DoubleEndedIterator<Item = Seat> + Clone {
        (0..players as u8).map(Seat)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// A player's social class for a hand, given by the seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Title {
    /// Seat 0: won the last hand; leads the first round, collects taxes.
    GreaterDalmuti,
    /// Seat 1 (with four or more players).
    LesserDalmuti,
    /// The seats between; `class` 1 is the highest Merchant.
    Merchant {
        /// 1 for the highest-class Merchant, then 2, 3…
        class: u8,
    },
    /// Second to last seat (with four or more players).
    LesserPeon,
    /// The last seat: lost the last hand; pays the heaviest tax.
    GreaterPeon,
}

impl Title {
    /// The title as a key, the same in every variant and language:
    /// `greater-dalmuti`, `lesser-dalmuti`, `merchant`, `lesser-peon`,
    /// `greater-peon`. Clients word it from their catalogues
    /// (`dalmuti.title.merchant`, `corporate-shuffle.title.merchant`).
    ///
    /// ```
    /// use dalmuti_core::Seat;
    /// let keys: Vec<&str> = Seat::all(4).map(|s| s.title(4).key()).collect();
    /// assert_eq!(keys, ["greater-dalmuti", "lesser-dalmuti", "lesser-peon", "greater-peon"]);
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            Title::GreaterDalmuti => "greater-dalmuti",
            Title::LesserDalmuti => "lesser-dalmuti",
            Title::Merchant { .. } => "merchant",
            Title::LesserPeon => "lesser-peon",
            Title::GreaterPeon => "greater-peon",
        }
    }

    /// The title in words, e.g. "Lesser Dalmuti" or "Merchant".
    pub fn name(self) -> &'static str {
        match self {
            Title::GreaterDalmuti => "Greater Dalmuti",
            Title::LesserDalmuti => "Lesser Dalmuti",
            Title::Merchant { .. } => "Merchant",
            Title::LesserPeon => "Lesser Peon",
            Title::GreaterPeon => "Greater Peon",
        }
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per seat, indexed by [`Seat`]; room for the largest table, so
/// no allocation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PerSeat<T>([T; MAX_PLAYERS]);

impl<T: Copy + Default> Default for PerSeat<T> {
    fn default() -> Self {
        PerSeat([T::default(); MAX_PLAYERS])
    }
}

// A seat is below 16 by construction; the mask tells the compiler so, and
// the play path has no bounds check per access.
impl<T> Index<Seat> for PerSeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index() % MAX_PLAYERS]
    }
}

impl<T> IndexMut<Seat> for PerSeat<T> {
    #[inline]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index() % MAX_PLAYERS]
    }
}

impl<T> PerSeat<T> {
    /// Values for seats 0..16 in order.
    pub(crate) fn from_array(values: [T; MAX_PLAYERS]) -> PerSeat<T> {
        PerSeat(values)
    }

    /// The first `players` values, in seat order.
    pub fn as_slice(&self, players: usize) -> &[T] {
        &self.0[..players]
    }

    /// Reverses the first `players` values: seat i trades with its opposite.
    pub(crate) fn reverse(&mut self, players: usize) {
        self.0[..players].reverse();
    }
}

/// A set of seats as a bit mask (bit i = seat i).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats(u16);

impl Seats {
    /// No seat.
    pub const NONE: Seats = Seats(0);

    /// Just this seat.
    #[inline]
    pub const fn only(seat: Seat) -> Seats {
        Seats(1 << seat.0)
    }

    /// Seats 0..players.
    pub const fn first(players: usize) -> Seats {
        Seats(((1u32 << players) - 1) as u16)
    }

    /// Whether `seat` is in the set.
    #[inline]
    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    /// Adds `seat`.
    #[inline]
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    /// Removes `seat`.
    #[inline]
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    /// The seats of `self` that are not in `other`.
    ///
    /// ```
    /// use dalmuti_core::{Seat, Seats};
    /// let rest = Seats::first(3).without(Seats::only(Seat::new(1)));
    /// assert_eq!(rest.iter().map(Seat::index).collect::<Vec<_>>(), [0, 2]);
    /// ```
    #[inline]
    pub const fn without(self, other: Seats) -> Seats {
        Seats(self.0 & !other.0)
    }

    /// How many seats.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The first seat clockwise after `seat` that is in the set (possibly
    /// `seat` itself, after a full turn), or `None` if the set is empty.
    #[inline]
    pub fn next_after(self, seat: Seat) -> Option<Seat> {
        if self.0 == 0 {
            return None;
        }
        let after = (self.0 as u32) & !((2u32 << seat.0) - 1);
        let bits = if after != 0 { after } else { self.0 as u32 };
        Some(Seat(bits.trailing_zeros() as u8))
    }

    /// The first seat counter-clockwise before `seat` that is in the set
    /// (possibly `seat` itself, after a full turn), or `None` if empty.
    ///
    /// ```
    /// use dalmuti_core::{Seat, Seats};
    /// let s = Seats::first(4).without(Seats::only(Seat::new(2)));
    /// assert_eq!(s.next_before(Seat::new(3)), Some(Seat::new(1)));
    /// assert_eq!(s.next_before(Seat::new(0)), Some(Seat::new(3)));
    /// ```
    #[inline]
    pub fn next_before(self, seat: Seat) -> Option<Seat> {
        if self.0 == 0 {
            return None;
        }
        let below = (self.0 as u32) & ((1u32 << seat.0) - 1);
        let bits = if below != 0 { below } else { self.0 as u32 };
        Some(Seat(31 - bits.leading_zeros() as u8))
    }

    /// The lowest seat in the set.
    pub fn first_seat(self) -> Option<Seat> {
        (self.0 != 0).then(|| Seat(self.0.trailing_zeros() as u8))
    }

    /// The seats, lowest first.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        // One step per seat in the set, not per place at the table: bots
        // walk the seats still holding cards at every decision.
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let seat = Seat(bits.trailing_zeros() as u8);
                bits &= bits - 1;
                seat
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_for_every_table_size() {
        let names = |n| Seat::all(n).map(|s| s.title(n).name()).collect::<Vec<_>>();
        assert_eq!(names(3), ["Greater Dalmuti", "Merchant", "Greater Peon"]);
        assert_eq!(
            names(4),
            [
                "Greater Dalmuti",
                "Lesser Dalmuti",
                "Lesser Peon",
                "Greater Peon"
            ]
        );
        assert_eq!(
            names(6),
            [
                "Greater Dalmuti",
                "Lesser Dalmuti",
                "Merchant",
                "Merchant",
                "Lesser Peon",
                "Greater Peon"
            ]
        );
        assert_eq!(Seat::new(3).title(6), Title::Merchant { class: 2 });
    }

    #[test]
    fn next_after_wraps_round_the_table() {
        let mut s = Seats::NONE;
        s.insert(Seat::new(1));
        s.insert(Seat::new(4));
        assert_eq!(s.next_after(Seat::new(1)), Some(Seat::new(4)));
        assert_eq!(s.next_after(Seat::new(4)), Some(Seat::new(1)));
        assert_eq!(s.next_after(Seat::new(2)), Some(Seat::new(4)));
        assert_eq!(
            Seats::only(Seat::new(3)).next_after(Seat::new(3)),
            Some(Seat::new(3))
        );
        assert_eq!(Seats::NONE.next_after(Seat::new(0)), None);
        let all = Seats::first(16);
        assert_eq!(all.next_after(Seat::new(15)), Some(Seat::new(0)));
    }
}
