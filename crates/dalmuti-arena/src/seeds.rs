//! Every random number of a run, derived from the run's seed and an index,
//! so that a deal's seed does not depend on which thread plays it, nor on
//! how deals are grouped into work units.

use dalmuti_core::{MAX_PLAYERS, Seed};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// What one deal (or one game) is played from: the seed of its shuffles,
/// and a number for everything else (the seating, the bots' randomness).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct DealSeeds {
    /// Seeds the deal's `DealRng` (a game's, for a game).
    pub deal: Seed,
    /// Seeds the seating and the bots.
    pub aux: u64,
}

/// Separate streams of the run's ChaCha8 for separate purposes.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Stream {
    /// Independent hands, indexed by deal.
    Hands = 0,
    /// Games, indexed by game.
    Games = 1,
}

/// Words (of 32 bits) of the stream used per index: 8 for the deal seed, 2
/// for `aux`.
const WORDS: u128 = 10;

/// Reads consecutive [`DealSeeds`] from the run's stream, starting anywhere:
/// the seeds of index `i` are words `10 i .. 10 i + 10` of stream `s` of a
/// ChaCha8 keyed by the run's seed.
pub(crate) struct SeedStream(ChaCha8Rng);

impl SeedStream {
    /// The stream positioned at `index`.
    pub fn at(run: Seed, stream: Stream, index: u64) -> SeedStream {
        let mut rng = ChaCha8Rng::from_seed(run.0);
        rng.set_stream(stream as u64);
        rng.set_word_pos(u128::from(index) * WORDS);
        SeedStream(rng)
    }

    /// The seeds of the next index.
    pub fn next_seeds(&mut self) -> DealSeeds {
        let mut deal = [0u8; 32];
        self.0.fill_bytes(&mut deal);
        DealSeeds {
            deal: Seed(deal),
            aux: self.0.next_u64(),
        }
    }
}

/// SplitMix64's finaliser: a good 64-bit mix.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed a bot's randomness restarts from for hand `hand` (0 for an
/// independent hand) at dealt seat `seat`: the same whichever bot sits
/// there, so duplicate rotations replay the same randomness per seat.
pub(crate) fn bot_seed(aux: u64, hand: u32, seat: usize) -> u64 {
    mix(mix(aux ^ 0xB07) ^ (u64::from(hand) << 8 | seat as u64))
}

/// The seed a work unit builds its bots with (they are reseeded before
/// every hand, so it matters little).
pub(crate) fn build_seed(run: Seed, unit: u64, entry: usize) -> u64 {
    let key = u64::from_le_bytes(run.0[..8].try_into().expect("8 bytes"))
        ^ mix(u64::from_le_bytes(
            run.0[8..16].try_into().expect("8 bytes"),
        ));
    mix(mix(key ^ unit) ^ entry as u64)
}

/// A random order of `0..players` drawn from `aux`: entry `order[s]` sits
/// at seat `s` (Fisher–Yates over SplitMix64; the tiny bias of `%` on a
/// 64-bit number is far below anything measurable).
pub(crate) fn seating(aux: u64, players: usize) -> [u8; MAX_PLAYERS] {
    let mut order = [0u8; MAX_PLAYERS];
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u8;
    }
    let mut state = aux;
    for i in (1..players).rev() {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let j = (mix(state) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_of_an_index_do_not_depend_on_where_reading_starts() {
        let run = Seed::from(9);
        let mut from_zero = SeedStream::at(run, Stream::Hands, 0);
        let seeds: Vec<DealSeeds> = (0..50).map(|_| from_zero.next_seeds()).collect();
        for start in [1usize, 7, 33, 48] {
            let mut s = SeedStream::at(run, Stream::Hands, start as u64);
            assert_eq!(s.next_seeds(), seeds[start]);
            assert_eq!(s.next_seeds(), seeds[start + 1]);
        }
        let mut games = SeedStream::at(run, Stream::Games, 0);
        assert_ne!(games.next_seeds(), seeds[0]);
    }

    #[test]
    fn seatings_are_orders_and_vary() {
        let mut firsts = [0u32; 5];
        for aux in 0..5000u64 {
            let s = seating(mix(aux), 5);
            let mut sorted = s[..5].to_vec();
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3, 4]);
            firsts[s[0] as usize] += 1;
        }
        assert!(
            firsts.iter().all(|&c| (850..1150).contains(&c)),
            "{firsts:?}"
        );
    }
}
