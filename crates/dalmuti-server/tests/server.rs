//! The server's foundation: router, actor, hidden information, restart.

use std::sync::Arc;

/// Deals are seeded so every run plays the same hands.
const TEST_SEED: u64 = 5;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use dalmuti_core::Action;
use dalmuti_server::http::{AppState, router};
use dalmuti_server::protocol::ServerMsg;
use dalmuti_server::store::{SqliteStore, Store, TableRow};
use dalmuti_server::table::{self, Feed, TableHandle};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

async fn call(app: &axum::Router, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn router_lobby_and_bad_input() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let app = router(AppState::open(store).unwrap());
    let (status, created) = call(
        &app,
        "POST",
        "/api/tables",
        r#"{"name":"Friday","seats":4}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap().to_string();
    let (status, list) = call(&app, "GET", "/api/tables", "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["tables"][0]["name"], "Friday");
    let (status, seat) = call(
        &app,
        "POST",
        &format!("/api/tables/{id}/seats"),
        r#"{"name":"Ada"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(seat["token"].as_str().unwrap().len(), 32);
    let (status, err) = call(
        &app,
        "POST",
        &format!("/api/tables/{id}/seats"),
        r#"{"name":"Ada"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(err["error"].as_str().unwrap().contains("taken"));
    // Too few seats to start.
    let (status, err) = call(&app, "POST", &format!("/api/tables/{id}/start"), "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    for _ in 0..3 {
        let (status, _) = call(
            &app,
            "POST",
            &format!("/api/tables/{id}/bots"),
            r#"{"bot":"greedy"}"#,
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, err) = call(
        &app,
        "POST",
        &format!("/api/tables/{id}/bots"),
        r#"{"bot":"greedy"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "full: {err}");
    let (status, _) = call(&app, "POST", &format!("/api/tables/{id}/start"), "").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, list) = call(&app, "GET", "/api/tables", "").await;
    assert_eq!(
        list["tables"].as_array().unwrap().len(),
        0,
        "a started table is not open"
    );

    let (status, err) = call(&app, "POST", "/api/tables", "{garbage").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(!err["error"].as_str().unwrap().is_empty());
    let (status, err) = call(&app, "POST", "/api/tables", r#"{"name":"Two","seats":2}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(err["error"].as_str().unwrap().contains("3 to 16"), "{err}");
    let (status, err) = call(&app, "POST", "/api/tables/nope/seats", r#"{"name":"Bo"}"#).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(err["error"].as_str().unwrap().contains("no table"));
    let (status, _) = call(
        &app,
        "POST",
        "/api/tables",
        r#"{"name":"X","seats":4,"rules":{"scoring":"bogus"}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/tables/{id}/bots"),
        r#"{"bot":"cmd:rm -rf /"}"#,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "no external bots over the network"
    );
}

fn row(seats: usize, rules: Value) -> TableRow {
    TableRow {
        id: dalmuti_server::store::new_id(),
        name: "test".into(),
        seats,
        rules: rules.to_string(),
    }
}

/// Drains everything a feed holds now.
fn drain(feed: &mut Feed, into: &mut Vec<Arc<ServerMsg>>) {
    loop {
        match feed.try_recv() {
            Ok(msg) => into.push(msg),
            Err(tokio::sync::broadcast::error::TryRecvError::Lagged(_)) => continue,
            Err(_) => return,
        }
    }
}

/// Plays the human seat with a heuristic bot's choice until `stop` or the
/// game ends. Returns the number of human actions.
async fn play_human(table: &TableHandle, token: &str, stop: impl Fn(&Value) -> bool) -> usize {
    let mut bot = dalmuti_bots::HeuristicBot::new(7);
    let mut acted = 0;
    loop {
        let (_feed, snap) = table.subscribe(Some(token)).await.unwrap();
        let d = &snap.d;
        if d["game_over"] == true || stop(d) {
            return acted;
        }
        let me = d["view"]["seat"].as_u64().unwrap() as usize;
        let to_act: Vec<u64> = serde_json::from_value(d["view"]["to_act"].clone()).unwrap();
        assert!(
            to_act.contains(&(me as u64)),
            "bots are done, so the human must be to act: {d}"
        );
        let action = choose(&mut bot, d);
        table.act(token, action, snap.v).await.unwrap();
        acted += 1;
    }
}

/// A legal action read from the seat's snapshot alone (one hand, no
/// taxes): decline a revolution, pass when a set is on the table, else
/// lead its worst card.
fn choose(_bot: &mut dalmuti_bots::HeuristicBot, d: &Value) -> Action {
    let view = &d["view"];
    let hand: &str = view["hand"].as_str().unwrap();
    let stage = view["stage"].as_str().unwrap();
    let worst = hand.split_whitespace().rfind(|c| *c != "J").unwrap_or("J");
    match stage {
        "revolution" => Action::DeclineRevolution,
        "taxes" => {
            let n = view["my_tax"].is_null();
            assert!(n);
            let cards: Vec<&str> = hand.split_whitespace().filter(|c| *c != "J").collect();
            let k = if view["seats"][0]["title"]
                == view["seats"][view["seat"].as_u64().unwrap() as usize]["title"]
            {
                2
            } else {
                1
            };
            Action::GiveTax(cards[cards.len() - k..].join(" ").parse().unwrap())
        }
        _ if !view["top"].is_null() => Action::Pass,
        _ => Action::Play(worst.parse().unwrap()),
    }
}

#[tokio::test]
async fn actor_plays_a_hand_and_refuses_stale_illegal_and_wrong_token() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let table = table::create(store, row(4, json!({"hands": 1}))).unwrap();
    let token = table.join("Human").await.unwrap();
    for _ in 0..3 {
        table.add_bot("heuristic").await.unwrap();
    }
    table
        .start_with_seed(dalmuti_core::Seed::from(TEST_SEED))
        .await
        .unwrap();
    let (_, snap) = table.subscribe(Some(&token)).await.unwrap();
    // Wrong token, stale event number: refused with a resync.
    let (e, resync) = table
        .act("0".repeat(32).as_str(), Action::Pass, snap.v)
        .await
        .unwrap_err();
    assert_eq!(e, dalmuti_server::ServerError::BadToken);
    assert!(
        resync.d["view"]["hand"].is_null(),
        "a stranger gets a spectator's resync"
    );
    let (e, resync) = table
        .act(&token, Action::Pass, snap.v + 5)
        .await
        .unwrap_err();
    assert!(
        matches!(e, dalmuti_server::ServerError::Stale { .. }),
        "{e}"
    );
    assert_eq!(resync.t, "resync");
    assert_eq!(resync.v, snap.v);
    // Illegal: a tax gift in the first hand, which has no taxes.
    let (e, _) = table
        .act(&token, Action::GiveTax("1".parse().unwrap()), snap.v)
        .await
        .unwrap_err();
    assert!(matches!(e, dalmuti_server::ServerError::Illegal(_)), "{e}");
    let acted = play_human(&table, &token, |_| false).await;
    assert!(acted > 0);
    let (_, end) = table.subscribe(Some(&token)).await.unwrap();
    assert_eq!(end.d["game_over"], true);
    assert_eq!(end.d["view"]["stage"], "over");
}

/// Checks that a message shows no card its viewer may not see.
fn check_hidden(msg: &ServerMsg, spectator: bool) {
    let view = &msg.d["view"];
    if view.is_null() {
        return;
    }
    let me = view["seat"].as_u64().map(|s| s as usize);
    assert_eq!(me.is_none(), spectator, "{view}");
    match me {
        None => assert!(view["hand"].is_null(), "a spectator sees no hand"),
        Some(me) => {
            let held = view["hand"].as_str().unwrap().split_whitespace().count() as u64;
            assert_eq!(
                held,
                view["seats"][me]["cards"].as_u64().unwrap(),
                "its own hand only"
            );
        }
    }
    for entry in view["log"].as_array().unwrap() {
        let party = |a: &str, b: &str| {
            me.is_some_and(|m| {
                entry[a].as_u64() == Some(m as u64) || entry[b].as_u64() == Some(m as u64)
            })
        };
        match entry["event"].as_str().unwrap() {
            "tax_paid" => assert_eq!(
                !entry["gift"].is_null(),
                party("dalmuti", "peon"),
                "{entry}"
            ),
            "merchant_exchange" => {
                assert_eq!(
                    !entry["offered"].is_null(),
                    party("offerer", "partner"),
                    "{entry}"
                )
            }
            _ => {}
        }
    }
    let text = msg.to_text();
    for key in ["\"seed\"", "\"deal\"", "token"] {
        assert!(!text.contains(key), "{key} leaked: {text}");
    }
}

#[tokio::test]
async fn no_message_shows_a_hidden_card() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    // Three hands: the later ones have taxes and the merchant exchange
    // between bots, whose cards the human and the spectator must not see.
    let rules = json!({"hands": 3, "merchant_exchange": true});
    let table = table::create(store, row(6, rules)).unwrap();
    let token = table.join("Human").await.unwrap();
    let (mut mine, _) = table.subscribe(Some(&token)).await.unwrap();
    let (mut watching, _) = table.subscribe(None).await.unwrap();
    for _ in 0..5 {
        table.add_bot("heuristic").await.unwrap();
    }
    table
        .start_with_seed(dalmuti_core::Seed::from(TEST_SEED))
        .await
        .unwrap();
    // The human plays until its first tax decision (the test's simple
    // chooser does not give taxes); the bots play the rest.
    let mut seen = Vec::new();
    let mut watched = Vec::new();
    play_human(&table, &token, |d| d["view"]["stage"] == "taxes").await;
    drain(&mut mine, &mut seen);
    drain(&mut watching, &mut watched);
    assert!(
        !seen.is_empty() && !watched.is_empty(),
        "{} {}",
        seen.len(),
        watched.len()
    );
    for msg in &seen {
        check_hidden(msg, false);
    }
    for msg in &watched {
        check_hidden(msg, true);
    }
}

#[tokio::test]
async fn a_table_survives_a_restart() {
    let dir = std::env::temp_dir().join(format!(
        "dalmuti-server-{}",
        dalmuti_server::store::new_id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dalmuti.db");
    let (id, token, before) = {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&path).unwrap());
        let state = AppState::open(store.clone()).unwrap();
        let app = router(state.clone());
        let (_, created) = call(&app, "POST", "/api/tables", r#"{"name":"Kept","seats":4}"#).await;
        let id = created["id"].as_str().unwrap().to_string();
        let (_, seat) = call(
            &app,
            "POST",
            &format!("/api/tables/{id}/seats"),
            r#"{"name":"Ada"}"#,
        )
        .await;
        let token = seat["token"].as_str().unwrap().to_string();
        for _ in 0..3 {
            call(
                &app,
                "POST",
                &format!("/api/tables/{id}/bots"),
                r#"{"bot":"random"}"#,
            )
            .await;
        }
        call(&app, "POST", &format!("/api/tables/{id}/start"), "").await;
        let table = state.table(&id).unwrap();
        let acted = play_human(&table, &token, |d| {
            d["view"]["log"].as_array().is_some_and(|l| l.len() > 6)
        })
        .await;
        let _ = acted;
        let (_, snap) = table.subscribe(Some(&token)).await.unwrap();
        assert!(snap.v > 3, "some events were played");
        (id, token, snap)
    };
    // Everything dropped; reopen the file and rebuild from the log.
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&path).unwrap());
    let state = AppState::open(store).unwrap();
    let table = state.table(&id).unwrap();
    let (_, after) = table.subscribe(Some(&token)).await.unwrap();
    assert_eq!(
        after, before,
        "the seat's view is identical after the restart"
    );
    assert!(
        table.subscribe(Some("f00d")).await.is_err(),
        "a wrong token is refused"
    );
    // And play goes on.
    table
        .act(
            &token,
            choose(&mut dalmuti_bots::HeuristicBot::new(1), &after.d),
            after.v,
        )
        .await
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
