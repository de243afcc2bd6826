//! A table's life begins: created in the store or loaded from its log,
//! then its actor started ([`super::handle::spawn`]).

use super::actor::Actor;
use super::context::Context;
use super::handle::{TableHandle, spawn};
use super::replay::replay_log;
use super::state::TableState;
use crate::error::ServerError;
use crate::metrics::StoreOp;
use crate::store::TableRow;

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
    Ok(spawn(Actor::new(ctx, state)?.counted()))
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
    Ok(spawn(Actor::new(ctx, state)?.counted()))
}

/// A table whose state is already rebuilt, with its actor started (a
/// finished game served to one connection, [`crate::records`]).
pub fn revive(ctx: Context, state: TableState) -> Result<TableHandle, ServerError> {
    Ok(spawn(Actor::new(ctx, state)?))
}
