//! `dalmuti serve` as an operator runs it: killed in the middle of a hand
//! and started again on the same data, every table goes on where it was;
//! SIGTERM stops it cleanly.

mod common;

use std::process::{Command, Stdio};

use common::{Client, Serve, WAIT, game_part, http, play_until, temp_dir};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_hand_goes_on_exactly_where_it_was() {
    let dir = temp_dir("restart");
    let data = dir.join("server.sqlite");
    let server = Serve::start(&data);
    let addr = server.addr;
    let (status, created) = http(
        addr,
        "POST",
        "/api/tables",
        None,
        Some(json!({"name": "restart", "player": "Ada", "seats": 4, "hands": 1})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let table = created["id"].as_str().unwrap().to_string();
    let ada = created["token"].as_str().unwrap().to_string();
    let (status, seat) = http(
        addr,
        "POST",
        &format!("/api/tables/{table}/seats"),
        None,
        Some(json!({"name": "Bo"})),
    )
    .await;
    assert_eq!(status, 201, "{seat}");
    let bo = seat["token"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let path = format!("/api/tables/{table}/bots");
        let (status, bot) = http(
            addr,
            "POST",
            &path,
            Some(&ada),
            Some(json!({"bot": "greedy"})),
        )
        .await;
        assert_eq!(status, 201, "{bot}");
    }
    let mut clients = vec![
        Client::connect(addr, &table, "Ada", &ada, 0).await.0,
        Client::connect(addr, &table, "Bo", &bo, 0).await.0,
    ];
    let (status, _) = http(
        addr,
        "POST",
        &format!("/api/tables/{table}/start"),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(status, 204);

    // Into the middle of the hand: at least six plays or passes made, and a
    // human to play (the table waits for them; nothing else moves).
    let human_to_play = |c: &Client| {
        matches!(
            c.state["d"]["decision"]["kind"].as_str(),
            Some("lead" | "follow")
        ) && c.acted_at != c.state["v"].as_u64()
    };
    play_until(&mut clients, |c| {
        c[0].plays.len() >= 6 && c.iter().any(human_to_play) && c[0].state["v"] == c[1].state["v"]
    })
    .await;
    let before: Vec<Value> = clients.iter().map(|c| game_part(&c.state)).collect();
    let v = clients[0].state["v"].as_u64().unwrap();
    let plays_before = clients[0].plays.clone();
    assert_eq!(clients[0].state["d"]["view"]["stage"], json!("play"));

    // SIGKILL, then the same data again.
    server.kill();
    drop(clients);
    let server = Serve::start(&data);
    let addr = server.addr;

    // Each seat comes back with its last event: nothing missed, the state
    // exactly as it was; and a new client (v 0) gets the same snapshot.
    let mut clients = Vec::new();
    for (i, (name, token)) in [("Ada", &ada), ("Bo", &bo)].into_iter().enumerate() {
        let (client, catchup) = Client::connect(addr, &table, name, token, v).await;
        assert_eq!(catchup["t"], json!("catchup"), "{catchup}");
        assert_eq!(catchup["d"]["missed"], json!([]), "{name} missed nothing");
        let news: Vec<&str> = catchup["d"]["news"]
            .as_array()
            .expect("the kept news")
            .iter()
            .filter_map(|n| n["kind"].as_str())
            .collect();
        assert_eq!(
            news,
            ["seat", "seat", "seat", "seat", "start", "hand"],
            "kept through the kill"
        );
        assert_eq!(
            game_part(&catchup),
            before[i],
            "{name}'s state after the restart"
        );
        let (_, snapshot) = Client::connect(addr, &table, name, token, 0).await;
        assert_eq!(snapshot["t"], json!("snapshot"), "{snapshot}");
        assert_eq!(
            game_part(&snapshot),
            before[i],
            "{name}'s snapshot after the restart"
        );
        clients.push(client);
    }
    let (status, info) = http(addr, "GET", &format!("/api/tables/{table}"), None, None).await;
    assert_eq!(status, 200);
    assert_eq!(info["v"], json!(v), "{info}");

    // The game goes on to the end of the hand, event numbers following on.
    play_until(&mut clients, |c| {
        c[0].state["d"]["game_over"] == json!(true)
    })
    .await;
    let after = &clients[0].events;
    assert_eq!(
        after.first(),
        Some(&(v + 1)),
        "the first event after the restart"
    );
    assert!(
        after.windows(2).all(|w| w[1] == w[0] + 1),
        "no event number skipped: {after:?}"
    );

    // The record holds the whole hand, before and after the crash, and
    // checks.
    let (status, record) = http(
        addr,
        "GET",
        &format!("/api/tables/{table}/record"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        common::first_hand_plays(&record),
        [plays_before, clients[0].plays.clone()].concat(),
        "every play and pass, before and after the crash"
    );
    match dalmuti_core::record::check(&record.to_string()) {
        dalmuti_core::record::Checked::Valid(report) => assert!(report.hands[0].finished),
        other => panic!("the record does not check: {other:?}"),
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_the_server_cleanly() {
    let dir = temp_dir("sigterm");
    let server = Serve::start(&dir.join("server.sqlite"));
    let addr = server.addr;
    // A table with a client connected: the shutdown closes its socket.
    let (status, created) = http(
        addr,
        "POST",
        "/api/tables",
        None,
        Some(json!({"name": "term", "player": "Ada", "seats": 3})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let table = created["id"].as_str().unwrap();
    let (mut client, snapshot) =
        Client::connect(addr, table, "Ada", created["token"].as_str().unwrap(), 0).await;
    assert_eq!(snapshot["t"], json!("snapshot"));

    nix::sys::signal::kill(server.pid(), nix::sys::signal::Signal::SIGTERM).unwrap();
    let (status, said) = server.exit();
    assert!(status.success(), "exit status {status}: {said:?}");
    assert!(said.iter().any(|l| l.contains("stopped")), "{said:?}");
    // The client's connection ended.
    let end = tokio::time::timeout(WAIT, async {
        loop {
            match client.ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the client's connection is closed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_for_data_is_refused_before_any_address_is_announced() {
    let dir = temp_dir("folder");
    let output = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("dalmuti serve runs");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "it exits with an error: {said}");
    assert!(
        !said.contains("open http://"),
        "no address announced: {said}"
    );
    assert!(said.contains("--data"), "says what --data wants: {said}");
    assert!(said.contains("file path"), "{said}");
    assert!(said.contains("is a folder"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dalmuti serve --data PATH`, run until it exits: its status and what
/// it said.
fn serve_data(data: &std::path::Path) -> (std::process::ExitStatus, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .stdin(Stdio::null())
        .output()
        .expect("dalmuti serve runs");
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status, said)
}

#[test]
fn a_file_that_is_no_database_is_refused_and_left_alone() {
    let dir = temp_dir("not-a-database");
    let file = dir.join("notes.txt");
    std::fs::write(&file, "my notes\n".repeat(100)).unwrap();
    let (status, said) = serve_data(&file);
    assert!(!status.success(), "{said}");
    assert!(!said.contains("open http://"), "{said}");
    assert!(
        said.contains("is a file that is not an SQLite database"),
        "{said}"
    );
    // The example is beside the file, not inside it as if it were a folder.
    let inside = file.join("server.sqlite");
    assert!(!said.contains(&*inside.to_string_lossy()), "{said}");
    assert!(
        said.contains(&*dir.join("server.sqlite").to_string_lossy()),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "my notes\n".repeat(100)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_folder_for_data_is_refused_not_made() {
    let dir = temp_dir("missing-parent");
    let missing = dir.join("no-such-folder");
    let (status, said) = serve_data(&missing.join("x.sqlite"));
    assert!(!status.success(), "{said}");
    assert!(!said.contains("open http://"), "{said}");
    assert!(said.contains("does not exist"), "{said}");
    assert!(said.contains("mkdir -p"), "{said}");
    assert!(!missing.exists(), "the folder was made: {said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_are_json_lines_that_name_tables_and_hide_tokens() {
    let dir = temp_dir("json-logs");
    let server = Serve::start_with(
        dir.join("server.sqlite").as_os_str(),
        &["--log-format", "json"],
    );
    let addr = server.addr;
    let (status, created) = http(
        addr,
        "POST",
        "/api/tables",
        None,
        Some(json!({"name": "logs", "player": "Ada", "seats": 3})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let (table, token) = (
        created["id"].as_str().unwrap().to_string(),
        created["token"].as_str().unwrap().to_string(),
    );
    let (status, _) = http(
        addr,
        "POST",
        &format!("/api/tables/{table}/bots"),
        Some(&token),
        Some(json!({"bot": "easy"})),
    )
    .await;
    assert_eq!(status, 201);
    assert_eq!(http(addr, "GET", "/healthz", None, None).await.0, 200);
    assert_eq!(http(addr, "GET", "/readyz", None, None).await.0, 200);
    let early = server.early.clone();
    nix::sys::signal::kill(server.pid(), nix::sys::signal::Signal::SIGTERM).unwrap();
    let (status, later) = server.exit();
    assert!(status.success(), "exit status {status}: {later:?}");

    let lines: Vec<Value> = early
        .iter()
        .chain(&later)
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let said = |what: &str| lines.iter().find(|l| l["message"] == json!(what));
    let created = said("table created").unwrap_or_else(|| panic!("{lines:?}"));
    assert_eq!(created["table"], json!(table), "{created}");
    assert_eq!(created["level"], json!("INFO"));
    assert!(created["timestamp"].is_string(), "{created}");
    assert!(
        lines.iter().any(|l| l["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("open http://"))),
        "the address, as a log line: {lines:?}"
    );
    assert!(said("stopped").is_some(), "{lines:?}");
    assert!(said("server stopped").is_some(), "{lines:?}");
    let all = early.join("\n") + &later.join("\n");
    assert!(!all.contains(&token), "a token in the logs: {all}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_operator_lists_the_reported_lines_without_serving() {
    use dalmuti_server::store::{ReportRow, SqliteStore, Store};
    let dir = temp_dir("reports");
    let data = dir.join("server.sqlite");
    let list = || {
        let output = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
            .args(["serve", "--addr", "127.0.0.1:0", "--list-reports", "--data"])
            .arg(&data)
            .stdin(Stdio::null())
            .output()
            .expect("dalmuti serve runs");
        assert!(output.status.success(), "{output:?}");
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!said.contains("open http://"), "it serves nothing: {said}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert_eq!(list().trim(), "no chat line has been reported");
    let store = SqliteStore::open(&data).unwrap();
    store
        .add_report(&ReportRow {
            table: "t1".into(),
            table_name: "Friday".into(),
            n: 7,
            line: r#"{"n":7,"at":0,"from":"Bo","spectator":false,"text":"you lose"}"#.into(),
            reporter: "Ann".into(),
            why: "rude".into(),
            at: 1_764_331_200_000,
        })
        .unwrap();
    // A line kept before chat refused control characters: a colour
    // code, and a line feed that forges a report of its own (issue 40).
    let forged = "\u{1b}[31mred\u{1b}[0m\nThu, 01 Jan 2026 00:00:00 GMT table t9 (X), line 1, reported by Ann";
    store
        .add_report(&ReportRow {
            table: "t2".into(),
            table_name: "Saturday".into(),
            n: 3,
            line: serde_json::to_string(&json!({
                "n": 3, "at": 0, "from": "Cy", "spectator": false, "text": forged
            }))
            .unwrap(),
            reporter: "Di\r".into(),
            why: "spam\u{1b}[2J".into(),
            at: 1_764_331_300_000,
        })
        .unwrap();
    drop(store);
    let shown = list();
    assert!(
        shown.contains("table t1 (Friday), line 7, reported by Ann: rude"),
        "{shown}"
    );
    assert!(shown.contains("Bo: you lose"), "{shown}");
    assert!(shown.contains("2025"), "a date a person reads: {shown}");
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\r'),
        "nothing acts on the terminal: {shown:?}"
    );
    assert!(
        shown.contains("Cy: \\u{1b}[31mred\\u{1b}[0m\\nThu, 01 Jan 2026"),
        "{shown}"
    );
    assert!(
        shown.contains("reported by Di\\r: spam\\u{1b}[2J"),
        "{shown}"
    );
    // A report's first line starts at the margin, its chat line below it
    // is indented: the forged "report" stays inside Cy's line.
    assert_eq!(
        shown
            .lines()
            .filter(|l| !l.starts_with(' ') && l.contains("reported by"))
            .count(),
        2,
        "one line per report, none forged: {shown}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
