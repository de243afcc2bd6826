//! Fair deals (`docs/FAIRNESS.md`): each hand is dealt from its own seed
//! drawn from the operating system's CSPRNG. Before the deal the table
//! publishes the seed's commitment, the SHA-256 of its 32 bytes; when the
//! hand is over it reveals the seed, and anyone can deal the hand again
//! (`Deck::for_table(rules, n).deal(n, &mut DealRng::new(seed))`) and
//! compare. [`verify`] does that for a downloaded game.

pub mod verify;

use dalmuti_core::Seed;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The commitment to a seed: SHA-256 of its 32 bytes, as 64 hex digits.
///
/// ```
/// use dalmuti_core::Seed;
/// let c = dalmuti_table::fairness::commitment(&Seed::from(1));
/// assert_eq!(c.len(), 64);
/// assert_ne!(c, dalmuti_table::fairness::commitment(&Seed::from(2)));
/// ```
pub fn commitment(seed: &Seed) -> String {
    crate::ids::hex(&Sha256::digest(seed.0))
}

/// One hand's commitment, and its seed once the hand is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandSeed {
    /// The hand's number, from 1.
    pub hand: usize,
    /// How many players it was dealt to.
    pub players: usize,
    /// SHA-256 of the seed, published before the deal.
    pub commitment: String,
    /// The seed, revealed when the hand is over.
    pub seed: Option<String>,
}

/// A game's fairness data: the seating draw's seed (public from the start:
/// the draw is dealt face up) and each hand's [`HandSeed`]. Finished
/// games' records carry it as the extra field `fairness`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fairness {
    /// The seed of the seating draw, once the game has started.
    pub draw_seed: Option<String>,
    /// Every hand dealt so far.
    pub hands: Vec<HandSeed>,
}

/// A finished game's record (`../shared/specs/game-record.md`, written by
/// the engine) with its fairness data: what the server gives for download
/// and `dalmuti verify` checks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FairRecord {
    /// The record, written as the engine writes it.
    #[serde(flatten)]
    pub record: dalmuti_core::record::Record,
    /// The deals' commitments and seeds.
    pub fairness: Fairness,
}
