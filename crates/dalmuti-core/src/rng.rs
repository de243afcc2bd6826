//! Seeds and the deal generator: a seed means the same deal forever.

use rand_chacha::ChaCha8Rng;
use rand_core::{OsRng, RngCore, SeedableRng, TryRngCore};

/// 32 bytes that fix every shuffle of a game.
///
/// A `u64` (as given on a command line) becomes the 8 little-endian bytes
/// followed by zeros. The bytes key a ChaCha8 stream; the shuffle drawn from
/// it is ours ([`DealRng::shuffle`]) so neither can change under us.
///
/// ```
/// use dalmuti_core::Seed;
/// assert_eq!(Seed::from(7).to_string(), format!("07{}", "0".repeat(62)));
/// assert_eq!(Seed::from(7).to_string().parse::<Seed>().unwrap(), Seed::from(7));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A fresh seed from the operating system's random source.
    ///
    /// # Panics
    /// If the operating system cannot provide randomness.
    pub fn from_entropy() -> Seed {
        let mut bytes = [0; 32];
        OsRng
            .try_fill_bytes(&mut bytes)
            .expect("the operating system's random source failed");
        Seed(bytes)
    }

    /// A seed as a person types it: a number (`7`, as [`Seed::from`] a
    /// `u64`) or 64 hex digits.
    ///
    /// ```
    /// use dalmuti_core::Seed;
    /// assert_eq!(Seed::from_text("7"), Ok(Seed::from(7)));
    /// assert_eq!(Seed::from_text(&Seed::from(7).to_string()), Ok(Seed::from(7)));
    /// assert!(Seed::from_text("seven").is_err());
    /// ```
    pub fn from_text(text: &str) -> Result<Seed, BadSeed> {
        let text = text.trim();
        if text.len() == 64 {
            text.parse()
        } else {
            text.parse::<u64>().map(Seed::from).map_err(|_| BadSeed)
        }
    }

    /// The seed written so [`Seed::from_text`] reads it back: the number if
    /// it is one, else 64 hex digits.
    ///
    /// ```
    /// use dalmuti_core::Seed;
    /// assert_eq!(Seed::from(7).text(), "7");
    /// let big = Seed([1; 32]);
    /// assert_eq!(Seed::from_text(&big.text()), Ok(big));
    /// ```
    pub fn text(&self) -> String {
        if self.0[8..].iter().all(|&b| b == 0) {
            u64::from_le_bytes(self.0[..8].try_into().expect("8 bytes")).to_string()
        } else {
            self.to_string()
        }
    }
}

impl From<u64> for Seed {
    fn from(n: u64) -> Seed {
        let mut bytes = [0; 32];
        bytes[..8].copy_from_slice(&n.to_le_bytes());
        Seed(bytes)
    }
}

impl std::fmt::Display for Seed {
    /// 64 lowercase hex digits.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// A seed on the wire and in stored logs: its 64 hex digits, as a string.
///
/// ```
/// use dalmuti_core::Seed;
/// let json = serde_json::to_string(&Seed::from(7)).unwrap();
/// assert_eq!(json, format!("\"07{}\"", "0".repeat(62)));
/// assert_eq!(serde_json::from_str::<Seed>(&json).unwrap(), Seed::from(7));
/// let bad = serde_json::from_str::<Seed>("\"7\"").unwrap_err();
/// assert!(bad.to_string().contains("a seed is 64 hexadecimal digits"), "{bad}");
/// ```
impl serde::Serialize for Seed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Seed {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Seed, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        text.parse().map_err(|e: BadSeed| {
            serde::de::Error::custom(format!(
                "{}: {e}",
                crate::wire::truncate(&format!("{text:?}"), 80)
            ))
        })
    }
}

/// A seed that is not 64 hex digits (nor, for [`Seed::from_text`], a
/// number).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hexadecimal digits")]
pub struct BadSeed;

impl std::str::FromStr for Seed {
    type Err = BadSeed;
    fn from_str(s: &str) -> Result<Seed, BadSeed> {
        if s.len() != 64 || !s.is_ascii() {
            return Err(BadSeed);
        }
        let mut bytes = [0; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| BadSeed)?;
        }
        Ok(Seed(bytes))
    }
}

/// The random stream of a game: seating draws and shuffles.
#[derive(Clone, Debug)]
pub struct DealRng(ChaCha8Rng);

impl DealRng {
    /// The stream for `seed`.
    pub fn new(seed: Seed) -> DealRng {
        DealRng(ChaCha8Rng::from_seed(seed.0))
    }

    /// A uniform number in `0..n` (`n` > 0), without bias: Lemire's
    /// multiply-and-reject method.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        bounded(n, &mut || self.0.next_u32())
    }

    /// Fisher–Yates: every order equally likely, and fixed forever for a
    /// seed (pinned by tests in `deck.rs`).
    #[inline]
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        shuffle_with(items, &mut || self.0.next_u32());
    }

    /// The next `block.len() / 4` numbers of the stream, little-endian:
    /// the same numbers as that many calls of [`DealRng::next_u32`], copied
    /// out of the generator in one go instead of a call each (a deal reads
    /// 79 of them). `block.len()` must be a multiple of 4.
    #[inline]
    pub(crate) fn fill_words(&mut self, block: &mut [u8]) {
        debug_assert_eq!(block.len() % 4, 0);
        // `fill_bytes` consumes whole 32-bit words from the same buffer as
        // `next_u32` (rand_core's `BlockRng`).
        self.0.fill_bytes(block);
    }

    /// The next number of the stream.
    #[inline]
    pub(crate) fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }
}

/// A uniform number in `0..n` (`n` > 0) from a stream of 32-bit numbers,
/// without bias: Lemire's multiply-and-reject method. Rejection (a second
/// number) happens with probability below `n / 2^32`.
#[inline]
pub(crate) fn bounded(n: u32, next: &mut impl FnMut() -> u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = u64::from(next()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(next()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Fisher–Yates from the last item down, drawing from `next`.
#[inline]
pub(crate) fn shuffle_with<T>(items: &mut [T], next: &mut impl FnMut() -> u32) {
    for i in (1..items.len()).rev() {
        let j = bounded(i as u32 + 1, next) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = DealRng::new(Seed::from(1));
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn a_block_of_words_is_the_stream() {
        for words in [0, 3, 64, 80] {
            let mut block = [0u8; 320];
            let mut ahead = DealRng::new(Seed::from(9));
            let mut plain = ahead.clone();
            ahead.fill_words(&mut block[..4 * words]);
            for word in block[..4 * words].chunks_exact(4) {
                assert_eq!(
                    u32::from_le_bytes(word.try_into().unwrap()),
                    plain.next_u32()
                );
            }
            assert_eq!(ahead.next_u32(), plain.next_u32(), "{words}");
        }
    }

    #[test]
    fn bounded_rejects_the_biased_zone_and_draws_again() {
        // 2^32 mod 3 = 1: the number 0 falls in the biased zone for n = 3
        // and must be replaced by the next one.
        let mut stream = [0u32, u32::MAX].into_iter();
        assert_eq!(bounded(3, &mut || stream.next().unwrap()), 2);
        assert_eq!(stream.next(), None);
    }

    #[test]
    fn seeds_parse_only_as_64_hex_digits() {
        assert!("00".parse::<Seed>().is_err());
        assert!("zz".repeat(32).parse::<Seed>().is_err());
        let s = Seed::from_entropy();
        assert_eq!(s.to_string().parse::<Seed>(), Ok(s));
    }
}
