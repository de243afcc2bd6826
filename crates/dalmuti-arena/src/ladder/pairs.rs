//! Playing the ladder: every pair of bots at its shared tables, every deal
//! in every seating, on a thread pool, the results kept per pair and deal.

use dalmuti_bots::Bot;
use dalmuti_core::MAX_PLAYERS;

use super::LadderConfig;
use crate::error::SimError;
use crate::play::{Faults, Players, Series};
use crate::run::HANDS_PER_UNIT;
use crate::seeds::{SeedStream, Stream, bot_seed, build_seed};
use crate::units::play_units;

/// What one deal of a pair gave, summed over its seatings (every pattern
/// in every rotation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct DealResult {
    /// Places (1 = first) of the first bot's copies, summed.
    pub a_places: u32,
    /// Places of the second bot's copies, summed.
    pub b_places: u32,
    /// Comparisons of a copy of the first bot with a copy of the second in
    /// the same hand that the first won (finished ahead).
    pub a_wins: u32,
}

/// A pair's results: one [`DealResult`] per deal, and the constant counts
/// every deal has.
#[derive(Clone, Debug)]
pub(crate) struct PairResult {
    /// The pair's bots, by index in the ladder (`a < b`).
    pub a: usize,
    /// The second bot.
    pub b: usize,
    /// By deal.
    pub deals: Vec<DealResult>,
    /// Copy-hands of the first bot in a deal (its copies × hands).
    pub a_seats: u32,
    /// Copy-hands of the second bot in a deal.
    pub b_seats: u32,
    /// Comparisons between the two in a deal.
    pub comparisons: u32,
    /// The first bot's faults in this pair's hands.
    pub a_faults: Faults,
    /// The second bot's.
    pub b_faults: Faults,
}

/// What a unit gives: each deal's result, and the faults of the pair's
/// first and second bot.
type UnitResult = (Vec<DealResult>, [Faults; 2]);

/// One work unit: up to [`HANDS_PER_UNIT`] deals of a pair in one pattern,
/// each in every rotation.
#[derive(Copy, Clone, Debug)]
struct Unit {
    pair: usize,
    pattern: usize,
    first_deal: u64,
}

/// Plays every pair, in parallel on the configuration's threads, calling
/// `progress` with the hands played so far (from any worker thread) as
/// units finish. The results are the same on any number of threads: each
/// unit depends only on the seed and its deals, and they are combined in
/// order.
pub(crate) fn play_pairs(
    config: &LadderConfig,
    progress: impl Fn(u64) + Sync,
) -> Result<Vec<PairResult>, SimError> {
    let pairs = config.pairs();
    let patterns = config.patterns();
    let deals = config.deals();
    let mut units = Vec::new();
    for pair in 0..pairs.len() {
        for pattern in 0..patterns.len() {
            for chunk in 0..deals.div_ceil(HANDS_PER_UNIT) {
                units.push(Unit {
                    pair,
                    pattern,
                    first_deal: chunk * HANDS_PER_UNIT,
                });
            }
        }
    }
    let results = play_units(
        config.threads(),
        "ladder",
        &units,
        |id, unit| {
            let (a, b) = pairs[unit.pair];
            let result = play_unit(config, id as u64, (a, b), &patterns[unit.pattern], unit)?;
            let hands = (result.0.len() * config.players()) as u64;
            Ok((result, hands))
        },
        progress,
    )?;

    let n = config.players() as u32;
    let mut out: Vec<PairResult> = pairs
        .iter()
        .map(|&(a, b)| PairResult {
            a,
            b,
            deals: vec![DealResult::default(); deals as usize],
            a_seats: 0,
            b_seats: 0,
            comparisons: 0,
            a_faults: Faults::default(),
            b_faults: Faults::default(),
        })
        .collect();
    for pair in &mut out {
        for pattern in &patterns {
            let copies = pattern.iter().filter(|&&a| a).count() as u32;
            pair.a_seats += copies * n;
            pair.b_seats += (n - copies) * n;
            pair.comparisons += copies * (n - copies) * n;
        }
    }
    for (unit, (unit_deals, [a_faults, b_faults])) in units.iter().zip(results) {
        let pair = &mut out[unit.pair];
        for (i, d) in unit_deals.iter().enumerate() {
            let total = &mut pair.deals[unit.first_deal as usize + i];
            total.a_places += d.a_places;
            total.b_places += d.b_places;
            total.a_wins += d.a_wins;
        }
        pair.a_faults.add(&a_faults);
        pair.b_faults.add(&b_faults);
    }
    Ok(out)
}

/// Plays one unit: its deals, each in every rotation of `pattern` (`true`
/// seats bot `a`, `false` bot `b`), and returns each deal's result and
/// the faults of `a` and `b`.
fn play_unit(
    config: &LadderConfig,
    id: u64,
    (a, b): (usize, usize),
    pattern: &[bool],
    unit: &Unit,
) -> Result<UnitResult, SimError> {
    let n = config.players();
    let entries = config.bots();
    let mut bots: Vec<Box<dyn Bot>> = Vec::with_capacity(n);
    for (e, &is_a) in pattern.iter().enumerate() {
        let entry = &entries[if is_a { a } else { b }];
        let bot = entry
            .spec
            .build(build_seed(config.seed(), id, e))
            .map_err(|err| {
                // The bots crate's message may begin with the bot's name.
                let reason = err.to_string();
                let reason = match reason.strip_prefix(&format!("{}: ", entry.spec)) {
                    Some(rest) => rest.to_string(),
                    None => reason,
                };
                SimError::Bot {
                    label: entry.label.clone(),
                    reason,
                }
            })?;
        bots.push(bot);
    }
    let greedy = bots.iter().map(|b| b.plays_first_legal()).collect();
    let mut players = Players::new(bots, greedy);
    let rules = config.rules();
    let last = (unit.first_deal + HANDS_PER_UNIT).min(config.deals());
    // Every pair plays the same deals: deal i's cards and bot seeds come
    // from the seed and i alone.
    let mut stream = SeedStream::at(config.seed(), Stream::Hands, unit.first_deal);
    let b_copies = pattern.iter().filter(|&&is_a| !is_a).count() as u32;
    let mut results = Vec::with_capacity((last - unit.first_deal) as usize);
    for _ in unit.first_deal..last {
        let seeds = stream.next_seeds();
        let mut result = DealResult::default();
        for r in 0..n {
            let mut seats = [0u8; MAX_PLAYERS];
            for (s, x) in seats[..n].iter_mut().enumerate() {
                *x = ((s + r) % n) as u8;
            }
            players.reseed(&seats, |s| bot_seed(seeds.aux, 0, s));
            let outcome = players.play_hand(&mut Series::new(rules, n, seats, seeds.deal));
            // Each copy of `a` beats every copy of `b` not yet out.
            let mut b_behind = b_copies;
            for (place, &e) in outcome.order[..n].iter().enumerate() {
                let place = place as u32 + 1;
                if pattern[e as usize] {
                    result.a_places += place;
                    result.a_wins += b_behind;
                } else {
                    result.b_places += place;
                    b_behind -= 1;
                }
            }
        }
        results.push(result);
    }
    let mut faults = [Faults::default(); 2];
    for (e, f) in players.faults.iter().enumerate() {
        faults[usize::from(!pattern[e])].add(f);
    }
    Ok((results, faults))
}
