//! A round-robin ladder (`dalmuti sim --ladder A,B,C`): every pair of bots
//! meets at shared tables, each deal replayed in every seating, and the
//! bots are ranked by a rating with a 95% interval.
//!
//! ```
//! use dalmuti_arena::{LadderConfig, SimArgs, run_ladder};
//! let args = SimArgs {
//!     ladder: Some("random,greedy".into()),
//!     players: Some(4),
//!     hands: Some(40),
//!     seed: Some("1".into()),
//!     ..SimArgs::default()
//! };
//! let report = run_ladder(&LadderConfig::new(args).unwrap(), |_| {}).unwrap();
//! assert_eq!(report.bots[0].label, "greedy");
//! assert!(report.bots[0].rating > report.bots[1].rating);
//! assert_eq!(report.hands, 40 * 4);
//! ```
//!
//! # What is played
//!
//! For every pair (A, B) of the listed bots, in listed order, the pair
//! plays `--hands` deals (1000 by default) at tables of `--players` seats
//! (5 by default) filled by copies of the two, alternating round the
//! table: `ABABA` and `BABAB` at an odd table (each bot has the extra
//! seat once), `ABAB` at an even one. Each pattern is played in every
//! rotation of the seats, with the same cards and the same per-seat bot
//! randomness (as `--duplicate` does), so over a deal each bot holds
//! every seat's cards equally often and the luck of the deal cancels out.
//! Every pair plays the same deals (deal i's cards come from the seed and
//! i), which makes the pairs' results comparable too. Each unit of work
//! (64 deals of one pair in one pattern) builds its own bots; an external
//! bot (`cmd:`) is a process per copy per unit.
//!
//! A bot that fails a decision has [`dalmuti_bots::fallback`] played for
//! it and the fault counted; a bot that cannot start stops the run with an
//! error naming it.
//!
//! # The numbers
//!
//! - **Rating** ([`bradley_terry`]): in every hand, every copy of A is
//!   compared with every copy of B: A wins the comparison if it finished
//!   ahead. The ratings are the Bradley–Terry fit to all those wins, on
//!   the Elo scale, the ladder's mean 0 (so adding a bot moves the others;
//!   differences are what count). **Why Bradley–Terry**: the ladder is a
//!   round robin played all at once, so a batch maximum-likelihood fit
//!   uses every pair's result with the right weight and does not depend on
//!   the order hands were played, unlike incremental Elo or Weng–Lin
//!   updates (which `dalmuti sim` uses for one lineup and whose σ is not a
//!   confidence interval). The pairwise comparison is the natural unit of a
//!   game whose result is a finishing order.
//! - **Rating interval**: the 2.5th and 97.5th percentiles of the fit over
//!   1000 bootstrap resamples of the deals (one resample of deal indices
//!   for every pair, as they share deals), drawn from the run's seed. A
//!   deal is the unit resampled because its seatings are strongly
//!   correlated (same cards).
//! - **Mean place** (1 = first out): per deal, the bot's mean place over
//!   its copies and hands against each opponent, averaged over opponents;
//!   the interval is mean ± 1.96 s/√D over the D deals.
//! - **Pairwise matrix**: A's mean place advantage over B (B's mean place
//!   minus A's, in their pair's hands) with the same normal interval over
//!   deals, and the share of comparisons A won.
//!
//! The results depend only on the configuration and the seed, not on
//! `--threads`: units are independent and combined in order. (Bots limited
//! by time, such as `search:ms=50`, play differently on a faster or busier
//! machine, so only their ladders vary; `search:iterations=N` does not.)
//!
//! # The JSON (`--json`, `--json FILE`)
//!
//! [`LadderReport`], fields stable within `format` `dalmuti-ladder/1`:
//!
//! | field | meaning |
//! |---|---|
//! | `format` | `dalmuti-ladder/1` |
//! | `command` | the command that repeats the run, seed included |
//! | `seed` | the run's seed, as `--seed` takes it |
//! | `players`, `deals_per_pair`, `patterns`, `hands_per_pair`, `hands` | what was played (`patterns` such as `ABABA`: A the pair's first bot in listed order) |
//! | `rules` | `variant`, `stripped_deck`, `first_deal_revolution`, `merchant_exchange`, `scoring` |
//! | `method` | the rating model and intervals in words, `bootstrap_samples`, `prior_wins` |
//! | `bots` | best first: `rank`, `label`, `spec`, `rating`, `rating_ci95_low`, `rating_ci95_high`, `mean_place`, `mean_place_ci95_low`, `mean_place_ci95_high`, `win_rate`, `hands`, `faults` (`crashed`, `timed_out`, `garbage`, `illegal`) |
//! | `matrix` | `bots` (labels, best first), then `[row][column]` matrices: `advantage` (places the row bot finished ahead of the column bot), `ci95_low`, `ci95_high`, `win_rate`; `null` on the diagonal |
//! | `timing` | `threads`, `wall_seconds`, `hands_per_second`: the only part that differs between runs of the same command |

mod config;
mod fit;
mod pairs;
mod report;

use std::time::Instant;

pub use config::{LADDER_DEFAULT_DEALS, LadderConfig};
pub use fit::{BOOTSTRAP_SAMPLES, PRIOR_WINS, bradley_terry};
pub use report::{LADDER_FORMAT, LadderBot, LadderReport, Method, PairMatrix};

use crate::error::SimError;

/// Plays the ladder `config` describes and reports on it. `progress` is
/// called, from any thread, with the hands played so far.
///
/// ```
/// use dalmuti_arena::{LadderConfig, SimArgs, run_ladder};
/// let args = SimArgs {
///     ladder: Some("greedy,random,random".into()),
///     players: Some(3),
///     hands: Some(20),
///     seed: Some("5".into()),
///     ..SimArgs::default()
/// };
/// let config = LadderConfig::new(args).unwrap();
/// let one = run_ladder(&config.clone().with_threads(1), |_| {}).unwrap();
/// let two = run_ladder(&config.with_threads(2), |_| {}).unwrap();
/// assert_eq!(one.results_json(), two.results_json());
/// assert_eq!(one.bots.len(), 3);
/// assert!(one.to_text().contains("random#2"));
/// ```
pub fn run_ladder(
    config: &LadderConfig,
    progress: impl Fn(u64) + Sync,
) -> Result<LadderReport, SimError> {
    let start = Instant::now();
    let pairs = pairs::play_pairs(config, progress)?;
    Ok(LadderReport::new(config, &pairs, start.elapsed()))
}

#[cfg(test)]
mod tests;
