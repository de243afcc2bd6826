//! Why a table refuses a change or a name: [`TableError`]. The server's
//! own error (`dalmuti_server::ServerError`) takes each of these as the
//! refusal of the same kind and words.

/// Why a change to a table, or a name, was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The request is malformed or out of range.
    #[error("{0}")]
    BadRequest(BadRequest),
    /// The token belongs to no seat at this table.
    #[error("this token holds no seat at this table")]
    BadToken,
    /// The change conflicts with the table's state (started, full…).
    #[error("{0}")]
    Conflict(Conflict),
    /// The action is not legal now.
    #[error("illegal action: {0}")]
    Illegal(IllegalMove),
    /// What was read back from a log does not hold (a log written by
    /// hand, or damaged): nothing changed.
    #[error("{0}")]
    Storage(String),
}

/// What in a change or a name is malformed or out of range: one kind per
/// refusal, its words written once (a client tells them apart by
/// `ErrorKind::BadRequest`, a person reads the words).
///
/// ```
/// use dalmuti_table::error::{BadRequest, TableError};
/// let e = TableError::from(BadRequest::Seats { seats: 2 });
/// assert_eq!(e.to_string(), "a table has 3 to 16 seats, not 2");
/// let e = BadRequest::HiddenCharacter { c: '\u{202e}' };
/// assert!(e.to_string().ends_with("U+202E is one"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadRequest {
    /// A table of too few or too many seats.
    #[error(
        "a table has {} to {} seats, not {seats}",
        dalmuti_core::MIN_PLAYERS,
        dalmuti_core::MAX_PLAYERS
    )]
    Seats {
        /// The seats asked for.
        seats: usize,
    },
    /// Rules that cannot seat the table, in the engine's words.
    #[error("rules: {0}")]
    Rules(dalmuti_core::BadRules),
    /// A change naming a seat the table has not got.
    #[error("no seat named {name:?}")]
    NoSeatNamed {
        /// The name given.
        name: String,
    },
    /// A display name empty, too long or with control characters.
    #[error("a display name has 1 to 32 characters, none of them control characters")]
    NameLength,
    /// A name chosen now with a character that hides or reorders text.
    #[error(
        "a display name has no invisible or text-direction characters: U+{:04X} is one",
        u32::from(*.c)
    )]
    HiddenCharacter {
        /// The first such character.
        c: char,
    },
    /// A name chosen now with two spaces in a row.
    #[error("a display name has one space between words, not two")]
    TwoSpaces,
    /// A name chosen now that is the server's own.
    #[error("{name:?} is not a name a person may take: {why}")]
    ReservedName {
        /// The name asked for.
        name: String,
        /// Why it is kept ([`crate::names::reserved`]).
        why: &'static str,
    },
    /// A bot level nobody offers (the browser's offline table).
    #[error("{0}")]
    Level(dalmuti_bots::BadLevel),
    /// An offline table of more seats than the browser plays.
    #[error("an offline table has at most {most} seats, not {seats}")]
    OfflineSeats {
        /// The seats asked for.
        seats: usize,
        /// The most an offline table has.
        most: usize,
    },
}

/// Why a change conflicts with the table's state: one kind per refusal,
/// its words written once.
///
/// ```
/// use dalmuti_table::error::{Conflict, TableError};
/// assert_eq!(TableError::from(Conflict::SeatsTaken { seats: 5 }).to_string(), "all 5 seats are taken");
/// assert_eq!(Conflict::TooFew { seated: 2 }.to_string(), "2 seats taken: a game needs at least 3");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// A change that needs the game begun, before it is.
    #[error("the game has not started")]
    NotStarted,
    /// A newcomer's wait asked for before the start.
    #[error("the game has not started: take a seat instead")]
    SeatInstead,
    /// A newcomer at a table whose rules keep its players.
    #[error("this table is closed to newcomers once started")]
    ClosedToNewcomers,
    /// A newcomer or a leaving asked for once the game is over.
    #[error("the game is over")]
    Over,
    /// A newcomer under the name of someone who played here.
    #[error("the name {name:?} has already played at this table")]
    PlayedHere {
        /// The name asked for.
        name: String,
    },
    /// A seat asked for after the start.
    #[error("the game has started: newcomers wait for the next hand")]
    Started,
    /// Every seat is taken.
    #[error("all {seats} seats are taken")]
    SeatsTaken {
        /// The table's seats.
        seats: usize,
    },
    /// A seat's name taken at the table.
    #[error("the name {name:?} is taken at this table")]
    NameTaken {
        /// The name asked for.
        name: String,
    },
    /// A seated player's seat freed during the game.
    #[error("the game has started: players leave between hands")]
    LeaveBetweenHands,
    /// A second start.
    #[error("the game has already started")]
    AlreadyStarted,
    /// A start with too few seated.
    #[error(
        "{seated} seats taken: a game needs at least {}",
        dalmuti_core::MIN_PLAYERS
    )]
    TooFew {
        /// The seats taken.
        seated: usize,
    },
    /// The game's own refusal (a deal, a join, a leave), in its words.
    #[error(transparent)]
    Game(dalmuti_core::TableError),
    /// A seat taken back that no kept name took.
    #[error("only a seat taken by a player who kept its name is taken back")]
    NotKept,
    /// A leaving asked for by someone not in the game.
    #[error("not seated in the game: free the seat instead")]
    NotInGame,
    /// A leaving at a table whose rules keep its players.
    #[error("this table does not let players leave during the game")]
    NoLeaving,
    /// A second leaving.
    #[error("already leaving")]
    AlreadyLeaving,
    /// A leaving that would leave too few.
    #[error(
        "a game needs at least {} players: nobody else may leave",
        dalmuti_core::MIN_PLAYERS
    )]
    LastPlayers,
    /// A leave of someone who did not ask to.
    #[error("{name:?} is not leaving")]
    NotLeaving {
        /// The name given.
        name: String,
    },
    /// A join of someone not waiting.
    #[error("{name:?} is not waiting")]
    NotWaiting {
        /// The name given.
        name: String,
    },
    /// A replay asked for while the game goes on.
    #[error("the replay is shown once the game is over")]
    ReplayTooSoon,
    /// A record asked for while the game goes on.
    #[error("the record is given once the game is over")]
    RecordTooSoon,
    /// A newcomer placed at the browser's offline table.
    #[error("nobody joins an offline table: there is no one to place")]
    OfflinePlace,
    /// Chat at the browser's offline table.
    #[error("the bots do not chat: an offline table has no chat")]
    OfflineChat,
}

impl From<BadRequest> for TableError {
    fn from(e: BadRequest) -> TableError {
        TableError::BadRequest(e)
    }
}

impl From<Conflict> for TableError {
    fn from(e: Conflict) -> TableError {
        TableError::Conflict(e)
    }
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
