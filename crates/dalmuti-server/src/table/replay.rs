//! A table rebuilt from its log in the store.

use super::state::TableState;
use crate::error::ServerError;
use crate::store::{Store, TableRow};

/// A table rebuilt by replaying its log from the store.
pub fn replay_log(store: &dyn Store, row: TableRow) -> Result<TableState, ServerError> {
    let id = row.id.clone();
    let events = store.log(&id)?;
    TableState::replayed(row, events).map_err(|e| {
        ServerError::Storage(crate::store::StoreError::Failed(format!("table {id}: {e}")))
    })
}
