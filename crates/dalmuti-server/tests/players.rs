//! Players who keep a name, over real sockets: a name kept once per
//! server (look-alikes included), its secret shown once and known again
//! after a restart, seats under a kept name only for its player, and the
//! bounds a stranger meets.

mod common;

use common::*;
use dalmuti_server::http::{Created, RematchAt, Seated};
use dalmuti_server::players::{Board, Me, MyTables, Profile, Reclaimed, Registered};
use dalmuti_server::protocol::{Described, ErrorKind, MsgType, News, ServerMsg, Told};
use dalmuti_server::queue::Standing;
use serde_json::{Value, json};

/// Sends one request with `Authorization: Player SECRET` when given.
async fn as_player(
    server: &Server,
    method: &str,
    path: &str,
    secret: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, _, body) = as_player_from(server, None, method, path, secret, body).await;
    (status, body)
}

/// [`as_player`] from local address `from` (another place), answering
/// the head too.
async fn as_player_from(
    server: &Server,
    from: Option<&str>,
    method: &str,
    path: &str,
    secret: Option<&str>,
    body: Option<Value>,
) -> (u16, String, Value) {
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
    let from = from.map(|ip| ip.parse().unwrap());
    raw_http_head_from(
        from,
        server.addr,
        &[head.as_bytes(), body.as_bytes()].concat(),
    )
    .await
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
    assert_eq!(answer::<Registered>(&kept).name.as_str(), name, "{kept}");
    let secret = answer::<Registered>(&kept).secret.as_str().to_string();
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
        let reason = error_body(&answer).error;
        assert!(reason.contains("choose another name"), "{reason}");
        assert!(!reason.contains(&ada), "no secret in a refusal: {reason}");
    }

    // The secret says who it is; a wrong one is refused with a reason.
    let (status, me) = as_player(&server, "GET", "/api/players/me", Some(&ada), None).await;
    assert_eq!(
        (status, answer::<Me>(&me).name.as_str()),
        (200, "Ada"),
        "{me}"
    );
    let wrong = "0".repeat(32);
    let (status, refused) = as_player(&server, "GET", "/api/players/me", Some(&wrong), None).await;
    assert_eq!(status, 403, "{refused}");
    assert!(
        error_body(&refused).error.contains("recovery link"),
        "{refused}"
    );

    // Nobody else sits under the name or one like it.
    let table = json!({"player": "ada", "seats": 3});
    let (status, refused) = as_player(&server, "POST", "/api/tables", None, Some(table)).await;
    assert_eq!(status, 409, "{refused}");
    assert!(
        error_body(&refused).error.contains("kept name"),
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
    assert!(error_body(&refused).error.contains("\"Ada\""), "{refused}");
    let (status, seated) = as_player(
        &server,
        "POST",
        &seats,
        Some(&ada),
        Some(json!({"name": "ada"})),
    )
    .await;
    assert_eq!(status, 201, "{seated}");
    let info = server.table_info(&id).await;
    let names: Vec<&str> = info.taken.iter().map(|p| p.as_str()).collect();
    assert_eq!(names, ["Bo", "Ada"], "{info:?}");

    // Kept in the store: known again after a restart.
    let server = server.restart(|_| {}).await;
    let (status, me) = as_player(&server, "GET", "/api/players/me", Some(&ada), None).await;
    assert_eq!(
        (status, answer::<Me>(&me).name.as_str()),
        (200, "Ada"),
        "{me}"
    );
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
        error_body(&refused)
            .error
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
    let made: Created = answer(&made);
    let (id, host) = (made.id.as_str(), made.token.as_str());
    server.add_bot(id, host, "easy").await;
    server.add_bot(id, host, "easy").await;
    // Ada stays at the table until its news is read: a finished game with
    // no one at it leaves memory at once (its record kept), and on a busy
    // machine that could come before the rating's news line, which only
    // the table tells (CI met it under load).
    let mut stays = server.ws(id).await;
    stays.send_json(&common::hello(Some(host), 0)).await;
    stays.recv_json().await;
    play_to_the_end(&server, id, host, &[("Ada", host)]).await;

    // The table's summary carries its bots' names with their parts, for
    // a client to say them in its own words (issue 46).
    let info = server.table_info(id).await;
    let bots: Vec<(&str, &str, u32)> = info
        .bots
        .iter()
        .map(|b| (b.name.as_str(), b.bot.as_str(), b.n))
        .collect();
    assert_eq!(
        bots,
        [("easy bot 1", "easy", 1), ("easy bot 2", "easy", 2)],
        "{info:?}"
    );
    // The news says how the game moved the ratings, once it is counted:
    // Ada's and the level's (its two copies move it once), from the
    // newcomer's 25, in the order of the standings. A bot's seat line
    // carries its number.
    let news = until_news(&server, id, |n| matches!(n, News::Rated { .. })).await;
    drop(stays);
    let ratings = news
        .iter()
        .find_map(|n| match n {
            News::Rated { ratings } => Some(ratings),
            _ => None,
        })
        .unwrap();
    let who: Vec<(&str, bool)> = ratings.iter().map(|r| (r.name.as_str(), r.bot)).collect();
    assert_eq!(who.len(), 2, "{ratings:?}");
    assert!(
        who.contains(&("Ada", false)) && who.contains(&("easy", true)),
        "{ratings:?}"
    );
    for r in ratings {
        assert_eq!(r.before.mu, 25.0, "{ratings:?}");
        // `provisional` is not read back from the wire: the type works it
        // out from the rating read, as the server does when it writes it.
        assert!(
            r.after.provisional(),
            "one game: a first guess: {ratings:?}"
        );
        // A game always makes a rating surer (its mean stays put for the
        // middle place between two equals).
        assert!(r.after.sigma < r.before.sigma, "{ratings:?}");
    }
    let seated: Vec<Option<u32>> = news
        .iter()
        .filter_map(|n| match n {
            News::Seat { bot_n, .. } => Some(*bot_n),
            _ => None,
        })
        .collect();
    assert_eq!(seated[1], Some(1), "{news:?}");
    assert_eq!(seated[2], Some(2), "{news:?}");
    assert_eq!(seated[0], None, "a person has no number: {news:?}");

    // A rated table seats nobody who kept no name: a seat nobody can be
    // held to would cancel the rating for everyone (issue 40).
    let (status, made) = as_player(
        &server,
        "POST",
        "/api/tables",
        Some(&ada),
        Some(json!({"player": "Ada", "seats": 3, "hands": 1, "rated": true})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let made: Created = answer(&made);
    let rated_id = made.id;
    let (status, refused) = server
        .http(
            "POST",
            &format!("/api/tables/{rated_id}/seats"),
            None,
            Some(json!({"name": "Bo"})),
        )
        .await;
    assert_eq!(status, 409, "{refused}");
    assert!(error_body(&refused).error.contains("rated"), "{refused}");

    // Not rated, private, with Bo who kept no name: it is Ada's history,
    // not a rating.
    let (status, made) = as_player(
        &server,
        "POST",
        "/api/tables",
        Some(&ada),
        Some(json!({"player": "Ada", "seats": 3, "hands": 1, "public": false})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let made: Created = answer(&made);
    let (id2, host2) = (made.id.as_str(), made.token.as_str());
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
    let rematch: RematchAt = answer(&rematch);
    let (_, mine) = as_player(&server, "GET", "/api/players/me/tables", Some(&ada), None).await;
    let mine_listed: MyTables = answer(&mine);
    let listed: Vec<&str> = mine_listed
        .tables
        .iter()
        .map(|t| t.info.id.as_str())
        .collect();
    assert!(listed.contains(&rematch.id.as_str()), "{mine}");

    // A spectator may not chat under her kept name, nor one like it.
    let (elsewhere, _) = server
        .create_table(json!({"player": "Eve", "seats": 3, "spectator_chat": true}))
        .await;
    let mut ws = server.ws(&elsewhere).await;
    ws.send_json(&json!({"t": "hello", "v": 0, "d": {"name": "ADA"}}))
        .await;
    ws.send_json(&json!({"t": "chat", "d": "I am Ada"})).await;
    let refused = ws.recv_refusal().await;
    assert!(refused.reason.contains("kept name"), "{refused:?}");

    let profile = until(&server, "/api/players/ada", |p| {
        answer::<Profile>(p).recent.len() == 2
    })
    .await;
    // The private table's address is nowhere in the text (issue 40).
    assert!(!profile.to_string().contains(id2), "{profile}");
    let profile: Profile = answer(&profile);
    assert_eq!(profile.name.as_str(), "Ada", "{profile:?}");
    let recent = &profile.recent;
    // The private table's address is Ada's alone to see (issue 40).
    assert_eq!(
        (&recent[0].table, &recent[0].table_name, recent[0].public),
        (&None, &None, false),
        "newest first, its table not shown: {profile:?}"
    );
    let (_, own) = as_player(&server, "GET", "/api/players/ada", Some(&ada), None).await;
    let own_table = answer::<Profile>(&own).recent[0].table.clone();
    assert_eq!(own_table.as_ref().map(|t| t.as_str()), Some(id2), "{own}");
    assert!(!recent[0].result.rated, "{profile:?}");
    assert!(recent[0].result.rating.is_none(), "{profile:?}");
    assert!(recent[1].result.rated, "{profile:?}");
    // Its band (the profile plots each band apart), its name's parts, and
    // the rating told as the news told it after the game.
    assert_eq!(recent[1].result.band.as_deref(), Some("3-4"), "{profile:?}");
    assert!(recent[0].result.band.is_none(), "not rated: {profile:?}");
    let parts = recent[1].default_name.as_ref().expect("a default name");
    assert_eq!(
        serde_json::to_value(parts).unwrap(),
        json!({"player": "Ada", "n": 1}),
        "{profile:?}"
    );
    assert!(recent[0].default_name.is_none(), "private: {profile:?}");
    let told = ratings.iter().find(|r| r.name == "Ada").unwrap();
    assert_eq!(recent[1].result.rating, Some(told.after), "{profile:?}");
    let place = recent[1].result.place;
    let mu = recent[1].result.rating.unwrap().mu;
    // First of three new players gains, last loses.
    match place {
        1 => assert!(mu > 25.0, "{profile:?}"),
        3 => assert!(mu < 25.0, "{profile:?}"),
        _ => {}
    }
    let games = &profile.games[0];
    assert_eq!((games.game.as_str(), games.played), ("dalmuti", 2));
    let ratings = &profile.ratings;
    assert_eq!(ratings.len(), 1, "one game, one band: {profile:?}");
    assert_eq!(
        (ratings[0].row.band.as_str(), ratings[0].row.games),
        ("3-4", 1)
    );

    // The leaderboard holds Ada and the bot level, on one scale; the
    // other band is empty.
    let (status, board) = server
        .http("GET", "/api/leaderboard?game=dalmuti&band=3-4", None, None)
        .await;
    assert_eq!(status, 200, "{board}");
    let rows = answer::<Board>(&board).ratings;
    let names: Vec<(&str, bool)> = rows
        .iter()
        .map(|r| (r.row.name.as_str(), r.row.bot))
        .collect();
    assert!(names.contains(&("Ada", false)), "{board}");
    assert!(names.contains(&("easy", true)), "{board}");
    let ordinals: Vec<f64> = rows.iter().map(|r| r.ordinal).collect();
    assert!(
        ordinals.windows(2).all(|w| w[0] >= w[1]),
        "best first: {board}"
    );
    let (_, empty) = server
        .http("GET", "/api/leaderboard?game=dalmuti&band=8-16", None, None)
        .await;
    assert!(answer::<Board>(&empty).ratings.is_empty(), "{empty}");
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

/// The news lines table `id` keeps, as a spectator's `hello` gets them,
/// once one of them is `done` (the game over is counted just after it).
async fn until_news(server: &Server, id: &str, done: impl Fn(&News) -> bool) -> Vec<News> {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (_, snapshot) = server.hello_msg(id, None, 0).await;
        let news: Vec<News> = snapshot
            .expect_state()
            .news
            .iter()
            .flatten()
            .map(|line| line.news.clone())
            .collect();
        if news.iter().any(&done) {
            return news;
        }
        assert!(tokio::time::Instant::now() < deadline, "{snapshot:?}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
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
    let made: Created = answer(&made);
    let (id, old) = (made.id.as_str(), made.token.as_str());

    // Her list has the private table; Bo's does not.
    let (status, mine) =
        as_player(&server, "GET", "/api/players/me/tables", Some(&ada), None).await;
    assert_eq!(status, 200, "{mine}");
    let mine_listed: MyTables = answer(&mine);
    let newest = &mine_listed.tables[0];
    assert_eq!(newest.info.id.as_str(), id, "{mine}");
    assert!(!newest.info.public, "{mine}");
    assert!(newest.joined_at > 0, "{mine}");
    let (_, his) = as_player(&server, "GET", "/api/players/me/tables", Some(&bo), None).await;
    assert!(answer::<MyTables>(&his).tables.is_empty(), "{his}");
    let (status, refused) = as_player(&server, "GET", "/api/players/me/tables", None, None).await;
    assert_eq!(status, 401, "{refused}");

    // The first device, at the table with the seat's token.
    let mut laptop = server.ws(id).await;
    laptop.send_json(&common::hello(Some(old), 0)).await;
    let first = laptop.recv_msg().await;
    let you = first.expect_state().state.you.as_ref();
    assert_eq!(you.map(|n| n.as_str()), Some("Ada"), "{first:?}");

    // Another device takes the seat back: a new token; the old one no
    // longer plays it. Bo holds no seat there.
    let mine_path = format!("/api/tables/{id}/seats/mine");
    let (status, refused) = as_player(&server, "POST", &mine_path, Some(&bo), None).await;
    assert_eq!(status, 404, "{refused}");
    assert!(error_body(&refused).error.contains("no seat"), "{refused}");
    let (status, back) = as_player(&server, "POST", &mine_path, Some(&ada), None).await;
    assert_eq!(status, 201, "{back}");
    let back: Reclaimed = answer(&back);
    let new = back.token.as_str().to_string();
    assert_ne!(new, old);
    // The first device is told at once, and let go (issue 46): it must
    // not go on showing a seat it can no longer play.
    let taken = laptop
        .recv_until_msg(|m| !matches!(m.told.t(), MsgType::Event | MsgType::Presence))
        .await;
    match &taken.told {
        Told::Taken(taken) => assert_eq!(taken.name.as_str(), "Ada", "{taken:?}"),
        other => panic!("not taken: {other:?}"),
    }
    match laptop.recv().await {
        Some(Frame::Close(code, _)) => assert_eq!(code, Some(4409)),
        other => panic!("after taken, not a close: {other:?}"),
    }
    // Knocking again with the old token: refused as a token of no seat.
    let mut again = server.ws(id).await;
    again.send_json(&common::hello(Some(old), 0)).await;
    let refused = again.recv_msg().await;
    let kind = refused.refusal().map(|r| r.kind);
    assert_eq!(kind, Some(ErrorKind::BadToken), "{refused:?}");
    // The new device holds the seat, and is not told it was taken.
    let mut phone = server.ws(id).await;
    phone.send_json(&common::hello(Some(&new), 0)).await;
    let seen = phone.recv_msg().await;
    let you = seen.expect_state().state.you.as_ref();
    assert_eq!(you.map(|n| n.as_str()), Some("Ada"), "{seen:?}");
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

/// The ticket of a queue answer, read as the server's [`Standing`].
fn ticket(standing: &Value) -> String {
    match answer::<Standing>(standing) {
        Standing::Waiting { ticket, .. } | Standing::Seated { ticket, .. } => ticket,
    }
}

/// Polls `ticket` of the player of `secret` until it is seated; answers
/// the table.
async fn seated(server: &Server, secret: &str, ticket: &str) -> String {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let path = format!("/api/queue/{ticket}");
        let (status, standing) = as_player(server, "GET", &path, Some(secret), None).await;
        assert_eq!(status, 200, "{standing}");
        match answer::<Standing>(&standing) {
            Standing::Seated { table, .. } => return table.to_string(),
            Standing::Waiting { .. } => {}
        }
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
        players.push((name, secret, ticket(&standing)));
    }
    // Three wait for three seats: one table, at once, whatever their wait.
    let mut tables = Vec::new();
    for (_, secret, ticket) in &players {
        tables.push(seated(&server, secret, ticket).await);
    }
    assert!(tables.iter().all(|t| *t == tables[0]), "{tables:?}");
    let info = server.table_info(&tables[0]).await;
    assert!(info.started, "{info:?}");
    let mut taken: Vec<&str> = info.taken.iter().map(|n| n.as_str()).collect();
    taken.sort();
    assert_eq!(taken, ["Ada", "Bo", "Cy"], "{info:?}");
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
    let table = seated(&server, &dee, &ticket(&standing)).await;
    let info = server.table_info(&table).await;
    assert_eq!(info.taken.len(), 3, "{info:?}");
    assert!(info.taken[1].as_str().contains("bot"), "{info:?}");

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
        assert!(error_body(&refused).error.contains(says), "{refused}");
    }
    let (_, standing) = as_player(
        &server,
        "POST",
        "/api/queue",
        Some(&dee),
        Some(json!({"players": 5, "wait": 300})),
    )
    .await;
    let ticket = match answer::<Standing>(&standing) {
        Standing::Waiting {
            ticket, waiting, ..
        } => {
            assert_eq!(waiting, 1, "{standing}");
            ticket
        }
        Standing::Seated { .. } => panic!("not waiting: {standing}"),
    };
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

/// Issue 40: each seat taken back appended an event, so every other
/// player's move arrived stale; ten a second froze the table. A move
/// chosen before a seat was taken back still plays, and a loop of takings
/// back is refused past its burst with when to try again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taking_a_seat_back_in_a_loop_freezes_nobody() {
    let server = Server::start(|_| {}).await;
    let ada = keep(&server, "Ada").await;
    let (status, made) = as_player(
        &server,
        "POST",
        "/api/tables",
        Some(&ada),
        Some(json!({"player": "Ada", "seats": 3, "hands": 2})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let made: Created = answer(&made);
    let (id, host) = (
        made.id.as_str().to_string(),
        made.token.as_str().to_string(),
    );
    let bo = server.take_seat(&id, "Bo").await;
    server.add_bot(&id, &host, "easy").await;
    let mut ws = server.ws(&id).await;
    ws.send_json(&hello(Some(&bo), 0)).await;
    server.start_game(&id, &host).await;

    // Bo chooses at v, on his turn of play (nobody else acts then: a tax
    // given meanwhile would change the game); Ada takes her seat back;
    // Bo's move arrives.
    let mut answered = None;
    let state = loop {
        let m = ws
            .recv_until_msg(|m| m.state().is_some_and(|s| choose_for(s).is_some()))
            .await;
        if asks_to_play(&m) {
            break m;
        }
        // A decision before play (his tax): answered once, as asked.
        if answered != Some(m.v) {
            answered = Some(m.v);
            let action = choose_for(m.expect_state()).unwrap();
            ws.send_json(&json!({"t": "act", "v": m.v, "d": action}))
                .await;
        }
    };
    let v = state.v;
    let mine = format!("/api/tables/{id}/seats/mine");
    let (status, back) = as_player(&server, "POST", &mine, Some(&ada), None).await;
    assert_eq!(status, 201, "{back}");
    let action = choose_for(state.expect_state()).unwrap();
    ws.send_json(&json!({"t": "act", "v": v, "d": action}))
        .await;
    let bos_move = |m: &ServerMsg| {
        let e = m.state().and_then(|s| s.e.as_ref());
        matches!(e, Some(Described::Act { name, .. }) if name.as_str() == "Bo")
    };
    let answer = ws
        .recv_until_msg(|m| {
            matches!(m.t(), MsgType::Error | MsgType::Resync)
                || (m.t() == MsgType::Event && bos_move(m))
        })
        .await;
    assert_eq!(answer.t(), MsgType::Event, "Bo's move played: {answer:?}");
    assert!(answer.v > v + 1, "{answer:?}");
    ws.close().await;

    // A loop: refused past the burst, saying when to try again; Bo plays
    // the game to its end meanwhile.
    let player = Player::join(&server, &id, "Bo", Some(&bo), 0, Mode::All).await;
    let mut refused = None;
    for _ in 0..dalmuti_server::players::RECLAIM_BURST + 5 {
        let (status, head, body) =
            as_player_from(&server, None, "POST", &mine, Some(&ada), None).await;
        if status == 429 {
            refused = Some((head, body));
            break;
        }
        assert_eq!(status, 201, "{body}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (head, body) = refused.expect("a loop of takings back is refused");
    assert!(head.contains("\r\nretry-after: "), "{head}");
    assert!(
        error_body(&body)
            .error
            .contains("too many seats taken back at this table: try again in"),
        "{body}"
    );
    // (A move of Bo's may still be stale now and then: a tax given by
    // the bot at the same time changes the game. The first part is the
    // one about takings back.)
    let heard = player.finish().await;
    assert!(
        heard
            .iter()
            .any(|m| msg_from(m).state().is_some_and(|s| s.state.game_over)),
        "the game ended"
    );
    server.stop().await;
}

/// Issue 40: one name asking again and again filled the server's table
/// cap with play-now tables, and then nobody could make a table. The
/// queue keeps to half the cap, and a name asks a few times at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_play_now_queue_leaves_room_for_tables_made_by_hand() {
    let server = Server::start(|c| c.max_tables = 4).await;
    let dee = keep(&server, "Dee").await;
    let ask = || async {
        as_player(
            &server,
            "POST",
            "/api/queue",
            Some(&dee),
            Some(json!({"players": 3, "wait": 0})),
        )
        .await
    };
    // Two tables for her: half of the cap of four.
    for _ in 0..2 {
        let (status, standing) = ask().await;
        assert_eq!(status, 201, "{standing}");
        seated(&server, &dee, &ticket(&standing)).await;
    }
    // A third ask waits: the queue has no more room here.
    let (status, standing) = ask().await;
    assert_eq!(status, 201, "{standing}");
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let path = format!("/api/queue/{}", ticket(&standing));
    let (_, still) = as_player(&server, "GET", &path, Some(&dee), None).await;
    assert!(
        matches!(answer::<Standing>(&still), Standing::Waiting { .. }),
        "{still}"
    );
    // A fourth is refused under her name, with when to try again.
    let (status, refused) = ask().await;
    assert_eq!(status, 429, "{refused}");
    assert!(
        error_body(&refused)
            .error
            .contains("too many play-now tables under your name: try again in"),
        "{refused}"
    );
    // Someone else still makes tables by hand.
    for name in ["Eve", "Flo"] {
        let (status, made) = server
            .http(
                "POST",
                "/api/tables",
                None,
                Some(json!({"player": name, "seats": 3})),
            )
            .await;
        assert_eq!(status, 201, "{name}: {made}");
    }
    server.stop().await;
}

/// Keeps `name` from local address `from`; answers the secret.
async fn keep_from(server: &Server, from: &str, name: &str) -> String {
    let (status, _, kept) = as_player_from(
        server,
        Some(from),
        "POST",
        "/api/players",
        None,
        Some(json!({ "name": name })),
    )
    .await;
    assert_eq!(status, 201, "keep {name}: {kept}");
    answer::<Registered>(&kept).secret.as_str().to_string()
}

/// Issue 40: leaving a rated game dodged its rating (and rated the others
/// in a smaller band), and two accounts at one keyboard farmed one. A
/// leaver is rated last in the band of the table that started; people
/// who took their seats from one place are not rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_costs_a_leaver_and_pays_no_second_account() {
    let server = Server::start(|_| {}).await;
    let ada = keep_from(&server, "127.0.0.1", "Ada").await;
    let bo = keep_from(&server, "127.0.0.2", "Bo").await;
    let cy = keep_from(&server, "127.0.0.1", "Cy").await;

    // Ada and Bo, from two places, with two bots: Bo leaves.
    let (status, _, made) = as_player_from(
        &server,
        Some("127.0.0.1"),
        "POST",
        "/api/tables",
        Some(&ada),
        Some(json!({"player": "Ada", "seats": 4, "hands": 2, "rated": true})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let made: Created = answer(&made);
    let (id, host) = (
        made.id.as_str().to_string(),
        made.token.as_str().to_string(),
    );
    let (status, _, seated) = as_player_from(
        &server,
        Some("127.0.0.2"),
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&bo),
        Some(json!({"name": "Bo"})),
    )
    .await;
    assert_eq!(status, 201, "{seated}");
    let seated: Seated = answer(&seated);
    let bo_token = seated.token.as_str().to_string();
    server.add_bot(&id, &host, "easy").await;
    server.add_bot(&id, &host, "easy").await;
    let ada_plays = Player::join(&server, &id, "Ada", Some(&host), 0, Mode::All).await;
    let bo_plays = Player::join(&server, &id, "Bo", Some(&bo_token), 0, Mode::All).await;
    server.start_game(&id, &host).await;
    let (status, left) = server
        .http(
            "DELETE",
            &format!("/api/tables/{id}/seats"),
            Some(&bo_token),
            None,
        )
        .await;
    assert_eq!(status, 204, "{left}");
    ada_plays.finish().await;
    let _ = bo_plays.drop_connection();
    let profile = until(&server, "/api/players/bo", |p| {
        answer::<Profile>(p).recent.len() == 1
    })
    .await;
    let profile: Profile = answer(&profile);
    let game = &profile.recent[0].result;
    assert_eq!(
        (game.place, game.players, game.rated),
        (4, 4, true),
        "rated last of four: {profile:?}"
    );
    assert!(game.rating.unwrap().mu < 25.0, "{profile:?}");
    assert_eq!(profile.ratings[0].row.band, "3-4", "{profile:?}");

    // Ada and Cy from one place: their game is history, not a rating.
    let (status, _, made) = as_player_from(
        &server,
        Some("127.0.0.1"),
        "POST",
        "/api/tables",
        Some(&cy),
        Some(json!({"player": "Cy", "seats": 3, "hands": 1, "rated": true})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let made: Created = answer(&made);
    let (id, host) = (
        made.id.as_str().to_string(),
        made.token.as_str().to_string(),
    );
    let (status, _, seated) = as_player_from(
        &server,
        Some("127.0.0.1"),
        "POST",
        &format!("/api/tables/{id}/seats"),
        Some(&ada),
        Some(json!({"name": "Ada"})),
    )
    .await;
    assert_eq!(status, 201, "{seated}");
    let seated: Seated = answer(&seated);
    server.add_bot(&id, &host, "easy").await;
    play_to_the_end(
        &server,
        &id,
        &host,
        &[("Cy", &host), ("Ada", seated.token.as_str())],
    )
    .await;
    let profile = until(&server, "/api/players/cy", |p| {
        answer::<Profile>(p).recent.len() == 1
    })
    .await;
    let profile: Profile = answer(&profile);
    assert!(!profile.recent[0].result.rated, "{profile:?}");
    assert!(profile.ratings.is_empty(), "{profile:?}");
    server.stop().await;
}
