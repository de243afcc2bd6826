//! The rules engine of Richard Garfield's *The Great Dalmuti* and of its
//! family: *Corporate Shuffle*, and the games of the 52-card pack it comes
//! from, President and Daifugō (大富豪, as the UECda computer contest plays
//! it, and with the house rules players argue about). Each game is a rule
//! set of this one engine: [`Rules`] with a [`Variant`] and, for the pack's
//! games, [`Climbing`] options.
//!
//! Everything else in `dalmuti` (bots, simulations, the terminal game, the
//! server) stands on this crate. It has no I/O, no threads and no async:
//! just the game.
//!
//! - [`Card`], [`Rank`], [`Cards`] and [`Set`]: the deck's words; for the
//!   pack, [`Suit`], [`Card::suited`], [`Card::JOKER`], and [`Set`]'s kinds
//!   ([`SetKind`]: sets of one rank with Jokers standing for suits,
//!   same-suit sequences, the lone Joker).
//! - [`Deck`]: the deck as data; [`DealRng`] and [`Seed`]: replayable deals.
//! - [`Hand`]: one hand as a state machine that says who must decide what
//!   ([`Hand::decision`]), lists the legal actions and applies one or
//!   refuses it with an [`IllegalAction`], leaving the hand untouched.
//! - [`View`]: what one seat may know; the only window players get.
//! - [`Game`]: hands in series, with titles, taxes, scores, newcomers.
//! - [`record`]: game records (`dalmuti-record/1`; `dalmuti-record/2` for
//!   the pack's games), read, checked and written (told in words, in every
//!   language, by `dalmuti-terminal`).
//!
//! ```
//! use dalmuti_core::{Action, Decision, Game, Rules, Seed, Viewer};
//! let names = ["Amity", "Anton", "Cherise", "Dana", "Sondra"].map(String::from).to_vec();
//! let mut game = Game::new(Rules::default(), names, Seed::from(1)).unwrap();
//! let seat = game.hand().next_to_act().unwrap();
//! let view = game.view(Viewer::Seat(seat));
//! let action = view.legal_actions()[0];
//! game.apply(seat, action).unwrap();
//! // A seat that is not to act is refused, and nothing changes.
//! let before = game.hand().clone();
//! let idle = game.hand().holding().iter().find(|&s| game.hand().decision(s).is_none()).unwrap();
//! assert!(game.apply(idle, Action::Pass).is_err());
//! assert_eq!(game.hand(), &before);
//! ```

mod action;
mod card;
mod cards;
mod climbing;
mod deck;
mod draw;
mod event;
mod game;
mod hand;
mod idle;
pub mod record;
mod rng;
mod rules;
mod seat;
mod set;

mod variant;
mod view;
pub mod wire;

pub use action::{
    Action, ActionList, Decision, Illegal, IllegalAction, MAX_ACTIONS, RevolutionOffer,
};
pub use card::suit::{ABOVE_TWO, Suit, TOP_PLACE, place_word};
pub use card::{BadCard, CARD_KINDS, Card, Rank};
pub use cards::Cards;
pub use climbing::{Climbing, FirstLead, Lock};
pub use deck::{Deck, MAX_DECK, deal_in_order};
pub use draw::{BadDraw, DrawRound, SeatingDraw, check_draw, draw_for_seats};
pub use event::{Effect, Event, MerchantTrade, TaxPayment};
pub use game::{Game, HandLog, PlayerId, TableError, join_seats};
pub use hand::{BadDeal, BadPosition, Hand, PlayPosition, Revolution, Stage};
pub use idle::IdleRule;
pub use rng::{BadSeed, DealRng, Seed};
pub use rules::{BadRules, BadScoring, Rules, Scoring};
pub use seat::{MAX_PLAYERS, MIN_PLAYERS, PerSeat, Seat, Seats, Title};
pub use set::{DECLARED_VALUES, JESTERS_ALONE_RANK, NotASet, Set, SetKind};
pub use variant::{BadVariant, Variant, Words};
pub use view::{
    ExchangeSnapshot, LogEntry, OfferSnapshot, RevolutionSnapshot, SeatSnapshot, Seen,
    TableSnapshot, View, ViewSnapshot, Viewer,
};
