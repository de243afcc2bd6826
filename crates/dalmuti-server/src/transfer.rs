//! Fewer bytes over the wire (`docs/PERFORMANCE.md`, Transfer): responses
//! compressed with gzip or brotli as the client accepts, and conditional
//! GETs: what does not change carries an `ETag`, and a request whose
//! `If-None-Match` names it is answered `304 Not Modified` with no body.
//!
//! ETags are weak (`W/"…"`): one tag names the content whatever encoding
//! it is sent in.

use axum::extract::Request;
use axum::http::{Extensions, HeaderMap, HeaderValue, Method, StatusCode, Version, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::{CompressionLayer, CompressionLevel};

/// The compression layer: gzip and brotli, at a level that compresses a
/// 1 MB replay in milliseconds (brotli's own default, 11, takes about a
/// second of CPU for it). A response marked [`Encoded`] is left as it is.
pub fn compression() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new()
        .no_deflate()
        .no_zstd()
        .quality(CompressionLevel::Precise(5))
        .compress_when(DefaultPredicate::new().and(not_encoded as NotEncoded))
}

/// Marks a response whose body is already as the client asked for it (a
/// finished game's answer, kept compressed in every encoding,
/// [`crate::records`]): the compression layer, which would compress it
/// again for each request, leaves it alone (issue 40: a replay of 18 MB
/// asked for with `br` was compressed anew each time, on the threads the
/// tables play on).
#[derive(Clone, Copy, Debug)]
pub struct Encoded;

/// A predicate of the compression layer.
type NotEncoded = fn(StatusCode, Version, &HeaderMap, &Extensions) -> bool;

/// Whether a response is not [`Encoded`].
fn not_encoded(_: StatusCode, _: Version, _: &HeaderMap, extensions: &Extensions) -> bool {
    extensions.get::<Encoded>().is_none()
}

/// The ETag of some content: a weak tag from its SHA-256. The client's
/// files can get theirs once, when the server starts.
pub fn etag(content: &[u8]) -> HeaderValue {
    etag_of_hash(&Sha256::digest(content))
}

/// The ETag of content whose SHA-256 is known (the client's files have
/// theirs from the build).
pub fn etag_of_hash(sha256: &[u8]) -> HeaderValue {
    let tag = format!("W/\"{}\"", crate::store::hex(&sha256[..12]));
    HeaderValue::from_str(&tag).expect("hex is a valid header value")
}

/// Whether the request's `If-None-Match` names `tag` (or is `*`).
pub fn not_modified(request: &HeaderMap, tag: &HeaderValue) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    let Ok(ours) = tag.to_str() else {
        return false;
    };
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || bare(t) == bare(ours))
}

/// A `304 Not Modified` for `tag`.
pub fn unchanged(tag: &HeaderValue) -> Response {
    (
        StatusCode::NOT_MODIFIED,
        [
            (header::ETAG, tag.clone()),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
    )
        .into_response()
}

/// Answers conditional GETs: a successful answer with an `ETag` (the
/// client's files, the words of a language, a finished game's record and
/// replay) is a `304` with no body when the request's `If-None-Match`
/// names it.
pub async fn conditional(request: Request, next: Next) -> Response {
    let get = matches!(*request.method(), Method::GET | Method::HEAD);
    let asked = request.headers().clone();
    let response = next.run(request).await;
    if !get || response.status() != StatusCode::OK {
        return response;
    }
    match response.headers().get(header::ETAG) {
        Some(tag) if not_modified(&asked, tag) => unchanged(&tag.clone()),
        _ => response,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_names_a_tag_weakly_in_a_list_or_with_a_star() {
        let tag = etag(b"content");
        assert_ne!(tag, etag(b"other content"), "new content, new tag");
        let asking = |value: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
            not_modified(&h, &tag)
        };
        let strong = tag.to_str().unwrap().trim_start_matches("W/").to_string();
        assert!(asking(tag.to_str().unwrap()));
        assert!(asking(&strong), "weak comparison");
        assert!(asking(&format!("\"x\", {strong}")));
        assert!(asking("*"));
        assert!(!asking("\"x\""));
        assert!(!not_modified(&HeaderMap::new(), &tag));
    }
}
