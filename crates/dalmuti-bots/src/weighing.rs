//! The arithmetic of a belief over deals, shared by the Dalmuti search's
//! (`search/belief.rs`) and the pack's (`climb/belief.rs`): how likely a
//! kind of player makes a decision seen, each seat's kinds summed out
//! under a prior, and deals drawn by weight.

use dalmuti_core::Action;
use rand::Rng;

use crate::BotRng;

/// How likely a kind of player that chooses `chosen` (`None`: any legal
/// action as likely) makes `action`, one of `n` legal actions, when it
/// plays something else than its own choice with probability `noise`.
pub(crate) fn likelihood(chosen: Option<Action>, action: Action, n: usize, noise: f64) -> f64 {
    let any = 1.0 / n as f64;
    match chosen {
        Some(chosen) if chosen == action => 1.0 - noise + noise * any,
        Some(_) => noise * any,
        None => any,
    }
}

/// The log of the prior mixture's likelihood (the kinds summed out) of
/// one seat's log-likelihoods `ll` under each kind, and the posterior of
/// each kind.
pub(crate) fn mixture<const K: usize>(ll: &[f64; K], prior: &[f64; K]) -> (f64, [f64; K]) {
    let most = ll.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut terms = [0.0; K];
    for ((t, &l), &prior) in terms.iter_mut().zip(ll).zip(prior) {
        *t = prior * (l - most).exp();
    }
    let sum: f64 = terms.iter().sum();
    (most + sum.ln(), terms.map(|t| t / sum))
}

/// Running sums of `p`, the last set to exactly 1.
pub(crate) fn cumulative<const K: usize>(p: [f64; K]) -> [f64; K] {
    let mut sum = 0.0;
    let mut out = p.map(|x| {
        sum += x;
        sum
    });
    out[K - 1] = 1.0;
    out
}

/// A kind drawn from its running probabilities (from [`cumulative`]).
pub(crate) fn draw_kind<const K: usize>(cumulative: &[f64; K], rng: &mut BotRng) -> usize {
    let y = rng.random::<f64>();
    cumulative.partition_point(|&c| c <= y).min(K - 1)
}

/// Deals' weights, as running sums (the last is the total).
#[derive(Clone, Debug)]
pub(crate) struct Weights {
    cumulative: Vec<f64>,
}

impl Weights {
    /// The weights of deals of log-weights `logs`, scaled so the heaviest
    /// weighs 1; `None` if there are none or none is finite.
    pub(crate) fn of_logs(logs: &[f64]) -> Option<Weights> {
        let most = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if logs.is_empty() || !most.is_finite() {
            return None;
        }
        let mut sum = 0.0;
        let cumulative = logs
            .iter()
            .map(|w| {
                sum += (w - most).exp();
                sum
            })
            .collect();
        Some(Weights { cumulative })
    }

    /// A deal's index, drawn by weight.
    pub(crate) fn draw(&self, rng: &mut BotRng) -> usize {
        let total = *self.cumulative.last().expect("weights of some deals");
        let x = rng.random::<f64>() * total;
        let i = self.cumulative.partition_point(|&c| c <= x);
        i.min(self.cumulative.len() - 1)
    }

    /// The mean over the deals, by weight, of each kind's probability,
    /// given each deal's running probabilities (from [`cumulative`]).
    #[cfg(test)]
    pub(crate) fn mean_kinds<const K: usize>(
        &self,
        kinds: impl Iterator<Item = [f64; K]>,
    ) -> [f64; K] {
        let mut out = [0.0; K];
        let mut before = 0.0;
        for (cumulative, &c) in kinds.zip(&self.cumulative) {
            let weight = c - before;
            before = c;
            let mut last = 0.0;
            for (o, k) in out.iter_mut().zip(cumulative) {
                *o += weight * (k - last);
                last = k;
            }
        }
        out.map(|o| o / before)
    }

    /// How many deals count, as an effective sample size.
    #[cfg(test)]
    pub(crate) fn effective(&self) -> f64 {
        let mut before = 0.0;
        let (mut sum, mut squares) = (0.0, 0.0);
        for &c in &self.cumulative {
            let w = c - before;
            before = c;
            sum += w;
            squares += w * w;
        }
        sum * sum / squares
    }
}
