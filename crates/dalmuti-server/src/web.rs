//! The browser client, embedded in the binary: plain HTML, CSS and
//! JavaScript with no build step, so `dalmuti serve` needs nothing beside
//! it. Files live in `crates/dalmuti-server/web/`.

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

/// One embedded file: its path, content type and text.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../web/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/app.js"),
    },
    Asset {
        path: "/fairness.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/fairness.js"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../web/style.css"),
    },
];

/// The routes serving the client.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new();
    for asset in ASSETS {
        let (content_type, body) = (asset.content_type, asset.body);
        router = router.route(
            asset.path,
            get(move || async move {
                (
                    [
                        (header::CONTENT_TYPE, content_type),
                        // A new binary may bring a new client: always revalidate.
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    body,
                )
                    .into_response()
            }),
        );
    }
    router
}
