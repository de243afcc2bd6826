//! One error enum for the whole server; [`crate::http`] maps each variant
//! to an HTTP status, the WebSocket to an `error` message with its reason.

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServerError {
    /// No table with this id.
    #[error("no table {0:?}")]
    NoTable(String),
    /// Nothing is served at this path.
    #[error("{0}")]
    NotFound(String),
    /// The request is malformed or out of range.
    #[error("{0}")]
    BadRequest(String),
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
    TooLarge(String),
    /// Too many requests or messages.
    #[error("{0}")]
    TooMany(String),
    /// Too many requests of this kind from one address: retry later.
    #[error("{reason}")]
    RateLimited {
        /// What was refused and when to retry.
        reason: String,
        /// Seconds until a retry may succeed.
        retry_after: u64,
    },
    /// The request conflicts with the table's state (started, full…).
    #[error("{0}")]
    Conflict(String),
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
    Full(String),
    /// The server is sending or building as much of what was asked for
    /// as it may (downloads of finished games): retry later.
    #[error("{reason}")]
    Busy {
        /// What was refused and when to retry.
        reason: String,
        /// Seconds until a retry may succeed.
        retry_after: u64,
    },
    /// Storage failed; nothing changed.
    #[error("{0}")]
    Storage(String),
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

impl ServerError {
    /// What kind of refusal this is, as the WebSocket's `error` (`kind`)
    /// and a `resync` (`error_kind`) say it: a client tells refusals apart
    /// by this word, never by the reason's text, which is for people.
    ///
    /// ```
    /// use dalmuti_server::error::{IllegalMove, ServerError};
    /// assert_eq!(ServerError::Stale { sent: 3, current: 4 }.kind(), "stale");
    /// let out = IllegalMove::NotInHand("Ada".into());
    /// assert_eq!(ServerError::Illegal(out).kind(), "illegal");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            ServerError::NoTable(_) => "no_table",
            ServerError::NotFound(_) => "not_found",
            ServerError::BadRequest(_) => "bad_request",
            ServerError::BadToken => "bad_token",
            ServerError::NoToken => "no_token",
            ServerError::NotHost => "not_host",
            ServerError::UnknownPlayer => "unknown_player",
            ServerError::NoPlayer => "no_player",
            ServerError::TooLarge(_) => "too_large",
            ServerError::TooMany(_) => "too_many",
            ServerError::RateLimited { .. } => "rate_limited",
            ServerError::Conflict(_) => "conflict",
            ServerError::Stale { .. } => "stale",
            ServerError::Illegal(_) => "illegal",
            ServerError::Full(_) => "full",
            ServerError::Busy { .. } => "busy",
            ServerError::Storage(_) => "storage",
            ServerError::Closed => "closed",
            ServerError::Moved { .. } => "moved",
            ServerError::Draining => "draining",
        }
    }
}

/// Why a move was refused as illegal: the engine's own refusal, as a
/// value (the seat, the action, the reason), or a player out of the hand.
///
/// ```
/// use dalmuti_core::{Action, Game, Rules, Seat, Seed};
/// use dalmuti_server::error::{IllegalMove, ServerError};
/// let names = vec!["Ann".to_string(), "Bo".into(), "Cy".into()];
/// let mut game = Game::new(Rules::default(), names, Seed::from(1)).unwrap();
/// let refused = game.apply(Seat::new(0), Action::Pass).unwrap_err();
/// let e = ServerError::from(*refused);
/// assert!(matches!(e, ServerError::Illegal(IllegalMove::Engine(i)) if i.action == Action::Pass));
/// assert!(e.to_string().starts_with("illegal action: "));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The engine refused it.
    #[error(transparent)]
    Engine(dalmuti_core::IllegalAction),
    /// The player named sits out of the hand being played (a newcomer).
    #[error("{0} is not in this hand")]
    NotInHand(String),
}

impl From<dalmuti_core::IllegalAction> for ServerError {
    fn from(e: dalmuti_core::IllegalAction) -> ServerError {
        ServerError::Illegal(IllegalMove::Engine(e))
    }
}

impl From<crate::store::StoreError> for ServerError {
    fn from(e: crate::store::StoreError) -> ServerError {
        ServerError::Storage(e.to_string())
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
