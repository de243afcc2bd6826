//! A table rebuilt from its log in the store.

use super::state::{Stored, TableState};
use crate::error::ServerError;
use crate::store::{Store, TableRow};

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
