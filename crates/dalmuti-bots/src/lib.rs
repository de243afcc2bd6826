//! Bots for *The Great Dalmuti* and its spinoff *Corporate Shuffle*, and
//! for President and Daifugō: from a random player to a search bot. Every
//! bot plays every game (the view says which: [`View::variant`]; the games
//! of the 52-card pack are played by [`ClimbHeuristic`] and
//! [`ClimbSearch`] behind the heuristic, learned, style and search bots).
//!
//! A [`Bot`] receives a seat's [`View`] and the legal actions, nothing else:
//! the view keeps the hand private, so a bot cannot reach another seat's
//! cards. Every kind of decision goes through [`Bot::decide`]: calling a
//! revolution, choosing tax gifts, the merchant exchange, playing or passing
//! ([`View::decision`] says which).
//!
//! - [`RandomBot`]: uniform over the legal actions.
//! - [`GreedyBot`]: its worst legal set, its worst cards in tax.
//! - [`HeuristicBot`]: strong rules of thumb.
//! - [`LearnedBot`]: a linear policy over the heuristic's reckoning of
//!   each play, its weights evolved against the style bots and shipped in
//!   the repository ([`learned`]).
//! - [`SearchBot`]: information-set Monte-Carlo tree search.
//! - [`StyleBot`]: one clear style each (a racing shedder, a hoarder…),
//!   to measure bots against ([`Style`]).
//! - [`ExternalBot`]: a program in any language speaking the bot protocol
//!   (`docs/BOT-PROTOCOL.md`) on its standard input and output.
//!
//! Bots are named by a [`BotSpec`] (`"random"`, `"greedy"`…) and built with
//! a seed, so a tournament can replay them exactly. Players choose among
//! four [`Level`]s named by strength (`easy`, `normal`, `hard`, `expert`),
//! each one of these bots with a fixed budget.
//!
//! ```
//! use dalmuti_bots::{Bot, BotSpec};
//! use dalmuti_core::{Game, Rules, Seed, Viewer};
//! let names = ["A", "B", "C", "D"].map(String::from).to_vec();
//! let mut game = Game::new(Rules::default(), names, Seed::from(1)).unwrap();
//! let mut bots: Vec<Box<dyn Bot>> =
//!     (0..4).map(|i| "greedy".parse::<BotSpec>().unwrap().build(i).unwrap()).collect();
//! while let Some(seat) = game.hand().next_to_act() {
//!     let player = game.player_at(seat).index();
//!     let view = game.view(Viewer::Seat(seat));
//!     let legal = view.legal_actions();
//!     let action = bots[player].decide(&view, &legal).unwrap();
//!     game.apply(seat, action).unwrap();
//! }
//! ```

pub mod climb;
mod clock;
mod external;
mod greedy;
mod heuristic;
pub mod knowledge;
pub mod learned;
mod level;
pub mod protocol;
mod random;
mod search;
mod spec;
mod style;
mod weighing;

pub use climb::{ClimbHeuristic, ClimbSearch};
pub use external::ExternalBot;
pub use greedy::GreedyBot;
pub use heuristic::HeuristicBot;
pub use learned::{LearnedBot, LearnedPolicy};
pub use level::{BadLevel, Level};
pub use random::RandomBot;
pub use search::{Opponents, Playout, SearchBot, SearchConfig, SearchStats, Setup, SetupSearch};
pub use spec::{BadSpec, BotSpec, DEFAULT_EXTERNAL_TIMEOUT};
pub use style::{Style, StyleBot};

use dalmuti_core::{Action, View};

/// A player of Dalmuti (or Corporate Shuffle) that sees only its own
/// seat's view.
pub trait Bot: Send {
    /// The bot's name in reports, e.g. `greedy`.
    fn name(&self) -> &str;

    /// Chooses one of `legal` (never empty): the legal actions for the
    /// decision that `view.decision()` describes, worst first.
    ///
    /// Built-in bots always answer; a bot in another process may fail, and
    /// says how ([`BotFault`]). The caller then plays [`fallback`].
    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault>;

    /// Restarts the bot's own randomness from `seed`: tournaments reseed
    /// every bot per deal and seat, so a deal replays exactly. Bots without
    /// randomness ignore it.
    fn reseed(&mut self, _seed: u64) {}

    /// Whether the bot always chooses the first legal action (the worst
    /// set, the worst cards, no revolution, no exchange). A runner may then
    /// compute that action directly (`Hand::worst_legal`) without listing
    /// every legal action or asking the bot: the same choice, much faster.
    fn plays_first_legal(&self) -> bool {
        false
    }
}

/// How a bot failed to answer a decision.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotFault {
    /// The bot's process ended or could not be reached.
    #[error("crashed: {0}")]
    Crashed(String),
    /// No answer within the time limit.
    #[error("gave no answer within {0:?}")]
    TimedOut(std::time::Duration),
    /// The answer could not be read as an action.
    #[error("answered something that is not an action: {0}")]
    Garbage(String),
    /// The answer was an action, but not a legal one.
    #[error("answered an illegal action: {0}")]
    Illegal(String),
}

/// The safe action played for a bot that failed: pass if passing is legal,
/// else the first legal action, which is the worst set to play (or the
/// worst cards to give, or no revolution, or no exchange).
///
/// ```
/// use dalmuti_core::Action;
/// let legal = ["9".parse().unwrap(), "8".parse().unwrap()].map(Action::Play);
/// assert_eq!(dalmuti_bots::fallback(&[legal[0], Action::Pass]), Action::Pass);
/// assert_eq!(dalmuti_bots::fallback(&legal), legal[0]);
/// ```
pub fn fallback(legal: &[Action]) -> Action {
    if legal.contains(&Action::Pass) {
        Action::Pass
    } else {
        *legal
            .first()
            .expect("a decision has at least one legal action")
    }
}

/// A bot's random stream: a small fast generator with a fixed algorithm,
/// seeded per deal and seat by tournaments.
pub type BotRng = rand_xoshiro::Xoshiro256PlusPlus;

/// The random stream for `seed`.
pub fn bot_rng(seed: u64) -> BotRng {
    use rand::SeedableRng;
    BotRng::seed_from_u64(seed)
}
