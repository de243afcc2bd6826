//! Several nodes on one PostgreSQL database, over real sockets (each node
//! a server in this process with its own id and address): a table is
//! served by one node and reached through any (HTTP 307, WebSocket
//! `moved`), listed in every node's lobby; a node that loses its lease
//! writes nothing more; nodes racing for an orphaned table never both
//! write it; a node that stops hands its tables over to the others.
//! A node killed outright (SIGKILL) is `crates/dalmuti/tests/cluster.rs`.
//!
//! Needs `DALMUTI_TEST_DATABASE_URL` (`.ci/run` sets it; locally
//! `eval "$(bash .ci/postgres start target/pg)"`): without it the tests fail
//! saying so.

mod common;

use std::time::Duration;

use common::{Mode, Player, Reading, Server, WAIT, Ws, asks_to_play, error_body, msg_of};
use dalmuti_core::Decision;
use dalmuti_core::record::{Checked, check};
use dalmuti_server::Config;
use dalmuti_server::names::PlayerName;
use dalmuti_server::protocol::{Described, Moved, MsgType, ServerMsg, Told};
use dalmuti_server::store::{PostgresStore, Store, TestSchema};
use dalmuti_server::testing::check_told;
use serde_json::{Value, json};

fn schema() -> TestSchema {
    TestSchema::new().unwrap_or_else(|e| panic!("{e}"))
}

/// Starts node `id` on the schema's database with leases of `lease`.
async fn node(schema: &TestSchema, id: &str, lease: Duration) -> Server {
    let id = id.to_string();
    Server::start_on_postgres(&schema.url, move |c: &mut Config| {
        c.node_id = Some(id);
        c.lease = lease;
        // Nobody plays for a seat while the test moves it between nodes.
        c.grace = Duration::from_secs(600);
    })
    .await
}

/// Runs statement `f` on a plain client of the database, as an
/// operator's psql would (on a thread of its own: the client blocks).
fn sql<T: Send>(schema: &TestSchema, f: impl FnOnce(&mut postgres::Client) -> T + Send) -> T {
    std::thread::scope(|s| {
        s.spawn(|| f(&mut postgres::Client::connect(&schema.url, postgres::NoTls).unwrap()))
            .join()
            .unwrap()
    })
}

/// Expires table `id`'s lease behind its holder's back.
fn expire(schema: &TestSchema, id: &str) {
    sql(schema, |c| {
        c.execute(
            "UPDATE leases SET expires = now() - interval '1 second' WHERE table_id = $1",
            &[&id],
        )
        .unwrap()
    });
}

/// The node holding table `id`'s lease, its epoch, and whether it is
/// unexpired.
fn holder(schema: &TestSchema, id: &str) -> Option<(String, i64, bool)> {
    sql(schema, |c| {
        let row = c
            .query_opt(
                "SELECT node, epoch, expires > now() FROM leases WHERE table_id = $1",
                &[&id],
            )
            .unwrap()?;
        Some((row.get(0), row.get(1), row.get(2)))
    })
}

/// Every event of table `id`: its number and the epoch it was written
/// under.
fn epochs(schema: &TestSchema, id: &str) -> Vec<(i64, Option<i64>)> {
    sql(schema, |c| {
        c.query(
            "SELECT v, epoch FROM log WHERE table_id = $1 ORDER BY v",
            &[&id],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
    })
}

/// An HTTP request to `server` and its status, `Location` header and body.
async fn http_head(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Option<String>, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        server.addr
    );
    if let Some(token) = token {
        head += &format!("Authorization: Bearer {token}\r\n");
    }
    head += &format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (status, head, body) = common::raw_http_head(server.addr, head.as_bytes()).await;
    let location = head
        .lines()
        .find_map(|l| l.strip_prefix("location: "))
        .map(|l| l.trim().to_string());
    (status, location, body)
}

/// Waits until `ok` holds, polling.
async fn eventually<T>(what: &str, mut ok: impl AsyncFnMut() -> Option<T>) -> T {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        if let Some(t) = ok().await {
            return t;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not within {WAIT:?}: {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A one-hand table of three on `server`: Ada, its host, and two greedy
/// bots, with `settings` added to the request; its id and Ada's token.
async fn ada_and_two_bots(server: &Server, settings: Value) -> (String, String) {
    let mut request = json!({"player": "Ada", "seats": 3, "hands": 1});
    request
        .as_object_mut()
        .unwrap()
        .extend(settings.as_object().unwrap().clone());
    let (id, ada) = server.create_table(request).await;
    server.add_bot(&id, &ada, "greedy").await;
    server.add_bot(&id, &ada, "greedy").await;
    (id, ada)
}

/// Ada connects as a player who answers everything but her plays, the
/// game starts, and the table waits for her first play: her player and
/// that message.
async fn until_adas_first_play(server: &Server, id: &str, ada: &str) -> (Player, ServerMsg) {
    let mut ada_p = Player::join(server, id, "Ada", Some(ada), 0, Mode::NoPlay).await;
    server.start_game(id, ada).await;
    let waiting = ada_p.wait_for_msg("Ada's first play", asks_to_play).await;
    (ada_p, waiting)
}

/// The table's record checks, with every hand played.
async fn record_checks(server: &Server, id: &str) {
    let (status, record) = server
        .http("GET", &format!("/api/tables/{id}/record"), None, None)
        .await;
    assert_eq!(status, 200, "{record}");
    match check(&record.to_string()) {
        Checked::Valid(report) => {
            assert!(!report.hands.is_empty(), "{record}");
            assert!(report.hands.iter().all(|h| h.finished), "{record}");
        }
        other => panic!("the record does not check: {other:?}\n{record}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_serve_one_table_reached_through_any_of_them() {
    let schema = schema();
    let ttl = Duration::from_secs(3);
    let n1 = node(&schema, "n1", ttl).await;
    let n2 = node(&schema, "n2", ttl).await;
    let n3 = node(&schema, "n3", ttl).await;
    let (id, ada) = n1
        .create_table(json!({"name": "across nodes", "player": "Ada", "seats": 4, "hands": 1}))
        .await;
    assert_eq!(holder(&schema, &id).map(|l| l.0), Some("n1".into()));

    // HTTP to another node: 307 to the same path on n1, with the body.
    let path = format!("/api/tables/{id}/seats");
    let (status, location, body) =
        http_head(&n2, "POST", &path, None, Some(json!({"name": "Bo"}))).await;
    assert_eq!(status, 307, "{body}");
    let expected = format!("http://{}{path}", n1.addr);
    assert_eq!(location.as_deref(), Some(expected.as_str()), "{body}");
    let refused = error_body(&body);
    assert_eq!(refused.moved, Some(expected), "{body}");
    assert!(refused.error.contains("served by node n1"), "{body}");
    // Nothing happened on n2: the seat is still free, taken where it lives.
    let bo = n1.take_seat(&id, "Bo").await;
    n1.add_bot(&id, &ada, "greedy").await;
    n1.add_bot(&id, &ada, "greedy").await;

    // A WebSocket to a third node: one `moved` message with n1's address.
    let (_ws, moved) = n3.hello_msg(&id, Some(&bo), 0).await;
    let Told::Moved(moved) = &moved.told else {
        panic!("not moved: {moved:?}")
    };
    assert_eq!(moved.url, Some(format!("ws://{}/ws/{id}", n1.addr)));
    assert_eq!(moved.node.as_deref(), Some("n1"));

    let ada_p = Player::join(&n1, &id, "Ada", Some(&ada), 0, Mode::All).await;
    let bo_p = Player::join(&n1, &id, "Bo", Some(&bo), 0, Mode::All).await;

    // Every node's lobby lists the table once a person is at it (each
    // node publishes its tables' summaries every third of a lease).
    for other in [&n2, &n3] {
        eventually("the table in another node's lobby", async || {
            let lobby = other.lobby("/api/tables").await;
            (lobby.iter())
                .any(|t| t.id == id.as_str() && t.taken.len() == 4)
                .then_some(())
        })
        .await;
    }

    // A host's request through the wrong node: sent to n1, where it is
    // done (the method and the token kept by the client, as 307 says).
    let start = format!("/api/tables/{id}/start");
    let (status, location, _) = http_head(&n2, "POST", &start, Some(&ada), None).await;
    assert_eq!(status, 307);
    assert_eq!(location, Some(format!("http://{}{start}", n1.addr)));
    n1.start_game(&id, &ada).await;
    ada_p.finish().await;
    bo_p.finish().await;
    // The record from any node: a finished game is in the shared store.
    record_checks(&n3, &id).await;
    assert!(
        epochs(&schema, &id).iter().all(|(_, e)| e.is_some()),
        "every event written under a lease"
    );
    for n in [n1, n2, n3] {
        n.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_lease_was_taken_writes_nothing_more() {
    let schema = schema();
    // Long leases: n1 does not notice its loss by renewing, only by
    // writing, as a node that stalled (a long pause, a partition) would.
    let ttl = Duration::from_secs(60);
    let n1 = node(&schema, "n1", ttl).await;
    let n2 = node(&schema, "n2", ttl).await;
    let (id, ada) = ada_and_two_bots(&n1, json!({})).await;
    let (mut ws, _) = n1.hello(&id, Some(&ada), 0).await;
    n1.start_game(&id, &ada).await;
    // Ada answers what comes before her first play (a tax, an exchange).
    let waiting = loop {
        let m = ws.recv_msg().await;
        let Some(state) = m.state() else { continue };
        match state.state.decision.as_ref().map(|d| &d.0) {
            Some(Decision::Lead | Decision::Follow { .. }) => break m,
            Some(Decision::Ready) | None => {}
            Some(_) => {
                let action = common::choose_for(state).unwrap();
                ws.send_json(&json!({"t": "act", "v": m.v, "d": action}))
                    .await;
            }
        }
    };
    let (_, first_epoch, _) = holder(&schema, &id).unwrap();
    let before = epochs(&schema, &id);

    // n1's lease runs out behind its back, and n2 takes the table over
    // on the first request for it.
    expire(&schema, &id);
    let info = n2.table_info(&id).await;
    assert_eq!(
        info.v,
        before.len() as u64,
        "rebuilt from the log: {info:?}"
    );
    let (holder, epoch, live) = holder(&schema, &id).unwrap();
    assert_eq!((holder.as_str(), live), ("n2", true));
    assert!(epoch > first_epoch);

    // Ada's play reaches n1, which still believes it serves the table:
    // the database refuses the write, n1 tells Ada the table moved and
    // stops serving it.
    let v = waiting.v;
    let action = common::choose_for(waiting.expect_state()).unwrap();
    ws.send_json(&json!({"t": "act", "v": v, "d": action}))
        .await;
    // Commit, then tell (issue 24, D1): up to `moved`, nothing n1 says is
    // past what the log holds, and its resync is the state at v, without
    // the refused play.
    let mut told = Vec::new();
    let moved = loop {
        let m = ws.recv_msg().await;
        if let Told::Moved(moved) = m.told {
            break moved;
        }
        told.push(m);
    };
    assert_eq!(moved.url, None, "{moved:?}");
    assert!(told.iter().any(|m| m.t() == MsgType::Error), "{told:?}");
    let waiting = &waiting.expect_state().state;
    for m in &told {
        assert_ne!(m.t(), MsgType::Event, "not played on n1: {m:?}");
        assert!(m.v <= v, "uncommitted v told: {m:?}");
        if m.t() == MsgType::Resync {
            let state = &m.expect_state().state;
            assert_eq!(state.view, waiting.view, "{m:?}");
            assert_eq!(state.decision, waiting.decision, "{m:?}");
        }
    }
    assert_eq!(
        epochs(&schema, &id),
        before,
        "nothing written by n1 after losing its lease"
    );

    // Through n1 now: sent to n2, where the game goes on to its end.
    let (status, location, _) =
        http_head(&n1, "GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!(status, 307);
    assert_eq!(
        location,
        Some(format!("http://{}/api/tables/{id}", n2.addr))
    );
    let ada_p = Player::join(&n2, &id, "Ada", Some(&ada), v, Mode::All).await;
    ada_p.finish().await;
    record_checks(&n2, &id).await;
    let log = epochs(&schema, &id);
    assert!(log.len() > before.len());
    assert!(
        log[before.len()..].iter().all(|(_, e)| *e == Some(epoch)),
        "after the takeover, only n2's epoch: {log:?}"
    );
    n1.stop().await;
    n2.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_racing_for_an_orphaned_table_never_both_write_it() {
    let schema = schema();
    let ttl = Duration::from_secs(60);
    let n1 = node(&schema, "n1", ttl).await;
    let n2 = node(&schema, "n2", ttl).await;
    let n3 = node(&schema, "n3", ttl).await;
    for round in 0..5 {
        let (id, ada) = n1
            .create_table(json!({"player": "Ada", "seats": 3, "hands": 1}))
            .await;
        expire(&schema, &id);
        // Bots added at once through both other nodes: each request
        // either takes the table or is sent to whoever did.
        let path = format!("/api/tables/{id}/bots");
        let mut asks = Vec::new();
        for server in [&n2, &n3, &n2, &n3] {
            asks.push(http_head(
                server,
                "POST",
                &path,
                Some(&ada),
                Some(json!({"bot": "greedy"})),
            ));
        }
        let answers = futures_util::future::join_all(asks).await;
        let (holder, _, live) = holder(&schema, &id).unwrap();
        assert!(live && holder != "n1", "round {round}: {holder}");
        let owner = if holder == "n2" { &n2 } else { &n3 };
        let mut added = 0;
        for (status, location, body) in &answers {
            match status {
                201 => added += 1,
                307 => assert_eq!(
                    location.as_deref(),
                    Some(format!("http://{}{path}", owner.addr).as_str()),
                    "round {round}: {body}"
                ),
                // The table is full once two bots sit.
                409 => {}
                _ => panic!("round {round}: {status} {body}"),
            }
        }
        assert!((1..=2).contains(&added), "round {round}: {answers:?}");
        // One epoch after the takeover, and the log without a gap.
        let log = epochs(&schema, &id);
        let numbers: Vec<i64> = log.iter().map(|(v, _)| *v).collect();
        assert_eq!(numbers, (1..=log.len() as i64).collect::<Vec<_>>());
        let after: Vec<Option<i64>> = log[1..].iter().map(|(_, e)| *e).collect();
        assert!(
            after.windows(2).all(|w| w[0] == w[1]),
            "round {round}: two nodes wrote: {log:?}"
        );
    }
    for n in [n1, n2, n3] {
        n.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_stops_hands_its_tables_over() {
    let schema = schema();
    let ttl = Duration::from_secs(60);
    let n1 = node(&schema, "n1", ttl).await;
    let n2 = node(&schema, "n2", ttl).await;
    let (id, ada) = ada_and_two_bots(&n1, json!({})).await;
    let (mut ada_p, waiting) = until_adas_first_play(&n1, &id, &ada).await;
    let seen = waiting.v;

    // n1 stops (SIGTERM in `dalmuti serve`): the lease is given up at once
    // (not left to expire) and Ada is told the table moved.
    n1.stop().await;
    let moved = ada_p
        .wait_for_msg("moved", |m| m.t() == MsgType::Moved)
        .await;
    let Told::Moved(Moved { url, .. }) = &moved.told else {
        unreachable!()
    };
    assert_eq!(url, &None, "{moved:?}");
    let (_, _, live) = holder(&schema, &id).unwrap();
    assert!(!live, "released, not left to expire");

    // Ada comes back through n2, which takes the table at once, at the
    // event she saw, and the game goes on to its end.
    let ada_p = Player::join(&n2, &id, "Ada", Some(&ada), seen, Mode::All).await;
    ada_p.finish().await;
    record_checks(&n2, &id).await;
    // n2's metrics count the table it took over.
    let (status, metrics) = n2.http("GET", "/metrics", None, None).await;
    assert_eq!(status, 200);
    let metrics = metrics.as_str().unwrap_or_default().to_string();
    assert!(
        metrics.contains("dalmuti_lease_changes_total{change=\"acquired\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("dalmuti_node_info{node=\"n2\"} 1"),
        "{metrics}"
    );
    // The store a fourth program reads sees the whole game, in order.
    let other = PostgresStore::open(&schema.url).unwrap();
    let log = other.log(&id.as_str().into()).unwrap();
    assert!(log.len() as u64 > seen);
    n2.stop().await;
}

/// The drain's race (issue 40: a draining node closed 1 connection of 42
/// without `moved`): a table that a node takes over while it begins to
/// drain (the request for it was on its way when the drain took the
/// node's tables) is handed over too: its client is told `moved`, its
/// lease is released at once (not held until it expires, the table
/// stalled meanwhile), and another node serves it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_taken_over_as_the_node_drains_is_handed_over_too() {
    let schema = schema();
    let ttl = Duration::from_secs(60);
    // A table no node serves, with no lease (so no node's rounds take it
    // over before a lease's time): made on n0, which stops.
    let n0 = node(&schema, "n0", ttl).await;
    let (id, ada) = n0.create_table(json!({"player": "Ada", "seats": 3})).await;
    n0.stop().await;
    sql(&schema, |c| {
        c.execute("DELETE FROM leases WHERE table_id = $1", &[&id])
            .unwrap()
    });
    let n1 = node(&schema, "n1", ttl).await;
    let n1_addr = n1.addr;

    // The leases are locked as by a slow database: n1's taking of the
    // table waits in the middle, past its check that it is not draining.
    let (release, released) = std::sync::mpsc::channel::<()>();
    let (locked, is_locked) = std::sync::mpsc::channel::<()>();
    let url = schema.url.clone();
    let locker = std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let mut tx = client.transaction().unwrap();
        tx.batch_execute("LOCK TABLE leases IN EXCLUSIVE MODE")
            .unwrap();
        locked.send(()).unwrap();
        let _ = released.recv();
        tx.rollback().unwrap();
    });
    is_locked.recv().unwrap();
    let path = format!("/ws/{id}");
    let hello = common::hello(Some(&ada), 0);
    let client = tokio::spawn(async move {
        let mut ws = Ws::try_connect(n1_addr, &path)
            .await
            .map_err(|(status, body)| format!("no WebSocket: {status} {body}"))?;
        ws.send_json(&hello).await;
        let mut told = Vec::new();
        loop {
            match ws.recv_within(WAIT).await {
                Some(Some(common::Frame::Text(text))) => told.push(text),
                Some(Some(common::Frame::Close(code, reason))) => {
                    told.push(format!("close {code:?} {reason}"));
                    return Ok::<_, String>(told);
                }
                Some(Some(_)) => {}
                Some(None) => return Ok(told),
                None => return Err(format!("nothing within {WAIT:?}: {told:?}")),
            }
        }
    });
    eventually(
        "n1's taking of the table waits for the leases",
        async || {
            let waiting: i64 = sql(&schema, |c| {
                c.query_one(
                "SELECT count(*) FROM pg_locks WHERE relation = 'leases'::regclass AND NOT granted",
                &[],
            )
            .unwrap()
            .get(0)
            });
            (waiting > 0).then_some(())
        },
    )
    .await;

    // n1 drains (SIGTERM) while it takes the table; the database answers
    // once the drain has begun.
    let stopping = tokio::spawn(n1.stop());
    eventually("n1 drains", async || {
        let ready = tokio::time::timeout(Duration::from_secs(1), async {
            let mut stream = tokio::net::TcpStream::connect(n1_addr).await.ok()?;
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let request =
                format!("GET /readyz HTTP/1.1\r\nHost: {n1_addr}\r\nConnection: close\r\n\r\n");
            stream.write_all(request.as_bytes()).await.ok()?;
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).await.ok()?;
            Some(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"))
        })
        .await;
        (ready != Ok(Some(true))).then_some(())
    })
    .await;
    release.send(()).unwrap();
    locker.join().unwrap();

    let told = client.await.unwrap().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        told.iter().any(|m| m.contains("\"t\":\"moved\"")),
        "the client was not told the table moved: {told:?}"
    );
    stopping.await.unwrap();
    if let Some((node, _, live)) = holder(&schema, &id) {
        assert!(!live, "{node}'s lease released, not left to expire");
    }
    // Another node serves it at once.
    let n2 = node(&schema, "n2", ttl).await;
    let (_ws, answer) = n2.hello_msg(&id, Some(&ada), 0).await;
    assert!(answer.state().is_some(), "{answer:?}");
    n2.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_and_the_turn_timer_go_on_after_a_takeover() {
    let schema = schema();
    let ttl = Duration::from_secs(60);
    let n1 = node(&schema, "n1", ttl).await;
    let n2 = node(&schema, "n2", ttl).await;
    let (id, ada) = ada_and_two_bots(&n1, json!({"turn_seconds": 10})).await;
    let (mut ada_p, waiting) = until_adas_first_play(&n1, &id, &ada).await;
    let seen = waiting.v;
    n1.stop().await;
    ada_p
        .wait_for_msg("moved", |m| m.t() == MsgType::Moved)
        .await;

    // On n2, Ada still does not play: her turn timer runs there, and when
    // it runs out her move is made for her; the bots play on.
    let mut ada_p = Player::join(&n2, &id, "Ada", Some(&ada), seen, Mode::NoPlay).await;
    let timed_out = ada_p
        .wait_for_msg("Ada's move made by the turn timer", |m| {
            m.t() == MsgType::Event && actor(m).is_some_and(|name| name == "Ada")
        })
        .await;
    assert_eq!(timed_out.v, seen + 1, "{timed_out:?}");
    ada_p
        .wait_for_msg("a bot's move on n2", |m| {
            m.t() == MsgType::Event && actor(m).is_some_and(|name| name != "Ada")
        })
        .await;
    ada_p
        .mode
        .store(Mode::All as u8, std::sync::atomic::Ordering::Relaxed);
    ada_p.finish().await;
    record_checks(&n2, &id).await;
    n2.stop().await;
}

/// Who acted, if `m` tells of an action.
fn actor(m: &ServerMsg) -> Option<&PlayerName> {
    match m.state()?.e.as_ref()? {
        Described::Act { name, .. } => Some(name),
        _ => None,
    }
}

/// What a client saw, checked against what the database kept.
#[derive(Default)]
struct Seen {
    /// Every message, in order, across every connection (as JSON, as
    /// `check_told` reads them against the database's rows).
    messages: Vec<Value>,
    /// The last v told.
    v: u64,
}

/// A tiny seeded generator (xorshift): the schedule is the seed's alone.
struct Schedule(u64);

impl Schedule {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Ada's client: connects to node `at` (following `moved` to the node that
/// serves the table), says hello at the last v it saw, and plays until it
/// has acted once more, the game is over, or the connection ends. True
/// if the game is over.
async fn ada_plays_once(
    nodes: &[Option<Server>],
    at: usize,
    id: &str,
    ada: &str,
    seen: &mut Seen,
) -> bool {
    let mut addr = match &nodes[at] {
        Some(node) => node.addr,
        None => return false,
    };
    for _ in 0..4 {
        let Ok(mut ws) = Ws::try_connect(addr, &format!("/ws/{id}")).await else {
            return false;
        };
        ws.send_json(&common::hello(Some(ada), seen.v)).await;
        loop {
            let m = match ws.recv_within(WAIT).await {
                Some(Some(common::Frame::Text(text))) => {
                    seen.messages
                        .push(serde_json::from_str::<Value>(&text).unwrap());
                    msg_of(&text)
                }
                Some(Some(common::Frame::Ping | common::Frame::Binary(_))) => continue,
                Some(Some(common::Frame::Close(..)) | None) => return false,
                None => panic!("no message within {WAIT:?}"),
            };
            seen.v = seen.v.max(m.v);
            if let Told::Moved(moved) = &m.told {
                // Where the table is served now, if the node knows.
                match &moved.url {
                    Some(url) => {
                        let host = url.split("://").nth(1).unwrap().split('/').next().unwrap();
                        addr = host.parse().unwrap();
                        break;
                    }
                    None => return false,
                }
            }
            let Some(state) = m.state() else { continue };
            if state.state.game_over {
                return true;
            }
            if let Some(action) = common::choose_for(state)
                && !matches!(
                    state.state.decision.as_ref().map(|d| &d.0),
                    None | Some(Decision::Ready)
                )
            {
                ws.send_json(&json!({"t": "act", "v": m.v, "d": action}))
                    .await;
                return false;
            }
        }
    }
    false
}

/// Commit, then tell, as a property over fault schedules (issue 24): three
/// nodes serve one table while, at seeded moments, the serving node's
/// lease is taken behind its back (a node paused past its lease) or the
/// serving node drains and comes back. Ada's client follows the table
/// wherever it goes, and everything it was told is checked against what
/// the database kept: every event v it saw is the log's event v (its kind
/// and player), no message is past the log, v never goes back, and every
/// news line it saw is the line the database kept under its number.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_client_is_told_is_what_the_log_holds_through_faults() {
    for seed in [7u64, 1234, 5, 2026] {
        let schema = schema();
        let ttl = Duration::from_secs(60);
        let names = ["n1", "n2", "n3"];
        let mut nodes = Vec::new();
        for name in names {
            nodes.push(Some(node(&schema, name, ttl).await));
        }
        let (id, ada) = ada_and_two_bots(nodes[0].as_ref().unwrap(), json!({"hands": 2})).await;
        nodes[0].as_ref().unwrap().start_game(&id, &ada).await;
        let mut seen = Seen::default();
        let mut schedule = Schedule(seed);
        let mut faults = 0;
        let mut over = false;
        for _ in 0..400 {
            let serving = holder(&schema, &id)
                .and_then(|(n, _, _)| names.iter().position(|m| *m == n))
                .unwrap_or(0);
            // Ada reaches the table through any node.
            let through = schedule.next(3) as usize;
            over = ada_plays_once(&nodes, through, &id, &ada, &mut seen).await;
            if over {
                break;
            }
            match schedule.next(8) {
                // The serving node stalls past its lease: another takes
                // the table over, and the stalled one finds out when it
                // next writes.
                0 => {
                    expire(&schema, &id);
                    let other = (serving + 1 + schedule.next(2) as usize) % 3;
                    if let Some(node) = &nodes[other] {
                        let _ = node
                            .http("GET", &format!("/api/tables/{id}"), None, None)
                            .await;
                    }
                    faults += 1;
                }
                // The serving node drains and comes back (a few times:
                // each node in this process keeps its connections).
                1 if faults < 6 => {
                    if let Some(node) = nodes[serving].take() {
                        node.stop().await;
                        nodes[serving] = Some(node_named(&schema, names[serving], ttl).await);
                        faults += 1;
                    }
                }
                _ => {}
            }
        }
        assert!(over, "seed {seed}: the game did not end");
        assert!(faults > 0, "seed {seed}: no fault came");
        check_told(&schema.url, &id, &seen.messages, &format!("seed {seed}"));
        for node in nodes.into_iter().flatten() {
            node.stop().await;
        }
    }
}

/// Starts node `id` again (the same as [`node`]).
async fn node_named(schema: &TestSchema, id: &str, lease: Duration) -> Server {
    node(schema, id, lease).await
}
