//! The tables a node serves: found in memory, loaded or taken over from
//! the store, created, made room for, and handed over when the node
//! drains; with the cluster's rounds (renewals, the shared lobby,
//! orphans taken over) on several nodes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{Semaphore, watch};

use crate::Config;
use crate::cluster::Cluster;
use crate::error::{Full, ServerError};
use crate::health::Health;
use crate::ids::TableId;
use crate::limits::CreationLimit;
use crate::metrics::Metrics;
use crate::records;
use crate::store::{Store, TableRow, Writer};
use crate::table::{self, Context, Lifetimes, TableHandle, Timings};

/// The server's shared state: the store, a handle per table, the caps.
/// Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub(crate) ctx: Context,
    pub(crate) config: Arc<Config>,
    /// The live tables (a finished game is in the store only).
    pub(crate) tables: Arc<Mutex<HashMap<TableId, TableHandle>>>,
    pub(crate) connections: Arc<Semaphore>,
    pub(crate) creation: Arc<CreationLimit>,
    /// New identities per address ([`crate::players`]).
    pub(crate) players: Arc<CreationLimit>,
    /// Play-now tables per player ([`crate::queue`]), by the name's key.
    pub(crate) play_now: Arc<CreationLimit<String>>,
    /// The play-now tables this node made, while live: at most a share of
    /// the table cap ([`crate::queue::room`]).
    pub(crate) play_now_tables: Arc<Mutex<Vec<TableHandle>>>,
    /// Seats taken back per table and player ([`crate::players`]).
    pub(crate) reclaims: Arc<CreationLimit<(TableId, String)>>,
    /// Finished games' answers, built once and kept ([`records`]).
    pub(crate) archive: Arc<records::Archive>,
    /// The store, as async code calls it: every handler's way to it.
    pub(crate) repo: crate::store::Repository,
    /// Held while a table is created, from choosing its default name to
    /// listing it: two creations cannot both take a name. An async lock:
    /// the row's write in between runs on the blocking pool, and other
    /// creations wait without holding a thread.
    pub(crate) creating: Arc<tokio::sync::Mutex<()>>,
    /// Held while a table is taken over (its lease taken, its log
    /// replayed), on the blocking pool only: two requests for one table
    /// take it once, and the tables' map is not locked meanwhile, so async
    /// code reading it never waits for the database.
    pub(crate) adopting: Arc<Mutex<()>>,
    pub(crate) closing: watch::Sender<bool>,
    /// Health, readiness and the draining flag (`/healthz`, `/readyz`).
    pub(crate) health: Health,
}

impl AppState {
    /// Opens every live stored table (replaying its log) and starts its
    /// actor. Must run inside a tokio runtime.
    pub fn open(store: Arc<dyn Store>, config: Config) -> Result<AppState, ServerError> {
        AppState::with_cluster(store, None, config)
    }

    /// Like [`AppState::open`], as one node of a `cluster`: no table is
    /// loaded here; the node takes tables over as they are asked for or
    /// found orphaned ([`crate::cluster`]), keeping its leases.
    pub fn with_cluster(
        store: Arc<dyn Store>,
        cluster: Option<Arc<Cluster>>,
        config: Config,
    ) -> Result<AppState, ServerError> {
        let node = match &cluster {
            Some(cluster) => cluster.node.clone(),
            None => config.node_id.clone().unwrap_or_else(|| "local".into()),
        };
        let metrics = Metrics::new(&node);
        let ctx = Context {
            cluster: cluster.clone(),
            writer: Writer::metered(store.clone(), metrics.clone()),
            metrics,
            store: store.clone(),
            timings: Timings {
                grace: config.grace,
                bot_delay: config.bot_delay,
                hand_pause: config.hand_pause,
                setup_pause: config.setup_pause,
                listed_idle: config.listed_idle,
            },
            budget: crate::bots::Budget::new(config.bot_threads, config.bot_wait),
            lifetimes: Some(Lifetimes {
                unstarted: config.unstarted_ttl,
                abandoned: config.abandoned_ttl,
                finished: config.finished_linger,
                max_finished: config.max_finished,
            }),
            player_chat: Arc::new(crate::table::talk::player_chat_limit()),
            programs: config.programs.clone(),
        };
        let mut tables = HashMap::new();
        if cluster.is_none() {
            for row in store.tables()? {
                let id = row.id.clone();
                tables.insert(id, table::load(ctx.clone(), row)?);
            }
        }
        let state = AppState {
            ctx,
            connections: Arc::new(Semaphore::new(config.max_connections)),
            creation: Arc::new(CreationLimit::new(
                config.table_burst,
                config.table_interval,
                "new tables",
            )),
            players: Arc::new(crate::limits::registrations(config.player_burst)),
            play_now: Arc::new(crate::limits::play_now()),
            play_now_tables: Arc::default(),
            reclaims: Arc::new(crate::limits::reclaims()),
            archive: Arc::new(records::Archive::new(config.downloads)),
            repo: crate::store::Repository::new(store.clone()),
            creating: Arc::default(),
            adopting: Arc::default(),
            config: Arc::new(config),
            tables: Arc::new(Mutex::new(tables)),
            closing: watch::channel(false).0,
            health: Health::default(),
        };
        if let Some(cluster) = cluster {
            tokio::spawn(keep(state.clone(), cluster));
        }
        Ok(state)
    }

    /// The node's metrics (`/metrics`): the lease keeper counts its lease
    /// changes here ([`Metrics::lease_changed`]).
    pub fn metrics(&self) -> &Metrics {
        &self.ctx.metrics
    }

    /// Marks the node as draining (or not): `/readyz` answers 503
    /// `draining` from then on, so a load balancer sends nobody new here
    /// while its tables move away.
    pub fn set_draining(&self, draining: bool) {
        self.health.set_draining(draining);
    }

    /// Whether the node is draining ([`AppState::set_draining`]).
    pub fn is_draining(&self) -> bool {
        self.health.is_draining()
    }

    /// The store, for the readiness check.
    pub(crate) fn store(&self) -> &Arc<dyn Store> {
        &self.ctx.store
    }

    /// Health and readiness state.
    pub(crate) fn health(&self) -> &Health {
        &self.health
    }

    /// WebSocket connections open now (permits of the connection cap in
    /// use).
    pub(crate) fn open_connections(&self) -> usize {
        self.config
            .max_connections
            .saturating_sub(self.connections.available_permits())
    }

    /// The handle of live table `id`; a finished game's table is a
    /// conflict (it can no longer change), an unknown one not found, one
    /// another node serves [`ServerError::Moved`].
    pub async fn table(&self, id: &TableId) -> Result<TableHandle, ServerError> {
        if let Some(handle) = self.live(id) {
            return Ok(handle);
        }
        self.blocking(id, |state, id| match state.find_now(id)? {
            Some(handle) => Ok(handle),
            None => match records::find(&state.ctx, id) {
                Ok(_) => Err(records::over(id)),
                Err(e) => Err(e),
            },
        })
        .await
    }

    /// The handle of table `id` if it is live here; one no node serves is
    /// taken over first; one another node serves is [`ServerError::Moved`].
    /// None: a finished or unknown table.
    pub async fn find(&self, id: &TableId) -> Result<Option<TableHandle>, ServerError> {
        if let Some(handle) = self.live(id) {
            return Ok(Some(handle));
        }
        self.blocking(id, |state, id| state.find_now(id)).await
    }

    /// Makes a table of `row` (its name chosen after `player` when `name`
    /// is `None`) and lists it: the default name is chosen and the table
    /// listed under one lock, so two tables made at once cannot both take
    /// it; the row is written on the blocking pool meanwhile.
    pub(crate) async fn make_table(
        &self,
        mut row: TableRow,
        name: Option<String>,
        player: &str,
    ) -> Result<TableHandle, ServerError> {
        self.make_room().await?;
        let creating = self.creating.lock().await;
        row.name = match name {
            Some(name) => name,
            None => {
                let mut tables = self.lock();
                tables.retain(|_, h| !h.is_closed());
                crate::names::default_table_name(player, tables.values().map(TableHandle::name))
            }
        };
        let (id, logged) = (row.id.clone(), row.clone());
        let handle = self
            .blocking(&id, move |state, _| state.create_now(row))
            .await?;
        drop(creating);
        table::created(&logged);
        Ok(handle)
    }

    /// Runs `f`, which may call the store (a blocking call), on the
    /// blocking pool: no thread of the runtime waits for the database.
    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        id: &TableId,
        f: impl FnOnce(&AppState, &TableId) -> Result<T, ServerError> + Send + 'static,
    ) -> Result<T, ServerError> {
        let (state, owned) = (self.clone(), id.clone());
        // Its logs go where the caller's go, in the caller's span.
        let dispatch = tracing::dispatcher::get_default(|d| d.clone());
        let span = tracing::Span::current();
        tokio::task::spawn_blocking(move || {
            tracing::dispatcher::with_default(&dispatch, || span.in_scope(|| f(&state, &owned)))
        })
        .await
        .map_err(|_| {
            ServerError::Storage(crate::store::StoreError::Failed(format!(
                "looking table {id} up failed"
            )))
        })?
    }

    /// [`AppState::find`] on this thread, which may wait for the store.
    pub(crate) fn find_now(&self, id: &TableId) -> Result<Option<TableHandle>, ServerError> {
        if let Some(handle) = self.live(id) {
            return Ok(Some(handle));
        }
        let Some(cluster) = &self.ctx.cluster else {
            return Ok(None);
        };
        if let Some(owner) = cluster.owner(id)?
            && let Some(moved) = cluster.moved(id, &owner)
        {
            return Err(moved);
        }
        let Some(row) = self.ctx.store.live_table(id)? else {
            return Ok(None);
        };
        self.adopt(cluster, row).map(Some)
    }

    /// Takes table `row` over (its lease, then its log) and starts it
    /// here; [`ServerError::Moved`] if another node took it first. One
    /// taking at a time (`adopting`): two requests for one table take it
    /// once (a second taking would fence the first). Blocking: runs on the
    /// blocking pool.
    pub(crate) fn adopt(
        &self,
        cluster: &Cluster,
        row: TableRow,
    ) -> Result<TableHandle, ServerError> {
        let _adopting = self.adopting.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(handle) = self.live(&row.id) {
            return Ok(handle);
        }
        if self.is_draining() {
            return Err(ServerError::Draining);
        }
        if !cluster.take(&row.id)? {
            let owner = cluster.owner(&row.id)?;
            return Err(owner
                .and_then(|o| cluster.moved(&row.id, &o))
                .unwrap_or_else(|| {
                    ServerError::Full(Full::ChangingNodes {
                        table: row.id.clone(),
                    })
                }));
        }
        let id = row.id.clone();
        self.ctx
            .metrics
            .lease_changed(crate::metrics::LeaseChange::Acquired);
        tracing::info!(table = %id, node = %cluster.node, "table taken over");
        match table::load(self.ctx.clone(), row) {
            Ok(handle) => self.list_now(id, handle),
            Err(e) => {
                let _ = cluster.release(&id);
                Err(e)
            }
        }
    }

    /// Lists `handle` as live table `id`, unless the node began to drain
    /// meanwhile: then it is handed over at once (its lease released, its
    /// connections told it moved) and the request is refused as the node
    /// is stopping. The drain takes the tables listed when it begins,
    /// under the same lock: a table taken over or made while it ran was
    /// left out, its lease kept until it expired, and its connections
    /// closed without `moved` (issue 40, 1 of 42). Blocking: runs on the
    /// blocking pool.
    fn list_now(&self, id: TableId, handle: TableHandle) -> Result<TableHandle, ServerError> {
        match self.list(id, handle) {
            Ok(handle) => Ok(handle),
            Err(handle) => {
                tokio::runtime::Handle::current().block_on(handle.hand_over(true));
                Err(ServerError::Draining)
            }
        }
    }

    /// Lists `handle` as live table `id`; gives it back if the node
    /// drains (on several nodes), to be handed over.
    pub(crate) fn list(
        &self,
        id: TableId,
        handle: TableHandle,
    ) -> Result<TableHandle, TableHandle> {
        let mut tables = self.lock();
        if self.ctx.cluster.is_some() && self.is_draining() {
            return Err(handle);
        }
        tables.insert(id, handle.clone());
        Ok(handle)
    }

    /// Writes new table `row` to the store, starts it and lists it, as one
    /// step for [`AppState::adopt`] (`adopting` held): on several nodes the
    /// new row is already this node's, and must not be taken over as a
    /// table of this node missing from memory before it is listed.
    /// Blocking: runs on the blocking pool.
    pub(crate) fn create_now(&self, row: TableRow) -> Result<TableHandle, ServerError> {
        let _adopting = self.adopting.lock().unwrap_or_else(|e| e.into_inner());
        if self.ctx.cluster.is_some() && self.is_draining() {
            return Err(ServerError::Draining);
        }
        let id = row.id.clone();
        let handle = table::start(self.ctx.clone(), table::store_new(&self.ctx, row)?)?;
        self.list_now(id, handle)
    }

    /// This node's id and public address, if it is one of a cluster.
    pub fn node(&self) -> Option<(String, String)> {
        let cluster = self.ctx.cluster.as_ref()?;
        Some((cluster.node.clone(), cluster.public_url.clone()))
    }

    /// This node's name in its metrics and logs: its id among the nodes,
    /// or `local` alone.
    pub fn node_name(&self) -> String {
        self.ctx.metrics.node().to_string()
    }

    /// Hands every table over before the node stops: takes no more, and
    /// each table's actor stops after the step under way and gives its
    /// lease up, its connections told the table moved. On one node (no
    /// cluster) tables simply stop with the process.
    pub async fn drain(&self) {
        if self.ctx.cluster.is_none() {
            self.set_draining(true);
            return;
        }
        // Under the tables' lock: a table listed from now on is handed
        // over by whoever lists it ([`AppState::list`]).
        let handles: Vec<TableHandle> = {
            let mut tables = self.lock();
            self.set_draining(true);
            tables.drain().map(|(_, h)| h).collect()
        };
        futures_util::future::join_all(handles.iter().map(|h| h.hand_over(true))).await;
        // The node exits within milliseconds, before any scrape could read
        // `dalmuti_lease_changes_total{change="released"}`: the log says it.
        tracing::info!(
            released = handles.len(),
            "drained: every table handed over, its lease released"
        );
    }

    /// Renews this node's leases; a table whose lease was lost is handed
    /// over. The database is called on the blocking pool: a slow answer
    /// must not hold one of the runtime's threads, which every table
    /// shares.
    pub(crate) async fn renew_round(&self, cluster: &Arc<Cluster>) {
        let renewing = cluster.clone();
        // The database unreachable: the leases run out unless it answers
        // in time, and the writes are refused then anyway.
        let Ok(Ok(lost)) = tokio::task::spawn_blocking(move || renewing.renew()).await else {
            return;
        };
        for id in lost {
            let handle = self.lock().remove(&id);
            if let Some(handle) = handle {
                handle.hand_over(false).await;
            }
        }
    }

    /// Publishes this node's tables in the lobby and takes orphaned tables
    /// over.
    pub(crate) async fn share_round(&self, cluster: &Arc<Cluster>) {
        let asks = self.live_tables();
        let infos = futures_util::future::join_all(asks.iter().map(|h| h.info())).await;
        let summaries: Vec<_> = infos
            .into_iter()
            .filter_map(Result::ok)
            .filter(|info| info.public)
            .collect();
        let publishing = cluster.clone();
        let _ = tokio::task::spawn_blocking(move || publishing.publish_lobby(summaries)).await;
        if self.is_draining() {
            return;
        }
        let finding = cluster.clone();
        if let Ok(Ok(orphans)) = tokio::task::spawn_blocking(move || finding.orphans()).await {
            for row in orphans {
                if self.is_draining() || self.live_tables().len() >= self.config.max_tables {
                    break;
                }
                let (state, cluster) = (self.clone(), cluster.clone());
                let _ = tokio::task::spawn_blocking(move || state.adopt(&cluster, row)).await;
            }
        }
    }

    /// The handle of table `id` if it is live.
    pub(crate) fn live(&self, id: &TableId) -> Option<TableHandle> {
        self.lock().get(id).filter(|h| !h.is_closed()).cloned()
    }

    /// Room for one more table: at the cap, the oldest unstarted table
    /// nobody has been at for the lobby's idle time leaves memory (issue
    /// 24, S5: tables created and left filled the cap for half an hour),
    /// else a 503.
    pub(crate) async fn make_room(&self) -> Result<(), ServerError> {
        let live = self.live_tables();
        if live.len() < self.config.max_tables {
            return Ok(());
        }
        let infos = futures_util::future::join_all(live.iter().map(TableHandle::info)).await;
        let mut unattended: Vec<(&TableHandle, std::time::Duration)> = live
            .iter()
            .zip(infos)
            .filter_map(|(h, info)| {
                let info = info.ok()?;
                (!info.started && info.idle).then_some((h, info.age))
            })
            .collect();
        // The oldest first.
        unattended.sort_by_key(|(_, age)| std::cmp::Reverse(*age));
        for (handle, _) in unattended {
            if handle.evict().await {
                return Ok(());
            }
        }
        Err(ServerError::Full(Full::Tables {
            most: self.config.max_tables,
        }))
    }

    /// The live tables, forgetting those whose actor has stopped.
    pub(crate) fn live_tables(&self) -> Vec<TableHandle> {
        let mut tables = self.lock();
        tables.retain(|_, h| !h.is_closed());
        tables.values().cloned().collect()
    }

    /// Closes every WebSocket (the server is stopping).
    pub fn close(&self) {
        let _ = self.closing.send(true);
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<TableId, TableHandle>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Renews leases and hands lost tables over, every [`Cluster::period`],
/// until the node stops; beside it, publishes the lobby and takes orphaned
/// tables over at the same pace. Apart: however long the lobby takes (its
/// tables each asked in turn, under load), renewals come on time.
pub(crate) async fn keep(state: AppState, cluster: Arc<Cluster>) {
    let (sharing, shared) = (state.clone(), cluster.clone());
    tokio::spawn(every(sharing, shared, async |s, c| s.share_round(c).await));
    every(state, cluster, async |s, c| s.renew_round(c).await).await;
}

/// Runs `round` every [`Cluster::period`] until the node drains.
async fn every(
    state: AppState,
    cluster: Arc<Cluster>,
    round: impl AsyncFn(&AppState, &Arc<Cluster>),
) {
    let mut ticks = tokio::time::interval(cluster.period());
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if state.is_draining() {
            return;
        }
        round(&state, &cluster).await;
    }
}
