//! What a table needs from the server: its store, writer, timings, bot
//! budget, lifetimes, cluster and metrics.

use std::sync::Arc;
use std::time::Duration;

use super::Timings;
use super::expiry::Lifetimes;
use crate::bots::Budget;
use crate::metrics::Metrics;
use crate::store::{Store, Writer};

/// What a table needs from the server.
#[derive(Clone)]
pub struct Context {
    /// Where the log is read from on start.
    pub store: Arc<dyn Store>,
    /// Where events are written.
    pub writer: Writer,
    /// The table's timings.
    pub timings: Timings,
    /// The server's budget for bot thinking, shared by every table.
    pub budget: Budget,
    /// When tables leave memory; `None`: never.
    pub lifetimes: Option<Lifetimes>,
    /// This node among others on one database, if it is: tables are
    /// created leased to it, and give their lease up when handed over.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
    /// The node's metrics (`/metrics`), shared by every table.
    pub metrics: Metrics,
    /// Finished games' records and replays, built once and kept.
    /// The chat limit of each player who kept a name, over every table of
    /// the node ([`super::talk::player_chat_limit`]).
    pub player_chat: Arc<governor::DefaultKeyedRateLimiter<String>>,
    /// The contest programs waiting at the node's UECda port, if it has
    /// one.
    pub programs: Option<crate::programs::Programs>,
}

impl Context {
    /// A context over `store` with its own writer, a bot budget of one
    /// decision per core, and tables that never leave memory.
    pub fn new(store: Arc<dyn Store>, timings: Timings) -> Context {
        let metrics = Metrics::default();
        Context {
            writer: Writer::metered(store.clone(), metrics.clone()),
            store,
            timings,
            budget: Budget::new(crate::default_bot_threads(), Duration::from_secs(2)),
            lifetimes: None,
            cluster: None,
            metrics,
            player_chat: Arc::new(super::talk::player_chat_limit()),
            programs: None,
        }
    }
}
