//! `dalmuti serve` as an operator runs it: killed in the middle of a hand
//! and started again on the same data, every table goes on where it was;
//! SIGTERM stops it cleanly.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// How long the test waits for the server to do something.
const WAIT: Duration = Duration::from_secs(30);

/// A running `dalmuti serve`, killed when dropped.
struct Serve {
    child: Option<Child>,
    addr: SocketAddr,
    lines: mpsc::Receiver<String>,
    /// What it printed up to its address, that line included.
    early: Vec<String>,
}

impl Serve {
    /// Starts the binary on `data` and waits for its `open http://…/` line.
    fn start(data: &Path) -> Serve {
        Serve::start_with(data, &[])
    }

    /// The same, with `more` arguments, logging at `info` whatever the
    /// test's own $RUST_LOG.
    fn start_with(data: &Path, more: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(more)
            .env("RUST_LOG", "info")
            .args([
                "--bot-delay",
                "0",
                "--hand-pause",
                "0",
                "--setup-pause",
                "0",
            ])
            .args(["--grace", "600"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("dalmuti serve starts");
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut said = Vec::new();
        let addr = loop {
            let line = lines
                .recv_timeout(WAIT)
                .unwrap_or_else(|_| panic!("no `open http://` line from the server: {said:?}"));
            said.push(line.clone());
            if let Some(rest) = line.split("open http://").nth(1) {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
        };
        Serve {
            child: Some(child),
            addr,
            lines,
            early: said,
        }
    }

    fn pid(&self) -> nix::unistd::Pid {
        nix::unistd::Pid::from_raw(self.child.as_ref().unwrap().id() as i32)
    }

    /// Kills the server at once (SIGKILL) and waits until it is gone.
    fn kill(mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
    }

    /// Waits for the server to exit on its own; its exit status and every
    /// line it printed on its standard error after its address.
    fn exit(mut self) -> (std::process::ExitStatus, Vec<String>) {
        let mut child = self.child.take().unwrap();
        let pid = nix::unistd::Pid::from_raw(child.id() as i32);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait());
        });
        let status = match rx.recv_timeout(WAIT) {
            Ok(status) => status.unwrap(),
            Err(_) => {
                let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
                panic!("the server did not exit within {WAIT:?}");
            }
        };
        // Its standard error ends with it.
        let lines = self.lines.iter().collect();
        (status, lines)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A fresh directory for a server's data.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dalmuti-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One HTTP request with a JSON body; the status and the JSON answer.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut answer))
        .await
        .expect("an HTTP answer")
        .unwrap();
    let status = answer.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A human seat over a WebSocket.
struct Client {
    name: &'static str,
    ws: Socket,
    /// The last message with STATE.
    state: Value,
    /// Every event number received in an `event`, in order.
    events: Vec<u64>,
    /// Plays and passes seen in events, in order (`NAME: 6 6 J`).
    plays: Vec<String>,
    acted_at: Option<u64>,
}

impl Client {
    async fn connect(
        addr: SocketAddr,
        table: &str,
        name: &'static str,
        token: &str,
        v: u64,
    ) -> (Client, Value) {
        let stream = TcpStream::connect(addr).await.unwrap();
        let (mut ws, _) =
            tokio_tungstenite::client_async(format!("ws://{addr}/ws/{table}"), stream)
                .await
                .unwrap();
        let hello = json!({"t": "hello", "v": v, "d": {"token": token}});
        ws.send(Message::text(hello.to_string())).await.unwrap();
        let mut client = Client {
            name,
            ws,
            state: Value::Null,
            events: Vec::new(),
            plays: Vec::new(),
            acted_at: None,
        };
        let first = client.recv().await;
        (client, first)
    }

    /// The next message (STATE kept, events counted).
    async fn recv(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no message within {WAIT:?}", self.name))
                .unwrap_or_else(|| panic!("{}: the connection closed", self.name))
                .unwrap();
            let Message::Text(text) = message else {
                continue;
            };
            let m: Value = serde_json::from_str(text.as_str()).unwrap();
            if m["d"]["view"].is_object() {
                self.state = m.clone();
            }
            if m["t"] == json!("event") {
                self.events.push(m["v"].as_u64().unwrap());
                let e = &m["d"]["e"];
                if e["kind"] == json!("act") {
                    let name = e["name"].as_str().unwrap();
                    match &e["action"] {
                        Value::String(s) if s == "pass" => self.plays.push(format!("{name}: pass")),
                        a if a.get("play").is_some() => self
                            .plays
                            .push(format!("{name}: {}", a["play"].as_str().unwrap())),
                        _ => {}
                    }
                }
            }
            return m;
        }
    }

    /// The decision this seat has now, if any, and it was not answered.
    /// Saying ready is not one: the server makes everyone ready when the
    /// setup pause ends.
    fn decision(&self) -> Option<(u64, &Value)> {
        let d = &self.state["d"]["decision"];
        let v = self.state["v"].as_u64()?;
        (!d.is_null() && d["kind"] != "ready" && self.acted_at != Some(v)).then_some((v, d))
    }

    /// Answers the current decision with a legal action.
    async fn act(&mut self) {
        let (v, decision) = self.decision().unwrap();
        let action = choose(decision, self.state["d"]["view"]["hand"].as_str().unwrap());
        self.acted_at = Some(v);
        let message = json!({"t": "act", "v": v, "d": action});
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .unwrap();
    }
}

/// A legal action: no revolution or exchange, the worst cards in tax or in
/// answer, the worst single card to lead, a pass to follow.
fn choose(decision: &Value, hand: &str) -> Value {
    let mut cards: Vec<&str> = hand.split_whitespace().collect();
    // Worst first: Peasants (12) … Dalmuti (1), Jesters last.
    cards.sort_by_key(|c| std::cmp::Reverse(c.parse::<u8>().unwrap_or(0)));
    let worst = |n: usize| cards[..n].join(" ");
    match decision["kind"].as_str().unwrap() {
        "tax" => json!({"give_tax": worst(decision["count"].as_u64().unwrap() as usize)}),
        "offer_exchange" | "exchange_offer" => json!("decline_exchange"),
        "answer_exchange" | "exchange_answer" => json!({"answer_exchange": worst(1)}),
        "lead" => json!({"play": worst(1)}),
        "follow" => json!("pass"),
        other => panic!("an unknown decision {other}"),
    }
}

/// Reads from every client, answering decisions except plays when `stop`
/// says so, until `stop` holds.
async fn play_until(clients: &mut [Client], mut stop: impl FnMut(&[Client]) -> bool) {
    loop {
        if stop(clients) {
            return;
        }
        for client in clients.iter_mut() {
            if client.decision().is_some() {
                client.act().await;
            }
        }
        let (a, b) = clients.split_at_mut(1);
        tokio::select! {
            _ = a[0].recv() => {}
            _ = b[0].recv() => {}
        }
    }
}

/// STATE without what depends on connections or the moment (and the
/// kept chat and news, which only the answer to `hello` carries).
fn game_part(m: &Value) -> Value {
    let mut d = m["d"].clone();
    for k in [
        "lobby",
        "deadline_ms",
        "next_deal_ms",
        "missed",
        "e",
        "error",
        "chat",
        "news",
    ] {
        d.as_object_mut().unwrap().remove(k);
    }
    json!({"v": m["v"], "d": d})
}

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
    let plays: Vec<&str> = record["hands"][0]["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let seen: Vec<String> = plays_before
        .iter()
        .chain(&clients[0].plays)
        .cloned()
        .collect();
    assert_eq!(
        plays, seen,
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_are_json_lines_that_name_tables_and_hide_tokens() {
    let dir = temp_dir("json-logs");
    let server = Serve::start_with(&dir.join("server.sqlite"), &["--log-format", "json"]);
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
