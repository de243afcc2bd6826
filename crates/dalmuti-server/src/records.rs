//! Finished games, served from the store: a game that is over leaves
//! memory (`table::expiry`) and is kept as its log and lobby summary. Its
//! record, replay and fairness data are rebuilt from the log in the
//! [`Archive`]: once each, one game at a time on the blocking pool (not
//! where tables run, nor under the bots' budget), and kept, serialized and
//! compressed, so that a crowd asking for a long game's replay costs one
//! build (issue 24, S1: 24 request loops on a 60-hand replay froze every
//! table).

use std::io::Write;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use lru::LruCache;
use tokio::sync::Semaphore;

use crate::error::ServerError;
use crate::ids::TableId;
use crate::metrics::StoreOp;
use crate::store::TableRow;
use crate::table::{self, Context, TableHandle, TableInfo, TableState};

/// A finished game kept in the store: its row and lobby summary (INFO).
pub fn find(ctx: &Context, id: &TableId) -> Result<(TableRow, TableInfo), ServerError> {
    let (row, summary) = ctx
        .store
        .finished_table(id)?
        .ok_or_else(|| ServerError::NoTable(id.to_string()))?;
    let summary = serde_json::from_str(&summary)
        .map_err(|e| ServerError::Storage(format!("table {id}'s summary: {e}")))?;
    Ok((row, summary))
}

/// The finished game `id` rebuilt from its log.
pub async fn replayed(ctx: &Context, id: &TableId) -> Result<TableState, ServerError> {
    let (row, _) = find(ctx, id)?;
    let (store, metrics) = (ctx.store.clone(), ctx.metrics.clone());
    ctx.archive
        .run(move || metrics.time(StoreOp::Replay, || table::replay_log(store.as_ref(), row)))
        .await?
}

/// A table actor over a finished game, for one WebSocket: it answers
/// `hello` with the final state and refuses every action (the game is
/// over); it stops when its connection drops the handle.
pub async fn revive(ctx: &Context, id: &TableId) -> Result<TableHandle, ServerError> {
    let state = replayed(ctx, id).await?;
    let ctx = Context {
        lifetimes: None,
        ..ctx.clone()
    };
    table::revive(ctx, state)
}

/// Requests that change a table are refused once its game is over.
pub fn over(id: &TableId) -> ServerError {
    ServerError::Conflict(format!(
        "the game at table {id} is over: its record is at /api/tables/{id}/record"
    ))
}

/// What is served of a game that is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kept {
    /// Its record (`/record`), a download.
    Record,
    /// Every step of it (`/replay`).
    Replay,
    /// Its deal commitments and seeds (`/fairness`).
    Fairness,
}

/// One answer about a finished game, serialized once, with its gzip.
pub struct Served {
    json: Bytes,
    gzip: Bytes,
}

impl Served {
    fn new(value: &impl serde::Serialize) -> Served {
        let json = serde_json::to_vec(value).expect("JSON serializes");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(5));
        gz.write_all(&json).expect("writing to memory");
        let gzip = gz.finish().expect("writing to memory");
        Served {
            json: json.into(),
            gzip: gzip.into(),
        }
    }

    /// Bytes held.
    fn size(&self) -> usize {
        self.json.len() + self.gzip.len()
    }

    /// The answer to a request with headers `asked`: gzip if it takes
    /// gzip (the compression layer leaves an encoded body alone).
    pub fn response(&self, asked: &HeaderMap) -> Response {
        let gzip = asked
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|e| {
                let mut parts = e.split(';');
                let coding = parts.next().unwrap_or("").trim();
                let refused = parts.any(|q| matches!(q.trim(), "q=0" | "q=0.0" | "q=0.00"));
                coding.eq_ignore_ascii_case("gzip") && !refused
            });
        let json = HeaderValue::from_static("application/json");
        let vary = HeaderValue::from_static("accept-encoding");
        if gzip {
            let encoding = HeaderValue::from_static("gzip");
            let headers = [
                (header::CONTENT_TYPE, json),
                (header::CONTENT_ENCODING, encoding),
                (header::VARY, vary),
            ];
            (headers, self.gzip.clone()).into_response()
        } else {
            let headers = [(header::CONTENT_TYPE, json), (header::VARY, vary)];
            (headers, self.json.clone()).into_response()
        }
    }
}

/// How many bytes of answers the archive keeps, at most.
const ARCHIVE_BYTES: usize = 64 << 20;

/// How long a request waits for the archive's turn before a 503.
const ARCHIVE_WAIT: Duration = Duration::from_secs(10);

/// Finished games' answers, built one at a time and kept, newest used
/// first, up to 64 MiB.
pub struct Archive {
    kept: Mutex<Shelf>,
    /// One build at a time: a crowd of requests waits for it and then
    /// finds the answer kept.
    turn: Arc<Semaphore>,
}

struct Shelf {
    answers: LruCache<(TableId, Kept), Arc<Served>>,
    bytes: usize,
}

impl Default for Archive {
    fn default() -> Archive {
        Archive {
            kept: Mutex::new(Shelf {
                answers: LruCache::new(NonZeroUsize::new(1024).expect("a capacity")),
                bytes: 0,
            }),
            turn: Arc::new(Semaphore::new(1)),
        }
    }
}

impl Archive {
    /// Runs `work` on the blocking pool in the archive's turn: a 503 if
    /// the turn does not come within [`ARCHIVE_WAIT`].
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ServerError> {
        let _turn = self.my_turn().await?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| ServerError::Storage("replaying the game failed".into()))
    }

    /// The archive's turn, within [`ARCHIVE_WAIT`].
    async fn my_turn(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ServerError> {
        tokio::time::timeout(ARCHIVE_WAIT, self.turn.clone().acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| {
                ServerError::Full(
                    "the server is busy building replays: try again in a moment".into(),
                )
            })
    }

    fn get(&self, id: &TableId, what: Kept) -> Option<Arc<Served>> {
        let mut shelf = self.kept.lock().expect("the archive's lock");
        shelf.answers.get(&(id.clone(), what)).cloned()
    }

    fn put(&self, id: &TableId, what: Kept, served: Arc<Served>) {
        let mut shelf = self.kept.lock().expect("the archive's lock");
        shelf.bytes += served.size();
        if let Some((_, old)) = shelf.answers.push((id.clone(), what), served) {
            shelf.bytes -= old.size();
        }
        while shelf.bytes > ARCHIVE_BYTES {
            match shelf.answers.pop_lru() {
                Some((_, old)) => shelf.bytes -= old.size(),
                None => break,
            }
        }
    }

    /// `what` of game `id`, which is over: kept, or built from its log.
    pub async fn served(
        &self,
        ctx: &Context,
        id: &TableId,
        what: Kept,
    ) -> Result<Arc<Served>, ServerError> {
        if let Some(served) = self.get(id, what) {
            ctx.metrics.archive_answer(false);
            return Ok(served);
        }
        let _turn = self.my_turn().await?;
        // Built while this request waited its turn.
        if let Some(served) = self.get(id, what) {
            ctx.metrics.archive_answer(false);
            return Ok(served);
        }
        let row = match ctx.store.live_table(id)? {
            Some(row) => row,
            None => find(ctx, id)?.0,
        };
        let (store, metrics) = (ctx.store.clone(), ctx.metrics.clone());
        let served = tokio::task::spawn_blocking(move || {
            let state = metrics.time(StoreOp::Replay, || table::replay_log(store.as_ref(), row))?;
            let served = match what {
                Kept::Record => Served::new(&state.record()?),
                Kept::Replay => Served::new(&state.replay()?),
                Kept::Fairness if state.is_over() => Served::new(&state.fairness()),
                Kept::Fairness => {
                    return Err(ServerError::Conflict("the game is not over".into()));
                }
            };
            Ok::<_, ServerError>(Arc::new(served))
        })
        .await
        .map_err(|_| ServerError::Storage("replaying the game failed".into()))??;
        ctx.metrics.archive_answer(true);
        self.put(id, what, served.clone());
        Ok(served)
    }
}
