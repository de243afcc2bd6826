//! The UEC Computer Daihinmin Contest (UECda) protocol both ways: a UECda
//! server on the dalmuti engine, and any dalmuti bot as a UECda client.
//!
//! Since 2007 every contest program speaks one protocol over TCP: 8×15
//! tables of 32-bit integers (protocol 20070; `man/protocol.html` of the
//! contest's developer kit `tndhm_devkit_c-20180826`). This crate speaks it
//! as the kit's reference server `tndhms` does, so that contest programs
//! play on our engine and our bots play in the contest. The rules are the
//! engine's Daifugō as the contest plays it (`docs/RULES.md`, DF1–DF24);
//! `docs/UECDA.md` tells how to run a match.
//!
//! - [`RawTable`], [`Protocol`]: the bytes (480 a table, or 33 hexadecimal
//!   characters in protocol 20140), with no I/O.
//! - [`Hello`], [`StateTable`], [`Cells`], [`Ack`], [`EndFlag`]: what the
//!   cells mean, decoded once into named fields.
//! - [`Referee`]: a match on the engine, message by message, as the
//!   reference server sends them (no I/O: tests drive it with tables
//!   recorded from the reference server).
//! - [`Follower`]: a client's side, following a game from the tables it is
//!   sent (they hold no events) to give a bot a view of its seat.
//! - [`serve`] and [`join`]: the two over TCP.
//! - [`Program`] and [`ContestSeats`]: contest programs in the seats of a
//!   game refereed elsewhere (a table of `dalmuti serve`, beside people
//!   and our bots).
//!
//! ```
//! use dalmuti_uecda::{Cells, Submitted};
//! // A player sends 7♥ 8♥ 9♥ as 1s in row 1 (hearts), columns 5 to 7.
//! let mut cells = Cells::EMPTY;
//! for column in 5..=7 {
//!     cells.set(1, column, 1);
//! }
//! assert_eq!(cells.read(), Submitted::Play("7H 8H 9H".parse().unwrap()));
//! ```

mod cells;
mod client;
mod conn;
mod follow;
mod programs;
mod referee;
mod server;
mod state;
pub mod transcript;
mod wire;

pub use cells::{BadGift, BadHand, CARD_ROWS, Cells, LONE_JOKER_CELL, Submitted, Unreadable};
pub use client::{JoinConfig, JoinError, JoinReport, join};
pub use follow::{FollowError, Follower};
pub use programs::{ContestSeats, NotTheContest, Program};
pub use referee::{Deal, ExchangeOutcome, MatchConfig, PlayOutcome, Referee, RefereeError};
pub use server::{ServeConfig, ServeError, ServeReport, serve};
pub use state::{Ack, BadState, EndFlag, Hello, NAME_CELLS, PLAYERS, PlayerNo, StateTable, Turn};
pub use wire::{
    BadCell, BadHex, COLUMNS, HEX_BYTES, INT_BYTES, Protocol, ROWS, RawTable, TABLE_BYTES,
    int_bytes, int_from_bytes,
};
