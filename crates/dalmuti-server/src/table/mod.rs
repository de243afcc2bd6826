//! One table: an actor task that owns its [`TableState`] and bots, and a
//! cheap-to-clone [`TableHandle`] holding only a channel sender. Commands
//! are handled one at a time, in order: no lock guards the game.
//!
//! Every accepted change is a [`Stored`] event, numbered from 1, written to
//! disk (through the [`crate::store::Writer`]) *before* it is broadcast. Each lobby seat
//! has its own broadcast channel and spectators share one: a message for a
//! seat is built from that seat's view only, so a receiver never holds
//! another seat's cards.
//!
//! Beyond the log the actor keeps what is live: connections per seat, who
//! is away (gone past the grace period: a stand-in bot plays for them), the
//! turn timer, the pause before the next deal, a newcomer waiting for the
//! Greater Dalmuti to place them, and the "look at your cards" pause of each
//! hand's setup. Bots think on tokio's blocking pool so a slow `search` bot
//! never stalls the table.
//!
//! While a hand is set up, everyone whose only choice is to say ready (a
//! holder of both Jesters among them: saying ready keeps quiet) is made
//! ready together when the setup pause ends, bots included: so the setup
//! looks and lasts the same whoever holds the Jesters (RULES.md, D25).

//!
//! The actor's code is split by job, its modules importing in one
//! direction only: `handle` (what the server holds, and the actor's task),
//! `lifecycle` (a table created or loaded), `context` (what a table needs
//! from the server), `replay` (a table rebuilt from its log), `actor` (its
//! state, and the blocking pool for store calls), `cmd` (one typed
//! command per request), `clock` (timers), `bot_turn` (bots thinking off
//! the actor), and `tell` (commit, then tell).

mod actor;
mod bot_turn;
mod clock;
mod cmd;
mod context;
pub mod expiry;
mod handle;
mod lifecycle;
mod replay;
pub mod state;
pub mod talk;
mod tell;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;

use crate::error::ServerError;
use crate::ids::TableId;
use crate::names::PlayerName;
use crate::protocol::{Outgoing, ServerMsg};
pub use context::Context;
pub use expiry::{Lifetimes, Retire};
pub use handle::{Rematch, TableHandle};
pub(crate) use lifecycle::created;
pub use lifecycle::{create, load, revive, start, store_new};
pub use replay::replay_log;
pub use state::{Live, Placement, Stored, TableState};
pub use talk::{CHAT_BURST, Speaker};
use tokio::sync::oneshot;

/// How many messages a slow receiver may fall behind before it must resync.
const CHANNEL: usize = 256;

/// How many events a returning client may have missed and still get them
/// one by one; further behind, it gets a snapshot.
const CATCHUP: u64 = 1000;

/// A receiver of one viewer's messages.
pub type Feed = broadcast::Receiver<Arc<Outgoing>>;

/// A table's timings.
#[derive(Clone, Copy, Debug)]
pub struct Timings {
    /// How long a seat may be gone before a bot plays for it.
    pub grace: Duration,
    /// The pause before each bot move.
    pub bot_delay: Duration,
    /// The pause between hands.
    pub hand_pause: Duration,
    /// How long a hand's setup lasts at least: the "look at your cards"
    /// pause, at whose end everyone still to say ready is made ready.
    pub setup_pause: Duration,
    /// How long a table may have no human connected before the lobby
    /// stops listing it as open (it can still be reached by its link).
    pub listed_idle: Duration,
}

impl Timings {
    /// For tests: no pauses, so that bots and hands follow at once (a
    /// grace of 30 s and the lobby's two minutes, as served).
    pub fn for_tests() -> Timings {
        Timings {
            grace: Duration::from_secs(30),
            bot_delay: Duration::ZERO,
            hand_pause: Duration::ZERO,
            setup_pause: Duration::ZERO,
            listed_idle: Duration::from_secs(120),
        }
    }
}

/// A public summary of a table, for the lobby list. The store keeps it
/// as JSON for a finished table (and, with several nodes, for the tables
/// each node publishes): the fields added since the first summaries were
/// written read as their defaults.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TableInfo {
    /// The id.
    pub id: TableId,
    /// The name.
    pub name: String,
    /// The name's parts when it is a default one ("Ada's table 2"), for
    /// clients to say it in their player's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_name: Option<crate::names::DefaultTableName>,
    /// Seats in all.
    pub seats: usize,
    /// Seats taken (players and bots), by display name.
    pub taken: Vec<PlayerName>,
    /// The names among `taken` (and `winner`) that the server gave bots
    /// ("normal bot 3"), with their parts, for clients to say them in
    /// their player's language; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<crate::protocol::BotNamed>,
    /// Whether play has started.
    pub started: bool,
    /// Whether the game is over.
    pub over: bool,
    /// Whether the lobby lists it.
    pub public: bool,
    /// The game played: `dalmuti` or `corporate-shuffle`.
    #[serde(default)]
    pub variant: dalmuti_core::Variant,
    /// The current hand's number (0 before the start).
    pub hand: usize,
    /// The table's event number.
    pub v: u64,
    /// When the game was over, in milliseconds since the Unix epoch.
    #[serde(default)]
    pub finished_at: Option<u64>,
    /// The first in the final standings, once the game is over.
    #[serde(default)]
    pub winner: Option<PlayerName>,
    /// No human seat has had a connection for [`Timings::listed_idle`]:
    /// the lobby does not list it as open.
    #[serde(skip)]
    pub idle: bool,
    /// How long the table has been in this node's memory.
    #[serde(skip)]
    pub age: Duration,
}

/// A table's summary as a node publishes it to the others: with whether
/// it is idle, which the lobby's filter reads and a listing does not show.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Published {
    /// The summary.
    #[serde(flatten)]
    pub info: TableInfo,
    /// Whether it is idle ([`TableInfo::idle`]).
    pub idle: bool,
}

impl Published {
    /// What a summary is with its event number left out: a move alone is
    /// not a change the lobby shows.
    pub fn key(&self) -> String {
        let mut key = self.clone();
        key.info.v = 0;
        serde_json::to_string(&key).expect("a summary serializes")
    }

    /// The summary as read back, idle as published.
    pub fn into_info(self) -> TableInfo {
        TableInfo {
            idle: self.idle,
            ..self.info
        }
    }
}

pub(crate) type Reply<T> = oneshot::Sender<Result<T, ServerError>>;

/// Where an `act` or a `place` is answered: its event number, or the
/// refusal with the resync to send.
pub(crate) type ActReply = oneshot::Sender<Result<u64, Refusal>>;

/// A refused action carries the resync message for the one who sent it.
pub type Refusal = (ServerError, ServerMsg);

/// A connection's view of a table: its feed, the first message to send
/// (`snapshot` or `catchup`), and the seat's name (`None`: a spectator).
pub struct Subscription {
    /// The messages to come.
    pub feed: Feed,
    /// The first message.
    pub first: ServerMsg,
    /// The seat's name.
    pub seat: Option<PlayerName>,
}
