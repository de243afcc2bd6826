//! Kept names from outside, as a hostile player tries them (issue 40):
//! look-alikes of a kept name, many spellings of one new name at once, a
//! bot's name, and a secret that leaked.

mod common;

use common::*;
use serde_json::{Value, json};

/// Sends one request with `Authorization: Player SECRET` when given.
async fn as_player(
    server: &Server,
    method: &str,
    path: &str,
    secret: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        server.addr
    );
    if let Some(secret) = secret {
        head += &format!("Authorization: Player {secret}\r\n");
    }
    head += &format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    raw_http(server.addr, &[head.as_bytes(), body.as_bytes()].concat()).await
}

/// Asks to keep `name`: the status and answer.
async fn try_keep(server: &Server, name: &str) -> (u16, Value) {
    let body = json!({ "name": name });
    as_player(server, "POST", "/api/players", None, Some(body)).await
}

/// Keeps `name`; answers the secret.
async fn keep(server: &Server, name: &str) -> String {
    let (status, kept) = try_keep(server, name).await;
    assert_eq!(status, 201, "keep {name}: {kept}");
    kept["secret"].as_str().unwrap().to_string()
}

/// The capitals of other scripts, a capital I for an l, digits, bold,
/// an accent, a small Cyrillic в and two spaces: each a look-alike of a
/// name kept before it, refused (the audit had 17 of 23 capitals kept).
const LOOK_ALIKES: [(&str, &str); 22] = [
    ("Zoe", "\u{396}oe"),
    ("Nina", "\u{39d}ina"),
    ("Tom", "\u{3a4}om"),
    ("Kim", "\u{39a}im"),
    ("Max", "\u{39c}ax"),
    ("Hal", "\u{397}al"),
    ("Bob", "\u{392}ob"),
    ("Xena", "\u{3a7}ena"),
    ("Yuki", "\u{3a5}uki"),
    ("Bob", "\u{412}ob"),
    ("Hal", "\u{41d}al"),
    ("Kim", "\u{41a}im"),
    ("Max", "\u{41c}ax"),
    ("Tom", "\u{422}om"),
    ("Alice", "AIice"),
    ("Will", "WiII"),
    ("Bob", "B0b"),
    ("Olga", "0lga"),
    ("Alice", "\u{1d400}lice"),
    ("Alice", "Alic\u{117}"),
    ("Bob", "\u{432}ob"),
    ("Ada Lovelace", "Ada  Lovelace"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alikes_of_a_kept_name_are_refused_and_say_whose() {
    let server = Server::start(|_| {}).await;
    let mut kept = Vec::new();
    for (name, _) in LOOK_ALIKES {
        if !kept.contains(&name) {
            keep(&server, name).await;
            kept.push(name);
        }
    }
    let mixes = [
        ("Alice", "\u{391}I\u{456}c\u{435}"),
        ("Alice", "\u{1d400}LIC\u{1d404}"),
        ("Alice", "\u{ff21}L\u{131}CE"),
        ("Bob", "\u{412}0\u{432}"),
        ("Will", "W\u{456}1l"),
        ("Ada Lovelace", "\u{410}da  \u{406}ovelace"),
    ];
    for (name, like) in LOOK_ALIKES.into_iter().chain(mixes) {
        let (status, refused) = try_keep(&server, like).await;
        let reason = refused["error"].as_str().unwrap_or_default();
        assert!(
            (status == 409 && reason.contains(&format!("{name:?}")))
                || (status == 400 && reason.contains("not two")),
            "{like:?} as {name:?}: {status} {refused}"
        );
    }
    // A stranger may not sit or chat as one either.
    let (id, host) = server
        .create_table(json!({"player": "Host", "seats": 3, "spectator_chat": true}))
        .await;
    let seats = format!("/api/tables/{id}/seats");
    let (status, refused) = as_player(
        &server,
        "POST",
        &seats,
        None,
        Some(json!({"name": "AIice"})),
    )
    .await;
    assert_eq!(status, 409, "{refused}");
    let _host = Player::join(&server, &id, "Host", Some(&host), 0, Mode::Watch).await;
    let mut ws = server.ws(&id).await;
    ws.send_json(&json!({"t": "hello", "v": 0, "d": {"name": "AIice"}}))
        .await;
    ws.recv_until(has_state).await;
    ws.send_json(&json!({"t": "chat", "d": "I am Alice"})).await;
    let refused = ws.recv_until(|m| m["t"] == json!("error")).await;
    assert!(
        refused["d"]["reason"]
            .as_str()
            .unwrap()
            .contains("kept name"),
        "{refused}"
    );
    server.stop().await;
}

/// Twenty-four spellings of one new name asked for at once: exactly one
/// is kept (the audit saw two).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_many_spellings_of_one_new_name_at_once_one_is_kept() {
    let server = Server::start(|_| {}).await;
    let spellings = [
        "Alice",
        "ALICE",
        "alice",
        "AIice",
        "ALlCE",
        "\u{1d400}lice",
        "Alic\u{117}",
        "\u{391}lice",
        "\u{410}lice",
        "A\u{406}ice",
        "Al\u{456}ce",
        "Alic\u{435}",
        "\u{391}I\u{456}c\u{435}",
        "\u{ff21}lice",
        "A1ice",
        "Al1ce",
        "\u{c0}lice",
        "Ali\u{107}e",
        "AL\u{131}CE",
        "aLiCe",
        "\u{1d400}\u{1d40b}\u{1d408}\u{1d402}\u{1d404}",
        "A|ice",
        "\u{0410}L\u{0406}\u{0421}\u{0415}",
        "Alice\u{301}",
    ];
    assert_eq!(spellings.len(), 24);
    let answers =
        futures_util::future::join_all(spellings.iter().map(|name| try_keep(&server, name))).await;
    let kept: Vec<&str> = spellings
        .iter()
        .zip(&answers)
        .filter(|(_, (status, _))| *status == 201)
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(kept.len(), 1, "kept: {kept:?}, answers: {answers:?}");
    for (name, (status, answer)) in spellings.iter().zip(&answers) {
        assert!(matches!(status, 201 | 409), "{name:?}: {status} {answer}");
    }
    server.stop().await;
}

/// A person cannot take a bot's name, nor so share a bot level's rating
/// (the audit kept "bot:hard" and then shared the hard level's row).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_name_is_refused_saying_why() {
    let server = Server::start(|_| {}).await;
    for name in ["bot:hard", "normal bot 1", "B0T", "hard", "Bot 2 (schwer)"] {
        let (status, refused) = try_keep(&server, name).await;
        assert_eq!(status, 400, "{name}: {refused}");
        let reason = refused["error"].as_str().unwrap();
        assert!(reason.contains("not a name a person may take"), "{reason}");
        // Not as a seat's name either.
        let (status, refused) = as_player(
            &server,
            "POST",
            "/api/tables",
            None,
            Some(json!({"player": name, "seats": 3})),
        )
        .await;
        assert_eq!(status, 400, "{name}: {refused}");
    }
    let (status, _) = as_player(&server, "GET", "/api/players/bot:hard", None, None).await;
    assert_eq!(status, 404, "no person is the hard bot");
    server.stop().await;
}

/// A leaked secret is replaced: the new one is the player, the old one no
/// one (nor can it replace the new one), on every request that presents it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leaked_secret_is_replaced_and_stops_working() {
    let server = Server::start(|_| {}).await;
    let old = keep(&server, "Ada").await;
    let (status, changed) =
        as_player(&server, "POST", "/api/players/me/secret", Some(&old), None).await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["name"], json!("Ada"));
    let new = changed["secret"].as_str().unwrap().to_string();
    assert_eq!(new.len(), 32);
    assert_ne!(new, old);
    let (status, me) = as_player(&server, "GET", "/api/players/me", Some(&new), None).await;
    assert_eq!((status, me["name"].as_str()), (200, Some("Ada")), "{me}");
    for (method, path) in [
        ("GET", "/api/players/me"),
        ("GET", "/api/players/me/tables"),
        ("POST", "/api/players/me/secret"),
    ] {
        let (status, refused) = as_player(&server, method, path, Some(&old), None).await;
        assert_eq!(status, 403, "{method} {path}: {refused}");
        assert!(
            refused["error"].as_str().unwrap().contains("recovery link"),
            "{refused}"
        );
    }
    // The old secret cannot sit as Ada; the new one can.
    let table = json!({"player": "Ada", "seats": 3});
    let (status, _) = as_player(
        &server,
        "POST",
        "/api/tables",
        Some(&old),
        Some(table.clone()),
    )
    .await;
    assert_eq!(status, 403);
    let (status, made) = as_player(&server, "POST", "/api/tables", Some(&new), Some(table)).await;
    assert_eq!(status, 201, "{made}");
    // Without a secret: who is asking?
    let (status, _) = as_player(&server, "POST", "/api/players/me/secret", None, None).await;
    assert_eq!(status, 401);
    // Kept: after a restart the new secret is still Ada, the old one no one.
    let server = server.restart(|_| {}).await;
    let (status, _) = as_player(&server, "GET", "/api/players/me", Some(&new), None).await;
    assert_eq!(status, 200);
    let (status, _) = as_player(&server, "GET", "/api/players/me", Some(&old), None).await;
    assert_eq!(status, 403);
    server.stop().await;
}
