//! A store for tests whose database works, except where a test makes it
//! fail: its ping, or all of it for a while (down, as a paused or
//! restarting database is).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use super::{
    Append, Enqueued, FinishedGame, PlayerGame, PlayerRow, RatingRow, ReportRow, SqliteStore,
    Store, StoreError, TableId, TableRow, TalkKind, TalkRow, Ticket,
};
use crate::protocol::{TableInfo, TalkLine};
use dalmuti_table::state::Stored;

/// How a [`Faulty`] store answers its ping.
pub(crate) enum Ping {
    Works,
    Fails,
    /// Blocks until the test sends (or drops the sender).
    Hangs(Mutex<mpsc::Receiver<()>>),
}

/// An in-memory SQLite store with faults on demand.
pub(crate) struct Faulty {
    inner: SqliteStore,
    ping: Ping,
    /// How many pings it answered.
    pub(crate) pings: AtomicUsize,
    /// While set, the database is down: every read and write of the log
    /// and of talk fails with this.
    refusal: Mutex<Option<String>>,
    /// While set, an append of an event of this kind (`"start"`) waits
    /// until the test sends (or drops the sender): a write slow to land.
    held: Mutex<Option<(&'static str, mpsc::Receiver<()>)>>,
}

impl Faulty {
    pub(crate) fn new(ping: Ping) -> Arc<Faulty> {
        Arc::new(Faulty {
            inner: SqliteStore::in_memory().unwrap(),
            ping,
            pings: AtomicUsize::new(0),
            refusal: Mutex::new(None),
            held: Mutex::new(None),
        })
    }

    /// Appends of events of `kind` wait from now until the answer sends
    /// or is dropped.
    pub(crate) fn hold(&self, kind: &'static str) -> mpsc::Sender<()> {
        let (go, gate) = mpsc::channel();
        *self.held.lock().unwrap() = Some((kind, gate));
        go
    }

    /// Waits here if `event` is of the kind held.
    fn wait_if_held(&self, event: &Stored) {
        let held = self.held.lock().unwrap();
        if let Some((kind, gate)) = &*held
            && super::columns::event_text(event).starts_with(&format!("{{\"{kind}\""))
        {
            let _ = gate.recv();
        }
    }

    /// The database goes down, failing with `error` from now (`None`: it
    /// is back).
    pub(crate) fn down(&self, error: Option<&str>) {
        *self.refusal.lock().unwrap() = error.map(str::to_string);
    }

    fn up(&self) -> Result<(), StoreError> {
        match &*self.refusal.lock().unwrap() {
            Some(error) => Err(StoreError::Failed(error.clone())),
            None => Ok(()),
        }
    }
}

impl Store for Faulty {
    fn create_table(&self, t: &TableRow) -> Result<(), StoreError> {
        self.inner.create_table(t)
    }
    fn tables(&self) -> Result<Vec<TableRow>, StoreError> {
        self.inner.tables()
    }
    fn live_table(&self, id: &TableId) -> Result<Option<TableRow>, StoreError> {
        self.inner.live_table(id)
    }
    fn finished_table(&self, id: &TableId) -> Result<Option<(TableRow, TableInfo)>, StoreError> {
        self.inner.finished_table(id)
    }
    fn finished(&self, limit: usize) -> Result<Vec<TableInfo>, StoreError> {
        self.inner.finished(limit)
    }
    fn finish(&self, id: &TableId, summary: &TableInfo, keep: usize) -> Result<(), StoreError> {
        self.inner.finish(id, summary, keep)
    }
    fn delete(&self, id: &TableId) -> Result<(), StoreError> {
        self.inner.delete(id)
    }
    fn append(&self, table: &TableId, v: u64, event: &Stored) -> Result<(), StoreError> {
        self.up()?;
        self.wait_if_held(event);
        self.inner.append(table, v, event)
    }
    fn append_batch(&self, events: &[Append]) -> Result<(), StoreError> {
        self.up()?;
        for e in events {
            self.wait_if_held(&e.event);
        }
        self.inner.append_batch(events)
    }
    fn log(&self, table: &TableId) -> Result<Vec<Stored>, StoreError> {
        self.up()?;
        self.inner.log(table)
    }
    fn add_talk(&self, lines: &[TalkRow]) -> Result<(), StoreError> {
        self.up()?;
        self.inner.add_talk(lines)
    }
    fn talk(
        &self,
        table: &TableId,
        kind: TalkKind,
    ) -> Result<Vec<(u64, Option<TalkLine>)>, StoreError> {
        self.inner.talk(table, kind)
    }
    fn set_spectator_chat(&self, table: &TableId, allowed: bool) -> Result<(), StoreError> {
        self.inner.set_spectator_chat(table, allowed)
    }
    fn set_rematch(&self, table: &TableId, rematch: &TableId) -> Result<TableId, StoreError> {
        self.inner.set_rematch(table, rematch)
    }
    fn record_game(
        &self,
        game: &FinishedGame,
        rate: crate::ratings::RateFn,
    ) -> Result<(), StoreError> {
        self.inner.record_game(game, rate)
    }
    fn player_games(&self, key: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        self.inner.player_games(key, limit)
    }
    fn player_ratings(&self, key: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.inner.player_ratings(key)
    }
    fn leaderboard(
        &self,
        game: &str,
        band: &str,
        limit: usize,
    ) -> Result<Vec<RatingRow>, StoreError> {
        self.inner.leaderboard(game, band, limit)
    }
    fn enqueue(&self, ticket: &Ticket, cap: usize) -> Result<Enqueued, StoreError> {
        self.inner.enqueue(ticket, cap)
    }
    fn poll_ticket(&self, id: &str, key: &str, now: u64) -> Result<Option<Ticket>, StoreError> {
        self.inner.poll_ticket(id, key, now)
    }
    fn leave_queue(&self, key: &str) -> Result<bool, StoreError> {
        self.inner.leave_queue(key)
    }
    fn waiting(&self, stale_before: u64) -> Result<Vec<Ticket>, StoreError> {
        self.inner.waiting(stale_before)
    }
    fn claim_tickets(&self, ids: &[String], table: &TableId, now: u64) -> Result<bool, StoreError> {
        self.inner.claim_tickets(ids, table, now)
    }
    fn seat_claimed(&self, table: &TableId) -> Result<usize, StoreError> {
        self.inner.seat_claimed(table)
    }
    fn release_claim(&self, table: &TableId) -> Result<usize, StoreError> {
        self.inner.release_claim(table)
    }
    fn stale_claims(&self, before: u64) -> Result<Vec<TableId>, StoreError> {
        self.inner.stale_claims(before)
    }
    fn add_report(&self, report: &ReportRow) -> Result<bool, StoreError> {
        self.inner.add_report(report)
    }
    fn reports(&self, limit: usize) -> Result<Vec<ReportRow>, StoreError> {
        self.inner.reports(limit)
    }
    fn silence(
        &self,
        table: &TableId,
        silenced: &[crate::store::Silenced],
        remove: &[u64],
    ) -> Result<(), StoreError> {
        self.inner.silence(table, silenced, remove)
    }
    fn add_player_table(&self, key: &str, table: &TableId, at: u64) -> Result<(), StoreError> {
        self.inner.add_player_table(key, table, at)
    }
    fn player_tables(&self, key: &str, limit: usize) -> Result<Vec<(TableId, u64)>, StoreError> {
        self.inner.player_tables(key, limit)
    }
    fn add_player(&self, player: &PlayerRow) -> Result<bool, StoreError> {
        self.inner.add_player(player)
    }
    fn player_by_secret(&self, hash: &[u8; 32]) -> Result<Option<PlayerRow>, StoreError> {
        self.inner.player_by_secret(hash)
    }
    fn player_named(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        self.inner.player_named(name)
    }
    fn change_secret(&self, key: &str, old: &[u8; 32], new: &[u8; 32]) -> Result<bool, StoreError> {
        self.inner.change_secret(key, old, new)
    }
    fn ping(&self) -> Result<(), StoreError> {
        self.pings.fetch_add(1, Ordering::SeqCst);
        match &self.ping {
            Ping::Works => Ok(()),
            Ping::Fails => Err(StoreError::Failed(
                "PostgreSQL: ping the database: connection refused by db.internal:5432".into(),
            )),
            Ping::Hangs(release) => {
                let _ = release.lock().unwrap().recv();
                Ok(())
            }
        }
    }
}
