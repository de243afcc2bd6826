//! The HTTP API, the WebSocket endpoint and the embedded client, as one
//! axum [`Router`] (`docs/PROTOCOL.md`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{Semaphore, watch};
use tokio::time::Instant;

use crate::Config;
use crate::error::ServerError;
use crate::protocol::{ClientMsg, ServerMsg};
use crate::store::{Store, TableRow, Writer, new_id};
use crate::table::{self, Context, TableHandle, Timings};

/// The largest HTTP request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;
/// The largest WebSocket frame read at all; frames over
/// [`crate::protocol::MAX_CLIENT_MESSAGE`] get a clear error, larger ones
/// close the connection.
const MAX_FRAME: usize = 64 * 1024;
/// A connection's read buffer, in bytes.
const READ_BUFFER: usize = 8 * 1024;
/// The most tables a lobby list shows.
const MAX_LISTED: usize = 200;

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let status = match &self {
            ServerError::NoTable(_) => StatusCode::NOT_FOUND,
            ServerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServerError::NoToken => StatusCode::UNAUTHORIZED,
            ServerError::BadToken | ServerError::NotHost => StatusCode::FORBIDDEN,
            ServerError::Conflict(_) | ServerError::Stale { .. } => StatusCode::CONFLICT,
            ServerError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ServerError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ServerError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServerError::Full(_) => StatusCode::SERVICE_UNAVAILABLE,
            ServerError::Storage(_) | ServerError::Closed => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, Json(json!({ "error": self.to_string() }))).into_response()
    }
}

/// The server's shared state: the store, a handle per table, the caps.
/// Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    ctx: Context,
    config: Arc<Config>,
    tables: Arc<Mutex<HashMap<String, TableHandle>>>,
    connections: Arc<Semaphore>,
    closing: watch::Sender<bool>,
}

impl AppState {
    /// Opens every stored table (replaying its log) and starts its actor.
    /// Must run inside a tokio runtime.
    pub fn open(store: Arc<dyn Store>, config: Config) -> Result<AppState, ServerError> {
        let ctx = Context {
            writer: Writer::start(store.clone()),
            store: store.clone(),
            timings: Timings {
                grace: config.grace,
                bot_delay: config.bot_delay,
                hand_pause: config.hand_pause,
                setup_pause: config.setup_pause,
            },
        };
        let mut tables = HashMap::new();
        for row in store.tables()? {
            let id = row.id.clone();
            tables.insert(id, table::load(ctx.clone(), row)?);
        }
        Ok(AppState {
            ctx,
            connections: Arc::new(Semaphore::new(config.max_connections)),
            config: Arc::new(config),
            tables: Arc::new(Mutex::new(tables)),
            closing: watch::channel(false).0,
        })
    }

    /// The handle of table `id`.
    pub fn table(&self, id: &str) -> Result<TableHandle, ServerError> {
        self.lock()
            .get(id)
            .cloned()
            .ok_or_else(|| ServerError::NoTable(id.to_string()))
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
/// WebSocket at `/ws/{id}`.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/tables", post(create_table).get(list_tables))
        .route("/api/tables/{id}", get(table_info))
        .route("/api/tables/{id}/seats", post(take_seat).delete(leave))
        .route("/api/tables/{id}/bots", post(add_bot))
        .route("/api/tables/{id}/bots/{name}", delete(remove_bot))
        .route("/api/tables/{id}/start", post(start))
        .route("/api/tables/{id}/record", get(record))
        .route("/api/tables/{id}/replay", get(replay))
        .route("/api/tables/{id}/fairness", get(fairness))
        .route("/ws/{id}", get(websocket))
        .merge(crate::web::routes())
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
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
    name: String,
    player: String,
    seats: usize,
    #[serde(default)]
    rules: Option<Value>,
    #[serde(default)]
    hands: Option<u32>,
    #[serde(default)]
    public: Option<bool>,
    #[serde(default)]
    turn_seconds: Option<u32>,
}

async fn create_table(
    State(state): State<AppState>,
    json: Result<Json<CreateTable>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ServerError> {
    let req = body(json)?;
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(ServerError::BadRequest(
            "a table name has 1 to 64 characters, none of them control characters".into(),
        ));
    }
    table::state::check_name(&req.player)?;
    // Server tables let players come and go between hands unless told not to.
    let mut rules = json!({ "join_and_leave": true });
    match req.rules {
        None | Some(Value::Null) => {}
        Some(Value::Object(given)) => {
            for (k, v) in given {
                rules[k] = v;
            }
        }
        Some(_) => return Err(ServerError::BadRequest("rules: an object".into())),
    }
    let mut rules: dalmuti_core::Rules = serde_json::from_value(rules)
        .map_err(|e| ServerError::BadRequest(format!("rules: {e}")))?;
    if let Some(hands) = req.hands {
        if hands == 0 || hands > 1000 {
            return Err(ServerError::BadRequest("hands: 1 to 1000".into()));
        }
        rules.hands = Some(hands);
    }
    if let Some(t) = req.turn_seconds
        && !(10..=600).contains(&t)
    {
        return Err(ServerError::BadRequest(
            "turn_seconds: 10 to 600 seconds".into(),
        ));
    }
    if state.lock().len() >= state.config.max_tables {
        return Err(ServerError::Full(format!(
            "this server holds at most {} tables",
            state.config.max_tables
        )));
    }
    let row = TableRow {
        id: new_id(),
        name: name.to_string(),
        seats: req.seats,
        rules: serde_json::to_string(&rules).expect("rules serialize"),
        public: req.public.unwrap_or(true),
        turn_seconds: req.turn_seconds,
    };
    let handle = table::create(state.ctx.clone(), row.clone())?;
    state.lock().insert(row.id.clone(), handle.clone());
    let token = handle.join(&req.player).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": row.id, "token": token })),
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
    let handles: Vec<TableHandle> = state.lock().values().cloned().collect();
    let mut listed = Vec::new();
    for handle in handles {
        let info = handle.info().await?;
        if info.public && info.over == query.finished {
            listed.push(info);
        }
    }
    if query.finished {
        listed.sort_by(|a, b| b.v.cmp(&a.v).then(a.id.cmp(&b.id)));
    } else {
        listed.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    }
    listed.truncate(MAX_LISTED);
    Ok(Json(json!({ "tables": listed })))
}

async fn table_info(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ServerError> {
    Ok(Json(json!(state.table(&id)?.info().await?)))
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
    let table = state.table(&id)?;
    let req = body(json)?;
    let token = table.join(&req.name).await?;
    Ok((StatusCode::CREATED, Json(json!({ "token": token }))))
}

async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id)?;
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
    let table = state.table(&id)?;
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
    let table = state.table(&id)?;
    table.remove_bot(&bearer(&headers)?, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let table = state.table(&id)?;
    table.start(&bearer(&headers)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ServerError> {
    let record = state.table(&id)?.record().await?;
    let disposition = format!("attachment; filename=\"dalmuti-{id}.json\"");
    Ok(([(header::CONTENT_DISPOSITION, disposition)], Json(record)).into_response())
}

async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ServerError> {
    Ok(Json(state.table(&id)?.replay().await?))
}

async fn fairness(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ServerError> {
    Ok(Json(state.table(&id)?.fairness().await?))
}

async fn websocket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ws: WebSocketUpgrade,
) -> Result<Response, ServerError> {
    let table = state.table(&id)?;
    let permit = state.connections.clone().try_acquire_owned().map_err(|_| {
        ServerError::Full(format!(
            "this server holds at most {} connections",
            state.config.max_connections
        ))
    })?;
    let limit = RateLimit::new(state.config.messages_per_second);
    let closing = state.closing.subscribe();
    Ok(ws
        // Client frames are small; tungstenite's default 128 KiB read
        // buffer per connection was most of a connection's memory and
        // cleared on every frame read (docs/PERFORMANCE.md).
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            let mut conn = Connection {
                socket,
                table,
                limit,
                closing,
                v: 0,
            };
            conn.run().await;
            drop(permit);
        }))
}

/// A token bucket: `rate` messages a second, bursts of twice that.
struct RateLimit {
    rate: f64,
    tokens: f64,
    last: Instant,
    refused: u32,
}

impl RateLimit {
    fn new(per_second: u32) -> RateLimit {
        let rate = f64::from(per_second.max(1));
        RateLimit {
            rate,
            tokens: 2.0 * rate,
            last: Instant::now(),
            refused: 0,
        }
    }

    /// Whether one more message may pass now.
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let earned = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + earned).min(2.0 * self.rate);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.refused = 0;
            true
        } else {
            self.refused += 1;
            false
        }
    }
}

/// What a connection should do after a frame.
enum Next {
    Go,
    Stop,
}

struct Connection {
    socket: WebSocket,
    table: TableHandle,
    limit: RateLimit,
    closing: watch::Receiver<bool>,
    v: u64,
}

/// A client refused this many messages in a row is closed.
const MAX_REFUSED: u32 = 100;

impl Connection {
    async fn send(&mut self, msg: &ServerMsg) -> bool {
        self.send_text(&msg.to_text()).await
    }

    async fn send_text(&mut self, text: &str) -> bool {
        self.socket.send(Message::Text(text.into())).await.is_ok()
    }

    async fn close(&mut self, code: u16, reason: &str) {
        let _ = self
            .socket
            .send(Message::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            })))
            .await;
    }

    /// The next text frame, answering what is not one; `None` when the
    /// connection ends.
    async fn next_text(&mut self) -> Option<String> {
        loop {
            let message = tokio::select! {
                m = self.socket.recv() => Some(m),
                _ = self.closing.wait_for(|c| *c) => None,
            };
            let Some(message) = message else {
                self.close(1001, "the server is stopping").await;
                return None;
            };
            let Some(Ok(message)) = message else {
                return None;
            };
            if !self.limit.allow() {
                if self.limit.refused > MAX_REFUSED {
                    self.close(1008, "too many messages").await;
                    return None;
                }
                let error = ServerError::TooMany(format!(
                    "too many messages: at most {} a second",
                    self.limit.rate
                ));
                if !self
                    .send(&ServerMsg::error(self.v, &error.to_string()))
                    .await
                {
                    return None;
                }
                continue;
            }
            match message {
                Message::Text(text) => return Some(text.to_string()),
                Message::Binary(_) => {
                    let msg = ServerMsg::error(
                        self.v,
                        "binary frames are not understood: send JSON text",
                    );
                    if !self.send(&msg).await {
                        return None;
                    }
                }
                Message::Close(_) => return None,
                Message::Ping(_) | Message::Pong(_) => {}
            }
        }
    }

    async fn run(&mut self) {
        // `hello` first.
        let (token, v) = loop {
            let Some(text) = self.next_text().await else {
                return;
            };
            let reason = match ClientMsg::parse(&text) {
                Ok(ClientMsg::Hello { token, v }) => break (token, v),
                Ok(_) => "say hello first: {\"t\": \"hello\", \"v\": 0, \"d\": {\"token\": TOKEN}}"
                    .to_string(),
                Err(reason) => reason,
            };
            if !self.send(&ServerMsg::error(0, &reason)).await {
                return;
            }
        };
        let sub = match self.table.subscribe(token.as_deref(), v).await {
            Ok(sub) => sub,
            Err(e) => {
                self.send(&ServerMsg::error(0, &e.to_string())).await;
                self.close(1008, "no such seat").await;
                return;
            }
        };
        let seat = sub.seat.clone();
        self.play(token, sub).await;
        if let Some(seat) = seat {
            self.table.unsubscribe(&seat).await;
        }
    }

    async fn play(&mut self, token: Option<String>, sub: table::Subscription) {
        let mut feed = sub.feed;
        self.v = sub.first.v;
        if !self.send(&sub.first).await {
            return;
        }
        loop {
            tokio::select! {
                msg = feed.recv() => match msg {
                    Ok(msg) => {
                        self.v = msg.v;
                        if !self.send_text(&msg.text).await { return; }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        // Fell behind: a fresh state replaces everything.
                        match self.table.subscribe(token.as_deref(), 0).await {
                            Ok(sub) => {
                                if let Some(seat) = &sub.seat {
                                    // The new subscription counted again.
                                    self.table.unsubscribe(seat).await;
                                }
                                feed = sub.feed;
                                let mut first = sub.first;
                                first.t = "resync";
                                self.v = first.v;
                                if !self.send(&first).await { return; }
                            }
                            Err(_) => return,
                        }
                    }
                    Err(_) => {
                        self.close(1000, "you left the table").await;
                        return;
                    }
                },
                text = self.next_text() => {
                    let Some(text) = text else { return };
                    if let Next::Stop = self.answer(&text, token.as_deref()).await {
                        return;
                    }
                }
            }
        }
    }

    async fn answer(&mut self, text: &str, token: Option<&str>) -> Next {
        let refused = |e: ServerError, resync: ServerMsg| (e, resync);
        let result = match (ClientMsg::parse(text), token) {
            (Err(reason), _) => Err(reason),
            (Ok(ClientMsg::Hello { .. }), _) => Err("already said hello".into()),
            (Ok(_), None) => Err("spectators cannot act or chat".into()),
            (Ok(ClientMsg::Act { v, action }), Some(token)) => {
                match self.table.act(token, action, v).await {
                    Ok(_) => Ok(()),
                    Err((e, resync)) => return self.refuse(refused(e, resync)).await,
                }
            }
            (Ok(ClientMsg::Place { v, name, seat }), Some(token)) => {
                match self.table.place(token, &name, seat, v).await {
                    Ok(_) => Ok(()),
                    Err((e, resync)) => return self.refuse(refused(e, resync)).await,
                }
            }
            (Ok(ClientMsg::Chat(line)), Some(token)) => self
                .table
                .chat(token, &line)
                .await
                .map_err(|e| e.to_string()),
        };
        match result {
            Ok(()) => Next::Go,
            Err(reason) => {
                if self.send(&ServerMsg::error(self.v, &reason)).await {
                    Next::Go
                } else {
                    Next::Stop
                }
            }
        }
    }

    async fn refuse(&mut self, (error, resync): (ServerError, ServerMsg)) -> Next {
        if matches!(error, ServerError::Closed) {
            return Next::Stop;
        }
        if !self
            .send(&ServerMsg::error(resync.v, &error.to_string()))
            .await
        {
            return Next::Stop;
        }
        self.v = resync.v;
        if self.send(&resync).await {
            Next::Go
        } else {
            Next::Stop
        }
    }
}
