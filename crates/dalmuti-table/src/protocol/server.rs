//! What the server tells a client: a message's type, its event number and
//! its data, as one type ([`ServerMsg`]) and as the text a feed carries
//! ([`Outgoing`]).

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use super::{ChatLine, NewsLine, StateMsg};

/// What a server message is: its `t` (`docs/PROTOCOL.md`).
///
/// ```
/// use dalmuti_table::protocol::MsgType;
/// assert_eq!(serde_json::to_string(&MsgType::Catchup).unwrap(), r#""catchup""#);
/// assert_eq!(MsgType::Resync, "resync");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MsgType {
    /// STATE with the talk kept: the answer to a new client's `hello`.
    Snapshot,
    /// STATE with the events a returning client missed.
    Catchup,
    /// STATE with an accepted event.
    Event,
    /// STATE when who is here changes.
    Presence,
    /// A refusal.
    Error,
    /// STATE after a refusal, or for a client that fell behind.
    Resync,
    /// A line of chat.
    Chat,
    /// A line of the table's news.
    News,
    /// Another node serves the table.
    Moved,
    /// The seat was taken back on another device: this connection plays
    /// it no more.
    Taken,
}

impl MsgType {
    /// The type as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            MsgType::Snapshot => "snapshot",
            MsgType::Catchup => "catchup",
            MsgType::Event => "event",
            MsgType::Presence => "presence",
            MsgType::Error => "error",
            MsgType::Resync => "resync",
            MsgType::Chat => "chat",
            MsgType::News => "news",
            MsgType::Moved => "moved",
            MsgType::Taken => "taken",
        }
    }
}

impl PartialEq<&str> for MsgType {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Why a STATE is sent: the types of message whose data is a STATE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateKind {
    /// The answer to a new client's `hello`.
    Snapshot,
    /// The answer to a returning client's `hello`.
    Catchup,
    /// An accepted event.
    Event,
    /// Who is here changed.
    Presence,
    /// After a refusal, or for a client that fell behind.
    Resync,
}

impl From<StateKind> for MsgType {
    fn from(kind: StateKind) -> MsgType {
        match kind {
            StateKind::Snapshot => MsgType::Snapshot,
            StateKind::Catchup => MsgType::Catchup,
            StateKind::Event => MsgType::Event,
            StateKind::Presence => MsgType::Presence,
            StateKind::Resync => MsgType::Resync,
        }
    }
}

/// What a message tells: its type and its data `d`, one variant per type.
#[derive(Clone, Debug, PartialEq)]
pub enum Told {
    /// A STATE, and why it is sent.
    State(StateKind, Box<StateMsg>),
    /// A refusal.
    Error(Refusal),
    /// A line of chat.
    Chat(ChatLine),
    /// A line of the table's news.
    News(NewsLine),
    /// Another node serves the table.
    Moved(Moved),
    /// The seat was taken back on another device.
    Taken(Taken),
}

impl Told {
    /// The message's type.
    pub fn t(&self) -> MsgType {
        match self {
            Told::State(kind, _) => (*kind).into(),
            Told::Error(_) => MsgType::Error,
            Told::Chat(_) => MsgType::Chat,
            Told::News(_) => MsgType::News,
            Told::Moved(_) => MsgType::Moved,
            Told::Taken(_) => MsgType::Taken,
        }
    }
}

/// A refusal's data: the reason in words and its kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// What is wrong, in words.
    pub reason: String,
    /// What kind of refusal, for programs.
    pub kind: ErrorKind,
}

/// What kind of refusal an `error` message (its `kind`) or a `resync` (its
/// `error_kind`) tells of: a client tells refusals apart by this word,
/// never by the reason's text, which is for people.
///
/// ```
/// use dalmuti_table::protocol::ErrorKind;
/// assert_eq!(serde_json::to_string(&ErrorKind::RateLimited).unwrap(), r#""rate_limited""#);
/// assert_eq!(serde_json::from_str::<ErrorKind>(r#""stale""#).unwrap(), ErrorKind::Stale);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No table with this id.
    NoTable,
    /// Nothing is served at this path.
    NotFound,
    /// The request is malformed or out of range.
    BadRequest,
    /// The token belongs to no seat at this table.
    BadToken,
    /// No token was given where one is needed.
    NoToken,
    /// Only the host may do this.
    NotHost,
    /// A player's secret that is no player's.
    UnknownPlayer,
    /// No player's secret was given where one is needed.
    NoPlayer,
    /// A request or message over its size.
    TooLarge,
    /// Too many messages.
    TooMany,
    /// Too many requests of this kind from one client: retry later.
    RateLimited,
    /// The request conflicts with the table's state.
    Conflict,
    /// The action was chosen at an older event.
    Stale,
    /// The action is not legal now.
    Illegal,
    /// A cap was reached.
    Full,
    /// The server is too busy for this now: retry later.
    Busy,
    /// Storage failed; nothing changed.
    Storage,
    /// The table is closed.
    Closed,
    /// Another node serves the table.
    Moved,
    /// This node is stopping.
    Draining,
}

/// Where the table went (`moved`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moved {
    /// The node's public address, when it has one.
    pub url: Option<String>,
    /// The node's id.
    pub node: Option<String>,
    /// Why, in words.
    pub reason: String,
}

/// Whose seat was taken back on another device (`taken`): the connection
/// that gets it plays the seat no more, and closes next.
///
/// ```
/// use dalmuti_table::names::PlayerName;
/// use dalmuti_table::protocol::{ServerMsg, Taken, Told};
/// let taken = Taken { name: PlayerName::new("Ada").unwrap(), reason: "taken back".into() };
/// let msg = ServerMsg { v: 7, told: Told::Taken(taken) };
/// assert_eq!(msg.to_text(), r#"{"t":"taken","v":7,"d":{"name":"Ada","reason":"taken back"}}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Taken {
    /// The seat's name.
    pub name: crate::names::PlayerName,
    /// Why, in words (a client words it in its own language by the type).
    pub reason: String,
}

/// A message from the server. `v` is the table's event number the message
/// reflects (0 before any event).
///
/// ```
/// use dalmuti_table::protocol::{MsgType, ServerMsg};
/// let text = r#"{"t":"error","v":3,"d":{"reason":"not your turn","kind":"illegal"}}"#;
/// let msg: ServerMsg = serde_json::from_str(text).unwrap();
/// assert_eq!((msg.t(), msg.v), (MsgType::Error, 3));
/// assert_eq!(msg.to_text(), text);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ServerMsg {
    /// The table's event number.
    pub v: u64,
    /// What it tells.
    pub told: Told,
}

impl ServerMsg {
    /// The message's type, its `t`.
    pub fn t(&self) -> MsgType {
        self.told.t()
    }

    /// The message as JSON text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a message serializes")
    }

    /// A refusal at event `v`: its kind and its reason in words.
    pub fn error(v: u64, kind: ErrorKind, reason: String) -> ServerMsg {
        ServerMsg {
            v,
            told: Told::Error(Refusal { reason, kind }),
        }
    }

    /// The STATE this message carries, if it carries one.
    pub fn state(&self) -> Option<&StateMsg> {
        match &self.told {
            Told::State(_, state) => Some(state),
            _ => None,
        }
    }

    /// The data `d` as a JSON value, for tests and tools that read a
    /// message field by field.
    pub fn data(&self) -> serde_json::Value {
        let text = self.to_text();
        serde_json::from_str::<serde_json::Value>(&text)
            .map(|mut m| m["d"].take())
            .expect("a message reads back")
    }
}

impl Serialize for ServerMsg {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut msg = serializer.serialize_struct("ServerMsg", 3)?;
        msg.serialize_field("t", &self.t())?;
        msg.serialize_field("v", &self.v)?;
        match &self.told {
            Told::State(_, state) => msg.serialize_field("d", state)?,
            Told::Error(refusal) => msg.serialize_field("d", refusal)?,
            Told::Chat(line) => msg.serialize_field("d", line)?,
            Told::News(line) => msg.serialize_field("d", line)?,
            Told::Moved(moved) => msg.serialize_field("d", moved)?,
            Told::Taken(taken) => msg.serialize_field("d", taken)?,
        }
        msg.end()
    }
}

impl<'de> Deserialize<'de> for ServerMsg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// The envelope: the data is read once its type is known.
        #[derive(Deserialize)]
        struct Envelope {
            t: MsgType,
            v: u64,
            d: Box<RawValue>,
        }
        let Envelope { t, v, d } = Envelope::deserialize(deserializer)?;
        fn read<'a, T: Deserialize<'a>, E: serde::de::Error>(
            t: MsgType,
            d: &'a RawValue,
        ) -> Result<T, E> {
            serde_json::from_str(d.get())
                .map_err(|e| E::custom(format!("{}: \"d\": {e}", t.as_str())))
        }
        let state = |kind| read(t, &d).map(|s| Told::State(kind, Box::new(s)));
        let told = match t {
            MsgType::Snapshot => state(StateKind::Snapshot)?,
            MsgType::Catchup => state(StateKind::Catchup)?,
            MsgType::Event => state(StateKind::Event)?,
            MsgType::Presence => state(StateKind::Presence)?,
            MsgType::Resync => state(StateKind::Resync)?,
            MsgType::Error => Told::Error(read(t, &d)?),
            MsgType::Chat => Told::Chat(read(t, &d)?),
            MsgType::News => Told::News(read(t, &d)?),
            MsgType::Moved => Told::Moved(read(t, &d)?),
            MsgType::Taken => Told::Taken(read(t, &d)?),
        };
        Ok(ServerMsg { v, told })
    }
}

/// A message already written as JSON text, as a table's feeds carry it:
/// an event makes one per seat, written once and shared by that seat's
/// connections.
#[derive(Clone, Debug, PartialEq)]
pub struct Outgoing {
    /// The message's type, as in [`ServerMsg::t`].
    pub t: MsgType,
    /// The table's event number.
    pub v: u64,
    /// The whole message, `{"t": …, "v": …, "d": …}`.
    pub text: String,
}

impl Outgoing {
    /// The message read back (tests, tools).
    pub fn to_msg(&self) -> ServerMsg {
        serde_json::from_str(&self.text).expect("an outgoing message reads back")
    }
}

impl From<&ServerMsg> for Outgoing {
    fn from(msg: &ServerMsg) -> Outgoing {
        Outgoing {
            t: msg.t(),
            v: msg.v,
            text: msg.to_text(),
        }
    }
}
