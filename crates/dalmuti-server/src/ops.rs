//! The endpoints for whoever runs the server (`docs/DEPLOY.md`, "Health,
//! metrics and logs"):
//!
//! - `GET /healthz`: the process is up and its event loop answers (the
//!   answer itself is the proof): 200 `{"status": "ok"}`. A liveness
//!   probe: restart the process when it fails.
//! - `GET /readyz`: the node can serve: it is not draining and its
//!   database answers a query that reads nothing within
//!   [`READY_TIMEOUT`]. 200 `{"status": "ok"}`, else 503 with
//!   `{"status": "draining" | "unavailable", "reason": …}`. A readiness
//!   probe: send no new players here while it fails.
//! - `GET /metrics`: [`crate::metrics`] in the OpenMetrics text format.
//!
//! None of them reads a table or waits for one: a node busy with its
//! tables still answers them at once, and a stuck database costs
//! `/readyz` its bound, no more.

use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::metrics::StoreOp;
use crate::registry::AppState;

/// How long `/readyz` waits for the database: a database slower than this
/// to answer `SELECT 1` is as good as down for players, whose every
/// action waits for a write.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// The three routes, for [`crate::http::router`].
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
}

/// A probe's answer: `ok`, or why not.
#[derive(serde::Serialize)]
struct Health<'a> {
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

const HEALTHY: Health<'static> = Health {
    status: "ok",
    reason: None,
};

async fn healthz() -> Json<Health<'static>> {
    Json(HEALTHY)
}

async fn readyz(State(state): State<AppState>) -> Response {
    if state.is_draining() {
        let reason = "this node is draining: its tables are moving to other nodes";
        return unready("draining", reason);
    }
    match database_answers(&state, READY_TIMEOUT).await {
        Ok(()) => Json(HEALTHY).into_response(),
        Err(reason) => unready("unavailable", &reason),
    }
}

fn unready(status: &str, reason: &str) -> Response {
    let body = Health {
        status,
        reason: Some(reason),
    };
    (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
}

/// Whether the store answers its ping within `bound`; if not, why (for
/// the probe's answer: the store's own error, which may name hosts, goes
/// to the log only).
async fn database_answers(state: &AppState, bound: Duration) -> Result<(), String> {
    let deadline = tokio::time::Instant::now() + bound;
    let secs = bound.as_secs_f64();
    let health = state.health();
    let Ok(Ok(permit)) =
        tokio::time::timeout_at(deadline, health.checking.clone().acquire_owned()).await
    else {
        tracing::warn!(
            bound_s = secs,
            "readiness: an earlier database check is still waiting"
        );
        return Err(format!(
            "database: no answer within {secs} s (an earlier check is still waiting)"
        ));
    };
    let (store, metrics) = (state.store().clone(), state.metrics().clone());
    let ping = tokio::task::spawn_blocking(move || {
        let _one_at_a_time = permit;
        metrics.time(StoreOp::Ping, || store.ping())
    });
    match tokio::time::timeout_at(deadline, ping).await {
        Ok(Ok(Ok(()))) => Ok(()),
        Ok(Ok(Err(e))) => {
            tracing::warn!(error = %e, "readiness: the database check failed");
            Err("database: the check failed (the server's log says why)".into())
        }
        Ok(Err(_)) => {
            tracing::error!("readiness: the database check panicked");
            Err("database: the check failed (the server's log says why)".into())
        }
        Err(_) => {
            tracing::warn!(
                bound_s = secs,
                "readiness: the database did not answer in time"
            );
            Err(format!("database: no answer within {secs} s"))
        }
    }
}

async fn metrics(State(state): State<AppState>) -> Response {
    let metrics = state.metrics();
    metrics.set_connections(state.open_connections());
    (
        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
        metrics.render(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;
    use std::sync::{Arc, Mutex, mpsc};

    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use http_body_util::BodyExt;
    use serde_json::Value;
    use tower::ServiceExt;

    use crate::Config;
    use crate::http::{AppState, router};
    use crate::store::faulty::{Faulty, Ping};
    use crate::store::{SqliteStore, Store};

    async fn get(app: &axum::Router, uri: &str) -> (StatusCode, Value) {
        let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    fn state(store: Arc<dyn Store>) -> AppState {
        AppState::open(store, Config::for_tests()).unwrap()
    }

    #[tokio::test]
    async fn healthy_and_ready_until_the_node_drains() {
        let state = state(Arc::new(SqliteStore::in_memory().unwrap()));
        let app = router(state.clone());
        assert_eq!(
            get(&app, "/healthz").await,
            (StatusCode::OK, serde_json::json!({"status": "ok"}))
        );
        assert_eq!(
            get(&app, "/readyz").await,
            (StatusCode::OK, serde_json::json!({"status": "ok"}))
        );
        let metrics = state.metrics().render();
        assert_eq!(
            crate::metrics::tests::sample(&metrics, "dalmuti_store_seconds_count{op=\"ping\"}"),
            Some(1.0),
            "the check is timed"
        );

        state.set_draining(true);
        assert!(state.is_draining());
        let (status, body) = get(&app, "/readyz").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["status"], "draining", "{body}");
        assert!(
            body["reason"].as_str().unwrap().contains("draining"),
            "{body}"
        );
        // Alive all the same: nothing to restart.
        assert_eq!(get(&app, "/healthz").await.0, StatusCode::OK);

        state.set_draining(false);
        assert_eq!(get(&app, "/readyz").await.0, StatusCode::OK);
    }

    #[tokio::test]
    async fn not_ready_while_the_database_fails_and_its_error_stays_in_the_log() {
        let store = Faulty::new(Ping::Fails);
        let app = router(state(store.clone()));
        let (status, body) = get(&app, "/readyz").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["status"], "unavailable", "{body}");
        let reason = body["reason"].as_str().unwrap();
        assert!(reason.starts_with("database: the check failed"), "{body}");
        assert!(
            !reason.contains("db.internal"),
            "no host in the answer: {body}"
        );
        assert_eq!(store.pings.load(Ordering::SeqCst), 1);
        assert_eq!(get(&app, "/healthz").await.0, StatusCode::OK);
    }

    /// A database that never answers: the probe answers 503 within its
    /// bound, and probes after it wait for the one check under way
    /// instead of each holding another blocking thread.
    ///
    /// On the real clock (two seconds a probe): tokio's paused clock does
    /// not move while a blocking task runs, and the check is one.
    #[tokio::test]
    async fn a_stuck_database_costs_the_probe_its_bound_and_one_thread() {
        let (release, hang) = mpsc::channel();
        let store = Faulty::new(Ping::Hangs(Mutex::new(hang)));
        let app = router(state(store.clone()));
        let start = std::time::Instant::now();
        let (status, body) = get(&app, "/readyz").await;
        let took = start.elapsed();
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            body["reason"]
                .as_str()
                .unwrap()
                .contains("no answer within 2 s"),
            "{body}"
        );
        assert!(
            took >= super::READY_TIMEOUT && took < super::READY_TIMEOUT * 3,
            "{took:?}"
        );
        let (status, body) = get(&app, "/readyz").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            body["reason"].as_str().unwrap().contains("still waiting"),
            "{body}"
        );
        assert_eq!(store.pings.load(Ordering::SeqCst), 1, "one check at a time");
        // The database answers again: so does the probe.
        release.send(()).unwrap();
        drop(release);
        assert_eq!(
            get(&app, "/readyz").await.0,
            StatusCode::OK,
            "ready once the database answers"
        );
    }

    #[tokio::test]
    async fn metrics_are_openmetrics_text_with_the_node() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let config = Config {
            node_id: Some("node-7".into()),
            ..Config::for_tests()
        };
        let app = router(AppState::open(store, config).unwrap());
        let request = Request::builder()
            .uri("/metrics")
            .body(Body::empty())
            .unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()["content-type"],
            crate::metrics::CONTENT_TYPE
        );
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        let sample = |name: &str| crate::metrics::tests::sample(&text, name);
        assert_eq!(
            sample("dalmuti_node_info{node=\"node-7\"}"),
            Some(1.0),
            "{text}"
        );
        assert_eq!(sample("dalmuti_connections"), Some(0.0), "{text}");
        assert_eq!(sample("dalmuti_tables"), Some(0.0), "{text}");
        assert!(text.ends_with("# EOF\n"));
    }
}
