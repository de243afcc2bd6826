//! Many nodes on one database: which node serves which table.
//!
//! A node takes a table by its lease ([`Lease`]) and, while it holds it,
//! every write of that table carries the lease's epoch
//! ([`PostgresStore::hold`]): the log's trigger and [`super::fence`]
//! refuse it once another node has taken the table. Nodes say where
//! clients reach them (`nodes`), and publish the lobby summaries of their
//! tables for the other nodes' lobbies.

use std::time::Duration;

use super::{
    InsertTable, Lease, PostgresStore, ROW, StoreError, TableId, bigint, failed, lease_secs,
    node_id, row,
};
use crate::store::TableRow;

/// Who serves a table, by its lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    /// The node holding the lease.
    pub node: String,
    /// Where clients reach that node (None if it never said).
    pub url: Option<String>,
    /// Whether the lease is unexpired: an expired lease is anyone's.
    pub live: bool,
}

/// The most lobby summaries read from the other nodes at once.
const MAX_LOBBY: i64 = 1000;
/// The longest public address a node may give.
const MAX_URL: usize = 2048;

impl PostgresStore {
    /// Writes of `lease`'s table carry its epoch from now on.
    pub fn hold(&self, lease: &Lease) {
        if let Ok(epoch) = i64::try_from(lease.epoch) {
            self.held().insert(lease.table.clone(), epoch);
        }
    }

    /// The tables whose leases this store holds, with their epochs.
    pub fn holding(&self) -> Vec<Lease> {
        self.held()
            .iter()
            .map(|(table, epoch)| Lease {
                table: table.clone(),
                node: String::new(),
                epoch: (*epoch).max(0) as u64,
            })
            .collect()
    }

    /// Takes table `table` for `node` ([`PostgresStore::acquire_lease`])
    /// and holds the lease: None if another node holds it.
    pub fn take(
        &self,
        table: &TableId,
        node: &str,
        ttl: Duration,
    ) -> Result<Option<Lease>, StoreError> {
        let lease = self.acquire_lease(table, node, ttl)?;
        if let Some(lease) = &lease {
            self.hold(lease);
        }
        Ok(lease)
    }

    /// Creates a table already leased to `node`, in one transaction: no
    /// other node can take it between its creation and its lease.
    pub fn create_leased(
        &self,
        table: &TableRow,
        node: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        let node = node_id(node)?;
        let secs = lease_secs(ttl)?;
        let insert = InsertTable::new(table)?;
        let what = insert.what.clone();
        let id = table.id.clone();
        let lease = self.transaction(what.clone(), move |tx| {
            insert.run(tx)?;
            let epoch: i64 = tx
                .query_one(
                    "INSERT INTO leases (table_id, node, epoch, expires)
                     VALUES ($1, $2, nextval('lease_epochs'), now() + make_interval(secs => $3))
                     RETURNING epoch",
                    &[&id, &node, &secs],
                )
                .map_err(failed(&what))?
                .get(0);
            Ok(Lease {
                table: id,
                node,
                epoch: epoch.max(0) as u64,
            })
        })?;
        self.hold(&lease);
        Ok(lease)
    }

    /// Gives up the lease this store holds on `table`, if any: it expires
    /// at once and nothing more is written under it.
    pub fn give_up(&self, table: &TableId) -> Result<(), StoreError> {
        let Some(epoch) = self.held().remove(table) else {
            return Ok(());
        };
        self.release_lease(&Lease {
            table: table.clone(),
            node: String::new(),
            epoch: epoch.max(0) as u64,
        })
    }

    /// Forgets the lease of `table` without releasing it (it was lost).
    pub fn forget(&self, table: &TableId) {
        self.held().remove(table);
    }

    /// Extends every lease held by `ttl` from now, in one statement; the
    /// tables whose lease was lost (expired, or taken since), which are
    /// forgotten: their writes are refused from now on anyway.
    pub fn renew_held(&self, ttl: Duration) -> Result<Vec<TableId>, StoreError> {
        let secs = lease_secs(ttl)?;
        let (tables, epochs): (Vec<TableId>, Vec<i64>) =
            self.held().iter().map(|(t, e)| (t.clone(), *e)).unzip();
        if tables.is_empty() {
            return Ok(Vec::new());
        }
        let what = format!("renew {} leases", tables.len());
        let asked = tables.clone();
        let renewed: Vec<TableId> = self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    // The rows locked first, in their tables' order, as
                    // appends lock them: the two never deadlock.
                    "WITH mine AS (
                         SELECT l.table_id FROM leases l
                         JOIN unnest($1::text[], $2::bigint[]) AS h (t, e)
                             ON l.table_id = h.t AND l.epoch = h.e
                         WHERE l.expires > now()
                         ORDER BY l.table_id
                         FOR NO KEY UPDATE OF l)
                     UPDATE leases l SET expires = now() + make_interval(secs => $3)
                     FROM mine WHERE l.table_id = mine.table_id
                     RETURNING l.table_id",
                    &[&asked, &epochs, &secs],
                )
                .map_err(failed(what))?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })?;
        let lost: Vec<TableId> = tables
            .into_iter()
            .filter(|t| !renewed.contains(t))
            .collect();
        let mut held = self.held();
        for t in &lost {
            held.remove(t);
        }
        Ok(lost)
    }

    /// Says where clients reach node `node`, and that it is alive now.
    pub fn register_node(&self, node: &str, url: &str) -> Result<(), StoreError> {
        let node = node_id(node)?;
        if url.len() > MAX_URL {
            return Err(StoreError::Failed(format!(
                "PostgreSQL: the public address of node {node} is over {MAX_URL} bytes"
            )));
        }
        let url = url.to_string();
        let what = format!("register node {node}");
        self.run(what.clone(), move |c| {
            c.execute(
                "INSERT INTO nodes (id, public_url, seen) VALUES ($1, $2, now())
                 ON CONFLICT (id) DO UPDATE SET public_url = EXCLUDED.public_url, seen = now()",
                &[&node, &url],
            )
            .map_err(failed(what))?;
            Ok(())
        })
    }

    /// Whether this store still holds table `table`'s lease under the
    /// epoch it took it with (expired or not: no other node took it since,
    /// so its writes would still be taken).
    pub fn holds(&self, table: &TableId) -> Result<bool, StoreError> {
        let Some(epoch) = self.held().get(table).copied() else {
            return Ok(false);
        };
        let table = table.to_string();
        let what = format!("check the lease of table {table}");
        self.run(what.clone(), move |c| {
            let found = c
                .query_opt(
                    "SELECT 1 FROM leases WHERE table_id = $1 AND epoch = $2",
                    &[&table, &epoch],
                )
                .map_err(failed(what))?;
            Ok(found.is_some())
        })
    }

    /// Who serves table `table`: None if no node has ever taken it.
    pub fn owner(&self, table: &TableId) -> Result<Option<Owner>, StoreError> {
        let table = table.to_string();
        let what = format!("find the node of table {table}");
        self.run(what.clone(), move |c| {
            let found = c
                .query_opt(
                    "SELECT l.node, n.public_url, l.expires > now() FROM leases l
                     LEFT JOIN nodes n ON n.id = l.node WHERE l.table_id = $1",
                    &[&table],
                )
                .map_err(failed(what))?;
            Ok(found.map(|r| Owner {
                node: r.get(0),
                url: r.get(1),
                live: r.get(2),
            }))
        })
    }

    /// Up to `limit` live tables no node serves, oldest first: their lease
    /// expired, or they have none and are older than `ttl` (a younger
    /// one's creator may be about to take it), or their lease is `node`'s
    /// but not held by this store (the node was restarted: it takes its
    /// tables back at once).
    pub fn orphans(
        &self,
        node: &str,
        ttl: Duration,
        limit: usize,
    ) -> Result<Vec<TableRow>, StoreError> {
        let secs = lease_secs(ttl)?;
        let limit = bigint(limit as u64, "limit")?;
        let node = node.to_string();
        let held: Vec<TableId> = self.held().keys().cloned().collect();
        let what = "list the tables no node serves".to_string();
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    &format!(
                        "SELECT {ROW} FROM tables t WHERE status = 'live'
                         AND NOT (id = ANY($4::text[]))
                         AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.table_id = t.id
                             AND l.expires > now() AND l.node <> $3)
                         AND (EXISTS (SELECT 1 FROM leases l WHERE l.table_id = t.id)
                             OR born < now() - make_interval(secs => $1))
                         ORDER BY created LIMIT $2"
                    ),
                    &[&secs, &limit, &node, &held],
                )
                .map_err(failed(what))?;
            rows.iter().map(row).collect()
        })
    }

    /// Publishes changes to the lobby summaries (JSON) of tables this
    /// store holds: a summary to show, or None to show the table no more.
    pub fn publish_lobby(&self, changes: &[(TableId, Option<String>)]) -> Result<(), StoreError> {
        let (mut shown, mut texts, mut hidden) = (Vec::new(), Vec::new(), Vec::new());
        {
            let held = self.held();
            for (id, summary) in changes {
                match summary {
                    Some(text) if held.contains_key(id) => {
                        shown.push(id.clone());
                        texts.push(text.clone());
                    }
                    Some(_) => {}
                    None => hidden.push(id.clone()),
                }
            }
        }
        if shown.is_empty() && hidden.is_empty() {
            return Ok(());
        }
        let what = format!("publish {} lobby changes", shown.len() + hidden.len());
        self.transaction(what.clone(), move |tx| {
            tx.execute(
                "DELETE FROM lobby WHERE table_id = ANY($1::text[])",
                &[&hidden],
            )
            .map_err(failed(&what))?;
            tx.execute(
                "INSERT INTO lobby (table_id, summary)
                 SELECT u.id, u.s FROM unnest($1::text[], $2::text[]) AS u (id, s)
                 JOIN tables t ON t.id = u.id
                 ON CONFLICT (table_id) DO UPDATE SET summary = EXCLUDED.summary",
                &[&shown, &texts],
            )
            .map_err(failed(&what))?;
            Ok(())
        })
    }

    /// The lobby summaries (JSON) of the live public tables that another
    /// node than `node` serves now, oldest table first.
    pub fn lobby_elsewhere(&self, node: &str) -> Result<Vec<String>, StoreError> {
        let node = node.to_string();
        let what = "read the other nodes' lobby".to_string();
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT b.summary FROM lobby b
                     JOIN tables t ON t.id = b.table_id
                     JOIN leases l ON l.table_id = b.table_id
                     WHERE t.status = 'live' AND t.public
                         AND l.expires > now() AND l.node <> $1
                     ORDER BY t.created LIMIT $2",
                    &[&node, &MAX_LOBBY],
                )
                .map_err(failed(what))?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::store::{Store, TableRow, TestSchema};

    fn table(id: &str, public: bool) -> TableRow {
        TableRow {
            id: id.into(),
            name: id.into(),
            seats: 4,
            rules: dalmuti_core::Rules::default(),
            public,
            ..TableRow::default()
        }
    }

    fn ids(rows: Vec<TableRow>) -> Vec<crate::ids::TableId> {
        rows.into_iter().map(|r| r.id).collect()
    }

    const LONG: Duration = Duration::from_secs(60);

    #[test]
    fn a_table_is_an_orphan_when_no_live_node_holds_it() {
        let schema = TestSchema::new().unwrap_or_else(|e| panic!("{e}"));
        let a = schema.store().unwrap();
        let b = schema.store().unwrap();
        a.register_node("a", "http://a.example").unwrap();
        // Created with its lease: nobody else's to take, and its owner is
        // found with its address.
        a.create_leased(&table("held", true), "a", LONG).unwrap();
        assert_eq!(b.take(&"held".into(), "b", LONG).unwrap(), None);
        let owner = b.owner(&"held".into()).unwrap().unwrap();
        assert_eq!(
            (owner.node.as_str(), owner.url.as_deref(), owner.live),
            ("a", Some("http://a.example"), true)
        );
        // A table created without a lease is left to its creator for a
        // lease's length, then anyone's.
        a.create_table(&table("young", true)).unwrap();
        assert!(ids(b.orphans("b", LONG, 10).unwrap()).is_empty());
        assert_eq!(
            ids(b.orphans("b", Duration::from_millis(1), 10).unwrap()),
            ["young"]
        );
        // A restarted node (same id, a new store holding nothing) finds its
        // own tables to take back at once; the store that holds them does
        // not list them.
        assert_eq!(ids(b.orphans("a", LONG, 10).unwrap()), ["held"]);
        assert!(ids(a.orphans("a", LONG, 10).unwrap()).is_empty());
        // Given up: expired at once, anyone's; the epoch goes up.
        let before = b.holding();
        assert!(before.is_empty());
        a.give_up(&"held".into()).unwrap();
        assert!(!b.owner(&"held".into()).unwrap().unwrap().live);
        let taken = b.take(&"held".into(), "b", LONG).unwrap().expect("free");
        assert_eq!(b.holding().len(), 1);
        // The former holder's writes are refused, the new one's go in.
        a.hold(&crate::store::Lease {
            node: "a".into(),
            epoch: taken.epoch - 1,
            ..taken.clone()
        });
        let stale = a
            .append(&"held".into(), 1, &crate::store::contract::event(1))
            .unwrap_err();
        assert!(stale.is_fenced(), "{stale}");
        b.append(&"held".into(), 1, &crate::store::contract::event(1))
            .unwrap();
        // Renewal keeps what is still held and reports what was lost.
        assert!(b.renew_held(LONG).unwrap().is_empty());
        assert_eq!(a.renew_held(LONG).unwrap(), ["held"]);
        assert!(a.holding().is_empty(), "a lost lease is forgotten");
    }

    #[test]
    fn the_lobby_shows_other_nodes_public_live_tables_as_last_published() {
        let schema = TestSchema::new().unwrap_or_else(|e| panic!("{e}"));
        let a = schema.store().unwrap();
        let b = schema.store().unwrap();
        a.create_leased(&table("open", true), "a", LONG).unwrap();
        a.create_leased(&table("hidden", false), "a", LONG).unwrap();
        b.create_leased(&table("mine", true), "b", LONG).unwrap();
        // A table not held cannot be published by this store.
        a.publish_lobby(&[
            ("open".into(), Some("\"open v1\"".into())),
            ("hidden".into(), Some("\"hidden\"".into())),
            ("mine".into(), Some("\"not a's\"".into())),
        ])
        .unwrap();
        b.publish_lobby(&[("mine".into(), Some("\"mine\"".into()))])
            .unwrap();
        assert_eq!(b.lobby_elsewhere("b").unwrap(), ["\"open v1\""]);
        assert_eq!(a.lobby_elsewhere("a").unwrap(), ["\"mine\""]);
        // Changed, then taken out.
        a.publish_lobby(&[("open".into(), Some("\"open v2\"".into()))])
            .unwrap();
        assert_eq!(b.lobby_elsewhere("b").unwrap(), ["\"open v2\""]);
        a.publish_lobby(&[("open".into(), None)]).unwrap();
        assert!(b.lobby_elsewhere("b").unwrap().is_empty());
        // A finished table leaves the lobby with its lease.
        b.finish(&"mine".into(), &crate::store::contract::summary("mine"), 10)
            .unwrap();
        assert!(a.lobby_elsewhere("a").unwrap().is_empty());
        assert_eq!(b.owner(&"mine".into()).unwrap(), None);
    }

    #[test]
    fn renewals_and_batches_of_many_tables_never_deadlock() {
        let schema = TestSchema::new().unwrap_or_else(|e| panic!("{e}"));
        let store = std::sync::Arc::new(schema.store().unwrap());
        let ids: Vec<crate::ids::TableId> = (0..40).map(|i| format!("t{i:02}").into()).collect();
        for id in &ids {
            store.create_leased(&table(id, true), "a", LONG).unwrap();
        }
        let renewing = store.clone();
        let renewals = std::thread::spawn(move || {
            for _ in 0..150 {
                assert!(renewing.renew_held(LONG).unwrap().is_empty());
            }
        });
        // Batches naming the tables against their order, as a writer's
        // batch names them in the order their events came.
        for v in 1..=150u64 {
            let batch: Vec<crate::store::Append> = ids
                .iter()
                .rev()
                .map(|id| crate::store::Append {
                    table: id.clone(),
                    v,
                    event: crate::store::contract::event(1),
                })
                .collect();
            store
                .append_batch(&batch)
                .unwrap_or_else(|e| panic!("batch {v}: {e}"));
        }
        renewals.join().unwrap();
        assert_eq!(store.log(&"t07".into()).unwrap().len(), 150);
    }

    #[test]
    fn a_node_gives_a_checked_id_and_a_bounded_address() {
        let schema = TestSchema::new().unwrap_or_else(|e| panic!("{e}"));
        let store = schema.store().unwrap();
        assert!(store.register_node("bad id", "http://x").is_err());
        let long = format!("http://{}", "x".repeat(3000));
        let e = store.register_node("n1", &long).unwrap_err();
        assert!(e.message().contains("over 2048 bytes"), "{e}");
        store.register_node("n1", "http://one").unwrap();
        store.register_node("n1", "http://two").unwrap();
        store.create_leased(&table("t", true), "n1", LONG).unwrap();
        assert_eq!(
            store.owner(&"t".into()).unwrap().unwrap().url.as_deref(),
            Some("http://two"),
            "the newest address"
        );
        assert_eq!(store.owner(&"nothing".into()).unwrap(), None);
    }
}
