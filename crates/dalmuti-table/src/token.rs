//! A seat's secret token (`docs/PROTOCOL.md`, Credentials): whoever holds
//! it plays the seat. The server keeps only its SHA-256 and never shows the
//! token itself: not in a log, not in an error, not in a `Debug` print.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A seat's secret token: 128 random bits as 32 lowercase hex digits when
/// the server makes one; whatever a client sends when it presents one.
/// Written as a plain JSON string.
///
/// ```
/// use dalmuti_table::token::SeatToken;
/// let token = SeatToken::new();
/// assert_eq!(token.len(), 32);
/// assert!(token.matches(&token.hash()));
/// assert!(!SeatToken::new().matches(&token.hash()));
/// // Never printed, even by mistake.
/// assert_eq!(format!("{token:?}"), "SeatToken(…)");
/// assert_eq!(serde_json::to_string(&token).unwrap(), format!("\"{}\"", token.as_str()));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatToken(String);

impl SeatToken {
    /// A new token from the operating system's random source.
    #[allow(clippy::new_without_default)] // a random value is not a default
    pub fn new() -> SeatToken {
        SeatToken(crate::ids::random_hex::<16>())
    }

    /// The token as sent: for the one answer that gives it to its seat.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its SHA-256: all the server keeps of it.
    pub fn hash(&self) -> [u8; 32] {
        hash_token(&self.0)
    }

    /// Whether it hashes to `hash`, compared in constant time.
    pub fn matches(&self, hash: &[u8; 32]) -> bool {
        token_matches(&self.0, hash)
    }
}

impl std::ops::Deref for SeatToken {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

crate::ids::from_text!(SeatToken);

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(…)")
    }
}

/// The SHA-256 of a token as text.
pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `token` hashes to `hash`, compared in constant time.
pub fn token_matches(token: &str, hash: &[u8; 32]) -> bool {
    hash_token(token).ct_eq(hash).into()
}
