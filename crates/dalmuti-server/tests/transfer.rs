//! Fewer bytes over the wire, over real sockets: compressed answers for
//! clients that accept gzip or brotli, and ETags answered with `304 Not
//! Modified` and no body (`docs/PERFORMANCE.md`, Transfer).

mod common;

use std::net::SocketAddr;

use common::*;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An answer: status, head and body bytes (dechunked).
struct Answer {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// A GET with extra header lines (`"Name: value\r\n"` each).
async fn get(addr: SocketAddr, path: &str, headers: &str) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut raw))
        .await
        .expect("an answer")
        .unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut body = raw[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    Answer { status, head, body }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..end]).unwrap().trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clients_files_are_compressed_and_not_sent_twice() {
    let server = Server::start(|_| {}).await;
    let plain = get(server.addr, "/", "").await;
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("content-encoding"), None, "not asked for");
    for (accept, encoding) in [("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br")] {
        let packed = get(server.addr, "/", &format!("Accept-Encoding: {accept}\r\n")).await;
        assert_eq!(packed.status, 200);
        assert_eq!(
            packed.header("content-encoding"),
            Some(encoding),
            "{accept}"
        );
        assert!(
            packed.body.len() < plain.body.len() / 2,
            "{accept}: {} bytes, {} plain",
            packed.body.len(),
            plain.body.len()
        );
        if encoding == "gzip" {
            assert_eq!(&packed.body[..2], b"\x1f\x8b", "gzip's magic bytes");
        }
    }
    // The ETag names the content: asked again with it, nothing is sent.
    let tag = plain.header("etag").expect("an etag").to_string();
    assert!(tag.starts_with("W/\""), "a weak tag: {tag}");
    let again = get(server.addr, "/", &format!("If-None-Match: {tag}\r\n")).await;
    assert_eq!(again.status, 304, "{}", again.head);
    assert!(again.body.is_empty());
    // Another file has another tag; a stale tag gets the file.
    let style = get(server.addr, "/style.css", "").await;
    assert_ne!(style.header("etag"), Some(tag.as_str()));
    let stale = get(
        server.addr,
        "/style.css",
        &format!("If-None-Match: {tag}\r\n"),
    )
    .await;
    assert_eq!(stale.status, 200);
    assert_eq!(stale.body, style.body);
    // Every file of the client and the words of each language are tagged:
    // the service worker (written as it is served) and the app's manifest
    // and icons too.
    for path in [
        "/js/main.js",
        "/fairness.js",
        "/i18n/ko.json",
        "/sw.js",
        "/manifest.webmanifest",
        "/icons/icon-192.png",
    ] {
        let first = get(server.addr, path, "").await;
        let tag = first.header("etag").expect(path).to_string();
        let again = get(server.addr, path, &format!("If-None-Match: {tag}\r\n")).await;
        assert_eq!(again.status, 304, "{path}: {}", again.head);
    }
    // The manifest keeps its type through the layers (compressed or not).
    for accept in ["", "Accept-Encoding: br\r\n"] {
        let manifest = get(server.addr, "/manifest.webmanifest", accept).await;
        assert_eq!(manifest.status, 200);
        assert_eq!(
            manifest.header("content-type"),
            Some("application/manifest+json"),
            "{accept}"
        );
    }
    server.stop().await;
}

/// Plays a game of `hands` hands at four seats (one scripted person);
/// returns its id.
async fn finished(server: &Server, hands: u32) -> String {
    let (id, ada) = server
        .create_table(json!({"player": "Ada", "seats": 4, "hands": hands}))
        .await;
    for _ in 0..3 {
        server.add_bot(&id, &ada, "greedy").await;
    }
    let player = Player::join(server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    server.start_game(&id, &ada).await;
    player.finish().await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_replay_is_compressed_and_tagged_an_unfinished_one_is_not() {
    let server = Server::start(|_| {}).await;
    let (open, _) = server
        .create_table(json!({"player": "Ada", "seats": 3}))
        .await;
    let early = get(server.addr, &format!("/api/tables/{open}/replay"), "").await;
    assert_eq!(early.status, 409);
    assert_eq!(early.header("etag"), None, "nothing to cache yet");

    let id = finished(&server, 3).await;
    let other = finished(&server, 1).await;
    for what in ["replay", "record"] {
        let path = format!("/api/tables/{id}/{what}");
        let plain = get(server.addr, &path, "").await;
        assert_eq!(plain.status, 200, "{what}");
        let gzip = get(server.addr, &path, "Accept-Encoding: gzip\r\n").await;
        let br = get(server.addr, &path, "Accept-Encoding: br\r\n").await;
        assert_eq!(gzip.header("content-encoding"), Some("gzip"));
        assert_eq!(br.header("content-encoding"), Some("br"));
        assert!(gzip.body.len() < plain.body.len() / 4, "{what}");
        eprintln!(
            "{what} of 3 hands: {} bytes plain, {} gzip, {} brotli",
            plain.body.len(),
            gzip.body.len(),
            br.body.len()
        );
        let tag = plain.header("etag").expect("a finished game's etag");
        assert_eq!(gzip.header("etag"), Some(tag), "one tag, any encoding");
        let again = get(server.addr, &path, &format!("If-None-Match: {tag}\r\n")).await;
        assert_eq!(again.status, 304, "{what}: {}", again.head);
        assert!(again.body.is_empty());
        // Another game: another tag, and the old one gets it whole.
        let path = format!("/api/tables/{other}/{what}");
        let theirs = get(server.addr, &path, &format!("If-None-Match: {tag}\r\n")).await;
        assert_eq!(theirs.status, 200);
        assert_ne!(theirs.header("etag"), Some(tag));
    }
    server.stop().await;
}
