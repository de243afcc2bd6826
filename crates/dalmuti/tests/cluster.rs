//! Three `dalmuti serve` nodes on one PostgreSQL database, as an operator
//! runs them: the node serving a table is killed (SIGKILL) in the middle of
//! a hand; its lease runs out, another node takes the table over from its
//! log, the players come back through the nodes still up (following
//! `moved`) and the hand goes on to its end with every action they saw
//! kept; the record checks with `dalmuti check` and `dalmuti verify`.
//! And the faults the outside audit of issue 24 provoked, each while a
//! player's act is in flight: the database stops answering the serving
//! node, the serving node is paused past its lease, the serving node is
//! killed; the player is told only what the log holds, its v never going
//! back.
//!
//! Needs `DALMUTI_TEST_DATABASE_URL` (`.ci/run` sets it; locally
//! `eval "$(bash .ci/postgres start target/pg)"`): without it the test fails
//! saying so.

mod common;

use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Client, Serve, WAIT, game_part, http, play_until, temp_dir};
use dalmuti_server::store::TestSchema;
use dalmuti_server::testing::{Stopped, check_told, log_length};
use nix::sys::signal::{Signal, kill};
use serde_json::{Value, json};

/// A node on the schema's database, with leases of two seconds; its
/// connections to the database carry the application name
/// [`application`]`(schema, id)`.
fn node(schema: &TestSchema, id: &str) -> Serve {
    let url = format!(
        "{}&application_name={}",
        schema.url,
        application(schema, id)
    );
    Serve::start_with(url.as_ref(), &["--node-id", id, "--lease-seconds", "2"])
}

/// The application name of node `id`'s database connections: the node's
/// and the test's own schema, so that pausing one test's node never
/// touches another test's (they share the database and the node ids).
fn application(schema: &TestSchema, id: &str) -> String {
    let test = schema.url.rsplit("%3D").next().unwrap_or_default();
    format!("dalmuti-{id}-{test}")
}

/// Connects seat `name` through `entries` in turn until a node serving the
/// table answers with its state: a `moved` is followed to the address it
/// names, and when that fails (the node there is dead, its lease not yet
/// run out), the client tries the next entry a moment later, as the
/// browser does.
async fn reconnect(
    entries: &[SocketAddr],
    table: &str,
    name: &'static str,
    token: &str,
    v: u64,
) -> (Client, Value) {
    let deadline = Instant::now() + WAIT;
    for attempt in 0.. {
        assert!(Instant::now() < deadline, "{name}: no node served {table}");
        let entry = entries[attempt % entries.len()];
        let Ok((client, first)) = Client::try_connect(entry, table, name, token, v).await else {
            continue;
        };
        if first["t"] != json!("moved") {
            return (client, first);
        }
        let owner: Option<SocketAddr> = first["d"]["url"]
            .as_str()
            .and_then(|u| u.strip_prefix("ws://"))
            .and_then(|u| u.split('/').next())
            .and_then(|a| a.parse().ok());
        if let Some(owner) = owner
            && let Ok((client, first)) = Client::try_connect(owner, table, name, token, v).await
            && first["t"] != json!("moved")
        {
            return (client, first);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    unreachable!()
}

/// Runs `dalmuti ARGS FILE` on a record; its exit status and output.
fn dalmuti_on(args: &[&str], record: &Value) -> (bool, String) {
    let dir = temp_dir("cluster-record");
    let file = dir.join("record.json");
    std::fs::write(&file, record.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dalmuti"))
        .args(args)
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), said)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_hand_loses_no_acknowledged_action() {
    let schema = TestSchema::new().unwrap_or_else(|e| panic!("{e}"));
    let n1 = node(&schema, "n1");
    let n2 = node(&schema, "n2");
    let n3 = node(&schema, "n3");
    let (status, created) = http(
        n1.addr,
        "POST",
        "/api/tables",
        None,
        Some(json!({"name": "failover", "player": "Ada", "seats": 4, "hands": 1})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let table = created["id"].as_str().unwrap().to_string();
    let ada = created["token"].as_str().unwrap().to_string();
    let path = format!("/api/tables/{table}/seats");
    let (status, seat) = http(n1.addr, "POST", &path, None, Some(json!({"name": "Bo"}))).await;
    assert_eq!(status, 201, "{seat}");
    let bo = seat["token"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let path = format!("/api/tables/{table}/bots");
        let bot = Some(json!({"bot": "greedy"}));
        let (status, added) = http(n1.addr, "POST", &path, Some(&ada), bot).await;
        assert_eq!(status, 201, "{added}");
    }
    let mut clients = vec![
        Client::connect(n1.addr, &table, "Ada", &ada, 0).await.0,
        Client::connect(n1.addr, &table, "Bo", &bo, 0).await.0,
    ];
    let start = format!("/api/tables/{table}/start");
    assert_eq!(http(n1.addr, "POST", &start, Some(&ada), None).await.0, 204);

    // Into the middle of the hand, a human to play.
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

    // The node serving the table dies at once.
    let killed = Instant::now();
    n1.kill();
    drop(clients);

    // Back through the nodes still up: each seat resumes at the event it
    // saw, nothing missed, the state exactly as it was.
    let entries = [n2.addr, n3.addr];
    let mut clients = Vec::new();
    for (i, (name, token)) in [("Ada", &ada), ("Bo", &bo)].into_iter().enumerate() {
        let (client, catchup) = reconnect(&entries, &table, name, token, v).await;
        assert_eq!(catchup["t"], json!("catchup"), "{catchup}");
        assert_eq!(catchup["d"]["missed"], json!([]), "{name} missed nothing");
        assert_eq!(game_part(&catchup), before[i], "{name}'s state");
        clients.push(client);
    }
    eprintln!("the table was back {:?} after the kill", killed.elapsed());

    // The hand goes on to its end, event numbers following on.
    play_until(&mut clients, |c| {
        c[0].state["d"]["game_over"] == json!(true)
    })
    .await;
    let after = &clients[0].events;
    assert_eq!(after.first(), Some(&(v + 1)), "the first event after");
    assert!(after.windows(2).all(|w| w[1] == w[0] + 1), "{after:?}");

    // The record, from any node, holds every play seen before and after
    // the kill, and checks and verifies with the command line.
    let record_path = format!("/api/tables/{table}/record");
    let (mut status, mut record) = http(n3.addr, "GET", &record_path, None, None).await;
    if status == 307 {
        // Still live on the node that took it over: sent there.
        let to = record["moved"].as_str().unwrap().to_string();
        let owner: SocketAddr = to["http://".len()..]
            .split('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_ne!(owner, n3.addr);
        (status, record) = http(owner, "GET", &record_path, None, None).await;
    }
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        common::first_hand_plays(&record),
        [plays_before, clients[0].plays.clone()].concat(),
        "every play and pass, before and after the kill"
    );
    let (valid, said) = dalmuti_on(&["check"], &record);
    assert!(valid, "dalmuti check: {said}");
    let (fair, said) = dalmuti_on(&["verify"], &record);
    assert!(fair, "dalmuti verify: {said}");
    drop((n2, n3));
}

/// Ada's side of a table of Ada and two bots: her connection, the node it
/// is to, and every message she was told, each checked as it came: the
/// log already held its `v` (commit, then tell).
struct Ada {
    client: Client,
    at: SocketAddr,
    token: String,
    table: String,
    url: String,
    told: Vec<Value>,
}

impl Ada {
    /// Keeps `m`, after checking that the log holds its `v` already.
    fn keep(&mut self, m: Value) -> Value {
        if m["t"] != json!("moved") {
            let v = m["v"].as_u64().unwrap();
            let held = log_length(&self.url, &self.table);
            assert!(
                v <= held,
                "Ada was told v {v} while the log holds {held}: {m}"
            );
        }
        self.told.push(m.clone());
        m
    }

    /// The next message; `None` once the connection closed.
    async fn next(&mut self) -> Option<Value> {
        let m = self.client.try_recv().await?;
        Some(self.keep(m))
    }

    /// Reads on, answering taxes and exchanges (and connecting again
    /// through `entries` when told to go), until Ada must lead or follow;
    /// false if the game ended first.
    async fn until_she_plays(&mut self, entries: &[SocketAddr]) -> bool {
        loop {
            if self.client.state["d"]["game_over"] == json!(true) {
                return false;
            }
            let next = match self.client.decision().map(|(_, d)| d["kind"].clone()) {
                Some(kind) if kind == json!("lead") || kind == json!("follow") => {
                    // Hers only if nothing else is on its way (no act on
                    // a state already past).
                    match tokio::time::timeout(Duration::from_millis(500), self.next()).await {
                        Err(_) => return true,
                        Ok(next) => next,
                    }
                }
                Some(_) => {
                    self.client.act().await;
                    self.next().await
                }
                None => self.next().await,
            };
            if next.is_none() {
                self.reconnect(entries).await;
            }
        }
    }

    /// Reads until her act is answered (an event past the v she acted at,
    /// or a refusal) or the connection closes; true if it closed.
    async fn until_answered(&mut self, acted_at: u64) -> bool {
        loop {
            let Some(m) = self.next().await else {
                return true;
            };
            if m["t"] == json!("moved") {
                continue;
            }
            if m["t"] == json!("resync") || m["v"].as_u64() > Some(acted_at) {
                return false;
            }
        }
    }

    /// Reads on until Ada must lead or follow (see [`Ada::until_she_plays`]);
    /// the index in `nodes` of the node serving her then. Fails, naming
    /// `fault`, if the game ended first.
    async fn until_hers(&mut self, nodes: &[Option<Serve>], fault: &str) -> usize {
        let entries: Vec<SocketAddr> = nodes.iter().flatten().map(|n| n.addr).collect();
        assert!(
            self.until_she_plays(&entries).await,
            "the game ended before: {fault}"
        );
        nodes
            .iter()
            .position(|n| n.as_ref().is_some_and(|n| n.addr == self.at))
            .expect("Ada is at a live node")
    }

    /// Sends her answer to the decision she has; the v it was chosen at.
    async fn act(&mut self) -> u64 {
        let (v, _) = self.client.decision().unwrap();
        self.client.act().await;
        v
    }

    /// After `fault`: reads until her act at `v` is answered or the
    /// connection closes, and connects again through `entries` if it
    /// closed (or, when the node is `gone`, once it closes); then says
    /// what she was told since message `from`.
    async fn settle(
        &mut self,
        v: u64,
        entries: &[SocketAddr],
        gone: bool,
        from: usize,
        fault: &str,
    ) {
        let closed = self.until_answered(v).await;
        if gone && !closed {
            // Answered before the node went: the connection ends now.
            while self.next().await.is_some() {}
        }
        if closed || gone {
            self.reconnect(entries).await;
        }
        eprintln!("{fault}: {}", self.told_since(from));
    }

    /// What she was told since message `from`, in short (type and v).
    fn told_since(&self, from: usize) -> String {
        let said: Vec<String> = self.told[from..]
            .iter()
            .map(|m| format!("{} {}", m["t"].as_str().unwrap(), m["v"]))
            .collect();
        said.join(", ")
    }

    /// Connects again through the nodes at `entries`, saying hello with the
    /// last `v` she was told.
    async fn reconnect(&mut self, entries: &[SocketAddr]) {
        let v = self
            .told
            .iter()
            .filter_map(|m| m["v"].as_u64())
            .max()
            .unwrap_or(0);
        let (client, first) = reconnect(entries, &self.table, "Ada", &self.token, v).await;
        self.at = client.ws.get_ref().peer_addr().unwrap();
        self.client = client;
        self.keep(first);
    }
}

/// The faults of the outside audit (issue 24), at a table of Ada and two
/// bots on three nodes, each while Ada's lead or follow is in flight:
/// the database stops answering the serving node for 10 s (five leases),
/// then the serving node is paused (SIGSTOP) for five leases, then it is
/// killed. Every message Ada is told is checked as it comes (the log
/// holds its v) and at the end against the log and the kept news (no v
/// back, every event the log's, one state per v); the game ends and its
/// record checks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn through_a_paused_database_and_a_paused_or_killed_node_ada_is_told_only_the_log() {
    let schema = TestSchema::new().unwrap_or_else(|e| panic!("{e}"));
    let ids = ["n1", "n2", "n3"];
    let mut nodes: Vec<Option<Serve>> = ids.iter().map(|id| Some(node(&schema, id))).collect();
    let entry = nodes[0].as_ref().unwrap().addr;
    let body = json!({"name": "faults", "player": "Ada", "seats": 3, "hands": 4});
    let (status, created) = http(entry, "POST", "/api/tables", None, Some(body)).await;
    assert_eq!(status, 201, "{created}");
    let table = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let path = format!("/api/tables/{table}/bots");
        let bot = Some(json!({"bot": "greedy"}));
        let (status, added) = http(entry, "POST", &path, Some(&token), bot).await;
        assert_eq!(status, 201, "{added}");
    }
    let (client, first) = Client::connect(entry, &table, "Ada", &token, 0).await;
    let mut ada = Ada {
        client,
        at: entry,
        token: token.clone(),
        table: table.clone(),
        url: schema.url.clone(),
        told: Vec::new(),
    };
    ada.keep(first);
    let start = format!("/api/tables/{table}/start");
    assert_eq!(http(entry, "POST", &start, Some(&token), None).await.0, 204);
    let live = |nodes: &[Option<Serve>]| -> Vec<SocketAddr> {
        nodes.iter().flatten().map(|n| n.addr).collect()
    };
    let lease = Duration::from_secs(2);

    // 1. The database stops answering the serving node, Ada's act in
    // flight, for five leases; then it answers again.
    let serving = ada.until_hers(&nodes, "the database paused").await;
    let from = ada.told.len();
    let mut stopped = Stopped::backends(&schema.url, &application(&schema, ids[serving]));
    let v = ada.act().await;
    let paused = Instant::now();
    while paused.elapsed() < 5 * lease {
        tokio::time::sleep(Duration::from_millis(200)).await;
        stopped.again();
    }
    stopped.resume();
    ada.settle(v, &live(&nodes), false, from, "the database paused")
        .await;

    // 2. The serving node is paused past its lease, Ada's act in flight.
    let serving = ada.until_hers(&nodes, "the node paused").await;
    let from = ada.told.len();
    let pid = nodes[serving].as_ref().unwrap().pid();
    kill(pid, Signal::SIGSTOP).unwrap();
    let v = ada.act().await;
    tokio::time::sleep(5 * lease).await;
    kill(pid, Signal::SIGCONT).unwrap();
    ada.settle(v, &live(&nodes), false, from, "the node paused")
        .await;

    // 3. The serving node is killed, Ada's act in flight.
    let serving = ada.until_hers(&nodes, "the node killed").await;
    let from = ada.told.len();
    let v = ada.act().await;
    nodes[serving].take().unwrap().kill();
    ada.settle(v, &live(&nodes), true, from, "the node killed")
        .await;

    // The game goes on to its end.
    loop {
        if ada.client.state["d"]["game_over"] == json!(true) {
            break;
        }
        if ada.client.decision().is_some() {
            ada.client.act().await;
        }
        if ada.next().await.is_none() {
            ada.reconnect(&live(&nodes)).await;
        }
    }
    check_told(&schema.url, &table, &ada.told, "Ada");
    let moves = ada.told.iter().filter(|m| m["t"] == json!("moved")).count();
    eprintln!(
        "Ada was told {} messages, {moves} of them `moved`",
        ada.told.len()
    );
    drop(nodes);
}
