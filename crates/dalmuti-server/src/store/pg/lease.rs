//! Leases: which node may write a table's log, fenced in the database by
//! each write's epoch.

use super::*;

impl PostgresStore {
    /// Appends `events` in one transaction, each written under lease epoch
    /// `epoch`, or else under the epoch of its table's lease this node
    /// holds ([`PostgresStore::hold`]), or else none (one node).
    pub(super) fn insert_events(
        &self,
        events: &[Append],
        epoch: Option<i64>,
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        let mut tables = Vec::with_capacity(events.len());
        let mut numbers = Vec::with_capacity(events.len());
        let mut texts = Vec::with_capacity(events.len());
        let mut epochs = Vec::with_capacity(events.len());
        // In the order of their tables (each table's own events keep
        // theirs): every transaction that locks leases locks them in that
        // one order, so a batch and a renewal never deadlock.
        let mut ordered: Vec<&Append> = events.iter().collect();
        ordered.sort_by(|a, b| a.table.cmp(&b.table));
        {
            let held = self.held();
            for e in ordered {
                tables.push(e.table.clone());
                numbers.push(bigint(e.v, "event number")?);
                texts.push(crate::store::columns::event_text(&e.event));
                epochs.push(epoch.or_else(|| held.get(&e.table).copied()));
            }
        }
        let what = match events {
            [e] => format!("append event {} of table {}", e.v, e.table),
            _ => format!("append {} events", events.len()),
        };
        // One statement for the whole batch (one round trip), rows in the
        // batch's order: the trigger checks each event against the ones
        // inserted before it, in this statement too.
        self.transaction(what.clone(), move |tx| {
            tx.execute(
                "INSERT INTO log (table_id, v, event, epoch)
                 SELECT t, v, e, l FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])
                     WITH ORDINALITY AS batch (t, v, e, l, i)
                 ORDER BY i",
                &[&tables, &numbers, &texts, &epochs],
            )
            .map_err(failed(what))?;
            Ok(())
        })
    }

    /// The leases this node holds.
    pub(super) fn held(&self) -> std::sync::MutexGuard<'_, HashMap<TableId, i64>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes table `table`'s lease for node `node` for `ttl`, if it is
    /// free, expired or already this node's; answers None if another node
    /// holds it. Every taking draws a new epoch, greater than any before
    /// (also for the node that held it: a restarted node fences its former
    /// self). Expiry is the database's clock, not the node's.
    pub fn acquire_lease(
        &self,
        table: &TableId,
        node: &str,
        ttl: Duration,
    ) -> Result<Option<Lease>, StoreError> {
        let node = node_id(node)?;
        let secs = lease_secs(ttl)?;
        let table = table.clone();
        let what = format!("take the lease of table {table} for node {node}");
        self.run(what.clone(), move |c| {
            let taken = c
                .query_opt(
                    "INSERT INTO leases (table_id, node, epoch, expires)
                     VALUES ($1, $2, nextval('lease_epochs'),
                         now() + make_interval(secs => $3))
                     ON CONFLICT (table_id) DO UPDATE
                         SET node = EXCLUDED.node, epoch = EXCLUDED.epoch,
                             expires = EXCLUDED.expires
                         WHERE leases.expires <= now() OR leases.node = EXCLUDED.node
                     RETURNING epoch",
                    &[&table, &node, &secs],
                )
                .map_err(failed(what))?;
            Ok(taken.map(|r| Lease {
                table,
                node,
                epoch: r.get::<_, i64>(0).max(0) as u64,
            }))
        })
    }

    /// Extends a lease by `ttl` from now; false if it was lost (expired, or
    /// taken since): the node must then stop writing the table and take
    /// the lease again (a new epoch) before it writes.
    pub fn renew_lease(&self, lease: &Lease, ttl: Duration) -> Result<bool, StoreError> {
        let secs = lease_secs(ttl)?;
        let (table, epoch) = (lease.table.clone(), bigint(lease.epoch, "lease epoch")?);
        let what = format!("renew the lease of table {table} (epoch {epoch})");
        self.run(what.clone(), move |c| {
            let renewed = c
                .execute(
                    "UPDATE leases SET expires = now() + make_interval(secs => $3)
                     WHERE table_id = $1 AND epoch = $2 AND expires > now()",
                    &[&table, &epoch, &secs],
                )
                .map_err(failed(what))?;
            Ok(renewed == 1)
        })
    }

    /// Gives a lease up: it expires at once, so any node may take the table
    /// (a drain); the epoch stays, so nothing more is written under it.
    pub fn release_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        let (table, epoch) = (lease.table.clone(), bigint(lease.epoch, "lease epoch")?);
        let what = format!("release the lease of table {table} (epoch {epoch})");
        self.run(what.clone(), move |c| {
            c.execute(
                "UPDATE leases SET expires = '-infinity' WHERE table_id = $1 AND epoch = $2",
                &[&table, &epoch],
            )
            .map_err(failed(what))?;
            Ok(())
        })
    }

    /// Appends events of the lease's table (in order, one transaction),
    /// refused by the database unless the lease is still the table's,
    /// unexpired.
    pub fn append_leased(&self, lease: &Lease, events: &[Append]) -> Result<(), StoreError> {
        if let Some(other) = events.iter().find(|e| e.table != lease.table) {
            return Err(StoreError::Failed(format!(
                "PostgreSQL: an event of table {} under the lease of table {}",
                other.table, lease.table
            )));
        }
        self.insert_events(events, Some(bigint(lease.epoch, "lease epoch")?))
    }
}

/// A table's lease, as taken by [`PostgresStore::acquire_lease`]: while it
/// lasts, its node alone may write the table's log, each write carrying
/// the epoch (the fencing token) for the database to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The table.
    pub table: TableId,
    /// The node holding it.
    pub node: String,
    /// Its epoch: greater at each taking, over every table.
    pub epoch: u64,
}

/// The longest node id: ids are names an operator gives (`node-1`).
pub(super) const MAX_NODE_ID: usize = 64;

/// A node id, checked: 1 to 64 letters, digits, `-`, `_` or `.`.
pub(super) fn node_id(node: &str) -> Result<String, StoreError> {
    let fits = !node.is_empty()
        && node.len() <= MAX_NODE_ID
        && node
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !fits {
        return Err(StoreError::Failed(format!(
            "PostgreSQL: node id {node:?}: 1 to {MAX_NODE_ID} letters, digits, '-', '_' or '.'"
        )));
    }
    Ok(node.to_string())
}

/// A lease's length in seconds: from 1 ms to an hour (a node that dies
/// holds its tables that long at most).
pub(super) fn lease_secs(ttl: Duration) -> Result<f64, StoreError> {
    if ttl < Duration::from_millis(1) || ttl > Duration::from_secs(3600) {
        return Err(StoreError::Failed(format!(
            "PostgreSQL: a lease of {ttl:?}: from 1 ms to an hour"
        )));
    }
    Ok(ttl.as_secs_f64())
}
