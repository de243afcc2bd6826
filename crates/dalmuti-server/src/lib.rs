//! The multiplayer server for *The Great Dalmuti*: `dalmuti serve`.
//!
//! - [`store`]: the [`Store`](store::Store) trait and its SQLite
//!   implementation (WAL, `synchronous=FULL`): tables and an append-only
//!   event log per table, seat tokens kept only as SHA-256 hashes.
//! - [`table`]: one actor task per table owning its `Game` and bots, behind
//!   a cheap [`TableHandle`](table::TableHandle). Every accepted change is
//!   a numbered event written to the store before it is broadcast; a table
//!   is rebuilt on start by replaying its log. Each seat gets messages
//!   built from its own view only; spectators from the spectator view.
//! - [`bots`]: the bot levels offered and the server-wide budget they
//!   think in.
//! - [`protocol`]: the WebSocket messages (`docs/PROTOCOL.md`).
//! - [`rules`]: the rules a client asks for, read strictly.
//! - [`http`]: the axum router: the lobby API, the WebSocket, the embedded
//!   browser client ([`web`]), with caps and rate limits.
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

pub mod bots;
pub mod error;
pub mod fairness;
pub mod http;
pub mod protocol;
mod rejection;
pub mod rules;
pub mod store;
pub mod table;
pub mod web;
mod ws;

pub use error::ServerError;

/// How a server runs: where it keeps its data, its timings and its caps.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite database file.
    pub data: PathBuf,
    /// How long a seat may be gone before a bot plays for it.
    pub grace: Duration,
    /// The pause before each bot move, so people can follow the play.
    pub bot_delay: Duration,
    /// The pause between the end of a hand and the next deal.
    pub hand_pause: Duration,
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
}

/// The machine's cores: the default number of bot decisions at once.
pub fn default_bot_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for Config {
    fn default() -> Config {
        Config {
            data: PathBuf::from("dalmuti-server.sqlite"),
            grace: Duration::from_secs(30),
            bot_delay: Duration::from_millis(700),
            hand_pause: Duration::from_secs(6),
            max_connections: 20_000,
            max_tables: 10_000,
            messages_per_second: 20,
            bot_threads: default_bot_threads(),
            bot_wait: Duration::from_secs(2),
        }
    }
}

impl Config {
    /// A configuration for tests: no pauses, a short grace period.
    pub fn for_tests() -> Config {
        Config {
            grace: Duration::from_millis(300),
            bot_delay: Duration::ZERO,
            hand_pause: Duration::ZERO,
            ..Config::default()
        }
    }
}

/// Opens the database in `config.data`, brings every stored table back,
/// and serves on `listener` until `shutdown` completes; then closes every
/// WebSocket and returns.
pub async fn serve(
    config: Config,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let store: Arc<dyn store::Store> = Arc::new(store::SqliteStore::open(&config.data)?);
    let state = http::AppState::open(store, config)?;
    let closing = state.clone();
    let app = http::router(state);
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        shutdown.await;
        closing.close();
    })
    .await
    .map_err(|e| ServerError::Storage(format!("serving: {e}")))
}
