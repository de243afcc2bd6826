//! The HTTP API, the WebSocket endpoint and the embedded client, as one
//! axum [`Router`] (`docs/PROTOCOL.md`).

use std::net::{IpAddr, SocketAddr};

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

pub use crate::registry::AppState;

use crate::error::{BadRequest, Conflict, Full, ServerError};
use crate::ids::TableId;
use crate::names::PlayerName;
use crate::records;
use crate::store::TableRow;
use crate::table::{TableHandle, TableInfo};
use crate::token::SeatToken;

pub use crate::request::MAX_BODY;
use crate::request::{address, body};
/// The most tables a lobby list shows.
const MAX_LISTED: usize = 200;

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let status = match &self {
            ServerError::NoTable(_) | ServerError::NotFound(_) => StatusCode::NOT_FOUND,
            ServerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServerError::NoToken | ServerError::NoPlayer => StatusCode::UNAUTHORIZED,
            ServerError::BadToken | ServerError::NotHost | ServerError::UnknownPlayer => {
                StatusCode::FORBIDDEN
            }
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
            ServerError::Full(_) | ServerError::Busy { .. } | ServerError::Draining => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ServerError::Storage(e) => {
                // The client is told it failed; the operator, what failed.
                tracing::error!(error = %e, "a request failed in the store");
                StatusCode::INTERNAL_SERVER_ERROR
            }
            // Made a redirect to the same path there by crate::cluster::redirect.
            ServerError::Moved { .. } => StatusCode::TEMPORARY_REDIRECT,
        };
        let mut response =
            (status, Json(crate::error::ErrorBody::new(self.to_string()))).into_response();
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
        if let ServerError::RateLimited { retry_after, .. }
        | ServerError::Busy { retry_after, .. } = self
        {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(retry_after));
        }
        response
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
        .route("/api/tables/{id}/silence", post(silence))
        .route("/api/tables/{id}/reports", post(report))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/replay", get(replay))
        .route("/api/tables/{id}/fairness", get(fairness))
        .route("/ws/{id}", get(websocket))
        .merge(crate::players::routes())
        .merge(crate::queue::routes())
        .merge(crate::ops::routes())
        .merge(crate::rules::games::routes())
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

/// The token of `Authorization: Bearer TOKEN`.
fn bearer(headers: &HeaderMap) -> Result<SeatToken, ServerError> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(SeatToken::from)
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
    /// Whether the game counts for ratings ([`crate::ratings`]).
    #[serde(default)]
    rated: bool,
}

async fn create_table(
    State(state): State<AppState>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    json: Result<Json<CreateTable>, JsonRejection>,
) -> Result<(StatusCode, Json<Created>), ServerError> {
    let req = body(json)?;
    let me = crate::players::from_headers(&state, &headers).await?;
    // An empty name is no name: the table gets a default one.
    let name = req.name.as_deref().map(str::trim).filter(|n| !n.is_empty());
    if let Some(name) = name
        && (name.chars().count() > 64 || name.chars().any(char::is_control))
    {
        return Err(BadRequest::TableName.into());
    }
    let player = crate::players::seat_name(&state, me.as_ref(), &req.player).await?;
    let rules = crate::rules::from_request(req.rules.as_deref(), req.hands)?;
    if let Some(t) = req.turn_seconds
        && !(10..=600).contains(&t)
    {
        return Err(BadRequest::TurnSeconds.into());
    }
    state.creation.check(address(client.as_ref()))?;
    let row = TableRow {
        id: TableId::new(),
        name: String::new(),
        seats: req.seats,
        rules,
        public: req.public.unwrap_or(true),
        turn_seconds: req.turn_seconds,
        spectator_chat: req.spectator_chat,
        rematch: None,
        rated: req.rated,
        silenced: Vec::new(),
    };
    let id = row.id.clone();
    let handle = state
        .make_table(row, name.map(str::to_string), &player)
        .await?;
    let from = Some(crate::ratings::origin(address(client.as_ref())));
    let token = match &me {
        Some(me) => {
            let token = handle.join_as(me, from).await?;
            crate::players::remember_seat(&state, me, &id).await;
            token
        }
        None => handle.join(&player, from).await?,
    };
    Ok((StatusCode::CREATED, Json(Created { id, token })))
}

/// A table made: its id, and the host's seat token. (Public and
/// `Deserialize` so that tests read the answer as this type: a field
/// renamed fails them.)
#[derive(Debug, Serialize, Deserialize)]
pub struct Created {
    /// The new table's id.
    pub id: TableId,
    /// The host's seat token.
    pub token: SeatToken,
}

/// A seat taken: its token.
#[derive(Debug, Serialize, Deserialize)]
pub struct Seated {
    /// The seat's token.
    pub token: SeatToken,
}

/// A bot seated: the name the server gave it.
#[derive(Debug, Serialize, Deserialize)]
pub struct BotAdded {
    /// The bot's name at the table.
    pub name: PlayerName,
}

/// Where the rematch is played.
#[derive(Debug, Serialize, Deserialize)]
pub struct RematchAt {
    /// The rematch's table.
    pub id: TableId,
}

#[derive(Deserialize)]
struct ListQuery {
    #[serde(default)]
    finished: bool,
}

async fn list_tables(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<Listing>, ServerError> {
    // An open table nobody is at is not listed (its link works).
    let listed_now =
        |info: &TableInfo| info.public && info.over == query.finished && (info.over || !info.idle);
    let mut listed = Vec::new();
    for handle in state.live_tables() {
        match handle.info().await {
            Ok(info) if listed_now(&info) => listed.push(info),
            Ok(_) | Err(ServerError::Closed) => {}
            Err(e) => return Err(e),
        }
    }
    // The tables other nodes serve, as they last published them.
    if let Some(cluster) = state.ctx.cluster.clone() {
        let elsewhere = tokio::task::spawn_blocking(move || cluster.lobby_elsewhere())
            .await
            .map_err(|_| {
                ServerError::Storage(crate::store::StoreError::Failed(
                    "reading the other nodes' lobby stopped".into(),
                ))
            })??;
        for info in elsewhere {
            let known = listed.iter().any(|l| l.id == info.id);
            if listed_now(&info) && !known {
                listed.push(info);
            }
        }
    }
    if query.finished {
        // Games over but still live are the newest; then the records.
        listed.sort_by_key(|info| std::cmp::Reverse(info.v));
        let live: Vec<TableId> = listed.iter().map(|i| i.id.clone()).collect();
        for info in state.repo.finished(MAX_LISTED).await? {
            if !live.contains(&info.id) {
                listed.push(info);
            }
        }
    } else {
        listed.sort_by(|a, b| (&a.name, &a.id).cmp(&(&b.name, &b.id)));
    }
    listed.truncate(MAX_LISTED);
    Ok(Json(Listing { tables: listed }))
}

/// The lobby's list of tables.
#[derive(Serialize)]
struct Listing {
    tables: Vec<TableInfo>,
}

/// A live table's answer, or `None` if the table is not live (or stopped
/// while asked): the caller turns to the store.
async fn ask_live<T>(
    state: &AppState,
    id: &TableId,
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
    Path(id): Path<TableId>,
) -> Result<Json<TableInfo>, ServerError> {
    if let Some(info) = ask_live(&state, &id, async |t| t.info().await).await? {
        return Ok(Json(info));
    }
    Ok(Json(records::summary(&state.ctx, &id).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeSeat {
    name: String,
}

async fn take_seat(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    json: Result<Json<TakeSeat>, JsonRejection>,
) -> Result<(StatusCode, Json<Seated>), ServerError> {
    let table = state.table(&id).await?;
    let req = body(json)?;
    let me = crate::players::from_headers(&state, &headers).await?;
    let name = crate::players::seat_name(&state, me.as_ref(), &req.name).await?;
    let from = Some(crate::ratings::origin(address(client.as_ref())));
    let token = match &me {
        Some(me) => {
            let token = table.join_as(me, from).await?;
            crate::players::remember_seat(&state, me, &id).await;
            token
        }
        None => table.join(&name, from).await?,
    };
    Ok((StatusCode::CREATED, Json(Seated { token })))
}

async fn leave(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
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
    Path(id): Path<TableId>,
    headers: HeaderMap,
    json: Result<Json<AddBot>, JsonRejection>,
) -> Result<(StatusCode, Json<BotAdded>), ServerError> {
    let table = state.table(&id).await?;
    let token = bearer(&headers)?;
    let req = body(json)?;
    let name = table.add_bot(&token, &req.bot).await?;
    Ok((StatusCode::CREATED, Json(BotAdded { name })))
}

async fn remove_bot(
    State(state): State<AppState>,
    Path((id, name)): Path<(TableId, String)>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    table
        .remove_bot(&bearer(&headers)?, &PlayerName::new(&name)?)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn start(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    let token = bearer(&headers)?;
    match state.config.deal_seed {
        // A test server's chosen deals (`--deal-seed`).
        Some(seed) => table.start_with_seed(&token, seed).await?,
        None => table.start(&token).await?,
    }
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    spectator_chat: bool,
}

async fn settings(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    headers: HeaderMap,
    json: Result<Json<Settings>, JsonRejection>,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    let token = bearer(&headers)?;
    let req = body(json)?;
    table.set_spectator_chat(&token, req.spectator_chat).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SilenceSeat {
    name: String,
}

async fn silence(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    headers: HeaderMap,
    json: Result<Json<SilenceSeat>, JsonRejection>,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    let token = bearer(&headers)?;
    let req = body(json)?;
    table.silence(&token, &PlayerName::new(&req.name)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportLine {
    n: u64,
    #[serde(default)]
    why: String,
}

async fn report(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    headers: HeaderMap,
    json: Result<Json<ReportLine>, JsonRejection>,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id).await?;
    let token = bearer(&headers)?;
    let req = body(json)?;
    table.report(&token, req.n, &req.why).await?;
    Ok(StatusCode::CREATED)
}

async fn rematch(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    headers: HeaderMap,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
) -> Result<(StatusCode, Json<RematchAt>), ServerError> {
    let token = bearer(&headers)?;
    let table = match state.find(&id).await? {
        Some(table) => table,
        // A finished game kept in the store: its host may still ask.
        None => records::revive(&state.ctx, &state.archive, &id).await?,
    };
    state.creation.check(address(client.as_ref()))?;
    state.make_room().await?;
    let rematch = table.rematch(&token, state.ctx.clone()).await?;
    let status = match rematch.created {
        Some(handle) => {
            // Made as the node drains: served by another node from now.
            if let Err(handle) = state.list(rematch.id.clone(), handle) {
                handle.hand_over(true).await;
            }
            StatusCode::CREATED
        }
        None => StatusCode::OK,
    };
    Ok((status, Json(RematchAt { id: rematch.id })))
}

/// The ETag of what is served of a finished game (`what`: its record,
/// its replay): a finished game never changes, so its id and last event
/// name it, with the server's version (a new server may write it
/// differently). `None` while the game is not over: nothing is cached.
async fn finished_tag(
    state: &AppState,
    id: &TableId,
    what: &str,
) -> Result<Option<header::HeaderValue>, ServerError> {
    let info = match ask_live(state, id, async |t| t.info().await).await? {
        Some(info) => info,
        None => records::summary(&state.ctx, id).await?,
    };
    if !info.over {
        return Ok(None);
    }
    let name = format!("{what}:{id}:{}:{}", info.v, env!("CARGO_PKG_VERSION"));
    Ok(Some(crate::transfer::etag(name.as_bytes())))
}

/// Answers `what` of a game that is over, from the archive, with its
/// ETag (a `304` when the client has it already); a `409` while the game
/// goes on. A download from `client` is let in first, or refused with
/// when to try again ([`records::Downloads`]); a kept answer is sent
/// without reading the store.
async fn finished_answer(
    state: &AppState,
    id: &TableId,
    what: records::Kept,
    asked: &HeaderMap,
    client: IpAddr,
) -> Result<Response, ServerError> {
    let archive = &state.archive;
    let admitted = archive.admit(client)?;
    if let Some(served) = archive.kept(&state.ctx, id, what) {
        return Ok(served.response(asked, admitted));
    }
    let name = match what {
        records::Kept::Record => "record",
        records::Kept::Replay => "replay",
        records::Kept::Fairness => "fairness",
    };
    let Some(tag) = finished_tag(state, id, name).await? else {
        return Err(ServerError::Conflict(Conflict::NotOverYet { what: name }));
    };
    if crate::transfer::not_modified(asked, &tag) {
        return Ok(crate::transfer::unchanged(&tag));
    }
    let served = archive.served(&state.ctx, id, what, tag).await?;
    Ok(served.response(asked, admitted))
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    asked: HeaderMap,
) -> Result<Response, ServerError> {
    let client = address(client.as_ref());
    let mut response = finished_answer(&state, &id, records::Kept::Record, &asked, client).await?;
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
    Path(id): Path<TableId>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    asked: HeaderMap,
) -> Result<Response, ServerError> {
    let client = address(client.as_ref());
    finished_answer(&state, &id, records::Kept::Replay, &asked, client).await
}

/// The deal commitments and the seeds revealed so far: from the table
/// while the game goes on, from the archive once it is over.
async fn fairness(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
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
        None => {
            let client = address(client.as_ref());
            finished_answer(&state, &id, records::Kept::Fairness, &asked, client).await
        }
    }
}
async fn websocket(
    State(state): State<AppState>,
    Path(id): Path<TableId>,
    slot: Option<axum::Extension<crate::accept::ConnectionSlot>>,
    client: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    ws: WebSocketUpgrade,
) -> Result<Response, ServerError> {
    let table = match state.find(&id).await {
        Ok(Some(table)) => table,
        // A finished game: its final state, for this connection alone.
        Ok(None) => records::revive(&state.ctx, &state.archive, &id).await?,
        // Another node serves it: the client is told where, in the
        // protocol (a browser's WebSocket does not follow redirects).
        Err(ServerError::Moved { url, node, .. }) => {
            return Ok(crate::ws::moved(
                ws,
                Some(crate::cluster::ws_url(&url, &id)),
                Some(&node),
            ));
        }
        // This node is stopping: another serves the table from now on,
        // found by connecting again where the client first did.
        Err(ServerError::Draining) => return Ok(crate::ws::moved(ws, None, None)),
        Err(e) => return Err(e),
    };
    let permit = state.connections.clone().try_acquire_owned().map_err(|_| {
        ServerError::Full(Full::Connections {
            most: state.config.max_connections,
        })
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
        crate::ws::Closing {
            signal: state.closing.subscribe(),
            moved: state.ctx.cluster.is_some(),
        },
        address(client.as_ref()),
    ))
}
