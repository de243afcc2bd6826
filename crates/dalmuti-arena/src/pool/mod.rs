//! A bot against every pool (`dalmuti sim --pool BOT`): how much better it
//! plays than a baseline (the heuristic, by default) in the same seat,
//! against tables of each of several styles and at a mixed table.
//!
//! ```
//! use dalmuti_arena::{PoolConfig, SimArgs, run_pool};
//! let args = SimArgs {
//!     pool: Some("heuristic".into()),
//!     baseline: Some("greedy".into()),
//!     pools: Some("random,greedy".into()),
//!     players: Some(4),
//!     hands: Some(16),
//!     seed: Some("1".into()),
//!     ..SimArgs::default()
//! };
//! let report = run_pool(&PoolConfig::new(args).unwrap(), |_| {}).unwrap();
//! assert_eq!(report.rows.len(), 3); // random, greedy, mixed
//! assert!(report.rows.iter().all(|r| r.lead.mean > 0.0));
//! ```
//!
//! # What is played
//!
//! For each pool bot P, on the same `--hands` deals (1000 by default),
//! each in every rotation of the seats (as `--duplicate` plays them):
//!
//! - the measured bot in one seat, copies of P in the others;
//! - the baseline in that seat instead, against the same;
//! - P in that seat among copies of the baseline: whether P's style
//!   exploits the baseline (the baseline is not exploited when its place
//!   among copies of P is no worse than P's among copies of it).
//!
//! With two pools or more, a **mixed table** too: the other seats hold one
//! pool bot each, in turn round the pools from one unit of 8 deals to the
//! next, so every pool sits in every place; the measured bot and the
//! baseline each play it.
//!
//! Every seat's bot is seeded from the deal and the seat, as in
//! `--duplicate`, so the measured bot and the baseline face the very same
//! opponents' randomness.
//!
//! # The numbers
//!
//! Mean place (1 = first out), over the deals, each deal's mean over its
//! rotations; the interval is mean ± 1.96 s/√D over the D deals (a deal's
//! rotations are strongly correlated, so the deal is the unit). The
//! **lead** is the baseline's mean place minus the measured bot's, deal by
//! deal, with the interval of that paired difference: narrower than the
//! two intervals apart, since both played the same cards against the same
//! opponents.
//!
//! The JSON (`--json`, `--json FILE`) is a [`PoolReport`], format
//! `dalmuti-pool/1`.

mod config;
mod play;
mod report;

use std::time::Instant;

pub use config::{DEFAULT_BASELINE, DEFAULT_POOLS, POOL_DEFAULT_DEALS, PoolConfig};
pub use report::{POOL_FORMAT, Place, PoolReport, PoolRow};

use crate::error::SimError;

/// Plays the pool run `config` describes and reports on it. `progress` is
/// called, from any thread, with the hands played so far.
pub fn run_pool(
    config: &PoolConfig,
    progress: impl Fn(u64) + Sync,
) -> Result<PoolReport, SimError> {
    let start = Instant::now();
    let results = play::play(config, progress)?;
    Ok(PoolReport::new(config, &results, start.elapsed()))
}

#[cfg(test)]
mod tests;
