//! The wire kept as it is (issue 26): the tables' logs and the messages a
//! server wrote, committed as fixtures, decode into the server's types and
//! encode back byte for byte, so that every stored log, record, bot and
//! browser keeps working as the types change. A game played now is held to
//! the same.
//!
//! `DALMUTI_CAPTURE_WIRE=1 cargo test -p dalmuti-server --test wire`
//! records the fixtures afresh from games played by the server of the day.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use common::{Frame, Mode, Player, Server};
use dalmuti_server::protocol::ServerMsg;
use dalmuti_server::store::{SqliteStore, Store};
use dalmuti_server::table::Stored;
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde_json::{Value, json};

/// What one game left: its log as stored, and the messages a seat and a
/// spectator were sent, as written.
struct Heard {
    log: Vec<String>,
    seat: Vec<String>,
    spectator: Vec<String>,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/wire")
}

/// A game of `rules` at a table of Ada and Bo and `bots`, watched by a
/// spectator; Ada also says a line of chat and sends a stale move, so that
/// her messages hold a chat line, an error and a resync.
async fn play(rules: Value, bots: &[&str]) -> Heard {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({
            "name": "wire",
            "player": "Ada",
            "seats": 2 + bots.len(),
            "hands": 2,
            "rules": rules,
        }))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    for bot in bots {
        server.add_bot(&id, &ada, bot).await;
    }
    let spectator = Player::join(&server, &id, "spectator", None, 0, Mode::Watch).await;
    let ada_p = Player::join(&server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    let bo_p = Player::join(&server, &id, "Bo", Some(&bo), 0, Mode::All).await;
    // Ada's other tab: a chat line, and a move chosen at an event that is
    // long gone, refused with an error and a resync.
    let mut tab = server.ws(&id).await;
    tab.send_json(&common::hello(Some(&ada), 0)).await;
    tab.send_json(&json!({"t": "chat", "d": "good luck, everyone"}))
        .await;
    tab.send_json(&json!({"t": "act", "v": 1_000_000, "d": "pass"}))
        .await;
    let mut seat = Vec::new();
    while let Some(Frame::Text(text)) = tab.recv().await {
        let resync = text.starts_with(r#"{"t":"resync""#);
        seat.push(text);
        if resync {
            break;
        }
    }
    server.start_game(&id, &ada).await;
    let (ada_heard, watched) = (ada_p.texts.clone(), spectator.texts.clone());
    let _ = bo_p.finish().await;
    let _ = ada_p.finish().await;
    let _ = spectator.finish().await;
    seat.extend(ada_heard.lock().unwrap().iter().cloned());
    let spectator = watched.lock().unwrap().clone();
    let file = server
        .sqlite_file()
        .expect("the server keeps an SQLite file");
    // The log as the store writes it.
    let log = SqliteStore::open(&file)
        .unwrap()
        .log(&id.as_str().into())
        .unwrap()
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    Heard {
        log,
        seat,
        spectator,
    }
}

/// The games the fixtures hold: The Great Dalmuti with the merchant
/// exchange and scores, and Corporate Shuffle.
fn games() -> [(&'static str, Value, &'static [&'static str]); 2] {
    [
        (
            "dalmuti",
            json!({"merchant_exchange": true, "scoring": "standard"}),
            &["heuristic", "greedy", "random", "heuristic"],
        ),
        (
            "corporate-shuffle",
            json!({"variant": "corporate-shuffle", "scoring": "standard"}),
            &["heuristic", "random"],
        ),
    ]
}

/// The lines of a gzipped fixture (a game's messages are megabytes of
/// JSON, a few dozen kilobytes gzipped).
fn lines(path: &Path) -> Vec<String> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(str::to_string).collect()
}

fn write(path: &Path, lines: &[String]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut gz = GzEncoder::new(std::fs::File::create(path).unwrap(), Compression::best());
    gz.write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
    gz.finish().unwrap();
}

/// Every log line decodes as a [`Stored`] event and encodes back to the
/// same bytes; every message decodes as a [`ServerMsg`] and encodes back
/// to the same bytes.
fn same_after_decoding(what: &str, heard: &Heard) {
    assert!(!heard.log.is_empty() && !heard.seat.is_empty() && !heard.spectator.is_empty());
    for (k, line) in heard.log.iter().enumerate() {
        let event: Stored = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{what}, log line {}: {e}\n{line}", k + 1));
        let again = serde_json::to_string(&event).unwrap();
        assert_eq!(&again, line, "{what}, log line {}", k + 1);
    }
    for (who, texts) in [("a seat", &heard.seat), ("a spectator", &heard.spectator)] {
        for (k, text) in texts.iter().enumerate() {
            let msg: ServerMsg = serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{what}, {who}'s message {}: {e}\n{text}", k + 1));
            assert_eq!(&msg.to_text(), text, "{what}, {who}'s message {}", k + 1);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn todays_logs_and_messages_decode_and_encode_byte_for_byte() {
    let capture = std::env::var_os("DALMUTI_CAPTURE_WIRE").is_some();
    for (name, rules, bots) in games() {
        let dir = fixtures();
        let files = ["log", "seat", "spectator"].map(|f| dir.join(format!("{name}-{f}.jsonl.gz")));
        if capture {
            let heard = play(rules.clone(), bots).await;
            write(&files[0], &heard.log);
            write(&files[1], &heard.seat);
            write(&files[2], &heard.spectator);
        }
        let kept = Heard {
            log: lines(&files[0]),
            seat: lines(&files[1]),
            spectator: lines(&files[2]),
        };
        same_after_decoding(&format!("{name} (fixture)"), &kept);
        let now = play(rules, bots).await;
        same_after_decoding(&format!("{name} (played now)"), &now);
    }
}
