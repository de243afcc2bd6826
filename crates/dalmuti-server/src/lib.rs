//! The multiplayer server for *The Great Dalmuti*: `dalmuti serve`.
//!
//! - [`store`]: the [`Store`](store::Store) trait and its SQLite
//!   implementation (WAL, `synchronous=FULL`) and PostgreSQL one (for a
//!   database several nodes share): tables and an append-only
//!   event log per table, seat tokens kept only as SHA-256 hashes.
//! - [`table`]: one actor task per table owning its `Game` and bots, behind
//!   a cheap [`TableHandle`](table::TableHandle). Every accepted change is
//!   a numbered event written to the store before it is broadcast; a table
//!   is rebuilt on start by replaying its log. Each seat gets messages
//!   built from its own view only; spectators from the spectator view.
//! - [`cluster`]: several nodes on one PostgreSQL database: each table
//!   served by the node holding its lease (fenced in the database), taken
//!   over by another when that node dies or stops; requests for it sent
//!   there (a 307, a WebSocket `moved`); one lobby over every node.
//! - [`bots`]: the bot levels offered and the server-wide budget they
//!   think in.
//! - [`protocol`]: the WebSocket messages (`docs/PROTOCOL.md`).
//! - [`rules`]: the rules a client asks for, read strictly.
//! - [`accept`]: the accept loop (header timeout, connections per
//!   address, graceful shutdown); [`limits`]: the per-address limits.
//! - [`records`]: finished games served from the store.
//! - [`http`]: the axum router: the lobby API, the WebSocket, the embedded
//!   browser client ([`web`]), with caps and rate limits; [`transfer`]:
//!   compression and ETags.
//! - [`ops`]: `/healthz`, `/readyz` (with the draining flag,
//!   [`http::AppState::set_draining`]) and `/metrics`; [`metrics`]: what
//!   `/metrics` counts, bounded and without hidden information.
//! - [`testing`]: for tests only: what a client was told, checked against
//!   the log ("commit, then tell"), and a database that stops answering
//!   one node.
//!
//! The server logs through `tracing` (what and where things fail, tables
//! created, loaded, finished and expired, each with its `table` id; never
//! a token, a card or a chat line); the binary chooses how logs are
//! written (`dalmuti serve --log-format`).
//!
//! ```no_run
//! # async fn run() -> Result<(), dalmuti_server::ServerError> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await.unwrap();
//! let config = dalmuti_server::Config {
//!     data: "dalmuti.sqlite".into(),
//!     ..Default::default()
//! };
//! dalmuti_server::serve(config, listener, std::future::pending()).await
//! # }
//! ```

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub mod accept;
pub mod bots;
pub mod cluster;
pub mod error;
pub use dalmuti_table::{fairness, ids, names, protocol, token};
pub mod health;
pub mod http;
pub mod limits;
pub mod metrics;
pub mod ops;
pub mod players;
pub mod programs;
pub mod queue;
pub mod ratings;
pub mod records;
pub mod registry;
mod rejection;
pub mod request;
pub mod rules;
pub mod store;
pub mod table;
pub mod testing;
pub mod transfer;
pub mod web;
pub mod ws;

pub use error::ServerError;

/// How a server runs: where it keeps its data, its timings and its caps.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite database file (unless `database_url` is set).
    pub data: PathBuf,
    /// A PostgreSQL database (`postgres://USER@HOST/DB`), used instead of
    /// the SQLite file `data` when set: what several nodes can share.
    pub database_url: Option<String>,
    /// The CA (PEM) that signed the PostgreSQL server's certificate: TLS,
    /// verified ([`store::PostgresStore::open_with_ca`]).
    pub database_ca: Option<PathBuf>,
    /// How long a seat may be gone before a bot plays for it.
    pub grace: Duration,
    /// The pause before each bot move, so people can follow the play.
    pub bot_delay: Duration,
    /// The pause between the end of a hand and the next deal.
    pub hand_pause: Duration,
    /// The "look at your cards" pause that every hand's setup lasts at
    /// least (RULES.md, D25).
    pub setup_pause: Duration,
    /// The most WebSocket connections at once.
    pub max_connections: usize,
    /// The most tables kept.
    pub max_tables: usize,
    /// Messages a connection may send per second (with a burst of twice
    /// as many).
    pub messages_per_second: u32,
    /// Bot decisions that may think at once, over every table (each holds
    /// one thread of the blocking pool).
    pub bot_threads: usize,
    /// How long a bot decision may wait for its turn to think before the
    /// cheap heuristic bot decides instead.
    pub bot_wait: Duration,
    /// Connections one client address may hold at once (HTTP and
    /// WebSocket together).
    pub max_per_address: usize,
    /// Tables one client address may create at once…
    pub table_burst: u32,
    /// …and then one per this interval.
    pub table_interval: Duration,
    /// Names one client address may keep at once, then one every
    /// [`players::REGISTRATION_INTERVAL`] ([`players`]).
    pub player_burst: u32,
    /// What downloads of finished games (records, replays, fairness
    /// data) may cost, per address and in all ([`records::Downloads`]).
    pub downloads: records::Downloads,
    /// How long a client has to send a request's headers (also how long
    /// an idle keep-alive connection stays open).
    pub header_timeout: Duration,
    /// How long a whole request may take, body and answer included.
    pub request_timeout: Duration,
    /// How long a new WebSocket has to say `hello`.
    pub hello_timeout: Duration,
    /// How often the server pings each WebSocket.
    pub ping_interval: Duration,
    /// How long a WebSocket may send nothing at all (not even a pong)
    /// before it is closed.
    pub idle_timeout: Duration,
    /// A table not started this long after its creation (or the server's
    /// start) expires: it is deleted.
    pub unstarted_ttl: Duration,
    /// A started game with no human seat connected this long expires.
    pub abandoned_ttl: Duration,
    /// A table with no human seat connected this long is no longer
    /// listed among the open tables (its link still works).
    pub listed_idle: Duration,
    /// A finished game stays live (its players see the final standings)
    /// at most this long, less once its last human connection closes;
    /// then it is served from the store as a record.
    pub finished_linger: Duration,
    /// The most finished games kept, oldest pruned first.
    pub max_finished: usize,
    /// This node's id among the nodes sharing a PostgreSQL database
    /// (`--node-id`); default: the host's name and the port.
    pub node_id: Option<String>,
    /// Where clients reach this node (`--public-url`): requests for its
    /// tables that reach another node are sent here. Default: the address
    /// it listens on, over HTTP.
    pub public_url: Option<String>,
    /// How long a node's hold on a table lasts unless renewed (every
    /// third of it): how long a dead node's tables wait for another.
    pub lease: Duration,
    /// For tests only (`--deal-seed`): every table started draws its
    /// seats and deals its hands from this seed, so a browser test plays
    /// positions chosen for it. Whoever knows the seed knows every hand:
    /// never on a server people play on.
    pub deal_seed: Option<dalmuti_core::Seed>,
    /// The contest programs waiting at the server's UECda port
    /// (`--uecda-port`), if it has one: a host seats them at tables of
    /// the contest's Daifugō ([`programs`]).
    pub programs: Option<programs::Programs>,
}

/// The SQLite database of `config.data`, opened (and brought up to date).
fn open_sqlite(config: &Config) -> Result<store::SqliteStore, ServerError> {
    store::SqliteStore::open(&config.data).map_err(|e| {
        ServerError::Storage(crate::store::StoreError::Failed(format!(
            "cannot open the database {}: {}",
            config.data.display(),
            e.message()
        )))
    })
}

/// The PostgreSQL database at `url`, opened (and brought up to date).
fn open_postgres(config: &Config, url: &str) -> Result<store::PostgresStore, ServerError> {
    store::PostgresStore::open_with_ca(url, config.database_ca.as_deref()).map_err(|e| {
        ServerError::Storage(crate::store::StoreError::Failed(format!(
            "cannot open the database {}: {}",
            redact(url),
            e.message()
        )))
    })
}

/// The reported chat lines the database of `config` keeps, newest first,
/// at most `limit`: for the operator (`dalmuti serve --list-reports`).
pub fn list_reports(config: &Config, limit: usize) -> Result<Vec<store::ReportRow>, ServerError> {
    use store::Store;
    let reports = match &config.database_url {
        None => open_sqlite(config)?.reports(limit),
        Some(url) => open_postgres(config, url)?.reports(limit),
    };
    reports.map_err(|e| ServerError::Storage(crate::store::StoreError::Failed(e.to_string())))
}

/// The machine's cores: the default number of bot decisions at once.
pub fn default_bot_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for Config {
    fn default() -> Config {
        Config {
            data: PathBuf::from("dalmuti-server.sqlite"),
            database_url: None,
            database_ca: None,
            grace: Duration::from_secs(30),
            bot_delay: Duration::from_millis(700),
            hand_pause: Duration::from_secs(6),
            setup_pause: Duration::from_secs(6),
            max_connections: 20_000,
            max_tables: 10_000,
            messages_per_second: 20,
            bot_threads: default_bot_threads(),
            bot_wait: Duration::from_secs(2),
            max_per_address: 64,
            table_burst: 5,
            table_interval: Duration::from_secs(60),
            player_burst: players::REGISTRATION_BURST,
            downloads: records::Downloads::default(),
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            hello_timeout: Duration::from_secs(10),
            ping_interval: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(60),
            unstarted_ttl: Duration::from_secs(30 * 60),
            abandoned_ttl: Duration::from_secs(60 * 60),
            listed_idle: Duration::from_secs(2 * 60),
            finished_linger: Duration::from_secs(10 * 60),
            max_finished: 10_000,
            node_id: None,
            public_url: None,
            lease: Duration::from_secs(10),
            deal_seed: None,
            programs: None,
        }
    }
}

impl Config {
    /// A configuration for tests: no pauses, a short grace period, and
    /// room for the many tables and connections tests make from one
    /// address.
    pub fn for_tests() -> Config {
        Config {
            grace: Duration::from_millis(300),
            bot_delay: Duration::ZERO,
            hand_pause: Duration::ZERO,
            setup_pause: Duration::ZERO,
            max_per_address: 1000,
            table_burst: 1000,
            player_burst: 1000,
            downloads: records::Downloads {
                at_once: 1000,
                per_address: 1000,
                burst: 1000,
                ..records::Downloads::default()
            },
            ..Config::default()
        }
    }
}

/// A server with its database open and its tables back, ready to serve.
pub struct Server {
    state: http::AppState,
    config: Config,
}

impl Server {
    /// Opens the database (PostgreSQL at `config.database_url`, else the
    /// SQLite file `config.data`, created if missing) and brings every
    /// live table back. Must run inside a tokio runtime. Fails, before
    /// anything listens, if the database cannot be opened or read.
    ///
    /// On PostgreSQL the server is one node among any number sharing the
    /// database ([`cluster`]): it registers as `config.node_id` at
    /// `config.public_url` (by default the host's name with `addr`'s port,
    /// and `http://addr`) and serves the tables it holds a lease on.
    pub fn open(config: Config, addr: std::net::SocketAddr) -> Result<Server, ServerError> {
        let Some(url) = &config.database_url else {
            let store = open_sqlite(&config)?;
            let state = http::AppState::open(Arc::new(store), config.clone())?;
            tokio::spawn(queue::run(state.clone()));
            tracing::info!(
                node = %state.node_name(),
                database = "sqlite",
                "database open, live tables loaded"
            );
            return Ok(Server { state, config });
        };
        let store = Arc::new(open_postgres(&config, url)?);
        let node = config
            .node_id
            .clone()
            .unwrap_or_else(|| cluster::default_node_id(addr.port()));
        let public_url = config
            .public_url
            .clone()
            .unwrap_or_else(|| cluster::default_public_url(addr));
        let cluster = cluster::Cluster::join(store.clone(), node, public_url, config.lease)
            .map_err(|e| {
                ServerError::Storage(crate::store::StoreError::Failed(format!(
                    "cannot join the other nodes: {e}"
                )))
            })?;
        tracing::info!(
            node = %cluster.node,
            public_url = %cluster.public_url,
            database = "postgres",
            "database open, joined the nodes"
        );
        let state = http::AppState::with_cluster(store, Some(Arc::new(cluster)), config.clone())?;
        tokio::spawn(queue::run(state.clone()));
        Ok(Server { state, config })
    }

    /// On PostgreSQL, this node's id and public address.
    pub fn node(&self) -> Option<(String, String)> {
        self.state.node()
    }

    /// The server's shared state: its metrics, its draining flag
    /// ([`http::AppState::set_draining`]).
    pub fn state(&self) -> &http::AppState {
        &self.state
    }

    /// Serves on `listener` until `shutdown` completes; then closes every
    /// WebSocket, lets open requests finish and returns.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let closing = self.state.clone();
        let draining = self.state.clone();
        let node = self.state.node_name();
        let app = http::router(self.state);
        // On the signal, the tables are handed over (each stops after
        // the step under way, its lease given up, its clients told where
        // to go) before the connections close.
        let shutdown = async move {
            shutdown.await;
            draining.drain().await;
        };
        match listener.local_addr() {
            Ok(addr) => tracing::info!(node = %node, %addr, "server started"),
            Err(e) => tracing::info!(node = %node, error = %e, "server started"),
        }
        accept::serve(listener, app, &self.config, shutdown, move || {
            tracing::info!("server stopping: closing every WebSocket");
            closing.close()
        })
        .await;
        tracing::info!(node = %node, "server stopped");
        Ok(())
    }
}

/// Opens the database ([`Server::open`]), brings every live table back,
/// and serves on `listener` until `shutdown` completes; then closes every
/// WebSocket and returns.
pub async fn serve(
    config: Config,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let addr = listener.local_addr().map_err(|e| {
        ServerError::Storage(crate::store::StoreError::Failed(format!(
            "the listening address: {e}"
        )))
    })?;
    Server::open(config, addr)?.run(listener, shutdown).await
}

/// A database address fit to print: its password, if any, replaced by
/// `***` (`postgres://ada:***@db/dalmuti`, `host=db password=***`).
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url
            .split(' ')
            .map(|word| match word.split_once('=') {
                Some(("password", _)) => "password=***",
                _ => word,
            })
            .collect::<Vec<_>>()
            .join(" ");
    };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    match rest[..end].rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{scheme}://{name}:***@{host}{}", &rest[end..]),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_printed_database_address_hides_its_password() {
        assert_eq!(
            super::redact("postgres://ada:s3cret@db:5432/dalmuti?sslmode=disable"),
            "postgres://ada:***@db:5432/dalmuti?sslmode=disable"
        );
        assert_eq!(
            super::redact("postgres://ada@db/dalmuti"),
            "postgres://ada@db/dalmuti"
        );
        assert_eq!(
            super::redact("host=db password=pw user=ada"),
            "host=db password=*** user=ada"
        );
    }
}
