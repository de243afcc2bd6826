//! `GET /api/games`: the games this server seats, each with its table
//! sizes and, for President and Daifugō, the named rule sets a table may
//! start from, as the engine defines them. The browser's forms are filled
//! from this answer, so no rule set is written twice (issue 43: the form
//! had a copy of the engine's presets).

use axum::Json;
use axum::Router;
use axum::routing::get;
use dalmuti_core::{Climbing, Variant};
use serde::{Deserialize, Serialize};

use crate::registry::AppState;

/// The route, for [`crate::http::router`].
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/games", get(|| async { Json(Games::offered()) }))
}

/// The answer of `GET /api/games`.
///
/// ```
/// use dalmuti_server::rules::games::Games;
/// let games = Games::offered();
/// assert_eq!(games.games.len(), 4);
/// let json = serde_json::to_value(&games).unwrap();
/// assert_eq!(json["games"][2]["variant"], "daifugo");
/// assert_eq!(json["games"][2]["presets"][0]["name"], "uecda");
/// assert_eq!(json["games"][2]["presets"][0]["climbing"]["eight_cut"], true);
/// ```
#[derive(Debug, Serialize, Deserialize)]
pub struct Games {
    /// Every game of the family, in the engine's order.
    pub games: Vec<Game>,
}

/// One game the server seats.
#[derive(Debug, Serialize, Deserialize)]
pub struct Game {
    /// Its word in rules and records (`dalmuti`, `daifugo`…).
    pub variant: Variant,
    /// The fewest players a table seats.
    pub fewest: usize,
    /// The most.
    pub most: usize,
    /// The rule sets a table may start from, the game's own first; empty
    /// where the game has no such options.
    pub presets: Vec<Preset>,
}

/// A named rule set of President or Daifugō: what `rules.preset` names.
#[derive(Debug, Serialize, Deserialize)]
pub struct Preset {
    /// Its name (`uecda`, `local`, `local_all`, `president`).
    pub name: String,
    /// Every option it sets, as `rules.climbing` writes them.
    pub climbing: Climbing,
}

impl Games {
    /// What the engine offers.
    pub fn offered() -> Games {
        let games = Variant::ALL
            .iter()
            .map(|&variant| Game {
                variant,
                fewest: *variant.players().start(),
                most: *variant.players().end(),
                presets: variant
                    .presets()
                    .iter()
                    .map(|&(name, climbing)| Preset {
                        name: name.to_string(),
                        climbing,
                    })
                    .collect(),
            })
            .collect();
        Games { games }
    }
}
