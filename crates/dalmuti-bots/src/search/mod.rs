//! The search bot: information-set Monte-Carlo tree search for play, with
//! a model of the other players.
//!
//! - `config`: the budget per decision, the opponent model and the playout
//!   policy, as written on a command line.
//! - `tree`: the tree of actions shared by every determinization, UCB1
//!   with availability counts.
//! - `playout`: determinizations from what the seat knows, and the policy
//!   that plays them to the end. In Corporate Shuffle each
//!   determinization replays the trick in progress from its lead, so that
//!   the Wedgie's victim and Ratbert's return carry into the search.
//! - `worker`: one thread's search with its own tree. Dogberts played
//!   alone are weighed at two declared values only (the best, and the worst
//!   that tops), which are the cases that differ.
//!
//! - `belief`: what each other seat holds and what kind of player it is,
//!   weighted by what it did this hand (`opponents=infer`, the default).
//! - `model`: the kinds of player the others are modelled as.
//! - `setup`: setup choices (the tax gift, the revolution call, the
//!   merchant exchange) weighed by play-outs of the hand that follows.
//!
//! Play decisions (lead, follow or pass) are searched in a tree; setup
//! choices by flat play-outs of a few candidates ([`SetupSearch`]).
//!
//! By default the other players are not in the tree: between two of the
//! searching seat's decisions they play as modelled, with the cards each
//! determinization deals them (an opponent model, as the strongest Daifugō
//! programs use one), so every iteration spends its tree on the searching
//! seat's own choices. Each other seat is modelled as the kind of player
//! its plays this hand make likely (the heuristic bot, the greedy bot or a
//! random player), and the determinizations are weighted by how likely
//! they make those plays: a model that assumed everyone plays like our
//! heuristic was strong only at tables of our heuristic
//! (docs/PERFORMANCE.md, "Against every style"). The play-outs play the
//! others by their model too and the searching seat by the learned policy
//! ([`crate::learned`]), whose choice at the root gets a head start
//! (`bias`) that only a clearly better average overturns: the learned
//! policy is a better player than the heuristic, and a better player in
//! the play-outs and as the search's prior is what made the search strong
//! against players close to the heuristic. `opponents=tree` is plain single-observer
//! ISMCTS, where each player chooses in the tree for itself.

mod belief;
mod config;
mod model;
mod playout;
mod setup;
mod tree;
mod worker;

use std::fmt;
use std::time::Duration;

use crate::clock::Instant;

use dalmuti_core::{Action, Decision, Stage, View};
use rand::RngCore;

pub use config::{Opponents, Playout, SearchConfig, Setup};
pub use setup::SetupSearch;

use crate::knowledge::Knowledge;
use crate::{Bot, BotFault, BotRng, HeuristicBot, LearnedBot, bot_rng};
use belief::PARTICLES;
use model::Kind;
use playout::Table;
use worker::{Budget, Deals, MOVES_PER_ITERATION, RootStats};

/// Information-set Monte-Carlo tree search (single observer, Cowling et
/// al.) for play decisions, with the others modelled by the heuristic bot.
///
/// Each iteration deals the cards the seat cannot see at random,
/// consistently with what it knows ([`Knowledge::sample`]), descends a tree
/// of the seat's actions shared by all such deals (the others playing as
/// the heuristic would on the way), adds one node, plays the hand out with
/// a fast policy and backs up the reward for the finishing place. The bot
/// plays the root action visited most.
///
/// With an iteration budget the bot is deterministic for its seed, with
/// any number of threads: each thread has a generator seeded from the
/// bot's, its own tree, and the roots are merged in thread order.
///
/// ```
/// use dalmuti_bots::{Bot, SearchBot, SearchConfig};
/// use dalmuti_core::{DealRng, Hand, Rules, Seed, Stage, View, Viewer};
/// let mut hand = Hand::deal(Rules::default(), 4, false, &mut DealRng::new(Seed::from(3)));
/// let config: SearchConfig = "iterations=50".parse().unwrap();
/// let mut bot = SearchBot::new(config, 7);
/// while let Some(seat) = hand.next_to_act() {
///     let view = View::new(&hand, Viewer::Seat(seat));
///     let legal = view.legal_actions();
///     let action = bot.decide(&view, &legal).unwrap();
///     hand.apply(seat, action).unwrap();
/// }
/// assert_eq!(hand.stage(), Stage::Over);
/// ```
pub struct SearchBot {
    config: SearchConfig,
    rng: BotRng,
    heuristic: HeuristicBot,
    learned: LearnedBot,
    setup: SetupSearch,
    last: Option<SearchStats>,
    /// The most a decision may take, whatever the budget.
    cap: Option<Duration>,
}

/// Sampled deals over which each candidate setup choice is played out:
/// some 40 ms for a Dalmuti's four candidate gifts on one core.
const SETUP_DEALS: u32 = 128;

/// What the last search did, for benchmarks and the curious.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats {
    /// Iterations run, over every thread.
    pub iterations: u64,
    /// Tree nodes built, over every thread.
    pub nodes: usize,
    /// How long the search took.
    pub elapsed: Duration,
    /// The visits of each legal action at the root, over every thread, in
    /// the order of the legal actions: how the search spread its thought,
    /// which a learned policy is trained to match.
    pub visits: Vec<(Action, u64)>,
}

impl SearchBot {
    /// A search bot thinking as `config` says, its randomness seeded by
    /// `seed`.
    pub fn new(config: SearchConfig, seed: u64) -> SearchBot {
        SearchBot {
            config,
            rng: bot_rng(seed),
            heuristic: HeuristicBot::new(seed),
            learned: LearnedBot::new(seed),
            setup: SetupSearch::new(SETUP_DEALS, seed),
            last: None,
            cap: None,
        }
    }

    /// The same bot, thinking at most `cap` a decision whatever its
    /// budget: on a slow device (a phone running the browser's offline
    /// engine) it plays a little weaker rather than keep its player
    /// waiting; where the budget is spent sooner, it plays as before.
    pub fn capped(mut self, cap: Duration) -> SearchBot {
        self.cap = Some(cap);
        self
    }

    /// How much it thinks.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// What its last search did (`None` before any search: decisions with
    /// one legal action and those outside play are not searched).
    pub fn last_search(&self) -> Option<&SearchStats> {
        self.last.as_ref()
    }

    /// How many deals to weigh for `opponents=infer`: each iteration
    /// draws one, so a small budget needs fewer (a fourth as many as it
    /// has iterations, a budget of moves read as iterations of
    /// [`MOVES_PER_ITERATION`]), and weighing more would cost more than
    /// the search.
    fn particles(&self) -> usize {
        let iterations = match (self.config.time, self.config.moves) {
            (Some(_), _) => return PARTICLES,
            (None, Some(moves)) => moves / MOVES_PER_ITERATION,
            (None, None) => u64::from(self.config.iterations),
        };
        usize::try_from(iterations / 4).map_or(PARTICLES, |n| n.clamp(1, PARTICLES))
    }

    /// The choice given a head start at the root: the learned policy's
    /// when it plays the seat's play-outs, else the heuristic's.
    fn favourite(&mut self, view: &View<'_>, legal: &[Action]) -> Option<Action> {
        match self.config.playout {
            Playout::Learned => self.learned.decide(view, legal).ok(),
            _ => self.heuristic.decide(view, legal).ok(),
        }
    }

    /// Searches a play decision with more than one legal action.
    fn search(&mut self, view: &View<'_>, legal: &[Action]) -> Action {
        let started = Instant::now();
        let knowledge = Knowledge::from_view(view);
        let table = Table::of(view, &knowledge);
        let belief = match self.config.opponents {
            Opponents::Infer => {
                belief::infer(view, &knowledge, &table, self.particles(), &mut self.rng)
            }
            _ => None,
        };
        let deals = Deals {
            knowledge: &knowledge,
            belief: belief.as_ref(),
            kind: match self.config.opponents {
                Opponents::Greedy => Kind::Greedy,
                Opponents::Style(style) => Kind::Style(style),
                Opponents::Heuristic | Opponents::Tree | Opponents::Infer => Kind::Heuristic,
            },
            favourite: (self.config.bias > 0)
                .then(|| self.favourite(view, legal))
                .flatten(),
        };
        let threads = self.config.threads.max(1);
        // Seeds drawn in thread order: the same for the same bot seed.
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.next_u64()).collect();
        let deadline = self.cap.map(|cap| started + cap);
        let budget = |t: usize| match (self.config.time, self.config.moves) {
            (Some(time), _) => {
                Budget::Until(deadline.map_or(started + time, |d| d.min(started + time)))
            }
            (None, Some(moves)) => {
                let extra = u64::from((t as u64) < moves % threads as u64);
                let moves = moves / threads as u64 + extra;
                match deadline {
                    Some(deadline) => Budget::MovesUntil(moves, deadline),
                    None => Budget::Moves(moves),
                }
            }
            (None, None) => {
                // Split as evenly as possible, the first threads taking the
                // remainder.
                let n = self.config.iterations;
                let extra = u32::from((t as u32) < n % threads as u32);
                Budget::Iterations(n / threads as u32 + extra)
            }
        };
        let config = &self.config;
        let run = |t: usize| worker::search(config, &table, &deals, bot_rng(seeds[t]), budget(t));
        let results: Vec<RootStats> = if threads == 1 {
            vec![run(0)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || run(t))).collect();
                // Joined in thread order, whatever order they finish in.
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .collect()
            })
        };
        self.last = Some(SearchStats {
            iterations: results.iter().map(|r| r.iterations).sum(),
            nodes: results.iter().map(|r| r.nodes).sum(),
            elapsed: started.elapsed(),
            visits: legal
                .iter()
                .map(|&action| (action, visits_of(action, &results).0))
                .collect(),
        });
        most_visited(legal, &results)
    }
}

/// The legal action with the most visits over every tree; ties go to the
/// higher total reward, then to the first in `legal` (the worst set).
fn most_visited(legal: &[Action], results: &[RootStats]) -> Action {
    let mut best = legal[0];
    let mut best_key = (0u64, f64::NEG_INFINITY);
    for &action in legal {
        let key = visits_of(action, results);
        if key.0 > best_key.0 || (key.0 == best_key.0 && key.1 > best_key.1) {
            best = action;
            best_key = key;
        }
    }
    best
}

/// The visits of `action` at the root over every tree, and its total
/// reward.
fn visits_of(action: Action, results: &[RootStats]) -> (u64, f64) {
    let mut key = (0u64, 0.0);
    for result in results {
        for &(a, visits, reward) in &result.children {
            if a == action {
                key.0 += u64::from(visits);
                key.1 += reward;
            }
        }
    }
    key
}

impl fmt::Debug for SearchBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchBot")
            .field("config", &self.config)
            .field("last", &self.last)
            .finish_non_exhaustive()
    }
}

impl Bot for SearchBot {
    fn name(&self) -> &str {
        "search"
    }

    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        // President and Daifugō: the rules of thumb of the pack's games
        // (a bot built by name plays them through `climb`; this keeps a
        // bot made directly from playing them with Dalmuti's reckoning).
        if view.variant().is_suited() {
            return Ok(crate::climb::pack_choice(view, legal));
        }
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        match view.decision() {
            Some(Decision::Lead | Decision::Follow { .. }) => Ok(self.search(view, legal)),
            Some(_) if view.stage() == Stage::Setup && self.config.setup == Setup::Search => {
                match self.setup.choose(view, legal) {
                    Some(choice) => Ok(choice),
                    None => self.heuristic.decide(view, legal),
                }
            }
            _ => self.heuristic.decide(view, legal),
        }
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
        self.heuristic.reseed(seed);
        self.setup.reseed(seed);
    }
}
