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
pub use dalmuti_table::state;
pub mod talk;
mod tell;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;

use crate::error::ServerError;
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

pub use crate::protocol::{Published, TableInfo};

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
