//! The WebSocket messages (`docs/PROTOCOL.md`), lichess style: every
//! message is a JSON object `{"t": TYPE, "v": EVENT, "d": DATA}`.

use dalmuti_core::Action;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The largest message a client may send, in bytes.
pub const MAX_CLIENT_MESSAGE: usize = 4096;
/// The longest chat line, in characters.
pub const MAX_CHAT: usize = 500;

/// What a server message is: its `t` (`docs/PROTOCOL.md`).
///
/// ```
/// use dalmuti_server::protocol::MsgType;
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
        }
    }
}

impl PartialEq<&str> for MsgType {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A message from the server. `v` is the table's event number the message
/// reflects (0 before any event).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServerMsg {
    /// What it is.
    pub t: MsgType,
    /// The table's event number.
    pub v: u64,
    /// The data.
    pub d: Value,
}

impl ServerMsg {
    /// The message as JSON text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a message serializes")
    }

    /// A refusal: its reason in words and its kind
    /// ([`ServerError::kind`](crate::error::ServerError::kind)).
    pub fn error(v: u64, error: &crate::error::ServerError) -> ServerMsg {
        ServerMsg {
            t: MsgType::Error,
            v,
            d: serde_json::json!({ "reason": error.to_string(), "kind": error.kind() }),
        }
    }
}

/// A message already written as JSON text, as a table's feeds carry it:
/// an event makes one per seat, and writing it straight to text (not
/// through a [`Value`]) is most of what an event costs the server.
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
    /// A message whose data `d` is already JSON text.
    pub fn new(t: MsgType, v: u64, d: &str) -> Outgoing {
        Outgoing {
            t,
            v,
            text: format!("{{\"t\":\"{}\",\"v\":{v},\"d\":{d}}}", t.as_str()),
        }
    }

    /// The message read back (tests, tools).
    pub fn to_msg(&self) -> ServerMsg {
        let d = serde_json::from_str::<Value>(&self.text)
            .map(|mut m| m["d"].take())
            .unwrap_or(Value::Null);
        ServerMsg {
            t: self.t,
            v: self.v,
            d,
        }
    }
}

impl From<&ServerMsg> for Outgoing {
    fn from(msg: &ServerMsg) -> Outgoing {
        Outgoing {
            t: msg.t,
            v: msg.v,
            text: msg.to_text(),
        }
    }
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientMsg {
    /// The first message: who is connecting (a seat's token, or none for a
    /// spectator) and the last event number seen (0 if none).
    Hello {
        /// The seat's secret token.
        token: Option<String>,
        /// The last event number the client saw.
        v: u64,
        /// A spectator's name for its chat lines (a seat's lines carry
        /// the seat's name).
        name: Option<String>,
    },
    /// An action, valid only at event number `v`.
    Act {
        /// The event number the action was chosen at.
        v: u64,
        /// The action.
        action: Action,
    },
    /// The Greater Dalmuti places a newcomer, at event `v`.
    Place {
        /// The event number the choice was made at.
        v: u64,
        /// The newcomer.
        name: String,
        /// The seat (0-based, counted after the insertion).
        seat: usize,
    },
    /// A chat line.
    Chat(String),
}

/// The most cards one play may hold: a whole rank (twelve Peasants) and
/// both Jesters.
pub const MAX_PLAY: usize = 14;
/// The most cards a tax gift holds (the Greater Dalmuti gives two).
pub const MAX_TAX: usize = 2;

/// A client message refused before it reached the table, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// What is wrong, for the client.
    pub reason: String,
    /// The message was an `act` or a `place` (its `t` says so): its
    /// refusal is followed by a `resync`, like any refused action.
    pub action: bool,
}

impl Refused {
    fn new(reason: impl Into<String>, action: bool) -> Refused {
        Refused {
            reason: reason.into(),
            action,
        }
    }
}

/// Whether a message's `t` is `act` or `place`: for messages refused
/// before they are read (too long, rate-limited), which are refused like
/// any action all the same.
pub fn is_action_text(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .as_ref()
        .and_then(|m| m.get("t"))
        .and_then(Value::as_str)
        .is_some_and(|t| t == "act" || t == "place")
}

impl ClientMsg {
    /// Whether it is an `act` or a `place`.
    pub fn is_action(&self) -> bool {
        matches!(self, ClientMsg::Act { .. } | ClientMsg::Place { .. })
    }

    /// Reads a client message, or says what is wrong with it.
    pub fn parse(text: &str) -> Result<ClientMsg, Refused> {
        if text.len() > MAX_CLIENT_MESSAGE {
            return Err(Refused::new(
                format!(
                    "message too long: {} bytes, at most {MAX_CLIENT_MESSAGE}",
                    text.len()
                ),
                is_action_text(text),
            ));
        }
        let value: Value = serde_json::from_str(text)
            .map_err(|e| Refused::new(format!("not JSON: {e}"), false))?;
        let t = value
            .get("t")
            .and_then(Value::as_str)
            .ok_or_else(|| Refused::new("a message is an object with a string \"t\"", false))?;
        let action = t == "act" || t == "place";
        let refuse = |reason: String| Refused::new(reason, action);
        let v = match value.get("v") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| refuse(format!("{t}: \"v\" must be a non-negative integer")))?,
            ),
        };
        let d = value.get("d").unwrap_or(&Value::Null);
        match t {
            "hello" => {
                let token = match d.get("token") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => return Err(refuse("hello: \"token\" must be a string".into())),
                };
                let name = match d.get("name") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(
                        crate::names::check_new_name(s)
                            .map_err(|e| refuse(format!("hello: \"name\": {e}")))?,
                    ),
                    Some(_) => return Err(refuse("hello: \"name\" must be a string".into())),
                };
                Ok(ClientMsg::Hello {
                    token,
                    v: v.unwrap_or(0),
                    name,
                })
            }
            "act" => {
                let v = v.ok_or_else(|| {
                    refuse(
                        "act: \"v\", the event number the action was chosen at, is required".into(),
                    )
                })?;
                check_card_counts(d).map_err(|e| refuse(format!("act: {e}")))?;
                let action = dalmuti_core::wire::decode_action(d)
                    .map_err(|e| refuse(format!("act: {e}")))?;
                Ok(ClientMsg::Act { v, action })
            }
            "place" => {
                let v =
                    v.ok_or_else(|| refuse("place: \"v\", the event number, is required".into()))?;
                let name = d.get("name").and_then(Value::as_str).ok_or_else(|| {
                    refuse("place: \"d\" must be {\"name\": NEWCOMER, \"seat\": K}".into())
                })?;
                let seat = d.get("seat").and_then(Value::as_u64).ok_or_else(|| {
                    refuse("place: \"seat\" must be a non-negative integer".into())
                })?;
                Ok(ClientMsg::Place {
                    v,
                    name: name.to_string(),
                    seat: usize::try_from(seat).unwrap_or(usize::MAX),
                })
            }
            "chat" => {
                let text = d
                    .as_str()
                    .ok_or_else(|| refuse("chat: \"d\" must be a string".into()))?;
                if text.trim().is_empty() {
                    return Err(refuse("chat: an empty line".into()));
                }
                if text.chars().count() > MAX_CHAT {
                    return Err(refuse(format!("chat: at most {MAX_CHAT} characters")));
                }
                Ok(ClientMsg::Chat(text.to_string()))
            }
            other => Err(refuse(format!(
                "unknown message type {other:?}: expected hello, act, place or chat"
            ))),
        }
    }
}

/// Refuses a play or tax gift with more cards than any can hold, before
/// the cards are read: the engine would only say the cards are not held.
fn check_card_counts(d: &Value) -> Result<(), String> {
    // The cards of a play end where its `as V` begins.
    let count = |key: &str| {
        d.get(key)
            .and_then(Value::as_str)
            .map(|cards| cards.split_whitespace().take_while(|t| *t != "as").count())
    };
    if let Some(n) = count("play").filter(|&n| n > MAX_PLAY) {
        return Err(format!(
            "a play has at most {MAX_PLAY} cards (one rank and the two Jesters), not {n}"
        ));
    }
    if let Some(n) = count("give_tax").filter(|&n| n > MAX_TAX) {
        return Err(format!("a tax gift has at most {MAX_TAX} cards, not {n}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalmuti_core::Seat;

    #[test]
    fn parses_and_refuses() {
        assert_eq!(
            ClientMsg::parse(r#"{"t":"hello","v":3,"d":{"token":"ab"}}"#).unwrap(),
            ClientMsg::Hello {
                token: Some("ab".into()),
                v: 3,
                name: None,
            }
        );
        assert_eq!(
            ClientMsg::parse(r#"{"t":"act","v":7,"d":"pass"}"#).unwrap(),
            ClientMsg::Act {
                v: 7,
                action: Action::Pass
            }
        );
        let refused = |text: &str| ClientMsg::parse(text).unwrap_err();
        assert!(
            refused(r#"{"t":"act","d":"pass"}"#)
                .reason
                .contains("\"v\"")
        );
        assert!(refused(r#"{"t":"act","v":1,"d":"dance"}"#).action);
        assert!(refused("garbage").reason.contains("not JSON"));
        assert!(refused(r#"{"t":"fly"}"#).reason.contains("unknown"));
        let long = format!(r#"{{"t":"chat","d":"{}"}}"#, "x".repeat(5000));
        assert!(refused(&long).reason.contains("too long"));
        assert!(!refused(&long).action);
    }

    #[test]
    fn every_refused_act_or_place_is_marked_for_a_resync() {
        let many = vec!["5"; 1000].join(" ");
        for text in [
            r#"{"t":"act","v":"7","d":"pass"}"#.to_string(),
            r#"{"t":"act","v":7,"d":{"play":"6 6 X"}}"#.to_string(),
            r#"{"t":"act","v":7,"d":{"offer_exchange":{"partner":99,"card":"7"}}}"#.to_string(),
            format!(r#"{{"t":"act","v":7,"d":{{"play":"{many}"}}}}"#),
            r#"{"t":"place","v":7,"d":{"name":"Bo"}}"#.to_string(),
            r#"{"t":"place","v":-1,"d":{"name":"Bo","seat":1}}"#.to_string(),
        ] {
            let refused = ClientMsg::parse(&text).unwrap_err();
            assert!(refused.action, "{text}: {refused:?}");
        }
        for text in ["garbage", r#"{"v":1}"#, r#"{"t":"chat","d":7}"#] {
            assert!(!ClientMsg::parse(text).unwrap_err().action, "{text}");
        }
    }

    #[test]
    fn corporate_shuffle_plays_say_their_value_and_their_wedgie_target() {
        let act = |d: &str| ClientMsg::parse(&format!(r#"{{"t":"act","v":4,"d":{d}}}"#));
        let played = |d: &str| match act(d) {
            Ok(ClientMsg::Act {
                action: Action::Play(set),
                ..
            }) => set,
            other => panic!("{d}: {other:?}"),
        };
        let dogberts = played(r#"{"play":"D  D as 3"}"#);
        assert_eq!((dogberts.size(), dogberts.declared()), (2, Some(3)));
        let wedgie = played(r#"{"play":"T 6","wedgie":2}"#);
        assert_eq!(wedgie.wedgie_target(), Some(Seat::new(2)));
        assert_eq!(wedgie.to_string(), "6 T");
        // The hand's last play names no target (C5).
        assert_eq!(played(r#"{"play":"T"}"#).wedgie_target(), None);
        assert_eq!(played(r#"{"play":"0"}"#).rank_number(), 0);
        // What goes out is what comes in.
        for d in [r#"{"play":"6 T","wedgie":2}"#, r#"{"play":"D D as 3"}"#] {
            let action =
                dalmuti_core::wire::decode_action(&serde_json::from_str(d).unwrap()).unwrap();
            assert_eq!(dalmuti_core::wire::encode_action(&action).to_string(), d);
        }
    }

    #[test]
    fn malformed_corporate_shuffle_plays_are_refused_with_a_reason_and_a_resync() {
        for (d, why) in [
            (r#"{"play":"D as 0"}"#, "1 to 10, not 0"),
            (r#"{"play":"D D as 11"}"#, "1 to 10, not 11"),
            (r#"{"play":"D D"}"#, "must say what it plays as"),
            (r#"{"play":"6 D as 3"}"#, "only a set of Dogberts alone"),
            (r#"{"play":"0 0"}"#, "played only alone"),
            (r#"{"play":"0 D"}"#, "played only alone"),
            (r#"{"play":"R 10"}"#, "played only alone"),
            (
                r#"{"play":"6 6","wedgie":1}"#,
                "only a set holding the Twirling Wedgie",
            ),
            (r#"{"play":"6 T","wedgie":"Bo"}"#, "a seat number"),
            (r#"{"play":"6 T","wedgie":-1}"#, "a seat number"),
            (r#"{"play":"6 T","wedgie":16}"#, "not 16"),
            (r#"{"play":"6 T","target":1}"#, "\"target\""),
            (r#"{"play":7}"#, "a string of cards"),
            (r#"{"play":"6 J T"}"#, "mixes cards"),
        ] {
            let text = format!(r#"{{"t":"act","v":4,"d":{d}}}"#);
            let refused = ClientMsg::parse(&text).unwrap_err();
            assert!(refused.action, "{d}: a resync follows");
            assert!(
                refused.reason.starts_with("act: "),
                "{d}: {}",
                refused.reason
            );
            assert!(refused.reason.contains(why), "{d}: {}", refused.reason);
        }
    }

    #[test]
    fn an_oversized_play_is_refused_for_its_size() {
        let many = vec!["5"; 1000].join(" ");
        let text = format!(r#"{{"t":"act","v":7,"d":{{"play":"{many}"}}}}"#);
        let reason = ClientMsg::parse(&text).unwrap_err().reason;
        assert!(reason.contains("at most 14 cards"), "{reason}");
        let text = r#"{"t":"act","v":7,"d":{"give_tax":"1 2 3"}}"#;
        let reason = ClientMsg::parse(text).unwrap_err().reason;
        assert!(reason.contains("at most 2 cards"), "{reason}");
        assert!(is_action_text(r#"{"t":"place","v":1}"#));
        assert!(!is_action_text(r#"{"t":"chat"}"#));
    }
}
