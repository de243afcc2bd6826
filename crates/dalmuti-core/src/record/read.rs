//! Reading and checking records: replay every hand through the engine and
//! stop at the first fault, with its hand and play.

use serde_json::{Map, Value, json};

use super::{DrawRecord, FORMAT, HandRecord, PlayRecord, Record};
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
    match doc.get("format") {
        Some(Value::String(f)) if f == FORMAT => {}
        Some(Value::String(f)) => {
            return Err(ReadError::Unreadable(format!(
                "format is {}, not {FORMAT}",
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
    }
    let rules = read_rules(optional(doc, "rules"))?;
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
            Some(other) => {
                return Err(top(format!(
                    "rules.variant is {}; this version of the format knows dalmuti and \
                     corporate-shuffle",
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
            _ => {
                return Err(top(
                    "rules.scoring should be \"none\", \"standard\" or \"philanthropic\"",
                ));
            }
        };
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

/// Reads one hand into the game.
struct HandReader<'g> {
    game: &'g mut Game,
    index: usize,
    last: bool,
}

impl HandReader<'_> {
    fn fault(&self, message: impl Into<String>) -> ReadError {
        ReadError::Invalid(Fault {
            hand: Some(self.index),
            play: None,
            message: message.into(),
        })
    }

    fn play_fault(&self, play: usize, message: impl Into<String>) -> ReadError {
        ReadError::Invalid(Fault {
            hand: Some(self.index),
            play: Some(play),
            message: message.into(),
        })
    }

    fn name(&self, seat: Seat) -> String {
        show(self.game.name(self.game.player_at(seat)))
    }

    /// The seat of play of a named player of the current hand.
    fn seat(&self, name: &str) -> Result<Seat, String> {
        self.game
            .player_named(name)
            .and_then(|p| self.game.seat_of(p))
            .ok_or_else(|| format!("{} is not seated in this hand", show(name)))
    }

    fn table_error(&self, e: TableError) -> ReadError {
        let message = match e {
            TableError::BadDeal(BadDeal::Share {
                seat,
                expected,
                got,
            }) => {
                let name = self.game.next_seating()[seat.index()];
                format!(
                    "{} should be dealt {expected} cards, not {got}",
                    show(self.game.name(name))
                )
            }
            e => e.to_string(),
        };
        self.fault(message)
    }

    fn read(mut self, value: &Value) -> Result<HandRecord, ReadError> {
        let Value::Object(obj) = value else {
            return Err(self.fault(format!("a hand should be an object, not {}", kind(value))));
        };
        let mut out = HandRecord::default();
        self.read_table_changes(obj, &mut out)?;
        self.read_deal(obj, &mut out)?;

        let plays = match obj.get("plays") {
            Some(Value::Array(p)) => p.as_slice(),
            Some(v) => return Err(self.fault(format!("plays should be an array, not {}", kind(v)))),
            None if self.last => &[],
            None => return Err(self.fault("the hand has no plays")),
        };
        let tax = optional(obj, "tax");
        let exchange = optional(obj, "merchant_exchange");
        let offer = optional(obj, "merchant_offer");
        self.read_declined(optional(obj, "declined"), &mut out)?;
        // A hand saved in progress may stop while it is set up; otherwise
        // every setup choice was made: a missing revolution was declined, a
        // missing exchange let go, and everyone else said ready.
        let setup_over = !plays.is_empty() || !self.last;
        self.read_revolution(optional(obj, "revolution"), &mut out)?;
        // The setup choices are simultaneous: one may be recorded while
        // another is still being made.
        self.read_tax(tax, setup_over, &mut out)?;
        if let Some(offer) = offer {
            if exchange.is_some() || out.declined_exchange {
                return Err(self.fault("merchant_offer is only for an exchange still unanswered"));
            }
            self.read_offer(offer, &mut out)?;
        } else {
            self.read_exchange(exchange, out.declined_exchange || setup_over, &mut out)?;
        }
        self.say_ready(optional(obj, "ready"), setup_over, &mut out)?;
        if !plays.is_empty()
            && self.game.hand().stage() != Stage::Play
            && self.game.hand().stage() != Stage::Over
        {
            return Err(self.fault("plays begin before the taxes are settled"));
        }
        for (j, entry) in plays.iter().enumerate() {
            out.plays.push(self.read_play(j, entry)?);
        }
        if !self.last && self.game.hand().stage() != Stage::Over {
            return Err(self.fault("the hand stops before its end, but another hand follows"));
        }
        Ok(out)
    }

    fn read_table_changes(
        &mut self,
        obj: &Map<String, Value>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        let leave = optional(obj, "leave");
        let join = optional(obj, "join");
        if self.index == 0 && (leave.is_some() || join.is_some()) {
            return Err(self.fault(
                "no one can leave or join before the first hand: the seating says who plays it",
            ));
        }
        if let Some(v) = leave {
            let Value::Array(names) = v else {
                return Err(self.fault("leave should be an array of names"));
            };
            for name in names {
                let name = name
                    .as_str()
                    .ok_or_else(|| self.fault("leave should be an array of names"))?;
                self.game.leave(name).map_err(|e| self.table_error(e))?;
                out.leave.push(name.to_string());
            }
        }
        if let Some(v) = join {
            let Value::Array(items) = v else {
                return Err(self.fault("join should be an array of {\"name\", \"seat\"} objects"));
            };
            for item in items {
                let name = item.get("name").and_then(Value::as_str);
                let seat = item.get("seat").and_then(Value::as_u64);
                let (Some(name), Some(seat)) = (name, seat) else {
                    return Err(
                        self.fault("each join should be an object with a name and a 0-based seat")
                    );
                };
                let seat = usize::try_from(seat).unwrap_or(usize::MAX);
                self.game
                    .join(name, seat)
                    .map_err(|e| self.table_error(e))?;
                out.join.push((name.to_string(), seat));
            }
        }
        Ok(())
    }

    fn read_deal(
        &mut self,
        obj: &Map<String, Value>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        let deal = match optional(obj, "deal") {
            Some(Value::Object(d)) => d,
            Some(v) => {
                return Err(self.fault(format!(
                    "deal should be an object of name: cards, not {}",
                    kind(v)
                )));
            }
            None => return Err(self.fault("the hand has no deal")),
        };
        let seated: Vec<String> = self
            .game
            .next_seating()
            .iter()
            .map(|&p| self.game.name(p).to_string())
            .collect();
        if let Some(stranger) = deal.keys().find(|k| !seated.contains(k)) {
            return Err(self.fault(format!(
                "the deal gives cards to {}, who is not seated in this hand",
                show(stranger)
            )));
        }
        let mut dealt = Vec::with_capacity(seated.len());
        for name in &seated {
            let cards = match deal.get(name) {
                Some(Value::String(s)) => s
                    .parse::<Cards>()
                    .map_err(|e| self.fault(format!("the deal of {}: {e}", show(name))))?,
                Some(_) => {
                    return Err(self.fault(format!(
                        "the deal of {} should be a string of cards",
                        show(name)
                    )));
                }
                None => return Err(self.fault(format!("the deal has no cards for {}", show(name)))),
            };
            dealt.push(cards);
            out.deal.push((name.clone(), cards));
        }
        self.game
            .next_hand_with(&dealt)
            .map_err(|e| self.table_error(e))
    }

    /// The project's `declined` field: decisions declined, written so that
    /// a game saved right after one replays exactly.
    fn read_declined(
        &mut self,
        value: Option<&Value>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        let Some(value) = value else {
            return Ok(());
        };
        let words = value.as_array().ok_or_else(|| {
            self.fault("declined should be an array of \"revolution\" or \"merchant_exchange\"")
        })?;
        for word in words {
            match word.as_str() {
                Some("revolution") => out.declined_revolution = true,
                Some("merchant_exchange") => out.declined_exchange = true,
                _ => {
                    return Err(
                        self.fault("declined lists only \"revolution\" and \"merchant_exchange\"")
                    );
                }
            }
        }
        if out.declined_revolution && self.game.hand().revolution_holder().is_none() {
            return Err(self.fault("no one was dealt both Jesters, so no revolution was declined"));
        }
        Ok(())
    }

    /// Says ready for the players whose setup choice is only that: those the
    /// record lists as ready (a hand saved while set up), the holder of both
    /// Jesters when it says they kept quiet, and everyone once the setup is
    /// over.
    fn say_ready(
        &mut self,
        listed: Option<&Value>,
        setup_over: bool,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        if let Some(listed) = listed {
            let names = listed
                .as_array()
                .ok_or_else(|| self.fault("ready should be an array of names"))?;
            for name in names {
                let name = name
                    .as_str()
                    .ok_or_else(|| self.fault("ready should be an array of names"))?;
                let seat = self.seat(name).map_err(|m| self.fault(m))?;
                out.ready.push(name.to_string());
                if self.game.hand().said_ready().contains(seat) {
                    // Already, as the partner of the merchant exchange.
                    continue;
                }
                if self.game.hand().decision(seat) != Some(Decision::Ready) {
                    return Err(self.fault(format!(
                        "{} has no reason to say ready: only players without another setup choice do, once",
                        show(name)
                    )));
                }
                self.ready(seat)?;
            }
        }
        let hand = self.game.hand();
        if hand.stage() != Stage::Setup {
            return Ok(());
        }
        let holder = hand.revolution_holder();
        let declined = out.declined_revolution;
        let ready: Vec<Seat> = hand
            .to_act()
            .iter()
            .filter(|&s| hand.decision(s) == Some(Decision::Ready))
            .filter(|&s| setup_over || (declined && Some(s) == holder))
            .collect();
        for seat in ready {
            self.ready(seat)?;
        }
        if let Some(holder) =
            holder.filter(|&h| declined && self.game.hand().revolution_offer(h).is_some())
        {
            return Err(self.fault(format!(
                "the revolution was declined, but the record has no setup choice of {}, \
                 who was dealt both Jesters",
                self.name(holder)
            )));
        }
        Ok(())
    }

    fn ready(&mut self, seat: Seat) -> Result<(), ReadError> {
        self.game
            .apply(seat, Action::Ready)
            .map_err(|e| self.fault(e.reason.to_string()))
    }

    fn read_offer(&mut self, value: &Value, out: &mut HandRecord) -> Result<(), ReadError> {
        let offerer = Seat::new(2);
        if self.game.hand().decision(offerer) != Some(Decision::ExchangeOffer) {
            return Err(self.fault("no merchant exchange can be offered in this hand"));
        }
        let field = |k: &str| value.get(k).and_then(Value::as_str);
        let (Some(from), Some(to), Some(card)) = (field("from"), field("to"), field("card")) else {
            return Err(self.fault("merchant_offer should have from, to and card"));
        };
        let card = read_card(card).map_err(|e| self.fault(format!("merchant_offer card: {e}")))?;
        if self.seat(from).ok() != Some(offerer) {
            return Err(self.fault(format!(
                "the highest Merchant, {}, makes the merchant offer",
                self.name(offerer)
            )));
        }
        let partner = self.seat(to).map_err(|m| self.fault(m))?;
        self.game
            .apply(offerer, Action::OfferExchange { partner, card })
            .map_err(|e| self.fault(format!("{}: {}", show(from), e.reason)))?;
        out.merchant_offer = Some((from.to_string(), to.to_string(), card));
        Ok(())
    }

    fn read_revolution(
        &mut self,
        value: Option<&Value>,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        if value.is_some() && out.declined_revolution {
            return Err(self.fault("a revolution cannot be both called and declined"));
        }
        let Some(value) = value else {
            return Ok(());
        };
        let name = value.as_str().ok_or_else(|| {
            self.fault("revolution should be the name of the player who called it")
        })?;
        let seat = self.seat(name).map_err(|m| self.fault(m))?;
        if self.game.hand().revolution_offer(seat).is_none() {
            return Err(self.fault(format!(
                "{} was not dealt both Jesters, so cannot call a revolution",
                show(name)
            )));
        }
        self.game
            .apply(seat, Action::CallRevolution)
            .map_err(|e| self.fault(e.reason.to_string()))?;
        out.revolution = Some(name.to_string());
        Ok(())
    }

    fn read_tax(
        &mut self,
        value: Option<&Value>,
        more: bool,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        let hand = self.game.hand();
        let due = hand.stage() == Stage::Setup
            && hand
                .to_act()
                .iter()
                .any(|s| matches!(hand.decision(s), Some(Decision::Tax { .. })));
        let Some(value) = value else {
            if due && more {
                return Err(self.fault("taxes are collected this hand, but the record has no tax"));
            }
            return Ok(());
        };
        if !due {
            let why = if hand.revolution().is_some() {
                "no taxes are collected after a revolution"
            } else if hand.is_first() && hand.rules().first_deal_revolution {
                "no taxes are collected in the first hand under the first-deal revolution"
            } else {
                "no taxes are collected in this hand"
            };
            return Err(self.fault(why));
        }
        let Value::Object(gifts) = value else {
            return Err(self.fault("tax should be an object of Dalmuti name: cards"));
        };
        let mut paid = Vec::with_capacity(2);
        for (name, cards) in gifts {
            let seat = self.seat(name).map_err(|m| self.fault(m))?;
            let Some(Decision::Tax { count, .. }) = self.game.hand().decision(seat) else {
                return Err(self.fault(format!(
                    "{} is not a Dalmuti of this hand, so gives no tax",
                    show(name)
                )));
            };
            let cards: Cards = cards
                .as_str()
                .ok_or_else(|| format!("the tax of {} should be a string of cards", show(name)))
                .and_then(|s| {
                    s.parse()
                        .map_err(|e| format!("the tax of {}: {e}", show(name)))
                })
                .map_err(|m| self.fault(m))?;
            if cards.len() != u32::from(count) {
                return Err(self.fault(format!(
                    "{} must give exactly {count} card(s) in tax, not {}",
                    show(name),
                    cards.len()
                )));
            }
            if !self.game.hand().dealt(seat).contains(&cards) {
                return Err(self.fault(format!(
                    "{} was not dealt {cards}, so cannot give it in tax",
                    show(name)
                )));
            }
            paid.push((seat, name.clone(), cards));
        }
        // Simultaneous gifts: the engine settles them in a fixed order once
        // all are chosen, so the order they are applied in does not matter.
        for (seat, name, cards) in paid {
            self.game
                .apply(seat, Action::GiveTax(cards))
                .map_err(|e| self.fault(e.reason.to_string()))?;
            out.tax.get_or_insert_with(Vec::new).push((name, cards));
        }
        let hand = self.game.hand();
        if let Some(missing) = hand
            .to_act()
            .iter()
            .find(|&s| matches!(hand.decision(s), Some(Decision::Tax { .. })))
        {
            if more {
                return Err(self.fault(format!(
                    "the tax names no gift from {}, a Dalmuti of this hand",
                    self.name(missing)
                )));
            }
        }
        Ok(())
    }

    fn read_exchange(
        &mut self,
        value: Option<&Value>,
        more: bool,
        out: &mut HandRecord,
    ) -> Result<(), ReadError> {
        let offerer = Seat::new(2);
        let awaiting = self.game.hand().decision(offerer) == Some(Decision::ExchangeOffer);
        if out.declined_exchange && value.is_some() {
            return Err(self.fault("a merchant exchange cannot be both made and declined"));
        }
        if out.declined_exchange && !awaiting {
            return Err(self.fault("no merchant exchange could be offered, so none was declined"));
        }
        let Some(value) = value else {
            if awaiting && more {
                self.game
                    .apply(offerer, Action::DeclineExchange)
                    .map_err(|e| self.fault(e.reason.to_string()))?;
            }
            return Ok(());
        };
        if !awaiting {
            let hand = self.game.hand();
            let why = if !hand.rules().merchant_exchange {
                "the merchant exchange rule is off"
            } else if !hand.taxed() {
                "there is no merchant exchange when no taxes are collected"
            } else {
                "a merchant exchange needs at least two Merchants (six players)"
            };
            return Err(self.fault(why));
        }
        let entries = match value {
            Value::Object(o) if o.len() == 2 => o,
            _ => {
                return Err(self.fault(
                    "merchant_exchange should name exactly two players and the card each gives",
                ));
            }
        };
        let mut sides = Vec::with_capacity(2);
        for (name, card) in entries {
            let seat = self.seat(name).map_err(|m| self.fault(m))?;
            let card = card
                .as_str()
                .ok_or_else(|| format!("{}'s exchange card should be a card token", show(name)))
                .and_then(|t| {
                    read_card(t).map_err(|e| format!("{}'s exchange card: {e}", show(name)))
                })
                .map_err(|m| self.fault(m))?;
            sides.push((seat, name.clone(), card));
        }
        sides.sort_by_key(|s| s.0);
        let [
            (first, first_name, offered),
            (partner, partner_name, returned),
        ] = <[_; 2]>::try_from(sides).expect("two entries");
        if first != offerer {
            return Err(self.fault(format!(
                "the highest Merchant, {}, must be one of the two in the exchange",
                self.name(offerer)
            )));
        }
        let apply = |game: &mut Game, seat, action| game.apply(seat, action);
        apply(
            self.game,
            offerer,
            Action::OfferExchange {
                partner,
                card: offered,
            },
        )
        .map_err(|e| {
            self.fault(match e.reason {
                Illegal::NotHeld(_) => format!("{} was not dealt {offered}", show(&first_name)),
                Illegal::NotAMerchant(_) => format!(
                    "{} is not a Merchant, so cannot take part in the exchange",
                    show(&partner_name)
                ),
                r => r.to_string(),
            })
        })?;
        // The partner answers after its own setup choice: saying ready.
        if self.game.hand().decision(partner) == Some(Decision::Ready) {
            self.ready(partner)?;
        }
        apply(self.game, partner, Action::AnswerExchange(returned)).map_err(|e| {
            self.fault(match e.reason {
                Illegal::NotHeld(_) => format!("{} was not dealt {returned}", show(&partner_name)),
                r => r.to_string(),
            })
        })?;
        out.merchant_exchange = Some([(first_name, offered), (partner_name, returned)]);
        Ok(())
    }

    fn read_play(&mut self, j: usize, entry: &Value) -> Result<PlayRecord, ReadError> {
        let bad = || {
            self.play_fault(
                j,
                "a play should be a string \"Name: cards\" or \"Name: pass\"",
            )
        };
        let text = entry.as_str().ok_or_else(bad)?;
        // A name may contain ": ", and so may a Wedgie's target after the
        // cards: the player is the longest seated name before a ": ", or
        // failing that the text before the last one.
        let splits: Vec<usize> = text.match_indices(": ").map(|(i, _)| i).collect();
        let at = splits
            .iter()
            .rev()
            .copied()
            .find(|&i| self.seat(&text[..i]).is_ok())
            .or_else(|| splits.last().copied())
            .ok_or_else(bad)?;
        let (name, what) = (&text[..at], &text[at + 2..]);
        let seat = self.seat(name).map_err(|m| self.play_fault(j, m))?;
        let hand = self.game.hand();
        if hand.stage() == Stage::Over {
            return Err(self.play_fault(j, "the hand is already over: no play may follow"));
        }
        // The rest after the word `wedgie` is the target's name.
        let (cards, wedgie) = match what.split_once(" wedgie ") {
            Some((cards, target)) => (cards, Some(target)),
            None => (what, None),
        };
        let set = if what == "pass" {
            None
        } else {
            let set = cards
                .parse::<Set>()
                .map_err(|e| self.play_fault(j, e.to_string()))?;
            let target = match wedgie {
                Some(target) => Some(self.seat(target).map_err(|m| {
                    self.play_fault(j, format!("the Twirling Wedgie's target: {m}"))
                })?),
                None => None,
            };
            Some(
                set.with_target(target)
                    .map_err(|e| self.play_fault(j, e.to_string()))?,
            )
        };
        if hand.turn() != seat {
            return Err(self.play_fault(
                j,
                format!(
                    "it is {}'s turn, not {}'s",
                    self.name(hand.turn()),
                    show(name)
                ),
            ));
        }
        let action = set.map_or(Action::Pass, Action::Play);
        self.game.apply(seat, action).map_err(|e| {
            let who = show(name);
            self.play_fault(
                j,
                match e.reason {
                    Illegal::NotHeld(missing) => format!(
                        "{who} does not hold {} (missing {missing})",
                        set.expect("a play")
                    ),
                    Illegal::MustLead => format!("{who} leads this round and cannot pass"),
                    Illegal::WrongSize { top, played } => {
                        format!(
                            "{who} must play {} card(s) to top {top}, not {played}",
                            top.size()
                        )
                    }
                    Illegal::DoesNotTop { top, played } => {
                        format!("{who}'s {played} does not top {top}")
                    }
                    r => format!("{who}: {r}"),
                },
            )
        })?;
        Ok(PlayRecord {
            player: name.to_string(),
            set,
            wedgie: wedgie.map(str::to_string),
        })
    }
}
