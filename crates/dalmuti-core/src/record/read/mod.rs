//! Reading and checking records: replay every hand through the engine and
//! stop at the first fault, with its hand and play.

use super::{DrawRecord, FORMAT, FORMAT_SUITED, HandRecord, PlayRecord, Record};
use crate::action::{Action, Decision, Illegal};
use crate::card::Card;
use crate::cards::Cards;
use crate::deck::Deck;
use crate::draw::check_draw;
use crate::game::{Game, TableError};
use crate::hand::{BadDeal, Stage};
use crate::rng::{DealRng, Seed};
use crate::rules::Rules;
use crate::seat::Seat;
use crate::set::Set;

mod doc;
mod hand;
mod verdict;

use doc::{Doc, Kind, Names, Obj, RulesIn, Top};
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

    /// The JSON object `dalmuti check --json` prints, as one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a verdict always serializes")
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
    match read_text(text, DealRng::new(Seed::from(0))) {
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
        read_text(text, DealRng::new(Seed::from(0))).map(|r| r.record)
    }

    /// Replays the record into the game it describes (with a stream seeded
    /// by `seed` for any hands dealt after it).
    pub fn replay(&self, seed: Seed) -> Result<Game, Fault> {
        let text = serde_json::to_string(self).expect("a record always serializes");
        match read_text(&text, DealRng::new(seed)) {
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

/// Reads a record's text: its document typed by serde, then every part
/// checked and replayed through the engine.
fn read_text(text: &str, rng: DealRng) -> Result<Read, ReadError> {
    match doc::read_part::<Obj<Doc>>(text) {
        Ok(Obj(doc)) => read_doc(doc, rng),
        Err((path, words)) => Err(unread(text, &path, &words)),
    }
}

/// Why a text serde could not read as a record's document is refused:
/// not JSON, not a record of this format (both unreadable), or a record
/// with a part of the wrong shape (a fault, where it lies).
fn unread(text: &str, path: &str, words: &str) -> ReadError {
    match serde_json::from_str::<Top>(text) {
        Err(e) => ReadError::Unreadable(format!("not JSON: {e}")),
        Ok(Top::Not(kind)) => {
            ReadError::Unreadable(format!("a record is a JSON object, not {kind}"))
        }
        Ok(Top::Object { format }) => match suited_format(format.as_ref().map(|f| match f {
            Ok(f) => Ok(f.as_str()),
            Err(kind) => Err(*kind),
        })) {
            Err(unreadable) => unreadable,
            Ok(_) => top(at(path, words)),
        },
    }
}

/// A fault's words with the path of the part it is in, when there is one.
fn at(path: &str, words: &str) -> String {
    if path.is_empty() {
        words.to_string()
    } else {
        format!("{path}: {words}")
    }
}

/// Whether the record's `format` is that of the climbing games (or that
/// of Dalmuti), or why it is not a record this reader reads.
fn suited_format(format: Option<Result<&str, Kind>>) -> Result<bool, ReadError> {
    match format {
        Some(Ok(FORMAT)) => Ok(false),
        Some(Ok(FORMAT_SUITED)) => Ok(true),
        Some(Ok(f)) => Err(ReadError::Unreadable(format!(
            "format is {}, not {FORMAT} (or {FORMAT_SUITED} for President and Daifugō)",
            show(f)
        ))),
        Some(Err(kind)) => Err(ReadError::Unreadable(format!(
            "format should be the string {FORMAT}, not {kind}"
        ))),
        None => Err(ReadError::Unreadable(format!(
            "no format field (expected {FORMAT})"
        ))),
    }
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

fn read_doc(doc: Doc, rng: DealRng) -> Result<Read, ReadError> {
    let suited_format = suited_format(doc.format.as_deref().map(Ok))?;
    let rules = read_rules(doc.rules.map(|Obj(r)| r))?;
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
    let seating = read_seating(doc.seating)?;
    let draw = read_draw(doc.draw, &rules, &seating)?;
    let Some(hands) = doc.hands else {
        return Err(top("the record has no hands field"));
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
        .read(h.get())?;
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

fn read_rules(given: Option<RulesIn>) -> Result<Rules, ReadError> {
    let mut rules = Rules::default();
    let Some(given) = given else {
        return Ok(rules);
    };
    match given.variant {
        None | Some(crate::Variant::Dalmuti) => {}
        Some(crate::Variant::CorporateShuffle) => rules.variant = crate::Variant::CorporateShuffle,
        Some(crate::Variant::Daifugo) => rules = Rules::daifugo(),
        Some(crate::Variant::President) => rules = Rules::president(),
    }
    if let Some(b) = given.stripped_deck {
        rules.stripped_deck = b;
    }
    if let Some(b) = given.first_deal_revolution {
        rules.first_deal_revolution = b;
    }
    if let Some(b) = given.merchant_exchange {
        rules.merchant_exchange = b;
    }
    if let Some(b) = given.join_and_leave {
        rules.join_and_leave = b;
    }
    if let Some(scoring) = given.scoring {
        rules.scoring = scoring;
    }
    if let Some(options) = given.climbing {
        if !rules.variant.is_suited() {
            return Err(top("rules.climbing is for President and Daifugō only"));
        }
        // Options left out keep the variant's own.
        let climbing = rules
            .climbing()
            .over(options.get())
            .map_err(|e| top(format!("rules.climbing: {e}")))?;
        rules.climbing = Some(climbing);
    }
    if let Some(hands) = given.hands {
        rules.hands = Some(hands.get());
    }
    Ok(rules)
}

fn read_seating(names: Option<Vec<String>>) -> Result<Vec<String>, ReadError> {
    let Some(names) = names else {
        return Err(top("the record has no seating"));
    };
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err(top(format!("seating[{i}] should be a non-empty name")));
        }
        if !seen.insert(name) {
            return Err(top(format!("{} appears twice in the seating", show(name))));
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
    rounds: Option<Vec<Names<String>>>,
    rules: &Rules,
    seating: &[String],
) -> Result<Option<DrawRecord>, ReadError> {
    let Some(rounds) = rounds else {
        return Ok(None);
    };
    let mut named = Vec::with_capacity(rounds.len());
    let mut indexed = Vec::with_capacity(rounds.len());
    for (r, cards) in rounds.into_iter().enumerate() {
        let mut named_round = Vec::with_capacity(cards.len());
        let mut indexed_round = Vec::with_capacity(cards.len());
        for (name, card) in cards {
            let Some(p) = seating.iter().position(|s| *s == name) else {
                return Err(top(format!(
                    "{} draws in round {r} but is not in the seating",
                    show(&name)
                )));
            };
            let card = read_card(&card)
                .map_err(|e| top(format!("{}'s draw in round {r}: {e}", show(&name))))?;
            named_round.push((name, card));
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
