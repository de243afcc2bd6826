//! Persistence behind a [`Store`] trait, with an SQLite implementation
//! (the embedded default) and a PostgreSQL one ([`PostgresStore`], for a
//! database server several nodes can share).
//!
//! Two tables: `tables` (one row per game table) and `log` (append-only,
//! one row per accepted event, numbered from 1 per table). Seats are events
//! too (with the SHA-256 of the seat's token, never the token).
//!
//! A table is `live` (its actor runs; brought back on a restart) until
//! its game is over, when it is kept as `finished`: its log stays, to be
//! replayed on demand for its record, and its lobby summary is kept beside
//! it, up to a number of finished games, oldest pruned first. A table that
//! expires unused is deleted with its log.
//! The table actor writes an event here *before* it broadcasts it, so
//! anything a client has seen survives a crash; a table's game is rebuilt
//! by replaying its log ([`crate::table`]).

use std::path::Path;
use std::sync::Mutex;

#[cfg(test)]
pub(crate) mod faulty;
mod pg;
pub use pg::{DEFAULT_CONNECTIONS, Lease, Owner, PostgresStore, TEST_DATABASE_URL, TestSchema};

use rusqlite::{Connection, OptionalExtension, params};

pub use crate::ids::TableId;
use crate::metrics::{Metrics, StoreOp};
pub use dalmuti_table::row::{Silenced, TableRow, TalkKind};

/// A storage failure, saying what was being done and why.
#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused a write because this node no longer holds the
    /// table's lease: another node serves the table now. Known from the
    /// log trigger's SQLSTATE (`lock_not_available`, which nothing else
    /// raises on the server's connections: they never wait on a lock with
    /// a timeout nor take one with `NOWAIT`), or from the store's own check
    /// of the lease in a transaction.
    #[error("storage: {0}")]
    Fenced(String),
    /// Any other failure.
    #[error("storage: {0}")]
    Failed(String),
}

impl StoreError {
    /// Whether the database refused a write because this node no longer
    /// holds the table's lease (another node serves it now).
    ///
    /// ```
    /// use dalmuti_server::store::StoreError;
    /// assert!(StoreError::Fenced("refused".into()).is_fenced());
    /// assert!(!StoreError::Failed("disk full".into()).is_fenced());
    /// ```
    pub fn is_fenced(&self) -> bool {
        matches!(self, StoreError::Fenced(_))
    }

    /// What went wrong, in words.
    pub fn message(&self) -> &str {
        match self {
            StoreError::Fenced(m) | StoreError::Failed(m) => m,
        }
    }
}

impl From<StoreError> for crate::error::ServerError {
    fn from(e: StoreError) -> crate::error::ServerError {
        crate::error::ServerError::Storage(e.to_string())
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Failed(e.to_string())
    }
}

/// One chat or news line to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TalkRow {
    /// The table's id.
    pub table: TableId,
    /// The line's number at its table (chat and news share the count).
    pub n: u64,
    /// Chat or news.
    pub kind: TalkKind,
    /// The line as JSON.
    pub line: String,
    /// How many lines of this kind the table keeps: older ones go.
    pub keep: usize,
}

/// A player waiting for a table ([`crate::queue`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Ticket {
    /// The ticket's id (random).
    pub id: String,
    /// The player's key ([`crate::players::name_key`]): one ticket each.
    pub key: String,
    /// The player's name.
    pub name: crate::names::PlayerName,
    /// `dalmuti` or `corporate-shuffle`.
    pub game: String,
    /// The table size asked for.
    pub players: usize,
    /// How long the player waits for people before bots fill the table, in
    /// milliseconds.
    pub wait_ms: u64,
    /// The player's rating's mean in that game and band (25 when new).
    pub mu: f64,
    /// When the player asked, in milliseconds since the Unix epoch.
    pub since: u64,
    /// Where the player asked from ([`crate::ratings::origin`]): their
    /// seat is taken from there.
    pub from: Option<String>,
    /// Whether a table is being made for it, or made.
    pub seating: Seating,
}

/// Where a [`Ticket`] stands with its table: the player is told of a table
/// only once it is [`Seating::Seated`], whole and started (issue 40: a
/// player sent to a table before its bots sat down found it half made).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seating {
    /// No table yet.
    Waiting,
    /// A node claimed the ticket for `table` at `since` (milliseconds since
    /// the Unix epoch) and is seating its players and bots: its player
    /// still reads "waiting". A claim that neither becomes seated nor is
    /// released for long is a node that stopped halfway
    /// ([`Store::stale_claims`]).
    Claimed {
        /// The table being made.
        table: TableId,
        /// When the claim was made.
        since: u64,
    },
    /// The table is whole and started: its player takes the seat there.
    Seated(TableId),
}

/// What asking for a table did.
#[derive(Clone, Debug, PartialEq)]
pub enum Enqueued {
    /// The player waits with this ticket.
    Waiting(Ticket),
    /// The queue is full: try again later.
    Full,
}

/// A chat line someone reported, kept for the host and the operator
/// (`dalmuti serve --list-reports`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReportRow {
    /// The table it was said at (its game: the record, while kept).
    pub table: TableId,
    /// The table's name.
    pub table_name: String,
    /// The line's number at its table.
    pub n: u64,
    /// The line as the table kept it (JSON: who, when, what).
    pub line: String,
    /// Who reported it (a seat's name).
    pub reporter: String,
    /// Why, in the reporter's words (may be empty).
    pub why: String,
    /// When, in milliseconds since the Unix epoch.
    pub at: u64,
}

/// A game over, as players' histories and ratings keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// The table it was played at.
    pub table: TableId,
    /// The table's name.
    pub table_name: String,
    /// When it was over, in milliseconds since the Unix epoch.
    pub at: u64,
    /// `dalmuti` or `corporate-shuffle`.
    pub game: String,
    /// Whether the host asked for it to be rated.
    pub rated: bool,
    /// Whether the table was public: a private table's address is shown
    /// to nobody but its players.
    pub public: bool,
    /// Every seat, with its final place: those who left before the end
    /// after everyone who stayed.
    pub seats: Vec<FinishedSeat>,
}

/// One seat of a [`FinishedGame`].
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedSeat {
    /// The player's key ([`crate::players::name_key`]), a bot's level as
    /// `bot:LEVEL`, or `None` for a person who kept no name.
    pub key: Option<String>,
    /// The seat's name (a bot's: its level).
    pub name: String,
    /// Whether a bot played it.
    pub bot: bool,
    /// The final place, from 1.
    pub place: usize,
    /// Where a person took the seat from ([`crate::ratings::origin`]), if
    /// known.
    pub from: Option<String>,
}

impl FinishedGame {
    /// Whether the ratings count it: asked for, every seat someone who
    /// can be rated (a person who kept a name, or a bot), a person among
    /// them, and no two people who took their seats from one place (a
    /// second account beside the first would be a free rating).
    ///
    /// ```
    /// use dalmuti_server::store::{FinishedGame, FinishedSeat};
    /// let seat = |key: &str, bot: bool, from: Option<&str>, place| FinishedSeat {
    ///     key: Some(key.into()), name: key.into(), bot, place, from: from.map(Into::into),
    /// };
    /// let mut game = FinishedGame {
    ///     table: "t".into(), table_name: "t".into(), at: 0, game: "dalmuti".into(),
    ///     rated: true, public: true,
    ///     seats: vec![seat("ada", false, Some("a1"), 1), seat("bo", false, Some("b2"), 2),
    ///                 seat("bot:easy", true, None, 3)],
    /// };
    /// assert!(game.counts());
    /// game.seats[1].from = Some("a1".into());
    /// assert!(!game.counts(), "two people at one keyboard");
    /// ```
    pub fn counts(&self) -> bool {
        let people: Vec<&FinishedSeat> = self.seats.iter().filter(|s| !s.bot).collect();
        let apart = people.iter().enumerate().all(|(i, a)| {
            people[i + 1..]
                .iter()
                .all(|b| a.from.is_none() || a.from != b.from)
        });
        self.rated && self.seats.iter().all(|s| s.key.is_some()) && !people.is_empty() && apart
    }

    /// The band of table sizes it is rated in.
    pub fn band(&self) -> &'static str {
        crate::ratings::band(self.seats.len())
    }

    /// The rating of each key after the game, from `before` (each seat's
    /// key's rating before it, in seat order): every seat is rated as a
    /// player by `rate`, and a key with several seats (copies of one bot
    /// level) moves by the mean of its seats' changes, once.
    pub fn ratings_after(
        &self,
        before: &[crate::ratings::Rating],
        rate: crate::ratings::RateFn,
    ) -> Vec<(&FinishedSeat, crate::ratings::Rating)> {
        let places: Vec<usize> = self.seats.iter().map(|s| s.place).collect();
        let after = rate(before, &places);
        let mut moved: Vec<(&FinishedSeat, crate::ratings::Rating, f64)> = Vec::new();
        for (i, seat) in self.seats.iter().enumerate() {
            let (dmu, dsigma) = (after[i].mu - before[i].mu, after[i].sigma - before[i].sigma);
            match moved.iter_mut().find(|(s, _, _)| s.key == seat.key) {
                Some((_, sum, n)) => {
                    sum.mu += dmu;
                    sum.sigma += dsigma;
                    *n += 1.0;
                }
                None => moved.push((
                    seat,
                    crate::ratings::Rating {
                        mu: dmu,
                        sigma: dsigma,
                    },
                    1.0,
                )),
            }
        }
        moved
            .into_iter()
            .map(|(seat, sum, n)| {
                let i = self
                    .seats
                    .iter()
                    .position(|s| s.key == seat.key)
                    .expect("its seat");
                let rating = crate::ratings::Rating {
                    mu: before[i].mu + sum.mu / n,
                    sigma: before[i].sigma + sum.sigma / n,
                };
                (seat, rating)
            })
            .collect()
    }
}

/// A game in a player's history.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlayerGame {
    /// The table it was played at (its replay's address).
    pub table: TableId,
    /// The table's name.
    pub table_name: String,
    /// When it was over, in milliseconds since the Unix epoch.
    pub at: u64,
    /// `dalmuti` or `corporate-shuffle`.
    pub game: String,
    /// How many played.
    pub players: usize,
    /// The player's final place, from 1.
    pub place: usize,
    /// Whether it counted for ratings.
    pub rated: bool,
    /// The player's rating after it, if it counted.
    pub rating: Option<crate::ratings::Rating>,
    /// Whether its table was public: a profile shows a private table's
    /// address to nobody but the player.
    pub public: bool,
}

/// A rating as kept: whose, in which game and band, over how many games.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RatingRow {
    /// The player's key, or `bot:LEVEL`.
    pub key: String,
    /// The name to show.
    pub name: String,
    /// Whether a bot level.
    pub bot: bool,
    /// `dalmuti` or `corporate-shuffle`.
    pub game: String,
    /// The band of table sizes ([`crate::ratings::BANDS`]).
    pub band: String,
    /// The rating.
    pub rating: crate::ratings::Rating,
    /// Rated games played.
    pub games: u64,
}

/// A player who kept a name ([`crate::players`]).
///
/// The store keeps beside it the name's look-alike form
/// ([`crate::names::form`]), unique: of names that look alike, one only
/// is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// Who the player is, unique and never changed (their seats, games
    /// and ratings are kept under it): the form of their name when they
    /// kept it ([`crate::players::name_key`]). A form holds no colon, and
    /// no player's key begins with `bot:` (schema version 4 moved those):
    /// a bot level's key (`bot:hard`) is never a player's.
    pub key: String,
    /// The name as the player chose it.
    pub name: crate::names::PlayerName,
    /// The SHA-256 of the player's secret (never the secret).
    pub secret_hash: [u8; 32],
    /// When the name was kept, in milliseconds since the Unix epoch.
    pub since: u64,
}

/// Where tables, seats and event logs live: SQLite ([`SqliteStore`]) or
/// PostgreSQL ([`PostgresStore`]), held to one contract (the tests in
/// `store/contract.rs` run against both).
pub trait Store: Send + Sync {
    /// Adds a new table.
    fn create_table(&self, table: &TableRow) -> Result<(), StoreError>;
    /// Every live table, oldest first.
    fn tables(&self) -> Result<Vec<TableRow>, StoreError>;
    /// Live table `id`, if it is one.
    fn live_table(&self, id: &TableId) -> Result<Option<TableRow>, StoreError>;
    /// A finished table: its row and its lobby summary (JSON), if kept.
    fn finished_table(&self, id: &TableId) -> Result<Option<(TableRow, String)>, StoreError>;
    /// The lobby summaries (JSON) of the newest `limit` public finished
    /// tables, newest first.
    fn finished(&self, limit: usize) -> Result<Vec<String>, StoreError>;
    /// Marks a live table finished with its lobby summary (JSON), then
    /// keeps only the newest `keep` finished tables, deleting the others
    /// with their logs.
    fn finish(&self, id: &TableId, summary: &str, keep: usize) -> Result<(), StoreError>;
    /// Deletes a table and its log.
    fn delete(&self, id: &TableId) -> Result<(), StoreError>;
    /// Appends event number `v` (JSON). Fails unless `v` is one more than
    /// the last event stored for the table: the log is append-only.
    fn append(&self, table: &TableId, v: u64, event: &str) -> Result<(), StoreError>;
    /// Appends events of several tables in one transaction (one sync to
    /// disk for all): what [`Writer`] uses under load. All or none.
    fn append_batch(&self, events: &[Append]) -> Result<(), StoreError> {
        for e in events {
            self.append(&e.table, e.v, &e.event)?;
        }
        Ok(())
    }
    /// The table's events in order, numbered from 1.
    fn log(&self, table: &TableId) -> Result<Vec<String>, StoreError>;
    /// Keeps chat and news lines, each table's newest `keep` of each
    /// kind only; one transaction.
    fn add_talk(&self, lines: &[TalkRow]) -> Result<(), StoreError>;
    /// The table's kept lines of `kind`, oldest first.
    fn talk(&self, table: &TableId, kind: TalkKind) -> Result<Vec<(u64, String)>, StoreError>;
    /// Sets whether spectators may chat at a table.
    fn set_spectator_chat(&self, table: &TableId, allowed: bool) -> Result<(), StoreError>;
    /// Records `rematch` as the table's rematch unless it has one
    /// already; answers the table's rematch either way.
    fn set_rematch(&self, table: &TableId, rematch: &TableId) -> Result<TableId, StoreError>;
    /// Keeps a game over in its players' histories and, if it
    /// [counts](FinishedGame::counts), updates the ratings of every seat
    /// by `rate`, all in one transaction; a table kept before is left as
    /// it was (a game is counted once, whichever node tells it).
    fn record_game(
        &self,
        game: &FinishedGame,
        rate: crate::ratings::RateFn,
    ) -> Result<(), StoreError>;
    /// A player's games, newest first, at most `limit`.
    fn player_games(&self, key: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError>;
    /// A player's (or a bot level's) ratings, in every game and band.
    fn player_ratings(&self, key: &str) -> Result<Vec<RatingRow>, StoreError>;
    /// The best ratings of a game and band, by [ordinal](crate::ratings::Rating::ordinal).
    fn leaderboard(
        &self,
        game: &str,
        band: &str,
        limit: usize,
    ) -> Result<Vec<RatingRow>, StoreError>;
    /// The player of `ticket` waits for a table, with a ticket of their
    /// own (their waiting ticket if they have one; a ticket already seated
    /// is replaced), unless `cap` tickets wait already.
    fn enqueue(&self, ticket: &Ticket, cap: usize) -> Result<Enqueued, StoreError>;
    /// Player `key`'s ticket `id`, marked seen at `now` (a ticket not seen
    /// for a while is dropped: its player is gone).
    fn poll_ticket(&self, id: &str, key: &str, now: u64) -> Result<Option<Ticket>, StoreError>;
    /// Player `key` leaves the queue; `false` if they were not in it.
    fn leave_queue(&self, key: &str) -> Result<bool, StoreError>;
    /// Drops tickets not seen since `stale_before` (and seated ones as
    /// old), then answers the tickets still waiting (not claimed), oldest
    /// first.
    fn waiting(&self, stale_before: u64) -> Result<Vec<Ticket>, StoreError>;
    /// Claims the waiting tickets `ids` for `table` at `now`, all or none:
    /// `false` if any was claimed elsewhere or left meanwhile (another
    /// node matched it). Their players are not told yet
    /// ([`Seating::Claimed`]).
    fn claim_tickets(&self, ids: &[String], table: &TableId, now: u64) -> Result<bool, StoreError>;
    /// The tickets claimed for `table` are seated there: its table is
    /// whole and started. Answers how many.
    fn seat_claimed(&self, table: &TableId) -> Result<usize, StoreError>;
    /// The tickets claimed for `table` wait again (the table could not be
    /// made), keeping their place in the queue. Answers how many.
    fn release_claim(&self, table: &TableId) -> Result<usize, StoreError>;
    /// The tables whose tickets were claimed before `before` and are
    /// still neither seated nor released: made by a node that stopped
    /// halfway, or is very slow.
    fn stale_claims(&self, before: u64) -> Result<Vec<TableId>, StoreError>;
    /// Keeps a report; `false` (nothing kept) if this reporter reported
    /// this line already.
    fn add_report(&self, report: &ReportRow) -> Result<bool, StoreError>;
    /// The newest reports first, at most `limit`.
    fn reports(&self, limit: usize) -> Result<Vec<ReportRow>, StoreError>;
    /// The host removed a seat's chat: the table's `silenced` seats are
    /// now these, and its kept chat lines numbered `remove` go; one
    /// transaction.
    fn silence(
        &self,
        table: &TableId,
        silenced: &[Silenced],
        remove: &[u64],
    ) -> Result<(), StoreError>;
    /// Remembers that player `key` took a seat at `table` (at `at`, in
    /// milliseconds since the Unix epoch); a second time changes nothing.
    fn add_player_table(&self, key: &str, table: &TableId, at: u64) -> Result<(), StoreError>;
    /// The tables player `key` took a seat at, newest first, at most
    /// `limit`, with when.
    fn player_tables(&self, key: &str, limit: usize) -> Result<Vec<(TableId, u64)>, StoreError>;
    /// Keeps a new player; `false` (and nothing kept) if its key is
    /// another player's already, or another player's name looks like its
    /// name (the same [`crate::names::form`]): of two players keeping
    /// look-alike names at once, one only is kept.
    fn add_player(&self, player: &PlayerRow) -> Result<bool, StoreError>;
    /// The player whose secret hashes to `hash`.
    fn player_by_secret(&self, hash: &[u8; 32]) -> Result<Option<PlayerRow>, StoreError>;
    /// The player who kept `name`, or else a name that looks like it
    /// (the same [`crate::names::form`]).
    fn player_named(&self, name: &str) -> Result<Option<PlayerRow>, StoreError>;
    /// Gives player `key` the secret hashing to `new` in place of the one
    /// hashing to `old`, from which moment `old` is no one's; `false`
    /// (nothing changed) if `old` is not their secret (any more).
    fn change_secret(&self, key: &str, old: &[u8; 32], new: &[u8; 32]) -> Result<bool, StoreError>;
    /// Answers once the database answers a query that reads nothing (the
    /// readiness check, `/readyz`): it blocks as long as the database
    /// does, so callers bound it with a timeout.
    fn ping(&self) -> Result<(), StoreError>;
}

/// One event to append.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Append {
    /// The table's id.
    pub table: TableId,
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
        migrate(&conn)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Each step brings a database of the schema before it up to its own
/// version (in `PRAGMA user_version`), in one transaction.
///
/// 1: tables get a `status` (`live` or `finished`; every table of an
/// older database is live, and one whose game is over becomes finished
/// when it is loaded), the order in which they `finished`, and their lobby
/// `summary`.
///
/// 2: the last lines of chat and news per table (`talk`), whether
/// spectators may chat, and the table of a game's rematch.
///
/// 3: players who kept a name (`players`: its key, the name, the hex
/// SHA-256 of the player's secret), their games (`player_games`, and the
/// tables already counted, `recorded_games`), the tables they sat at
/// (`player_tables`), the ratings, whether a table is rated, the seats
/// whose chat its host removed (`silenced`, JSON), reported chat lines
/// (`reports`), and the players waiting for a table (`queue`).
///
/// 4: each player's name's look-alike form (`alike`, unique,
/// [`crate::names::form`]), filled in by [`alike_forms`] (the oldest of
/// names already kept that look alike keeps the form; the others keep
/// their name, and their form stays empty); and a person whose key was a
/// bot level's (a name like `bot:hard`, kept before bot names were
/// reserved) moves to `person:bot:hard`, with their games, their tables
/// and their ticket, and the bot level's rating gets its name back.
///
/// 5 (issue 40): a ticket is `claimed` for a table (when) before it is
/// `seated` there, so its player hears of the table only once it is whole
/// and started (tickets seated before are seated), and where its player
/// asked from (`origin`, [`crate::ratings::origin`]); and whether each game of
/// a player's history was at a `public` table, so a profile shows nobody a
/// private table's address (a game whose table is gone counts as private).
const MIGRATIONS: &[&str] = &[
    "ALTER TABLE tables ADD COLUMN status TEXT NOT NULL DEFAULT 'live';
     ALTER TABLE tables ADD COLUMN finished INTEGER;
     ALTER TABLE tables ADD COLUMN summary TEXT;
     CREATE INDEX IF NOT EXISTS tables_status ON tables (status, finished);",
    "CREATE TABLE talk (
        table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL,
        kind TEXT NOT NULL, line TEXT NOT NULL, PRIMARY KEY (table_id, n));
     CREATE INDEX talk_kind ON talk (table_id, kind, n);
     ALTER TABLE tables ADD COLUMN spectator_chat INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE tables ADD COLUMN rematch TEXT;",
    "CREATE TABLE players (
        key TEXT PRIMARY KEY, name TEXT NOT NULL, secret TEXT NOT NULL UNIQUE,
        since INTEGER NOT NULL);
     CREATE TABLE recorded_games (table_id TEXT PRIMARY KEY);
     CREATE TABLE player_games (
        key TEXT NOT NULL, table_id TEXT NOT NULL, table_name TEXT NOT NULL,
        at INTEGER NOT NULL, game TEXT NOT NULL, players INTEGER NOT NULL,
        place INTEGER NOT NULL, rated INTEGER NOT NULL, mu REAL, sigma REAL,
        PRIMARY KEY (key, table_id));
     CREATE INDEX player_games_at ON player_games (key, at);
     CREATE TABLE ratings (
        key TEXT NOT NULL, name TEXT NOT NULL, bot INTEGER NOT NULL,
        game TEXT NOT NULL, band TEXT NOT NULL, mu REAL NOT NULL,
        sigma REAL NOT NULL, games INTEGER NOT NULL,
        PRIMARY KEY (key, game, band));
     CREATE INDEX ratings_board ON ratings (game, band, mu);
     CREATE TABLE player_tables (
        key TEXT NOT NULL, table_id TEXT NOT NULL, at INTEGER NOT NULL,
        PRIMARY KEY (key, table_id));
     CREATE INDEX player_tables_at ON player_tables (key, at);
     CREATE TABLE reports (
        table_id TEXT NOT NULL, table_name TEXT NOT NULL, n INTEGER NOT NULL,
        line TEXT NOT NULL, reporter TEXT NOT NULL, why TEXT NOT NULL,
        at INTEGER NOT NULL, PRIMARY KEY (table_id, n, reporter));
     CREATE INDEX reports_at ON reports (at);
     CREATE TABLE queue (
        id TEXT PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
        game TEXT NOT NULL, players INTEGER NOT NULL, wait_ms INTEGER NOT NULL,
        mu REAL NOT NULL, since INTEGER NOT NULL, seen INTEGER NOT NULL,
        table_id TEXT);
     ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE tables ADD COLUMN silenced TEXT NOT NULL DEFAULT '[]';",
    "ALTER TABLE players ADD COLUMN alike TEXT;
     CREATE UNIQUE INDEX players_alike ON players (alike);
     CREATE INDEX players_name ON players (name);
     UPDATE player_games SET key = 'person:' || key WHERE key LIKE 'bot:%';
     UPDATE player_tables SET key = 'person:' || key WHERE key LIKE 'bot:%';
     DELETE FROM queue WHERE key LIKE 'bot:%';
     UPDATE players SET key = 'person:' || key WHERE key LIKE 'bot:%';
     UPDATE ratings SET name = substr(key, 5), bot = 1 WHERE key LIKE 'bot:%';",
    "ALTER TABLE queue ADD COLUMN claimed INTEGER;
     ALTER TABLE queue ADD COLUMN seated INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE queue ADD COLUMN origin TEXT;
     UPDATE queue SET seated = 1, claimed = since WHERE table_id IS NOT NULL;
     ALTER TABLE player_games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
     UPDATE player_games SET public = COALESCE(
        (SELECT public FROM tables WHERE tables.id = player_games.table_id), 0);",
];

/// The schema version whose players get their look-alike forms filled in
/// ([`alike_forms`]) in the same transaction.
const ALIKE_STEP: usize = 4;

/// Brings a database of an older schema up to the newest, step by step.
fn migrate(conn: &Connection) -> Result<(), StoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        let tx = conn.unchecked_transaction()?;
        tx.execute_batch(step)?;
        if i + 1 == ALIKE_STEP {
            let players = {
                let mut q = tx.prepare("SELECT key, name FROM players ORDER BY since, key")?;
                q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect::<Result<Vec<(String, String)>, _>>()?
            };
            for (key, alike) in alike_forms(players) {
                tx.execute(
                    "UPDATE players SET alike = ?1 WHERE key = ?2",
                    params![alike, key],
                )?;
            }
        }
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

/// The look-alike forms of players kept before forms were kept, oldest
/// first (`(key, name)`): each player's key and form, the form given to
/// the oldest of players whose names look alike only (the others keep
/// their names, which were theirs first, without a form: their look-alike
/// form is the older player's).
pub(crate) fn alike_forms(players: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut taken = std::collections::HashSet::new();
    players
        .into_iter()
        .filter_map(|(key, name)| {
            let form = crate::names::form(&name);
            taken.insert(form.clone()).then_some((key, form))
        })
        .collect()
}

/// The columns of a table's row, in the order both stores read them.
pub(crate) const ROW: &str =
    "id, name, seats, rules, public, turn_seconds, spectator_chat, rematch, rated, silenced";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<TableRow> {
    Ok(TableRow {
        id: r.get(0)?,
        name: r.get(1)?,
        seats: r.get::<_, i64>(2)? as usize,
        rules: r.get(3)?,
        public: r.get(4)?,
        turn_seconds: r.get(5)?,
        spectator_chat: r.get(6)?,
        rematch: r.get(7)?,
        rated: r.get(8)?,
        silenced: silenced_from(&r.get::<_, String>(9)?),
    })
}

/// A player's row as SQLite holds it: its name and hash read back
/// through their rules, so a row that breaks them is an error, not a player.
fn player_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<PlayerRow, StoreError>> {
    let (key, name, secret, since): (String, String, String, i64) =
        (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
    Ok(player_from(key, &name, &secret, since))
}

/// A player's row from its columns, checked.
pub(crate) fn player_from(
    key: String,
    name: &str,
    secret: &str,
    since: i64,
) -> Result<PlayerRow, StoreError> {
    let bad = |what: &str| StoreError::Failed(format!("the player {key:?} has a bad {what}"));
    let name = crate::names::PlayerName::new(name).map_err(|_| bad("name"))?;
    let mut secret_hash = [0u8; 32];
    if secret.len() != 64 || !secret.is_ascii() {
        return Err(bad("secret hash"));
    }
    for (i, byte) in secret_hash.iter_mut().enumerate() {
        *byte =
            u8::from_str_radix(&secret[2 * i..2 * i + 2], 16).map_err(|_| bad("secret hash"))?;
    }
    Ok(PlayerRow {
        key,
        name,
        secret_hash,
        since: since.max(0) as u64,
    })
}

/// The `silenced` column's text: the silenced seats as a JSON array.
pub(crate) fn silenced_text(silenced: &[Silenced]) -> String {
    serde_json::to_string(silenced).expect("silenced seats serialize")
}

/// The `silenced` column read back (bare names, as kept before issue
/// 40, too); a value that does not read (which only a hand-edited
/// database has) silences nobody.
pub(crate) fn silenced_from(text: &str) -> Vec<Silenced> {
    serde_json::from_str(text).unwrap_or_default()
}

/// The columns of a ticket, in the order both stores read them.
pub(crate) const TICKET: &str =
    "id, key, name, game, players, wait_ms, mu, since, table_id, claimed, seated, origin";

/// A ticket from its columns (read as [`TICKET`] names them).
#[allow(clippy::too_many_arguments)] // one per column
pub(crate) fn ticket_from(
    id: String,
    key: String,
    name: &str,
    game: String,
    players: i64,
    wait_ms: i64,
    mu: f64,
    since: i64,
    (table, claimed, seated, from): (Option<TableId>, Option<i64>, bool, Option<String>),
) -> Result<Ticket, StoreError> {
    let name = crate::names::PlayerName::new(name)
        .map_err(|_| StoreError::Failed(format!("ticket {id} has a bad name")))?;
    let seating = match (table, seated) {
        (None, _) => Seating::Waiting,
        (Some(table), true) => Seating::Seated(table),
        (Some(table), false) => Seating::Claimed {
            table,
            since: claimed.unwrap_or(since).max(0) as u64,
        },
    };
    Ok(Ticket {
        id,
        key,
        name,
        game,
        players: players.max(0) as usize,
        wait_ms: wait_ms.max(0) as u64,
        mu,
        since: since.max(0) as u64,
        from,
        seating,
    })
}

fn sqlite_ticket(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<Ticket, StoreError>> {
    Ok(ticket_from(
        r.get(0)?,
        r.get(1)?,
        &r.get::<_, String>(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        (r.get(8)?, r.get(9)?, r.get(10)?, r.get(11)?),
    ))
}

impl SqliteStore {
    /// The ratings `filter` (a WHERE clause's condition and order) picks.
    fn ratings_where(
        &self,
        filter: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let conn = self.conn();
        let mut q = conn.prepare(&format!(
            "SELECT key, name, bot, game, band, mu, sigma, games FROM ratings WHERE {filter}"
        ))?;
        let rows = q
            .query_map(params, |r| {
                Ok(RatingRow {
                    key: r.get(0)?,
                    name: r.get(1)?,
                    bot: r.get(2)?,
                    game: r.get(3)?,
                    band: r.get(4)?,
                    rating: crate::ratings::Rating {
                        mu: r.get(5)?,
                        sigma: r.get(6)?,
                    },
                    games: r.get::<_, i64>(7)?.max(0) as u64,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }
}

impl Store for SqliteStore {
    fn create_table(&self, t: &TableRow) -> Result<(), StoreError> {
        let conn = self.conn();
        // Not COUNT(*): tables are deleted, and a number must not repeat.
        let created: i64 = conn.query_row(
            "SELECT COALESCE(MAX(created), 0) + 1 FROM tables",
            [],
            |r| r.get(0),
        )?;
        conn.execute(
            "INSERT INTO tables (id, name, seats, rules, public, turn_seconds, created,
                spectator_chat, rematch, rated, silenced)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                t.id,
                t.name,
                t.seats as i64,
                t.rules,
                t.public,
                t.turn_seconds,
                created,
                t.spectator_chat,
                t.rematch,
                t.rated,
                silenced_text(&t.silenced)
            ],
        )?;
        Ok(())
    }

    fn tables(&self) -> Result<Vec<TableRow>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {ROW} FROM tables WHERE status = 'live' ORDER BY created"
        ))?;
        let rows = stmt.query_map([], row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn live_table(&self, id: &TableId) -> Result<Option<TableRow>, StoreError> {
        let conn = self.conn();
        Ok(conn
            .query_row(
                &format!("SELECT {ROW} FROM tables WHERE id = ?1 AND status = 'live'"),
                [id],
                row,
            )
            .optional()?)
    }

    fn finished_table(&self, id: &TableId) -> Result<Option<(TableRow, String)>, StoreError> {
        let conn = self.conn();
        Ok(conn
            .query_row(
                &format!("SELECT {ROW}, summary FROM tables WHERE id = ?1 AND status = 'finished'"),
                [id],
                |r| Ok((row(r)?, r.get::<_, Option<String>>(10)?.unwrap_or_default())),
            )
            .optional()?)
    }

    fn finished(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT summary FROM tables WHERE status = 'finished' AND public
             ORDER BY finished DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn finish(&self, id: &TableId, summary: &str, keep: usize) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "UPDATE tables SET status = 'finished', summary = ?2,
                finished = (SELECT COALESCE(MAX(finished), 0) + 1 FROM tables)
             WHERE id = ?1",
            params![id, summary],
        )?;
        let pruned = "SELECT id FROM tables WHERE status = 'finished'
                      ORDER BY finished DESC LIMIT -1 OFFSET ?1";
        for child in ["log", "talk"] {
            tx.execute(
                &format!("DELETE FROM {child} WHERE table_id IN ({pruned})"),
                [keep as i64],
            )?;
        }
        tx.execute(
            &format!("DELETE FROM tables WHERE id IN ({pruned})"),
            [keep as i64],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn delete(&self, id: &TableId) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM log WHERE table_id = ?1", [id])?;
        tx.execute("DELETE FROM talk WHERE table_id = ?1", [id])?;
        tx.execute("DELETE FROM tables WHERE id = ?1", [id])?;
        tx.commit()?;
        Ok(())
    }

    fn append(&self, table: &TableId, v: u64, event: &str) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let last: Option<i64> = tx
            .query_row("SELECT MAX(v) FROM log WHERE table_id = ?1", [table], |r| {
                r.get(0)
            })
            .optional()?
            .flatten();
        if last.unwrap_or(0) as u64 + 1 != v {
            return Err(StoreError::Failed(format!(
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
                    return Err(StoreError::Failed(format!(
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

    fn log(&self, table: &TableId) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT event FROM log WHERE table_id = ?1 ORDER BY v")?;
        let rows = stmt.query_map([table], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn add_talk(&self, lines: &[TalkRow]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO talk (table_id, n, kind, line) VALUES (?1, ?2, ?3, ?4)",
            )?;
            let mut prune = tx.prepare_cached(
                "DELETE FROM talk WHERE table_id = ?1 AND kind = ?2 AND n <= (
                    SELECT n FROM talk WHERE table_id = ?1 AND kind = ?2
                    ORDER BY n DESC LIMIT 1 OFFSET ?3)",
            )?;
            for l in lines {
                let kind = l.kind.as_str();
                insert.execute(params![l.table, l.n as i64, kind, l.line])?;
                prune.execute(params![l.table, kind, l.keep as i64])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn talk(&self, table: &TableId, kind: TalkKind) -> Result<Vec<(u64, String)>, StoreError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT n, line FROM talk WHERE table_id = ?1 AND kind = ?2 ORDER BY n")?;
        let rows = stmt.query_map(params![table, kind.as_str()], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get(1)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn set_spectator_chat(&self, table: &TableId, allowed: bool) -> Result<(), StoreError> {
        self.conn().execute(
            "UPDATE tables SET spectator_chat = ?2 WHERE id = ?1",
            params![table, allowed],
        )?;
        Ok(())
    }

    fn set_rematch(&self, table: &TableId, rematch: &TableId) -> Result<TableId, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "UPDATE tables SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
            params![table, rematch],
        )?;
        let set: Option<TableId> = tx
            .query_row("SELECT rematch FROM tables WHERE id = ?1", [table], |r| {
                r.get(0)
            })
            .optional()?
            .flatten();
        tx.commit()?;
        set.ok_or_else(|| StoreError::Failed(format!("no table {table:?}")))
    }

    /// Waits for the connection's lock, as every write does: a stuck
    /// write shows as a slow ping.
    fn record_game(
        &self,
        game: &FinishedGame,
        rate: crate::ratings::RateFn,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let fresh = tx.execute(
            "INSERT INTO recorded_games (table_id) VALUES (?1) ON CONFLICT DO NOTHING",
            [&game.table],
        )? == 1;
        if !fresh {
            return Ok(());
        }
        let band = game.band();
        let mut after: Vec<(Option<String>, crate::ratings::Rating)> = Vec::new();
        if game.counts() {
            let mut before = Vec::with_capacity(game.seats.len());
            for seat in &game.seats {
                let kept = tx
                    .query_row(
                        "SELECT mu, sigma FROM ratings WHERE key = ?1 AND game = ?2 AND band = ?3",
                        params![seat.key, game.game, band],
                        |r| {
                            Ok(crate::ratings::Rating {
                                mu: r.get(0)?,
                                sigma: r.get(1)?,
                            })
                        },
                    )
                    .optional()?;
                before.push(kept.unwrap_or_default());
            }
            for (seat, rating) in game.ratings_after(&before, rate) {
                tx.execute(
                    "INSERT INTO ratings (key, name, bot, game, band, mu, sigma, games)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1)
                     ON CONFLICT (key, game, band) DO UPDATE SET
                        name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,
                        games = games + 1",
                    params![
                        seat.key,
                        seat.name,
                        seat.bot,
                        game.game,
                        band,
                        rating.mu,
                        rating.sigma
                    ],
                )?;
                after.push((seat.key.clone(), rating));
            }
        }
        for seat in &game.seats {
            let (Some(key), false) = (&seat.key, seat.bot) else {
                continue;
            };
            let rating = after
                .iter()
                .find(|(k, _)| k.as_ref() == Some(key))
                .map(|(_, r)| *r);
            tx.execute(
                "INSERT INTO player_games
                    (key, table_id, table_name, at, game, players, place, rated, mu, sigma,
                     public)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    key,
                    game.table,
                    game.table_name,
                    game.at as i64,
                    game.game,
                    game.seats.len() as i64,
                    seat.place as i64,
                    rating.is_some(),
                    rating.map(|r| r.mu),
                    rating.map(|r| r.sigma),
                    game.public
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn player_games(&self, key: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        let conn = self.conn();
        let mut q = conn.prepare(
            "SELECT table_id, table_name, at, game, players, place, rated, mu, sigma, public
             FROM player_games WHERE key = ?1 ORDER BY at DESC, table_id LIMIT ?2",
        )?;
        let games = q
            .query_map(params![key, limit as i64], |r| {
                let (mu, sigma): (Option<f64>, Option<f64>) = (r.get(7)?, r.get(8)?);
                Ok(PlayerGame {
                    table: r.get(0)?,
                    table_name: r.get(1)?,
                    at: r.get::<_, i64>(2)?.max(0) as u64,
                    game: r.get(3)?,
                    players: r.get::<_, i64>(4)?.max(0) as usize,
                    place: r.get::<_, i64>(5)?.max(0) as usize,
                    rated: r.get(6)?,
                    rating: mu
                        .zip(sigma)
                        .map(|(mu, sigma)| crate::ratings::Rating { mu, sigma }),
                    public: r.get(9)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(games)
    }

    fn player_ratings(&self, key: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.ratings_where("key = ?1 ORDER BY game, band", params![key])
    }

    fn leaderboard(
        &self,
        game: &str,
        band: &str,
        limit: usize,
    ) -> Result<Vec<RatingRow>, StoreError> {
        self.ratings_where(
            "game = ?1 AND band = ?2 ORDER BY mu - 3 * sigma DESC, key LIMIT ?3",
            params![game, band, limit as i64],
        )
    }

    fn enqueue(&self, t: &Ticket, cap: usize) -> Result<Enqueued, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let kept = tx
            .query_row(
                &format!("SELECT {TICKET} FROM queue WHERE key = ?1 AND seated = 0"),
                [&t.key],
                sqlite_ticket,
            )
            .optional()?;
        if let Some(kept) = kept {
            return kept.map(Enqueued::Waiting);
        }
        tx.execute("DELETE FROM queue WHERE key = ?1", [&t.key])?;
        let waiting: i64 = tx.query_row(
            "SELECT COUNT(*) FROM queue WHERE table_id IS NULL",
            [],
            |r| r.get(0),
        )?;
        if waiting as usize >= cap {
            return Ok(Enqueued::Full);
        }
        tx.execute(
            "INSERT INTO queue (id, key, name, game, players, wait_ms, mu, since, seen, origin)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9)",
            params![
                t.id,
                t.key,
                t.name.as_str(),
                t.game,
                t.players as i64,
                t.wait_ms as i64,
                t.mu,
                t.since as i64,
                t.from
            ],
        )?;
        tx.commit()?;
        Ok(Enqueued::Waiting(t.clone()))
    }

    fn poll_ticket(&self, id: &str, key: &str, now: u64) -> Result<Option<Ticket>, StoreError> {
        let conn = self.conn();
        conn.execute(
            "UPDATE queue SET seen = ?3 WHERE id = ?1 AND key = ?2",
            params![id, key, now as i64],
        )?;
        conn.query_row(
            &format!("SELECT {TICKET} FROM queue WHERE id = ?1 AND key = ?2"),
            [id, key],
            sqlite_ticket,
        )
        .optional()?
        .transpose()
    }

    fn leave_queue(&self, key: &str) -> Result<bool, StoreError> {
        Ok(self.conn().execute(
            "DELETE FROM queue WHERE key = ?1 AND table_id IS NULL",
            [key],
        )? > 0)
    }

    fn waiting(&self, stale_before: u64) -> Result<Vec<Ticket>, StoreError> {
        let conn = self.conn();
        conn.execute("DELETE FROM queue WHERE seen < ?1", [stale_before as i64])?;
        let mut q = conn.prepare(&format!(
            "SELECT {TICKET} FROM queue WHERE table_id IS NULL ORDER BY since, id"
        ))?;
        let rows: Vec<Result<Ticket, StoreError>> =
            q.query_map([], sqlite_ticket)?.collect::<Result<_, _>>()?;
        rows.into_iter().collect()
    }

    fn claim_tickets(&self, ids: &[String], table: &TableId, now: u64) -> Result<bool, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let mut claimed = 0;
        for id in ids {
            claimed += tx.execute(
                "UPDATE queue SET table_id = ?2, claimed = ?3 WHERE id = ?1 AND table_id IS NULL",
                params![id, table, now as i64],
            )?;
        }
        if claimed != ids.len() {
            return Ok(false);
        }
        tx.commit()?;
        Ok(true)
    }

    fn seat_claimed(&self, table: &TableId) -> Result<usize, StoreError> {
        Ok(self.conn().execute(
            "UPDATE queue SET seated = 1 WHERE table_id = ?1 AND seated = 0",
            [table],
        )?)
    }

    fn release_claim(&self, table: &TableId) -> Result<usize, StoreError> {
        Ok(self.conn().execute(
            "UPDATE queue SET table_id = NULL, claimed = NULL WHERE table_id = ?1 AND seated = 0",
            [table],
        )?)
    }

    fn stale_claims(&self, before: u64) -> Result<Vec<TableId>, StoreError> {
        let conn = self.conn();
        let mut q = conn.prepare(
            "SELECT DISTINCT table_id FROM queue
             WHERE table_id IS NOT NULL AND seated = 0 AND claimed < ?1 ORDER BY table_id",
        )?;
        let tables = q
            .query_map([before as i64], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(tables)
    }

    fn add_report(&self, r: &ReportRow) -> Result<bool, StoreError> {
        let added = self.conn().execute(
            "INSERT INTO reports (table_id, table_name, n, line, reporter, why, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING",
            params![
                r.table,
                r.table_name,
                r.n as i64,
                r.line,
                r.reporter,
                r.why,
                r.at as i64
            ],
        )?;
        Ok(added == 1)
    }

    fn reports(&self, limit: usize) -> Result<Vec<ReportRow>, StoreError> {
        let conn = self.conn();
        let mut q = conn.prepare(
            "SELECT table_id, table_name, n, line, reporter, why, at FROM reports
             ORDER BY at DESC, table_id, n LIMIT ?1",
        )?;
        let rows = q
            .query_map([limit as i64], |r| {
                Ok(ReportRow {
                    table: r.get(0)?,
                    table_name: r.get(1)?,
                    n: r.get::<_, i64>(2)?.max(0) as u64,
                    line: r.get(3)?,
                    reporter: r.get(4)?,
                    why: r.get(5)?,
                    at: r.get::<_, i64>(6)?.max(0) as u64,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    fn silence(
        &self,
        table: &TableId,
        silenced: &[Silenced],
        remove: &[u64],
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "UPDATE tables SET silenced = ?2 WHERE id = ?1",
            params![table, silenced_text(silenced)],
        )?;
        for n in remove {
            tx.execute(
                "DELETE FROM talk WHERE table_id = ?1 AND n = ?2 AND kind = 'chat'",
                params![table, *n as i64],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn add_player_table(&self, key: &str, table: &TableId, at: u64) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO player_tables (key, table_id, at) VALUES (?1, ?2, ?3)
             ON CONFLICT DO NOTHING",
            params![key, table, at as i64],
        )?;
        Ok(())
    }

    fn player_tables(&self, key: &str, limit: usize) -> Result<Vec<(TableId, u64)>, StoreError> {
        let conn = self.conn();
        let mut q = conn.prepare(
            "SELECT table_id, at FROM player_tables WHERE key = ?1
             ORDER BY at DESC, table_id LIMIT ?2",
        )?;
        let rows = q
            .query_map(params![key, limit as i64], |r| {
                Ok((r.get(0)?, r.get::<_, i64>(1)?.max(0) as u64))
            })?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    fn add_player(&self, p: &PlayerRow) -> Result<bool, StoreError> {
        // Any conflict: the key's, or the look-alike form's.
        let added = self.conn().execute(
            "INSERT INTO players (key, name, secret, since, alike) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT DO NOTHING",
            params![
                p.key,
                p.name.as_str(),
                hex(&p.secret_hash),
                p.since as i64,
                crate::names::form(&p.name)
            ],
        )?;
        Ok(added == 1)
    }

    fn player_by_secret(&self, hash: &[u8; 32]) -> Result<Option<PlayerRow>, StoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT key, name, secret, since FROM players WHERE secret = ?1",
                [hex(hash)],
                player_row,
            )
            .optional()?;
        row.transpose()
    }

    fn player_named(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT key, name, secret, since FROM players WHERE name = ?1 OR alike = ?2
                 ORDER BY name = ?1 DESC LIMIT 1",
                params![name, crate::names::form(name)],
                player_row,
            )
            .optional()?;
        row.transpose()
    }

    fn change_secret(&self, key: &str, old: &[u8; 32], new: &[u8; 32]) -> Result<bool, StoreError> {
        let changed = self.conn().execute(
            "UPDATE players SET secret = ?3 WHERE key = ?1 AND secret = ?2",
            params![key, hex(old), hex(new)],
        )?;
        Ok(changed == 1)
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.conn().query_row("SELECT 1", [], |_| Ok(()))?;
        Ok(())
    }
}

/// Writes events and chat and news lines for every table from one
/// thread, many per transaction: under load, tables that act at the same
/// moment share one sync to disk (group commit) instead of queueing for one
/// each. A table awaits its write before it broadcasts the event or line.
#[derive(Clone)]
pub struct Writer {
    tx: std::sync::mpsc::Sender<(Job, Done)>,
}

/// What the writer is asked to write.
enum Job {
    Event(Append),
    Talk(TalkRow),
}

type Done = tokio::sync::oneshot::Sender<Result<(), StoreError>>;

impl Writer {
    /// Starts the writing thread over `store`, its batches timed in
    /// metrics of its own (see [`Writer::metered`]).
    pub fn start(store: std::sync::Arc<dyn Store>) -> Writer {
        Writer::metered(store, Metrics::default())
    }

    /// Starts the writing thread over `store`; how long each batch takes
    /// goes to `metrics` (`dalmuti_store_seconds`, ops `append` and
    /// `talk`).
    pub fn metered(store: std::sync::Arc<dyn Store>, metrics: Metrics) -> Writer {
        let (tx, rx) = std::sync::mpsc::channel::<(Job, Done)>();
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
                    let (mut events, mut talk) = (Vec::new(), Vec::new());
                    for (job, done) in batch {
                        match job {
                            Job::Event(e) => events.push((e, done)),
                            Job::Talk(t) => talk.push((t, done)),
                        }
                    }
                    if !events.is_empty() {
                        metrics.time(StoreOp::Append, || write_events(store.as_ref(), events));
                    }
                    if !talk.is_empty() {
                        let lines: Vec<TalkRow> = talk.iter().map(|(t, _)| t.clone()).collect();
                        let result = metrics.time(StoreOp::Talk, || store.add_talk(&lines));
                        for (_, done) in talk {
                            let _ = done.send(result.clone());
                        }
                    }
                }
            })
            .expect("start the writer thread");
        Writer { tx }
    }

    async fn write(&self, job: Job) -> Result<(), StoreError> {
        let (done, wait) = tokio::sync::oneshot::channel();
        self.tx
            .send((job, done))
            .map_err(|_| StoreError::Failed("the writer has stopped".into()))?;
        wait.await
            .map_err(|_| StoreError::Failed("the writer has stopped".into()))?
    }

    /// Appends one event; resolves once it is on disk.
    pub async fn append(&self, table: &TableId, v: u64, event: String) -> Result<(), StoreError> {
        self.write(Job::Event(Append {
            table: table.clone(),
            v,
            event,
        }))
        .await
    }

    /// Keeps one chat or news line; resolves once it is on disk.
    pub async fn talk(&self, line: TalkRow) -> Result<(), StoreError> {
        self.write(Job::Talk(line)).await
    }
}

/// Appends a batch of events in one transaction and answers each.
fn write_events(store: &dyn Store, batch: Vec<(Append, Done)>) {
    if batch.is_empty() {
        return;
    }
    let events: Vec<Append> = batch.iter().map(|(a, _)| a.clone()).collect();
    match store.append_batch(&events) {
        Ok(()) => {
            for (_, done) in batch {
                let _ = done.send(Ok(()));
            }
        }
        // One bad event must not sink the others: write them one by one
        // and answer each (each table logs its own failure).
        Err(e) => {
            tracing::warn!(
                events = events.len(),
                error = %e,
                "the writer's batch of events failed: writing them one by one"
            );
            for (e, done) in batch {
                let _ = done.send(store.append(&e.table, e.v, &e.event));
            }
        }
    }
}

pub use crate::token::{hash_token, token_matches};

pub use crate::ids::hex;

#[cfg(test)]
mod contract;

#[cfg(test)]
mod tests {
    use super::*;

    /// Each contract of `store/contract.rs` as one test per backend.
    macro_rules! contract {
        ($($name:ident),* $(,)?) => {
            mod sqlite {
                $(
                    #[test]
                    fn $name() {
                        let store = super::SqliteStore::in_memory().unwrap();
                        super::super::contract::$name(&store);
                    }
                )*
            }
            mod postgres {
                $(
                    #[test]
                    fn $name() {
                        let schema = super::TestSchema::new().unwrap_or_else(|e| panic!("{e}"));
                        let store = schema.store().unwrap_or_else(|e| panic!("{e}"));
                        super::super::contract::$name(&store);
                    }
                )*
            }
        };
    }

    contract!(
        log_is_append_only,
        batches_are_all_or_none,
        finished_tables_are_kept_up_to_a_bound,
        talk_is_kept_up_to_a_bound,
        live_tables_are_found_by_id,
        a_working_database_answers_a_ping,
        a_name_is_kept_once_and_found_by_its_secret,
        a_secret_is_changed_once_and_the_old_one_is_no_ones,
        a_game_is_counted_once_and_rated_only_when_it_counts,
        a_players_tables_are_listed_newest_first,
        reports_are_kept_once_and_a_silence_removes_lines,
        a_ticket_waits_once_and_is_seated_once,
    );

    #[test]
    fn tokens_are_random_and_only_their_hashes_match() {
        let token = crate::token::SeatToken::new();
        assert_eq!(token.len(), 32);
        let hash = hash_token(&token);
        assert!(token_matches(&token, &hash));
        assert!(!token_matches(&crate::token::SeatToken::new(), &hash));
        assert_ne!(TableId::new(), TableId::new());
    }

    #[test]
    fn silenced_seats_kept_as_bare_names_read_back() {
        let kept = silenced_from(r#"["Bo", {"name": "Cy", "player": "cy", "from": ["ab"]}]"#);
        let bo = crate::names::PlayerName::new("Bo").unwrap();
        let cy = crate::names::PlayerName::new("Cy").unwrap();
        assert_eq!(kept.len(), 2);
        assert_eq!((&kept[0].name, &kept[0].player), (&bo, &None));
        assert!(kept[0].from.is_empty());
        assert_eq!(kept[1].name, cy);
        assert_eq!(kept[1].player.as_deref(), Some("cy"));
        assert_eq!(kept[1].from, ["ab"]);
        assert_eq!(silenced_from(&silenced_text(&kept)), kept);
        assert!(silenced_from("nonsense").is_empty());
    }

    /// Players kept under the rule of look-alikes before schema version
    /// 4 keep their names; the version's forms hold from then on.
    #[test]
    fn players_kept_before_forms_are_migrated() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE tables (
                id TEXT PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL,
                rules TEXT NOT NULL, public INTEGER NOT NULL, turn_seconds INTEGER,
                created INTEGER NOT NULL);
             CREATE TABLE log (
                table_id TEXT NOT NULL REFERENCES tables(id), v INTEGER NOT NULL,
                event TEXT NOT NULL, PRIMARY KEY (table_id, v));",
        )
        .unwrap();
        for step in &MIGRATIONS[..ALIKE_STEP - 1] {
            conn.execute_batch(step).unwrap();
        }
        conn.pragma_update(None, "user_version", ALIKE_STEP as i64 - 1)
            .unwrap();
        conn.execute_batch(super::contract::PLAYERS_BEFORE_FORMS)
            .unwrap();
        let store = SqliteStore::setup(conn).unwrap();
        super::contract::players_kept_before_forms_are_migrated(&store);
    }

    #[test]
    fn a_database_of_the_first_schema_is_migrated() {
        let dir = std::env::temp_dir().join(format!("dalmuti-migrate-{}", TableId::new()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE tables (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL,
                    rules TEXT NOT NULL, public INTEGER NOT NULL, turn_seconds INTEGER,
                    created INTEGER NOT NULL);
                 CREATE TABLE log (
                    table_id TEXT NOT NULL REFERENCES tables(id), v INTEGER NOT NULL,
                    event TEXT NOT NULL, PRIMARY KEY (table_id, v));
                 INSERT INTO tables VALUES ('old', 'Old', 4, '{}', 1, NULL, 0);
                 INSERT INTO log VALUES ('old', 1, '{}');",
            )
            .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let tables = store.tables().unwrap();
        assert_eq!(tables.len(), 1, "an old table is live");
        assert_eq!(tables[0].id, "old");
        assert!(
            !tables[0].spectator_chat,
            "spectators may not chat by default"
        );
        assert_eq!(tables[0].rematch, None);
        store
            .add_talk(&[super::contract::line("old", 1, TalkKind::Chat, 50)])
            .unwrap();
        assert_eq!(store.talk(&"old".into(), TalkKind::Chat).unwrap().len(), 1);
        store.finish(&"old".into(), "\"old\"", 10).unwrap();
        assert_eq!(store.finished(10).unwrap(), ["\"old\""]);
        drop(store);
        // Opening again does not migrate twice.
        let store = SqliteStore::open(&path).unwrap();
        assert!(store.tables().unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
