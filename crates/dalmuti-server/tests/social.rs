//! What players say and see around the game, over real sockets: chat and
//! table news kept by the server (through a reload and a restart),
//! spectators' chat at the host's word, the rematch with the same seats,
//! and the lobby's names, finished games and idle tables.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};

/// A chat line from this connection.
fn chat(text: &str) -> Value {
    json!({"t": "chat", "d": text})
}

/// The kept lines' texts, in order.
fn texts(lines: &Value) -> Vec<&str> {
    lines
        .as_array()
        .expect("an array of lines")
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect()
}

/// The kept news lines' kinds, in order.
fn kinds(lines: &Value) -> Vec<&str> {
    lines
        .as_array()
        .expect("an array of lines")
        .iter()
        .map(|l| l["kind"].as_str().unwrap())
        .collect()
}

/// Every line's number, in order: each greater than the one before.
fn assert_numbered(lines: &Value) {
    let n: Vec<u64> = lines
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["n"].as_u64().expect("a line has its number"))
        .collect();
    assert!(n.windows(2).all(|w| w[0] < w[1]), "numbers in order: {n:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_and_news_survive_a_reload_and_a_restart() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "talk", "player": "Ada", "seats": 4}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    server.add_bot(&id, &ada, "easy").await;
    let (mut ada_ws, first) = server.hello(&id, Some(&ada), 0).await;
    assert_eq!(first["d"]["chat"], json!([]), "no chat yet: {first}");
    // The news is structured: a kind and names, for the client to word.
    let news = &first["d"]["news"];
    assert_eq!(kinds(news), ["seat", "seat", "seat"], "{news}");
    assert_eq!(news[0]["name"], json!("Ada"));
    assert_eq!(news[0]["bot"], Value::Null);
    assert_eq!(news[2]["bot"], json!("easy"));
    assert_numbered(news);

    for line in ["hello Bo", "ready?"] {
        ada_ws.send_json(&chat(line)).await;
        let live = ada_ws.recv_until(|m| m["t"] == json!("chat")).await;
        assert_eq!(live["d"]["text"], json!(line));
        assert_eq!(live["d"]["from"], json!("Ada"));
        assert_eq!(live["d"]["spectator"], json!(false));
        assert!(live["d"]["n"].as_u64().unwrap() > news[2]["n"].as_u64().unwrap());
    }
    // Bo loads the page later: the lines are in the answer to hello.
    let (mut bo_ws, bo_first) = server.hello(&id, Some(&bo), 0).await;
    assert_eq!(texts(&bo_first["d"]["chat"]), ["hello Bo", "ready?"]);
    assert_numbered(&bo_first["d"]["chat"]);
    // The live line comes with the next number, for the client to dedupe.
    bo_ws.send_json(&chat("yes")).await;
    let live = ada_ws.recv_until(|m| m["t"] == json!("chat")).await;
    let last_n = bo_first["d"]["chat"][1]["n"].as_u64().unwrap();
    assert!(live["d"]["n"].as_u64().unwrap() > last_n, "{live}");
    // A news line is sent live too, then kept.
    server.start_game(&id, &ada).await;
    let start = ada_ws
        .recv_until(|m| m["t"] == json!("news") && m["d"]["kind"] == json!("start"))
        .await;
    assert!(start["d"]["at"].as_u64().is_some(), "{start}");
    ada_ws.close().await;
    bo_ws.close().await;

    // A restart: the lines are still there.
    let server = server.restart(|_| {}).await;
    let (_ws, again) = server.hello(&id, Some(&bo), 0).await;
    assert_eq!(texts(&again["d"]["chat"]), ["hello Bo", "ready?", "yes"]);
    let news = kinds(&again["d"]["news"]);
    assert!(
        news.starts_with(&["seat", "seat", "seat", "start", "hand"]),
        "{news:?}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_lines_are_limited_in_rate_and_refusals_say_why() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "hasty", "player": "Ada", "seats": 3}))
        .await;
    let (mut ws, _) = server.hello(&id, Some(&ada), 0).await;
    for i in 0..6 {
        ws.send_json(&chat(&format!("line {i}"))).await;
    }
    // The refusal comes straight back; the lines go round the table.
    let (mut said, mut refusals) = (0, Vec::new());
    while said + refusals.len() < 6 {
        let m = ws.recv_until(|m| m["t"] != json!("news")).await;
        match m["t"].as_str() {
            Some("chat") => said += 1,
            Some("error") => refusals.push(m["d"]["reason"].clone()),
            _ => {}
        }
    }
    assert_eq!(said, 5, "five lines at once pass");
    let reason = refusals[0].as_str().unwrap();
    assert!(reason.contains("too many chat lines"), "{reason}");
    // An empty line and a line too long are refused with their reason.
    ws.send_json(&chat("   ")).await;
    let m = ws.recv_until(|m| m["t"] == json!("error")).await;
    assert!(m["d"]["reason"].as_str().unwrap().contains("empty"), "{m}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_chat_only_when_the_host_allows_and_are_marked() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "watched", "player": "Ada", "seats": 3}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    let (mut ada_ws, first) = server.hello(&id, Some(&ada), 0).await;
    assert_eq!(first["d"]["spectator_chat"], json!(false), "off by default");
    let mut cy = server.ws(&id).await;
    cy.send_json(&json!({"t": "hello", "v": 0, "d": {"name": "Cy"}}))
        .await;
    cy.recv_json().await;
    cy.send_json(&chat("hi all")).await;
    let refused = cy.recv_until(|m| m["t"] == json!("error")).await;
    assert_eq!(
        refused["d"]["reason"],
        json!("spectators may not chat at this table (the host may allow it)")
    );

    // Only the host changes the setting.
    let path = format!("/api/tables/{id}/settings");
    let allow = json!({"spectator_chat": true});
    let (status, body) = server
        .http("POST", &path, Some(&bo), Some(allow.clone()))
        .await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = server
        .http("POST", &path, Some(&ada), Some(json!({"spectators": 1})))
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.http("POST", &path, Some(&ada), Some(allow)).await;
    assert_eq!(status, 204, "{body}");
    let state = ada_ws
        .recv_until(|m| has_state(m) && m["d"]["spectator_chat"] == json!(true))
        .await;
    assert_eq!(state["t"], json!("presence"), "no new event: {state}");
    let news = ada_ws.recv_until(|m| m["t"] == json!("news")).await;
    assert_eq!(news["d"]["kind"], json!("spectator_chat"));
    assert_eq!(news["d"]["allowed"], json!(true));

    cy.send_json(&chat("hi all")).await;
    let line = ada_ws.recv_until(|m| m["t"] == json!("chat")).await;
    assert_eq!(line["d"]["from"], json!("Cy"));
    assert_eq!(line["d"]["spectator"], json!(true));
    assert_eq!(line["d"]["text"], json!("hi all"));
    // A spectator may not borrow a seat's name.
    let (mut fake, _) = {
        let mut ws = server.ws(&id).await;
        ws.send_json(&json!({"t": "hello", "v": 0, "d": {"name": "Bo"}}))
            .await;
        let first = ws.recv_json().await;
        (ws, first)
    };
    fake.send_json(&chat("I am Bo")).await;
    let refused = fake.recv_until(|m| m["t"] == json!("error")).await;
    assert!(
        refused["d"]["reason"]
            .as_str()
            .unwrap()
            .contains("seat's name"),
        "{refused}"
    );
    // The setting lasts: a restart keeps it.
    let server = server.restart(|_| {}).await;
    let (_ws, again) = server.hello(&id, None, 0).await;
    assert_eq!(again["d"]["spectator_chat"], json!(true));
    assert_eq!(again["d"]["chat"][0]["spectator"], json!(true));
    server.stop().await;
}

/// Plays a scored 3-seat game of two hands (Ada and Bo scripted, one
/// greedy bot); returns the id and the two tokens, with a connection of
/// Ada's still open on the final state.
async fn finished_with_two_people(server: &Server) -> (String, String, String, Ws) {
    let (id, ada) = server
        .create_table(json!({
            "name": "again", "player": "Ada", "seats": 3, "hands": 2,
            "rules": {"scoring": "standard"}, "turn_seconds": 30,
        }))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    server.add_bot(&id, &ada, "easy").await;
    let (mut watching, _) = server.hello(&id, Some(&ada), 0).await;
    let a = Player::join(server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    let b = Player::join(server, &id, "Bo", Some(&bo), 0, Mode::All).await;
    server.start_game(&id, &ada).await;
    a.finish().await;
    b.finish().await;
    watching
        .recv_until(|m| has_state(m) && m["d"]["game_over"] == json!(true))
        .await;
    (id, ada, bo, watching)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_asks_for_a_rematch_and_everyone_takes_their_seat_with_their_token() {
    let server = Server::start(|_| {}).await;
    let (id, ada, bo, mut watching) = finished_with_two_people(&server).await;
    let path = format!("/api/tables/{id}/rematch");

    // Points per hand, in each hand's finishing order.
    let (_ws, last) = server.hello(&id, Some(&bo), 0).await;
    let results = last["d"]["results"].as_array().expect("results when over");
    assert_eq!(results.len(), 2, "{results:?}");
    for (k, hand) in results.iter().enumerate() {
        assert_eq!(hand["hand"], json!(k + 1));
        let points: Vec<u64> = hand["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["points"].as_u64().unwrap())
            .collect();
        assert_eq!(points, [2, 1, 0], "standard scoring, 3 players");
    }
    let mut totals = std::collections::HashMap::new();
    for hand in results {
        for p in hand["order"].as_array().unwrap() {
            *totals.entry(p["name"].as_str().unwrap()).or_insert(0) +=
                p["points"].as_u64().unwrap();
        }
    }
    for t in last["d"]["totals"].as_array().unwrap() {
        assert_eq!(
            totals[t["name"].as_str().unwrap()],
            t["total"].as_u64().unwrap(),
            "the hands add up to the totals"
        );
    }

    // Only the host; with a token.
    let (status, body) = server.http("POST", &path, Some(&bo), None).await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = server.http("POST", &path, None, None).await;
    assert_eq!(status, 401, "{body}");
    let (status, made) = server.http("POST", &path, Some(&ada), None).await;
    assert_eq!(status, 201, "{made}");
    let new = made["id"].as_str().unwrap().to_string();
    assert_ne!(new, id);
    // Asked again: the same table.
    let (status, again) = server.http("POST", &path, Some(&ada), None).await;
    assert_eq!((status, &again["id"]), (200, &json!(new)), "{again}");

    // Everyone at the old table learns where it is.
    let told = watching
        .recv_until(|m| has_state(m) && !m["d"]["rematch"].is_null())
        .await;
    assert_eq!(told["d"]["rematch"], json!({"table": new}));
    let news = watching.recv_until(|m| m["t"] == json!("news")).await;
    assert_eq!(
        news["d"],
        json!({"n": news["d"]["n"], "at": news["d"]["at"], "kind": "rematch", "table": new})
    );

    // The same rules and seats; each token holds its own seat, and only
    // that one.
    let (_a, at_new) = server.hello(&new, Some(&ada), 0).await;
    let d = &at_new["d"];
    assert_eq!(d["you"], json!("Ada"));
    assert_eq!(d["host"], json!("Ada"));
    assert_eq!(d["started"], json!(false));
    assert_eq!(d["rules"]["scoring"], json!("standard"));
    assert_eq!(d["rules"]["hands"], json!(2));
    assert_eq!(d["turn_seconds"], json!(30));
    assert_eq!(d["name"], json!("again"));
    let lobby: Vec<(Value, Value)> = d["lobby"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].clone(), s["bot"].clone()))
        .collect();
    assert_eq!(
        lobby,
        [
            (json!("Ada"), Value::Null),
            (json!("Bo"), Value::Null),
            (json!("easy bot 1"), json!("easy"))
        ]
    );
    let (_b, bo_new) = server.hello(&new, Some(&bo), 0).await;
    assert_eq!(bo_new["d"]["you"], json!("Bo"));
    let (mut stranger, refused) = server.hello(&new, Some(&"0".repeat(32)), 0).await;
    assert_eq!(refused["t"], json!("error"), "{refused}");
    drop(stranger.recv().await);
    // And the rematch plays.
    server.start_game(&new, &ada).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_waits_for_the_end_and_can_be_asked_of_a_kept_record() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "early", "player": "Ada", "seats": 3}))
        .await;
    let path = format!("/api/tables/{id}/rematch");
    let (status, body) = server.http("POST", &path, Some(&ada), None).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("over"), "{body}");

    // A finished game nobody is at any more is a record: its host may
    // still ask, and its final state says where the rematch is.
    let (id, ada, _, watching) = finished_with_two_people(&server).await;
    watching.close().await;
    let seats = format!("/api/tables/{id}/seats");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (status, body) = server
            .http("POST", &seats, None, Some(json!({"name": "Zed"})))
            .await;
        assert_eq!(status, 409, "{body}");
        if body["error"].as_str().unwrap().contains("its record is at") {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "still live: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let info = server.info(&id).await;
    let finished_at = info["finished_at"].as_u64().expect("finished_at");
    assert!(finished_at > 1_600_000_000_000, "{info}");
    let winner = info["winner"].as_str().expect("a winner").to_string();
    // Listed among the finished games with its date and winner.
    let (_, finished) = server
        .http("GET", "/api/tables?finished=true", None, None)
        .await;
    assert_eq!(finished["tables"][0]["id"], json!(id), "{finished}");
    assert_eq!(finished["tables"][0]["winner"], json!(winner));
    assert_eq!(finished["tables"][0]["finished_at"], json!(finished_at));

    let path = format!("/api/tables/{id}/rematch");
    let (status, made) = server.http("POST", &path, Some(&ada), None).await;
    assert_eq!(status, 201, "{made}");
    let (status, again) = server.http("POST", &path, Some(&ada), None).await;
    assert_eq!((status, &again["id"]), (200, &made["id"]), "{again}");
    let (_ws, snapshot) = server.hello(&id, Some(&ada), 0).await;
    assert_eq!(snapshot["d"]["rematch"]["table"], made["id"], "{snapshot}");
    let (_ws2, at_new) = server
        .hello(made["id"].as_str().unwrap(), Some(&ada), 0)
        .await;
    assert_eq!(at_new["d"]["you"], json!("Ada"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_without_a_name_get_distinct_readable_ones() {
    let server = Server::start(|_| {}).await;
    let mut names = Vec::new();
    let mut parts = Vec::new();
    for body in [
        json!({"player": "Ada", "seats": 3}),
        json!({"name": "", "player": "Ada", "seats": 3}),
        json!({"name": "  ", "player": "Ada", "seats": 3}),
        json!({"player": "Bo", "seats": 3}),
        json!({"name": "Friday game", "player": "Bo", "seats": 3}),
    ] {
        let (id, token) = server.create_table(body).await;
        let info = server.info(&id).await;
        names.push(info["name"].clone());
        // The parts a client words the name from, in the info and the STATE alike.
        let (_ws, state) = server.hello(&id, Some(&token), 0).await;
        assert_eq!(state["d"]["default_name"], info["default_name"], "{state}");
        parts.push(info["default_name"].clone());
    }
    assert_eq!(
        names,
        [
            json!("Ada's table"),
            json!("Ada's table 2"),
            json!("Ada's table 3"),
            json!("Bo's table"),
            json!("Friday game")
        ]
    );
    assert_eq!(
        parts,
        [
            json!({"player": "Ada", "n": 1}),
            json!({"player": "Ada", "n": 2}),
            json!({"player": "Ada", "n": 3}),
            json!({"player": "Bo", "n": 1}),
            Value::Null
        ]
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_nobody_is_at_leaves_the_open_list_but_keeps_its_link() {
    // Long enough that the first listing comes before the table turns idle
    // on a loaded machine (at 300 ms a CI run under load saw it gone).
    let server = Server::start(|c| c.listed_idle = Duration::from_secs(3)).await;
    let (id, ada) = server
        .create_table(json!({"name": "lonely", "player": "Ada", "seats": 3}))
        .await;
    let listed = async |server: &Server| {
        let (_, open) = server.http("GET", "/api/tables", None, None).await;
        open["tables"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == json!(id))
    };
    assert!(listed(&server).await, "a new table is listed at first");
    let until = async |want: bool| {
        let deadline = tokio::time::Instant::now() + WAIT;
        while listed(&server).await != want {
            assert!(tokio::time::Instant::now() < deadline, "listed: {want}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    until(false).await;
    let (status, _) = server
        .http("GET", &format!("/api/tables/{id}"), None, None)
        .await;
    assert_eq!(status, 200, "its link still works");
    // Someone at it again: listed again.
    let (ws, _) = server.hello(&id, Some(&ada), 0).await;
    until(true).await;
    ws.close().await;
    until(false).await;
    server.stop().await;
}
