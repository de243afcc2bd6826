//! Several server nodes on one PostgreSQL database (`docs/DEPLOY.md`).
//!
//! Each live table is served by exactly one node: the one holding its
//! lease in the database ([`crate::store::Lease`]). The node renews its
//! leases every third of their length; every write of a table carries the
//! lease's epoch and the database refuses it once the lease is lost, so a
//! node that stalls past its lease can write nothing more, whatever it
//! believes. A node that dies stops renewing: its leases expire and the
//! other nodes take its tables over, each rebuilt from its log (bots and
//! timers with it). A request for a table another node serves is sent
//! there: HTTP by a 307 redirect, a WebSocket by a `moved` message.
//!
//! Each node says where clients reach it (`--public-url`) and publishes
//! its tables' lobby summaries, so any node's lobby lists every table.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ErrorBody, Full, ServerError};
use crate::ids::TableId;
use crate::protocol::{Published, TableInfo};
use crate::store::{Owner, PostgresStore, TableRow};

/// The most tables a node takes over in one round (the rest wait for the
/// next): a node that comes up beside a dead one does not stall on a
/// thousand replays at once.
const TAKE_PER_ROUND: usize = 64;

/// This node among others on one database.
pub struct Cluster {
    store: Arc<PostgresStore>,
    /// This node's id (`--node-id`).
    pub node: String,
    /// Where clients reach this node (`--public-url`).
    pub public_url: String,
    /// How long a lease lasts unless renewed: how long a dead node's
    /// tables wait before another node takes them over.
    pub ttl: Duration,
    /// The lobby summaries last published, by table (without the event
    /// number): only changes are written.
    published: Mutex<HashMap<TableId, String>>,
}

impl Cluster {
    /// This node on `store`: registers its public address.
    pub fn join(
        store: Arc<PostgresStore>,
        node: String,
        public_url: String,
        ttl: Duration,
    ) -> Result<Cluster, ServerError> {
        store.register_node(&node, &public_url)?;
        Ok(Cluster {
            store,
            node,
            public_url,
            ttl,
            published: Mutex::new(HashMap::new()),
        })
    }

    /// How often leases are renewed and orphaned tables looked for.
    pub fn period(&self) -> Duration {
        self.ttl / 3
    }

    /// Creates table `row` in the store, already leased to this node.
    pub fn create(&self, row: &TableRow) -> Result<(), ServerError> {
        self.store.create_leased(row, &self.node, self.ttl)?;
        Ok(())
    }

    /// Takes table `id`'s lease; false if another node holds it.
    pub fn take(&self, id: &TableId) -> Result<bool, ServerError> {
        Ok(self.store.take(id, &self.node, self.ttl)?.is_some())
    }

    /// Gives table `id`'s lease up at once (this node no longer serves
    /// it): another node may take it without waiting for it to expire.
    pub fn release(&self, id: &TableId) -> Result<(), ServerError> {
        Ok(self.store.give_up(id)?)
    }

    /// Forgets table `id`'s lease without releasing it (it is lost).
    pub fn forget(&self, id: &TableId) {
        self.store.forget(id);
    }

    /// Renews every lease held; the tables whose lease was lost.
    pub fn renew(&self) -> Result<Vec<TableId>, ServerError> {
        self.store.register_node(&self.node, &self.public_url)?;
        Ok(self.store.renew_held(self.ttl)?)
    }

    /// Whether this node still holds table `id`'s lease (no other node
    /// took it since).
    pub fn holds(&self, id: &TableId) -> Result<bool, ServerError> {
        Ok(self.store.holds(id)?)
    }

    /// Who serves table `id`, if any node took it.
    pub fn owner(&self, id: &TableId) -> Result<Option<Owner>, ServerError> {
        Ok(self.store.owner(id)?)
    }

    /// The live tables no node serves, to take over.
    pub fn orphans(&self) -> Result<Vec<TableRow>, ServerError> {
        Ok(self.store.orphans(&self.node, self.ttl, TAKE_PER_ROUND)?)
    }

    /// Publishes the lobby summaries of this node's public tables, as far
    /// as they changed since the last time (a move alone is not a change:
    /// the lobby shows seats, hands and the end, not each play), and takes
    /// those of tables it no longer lists out.
    pub fn publish_lobby(&self, tables: Vec<TableInfo>) -> Result<(), ServerError> {
        let mut published = self.published.lock().unwrap_or_else(|e| e.into_inner());
        let mut changes = Vec::new();
        let mut now = HashMap::new();
        for info in tables {
            let id = info.id.clone();
            let summary = Published {
                idle: info.idle,
                info,
            };
            let key = summary.key();
            if published.get(&id) != Some(&key) {
                let text = serde_json::to_string(&summary).expect("a summary serializes");
                changes.push((id.clone(), Some(text)));
            }
            now.insert(id, key);
        }
        for id in published.keys() {
            if !now.contains_key(id) {
                changes.push((id.clone(), None));
            }
        }
        self.store.publish_lobby(&changes)?;
        *published = now;
        Ok(())
    }

    /// The lobby summaries (JSON) of the public tables other nodes serve.
    pub fn lobby_elsewhere(&self) -> Result<Vec<TableInfo>, ServerError> {
        // A summary that does not read (another version's) is not listed.
        Ok(self
            .store
            .lobby_elsewhere(&self.node)?
            .iter()
            .filter_map(|summary| serde_json::from_str::<Published>(summary).ok())
            .map(Published::into_info)
            .collect())
    }

    /// The refusal that sends a client to table `id`'s owner, if another
    /// live node holds it.
    pub fn moved(&self, id: &TableId, owner: &Owner) -> Option<ServerError> {
        (owner.live && owner.node != self.node).then(|| match &owner.url {
            Some(url) => ServerError::Moved {
                table: id.to_string(),
                node: owner.node.clone(),
                url: url.clone(),
            },
            // Registered before it takes any table, so this is a node
            // whose row was removed by hand: nobody can be sent there.
            None => ServerError::Full(Full::NodeUnknown {
                table: id.clone(),
                node: owner.node.clone(),
            }),
        })
    }
}

/// The WebSocket address of table `id` on the node at `url` (`http` →
/// `ws`, `https` → `wss`).
///
/// ```
/// use dalmuti_server::cluster::ws_url;
/// let id = "ab12".into();
/// assert_eq!(ws_url("https://play.example/n/2/", &id), "wss://play.example/n/2/ws/ab12");
/// assert_eq!(ws_url("http://10.0.0.2:8080", &id), "ws://10.0.0.2:8080/ws/ab12");
/// ```
pub fn ws_url(url: &str, id: &TableId) -> String {
    let base = url.trim_end_matches('/');
    let base = match base.split_once("://") {
        Some(("https", rest)) => format!("wss://{rest}"),
        Some(("http", rest)) => format!("ws://{rest}"),
        _ => base.to_string(),
    };
    format!("{base}/ws/{id}")
}

/// The node's public address by default: where it listens, over HTTP.
pub fn default_public_url(addr: std::net::SocketAddr) -> String {
    format!("http://{addr}")
}

/// A node id by default: the host's name and the port, so two nodes on one
/// host differ (a node restarted with the same id takes its tables back
/// at once, without waiting for their leases to expire).
pub fn default_node_id(port: u16) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| {
            h.trim()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.'))
                .take(48)
                .collect::<String>()
        })
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "node".into());
    format!("{host}-{port}")
}

/// The marker a [`ServerError::Moved`] response carries for [`redirect`]:
/// the owner's address.
#[derive(Clone, Debug)]
pub(crate) struct MovedTo(pub String);

/// Middleware: a request for a table another node serves is answered 307
/// to the same path and query on that node (307 keeps the method and the
/// body), the JSON body saying where.
pub async fn redirect(request: Request, next: Next) -> Response {
    let path = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    let response = next.run(request).await;
    let Some(MovedTo(base)) = response.extensions().get::<MovedTo>().cloned() else {
        return response;
    };
    let location = format!("{}{path}", base.trim_end_matches('/'));
    let error = match axum::body::to_bytes(response.into_body(), 4096).await {
        Ok(bytes) => serde_json::from_slice::<ErrorBody>(&bytes)
            .map(|body| body.error)
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    let mut response = (
        StatusCode::TEMPORARY_REDIRECT,
        axum::Json(ErrorBody {
            error,
            moved: Some(location.clone()),
        }),
    )
        .into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}
