//! The multiplayer server for *The Great Dalmuti* (issue 5): the
//! FOUNDATION, not yet wired into the `dalmuti` binary.
//!
//! What exists:
//! - [`store`]: the [`Store`](store::Store) trait and its SQLite
//!   implementation (WAL, `synchronous=FULL`): tables, seats (token hashes
//!   only: SHA-256 of 128 random bits, compared in constant time) and an
//!   append-only event log per table.
//! - [`table`]: one actor task per table owning its `Game` and bots, behind
//!   a cheap [`TableHandle`](table::TableHandle). Every accepted change is
//!   a numbered event written to the store before it is broadcast; a table
//!   is rebuilt on start by replaying its log (the stored game seed makes
//!   every deal replay exactly). Each seat gets messages built from its own
//!   view only; spectators from the spectator view.
//! - [`protocol`]: the WebSocket messages (`docs/PROTOCOL.md`), lichess
//!   style `{t, v, d}`.
//! - [`http`]: the axum router: create/list tables, take a seat, add and
//!   remove bots, start, and the WebSocket at `/ws/{id}`; one
//!   [`ServerError`] mapped to HTTP statuses.
//!
//! Still to do for issue 5:
//! - `dalmuti serve [--addr] [--data]` in the binary; graceful shutdown;
//!   a semaphore capping connections; a rate limit per connection.
//! - The browser client (embedded HTML/CSS/JS), the replay viewer and the
//!   download of finished games as records (`Record::from_game`).
//! - Reconnection with the missed events (today a `hello` always gets a
//!   full snapshot); a grace period (30 s) after which a bot plays a gone
//!   seat until its owner returns; an optional turn timer (tested with
//!   tokio's paused clock).
//! - Newcomers and leavers between hands; public/private tables; a host
//!   token so only the host may start; number of hands at creation.
//! - Fairness: per-hand seeds from the CSPRNG with a published SHA-256
//!   commitment and reveal (`docs/FAIRNESS.md`); today one game seed
//!   drives the draw and every deal, and it is never sent to clients.
//! - Bots run inside the actor synchronously: a slow `search` bot stalls
//!   its table (move to `spawn_blocking`).
//! - Tests over real sockets, a fuzzed decoder, a load generator
//!   (`docs/PERFORMANCE.md`) and a headless-browser end-to-end test.

pub mod error;
pub mod http;
pub mod protocol;
pub mod store;
pub mod table;

pub use error::ServerError;
