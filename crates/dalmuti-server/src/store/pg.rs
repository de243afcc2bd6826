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

use super::{Append, Store, StoreError, TableRow, TalkKind, TalkRow};

mod nodes;
mod tls;
pub use nodes::Owner;
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
    held: Mutex<HashMap<String, i64>>,
}

/// The schema, one step per version; `schema_version` holds the versions
/// applied. A step runs in one transaction under an advisory lock, so nodes
/// starting together apply it once.
///
/// 1: the SQLite schema's equivalent (tables, log, talk). `created` and
/// `finished` come from sequences, so two nodes never draw the same number.
///
/// 2: a lease per table ([`Lease`]): the node that may write its log, until
/// when (by the database's clock), and its epoch, the fencing token. Each
/// event records the epoch it was written under, and the log's trigger
/// refuses an event of a leased table unless it carries the lease's
/// current epoch, unexpired.
///
/// 3: the nodes (each one's public address, and when it was last seen),
/// when each table was created (a table with no lease is taken over only
/// once it is older than a lease: its creator may be about to take it),
/// and the lobby summaries nodes publish of their tables for the others'
/// lobbies (a table of their own: updating them must not lock the tables'
/// rows, which every append locks).
const MIGRATIONS: &[&str] = &["
CREATE SEQUENCE tables_created;
CREATE SEQUENCE tables_finished;
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seats INTEGER NOT NULL,
    rules TEXT NOT NULL,
    public BOOLEAN NOT NULL,
    turn_seconds INTEGER,
    created BIGINT NOT NULL DEFAULT nextval('tables_created'),
    status TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'finished')),
    finished BIGINT,
    summary TEXT,
    spectator_chat BOOLEAN NOT NULL DEFAULT FALSE,
    rematch TEXT);
CREATE INDEX tables_status ON tables (status, finished);
CREATE TABLE log (
    table_id TEXT NOT NULL REFERENCES tables (id),
    v BIGINT NOT NULL CHECK (v > 0),
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, v));
CREATE TABLE talk (
    table_id TEXT NOT NULL REFERENCES tables (id),
    n BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('chat', 'news')),
    line TEXT NOT NULL,
    PRIMARY KEY (table_id, n));
CREATE INDEX talk_kind ON talk (table_id, kind, n);

-- The log refuses gaps whoever writes: an event must be one more than the
-- table's last. The table's row is locked first, so appends to one table
-- are serialized and two writers cannot both see the same last event.
CREATE FUNCTION log_follows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last BIGINT;
BEGIN
    PERFORM 1 FROM tables WHERE id = NEW.table_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'event % of table %: no such table', NEW.v, NEW.table_id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    SELECT COALESCE(MAX(v), 0) INTO last FROM log WHERE table_id = NEW.table_id;
    IF NEW.v <> last + 1 THEN
        RAISE EXCEPTION 'event % does not follow event % of table %', NEW.v, last, NEW.table_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER log_follows BEFORE INSERT ON log
    FOR EACH ROW EXECUTE FUNCTION log_follows();

-- Append-only: an event once written is never changed (a finished table's
-- log is deleted whole when it is pruned).
CREATE FUNCTION log_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'event % of table % cannot be changed', OLD.v, OLD.table_id
        USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER log_unchanged BEFORE UPDATE ON log
    FOR EACH ROW EXECUTE FUNCTION log_unchanged();
", "
CREATE SEQUENCE lease_epochs;
CREATE TABLE leases (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires TIMESTAMPTZ NOT NULL);
ALTER TABLE log ADD COLUMN epoch BIGINT;

-- As in version 1, plus the fence: a table with a lease row takes only
-- events written under its current, unexpired epoch; a table without one
-- (one node, no leases) only events written under none. The table's row
-- is locked FOR NO KEY UPDATE (appends take turns, and a lease's foreign
-- key check is not blocked); the lease's FOR SHARE, so a change of holder
-- waits for an append under way, and an append waits for a change of
-- holder and then sees the new epoch.
CREATE OR REPLACE FUNCTION log_follows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last BIGINT;
    held BIGINT;
    live BOOLEAN;
BEGIN
    PERFORM 1 FROM tables WHERE id = NEW.table_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'event % of table %: no such table', NEW.v, NEW.table_id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    SELECT epoch, expires > now() INTO held, live FROM leases
        WHERE table_id = NEW.table_id FOR SHARE;
    IF FOUND THEN
        IF NEW.epoch IS DISTINCT FROM held OR NOT live THEN
            RAISE EXCEPTION 'event % of table %: written under lease epoch %, but the lease is at epoch %',
                NEW.v, NEW.table_id, COALESCE(NEW.epoch::text, 'none'),
                held || CASE WHEN live THEN '' ELSE ' (expired)' END
                USING ERRCODE = 'lock_not_available';
        END IF;
    ELSIF NEW.epoch IS NOT NULL THEN
        RAISE EXCEPTION 'event % of table %: written under lease epoch %, but the table has no lease',
            NEW.v, NEW.table_id, NEW.epoch
            USING ERRCODE = 'lock_not_available';
    END IF;
    SELECT COALESCE(MAX(v), 0) INTO last FROM log WHERE table_id = NEW.table_id;
    IF NEW.v <> last + 1 THEN
        RAISE EXCEPTION 'event % does not follow event % of table %', NEW.v, last, NEW.table_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;
", "
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    public_url TEXT NOT NULL,
    seen TIMESTAMPTZ NOT NULL);
ALTER TABLE tables ADD COLUMN born TIMESTAMPTZ NOT NULL DEFAULT now();
CREATE TABLE lobby (
    table_id TEXT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    summary TEXT NOT NULL);
"];

/// The advisory lock nodes take to migrate one at a time (any number
/// unlikely to be used by another program on the same database).
const MIGRATION_LOCK: i64 = 0x64616c6d757469; // "dalmuti"

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

impl PostgresStore {
    /// Appends `events` in one transaction, each written under lease epoch
    /// `epoch`, or else under the epoch of its table's lease this node
    /// holds ([`PostgresStore::hold`]), or else none (one node).
    fn insert_events(&self, events: &[Append], epoch: Option<i64>) -> Result<(), StoreError> {
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
                texts.push(e.event.clone());
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
    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes table `table`'s lease for node `node` for `ttl`, if it is
    /// free, expired or already this node's; answers None if another node
    /// holds it. Every taking draws a new epoch, greater than any before
    /// (also for the node that held it: a restarted node fences its former
    /// self). Expiry is the database's clock, not the node's.
    pub fn acquire_lease(
        &self,
        table: &str,
        node: &str,
        ttl: Duration,
    ) -> Result<Option<Lease>, StoreError> {
        let node = node_id(node)?;
        let secs = lease_secs(ttl)?;
        let table = table.to_string();
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
    pub table: String,
    /// The node holding it.
    pub node: String,
    /// Its epoch: greater at each taking, over every table.
    pub epoch: u64,
}

/// The longest node id: ids are names an operator gives (`node-1`).
const MAX_NODE_ID: usize = 64;

/// A node id, checked: 1 to 64 letters, digits, `-`, `_` or `.`.
fn node_id(node: &str) -> Result<String, StoreError> {
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
fn lease_secs(ttl: Duration) -> Result<f64, StoreError> {
    if ttl < Duration::from_millis(1) || ttl > Duration::from_secs(3600) {
        return Err(StoreError::Failed(format!(
            "PostgreSQL: a lease of {ttl:?}: from 1 ms to an hour"
        )));
    }
    Ok(ttl.as_secs_f64())
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

/// Applies the schema's missing steps, each in one transaction.
fn migrate(client: &mut Client) -> Result<(), StoreError> {
    // Under the lock too: nodes starting together would race on creating
    // the table (CREATE … IF NOT EXISTS is not safe against another
    // session creating it at the same moment).
    let what = "create the schema_version table";
    let mut tx = client.transaction().map_err(failed(what))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(failed(what))?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)")
        .map_err(failed(what))?;
    tx.commit().map_err(failed(what))?;
    for (i, step) in MIGRATIONS.iter().enumerate() {
        let version = i as i32 + 1;
        let what = format!("apply schema version {version}");
        let mut tx = client.transaction().map_err(failed(&what))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .map_err(failed(&what))?;
        let newest: i32 = tx
            .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])
            .map_err(failed(&what))?
            .get(0);
        if newest > MIGRATIONS.len() as i32 {
            return Err(StoreError::Failed(format!(
                "PostgreSQL: the database has schema version {newest}, newer than this \
                 server's {}: run a newer dalmuti",
                MIGRATIONS.len()
            )));
        }
        if newest >= version {
            continue;
        }
        tx.batch_execute(step).map_err(failed(&what))?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&version],
        )
        .map_err(failed(&what))?;
        tx.commit().map_err(failed(&what))?;
    }
    Ok(())
}

/// The columns [`row`] reads, in order.
const ROW: &str = "id, name, seats, rules, public, turn_seconds, spectator_chat, rematch";

fn row(r: &postgres::Row) -> TableRow {
    TableRow {
        id: r.get(0),
        name: r.get(1),
        seats: r.get::<_, i32>(2).max(0) as usize,
        rules: r.get(3),
        public: r.get(4),
        turn_seconds: r.get::<_, Option<i32>>(5).map(|s| s.max(0) as u32),
        spectator_chat: r.get(6),
        rematch: r.get(7),
    }
}

/// A count or number as PostgreSQL's BIGINT, refused if it does not fit.
fn bigint(n: u64, what: &str) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Failed(format!("PostgreSQL: {what} {n} is too large")))
}

/// A small number as PostgreSQL's INTEGER, refused if it does not fit.
fn integer(n: u64, what: &str) -> Result<i32, StoreError> {
    i32::try_from(n).map_err(|_| StoreError::Failed(format!("PostgreSQL: {what} {n} is too large")))
}

impl Store for PostgresStore {
    fn create_table(&self, t: &TableRow) -> Result<(), StoreError> {
        let insert = InsertTable::new(t)?;
        self.run(insert.what.clone(), move |c| insert.run(c))
    }

    fn tables(&self) -> Result<Vec<TableRow>, StoreError> {
        let what = "list the live tables".to_string();
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    &format!("SELECT {ROW} FROM tables WHERE status = 'live' ORDER BY created"),
                    &[],
                )
                .map_err(failed(what))?;
            Ok(rows.iter().map(row).collect())
        })
    }

    fn live_table(&self, id: &str) -> Result<Option<TableRow>, StoreError> {
        let id = id.to_string();
        let what = format!("read live table {id}");
        self.run(what.clone(), move |c| {
            let found = c
                .query_opt(
                    &format!("SELECT {ROW} FROM tables WHERE id = $1 AND status = 'live'"),
                    &[&id],
                )
                .map_err(failed(what))?;
            Ok(found.as_ref().map(row))
        })
    }

    fn finished_table(&self, id: &str) -> Result<Option<(TableRow, String)>, StoreError> {
        let id = id.to_string();
        let what = format!("read finished table {id}");
        self.run(what.clone(), move |c| {
            let found = c
                .query_opt(
                    &format!(
                        "SELECT {ROW}, summary FROM tables WHERE id = $1 AND status = 'finished'"
                    ),
                    &[&id],
                )
                .map_err(failed(what))?;
            Ok(found.map(|r| {
                let summary: Option<String> = r.get(8);
                (row(&r), summary.unwrap_or_default())
            }))
        })
    }

    fn finished(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = bigint(limit as u64, "limit")?;
        let what = "list the finished tables".to_string();
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT summary FROM tables WHERE status = 'finished' AND public
                     ORDER BY finished DESC LIMIT $1",
                    &[&limit],
                )
                .map_err(failed(what))?;
            Ok(rows
                .iter()
                .map(|r| r.get::<_, Option<String>>(0).unwrap_or_default())
                .collect())
        })
    }

    fn finish(&self, id: &str, summary: &str, keep: usize) -> Result<(), StoreError> {
        let (id, summary) = (id.to_string(), summary.to_string());
        let keep = bigint(keep as u64, "the number of finished tables kept")?;
        let what = format!("finish table {id}");
        let held = self.held().remove(&id);
        self.transaction(what.clone(), move |tx| {
            fence(tx, &id, held, &what)?;
            // Finished, it is no node's any more: served from the store.
            for child in ["leases", "lobby"] {
                tx.execute(&format!("DELETE FROM {child} WHERE table_id = $1"), &[&id])
                    .map_err(failed(&what))?;
            }
            tx.execute(
                "UPDATE tables SET status = 'finished', summary = $2,
                    finished = nextval('tables_finished')
                 WHERE id = $1",
                &[&id, &summary],
            )
            .map_err(failed(&what))?;
            let pruned = "SELECT id FROM tables WHERE status = 'finished'
                          ORDER BY finished DESC OFFSET $1";
            for child in ["log", "talk", "leases", "lobby", "tables"] {
                let key = if child == "tables" { "id" } else { "table_id" };
                tx.execute(
                    &format!("DELETE FROM {child} WHERE {key} IN ({pruned})"),
                    &[&keep],
                )
                .map_err(failed(format!(
                    "{what}: prune the oldest finished ({child})"
                )))?;
            }
            Ok(())
        })
    }

    fn delete(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_string();
        let what = format!("delete table {id}");
        let held = self.held().remove(&id);
        self.transaction(what.clone(), move |tx| {
            fence(tx, &id, held, &what)?;
            for (child, key) in [
                ("log", "table_id"),
                ("talk", "table_id"),
                ("leases", "table_id"),
                ("lobby", "table_id"),
                ("tables", "id"),
            ] {
                tx.execute(&format!("DELETE FROM {child} WHERE {key} = $1"), &[&id])
                    .map_err(failed(&what))?;
            }
            Ok(())
        })
    }

    fn append(&self, table: &str, v: u64, event: &str) -> Result<(), StoreError> {
        self.append_batch(&[Append {
            table: table.to_string(),
            v,
            event: event.to_string(),
        }])
    }

    fn append_batch(&self, events: &[Append]) -> Result<(), StoreError> {
        self.insert_events(events, None)
    }

    fn log(&self, table: &str) -> Result<Vec<String>, StoreError> {
        let table = table.to_string();
        let what = format!("read the log of table {table}");
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT event FROM log WHERE table_id = $1 ORDER BY v",
                    &[&table],
                )
                .map_err(failed(what))?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn add_talk(&self, lines: &[TalkRow]) -> Result<(), StoreError> {
        if lines.is_empty() {
            return Ok(());
        }
        let mut rows = Vec::with_capacity(lines.len());
        for l in lines {
            rows.push((
                l.table.clone(),
                bigint(l.n, "line number")?,
                l.kind.as_str(),
                l.line.clone(),
                bigint(l.keep as u64, "the number of lines kept")?,
            ));
        }
        let what = format!("keep {} chat or news lines", lines.len());
        let mut fences: Vec<(String, Option<i64>)> = Vec::new();
        {
            let held = self.held();
            for l in lines {
                if !fences.iter().any(|(t, _)| *t == l.table) {
                    fences.push((l.table.clone(), held.get(&l.table).copied()));
                }
            }
        }
        // Leases locked in their tables' order, as everywhere.
        fences.sort();
        self.transaction(what.clone(), move |tx| {
            for (table, epoch) in &fences {
                fence(tx, table, *epoch, &what)?;
            }
            let insert = tx
                .prepare(
                    "INSERT INTO talk (table_id, n, kind, line) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (table_id, n) DO UPDATE
                         SET kind = EXCLUDED.kind, line = EXCLUDED.line",
                )
                .map_err(failed(&what))?;
            let prune = tx
                .prepare(
                    "DELETE FROM talk WHERE table_id = $1 AND kind = $2 AND n <= (
                        SELECT n FROM talk WHERE table_id = $1 AND kind = $2
                        ORDER BY n DESC LIMIT 1 OFFSET $3)",
                )
                .map_err(failed(&what))?;
            for (table, n, kind, line, keep) in &rows {
                tx.execute(&insert, &[table, n, kind, line])
                    .map_err(failed(format!("{what}: line {n} of table {table}")))?;
                tx.execute(&prune, &[table, kind, keep])
                    .map_err(failed(format!("{what}: prune table {table}")))?;
            }
            Ok(())
        })
    }

    fn talk(&self, table: &str, kind: TalkKind) -> Result<Vec<(u64, String)>, StoreError> {
        let table = table.to_string();
        let what = format!("read the {} of table {table}", kind.as_str());
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT n, line FROM talk WHERE table_id = $1 AND kind = $2 ORDER BY n",
                    &[&table, &kind.as_str()],
                )
                .map_err(failed(what))?;
            Ok(rows
                .iter()
                .map(|r| (r.get::<_, i64>(0).max(0) as u64, r.get(1)))
                .collect())
        })
    }

    fn set_spectator_chat(&self, table: &str, allowed: bool) -> Result<(), StoreError> {
        let table = table.to_string();
        let what = format!("set spectator chat of table {table}");
        let held = self.held().get(&table).copied();
        self.transaction(what.clone(), move |c| {
            fence(c, &table, held, &what)?;
            c.execute(
                "UPDATE tables SET spectator_chat = $2 WHERE id = $1",
                &[&table, &allowed],
            )
            .map_err(failed(what))?;
            Ok(())
        })
    }

    fn set_rematch(&self, table: &str, rematch: &str) -> Result<String, StoreError> {
        let (table, rematch) = (table.to_string(), rematch.to_string());
        let what = format!("set the rematch of table {table}");
        let held = self.held().get(&table).copied();
        // One statement: the row is locked by the update, and the first
        // rematch recorded stays whoever asks second.
        self.transaction(what.clone(), move |c| {
            fence(c, &table, held, &what)?;
            let set = c
                .query_opt(
                    "UPDATE tables SET rematch = COALESCE(rematch, $2) WHERE id = $1
                     RETURNING rematch",
                    &[&table, &rematch],
                )
                .map_err(failed(&what))?;
            set.map(|r| r.get(0)).ok_or_else(|| {
                StoreError::Failed(format!("PostgreSQL: {what}: no table {table:?}"))
            })
        })
    }

    /// `SELECT 1` on one of the pool's connections, queued behind the
    /// jobs before it: a pool too busy to answer shows as a slow ping, and
    /// a database that cannot be reached as an error (after the attempt
    /// to reconnect).
    fn ping(&self) -> Result<(), StoreError> {
        let what = "ping the database".to_string();
        self.run(what.clone(), move |c| {
            c.batch_execute("SELECT 1").map_err(failed(what))
        })
    }
}

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
                spectator_chat, rematch)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[
                &t.id,
                &t.name,
                &self.seats,
                &t.rules,
                &t.public,
                &self.turn,
                &t.spectator_chat,
                &t.rematch,
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
    table: &str,
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

/// The variable that names the PostgreSQL database tests use
/// (`postgres://dalmuti@127.0.0.1:54329/dalmuti_test`); `.ci/postgres`
/// starts one and prints it.
pub const TEST_DATABASE_URL: &str = "DALMUTI_TEST_DATABASE_URL";

/// A schema of its own on the test database, for one test: tests run at
/// the same time without seeing each other's tables, and the schema is
/// dropped with everything in it when this is dropped.
pub struct TestSchema {
    base: String,
    name: String,
    /// The database's address with this schema first on the search path:
    /// what [`PostgresStore::open`] and `dalmuti serve --data` take.
    pub url: String,
}

impl TestSchema {
    /// Creates a fresh schema on the database named by
    /// [`TEST_DATABASE_URL`]. Fails, saying how to start one, when the
    /// variable is not set: the PostgreSQL tests are never skipped.
    pub fn new() -> Result<TestSchema, StoreError> {
        let base = std::env::var(TEST_DATABASE_URL).map_err(|_| {
            StoreError::Failed(format!(
                "the PostgreSQL tests need a database: set {TEST_DATABASE_URL}, e.g. start a \
                 private one on loopback with `eval \"$(bash .ci/postgres start target/pg)\"` \
                 (Debian's postgresql package; see docs/DEVELOPING.md)"
            ))
        })?;
        let name = format!("test_{}", super::new_id());
        let config = Config::from_str(&base)
            .map_err(|e| StoreError::Failed(format!("PostgreSQL: {TEST_DATABASE_URL}: {e}")))?;
        on_own_thread(|| {
            let mut client = connect(&config, &Connector::Plain)?;
            client
                .batch_execute(&format!("CREATE SCHEMA {name}"))
                .map_err(failed(format!("create schema {name}")))
        })?;
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options=-c%20search_path%3D{name}");
        Ok(TestSchema { base, name, url })
    }

    /// A store on this schema.
    pub fn store(&self) -> Result<PostgresStore, StoreError> {
        PostgresStore::open(&self.url)
    }
}

impl Drop for TestSchema {
    fn drop(&mut self) {
        let Ok(config) = Config::from_str(&self.base) else {
            return;
        };
        let _ = on_own_thread(|| {
            connect(&config, &Connector::Plain)?
                .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name))
                .map_err(failed("drop the test schema"))
        });
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
mod tests {
    use super::*;

    fn schema() -> TestSchema {
        TestSchema::new().unwrap_or_else(|e| panic!("{e}"))
    }

    /// A plain client on the schema, as another program would write.
    fn raw(schema: &TestSchema) -> Client {
        Config::from_str(&schema.url)
            .unwrap()
            .connect(NoTls)
            .unwrap()
    }

    fn table(id: &str) -> TableRow {
        TableRow {
            id: id.into(),
            name: id.into(),
            seats: 4,
            rules: "{}".into(),
            public: true,
            ..TableRow::default()
        }
    }

    #[test]
    fn migrations_are_recorded_applied_once_and_a_newer_schema_is_refused() {
        let schema = schema();
        let store = schema.store().unwrap();
        store.create_table(&table("t")).unwrap();
        store.append("t", 1, "{}").unwrap();
        drop(store);
        // Opening again keeps the data and applies nothing twice.
        let store = schema.store().unwrap();
        assert_eq!(store.log("t").unwrap().len(), 1);
        let mut client = raw(&schema);
        let versions: Vec<i32> = client
            .query("SELECT version FROM schema_version ORDER BY version", &[])
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        let all: Vec<i32> = (1..=MIGRATIONS.len() as i32).collect();
        assert_eq!(versions, all);
        client
            .execute("INSERT INTO schema_version VALUES (1000)", &[])
            .unwrap();
        let refused = schema.store().err().expect("a newer schema is refused");
        assert!(
            refused.message().contains("schema version 1000"),
            "{refused}"
        );
    }

    #[test]
    fn a_database_of_the_first_schema_is_brought_up_to_date_with_its_data() {
        let schema = schema();
        let mut client = raw(&schema);
        client
            .batch_execute(&format!(
                "CREATE TABLE schema_version (version INTEGER PRIMARY KEY);
                 {}
                 INSERT INTO schema_version VALUES (1);
                 INSERT INTO tables (id, name, seats, rules, public) VALUES ('old', 'Old', 4, '{{}}', TRUE);
                 INSERT INTO log (table_id, v, event) VALUES ('old', 1, '{{}}');",
                MIGRATIONS[0]
            ))
            .unwrap();
        let store = schema.store().unwrap();
        assert_eq!(store.tables().unwrap()[0].id, "old");
        store.append("old", 2, "[]").unwrap();
        assert_eq!(store.log("old").unwrap(), ["{}", "[]"]);
        let lease = store
            .acquire_lease("old", "n", Duration::from_secs(60))
            .unwrap()
            .unwrap();
        store.append_leased(&lease, &[event("old", 3)]).unwrap();
        let newest: i32 = client
            .query_one("SELECT MAX(version) FROM schema_version", &[])
            .unwrap()
            .get(0);
        assert_eq!(newest, MIGRATIONS.len() as i32);
    }

    #[test]
    fn the_database_itself_refuses_gaps_and_changes_to_the_log() {
        let schema = schema();
        let store = schema.store().unwrap();
        store.create_table(&table("t")).unwrap();
        store.append("t", 1, "{}").unwrap();
        // Another program on the same database is held to the same rules.
        let mut client = raw(&schema);
        let gap = client
            .execute("INSERT INTO log VALUES ('t', 3, '{}')", &[])
            .unwrap_err();
        assert!(
            failed("x")(gap)
                .message()
                .contains("event 3 does not follow event 1 of table t"),
            "the trigger's message"
        );
        assert!(
            client
                .execute("UPDATE log SET event = '[]' WHERE table_id = 't'", &[])
                .is_err(),
            "an event cannot be changed"
        );
        assert!(
            client
                .execute("INSERT INTO log VALUES ('nowhere', 1, '{}')", &[])
                .is_err()
        );
        assert_eq!(store.log("t").unwrap(), ["{}"]);
    }

    #[test]
    fn writers_racing_on_one_table_never_leave_a_gap_or_a_duplicate() {
        let schema = schema();
        let store = Arc::new(schema.store().unwrap());
        store.create_table(&table("t")).unwrap();
        // Four stores (four pools of connections, as four nodes would
        // have) each try every number; exactly one write of each wins.
        let stores: Vec<PostgresStore> = (0..4).map(|_| schema.store().unwrap()).collect();
        let wins: usize = std::thread::scope(|s| {
            let racers: Vec<_> = stores
                .iter()
                .enumerate()
                .map(|(i, store)| {
                    s.spawn(move || {
                        (1..=40u64)
                            .filter(|&v| store.append("t", v, &format!("{{\"by\":{i}}}")).is_ok())
                            .count()
                    })
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap()).sum()
        });
        let log = store.log("t").unwrap();
        assert_eq!(wins, log.len(), "every accepted write is in the log");
        assert!(!log.is_empty());
        let mut client = raw(&schema);
        let numbers: Vec<i64> = client
            .query("SELECT v FROM log WHERE table_id = 't' ORDER BY v", &[])
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        let expected: Vec<i64> = (1..=log.len() as i64).collect();
        assert_eq!(numbers, expected, "numbered 1, 2, 3… with no gap");
    }

    #[test]
    fn the_store_works_from_inside_the_tokio_runtime() {
        // The table actors call the store from async code: the sync client
        // must never run on a runtime thread (it would panic there).
        let schema = schema();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let url = schema.url.clone();
        let log = runtime.block_on(async move {
            let store = PostgresStore::open(&url).unwrap();
            store.create_table(&table("t")).unwrap();
            store.append("t", 1, "{}").unwrap();
            store.log("t").unwrap()
        });
        assert_eq!(log, ["{}"]);
    }

    #[test]
    fn a_database_that_cannot_be_reached_fails_open_saying_so() {
        let mut config = Config::new();
        config
            .host("127.0.0.1")
            .port(1)
            .user("nobody")
            .connect_timeout(Duration::from_secs(2));
        let e = PostgresStore::with_config(config, 1).err().unwrap();
        assert!(e.message().contains("connect to the database"), "{e}");
        let e = PostgresStore::open("postgres://[bad").err().unwrap();
        assert!(e.message().contains("the database address"), "{e}");
    }

    fn event(table: &str, v: u64) -> Append {
        Append {
            table: table.into(),
            v,
            event: format!("{{\"v\":{v}}}"),
        }
    }

    /// Every event of `table`: its number and the lease epoch it was
    /// written under.
    fn numbers_and_epochs(schema: &TestSchema, table: &str) -> Vec<(i64, Option<i64>)> {
        raw(schema)
            .query(
                "SELECT v, epoch FROM log WHERE table_id = $1 ORDER BY v",
                &[&table],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect()
    }

    #[test]
    fn a_lease_fences_the_log_in_the_database() {
        let schema = schema();
        let store = schema.store().unwrap();
        let long = Duration::from_secs(60);
        store.create_table(&table("t")).unwrap();
        store.append("t", 1, "{}").unwrap();
        let a = store.acquire_lease("t", "node-a", long).unwrap().unwrap();
        assert_eq!(
            store.acquire_lease("t", "node-b", long).unwrap(),
            None,
            "held"
        );
        let refused = store.append("t", 2, "{}").unwrap_err();
        assert!(refused.message().contains("lease is at epoch"), "{refused}");
        store.append_leased(&a, &[event("t", 2)]).unwrap();
        assert!(
            store.append_leased(&a, &[event("u", 1)]).is_err(),
            "another table's event under this lease"
        );
        // The same node taking it again (a restart) fences its former self.
        let a2 = store.acquire_lease("t", "node-a", long).unwrap().unwrap();
        assert!(a2.epoch > a.epoch);
        let stale = store.append_leased(&a, &[event("t", 3)]).unwrap_err();
        assert!(stale.message().contains("lease is at epoch"), "{stale}");
        assert!(
            !store.renew_lease(&a, long).unwrap(),
            "a lost lease is not renewed"
        );
        assert!(store.renew_lease(&a2, long).unwrap());
        store.append_leased(&a2, &[event("t", 3)]).unwrap();
        // Released: another node takes it at once, the old epoch writes
        // nothing more.
        store.release_lease(&a2).unwrap();
        let b = store.acquire_lease("t", "node-b", long).unwrap().unwrap();
        assert!(b.epoch > a2.epoch);
        assert!(store.append_leased(&a2, &[event("t", 4)]).is_err());
        store
            .append_leased(&b, &[event("t", 4), event("t", 5)])
            .unwrap();
        let (ea, ea2, eb) = (a.epoch as i64, a2.epoch as i64, b.epoch as i64);
        assert_eq!(
            numbers_and_epochs(&schema, "t"),
            [
                (1, None),
                (2, Some(ea)),
                (3, Some(ea2)),
                (4, Some(eb)),
                (5, Some(eb))
            ]
        );
        // A table with no lease takes no event written under one.
        store.create_table(&table("free")).unwrap();
        let wrong = Lease {
            table: "free".into(),
            ..b.clone()
        };
        let e = store
            .append_leased(&wrong, &[event("free", 1)])
            .unwrap_err();
        assert!(e.message().contains("has no lease"), "{e}");
        // Deleting is fenced too: only the lease's holder may.
        let e = store.delete("t").unwrap_err();
        assert!(e.is_fenced(), "{e}");
        // A lease or a table with one goes with the table.
        store.hold(&b);
        store.delete("t").unwrap();
        assert!(store.log("t").unwrap().is_empty());
    }

    #[test]
    fn an_expired_lease_writes_nothing_and_another_node_takes_the_table() {
        let schema = schema();
        let store = schema.store().unwrap();
        store.create_table(&table("t")).unwrap();
        let short = Duration::from_millis(100);
        let a = store.acquire_lease("t", "node-a", short).unwrap().unwrap();
        store.append_leased(&a, &[event("t", 1)]).unwrap();
        assert_eq!(store.acquire_lease("t", "node-b", short).unwrap(), None);
        std::thread::sleep(Duration::from_millis(250));
        let e = store.append_leased(&a, &[event("t", 2)]).unwrap_err();
        assert!(e.message().contains("(expired)"), "{e}");
        assert!(!store.renew_lease(&a, short).unwrap(), "expired: lost");
        let b = store
            .acquire_lease("t", "node-b", Duration::from_secs(60))
            .unwrap()
            .expect("an expired lease is free");
        store.append_leased(&b, &[event("t", 2)]).unwrap();
        assert!(store.append_leased(&a, &[event("t", 3)]).is_err());
        // Finishing is fenced: not under the lost lease, but under the
        // holder's, and the table's lease goes with it.
        store.hold(&a);
        let e = store.finish("t", "\"t\"", 0).unwrap_err();
        assert!(e.is_fenced(), "{e}");
        store.hold(&b);
        store.finish("t", "\"t\"", 0).unwrap();
        assert!(store.finished_table("t").unwrap().is_none(), "pruned");
    }

    #[test]
    fn leases_refuse_bad_node_ids_and_lengths() {
        let schema = schema();
        let store = schema.store().unwrap();
        store.create_table(&table("t")).unwrap();
        let ok = Duration::from_secs(1);
        for node in ["", "a b", "n\u{e9}", &"x".repeat(65)] {
            assert!(store.acquire_lease("t", node, ok).is_err(), "{node:?}");
        }
        for ttl in [Duration::ZERO, Duration::from_secs(7200)] {
            assert!(store.acquire_lease("t", "n", ttl).is_err(), "{ttl:?}");
        }
        assert!(
            store.acquire_lease("nowhere", "n", ok).is_err(),
            "no such table"
        );
        assert!(
            store
                .acquire_lease("t", &"x".repeat(64), ok)
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn nodes_stealing_a_lease_never_both_write_the_log() {
        // Four nodes (each a store of its own) race for one table's lease,
        // short enough to expire while its holder writes: a holder appends
        // four events after what it reads, slowly, then lets go; the
        // others steal it whenever it is free or expired. Whatever the
        // timing, the log must read as one writer at a time: numbered with
        // no gap, and epochs that never go back (no event written under a
        // lease after an event under a later one).
        let schema = schema();
        let setup = schema.store().unwrap();
        setup.create_table(&table("t")).unwrap();
        let nodes: Vec<PostgresStore> = (0..4).map(|_| schema.store().unwrap()).collect();
        let deadline = std::time::Instant::now() + Duration::from_millis(1500);
        let (written, refused) = std::thread::scope(|s| {
            let racers: Vec<_> = nodes
                .iter()
                .enumerate()
                .map(|(i, store)| {
                    s.spawn(move || {
                        let name = format!("node-{i}");
                        let (mut written, mut refused, mut k) = (0, 0, 0u64);
                        while std::time::Instant::now() < deadline {
                            k += 1;
                            let ttl = Duration::from_millis(20);
                            let Some(lease) = store.acquire_lease("t", &name, ttl).unwrap() else {
                                std::thread::sleep(Duration::from_millis(1 + k % 3));
                                continue;
                            };
                            for _ in 0..4 {
                                // The next number as the log has it now: the
                                // numbering alone cannot tell two writers
                                // apart, only the fence can.
                                let v = store.log("t").unwrap().len() as u64 + 1;
                                match store.append_leased(&lease, &[event("t", v)]) {
                                    Ok(()) => written += 1,
                                    Err(_) => refused += 1,
                                }
                                std::thread::sleep(Duration::from_millis((i as u64 * 3 + k) % 11));
                            }
                            store.release_lease(&lease).unwrap();
                        }
                        (written, refused)
                    })
                })
                .collect();
            racers
                .into_iter()
                .map(|r| r.join().unwrap())
                .fold((0, 0), |(w, r), (w2, r2)| (w + w2, r + r2))
        });
        let log = numbers_and_epochs(&schema, "t");
        assert_eq!(log.len(), written, "every accepted write is in the log");
        let numbers: Vec<i64> = log.iter().map(|(v, _)| *v).collect();
        assert_eq!(numbers, (1..=log.len() as i64).collect::<Vec<_>>());
        let epochs: Vec<i64> = log.iter().map(|(_, e)| e.expect("under a lease")).collect();
        assert!(
            epochs.windows(2).all(|w| w[0] <= w[1]),
            "an older lease wrote after a newer one: {epochs:?}"
        );
        let mut holders = epochs.clone();
        holders.dedup();
        assert!(holders.len() > 4, "the lease changed hands: {holders:?}");
        eprintln!(
            "{written} events under {} leases, {refused} writes refused",
            holders.len()
        );
    }
}
