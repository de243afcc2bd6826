//! Tournaments for *The Great Dalmuti* and *Corporate Shuffle*
//! (`--variant corporate-shuffle`): a lineup of bots plays many hands
//! (`dalmuti sim`), in parallel, and the report says who finishes where.
//!
//! ```
//! use dalmuti_arena::{SimArgs, SimConfig, run};
//! let args = SimArgs {
//!     bots: "greedy,random,random,random".into(),
//!     hands: Some(300),
//!     seed: Some("7".into()),
//!     ..SimArgs::default()
//! };
//! let config = SimConfig::new(args).unwrap();
//! let report = run(&config, |_hands_so_far| {}).unwrap();
//! assert_eq!(report.bots[0].label, "greedy");
//! assert_eq!(report.bots[3].label, "random#3");
//! assert!(report.bots[0].mean_place < report.bots[1].mean_place);
//! ```
//!
//! # What is played
//!
//! - **Independent hands** (the default, `--hands N`): every hand is dealt
//!   fresh as the first hand of a game, the lineup in a random seat order
//!   drawn for that hand. Titles are those random seats: taxes are paid by
//!   them (or skipped under the first-deal revolution).
//! - **Games** (`--games G --hands-per-game H`): the first hand is seated at
//!   random, then titles, taxes and scores carry over as the rules say.
//! - **Duplicate** (`--duplicate`): every deal (in games, every game, with
//!   the same seed, so the same shuffles) is played once per rotation of the
//!   lineup round the table, so each bot holds each seat's cards. Before
//!   every hand each bot's randomness restarts from a seed of the deal and
//!   the seat ([`dalmuti_bots::Bot::reseed`]), the same whichever bot sits
//!   there.
//!
//! Every deal's shuffle, seating and bot seeds come from the run's seed and
//! the deal's index (the game's, in games mode), through separate streams
//! of a ChaCha8 keyed by the seed. Work units (64 independent deals, or one
//! game, with all their rotations) run on a thread pool; each builds its
//! bots once. Their counts are folded, and the ratings updated, in unit
//! order. So a seed gives the same report on any number of threads.
//!
//! A bot that fails a decision (an error, or an action that is not legal)
//! has [`dalmuti_bots::fallback`] played for it, and the fault is counted
//! by kind.
//!
//! # The report
//!
//! Per lineup entry ([`BotReport`]; as JSON, the `bots` array):
//!
//! | field | meaning |
//! |---|---|
//! | `label` | the bot, with `#2`, `#3`… for further copies of the same bot |
//! | `spec` | the bot as `--bots` names it |
//! | `hands` | hands played: every hand of the run |
//! | `mean_place` | mean finishing place, 1 = first out, n = last |
//! | `ci95_low`, `ci95_high` | 95% confidence interval of the mean place (below) |
//! | `first_rate`, `last_rate` | share of hands finished first, last |
//! | `points`, `points_per_hand` | standard scoring (n − place points a hand), whatever `--scoring` says |
//! | `rating`, `rating_sigma` | Weng-Lin rating μ and its uncertainty σ (skillratings' defaults: 25 and 25/3), updated hand by hand from the finishing order, every bot a one-player team |
//! | `places` | how many hands it finished 1st, 2nd… last |
//! | `faults` | failed decisions: `crashed`, `timed_out`, `garbage`, `illegal` |
//!
//! **The confidence interval** is mean ± 1.96 s / √B, where the run is cut
//! into B independent blocks, s is the sample standard deviation of the
//! bot's mean place per block, and the mean is that of the block means
//! (every bot plays every hand, so blocks are the same size). A block is a
//! hand for independent hands; a deal with all its rotations in duplicate
//! runs, so the correlation between rotations of a deal is accounted for
//! honestly (and n copies of one deterministic bot get an interval of width
//! 0); a game with all its rotations in games mode, since hands of a game
//! are not independent. It is a normal approximation: with only a few
//! blocks it is too narrow. `null` with a single block.
//!
//! The rest of the report ([`SimReport`]):
//!
//! | field | meaning |
//! |---|---|
//! | `players`, `mode` (`hands` or `games`), `games`, `hands_per_game` | what was played |
//! | `deals` | independent hands, or games × hands per game |
//! | `duplicate`, `rotations` | duplicate play: each deal played `rotations` times (n, or 1) |
//! | `hands` | hands played in all: deals × rotations |
//! | `seed` | the run's seed, as `--seed` takes it |
//! | `rules` | `variant` (`dalmuti` or `corporate-shuffle`), `stripped_deck`, `first_deal_revolution`, `merchant_exchange`, `scoring` |
//! | `seat_places` | finishing place by title during play: `rows` (titles in the game's words, Greater Dalmuti or Big Boss first), `columns` (`1st`…), `counts`, `rates` (each row's share) |
//! | `mobility` | games mode only (else `null`): the title held in the next hand of the game by the title held in this one, same layout |
//! | `timing` | `threads`, `wall_seconds`, `hands_per_second`: the only part that differs between two runs of the same seed |
//!
//! Titles are those in force during play: after a greater revolution the
//! reversed seats count (the former Greater Peon is the Greater Dalmuti of
//! that hand). In President and Daifugō a title is a class (the last
//! hand's place), not a seat round the table, and a hand without classes
//! (a game's first, every independent hand) counts in neither table. Mobility rows with no data (there are none in games of two
//! hands or more) are all zeros; others sum to 1.
//!
//! `--csv` prints one row per bot: see [`SimReport::to_csv`] for its
//! columns, the same values as the JSON.
//!
//! `--json FILE` writes the JSON to FILE and prints the table.
//!
//! `--ladder A,B,C` plays a round-robin ladder of bots instead of one
//! lineup: see the [`ladder`] module. `--pool BOT` measures one bot
//! against tables of each of several styles, beside a baseline in its
//! seat: see the [`pool`] module.
//!
//! `--records DIR` writes each game as a game record (`dalmuti check`
//! accepts it): `hand-{deal}-r{rotation}.json` for independent hands (each
//! a one-hand game), `game-{game}-r{rotation}.json` for games, the
//! rotation 0 unless duplicate.

mod config;
mod error;
pub mod ladder;
mod play;
mod plot;
pub mod pool;
mod report;
mod run;
mod seeds;
mod stats;
mod units;

pub use config::{
    ConfigError, DEFAULT_HANDS, Entry, Format, MAX_RECORDS, Mode, SimArgs, SimConfig, parse_seed,
    seed_text,
};
pub use error::SimError;
pub use ladder::{LadderConfig, LadderReport, bradley_terry, run_ladder};
pub use play::Faults;
pub use plot::{PlotError, plot_ladder_svg, plot_svg};
pub use pool::{PoolConfig, PoolReport, run_pool};
pub use report::{BotReport, Matrix, RulesReport, SimReport, Timing, title_name};
pub use run::{HANDS_PER_UNIT, run};

#[cfg(test)]
mod tests;
