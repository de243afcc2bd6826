//! The [`Store`] on PostgreSQL: what several server nodes can share.
//!
//! The same guarantees as the SQLite store, kept by the database itself so
//! that they hold whichever node (or program) writes:
//!
//! - **Durable before broadcast**: every write is one transaction, committed
//!   before the call returns, with `synchronous_commit = on` set on each
//!   connection (a server configured with it off would otherwise answer
//!   before the commit reaches its disk).
//! - **The log refuses gaps**: the primary key `(table_id, v)` refuses a
//!   number twice, and a trigger refuses any event that is not one more than
//!   the table's last, after locking the table's row so two writers of one
//!   table take turns. Events are never updated (another trigger).
//! - **Tokens only as hashes**: the store keeps what the table actor gives
//!   it; seat events carry the SHA-256 of a token, never the token.
//!
//! The `postgres` client is synchronous and blocks on a runtime of its own,
//! which panics inside the server's tokio runtime, and [`Store`] is called
//! from async code as well as from the writer thread. So each connection
//! lives on a thread of its own and callers hand it jobs over a channel
//! (a fixed pool of connections; a broken one is reconnected for the next
//! job). A caller waits for its answer, as it waits for SQLite's lock.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use postgres::error::SqlState;
use postgres::{Client, Config, NoTls, Transaction};

use super::{
    Append, Enqueued, FinishedGame, PlayerGame, PlayerRow, RatingRow, ReportRow, Store, StoreError,
    TableId, TableRow, TalkKind, TalkRow, Ticket, hex,
};
use crate::protocol::{TableInfo, TalkLine};
use dalmuti_table::state::Stored;

mod lease;
mod nodes;
mod queries;
mod schema;
mod test_schema;
mod tls;
pub use lease::Lease;
use lease::{lease_secs, node_id};
pub use nodes::Owner;
use schema::migrate;
pub use test_schema::{TEST_DATABASE_URL, TestSchema};
use tls::Connector;

/// How many connections (threads) a store opens by default: the writer's
/// and a few for loading tables, the lobby and records at the same time.
pub const DEFAULT_CONNECTIONS: usize = 4;

/// The longest one statement may run: a lock held by a stuck transaction
/// must end in an error, not hang the server.
const STATEMENT_TIMEOUT: &str = "30s";

/// How many jobs may wait for a connection before callers block on sending.
const QUEUE: usize = 1024;

/// A job run on a connection's thread, with the connection or the error
/// that kept it from connecting.
type Job = Box<dyn FnOnce(Result<&mut Client, StoreError>) + Send>;

/// The PostgreSQL store: a pool of connections, each on its own thread.
pub struct PostgresStore {
    jobs: SyncSender<Job>,
    /// The leases this node holds, by table: the epoch its writes of that
    /// table carry, for the database to check ([`PostgresStore::hold`]).
    held: Mutex<HashMap<TableId, i64>>,
}

/// A PostgreSQL error as a [`StoreError`] saying what was being done:
/// the server's own message when it sent one (a refused event, a missing
/// table), else the client's error and its cause.
fn failed(what: impl std::fmt::Display) -> impl FnOnce(postgres::Error) -> StoreError {
    move |e| {
        let why = match e.as_db_error() {
            // Never a row's values ("Failing row contains (…)"): an
            // event's text holds token hashes and unrevealed deal seeds,
            // and this message is logged and may be answered.
            Some(db) => match db.detail().filter(|d| !d.starts_with("Failing row")) {
                Some(detail) => format!("{} ({detail})", db.message()),
                None => db.message().to_string(),
            },
            None => {
                let mut why = e.to_string();
                let mut cause = std::error::Error::source(&e);
                while let Some(c) = cause {
                    why.push_str(&format!(": {c}"));
                    cause = c.source();
                }
                why
            }
        };
        let message = format!("PostgreSQL: {what}: {why}");
        // The log's trigger refuses an event under a lost lease with this
        // SQLSTATE, which nothing else raises on these sessions
        // (`lock_timeout` is 0 on them and no lock is taken NOWAIT).
        if e.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) {
            StoreError::Fenced(message)
        } else {
            StoreError::Failed(message)
        }
    }
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://USER@HOST/DB` or the
    /// `key=value` form), applies the schema's missing steps and opens
    /// [`DEFAULT_CONNECTIONS`] connections. The password, if any, comes
    /// from the URL; so does TLS (`sslmode=require`, `sslrootcert=PATH`:
    /// see [`PostgresStore::open_with_ca`]).
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        PostgresStore::open_with_ca(url, None)
    }

    /// Like [`PostgresStore::open`], over TLS verified against the CA
    /// certificates in the PEM file `ca` if one is given (`dalmuti serve
    /// --database-ca`). With TLS asked for (`sslmode=require`,
    /// `verify-ca` or `verify-full`, or a CA file here or as `sslrootcert`
    /// in the URL) the server's certificate and host name are always
    /// verified, against the CA file or else the system's roots; without,
    /// the connection is plain.
    pub fn open_with_ca(
        url: &str,
        ca: Option<&std::path::Path>,
    ) -> Result<PostgresStore, StoreError> {
        let address = tls::Address::parse(url);
        let mut config = Config::from_str(&address.url)
            .map_err(|e| StoreError::Failed(format!("PostgreSQL: the database address: {e}")))?;
        let ca = ca.or(address.ca.as_deref());
        let connector = tls::connector(&mut config, address.required, ca)?;
        PostgresStore::connected(config, connector, DEFAULT_CONNECTIONS)
    }

    /// Like [`PostgresStore::open`] with a parsed configuration and a
    /// number of connections (at least one), without TLS.
    pub fn with_config(config: Config, connections: usize) -> Result<PostgresStore, StoreError> {
        PostgresStore::connected(config, Connector::Plain, connections)
    }

    fn connected(
        mut config: Config,
        connector: Connector,
        connections: usize,
    ) -> Result<PostgresStore, StoreError> {
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        // The first connection migrates, in the caller's thread, so a
        // database that cannot be reached or read fails `open` itself.
        let mut first = Some(on_own_thread(|| {
            let mut client = connect(&config, &connector)?;
            migrate(&mut client)?;
            Ok(client)
        })?);
        let (jobs, queue) = sync_channel::<Job>(QUEUE);
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..connections.max(1) {
            let queue = queue.clone();
            let config = config.clone();
            let connector = connector.clone();
            let client = if i == 0 { first.take() } else { None };
            std::thread::Builder::new()
                .name(format!("dalmuti-pg-{i}"))
                .spawn(move || serve_jobs(config, connector, client, &queue))
                .map_err(|e| {
                    StoreError::Failed(format!("PostgreSQL: start a connection thread: {e}"))
                })?;
        }
        Ok(PostgresStore {
            jobs,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// Runs `f` on a connection and answers its result. `what` names the
    /// operation in errors.
    fn run<T: Send + 'static>(
        &self,
        what: String,
        f: impl FnOnce(&mut Client) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (answer, wait) = sync_channel(1);
        let job: Job = Box::new(move |client| {
            let _ = answer.send(client.and_then(f));
        });
        // No answer: the connection threads are gone, or the job panicked.
        let stopped = || {
            StoreError::Failed(format!(
                "PostgreSQL: {what}: no answer from the connection (its thread stopped or the query panicked)"
            ))
        };
        self.jobs.send(job).map_err(|_| stopped())?;
        wait.recv().map_err(|_| stopped())?
    }

    /// Runs `f` in a transaction on a connection, committed if `f` succeeds.
    fn transaction<T: Send + 'static>(
        &self,
        what: String,
        f: impl FnOnce(&mut Transaction<'_>) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let label = what.clone();
        self.run(what, move |client| {
            let mut tx = client.transaction().map_err(failed(&label))?;
            let value = f(&mut tx)?;
            tx.commit().map_err(failed(format!("{label}: commit")))?;
            Ok(value)
        })
    }
}

/// Opens one connection and sets what every session needs.
fn connect(config: &Config, connector: &Connector) -> Result<Client, StoreError> {
    let client = match connector {
        Connector::Plain => config.connect(NoTls),
        Connector::Tls(tls) => config.connect(tls.clone()),
    };
    let mut client = client.map_err(failed("connect to the database"))?;
    client
        .batch_execute(&format!(
            "SET synchronous_commit = on; SET statement_timeout = '{STATEMENT_TIMEOUT}'; \
             SET lock_timeout = 0;"
        ))
        .map_err(failed("set up the session"))?;
    Ok(client)
}

/// A connection's thread: runs jobs until the store is dropped,
/// reconnecting before a job when the connection was lost.
fn serve_jobs(
    config: Config,
    connector: Connector,
    mut client: Option<Client>,
    queue: &Mutex<Receiver<Job>>,
) {
    loop {
        let job = {
            let queue = queue.lock().unwrap_or_else(|e| e.into_inner());
            match queue.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        if client.as_ref().is_none_or(Client::is_closed) {
            client = None;
            match connect(&config, &connector) {
                Ok(c) => client = Some(c),
                Err(e) => {
                    job(Err(e));
                    continue;
                }
            }
        }
        if let Some(c) = client.as_mut() {
            // A job that panics (a bug) must not take the connection's
            // thread with it: its caller gets an error (its answer is
            // dropped) and the connection, maybe mid-transaction, is
            // replaced.
            let run = std::panic::AssertUnwindSafe(|| job(Ok(c)));
            if std::panic::catch_unwind(run).is_err() {
                client = None;
            }
        }
    }
}

pub(super) use crate::store::columns::{ROW, TICKET};

/// A table's row as PostgreSQL holds it; one whose rules do not read is
/// an error that names it.
fn row(r: &postgres::Row) -> Result<TableRow, StoreError> {
    let id: TableId = r.get(0);
    let rules = crate::store::columns::rules_from(&id, r.get(3))?;
    Ok(TableRow {
        id,
        name: r.get(1),
        seats: r.get::<_, i32>(2).max(0) as usize,
        rules,
        public: r.get(4),
        turn_seconds: r.get::<_, Option<i32>>(5).map(|s| s.max(0) as u32),
        spectator_chat: r.get(6),
        rematch: r.get(7),
        rated: r.get(8),
        silenced: crate::store::columns::silenced_from(r.get(9)),
    })
}

/// A count or number as PostgreSQL's BIGINT, refused if it does not fit.
fn bigint(n: u64, what: &str) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Failed(format!("PostgreSQL: {what} {n} is too large")))
}

/// A small number as PostgreSQL's INTEGER, refused if it does not fit.
fn integer(n: u64, what: &str) -> Result<i32, StoreError> {
    i32::try_from(n).map_err(|_| StoreError::Failed(format!("PostgreSQL: {what} {n} is too large")))
}

impl PostgresStore {
    /// The ratings `filter` (a WHERE clause's condition and order, with
    /// `texts` as its first parameters and `limit` after them) picks.
    fn ratings_where(
        &self,
        what: String,
        filter: &'static str,
        texts: Vec<String>,
        limit: Option<i64>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        self.run(what.clone(), move |c| {
            let mut params: Vec<&(dyn postgres::types::ToSql + Sync)> =
                texts.iter().map(|t| t as _).collect();
            if let Some(limit) = &limit {
                params.push(limit);
            }
            let rows = c
                .query(
                    &format!(
                        "SELECT key, name, bot, game, band, mu, sigma, games FROM ratings
                         WHERE {filter}"
                    ),
                    &params,
                )
                .map_err(failed(what))?;
            Ok(rows
                .iter()
                .map(|r| RatingRow {
                    key: r.get(0),
                    name: r.get(1),
                    bot: r.get(2),
                    game: r.get(3),
                    band: r.get(4),
                    rating: crate::ratings::Rating {
                        mu: r.get(5),
                        sigma: r.get(6),
                    },
                    games: r.get::<_, i64>(7).max(0) as u64,
                })
                .collect())
        })
    }

    /// The player whose `column` (`key` or `secret`) is `value`.
    fn find_player(
        &self,
        column: &'static str,
        value: String,
    ) -> Result<Option<PlayerRow>, StoreError> {
        let what = format!("find a player by {column}");
        self.run(what.clone(), move |c| {
            let row = c
                .query_opt(
                    &format!("SELECT key, name, secret, since FROM players WHERE {column} = $1"),
                    &[&value],
                )
                .map_err(failed(what))?;
            row.map(|r| crate::store::columns::player_from(r.get(0), r.get(1), r.get(2), r.get(3)))
                .transpose()
        })
    }
}

/// A ticket from a row read as [`TICKET`] names its columns.
fn pg_ticket(r: &postgres::Row) -> Result<Ticket, StoreError> {
    crate::store::columns::ticket_from(
        r.get(0),
        r.get(1),
        r.get(2),
        r.get(3),
        r.get::<_, i32>(4).into(),
        r.get(5),
        r.get(6),
        r.get(7),
        (r.get(8), r.get(9), r.get(10), r.get(11)),
    )
}

/// Why [`Store::claim_tickets`] rolled its transaction back.
const NOT_ALL_CLAIMED: &str = "not every ticket could be claimed";

/// A table's row, checked to fit its columns, ready to insert.
struct InsertTable {
    t: TableRow,
    seats: i32,
    turn: Option<i32>,
    what: String,
}

impl InsertTable {
    fn new(t: &TableRow) -> Result<InsertTable, StoreError> {
        Ok(InsertTable {
            seats: integer(t.seats as u64, "seats")?,
            turn: t
                .turn_seconds
                .map(|s| integer(s.into(), "turn seconds"))
                .transpose()?,
            what: format!("create table {}", t.id),
            t: t.clone(),
        })
    }

    fn run(&self, c: &mut impl postgres::GenericClient) -> Result<(), StoreError> {
        let t = &self.t;
        c.execute(
            "INSERT INTO tables (id, name, seats, rules, public, turn_seconds,
                spectator_chat, rematch, rated, silenced)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            &[
                &t.id,
                &t.name,
                &self.seats,
                &crate::store::columns::rules_text(&t.rules),
                &t.public,
                &self.turn,
                &t.spectator_chat,
                &t.rematch,
                &t.rated,
                &crate::store::columns::silenced_text(&t.silenced),
            ],
        )
        .map_err(failed(&self.what))?;
        Ok(())
    }
}

/// Refuses, in transaction `tx`, a change to table `table` unless this
/// node may make it: the table's lease is `held` (its epoch, unexpired),
/// or the table has no lease and this node holds none (one node). The
/// lease's row is locked FOR SHARE until the transaction ends, so the
/// lease cannot change hands before the change commits.
fn fence(
    tx: &mut Transaction<'_>,
    table: &TableId,
    held: Option<i64>,
    what: &str,
) -> Result<(), StoreError> {
    let lease = tx
        .query_opt(
            "SELECT epoch, expires > now() FROM leases WHERE table_id = $1 FOR SHARE",
            &[&table],
        )
        .map_err(failed(what))?;
    let current = lease.map(|r| (r.get::<_, i64>(0), r.get::<_, bool>(1)));
    match (current, held) {
        (None, None) => Ok(()),
        (Some((epoch, true)), Some(ours)) if epoch == ours => Ok(()),
        (current, held) => {
            let ours = held.map_or("none".to_string(), |e| e.to_string());
            let theirs = match current {
                None => "none".to_string(),
                Some((e, true)) => e.to_string(),
                Some((e, false)) => format!("{e} (expired)"),
            };
            Err(StoreError::Fenced(format!(
                "PostgreSQL: {what}: refused: written under lease epoch {ours}, but the \
                 lease of table {table} is at epoch {theirs}"
            )))
        }
    }
}

/// Runs `f` on a thread of its own: the sync client must not run on a
/// thread of a tokio runtime.
fn on_own_thread<T: Send>(
    f: impl FnOnce() -> Result<T, StoreError> + Send,
) -> Result<T, StoreError> {
    std::thread::scope(|s| {
        s.spawn(f).join().unwrap_or_else(|_| {
            Err(StoreError::Failed(
                "PostgreSQL: a connection thread panicked".into(),
            ))
        })
    })
}

#[cfg(test)]
mod tests;
