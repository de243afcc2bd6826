//! Persistence behind a [`Store`] trait, with an SQLite implementation.
//!
//! Two tables: `tables` (one row per game table) and `log` (append-only,
//! one row per accepted event, numbered from 1 per table). Seats are events
//! too (with the SHA-256 of the seat's token, never the token).
//! The table actor writes an event here *before* it broadcasts it, so
//! anything a client has seen survives a crash; a table's game is rebuilt
//! by replaying its log ([`crate::table`]).

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
#[error("storage: {0}")]
pub struct StoreError(pub String);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError(e.to_string())
    }
}

/// A table as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    /// Its id (random, unguessable: it is also the invite link).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// How many seats (3 to 16).
    pub seats: usize,
    /// The rules, as the JSON of [`dalmuti_core::Rules`].
    pub rules: String,
    /// Whether the lobby lists it (a private table is reached by its link).
    pub public: bool,
    /// The turn timer in seconds, if any.
    pub turn_seconds: Option<u32>,
}

/// Where tables, seats and event logs live. Implemented for SQLite here; a
/// server database can implement it later.
pub trait Store: Send + Sync {
    /// Adds a new table.
    fn create_table(&self, table: &TableRow) -> Result<(), StoreError>;
    /// Every table, oldest first.
    fn tables(&self) -> Result<Vec<TableRow>, StoreError>;
    /// Appends event number `v` (JSON). Fails unless `v` is one more than
    /// the last event stored for the table: the log is append-only.
    fn append(&self, table: &str, v: u64, event: &str) -> Result<(), StoreError>;
    /// Appends events of several tables in one transaction (one sync to
    /// disk for all): what [`Writer`] uses under load. All or none.
    fn append_batch(&self, events: &[Append]) -> Result<(), StoreError> {
        for e in events {
            self.append(&e.table, e.v, &e.event)?;
        }
        Ok(())
    }
    /// The table's events in order, numbered from 1.
    fn log(&self, table: &str) -> Result<Vec<String>, StoreError>;
}

/// One event to append.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Append {
    /// The table's id.
    pub table: String,
    /// The event's number.
    pub v: u64,
    /// The event as JSON.
    pub event: String,
}

/// The SQLite store: one file, WAL mode.
///
/// `synchronous=FULL`: in WAL mode, `NORMAL` may lose the last transactions
/// on a power failure (not on a process crash). An accepted action is
/// promised to the players the moment it is broadcast, so every commit is
/// made durable first; an action costs one fsync of the WAL, which is small
/// next to a network round trip.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (or creates) the database at `path`.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::setup(Connection::open(path)?)
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<SqliteStore, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS tables (
                id TEXT PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL,
                rules TEXT NOT NULL, public INTEGER NOT NULL, turn_seconds INTEGER,
                created INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS log (
                table_id TEXT NOT NULL REFERENCES tables(id), v INTEGER NOT NULL,
                event TEXT NOT NULL, PRIMARY KEY (table_id, v));",
        )?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Store for SqliteStore {
    fn create_table(&self, t: &TableRow) -> Result<(), StoreError> {
        let conn = self.conn();
        let created: i64 = conn.query_row("SELECT COUNT(*) FROM tables", [], |r| r.get(0))?;
        conn.execute(
            "INSERT INTO tables (id, name, seats, rules, public, turn_seconds, created)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                t.id,
                t.name,
                t.seats as i64,
                t.rules,
                t.public,
                t.turn_seconds,
                created
            ],
        )?;
        Ok(())
    }

    fn tables(&self) -> Result<Vec<TableRow>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, name, seats, rules, public, turn_seconds FROM tables ORDER BY created",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(TableRow {
                id: r.get(0)?,
                name: r.get(1)?,
                seats: r.get::<_, i64>(2)? as usize,
                rules: r.get(3)?,
                public: r.get(4)?,
                turn_seconds: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn append(&self, table: &str, v: u64, event: &str) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let last: Option<i64> = tx
            .query_row("SELECT MAX(v) FROM log WHERE table_id = ?1", [table], |r| {
                r.get(0)
            })
            .optional()?
            .flatten();
        if last.unwrap_or(0) as u64 + 1 != v {
            return Err(StoreError(format!(
                "event {v} does not follow event {} of table {table}",
                last.unwrap_or(0)
            )));
        }
        tx.execute(
            "INSERT INTO log (table_id, v, event) VALUES (?1, ?2, ?3)",
            params![table, v as i64, event],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn append_batch(&self, events: &[Append]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut last = tx.prepare_cached("SELECT MAX(v) FROM log WHERE table_id = ?1")?;
            let mut insert =
                tx.prepare_cached("INSERT INTO log (table_id, v, event) VALUES (?1, ?2, ?3)")?;
            for e in events {
                let before: Option<i64> = last.query_row([&e.table], |r| r.get(0))?;
                if before.unwrap_or(0) as u64 + 1 != e.v {
                    return Err(StoreError(format!(
                        "event {} does not follow event {} of table {}",
                        e.v,
                        before.unwrap_or(0),
                        e.table
                    )));
                }
                insert.execute(params![e.table, e.v as i64, e.event])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn log(&self, table: &str) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT event FROM log WHERE table_id = ?1 ORDER BY v")?;
        let rows = stmt.query_map([table], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// Writes events for every table from one thread, many per transaction:
/// under load, tables that act at the same moment share one sync to disk
/// (group commit) instead of queueing for one each. A table awaits its
/// write before it broadcasts the event.
#[derive(Clone)]
pub struct Writer {
    tx: std::sync::mpsc::Sender<(Append, tokio::sync::oneshot::Sender<Result<(), String>>)>,
}

impl Writer {
    /// Starts the writing thread over `store`.
    pub fn start(store: std::sync::Arc<dyn Store>) -> Writer {
        let (tx, rx) =
            std::sync::mpsc::channel::<(Append, tokio::sync::oneshot::Sender<Result<(), String>>)>(
            );
        std::thread::Builder::new()
            .name("dalmuti-writer".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    while batch.len() < 512
                        && let Ok(more) = rx.try_recv()
                    {
                        batch.push(more);
                    }
                    let events: Vec<Append> = batch.iter().map(|(a, _)| a.clone()).collect();
                    match store.append_batch(&events) {
                        Ok(()) => {
                            for (_, done) in batch {
                                let _ = done.send(Ok(()));
                            }
                        }
                        // One bad event must not sink the others: write
                        // them one by one and answer each.
                        Err(_) => {
                            for (e, done) in batch {
                                let result = store
                                    .append(&e.table, e.v, &e.event)
                                    .map_err(|e| e.to_string());
                                let _ = done.send(result);
                            }
                        }
                    }
                }
            })
            .expect("start the writer thread");
        Writer { tx }
    }

    /// Appends one event; resolves once it is on disk.
    pub async fn append(&self, table: &str, v: u64, event: String) -> Result<(), StoreError> {
        let (done, wait) = tokio::sync::oneshot::channel();
        let append = Append {
            table: table.to_string(),
            v,
            event,
        };
        self.tx
            .send((append, done))
            .map_err(|_| StoreError("the writer has stopped".into()))?;
        wait.await
            .map_err(|_| StoreError("the writer has stopped".into()))?
            .map_err(StoreError)
    }
}

/// A new secret token: 128 bits from the operating system's CSPRNG, as 32
/// lowercase hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    hex(&bytes)
}

/// A random id for a table: 96 bits, hex. The id is also a private
/// table's invitation, so it must not be guessable.
pub fn new_id() -> String {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    hex(&bytes)
}

/// The SHA-256 of a token: all the server keeps of it.
pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `token` hashes to `hash`, compared in constant time.
pub fn token_matches(token: &str, hash: &[u8; 32]) -> bool {
    hash_token(token).ct_eq(hash).into()
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_is_append_only_and_tokens_are_hashed() {
        let store = SqliteStore::in_memory().unwrap();
        let t = TableRow {
            id: "t1".into(),
            name: "Friday".into(),
            seats: 4,
            rules: "{}".into(),
            public: false,
            turn_seconds: Some(60),
        };
        store.create_table(&t).unwrap();
        assert_eq!(store.tables().unwrap(), vec![t]);
        store.append("t1", 1, "{\"a\":1}").unwrap();
        assert!(store.append("t1", 1, "{}").is_err(), "event 1 twice");
        assert!(store.append("t1", 3, "{}").is_err(), "a gap");
        store.append("t1", 2, "{}").unwrap();
        assert_eq!(store.log("t1").unwrap().len(), 2);
        let token = new_token();
        assert_eq!(token.len(), 32);
        let hash = hash_token(&token);
        assert!(token_matches(&token, &hash));
        assert!(!token_matches(&new_token(), &hash));
    }
}
