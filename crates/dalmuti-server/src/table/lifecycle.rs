//! A table's life: created or loaded from its log, its actor spawned and
//! kept running through a panic.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::Instrument;

use super::Timings;
use super::actor::Actor;
use super::bot_turn::BotDone;
use super::cmd::Command;
use super::expiry::Lifetimes;
use super::handle::TableHandle;
use super::state::{Stored, TableState};
use crate::bots::Budget;
use crate::error::ServerError;
use crate::metrics::{Metrics, StoreOp};
use crate::store::{Store, TableRow, Writer};

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
    pub archive: Arc<crate::records::Archive>,
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
            archive: Arc::default(),
        }
    }
}

/// Creates a new table in the store and starts its actor.
pub fn create(ctx: Context, row: TableRow) -> Result<TableHandle, ServerError> {
    let state = store_new(&ctx, row)?;
    created(&state.row);
    start(ctx, state)
}

/// Logs that table `row` was created (where the request was answered,
/// not on the blocking pool that wrote it, so the line is in the
/// request's context).
pub(crate) fn created(row: &TableRow) {
    tracing::info!(
        table = %row.id,
        seats = row.seats,
        public = row.public,
        "table created"
    );
}

/// The first half of [`create`]: the new table's row written to the store
/// (under a lease on several nodes). A blocking store call: async code
/// runs it on the blocking pool, then [`start`]s the table.
pub fn store_new(ctx: &Context, row: TableRow) -> Result<TableState, ServerError> {
    let state = TableState::new(row)?;
    let id = state.row.id.clone();
    ctx.metrics
        .time(StoreOp::Create, || match &ctx.cluster {
            Some(cluster) => cluster.create(&state.row),
            None => ctx
                .store
                .create_table(&state.row)
                .map_err(ServerError::from),
        })
        .inspect_err(|e| tracing::error!(table = %id, error = %e, "creating a table failed"))?;
    Ok(state)
}

/// The second half of [`create`]: the actor of a table [`store_new`] wrote.
pub fn start(ctx: Context, state: TableState) -> Result<TableHandle, ServerError> {
    Ok(spawn(counted(Actor::new(ctx, state)?)))
}

/// Creates a new table in the store with these events already in its
/// log (seats taken), without starting its actor.
pub(super) fn create_with(
    store: &dyn Store,
    row: TableRow,
    events: Vec<Stored>,
) -> Result<TableState, ServerError> {
    let mut state = TableState::new(row)?;
    for event in &events {
        state.apply(event.clone())?;
    }
    store.create_table(&state.row)?;
    for (i, event) in events.iter().enumerate() {
        let text = serde_json::to_string(event).expect("an event serializes");
        if let Err(e) = store.append(&state.row.id, i as u64 + 1, &text) {
            let _ = store.delete(&state.row.id);
            return Err(e.into());
        }
    }
    Ok(state)
}

/// Rebuilds a stored table by replaying its log, and starts its actor.
pub fn load(ctx: Context, row: TableRow) -> Result<TableHandle, ServerError> {
    let id = row.id.clone();
    let start = std::time::Instant::now();
    let state = ctx
        .metrics
        .time(StoreOp::Replay, || replay_log(ctx.store.as_ref(), row))
        .inspect_err(|e| tracing::error!(table = %id, error = %e, "loading a table failed"))?;
    tracing::info!(
        table = %id,
        events = state.v(),
        ms = start.elapsed().as_millis() as u64,
        "table loaded from its log"
    );
    Ok(spawn(counted(Actor::new(ctx, state)?)))
}

/// An actor of a live table of this node, counted in the metrics
/// (`dalmuti_tables`, `dalmuti_seats`) while it runs; a finished game
/// served to one connection ([`revive`]) is not.
pub(super) fn counted(mut actor: Actor) -> Actor {
    actor.gauge = Some(actor.ctx.metrics.live_table());
    actor.count_seats();
    actor
}

/// A table whose state is already rebuilt, with its actor started (a
/// finished game served to one connection, [`crate::records`]).
pub fn revive(ctx: Context, state: TableState) -> Result<TableHandle, ServerError> {
    Ok(spawn(Actor::new(ctx, state)?))
}

/// A table rebuilt by replaying its log from the store.
pub fn replay_log(store: &dyn Store, row: TableRow) -> Result<TableState, ServerError> {
    let id = row.id.clone();
    let log = store.log(&id)?;
    let mut events = Vec::with_capacity(log.len());
    for (i, text) in log.iter().enumerate() {
        let event: Stored = serde_json::from_str(text)
            .map_err(|e| ServerError::Storage(format!("table {id}, event {}: {e}", i + 1)))?;
        events.push(event);
    }
    TableState::replayed(row, events).map_err(|e| ServerError::Storage(format!("table {id}: {e}")))
}

/// What woke the actor.
pub(super) enum Wake {
    Command(Command),
    Bot(BotDone),
    Timer,
}

/// Recoveries in a row after which a table gives up (its log replays into
/// a state that panics again at once).
pub(super) const MAX_RECOVERIES: u32 = 3;

pub(super) fn spawn(mut actor: Actor) -> TableHandle {
    let (tx, mut rx) = mpsc::channel(256);
    let retired = actor.retired.clone();
    let name: Arc<str> = actor.state.row.name.as_str().into();
    // Everything the actor logs says which table it is.
    let span = tracing::info_span!("table", table = %actor.state.row.id);
    tokio::spawn(
        async move {
            let mut recoveries = 0;
            loop {
                // A bug must not take a table down with its players' game: a
                // panic rebuilds the table from its log (what every player has
                // been told) and it goes on.
                let planned = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    actor.schedule();
                    actor.next_wake()
                }));
                let wake = match planned {
                    Ok(wake) => wake,
                    Err(_) => {
                        recoveries += 1;
                        if recoveries > MAX_RECOVERIES || !actor.recover() {
                            tracing::error!(
                                recoveries,
                                "the table gave up after a panic in its actor"
                            );
                            return;
                        }
                        continue;
                    }
                };
                let woke = tokio::select! {
                    command = rx.recv() => match command {
                        Some(command) => Wake::Command(command),
                        None => return,
                    },
                    Some(done) = actor.bot_rx.recv() => Wake::Bot(done),
                    _ = sleep_until(wake) => Wake::Timer,
                };
                let step = AssertUnwindSafe(async {
                    match woke {
                        Wake::Command(command) => actor.handle(command).await,
                        Wake::Bot(done) => actor.bot_done(done).await,
                        Wake::Timer => actor.tick().await,
                    }
                });
                if step.catch_unwind().await.is_err() {
                    recoveries += 1;
                    if recoveries > MAX_RECOVERIES || !actor.recover() {
                        tracing::error!(recoveries, "the table gave up after a panic in its actor");
                        return;
                    }
                } else {
                    recoveries = 0;
                }
                if actor.retired.get().is_some() {
                    // Dropping the actor closes every feed: connections end,
                    // told why by the handle.
                    return;
                }
            }
        }
        .instrument(span),
    );
    TableHandle { tx, retired, name }
}

pub(super) async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
