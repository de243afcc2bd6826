//! Ratings from pairwise comparisons: a Bradley–Terry fit, its bootstrap
//! over deals, and normal intervals of means over deals.

use dalmuti_core::Seed;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::pairs::PairResult;

/// Bootstrap samples behind each rating interval.
pub const BOOTSTRAP_SAMPLES: usize = 1000;

/// Wins added each way to every pair before a fit: keeps ratings finite
/// when one bot beats another in every comparison, and is negligible
/// against the thousands of comparisons of a real ladder.
pub const PRIOR_WINS: f64 = 0.5;

/// Elo points per natural unit of log-strength: 400 / ln 10, so a bot 400
/// points above another is 10 times as likely to finish ahead of it.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// A Bradley–Terry fit on the Elo scale: `wins[a][b]` is how often bot `a`
/// finished ahead of bot `b` (each count gets [`PRIOR_WINS`] added for
/// every pair that met); the ratings `r` maximise the likelihood of those
/// counts under P(a ahead of b) = 1 / (1 + 10^((r_b − r_a)/400)), and their
/// mean is 0. Solved by Hunter's MM iteration (2004), which converges for
/// any connected comparison graph.
///
/// ```
/// use dalmuti_arena::bradley_terry;
/// // a beats b 3 times in 4, b beats c 3 times in 4, a beats c 9 in 10.
/// let wins = vec![
///     vec![0.0, 750.0, 900.0],
///     vec![250.0, 0.0, 750.0],
///     vec![100.0, 250.0, 0.0],
/// ];
/// let r = bradley_terry(&wins);
/// assert!(r[0] > r[1] && r[1] > r[2]);
/// assert!(r.iter().sum::<f64>().abs() < 1e-6);
/// // About 3 to 1 odds between neighbours: 400 log10(3) ≈ 191 points.
/// assert!((r[0] - r[1] - 191.0).abs() < 20.0, "{r:?}");
/// ```
pub fn bradley_terry(wins: &[Vec<f64>]) -> Vec<f64> {
    let k = wins.len();
    let met = |a: usize, b: usize| a != b && wins[a][b] + wins[b][a] > 0.0;
    let w = |a: usize, b: usize| {
        if met(a, b) {
            wins[a][b] + PRIOR_WINS
        } else {
            0.0
        }
    };
    let total_wins: Vec<f64> = (0..k).map(|a| (0..k).map(|b| w(a, b)).sum()).collect();
    let mut gamma = vec![1.0f64; k];
    for _ in 0..10_000 {
        let mut next: Vec<f64> = (0..k)
            .map(|a| {
                let denominator: f64 = (0..k)
                    .filter(|&b| met(a, b))
                    .map(|b| (w(a, b) + w(b, a)) / (gamma[a] + gamma[b]))
                    .sum();
                if denominator > 0.0 {
                    total_wins[a] / denominator
                } else {
                    gamma[a]
                }
            })
            .collect();
        // Scale to a geometric mean of 1: the fit fixes only ratios.
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / k as f64;
        for g in &mut next {
            *g /= log_mean.exp();
        }
        let change = next
            .iter()
            .zip(&gamma)
            .map(|(x, y)| (x / y).ln().abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| ELO * g.ln()).collect()
}

/// Pairwise win counts over the deals `picks` (indices, repeats allowed),
/// as [`bradley_terry`] takes them.
fn wins(k: usize, pairs: &[PairResult], picks: &[usize]) -> Vec<Vec<f64>> {
    let mut wins = vec![vec![0.0; k]; k];
    for pair in pairs {
        let won: u64 = picks.iter().map(|&d| u64::from(pair.deals[d].a_wins)).sum();
        let all = u64::from(pair.comparisons) * picks.len() as u64;
        wins[pair.a][pair.b] = won as f64;
        wins[pair.b][pair.a] = (all - won) as f64;
    }
    wins
}

/// Each bot's rating and its 95% interval: the fit on every deal, and the
/// 2.5th and 97.5th percentiles of the fits on [`BOOTSTRAP_SAMPLES`]
/// resamples of the deals (drawn with replacement from the run's seed;
/// one resample of deal indices serves every pair, since all pairs play
/// the same deals).
pub(crate) fn ratings(
    k: usize,
    pairs: &[PairResult],
    deals: usize,
    seed: Seed,
) -> Vec<(f64, f64, f64)> {
    let all: Vec<usize> = (0..deals).collect();
    let fit = bradley_terry(&wins(k, pairs, &all));
    let mut rng = ChaCha8Rng::from_seed(seed.0);
    // A stream of its own, apart from the deals' (0) and games' (1).
    rng.set_stream(0x1add);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(BOOTSTRAP_SAMPLES); k];
    let mut picks = vec![0usize; deals];
    for _ in 0..BOOTSTRAP_SAMPLES {
        for p in &mut picks {
            // The bias of % on 64 bits is far below anything measurable.
            *p = (rng.next_u64() % deals as u64) as usize;
        }
        for (bot, r) in bradley_terry(&wins(k, pairs, &picks))
            .into_iter()
            .enumerate()
        {
            samples[bot].push(r);
        }
    }
    fit.into_iter()
        .zip(samples)
        .map(|(r, mut s)| {
            s.sort_by(f64::total_cmp);
            (r, percentile(&s, 0.025), percentile(&s, 0.975))
        })
        .collect()
}

/// The `q` quantile of sorted values, interpolated between neighbours.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let at = q * (sorted.len() - 1) as f64;
    let (i, frac) = (at.floor() as usize, at.fract());
    match sorted.get(i + 1) {
        Some(next) => sorted[i] + frac * (next - sorted[i]),
        None => sorted[i],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bots_rate_equal_and_a_sweep_stays_finite() {
        let r = bradley_terry(&[vec![0.0, 50.0], vec![50.0, 0.0]]);
        assert!(r[0].abs() < 1e-9 && r[1].abs() < 1e-9);
        let r = bradley_terry(&[vec![0.0, 100.0], vec![0.0, 0.0]]);
        assert!(r[0].is_finite() && r[0] > 300.0, "{r:?}");
    }

    #[test]
    fn two_bots_fit_their_win_rate_exactly() {
        // 3 to 1 (with the prior: 300.5 to 100.5).
        let r = bradley_terry(&[vec![0.0, 300.0], vec![100.0, 0.0]]);
        let expected = 400.0 * (300.5f64 / 100.5).log10();
        assert!((r[0] - r[1] - expected).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn intervals_of_means() {
        assert_eq!(crate::stats::mean_ci(&[2.0]), (2.0, None));
        let (m, h) = crate::stats::mean_ci(&[1.0, 3.0, 2.0, 2.0]);
        assert_eq!(m, 2.0);
        assert!((h.unwrap() - 1.96 * ((2.0 / 3.0) / 4.0f64).sqrt()).abs() < 1e-12);
        assert_eq!(percentile(&[1.0, 2.0, 3.0], 0.5), 2.0);
        assert_eq!(percentile(&[1.0, 2.0], 0.25), 1.25);
    }
}
