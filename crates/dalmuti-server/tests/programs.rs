//! Contest programs at a table (issue 44's prize): UECda clients connect
//! to the server's UECda port, a host seats them at a table of the
//! contest's Daifugō beside a person and one of our bots, and the match is
//! the table's game, watched live by a spectator. The programs here are
//! our own UECda client (`dalmuti uecda join`), which checks every table
//! it is sent against the game it follows from them.

mod common;

use std::time::Duration;

use common::{Mode, Player, Server, answer, error_body};
use dalmuti_core::record::{Checked, check};
use dalmuti_server::http::{Created, RematchAt};
use dalmuti_server::programs::Programs;
use dalmuti_uecda::{JoinConfig, JoinReport, Protocol, join};
use serde_json::{Value, json};

const CONTEST: &str = r#"{"variant": "daifugo", "preset": "uecda"}"#;

fn contest_program(port: u16, name: &str) -> std::thread::JoinHandle<Result<JoinReport, String>> {
    let config = JoinConfig {
        host: "127.0.0.1".into(),
        port,
        bot: "normal".parse().expect("a bot"),
        name: name.into(),
        protocol: Protocol::Tables,
        seed: 3,
    };
    std::thread::spawn(move || join(config).map_err(|e| e.to_string()))
}

async fn waiting(programs: &Programs, n: usize) {
    for _ in 0..500 {
        if programs.waiting() == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{} programs wait, not {n}", programs.waiting());
}

async fn table(server: &Server, seats: usize, rules: Value, hands: u32) -> (String, String) {
    let (status, made) = server
        .http(
            "POST",
            "/api/tables",
            None,
            Some(json!({"player": "Ada", "seats": seats, "hands": hands, "rules": rules})),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let made: Created = answer(&made);
    (made.id.to_string(), made.token.as_str().to_string())
}

async fn add(server: &Server, id: &str, host: &str, bot: &str) -> (u16, Value) {
    server
        .http(
            "POST",
            &format!("/api/tables/{id}/bots"),
            Some(host),
            Some(json!({ "bot": bot })),
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contest_programs_play_a_match_beside_a_person_and_a_bot() {
    let programs = Programs::listen("127.0.0.1:0".parse().unwrap()).expect("the UECda port");
    let port = programs.port();
    let listening = programs.clone();
    let server = Server::start(move |c| c.programs = Some(listening)).await;
    let names = ["prog-a", "prog-b", "prog-c"];
    let mut clients = Vec::new();
    for (i, name) in names.iter().enumerate() {
        clients.push(contest_program(port, name));
        // Seated in the order they came.
        waiting(&programs, i + 1).await;
    }
    let games = 3;
    let (id, host) = table(&server, 5, serde_json::from_str(CONTEST).unwrap(), games).await;
    for name in names {
        let seated = server.add_bot(&id, &host, "program").await;
        assert_eq!(seated, name, "the seat has the program's name");
    }
    assert_eq!(programs.waiting(), 0);
    server.add_bot(&id, &host, "hard").await;
    let spectator = Player::join(&server, &id, "spectator", None, 0, Mode::Watch).await;
    let ada = Player::join(&server, &id, "Ada", Some(&host), 0, Mode::All).await;
    server.start_game(&id, &host).await;
    let ada = ada.finish().await;
    let watched = spectator.finish().await;
    let info = server.table_info(&id).await;
    assert!(info.over, "{info:?}");
    let mut seen_playing = 0;
    for (client, name) in clients.into_iter().zip(names) {
        let report = tokio::task::spawn_blocking(move || client.join())
            .await
            .unwrap()
            .expect("the client's thread")
            .unwrap_or_else(|e| panic!("{name}'s match: {e}"));
        assert_eq!(report.games, games, "{name} was told every game");
        assert_eq!(report.faults, 0, "{name} followed every table it was sent");
        assert!(report.player.is_some());
        seen_playing += 1;
    }
    assert_eq!(seen_playing, 3);
    // The programs' plays are the table's: the record checks, and the
    // spectator and the person saw each program's seat play.
    let (status, record) = server
        .http("GET", &format!("/api/tables/{id}/record"), None, None)
        .await;
    assert_eq!(status, 200);
    let Checked::Valid(report) = check(&record.to_string()) else {
        panic!("the record does not check: {record}");
    };
    assert_eq!(report.hands.len(), games as usize);
    for name in names {
        let acted = |log: &[Value]| {
            log.iter()
                .filter(|m| m["d"]["e"]["kind"] == "act" && m["d"]["e"]["name"] == name)
                .count()
        };
        assert!(acted(&watched) > 10, "the spectator saw {name} play");
        assert_eq!(
            acted(&ada),
            acted(&watched),
            "Ada saw what the spectator saw"
        );
    }
    // A rematch keeps Ada and the bot, and leaves the programs' seats free
    // for programs that connect again (theirs ended with the match).
    let (status, rematch) = server
        .http(
            "POST",
            &format!("/api/tables/{id}/rematch"),
            Some(&host),
            None,
        )
        .await;
    assert_eq!(status, 201, "{rematch}");
    let rematch: RematchAt = answer(&rematch);
    let info = server.table_info(rematch.id.as_str()).await;
    let seated: Vec<&str> = info.taken.iter().map(|s| s.as_str()).collect();
    assert_eq!(seated.len(), 2, "{info:?}");
    assert!(names.iter().all(|n| !seated.contains(n)), "{info:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_is_refused_where_it_cannot_play_and_says_why() {
    // A server without a UECda port.
    let server = Server::start(|_| {}).await;
    let (id, host) = table(&server, 5, serde_json::from_str(CONTEST).unwrap(), 2).await;
    let (status, body) = add(&server, &id, &host, "program").await;
    assert_eq!(status, 400, "{body}");
    assert!(error_body(&body).error.contains("--uecda-port"), "{body}");
    drop(server);

    let programs = Programs::listen("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = programs.port();
    let listening = programs.clone();
    let server = Server::start(move |c| c.programs = Some(listening)).await;
    // None waits yet: the refusal names the port to connect to.
    let (id, host) = table(&server, 5, serde_json::from_str(CONTEST).unwrap(), 2).await;
    let (status, body) = add(&server, &id, &host, "program").await;
    assert_eq!(status, 400, "{body}");
    assert!(
        error_body(&body).error.contains(&port.to_string()),
        "{body}"
    );
    let client = contest_program(port, "prog-a");
    waiting(&programs, 1).await;
    // Not the contest's game: Dalmuti, the contest's rules for four, or
    // Daifugō with another option.
    for (seats, rules) in [
        (5, json!({"variant": "dalmuti"})),
        (4, serde_json::from_str(CONTEST).unwrap()),
        (
            5,
            json!({"variant": "daifugo", "preset": "uecda", "climbing": {"eleven_back": true}}),
        ),
    ] {
        let (other, other_host) = table(&server, seats, rules.clone(), 2).await;
        let (status, body) = add(&server, &other, &other_host, "program").await;
        assert_eq!(status, 400, "{rules}: {body}");
        assert!(error_body(&body).error.contains("contest"), "{body}");
    }
    assert_eq!(
        programs.waiting(),
        1,
        "a refused seat leaves the program waiting"
    );
    // Seated beside Ada and three bots, the program plays the match;
    // after the start no program may be added.
    server.add_bot(&id, &host, "program").await;
    server.add_bot(&id, &host, "easy").await;
    // Three of five may start a table, but not the contest's match.
    let (status, body) = server
        .http(
            "POST",
            &format!("/api/tables/{id}/start"),
            Some(&host),
            None,
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(error_body(&body).error.contains("five"), "{body}");
    server.add_bot(&id, &host, "easy").await;
    server.add_bot(&id, &host, "easy").await;
    // A second program finds the table full: refused, it waits on.
    let second = contest_program(port, "prog-b");
    waiting(&programs, 1).await;
    let (status, body) = add(&server, &id, &host, "program").await;
    assert!(status >= 400, "a sixth seat at a table of five: {body}");
    assert_eq!(programs.waiting(), 1, "the refused program waits on");
    let ada = Player::join(&server, &id, "Ada", Some(&host), 0, Mode::All).await;
    server.start_game(&id, &host).await;
    let (status, body) = add(&server, &id, &host, "program").await;
    assert_eq!(status, 400, "{body}");
    assert!(
        error_body(&body).error.contains("before the start"),
        "{body}"
    );
    ada.finish().await;
    // Turned away by the operator, the second program is told by its
    // connection's end.
    programs.take().expect("prog-b waits").close();
    let turned_away = tokio::task::spawn_blocking(move || second.join())
        .await
        .unwrap()
        .unwrap();
    assert!(turned_away.is_err(), "{turned_away:?}");
    let report = tokio::task::spawn_blocking(move || client.join())
        .await
        .unwrap()
        .unwrap()
        .expect("the match");
    assert_eq!(report.games, 2);
}
