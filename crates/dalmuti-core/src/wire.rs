//! The wire encoding of the engine's actions and decisions: one JSON form
//! for every program that writes or reads a move (the bot protocol, the
//! server's WebSocket and log, the browser, the Python package), so none
//! needs another's crate to write one.
//!
//! ```
//! use dalmuti_core::wire::{decode_action, encode_action};
//! use dalmuti_core::Action;
//! let play = Action::Play("6 6 J".parse().unwrap());
//! assert_eq!(encode_action(&play).to_string(), r#"{"play":"6 6 J"}"#);
//! assert_eq!(decode_action(&serde_json::json!({"play": "J 6 6"})), Ok(play));
//! assert_eq!(encode_action(&Action::Pass).to_string(), r#""pass""#);
//! let err = decode_action(&serde_json::json!({"play": "5 6"})).unwrap_err();
//! assert_eq!(err.to_string(), r#"{"play": …}: 5 6 is not a set of one rank"#);
//! // Corporate Shuffle.
//! let wedgie = decode_action(&serde_json::json!({"play": "6 T", "wedgie": 3})).unwrap();
//! assert_eq!(encode_action(&wedgie).to_string(), r#"{"play":"6 T","wedgie":3}"#);
//! let dogberts = Action::Play("D D as 3".parse().unwrap());
//! assert_eq!(encode_action(&dogberts).to_string(), r#"{"play":"D D as 3"}"#);
//! ```

use indexmap::IndexMap;
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};

mod met;

use met::Met;

use crate::{Action, Card, Cards, Decision, MAX_PLAYERS, Seat, Set};

/// A line the bot could not be understood from, or a value that is not an
/// action: says what is wrong, in words meant for the bot's author.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadMessage(pub String);

pub(crate) fn bad<T>(message: impl Into<String>) -> Result<T, BadMessage> {
    Err(BadMessage(message.into()))
}

/// The names of the actions without arguments, as written on the wire.
const UNIT_ACTIONS: [(&str, Action); 4] = [
    ("pass", Action::Pass),
    ("ready", Action::Ready),
    ("call_revolution", Action::CallRevolution),
    ("decline_exchange", Action::DeclineExchange),
];

/// What every action looks like, for error messages.
const ACTION_FORMS: &str = r#"an action is "pass", "ready", "call_revolution", "decline_exchange", {"play": CARDS} (with "wedgie": SEAT for a set with the Twirling Wedgie), {"give_tax": CARDS}, {"offer_exchange": {"partner": SEAT, "card": CARD}}, {"answer_exchange": CARD}, {"give": CARD} or {"discard": CARD}"#;

/// An action as JSON:
///
/// | action | JSON |
/// |---|---|
/// | play a set | `{"play": "6 6 J"}` |
/// | play Dogberts alone, declared as a value (Corporate Shuffle) | `{"play": "D D as 3"}` |
/// | play a set with the Twirling Wedgie, naming its victim (Corporate Shuffle) | `{"play": "6 T", "wedgie": 3}` |
/// | President, Daifugō: a set with a Joker standing for a suit | `{"play": "9H JK as 9S"}` |
/// | President, Daifugō: a sequence, each Joker where it stands | `{"play": "5H JK 7H"}` |
/// | President, Daifugō: a lone Joker | `{"play": "JK"}` |
/// | pass | `"pass"` |
/// | ready (for a holder of both Jesters: keep quiet) | `"ready"` |
/// | call a revolution | `"call_revolution"` |
/// | a Dalmuti's tax gift | `{"give_tax": "10 10"}` |
/// | offer a merchant exchange | `{"offer_exchange": {"partner": 3, "card": "7"}}` |
/// | let the merchant exchange go | `"decline_exchange"` |
/// | a card back in the exchange | `{"answer_exchange": "9"}` |
/// | President, Daifugō: a card to the next player after 7s (7-pass) | `{"give": "3C"}` |
/// | President, Daifugō: a card discarded after 10s (10-discard) | `{"discard": "4D"}` |
///
/// Cards are record tokens (`1`…`12`, `J`; `0`, `1`…`10`, `T`, `R`, `D`
/// in Corporate Shuffle), best first, wild cards last. A set with the
/// Wedgie names no victim only when its play ends the hand.
///
/// It serializes as the table says, and `Display` writes its JSON text.
pub fn encode_action(action: &Action) -> Wire<Action> {
    Wire(*action)
}

/// An action as the wire writes it ([`encode_action`]'s table): a play is
/// an object of its cards and, with the Twirling Wedgie, its victim;
/// every other action is serde's external tagging of [`Named`].
#[derive(Serialize)]
#[serde(untagged)]
enum ActionOut {
    Play {
        play: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        wedgie: Option<usize>,
    },
    Named(Named),
}

/// The actions but a play, by their wire names: `"pass"`,
/// `{"give_tax": "10 10"}`, `{"offer_exchange": {"partner": 3, "card": "7"}}`.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Named {
    Pass,
    Ready,
    CallRevolution,
    DeclineExchange,
    GiveTax(String),
    OfferExchange { partner: usize, card: &'static str },
    AnswerExchange(&'static str),
    Give(&'static str),
    Discard(&'static str),
}

impl From<Action> for ActionOut {
    fn from(action: Action) -> ActionOut {
        let named = match action {
            Action::Play(set) => {
                return ActionOut::Play {
                    play: set.to_string(),
                    wedgie: set.wedgie_target().map(Seat::index),
                };
            }
            Action::Pass => Named::Pass,
            Action::Ready => Named::Ready,
            Action::CallRevolution => Named::CallRevolution,
            Action::DeclineExchange => Named::DeclineExchange,
            Action::GiveTax(cards) => Named::GiveTax(cards.to_string()),
            Action::OfferExchange { partner, card } => Named::OfferExchange {
                partner: partner.index(),
                card: card.token(),
            },
            Action::AnswerExchange(card) => Named::AnswerExchange(card.token()),
            Action::Give(card) => Named::Give(card.token()),
            Action::Discard(card) => Named::Discard(card.token()),
        };
        ActionOut::Named(named)
    }
}

/// Reads an action written as in [`encode_action`], or says what is wrong
/// with it. Cards may come in any order and with any white space between
/// them (`"J 6  6"` is `"6 6 J"`). `input` is any serde deserializer: a
/// `&serde_json::Value` a caller holds, or a `serde_json::Deserializer`
/// over text.
pub fn decode_action<'de, D: Deserializer<'de>>(input: D) -> Result<Action, BadMessage> {
    let met = Met::deserialize(input).map_err(|e| BadMessage(e.to_string()))?;
    read_action(&met)
}

/// An action read from what was met: [`decode_action`]'s rules.
fn read_action(met: &Met) -> Result<Action, BadMessage> {
    match met {
        Met::Text(name) => UNIT_ACTIONS
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, a)| a)
            .ok_or_else(|| {
                let hint = match name.as_ref() {
                    "play" | "give_tax" | "offer_exchange" | "answer_exchange" | "give"
                    | "discard" => {
                        format!(" ({name:?} needs its cards: {{{name:?}: …}})")
                    }
                    _ => String::new(),
                };
                BadMessage(format!(
                    "unknown action {}{hint}: {ACTION_FORMS}",
                    met.shown()
                ))
            }),
        Met::Fields(fields) if met.get("play").is_some() && fields.len() > 1 => {
            read_play(met, fields)
        }
        Met::Fields(fields) => {
            let (1, Some((key, arg))) = (fields.len(), fields.first()) else {
                return bad(format!(
                    "{} is not an action: an action object has exactly one key (\"play\" may \
                     add \"wedgie\"); {ACTION_FORMS}",
                    met.shown()
                ));
            };
            let context = |e: BadMessage| BadMessage(format!("{{{key:?}: …}}: {e}"));
            match key.as_str() {
                "play" => read_play(met, fields),
                "wedgie" | "as" => bad(format!(
                    r#"{key:?} goes with the cards it is for: {{"play": "6 T", "wedgie": 3}}, {{"play": "D D as 3"}}"#
                )),
                "give_tax" => {
                    let text = cards_text(arg).map_err(context)?;
                    text.parse::<Cards>()
                        .map(Action::GiveTax)
                        .map_err(|e| context(BadMessage(e.to_string())))
                }
                "answer_exchange" => read_card(arg).map(Action::AnswerExchange).map_err(context),
                "give" => read_card(arg).map(Action::Give).map_err(context),
                "discard" => read_card(arg).map(Action::Discard).map_err(context),
                "offer_exchange" => {
                    if !matches!(arg, Met::Fields(_)) {
                        return Err(context(BadMessage(format!(
                            r#"expected {{"partner": SEAT, "card": CARD}}, not {}"#,
                            arg.shown()
                        ))));
                    }
                    let partner = arg
                        .get("partner")
                        .ok_or_else(|| BadMessage(r#"missing "partner" (a seat number)"#.into()))
                        .and_then(read_seat)
                        .map_err(context)?;
                    let card = arg
                        .get("card")
                        .ok_or_else(|| BadMessage(r#"missing "card" (a card token)"#.into()))
                        .and_then(read_card)
                        .map_err(context)?;
                    Ok(Action::OfferExchange { partner, card })
                }
                "pass" | "ready" | "call_revolution" | "decline_exchange" => bad(format!(
                    r#"{key:?} takes nothing: write it as the string "{key}", not {}"#,
                    met.shown()
                )),
                _ => bad(format!("unknown action {key:?}: {ACTION_FORMS}")),
            }
        }
        _ => bad(format!("{} is not an action: {ACTION_FORMS}", met.shown())),
    }
}

/// A `play` action: its cards (with `as V` for Dogberts alone), and the
/// Wedgie's victim in `"wedgie"` when the set holds the Wedgie.
fn read_play(met: &Met, fields: &IndexMap<String, Met>) -> Result<Action, BadMessage> {
    let context = |e: BadMessage| BadMessage(format!(r#"{{"play": …}}: {e}"#));
    if let Some(other) = fields.keys().find(|k| *k != "play" && *k != "wedgie") {
        if other == "as" {
            return Err(context(BadMessage(
                r#"a declared value is written with the cards: {"play": "D D as 3"}"#.into(),
            )));
        }
        return bad(format!(
            "{} is not an action: an action object has exactly one key (\"play\" may add \
             \"wedgie\"), not {other:?}; {ACTION_FORMS}",
            met.shown()
        ));
    }
    let Some(cards) = met.get("play") else {
        return bad(format!("{} is not a play", met.shown()));
    };
    let text = cards_text(cards).map_err(context)?;
    let set = text
        .parse::<Set>()
        .map_err(|e| context(BadMessage(e.to_string())))?;
    let victim = match met.get("wedgie") {
        None => None,
        Some(Met::Null) => None,
        Some(seat) => {
            Some(read_seat(seat).map_err(|e| context(BadMessage(format!(r#""wedgie": {e}"#))))?)
        }
    };
    set.with_target(victim)
        .map(Action::Play)
        .map_err(|e| context(BadMessage(e.to_string())))
}

/// The cards of a `play` or `give_tax`: a string of tokens, normalized to
/// single spaces.
fn cards_text(met: &Met) -> Result<String, BadMessage> {
    match met {
        Met::Text(s) => Ok(s.split_whitespace().collect::<Vec<_>>().join(" ")),
        _ => bad(format!(
            r#"expected a string of cards such as "6 6 J", not {}"#,
            met.shown()
        )),
    }
}

fn read_card(met: &Met) -> Result<Card, BadMessage> {
    match met {
        Met::Text(s) => s.trim().parse().map_err(|e| BadMessage(format!("{e}"))),
        _ => bad(format!(
            r#"expected one card such as "7" or "J", not {}"#,
            met.shown()
        )),
    }
}

fn read_seat(met: &Met) -> Result<Seat, BadMessage> {
    match *met {
        Met::Whole(n) if n < MAX_PLAYERS as u64 => Ok(Seat::new(n as usize)),
        _ => bad(format!(
            "expected a seat number (0 to {}), not {}",
            MAX_PLAYERS - 1,
            met.shown()
        )),
    }
}

/// A JSON value for an error message, cut short if long: what a sender
/// sent, shown back to it.
pub fn show(value: &impl Serialize) -> String {
    truncate(&serde_json::to_string(value).unwrap_or_default(), 80)
}

/// `text` cut to at most `max` characters, with `…` when cut.
pub fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// A decision as JSON, tagged by `kind`:
///
/// | decision | JSON |
/// |---|---|
/// | look at the cards and say ready | `{"kind": "ready"}` |
/// | choose the tax gift | `{"kind": "tax", "to": 4, "count": 2}` |
/// | offer a merchant exchange or not | `{"kind": "exchange_offer"}` |
/// | give a card back in the exchange | `{"kind": "exchange_answer", "from": 2}` |
/// | lead a round | `{"kind": "lead"}` |
/// | top the set on the table or pass | `{"kind": "follow", "top": "9 9", "by": 3}` |
/// | give a card to the next player (7-pass) | `{"kind": "give", "to": 2, "left": 2}` |
/// | discard a card (10-discard) | `{"kind": "discard", "left": 1}` |
///
/// A set on the table that holds the Twirling Wedgie also names its victim
/// (`"wedgie": 2`), as in the log.
///
/// It serializes as the table says, and `Display` writes its JSON text.
pub fn encode_decision(decision: &Decision) -> Wire<Decision> {
    Wire(*decision)
}

/// A decision as the wire writes and reads it, tagged by `kind`
/// ([`encode_decision`]'s table). Seats are numbers from 0; a seat out of
/// range or a set that is not one is refused when it becomes a
/// [`Decision`].
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum DecisionWire {
    Ready,
    Tax {
        to: usize,
        count: u8,
    },
    ExchangeOffer,
    ExchangeAnswer {
        from: usize,
    },
    Lead,
    Follow {
        top: String,
        by: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wedgie: Option<usize>,
    },
    Give {
        to: usize,
        left: u8,
    },
    Discard {
        left: u8,
    },
}

impl From<Decision> for DecisionWire {
    fn from(decision: Decision) -> DecisionWire {
        match decision {
            Decision::Ready => DecisionWire::Ready,
            Decision::Tax { to, count } => DecisionWire::Tax {
                to: to.index(),
                count,
            },
            Decision::ExchangeOffer => DecisionWire::ExchangeOffer,
            Decision::ExchangeAnswer { from } => {
                DecisionWire::ExchangeAnswer { from: from.index() }
            }
            Decision::Lead => DecisionWire::Lead,
            Decision::Follow { top, by } => DecisionWire::Follow {
                top: top.to_string(),
                by: by.index(),
                wedgie: top.wedgie_target().map(Seat::index),
            },
            Decision::Give { to, left } => DecisionWire::Give {
                to: to.index(),
                left,
            },
            Decision::Discard { left } => DecisionWire::Discard { left },
        }
    }
}

impl TryFrom<DecisionWire> for Decision {
    type Error = BadMessage;

    fn try_from(wire: DecisionWire) -> Result<Decision, BadMessage> {
        let seat = |name: &str, n: usize| {
            if n < MAX_PLAYERS {
                Ok(Seat::new(n))
            } else {
                bad(format!(
                    "{name:?}: expected a seat number (0 to {}), not {n}",
                    MAX_PLAYERS - 1
                ))
            }
        };
        Ok(match wire {
            DecisionWire::Ready => Decision::Ready,
            DecisionWire::Tax { to, count } => Decision::Tax {
                to: seat("to", to)?,
                count,
            },
            DecisionWire::ExchangeOffer => Decision::ExchangeOffer,
            DecisionWire::ExchangeAnswer { from } => Decision::ExchangeAnswer {
                from: seat("from", from)?,
            },
            DecisionWire::Lead => Decision::Lead,
            DecisionWire::Follow { top, by, wedgie } => {
                let top: Set = top
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .parse()
                    .map_err(|e: crate::NotASet| BadMessage(format!("\"top\": {e}")))?;
                let victim = wedgie.map(|n| seat("wedgie", n)).transpose()?;
                Decision::Follow {
                    top: top
                        .with_target(victim)
                        .map_err(|e| BadMessage(format!("\"top\": {e}")))?,
                    by: seat("by", by)?,
                }
            }
            DecisionWire::Give { to, left } => Decision::Give {
                to: seat("to", to)?,
                left,
            },
            DecisionWire::Discard { left } => Decision::Discard { left },
        })
    }
}

/// Reads a decision written as in [`encode_decision`], from any serde
/// deserializer (as [`decode_action`]); what is wrong with it is said
/// after the decision as it was sent.
pub fn decode_decision<'de, D: Deserializer<'de>>(input: D) -> Result<Decision, BadMessage> {
    let met = Met::deserialize(input).map_err(|e| BadMessage(e.to_string()))?;
    // Read again from its own text: serde's words for what is wrong with
    // it, without a place in that text (it is the caller's value, not a
    // line the caller sent).
    serde_json::from_str::<Wire<Decision>>(&met.text())
        .map(|Wire(decision)| decision)
        .map_err(|e| BadMessage(format!("{}: {}", met.shown(), without_position(&e))))
}

/// A `serde_json` error's words without the line and column it adds for
/// a text: for errors in a part of a text, whose place is said otherwise.
pub(crate) fn without_position(error: &serde_json::Error) -> String {
    let words = error.to_string();
    let place = format!(" at line {} column {}", error.line(), error.column());
    match words.strip_suffix(&place) {
        Some(words) => words.to_string(),
        None => words,
    }
}

/// A decision in words, for messages: `lead a round`, `top 9 9 or pass`…
pub fn describe_decision(decision: &Decision) -> String {
    match decision {
        Decision::Ready => "say ready".into(),
        Decision::Tax { to, count } => format!("choose {count} card(s) of tax for {to}"),
        Decision::ExchangeOffer => "offer a merchant exchange or not".into(),
        Decision::ExchangeAnswer { from } => {
            format!("give a card back in the merchant exchange with {from}")
        }
        Decision::Lead => "lead a round".into(),
        Decision::Follow { top, by } => format!("top {top} (played by {by}) or pass"),
        Decision::Give { to, left } => {
            format!("give a card to {to} ({left} to give, after 7s)")
        }
        Decision::Discard { left } => format!("discard a card ({left} to discard, after 10s)"),
    }
}

/// [`Action`] in serde's terms, written as [`encode_action`] writes it:
/// for a field of a type that derives `Serialize` and `Deserialize`, as
/// `#[serde(with = "dalmuti_core::wire::action")]`.
///
/// ```
/// use dalmuti_core::Action;
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Move {
///     #[serde(with = "dalmuti_core::wire::action")]
///     action: Action,
/// }
/// let text = r#"{"action":{"play":"6 T","wedgie":2}}"#;
/// let read: Move = serde_json::from_str(text).unwrap();
/// assert_eq!(serde_json::to_string(&read).unwrap(), text);
/// assert!(serde_json::from_str::<Move>(r#"{"action":"dance"}"#).is_err());
/// ```
pub mod action {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::Action;

    /// Writes `action` as [`super::encode_action`] does.
    pub fn serialize<S: Serializer>(action: &Action, serializer: S) -> Result<S::Ok, S::Error> {
        super::ActionOut::from(*action).serialize(serializer)
    }

    /// Reads an action as [`super::decode_action`] does; what is wrong
    /// with it is the error.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Action, D::Error> {
        let met = super::Met::deserialize(deserializer)?;
        super::read_action(&met).map_err(serde::de::Error::custom)
    }
}

/// An engine value in its wire form, for fields that hold it in an
/// `Option` or a `Vec` of a type that derives `Serialize` and
/// `Deserialize`: an [`Action`] as [`encode_action`] writes it, a
/// [`Decision`] as [`encode_decision`] does.
///
/// ```
/// use dalmuti_core::wire::Wire;
/// use dalmuti_core::{Action, Decision};
/// let legal = vec![Wire(Action::Pass), Wire(Action::Play("7".parse().unwrap()))];
/// assert_eq!(serde_json::to_string(&legal).unwrap(), r#"["pass",{"play":"7"}]"#);
/// let read: Option<Wire<Decision>> = serde_json::from_str(r#"{"kind":"lead"}"#).unwrap();
/// assert_eq!(read, Some(Wire(Decision::Lead)));
/// let wrong = serde_json::from_str::<Wire<Action>>(r#""dance""#).unwrap_err();
/// assert!(wrong.to_string().contains("unknown action"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wire<T>(pub T);

impl serde::Serialize for Wire<Action> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        action::serialize(&self.0, serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Wire<Action> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        action::deserialize(deserializer).map(Wire)
    }
}

/// The JSON text of an action or a decision in its wire form.
impl<T> std::fmt::Display for Wire<T>
where
    Wire<T>: Serialize,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| std::fmt::Error)?)
    }
}

impl serde::Serialize for Wire<Decision> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DecisionWire::from(self.0).serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Wire<Decision> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = DecisionWire::deserialize(deserializer)?;
        Decision::try_from(wire)
            .map(Wire)
            .map_err(serde::de::Error::custom)
    }
}
