//! Moderation over real sockets: a reported chat line kept for the
//! operator with the line and the table, the host removing a seat's chat
//! (its lines gone, its new lines refused, through a restart), and one
//! chat limit per player who kept a name, over all their tables.

mod common;

use common::*;
use dalmuti_server::protocol::{ChatLine, ErrorKind, News, ServerMsg};
use serde_json::{Value, json};

fn chat(text: &str) -> Value {
    json!({"t": "chat", "d": text})
}

/// Says `text` on `ws`; answers the line as it went round.
async fn say(ws: &mut Ws, text: &str) -> ChatLine {
    ws.send_json(&chat(text)).await;
    let m = ws
        .recv_until_msg(|m| m.chat_line().is_some_and(|l| l.text == text))
        .await;
    m.chat_line().cloned().unwrap()
}

/// The chat kept, as a snapshot tells it.
fn texts(snapshot: &ServerMsg) -> Vec<&str> {
    let chat = snapshot.expect_state().chat.as_deref();
    let chat = chat.unwrap_or_else(|| panic!("a snapshot without chat: {snapshot:?}"));
    chat.iter().map(|l| l.text.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reported_line_is_kept_and_the_host_removes_a_seats_chat() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "Friday", "player": "Ada", "seats": 3}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    let (mut ada_ws, _) = server.hello(&id, Some(&ada), 0).await;
    let (mut bo_ws, _) = server.hello(&id, Some(&bo), 0).await;
    say(&mut ada_ws, "hello").await;
    let rude = say(&mut bo_ws, "you are all losers").await;
    let n = rude.n;

    // Ada reports it; her own line, and a line not kept, are refused.
    let reports = format!("/api/tables/{id}/reports");
    let (status, answer) = server
        .http(
            "POST",
            &reports,
            Some(&ada),
            Some(json!({"n": n, "why": "insults"})),
        )
        .await;
    assert_eq!(status, 201, "{answer}");
    let (status, answer) = server
        .http("POST", &reports, Some(&ada), Some(json!({"n": n - 1})))
        .await;
    assert_eq!(status, 400, "{answer}");
    let (status, answer) = server
        .http("POST", &reports, Some(&ada), Some(json!({"n": 999})))
        .await;
    assert_eq!(status, 404, "{answer}");
    let (status, _) = server
        .http("POST", &reports, None, Some(json!({"n": n})))
        .await;
    assert_eq!(status, 401, "a report needs a seat");

    // Only the host removes a seat's chat.
    let silence = format!("/api/tables/{id}/silence");
    let (status, _) = server
        .http("POST", &silence, Some(&bo), Some(json!({"name": "Ada"})))
        .await;
    assert_eq!(status, 403);
    let (status, answer) = server
        .http("POST", &silence, Some(&ada), Some(json!({"name": "Bo"})))
        .await;
    assert_eq!(status, 204, "{answer}");
    let news = ada_ws
        .recv_until_msg(|m| matches!(m.news(), Some(News::ChatRemoved { .. })))
        .await;
    let Some(News::ChatRemoved { name }) = news.news() else {
        unreachable!()
    };
    assert_eq!(name, "Bo", "{news:?}");
    bo_ws.send_json(&chat("still here")).await;
    let refused = bo_ws.recv_refusal().await;
    assert!(
        refused.reason.contains("the host removed your chat"),
        "{refused:?}"
    );
    ada_ws.close().await;
    bo_ws.close().await;

    // Through a restart: Bo's lines are gone for everyone, he is still
    // silenced, and STATE says so; the report is there for the operator.
    let server = server.restart(|_| {}).await;
    let (mut ws, first) = server.hello_msg(&id, Some(&bo), 0).await;
    assert_eq!(texts(&first), ["hello"], "{first:?}");
    assert_eq!(first.expect_state().state.silenced, ["Bo"], "{first:?}");
    ws.send_json(&chat("again")).await;
    let refused = ws.recv_refusal().await;
    assert_eq!(refused.kind, ErrorKind::Conflict, "{refused:?}");
    // As the operator reads them (`dalmuti serve --list-reports`).
    let config = dalmuti_server::Config {
        data: server.sqlite_file().unwrap(),
        ..dalmuti_server::Config::for_tests()
    };
    let kept = dalmuti_server::list_reports(&config, 10).unwrap();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let report = &kept[0];
    assert_eq!(
        (report.table.as_str(), report.table_name.as_str(), report.n),
        (id.as_str(), "Friday", n)
    );
    assert_eq!(
        (report.reporter.as_str(), report.why.as_str()),
        ("Ada", "insults")
    );
    assert!(report.line.contains("you are all losers"), "{report:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_kept_a_name_has_one_chat_limit_over_all_tables() {
    let server = Server::start(|_| {}).await;
    let (status, kept) = server
        .http("POST", "/api/players", None, Some(json!({"name": "Ada"})))
        .await;
    assert_eq!(status, 201, "{kept}");
    let secret = kept["secret"].as_str().unwrap().to_string();
    let mut sockets = Vec::new();
    for name in ["one", "two"] {
        let body = json!({"name": name, "player": "Ada", "seats": 3}).to_string();
        let request = format!(
            "POST /api/tables HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Authorization: Player {secret}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            server.addr,
            body.len()
        );
        let (status, made) = raw_http(server.addr, request.as_bytes()).await;
        assert_eq!(status, 201, "{made}");
        let (ws, _) = server
            .hello(made["id"].as_str().unwrap(), made["token"].as_str(), 0)
            .await;
        sockets.push(ws);
    }
    // Five lines at the first table (a table's own limit), three at the
    // second: eight, the player's burst; the ninth is refused at either.
    for i in 0..5 {
        say(&mut sockets[0], &format!("a{i}")).await;
    }
    for i in 0..3 {
        say(&mut sockets[1], &format!("b{i}")).await;
    }
    sockets[1].send_json(&chat("one more")).await;
    let reason = sockets[1].recv_refusal().await.reason;
    assert!(reason.contains("over all your tables"), "{reason}");
    server.stop().await;
}

/// A chat line is one line of plain text: escape sequences, carriage
/// returns and line feeds are refused with where they are, and nothing
/// of the line is kept (issue 40: they were kept and printed raw by
/// `dalmuti serve --list-reports`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_refuses_control_characters_saying_where() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"player": "Ada", "seats": 3}))
        .await;
    let (mut ws, _) = server.hello(&id, Some(&ada), 0).await;
    for (text, code, at) in [
        ("\u{1b}[31mred", "U+001B", 1),
        ("ok\nThu, 01 Jan 2026 forged report", "U+000A", 3),
        ("a\rb", "U+000D", 2),
        ("tab\there", "U+0009", 4),
        ("x\u{202e}y", "U+202E", 2),
        ("line\u{2028}two", "U+2028", 5),
    ] {
        ws.send_json(&chat(text)).await;
        let refused = ws.recv_refusal().await;
        assert!(
            refused
                .reason
                .contains(&format!("{code} at character {at}")),
            "{text:?}: {}",
            refused.reason
        );
        assert_eq!(refused.kind, ErrorKind::BadRequest, "{refused:?}");
    }
    say(&mut ws, "plain é 👍").await;
    ws.close().await;
    let (_, first) = server.hello_msg(&id, Some(&ada), 0).await;
    assert_eq!(texts(&first), ["plain é 👍"], "{first:?}");
    server.stop().await;
}

/// The host's silence holds for the person, not the seat's name: Bo,
/// silenced, leaves and comes back as "Bob" from the same address, and
/// is still refused; so is a spectator there. The host and the seats at
/// the table when Bo was silenced (Cy, at the same address in this test)
/// chat on (issue 40).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silenced_player_who_comes_back_under_another_name_stays_silenced() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"player": "Ada", "seats": 4, "spectator_chat": true}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    let cy = server.take_seat(&id, "Cy").await;
    let (mut ada_ws, _) = server.hello(&id, Some(&ada), 0).await;
    let (mut bo_ws, _) = server.hello(&id, Some(&bo), 0).await;
    let (mut cy_ws, _) = server.hello(&id, Some(&cy), 0).await;
    say(&mut bo_ws, "spam").await;
    let silence = format!("/api/tables/{id}/silence");
    let (status, answer) = server
        .http("POST", &silence, Some(&ada), Some(json!({"name": "Bo"})))
        .await;
    assert_eq!(status, 204, "{answer}");
    bo_ws.close().await;
    let seats = format!("/api/tables/{id}/seats");
    let (status, answer) = server.http("DELETE", &seats, Some(&bo), None).await;
    assert_eq!(status, 204, "{answer}");

    // Back as Bob: seated, but not heard.
    let bob = server.take_seat(&id, "Bob").await;
    let (mut bob_ws, _) = server.hello(&id, Some(&bob), 0).await;
    bob_ws.send_json(&chat("it's me again")).await;
    let reason = bob_ws.recv_refusal().await.reason;
    assert!(
        reason.contains("removed the chat of \"Bo\"") && reason.contains("address"),
        "{reason}"
    );
    // Nor watching, under any name.
    let mut watching = server.ws(&id).await;
    watching
        .send_json(&json!({"t": "hello", "v": 0, "d": {"name": "Someone"}}))
        .await;
    watching.recv_state().await;
    watching.send_json(&chat("hi from the stands")).await;
    let refused = watching.recv_refusal().await;
    assert_eq!(refused.kind, ErrorKind::Conflict, "{refused:?}");

    // The others chat on, through a restart too.
    say(&mut ada_ws, "welcome").await;
    say(&mut cy_ws, "thanks").await;
    for ws in [ada_ws, cy_ws, bob_ws, watching] {
        ws.close().await;
    }
    let server = server.restart(|_| {}).await;
    let (mut bob_ws, _) = server.hello(&id, Some(&bob), 0).await;
    bob_ws.send_json(&chat("after the restart")).await;
    let refused = bob_ws.recv_refusal().await;
    assert_eq!(refused.kind, ErrorKind::Conflict, "{refused:?}");
    let (mut cy_ws, _) = server.hello(&id, Some(&cy), 0).await;
    say(&mut cy_ws, "still here").await;
    server.stop().await;
}
