//! What a refusal of each kind says was refused, one variant per refusal
//! with its words written once: [`NotFound`], [`BadRequest`],
//! [`TooLarge`], [`TooMany`] and [`Full`] (the `ServerError` variants of
//! the same names). A client tells kinds apart by `ErrorKind`; a person
//! reads the words.

use dalmuti_core::Variant;

use crate::ids::TableId;
use crate::names::PlayerName;

/// What was asked for that is not here.
///
/// ```
/// use dalmuti_server::error::{NotFound, ServerError};
/// let e = ServerError::NotFound(NotFound::ChatLine { n: 7 });
/// assert_eq!(e.to_string(), "no chat line 7 is kept at this table");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotFound {
    /// A path no route serves.
    #[error("nothing here: {method} {path}")]
    Path {
        /// The request's method.
        method: String,
        /// The request's path.
        path: String,
    },
    /// A player's page under a name nobody kept.
    #[error("no player has kept the name {name:?} on this server")]
    Player {
        /// The name asked for.
        name: PlayerName,
    },
    /// A play-now ticket the asker has not got.
    #[error(
        "no such ticket of yours: it was seated long ago, given up, or dropped for silence; \
         ask again"
    )]
    Ticket,
    /// A seat taken back by a player who holds none at the table.
    #[error("you hold no seat at this table")]
    NoSeat,
    /// A chat line reported that the table no longer keeps.
    #[error("no chat line {n} is kept at this table")]
    ChatLine {
        /// The line's number.
        n: u64,
    },
}

/// What in a request is malformed or out of range, and where.
///
/// ```
/// use dalmuti_server::error::{BadRequest, ServerError};
/// let e = BadRequest::Hands { field: "rules.hands", hands: 0, most: 1000 };
/// let e = ServerError::BadRequest(e);
/// assert_eq!(e.to_string(), "rules.hands: 1 to 1000 hands, not 0");
/// let e = BadRequest::Game { asked: "chess".into() };
/// assert_eq!(e.to_string(), r#"game: dalmuti, corporate-shuffle, daifugo or president, not "chess""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadRequest {
    /// A JSON body that does not read, in the reader's words.
    #[error("{why}")]
    Body {
        /// What the reader found wrong.
        why: String,
    },
    /// A WebSocket message the protocol's reader refused.
    #[error(transparent)]
    Message(crate::protocol::Unreadable),
    /// A binary WebSocket frame.
    #[error("binary frames are not understood: send JSON text")]
    BinaryFrame,
    /// A message before `hello`.
    #[error(r#"say hello first: {{"t": "hello", "v": 0, "d": {{"token": TOKEN}}}}"#)]
    HelloFirst,
    /// A second `hello`.
    #[error("already said hello")]
    HelloAgain,
    /// An action from a spectator's connection.
    #[error("spectators cannot act: take a seat first")]
    SpectatorActs,
    /// A bot level not offered here.
    #[error(
        "bot {asked:?} is not offered here: choose one of {} (no options: each level has a \
         fixed budget)",
        .offered.join(", ")
    )]
    BotLevel {
        /// What was asked for, cut to 40 characters.
        asked: String,
        /// The levels offered (`crate::bots::LEVELS`).
        offered: &'static [&'static str],
    },
    /// A player who kept a name taking a seat under another.
    #[error("you are {name:?} on this server: take seats under that name")]
    NotYourName {
        /// The name the player kept.
        name: PlayerName,
    },
    /// A game the server does not seat.
    #[error("game: dalmuti, corporate-shuffle, daifugo or president, not {asked:?}")]
    Game {
        /// What was asked for.
        asked: String,
    },
    /// A leaderboard's table size that has none.
    #[error("band: one of {}, not {asked:?}", .bands.join(", "))]
    Band {
        /// What was asked for.
        asked: String,
        /// The bands there are (`crate::ratings::BANDS`).
        bands: &'static [&'static str],
    },
    /// A play-now table of too few or too many players.
    #[error("players: 3 to {most} in {game}")]
    Players {
        /// The game asked for.
        game: String,
        /// The most it seats.
        most: usize,
    },
    /// A play-now wait over the longest.
    #[error("wait: 0 to {most} seconds before bots fill the table")]
    Wait {
        /// The longest wait, in seconds.
        most: u64,
    },
    /// A table's name too long or with control characters.
    #[error("a table name has 1 to 64 characters, none of them control characters")]
    TableName,
    /// A turn timer out of range.
    #[error("turn_seconds: 10 to 600 seconds")]
    TurnSeconds,
    /// A number of hands out of range.
    #[error("{field}: 1 to {most} hands, not {hands}")]
    Hands {
        /// The field that gave it (`hands`, `rules.hands`).
        field: &'static str,
        /// The number given.
        hands: u32,
        /// The most (`crate::rules::MAX_HANDS`).
        most: u32,
    },
    /// `hands` and `rules.hands` both given, and different.
    #[error("hands and rules.hands differ: give one of them")]
    HandsDiffer,
    /// `rules` that is not an object.
    #[error(r#"rules: an object, e.g. {{"scoring": "standard"}}"#)]
    RulesNotObject,
    /// A field of `rules` that does not read, in the reader's words.
    #[error("{at}: {why}")]
    RulesField {
        /// Where (`rules.scoring`).
        at: String,
        /// What the reader found wrong.
        why: String,
    },
    /// One of Dalmuti's own switches turned on in a game of the family.
    #[error("rules.{field}: a rule of The Great Dalmuti's; {} has none", .variant.words().game)]
    DalmutiRule {
        /// The switch.
        field: &'static str,
        /// The game asked for.
        variant: Variant,
    },
    /// Daifugō's and President's options in a game that has none.
    #[error(
        "rules.{field}: {} has no such options: they are Daifugō's and President's \
         (variant daifugo or president)",
        .variant.words().game
    )]
    NoClimbing {
        /// `preset` or `climbing`.
        field: &'static str,
        /// The game asked for.
        variant: Variant,
    },
    /// Options of a climbing game that make no game, in the engine's or
    /// the reader's words.
    #[error("rules.climbing: {why}")]
    Climbing {
        /// What is wrong.
        why: String,
    },
    /// A preset nobody named.
    #[error("rules.preset: uecda, local, local_all or president, not {asked:?}")]
    Preset {
        /// What was asked for.
        asked: String,
    },
    /// More Jokers than a pack holds.
    #[error("rules.climbing.jokers: 0, 1 or 2 Jokers, not {jokers}")]
    Jokers {
        /// The Jokers asked for.
        jokers: u8,
    },
    /// An option of sequences without sequences.
    #[error("rules.climbing.{field}: needs sequences on")]
    NeedsSequences {
        /// The option.
        field: &'static str,
    },
    /// A number of games out of range.
    #[error("rules.climbing.{field}: 0 (never) to {most} games, not {games}")]
    Games {
        /// The option.
        field: &'static str,
        /// The number given.
        games: u32,
        /// The most (`crate::rules::MAX_HANDS`).
        most: u32,
    },
    /// A contest program asked for at a server without a UECda port.
    #[error("this server takes no contest programs: it runs without --uecda-port")]
    NoProgramPort,
    /// A contest program asked for when none waits.
    #[error(
        "no contest program is waiting: connect one (a UECda client) to port {port} of this server, then add it"
    )]
    NoProgramWaiting {
        /// The server's UECda port.
        port: u16,
    },
    /// A contest program asked for after the start.
    #[error("contest programs are seated before the start: their match is the whole game")]
    ProgramAfterStart,
    /// A contest program asked for at a table whose game is not the
    /// contest's.
    #[error(transparent)]
    NotTheContest(dalmuti_uecda::NotTheContest),
    /// A bot removed that is not one.
    #[error("no bot named {name:?}")]
    NoBot {
        /// The name given.
        name: PlayerName,
    },
    /// A newcomer placed who is not the one to place, or at a seat not
    /// offered.
    #[error("place {newcomer} at seat {seats:?}")]
    PlaceAt {
        /// The newcomer to place.
        newcomer: PlayerName,
        /// The seats offered.
        seats: Vec<usize>,
    },
    /// A bot's chat removed.
    #[error("{name:?} is a bot: bots do not chat")]
    BotChat {
        /// The bot's seat.
        name: PlayerName,
    },
    /// The host removing their own chat.
    #[error("the host's own chat stays")]
    HostChat,
    /// A report of one's own line.
    #[error("a line of your own is not reported")]
    OwnLine,
    /// A report's reason with control characters.
    #[error("why: no control characters")]
    WhyControl,
    /// The table's own refusal (a name, a seat, the seats), in its words.
    #[error(transparent)]
    Table(dalmuti_table::error::BadRequest),
}

/// What was sent over the limit.
///
/// ```
/// use dalmuti_server::error::{ServerError, TooLarge};
/// let e = ServerError::TooLarge(TooLarge::Body { most: 16384 });
/// assert_eq!(e.to_string(), "the body is over 16384 bytes");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TooLarge {
    /// A request body.
    #[error("the body is over {most} bytes")]
    Body {
        /// The largest body, in bytes.
        most: usize,
    },
}

/// What came too fast.
///
/// ```
/// use dalmuti_server::error::{ServerError, TooMany};
/// let e = ServerError::TooMany(TooMany::Messages { rate: 20 });
/// assert_eq!(e.to_string(), "too many messages: at most 20 a second");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TooMany {
    /// A connection's messages.
    #[error("too many messages: at most {rate} a second")]
    Messages {
        /// Messages a second.
        rate: u32,
    },
    /// A voice's chat lines at one table.
    #[error("too many chat lines: at most {burst} at once, then one a second")]
    ChatLines {
        /// Lines at once.
        burst: u32,
    },
    /// A player's chat lines over all their tables.
    #[error(
        "too many chat lines from you: at most {burst} at once over all your tables, then one \
         a second"
    )]
    PlayerChatLines {
        /// Lines at once.
        burst: u32,
    },
}

/// What the server holds as much of as it may.
///
/// ```
/// use dalmuti_server::error::{Full, ServerError};
/// let e = ServerError::Full(Full::Tables { most: 1000 });
/// assert_eq!(e.to_string(), "this server holds at most 1000 tables");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Full {
    /// Tables on this node.
    #[error("this server holds at most {most} tables")]
    Tables {
        /// The most.
        most: usize,
    },
    /// Connections to this node.
    #[error("this server holds at most {most} connections")]
    Connections {
        /// The most.
        most: usize,
    },
    /// The play-now queue.
    #[error("the play-now queue is full: try again in a minute")]
    Queue,
    /// A table between two nodes.
    #[error("table {table} is changing nodes: retry")]
    ChangingNodes {
        /// The table.
        table: TableId,
    },
    /// A table held by a node nobody can be sent to.
    #[error("table {table} is served by node {node} whose address is unknown: retry later")]
    NodeUnknown {
        /// The table.
        table: TableId,
        /// The node holding it.
        node: String,
    },
}
