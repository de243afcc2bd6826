//! The store as the server's async code sees it: every call runs on the
//! blocking pool (no thread of the runtime, which every table shares, ever
//! waits for the database), takes and returns the domain's types, and
//! fails with a [`StoreError`], kept as it is to the edge.

use std::sync::Arc;

use super::{
    Enqueued, FinishedGame, PlayerGame, PlayerRow, RatingRow, ReportRow, Silenced, Store,
    StoreError, TableId, TableRow, Ticket,
};
use crate::protocol::TableInfo;

/// The async face of the [`Store`]. Cheap to clone.
#[derive(Clone)]
pub struct Repository {
    store: Arc<dyn Store>,
}

impl Repository {
    /// The repository over `store`.
    pub fn new(store: Arc<dyn Store>) -> Repository {
        Repository { store }
    }

    /// Runs `f` on the store, on the blocking pool.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(store.as_ref()))
            .await
            .map_err(|_| StoreError::Failed("a store call stopped".into()))?
    }

    /// Live table `id`, if it is one.
    pub async fn live_table(&self, id: &TableId) -> Result<Option<TableRow>, StoreError> {
        let id = id.clone();
        self.run(move |s| s.live_table(&id)).await
    }

    /// A finished table: its row and its lobby summary, if kept.
    pub async fn finished_table(
        &self,
        id: &TableId,
    ) -> Result<Option<(TableRow, TableInfo)>, StoreError> {
        let id = id.clone();
        self.run(move |s| s.finished_table(&id)).await
    }

    /// The lobby summaries of the newest `limit` public finished tables.
    pub async fn finished(&self, limit: usize) -> Result<Vec<TableInfo>, StoreError> {
        self.run(move |s| s.finished(limit)).await
    }

    /// Keeps a game over in its players' histories and the ratings;
    /// answers how each rating moved (none when it was counted before).
    pub async fn record_game(
        &self,
        game: FinishedGame,
        rate: crate::ratings::RateFn,
    ) -> Result<Vec<crate::ratings::RatingChange>, StoreError> {
        self.run(move |s| s.record_game(&game, rate)).await
    }

    /// A player's games, newest first, at most `limit`.
    pub async fn player_games(
        &self,
        key: &str,
        limit: usize,
    ) -> Result<Vec<PlayerGame>, StoreError> {
        let key = key.to_string();
        self.run(move |s| s.player_games(&key, limit)).await
    }

    /// A player's (or a bot level's) ratings.
    pub async fn player_ratings(&self, key: &str) -> Result<Vec<RatingRow>, StoreError> {
        let key = key.to_string();
        self.run(move |s| s.player_ratings(&key)).await
    }

    /// The best ratings of a game and band.
    pub async fn leaderboard(
        &self,
        game: &str,
        band: &str,
        limit: usize,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let (game, band) = (game.to_string(), band.to_string());
        self.run(move |s| s.leaderboard(&game, &band, limit)).await
    }

    /// The player of `ticket` waits for a table ([`Store::enqueue`]).
    pub async fn enqueue(&self, ticket: Ticket, cap: usize) -> Result<Enqueued, StoreError> {
        self.run(move |s| s.enqueue(&ticket, cap)).await
    }

    /// Player `key`'s ticket `id`, marked seen at `now`.
    pub async fn poll_ticket(
        &self,
        id: &str,
        key: &str,
        now: u64,
    ) -> Result<Option<Ticket>, StoreError> {
        let (id, key) = (id.to_string(), key.to_string());
        self.run(move |s| s.poll_ticket(&id, &key, now)).await
    }

    /// Player `key` leaves the queue.
    pub async fn leave_queue(&self, key: &str) -> Result<bool, StoreError> {
        let key = key.to_string();
        self.run(move |s| s.leave_queue(&key)).await
    }

    /// The tickets still waiting, oldest first ([`Store::waiting`]).
    pub async fn waiting(&self, stale_before: u64) -> Result<Vec<Ticket>, StoreError> {
        self.run(move |s| s.waiting(stale_before)).await
    }

    /// Claims the tickets `ids` for `table`, all or none.
    pub async fn claim_tickets(
        &self,
        ids: Vec<String>,
        table: &TableId,
        now: u64,
    ) -> Result<bool, StoreError> {
        let table = table.clone();
        self.run(move |s| s.claim_tickets(&ids, &table, now)).await
    }

    /// The tickets claimed for `table` are seated there.
    pub async fn seat_claimed(&self, table: &TableId) -> Result<usize, StoreError> {
        let table = table.clone();
        self.run(move |s| s.seat_claimed(&table)).await
    }

    /// The tickets claimed for `table` wait again.
    pub async fn release_claim(&self, table: &TableId) -> Result<usize, StoreError> {
        let table = table.clone();
        self.run(move |s| s.release_claim(&table)).await
    }

    /// The tables whose claims are stale ([`Store::stale_claims`]).
    pub async fn stale_claims(&self, before: u64) -> Result<Vec<TableId>, StoreError> {
        self.run(move |s| s.stale_claims(before)).await
    }

    /// Keeps a report; `false` if this reporter reported this line.
    pub async fn add_report(&self, report: ReportRow) -> Result<bool, StoreError> {
        self.run(move |s| s.add_report(&report)).await
    }

    /// The host removed seats' chat ([`Store::silence`]).
    pub async fn silence(
        &self,
        table: &TableId,
        silenced: Vec<Silenced>,
        remove: Vec<u64>,
    ) -> Result<(), StoreError> {
        let table = table.clone();
        self.run(move |s| s.silence(&table, &silenced, &remove))
            .await
    }

    /// Sets whether spectators may chat at a table.
    pub async fn set_spectator_chat(
        &self,
        table: &TableId,
        allowed: bool,
    ) -> Result<(), StoreError> {
        let table = table.clone();
        self.run(move |s| s.set_spectator_chat(&table, allowed))
            .await
    }

    /// Remembers that player `key` took a seat at `table` at `at`.
    pub async fn add_player_table(
        &self,
        key: &str,
        table: &TableId,
        at: u64,
    ) -> Result<(), StoreError> {
        let (key, table) = (key.to_string(), table.clone());
        self.run(move |s| s.add_player_table(&key, &table, at))
            .await
    }

    /// The tables player `key` took a seat at, newest first.
    pub async fn player_tables(
        &self,
        key: &str,
        limit: usize,
    ) -> Result<Vec<(TableId, u64)>, StoreError> {
        let key = key.to_string();
        self.run(move |s| s.player_tables(&key, limit)).await
    }

    /// Keeps a new player; `false` if its key is another's already.
    pub async fn add_player(&self, player: PlayerRow) -> Result<bool, StoreError> {
        self.run(move |s| s.add_player(&player)).await
    }

    /// The player whose secret hashes to `hash`.
    pub async fn player_by_secret(&self, hash: [u8; 32]) -> Result<Option<PlayerRow>, StoreError> {
        self.run(move |s| s.player_by_secret(&hash)).await
    }

    /// The player who kept `name` or one that looks like it.
    pub async fn player_named(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        let name = name.to_string();
        self.run(move |s| s.player_named(&name)).await
    }

    /// Gives player `key` the secret hashing to `new` in place of `old`.
    pub async fn change_secret(
        &self,
        key: &str,
        old: [u8; 32],
        new: [u8; 32],
    ) -> Result<bool, StoreError> {
        let key = key.to_string();
        self.run(move |s| s.change_secret(&key, &old, &new)).await
    }
}
