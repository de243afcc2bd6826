//! Players who keep a name, over real sockets: a name kept once per
//! server (look-alikes included), its secret shown once and known again
//! after a restart, seats under a kept name only for its player, and the
//! bounds a stranger meets.

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

/// Keeps `name`; answers the secret.
async fn keep(server: &Server, name: &str) -> String {
    let (status, kept) = as_player(
        server,
        "POST",
        "/api/players",
        None,
        Some(json!({ "name": name })),
    )
    .await;
    assert_eq!(status, 201, "keep {name}: {kept}");
    assert_eq!(kept["name"], name);
    let secret = kept["secret"].as_str().unwrap().to_string();
    assert_eq!(secret.len(), 32, "{kept}");
    secret
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_name_is_its_players_alone_and_survives_a_restart() {
    let server = Server::start(|_| {}).await;
    let ada = keep(&server, "Ada").await;

    // Once per server, look-alikes included.
    for other in ["Ada", "ADA", "\u{410}da"] {
        let (status, answer) = as_player(
            &server,
            "POST",
            "/api/players",
            None,
            Some(json!({ "name": other })),
        )
        .await;
        assert_eq!(status, 409, "{other}: {answer}");
        let reason = answer["error"].as_str().unwrap();
        assert!(reason.contains("choose another name"), "{reason}");
        assert!(!reason.contains(&ada), "no secret in a refusal: {reason}");
    }

    // The secret says who it is; a wrong one is refused with a reason.
    let (status, me) = as_player(&server, "GET", "/api/players/me", Some(&ada), None).await;
    assert_eq!((status, me["name"].as_str()), (200, Some("Ada")), "{me}");
    let wrong = "0".repeat(32);
    let (status, refused) = as_player(&server, "GET", "/api/players/me", Some(&wrong), None).await;
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("recovery link"),
        "{refused}"
    );

    // Nobody else sits under the name or one like it.
    let table = json!({"player": "ada", "seats": 3});
    let (status, refused) = as_player(&server, "POST", "/api/tables", None, Some(table)).await;
    assert_eq!(status, 409, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("kept name"),
        "{refused}"
    );
    let (id, _) = server
        .create_table(json!({"player": "Bo", "seats": 3}))
        .await;
    let seats = format!("/api/tables/{id}/seats");
    let (status, refused) = as_player(
        &server,
        "POST",
        &seats,
        None,
        Some(json!({"name": "\u{410}DA"})),
    )
    .await;
    assert_eq!(status, 409, "{refused}");

    // Ada herself takes it under her own name, however she types it; not
    // under another.
    let (status, refused) = as_player(
        &server,
        "POST",
        &seats,
        Some(&ada),
        Some(json!({"name": "Cy"})),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("\"Ada\""),
        "{refused}"
    );
    let (status, seated) = as_player(
        &server,
        "POST",
        &seats,
        Some(&ada),
        Some(json!({"name": "ada"})),
    )
    .await;
    assert_eq!(status, 201, "{seated}");
    let (_, info) = server
        .http("GET", &format!("/api/tables/{id}"), None, None)
        .await;
    let names: Vec<&str> = info["taken"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bo", "Ada"], "{info}");

    // Kept in the store: known again after a restart.
    let server = server.restart(|_| {}).await;
    let (status, me) = as_player(&server, "GET", "/api/players/me", Some(&ada), None).await;
    assert_eq!((status, me["name"].as_str()), (200, Some("Ada")), "{me}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_cannot_keep_names_without_end() {
    let server = Server::start(|_| {}).await;
    for i in 0..dalmuti_server::players::REGISTRATION_BURST {
        keep(&server, &format!("Player {i}")).await;
    }
    let (status, refused) = as_player(
        &server,
        "POST",
        "/api/players",
        None,
        Some(json!({"name": "One more"})),
    )
    .await;
    assert_eq!(status, 429, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("too many new players from your address"),
        "{refused}"
    );
    // A name that breaks the rules is refused before it counts.
    let (status, refused) = as_player(
        &server,
        "POST",
        "/api/players",
        None,
        Some(json!({"name": "Ann\u{202e}"})),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    server.stop().await;
}
