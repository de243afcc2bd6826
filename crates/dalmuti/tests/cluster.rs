//! Three `dalmuti serve` nodes on one PostgreSQL database, as an operator
//! runs them: the node serving a table is killed (SIGKILL) in the middle of
//! a hand; its lease runs out, another node takes the table over from its
//! log, the players come back through the nodes still up (following
//! `moved`) and the hand goes on to its end with every action they saw
//! kept; the record checks with `dalmuti check` and `dalmuti verify`.
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
use serde_json::{Value, json};

/// A node on the schema's database, with leases of two seconds.
fn node(schema: &TestSchema, id: &str) -> Serve {
    Serve::start_with(
        schema.url.as_ref(),
        &["--node-id", id, "--lease-seconds", "2"],
    )
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
