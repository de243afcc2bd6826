//! Why a table refuses a change or a name: [`TableError`]. The server's
//! own error (`dalmuti_server::ServerError`) takes each of these as the
//! refusal of the same kind and words.

/// Why a change to a table, or a name, was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The request is malformed or out of range.
    #[error("{0}")]
    BadRequest(String),
    /// The token belongs to no seat at this table.
    #[error("this token holds no seat at this table")]
    BadToken,
    /// The change conflicts with the table's state (started, full…).
    #[error("{0}")]
    Conflict(String),
    /// The action is not legal now.
    #[error("illegal action: {0}")]
    Illegal(IllegalMove),
    /// What was read back from a log does not hold (a log written by
    /// hand, or damaged): nothing changed.
    #[error("{0}")]
    Storage(String),
}

/// Why a move was refused as illegal: the engine's own refusal, as a
/// value (the seat, the action, the reason), or a player out of the hand.
///
/// ```
/// use dalmuti_core::{Action, Game, Rules, Seat, Seed};
/// use dalmuti_table::error::{IllegalMove, TableError};
/// let names = vec!["Ann".to_string(), "Bo".into(), "Cy".into()];
/// let mut game = Game::new(Rules::default(), names, Seed::from(1)).unwrap();
/// let refused = game.apply(Seat::new(0), Action::Pass).unwrap_err();
/// let e = TableError::from(*refused);
/// assert!(matches!(e, TableError::Illegal(IllegalMove::Engine(i)) if i.action == Action::Pass));
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

impl From<dalmuti_core::IllegalAction> for TableError {
    fn from(e: dalmuti_core::IllegalAction) -> TableError {
        TableError::Illegal(IllegalMove::Engine(e))
    }
}
