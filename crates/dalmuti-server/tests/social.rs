//! What players say and see around the game, over real sockets: chat and
//! table news kept by the server (through a reload and a restart),
//! spectators' chat at the host's word, the rematch with the same seats,
//! and the lobby's names, finished games and idle tables.

mod common;

use std::time::Duration;

use common::*;
use dalmuti_core::Scoring;
use dalmuti_server::names::DefaultTableName;
use dalmuti_server::protocol::ServerMsg;
use dalmuti_server::protocol::{ChatLine, MsgType, News, NewsLine, Rematch};
use serde_json::{Value, json};

/// A chat line from this connection.
fn chat(text: &str) -> Value {
    json!({"t": "chat", "d": text})
}

/// The chat kept, as a snapshot tells it.
fn chat_kept(snapshot: &ServerMsg) -> &[ChatLine] {
    let chat = snapshot.expect_state().chat.as_deref();
    chat.unwrap_or_else(|| panic!("a snapshot without chat: {snapshot:?}"))
}

/// The news kept, as a snapshot tells it.
fn news_kept(snapshot: &ServerMsg) -> &[NewsLine] {
    let news = snapshot.expect_state().news.as_deref();
    news.unwrap_or_else(|| panic!("a snapshot without news: {snapshot:?}"))
}

/// The kept lines' texts, in order.
fn texts(lines: &[ChatLine]) -> Vec<&str> {
    lines.iter().map(|l| l.text.as_str()).collect()
}

/// The kept news lines' kinds, in order, as the wire names them.
fn kinds(lines: &[NewsLine]) -> Vec<String> {
    lines.iter().map(|l| kind(&l.news)).collect()
}

/// A news line's kind, as the wire names it.
fn kind(news: &News) -> String {
    let kind = serde_json::to_value(news).expect("news serializes")["kind"].take();
    kind.as_str().expect("news has a kind").to_string()
}

/// Every line's number, in order: each greater than the one before.
fn assert_numbered(n: impl IntoIterator<Item = u64>) {
    let n: Vec<u64> = n.into_iter().collect();
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
    let (mut ada_ws, first) = server.hello_msg(&id, Some(&ada), 0).await;
    assert_eq!(chat_kept(&first), [], "no chat yet: {first:?}");
    // The news is structured: a kind and names, for the client to word.
    let news = news_kept(&first);
    assert_eq!(kinds(news), ["seat", "seat", "seat"], "{news:?}");
    let seated = |line: &NewsLine| match &line.news {
        News::Seat { name, bot, .. } => (name.to_string(), bot.clone()),
        other => panic!("not a seat: {other:?}"),
    };
    assert_eq!(seated(&news[0]), ("Ada".to_string(), None));
    assert_eq!(seated(&news[2]).1.as_deref(), Some("easy"));
    assert_numbered(news.iter().map(|l| l.n));

    for line in ["hello Bo", "ready?"] {
        ada_ws.send_json(&chat(line)).await;
        let live = ada_ws.recv_until_msg(|m| m.t() == MsgType::Chat).await;
        let live = live.chat_line().unwrap();
        assert_eq!(live.text, line);
        assert_eq!(live.from.as_ref().map(|f| f.as_str()), Some("Ada"));
        assert!(!live.spectator);
        assert!(live.n > news[2].n);
    }
    // Bo loads the page later: the lines are in the answer to hello.
    let (mut bo_ws, bo_first) = server.hello_msg(&id, Some(&bo), 0).await;
    assert_eq!(texts(chat_kept(&bo_first)), ["hello Bo", "ready?"]);
    assert_numbered(chat_kept(&bo_first).iter().map(|l| l.n));
    // The live line comes with the next number, for the client to dedupe.
    bo_ws.send_json(&chat("yes")).await;
    let live = ada_ws.recv_until_msg(|m| m.t() == MsgType::Chat).await;
    let last_n = chat_kept(&bo_first)[1].n;
    assert!(live.chat_line().unwrap().n > last_n, "{live:?}");
    // A news line is sent live too, then kept (`at` is a number: the
    // type says so, a renamed or missing `at` fails to read).
    server.start_game(&id, &ada).await;
    ada_ws
        .recv_until_msg(|m| m.news() == Some(&News::Start))
        .await;
    ada_ws.close().await;
    bo_ws.close().await;

    // A restart: the lines are still there.
    let server = server.restart(|_| {}).await;
    let (_ws, again) = server.hello_msg(&id, Some(&bo), 0).await;
    assert_eq!(texts(chat_kept(&again)), ["hello Bo", "ready?", "yes"]);
    let news = kinds(news_kept(&again));
    assert!(
        news.len() >= 5 && news[..5] == ["seat", "seat", "seat", "start", "hand"],
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
        let m = ws.recv_until_msg(|m| m.t() != MsgType::News).await;
        if m.chat_line().is_some() {
            said += 1;
        } else if let Some(refused) = m.refusal() {
            refusals.push(refused.reason.clone());
        }
    }
    assert_eq!(said, 5, "five lines at once pass");
    let reason = &refusals[0];
    assert!(reason.contains("too many chat lines"), "{reason}");
    // An empty line and a line too long are refused with their reason.
    ws.send_json(&chat("   ")).await;
    let m = ws.recv_refusal().await;
    assert!(m.reason.contains("empty"), "{m:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_chat_only_when_the_host_allows_and_are_marked() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "watched", "player": "Ada", "seats": 3}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    let (mut ada_ws, first) = server.hello_msg(&id, Some(&ada), 0).await;
    assert!(!first.expect_state().state.spectator_chat, "off by default");
    let mut cy = server.ws(&id).await;
    cy.send_json(&json!({"t": "hello", "v": 0, "d": {"name": "Cy"}}))
        .await;
    cy.recv_msg().await;
    cy.send_json(&chat("hi all")).await;
    let refused = cy.recv_refusal().await;
    assert_eq!(
        refused.reason,
        "spectators may not chat at this table (the host may allow it)"
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
        .recv_until_msg(|m| m.state().is_some_and(|s| s.state.spectator_chat))
        .await;
    assert_eq!(state.t(), MsgType::Presence, "no new event: {state:?}");
    let news = ada_ws.recv_until_msg(|m| m.t() == MsgType::News).await;
    assert_eq!(news.news(), Some(&News::SpectatorChat { allowed: true }));

    cy.send_json(&chat("hi all")).await;
    let line = ada_ws.recv_until_msg(|m| m.t() == MsgType::Chat).await;
    let line = line.chat_line().unwrap();
    assert_eq!(line.from.as_ref().map(|f| f.as_str()), Some("Cy"));
    assert!(line.spectator);
    assert_eq!(line.text, "hi all");
    // A spectator may not borrow a seat's name.
    let (mut fake, _) = {
        let mut ws = server.ws(&id).await;
        ws.send_json(&json!({"t": "hello", "v": 0, "d": {"name": "Bo"}}))
            .await;
        let first = ws.recv_msg().await;
        (ws, first)
    };
    fake.send_json(&chat("I am Bo")).await;
    let refused = fake.recv_refusal().await;
    assert!(refused.reason.contains("seat's name"), "{refused:?}");
    // The setting lasts: a restart keeps it.
    let server = server.restart(|_| {}).await;
    let (_ws, again) = server.hello_msg(&id, None, 0).await;
    assert!(again.expect_state().state.spectator_chat);
    assert!(chat_kept(&again)[0].spectator);
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
        .recv_until_msg(|m| m.state().is_some_and(|s| s.state.game_over))
        .await;
    (id, ada, bo, watching)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_asks_for_a_rematch_and_everyone_takes_their_seat_with_their_token() {
    let server = Server::start(|_| {}).await;
    let (id, ada, bo, mut watching) = finished_with_two_people(&server).await;
    let path = format!("/api/tables/{id}/rematch");

    // Points per hand, in each hand's finishing order.
    let (_ws, last) = server.hello_msg(&id, Some(&bo), 0).await;
    let last = &last.expect_state().state;
    let results = last.results.as_deref().expect("results when over");
    assert_eq!(results.len(), 2, "{results:?}");
    for (k, hand) in results.iter().enumerate() {
        assert_eq!(hand.hand, k + 1);
        let points: Vec<u32> = hand.order.iter().map(|p| p.points.unwrap()).collect();
        assert_eq!(points, [2, 1, 0], "standard scoring, 3 players");
    }
    let mut totals = std::collections::HashMap::new();
    for hand in results {
        for p in &hand.order {
            *totals.entry(p.name.as_str()).or_insert(0) += p.points.unwrap();
        }
    }
    for t in &last.totals {
        assert_eq!(
            totals[t.name.as_str()],
            t.total,
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
        .recv_until_msg(|m| m.state().is_some_and(|s| s.state.rematch.is_some()))
        .await;
    let rematch = Rematch {
        table: new.as_str().into(),
    };
    assert_eq!(told.expect_state().state.rematch, Some(rematch));
    let news = watching.recv_until_msg(|m| m.t() == MsgType::News).await;
    assert_eq!(
        news.news(),
        Some(&News::Rematch {
            table: new.as_str().into()
        }),
        "{news:?}"
    );

    // The same rules and seats; each token holds its own seat, and only
    // that one.
    let (_a, at_new) = server.hello_msg(&new, Some(&ada), 0).await;
    let d = &at_new.expect_state().state;
    assert_eq!(d.you.as_ref().map(|n| n.as_str()), Some("Ada"));
    assert_eq!(d.host.as_ref().map(|n| n.as_str()), Some("Ada"));
    assert!(!d.started);
    assert_eq!(d.rules.scoring, Scoring::Standard);
    assert_eq!(d.rules.hands, Some(2));
    assert_eq!(d.turn_seconds, Some(30));
    assert_eq!(d.name, "again");
    let lobby: Vec<(&str, Option<&str>)> = (d.lobby.iter())
        .map(|s| (s.name.as_str(), s.bot.as_deref()))
        .collect();
    assert_eq!(
        lobby,
        [("Ada", None), ("Bo", None), ("easy bot 1", Some("easy"))]
    );
    let (_b, bo_new) = server.hello_msg(&new, Some(&bo), 0).await;
    let you = bo_new.expect_state().state.you.clone();
    assert_eq!(you.as_ref().map(|n| n.as_str()), Some("Bo"));
    let (mut stranger, refused) = server.hello_msg(&new, Some(&"0".repeat(32)), 0).await;
    assert_eq!(refused.t(), MsgType::Error, "{refused:?}");
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
    assert!(error_body(&body).error.contains("over"), "{body}");

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
        if error_body(&body).error.contains("its record is at") {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "still live: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let info = server.table_info(&id).await;
    let finished_at = info.finished_at.expect("finished_at");
    assert!(finished_at > 1_600_000_000_000, "{info:?}");
    let winner = info.winner.expect("a winner");
    // Listed among the finished games with its date and winner.
    let finished = server.lobby("/api/tables?finished=true").await;
    assert_eq!(finished[0].id, id.as_str(), "{finished:?}");
    assert_eq!(finished[0].winner, Some(winner));
    assert_eq!(finished[0].finished_at, Some(finished_at));

    let path = format!("/api/tables/{id}/rematch");
    let (status, made) = server.http("POST", &path, Some(&ada), None).await;
    assert_eq!(status, 201, "{made}");
    let (status, again) = server.http("POST", &path, Some(&ada), None).await;
    assert_eq!((status, &again["id"]), (200, &made["id"]), "{again}");
    let (_ws, snapshot) = server.hello_msg(&id, Some(&ada), 0).await;
    let rematch = snapshot.expect_state().state.rematch.as_ref();
    let made_id = made["id"].as_str().unwrap();
    assert_eq!(
        rematch.map(|r| r.table.as_str()),
        Some(made_id),
        "{snapshot:?}"
    );
    let (_ws2, at_new) = server.hello_msg(made_id, Some(&ada), 0).await;
    let you = at_new.expect_state().state.you.clone();
    assert_eq!(you.as_ref().map(|n| n.as_str()), Some("Ada"));
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
        let info = server.table_info(&id).await;
        names.push(info.name.clone());
        // The parts a client words the name from, in the info and the STATE alike.
        let (_ws, state) = server.hello_msg(&id, Some(&token), 0).await;
        let said = &state.expect_state().state.default_name;
        assert_eq!(said, &info.default_name, "{state:?}");
        parts.push(info.default_name);
    }
    assert_eq!(
        names,
        [
            "Ada's table",
            "Ada's table 2",
            "Ada's table 3",
            "Bo's table",
            "Friday game"
        ]
    );
    let part = |player: &str, n| {
        Some(DefaultTableName {
            player: player.to_string(),
            n,
        })
    };
    assert_eq!(
        parts,
        [
            part("Ada", 1),
            part("Ada", 2),
            part("Ada", 3),
            part("Bo", 1),
            None
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
        let open = server.lobby("/api/tables").await;
        open.iter().any(|t| t.id == id.as_str())
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
