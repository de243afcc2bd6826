//! Reading and checking records: replay every hand through the engine and
//! stop at the first fault, with its hand and play.

use serde_json::{Map, Value, json};

use super::{DrawRecord, FORMAT, FORMAT_SUITED, HandRecord, PlayRecord, Record};
use crate::action::{Action, Decision, Illegal};
use crate::card::Card;
use crate::cards::Cards;
use crate::deck::Deck;
use crate::draw::check_draw;
use crate::game::{Game, TableError};
use crate::hand::{BadDeal, Stage};
use crate::rng::{DealRng, Seed};
use crate::rules::{Rules, Scoring};
use crate::seat::Seat;
use crate::set::Set;

mod hand;

use hand::HandReader;

/// The first fault of an invalid record: where it is and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// 0-based index of the hand, or `None` outside every hand.
    pub hand: Option<usize>,
    /// 0-based index in the hand's `plays`, or `None` when the fault lies
    /// in the draw, seating, deal, revolution, tax or exchange.
    pub play: Option<usize>,
    /// What is wrong, in plain words.
    pub message: String,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.hand, self.play) {
            (Some(h), Some(p)) => write!(f, "hand {h}, play {p}: {}", self.message),
            (Some(h), None) => write!(f, "hand {h}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// What a valid record tells: each hand's outcome, the next seating and the
/// totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// One entry per hand.
    pub hands: Vec<HandReport>,
    /// The seating of the next hand, when the last hand is finished.
    pub seating: Option<Vec<String>>,
    /// Every player's total, when scoring is on.
    pub totals: Option<Vec<(String, u32)>>,
}

/// One hand's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandReport {
    /// Whether the hand was played to the end.
    pub finished: bool,
    /// `none`, `revolution` or `greater`.
    pub revolution: &'static str,
    /// Players out so far, in order.
    pub finish_order: Vec<String>,
    /// Points of the hand's players, when scoring is on and it is finished.
    pub scores: Option<Vec<(String, u32)>>,
}

/// The verdict of [`check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// The record follows the rules.
    Valid(Report),
    /// It breaks a rule; the first fault.
    Invalid(Fault),
    /// Not JSON, or not a `dalmuti-record/1` document.
    Unreadable(String),
}

impl Checked {
    /// The process exit status `dalmuti check` uses: 0, 1 or 2.
    pub fn exit_code(&self) -> i32 {
        match self {
            Checked::Valid(_) => 0,
            Checked::Invalid(_) => 1,
            Checked::Unreadable(_) => 2,
        }
    }

    /// The JSON object `dalmuti check --json` prints.
    pub fn to_json(&self) -> Value {
        let scores = |s: &[(String, u32)]| {
            Value::Object(s.iter().map(|(n, p)| (n.clone(), json!(p))).collect())
        };
        match self {
            Checked::Valid(r) => {
                let mut out = Map::new();
                out.insert("valid".into(), json!(true));
                let hands = r
                    .hands
                    .iter()
                    .map(|h| {
                        let mut o = Map::new();
                        o.insert("finished".into(), json!(h.finished));
                        o.insert("revolution".into(), json!(h.revolution));
                        o.insert("finish_order".into(), json!(h.finish_order));
                        if let Some(s) = &h.scores {
                            o.insert("scores".into(), scores(s));
                        }
                        Value::Object(o)
                    })
                    .collect();
                out.insert("hands".into(), Value::Array(hands));
                if let Some(s) = &r.seating {
                    out.insert("seating".into(), json!(s));
                }
                if let Some(t) = &r.totals {
                    out.insert("totals".into(), scores(t));
                }
                Value::Object(out)
            }
            Checked::Invalid(f) => json!({
                "valid": false,
                "error": {"hand": f.hand, "play": f.play, "message": f.message},
            }),
            Checked::Unreadable(m) => json!({"valid": false, "unreadable": m}),
        }
    }
}

/// Reads and checks a record as `dalmuti check` does. Never panics, whatever
/// the text.
///
/// ```
/// use dalmuti_core::record::{check, Checked};
/// assert_eq!(check("not json").exit_code(), 2);
/// assert_eq!(check(r#"{"format": "pgn"}"#).exit_code(), 2);
/// let Checked::Invalid(fault) = check(r#"{"format": "dalmuti-record/1", "seating": ["A", "B"], "hands": []}"#)
///     else { panic!() };
/// assert_eq!((fault.hand, fault.play), (None, None));
/// ```
pub fn check(text: &str) -> Checked {
    match read_text(text) {
        Ok(read) => Checked::Valid(read.report),
        Err(ReadError::Unreadable(m)) => Checked::Unreadable(m),
        Err(ReadError::Invalid(f)) => Checked::Invalid(f),
    }
}

/// Why a text could not be read as a valid record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Not JSON, or not this format.
    #[error("not a readable record: {0}")]
    Unreadable(String),
    /// A record that breaks the rules.
    #[error("invalid record: {0}")]
    Invalid(Fault),
}

impl Record {
    /// Reads and checks a record.
    pub fn parse(text: &str) -> Result<Record, ReadError> {
        read_text(text).map(|r| r.record)
    }

    /// Replays the record into the game it describes (with a stream seeded
    /// by `seed` for any hands dealt after it).
    pub fn replay(&self, seed: Seed) -> Result<Game, Fault> {
        match read_value(&self.to_json(), DealRng::new(seed)) {
            Ok(read) => Ok(read.game),
            Err(ReadError::Invalid(f)) => Err(f),
            Err(ReadError::Unreadable(m)) => Err(Fault {
                hand: None,
                play: None,
                message: m,
            }),
        }
    }
}

pub(super) struct Read {
    pub record: Record,
    pub game: Game,
    pub report: Report,
}

fn read_text(text: &str) -> Result<Read, ReadError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| ReadError::Unreadable(format!("not JSON: {e}")))?;
    read_value(&value, DealRng::new(Seed::from(0)))
}

/// A fault outside every hand.
fn top(message: impl Into<String>) -> ReadError {
    ReadError::Invalid(Fault {
        hand: None,
        play: None,
        message: message.into(),
    })
}

/// A name as it may appear in a message: quoted if odd, and short.
fn show(name: &str) -> String {
    let plain = !name.is_empty()
        && name.chars().count() <= 40
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_' || c == '.');
    if plain {
        name.to_string()
    } else {
        let short: String = name.chars().take(40).collect();
        format!("{short:?}")
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A field that may be left out (or null).
fn optional<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

fn read_value(value: &Value, rng: DealRng) -> Result<Read, ReadError> {
    let Value::Object(doc) = value else {
        return Err(ReadError::Unreadable(format!(
            "a record is a JSON object, not {}",
            kind(value)
        )));
    };
    let suited_format = match doc.get("format") {
        Some(Value::String(f)) if f == FORMAT => false,
        Some(Value::String(f)) if f == FORMAT_SUITED => true,
        Some(Value::String(f)) => {
            return Err(ReadError::Unreadable(format!(
                "format is {}, not {FORMAT} (or {FORMAT_SUITED} for President and Daifugō)",
                show(f)
            )));
        }
        Some(v) => {
            return Err(ReadError::Unreadable(format!(
                "format should be the string {FORMAT}, not {}",
                kind(v)
            )));
        }
        None => {
            return Err(ReadError::Unreadable(format!(
                "no format field (expected {FORMAT})"
            )));
        }
    };
    let rules = read_rules(optional(doc, "rules"))?;
    if rules.variant.is_suited() != suited_format {
        return Err(top(if suited_format {
            format!(
                "{FORMAT_SUITED} is for President and Daifugō; {} is recorded as {FORMAT}",
                rules.variant
            )
        } else {
            format!("{} is recorded as {FORMAT_SUITED}", rules.variant)
        }));
    }
    let seating = read_seating(doc.get("seating"))?;
    let draw = read_draw(optional(doc, "draw"), &rules, &seating)?;
    let hands = match doc.get("hands") {
        Some(Value::Array(h)) => h,
        Some(v) => return Err(top(format!("hands should be an array, not {}", kind(v)))),
        None => return Err(top("the record has no hands field")),
    };
    let draw_rounds = draw.as_ref().map(|rounds| {
        rounds
            .iter()
            .map(|r| {
                r.iter()
                    .map(|(n, c)| (seating.iter().position(|s| s == n).expect("checked"), *c))
                    .collect()
            })
            .collect()
    });
    let mut game = Game::seated_without_deal(rules, seating.clone(), draw_rounds, rng)
        .map_err(|e| top(e.to_string()))?;
    let mut record = Record {
        rules,
        draw,
        seating,
        hands: Vec::with_capacity(hands.len()),
    };
    let mut reports = Vec::with_capacity(hands.len());
    for (i, h) in hands.iter().enumerate() {
        let last = i + 1 == hands.len();
        let hand = HandReader {
            game: &mut game,
            index: i,
            last,
        }
        .read(h)?;
        reports.push(hand_report(&game));
        record.hands.push(hand);
    }
    let finished = game.is_between_hands();
    let names = |ids: &[crate::game::PlayerId]| {
        ids.iter()
            .map(|&p| game.name(p).to_string())
            .collect::<Vec<_>>()
    };
    let report = Report {
        hands: reports,
        seating: finished.then(|| names(game.next_seating())),
        totals: game.scored().then(|| {
            game.players()
                .map(|p| (game.name(p).to_string(), game.total(p)))
                .collect()
        }),
    };
    Ok(Read {
        record,
        game,
        report,
    })
}

fn hand_report(game: &Game) -> HandReport {
    let log = game.hands().last().expect("just read");
    let hand = &log.hand;
    let finished = hand.stage() == Stage::Over;
    HandReport {
        finished,
        revolution: match hand.revolution() {
            None => "none",
            Some(r) if r.greater => "greater",
            Some(_) => "revolution",
        },
        finish_order: log.finishers().map(|p| game.name(p).to_string()).collect(),
        scores: hand.points().map(|points| {
            Seat::all(hand.players())
                .map(|s| (game.name(log.player_at(s)).to_string(), points[s]))
                .collect()
        }),
    }
}

fn read_rules(value: Option<&Value>) -> Result<Rules, ReadError> {
    let mut rules = Rules::default();
    let Some(value) = value else {
        return Ok(rules);
    };
    let Value::Object(obj) = value else {
        return Err(top(format!(
            "rules should be an object, not {}",
            kind(value)
        )));
    };
    if let Some(v) = optional(obj, "variant") {
        match v.as_str() {
            Some("dalmuti") => {}
            Some("corporate-shuffle") => rules.variant = crate::Variant::CorporateShuffle,
            Some("daifugo") => rules = Rules::daifugo(),
            Some("president") => rules = Rules::president(),
            Some(other) => {
                return Err(top(format!(
                    "rules.variant is {}; the format knows dalmuti, corporate-shuffle, \
                     daifugo and president",
                    show(other)
                )));
            }
            None => {
                return Err(top(format!(
                    "rules.variant should be a string, not {}",
                    kind(v)
                )));
            }
        }
    }
    let flag = |key: &str| -> Result<Option<bool>, ReadError> {
        match optional(obj, key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(top(format!(
                "rules.{key} should be true or false, not {}",
                kind(v)
            ))),
        }
    };
    if let Some(b) = flag("stripped_deck")? {
        rules.stripped_deck = b;
    }
    if let Some(b) = flag("first_deal_revolution")? {
        rules.first_deal_revolution = b;
    }
    if let Some(b) = flag("merchant_exchange")? {
        rules.merchant_exchange = b;
    }
    if let Some(b) = flag("join_and_leave")? {
        rules.join_and_leave = b;
    }
    if let Some(v) = optional(obj, "scoring") {
        rules.scoring = match v.as_str() {
            Some("none") => Scoring::None,
            Some("standard") => Scoring::Standard,
            Some("philanthropic") => Scoring::Philanthropic,
            Some("places") => Scoring::Places,
            _ => {
                return Err(top(
                    "rules.scoring should be \"none\", \"standard\", \"philanthropic\" or \"places\"",
                ));
            }
        };
    }
    if let Some(v) = optional(obj, "climbing") {
        if !rules.variant.is_suited() {
            return Err(top("rules.climbing is for President and Daifugō only"));
        }
        // Options left out keep the variant's own.
        let mut options = serde_json::to_value(rules.climbing()).expect("options serialize");
        let Value::Object(given) = v else {
            return Err(top(format!(
                "rules.climbing should be an object, not {}",
                kind(v)
            )));
        };
        for (key, value) in given {
            match options.get_mut(key) {
                Some(slot) => *slot = value.clone(),
                None => {
                    return Err(top(format!(
                        "rules.climbing has no option {}: the options are {}",
                        show(key),
                        crate::Climbing::names()
                    )));
                }
            }
        }
        let climbing: crate::Climbing =
            serde_json::from_value(options).map_err(|e| top(format!("rules.climbing: {e}")))?;
        rules.climbing = Some(climbing);
    }
    if let Some(v) = optional(obj, "hands") {
        match v.as_u64().and_then(|h| u32::try_from(h).ok()) {
            Some(h) if h > 0 => rules.hands = Some(h),
            _ => return Err(top("rules.hands should be a positive whole number")),
        }
    }
    Ok(rules)
}

fn read_seating(value: Option<&Value>) -> Result<Vec<String>, ReadError> {
    let Some(value) = value else {
        return Err(top("the record has no seating"));
    };
    let Value::Array(items) = value else {
        return Err(top(format!(
            "seating should be an array of names, not {}",
            kind(value)
        )));
    };
    let mut names = Vec::with_capacity(items.len().min(16));
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(s) if !s.is_empty() => {
                if names.contains(s) {
                    return Err(top(format!("{} appears twice in the seating", show(s))));
                }
                names.push(s.clone());
            }
            _ => return Err(top(format!("seating[{i}] should be a non-empty name"))),
        }
    }
    if !(3..=16).contains(&names.len()) {
        return Err(top(format!(
            "the seating has {} players; a game needs 3 to 16",
            names.len()
        )));
    }
    Ok(names)
}

fn read_card(text: &str) -> Result<Card, String> {
    text.parse::<Card>().map_err(|e| e.to_string())
}

fn read_draw(
    value: Option<&Value>,
    rules: &Rules,
    seating: &[String],
) -> Result<Option<DrawRecord>, ReadError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let Value::Array(rounds) = value else {
        return Err(top(format!(
            "draw should be an array of rounds, not {}",
            kind(value)
        )));
    };
    let mut named = Vec::with_capacity(rounds.len().min(80));
    let mut indexed = Vec::with_capacity(rounds.len().min(80));
    for (r, round) in rounds.iter().enumerate() {
        let Value::Object(cards) = round else {
            return Err(top(format!(
                "draw round {r} should be an object of name: card"
            )));
        };
        let mut named_round = Vec::with_capacity(cards.len());
        let mut indexed_round = Vec::with_capacity(cards.len());
        for (name, card) in cards {
            let Some(p) = seating.iter().position(|s| s == name) else {
                return Err(top(format!(
                    "{} draws in round {r} but is not in the seating",
                    show(name)
                )));
            };
            let card = card
                .as_str()
                .ok_or_else(|| format!("{}'s draw in round {r} should be a card token", show(name)))
                .and_then(|t| {
                    read_card(t).map_err(|e| format!("{}'s draw in round {r}: {e}", show(name)))
                })
                .map_err(top)?;
            named_round.push((name.clone(), card));
            indexed_round.push((p, card));
        }
        named.push(named_round);
        indexed.push(indexed_round);
    }
    let deck = Deck::for_table(rules, seating.len());
    let order = check_draw(seating.len(), deck, &indexed).map_err(|e| top(e.to_string()))?;
    if order.iter().enumerate().any(|(i, &p)| i != p) {
        let expected: Vec<&str> = order.iter().map(|&p| seating[p].as_str()).collect();
        return Err(top(format!(
            "the seating does not follow the draw, which seats {}",
            expected.join(", ")
        )));
    }
    Ok(Some(named))
}
