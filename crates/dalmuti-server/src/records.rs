//! Finished games, served from the store: a game that is over leaves
//! memory (`table::expiry`) and is kept as its log and lobby summary. Its
//! record, replay and fairness data are rebuilt from the log in the
//! [`Archive`]: once each, one game at a time on the blocking pool (not
//! where tables run, nor under the bots' budget), and kept, serialized and
//! compressed in every encoding served, so that a crowd asking for a long
//! game's replay costs one build (issue 24, S1: 24 request loops on a
//! 60-hand replay froze every table).
//!
//! What a download may cost is bounded too (issue 40: twelve downloads
//! of an 18 MB replay at once from one address, asking for `br`, which
//! was compressed again for each, took other tables from 179 events a
//! second to 4): a kept answer is sent as it was kept, whatever encoding
//! is asked (identity, gzip or brotli), without reading the store; and
//! [`Downloads`] says how many an address may ask for in a while, how many
//! it may be sent at once, and how many are sent at once in all. Past a
//! bound the request is refused at once, with when to try again
//! (`docs/PROTOCOL.md`, Downloads): a busy server keeps its tables
//! playing first.

use std::io::Write;
use std::net::IpAddr;
use std::num::NonZeroUsize;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use lru::LruCache;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::{Conflict, ServerError};
use crate::ids::TableId;
use crate::limits::{CreationLimit, PerAddress, Slot};
use crate::metrics::StoreOp;
use crate::store::TableRow;
use crate::table::{self, Context, TableHandle, TableInfo, TableState};

/// A finished game kept in the store: its row and lobby summary (INFO).
pub fn find(ctx: &Context, id: &TableId) -> Result<(TableRow, TableInfo), ServerError> {
    ctx.store
        .finished_table(id)?
        .ok_or_else(|| ServerError::NoTable(id.clone()))
}

/// A finished game's lobby summary, read on the blocking pool.
pub async fn summary(ctx: &Context, id: &TableId) -> Result<TableInfo, ServerError> {
    let (ctx, id) = (ctx.clone(), id.clone());
    tokio::task::spawn_blocking(move || find(&ctx, &id))
        .await
        .map_err(|_| {
            ServerError::Storage(crate::store::StoreError::Failed(
                "reading a finished game failed".into(),
            ))
        })?
        .map(|(_, info)| info)
}

/// The finished game `id` rebuilt from its log.
pub async fn replayed(
    ctx: &Context,
    archive: &Archive,
    id: &TableId,
) -> Result<TableState, ServerError> {
    let (ctx, id) = (ctx.clone(), id.clone());
    // Found and replayed on the blocking pool, in the archive's turn.
    archive
        .run(move || {
            let (row, _) = find(&ctx, &id)?;
            ctx.metrics.time(StoreOp::Replay, || {
                table::replay_log(ctx.store.as_ref(), row)
            })
        })
        .await?
}

/// A table actor over a finished game, for one WebSocket: it answers
/// `hello` with the final state and refuses every action (the game is
/// over); it stops when its connection drops the handle.
pub async fn revive(
    ctx: &Context,
    archive: &Archive,
    id: &TableId,
) -> Result<TableHandle, ServerError> {
    let state = replayed(ctx, archive, id).await?;
    let ctx = Context {
        lifetimes: None,
        ..ctx.clone()
    };
    // Its kept talk is read from the store: on the blocking pool.
    tokio::task::spawn_blocking(move || table::revive(ctx, state))
        .await
        .map_err(|_| {
            ServerError::Storage(crate::store::StoreError::Failed(
                "reviving a finished game stopped".into(),
            ))
        })?
}

/// Requests that change a table are refused once its game is over.
pub fn over(id: &TableId) -> ServerError {
    ServerError::Conflict(Conflict::GameOver {
        table: id.to_string(),
    })
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

/// What downloads of finished games (their records, replays and
/// fairness data) may cost (issue 40): each address may ask for `burst`
/// at once and then one every `interval`, and be sent `per_address` at
/// once; `at_once` are sent at once over every address. Past a bound a
/// request is refused at once (429, or 503 when the server is at
/// `at_once`), with a `Retry-After`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Downloads {
    /// Downloads sent at once, over every address.
    pub at_once: usize,
    /// Downloads one address is sent at once.
    pub per_address: usize,
    /// Downloads one address may ask for at once…
    pub burst: u32,
    /// …and then one per this interval.
    pub interval: Duration,
}

impl Default for Downloads {
    /// 8 at once in all, 2 at once per address, and 20 asked for at once
    /// per address, then 2 a second: a person opening replays one after
    /// another never meets them; twelve download loops from one address
    /// get two at a time.
    fn default() -> Downloads {
        Downloads {
            at_once: 8,
            per_address: 2,
            burst: 20,
            interval: Duration::from_millis(500),
        }
    }
}

/// Seconds a client refused for holding its address's share of
/// downloads is asked to wait: about what the one under way takes.
const SHARE_RETRY: u64 = 1;
/// Seconds a client is asked to wait while the server sends as many
/// downloads as it may.
const BUSY_RETRY: u64 = 2;

/// A download let in ([`Archive::admit`]): its place among the downloads
/// sent, given back once its body is sent (or its client gone).
pub struct Admitted {
    _slot: Slot,
    _permit: OwnedSemaphorePermit,
}

/// An encoding a finished game's answer is kept in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    /// Each, the smallest first: of encodings the client likes as well,
    /// the first is sent.
    const ALL: [Encoding; 3] = [Encoding::Brotli, Encoding::Gzip, Encoding::Identity];

    fn token(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
            Encoding::Identity => "identity",
        }
    }

    /// The encoding a request's `Accept-Encoding` likes best (RFC 9110,
    /// 12.5.3: each coding's `q`, `*` for those not named, identity
    /// welcome unless refused); identity without the header, or if the
    /// client refuses everything (a 406 would only lose the download).
    fn chosen(asked: &HeaderMap) -> Encoding {
        let mut listed: Vec<(String, f32)> = Vec::new();
        for item in asked
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
        {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            if coding.is_empty() {
                continue;
            }
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0)
                .clamp(0.0, 1.0);
            listed.push((coding, q));
        }
        if listed.is_empty() {
            return Encoding::Identity;
        }
        let weight = |coding: &str| {
            let named = |c: &str| listed.iter().find(|(l, _)| l == c).map(|(_, q)| *q);
            named(coding)
                .or_else(|| named("*"))
                .unwrap_or(if coding == "identity" { 1.0 } else { 0.0 })
        };
        let mut best = (Encoding::Identity, 0.0);
        for encoding in Encoding::ALL {
            let q = weight(encoding.token());
            if q > best.1 {
                best = (encoding, q);
            }
        }
        best.0
    }
}

/// One answer about a finished game, serialized once and kept in every
/// encoding served, with its ETag.
pub struct Served {
    tag: HeaderValue,
    json: Bytes,
    gzip: Bytes,
    brotli: Bytes,
}

impl Served {
    /// Serialized and compressed (run on the blocking pool: a long
    /// game's replay is megabytes).
    fn new(value: &impl serde::Serialize, tag: HeaderValue) -> Served {
        let json = serde_json::to_vec(value).expect("JSON serializes");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(5));
        gz.write_all(&json).expect("writing to memory");
        let gzip = gz.finish().expect("writing to memory");
        // Brotli at the quality the compression layer uses: a tenth of a
        // second for 18 MB, once.
        let params = brotli::enc::BrotliEncoderParams {
            quality: 5,
            ..Default::default()
        };
        let mut brotli = Vec::new();
        brotli::BrotliCompress(&mut json.as_slice(), &mut brotli, &params)
            .expect("writing to memory");
        Served {
            tag,
            json: json.into(),
            gzip: gzip.into(),
            brotli: brotli.into(),
        }
    }

    /// Bytes held.
    fn size(&self) -> usize {
        self.json.len() + self.gzip.len() + self.brotli.len()
    }

    /// The answer to a request with headers `asked`: a `304` if it names
    /// the ETag, else the body in the encoding it likes best, sent as
    /// kept (the compression layer leaves it alone, [`crate::transfer::Encoded`]),
    /// `admitted` held until it is sent.
    pub fn response(&self, asked: &HeaderMap, admitted: Admitted) -> Response {
        if crate::transfer::not_modified(asked, &self.tag) {
            return crate::transfer::unchanged(&self.tag);
        }
        let encoding = Encoding::chosen(asked);
        let bytes = match encoding {
            Encoding::Brotli => self.brotli.clone(),
            Encoding::Gzip => self.gzip.clone(),
            Encoding::Identity => self.json.clone(),
        };
        let mut response = Body::new(Sending {
            bytes,
            _admitted: admitted,
        })
        .into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        headers.insert(header::ETAG, self.tag.clone());
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        if encoding != Encoding::Identity {
            headers.insert(
                header::CONTENT_ENCODING,
                HeaderValue::from_static(encoding.token()),
            );
        }
        response.extensions_mut().insert(crate::transfer::Encoded);
        response
    }
}

/// The most bytes a download's body gives at once: a long replay goes
/// out in pieces, each write a short step beside the tables' own.
const PIECE: usize = 256 << 10;

/// A download's body: kept bytes, in pieces, holding the download's
/// place until the last is taken (or the client is gone).
struct Sending {
    bytes: Bytes,
    _admitted: Admitted,
}

impl http_body::Body for Sending {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        if self.bytes.is_empty() {
            return Poll::Ready(None);
        }
        let n = self.bytes.len().min(PIECE);
        let piece = self.bytes.split_to(n);
        Poll::Ready(Some(Ok(http_body::Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.bytes.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.bytes.len() as u64)
    }
}

/// How many bytes of answers the archive keeps, at most.
const ARCHIVE_BYTES: usize = 64 << 20;

/// How long a request waits for the archive's turn before a 503.
const ARCHIVE_WAIT: Duration = Duration::from_secs(10);

/// Finished games' answers, built one at a time and kept, newest used
/// first, up to 64 MiB; and the bounds on their downloads.
pub struct Archive {
    kept: Mutex<Shelf>,
    /// One build at a time: a crowd of requests waits for it and then
    /// finds the answer kept.
    turn: Arc<Semaphore>,
    limits: Downloads,
    /// Downloads being sent, over every address.
    sending: Arc<Semaphore>,
    /// Downloads being sent, per address.
    per_address: Arc<PerAddress>,
    /// Downloads asked for, per address.
    asked: CreationLimit,
}

struct Shelf {
    answers: LruCache<(TableId, Kept), Arc<Served>>,
    bytes: usize,
}

impl Default for Archive {
    fn default() -> Archive {
        Archive::new(Downloads::default())
    }
}

impl Archive {
    /// An empty archive whose downloads are bounded by `limits`.
    pub fn new(limits: Downloads) -> Archive {
        Archive {
            kept: Mutex::new(Shelf {
                answers: LruCache::new(NonZeroUsize::new(1024).expect("a capacity")),
                bytes: 0,
            }),
            turn: Arc::new(Semaphore::new(1)),
            limits,
            sending: Arc::new(Semaphore::new(limits.at_once.max(1))),
            per_address: PerAddress::new(limits.per_address.max(1)),
            asked: CreationLimit::new(limits.burst, limits.interval, "downloads"),
        }
    }

    /// Lets a download from `ip` in, or refuses it with when to try
    /// again: past the address's rate (429), its share of downloads sent
    /// at once (429), or the server's (503).
    pub fn admit(&self, ip: IpAddr) -> Result<Admitted, ServerError> {
        self.asked.check(ip)?;
        let slot = self.per_address.try_take(ip).ok_or_else(|| {
            let n = self.limits.per_address;
            ServerError::RateLimited {
                reason: format!(
                    "too many downloads from your address at once: at most {n}; \
                     try again in {SHARE_RETRY} s, once one is done"
                ),
                retry_after: SHARE_RETRY,
            }
        })?;
        let permit = self.sending.clone().try_acquire_owned().map_err(|_| {
            let n = self.limits.at_once;
            ServerError::Busy {
                reason: format!(
                    "the server is sending as many downloads as it may ({n} at once), \
                     so that its tables play on: try again in {BUSY_RETRY} s"
                ),
                retry_after: BUSY_RETRY,
            }
        })?;
        Ok(Admitted {
            _slot: slot,
            _permit: permit,
        })
    }

    /// Runs `work` on the blocking pool in the archive's turn: a 503 if
    /// the turn does not come within [`ARCHIVE_WAIT`].
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ServerError> {
        let _turn = self.my_turn().await?;
        tokio::task::spawn_blocking(work).await.map_err(|_| {
            ServerError::Storage(crate::store::StoreError::Failed(
                "replaying the game failed".into(),
            ))
        })
    }

    /// The archive's turn, within [`ARCHIVE_WAIT`].
    async fn my_turn(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ServerError> {
        tokio::time::timeout(ARCHIVE_WAIT, self.turn.clone().acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| {
                let wait = ARCHIVE_WAIT.as_secs() / 2;
                ServerError::Busy {
                    reason: format!("the server is busy building replays: try again in {wait} s"),
                    retry_after: wait,
                }
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

    /// `what` of game `id` if it is kept: a finished game's answers never
    /// change, so nothing else is read.
    pub fn kept(&self, ctx: &Context, id: &TableId, what: Kept) -> Option<Arc<Served>> {
        let served = self.get(id, what)?;
        ctx.metrics.archive_answer(false);
        Some(served)
    }

    /// `what` of game `id`, which is over, tagged `tag`: kept, or built
    /// from its log in the archive's turn (the store read, the game
    /// replayed, the answer serialized and compressed on the blocking
    /// pool).
    pub async fn served(
        &self,
        ctx: &Context,
        id: &TableId,
        what: Kept,
        tag: HeaderValue,
    ) -> Result<Arc<Served>, ServerError> {
        if let Some(served) = self.kept(ctx, id, what) {
            return Ok(served);
        }
        let _turn = self.my_turn().await?;
        // Built while this request waited its turn.
        if let Some(served) = self.kept(ctx, id, what) {
            return Ok(served);
        }
        let (building, owned) = (ctx.clone(), id.clone());
        let served = tokio::task::spawn_blocking(move || {
            let (store, metrics) = (&building.store, &building.metrics);
            let row = match store.live_table(&owned)? {
                Some(row) => row,
                None => find(&building, &owned)?.0,
            };
            let state = metrics.time(StoreOp::Replay, || table::replay_log(store.as_ref(), row))?;
            let served = match what {
                Kept::Record => Served::new(&state.record()?, tag),
                Kept::Replay => Served::new(&state.replay()?, tag),
                Kept::Fairness if state.is_over() => Served::new(&state.fairness(), tag),
                Kept::Fairness => {
                    return Err(ServerError::Conflict(Conflict::NotOverYet {
                        what: "fairness",
                    }));
                }
            };
            Ok::<_, ServerError>(Arc::new(served))
        })
        .await
        .map_err(|_| {
            ServerError::Storage(crate::store::StoreError::Failed(
                "replaying the game failed".into(),
            ))
        })??;
        ctx.metrics.archive_answer(true);
        self.put(id, what, served.clone());
        Ok(served)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        h
    }

    #[test]
    fn the_encoding_sent_is_the_one_the_client_likes_best() {
        use Encoding::*;
        assert_eq!(Encoding::chosen(&HeaderMap::new()), Identity);
        for (asked, sent) in [
            ("identity", Identity),
            ("gzip", Gzip),
            ("br", Brotli),
            ("gzip, br", Brotli),
            ("gzip, deflate, br, zstd", Brotli),
            ("br;q=0.5, gzip", Gzip),
            ("BR;Q=0.9, GZIP;q=0.8", Brotli),
            ("gzip;q=0, identity", Identity),
            ("*", Brotli),
            ("*;q=0.1, identity;q=0.5", Identity),
            ("deflate", Identity),
            ("identity;q=0, *;q=0", Identity),
            ("br;q=0", Identity),
        ] {
            assert_eq!(Encoding::chosen(&asking(asked)), sent, "{asked}");
        }
    }

    #[test]
    fn an_address_is_refused_past_its_rate_and_its_share_the_server_past_its_own() {
        let archive = Archive::new(Downloads {
            at_once: 3,
            per_address: 2,
            burst: 10,
            interval: Duration::from_secs(60),
        });
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = archive.admit(a).unwrap();
        let _second = archive.admit(a).unwrap();
        match archive.admit(a) {
            Err(ServerError::RateLimited {
                reason,
                retry_after,
            }) => {
                assert_eq!(retry_after, SHARE_RETRY);
                assert!(reason.contains("at most 2"), "{reason}");
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        let _third = archive.admit(b).unwrap();
        match archive.admit(b) {
            Err(ServerError::Busy {
                reason,
                retry_after,
            }) => {
                assert_eq!(retry_after, BUSY_RETRY);
                assert!(reason.contains("3 at once"), "{reason}");
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        drop(first);
        let _again = archive.admit(b).unwrap();
        // The rate: ten asked for in all from a, then a refusal that says
        // when (sent or refused, each counts).
        let refused = (0..10).filter_map(|_| archive.admit(a).err()).last();
        match refused {
            Some(ServerError::RateLimited {
                reason,
                retry_after,
            }) => {
                assert!(reason.contains("too many downloads"), "{reason}");
                assert!(!reason.contains("at once"), "the rate's: {reason}");
                assert!((1..=60).contains(&retry_after), "{retry_after}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_answer_is_kept_in_every_encoding_and_each_decodes_to_the_json() {
        let value = serde_json::json!({"frames": vec!["a long replay"; 1000]});
        let served = Served::new(&value, crate::transfer::etag(b"x"));
        let json = serde_json::to_vec(&value).unwrap();
        assert_eq!(served.json, json);
        let mut gunzipped = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(served.gzip.as_ref()),
            &mut gunzipped,
        )
        .unwrap();
        assert_eq!(gunzipped, json);
        let mut unbrotlied = Vec::new();
        brotli::BrotliDecompress(&mut served.brotli.as_ref(), &mut unbrotlied).unwrap();
        assert_eq!(unbrotlied, json);
        assert!(served.brotli.len() < json.len() / 10 && served.gzip.len() < json.len() / 10);
    }
}
