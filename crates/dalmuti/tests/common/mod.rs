//! `dalmuti serve` run as an operator runs it, for the tests: the binary
//! started and killed, one HTTP request at a time, and human seats over
//! WebSockets that answer every decision with a legal action.

#![allow(dead_code)]

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
pub const WAIT: Duration = Duration::from_secs(30);

/// A running `dalmuti serve`, killed when dropped.
pub struct Serve {
    child: Option<Child>,
    /// Where it listens.
    pub addr: SocketAddr,
    lines: mpsc::Receiver<String>,
    /// What it printed up to its address, that line included.
    pub early: Vec<String>,
}

impl Serve {
    /// Starts the binary on `data` and waits for its `open http://…/` line.
    pub fn start(data: &Path) -> Serve {
        Serve::start_with(data.as_os_str(), &[])
    }

    /// Starts the binary on `data` (a file or a `postgres://` address) with
    /// `more` arguments, fast timings and a long grace period, logging at
    /// `info` whatever the test's own $RUST_LOG, and waits for its
    /// `open http://…/` line.
    pub fn start_with(data: &std::ffi::OsStr, more: &[&str]) -> Serve {
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

    pub fn pid(&self) -> nix::unistd::Pid {
        nix::unistd::Pid::from_raw(self.child.as_ref().unwrap().id() as i32)
    }

    /// Kills the server at once (SIGKILL) and waits until it is gone.
    pub fn kill(mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
    }

    /// Waits for the server to exit on its own; its exit status and every
    /// line it printed on its standard error after its address.
    pub fn exit(mut self) -> (std::process::ExitStatus, Vec<String>) {
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
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dalmuti-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One HTTP request with a JSON body; the status and the JSON answer.
pub async fn http(
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

pub type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A human seat over a WebSocket.
pub struct Client {
    /// The seat's name.
    pub name: &'static str,
    /// Its connection.
    pub ws: Socket,
    /// The last message with STATE.
    pub state: Value,
    /// Every event number received in an `event`, in order.
    pub events: Vec<u64>,
    /// Plays and passes seen in events, in order (`NAME: 6 6 J`).
    pub plays: Vec<String>,
    /// The event number it last acted at.
    pub acted_at: Option<u64>,
}

impl Client {
    pub async fn connect(
        addr: SocketAddr,
        table: &str,
        name: &'static str,
        token: &str,
        v: u64,
    ) -> (Client, Value) {
        Client::try_connect(addr, table, name, token, v)
            .await
            .unwrap_or_else(|e| panic!("{name}: cannot connect to {addr}: {e}"))
    }

    /// Connects seat `name` to `table` at `addr` and says hello with `v`;
    /// the client and the first answer, or why it could not connect.
    pub async fn try_connect(
        addr: SocketAddr,
        table: &str,
        name: &'static str,
        token: &str,
        v: u64,
    ) -> Result<(Client, Value), String> {
        let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        let (mut ws, _) =
            tokio_tungstenite::client_async(format!("ws://{addr}/ws/{table}"), stream)
                .await
                .map_err(|e| e.to_string())?;
        let hello = json!({"t": "hello", "v": v, "d": {"token": token}});
        ws.send(Message::text(hello.to_string()))
            .await
            .map_err(|e| e.to_string())?;
        let mut client = Client {
            name,
            ws,
            state: Value::Null,
            events: Vec::new(),
            plays: Vec::new(),
            acted_at: None,
        };
        let first = client.recv().await;
        Ok((client, first))
    }

    /// The next message (STATE kept, events counted).
    pub async fn recv(&mut self) -> Value {
        let name = self.name;
        self.try_recv()
            .await
            .unwrap_or_else(|| panic!("{name}: the connection closed"))
    }

    /// The next message, or `None` once the connection has closed.
    pub async fn try_recv(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no message within {WAIT:?}", self.name));
            let Some(Ok(message)) = message else {
                return None;
            };
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
            return Some(m);
        }
    }

    /// The decision this seat has now, if any, and it was not answered.
    /// Saying ready is not one: the server makes everyone ready when the
    /// setup pause ends.
    pub fn decision(&self) -> Option<(u64, &Value)> {
        let d = &self.state["d"]["decision"];
        let v = self.state["v"].as_u64()?;
        (!d.is_null() && d["kind"] != "ready" && self.acted_at != Some(v)).then_some((v, d))
    }

    /// Answers the current decision with a legal action.
    pub async fn act(&mut self) {
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
pub fn choose(decision: &Value, hand: &str) -> Value {
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
pub async fn play_until(clients: &mut [Client], mut stop: impl FnMut(&[Client]) -> bool) {
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
pub fn game_part(m: &Value) -> Value {
    let mut d = m["d"].clone();
    for k in [
        "lobby",
        "deadline_ms",
        "next_deal_ms",
        "missed",
        "e",
        "error",
        "error_kind",
        "chat",
        "news",
    ] {
        d.as_object_mut().unwrap().remove(k);
    }
    json!({"v": m["v"], "d": d})
}

/// The plays and passes of a record's first hand, in order (`NAME: 6 6 J`,
/// `NAME: pass`), as [`Client::plays`] notes them.
pub fn first_hand_plays(record: &Value) -> Vec<String> {
    record["hands"][0]["plays"]
        .as_array()
        .expect("a record's first hand has plays")
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}
