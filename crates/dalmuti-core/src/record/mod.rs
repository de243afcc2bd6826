//! Game records, format `dalmuti-record/1` (`shared/specs/game-record.md`):
//! one JSON document with the rules, the seating draw and every hand's deal,
//! revolution, taxes, exchange and plays. Omniscient: for replays, analysis
//! and tests, never for a player during play. President and Daifugō are
//! recorded as `dalmuti-record/2` (`docs/RECORDS.md`): the pack's cards
//! (`10H`, `JK`), plays with Jokers standing for cards (`9H JK as 9S`,
//! `5H JK 7H`), the rule set's options (`rules.climbing`), a game's new
//! seating and a stalemate's places.
//!
//! - [`check`] reads a record, replays it under the rules and reports what
//!   `dalmuti check` prints, or the first fault with its hand and play.
//! - [`Record::from_game`] writes any game the engine plays, and
//!   [`Record::replay`] turns a record back into that [`Game`](crate::Game).
//!
//! ```
//! use dalmuti_core::record::{check, Checked, Record};
//! use dalmuti_core::{Game, Rules, Seed};
//! let names = ["Ada", "Bo", "Cy", "Di"].map(String::from).to_vec();
//! let mut game = Game::new(Rules::default(), names, Seed::from(5)).unwrap();
//! while let Some(seat) = game.hand().next_to_act() {
//!     game.apply(seat, game.hand().worst_legal(seat).unwrap()).unwrap();
//! }
//! let text = Record::from_game(&game).to_json_string();
//! let Checked::Valid(report) = check(&text) else { panic!("invalid") };
//! assert!(report.hands[0].finished);
//! assert_eq!(Record::parse(&text).unwrap(), Record::from_game(&game));
//! ```

mod read;
mod write;

pub use read::{Checked, Fault, HandReport, ReadError, Report, check};

use crate::card::Card;
use crate::cards::Cards;
use crate::rules::Rules;
use crate::set::Set;

/// The value of a record's `format` field for Dalmuti and Corporate
/// Shuffle.
pub const FORMAT: &str = "dalmuti-record/1";

/// The value of a record's `format` field for the games of the 52-card
/// pack, President and Daifugō (`docs/RECORDS.md`): version 1 with the
/// pack's card tokens, sequences, the rule set's options (`climbing`), the
/// seats drawn again (`seating` in a hand) and a stalemate's places.
pub const FORMAT_SUITED: &str = "dalmuti-record/2";

/// A seating draw as recorded: rounds of (name, card).
pub type DrawRecord = Vec<Vec<(String, Card)>>;

/// A game record, read and checked (or written from a game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The rules in force.
    pub rules: Rules,
    /// The seating draw, round by round: (name, card).
    pub draw: Option<DrawRecord>,
    /// The first hand's players, Greater Dalmuti first.
    pub seating: Vec<String>,
    /// The hands in order; only the last may be unfinished.
    pub hands: Vec<HandRecord>,
}

/// One hand of a record.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct HandRecord {
    /// Players who left before this hand.
    pub leave: Vec<String>,
    /// Newcomers, each with the 0-based seat after its insertion.
    pub join: Vec<(String, usize)>,
    /// Each seated player's cards as dealt, in seating order.
    pub deal: Vec<(String, Cards)>,
    /// Who called a revolution.
    pub revolution: Option<String>,
    /// The Dalmutis' tax gifts, when taxes were collected.
    pub tax: Option<Vec<(String, Cards)>>,
    /// The merchant exchange: the highest Merchant's card, then the other's.
    pub merchant_exchange: Option<[(String, Card); 2]>,
    /// Every play in order.
    pub plays: Vec<PlayRecord>,
    /// The holder of both Jesters declined a revolution (the project's own
    /// field `"declined": ["revolution"]`, so a game saved right after the
    /// decision replays exactly; a missing revolution is otherwise read as
    /// declined once anything follows it).
    pub declined_revolution: bool,
    /// The highest Merchant declined the merchant exchange (`"declined":
    /// ["merchant_exchange"]`).
    pub declined_exchange: bool,
    /// A merchant exchange offered and not yet answered, in a game saved
    /// in progress: (offerer, partner, card), written as `"merchant_offer":
    /// {"from", "to", "card"}`.
    pub merchant_offer: Option<(String, String, Card)>,
    /// Players who had said ready, in a game saved before the hand's first
    /// play (the project's own field `"ready"`, so that such a game replays
    /// exactly; once a set is played everyone was ready, and it is left
    /// out).
    pub ready: Vec<String>,
    /// President and Daifugō (format 2): the seats drawn again before this
    /// game, first seat first.
    pub seating: Option<Vec<String>>,
    /// President and Daifugō: the players still holding cards when too many
    /// passes in a row ended the game, in the places drawn for them.
    pub stalemate: Option<Vec<String>>,
}

/// One line of a hand's `plays`: `"Name: cards"`, `"Name: D D as 3"`,
/// `"Name: 6 T wedgie Other"` or `"Name: pass"`; in President and
/// Daifugō also `"Name: give 3C 4D"` (7-pass) and `"Name: discard 5H"`
/// (10-discard).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayRecord {
    /// Who played or passed.
    pub player: String,
    /// The set, or `None` for a pass (or a line of cards given or
    /// discarded).
    pub set: Option<Set>,
    /// The player the Twirling Wedgie names (Corporate Shuffle).
    pub wedgie: Option<String>,
    /// Cards given to the next player or discarded after a play of 7s or
    /// 10s (President and Daifugō; then `set` is `None`).
    pub settled: Option<Settled>,
}

/// Cards a player gave or discarded after a play, in one line of a
/// record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Given to the next player (7-pass): `"Name: give 3C 4D"`.
    Give(Cards),
    /// Discarded (10-discard): `"Name: discard 5H"`.
    Discard(Cards),
}

impl std::fmt::Display for PlayRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.set, &self.wedgie, &self.settled) {
            (_, _, Some(Settled::Give(cards))) => write!(f, "{}: give {cards}", self.player),
            (_, _, Some(Settled::Discard(cards))) => {
                write!(f, "{}: discard {cards}", self.player)
            }
            (None, _, None) => write!(f, "{}: pass", self.player),
            (Some(set), None, None) => write!(f, "{}: {set}", self.player),
            (Some(set), Some(target), None) => {
                write!(f, "{}: {set} wedgie {target}", self.player)
            }
        }
    }
}
