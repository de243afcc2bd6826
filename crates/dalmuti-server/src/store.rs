//! Persistence behind a [`Store`] trait, with an SQLite implementation.
//!
//! Three tables: `tables` (one row per game table), `seats` (lobby seats:
//! name, the SHA-256 hash of the seat's token, or a bot spec) and `log`
//! (append-only, one row per accepted event, numbered from 1 per table).
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
}

/// A lobby seat as stored, in order of arrival.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The display name (unique at the table).
    pub name: String,
    /// SHA-256 of the seat's token; `None` for a bot.
    pub token_hash: Option<[u8; 32]>,
    /// The bot spec (`heuristic`…) for a bot seat.
    pub bot: Option<String>,
}

/// Where tables, seats and event logs live. Implemented for SQLite here; a
/// server database can implement it later.
pub trait Store: Send + Sync {
    /// Adds a new table.
    fn create_table(&self, table: &TableRow) -> Result<(), StoreError>;
    /// Every table, oldest first.
    fn tables(&self) -> Result<Vec<TableRow>, StoreError>;
    /// Adds a lobby seat at the end.
    fn add_seat(&self, table: &str, seat: &SeatRow) -> Result<(), StoreError>;
    /// Removes the lobby seat with this name.
    fn remove_seat(&self, table: &str, name: &str) -> Result<(), StoreError>;
    /// The table's lobby seats in order of arrival.
    fn seats(&self, table: &str) -> Result<Vec<SeatRow>, StoreError>;
    /// Appends event number `v` (JSON). Fails unless `v` is one more than
    /// the last event stored for the table: the log is append-only.
    fn append(&self, table: &str, v: u64, event: &str) -> Result<(), StoreError>;
    /// The table's events in order, numbered from 1.
    fn log(&self, table: &str) -> Result<Vec<String>, StoreError>;
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
                rules TEXT NOT NULL, created INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS seats (
                table_id TEXT NOT NULL REFERENCES tables(id), position INTEGER NOT NULL,
                name TEXT NOT NULL, token_hash BLOB, bot TEXT,
                PRIMARY KEY (table_id, position), UNIQUE (table_id, name));
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
            "INSERT INTO tables (id, name, seats, rules, created) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![t.id, t.name, t.seats as i64, t.rules, created],
        )?;
        Ok(())
    }

    fn tables(&self) -> Result<Vec<TableRow>, StoreError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT id, name, seats, rules FROM tables ORDER BY created")?;
        let rows = stmt.query_map([], |r| {
            Ok(TableRow {
                id: r.get(0)?,
                name: r.get(1)?,
                seats: r.get::<_, i64>(2)? as usize,
                rules: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn add_seat(&self, table: &str, seat: &SeatRow) -> Result<(), StoreError> {
        let conn = self.conn();
        let next: i64 = conn.query_row(
            "SELECT COALESCE(MAX(position) + 1, 0) FROM seats WHERE table_id = ?1",
            [table],
            |r| r.get(0),
        )?;
        conn.execute(
            "INSERT INTO seats (table_id, position, name, token_hash, bot) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![table, next, seat.name, seat.token_hash.map(|h| h.to_vec()), seat.bot],
        )?;
        Ok(())
    }

    fn remove_seat(&self, table: &str, name: &str) -> Result<(), StoreError> {
        self.conn().execute(
            "DELETE FROM seats WHERE table_id = ?1 AND name = ?2",
            params![table, name],
        )?;
        Ok(())
    }

    fn seats(&self, table: &str) -> Result<Vec<SeatRow>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT name, token_hash, bot FROM seats WHERE table_id = ?1 ORDER BY position",
        )?;
        let rows = stmt.query_map([table], |r| {
            let hash: Option<Vec<u8>> = r.get(1)?;
            Ok(SeatRow {
                name: r.get(0)?,
                token_hash: hash.and_then(|h| h.try_into().ok()),
                bot: r.get(2)?,
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

    fn log(&self, table: &str) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT event FROM log WHERE table_id = ?1 ORDER BY v")?;
        let rows = stmt.query_map([table], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// A new secret token: 128 bits from the operating system's CSPRNG, as 32
/// lowercase hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    hex(&bytes)
}

/// A random id for a table (64 bits, hex).
pub fn new_id() -> String {
    let mut bytes = [0u8; 8];
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
        let seat = SeatRow {
            name: "Ada".into(),
            token_hash: Some(hash_token(&token)),
            bot: None,
        };
        store.add_seat("t1", &seat).unwrap();
        let back = &store.seats("t1").unwrap()[0];
        assert!(token_matches(&token, back.token_hash.as_ref().unwrap()));
        assert!(!token_matches(
            &new_token(),
            back.token_hash.as_ref().unwrap()
        ));
        assert!(store.add_seat("t1", &seat).is_err(), "names are unique");
    }
}
