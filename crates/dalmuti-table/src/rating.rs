//! A player's (or a bot level's) rating as the wire carries it: its mean,
//! its uncertainty and whether it is still provisional, and how a game
//! moved it. The server works ratings out (`dalmuti-server`'s `ratings`,
//! with the `skillratings` crate); clients only show them.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

/// A rating: the skill's mean and its uncertainty. Written with whether
/// it is still [provisional](Rating::provisional), so that every client
/// marks the same ratings.
///
/// ```
/// use dalmuti_table::rating::Rating;
/// let text = serde_json::to_string(&Rating::default()).unwrap();
/// assert!(text.ends_with(r#","provisional":true}"#), "{text}");
/// assert_eq!(serde_json::from_str::<Rating>(&text).unwrap(), Rating::default());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct Rating {
    /// The mean (25 for a newcomer).
    pub mu: f64,
    /// The uncertainty (25/3 for a newcomer).
    pub sigma: f64,
}

/// A newcomer's rating: Weng–Lin's first guess, 25 ± 25/3 (the server's
/// tests check it against the `skillratings` crate's).
impl Default for Rating {
    fn default() -> Rating {
        Rating {
            mu: 25.0,
            sigma: 25.0 / 3.0,
        }
    }
}

impl Rating {
    /// What the leaderboard ranks by: the mean less three uncertainties,
    /// so a player with few games does not top it by luck.
    ///
    /// ```
    /// use dalmuti_table::rating::Rating;
    /// assert_eq!(Rating::default().ordinal(), 0.0);
    /// ```
    pub fn ordinal(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }

    /// Whether the rating is still a first guess: its uncertainty above
    /// [`PROVISIONAL_SIGMA`] (a newcomer's is 25/3). Shown with a "?",
    /// as lichess marks a provisional rating.
    ///
    /// ```
    /// use dalmuti_table::rating::Rating;
    /// assert!(Rating::default().provisional());
    /// assert!(!Rating { mu: 25.0, sigma: 4.0 }.provisional());
    /// ```
    pub fn provisional(&self) -> bool {
        self.sigma > PROVISIONAL_SIGMA
    }
}

/// The uncertainty above which a rating is [provisional](Rating::provisional):
/// about the first ten rated games of a player at one table size (eight
/// at five players, fifteen at three, where a game's places say less: the
/// tests count them).
pub const PROVISIONAL_SIGMA: f64 = 4.0;

impl Serialize for Rating {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut r = serializer.serialize_struct("Rating", 3)?;
        r.serialize_field("mu", &self.mu)?;
        r.serialize_field("sigma", &self.sigma)?;
        r.serialize_field("provisional", &self.provisional())?;
        r.end()
    }
}

/// How a game over moved one rated player (or bot level): the game over
/// screen shows it (`rated` news, `docs/PROTOCOL.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The player's name, or a bot's level (`normal`): copies of one
    /// level at a table move its rating once.
    pub name: String,
    /// Whether a bot level.
    pub bot: bool,
    /// The rating before the game.
    pub before: Rating,
    /// The rating after it.
    pub after: Rating,
}
