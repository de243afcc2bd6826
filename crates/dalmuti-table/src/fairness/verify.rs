//! Checking a finished game's deal commitments (docs/FAIRNESS.md): what
//! `dalmuti verify` reports, for any program to reuse.
//!
//! A game downloaded from the server is a game record with an extra field
//! `fairness` ([`Fairness`]): the seating draw's seed and, for every hand,
//! the SHA-256 commitment published before the deal and the seed revealed
//! after the hand. For each hand [`verify_text`] checks that the seed
//! matches its commitment and deals exactly the recorded cards to every
//! player; and that the draw seed draws the recorded seating draw.
//!
//! ```
//! use dalmuti_table::fairness::verify::{Verdict, verify_text};
//!
//! let verdict = verify_text("not a record");
//! assert!(matches!(verdict, Verdict::Unreadable(_)));
//! assert!(!verdict.verified());
//! let report = serde_json::to_string(&verdict.report()).unwrap();
//! assert!(report.starts_with(r#"{"verified":false,"unreadable":"not a record: "#));
//! ```

use dalmuti_core::record::{Fault, ReadError, Record};
use dalmuti_core::{Cards, DealRng, Deck, Seed, draw_for_seats};
use serde::Serialize;
use serde_json::value::RawValue;

use super::{Fairness, HandSeed, commitment};

/// The outcome of checking one hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The seed matches its commitment and deals the recorded cards.
    Verified,
    /// Something does not match (see [`HandCheck::message`]).
    Failed,
    /// The seed is not revealed yet: the hand is not over.
    Unrevealed,
}

impl Status {
    /// The status as one word, as the JSON verdict has it.
    pub fn word(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Failed => "failed",
            Status::Unrevealed => "unrevealed",
        }
    }
}

/// A player whose recorded cards differ from the seed's deal.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The player's name.
    pub player: String,
    /// The player's seat, from 0.
    pub seat: usize,
    /// What the seed deals to that seat.
    pub expected: Cards,
    /// What the record says the player was dealt.
    pub recorded: Cards,
}

impl Mismatch {
    /// The difference in plain words: who, both sets of cards, and the
    /// cards missing and extra.
    pub fn describe(&self) -> String {
        let missing = self.expected.missing_from(&self.recorded);
        let extra = self.recorded.missing_from(&self.expected);
        let mut diff = Vec::new();
        if !missing.is_empty() {
            diff.push(format!("missing {missing}"));
        }
        if !extra.is_empty() {
            diff.push(format!("extra {extra}"));
        }
        format!(
            "{} (seat {}) was dealt \"{}\" in the record, but the seed deals \"{}\" ({})",
            show(&self.player),
            self.seat,
            self.recorded,
            self.expected,
            diff.join(", ")
        )
    }
}

/// One hand's check.
#[derive(Clone, Debug)]
pub struct HandCheck {
    /// The hand's number, from 1.
    pub hand: usize,
    /// How many players the hand was dealt to.
    pub players: usize,
    /// The outcome.
    pub status: Status,
    /// The revealed seed, as the fairness data gives it.
    pub seed: Option<String>,
    /// The commitment, as the fairness data gives it.
    pub commitment: Option<String>,
    /// What is wrong, in plain words (empty when verified).
    pub problems: Vec<String>,
    /// The players whose recorded cards differ from the seed's deal.
    pub mismatches: Vec<Mismatch>,
}

impl HandCheck {
    /// The outcome in plain words, without the hand's number.
    pub fn message(&self) -> String {
        match self.status {
            Status::Verified => format!(
                "seed {} matches its commitment and deals the recorded cards",
                self.seed.as_deref().unwrap_or("")
            ),
            Status::Unrevealed => format!(
                "not yet revealed: the seed behind commitment {} is revealed when the hand is over",
                self.commitment.as_deref().unwrap_or("")
            ),
            Status::Failed => {
                let mut parts = self.problems.clone();
                parts.extend(self.mismatches.iter().map(Mismatch::describe));
                parts.join("; ")
            }
        }
    }

    /// The outcome as one line: `hand N: verified: ...`.
    pub fn line(&self) -> String {
        let word = match self.status {
            Status::Verified => "verified: ",
            Status::Failed => "FAILED: ",
            Status::Unrevealed => "",
        };
        format!("hand {}: {word}{}", self.hand, self.message())
    }
}

/// The seating draw's check.
#[derive(Clone, Debug)]
pub enum DrawCheck {
    /// The draw seed draws the recorded draw.
    Verified(String),
    /// It does not, or cannot be checked for a reason that is a fault.
    Failed(String),
    /// No draw and no draw seed: the seating was given, not drawn.
    None,
    /// A draw seed whose draw a record cannot hold (ties broken at random
    /// after the pile ran out), so there is nothing to compare.
    Unchecked(String),
}

impl DrawCheck {
    /// The outcome as one line: `draw: verified: ...`.
    pub fn line(&self) -> String {
        match self {
            DrawCheck::Verified(seed) => {
                format!("draw: verified: seed {seed} draws the recorded seating draw")
            }
            DrawCheck::Failed(m) => format!("draw: FAILED: {m}"),
            DrawCheck::None => {
                "draw: none (the record has no seating draw and no draw seed)".into()
            }
            DrawCheck::Unchecked(m) => format!("draw: not checked: {m}"),
        }
    }

    /// The outcome as reported: `{"status", "message"}`.
    pub fn report(&self) -> DrawReport<'_> {
        let (status, message) = match self {
            DrawCheck::Verified(_) => ("verified", None),
            DrawCheck::Failed(m) => ("failed", Some(m.as_str())),
            DrawCheck::None => ("none", None),
            DrawCheck::Unchecked(m) => ("unchecked", Some(m.as_str())),
        };
        DrawReport { status, message }
    }
}

/// The verdict on a downloaded game: what `dalmuti verify` reports.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// The record was read and every hand checked.
    Checked {
        /// The seating draw's check.
        draw: DrawCheck,
        /// Each hand's check, in order, then any commitment to a hand the
        /// record does not hold.
        hands: Vec<HandCheck>,
    },
    /// A readable record that breaks the rules: its first fault.
    Invalid(Fault),
    /// Not a file, not JSON, not a record, or no usable `fairness` field.
    Unreadable(String),
}

impl Verdict {
    /// Whether the game verifies: it has hands, every hand verified, and
    /// the seating draw did not fail.
    pub fn verified(&self) -> bool {
        match self {
            Verdict::Checked { draw, hands } => {
                !hands.is_empty()
                    && hands.iter().all(|h| h.status == Status::Verified)
                    && !matches!(draw, DrawCheck::Failed(_))
            }
            _ => false,
        }
    }

    /// One line that sums up a checked record (empty for a record that
    /// could not be checked).
    pub fn summary(&self) -> String {
        let Verdict::Checked { draw, hands } = self else {
            return String::new();
        };
        if hands.is_empty() {
            return "NOT verified: the record has no hands".into();
        }
        // "hand 2" or "hands 1, 3".
        let numbers = |status: Status| -> Vec<String> {
            hands
                .iter()
                .filter(|h| h.status == status)
                .map(|h| h.hand.to_string())
                .collect()
        };
        let which = |n: &[String]| {
            let s = if n.len() == 1 { "" } else { "s" };
            format!("hand{s} {}", n.join(", "))
        };
        let draw_words = match draw {
            DrawCheck::Verified(_) => " and the seating draw",
            _ => "",
        };
        if self.verified() {
            return format!(
                "verified: all {} hand(s){draw_words}: every deal was fixed before play",
                hands.len()
            );
        }
        let mut parts = Vec::new();
        let failed = numbers(Status::Failed);
        if !failed.is_empty() {
            parts.push(format!(
                "{} of {} hand(s) failed ({})",
                failed.len(),
                hands.len(),
                which(&failed)
            ));
        }
        let unrevealed = numbers(Status::Unrevealed);
        if !unrevealed.is_empty() {
            parts.push(format!(
                "{} not yet revealed ({})",
                unrevealed.len(),
                which(&unrevealed)
            ));
        }
        if matches!(draw, DrawCheck::Failed(_)) {
            parts.push("the seating draw failed".into());
        }
        format!("NOT verified: {}", parts.join("; "))
    }

    /// The verdict as one object (`dalmuti verify --json`).
    pub fn report(&self) -> Report<'_> {
        match self {
            Verdict::Checked { draw, hands } => Report::Checked {
                verified: self.verified(),
                draw: draw.report(),
                hands: hands
                    .iter()
                    .map(|h| HandReport {
                        hand: h.hand,
                        players: h.players,
                        status: h.status.word(),
                        seed: h.seed.as_deref(),
                        commitment: h.commitment.as_deref(),
                        message: h.message(),
                        mismatches: h
                            .mismatches
                            .iter()
                            .map(|m| MismatchReport {
                                player: &m.player,
                                seat: m.seat,
                                seed_deals: m.expected.to_string(),
                                recorded: m.recorded.to_string(),
                            })
                            .collect(),
                    })
                    .collect(),
                summary: self.summary(),
            },
            Verdict::Invalid(f) => Report::Invalid {
                verified: false,
                error: FaultReport {
                    hand: f.hand,
                    play: f.play,
                    message: &f.message,
                },
            },
            Verdict::Unreadable(m) => Report::Unreadable {
                verified: false,
                unreadable: m,
            },
        }
    }
}

/// What `dalmuti verify --json` prints: one object per verdict.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Report<'a> {
    /// The record was read and every hand checked.
    Checked {
        /// Whether every hand (and the draw) verified.
        verified: bool,
        /// The seating draw's check.
        draw: DrawReport<'a>,
        /// Each hand's check.
        hands: Vec<HandReport<'a>>,
        /// The verdict in words.
        summary: String,
    },
    /// The record breaks the rules.
    Invalid {
        /// Always false.
        verified: bool,
        /// Where and what.
        error: FaultReport<'a>,
    },
    /// The text is not a record with fairness data.
    Unreadable {
        /// Always false.
        verified: bool,
        /// Why.
        unreadable: &'a str,
    },
}

impl Report<'_> {
    /// The report as one line of JSON.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a report serializes")
    }
}

/// The seating draw's check, as reported.
#[derive(Debug, Serialize)]
pub struct DrawReport<'a> {
    /// `verified`, `failed`, `none` or `unchecked`.
    pub status: &'static str,
    /// What failed, or why it was not checked.
    pub message: Option<&'a str>,
}

/// One hand's check, as reported.
#[derive(Debug, Serialize)]
pub struct HandReport<'a> {
    /// The hand's number, from 1.
    pub hand: usize,
    /// How many players.
    pub players: usize,
    /// `verified`, `failed` or `unrevealed`.
    pub status: &'static str,
    /// The revealed seed.
    pub seed: Option<&'a str>,
    /// The published commitment.
    pub commitment: Option<&'a str>,
    /// The outcome in words.
    pub message: String,
    /// The players dealt other cards than the seed deals.
    pub mismatches: Vec<MismatchReport<'a>>,
}

/// A player dealt other cards than the seed deals, as reported.
#[derive(Debug, Serialize)]
pub struct MismatchReport<'a> {
    /// Who.
    pub player: &'a str,
    /// Their seat.
    pub seat: usize,
    /// What the seed deals.
    pub seed_deals: String,
    /// What the record says.
    pub recorded: String,
}

/// Where a record breaks the rules, as reported.
#[derive(Debug, Serialize)]
pub struct FaultReport<'a> {
    /// 0-based hand, if in one.
    pub hand: Option<usize>,
    /// 0-based play, if in one.
    pub play: Option<usize>,
    /// What is wrong.
    pub message: &'a str,
}

/// Reads a record (JSON text) with its `fairness` field and checks every
/// hand and the seating draw. Never panics, whatever the text.
pub fn verify_text(text: &str) -> Verdict {
    let parsed = match Record::parse(text) {
        Err(ReadError::Unreadable(m)) => return Verdict::Unreadable(format!("not a record: {m}")),
        parsed => parsed,
    };
    /// The record's fairness field, read apart: the engine reads the rest.
    #[derive(serde::Deserialize)]
    struct Downloaded<'a> {
        #[serde(borrow, default)]
        fairness: Option<&'a RawValue>,
    }
    // Record::parse read it as JSON already, so this cannot fail; say so
    // plainly rather than panic if it ever did.
    let doc: Downloaded = match serde_json::from_str(text) {
        Ok(doc) => doc,
        Err(e) => return Verdict::Unreadable(format!("not JSON: {e}")),
    };
    let fairness = match doc.fairness.filter(|f| f.get() != "null") {
        None => {
            return Verdict::Unreadable(
                "the record has no fairness field: download the game from the server's \
                 /api/tables/ID/record once the game is over"
                    .into(),
            );
        }
        Some(v) => match serde_json::from_str::<Fairness>(v.get()) {
            Ok(f) => f,
            Err(e) => {
                return Verdict::Unreadable(format!(
                    "the fairness field should be {{\"draw_seed\": HEX or null, \"hands\": \
                     [{{\"hand\", \"players\", \"commitment\", \"seed\"}}]}}: {e}"
                ));
            }
        },
    };
    // Without fairness data there is nothing to verify (exit 2, above);
    // with it, a record that breaks the rules does not verify.
    let record = match parsed {
        Ok(r) => r,
        Err(ReadError::Invalid(f)) => return Verdict::Invalid(f),
        Err(ReadError::Unreadable(m)) => return Verdict::Unreadable(format!("not a record: {m}")),
    };
    // President and Daifugō deal from the top class's seat, or from a
    // seat drawn from the seed in a game without classes: the replayed
    // games say which.
    let starts: Vec<Option<dalmuti_core::Seat>> = match record.rules.variant.is_suited() {
        true => match record.replay(Seed::from(0)) {
            Ok(game) => game
                .hands()
                .iter()
                .map(|log| {
                    let ranked = log.hand.class(dalmuti_core::Seat::new(0)).is_some();
                    ranked.then(|| log.hand.dealt_from())
                })
                .collect(),
            Err(f) => return Verdict::Invalid(f),
        },
        false => vec![None; record.hands.len()],
    };
    let mut hands: Vec<HandCheck> = record
        .hands
        .iter()
        .enumerate()
        .map(|(i, hand)| check_hand(&record, i + 1, &hand.deal, &fairness.hands, starts[i]))
        .collect();
    // Commitments to hands the record does not hold.
    let mut extra: Vec<&HandSeed> = fairness
        .hands
        .iter()
        .filter(|h| h.hand == 0 || h.hand > record.hands.len())
        .collect();
    extra.sort_by_key(|h| h.hand);
    extra.dedup_by_key(|h| h.hand);
    hands.extend(extra.into_iter().map(|h| HandCheck {
        hand: h.hand,
        players: h.players,
        status: Status::Failed,
        seed: h.seed.clone(),
        commitment: Some(h.commitment.clone()),
        problems: vec![format!(
            "committed in the fairness data, but the record has {} hand(s) numbered from 1",
            record.hands.len()
        )],
        mismatches: vec![],
    }));
    let draw = check_draw(&record, fairness.draw_seed.as_deref());
    Verdict::Checked { draw, hands }
}

/// Checks hand `number` (from 1), dealt as `deal` (name, cards by seat).
fn check_hand(
    record: &Record,
    number: usize,
    deal: &[(String, Cards)],
    committed: &[HandSeed],
    start: Option<dalmuti_core::Seat>,
) -> HandCheck {
    let players = deal.len();
    let entries: Vec<&HandSeed> = committed.iter().filter(|h| h.hand == number).collect();
    let mut check = HandCheck {
        hand: number,
        players,
        status: Status::Failed,
        seed: None,
        commitment: None,
        problems: vec![],
        mismatches: vec![],
    };
    let entry = match entries.as_slice() {
        [] => {
            check
                .problems
                .push("no commitment for it in the fairness data".into());
            return check;
        }
        [entry] => *entry,
        _ => {
            check.problems.push(format!(
                "the fairness data lists it {} times",
                entries.len()
            ));
            return check;
        }
    };
    check.seed = entry.seed.clone();
    check.commitment = Some(entry.commitment.clone());
    if entry.players != players {
        check.problems.push(format!(
            "the fairness data says {} players, but the record deals to {players}",
            entry.players
        ));
        return check;
    }
    let Some(seed_text) = &entry.seed else {
        check.status = Status::Unrevealed;
        return check;
    };
    let seed: Seed = match seed_text.parse() {
        Ok(s) => s,
        Err(_) => {
            check.problems.push(format!(
                "the revealed seed {} is not 64 hexadecimal digits",
                show(seed_text)
            ));
            return check;
        }
    };
    let hash = commitment(&seed);
    if !hash.eq_ignore_ascii_case(&entry.commitment) {
        check.problems.push(format!(
            "the seed does not match its commitment: SHA-256 of the seed is {hash}, the \
             commitment is {}",
            show(&entry.commitment)
        ));
    }
    let dealt = if record.rules.variant.is_suited() {
        dalmuti_core::Hand::pack_deal(&record.rules, players, start, &mut DealRng::new(seed)).1
    } else {
        Deck::for_table(&record.rules, players).deal(players, &mut DealRng::new(seed))
    };
    for (seat, (name, recorded)) in deal.iter().enumerate() {
        let expected = dealt.as_slice(players)[seat];
        if expected != *recorded {
            check.mismatches.push(Mismatch {
                player: name.clone(),
                seat,
                expected,
                recorded: *recorded,
            });
        }
    }
    if check.problems.is_empty() && check.mismatches.is_empty() {
        check.status = Status::Verified;
    }
    check
}

/// Checks the seating draw against the draw seed: the draw deals from the
/// first hand's deck, shuffled by the seed's stream, one card to each
/// player in order of arrival (the order of the record's first round),
/// then one to each player still tied, round after round.
fn check_draw(record: &Record, draw_seed: Option<&str>) -> DrawCheck {
    let seed = match (draw_seed, &record.draw) {
        (None, None) => return DrawCheck::None,
        (None, Some(_)) => {
            return DrawCheck::Failed(
                "the record has a seating draw, but the fairness data has no draw seed".into(),
            );
        }
        (Some(text), _) => match text.parse::<Seed>() {
            Ok(s) => s,
            Err(_) => {
                return DrawCheck::Failed(format!(
                    "the draw seed {} is not 64 hexadecimal digits",
                    show(text)
                ));
            }
        },
    };
    let players = record.seating.len();
    let drawn = draw_for_seats(
        players,
        Deck::for_table(&record.rules, players),
        &mut DealRng::new(seed),
    );
    let Some(recorded) = &record.draw else {
        return if drawn.rounds.is_empty() {
            DrawCheck::Unchecked(
                "this seed's draw ran out of cards and broke ties at random, which a record \
                 cannot hold"
                    .into(),
            )
        } else {
            DrawCheck::Failed("the draw seed draws for seats, but the record has no draw".into())
        };
    };
    // The record's first round names every player, in order of arrival.
    let arrival: Vec<&str> = recorded
        .first()
        .map(|r| r.iter().map(|(n, _)| n.as_str()).collect())
        .unwrap_or_default();
    if arrival.len() != players {
        return DrawCheck::Failed(format!(
            "the record's first draw round has {} players, not {players}",
            arrival.len()
        ));
    }
    let words = |round: &[(String, dalmuti_core::Card)]| -> String {
        let mut round = round.to_vec();
        round.sort_by(|a, b| a.0.cmp(&b.0));
        round
            .iter()
            .map(|(n, c)| format!("{} {}", show(n), c.token()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for r in 0..drawn.rounds.len().max(recorded.len()) {
        let expected: Vec<(String, dalmuti_core::Card)> = drawn
            .rounds
            .get(r)
            .map(|round| {
                round
                    .iter()
                    .map(|&(p, c)| (arrival[p].to_string(), c))
                    .collect()
            })
            .unwrap_or_default();
        let got = recorded.get(r).cloned().unwrap_or_default();
        let (e, g) = (words(&expected), words(&got));
        if e != g {
            let show_round = |s: String| if s.is_empty() { "nothing".into() } else { s };
            return DrawCheck::Failed(format!(
                "round {r}: the seed draws {}, but the record has {}",
                show_round(e),
                show_round(g)
            ));
        }
    }
    DrawCheck::Verified(seed.to_string())
}

/// A name or value as it may appear in a message: as is if plain and
/// short, else quoted and cut.
fn show(text: &str) -> String {
    let plain = !text.is_empty()
        && text.chars().count() <= 70
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || " -_.'".contains(c));
    if plain {
        text.to_string()
    } else {
        let short: String = text.chars().take(70).collect();
        format!("{short:?}")
    }
}
