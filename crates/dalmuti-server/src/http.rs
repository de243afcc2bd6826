//! The HTTP API and the WebSocket endpoint, as one axum [`Router`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::ServerError;
use crate::protocol::{ClientMsg, MAX_CLIENT_MESSAGE, ServerMsg};
use crate::store::{Store, TableRow, new_id};
use crate::table::{self, TableHandle};

/// The most tables one server holds.
pub const MAX_TABLES: usize = 1000;
/// The largest HTTP request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let status = match &self {
            ServerError::NoTable(_) => StatusCode::NOT_FOUND,
            ServerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServerError::BadToken => StatusCode::FORBIDDEN,
            ServerError::Conflict(_) | ServerError::Stale { .. } => StatusCode::CONFLICT,
            ServerError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ServerError::Full(_) => StatusCode::SERVICE_UNAVAILABLE,
            ServerError::Storage(_) | ServerError::Closed => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, Json(json!({ "error": self.to_string() }))).into_response()
    }
}

/// The server's shared state: the store and a handle per table. Cheap to
/// clone.
#[derive(Clone)]
pub struct AppState {
    store: Arc<dyn Store>,
    tables: Arc<Mutex<HashMap<String, TableHandle>>>,
}

impl AppState {
    /// Opens every stored table (replaying its log) and starts its actor.
    /// Must run inside a tokio runtime.
    pub fn open(store: Arc<dyn Store>) -> Result<AppState, ServerError> {
        let mut tables = HashMap::new();
        for row in store.tables()? {
            let id = row.id.clone();
            tables.insert(id, table::load(store.clone(), row)?);
        }
        Ok(AppState {
            store,
            tables: Arc::new(Mutex::new(tables)),
        })
    }

    /// The handle of table `id`.
    pub fn table(&self, id: &str) -> Result<TableHandle, ServerError> {
        self.lock()
            .get(id)
            .cloned()
            .ok_or_else(|| ServerError::NoTable(id.to_string()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The router: the lobby API under `/api`, the WebSocket at `/ws/{id}`.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/tables", post(create_table).get(list_tables))
        .route("/api/tables/{id}/seats", post(take_seat))
        .route("/api/tables/{id}/bots", post(add_bot))
        .route(
            "/api/tables/{id}/bots/{name}",
            axum::routing::delete(remove_bot),
        )
        .route("/api/tables/{id}/start", post(start))
        .route("/ws/{id}", get(websocket))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// A JSON body, or a 400 that says what is wrong with it.
fn body<T>(json: Result<Json<T>, JsonRejection>) -> Result<T, ServerError> {
    json.map(|Json(t)| t)
        .map_err(|e| ServerError::BadRequest(e.body_text()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateTable {
    name: String,
    seats: usize,
    #[serde(default)]
    rules: Option<Value>,
}

async fn create_table(
    State(state): State<AppState>,
    json: Result<Json<CreateTable>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ServerError> {
    let req = body(json)?;
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 64 {
        return Err(ServerError::BadRequest(
            "a table name has 1 to 64 characters".into(),
        ));
    }
    let rules: dalmuti_core::Rules = serde_json::from_value(req.rules.unwrap_or(json!({})))
        .map_err(|e| ServerError::BadRequest(format!("rules: {e}")))?;
    if state.lock().len() >= MAX_TABLES {
        return Err(ServerError::Full(format!(
            "this server holds at most {MAX_TABLES} tables"
        )));
    }
    let row = TableRow {
        id: new_id(),
        name: name.to_string(),
        seats: req.seats,
        rules: serde_json::to_string(&rules).expect("rules serialize"),
    };
    let handle = table::create(state.store.clone(), row.clone())?;
    state.lock().insert(row.id.clone(), handle);
    Ok((StatusCode::CREATED, Json(json!({ "id": row.id }))))
}

async fn list_tables(State(state): State<AppState>) -> Result<Json<Value>, ServerError> {
    let handles: Vec<TableHandle> = state.lock().values().cloned().collect();
    let mut open = Vec::new();
    for handle in handles {
        let info = handle.info().await?;
        if !info.started {
            open.push(info);
        }
    }
    open.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    Ok(Json(json!({ "tables": open })))
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddBot {
    bot: String,
}

async fn add_bot(
    State(state): State<AppState>,
    Path(id): Path<String>,
    json: Result<Json<AddBot>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ServerError> {
    let table = state.table(&id)?;
    let req = body(json)?;
    let name = table.add_bot(&req.bot).await?;
    Ok((StatusCode::CREATED, Json(json!({ "name": name }))))
}

async fn remove_bot(
    State(state): State<AppState>,
    Path((id, name)): Path<(String, String)>,
) -> Result<StatusCode, ServerError> {
    state.table(&id)?.remove_bot(&name).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<StatusCode, ServerError> {
    state.table(&id)?.start().await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn websocket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ws: WebSocketUpgrade,
) -> Result<Response, ServerError> {
    let table = state.table(&id)?;
    Ok(ws
        .max_message_size(MAX_CLIENT_MESSAGE)
        .on_upgrade(move |socket| connection(socket, table)))
}

async fn send(socket: &mut WebSocket, msg: &ServerMsg) -> bool {
    socket
        .send(Message::Text(msg.to_text().into()))
        .await
        .is_ok()
}

/// One connection: a `hello` first, then the feed and the client's messages.
async fn connection(mut socket: WebSocket, table: TableHandle) {
    let token = loop {
        let Some(Ok(message)) = socket.recv().await else {
            return;
        };
        let Message::Text(text) = message else {
            continue;
        };
        match ClientMsg::parse(&text) {
            Ok(ClientMsg::Hello { token, .. }) => break token,
            Ok(_) => {
                send(&mut socket, &ServerMsg::error(0, "say hello first")).await;
            }
            Err(reason) => {
                send(&mut socket, &ServerMsg::error(0, &reason)).await;
            }
        }
    };
    let (mut feed, snapshot) = match table.subscribe(token.as_deref()).await {
        Ok(x) => x,
        Err(e) => {
            send(&mut socket, &ServerMsg::error(0, &e.to_string())).await;
            return;
        }
    };
    if !send(&mut socket, &snapshot).await {
        return;
    }
    let mut v = snapshot.v;
    loop {
        tokio::select! {
            msg = feed.recv() => match msg {
                Ok(msg) => {
                    v = msg.v;
                    if !send(&mut socket, &msg).await { return; }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    match table.subscribe(token.as_deref()).await {
                        Ok((f, mut snap)) => {
                            feed = f;
                            snap.t = "resync";
                            v = snap.v;
                            if !send(&mut socket, &snap).await { return; }
                        }
                        Err(_) => return,
                    }
                }
                Err(_) => return,
            },
            incoming = socket.recv() => {
                let Some(Ok(message)) = incoming else { return };
                let text = match message {
                    Message::Text(text) => text,
                    Message::Close(_) => return,
                    _ => continue,
                };
                let reply = match (ClientMsg::parse(&text), &token) {
                    (Err(reason), _) => Some(ServerMsg::error(v, &reason)),
                    (Ok(ClientMsg::Hello { .. }), _) => Some(ServerMsg::error(v, "already said hello")),
                    (Ok(_), None) => Some(ServerMsg::error(v, "spectators cannot act or chat")),
                    (Ok(ClientMsg::Act { v: sent, action }), Some(token)) => {
                        match table.act(token, action, sent).await {
                            Ok(_) => None,
                            Err((e, resync)) => {
                                send(&mut socket, &ServerMsg::error(resync.v, &e.to_string())).await;
                                Some(resync)
                            }
                        }
                    }
                    (Ok(ClientMsg::Chat(line)), Some(token)) => table
                        .chat(token, &line)
                        .await
                        .err()
                        .map(|e| ServerError::to_string(&e))
                        .map(|reason| ServerMsg::error(v, &reason)),
                };
                if let Some(reply) = reply
                    && !send(&mut socket, &reply).await
                {
                    return;
                }
            }
        }
    }
}
