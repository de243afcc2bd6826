//! The SQLite store: the embedded default, one file.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use super::columns::{
    ROW, TICKET, alike_forms, event_from, event_text, player_from, rules_from, rules_text,
    silenced_from, silenced_text, summary_from, summary_text, talk_from, talk_text, ticket_from,
};
use super::*;

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

    pub(super) fn setup(conn: Connection) -> Result<SqliteStore, StoreError> {
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
pub(super) const MIGRATIONS: &[&str] = &[
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
pub(super) const ALIKE_STEP: usize = 4;

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

/// A table's row as SQLite holds it; one whose rules do not read is an
/// error that names it.
fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<TableRow> {
    let id: TableId = r.get(0)?;
    let rules = rules_from(&id, &r.get::<_, String>(3)?).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(3, rusqlite::types::Type::Text, Box::new(e))
    })?;
    Ok(TableRow {
        id,
        name: r.get(1)?,
        seats: r.get::<_, i64>(2)? as usize,
        rules,
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
                rules_text(&t.rules),
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

    fn finished_table(&self, id: &TableId) -> Result<Option<(TableRow, TableInfo)>, StoreError> {
        let conn = self.conn();
        let found = conn
            .query_row(
                &format!("SELECT {ROW}, summary FROM tables WHERE id = ?1 AND status = 'finished'"),
                [id],
                |r| Ok((row(r)?, r.get::<_, Option<String>>(10)?.unwrap_or_default())),
            )
            .optional()?;
        found
            .map(|(row, summary)| match summary_from(&summary) {
                Some(info) => Ok((row, info)),
                None => Err(StoreError::Failed(format!(
                    "the finished table {id} has a summary that does not read"
                ))),
            })
            .transpose()
    }

    fn finished(&self, limit: usize) -> Result<Vec<TableInfo>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT summary FROM tables WHERE status = 'finished' AND public
             ORDER BY finished DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| r.get::<_, String>(0))?;
        let texts: Vec<String> = rows.collect::<Result<_, _>>()?;
        Ok(texts.iter().filter_map(|t| summary_from(t)).collect())
    }

    fn finish(&self, id: &TableId, summary: &TableInfo, keep: usize) -> Result<(), StoreError> {
        let summary = summary_text(summary);
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

    fn append(&self, table: &TableId, v: u64, event: &Stored) -> Result<(), StoreError> {
        let event = event_text(event);
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
                insert.execute(params![e.table, e.v as i64, event_text(&e.event)])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn log(&self, table: &TableId) -> Result<Vec<Stored>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT event FROM log WHERE table_id = ?1 ORDER BY v")?;
        let rows = stmt.query_map([table], |r| r.get::<_, String>(0))?;
        let texts: Vec<String> = rows.collect::<Result<_, _>>()?;
        texts
            .iter()
            .enumerate()
            .map(|(v, text)| event_from(table, v, text))
            .collect()
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
                let kind = l.line.kind().as_str();
                let text = talk_text(&l.line);
                insert.execute(params![l.table, l.line.n() as i64, kind, text])?;
                prune.execute(params![l.table, kind, l.keep as i64])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn talk(
        &self,
        table: &TableId,
        kind: TalkKind,
    ) -> Result<Vec<(u64, Option<TalkLine>)>, StoreError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT n, line FROM talk WHERE table_id = ?1 AND kind = ?2 ORDER BY n")?;
        let rows = stmt.query_map(params![table, kind.as_str()], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
        })?;
        let kept: Vec<(u64, String)> = rows.collect::<Result<_, _>>()?;
        Ok(kept
            .into_iter()
            .map(|(n, text)| (n, talk_from(kind, &text)))
            .collect())
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
    ) -> Result<Vec<crate::ratings::RatingChange>, StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let fresh = tx.execute(
            "INSERT INTO recorded_games (table_id) VALUES (?1) ON CONFLICT DO NOTHING",
            [&game.table],
        )? == 1;
        if !fresh {
            return Ok(Vec::new());
        }
        let band = game.band();
        let mut after: Vec<(Option<String>, crate::ratings::Rating)> = Vec::new();
        let mut changes = Vec::new();
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
            for (seat, change) in game.ratings_after(&before, rate) {
                let rating = change.after;
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
                changes.push(change);
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
        Ok(changes)
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
