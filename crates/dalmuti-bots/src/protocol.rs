//! The bot protocol, `dalmuti-bot/2`: JSON lines between the game and a bot
//! program, in the spirit of chess's UCI (`docs/BOT-PROTOCOL.md`).
//!
//! The game writes one JSON object per line to the bot's standard input
//! ([`ToBot`]) and reads one JSON object per line from its standard output
//! ([`FromBot`]):
//!
//! ```text
//! game → bot  {"type":"hello","protocol":"dalmuti-bot/2","time_limit_ms":5000}
//! bot → game  {"type":"ready","name":"my-bot"}
//! game → bot  {"type":"seed","seed":42}
//! game → bot  {"type":"decide","id":1,"decision":{"kind":"lead"},"view":{…},"legal":[{"play":"12 12"},…]}
//! bot → game  {"id":1,"action":{"play":"12 12"}}        (or {"id":1,"index":0})
//! game → bot  {"type":"quit"}
//! ```
//!
//! Actions are written as in [`encode_action`] (the engine's wire form,
//! [`dalmuti_core::wire`], re-exported here); cards as the record tokens
//! of game records (`"6 6 J"`); seats as seat-of-play numbers (0 is the
//! Greater Dalmuti). Corporate Shuffle's plays say what only they need: a
//! set of Dogberts alone its declared value (`"D D as 3"`), a set with the
//! Twirling Wedgie its victim (`{"play": "6 T", "wedgie": 3}`). The runner
//! ([`crate::ExternalBot`]) and the server share this module.

use std::time::Duration;

use dalmuti_core::{Action, Decision, Set, View, ViewSnapshot};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// The protocol's name and version, sent in the greeting.
pub const PROTOCOL: &str = "dalmuti-bot/2";

pub use dalmuti_core::wire::{
    BadMessage, decode_action, decode_decision, describe_decision, encode_action, encode_decision,
};
pub(crate) use dalmuti_core::wire::{show, truncate};

fn bad<T>(message: impl Into<String>) -> Result<T, BadMessage> {
    Err(BadMessage(message.into()))
}

/// A message from the game to the bot: one line of the bot's standard
/// input. Bots must ignore fields (and message types) they do not know:
/// later versions of the protocol may add some.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    /// The greeting, first thing after the start: answer with
    /// [`FromBot::Ready`].
    Hello {
        /// [`PROTOCOL`].
        protocol: String,
        /// How long the bot may take per answer (and to answer this
        /// greeting), in milliseconds.
        #[serde(default)]
        time_limit_ms: u64,
    },
    /// The seed for the bot's own randomness, if it wants to replay
    /// exactly: sent before each deal. No answer.
    Seed {
        /// Any integer from 0 to 2⁶⁴ − 1.
        seed: u64,
    },
    /// A decision to make: answer with [`FromBot::Answer`].
    Decide {
        /// This decision's number: it grows by one with every decision
        /// sent to this bot. An answer may echo it.
        id: u64,
        /// What is being decided, as in [`encode_decision`].
        #[serde(with = "wire_decision")]
        decision: Option<Decision>,
        /// Everything the seat may know.
        view: Box<ViewSnapshot>,
        /// The legal actions, worst first, as in [`encode_action`].
        #[serde(with = "wire_actions")]
        legal: Vec<Action>,
    },
    /// The end: the bot should exit. No answer.
    Quit,
}

impl ToBot {
    /// The greeting, with the time limit per answer.
    pub fn hello(time_limit: Duration) -> ToBot {
        ToBot::Hello {
            protocol: PROTOCOL.to_string(),
            time_limit_ms: u64::try_from(time_limit.as_millis()).unwrap_or(u64::MAX),
        }
    }

    /// The decision `view` faces, numbered `id`, with its legal actions.
    pub fn decide(id: u64, view: &View<'_>, legal: &[Action]) -> ToBot {
        ToBot::Decide {
            id,
            decision: view.decision(),
            view: Box::new(view.snapshot()),
            legal: legal.to_vec(),
        }
    }

    /// The message as one line of JSON, without the newline.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("protocol messages always serialize")
    }

    /// Reads one line written by [`ToBot::to_line`].
    pub fn parse(line: &str) -> Result<ToBot, BadMessage> {
        serde_json::from_str(line).map_err(|e| BadMessage(e.to_string()))
    }
}

mod wire_decision {
    use super::*;

    pub fn serialize<S: serde::Serializer>(d: &Option<Decision>, s: S) -> Result<S::Ok, S::Error> {
        d.as_ref().map(encode_decision).serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Decision>, D::Error> {
        match Value::deserialize(d)? {
            Value::Null => Ok(None),
            v => decode_decision(&v)
                .map(Some)
                .map_err(serde::de::Error::custom),
        }
    }
}

mod wire_actions {
    use super::*;

    pub fn serialize<S: serde::Serializer>(a: &[Action], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(a.iter().map(encode_action))
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Action>, D::Error> {
        Vec::<Value>::deserialize(d)?
            .iter()
            .map(|v| decode_action(v).map_err(serde::de::Error::custom))
            .collect()
    }
}

/// How a bot names its choice: the action itself, or its place in the
/// `legal` list of the decide message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// `{"action": …}`.
    Action(Action),
    /// `{"index": n}`, counting from 0.
    Index(usize),
}

impl Choice {
    /// The legal action chosen, or why it is not one.
    pub fn resolve(self, legal: &[Action]) -> Result<Action, BadMessage> {
        match self {
            Choice::Action(a) if legal.contains(&a) => Ok(a),
            Choice::Action(a) => bad(format!(
                "{} ({a}) is not one of the {} legal action(s){}",
                encode_action(&a),
                legal.len(),
                why_not(a, legal)
            )),
            Choice::Index(i) => legal.get(i).copied().ok_or_else(|| {
                BadMessage(format!(
                    "index {i} is out of range: there are {} legal action(s), 0 to {}",
                    legal.len(),
                    legal.len().saturating_sub(1)
                ))
            }),
        }
    }
}

/// What a Corporate Shuffle play not in `legal` got wrong, when the same
/// cards may be played another way: the Wedgie's victim, or the value
/// declared for Dogberts alone. Empty otherwise.
fn why_not(action: Action, legal: &[Action]) -> String {
    let Action::Play(set) = action else {
        return String::new();
    };
    let same: Vec<Set> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(s) if s.cards() == set.cards() => Some(*s),
            _ => None,
        })
        .collect();
    if same.is_empty() {
        return String::new();
    }
    if set.holds_wedgie() {
        let victims: Vec<String> = same
            .iter()
            .filter_map(|s| s.wedgie_target())
            .map(|v| v.index().to_string())
            .collect();
        return match (set.wedgie_target(), victims.as_slice()) {
            (_, []) => ": this play ends the hand, so the Twirling Wedgie names no one".into(),
            (None, _) => format!(
                r#": a set with the Twirling Wedgie names its victim, another player who still holds cards, e.g. {{"play": "{set}", "wedgie": {}}} (here seat {})"#,
                victims[0],
                victims.join(", ")
            ),
            (Some(_), _) => format!(
                ": the Twirling Wedgie names another player who still holds cards: here seat {}",
                victims.join(", ")
            ),
        };
    }
    if set.declared().is_some() {
        let values: Vec<u8> = same.iter().filter_map(|s| s.declared()).collect();
        if let (Some(best), Some(worst)) = (values.iter().min(), values.iter().max()) {
            return format!(
                ": Dogberts alone may be declared as {best} to {worst} here (a value that tops the table)"
            );
        }
    }
    String::new()
}

/// A message from the bot to the game: one line of the bot's standard
/// output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromBot {
    /// `{"type": "ready", "name": "…"}`: the answer to the greeting.
    Ready {
        /// The bot's name in reports (optional).
        name: Option<String>,
    },
    /// `{"action": …}` or `{"index": n}`, optionally with `"id"`: the
    /// answer to a decision.
    Answer {
        /// The decision answered, if the bot echoes it: an answer whose id
        /// is not the decision's is a late answer to an earlier one, and is
        /// skipped.
        id: Option<u64>,
        /// The choice.
        choice: Choice,
    },
}

impl FromBot {
    /// Reads one line of the bot's output, or says what is wrong with it.
    pub fn parse(line: &str) -> Result<FromBot, BadMessage> {
        let value: Value =
            serde_json::from_str(line.trim()).map_err(|e| BadMessage(format!("not JSON ({e})")))?;
        let Value::Object(map) = &value else {
            return bad(format!(
                r#"expected a JSON object such as {{"action": "pass"}} or {{"index": 0}}, not {}"#,
                show(&value)
            ));
        };
        match map.get("type") {
            None => {}
            Some(Value::String(t)) if t == "ready" => {
                return match map.get("name") {
                    None | Some(Value::Null) => Ok(FromBot::Ready { name: None }),
                    Some(Value::String(name)) => Ok(FromBot::Ready {
                        name: Some(name.clone()),
                    }),
                    Some(other) => bad(format!(r#""name" must be a string, not {}"#, show(other))),
                };
            }
            Some(Value::String(t)) if t == "answer" => {}
            Some(other) => {
                return bad(format!(
                    r#"unknown message type {}: a bot sends {{"type": "ready", …}} or an answer {{"action": …}}"#,
                    show(other)
                ));
            }
        }
        let id = match map.get("id") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().ok_or_else(|| {
                BadMessage(format!(
                    r#""id" must be a decision number, not {}"#,
                    show(v)
                ))
            })?),
        };
        let choice = match (map.get("action"), map.get("index")) {
            (Some(a), None) => Choice::Action(decode_action(a)?),
            (None, Some(i)) => Choice::Index(
                i.as_u64()
                    .and_then(|i| usize::try_from(i).ok())
                    .ok_or_else(|| {
                        BadMessage(format!(
                            r#""index" must be a whole number from 0, not {}"#,
                            show(i)
                        ))
                    })?,
            ),
            (Some(_), Some(_)) => return bad(r#"give "action" or "index", not both"#),
            (None, None) => {
                return bad(format!(
                    r#"an answer needs "action" or "index", as in {{"action": "pass"}} or {{"index": 0}}; got {}"#,
                    show(&value)
                ));
            }
        };
        Ok(FromBot::Answer { id, choice })
    }

    /// The message as one line of JSON, without the newline.
    pub fn to_line(&self) -> String {
        let mut map = Map::new();
        match self {
            FromBot::Ready { name } => {
                map.insert("type".into(), json!("ready"));
                if let Some(name) = name {
                    map.insert("name".into(), json!(name));
                }
            }
            FromBot::Answer { id, choice } => {
                if let Some(id) = id {
                    map.insert("id".into(), json!(id));
                }
                match choice {
                    Choice::Action(a) => map.insert(
                        "action".into(),
                        serde_json::to_value(encode_action(a)).expect("an action serializes"),
                    ),
                    Choice::Index(i) => map.insert("index".into(), json!(i)),
                };
            }
        }
        Value::Object(map).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalmuti_core::{Card, Game, Rules, Seat, Seed, Viewer};

    fn every_kind_of_action() -> Vec<Action> {
        vec![
            Action::Play("6 6 J".parse().unwrap()),
            Action::Play("J".parse().unwrap()),
            Action::Play("J J".parse().unwrap()),
            Action::Play("1".parse().unwrap()),
            Action::Pass,
            Action::Ready,
            Action::CallRevolution,
            Action::GiveTax("10 10".parse().unwrap()),
            Action::GiveTax("12 J".parse().unwrap()),
            Action::OfferExchange {
                partner: Seat::new(3),
                card: "7".parse().unwrap(),
            },
            Action::OfferExchange {
                partner: Seat::new(15),
                card: Card::JESTER,
            },
            Action::DeclineExchange,
            Action::AnswerExchange("9".parse().unwrap()),
            // Corporate Shuffle.
            Action::Play("D D as 3".parse().unwrap()),
            Action::Play(wedgie("6 T", 3)),
            Action::Play("T".parse().unwrap()),
            Action::Play("0".parse().unwrap()),
            Action::Play("R".parse().unwrap()),
            Action::GiveTax("10 R".parse().unwrap()),
        ]
    }

    /// `cards` (holding the Wedgie) naming seat `victim`.
    fn wedgie(cards: &str, victim: usize) -> Set {
        cards
            .parse::<Set>()
            .unwrap()
            .with_target(Some(Seat::new(victim)))
            .unwrap()
    }

    #[test]
    fn every_kind_of_action_round_trips() {
        for action in every_kind_of_action() {
            let json = serde_json::to_value(encode_action(&action)).unwrap();
            assert_eq!(decode_action(&json), Ok(action), "{json}");
            // And through text, as on the wire.
            let text = encode_action(&action).to_string();
            let back: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(decode_action(&back), Ok(action), "{text}");
        }
    }

    #[test]
    fn actions_are_written_as_documented() {
        let written: Vec<String> = every_kind_of_action()
            .iter()
            .map(|a| encode_action(a).to_string())
            .collect();
        assert_eq!(
            written,
            [
                r#"{"play":"6 6 J"}"#,
                r#"{"play":"J"}"#,
                r#"{"play":"J J"}"#,
                r#"{"play":"1"}"#,
                r#""pass""#,
                r#""ready""#,
                r#""call_revolution""#,
                r#"{"give_tax":"10 10"}"#,
                r#"{"give_tax":"12 J"}"#,
                r#"{"offer_exchange":{"partner":3,"card":"7"}}"#,
                r#"{"offer_exchange":{"partner":15,"card":"J"}}"#,
                r#""decline_exchange""#,
                r#"{"answer_exchange":"9"}"#,
                r#"{"play":"D D as 3"}"#,
                r#"{"play":"6 T","wedgie":3}"#,
                r#"{"play":"T"}"#,
                r#"{"play":"0"}"#,
                r#"{"play":"R"}"#,
                r#"{"give_tax":"10 R"}"#,
            ]
        );
    }

    #[test]
    fn cards_may_come_in_any_order_and_spacing() {
        assert_eq!(
            decode_action(json!({"play": " J  6 6 "})),
            Ok(Action::Play("6 6 J".parse().unwrap()))
        );
        assert_eq!(
            decode_action(json!({"give_tax": "10\t9"})),
            Ok(Action::GiveTax("9 10".parse().unwrap()))
        );
    }

    #[test]
    fn junk_is_refused_with_a_message_saying_what_is_wrong() {
        let cases = [
            (json!("jump"), r#"unknown action "jump""#),
            (json!("play"), r#""play" needs its cards"#),
            (json!(7), "7 is not an action"),
            (json!(null), "null is not an action"),
            (json!([]), "[] is not an action"),
            (json!({}), "exactly one key"),
            (json!({"play": "6", "pass": 1}), "exactly one key"),
            (
                json!({"play": 6}),
                r#"expected a string of cards such as "6 6 J", not 6"#,
            ),
            (json!({"play": "5 6"}), "5 6 is not a set of one rank"),
            (json!({"play": ""}), "an empty group of cards is not a set"),
            (json!({"play": "13"}), r#""13" is not a card"#),
            (json!({"play": "06"}), r#""06" is not a card"#),
            (json!({"give_tax": "x"}), r#""x" is not a card"#),
            (json!({"answer_exchange": 9}), "expected one card"),
            (json!({"answer_exchange": "9 9"}), r#""9 9" is not a card"#),
            (
                json!({"offer_exchange": "7"}),
                r#"expected {"partner": SEAT"#,
            ),
            (
                json!({"offer_exchange": {"card": "7"}}),
                r#"missing "partner""#,
            ),
            (
                json!({"offer_exchange": {"partner": 2}}),
                r#"missing "card""#,
            ),
            (
                json!({"offer_exchange": {"partner": 16, "card": "7"}}),
                "expected a seat number (0 to 15), not 16",
            ),
            (
                json!({"offer_exchange": {"partner": -1, "card": "7"}}),
                "not -1",
            ),
            (json!({"pass": null}), r#"write it as the string "pass""#),
            // Corporate Shuffle.
            (
                json!({"play": "D D as 0"}),
                "Dogberts alone play as 1 to 10, not 0",
            ),
            (
                json!({"play": "D D"}),
                "a set of Dogberts alone must say what it plays as",
            ),
            (
                json!({"play": "D D", "as": 3}),
                r#"a declared value is written with the cards: {"play": "D D as 3"}"#,
            ),
            (
                json!({"play": "5 D as 5"}),
                "only a set of Dogberts alone is played `as` a value",
            ),
            (
                json!({"play": "0 0"}),
                "Dogbert, World Ruler (0) is played only alone",
            ),
            (json!({"play": "R D"}), "Ratbert (R) is played only alone"),
            (
                json!({"play": "6 6", "wedgie": 2}),
                "only a set holding the Twirling Wedgie (T) names a player",
            ),
            (
                json!({"play": "6 T", "wedgie": "Bob"}),
                r#""wedgie": expected a seat number (0 to 15), not "Bob""#,
            ),
            (
                json!({"play": "6 T", "wedgie": 2, "as": 1}),
                "a declared value is written with the cards",
            ),
            (
                json!({"play": "6 T", "target": 2}),
                r#"exactly one key ("play" may add "wedgie"), not "target""#,
            ),
            (
                json!({"wedgie": 2}),
                r#""wedgie" goes with the cards it is for"#,
            ),
            (
                json!({"play": "5 J D"}),
                "mixes cards of Dalmuti and of Corporate Shuffle",
            ),
            (json!({"fold": "6"}), r#"unknown action "fold""#),
        ];
        for (junk, expected) in cases {
            let err = decode_action(&junk).expect_err(&junk.to_string());
            assert!(
                err.to_string().contains(expected),
                "{junk}: {err:?} does not say {expected:?}"
            );
        }
    }

    #[test]
    fn very_long_junk_is_cut_short_in_messages() {
        let junk = json!("x".repeat(10_000));
        let err = decode_action(&junk).unwrap_err().to_string();
        assert!(err.len() < 600, "{err}");
        assert!(err.contains('…'));
    }

    #[test]
    fn every_decision_round_trips() {
        let decisions = [
            Decision::Ready,
            Decision::Tax {
                to: Seat::new(4),
                count: 2,
            },
            Decision::ExchangeOffer,
            Decision::ExchangeAnswer { from: Seat::new(2) },
            Decision::Lead,
            Decision::Follow {
                top: "9 9 J".parse().unwrap(),
                by: Seat::new(3),
            },
            Decision::Follow {
                top: wedgie("6 6 T", 1),
                by: Seat::new(3),
            },
            Decision::Follow {
                top: "D as 4".parse().unwrap(),
                by: Seat::new(0),
            },
        ];
        for d in decisions {
            let json = serde_json::to_value(encode_decision(&d)).unwrap();
            assert_eq!(decode_decision(&json), Ok(d), "{json}");
        }
        assert_eq!(
            encode_decision(&Decision::Tax {
                to: Seat::new(4),
                count: 2
            })
            .to_string(),
            r#"{"kind":"tax","to":4,"count":2}"#
        );
        assert!(decode_decision(json!({"kind": "dance"})).is_err());
        assert!(decode_decision(json!({"kind": "tax", "to": 99, "count": 1})).is_err());
    }

    #[test]
    fn messages_to_the_bot_round_trip_and_carry_their_type_first() {
        let game = Game::new(
            Rules::default(),
            ["A", "B", "C", "D"].map(String::from).to_vec(),
            Seed::from(3),
        )
        .unwrap();
        let seat = game.hand().next_to_act().unwrap();
        let view = game.view(Viewer::Seat(seat));
        let legal = view.legal_actions();
        let messages = [
            ToBot::hello(Duration::from_millis(1500)),
            ToBot::Seed { seed: u64::MAX },
            ToBot::decide(7, &view, &legal),
            ToBot::Quit,
        ];
        for m in messages {
            let line = m.to_line();
            assert!(!line.contains('\n'));
            assert!(line.starts_with(r#"{"type":""#), "{line}");
            assert_eq!(ToBot::parse(&line), Ok(m));
        }
        assert_eq!(
            ToBot::hello(Duration::from_millis(1500)).to_line(),
            r#"{"type":"hello","protocol":"dalmuti-bot/2","time_limit_ms":1500}"#
        );
        assert_eq!(ToBot::Quit.to_line(), r#"{"type":"quit"}"#);
        let decide: Value =
            serde_json::from_str(&ToBot::decide(7, &view, &legal).to_line()).unwrap();
        let keys: Vec<&str> = decide
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(keys, ["type", "id", "decision", "view", "legal"]);
        assert_eq!(decide["legal"].as_array().unwrap().len(), legal.len());
    }

    #[test]
    fn answers_and_greetings_are_read() {
        let play = Action::Play("12 12".parse().unwrap());
        let cases = [
            (
                r#"{"type":"ready","name":"bob"}"#,
                FromBot::Ready {
                    name: Some("bob".into()),
                },
            ),
            (r#"{"type":"ready"}"#, FromBot::Ready { name: None }),
            (
                r#"{"action":{"play":"12 12"}}"#,
                FromBot::Answer {
                    id: None,
                    choice: Choice::Action(play),
                },
            ),
            (
                r#" {"id":3,"index":2,"comment":"ignored"} "#,
                FromBot::Answer {
                    id: Some(3),
                    choice: Choice::Index(2),
                },
            ),
            (
                r#"{"type":"answer","action":"pass"}"#,
                FromBot::Answer {
                    id: None,
                    choice: Choice::Action(Action::Pass),
                },
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(FromBot::parse(line), Ok(expected.clone()), "{line}");
            assert_eq!(FromBot::parse(&expected.to_line()), Ok(expected));
        }
    }

    #[test]
    fn bad_answers_say_what_is_wrong() {
        let cases = [
            ("hello", "not JSON"),
            ("", "not JSON"),
            (r#"["pass"]"#, "expected a JSON object"),
            (r#"{"type":"readyy"}"#, r#"unknown message type "readyy""#),
            (
                r#"{"move":"pass"}"#,
                r#"an answer needs "action" or "index""#,
            ),
            (r#"{"action":"pass","index":0}"#, "not both"),
            (
                r#"{"index":-1}"#,
                r#""index" must be a whole number from 0, not -1"#,
            ),
            (r#"{"index":"0"}"#, r#""index" must be a whole number"#),
            (
                r#"{"id":"x","index":0}"#,
                r#""id" must be a decision number"#,
            ),
            (r#"{"action":"fold"}"#, r#"unknown action "fold""#),
            (r#"{"type":"ready","name":5}"#, r#""name" must be a string"#),
        ];
        for (line, expected) in cases {
            let err = FromBot::parse(line).expect_err(line).to_string();
            assert!(
                err.contains(expected),
                "{line}: {err:?} does not say {expected:?}"
            );
        }
    }

    #[test]
    fn a_wrong_victim_or_declared_value_is_explained() {
        // Seat 2 leads "6 T" at a table of five: it may wedge 0, 1, 3 or 4.
        let legal: Vec<Action> = [0, 1, 3, 4]
            .into_iter()
            .map(|v| Action::Play(wedgie("6 T", v)))
            .chain([
                Action::Play("D as 4".parse().unwrap()),
                Action::Play("D as 1".parse().unwrap()),
            ])
            .collect();
        let said = |a: Value| {
            let action = decode_action(&a).unwrap();
            Choice::Action(action)
                .resolve(&legal)
                .unwrap_err()
                .to_string()
        };
        let own = said(json!({"play": "6 T", "wedgie": 2}));
        assert!(
            own.contains("names another player who still holds cards: here seat 0, 1, 3, 4"),
            "{own}"
        );
        let nobody = said(json!({"play": "6 T"}));
        assert!(
            nobody.contains(r#"names its victim, another player who still holds cards, e.g. {"play": "6 T", "wedgie": 0}"#),
            "{nobody}"
        );
        let value = said(json!({"play": "D as 7"}));
        assert!(
            value.contains("Dogberts alone may be declared as 1 to 4 here"),
            "{value}"
        );
        // A play that ends the hand names nobody.
        let last = [Action::Play("6 T".parse().unwrap())];
        let err = Choice::Action(Action::Play(wedgie("6 T", 1)))
            .resolve(&last)
            .unwrap_err()
            .to_string();
        assert!(err.contains("this play ends the hand"), "{err}");
        assert_eq!(
            Choice::Action(Action::Play(wedgie("6 T", 3))).resolve(&legal),
            Ok(legal[2])
        );
    }

    #[test]
    fn choices_resolve_against_the_legal_list() {
        let legal = [Action::Play("9".parse().unwrap()), Action::Pass];
        assert_eq!(Choice::Index(1).resolve(&legal), Ok(Action::Pass));
        assert_eq!(
            Choice::Action(Action::Pass).resolve(&legal),
            Ok(Action::Pass)
        );
        let err = Choice::Index(2).resolve(&legal).unwrap_err().to_string();
        assert!(err.contains("index 2 is out of range"), "{err}");
        let err = Choice::Action(Action::CallRevolution)
            .resolve(&legal)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(r#""call_revolution" (call a revolution) is not one of the 2"#),
            "{err}"
        );
    }
}
