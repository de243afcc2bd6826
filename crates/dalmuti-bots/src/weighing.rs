//! A belief over deals, shared by the Dalmuti search's
//! (`search/belief.rs`) and the pack's (`climb/belief.rs`): how likely a
//! kind of player makes a decision seen, each seat's kinds summed out
//! under a prior, the deals weighed and drawn by weight. Each search
//! supplies its deals and how its kinds of player replay the hand.

use dalmuti_core::{Action, Cards, PerSeat, Seat};
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

/// Deals of the unseen cards, each weighted by how likely it makes the
/// plays seen, with each other seat's kind of player given the deal (one
/// of `K`).
#[derive(Clone, Debug)]
pub(crate) struct WeightedDeals<const K: usize> {
    me: Seat,
    players: usize,
    /// Each deal's cards, and each other seat's kinds given it (running
    /// probabilities, from [`cumulative`]).
    deals: Vec<(PerSeat<Cards>, PerSeat<[f64; K]>)>,
    weights: Weights,
}

impl<const K: usize> WeightedDeals<K> {
    /// Weighs `deals` at `me`'s decision: each deal's cards, and each seat's
    /// log-likelihood of its decisions under each kind. A seat's kinds are
    /// summed out under `prior`; a deal's likelihood is raised to `temper`
    /// (the kinds only approximate real players: untempered, a few deals
    /// take all the weight). `None` if no deal counts.
    pub(crate) fn weigh(
        me: Seat,
        players: usize,
        prior: &[f64; K],
        temper: f64,
        deals: impl IntoIterator<Item = (PerSeat<Cards>, PerSeat<[f64; K]>)>,
    ) -> Option<WeightedDeals<K>> {
        let mut kept = Vec::new();
        let mut log_weights = Vec::new();
        for (held, ll) in deals {
            let mut log_weight = 0.0;
            // The searching seat's entry is left as it is: unused.
            let mut kinds = ll;
            for seat in Seat::all(players).filter(|&s| s != me) {
                let (total, posterior) = mixture(&ll[seat], prior);
                log_weight += total;
                kinds[seat] = cumulative(posterior);
            }
            kept.push((held, kinds));
            log_weights.push(log_weight * temper);
        }
        let weights = Weights::of_logs(&log_weights)?;
        Some(WeightedDeals {
            me,
            players,
            deals: kept,
            weights,
        })
    }

    /// A deal drawn by weight, and each other seat's kind given it, of
    /// `family` (the searching seat's own entry is `T`'s default).
    pub(crate) fn draw<T: Copy + Default>(
        &self,
        family: &[T; K],
        rng: &mut BotRng,
    ) -> (&PerSeat<Cards>, PerSeat<T>) {
        let (held, kinds_given) = &self.deals[self.weights.draw(rng)];
        let mut kinds = PerSeat::<T>::default();
        for seat in Seat::all(self.players).filter(|&s| s != self.me) {
            kinds[seat] = family[draw_kind(&kinds_given[seat], rng)];
        }
        (held, kinds)
    }

    /// How likely each kind is for `seat`, over every deal by weight.
    pub(crate) fn kinds_of(&self, seat: Seat) -> [f64; K] {
        self.weights
            .mean_kinds(self.deals.iter().map(|(_, kinds)| kinds[seat]))
    }

    /// How many deals count, as an effective sample size.
    #[cfg(test)]
    pub(crate) fn effective_deals(&self) -> f64 {
        self.weights.effective()
    }
}

/// Deals' weights, as running sums (the last is the total).
#[derive(Clone, Debug)]
struct Weights {
    cumulative: Vec<f64>,
}

impl Weights {
    /// The weights of deals of log-weights `logs`, scaled so the heaviest
    /// weighs 1; `None` if there are none or none is finite.
    fn of_logs(logs: &[f64]) -> Option<Weights> {
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
    fn draw(&self, rng: &mut BotRng) -> usize {
        let total = *self.cumulative.last().expect("weights of some deals");
        let x = rng.random::<f64>() * total;
        let i = self.cumulative.partition_point(|&c| c <= x);
        i.min(self.cumulative.len() - 1)
    }

    /// The mean over the deals, by weight, of each kind's probability,
    /// given each deal's running probabilities (from [`cumulative`]).
    fn mean_kinds<const K: usize>(&self, kinds: impl Iterator<Item = [f64; K]>) -> [f64; K] {
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
    fn effective(&self) -> f64 {
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
