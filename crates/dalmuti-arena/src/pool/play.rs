//! Playing a pool run: every row's lineups on the same deals, in units of
//! a few deals on a thread pool, each deal's places kept.

use dalmuti_bots::{Bot, BotSpec};
use dalmuti_core::MAX_PLAYERS;

use super::PoolConfig;
use crate::error::SimError;
use crate::play::{Faults, Players, Series};
use crate::seeds::{SeedStream, Stream, bot_seed, build_seed};
use crate::units::play_units;

/// Deals in a unit of work: few, so that slow bots (a search of 50 ms a
/// decision plays some 2 s of deals a rotation) spread over every thread.
const DEALS_PER_UNIT: u64 = 8;

/// Who sits in the seats other than the measured one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Others {
    /// Copies of one pool bot (its index in the pools).
    Pool(usize),
    /// One pool bot a seat, in turn round the pools: a unit's seat `j`
    /// (1, 2…) holds pool `(unit + j - 1) mod k`, so every pool sits in
    /// every place equally often over the units.
    Mixed,
    /// Copies of the baseline, with the pool bot (its index) measured.
    Baseline(usize),
}

/// Which bot sits in the measured seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Measured {
    /// The bot under test.
    Candidate,
    /// The baseline in its place.
    Baseline,
    /// A pool bot (its index), among copies of the baseline.
    Pool(usize),
}

/// One lineup played on every deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lineup {
    pub measured: Measured,
    pub others: Others,
}

/// What a lineup gave: the measured seat's places summed over each deal's
/// rotations, and its faults.
#[derive(Clone, Debug)]
pub(crate) struct LineupResult {
    pub lineup: Lineup,
    /// By deal: the measured bot's places (1 = first) over the rotations.
    pub places: Vec<u32>,
    pub faults: Faults,
}

/// Every lineup of the run, rows in order: for each pool the candidate and
/// the baseline against it and the pool bot among the baseline, then the
/// mixed table's two lineups.
pub(crate) fn lineups(config: &PoolConfig) -> Vec<Lineup> {
    let mut all = Vec::new();
    for p in 0..config.pools().len() {
        for measured in [Measured::Candidate, Measured::Baseline] {
            all.push(Lineup {
                measured,
                others: Others::Pool(p),
            });
        }
        all.push(Lineup {
            measured: Measured::Pool(p),
            others: Others::Baseline(p),
        });
    }
    if config.mixed() {
        for measured in [Measured::Candidate, Measured::Baseline] {
            all.push(Lineup {
                measured,
                others: Others::Mixed,
            });
        }
    }
    all
}

/// Plays every lineup on every deal, in parallel on the configuration's
/// threads, calling `progress` with the hands played so far (from any
/// thread). The results depend on the seed only: each unit's deals, bots
/// and seeds come from the seed and the unit's place.
pub(crate) fn play(
    config: &PoolConfig,
    progress: impl Fn(u64) + Sync,
) -> Result<Vec<LineupResult>, SimError> {
    let lineups = lineups(config);
    let deals = config.deals();
    let chunks = deals.div_ceil(DEALS_PER_UNIT);
    let units: Vec<(usize, u64)> = (0..lineups.len())
        .flat_map(|l| (0..chunks).map(move |c| (l, c)))
        .collect();
    let results = play_units(
        config.threads(),
        "pool",
        &units,
        |_, &(l, chunk)| {
            let (places, faults) = play_unit(config, lineups[l], chunk)?;
            let hands = (places.len() * config.players()) as u64;
            Ok(((places, faults), hands))
        },
        progress,
    )?;
    let mut out: Vec<LineupResult> = lineups
        .iter()
        .map(|&lineup| LineupResult {
            lineup,
            places: Vec::with_capacity(deals as usize),
            faults: Faults::default(),
        })
        .collect();
    for (&(l, _), (places, faults)) in units.iter().zip(results) {
        out[l].places.extend(places);
        out[l].faults.add(&faults);
    }
    Ok(out)
}

/// The bots of `lineup` seat by seat (the measured one first) in unit
/// `chunk`.
fn seats(config: &PoolConfig, lineup: Lineup, chunk: u64) -> Vec<&BotSpec> {
    let n = config.players();
    let pools = config.pools();
    let mut specs = vec![match lineup.measured {
        Measured::Candidate => config.candidate(),
        Measured::Baseline => config.baseline(),
        Measured::Pool(p) => &pools[p],
    }];
    for j in 1..n {
        specs.push(match lineup.others {
            Others::Pool(p) => &pools[p],
            Others::Baseline(_) => config.baseline(),
            Others::Mixed => &pools[(chunk as usize + j - 1) % pools.len()],
        });
    }
    specs
}

/// Plays one unit: its deals with `lineup`, each in every rotation, and
/// returns the measured seat's places by deal and its faults.
fn play_unit(
    config: &PoolConfig,
    lineup: Lineup,
    chunk: u64,
) -> Result<(Vec<u32>, Faults), SimError> {
    let n = config.players();
    let mut bots: Vec<Box<dyn Bot>> = Vec::with_capacity(n);
    for (e, spec) in seats(config, lineup, chunk).into_iter().enumerate() {
        // The same seed for a seat's bot in every lineup of the unit: the
        // rows differ only by who sits where.
        let bot = spec
            .build(build_seed(config.seed(), chunk, e))
            .map_err(|err| SimError::Bot {
                label: spec.to_string(),
                reason: err.to_string(),
            })?;
        bots.push(bot);
    }
    let greedy = bots.iter().map(|b| b.plays_first_legal()).collect();
    let mut players = Players::new(bots, greedy);
    let rules = config.rules();
    let first = chunk * DEALS_PER_UNIT;
    let last = (first + DEALS_PER_UNIT).min(config.deals());
    // Deal i's cards and bot seeds come from the seed and i alone, so every
    // lineup plays the same deals.
    let mut stream = SeedStream::at(config.seed(), Stream::Hands, first);
    let mut places = Vec::with_capacity((last - first) as usize);
    for _ in first..last {
        let seeds = stream.next_seeds();
        let mut sum = 0u32;
        for r in 0..n {
            let mut dealt = [0u8; MAX_PLAYERS];
            for (s, e) in dealt[..n].iter_mut().enumerate() {
                *e = ((s + r) % n) as u8;
            }
            players.reseed(&dealt, |s| bot_seed(seeds.aux, 0, s));
            let outcome = players.play_hand(&mut Series::new(rules, n, dealt, seeds.deal));
            let place = outcome.order[..n].iter().position(|&e| e == 0);
            sum += place.expect("every entry finishes") as u32 + 1;
        }
        places.push(sum);
    }
    Ok((places, players.faults[0]))
}
