//! Counts kept while hands are played, summed in unit order.

use crate::play::{Faults, NO_TITLE, Outcome, Seating};

/// Everything a work unit (or the whole run so far) counted. Counts are
/// integers, so summing them in any grouping gives the same totals; the
/// finishing orders are kept in play order for the ratings.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    pub players: usize,
    /// Hands played.
    pub hands: u64,
    /// `places[e * n + p]`: how often entry `e` finished at place `p` (0 =
    /// first out).
    pub places: Vec<u64>,
    /// `seat_places[s * n + p]`: how often the player at seat of play `s`
    /// finished at place `p`.
    pub seat_places: Vec<u64>,
    /// `mobility[a * n + b]`: how often a player at seat of play `a` in one
    /// hand of a game played at seat `b` in the next.
    pub mobility: Vec<u64>,
    /// Independent blocks for confidence intervals (see [`Tally::end_block`]).
    pub blocks: u64,
    /// Per entry: the sum over blocks of the block's sum of places (1-based).
    pub block_sum: Vec<u64>,
    /// Per entry: the sum over blocks of the square of that.
    pub block_sq: Vec<u128>,
    /// Faults by entry.
    pub faults: Vec<Faults>,
    /// Entries in finishing order, `players` bytes per hand, in play order.
    pub orders: Vec<u8>,
    /// Places (1-based) of the block being played, by entry.
    block: Vec<u64>,
    /// Seats of play in the previous hand of the game being played.
    previous: Option<Seating>,
}

impl Tally {
    pub fn new(players: usize) -> Tally {
        let n = players;
        Tally {
            players,
            hands: 0,
            places: vec![0; n * n],
            seat_places: vec![0; n * n],
            mobility: vec![0; n * n],
            blocks: 0,
            block_sum: vec![0; n],
            block_sq: vec![0; n],
            faults: vec![Faults::default(); n],
            orders: Vec::new(),
            block: vec![0; n],
            previous: None,
        }
    }

    /// Counts one hand. `in_game` says whether it follows the previous
    /// hand counted in the same game (for the mobility matrix).
    pub fn record(&mut self, outcome: &Outcome, in_game: bool) {
        let n = self.players;
        self.hands += 1;
        for (place, &e) in outcome.order[..n].iter().enumerate() {
            let e = e as usize;
            self.places[e * n + place] += 1;
            if outcome.seat[e] != NO_TITLE {
                self.seat_places[outcome.seat[e] as usize * n + place] += 1;
            }
            self.block[e] += place as u64 + 1;
        }
        if let (true, Some(prev)) = (in_game, &self.previous) {
            for (&from, &to) in prev[..n].iter().zip(&outcome.seat[..n]) {
                if from != NO_TITLE && to != NO_TITLE {
                    self.mobility[from as usize * n + to as usize] += 1;
                }
            }
        }
        self.previous = Some(outcome.seat);
        self.orders.extend_from_slice(&outcome.order[..n]);
    }

    /// Closes a block of hands that is independent of every other block:
    /// a hand, a deal with its rotations, or a game with its rotations.
    /// Every entry plays every hand of a block, so blocks are the same size.
    pub fn end_block(&mut self) {
        self.blocks += 1;
        for e in 0..self.players {
            let s = std::mem::take(&mut self.block[e]);
            self.block_sum[e] += s;
            self.block_sq[e] += u128::from(s) * u128::from(s);
        }
        self.previous = None;
    }

    /// Adds another tally's counts (not its finishing orders).
    pub fn add_counts(&mut self, other: &Tally) {
        self.hands += other.hands;
        self.blocks += other.blocks;
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.places, &other.places);
        add(&mut self.seat_places, &other.seat_places);
        add(&mut self.mobility, &other.mobility);
        add(&mut self.block_sum, &other.block_sum);
        for (x, y) in self.block_sq.iter_mut().zip(&other.block_sq) {
            *x += y;
        }
        for (x, y) in self.faults.iter_mut().zip(&other.faults) {
            x.add(y);
        }
    }

    /// Entry `e`'s mean place (1 = first) and the half-width of its 95%
    /// confidence interval, from the means of the blocks (`None` with fewer
    /// than two blocks).
    pub fn mean_place(&self, e: usize) -> (f64, Option<f64>) {
        let hands_per_block = self.hands as f64 / self.blocks as f64;
        let u = self.blocks as f64;
        let sum = self.block_sum[e];
        let mean = sum as f64 / self.hands as f64;
        if self.blocks < 2 {
            return (mean, None);
        }
        // (U Σs² − (Σs)²) is exact in integers; s is a block's sum of places.
        let spread = u128::from(self.blocks) * self.block_sq[e] - u128::from(sum) * u128::from(sum);
        let var_of_block_means =
            spread as f64 / (u * (u - 1.0)) / (hands_per_block * hands_per_block);
        (mean, Some(1.96 * (var_of_block_means / u).sqrt()))
    }
}

/// The mean of per-deal values and the half-width of its 95% normal
/// interval, 1.96 s / √D (`None` with fewer than two deals).
pub(crate) fn mean_ci(values: &[f64]) -> (f64, Option<f64>) {
    let d = values.len() as f64;
    let mean = values.iter().sum::<f64>() / d;
    if values.len() < 2 {
        return (mean, None);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (d - 1.0);
    (mean, Some(1.96 * (var / d).sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalmuti_core::MAX_PLAYERS;

    fn outcome(order: &[u8]) -> Outcome {
        let mut o = Outcome {
            order: [0; MAX_PLAYERS],
            seat: [0; MAX_PLAYERS],
        };
        for (i, &e) in order.iter().enumerate() {
            o.order[i] = e;
            o.seat[e as usize] = i as u8;
        }
        o
    }

    #[test]
    fn the_interval_comes_from_block_means() {
        let mut t = Tally::new(3);
        // Entry 0 finishes 1st, 3rd, 2nd, 2nd: places 1, 3, 2, 2.
        for order in [[0, 1, 2], [1, 2, 0], [1, 0, 2], [2, 0, 1]] {
            t.record(&outcome(&order), false);
            t.end_block();
        }
        let (mean, half) = t.mean_place(0);
        assert_eq!(mean, 2.0);
        // Sample variance of 1, 3, 2, 2 is 2/3.
        let expected = 1.96 * ((2.0 / 3.0) / 4.0f64).sqrt();
        assert!((half.unwrap() - expected).abs() < 1e-12);
        // Two blocks of two hands each: the block means are 2 and 2.
        let mut t = Tally::new(3);
        for (i, order) in [[0, 1, 2], [1, 2, 0], [1, 0, 2], [2, 0, 1]]
            .iter()
            .enumerate()
        {
            t.record(&outcome(order), false);
            if i % 2 == 1 {
                t.end_block();
            }
        }
        assert_eq!(t.mean_place(0), (2.0, Some(0.0)));
    }

    #[test]
    fn mobility_counts_only_consecutive_hands_of_a_game() {
        let mut t = Tally::new(3);
        t.record(&outcome(&[0, 1, 2]), false);
        t.record(&outcome(&[2, 1, 0]), true);
        t.end_block();
        t.record(&outcome(&[0, 1, 2]), true);
        // Entry 0: seat 0 then seat 2; entry 1: seat 1 then 1; entry 2: 2 then 0.
        assert_eq!(t.mobility, [0, 0, 1, 0, 1, 0, 1, 0, 0]);
        assert_eq!(t.orders, [0, 1, 2, 2, 1, 0, 0, 1, 2]);
    }
}
