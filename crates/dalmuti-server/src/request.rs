//! What every handler reads of a request the same way: its JSON body,
//! with a refusal that says what is wrong, and the client's address.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::Json;
use axum::extract::ConnectInfo;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;

use crate::error::{BadRequest, ServerError, TooLarge};

/// The largest request body, in bytes: every lobby request is small.
pub const MAX_BODY: usize = 16 * 1024;

/// A JSON body, or a 400 (413 if too large) that says what is wrong.
pub(crate) fn body<T>(json: Result<Json<T>, JsonRejection>) -> Result<T, ServerError> {
    json.map(|Json(t)| t).map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ServerError::TooLarge(TooLarge::Body { most: MAX_BODY })
        } else {
            ServerError::BadRequest(BadRequest::Body { why: e.body_text() })
        }
    })
}

/// The client's address; without one (a router called without a socket,
/// in tests) every request counts as one unspecified client.
pub(crate) fn address(client: Option<&axum::Extension<ConnectInfo<SocketAddr>>>) -> IpAddr {
    client.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.0.ip())
}
