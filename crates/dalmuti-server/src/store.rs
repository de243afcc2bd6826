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

mod columns;
#[cfg(test)]
pub(crate) mod faulty;
mod pg;
mod repo;
mod sqlite;
mod writer;
pub use pg::{DEFAULT_CONNECTIONS, Lease, Owner, PostgresStore, TEST_DATABASE_URL, TestSchema};
pub use repo::Repository;
pub use sqlite::SqliteStore;
pub use writer::Writer;

pub use crate::ids::TableId;
use crate::protocol::{TableInfo, TalkLine};
pub use dalmuti_table::row::{Silenced, TableRow, TalkKind};
use dalmuti_table::state::Stored;

/// A storage failure, saying what was being done and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
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

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Failed(e.to_string())
    }
}

/// One chat or news line to keep.
#[derive(Clone, Debug, PartialEq)]
pub struct TalkRow {
    /// The table's id.
    pub table: TableId,
    /// The line (its number, and whether chat or news, are its own).
    pub line: TalkLine,
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

    /// How the game moves each key's rating, from `before` (each seat's
    /// key's rating before it, in seat order): every seat is rated as a
    /// player by `rate`, and a key with several seats (copies of one bot
    /// level) moves by the mean of its seats' changes, once.
    pub fn ratings_after(
        &self,
        before: &[crate::ratings::Rating],
        rate: crate::ratings::RateFn,
    ) -> Vec<(&FinishedSeat, crate::ratings::RatingChange)> {
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
                let after = crate::ratings::Rating {
                    mu: before[i].mu + sum.mu / n,
                    sigma: before[i].sigma + sum.sigma / n,
                };
                let change = crate::ratings::RatingChange {
                    name: seat.name.clone(),
                    bot: seat.bot,
                    before: before[i],
                    after,
                };
                (seat, change)
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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// A finished table: its row and its lobby summary, if kept.
    fn finished_table(&self, id: &TableId) -> Result<Option<(TableRow, TableInfo)>, StoreError>;
    /// The lobby summaries of the newest `limit` public finished tables,
    /// newest first.
    fn finished(&self, limit: usize) -> Result<Vec<TableInfo>, StoreError>;
    /// Marks a live table finished with its lobby summary, then keeps only
    /// the newest `keep` finished tables, deleting the others with their
    /// logs.
    fn finish(&self, id: &TableId, summary: &TableInfo, keep: usize) -> Result<(), StoreError>;
    /// Deletes a table and its log.
    fn delete(&self, id: &TableId) -> Result<(), StoreError>;
    /// Appends event number `v`. Fails unless `v` is one more than the
    /// last event stored for the table: the log is append-only.
    fn append(&self, table: &TableId, v: u64, event: &Stored) -> Result<(), StoreError>;
    /// Appends events of several tables in one transaction (one sync to
    /// disk for all): what [`Writer`] uses under load. All or none.
    fn append_batch(&self, events: &[Append]) -> Result<(), StoreError> {
        for e in events {
            self.append(&e.table, e.v, &e.event)?;
        }
        Ok(())
    }
    /// The table's events in order, numbered from 1; an event that does
    /// not read is an error that says which.
    fn log(&self, table: &TableId) -> Result<Vec<Stored>, StoreError>;
    /// Keeps chat and news lines, each table's newest `keep` of each
    /// kind only; one transaction.
    fn add_talk(&self, lines: &[TalkRow]) -> Result<(), StoreError>;
    /// The table's kept lines of `kind`, oldest first, each with its
    /// number; a line that does not read (only talk: it is skipped) is
    /// `None`, its number still counted.
    fn talk(
        &self,
        table: &TableId,
        kind: TalkKind,
    ) -> Result<Vec<(u64, Option<TalkLine>)>, StoreError>;
    /// Sets whether spectators may chat at a table.
    fn set_spectator_chat(&self, table: &TableId, allowed: bool) -> Result<(), StoreError>;
    /// Records `rematch` as the table's rematch unless it has one
    /// already; answers the table's rematch either way.
    fn set_rematch(&self, table: &TableId, rematch: &TableId) -> Result<TableId, StoreError>;
    /// Keeps a game over in its players' histories and, if it
    /// [counts](FinishedGame::counts), updates the ratings of every seat
    /// by `rate`, all in one transaction; a table kept before is left as
    /// it was (a game is counted once, whichever node tells it). Answers
    /// how each rating moved, one change per key (none when the game does
    /// not count or was counted before), for the game over to show.
    fn record_game(
        &self,
        game: &FinishedGame,
        rate: crate::ratings::RateFn,
    ) -> Result<Vec<crate::ratings::RatingChange>, StoreError>;
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
#[derive(Clone, Debug, PartialEq)]
pub struct Append {
    /// The table's id.
    pub table: TableId,
    /// The event's number.
    pub v: u64,
    /// The event.
    pub event: Stored,
}

pub use crate::token::{hash_token, token_matches};

pub use crate::ids::hex;

#[cfg(test)]
mod contract;

#[cfg(test)]
mod tests;
