//! STATE, what a seat or a spectator sees of a table (`docs/PROTOCOL.md`),
//! and the events as each may know them.

use dalmuti_core::wire::Wire;
use dalmuti_core::{Action, Decision, Rules, ViewSnapshot};
use serde::{Deserialize, Serialize};

use crate::ids::TableId;
use crate::names::PlayerName;

use super::{ChatLine, NewsLine};
use crate::fairness::Fairness;
use crate::names::DefaultTableName;

/// STATE: the table, its lobby and the game as one seat (or a spectator)
/// may see it, field by field as `docs/PROTOCOL.md` lists them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The table's id.
    pub table: TableId,
    /// The table's name.
    pub name: String,
    /// What the name is made of when the server chose it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_name: Option<DefaultTableName>,
    /// How many seats the table has.
    pub seats: usize,
    /// Whether the lobby lists it.
    pub public: bool,
    /// The game's rules.
    pub rules: Rules,
    /// Seconds a seat has for a decision, if timed.
    pub turn_seconds: Option<u32>,
    /// The host's name.
    pub host: Option<PlayerName>,
    /// The viewer's name (null for a spectator).
    pub you: Option<PlayerName>,
    /// Everyone seated, in lobby order.
    pub lobby: Vec<LobbyEntry>,
    /// Whether the game started.
    pub started: bool,
    /// Whether it is over.
    pub game_over: bool,
    /// The hand's number (0 before the first deal).
    pub hand: usize,
    /// The hand's players by seat of play.
    pub players: Option<Vec<PlayerName>>,
    /// The viewer's cards as dealt.
    pub dealt: Option<String>,
    /// The viewer's seat when the cards were dealt.
    pub dealt_seat: Option<usize>,
    /// The hand as the viewer may see it.
    pub view: Option<ViewSnapshot>,
    /// What the viewer must decide now.
    pub decision: Option<Wire<Decision>>,
    /// The viewer's legal actions now, worst first (none but a revolution
    /// while it is made ready), when it has a decision.
    pub legal: Option<Vec<Wire<Action>>>,
    /// Milliseconds left on the viewer's turn timer.
    pub deadline_ms: Option<u64>,
    /// Milliseconds until everyone still to say ready is made ready.
    pub setup_ms: Option<u64>,
    /// Milliseconds until the next deal.
    pub next_deal_ms: Option<u64>,
    /// A newcomer the viewer (the Greater Dalmuti) must place.
    pub place: Option<PlaceChoice>,
    /// To the host before the start, at a table of the contest's Daifugō
    /// for five on a server with a UECda port: the port where contest
    /// programs (UECda clients) connect, to be seated as a bot is
    /// (`"bot": "program"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_port: Option<u16>,
    /// Every player's points so far.
    pub totals: Vec<Total>,
    /// The deals' commitments and, once public, their seeds.
    pub fairness: Fairness,
    /// Whether spectators may chat.
    pub spectator_chat: bool,
    /// The seats whose chat the host removed (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub silenced: Vec<PlayerName>,
    /// The rematch's table, once the host asked for one.
    pub rematch: Option<Rematch>,
    /// Every finished hand's result, once the game is over.
    pub results: Option<Vec<HandResult>>,
}

/// One seat of the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyEntry {
    /// The player's name.
    pub name: PlayerName,
    /// The bot's level, or null for a person.
    pub bot: Option<String>,
    /// The bot's number when the server named it ("normal bot 3"), so a
    /// client can say the name in its player's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_n: Option<u32>,
    /// Whether the seat has a connection (a bot always has).
    pub connected: bool,
    /// Whether a bot plays for the seat while its player is gone.
    pub away: bool,
    /// Whether the seat waits for the next hand to enter.
    pub waiting: bool,
    /// Whether the player leaves when the hand ends.
    pub leaving: bool,
}

/// A name the server gave a bot, with its parts: "normal bot 3" is the
/// level `normal` and the number 3, which a client words in its player's
/// language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotNamed {
    /// The name as the table knows it.
    pub name: PlayerName,
    /// The bot's level.
    pub bot: String,
    /// Its number.
    pub n: u32,
}

/// The Greater Dalmuti's choice of a seat for a newcomer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceChoice {
    /// The newcomer.
    pub name: PlayerName,
    /// The seats to choose from.
    pub seats: Vec<usize>,
}

/// A player's points so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Total {
    /// The player.
    pub name: PlayerName,
    /// Their points.
    pub total: u32,
}

/// Where the rematch is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// The new table's id.
    pub table: TableId,
}

/// One hand's result: its players in finishing order with the points
/// each scored (null when the game is not scored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    /// The hand's number, from 1.
    pub hand: usize,
    /// Its players, first out first.
    pub order: Vec<Placed>,
}

/// A player's place in a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    /// The player.
    pub name: PlayerName,
    /// The points scored, if the game is scored.
    pub points: Option<u32>,
}

/// A STATE with what comes with it in some messages: the event it follows,
/// the events a returning client missed, the talk kept, or the refusal a
/// resync answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateMsg {
    /// The STATE.
    #[serde(flatten)]
    pub state: State,
    /// The event this STATE follows (`event`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e: Option<Described>,
    /// The events a returning client missed (`catchup`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed: Option<Vec<Missed>>,
    /// The chat kept (`snapshot`, `catchup`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat: Option<Vec<ChatLine>>,
    /// The news kept (`snapshot`, `catchup`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub news: Option<Vec<NewsLine>>,
    /// The refusal a `resync` follows, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Its kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<super::ErrorKind>,
}

impl From<State> for StateMsg {
    fn from(state: State) -> StateMsg {
        StateMsg {
            state,
            e: None,
            missed: None,
            chat: None,
            news: None,
            error: None,
            error_kind: None,
        }
    }
}

/// An event a returning client missed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Missed {
    /// Its number.
    pub v: u64,
    /// The event.
    pub e: Described,
}

/// An event of the log as one seat (or a spectator) may know it: no seed,
/// no token hash, no card of another seat's secret choice.
///
/// ```
/// use dalmuti_table::names::PlayerName;
/// use dalmuti_table::protocol::{Described, HiddenAction, Seen};
/// let tax = Described::Act {
///     name: PlayerName::new("Ada").unwrap(),
///     action: Seen::Hidden(HiddenAction::GiveTax(())),
///     auto: false,
/// };
/// assert_eq!(
///     serde_json::to_string(&tax).unwrap(),
///     r#"{"kind":"act","name":"Ada","action":{"give_tax":null},"auto":false}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Described {
    /// A seat taken before the start.
    Seat {
        /// Who.
        name: PlayerName,
        /// The bot's spec, or null for a person.
        bot: Option<String>,
    },
    /// A newcomer after the start, waiting for the hand to end.
    Waiting {
        /// Who.
        name: PlayerName,
        /// The bot's spec, or null for a person.
        bot: Option<String>,
    },
    /// A seat freed.
    Unseat {
        /// Who.
        name: PlayerName,
    },
    /// The start, with the draw's seed and the seating it gave.
    Start {
        /// The draw's seed (public).
        draw_seed: dalmuti_core::Seed,
        /// The players in seating order.
        seating: Vec<PlayerName>,
    },
    /// A hand dealt (its seed stays secret until it is over).
    Deal {
        /// The hand's number, from 1.
        hand: usize,
        /// The commitment to its seed.
        commitment: String,
    },
    /// An action.
    Act {
        /// Who acted.
        name: PlayerName,
        /// What they did, as far as the viewer may know.
        action: Seen,
        /// Chosen by the seat's stand-in bot or the turn timer.
        auto: bool,
    },
    /// Someone said ready (who, only they know: it may be keeping quiet
    /// about both Jesters).
    Ready,
    /// A player leaves when the hand ends.
    Leaving {
        /// Who.
        name: PlayerName,
    },
    /// A player left.
    Leave {
        /// Who.
        name: PlayerName,
    },
    /// A newcomer entered at `seat`.
    Join {
        /// Who.
        name: PlayerName,
        /// The seat, from 0.
        seat: usize,
    },
}

/// An action as a viewer may know it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Seen {
    /// The whole action (the viewer's own, or one with nothing secret).
    Shown(Wire<Action>),
    /// Another seat's choice of cards, without the cards.
    Hidden(HiddenAction),
}

impl Seen {
    /// `action` as a seat other than its chooser may know it: tax gifts,
    /// exchange cards, and the cards given on after 7s or discarded after
    /// 10s (President and Daifugō, which go face down) without their
    /// cards.
    pub fn to_others(action: Action) -> Seen {
        match action {
            Action::GiveTax(_) => Seen::Hidden(HiddenAction::GiveTax(())),
            Action::Give(_) => Seen::Hidden(HiddenAction::Give(())),
            Action::Discard(_) => Seen::Hidden(HiddenAction::Discard(())),
            Action::AnswerExchange(_) => Seen::Hidden(HiddenAction::AnswerExchange(())),
            Action::OfferExchange { partner, .. } => Seen::Hidden(HiddenAction::OfferExchange {
                partner: partner.index(),
                card: (),
            }),
            other => Seen::Shown(Wire(other)),
        }
    }
}

/// A secret choice of cards, as the other seats know it: `null` where the
/// cards are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HiddenAction {
    /// A Dalmuti's tax gift.
    GiveTax(()),
    /// A merchant exchange offered to `partner`.
    OfferExchange {
        /// The partner's seat.
        partner: usize,
        /// The card, hidden.
        card: (),
    },
    /// A card given back in the merchant exchange.
    AnswerExchange(()),
    /// A card given to the next player after 7s (7-pass).
    Give(()),
    /// A card discarded after 10s (10-discard).
    Discard(()),
}

/// A finished game step by step, as everyone may now see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// Everyone seated, in lobby order.
    pub players: Vec<PlayerName>,
    /// The names among them the server gave bots, with their parts (as
    /// INFO's `bots`); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<BotNamed>,
    /// A step per deal and per action.
    pub frames: Vec<ReplayFrame>,
}

/// One step of a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayFrame {
    /// The hand's number, from 1.
    pub hand: usize,
    /// The event, every card shown.
    pub e: Described,
    /// The hand's players by seat of play.
    pub players: Vec<PlayerName>,
    /// Every seat's cards.
    pub hands: Vec<String>,
    /// The hand as a spectator sees it.
    pub view: ViewSnapshot,
}
