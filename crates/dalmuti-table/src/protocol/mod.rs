//! The WebSocket messages (`docs/PROTOCOL.md`), lichess style: every
//! message is a JSON object `{"t": TYPE, "v": EVENT, "d": DATA}`.
//!
//! Every message is a type here, with one serde encoding: what a client
//! sends ([`ClientMsg`]), what the server tells ([`ServerMsg`], its data
//! [`Told`]), the STATE a seat sees ([`State`]), an event as a seat may
//! know it ([`Described`]) and the lines of chat and news ([`ChatLine`],
//! [`NewsLine`]). Recorded messages of a whole game decode into these
//! types and encode back byte for byte (`tests/wire.rs`).

mod client;
mod lobby;
mod server;
mod state;
mod talk;

pub use client::{ClientMsg, Refused, Unreadable, is_action_text};
pub use lobby::{Published, TableInfo};
pub use server::{ErrorKind, Moved, MsgType, Outgoing, Refusal, ServerMsg, StateKind, Taken, Told};
pub use state::{
    BotNamed, Described, HandResult, HiddenAction, LobbyEntry, Missed, PlaceChoice, Placed,
    Rematch, Replay, ReplayFrame, Seen, State, StateMsg, Total,
};
pub use talk::{ChatLine, News, NewsLine, TalkLine, printable, unprintable};

/// The largest message a client may send, in bytes.
pub const MAX_CLIENT_MESSAGE: usize = 4096;
/// The longest chat line, in characters.
pub const MAX_CHAT: usize = 500;
/// The most cards one play may hold: a whole rank (twelve Peasants) and
/// both Jesters.
pub const MAX_PLAY: usize = 14;
/// The most cards a tax gift holds (the Greater Dalmuti gives two).
pub const MAX_TAX: usize = 2;
