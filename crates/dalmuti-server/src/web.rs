//! The browser client, embedded in the binary: plain HTML, CSS and
//! JavaScript modules with no build step, so `dalmuti serve` needs nothing
//! beside it. Every file of `crates/dalmuti-server/web/` is served at its
//! path, `index.html` also at `/`; the words of each language at
//! `/i18n/<lang>.json`. Each answer carries an ETag computed when the
//! binary was built, so a second visit downloads nothing again
//! (`crate::transfer` answers the `304`).
//!
//! The client is installable: `manifest.webmanifest` names it and its
//! icons, and the service worker `sw.js` keeps the shell (the files the
//! page uses and the words of each language) in a cache, so the page opens
//! without the server. When serving `sw.js` the server writes the shell's
//! addresses into it and a version made from the files' hashes: a new
//! binary with a new client is a new service worker, which caches the new
//! shell and drops the old one (docs/PROTOCOL.md, The browser client,
//! installed and offline).

use std::sync::OnceLock;

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use dalmuti_i18n::{Lang, Part};
use sha2::{Digest, Sha256};

/// The client's files. The Node tests of `fairness.js` (`test-*`) are not
/// part of it.
#[derive(rust_embed::Embed)]
#[folder = "web/"]
#[exclude = "test-*"]
#[exclude = ".*"]
struct Client;

/// A new binary may bring a new client: always revalidate (the ETag makes
/// that cheap).
const CACHE: (header::HeaderName, &str) = (header::CACHE_CONTROL, "no-cache");

/// The routes serving the client.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new().route("/i18n/{file}", get(messages));
    for file in Client::iter() {
        let path = format!("/{file}");
        let Some(asset) = Client::get(&file) else {
            continue;
        };
        let content_type = HeaderValue::from_str(&content_type(asset.metadata.mimetype()))
            .unwrap_or(HeaderValue::from_static("application/octet-stream"));
        let (body, tag) = if file == SERVICE_WORKER {
            let body = service_worker(&String::from_utf8_lossy(&asset.data));
            let tag = crate::transfer::etag(body.as_bytes());
            (axum::body::Bytes::from(body), tag)
        } else {
            let tag = crate::transfer::etag_of_hash(&asset.metadata.sha256_hash());
            (axum::body::Bytes::from(asset.data.into_owned()), tag)
        };
        let handler = get(move || async move {
            (
                [(header::CONTENT_TYPE, content_type), (header::ETAG, tag)],
                [CACHE],
                body,
            )
                .into_response()
        });
        if path == "/index.html" {
            router = router.route("/", handler.clone());
        }
        router = router.route(&path, handler);
    }
    router
}

/// The service worker's file, served at `/sw.js` so that its scope is the
/// whole site.
const SERVICE_WORKER: &str = "sw.js";

/// The kinds of file the page uses, which the service worker caches: not
/// the service worker itself, nor data such as `fairness-fixture.json`
/// (for the tests of `fairness.js`). The offline engine's WebAssembly is
/// cached too: a page loaded once plays against bots with no server.
const SHELL_KINDS: [&str; 7] = [
    ".html",
    ".css",
    ".js",
    ".webmanifest",
    ".svg",
    ".png",
    ".wasm",
];

/// What the service worker caches when it is installed: `/`, every file
/// of the client the page uses, and the words of each language.
fn shell() -> Vec<String> {
    let mut shell = vec!["/".to_string()];
    shell.extend(
        Client::iter()
            .filter(|file| file != SERVICE_WORKER)
            .filter(|file| SHELL_KINDS.iter().any(|kind| file.ends_with(kind)))
            .map(|file| format!("/{file}")),
    );
    shell.extend(Lang::ALL.map(|lang| format!("/i18n/{}.json", lang.code())));
    shell
}

/// The shell's version: a hash of its files and words, so that any change
/// to the client makes a new service worker (and a new cache).
fn shell_version() -> String {
    let mut hash = Sha256::new();
    for file in Client::iter() {
        if let Some(asset) = Client::get(&file) {
            hash.update(file.as_bytes());
            hash.update(asset.metadata.sha256_hash());
        }
    }
    for lang in Lang::ALL {
        hash.update(merged(lang).0.as_bytes());
    }
    hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `sw.js` as served: its placeholder lines for the version and the shell
/// written with this binary's (a file served from disk while editing keeps
/// them, and caches only what the page fetched).
fn service_worker(source: &str) -> String {
    let shell = serde_json::to_string(&shell()).unwrap_or_else(|_| "['/']".to_string());
    source
        .replacen(
            "const VERSION = 'dev';",
            &format!("const VERSION = '{}';", shell_version()),
            1,
        )
        .replacen(
            "const SHELL = ['/'];",
            &format!("const SHELL = {shell};"),
            1,
        )
}

/// The content type of a MIME type: text in UTF-8, as the files are written.
fn content_type(mime: &str) -> String {
    if mime.starts_with("text/") || mime == "application/javascript" {
        let mime = if mime == "application/javascript" {
            "text/javascript"
        } else {
            mime
        };
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
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
            let body = crate::error::ErrorBody::new(reason).to_text();
            return (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, "application/json")],
                body,
            )
                .into_response();
        }
    };
    let (body, tag) = merged(lang);
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::ETAG, tag.clone()),
        ],
        [CACHE],
        body.as_str().to_owned(),
    )
        .into_response()
}

/// A language's game and web words as one JSON object (the web part's keys
/// last) and its ETag, built once.
fn merged(lang: Lang) -> &'static (String, HeaderValue) {
    static MERGED: [OnceLock<(String, HeaderValue)>; Lang::ALL.len()] =
        [const { OnceLock::new() }; Lang::ALL.len()];
    MERGED[lang as usize].get_or_init(|| {
        let mut merged = serde_json::Map::new();
        for part in [Part::Game, Part::Web] {
            // The catalogue files are tested to be JSON objects (dalmuti-i18n).
            if let Ok(serde_json::Value::Object(map)) =
                serde_json::from_str(dalmuti_i18n::source(lang, part))
            {
                merged.extend(map);
            }
        }
        let body = serde_json::Value::Object(merged).to_string();
        let tag = crate::transfer::etag(body.as_bytes());
        (body, tag)
    })
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
        for path in Client::iter() {
            assert!(!path.contains("test-"), "{path} is a test, not the client");
        }
        let (status, _, _) = get("/test-fairness.mjs").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn the_manifest_and_its_icons_are_served_with_their_types() {
        let (status, content_type, body) = get("/manifest.webmanifest").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(content_type, "application/manifest+json");
        let manifest: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(manifest["name"], "The Great Dalmuti");
        assert_eq!(manifest["short_name"], "Dalmuti");
        assert_eq!(manifest["start_url"], "/");
        assert_eq!(manifest["display"], "standalone");
        // The colours are the page's (style.css, --bg).
        let css = Client::get("style.css").unwrap();
        let css = String::from_utf8_lossy(&css.data);
        for colour in ["theme_color", "background_color"] {
            let colour = manifest[colour].as_str().unwrap();
            assert!(css.contains(&format!("--bg: {colour};")), "{colour}");
        }
        let icons = manifest["icons"].as_array().unwrap();
        assert!(icons.iter().any(|i| i["sizes"] == "192x192"));
        assert!(icons.iter().any(|i| i["sizes"] == "512x512"));
        for icon in icons {
            let src = icon["src"].as_str().unwrap();
            let (status, content_type, body) = get(src).await;
            assert_eq!(status, StatusCode::OK, "{src}");
            assert_eq!(content_type, icon["type"].as_str().unwrap(), "{src}");
            if let Some((w, h)) = icon["sizes"].as_str().unwrap().split_once('x') {
                // A PNG's width and height are at bytes 16 to 24.
                assert_eq!(&body[1..4], b"PNG", "{src}");
                let size = |at: usize| u32::from_be_bytes(body[at..at + 4].try_into().unwrap());
                assert_eq!(size(16).to_string(), w, "{src}");
                assert_eq!(size(20).to_string(), h, "{src}");
            }
        }
        let (_, _, page) = get("/").await;
        let page = String::from_utf8(page).unwrap();
        assert!(page.contains(r#"<link rel="manifest" href="/manifest.webmanifest">"#));
        assert!(page.contains(r##"<meta name="theme-color" content="#10241c">"##));
    }

    #[tokio::test]
    async fn the_service_worker_is_served_with_its_shell_and_version() {
        let (status, content_type, body) = get("/sw.js").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(content_type, "text/javascript; charset=utf-8");
        let worker = String::from_utf8(body).unwrap();
        // Both placeholder lines written.
        assert!(!worker.contains("const VERSION = 'dev';"), "{worker}");
        assert!(!worker.contains("const SHELL = ['/'];"), "{worker}");
        let version = format!("const VERSION = '{}';", shell_version());
        assert!(worker.contains(&version));
        let line = worker
            .lines()
            .find(|l| l.starts_with("const SHELL = "))
            .unwrap();
        let listed: Vec<String> = serde_json::from_str(
            line.trim_start_matches("const SHELL = ")
                .trim_end_matches(';'),
        )
        .unwrap();
        assert_eq!(listed, shell());
        // The page, every module, the styles, the manifest, the icons and
        // the words of every language; each of them served.
        for path in [
            "/",
            "/index.html",
            "/style.css",
            "/social.css",
            "/fairness.js",
            "/manifest.webmanifest",
            "/icons/icon.svg",
            "/icons/icon-192.png",
            "/icons/icon-512.png",
        ] {
            assert!(listed.iter().any(|l| l == path), "{path} is not cached");
        }
        for file in Client::iter().filter(|f| f.starts_with("js/")) {
            assert!(listed.contains(&format!("/{file}")), "{file} is not cached");
        }
        for lang in Lang::ALL {
            let path = format!("/i18n/{}.json", lang.code());
            assert!(listed.contains(&path), "{path} is not cached");
        }
        for path in &listed {
            let (status, _, _) = get(path).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            // Never the API, the socket, the worker itself or test data.
            assert!(!path.starts_with("/api/") && !path.starts_with("/ws/"));
            assert!(
                !path.ends_with("sw.js") && !path.contains("fixture"),
                "{path}"
            );
        }
    }

    #[test]
    fn text_is_sent_as_utf_8() {
        assert_eq!(content_type("text/css"), "text/css; charset=utf-8");
        assert_eq!(
            content_type("application/javascript"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("image/svg+xml"), "image/svg+xml");
        assert_eq!(
            content_type("application/manifest+json"),
            "application/manifest+json"
        );
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
