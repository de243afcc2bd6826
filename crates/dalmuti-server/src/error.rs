//! One error enum for the whole server; [`crate::http`] maps each variant
//! to an HTTP status, the WebSocket to an `error` message with its reason.

use dalmuti_table::TableError;
use dalmuti_table::protocol::{ErrorKind, ServerMsg};

use crate::ids::TableId;

mod refused;
pub use refused::{BadRequest, Full, NotFound, TooLarge, TooMany};

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServerError {
    /// No table with this id.
    #[error("no table {0:?}")]
    NoTable(TableId),
    /// What was asked for is not here.
    #[error("{0}")]
    NotFound(NotFound),
    /// The request is malformed or out of range.
    #[error("{0}")]
    BadRequest(BadRequest),
    /// The token is missing or belongs to no seat at this table.
    #[error("this token holds no seat at this table")]
    BadToken,
    /// No token was given where one is needed.
    #[error("this needs your seat's token (Authorization: Bearer TOKEN)")]
    NoToken,
    /// Only the host may do this.
    #[error("only the host (the earliest-seated player) may do this")]
    NotHost,
    /// A player's secret (`Authorization: Player …`) that is no player's.
    #[error(
        "this player's secret (Authorization: Player …) is no player's on this server: \
         open your recovery link, or keep a name again"
    )]
    UnknownPlayer,
    /// No player's secret was given where one is needed.
    #[error("this needs a player's secret (Authorization: Player SECRET): keep a name first")]
    NoPlayer,
    /// A request body over the limit.
    #[error("{0}")]
    TooLarge(TooLarge),
    /// Too many requests or messages.
    #[error("{0}")]
    TooMany(TooMany),
    /// Too many requests of this kind from one address: retry later.
    #[error("{reason}")]
    RateLimited {
        /// What was refused and when to retry.
        reason: String,
        /// Seconds until a retry may succeed.
        retry_after: u64,
    },
    /// The request conflicts with what the server holds (a name taken,
    /// a game not over, chat removed…).
    #[error("{0}")]
    Conflict(Conflict),
    /// The action was chosen at an older event number.
    #[error("stale action: chosen at event {sent}, the table is at event {current}")]
    Stale {
        /// The client's event number.
        sent: u64,
        /// The table's.
        current: u64,
    },
    /// The action is not legal now.
    #[error("illegal action: {0}")]
    Illegal(IllegalMove),
    /// A cap was reached.
    #[error("{0}")]
    Full(Full),
    /// The server is sending or building as much of what was asked for
    /// as it may (downloads of finished games): retry later.
    #[error("{reason}")]
    Busy {
        /// What was refused and when to retry.
        reason: String,
        /// Seconds until a retry may succeed.
        retry_after: u64,
    },
    /// Storage failed; nothing changed. The store's own error, kept as it
    /// is: whether a node lost a table's lease, and what failed.
    #[error("{0}")]
    Storage(crate::store::StoreError),
    /// The table's task is gone.
    #[error("the table is closed")]
    Closed,
    /// Another node serves this table (several nodes on one database):
    /// HTTP answers 307 to the same path there, a WebSocket `moved`.
    #[error("table {table} is served by node {node} at {url}")]
    Moved {
        /// The table.
        table: String,
        /// The node serving it.
        node: String,
        /// Where clients reach that node (its `--public-url`).
        url: String,
    },
    /// This node is handing its tables over before it stops: retry, and
    /// another node will serve the table.
    #[error("this server node is stopping: retry in a moment")]
    Draining,
}

/// What a client is told when its table moves to another node, refused
/// or closed ([`Conflict::Moved`], the table's retirement).
pub const MOVED: &str = "this table moved to another server node: reconnect";

/// Why a request conflicts with what the server holds: one kind per
/// refusal, its words written once (a client tells them apart by
/// [`ErrorKind::Conflict`] and a person reads the words).
///
/// ```
/// use dalmuti_server::error::{Conflict, ServerError};
/// let e = ServerError::Conflict(Conflict::NameTaken { name: "Ada".into() });
/// assert_eq!(e.to_string(), "\"Ada\" is taken: choose another name");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// A new player asked for a name a player kept, or one like it.
    #[error(
        "{asked:?} is a player's kept name (or looks like {kept:?}): choose another, \
         or open your recovery link if it is yours"
    )]
    KeptName {
        /// The name asked for.
        asked: String,
        /// The kept name it is, or looks like.
        kept: String,
    },
    /// A name to keep looks like one kept already.
    #[error("{name:?} is taken (or looks like {kept:?}, which is): choose another name")]
    NameLike {
        /// The name asked for.
        name: String,
        /// The kept name it looks like.
        kept: String,
    },
    /// A name to keep is kept already.
    #[error("{name:?} is taken: choose another name")]
    NameTaken {
        /// The name asked for.
        name: String,
    },
    /// A change asked of a table whose game is over.
    #[error("the game at table {table} is over: its record is at /api/tables/{table}/record")]
    GameOver {
        /// The table.
        table: String,
    },
    /// A finished game's answer asked for while it goes on.
    #[error("the {what} is given once the game is over")]
    NotOverYet {
        /// What was asked for ("record", "replay", "fairness").
        what: &'static str,
    },
    /// The table moved to another node while this was asked.
    #[error("{MOVED}")]
    Moved,
    /// A guest asked for a seat at a rated table.
    #[error(
        "this table is rated: only players who kept a name sit here \
         (keep one on the home page), or watch"
    )]
    RatedNeedsName,
    /// A seat's name too like one taken at the table.
    #[error("the name {name:?} is too like {taken:?}, taken at this table")]
    NameTooLike {
        /// The name asked for.
        name: String,
        /// The seat's name it looks like.
        taken: String,
    },
    /// A seat placing a newcomer it has not got.
    #[error("you have no newcomer to place")]
    NoNewcomer,
    /// `ready` said during the look-at-your-cards pause.
    #[error(
        "no need to say ready: everyone is made ready together when the \
         look-at-your-cards pause ends (setup_ms)"
    )]
    ReadyComesItself,
    /// A seat whose chat the host removed.
    #[error("the host removed your chat at this table")]
    ChatRemoved,
    /// A spectator's line where the host has not let them chat.
    #[error("spectators may not chat at this table (the host may allow it)")]
    SpectatorsQuiet,
    /// A spectator chatting under a seat's name, or one like it.
    #[error(
        "{name:?} is a seat's name at this table, or looks like one: a spectator says hello \
         with another"
    )]
    SpectatorAsSeat {
        /// The name the spectator gave.
        name: String,
    },
    /// A spectator chatting under a name nobody may chat under.
    #[error("{name:?} is not a name a spectator may chat under: {why}")]
    SpectatorNameReserved {
        /// The name the spectator gave.
        name: String,
        /// Why it is reserved.
        why: String,
    },
    /// A spectator chatting under a player's kept name.
    #[error(
        "{name:?} is a player's kept name, or looks like one: a spectator says hello with \
         another"
    )]
    SpectatorAsPlayer {
        /// The name the spectator gave.
        name: String,
    },
    /// Chat from whoever held a seat the host silenced.
    #[error(
        "the host removed the chat of {seat:?} at this table, and it holds for whoever \
         held that seat: no chat from that player or their address here"
    )]
    ChatHeld {
        /// The silenced seat.
        seat: String,
    },
    /// A rematch asked for before the game is over.
    #[error("a rematch is asked for once the game is over")]
    RematchTooSoon,
    /// The table's own refusal (a seat taken, a game started…), in its
    /// words ([`TableError::Conflict`]).
    #[error(transparent)]
    Table(dalmuti_table::error::Conflict),
}

impl ServerError {
    /// What kind of refusal this is, as the WebSocket's `error` (`kind`)
    /// and a `resync` (`error_kind`) say it: a client tells refusals apart
    /// by this word, never by the reason's text, which is for people.
    ///
    /// ```
    /// use dalmuti_server::error::{IllegalMove, ServerError};
    /// use dalmuti_server::protocol::ErrorKind;
    /// assert_eq!(ServerError::Stale { sent: 3, current: 4 }.kind(), ErrorKind::Stale);
    /// let out = IllegalMove::NotInHand("Ada".into());
    /// assert_eq!(ServerError::Illegal(out).kind(), ErrorKind::Illegal);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self {
            ServerError::NoTable(_) => ErrorKind::NoTable,
            ServerError::NotFound(_) => ErrorKind::NotFound,
            ServerError::BadRequest(_) => ErrorKind::BadRequest,
            ServerError::BadToken => ErrorKind::BadToken,
            ServerError::NoToken => ErrorKind::NoToken,
            ServerError::NotHost => ErrorKind::NotHost,
            ServerError::UnknownPlayer => ErrorKind::UnknownPlayer,
            ServerError::NoPlayer => ErrorKind::NoPlayer,
            ServerError::TooLarge(_) => ErrorKind::TooLarge,
            ServerError::TooMany(_) => ErrorKind::TooMany,
            ServerError::RateLimited { .. } => ErrorKind::RateLimited,
            ServerError::Conflict(_) => ErrorKind::Conflict,
            ServerError::Stale { .. } => ErrorKind::Stale,
            ServerError::Illegal(_) => ErrorKind::Illegal,
            ServerError::Full(_) => ErrorKind::Full,
            ServerError::Busy { .. } => ErrorKind::Busy,
            ServerError::Storage(_) => ErrorKind::Storage,
            ServerError::Closed => ErrorKind::Closed,
            ServerError::Moved { .. } => ErrorKind::Moved,
            ServerError::Draining => ErrorKind::Draining,
        }
    }

    /// The `error` message that tells of it at event `v`.
    pub fn to_msg(&self, v: u64) -> ServerMsg {
        ServerMsg::error(v, self.kind(), self.to_string())
    }
}

/// A table's refusal is the server's of the same kind and words.
impl From<TableError> for ServerError {
    fn from(e: TableError) -> ServerError {
        match e {
            TableError::BadRequest(m) => ServerError::BadRequest(BadRequest::Table(m)),
            TableError::BadToken => ServerError::BadToken,
            TableError::Conflict(m) => ServerError::Conflict(Conflict::Table(m)),
            TableError::Illegal(m) => ServerError::Illegal(m),
            TableError::Storage(m) => ServerError::Storage(crate::store::StoreError::Failed(m)),
        }
    }
}

pub use dalmuti_table::error::IllegalMove;

/// Each kind's refusals are the server's of that kind.
macro_rules! refusal_of_kind {
    ($($kind:ident),*) => {$(
        impl From<$kind> for ServerError {
            fn from(e: $kind) -> ServerError {
                ServerError::$kind(e)
            }
        }
    )*};
}
refusal_of_kind!(NotFound, BadRequest, TooLarge, TooMany, Full, Conflict);

/// The table's refusal of a request, as the server's.
impl From<dalmuti_table::error::BadRequest> for ServerError {
    fn from(e: dalmuti_table::error::BadRequest) -> ServerError {
        ServerError::BadRequest(BadRequest::Table(e))
    }
}

impl From<dalmuti_core::IllegalAction> for ServerError {
    fn from(e: dalmuti_core::IllegalAction) -> ServerError {
        ServerError::Illegal(IllegalMove::Engine(e))
    }
}

/// The body of a refused HTTP request, `{"error": REASON}`, with where the
/// table is now when another node serves it.
///
/// ```
/// use dalmuti_server::error::ErrorBody;
/// assert_eq!(ErrorBody::new("no such table").to_text(), r#"{"error":"no such table"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ErrorBody {
    /// What is wrong, in words.
    pub error: String,
    /// The address that serves the table now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<String>,
}

impl ErrorBody {
    /// A refusal for `reason`.
    pub fn new(reason: impl Into<String>) -> ErrorBody {
        ErrorBody {
            error: reason.into(),
            moved: None,
        }
    }

    /// The body as JSON text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("an error body serializes")
    }
}

impl From<crate::store::StoreError> for ServerError {
    fn from(e: crate::store::StoreError) -> ServerError {
        ServerError::Storage(e)
    }
}
