//! The lobby's summary of a table: what `GET /api/tables/{id}` answers,
//! what the lobby lists, and what a node publishes of its tables to the
//! others.

use std::time::Duration;

use crate::ids::TableId;
use crate::names::PlayerName;

/// A public summary of a table, for the lobby list. The store keeps it
/// as JSON for a finished table (and, with several nodes, for the tables
/// each node publishes): the fields added since the first summaries were
/// written read as their defaults.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TableInfo {
    /// The id.
    pub id: TableId,
    /// The name.
    pub name: String,
    /// The name's parts when it is a default one ("Ada's table 2"), for
    /// clients to say it in their player's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_name: Option<crate::names::DefaultTableName>,
    /// Seats in all.
    pub seats: usize,
    /// Seats taken (players and bots), by display name.
    pub taken: Vec<PlayerName>,
    /// The names among `taken` (and `winner`) that the server gave bots
    /// ("normal bot 3"), with their parts, for clients to say them in
    /// their player's language; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<super::BotNamed>,
    /// Whether play has started.
    pub started: bool,
    /// Whether the game is over.
    pub over: bool,
    /// Whether the lobby lists it.
    pub public: bool,
    /// The game played: `dalmuti`, `corporate-shuffle`, `daifugo` or
    /// `president`.
    #[serde(default)]
    pub variant: dalmuti_core::Variant,
    /// The current hand's number (0 before the start).
    pub hand: usize,
    /// The table's event number.
    pub v: u64,
    /// When the game was over, in milliseconds since the Unix epoch.
    #[serde(default)]
    pub finished_at: Option<u64>,
    /// The first in the final standings, once the game is over.
    #[serde(default)]
    pub winner: Option<PlayerName>,
    /// No human seat has had a connection for the server's listed-idle time:
    /// the lobby does not list it as open.
    #[serde(skip)]
    pub idle: bool,
    /// How long the table has been in this node's memory.
    #[serde(skip)]
    pub age: Duration,
}

/// A table's summary as a node publishes it to the others: with whether
/// it is idle, which the lobby's filter reads and a listing does not show.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Published {
    /// The summary.
    #[serde(flatten)]
    pub info: TableInfo,
    /// Whether it is idle ([`TableInfo::idle`]).
    pub idle: bool,
}

impl Published {
    /// What a summary is with its event number left out: a move alone is
    /// not a change the lobby shows.
    pub fn key(&self) -> String {
        let mut key = self.clone();
        key.info.v = 0;
        serde_json::to_string(&key).expect("a summary serializes")
    }

    /// The summary as read back, idle as published.
    pub fn into_info(self) -> TableInfo {
        TableInfo {
            idle: self.idle,
            ..self.info
        }
    }
}
