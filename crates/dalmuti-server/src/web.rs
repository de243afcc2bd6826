//! The browser client, embedded in the binary: plain HTML, CSS and
//! JavaScript modules with no build step, so `dalmuti serve` needs nothing
//! beside it. Every file of `crates/dalmuti-server/web/` is served at its
//! path (the build script lists them), `index.html` also at `/`; the words
//! of each language at `/i18n/<lang>.json`.

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use dalmuti_i18n::{Lang, Part};

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// A new binary may bring a new client: always revalidate.
const CACHE: (header::HeaderName, &str) = (header::CACHE_CONTROL, "no-cache");

/// The routes serving the client.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new().route("/i18n/{file}", get(messages));
    for &(path, body) in FILES {
        let content_type = content_type(path);
        let handler = get(move || async move {
            ([(header::CONTENT_TYPE, content_type), CACHE], body).into_response()
        });
        if path == "/index.html" {
            router = router.route("/", handler.clone());
        }
        router = router.route(path, handler);
    }
    router
}

/// The content type of a file, by its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("woff") => "font/woff",
        Some("mp3") => "audio/mpeg",
        Some("ogg") => "audio/ogg",
        Some("wav") => "audio/wav",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// `GET /i18n/<lang>.json`: the game part and the web part of a language's
/// catalogue in one JSON object (the web part's keys last).
async fn messages(Path(file): Path<String>) -> Response {
    let lang = file
        .strip_suffix(".json")
        .ok_or_else(|| {
            format!("the words of a language are at /i18n/<lang>.json, not /i18n/{file}")
        })
        .and_then(|code| {
            // Only the bare code: one address per language.
            Lang::ALL
                .into_iter()
                .find(|l| l.code() == code)
                .ok_or_else(|| dalmuti_i18n::BadLang(code.to_string()).to_string())
        });
    let lang = match lang {
        Ok(lang) => lang,
        Err(reason) => {
            let body = serde_json::json!({ "error": reason }).to_string();
            return (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, "application/json")],
                body,
            )
                .into_response();
        }
    };
    let mut merged = serde_json::Map::new();
    for part in [Part::Game, Part::Web] {
        // The catalogue files are tested to be JSON objects (dalmuti-i18n).
        if let Ok(serde_json::Value::Object(map)) =
            serde_json::from_str(dalmuti_i18n::source(lang, part))
        {
            merged.extend(map);
        }
    }
    (
        [(header::CONTENT_TYPE, "application/json"), CACHE],
        serde_json::Value::Object(merged).to_string(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// GET `path` from the client's routes: status, content type, body.
    async fn get(path: &str) -> (StatusCode, String, Vec<u8>) {
        let response = routes::<()>()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, content_type, body.to_vec())
    }

    #[tokio::test]
    async fn every_file_of_the_client_is_served_with_its_type() {
        let (status, content_type, body) = get("/").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(content_type, "text/html; charset=utf-8");
        let page = String::from_utf8(body).unwrap();
        assert!(page.contains(r#"<script type="module" src="/js/main.js">"#));
        for (path, expected) in [
            ("/js/main.js", "text/javascript; charset=utf-8"),
            ("/js/i18n.js", "text/javascript; charset=utf-8"),
            ("/fairness.js", "text/javascript; charset=utf-8"),
            ("/style.css", "text/css; charset=utf-8"),
        ] {
            let (status, content_type, body) = get(path).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert_eq!(content_type, expected, "{path}");
            assert!(!body.is_empty(), "{path}");
        }
        // The client's own tests (run by node) are not part of it.
        for &(path, _) in FILES {
            assert!(!path.contains("test-"), "{path} is a test, not the client");
        }
        assert!(FILES.iter().any(|&(p, _)| p == "/js/connection.js"));
    }

    #[test]
    fn content_types_follow_the_extension() {
        assert_eq!(content_type("/cards/back.svg"), "image/svg+xml");
        assert_eq!(content_type("/fonts/a.woff2"), "font/woff2");
        assert_eq!(content_type("/sounds/turn.ogg"), "audio/ogg");
        assert_eq!(content_type("/x.json"), "application/json");
        assert_eq!(content_type("/LICENSE"), "application/octet-stream");
    }

    #[tokio::test]
    async fn a_language_is_its_game_and_web_words_in_one_object() {
        for lang in Lang::ALL {
            let (status, content_type, body) = get(&format!("/i18n/{}.json", lang.code())).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(content_type, "application/json");
            let words: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert!(words["dalmuti.title.greater-dalmuti"].is_string(), "{lang}");
            assert!(words["web.hand.play"].is_string(), "{lang}");
        }
        let (_, _, body) = get("/i18n/de.json").await;
        let de: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(de["dalmuti.title.greater-dalmuti"], "Großer Dalmuti");
        assert_eq!(de["dalmuti.card.6"]["one"], "Ritter");
    }

    #[tokio::test]
    async fn an_unknown_language_is_a_404_that_says_which_exist() {
        for path in ["/i18n/fr.json", "/i18n/de-DE.json", "/i18n/de"] {
            let (status, content_type, body) = get(path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(content_type, "application/json");
            let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert!(
                error["error"]
                    .as_str()
                    .unwrap()
                    .contains("en, ko, de, es, ja")
                    || error["error"]
                        .as_str()
                        .unwrap()
                        .contains("/i18n/<lang>.json"),
                "{path}: {error}"
            );
        }
    }
}
