//! The five rows of card cells of a table: a hand, a play, the cards on
//! the table or an exchange, read and written as the reference server does
//! (`man/protocol.html` § 13.2, § 13.4; the kit's `external.c`:
//! `count_card_num`, `analyze_card`, `check_include_card`).
//!
//! Row 0 is spades, 1 hearts, 2 diamonds, 3 clubs; column 1 is the 3 …
//! column 13 the 2. A card is a 1. A Joker is a 2: in a hand at `[4][1]`;
//! in a play at the card it stands for (a fifth card of a rank in row 4,
//! a sequence's place below the 3 or above the 2 in columns 0 and 14); a
//! lone Joker anywhere in rows 0 to 3.

use std::fmt;

use dalmuti_core::{Action, Card, Cards, Set, SetKind, Suit};

use crate::wire::{COLUMNS, RawTable};

/// Rows of card cells.
pub const CARD_ROWS: usize = 5;

/// Where this crate puts a lone Joker it plays: above the 2 of spades, as
/// the kit's default client does (`lowSolo`).
pub const LONE_JOKER_CELL: (usize, usize) = (0, 14);

/// The card cells of a table (rows 0 to 4), as sent.
///
/// ```
/// use dalmuti_uecda::{Cells, Submitted};
/// let nines: dalmuti_core::Set = "9H JK as 9S".parse().unwrap();
/// let cells = Cells::of_play(&nines);
/// assert_eq!((cells.get(1, 7), cells.get(0, 7)), (1, 2)); // 9♥, and the Joker as 9♠
/// assert_eq!(cells.read(), Submitted::Play(nines));
/// let hand: dalmuti_core::Cards = "3D 10H JK".parse().unwrap();
/// assert_eq!(Cells::of_hand(&hand).get(4, 1), 2);
/// assert_eq!(Cells::of_hand(&hand).hand(), Ok(hand));
/// assert_eq!(Cells::EMPTY.read(), Submitted::Pass);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Cells([[i32; COLUMNS]; CARD_ROWS]);

/// A table a player sent to play, as the reference server reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Submitted {
    /// No card: a pass (`protocol.html` § 13.4.2). A table whose card cells
    /// hold nothing but values other than 1 and 2 is a pass too: the
    /// server counts only 1s and 2s.
    Pass,
    /// A play of the pack; whether the rules take it is the engine's to say.
    Play(Set),
    /// Cards that are no play (the server answers 8 and counts a pass).
    Unreadable(Unreadable),
}

/// Why a table's cards are no play, cell by cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Unreadable {
    /// A card cell holding something other than 0, 1 or 2.
    #[error("cell [{row}][{column}] holds {value}: a card cell holds 0, 1 (a card) or 2 (a Joker)")]
    Value {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
        /// What it holds.
        value: i32,
    },
    /// A card beyond the 3 or the 2 (columns 0 and 14 hold only a Joker).
    #[error(
        "cell [{row}][{column}] is a card beyond the 3 or the 2: columns 0 and 14 hold only a Joker's 2"
    )]
    OffTheEnds {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
    },
    /// A card in row 4, which holds only a Joker.
    #[error("cell [4][{column}] is a card in row 4, which holds only a Joker's 2")]
    FifthRow {
        /// The column.
        column: usize,
    },
    /// More than one Joker.
    #[error("two Jokers: the pack has one")]
    TwoJokers,
    /// A run of two in a row.
    #[error("a sequence of {0} cards: a sequence is three or more")]
    ShortSequence(usize),
    /// Cards neither of one column nor in a row of one suit.
    #[error("the cards are neither one rank (one column) nor one suit in a row (one row)")]
    Scattered,
    /// A Joker in row 4 without all four suits of its rank beside it.
    #[error("a Joker in row 4 stands only as the fifth card of a rank played in all four suits")]
    JokerRow,
}

/// Why a rich player's exchange table cannot be taken (the server then
/// gives their strongest cards in its place).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadGift {
    /// Not as many cards as owed.
    #[error("{given} card(s) where {needed} are owed")]
    Count {
        /// Cards in the table.
        given: u32,
        /// Cards owed.
        needed: u8,
    },
    /// A card cell the player does not hold.
    #[error("cell [{row}][{column}] is a card the player does not hold")]
    NotHeld {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
    },
    /// A table the server reads as faulty (a value other than 0, 1 or 2, a
    /// card beyond the ends or in row 4, two Jokers).
    #[error("{0}")]
    Unreadable(Unreadable),
}

/// A hand table whose cells are not a hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cell [{row}][{column}] holds {value}, which is no card of a hand (1 at rows 0-3, columns 1-13; a Joker's 2 at [4][1])"
)]
pub struct BadHand {
    /// The row.
    pub row: usize,
    /// The column.
    pub column: usize,
    /// What it holds.
    pub value: i32,
}

impl Cells {
    /// No cards.
    pub const EMPTY: Cells = Cells([[0; COLUMNS]; CARD_ROWS]);

    /// The card cells of a table.
    pub fn of_table(table: &RawTable) -> Cells {
        let mut cells = Cells::EMPTY;
        for (r, row) in cells.0.iter_mut().enumerate() {
            *row = *table.row(r);
        }
        cells
    }

    /// Writes these cells into a table's rows 0 to 4.
    pub fn write_into(&self, table: &mut RawTable) {
        for (r, row) in self.0.iter().enumerate() {
            *table.row_mut(r) = *row;
        }
    }

    /// A table holding only these cells (a play, an exchange).
    pub fn to_table(&self) -> RawTable {
        let mut t = RawTable::ZERO;
        self.write_into(&mut t);
        t
    }

    /// The cell at `row` (0 to 4), `column` (0 to 14).
    pub fn get(&self, row: usize, column: usize) -> i32 {
        self.0[row][column]
    }

    /// Sets a cell.
    pub fn set(&mut self, row: usize, column: usize, value: i32) {
        self.0[row][column] = value;
    }

    /// A hand as the server holds it: each card a 1, a Joker a 2 at `[4][1]`.
    /// Also an exchange, which the server reads the same way.
    pub fn of_hand(cards: &Cards) -> Cells {
        let mut cells = Cells::EMPTY;
        for card in Card::pack() {
            if cards.count(card) > 0 {
                let (row, col) = cell_of(card);
                cells.0[row][col] = 1;
            }
        }
        if cards.jokers() > 0 {
            cells.0[4][1] = 2;
        }
        cells
    }

    /// A play as a client sends it: its cards as 1s and each Joker a 2 at
    /// the card it stands for (a Joker beyond the four suits in row 4; a
    /// lone Joker at [`LONE_JOKER_CELL`]).
    pub fn of_play(set: &Set) -> Cells {
        let mut cells = Cells::of_hand(&Cards::from_pack(set.cards().pack_mask(), 0));
        match set.kind() {
            SetKind::LoneJoker => {
                let (row, col) = LONE_JOKER_CELL;
                cells.0[row][col] = 2;
            }
            SetKind::OfRank => {
                let place = usize::from(set.places().0);
                for card in set.jokers_stand_for().iter() {
                    let (row, col) = cell_of(card);
                    cells.0[row][col] = 2;
                }
                if set.suit_mask() & 0x10 != 0 {
                    cells.0[4][place] = 2;
                }
            }
            SetKind::Sequence => {
                let suit = set.sequence_suit().map_or(0, Suit::index);
                let (low, high) = set.places();
                for place in low..=high {
                    let col = usize::from(place);
                    if cells.0[suit][col] == 0 {
                        cells.0[suit][col] = 2;
                    }
                }
            }
            SetKind::Dalmuti => {}
        }
        cells
    }

    /// An action as a client sends it: a play's cells, the cards given
    /// back in the exchange, and nothing (a pass) for any other.
    ///
    /// ```
    /// use dalmuti_core::Action;
    /// use dalmuti_uecda::Cells;
    /// assert_eq!(Cells::of_action(&Action::Pass), Cells::EMPTY);
    /// let gift = Action::GiveTax("3C JK".parse().unwrap());
    /// assert_eq!(Cells::of_action(&gift).get(4, 1), 2);
    /// ```
    pub fn of_action(action: &Action) -> Cells {
        match action {
            Action::Play(set) => Cells::of_play(set),
            Action::GiveTax(cards) => Cells::of_hand(cards),
            _ => Cells::EMPTY,
        }
    }

    /// Whether no cell holds anything.
    pub fn is_empty(&self) -> bool {
        *self == Cells::EMPTY
    }

    /// The hand in a table the server sent: 1s at rows 0 to 3, columns 1
    /// to 13, and the Joker's 2 at `[4][1]`.
    pub fn hand(&self) -> Result<Cards, BadHand> {
        let mut mask = 0u64;
        let mut jokers = 0;
        for (row, cells) in self.0.iter().enumerate() {
            for (column, &value) in cells.iter().enumerate() {
                match (value, row, column) {
                    (0, _, _) => {}
                    (1, 0..=3, 1..=13) => mask |= 1 << (4 * (column - 1) + row),
                    (2, 4, 1) => jokers = 1,
                    _ => return Err(BadHand { row, column, value }),
                }
            }
        }
        Ok(Cards::from_pack(mask, jokers))
    }

    /// A play or a pass, read as the reference server reads a player's
    /// table: count the 1s and 2s of rows 0 to 4 (`count_card_num`); find
    /// the first card by column, then by row; a card beside it in its row
    /// makes a sequence along that row, else the play is that column
    /// (`analyze_card`). Whether the rules take the play is the engine's
    /// to say.
    ///
    /// ```
    /// use dalmuti_uecda::{Cells, Submitted, Unreadable};
    /// let mut cells = Cells::EMPTY;
    /// cells.set(0, 0, 2); // a Joker below the 3 of spades …
    /// cells.set(0, 1, 1); // … the 3 and 4 of spades
    /// cells.set(0, 2, 1);
    /// assert_eq!(cells.read(), Submitted::Play("JK 3S 4S".parse().unwrap()));
    /// cells.set(0, 2, 0);
    /// assert_eq!(cells.read(), Submitted::Unreadable(Unreadable::ShortSequence(2)));
    /// ```
    pub fn read(&self) -> Submitted {
        let mut cards = 0usize;
        let mut jokers = 0;
        let mut fault = None;
        for (row, cells) in self.0.iter().enumerate() {
            for (column, &value) in cells.iter().enumerate() {
                match value {
                    0 => {}
                    1 => {
                        cards += 1;
                        if column == 0 || column == 14 {
                            fault.get_or_insert(Unreadable::OffTheEnds { row, column });
                        } else if row == 4 {
                            fault.get_or_insert(Unreadable::FifthRow { column });
                        }
                    }
                    2 => {
                        cards += 1;
                        jokers += 1;
                    }
                    _ => {
                        fault.get_or_insert(Unreadable::Value { row, column, value });
                    }
                }
            }
        }
        if cards == 0 {
            return Submitted::Pass;
        }
        if jokers >= 2 {
            return Submitted::Unreadable(Unreadable::TwoJokers);
        }
        if let Some(fault) = fault {
            return Submitted::Unreadable(fault);
        }
        match self.shape(cards) {
            Ok(set) => Submitted::Play(set),
            Err(why) => Submitted::Unreadable(why),
        }
    }

    /// The play made by `cards` cells of 1 or 2 (checked to be cards).
    fn shape(&self, cards: usize) -> Result<Set, Unreadable> {
        let c = &self.0;
        let (row, col) = (0..COLUMNS)
            .flat_map(|col| (0..CARD_ROWS).map(move |row| (row, col)))
            .find(|&(row, col)| c[row][col] != 0)
            .expect("a card was counted");
        if col != 14 && c[row][col + 1] != 0 {
            let len = (col..COLUMNS).take_while(|&k| c[row][k] != 0).count();
            if len <= 2 {
                return Err(Unreadable::ShortSequence(len));
            }
            if len != cards {
                return Err(Unreadable::Scattered);
            }
            let suit = Suit::from_index(row).ok_or(Unreadable::Scattered)?;
            let jokers_at = (0..len)
                .filter(|&i| c[row][col + i] == 2)
                .fold(0u16, |m, i| m | 1 << i);
            return Set::sequence(suit, col as u8, len as u8, jokers_at)
                .ok_or(Unreadable::Scattered);
        }
        let in_column: Vec<usize> = (0..CARD_ROWS).filter(|&r| c[r][col] != 0).collect();
        if in_column.len() != cards {
            return Err(Unreadable::Scattered);
        }
        let suits = in_column.iter().fold(0u8, |m, &r| m | 1 << r);
        if suits >= 0x10 && suits != 0x1F {
            return Err(Unreadable::JokerRow);
        }
        if cards == 1 && c[row][col] == 2 {
            return Ok(Set::LONE_JOKER);
        }
        let naturals = in_column
            .iter()
            .filter(|&&r| c[r][col] == 1)
            .fold(0u8, |m, &r| m | 1 << r);
        let joker_suits = in_column
            .iter()
            .filter(|&&r| r < 4 && c[r][col] == 2)
            .fold(0u8, |m, &r| m | 1 << r);
        let extra = u8::from(c[4][col] == 2);
        Set::of_rank(col as u8, naturals, joker_suits, extra).ok_or(Unreadable::Scattered)
    }

    /// The cards a rich player gives back in the exchange, read as the
    /// reference server reads them (`daihu.c`): as many 1s and 2s in rows
    /// 0 to 4 as are owed, each 1 a card held and a 2 the Joker, held. The
    /// 大富豪's table must also be free of other faults (a value other
    /// than 0, 1, 2, a card beyond the ends or in row 4, two Jokers); the
    /// server does not check the 富豪's for them, so in a 富豪's table a
    /// cell of another value is passed over (`strict` false).
    ///
    /// ```
    /// use dalmuti_uecda::{BadGift, Cells};
    /// let held: dalmuti_core::Cards = "3S 4H 2C JK".parse().unwrap();
    /// let gift = Cells::of_hand(&"3S JK".parse().unwrap());
    /// assert_eq!(gift.read_gift(&held, 2, true), Ok("3S JK".parse().unwrap()));
    /// assert_eq!(gift.read_gift(&held, 1, false), Err(BadGift::Count { given: 2, needed: 1 }));
    /// let mut stray = Cells::of_hand(&"4H".parse().unwrap());
    /// stray.set(3, 3, 7);
    /// assert!(stray.read_gift(&held, 1, true).is_err());
    /// assert_eq!(stray.read_gift(&held, 1, false), Ok("4H".parse().unwrap()));
    /// ```
    pub fn read_gift(&self, held: &Cards, owed: u8, strict: bool) -> Result<Cards, BadGift> {
        let mut given = Cards::EMPTY;
        let mut count = 0u32;
        let mut fault = None;
        let mut jokers = 0;
        for (row, cells) in self.0.iter().enumerate() {
            for (column, &value) in cells.iter().enumerate() {
                match value {
                    0 => {}
                    1 => {
                        count += 1;
                        let card = (row < 4 && (1..=13).contains(&column))
                            .then(|| Card::suited(column as u8, Suit::ALL[row]))
                            .flatten();
                        match card {
                            Some(card) if held.count(card) > 0 => given.add(card, 1),
                            _ => return Err(BadGift::NotHeld { row, column }),
                        }
                        if column == 0 || column == 14 {
                            fault.get_or_insert(Unreadable::OffTheEnds { row, column });
                        }
                    }
                    2 => {
                        count += 1;
                        jokers += 1;
                        if held.jokers() == 0 {
                            return Err(BadGift::NotHeld { row, column });
                        }
                        given.add(Card::JOKER, 1);
                    }
                    _ => {
                        fault.get_or_insert(Unreadable::Value { row, column, value });
                    }
                }
            }
        }
        if jokers >= 2 {
            fault = Some(Unreadable::TwoJokers);
        }
        if count != u32::from(owed) {
            return Err(BadGift::Count {
                given: count,
                needed: owed,
            });
        }
        match fault {
            Some(fault) if strict => Err(BadGift::Unreadable(fault)),
            _ => Ok(given),
        }
    }
}

/// The cell of a card of the pack.
fn cell_of(card: Card) -> (usize, usize) {
    let suit = card.suit().map_or(0, Suit::index);
    let place = card.place().map_or(0, usize::from);
    (suit, place)
}

impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cells({})", self.to_table())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> Cells {
        Cells::of_table(&text.parse().unwrap())
    }

    #[test]
    fn every_kind_of_play_round_trips() {
        for text in [
            "3S",
            "2C",
            "9H JK as 9S",
            "9S 9H 9D 9C JK",
            "5S 5H 5D JK as 5C",
            "5H JK 7H",
            "JK 3S 4S",
            "KS AS 2S JK",
            "3D 4D 5D 6D 7D",
            "JK",
            "QS QH QD QC",
        ] {
            let set: Set = text.parse().unwrap();
            assert_eq!(Cells::of_play(&set).read(), Submitted::Play(set), "{text}");
        }
    }

    #[test]
    fn tables_the_server_refuses_say_why() {
        let cases = [
            ("0.1=1 0.2=1", Unreadable::ShortSequence(2)),
            ("0.1=1 1.5=1", Unreadable::Scattered),
            ("0.1=1 0.2=1 0.3=1 1.1=1", Unreadable::Scattered),
            ("0.0=1", Unreadable::OffTheEnds { row: 0, column: 0 }),
            ("4.3=1", Unreadable::FifthRow { column: 3 }),
            ("0.3=2 1.3=2", Unreadable::TwoJokers),
            (
                "0.3=1 2.3=5",
                Unreadable::Value {
                    row: 2,
                    column: 3,
                    value: 5,
                },
            ),
            ("4.1=2", Unreadable::JokerRow),
            ("0.5=1 4.5=2", Unreadable::JokerRow),
        ];
        for (text, why) in cases {
            assert_eq!(cells(text).read(), Submitted::Unreadable(why), "{text}");
        }
        // Only values that are no card: the server counts no card, a pass.
        assert_eq!(cells("2.3=7").read(), Submitted::Pass);
        // A lone Joker anywhere in rows 0 to 3.
        assert_eq!(cells("3.9=2").read(), Submitted::Play(Set::LONE_JOKER));
        // Rows 5 to 7 are not cards.
        assert_eq!(
            cells("0.5=1").read(),
            Submitted::Play("7S".parse().unwrap())
        );
    }

    #[test]
    fn hands_read_back_and_refuse_stray_cells() {
        let hand: Cards = "3S 3C 10D 2H JK".parse().unwrap();
        assert_eq!(Cells::of_hand(&hand).hand(), Ok(hand));
        assert_eq!(
            cells("0.14=1").hand(),
            Err(BadHand {
                row: 0,
                column: 14,
                value: 1
            })
        );
        assert!(cells("0.3=2").hand().is_err());
    }

    #[test]
    fn gifts_follow_the_servers_checks() {
        let held: Cards = "3S 4H 5D 2C JK".parse().unwrap();
        assert_eq!(
            cells("0.1=1 1.2=1").read_gift(&held, 2, true),
            Ok("3S 4H".parse().unwrap())
        );
        // A Joker's 2 anywhere in the five rows gives the Joker.
        assert_eq!(
            cells("0.1=1 2.9=2").read_gift(&held, 2, true),
            Ok("3S JK".parse().unwrap())
        );
        assert_eq!(
            cells("0.2=1").read_gift(&held, 1, false),
            Err(BadGift::NotHeld { row: 0, column: 2 })
        );
        assert_eq!(
            cells("0.1=1").read_gift(&held, 2, true),
            Err(BadGift::Count {
                given: 1,
                needed: 2
            })
        );
        let no_joker: Cards = "3S 4H".parse().unwrap();
        assert!(cells("0.1=1 3.3=2").read_gift(&no_joker, 2, true).is_err());
    }
}
