//! Finished games, served from the store: a game that is over leaves
//! memory (`table::expiry`) and is kept as its log and lobby summary. Its
//! record, replay and fairness data are rebuilt on demand by replaying the
//! log, on the blocking pool under the same budget as bot thinking (a
//! long game's replay is real work, and strangers may ask for it).

use serde_json::Value;

use crate::error::ServerError;
use crate::metrics::StoreOp;
use crate::store::TableRow;
use crate::table::{self, Context, TableHandle, TableState};

/// A finished game kept in the store: its row and lobby summary (INFO).
pub fn find(ctx: &Context, id: &str) -> Result<(TableRow, Value), ServerError> {
    let (row, summary) = ctx
        .store
        .finished_table(id)?
        .ok_or_else(|| ServerError::NoTable(id.to_string()))?;
    let summary = serde_json::from_str(&summary)
        .map_err(|e| ServerError::Storage(format!("table {id}'s summary: {e}")))?;
    Ok((row, summary))
}

/// The finished game `id` rebuilt from its log.
pub async fn replayed(ctx: &Context, id: &str) -> Result<TableState, ServerError> {
    let (row, _) = find(ctx, id)?;
    let (store, metrics) = (ctx.store.clone(), ctx.metrics.clone());
    ctx.budget
        .run(move |granted| {
            granted
                .then(|| metrics.time(StoreOp::Replay, || table::replay_log(store.as_ref(), row)))
        })
        .await
        .ok_or_else(|| ServerError::Storage("replaying the game failed".into()))?
        .ok_or_else(|| ServerError::Full("the server is busy: try again in a moment".into()))?
}

/// A table actor over a finished game, for one WebSocket: it answers
/// `hello` with the final state and refuses every action (the game is
/// over); it stops when its connection drops the handle.
pub async fn revive(ctx: &Context, id: &str) -> Result<TableHandle, ServerError> {
    let state = replayed(ctx, id).await?;
    let ctx = Context {
        lifetimes: None,
        ..ctx.clone()
    };
    table::revive(ctx, state)
}

/// Requests that change a table are refused once its game is over.
pub fn over(id: &str) -> ServerError {
    ServerError::Conflict(format!(
        "the game at table {id} is over: its record is at /api/tables/{id}/record"
    ))
}
