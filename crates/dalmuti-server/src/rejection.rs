//! Every HTTP error the server answers is `{"error": REASON}`
//! (`docs/PROTOCOL.md`), including those our handlers never see: unknown
//! routes, wrong methods, extractor rejections (a bad query string, a
//! WebSocket request without its upgrade headers), request timeouts.
//! Handlers' own errors are already JSON ([`ServerError`]); this layer
//! rewrites the rest, keeping their status and headers (`Allow` on 405).

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{NotFound, ServerError};

/// The longest plain-text error body kept as the reason.
const MAX_REASON: usize = 2048;

/// The fallback for a path no route serves: 404 with the path.
pub async fn not_found(method: Method, uri: Uri) -> Response {
    let (method, path) = (method.to_string(), uri.path().to_string());
    ServerError::NotFound(NotFound::Path { method, path }).into_response()
}

/// Middleware: an error response that is not JSON gets a JSON body that
/// says what is wrong.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(&response) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_REASON)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let reason = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allow = parts
                .headers
                .get(header::ALLOW)
                .and_then(|a| a.to_str().ok())
                .unwrap_or("");
            format!("{method} is not allowed on {path}: use {allow}")
        }
        StatusCode::REQUEST_TIMEOUT => {
            "the request was not received and answered in time: send the whole request at once"
                .to_string()
        }
        _ if !text.is_empty() => text,
        _ => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
    };
    let body = crate::error::ErrorBody::new(reason).to_text();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|c| c.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"))
}
