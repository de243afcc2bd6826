//! The WebSocket messages (`docs/PROTOCOL.md`), lichess style: every
//! message is a JSON object `{"t": TYPE, "v": EVENT, "d": DATA}`.

use dalmuti_core::Action;
use serde::Serialize;
use serde_json::Value;

/// The largest message a client may send, in bytes.
pub const MAX_CLIENT_MESSAGE: usize = 4096;
/// The longest chat line, in characters.
pub const MAX_CHAT: usize = 500;

/// A message from the server. `v` is the table's event number the message
/// reflects (0 before any event).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServerMsg {
    /// `snapshot`, `catchup`, `event`, `presence`, `error`, `resync` or
    /// `chat`.
    pub t: &'static str,
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

    /// An error with a reason.
    pub fn error(v: u64, reason: &str) -> ServerMsg {
        ServerMsg {
            t: "error",
            v,
            d: serde_json::json!({ "reason": reason }),
        }
    }
}

/// A message already written as JSON text, as a table's feeds carry it:
/// an event makes one per seat, and writing it straight to text (not
/// through a [`Value`]) is most of what an event costs the server.
#[derive(Clone, Debug, PartialEq)]
pub struct Outgoing {
    /// The message's type, as in [`ServerMsg::t`].
    pub t: &'static str,
    /// The table's event number.
    pub v: u64,
    /// The whole message, `{"t": …, "v": …, "d": …}`.
    pub text: String,
}

impl Outgoing {
    /// A message whose data `d` is already JSON text.
    pub fn new(t: &'static str, v: u64, d: &str) -> Outgoing {
        Outgoing {
            t,
            v,
            text: format!("{{\"t\":\"{t}\",\"v\":{v},\"d\":{d}}}"),
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

impl ClientMsg {
    /// Reads a client message, or says what is wrong with it.
    pub fn parse(text: &str) -> Result<ClientMsg, String> {
        if text.len() > MAX_CLIENT_MESSAGE {
            return Err(format!(
                "message too long: {} bytes, at most {MAX_CLIENT_MESSAGE}",
                text.len()
            ));
        }
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let t = value
            .get("t")
            .and_then(Value::as_str)
            .ok_or("a message is an object with a string \"t\"")?;
        let v = match value.get("v") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().ok_or("\"v\" must be a non-negative integer")?),
        };
        let d = value.get("d").unwrap_or(&Value::Null);
        match t {
            "hello" => {
                let token = match d.get("token") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => return Err("hello: \"token\" must be a string".into()),
                };
                Ok(ClientMsg::Hello {
                    token,
                    v: v.unwrap_or(0),
                })
            }
            "act" => {
                let v =
                    v.ok_or("act: \"v\", the event number the action was chosen at, is required")?;
                let action = dalmuti_bots::protocol::decode_action(d)
                    .map_err(|e| format!("act: {}", e.0))?;
                Ok(ClientMsg::Act { v, action })
            }
            "place" => {
                let v = v.ok_or("place: \"v\", the event number, is required")?;
                let name = d
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or("place: \"d\" must be {\"name\": NEWCOMER, \"seat\": K}")?;
                let seat = d
                    .get("seat")
                    .and_then(Value::as_u64)
                    .ok_or("place: \"seat\" must be a non-negative integer")?;
                Ok(ClientMsg::Place {
                    v,
                    name: name.to_string(),
                    seat: seat as usize,
                })
            }
            "chat" => {
                let text = d.as_str().ok_or("chat: \"d\" must be a string")?;
                if text.trim().is_empty() {
                    return Err("chat: an empty line".into());
                }
                if text.chars().count() > MAX_CHAT {
                    return Err(format!("chat: at most {MAX_CHAT} characters"));
                }
                Ok(ClientMsg::Chat(text.to_string()))
            }
            other => Err(format!(
                "unknown message type {other:?}: expected hello, act, place or chat"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        assert_eq!(
            ClientMsg::parse(r#"{"t":"hello","v":3,"d":{"token":"ab"}}"#).unwrap(),
            ClientMsg::Hello {
                token: Some("ab".into()),
                v: 3
            }
        );
        assert_eq!(
            ClientMsg::parse(r#"{"t":"act","v":7,"d":"pass"}"#).unwrap(),
            ClientMsg::Act {
                v: 7,
                action: Action::Pass
            }
        );
        assert!(
            ClientMsg::parse(r#"{"t":"act","d":"pass"}"#)
                .unwrap_err()
                .contains("\"v\"")
        );
        assert!(ClientMsg::parse(r#"{"t":"act","v":1,"d":"dance"}"#).is_err());
        assert!(
            ClientMsg::parse("garbage")
                .unwrap_err()
                .contains("not JSON")
        );
        assert!(
            ClientMsg::parse(r#"{"t":"fly"}"#)
                .unwrap_err()
                .contains("unknown")
        );
        let long = format!(r#"{{"t":"chat","d":"{}"}}"#, "x".repeat(5000));
        assert!(ClientMsg::parse(&long).unwrap_err().contains("too long"));
    }
}
