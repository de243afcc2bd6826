//! The HTTP API, the WebSocket endpoint and the embedded client, as one
//! axum [`Router`] (`docs/PROTOCOL.md`).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{Semaphore, watch};

use crate::Config;
use crate::cluster::Cluster;
use crate::error::ServerError;
use crate::limits::CreationLimit;
use crate::metrics::Metrics;
use crate::records;
use crate::store::{Store, TableRow, Writer, new_id};
use crate::table::{self, Context, Lifetimes, TableHandle, Timings};

/// The largest HTTP request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;
/// The most tables a lobby list shows.
const MAX_LISTED: usize = 200;

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let status = match &self {
            ServerError::NoTable(_) | ServerError::NotFound(_) => StatusCode::NOT_FOUND,
            ServerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServerError::NoToken => StatusCode::UNAUTHORIZED,
            ServerError::BadToken | ServerError::NotHost => StatusCode::FORBIDDEN,
            // A table whose task has just ended (finished, its record
            // being kept) refuses as a closed table: the request raced its
            // closing, which is the table's state, not the server's fault.
            ServerError::Conflict(_) | ServerError::Stale { .. } | ServerError::Closed => {
                StatusCode::CONFLICT
            }
            ServerError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ServerError::TooMany(_) | ServerError::RateLimited { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ServerError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServerError::Full(_) | ServerError::Draining => StatusCode::SERVICE_UNAVAILABLE,
            ServerError::Storage(e) => {
                // The client is told it failed; the operator, what failed.
                tracing::error!(error = %e, "a request failed in the store");
                StatusCode::INTERNAL_SERVER_ERROR
            }
            // Made a redirect to the same path there by crate::cluster::redirect.
            ServerError::Moved { .. } => StatusCode::TEMPORARY_REDIRECT,
        };
        let mut response = (status, Json(json!({ "error": self.to_string() }))).into_response();
        if let ServerError::Moved { url, .. } = &self {
            response
                .extensions_mut()
                .insert(crate::cluster::MovedTo(url.clone()));
        }
        if let ServerError::Draining = self {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(1));
        }
        if let ServerError::RateLimited { retry_after, .. } = self {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(retry_after));
        }
        response
    }
}

/// The server's shared state: the store, a handle per table, the caps.
/// Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    ctx: Context,
    config: Arc<Config>,
    /// The live tables (a finished game is in the store only).
    tables: Arc<Mutex<HashMap<String, TableHandle>>>,
    connections: Arc<Semaphore>,
    creation: Arc<CreationLimit>,
    /// Held while a table is created, from choosing its default name to
    /// listing it: two creations cannot both take a name. An async lock:
    /// the row's write in between runs on the blocking pool, and other
    /// creations wait without holding a thread.
    creating: Arc<tokio::sync::Mutex<()>>,
    /// Held while a table is taken over (its lease taken, its log
    /// replayed), on the blocking pool only: two requests for one table
    /// take it once, and the tables' map is not locked meanwhile, so async
    /// code reading it never waits for the database.
    adopting: Arc<Mutex<()>>,
    closing: watch::Sender<bool>,
    /// Health, readiness and the draining flag (`/healthz`, `/readyz`).
    health: crate::ops::Health,
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
            archive: Arc::default(),
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
            )),
            creating: Arc::default(),
            adopting: Arc::default(),
            config: Arc::new(config),
            tables: Arc::new(Mutex::new(tables)),
            closing: watch::channel(false).0,
            health: crate::ops::Health::default(),
        };
        if let Some(cluster) = cluster {
            tokio::spawn(crate::cluster::keep(state.clone(), cluster));
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
    pub(crate) fn health(&self) -> &crate::ops::Health {
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
    pub async fn table(&self, id: &str) -> Result<TableHandle, ServerError> {
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
    pub async fn find(&self, id: &str) -> Result<Option<TableHandle>, ServerError> {
        if let Some(handle) = self.live(id) {
            return Ok(Some(handle));
        }
        self.blocking(id, |state, id| state.find_now(id)).await
    }

    /// Runs `f`, which may call the store (a blocking call), on the
    /// blocking pool: no thread of the runtime waits for the database.
    async fn blocking<T: Send + 'static>(
        &self,
        id: &str,
        f: impl FnOnce(&AppState, &str) -> Result<T, ServerError> + Send + 'static,
    ) -> Result<T, ServerError> {
        let (state, owned) = (self.clone(), id.to_string());
        // Its logs go where the caller's go, in the caller's span.
        let dispatch = tracing::dispatcher::get_default(|d| d.clone());
        let span = tracing::Span::current();
        tokio::task::spawn_blocking(move || {
            tracing::dispatcher::with_default(&dispatch, || span.in_scope(|| f(&state, &owned)))
        })
        .await
        .map_err(|_| ServerError::Storage(format!("looking table {id} up failed")))?
    }

    /// [`AppState::find`] on this thread, which may wait for the store.
    fn find_now(&self, id: &str) -> Result<Option<TableHandle>, ServerError> {
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
        if self.is_draining() {
            return Err(ServerError::Draining);
        }
        self.adopt(cluster, row).map(Some)
    }

    /// Takes table `row` over (its lease, then its log) and starts it
    /// here; [`ServerError::Moved`] if another node took it first. One
    /// taking at a time (`adopting`): two requests for one table take it
    /// once (a second taking would fence the first). Blocking: runs on the
    /// blocking pool.
    fn adopt(&self, cluster: &Cluster, row: TableRow) -> Result<TableHandle, ServerError> {
        let _adopting = self.adopting.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(handle) = self.live(&row.id) {
            return Ok(handle);
        }
        if !cluster.take(&row.id)? {
            let owner = cluster.owner(&row.id)?;
            return Err(owner
                .and_then(|o| cluster.moved(&row.id, &o))
                .unwrap_or_else(|| {
                    ServerError::Full(format!("table {} is changing nodes: retry", row.id))
                }));
        }
        let id = row.id.clone();
        self.ctx
            .metrics
            .lease_changed(crate::metrics::LeaseChange::Acquired);
        tracing::info!(table = %id, node = %cluster.node, "table taken over");
        match table::load(self.ctx.clone(), row) {
            Ok(handle) => {
                self.lock().insert(id, handle.clone());
                Ok(handle)
            }
            Err(e) => {
                let _ = cluster.release(&id);
                Err(e)
            }
        }
    }

    /// Writes new table `row` to the store, starts it and lists it, as one
    /// step for [`AppState::adopt`] (`adopting` held): on several nodes the
    /// new row is already this node's, and must not be taken over as a
    /// table of this node missing from memory before it is listed.
    /// Blocking: runs on the blocking pool.
    fn create_now(&self, row: TableRow) -> Result<TableHandle, ServerError> {
        let _adopting = self.adopting.lock().unwrap_or_else(|e| e.into_inner());
        let id = row.id.clone();
        let handle = table::start(self.ctx.clone(), table::store_new(&self.ctx, row)?)?;
        self.lock().insert(id, handle.clone());
        Ok(handle)
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
        self.set_draining(true);
        if self.ctx.cluster.is_none() {
            return;
        }
        let handles: Vec<TableHandle> = self.lock().drain().map(|(_, h)| h).collect();
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
    fn live(&self, id: &str) -> Option<TableHandle> {
        self.lock().get(id).filter(|h| !h.is_closed()).cloned()
    }

    /// Room for one more table: at the cap, the oldest unstarted table
    /// nobody has been at for the lobby's idle time leaves memory (issue
    /// 24, S5: tables created and left filled the cap for half an hour),
    /// else a 503.
    async fn make_room(&self) -> Result<(), ServerError> {
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
        Err(ServerError::Full(format!(
            "this server holds at most {} tables",
            self.config.max_tables
        )))
    }

    /// The live tables, forgetting those whose actor has stopped.
    fn live_tables(&self) -> Vec<TableHandle> {
        let mut tables = self.lock();
        tables.retain(|_, h| !h.is_closed());
        tables.values().cloned().collect()
    }

    /// Closes every WebSocket (the server is stopping).
    pub fn close(&self) {
        let _ = self.closing.send(true);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The router: the client at `/`, the lobby API under `/api`, the
/// WebSocket at `/ws/{id}`, and `/healthz`, `/readyz` and `/metrics`
/// ([`crate::ops`]).
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/tables", post(create_table).get(list_tables))
        .route("/api/tables/{id}", get(table_info))
        .route("/api/tables/{id}/seats", post(take_seat).delete(leave))
        .route("/api/tables/{id}/bots", post(add_bot))
        .route("/api/tables/{id}/bots/{name}", delete(remove_bot))
        .route("/api/tables/{id}/start", post(start))
        .route("/api/tables/{id}/settings", post(settings))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/replay", get(replay))
        .route("/api/tables/{id}/fairness", get(fairness))
        .route("/ws/{id}", get(websocket))
        .merge(crate::ops::routes())
        .merge(crate::web::routes())
        .fallback(crate::rejection::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            state.config.request_timeout,
        ))
        .with_state(state);
    // Around the whole router (a layer on it would wrap each route inside
    // its method router, before the `Allow` header of a 405 is set).
    // Compression is outermost: a 304 has nothing to compress, and an
    // ETag names the content before it is compressed.
    Router::new()
        .fallback_service(api)
        .layer(axum::middleware::from_fn(crate::rejection::json_errors))
        .layer(axum::middleware::from_fn(crate::cluster::redirect))
        .layer(axum::middleware::from_fn(crate::transfer::conditional))
        .layer(crate::transfer::compression())
}

/// A JSON body, or a 400 (413 if too large) that says what is wrong.
fn body<T>(json: Result<Json<T>, JsonRejection>) -> Result<T, ServerError> {
    json.map(|Json(t)| t).map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ServerError::TooLarge(format!("the body is over {MAX_BODY} bytes"))
        } else {
            ServerError::BadRequest(e.body_text())
        }
    })
}

/// The client's address; without one (a router called without a socket,
/// in tests) every request counts as one unspecified client.
fn address(client: Option<&axum::Extension<ConnectInfo<SocketAddr>>>) -> IpAddr {
    client.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.0.ip())
}

/// The token of `Authorization: Bearer TOKEN`.
fn bearer(headers: &HeaderMap) -> Result<String, ServerError> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .ok_or(ServerError::NoToken)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateTable {
    #[serde(default)]
    name: Option<String>,
    player: String,
    seats: usize,
    #[serde(default)]
    rules: Option<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    hands: Option<u32>,
    #[serde(default)]
    public: Option<bool>,
    #[serde(default)]
    turn_seconds: Option<u32>,
    #[serde(default)]
    spectator_chat: bool,
}

async fn create_table(
    State(state): State<AppState>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    json: Result<Json<CreateTable>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ServerError> {
    let req = body(json)?;
    // An empty name is no name: the table gets a default one.
    let name = req.name.as_deref().map(str::trim).filter(|n| !n.is_empty());
    if let Some(name) = name
        && (name.chars().count() > 64 || name.chars().any(char::is_control))
    {
        return Err(ServerError::BadRequest(
            "a table name has 1 to 64 characters, none of them control characters".into(),
        ));
    }
    let player = crate::names::check_new_name(&req.player)?;
    let rules = crate::rules::from_request(req.rules.as_deref(), req.hands)?;
    if let Some(t) = req.turn_seconds
        && !(10..=600).contains(&t)
    {
        return Err(ServerError::BadRequest(
            "turn_seconds: 10 to 600 seconds".into(),
        ));
    }
    state.creation.check(address(client.as_ref()))?;
    state.make_room().await?;
    // The default name is chosen and the table listed under one lock, so
    // two tables created at once cannot both take it; the row is written
    // on the blocking pool meanwhile, no thread of the runtime held.
    let creating = state.creating.lock().await;
    let name = match name {
        Some(name) => name.to_string(),
        None => {
            let mut tables = state.lock();
            tables.retain(|_, h| !h.is_closed());
            crate::names::default_table_name(&player, tables.values().map(TableHandle::name))
        }
    };
    let row = TableRow {
        id: new_id(),
        name,
        seats: req.seats,
        rules: serde_json::to_string(&rules).expect("rules serialize"),
        public: req.public.unwrap_or(true),
        turn_seconds: req.turn_seconds,
        spectator_chat: req.spectator_chat,
        rematch: None,
    };
    let id = row.id.clone();
    let logged = row.clone();
    let handle = state
        .blocking(&id, move |state, _| state.create_now(row))
        .await?;
    drop(creating);
    table::created(&logged);
    let token = handle.join(&req.player).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "token": token })),
    ))
}

#[derive(Deserialize)]
struct ListQuery {
    #[serde(default)]
    finished: bool,
}

async fn list_tables(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Value>, ServerError> {
    let mut listed = Vec::new();
    for handle in state.live_tables() {
        match handle.info().await {
            // An open table nobody is at is not listed (its link works).
            Ok(info) if info.public && info.over == query.finished && (info.over || !info.idle) => {
                listed.push(json!(info));
            }
            Ok(_) | Err(ServerError::Closed) => {}
            Err(e) => return Err(e),
        }
    }
    // The tables other nodes serve, as they last published them.
    if let Some(cluster) = &state.ctx.cluster {
        for summary in cluster.lobby_elsewhere()? {
            let Ok(mut info) = serde_json::from_str::<Value>(&summary) else {
                continue;
            };
            let over = info["over"] == json!(true);
            let idle = info["idle"] == json!(true);
            if let Some(fields) = info.as_object_mut() {
                fields.remove("idle");
            }
            let known = listed.iter().any(|l| l["id"] == info["id"]);
            if info["public"] == json!(true) && over == query.finished && (over || !idle) && !known
            {
                listed.push(info);
            }
        }
    }
    if query.finished {
        // Games over but still live are the newest; then the records.
        listed.sort_by(|a, b| b["v"].as_u64().cmp(&a["v"].as_u64()));
        let live: Vec<Value> = listed.iter().map(|i| i["id"].clone()).collect();
        for summary in state.ctx.store.finished(MAX_LISTED)? {
            let Ok(info) = serde_json::from_str::<Value>(&summary) else {
                continue;
            };
            if !live.contains(&info["id"]) {
                listed.push(info);
            }
        }
    } else {
        listed.sort_by(|a, b| {
            let key = |i: &Value| (i["name"].as_str().map(str::to_string), i["id"].to_string());
            key(a).cmp(&key(b))
        });
    }
    listed.truncate(MAX_LISTED);
    Ok(Json(json!({ "tables": listed })))
}

/// A live table's answer, or `None` if the table is not live (or stopped
/// while asked): the caller turns to the store.
async fn ask_live<T>(
    state: &AppState,
    id: &str,
    ask: impl AsyncFnOnce(TableHandle) -> Result<T, ServerError>,
) -> Result<Option<T>, ServerError> {
    let Some(handle) = state.find(id).await? else {
        return Ok(None);
    };
    match ask(handle).await {
        Err(ServerError::Closed) => Ok(None),
        other => other.map(Some),
    }
}

async fn table_info(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ServerError> {
    if let Some(info) = ask_live(&state, &id, async |t| t.info().await).await? {
        return Ok(Json(json!(info)));
    }
    Ok(Json(records::find(&state.ctx, &id)?.1))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeSeat {
    name: String,
}

async fn take_seat(
    State(state): State<AppState>,
    Path(id): Path<String>,
    json: Result<Json<TakeSeat>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ServerError> {
    let table = state.table(&id).await?;
    let req = body(json)?;
    let token = table.join(&req.name).await?;
    Ok((StatusCode::CREATED, Json(json!({ "token": token }))))
}

async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    table.leave(&bearer(&headers)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddBot {
    bot: String,
}

async fn add_bot(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    json: Result<Json<AddBot>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ServerError> {
    let table = state.table(&id).await?;
    let token = bearer(&headers)?;
    let req = body(json)?;
    let name = table.add_bot(&token, &req.bot).await?;
    Ok((StatusCode::CREATED, Json(json!({ "name": name }))))
}

async fn remove_bot(
    State(state): State<AppState>,
    Path((id, name)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    table.remove_bot(&bearer(&headers)?, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    table.start(&bearer(&headers)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    spectator_chat: bool,
}

async fn settings(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    json: Result<Json<Settings>, JsonRejection>,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    let token = bearer(&headers)?;
    let req = body(json)?;
    table.set_spectator_chat(&token, req.spectator_chat).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
) -> Result<(StatusCode, Json<Value>), ServerError> {
    let token = bearer(&headers)?;
    let table = match state.find(&id).await? {
        Some(table) => table,
        // A finished game kept in the store: its host may still ask.
        None => records::revive(&state.ctx, &id).await?,
    };
    state.creation.check(address(client.as_ref()))?;
    state.make_room().await?;
    let rematch = table.rematch(&token, state.ctx.clone()).await?;
    let status = match rematch.created {
        Some(handle) => {
            state.lock().insert(rematch.id.clone(), handle);
            StatusCode::CREATED
        }
        None => StatusCode::OK,
    };
    Ok((status, Json(json!({ "id": rematch.id }))))
}

/// The ETag of what is served of a finished game (`what`: its record,
/// its replay): a finished game never changes, so its id and last event
/// name it, with the server's version (a new server may write it
/// differently). `None` while the game is not over: nothing is cached.
async fn finished_tag(
    state: &AppState,
    id: &str,
    what: &str,
) -> Result<Option<header::HeaderValue>, ServerError> {
    let info = match ask_live(state, id, async |t| t.info().await).await? {
        Some(info) => json!(info),
        None => records::find(&state.ctx, id)?.1,
    };
    if info["over"] != json!(true) {
        return Ok(None);
    }
    let name = format!("{what}:{id}:{}:{}", info["v"], env!("CARGO_PKG_VERSION"));
    Ok(Some(crate::transfer::etag(name.as_bytes())))
}

/// Answers `what` of a game that is over with its ETag, from the
/// archive, or a `304` when the client has it already; a `409` while the
/// game goes on.
async fn finished_answer(
    state: &AppState,
    id: &str,
    what: records::Kept,
    asked: &HeaderMap,
) -> Result<Response, ServerError> {
    let name = match what {
        records::Kept::Record => "record",
        records::Kept::Replay => "replay",
        records::Kept::Fairness => "fairness",
    };
    let Some(tag) = finished_tag(state, id, name).await? else {
        return Err(ServerError::Conflict(format!(
            "the {name} is given once the game is over"
        )));
    };
    if crate::transfer::not_modified(asked, &tag) {
        return Ok(crate::transfer::unchanged(&tag));
    }
    let served = state.ctx.archive.served(&state.ctx, id, what).await?;
    let mut response = served.response(asked);
    let headers = response.headers_mut();
    headers.insert(header::ETAG, tag);
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    Ok(response)
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    asked: HeaderMap,
) -> Result<Response, ServerError> {
    let mut response = finished_answer(&state, &id, records::Kept::Record, &asked).await?;
    let disposition = format!("attachment; filename=\"dalmuti-{id}.json\"");
    if let Ok(disposition) = header::HeaderValue::from_str(&disposition) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, disposition);
    }
    Ok(response)
}

async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    asked: HeaderMap,
) -> Result<Response, ServerError> {
    finished_answer(&state, &id, records::Kept::Replay, &asked).await
}

/// The deal commitments and the seeds revealed so far: from the table
/// while the game goes on, from the archive once it is over.
async fn fairness(
    State(state): State<AppState>,
    Path(id): Path<String>,
    asked: HeaderMap,
) -> Result<Response, ServerError> {
    let live = ask_live(&state, &id, async |t| {
        let over = t.info().await?.over;
        if over {
            Ok(None)
        } else {
            t.fairness().await.map(Some)
        }
    })
    .await?;
    match live.flatten() {
        Some(fairness) => Ok(Json(fairness).into_response()),
        None => finished_answer(&state, &id, records::Kept::Fairness, &asked).await,
    }
}
async fn websocket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    slot: Option<axum::Extension<crate::accept::ConnectionSlot>>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    ws: WebSocketUpgrade,
) -> Result<Response, ServerError> {
    let table = match state.find(&id).await {
        Ok(Some(table)) => table,
        // A finished game: its final state, for this connection alone.
        Ok(None) => records::revive(&state.ctx, &id).await?,
        // Another node serves it: the client is told where, in the
        // protocol (a browser's WebSocket does not follow redirects).
        Err(ServerError::Moved { url, node, .. }) => {
            return Ok(crate::ws::moved(
                ws,
                Some(crate::cluster::ws_url(&url, &id)),
                &node,
            ));
        }
        Err(e) => return Err(e),
    };
    let permit = state.connections.clone().try_acquire_owned().map_err(|_| {
        ServerError::Full(format!(
            "this server holds at most {} connections",
            state.config.max_connections
        ))
    })?;
    let config = &state.config;
    let settings = crate::ws::Settings {
        messages_per_second: config.messages_per_second,
        hello_timeout: config.hello_timeout,
        ping_interval: config.ping_interval,
        idle_timeout: config.idle_timeout,
    };
    Ok(crate::ws::accept(
        ws,
        table,
        (permit, slot.map(|s| s.0)),
        settings,
        state.closing.subscribe(),
        address(client.as_ref()),
    ))
}
