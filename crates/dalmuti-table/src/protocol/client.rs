//! What a client sends: `hello`, `act`, `place` and `chat`, read by serde
//! into [`ClientMsg`], or refused with what is wrong and where.

use std::borrow::Cow;

use dalmuti_core::Action;
use dalmuti_core::wire::Wire;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::{MAX_CHAT, MAX_CLIENT_MESSAGE, MAX_PLAY, MAX_TAX, unprintable};
use crate::names::PlayerName;
use crate::token::SeatToken;

/// A message from a client.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientMsg {
    /// The first message: who is connecting (a seat's token, or none for a
    /// spectator) and the last event number seen (0 if none).
    Hello {
        /// The seat's secret token.
        token: Option<SeatToken>,
        /// The last event number the client saw.
        v: u64,
        /// A spectator's name for its chat lines (a seat's lines carry
        /// the seat's name).
        name: Option<PlayerName>,
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
        name: PlayerName,
        /// The seat (0-based, counted after the insertion).
        seat: usize,
    },
    /// A chat line.
    Chat(String),
}

/// A client message refused before it reached the table, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// What is wrong, for the client.
    pub reason: Unreadable,
    /// The message was an `act` or a `place` (its `t` says so): its
    /// refusal is followed by a `resync`, like any refused action.
    pub action: bool,
}

impl Refused {
    fn new(reason: Unreadable, action: bool) -> Refused {
        Refused { reason, action }
    }
}

/// What is wrong with a client message, and where: one kind per refusal,
/// its words written once (the server says them as a `bad_request`).
///
/// ```
/// use dalmuti_table::protocol::{ClientMsg, Unreadable};
/// let refused = ClientMsg::parse(r#"{"t":"chat","d":" "}"#).unwrap_err();
/// assert_eq!(refused.reason, Unreadable::ChatEmpty);
/// assert_eq!(refused.reason.to_string(), "chat: an empty line");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// A message over the longest.
    #[error("message too long: {bytes} bytes, at most {MAX_CLIENT_MESSAGE}")]
    TooLong {
        /// Its length.
        bytes: usize,
    },
    /// JSON that is not an object with a string `t`.
    #[error("a message is an object with a string \"t\"")]
    NotAnObject,
    /// Text that is not JSON, in the reader's words.
    #[error("not JSON: {why}")]
    NotJson {
        /// What the reader found.
        why: String,
    },
    /// A `t` nobody sends.
    #[error("unknown message type {t:?}: expected hello, act, place or chat")]
    UnknownType {
        /// The type sent.
        t: String,
    },
    /// A `v` that is not an event number.
    #[error("{t}: \"v\" must be a non-negative integer")]
    BadV {
        /// The message's type.
        t: &'static str,
    },
    /// A field of the data that does not read, in the reader's words.
    #[error("{t}: \"{field}\": {why}")]
    Field {
        /// The message's type.
        t: &'static str,
        /// The field (`d` for the data as a whole).
        field: String,
        /// What the reader found.
        why: String,
    },
    /// A spectator's name in `hello` that a person may not take.
    #[error("hello: \"name\": {0}")]
    Name(crate::error::TableError),
    /// An `act` without its event number.
    #[error("act: \"v\", the event number the action was chosen at, is required")]
    ActWithoutV,
    /// An action that does not read, in the engine's words.
    #[error("act: {why}")]
    Action {
        /// What the engine's reader found.
        why: String,
    },
    /// A play of more cards than any play holds.
    #[error("act: a play has at most {MAX_PLAY} cards (one rank and the two Jesters), not {n}")]
    PlayTooLarge {
        /// The cards sent.
        n: usize,
    },
    /// A tax gift of more cards than any tax.
    #[error("act: a tax gift has at most {MAX_TAX} cards, not {n}")]
    TaxTooLarge {
        /// The cards sent.
        n: usize,
    },
    /// A `place` without its event number.
    #[error("place: \"v\", the event number, is required")]
    PlaceWithoutV,
    /// A `place` whose data does not read.
    #[error("{0} (\"d\" is {{\"name\": NEWCOMER, \"seat\": K}})")]
    Place(Box<Unreadable>),
    /// A chat line that is not a string.
    #[error("chat: \"d\" must be a string")]
    ChatNotString,
    /// An empty chat line.
    #[error("chat: an empty line")]
    ChatEmpty,
    /// A chat line over the longest.
    #[error("chat: at most {MAX_CHAT} characters")]
    ChatTooLong,
    /// A chat line with a character that is not plain text.
    #[error(
        "chat: one line of plain text, without control characters: U+{:04X} at character {at} \
         is one",
        u32::from(*.c)
    )]
    ChatUnprintable {
        /// The character.
        c: char,
        /// Where, counted from 1.
        at: usize,
    },
}

/// A client message as sent: its type, and its event number and data
/// still as text, read once the type is known.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    t: Cow<'a, str>,
    #[serde(borrow, default)]
    v: Option<&'a RawValue>,
    #[serde(borrow, default)]
    d: Option<&'a RawValue>,
}

/// The types of message a client sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Hello,
    Act,
    Place,
    Chat,
}

impl Kind {
    fn of(t: &str) -> Option<Kind> {
        Some(match t {
            "hello" => Kind::Hello,
            "act" => Kind::Act,
            "place" => Kind::Place,
            "chat" => Kind::Chat,
            _ => return None,
        })
    }

    /// Its `t`.
    fn name(self) -> &'static str {
        match self {
            Kind::Hello => "hello",
            Kind::Act => "act",
            Kind::Place => "place",
            Kind::Chat => "chat",
        }
    }
}

/// `hello`'s data.
#[derive(Default, Deserialize)]
struct HelloData {
    #[serde(default)]
    token: Option<SeatToken>,
    #[serde(default)]
    name: Option<String>,
}

/// `place`'s data.
#[derive(Deserialize)]
struct PlaceData {
    name: PlayerName,
    seat: u64,
}

/// The cards of a play or a tax gift, counted before they are read.
#[derive(Deserialize)]
struct CardsSent<'a> {
    #[serde(borrow, default)]
    play: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    give_tax: Option<Cow<'a, str>>,
}

/// Reads `raw` as a `T`, or says which field of message `t` is wrong
/// and how (`"d"` for the data as a whole).
fn read<'a, T: Deserialize<'a>>(
    t: &'static str,
    what: &str,
    raw: Option<&'a RawValue>,
) -> Result<T, Unreadable> {
    let mut de = serde_json::Deserializer::from_str(raw.map_or("null", RawValue::get));
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { what.to_string() } else { path };
        let why = without_position(e.inner());
        Unreadable::Field { t, field, why }
    })
}

/// Whether a message's `t` is `act` or `place`: for messages refused
/// before they are read (too long, rate-limited), which are refused like
/// any action all the same.
pub fn is_action_text(text: &str) -> bool {
    serde_json::from_str::<Envelope>(text)
        .is_ok_and(|m| matches!(Kind::of(&m.t), Some(Kind::Act | Kind::Place)))
}

impl ClientMsg {
    /// Whether it is an `act` or a `place`.
    pub fn is_action(&self) -> bool {
        matches!(self, ClientMsg::Act { .. } | ClientMsg::Place { .. })
    }

    /// Reads a client message, or says what is wrong with it.
    ///
    /// ```
    /// use dalmuti_table::protocol::ClientMsg;
    /// let hello = ClientMsg::parse(r#"{"t":"hello","v":3,"d":{"token":"ab"}}"#).unwrap();
    /// assert!(matches!(hello, ClientMsg::Hello { v: 3, .. }));
    /// let refused = ClientMsg::parse(r#"{"t":"hello","d":{"token":5}}"#).unwrap_err();
    /// assert_eq!(refused.reason.to_string(), r#"hello: "token": invalid type: integer `5`, expected a string"#);
    /// ```
    pub fn parse(text: &str) -> Result<ClientMsg, Refused> {
        if text.len() > MAX_CLIENT_MESSAGE {
            let bytes = text.len();
            return Err(Refused::new(
                Unreadable::TooLong { bytes },
                is_action_text(text),
            ));
        }
        // One read: its error says whether the text is not JSON at all or
        // JSON of another shape.
        let envelope: Envelope = serde_json::from_str(text).map_err(|e| match e.classify() {
            serde_json::error::Category::Data => Refused::new(Unreadable::NotAnObject, false),
            _ => Refused::new(Unreadable::NotJson { why: e.to_string() }, false),
        })?;
        let kind = Kind::of(&envelope.t).ok_or_else(|| {
            let t = envelope.t.to_string();
            Refused::new(Unreadable::UnknownType { t }, false)
        })?;
        let t = kind.name();
        let refuse =
            |reason: Unreadable| Refused::new(reason, matches!(kind, Kind::Act | Kind::Place));
        let v = match envelope.v.filter(|v| v.get() != "null") {
            None => None,
            Some(v) => Some(
                serde_json::from_str::<u64>(v.get()).map_err(|_| refuse(Unreadable::BadV { t }))?,
            ),
        };
        let d = envelope.d;
        match kind {
            Kind::Hello => {
                let data: Option<HelloData> = read(t, "d", d).map_err(refuse)?;
                let HelloData { token, name } = data.unwrap_or_default();
                let name = name
                    .map(|name| crate::names::check_new_name(&name))
                    .transpose()
                    .map_err(|e| refuse(Unreadable::Name(e)))?;
                Ok(ClientMsg::Hello {
                    token,
                    v: v.unwrap_or(0),
                    name,
                })
            }
            Kind::Act => {
                let v = v.ok_or_else(|| refuse(Unreadable::ActWithoutV))?;
                // One read of the action; its size is checked on what was
                // read, and only a refusal counts what was sent, so that an
                // oversized play is refused for its size (the engine would
                // only say the cards are not held, or not a set).
                let read = serde_json::from_str(d.map_or("null", RawValue::get));
                let Wire(action) = read.map_err(|e| {
                    let why = without_position(&e);
                    refuse(
                        check_card_counts(d)
                            .err()
                            .unwrap_or(Unreadable::Action { why }),
                    )
                })?;
                check_action_size(&action).map_err(refuse)?;
                Ok(ClientMsg::Act { v, action })
            }
            Kind::Place => {
                let v = v.ok_or_else(|| refuse(Unreadable::PlaceWithoutV))?;
                let PlaceData { name, seat } =
                    read(t, "d", d).map_err(|e| refuse(Unreadable::Place(Box::new(e))))?;
                Ok(ClientMsg::Place {
                    v,
                    name,
                    seat: usize::try_from(seat).unwrap_or(usize::MAX),
                })
            }
            Kind::Chat => {
                let text: String = serde_json::from_str(d.map_or("null", RawValue::get))
                    .map_err(|_| refuse(Unreadable::ChatNotString))?;
                if text.trim().is_empty() {
                    return Err(refuse(Unreadable::ChatEmpty));
                }
                if text.chars().count() > MAX_CHAT {
                    return Err(refuse(Unreadable::ChatTooLong));
                }
                if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| unprintable(*c)) {
                    return Err(refuse(Unreadable::ChatUnprintable { c, at: i + 1 }));
                }
                Ok(ClientMsg::Chat(text))
            }
        }
    }
}

/// A serde error's words without its line and column: a place in the
/// data would read as a place in the message (the field says where).
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    text.split(" at line ").next().unwrap_or(&text).to_string()
}

/// Refuses a play or tax gift read with more cards than any can hold.
fn check_action_size(action: &Action) -> Result<(), Unreadable> {
    match *action {
        Action::Play(set) if usize::from(set.size()) > MAX_PLAY => Err(Unreadable::PlayTooLarge {
            n: set.size().into(),
        }),
        Action::GiveTax(cards) if cards.len() as usize > MAX_TAX => Err(Unreadable::TaxTooLarge {
            n: cards.len() as usize,
        }),
        _ => Ok(()),
    }
}

/// Counts the cards of a play or tax gift that could not be read: too
/// many is the first thing wrong with it.
fn check_card_counts(d: Option<&RawValue>) -> Result<(), Unreadable> {
    // Anything else is refused when the action is read.
    let Some(sent) = d.and_then(|d| serde_json::from_str::<CardsSent>(d.get()).ok()) else {
        return Ok(());
    };
    // The cards of a play end where its `as V` begins.
    let count = |cards: &Option<Cow<str>>| {
        cards
            .as_deref()
            .map(|cards| cards.split_whitespace().take_while(|t| *t != "as").count())
    };
    if let Some(n) = count(&sent.play).filter(|&n| n > MAX_PLAY) {
        return Err(Unreadable::PlayTooLarge { n });
    }
    if let Some(n) = count(&sent.give_tax).filter(|&n| n > MAX_TAX) {
        return Err(Unreadable::TaxTooLarge { n });
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
        // A message kept or logged by mistake never shows the seat's token.
        let hello = ClientMsg::parse(r#"{"t":"hello","d":{"token":"5ec7e75ec7e7"}}"#).unwrap();
        assert!(!format!("{hello:?}").contains("5ec7e7"), "{hello:?}");
        assert_eq!(
            ClientMsg::parse(r#"{"t":"act","v":7,"d":"pass"}"#).unwrap(),
            ClientMsg::Act {
                v: 7,
                action: Action::Pass
            }
        );
        let refused = |text: &str| ClientMsg::parse(text).unwrap_err();
        let reason = |text: &str| refused(text).reason.to_string();
        assert!(reason(r#"{"t":"act","d":"pass"}"#).contains("\"v\""));
        assert!(refused(r#"{"t":"act","v":1,"d":"dance"}"#).action);
        assert!(reason("garbage").contains("not JSON"));
        assert!(reason(r#"{"t":"fly"}"#).contains("unknown"));
        let long = format!(r#"{{"t":"chat","d":"{}"}}"#, "x".repeat(5000));
        assert!(reason(&long).contains("too long"));
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
    fn a_refusal_names_the_field_that_is_wrong() {
        let reason = |text: &str| ClientMsg::parse(text).unwrap_err().reason.to_string();
        assert_eq!(
            reason(r#"{"t":"place","v":1,"d":{"name":"Bo","seat":-1}}"#),
            r#"place: "seat": invalid value: integer `-1`, expected u64 ("d" is {"name": NEWCOMER, "seat": K})"#
        );
        assert!(
            reason(r#"{"t":"place","v":1,"d":{"name":"Bo"}}"#)
                .starts_with(r#"place: "d": missing field `seat`"#)
        );
        assert_eq!(
            reason(r#"{"t":"hello","d":{"name":["Bo"]}}"#),
            r#"hello: "name": invalid type: sequence, expected a string"#
        );
        assert_eq!(
            reason(r#"{"t":"act","v":2,"d":{"play":"5 6"}}"#),
            r#"act: {"play": …}: 5 6 is not a set of one rank"#
        );
        // No position inside the data: it would read as one in the message.
        assert!(!reason(r#"{"t":"hello","d":{"token":5}}"#).contains("column"));
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
                dalmuti_core::wire::decode_action(&mut serde_json::Deserializer::from_str(d))
                    .unwrap();
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
            let reason = refused.reason.to_string();
            assert!(reason.starts_with("act: "), "{d}: {reason}");
            assert!(reason.contains(why), "{d}: {reason}");
        }
    }

    #[test]
    fn an_oversized_play_is_refused_for_its_size() {
        let many = vec!["5"; 1000].join(" ");
        let text = format!(r#"{{"t":"act","v":7,"d":{{"play":"{many}"}}}}"#);
        let reason = ClientMsg::parse(&text).unwrap_err().reason.to_string();
        assert!(reason.contains("at most 14 cards"), "{reason}");
        // Too many for any play, though they read as one set: refused
        // for their number all the same, and a play of 14 is read.
        for (n, refused) in [(20, true), (14, false)] {
            let cards = vec!["5"; n].join(" ");
            let text = format!(r#"{{"t":"act","v":7,"d":{{"play":"{cards}"}}}}"#);
            match ClientMsg::parse(&text) {
                Err(e) => {
                    assert!(refused, "{n} cards: {}", e.reason);
                    assert_eq!(e.reason, Unreadable::PlayTooLarge { n });
                    assert!(
                        e.reason.to_string().contains(&format!(
                            "at most 14 cards (one rank and the two Jesters), not {n}"
                        )),
                        "{}",
                        e.reason
                    );
                }
                Ok(msg) => assert!(!refused && msg.is_action(), "{n} cards were read"),
            }
        }
        let text = r#"{"t":"act","v":7,"d":{"give_tax":"1 2 3"}}"#;
        let reason = ClientMsg::parse(text).unwrap_err().reason.to_string();
        assert!(reason.contains("at most 2 cards"), "{reason}");
        assert!(is_action_text(r#"{"t":"place","v":1}"#));
        assert!(!is_action_text(r#"{"t":"chat"}"#));
    }
}
