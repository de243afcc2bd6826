//! The store's queries on PostgreSQL: [`Store`] for [`PostgresStore`].

use super::*;
use crate::store::columns::{event_from, summary_from, summary_text, talk_from, talk_text};

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
            rows.iter().map(row).collect()
        })
    }

    fn live_table(&self, id: &TableId) -> Result<Option<TableRow>, StoreError> {
        let id = id.to_string();
        let what = format!("read live table {id}");
        self.run(what.clone(), move |c| {
            let found = c
                .query_opt(
                    &format!("SELECT {ROW} FROM tables WHERE id = $1 AND status = 'live'"),
                    &[&id],
                )
                .map_err(failed(what))?;
            found.as_ref().map(row).transpose()
        })
    }

    fn finished_table(&self, id: &TableId) -> Result<Option<(TableRow, TableInfo)>, StoreError> {
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
            found
                .map(|r| {
                    let summary: Option<String> = r.get(10);
                    let info = summary_from(&summary.unwrap_or_default()).ok_or_else(|| {
                        StoreError::Failed(format!(
                            "the finished table {id} has a summary that does not read"
                        ))
                    })?;
                    Ok((row(&r)?, info))
                })
                .transpose()
        })
    }

    fn finished(&self, limit: usize) -> Result<Vec<TableInfo>, StoreError> {
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
                .filter_map(|r| summary_from(&r.get::<_, Option<String>>(0).unwrap_or_default()))
                .collect())
        })
    }

    fn finish(&self, id: &TableId, summary: &TableInfo, keep: usize) -> Result<(), StoreError> {
        let (id, summary) = (id.clone(), summary_text(summary));
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

    fn delete(&self, id: &TableId) -> Result<(), StoreError> {
        let id = id.clone();
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

    fn append(&self, table: &TableId, v: u64, event: &Stored) -> Result<(), StoreError> {
        self.append_batch(&[Append {
            table: table.clone(),
            v,
            event: event.clone(),
        }])
    }

    fn append_batch(&self, events: &[Append]) -> Result<(), StoreError> {
        self.insert_events(events, None)
    }

    fn log(&self, table: &TableId) -> Result<Vec<Stored>, StoreError> {
        let table = table.clone();
        let what = format!("read the log of table {table}");
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT event FROM log WHERE table_id = $1 ORDER BY v",
                    &[&table],
                )
                .map_err(failed(what))?;
            rows.iter()
                .enumerate()
                .map(|(v, r)| event_from(&table, v, r.get(0)))
                .collect()
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
                bigint(l.line.n(), "line number")?,
                l.line.kind().as_str(),
                talk_text(&l.line),
                bigint(l.keep as u64, "the number of lines kept")?,
            ));
        }
        let what = format!("keep {} chat or news lines", lines.len());
        let mut fences: Vec<(TableId, Option<i64>)> = Vec::new();
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

    fn talk(
        &self,
        table: &TableId,
        kind: TalkKind,
    ) -> Result<Vec<(u64, Option<TalkLine>)>, StoreError> {
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
                .map(|r| (r.get::<_, i64>(0).max(0) as u64, talk_from(kind, r.get(1))))
                .collect())
        })
    }

    fn set_spectator_chat(&self, table: &TableId, allowed: bool) -> Result<(), StoreError> {
        let table = table.clone();
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

    fn set_rematch(&self, table: &TableId, rematch: &TableId) -> Result<TableId, StoreError> {
        let (table, rematch) = (table.clone(), rematch.clone());
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
    fn record_game(
        &self,
        game: &FinishedGame,
        rate: crate::ratings::RateFn,
    ) -> Result<Vec<crate::ratings::RatingChange>, StoreError> {
        let game = game.clone();
        let what = format!("count the game of table {}", game.table);
        self.transaction(what.clone(), move |c| {
            let failed = |e| failed(&what)(e);
            let fresh = c
                .execute(
                    "INSERT INTO recorded_games (table_id) VALUES ($1) ON CONFLICT DO NOTHING",
                    &[&game.table],
                )
                .map_err(failed)?
                == 1;
            if !fresh {
                return Ok(Vec::new());
            }
            let band = game.band();
            let mut after: Vec<(Option<String>, crate::ratings::Rating)> = Vec::new();
let mut changes = Vec::new();
            if game.counts() {
                // Each rated key locked, in one order: two games over at
                // once update a shared player one after the other.
                let mut keys: Vec<&str> = game.seats.iter().filter_map(|s| s.key.as_deref()).collect();
                keys.sort_unstable();
                keys.dedup();
                for key in keys {
                    c.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&key])
                        .map_err(failed)?;
                }
                let mut before = Vec::with_capacity(game.seats.len());
                for seat in &game.seats {
                    let kept = c
                        .query_opt(
                            "SELECT mu, sigma FROM ratings WHERE key = $1 AND game = $2 AND band = $3",
                            &[&seat.key, &game.game, &band],
                        )
                        .map_err(failed)?;
                    before.push(kept.map_or_else(crate::ratings::Rating::default, |r| {
                        crate::ratings::Rating {
                            mu: r.get(0),
                            sigma: r.get(1),
                        }
                    }));
                }
                for (seat, change) in game.ratings_after(&before, rate) {
let rating = change.after;
                    c.execute(
                        "INSERT INTO ratings (key, name, bot, game, band, mu, sigma, games)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, 1)
                         ON CONFLICT (key, game, band) DO UPDATE SET
                            name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,
                            games = ratings.games + 1",
                        &[&seat.key, &seat.name, &seat.bot, &game.game, &band, &rating.mu, &rating.sigma],
                    )
                    .map_err(failed)?;
                    after.push((seat.key.clone(), rating));
changes.push(change);
                }
            }
            let players = integer(game.seats.len() as u64, "players")?;
            let at = bigint(game.at, "time")?;
            for seat in &game.seats {
                let (Some(key), false) = (&seat.key, seat.bot) else {
                    continue;
                };
                let rating = after
                    .iter()
                    .find(|(k, _)| k.as_ref() == Some(key))
                    .map(|(_, r)| *r);
                let place = integer(seat.place as u64, "place")?;
                c.execute(
                    "INSERT INTO player_games
                        (key, table_id, table_name, at, game, players, place, rated, mu, sigma,
                         public)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                    &[
                        key,
                        &game.table,
                        &game.table_name,
                        &at,
                        &game.game,
                        &players,
                        &place,
                        &rating.is_some(),
                        &rating.map(|r| r.mu),
                        &rating.map(|r| r.sigma),
                        &game.public,
                    ],
                )
                .map_err(failed)?;
            }
            Ok(changes)
        })
    }

    fn player_games(&self, key: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        let key = key.to_string();
        let limit = bigint(limit as u64, "limit")?;
        let what = format!("read the games of player {key:?}");
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT table_id, table_name, at, game, players, place, rated, mu, sigma,
                        public
                     FROM player_games WHERE key = $1 ORDER BY at DESC, table_id LIMIT $2",
                    &[&key, &limit],
                )
                .map_err(failed(what))?;
            Ok(rows
                .iter()
                .map(|r| {
                    let (mu, sigma): (Option<f64>, Option<f64>) = (r.get(7), r.get(8));
                    PlayerGame {
                        table: r.get(0),
                        table_name: r.get(1),
                        at: r.get::<_, i64>(2).max(0) as u64,
                        game: r.get(3),
                        players: r.get::<_, i32>(4).max(0) as usize,
                        place: r.get::<_, i32>(5).max(0) as usize,
                        rated: r.get(6),
                        rating: mu
                            .zip(sigma)
                            .map(|(mu, sigma)| crate::ratings::Rating { mu, sigma }),
                        public: r.get(9),
                    }
                })
                .collect())
        })
    }

    fn player_ratings(&self, key: &str) -> Result<Vec<RatingRow>, StoreError> {
        let key = key.to_string();
        self.ratings_where(
            format!("read the ratings of {key:?}"),
            "key = $1 ORDER BY game, band",
            vec![key],
            None,
        )
    }

    fn leaderboard(
        &self,
        game: &str,
        band: &str,
        limit: usize,
    ) -> Result<Vec<RatingRow>, StoreError> {
        self.ratings_where(
            format!("read the leaderboard of {game} {band}"),
            "game = $1 AND band = $2 ORDER BY mu - 3 * sigma DESC, key LIMIT $3",
            vec![game.to_string(), band.to_string()],
            Some(bigint(limit as u64, "limit")?),
        )
    }

    fn enqueue(&self, t: &Ticket, cap: usize) -> Result<Enqueued, StoreError> {
        let t = t.clone();
        let (players, wait, since) = (
            integer(t.players as u64, "players")?,
            bigint(t.wait_ms, "wait")?,
            bigint(t.since, "time")?,
        );
        let cap = bigint(cap as u64, "cap")?;
        let what = format!("queue player {:?}", t.key);
        self.transaction(what.clone(), move |c| {
            let failed = |e| failed(&what)(e);
            // One player's tickets one at a time, and the queue's size
            // counted under one lock: two nodes cannot both add the last.
            c.execute(
                "SELECT pg_advisory_xact_lock(hashtext('dalmuti queue'))",
                &[],
            )
            .map_err(failed)?;
            let kept = c
                .query_opt(
                    &format!("SELECT {TICKET} FROM queue WHERE key = $1 AND NOT seated"),
                    &[&t.key],
                )
                .map_err(failed)?;
            if let Some(r) = kept {
                return pg_ticket(&r).map(Enqueued::Waiting);
            }
            c.execute("DELETE FROM queue WHERE key = $1", &[&t.key])
                .map_err(failed)?;
            let waiting: i64 = c
                .query_one("SELECT COUNT(*) FROM queue WHERE table_id IS NULL", &[])
                .map_err(failed)?
                .get(0);
            if waiting >= cap {
                return Ok(Enqueued::Full);
            }
            c.execute(
                "INSERT INTO queue (id, key, name, game, players, wait_ms, mu, since, seen, origin)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9)",
                &[
                    &t.id,
                    &t.key,
                    &t.name.as_str(),
                    &t.game,
                    &players,
                    &wait,
                    &t.mu,
                    &since,
                    &t.from,
                ],
            )
            .map_err(failed)?;
            Ok(Enqueued::Waiting(t))
        })
    }

    fn poll_ticket(&self, id: &str, key: &str, now: u64) -> Result<Option<Ticket>, StoreError> {
        let (id, key, now) = (id.to_string(), key.to_string(), bigint(now, "time")?);
        let what = format!("read ticket {id}");
        self.run(what.clone(), move |c| {
            let row = c
                .query_opt(
                    &format!(
                        "UPDATE queue SET seen = $3 WHERE id = $1 AND key = $2 RETURNING {TICKET}"
                    ),
                    &[&id, &key, &now],
                )
                .map_err(failed(what))?;
            row.map(|r| pg_ticket(&r)).transpose()
        })
    }

    fn leave_queue(&self, key: &str) -> Result<bool, StoreError> {
        let key = key.to_string();
        let what = format!("take {key:?} out of the queue");
        self.run(what.clone(), move |c| {
            Ok(c.execute(
                "DELETE FROM queue WHERE key = $1 AND table_id IS NULL",
                &[&key],
            )
            .map_err(failed(what))?
                > 0)
        })
    }

    fn waiting(&self, stale_before: u64) -> Result<Vec<Ticket>, StoreError> {
        let stale = bigint(stale_before, "time")?;
        let what = "read the queue".to_string();
        self.run(what.clone(), move |c| {
            c.execute("DELETE FROM queue WHERE seen < $1", &[&stale])
                .map_err(failed(&what))?;
            let rows = c
                .query(
                    &format!(
                        "SELECT {TICKET} FROM queue WHERE table_id IS NULL ORDER BY since, id"
                    ),
                    &[],
                )
                .map_err(failed(&what))?;
            rows.iter().map(pg_ticket).collect()
        })
    }

    fn claim_tickets(&self, ids: &[String], table: &TableId, now: u64) -> Result<bool, StoreError> {
        let (ids, table, now) = (ids.to_vec(), table.clone(), bigint(now, "time")?);
        let what = format!("claim tickets for table {table}");
        // A failed match must change nothing: the transaction is rolled
        // back by an error, so a short count is one.
        let claimed = self.transaction(what.clone(), move |c| {
            let claimed = c
                .execute(
                    "UPDATE queue SET table_id = $2, claimed = $3
                     WHERE id = ANY($1) AND table_id IS NULL",
                    &[&ids, &table, &now],
                )
                .map_err(failed(&what))?;
            if claimed as usize != ids.len() {
                return Err(StoreError::Failed(NOT_ALL_CLAIMED.into()));
            }
            Ok(())
        });
        match claimed {
            Ok(()) => Ok(true),
            Err(StoreError::Failed(m)) if m == NOT_ALL_CLAIMED => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn seat_claimed(&self, table: &TableId) -> Result<usize, StoreError> {
        let table = table.clone();
        let what = format!("seat the tickets claimed for table {table}");
        self.run(what.clone(), move |c| {
            Ok(c.execute(
                "UPDATE queue SET seated = TRUE WHERE table_id = $1 AND NOT seated",
                &[&table],
            )
            .map_err(failed(what))? as usize)
        })
    }

    fn release_claim(&self, table: &TableId) -> Result<usize, StoreError> {
        let table = table.clone();
        let what = format!("release the tickets claimed for table {table}");
        self.run(what.clone(), move |c| {
            Ok(c.execute(
                "UPDATE queue SET table_id = NULL, claimed = NULL
                 WHERE table_id = $1 AND NOT seated",
                &[&table],
            )
            .map_err(failed(what))? as usize)
        })
    }

    fn stale_claims(&self, before: u64) -> Result<Vec<TableId>, StoreError> {
        let before = bigint(before, "time")?;
        let what = "read the stale claims of the queue".to_string();
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT DISTINCT table_id FROM queue
                     WHERE table_id IS NOT NULL AND NOT seated AND claimed < $1
                     ORDER BY table_id",
                    &[&before],
                )
                .map_err(failed(what))?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn add_report(&self, r: &ReportRow) -> Result<bool, StoreError> {
        let r = r.clone();
        let (n, at) = (bigint(r.n, "line number")?, bigint(r.at, "time")?);
        let what = format!("keep a report of line {} of table {}", r.n, r.table);
        self.run(what.clone(), move |c| {
            let added = c
                .execute(
                    "INSERT INTO reports (table_id, table_name, n, line, reporter, why, at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                    &[
                        &r.table,
                        &r.table_name,
                        &n,
                        &r.line,
                        &r.reporter,
                        &r.why,
                        &at,
                    ],
                )
                .map_err(failed(what))?;
            Ok(added == 1)
        })
    }

    fn reports(&self, limit: usize) -> Result<Vec<ReportRow>, StoreError> {
        let limit = bigint(limit as u64, "limit")?;
        let what = "read the reports".to_string();
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT table_id, table_name, n, line, reporter, why, at FROM reports
                     ORDER BY at DESC, table_id, n LIMIT $1",
                    &[&limit],
                )
                .map_err(failed(what))?;
            Ok(rows
                .iter()
                .map(|r| ReportRow {
                    table: r.get(0),
                    table_name: r.get(1),
                    n: r.get::<_, i64>(2).max(0) as u64,
                    line: r.get(3),
                    reporter: r.get(4),
                    why: r.get(5),
                    at: r.get::<_, i64>(6).max(0) as u64,
                })
                .collect())
        })
    }

    fn silence(
        &self,
        table: &TableId,
        silenced: &[crate::store::Silenced],
        remove: &[u64],
    ) -> Result<(), StoreError> {
        let (table, text) = (
            table.clone(),
            crate::store::columns::silenced_text(silenced),
        );
        let remove: Vec<i64> = remove.iter().map(|&n| n as i64).collect();
        let what = format!("remove chat at table {table}");
        let held = self.held().get(&table).copied();
        self.transaction(what.clone(), move |c| {
            fence(c, &table, held, &what)?;
            c.execute(
                "UPDATE tables SET silenced = $2 WHERE id = $1",
                &[&table, &text],
            )
            .map_err(failed(&what))?;
            c.execute(
                "DELETE FROM talk WHERE table_id = $1 AND kind = 'chat' AND n = ANY($2)",
                &[&table, &remove],
            )
            .map_err(failed(&what))?;
            Ok(())
        })
    }

    fn add_player_table(&self, key: &str, table: &TableId, at: u64) -> Result<(), StoreError> {
        let (key, table, at) = (key.to_string(), table.clone(), bigint(at, "time")?);
        let what = format!("remember a seat of {key:?} at table {table}");
        self.run(what.clone(), move |c| {
            c.execute(
                "INSERT INTO player_tables (key, table_id, at) VALUES ($1, $2, $3)
                 ON CONFLICT DO NOTHING",
                &[&key, &table, &at],
            )
            .map_err(failed(what))?;
            Ok(())
        })
    }

    fn player_tables(&self, key: &str, limit: usize) -> Result<Vec<(TableId, u64)>, StoreError> {
        let (key, limit) = (key.to_string(), bigint(limit as u64, "limit")?);
        let what = format!("read the tables of {key:?}");
        self.run(what.clone(), move |c| {
            let rows = c
                .query(
                    "SELECT table_id, at FROM player_tables WHERE key = $1
                     ORDER BY at DESC, table_id LIMIT $2",
                    &[&key, &limit],
                )
                .map_err(failed(what))?;
            Ok(rows
                .iter()
                .map(|r| (r.get(0), r.get::<_, i64>(1).max(0) as u64))
                .collect())
        })
    }

    fn add_player(&self, p: &PlayerRow) -> Result<bool, StoreError> {
        let (key, name, secret, since, alike) = (
            p.key.clone(),
            p.name.to_string(),
            hex(&p.secret_hash),
            bigint(p.since, "since")?,
            crate::names::form(&p.name),
        );
        let what = format!("keep the player {name:?}");
        self.run(what.clone(), move |c| {
            // Any conflict: the key's, or the look-alike form's.
            let added = c
                .execute(
                    "INSERT INTO players (key, name, secret, since, alike)
                     VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT DO NOTHING",
                    &[&key, &name, &secret, &since, &alike],
                )
                .map_err(failed(what))?;
            Ok(added == 1)
        })
    }

    fn player_by_secret(&self, hash: &[u8; 32]) -> Result<Option<PlayerRow>, StoreError> {
        self.find_player("secret", hex(hash))
    }

    fn player_named(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        let (name, alike) = (name.to_string(), crate::names::form(name));
        let what = "find a player by name".to_string();
        self.run(what.clone(), move |c| {
            let row = c
                .query_opt(
                    "SELECT key, name, secret, since FROM players WHERE name = $1 OR alike = $2
                     ORDER BY name = $1 DESC LIMIT 1",
                    &[&name, &alike],
                )
                .map_err(failed(what))?;
            row.map(|r| crate::store::columns::player_from(r.get(0), r.get(1), r.get(2), r.get(3)))
                .transpose()
        })
    }

    fn change_secret(&self, key: &str, old: &[u8; 32], new: &[u8; 32]) -> Result<bool, StoreError> {
        let (key, old, new) = (key.to_string(), hex(old), hex(new));
        let what = format!("change the secret of {key:?}");
        self.run(what.clone(), move |c| {
            let changed = c
                .execute(
                    "UPDATE players SET secret = $3 WHERE key = $1 AND secret = $2",
                    &[&key, &old, &new],
                )
                .map_err(failed(what))?;
            Ok(changed == 1)
        })
    }

    fn ping(&self) -> Result<(), StoreError> {
        let what = "ping the database".to_string();
        self.run(what.clone(), move |c| {
            c.batch_execute("SELECT 1").map_err(failed(what))
        })
    }
}
