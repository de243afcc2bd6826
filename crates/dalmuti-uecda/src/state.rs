//! The typed messages: a client's first table (table 1), the tables the
//! server sends (table 2: a hand, or the cards on the table, with the
//! game's state), the answer to a play and the end flag
//! (`man/protocol.html` § 13.2, § 13.3).

use std::fmt;

use crate::cells::Cells;
use crate::wire::{COLUMNS, Protocol, RawTable};

/// Players at a contest table.
pub const PLAYERS: usize = 5;

/// A player's number: the order they connected in, 0 to 4. Tables list
/// card counts and classes by it, and seats hold it.
///
/// ```
/// use dalmuti_uecda::PlayerNo;
/// assert_eq!(PlayerNo::new(3).unwrap().to_string(), "player 3");
/// assert!(PlayerNo::new(5).is_none());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerNo(u8);

impl PlayerNo {
    /// The five players, 0 first.
    pub const ALL: [PlayerNo; PLAYERS] = [
        PlayerNo(0),
        PlayerNo(1),
        PlayerNo(2),
        PlayerNo(3),
        PlayerNo(4),
    ];

    /// Player `number`, if it is 0 to 4.
    pub const fn new(number: usize) -> Option<PlayerNo> {
        if number < PLAYERS {
            Some(PlayerNo(number as u8))
        } else {
            None
        }
    }

    /// 0 to 4.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for PlayerNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0)
    }
}

/// A client's first table (table 1): its protocol and its name.
///
/// ```
/// use dalmuti_uecda::{Hello, Protocol};
/// let hello = Hello::new(Protocol::Tables, "expert");
/// let table = hello.to_table();
/// assert_eq!((table.get(0, 0), table.get(1, 0), table.get(1, 6)), (20070, 'e' as i32, 0));
/// assert_eq!(Hello::from_table(&table), hello);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hello {
    /// The protocol number at `[0][0]`: 20070 or 20140 for the protocols
    /// this crate speaks.
    pub protocol: i32,
    /// The name at `[1][0..15]`, one character a cell, up to the first 0:
    /// printable ASCII, anything else read as `?`.
    pub name: String,
}

/// The longest name a table holds.
pub const NAME_CELLS: usize = 15;

impl Hello {
    /// A client's first table, its name cut to what a table holds.
    pub fn new(protocol: Protocol, name: &str) -> Hello {
        Hello {
            protocol: protocol.number(),
            name: clean_name(name.bytes().map(i32::from)),
        }
    }

    /// The protocol, if one this crate speaks.
    pub fn protocol(&self) -> Option<Protocol> {
        Protocol::from_number(self.protocol)
    }

    /// The table (the name's last cell is always 0, as C clients end it).
    pub fn to_table(&self) -> RawTable {
        let mut t = RawTable::ZERO;
        t.set(0, 0, self.protocol);
        for (i, b) in self.name.bytes().take(NAME_CELLS - 1).enumerate() {
            t.set(1, i, i32::from(b));
        }
        t
    }

    /// Reads a client's first table.
    pub fn from_table(table: &RawTable) -> Hello {
        Hello {
            protocol: table.get(0, 0),
            name: clean_name(table.row(1).iter().copied()),
        }
    }
}

fn clean_name(cells: impl Iterator<Item = i32>) -> String {
    cells
        .take(NAME_CELLS - 1)
        .take_while(|&c| c != 0)
        .map(|c| match u8::try_from(c) {
            Ok(b) if b.is_ascii_graphic() || b == b' ' => b as char,
            _ => '?',
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Whose turn a table says it is (`[5][3]`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The cards are being dealt and exchanged (the server writes 6).
    Dealing,
    /// This player's: to play next in a hand table, just played or passed
    /// in a table of the cards on the table.
    Player(PlayerNo),
}

/// A table the server sends (table 2): a player's hand, or the cards on
/// the table, with the game's state in rows 5 and 6.
///
/// ```
/// use dalmuti_uecda::{Cells, PlayerNo, StateTable, Turn};
/// let mut state = StateTable::default();
/// state.turn = Turn::Player(PlayerNo::new(2).unwrap());
/// state.revolution = true;
/// state.counts = [11, 11, 11, 10, 10];
/// let table = state.to_table();
/// assert_eq!((table.get(5, 3), table.get(5, 6), table.get(6, 3)), (2, 1, 10));
/// assert_eq!(StateTable::from_table(&table), Ok(state));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateTable {
    /// Rows 0 to 4: the player's hand, or the cards on the table.
    pub cards: Cells,
    /// `[5][0]`: the cards are being exchanged (set for everyone in the
    /// tables dealt at the start of a game).
    pub exchanging: bool,
    /// `[5][1]`: in the dealt tables, how many cards this player gives
    /// back: 2 for the 大富豪, 1 for the 富豪; the server holds −1 and −2
    /// for the 貧民 and 大貧民 (cards taken from them), which protocol 20070
    /// sends as 0 and 20140 as they are.
    pub exchange: i8,
    /// `[5][2]`: it is this player's turn to play.
    pub my_turn: bool,
    /// `[5][3]`: whose turn.
    pub turn: Turn,
    /// `[5][4]`: no cards on the table (場が流れた).
    pub table_clear: bool,
    /// `[5][5]`: 11-back is in force (always 0 under the contest's rules).
    pub eleven_back: bool,
    /// `[5][6]`: a revolution is in force.
    pub revolution: bool,
    /// `[5][7]`: the suits are locked.
    pub lock: bool,
    /// `[6][0..5]`: each player's card count, by player number.
    pub counts: [u8; PLAYERS],
    /// `[6][5..10]`: each player's class, by player number: 0 the 大富豪 …
    /// 4 the 大貧民; all 0 in a game without classes.
    pub classes: [u8; PLAYERS],
    /// `[6][10..15]`: the player in each seat, seat 0 first; play goes up
    /// the seats.
    pub seats: [PlayerNo; PLAYERS],
}

impl Default for StateTable {
    fn default() -> StateTable {
        StateTable {
            cards: Cells::EMPTY,
            exchanging: false,
            exchange: 0,
            my_turn: false,
            turn: Turn::Dealing,
            table_clear: false,
            eleven_back: false,
            revolution: false,
            lock: false,
            counts: [0; PLAYERS],
            classes: [0; PLAYERS],
            seats: PlayerNo::ALL,
        }
    }
}

/// A table the server sent that is not a state table: where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cell [{row}][{column}] holds {value}: {why}")]
pub struct BadState {
    /// The row.
    pub row: usize,
    /// The column.
    pub column: usize,
    /// What it holds.
    pub value: i32,
    /// What it should hold.
    pub why: &'static str,
}

impl StateTable {
    /// The table, cells beyond those named 0.
    pub fn to_table(&self) -> RawTable {
        let mut t = RawTable::ZERO;
        self.cards.write_into(&mut t);
        let flag = i32::from;
        let row5 = [
            flag(self.exchanging),
            i32::from(self.exchange),
            flag(self.my_turn),
            match self.turn {
                Turn::Dealing => 6,
                Turn::Player(p) => p.index() as i32,
            },
            flag(self.table_clear),
            flag(self.eleven_back),
            flag(self.revolution),
            flag(self.lock),
        ];
        t.row_mut(5)[..row5.len()].copy_from_slice(&row5);
        let row6 = t.row_mut(6);
        for p in 0..PLAYERS {
            row6[p] = i32::from(self.counts[p]);
            row6[PLAYERS + p] = i32::from(self.classes[p]);
            row6[2 * PLAYERS + p] = self.seats[p].index() as i32;
        }
        t
    }

    /// Reads a table the server sent, checking every named cell; other
    /// cells are not read.
    pub fn from_table(t: &RawTable) -> Result<StateTable, BadState> {
        let cell = |row: usize, column: usize| t.get(row, column);
        let bad = |row, column, why| BadState {
            row,
            column,
            value: cell(row, column),
            why,
        };
        let flag = |column| match cell(5, column) {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(bad(5, column, "a flag is 0 or 1")),
        };
        let exchange = i8::try_from(cell(5, 1))
            .ok()
            .filter(|e| (-2..=2).contains(e))
            .ok_or_else(|| bad(5, 1, "the cards to exchange are -2 to 2"))?;
        let turn = match cell(5, 3) {
            6 => Turn::Dealing,
            n => Turn::Player(
                usize::try_from(n)
                    .ok()
                    .and_then(PlayerNo::new)
                    .ok_or_else(|| bad(5, 3, "the turn is a player 0 to 4, or 6 while dealing"))?,
            ),
        };
        let mut counts = [0u8; PLAYERS];
        let mut classes = [0u8; PLAYERS];
        let mut seats = PlayerNo::ALL;
        let mut seen = 0u8;
        for p in 0..PLAYERS {
            counts[p] = u8::try_from(cell(6, p))
                .ok()
                .filter(|&n| n <= 53)
                .ok_or_else(|| bad(6, p, "a card count is 0 to 53"))?;
            classes[p] = u8::try_from(cell(6, PLAYERS + p))
                .ok()
                .filter(|&c| c < 5)
                .ok_or_else(|| bad(6, PLAYERS + p, "a class is 0 to 4"))?;
            let column = 2 * PLAYERS + p;
            let seat = usize::try_from(cell(6, column))
                .ok()
                .and_then(PlayerNo::new)
                .filter(|s| seen & 1 << s.index() == 0)
                .ok_or_else(|| bad(6, column, "each seat holds another player, 0 to 4"))?;
            seen |= 1 << seat.index();
            seats[p] = seat;
        }
        Ok(StateTable {
            cards: Cells::of_table(t),
            exchanging: flag(0)?,
            exchange,
            my_turn: flag(2)?,
            turn,
            table_clear: flag(4)?,
            eleven_back: flag(5)?,
            revolution: flag(6)?,
            lock: flag(7)?,
            counts,
            classes,
            seats,
        })
    }

    /// Whether the game has classes: in a game without them every class
    /// cell is 0.
    pub fn has_classes(&self) -> bool {
        self.classes.iter().any(|&c| c != 0)
    }

    /// The seat (0 to 4) of a player.
    pub fn seat_of(&self, player: PlayerNo) -> usize {
        self.seats.iter().position(|&p| p == player).unwrap_or(0)
    }
}

/// The server's answer to a play (`protocol.html`, 通信8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ack {
    /// 9: the play was taken (and a pass on an empty table).
    Accepted,
    /// 8: the play was refused and counts as a pass (and a pass while
    /// cards are on the table, which the reference server also answers 8).
    Refused,
}

impl Ack {
    /// The integer sent.
    pub const fn number(self) -> i32 {
        match self {
            Ack::Accepted => 9,
            Ack::Refused => 8,
        }
    }

    /// The answer of an integer read, if it is one.
    pub const fn from_number(n: i32) -> Option<Ack> {
        match n {
            9 => Some(Ack::Accepted),
            8 => Some(Ack::Refused),
            _ => None,
        }
    }
}

/// The integer after each turn (`protocol.html`, 通信10).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndFlag {
    /// 0: the game goes on.
    Continue,
    /// 1: the game is over; another follows.
    GameOver,
    /// 2: the game and the match are over.
    MatchOver,
}

impl EndFlag {
    /// The integer sent.
    pub const fn number(self) -> i32 {
        match self {
            EndFlag::Continue => 0,
            EndFlag::GameOver => 1,
            EndFlag::MatchOver => 2,
        }
    }

    /// The flag of an integer read: 0 goes on, 1 ends the game, anything
    /// else the match (as the kit's default client reads it).
    pub const fn from_number(n: i32) -> EndFlag {
        match n {
            0 => EndFlag::Continue,
            1 => EndFlag::GameOver,
            _ => EndFlag::MatchOver,
        }
    }
}

const _: () = assert!(3 * PLAYERS == COLUMNS);
