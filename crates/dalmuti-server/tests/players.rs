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
    let server =
        Server::start(|c| c.player_burst = dalmuti_server::players::REGISTRATION_BURST).await;
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

/// Plays table `id` to its end with `seats` (name, token) playing every
/// decision.
async fn play_to_the_end(server: &Server, id: &str, host: &str, seats: &[(&str, &str)]) {
    let mut players = Vec::new();
    for (name, token) in seats {
        players.push(Player::join(server, id, name, Some(token), 0, Mode::All).await);
    }
    server.start_game(id, host).await;
    for player in players {
        player.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_rates_its_players_and_bots_and_fills_the_profile() {
    let server = Server::start(|_| {}).await;
    let ada = keep(&server, "Ada").await;

    // Rated, Ada and two bots: it counts.
    let (status, made) = as_player(
        &server,
        "POST",
        "/api/tables",
        Some(&ada),
        Some(json!({"player": "Ada", "seats": 3, "hands": 1, "rated": true})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let (id, host) = (
        made["id"].as_str().unwrap(),
        made["token"].as_str().unwrap(),
    );
    server.add_bot(id, host, "easy").await;
    server.add_bot(id, host, "easy").await;
    play_to_the_end(&server, id, host, &[("Ada", host)]).await;

    // Rated, but Bo kept no name: it is Ada's history, not a rating.
    let (status, made) = as_player(
        &server,
        "POST",
        "/api/tables",
        Some(&ada),
        Some(json!({"player": "Ada", "seats": 3, "hands": 1, "rated": true})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let (id2, host2) = (
        made["id"].as_str().unwrap(),
        made["token"].as_str().unwrap(),
    );
    let bo = server.take_seat(id2, "Bo").await;
    server.add_bot(id2, host2, "easy").await;
    play_to_the_end(&server, id2, host2, &[("Ada", host2), ("Bo", &bo)]).await;

    // The rematch is among Ada's games as soon as it is made.
    let (status, rematch) = server
        .http(
            "POST",
            &format!("/api/tables/{id}/rematch"),
            Some(host),
            None,
        )
        .await;
    assert_eq!(status, 201, "{rematch}");
    let (_, mine) = as_player(&server, "GET", "/api/players/me/tables", Some(&ada), None).await;
    let listed: Vec<&str> = mine["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert!(listed.contains(&rematch["id"].as_str().unwrap()), "{mine}");

    // A spectator may not chat under her kept name, nor one like it.
    let (elsewhere, _) = server
        .create_table(json!({"player": "Eve", "seats": 3, "spectator_chat": true}))
        .await;
    let mut ws = server.ws(&elsewhere).await;
    ws.send_json(&json!({"t": "hello", "v": 0, "d": {"name": "ADA"}}))
        .await;
    ws.send_json(&json!({"t": "chat", "d": "I am Ada"})).await;
    let refused = ws.recv_until(|m| m["t"] == json!("error")).await;
    assert!(
        refused["d"]["reason"]
            .as_str()
            .unwrap()
            .contains("kept name"),
        "{refused}"
    );

    let profile = until(&server, "/api/players/ada", |p| {
        p["recent"].as_array().is_some_and(|r| r.len() == 2)
    })
    .await;
    assert_eq!(profile["name"], "Ada", "{profile}");
    let recent = profile["recent"].as_array().unwrap();
    assert_eq!(recent[0]["table"], id2, "newest first: {profile}");
    assert_eq!(recent[0]["rated"], false, "{profile}");
    assert!(recent[0]["rating"].is_null(), "{profile}");
    assert_eq!(recent[1]["rated"], true, "{profile}");
    let place = recent[1]["place"].as_u64().unwrap();
    let mu = recent[1]["rating"]["mu"].as_f64().unwrap();
    // First of three new players gains, last loses.
    match place {
        1 => assert!(mu > 25.0, "{profile}"),
        3 => assert!(mu < 25.0, "{profile}"),
        _ => {}
    }
    let games = &profile["games"][0];
    assert_eq!(
        (games["game"].as_str(), games["played"].as_u64()),
        (Some("dalmuti"), Some(2))
    );
    let ratings = profile["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1, "one game, one band: {profile}");
    assert_eq!(
        (ratings[0]["band"].as_str(), ratings[0]["games"].as_u64()),
        (Some("3-4"), Some(1))
    );

    // The leaderboard holds Ada and the bot level, on one scale; the
    // other band is empty.
    let (status, board) = server
        .http("GET", "/api/leaderboard?game=dalmuti&band=3-4", None, None)
        .await;
    assert_eq!(status, 200, "{board}");
    let rows = board["ratings"].as_array().unwrap();
    let names: Vec<(&str, bool)> = rows
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["bot"].as_bool().unwrap()))
        .collect();
    assert!(names.contains(&("Ada", false)), "{board}");
    assert!(names.contains(&("easy", true)), "{board}");
    let ordinals: Vec<f64> = rows
        .iter()
        .map(|r| r["ordinal"].as_f64().unwrap())
        .collect();
    assert!(
        ordinals.windows(2).all(|w| w[0] >= w[1]),
        "best first: {board}"
    );
    let (_, empty) = server
        .http("GET", "/api/leaderboard?game=dalmuti&band=8-16", None, None)
        .await;
    assert_eq!(empty["ratings"], json!([]), "{empty}");
    let (status, refused) = server
        .http("GET", "/api/leaderboard?game=chess", None, None)
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, missing) = server.http("GET", "/api/players/Nobody", None, None).await;
    assert_eq!(status, 404, "{missing}");
    // The pages to share send the browser on to the client's own routes.
    for (path, to) in [
        ("/p/Ada%20L.", "/#/p/ada%20l%2e"), // the head is read lowercased
        ("/leaderboard", "/#/leaderboard"),
    ] {
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.addr
        );
        let (status, head, _) = raw_http_head(server.addr, request.as_bytes()).await;
        assert_eq!(status, 303, "{head}");
        assert!(head.contains(&format!("\r\nlocation: {to}\r\n")), "{head}");
    }
    server.stop().await;
}

/// Waits until `GET path` answers 200 with a body `done` accepts.
async fn until(server: &Server, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (status, body) = server.http("GET", path, None, None).await;
        if status == 200 && done(&body) {
            return body;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "GET {path}: {status} {body}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_lists_their_games_and_takes_a_seat_back_on_another_device() {
    let server = Server::start(|_| {}).await;
    let ada = keep(&server, "Ada").await;
    let bo = keep(&server, "Bo").await;
    let (status, made) = as_player(
        &server,
        "POST",
        "/api/tables",
        Some(&ada),
        Some(json!({"player": "Ada", "seats": 3, "public": false})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let (id, old) = (
        made["id"].as_str().unwrap(),
        made["token"].as_str().unwrap(),
    );

    // Her list has the private table; Bo's does not.
    let (status, mine) =
        as_player(&server, "GET", "/api/players/me/tables", Some(&ada), None).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["tables"][0]["id"], id, "{mine}");
    assert_eq!(mine["tables"][0]["public"], false, "{mine}");
    assert!(
        mine["tables"][0]["joined_at"].as_u64().unwrap() > 0,
        "{mine}"
    );
    let (_, his) = as_player(&server, "GET", "/api/players/me/tables", Some(&bo), None).await;
    assert_eq!(his["tables"], json!([]), "{his}");
    let (status, refused) = as_player(&server, "GET", "/api/players/me/tables", None, None).await;
    assert_eq!(status, 401, "{refused}");

    // Another device takes the seat back: a new token; the old one no
    // longer plays it. Bo holds no seat there.
    let mine_path = format!("/api/tables/{id}/seats/mine");
    let (status, refused) = as_player(&server, "POST", &mine_path, Some(&bo), None).await;
    assert_eq!(status, 404, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("no seat"),
        "{refused}"
    );
    let (status, back) = as_player(&server, "POST", &mine_path, Some(&ada), None).await;
    assert_eq!(status, 201, "{back}");
    let new = back["token"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    let bots = format!("/api/tables/{id}/bots");
    let (status, _) = server
        .http("POST", &bots, Some(old), Some(json!({"bot": "easy"})))
        .await;
    assert_eq!(status, 403, "the old token is the host's no more");
    let (status, added) = server
        .http("POST", &bots, Some(&new), Some(json!({"bot": "easy"})))
        .await;
    assert_eq!(status, 201, "{added}");

    // The log holds it: after a restart the new token is still the seat's.
    let server = server.restart(|_| {}).await;
    let (status, added) = server
        .http("POST", &bots, Some(&new), Some(json!({"bot": "easy"})))
        .await;
    assert_eq!(status, 201, "{added}");
    let (status, _) = server
        .http("POST", &format!("/api/tables/{id}/start"), Some(old), None)
        .await;
    assert_eq!(status, 403);
    server.stop().await;
}

/// Polls `ticket` of the player of `secret` until it is seated; answers
/// the table.
async fn seated(server: &Server, secret: &str, ticket: &str) -> String {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let path = format!("/api/queue/{ticket}");
        let (status, standing) = as_player(server, "GET", &path, Some(secret), None).await;
        assert_eq!(status, 200, "{standing}");
        if standing["status"] == "seated" {
            return standing["table"].as_str().unwrap().to_string();
        }
        assert_eq!(standing["status"], "waiting", "{standing}");
        assert!(
            tokio::time::Instant::now() < deadline,
            "never seated: {standing}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_seats_strangers_together_or_with_bots_after_their_wait() {
    let server = Server::start(|_| {}).await;
    let mut players = Vec::new();
    for name in ["Ada", "Bo", "Cy"] {
        let secret = keep(&server, name).await;
        let (status, standing) = as_player(
            &server,
            "POST",
            "/api/queue",
            Some(&secret),
            Some(json!({"players": 3, "wait": 60})),
        )
        .await;
        assert_eq!(status, 201, "{standing}");
        players.push((
            name,
            secret,
            standing["ticket"].as_str().unwrap().to_string(),
        ));
    }
    // Three wait for three seats: one table, at once, whatever their wait.
    let mut tables = Vec::new();
    for (_, secret, ticket) in &players {
        tables.push(seated(&server, secret, ticket).await);
    }
    assert!(tables.iter().all(|t| *t == tables[0]), "{tables:?}");
    let info = server.info(&tables[0]).await;
    assert_eq!(info["started"], true, "{info}");
    let mut taken: Vec<&str> = info["taken"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    taken.sort();
    assert_eq!(taken, ["Ada", "Bo", "Cy"], "{info}");
    // Each takes the seat on their device, with their secret.
    let mine = format!("/api/tables/{}/seats/mine", tables[0]);
    for (name, secret, _) in &players {
        let (status, back) = as_player(&server, "POST", &mine, Some(secret), None).await;
        assert_eq!(status, 201, "{name}: {back}");
    }

    // Alone, with no wait for people: two bots fill the table.
    let dee = keep(&server, "Dee").await;
    let (_, standing) = as_player(
        &server,
        "POST",
        "/api/queue",
        Some(&dee),
        Some(json!({"players": 3, "wait": 0})),
    )
    .await;
    let table = seated(&server, &dee, standing["ticket"].as_str().unwrap()).await;
    let info = server.info(&table).await;
    assert_eq!(info["taken"].as_array().unwrap().len(), 3, "{info}");
    assert!(info["taken"][1].as_str().unwrap().contains("bot"), "{info}");

    // Bounds and refusals say why; giving up drops the ticket.
    let (status, refused) = as_player(
        &server,
        "POST",
        "/api/queue",
        None,
        Some(json!({"players": 3, "wait": 0})),
    )
    .await;
    assert_eq!(status, 401, "{refused}");
    for (body, says) in [
        (json!({"players": 2, "wait": 0}), "players: 3 to 16"),
        (
            json!({"players": 9, "wait": 0, "game": "corporate-shuffle"}),
            "players: 3 to 8",
        ),
        (json!({"players": 3, "wait": 9999}), "wait: 0 to 300"),
    ] {
        let (status, refused) =
            as_player(&server, "POST", "/api/queue", Some(&dee), Some(body)).await;
        assert_eq!(status, 400, "{refused}");
        assert!(
            refused["error"].as_str().unwrap().contains(says),
            "{refused}"
        );
    }
    let (_, standing) = as_player(
        &server,
        "POST",
        "/api/queue",
        Some(&dee),
        Some(json!({"players": 5, "wait": 300})),
    )
    .await;
    let ticket = standing["ticket"].as_str().unwrap();
    assert_eq!(standing["waiting"], 1, "{standing}");
    let (status, _) = as_player(&server, "DELETE", "/api/queue", Some(&dee), None).await;
    assert_eq!(status, 204);
    let (status, gone) = as_player(
        &server,
        "GET",
        &format!("/api/queue/{ticket}"),
        Some(&dee),
        None,
    )
    .await;
    assert_eq!(status, 404, "{gone}");
    server.stop().await;
}
