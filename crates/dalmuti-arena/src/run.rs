//! The runner: work units on a thread pool, folded in unit order.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, TryRecvError};
use std::time::{Duration, Instant};

use dalmuti_bots::Bot;
use dalmuti_core::MAX_PLAYERS;
use dalmuti_core::record::Record;
use skillratings::weng_lin::{WengLinConfig, WengLinRating};

use crate::config::{Mode, SimConfig};
use crate::error::SimError;
use crate::play::{GameTable, Players, Seating, Series, Table};
use crate::report::SimReport;
use crate::seeds::{SeedStream, Stream, bot_seed, build_seed, seating};
use crate::stats::Tally;
use crate::units::thread_pool;

/// Independent deals per work unit. Results do not depend on it: every
/// deal's seeds come from its own index.
pub const HANDS_PER_UNIT: u64 = 64;

/// How often the calling thread looks for finished work units.
const POLL: Duration = Duration::from_millis(2);

/// Plays the run `config` describes and reports on it. `progress` is called
/// on the calling thread with the number of hands played so far, as work
/// units complete in order.
///
/// The same configuration and seed give the same report (but for its
/// timings) whatever the number of threads: each deal's cards, seating and
/// bot randomness come from the run's seed and the deal's index, and the
/// counts and ratings are folded in unit order.
///
/// ```
/// use dalmuti_arena::{SimArgs, SimConfig, run};
/// let args = SimArgs {
///     bots: "greedy,random,random".into(),
///     hands: Some(200),
///     seed: Some("7".into()),
///     ..SimArgs::default()
/// };
/// let config = SimConfig::new(args).unwrap();
/// let report = run(&config.clone().with_threads(1), |_| {}).unwrap();
/// assert_eq!(report.hands, 200);
/// let places: f64 = report.bots.iter().map(|b| b.mean_place).sum();
/// assert!((places - 6.0).abs() < 1e-9); // 1 + 2 + 3
/// let again = run(&config.with_threads(2), |_| {}).unwrap();
/// assert_eq!(report.results_json(), again.results_json());
/// ```
pub fn run(config: &SimConfig, progress: impl Fn(u64)) -> Result<SimReport, SimError> {
    let start = Instant::now();
    if let Some(dir) = config.records() {
        // The folder itself is made, never its parents: a mistyped path
        // fails here rather than growing a tree of folders nobody meant.
        if !dir.is_dir() {
            std::fs::create_dir(dir).map_err(|source| SimError::RecordsFolder {
                path: dir.to_path_buf(),
                source,
            })?;
        }
    }
    let units = match config.mode() {
        Mode::Hands { hands } => hands.div_ceil(HANDS_PER_UNIT),
        Mode::Games { games, .. } => games,
    };
    let pool = thread_pool(config.threads(), "sim")?;

    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let mut fold = Fold::new(config);
    let mut failure: Option<(u64, SimError)> = None;
    // Each worker takes the next unit and sends its tally; the calling
    // thread folds tallies in unit order as they arrive (the ratings must
    // see hands in order), buffering those that come early. It polls
    // rather than waits: waking a waiting thread costs a system call per
    // unit, which was 7% of a greedy run. The channel is bounded, so fast
    // workers wait instead of filling memory, but roomy, so they seldom do.
    pool.in_place_scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<(u64, Result<Tally, SimError>)>(256 * config.threads());
        for _ in 0..config.threads() {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move |_| {
                loop {
                    let unit = next.fetch_add(1, Ordering::Relaxed);
                    if unit >= units || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let result = run_unit(config, unit);
                    let failed = result.is_err();
                    if tx.send((unit, result)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        loop {
            let (unit, result) = match rx.try_recv() {
                Ok(received) => received,
                Err(TryRecvError::Empty) => {
                    std::thread::sleep(POLL);
                    continue;
                }
                Err(TryRecvError::Disconnected) => break,
            };
            match result {
                Ok(tally) => {
                    pending.insert(unit, tally);
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    // The first unit's error, whatever the threads did.
                    if failure.as_ref().is_none_or(|(u, _)| unit < *u) {
                        failure = Some((unit, e));
                    }
                }
            }
            while let Some(tally) = pending.remove(&fold.next_unit) {
                fold.add(&tally);
                progress(fold.total.hands);
            }
        }
    });
    if let Some((_, e)) = failure {
        return Err(e);
    }
    Ok(SimReport::new(
        config,
        &fold.total,
        &fold.ratings,
        start.elapsed(),
    ))
}

/// The run so far: counts summed and ratings updated in unit order.
struct Fold {
    next_unit: u64,
    total: Tally,
    ratings: Vec<WengLinRating>,
    rating_config: WengLinConfig,
}

impl Fold {
    fn new(config: &SimConfig) -> Fold {
        Fold {
            next_unit: 0,
            total: Tally::new(config.players()),
            ratings: vec![WengLinRating::new(); config.players()],
            rating_config: WengLinConfig::new(),
        }
    }

    fn add(&mut self, tally: &Tally) {
        self.total.add_counts(tally);
        let n = self.total.players;
        let mut place = [0usize; MAX_PLAYERS];
        for order in tally.orders.chunks_exact(n) {
            for (p, &e) in order.iter().enumerate() {
                place[e as usize] = p + 1;
            }
            update_ratings(&mut self.ratings, &place[..n], &self.rating_config);
        }
        self.next_unit += 1;
    }
}

/// One hand's Weng–Lin update, every bot a team of one ranked by its place
/// (1 = first out): the arithmetic of skillratings' `weng_lin_multi_team`
/// (Weng and Lin 2011, the Bradley–Terry full-pair model) without its
/// allocations, and with what a pair of bots shares computed once for
/// both: the scale `c`, its reciprocal, and one exponential for the pair
/// (`p_i = 1 / (1 + e^((μq − μi)/c))`, `p_q = 1 − p_i`) where skillratings
/// takes two per side. The ratings agree with skillratings' to about
/// twelve significant digits (a test compares), not to the bit. This runs
/// on the calling thread for every hand, in order, while the workers play:
/// it was a sixth of the machine on two threads.
fn update_ratings(ratings: &mut [WengLinRating], place: &[usize], config: &WengLinConfig) {
    let n = ratings.len();
    let (mut sigma, mut sigma_sq) = ([0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS]);
    for (i, r) in ratings.iter().enumerate() {
        sigma[i] = r.uncertainty;
        sigma_sq[i] = r.uncertainty * r.uncertainty;
    }
    let two_beta_sq = 2.0 * config.beta * config.beta;
    let (mut omega, mut large_delta) = ([0.0f64; MAX_PLAYERS], [0.0f64; MAX_PLAYERS]);
    for i in 0..n {
        for q in i + 1..n {
            let inv_c = 1.0 / (two_beta_sq + sigma_sq[i] + sigma_sq[q]).sqrt();
            let p_i = 1.0 / (1.0 + ((ratings[q].rating - ratings[i].rating) * inv_c).exp());
            let p_q = 1.0 - p_i;
            // i's score against q: 1 for finishing ahead, ½ for a tie.
            let score_i = match place[i].cmp(&place[q]) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            omega[i] += sigma_sq[i] * inv_c * (score_i - p_i);
            omega[q] += sigma_sq[q] * inv_c * ((1.0 - score_i) - p_q);
            // γ σ² / c² · p (1 − p), with γ = σ / c; p (1 − p) is the
            // pair's, the same from either side.
            let spread = p_i * p_q * inv_c * inv_c * inv_c;
            large_delta[i] += sigma_sq[i] * sigma[i] * spread;
            large_delta[q] += sigma_sq[q] * sigma[q] * spread;
        }
    }
    for (i, r) in ratings.iter_mut().enumerate() {
        // A bot is a team of one: its share of the team's variance is 1,
        // computed as skillratings does (a zero or infinite σ alike).
        let (player_sq, team_sq) = (sigma_sq[i], sigma_sq[i]);
        let share = player_sq / team_sq;
        r.rating = share.mul_add(omega[i], r.rating);
        let shrink = share
            .mul_add(-large_delta[i], 1.0)
            .max(config.uncertainty_tolerance);
        r.uncertainty = (player_sq * shrink).sqrt();
    }
}

/// Plays one work unit: a chunk of independent deals, or one game, each
/// with all its rotations.
fn run_unit(config: &SimConfig, unit: u64) -> Result<Tally, SimError> {
    let n = config.players();
    let mut bots: Vec<Box<dyn Bot>> = Vec::with_capacity(n);
    for (e, entry) in config.lineup().iter().enumerate() {
        let bot = entry
            .spec
            .build(build_seed(config.seed(), unit, e))
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
    let mut tally = Tally::new(n);
    let rules = config.rules();
    let labels: Vec<String> = config.lineup().iter().map(|e| e.label.clone()).collect();
    let rotated = |base: &Seating, r: usize| {
        let mut s = [0u8; MAX_PLAYERS];
        for (i, x) in s[..n].iter_mut().enumerate() {
            *x = base[(i + r) % n];
        }
        s
    };
    match config.mode() {
        Mode::Hands { hands } => {
            let first = unit * HANDS_PER_UNIT;
            let last = (first + HANDS_PER_UNIT).min(hands);
            let mut stream = SeedStream::at(config.seed(), Stream::Hands, first);
            for deal in first..last {
                let seeds = stream.next_seeds();
                let base = seating(seeds.aux, n);
                for r in 0..config.rotations() {
                    let seats = rotated(&base, r);
                    players.reseed(&seats, |s| bot_seed(seeds.aux, 0, s));
                    let outcome = match config.records() {
                        None => players.play_hand(&mut Series::new(rules, n, seats, seeds.deal)),
                        Some(dir) => {
                            let mut table = GameTable::new(rules, &labels, seats, seeds.deal);
                            let outcome = players.play_hand(&mut table);
                            write_record(dir, "hand", deal, hands, r, &table)?;
                            outcome
                        }
                    };
                    tally.record(&outcome, false);
                }
                tally.end_block();
            }
        }
        Mode::Games {
            games,
            hands_per_game,
        } => {
            let seeds = SeedStream::at(config.seed(), Stream::Games, unit).next_seeds();
            let base = seating(seeds.aux, n);
            for r in 0..config.rotations() {
                let seats = rotated(&base, r);
                let (p, t, h, aux) = (&mut players, &mut tally, hands_per_game, seeds.aux);
                // President and Daifugō are played through the engine's
                // game, whose classes, exchanges and seat draws between
                // games are the rules' ones; `Series` deals them without
                // classes, so with no exchange (it had, until
                // 2026-11-29: issue 44).
                match config.records() {
                    None if !rules.variant.is_suited() => {
                        let mut table = Series::new(rules, n, seats, seeds.deal);
                        play_game(p, t, &mut table, h, aux);
                    }
                    records => {
                        let mut table = GameTable::new(rules, &labels, seats, seeds.deal);
                        play_game(p, t, &mut table, h, aux);
                        if let Some(dir) = records {
                            write_record(dir, "game", unit, games, r, &table)?;
                        }
                    }
                }
            }
            tally.end_block();
        }
    }
    tally.faults.clone_from(&players.faults);
    Ok(tally)
}

/// Plays a game's hands at `table`, its first hand already dealt.
fn play_game<T: Table>(
    players: &mut Players,
    tally: &mut Tally,
    table: &mut T,
    hands: u32,
    aux: u64,
) {
    for h in 0..hands {
        if h > 0 {
            table.next_hand();
        }
        players.reseed(table.dealt(), |s| bot_seed(aux, h, s));
        let outcome = players.play_hand(table);
        tally.record(&outcome, h > 0);
    }
}

/// Writes a game's record as `DIR/{kind}-{index}-r{rotation}.json`, the
/// index padded to the width of the largest.
fn write_record(
    dir: &Path,
    kind: &str,
    index: u64,
    count: u64,
    rotation: usize,
    table: &GameTable,
) -> Result<(), SimError> {
    let width = (count.max(1) - 1).to_string().len();
    let path = dir.join(format!("{kind}-{index:0width$}-r{rotation}.json"));
    let text = Record::from_game(table.game()).to_json_string();
    std::fs::write(&path, text).map_err(|source| SimError::Records { path, source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};
    use skillratings::MultiTeamOutcome;
    use skillratings::weng_lin::weng_lin_multi_team;

    /// skillratings' own update, as the runner called it before.
    fn reference(
        ratings: &[WengLinRating],
        place: &[usize],
        config: &WengLinConfig,
    ) -> Vec<WengLinRating> {
        let singles: Vec<[WengLinRating; 1]> = ratings.iter().map(|&r| [r]).collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = singles
            .iter()
            .zip(place)
            .map(|(team, &p)| (&team[..], MultiTeamOutcome::new(p)))
            .collect();
        weng_lin_multi_team(&teams, config)
            .into_iter()
            .map(|team| team[0])
            .collect()
    }

    #[test]
    fn ratings_match_skillratings() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let config = WengLinConfig::new();
        for n in [3, 5, 8, 16] {
            let mut ours = vec![WengLinRating::new(); n];
            let mut theirs = ours.clone();
            // Long runs: ratings spread and uncertainties shrink to the
            // tolerance, as in a tournament.
            for _ in 0..3000 {
                let mut order: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    order.swap(i, rng.next_u32() as usize % (i + 1));
                }
                // A strong bot and a weak one, so ratings drift apart.
                if let Some(p) = order.iter().position(|&e| e == 0) {
                    order.swap(p, 0);
                }
                let mut place = vec![0; n];
                for (p, &e) in order.iter().enumerate() {
                    place[e] = p + 1;
                }
                theirs = reference(&theirs, &place, &config);
                update_ratings(&mut ours, &place, &config);
                for (a, b) in ours.iter().zip(&theirs) {
                    let close = |x: f64, y: f64| (x - y).abs() <= 1e-11 * y.abs().max(1.0);
                    assert!(close(a.rating, b.rating), "{n} players: {a:?} {b:?}");
                    assert!(close(a.uncertainty, b.uncertainty), "{n} players");
                }
            }
            assert!(
                ours[0].rating > 40.0,
                "bot 0 always wins: {}",
                ours[0].rating
            );
        }
    }
}
