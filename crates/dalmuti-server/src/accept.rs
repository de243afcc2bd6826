//! The accept loop: each TCP connection served by hyper-util's builder
//! (HTTP/1, with a timer), so request headers that never end are cut off
//! (`axum::serve` cannot set that), WebSocket upgrades kept working, at
//! most [`Config::max_per_address`] connections per client address, and a
//! graceful shutdown.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use crate::Config;
use crate::limits::{PerAddress, Slot};

/// The connection slot a request came in on, in its extensions: a
/// WebSocket keeps it for as long as it is open, since the HTTP
/// connection is done once upgraded.
#[derive(Clone, Debug)]
pub struct ConnectionSlot(pub Arc<Slot>);

/// How long the server waits for connections to finish their requests
/// once it stops.
const DRAIN: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `shutdown` completes; then calls
/// `stopping` (to close the WebSockets), lets open requests finish and
/// returns.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    config: &Config,
    shutdown: impl Future<Output = ()>,
    stopping: impl FnOnce(),
) {
    let mut http = auto::Builder::new(TokioExecutor::new()).http1_only();
    http.http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout);
    let per_address = PerAddress::new(config.max_per_address);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors and the like: wait, do not spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = per_address.try_take(addr.ip()) else {
            tokio::spawn(refuse(stream, per_address.max()));
            continue;
        };
        let slot = ConnectionSlot(Arc::new(slot));
        let app = app.clone();
        let service = tower::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(addr));
            request.extensions_mut().insert(slot.clone());
            app.clone().oneshot(request)
        });
        let (http, watcher) = (http.clone(), graceful.watcher());
        let silence = config.header_timeout;
        tokio::spawn(async move {
            // A connection that never sends a byte is closed when the
            // headers are due (hyper's header timer starts at the first
            // byte): silent sockets must not pile up to the descriptor
            // limit (issue 24, S3).
            let mut first = [0u8; 1];
            match tokio::time::timeout(silence, stream.peek(&mut first)).await {
                Ok(Ok(n)) if n > 0 => {}
                _ => return,
            }
            let connection = http.serve_connection_with_upgrades(
                TokioIo::new(stream),
                TowerToHyperService::new(service),
            );
            let _ = watcher.watch(connection.into_owned()).await;
        });
    }
    stopping();
    drop(listener);
    let _ = tokio::time::timeout(DRAIN, graceful.shutdown()).await;
}

/// Answers a connection over its address's cap with a 429 and closes it.
async fn refuse(mut stream: TcpStream, max: usize) {
    // Read what the client sent first: closing on unread data resets
    // the connection, and the client might never see the answer.
    let mut request = [0u8; 8192];
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.read(&mut request)).await;
    let body = crate::error::ErrorBody::new(format!(
        "too many connections from your address: at most {max} at once"
    ))
    .to_text();
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 10\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}
