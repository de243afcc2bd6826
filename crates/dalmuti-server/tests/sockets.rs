//! The server over real sockets, as clients see it (docs/PROTOCOL.md):
//! whole games, hidden information, reconnecting, the grace period, bad
//! input over the WebSocket and over HTTP.

mod common;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use common::{
    Mode, Player, Reading, Server, WAIT, Ws, asks_to_play, choose_for, error_body, has_state,
    hello, msg_from, msg_of,
};
use dalmuti_core::record::{Checked, Record, check};
use dalmuti_core::wire::Wire;
use dalmuti_core::{Action, Decision, LogEntry, Variant};
use dalmuti_server::fairness::Fairness;
use dalmuti_server::protocol::{
    Described, ErrorKind, LobbyEntry, MsgType, Replay, Seen, ServerMsg, State, StateMsg,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Whole games.

/// A game played to its end by scripted humans and bots, with everything
/// every client received.
#[derive(Clone)]
struct Game {
    id: String,
    tokens: Vec<String>,
    /// Every human seat's name and the messages it received (as JSON, for
    /// the hidden-information checks; [`msg_from`] reads one as its type).
    seats: Vec<(String, Vec<Value>)>,
    /// What a spectator received.
    spectator: Vec<Value>,
    /// The public answers as served, for the hidden-information checks;
    /// read as types with [`Record::parse`] and [`typed`].
    record: Value,
    replay: Value,
    fairness: Value,
}

const NAMES: [&str; 6] = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"];

/// Creates a table of `seats` with `humans` scripted humans and `bots`,
/// plays `hands` hands to the game's end, checks the record with
/// `dalmuti_core::record::check` and returns what everyone saw.
async fn play_game(
    server: &Server,
    seats: usize,
    humans: usize,
    bots: &[&str],
    hands: usize,
    rules: Value,
) -> Game {
    assert_eq!(humans + bots.len(), seats);
    let (id, host) = server
        .create_table(json!({
            "name": "whole game",
            "player": NAMES[0],
            "seats": seats,
            "hands": hands,
            "rules": rules,
        }))
        .await;
    let mut tokens = vec![host.clone()];
    for name in &NAMES[1..humans] {
        tokens.push(server.take_seat(&id, name).await);
    }
    for bot in bots {
        server.add_bot(&id, &host, bot).await;
    }
    let spectator = Player::join(server, &id, "spectator", None, 0, Mode::Watch).await;
    let mut players = Vec::new();
    for (name, token) in NAMES.iter().zip(&tokens) {
        players.push(Player::join(server, &id, name, Some(token), 0, Mode::All).await);
    }
    server.start_game(&id, &host).await;
    let mut logs = Vec::new();
    for p in players {
        let name = p.name.clone();
        logs.push((name, p.finish().await));
    }
    let spectator = spectator.finish().await;
    let info = server.table_info(&id).await;
    assert!(info.over, "{info:?}");

    let get = |what: &str| {
        let path = format!("/api/tables/{id}/{what}");
        async move {
            let (status, body) = server.http("GET", &path, None, None).await;
            assert_eq!(status, 200, "GET {path}: {body}");
            body
        }
    };
    let record = get("record").await;
    let replay = get("replay").await;
    let fairness = get("fairness").await;
    match check(&record.to_string()) {
        Checked::Valid(report) => {
            assert_eq!(report.hands.len(), hands, "{record}");
            assert!(report.hands.iter().all(|h| h.finished), "{record}");
        }
        other => panic!("the server's record does not check: {other:?}\n{record}"),
    }
    Game {
        id,
        tokens,
        seats: logs,
        spectator,
        record,
        replay,
        fairness,
    }
}

/// A public answer (replay, fairness) read as the server's type: a field
/// renamed or retyped fails here.
fn typed<T: serde::de::DeserializeOwned>(answer: &Value) -> T {
    serde_json::from_value(answer.clone())
        .unwrap_or_else(|e| panic!("an answer that does not read as the server's: {e}: {answer}"))
}

/// The last message of `log` that carries STATE, read as the wire's type.
fn last_state(log: &[Value]) -> Option<ServerMsg> {
    log.iter().rev().find(|m| has_state(m)).map(msg_from)
}

/// At the table cap, a new table makes room by evicting the oldest
/// unstarted table nobody has been at for the lobby's idle time; a table
/// someone is at stays (issue 24, S5: tables created and left blocked all
/// new tables for half an hour).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_cap_a_new_table_replaces_one_nobody_is_at() {
    let server = Server::start(|c| {
        c.max_tables = 2;
        c.listed_idle = Duration::from_millis(200);
    })
    .await;
    let (kept, ada) = server
        .create_table(json!({"name": "kept", "player": "Ada", "seats": 3}))
        .await;
    let (_ws, _) = server.hello(&kept, Some(&ada), 0).await;
    let (left, _) = server
        .create_table(json!({"name": "left", "player": "Bo", "seats": 3}))
        .await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (new, cy) = server
        .create_table(json!({"name": "new", "player": "Cy", "seats": 3}))
        .await;
    // Cy is at hers: however slow the machine, it is in use (unattended
    // for 200 ms, it would make room itself).
    let (_cy, _) = server.hello(&new, Some(&cy), 0).await;
    let status = |id: &str| {
        let path = format!("/api/tables/{id}");
        let server = &server;
        async move { server.http("GET", &path, None, None).await.0 }
    };
    assert_eq!(status(&left).await, 404, "the table nobody was at left");
    assert_eq!(status(&kept).await, 200, "Ada is at hers");
    assert_eq!(status(&new).await, 200);
    // Full of tables in use: a 503.
    let (code, body) = server
        .http(
            "POST",
            "/api/tables",
            None,
            Some(json!({"player": "Di", "seats": 3})),
        )
        .await;
    assert_eq!(code, 503, "{body}");
    assert!(error_body(&body).error.contains("at most 2 tables"));
    server.stop().await;
}

/// The answers about finished games the server gave, by source
/// (`dalmuti_archive_answers_total{source}`: `built` or `kept`).
async fn archive_answers(server: &Server, source: &str) -> u64 {
    let (_, metrics) = server.http("GET", "/metrics", None, None).await;
    let metrics = metrics.as_str().unwrap_or_default().to_string();
    let series = format!("dalmuti_archive_answers_total{{source=\"{source}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&series)?.parse().ok())
        .unwrap_or_else(|| panic!("no {series} in\n{metrics}"))
}

/// A crowd asking for a finished game's replay, record and fairness
/// costs one build of each (kept, served from memory), and a table being
/// played meanwhile goes on to its end (issue 24, S1: 24 request loops on
/// a long replay froze every table).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_asking_for_a_replay_costs_one_build_and_stops_no_table() {
    let server = Server::start(|_| {}).await;
    // Built once here, for the checks of play_game.
    let game = play_game(&server, 3, 1, &["greedy", "greedy"], 6, json!({})).await;
    // record, replay and fairness: built once each.
    assert_eq!(archive_answers(&server, "built").await, 3);
    let (control, bo) = server
        .create_table(json!({"name": "control", "player": "Bo", "seats": 3, "hands": 2}))
        .await;
    server.add_bot(&control, &bo, "greedy").await;
    server.add_bot(&control, &bo, "greedy").await;
    let bo_p = Player::join(&server, &control, "Bo", Some(&bo), 0, Mode::All).await;
    server.start_game(&control, &bo).await;
    let crowd = futures_util::future::join_all((0..24).map(|i| {
        let what = ["replay", "record", "fairness"][i % 3];
        let path = format!("/api/tables/{}/{what}", game.id);
        let server = &server;
        async move {
            for _ in 0..5 {
                let (status, body) = server.http("GET", &path, None, None).await;
                assert_eq!(status, 200, "GET {path}: {body}");
            }
        }
    }));
    let (_, played) = tokio::join!(crowd, bo_p.finish());
    assert!(!played.is_empty());
    assert!(server.table_info(&control).await.over);
    assert_eq!(
        archive_answers(&server, "built").await,
        3,
        "the crowd was served what was built: nothing built again"
    );
    assert_eq!(archive_answers(&server, "kept").await, 24 * 5);
    // The same answers as built the first time.
    let (_, replay) = server
        .http(
            "GET",
            &format!("/api/tables/{}/replay", game.id),
            None,
            None,
        )
        .await;
    assert_eq!(replay, game.replay);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_over_websockets_end_and_their_records_check() {
    let server = Server::start(|_| {}).await;
    for (seats, humans, bots, hands, rules) in [
        (
            5,
            3,
            vec!["greedy", "heuristic"],
            3,
            json!({"scoring": "standard"}),
        ),
        (
            7,
            2,
            vec!["random", "greedy", "greedy", "heuristic", "random"],
            2,
            json!({"merchant_exchange": true, "first_deal_revolution": true}),
        ),
        (3, 3, vec![], 2, json!({"scoring": "philanthropic"})),
    ] {
        let game = play_game(&server, seats, humans, &bots, hands, rules).await;
        // Every human saw the game end, at the same event number, with the
        // same totals as the record's; the seats of the game are the
        // record's players.
        let report = match check(&game.record.to_string()) {
            Checked::Valid(report) => report,
            other => panic!("{other:?}"),
        };
        let last: Vec<ServerMsg> = (game.seats.iter())
            .map(|(name, log)| last_state(log).unwrap_or_else(|| panic!("{name} got no STATE")))
            .collect();
        for (m, (name, _)) in last.iter().zip(&game.seats) {
            let state = &m.expect_state().state;
            assert!(state.game_over, "{name}: {m:?}");
            assert_eq!(m.v, last[0].v, "{name}");
            assert_eq!(state.hand, hands, "{name}");
            assert_eq!(state.you.as_ref().map(|n| n.as_str()), Some(name.as_str()));
        }
        let record = Record::parse(&game.record.to_string()).expect("the record reads");
        let seating = &record.seating;
        assert_eq!(seating.len(), seats);
        for (name, _) in &game.seats {
            assert!(seating.contains(name), "{name} not in {seating:?}");
        }
        if let Some(totals) = report.totals {
            for entry in &last[0].expect_state().state.totals {
                let name = entry.name.as_str();
                let (_, total) = totals.iter().find(|(n, _)| n == name).unwrap();
                assert_eq!(u64::from(entry.total), u64::from(*total), "{name}'s total");
            }
        }
        assert!(!typed::<Replay>(&game.replay).frames.is_empty());
        assert!(typed::<Fairness>(&game.fairness).hands.len() >= hands);
    }
    server.stop().await;
}

// ---------------------------------------------------------------------------
// Hidden information.
//
// These checks read the messages and answers as raw JSON on purpose: they
// look at every string a client received, wherever it is, typed field or
// not (a card or a seed must not hide in a field no type has), and
// `assert_leaks_are_caught` proves them by putting such fields in. Read
// as the wire's types, an added field would be dropped unseen.

/// A group of cards: record tokens (0 to 12, J, and Corporate Shuffle's T,
/// R and D) separated by single spaces, with `as V` after Dogberts alone.
fn is_cards(s: &str) -> bool {
    let cards = s.split(" as ").next().unwrap_or("");
    !cards.is_empty()
        && cards.split(' ').all(|t| {
            matches!(t, "J" | "T" | "R" | "D")
                || t.parse::<u8>().is_ok_and(|n| n <= 12 && t == n.to_string())
        })
}

/// A card's place in a canonical order: by value, the wild cards last.
fn card_order(t: &str) -> (u8, u8) {
    match t {
        "T" => (6, 1),
        "R" => (11, 1),
        "J" | "D" => (13, 0),
        n => (n.parse().unwrap_or(14), 0),
    }
}

/// The cards in a canonical order (by value, wild cards last).
fn canon(s: &str) -> String {
    let mut t: Vec<&str> = s.split_whitespace().collect();
    t.sort_by_key(|c| card_order(c));
    t.join(" ")
}

/// Cards of one value and wild cards, or wild cards alone (the Wedgie is a
/// 6; the World Ruler and Ratbert alone): a set anyone may see played.
fn is_set(s: &str) -> bool {
    let cards: Vec<&str> = s.split(" as ").next().unwrap_or("").split(' ').collect();
    let values: HashSet<u8> = cards
        .iter()
        .filter(|t| !matches!(**t, "J" | "D"))
        .map(|t| card_order(t).0)
        .collect();
    let alone_only = cards.iter().any(|t| matches!(*t, "0" | "R"));
    values.len() <= 1 && (!alone_only || cards.len() == 1)
}

/// Every string in `value` with its path (keys and indexes, dotted).
fn strings(value: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(s) => out.push((path.to_string(), s.clone())),
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                strings(v, &format!("{path}.{i}"), out);
            }
        }
        Value::Object(o) => {
            for (k, v) in o {
                strings(v, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// Fields that may hold cards other than a played set: a seat's own hand
/// and the cards of a tax or merchant exchange (to those who took part).
const PRIVATE_CARD_FIELDS: [&str; 11] = [
    "hand",
    "dealt",
    "gave",
    "received",
    "gift",
    "tribute",
    "offered",
    "returned",
    "give_tax",
    "answer_exchange",
    "card",
];

/// Who receives a message: a seat by name, or a spectator.
fn assert_message_hides(
    viewer: Option<&str>,
    m: &Value,
    own_hands: &HashSet<String>,
    tokens: &[String],
    hidden_seeds: &[&str],
) {
    let who = viewer.unwrap_or("the spectator");
    let text = m.to_string();
    for token in tokens {
        assert!(!text.contains(token.as_str()), "{who} got a token: {text}");
    }
    for seed in hidden_seeds {
        assert!(
            !text.contains(seed),
            "{who} got an unrevealed seed {seed}: {text}"
        );
    }
    let d = &m["d"];
    // Every group of cards is a set anyone may see, or sits in a field for
    // the viewer's own cards (checked below).
    let mut all = Vec::new();
    strings(m, "", &mut all);
    for (path, s) in &all {
        if !is_cards(s) || is_set(s) {
            continue;
        }
        let key = path.rsplit('.').next().unwrap_or("");
        assert!(
            viewer.is_some() && PRIVATE_CARD_FIELDS.contains(&key),
            "{who} got cards that are not a played set at {path}: {s:?} in {text}"
        );
        if key == "hand" || key == "dealt" {
            assert!(
                own_hands.contains(&canon(s)),
                "{who} got a hand that was never theirs at {path}: {s:?} in {text}"
            );
        }
    }
    if !has_state(m) {
        return;
    }
    let view = &d["view"];
    let players: Vec<&str> = d["players"]
        .as_array()
        .map(|p| p.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let seat_of = |name: &str| players.iter().position(|p| *p == name);
    let me = viewer.and_then(seat_of);
    // The viewer's own hand is one it really held.
    match (viewer, view["hand"].as_str()) {
        (None, hand) => assert!(
            hand.is_none_or(str::is_empty),
            "the spectator got a hand: {text}"
        ),
        (Some(_), Some(hand))
            if !hand.is_empty() && !players.is_empty() && view["stage"] != json!("over") =>
        {
            assert!(
                own_hands.contains(&canon(hand)),
                "{who}'s hand {hand:?} is not one they held: {text}"
            )
        }
        _ => {}
    }
    // The viewer's hand has as many cards as everyone is told it holds.
    if let (Some(me), Some(hand)) = (me, view["hand"].as_str()) {
        let held = hand.split_whitespace().count() as u64;
        assert_eq!(
            Some(held),
            view["seats"][me]["cards"].as_u64(),
            "{who}'s hand {hand:?} and its card count: {text}"
        );
    }
    if viewer.is_none() {
        assert!(
            view["my_tax"].is_null() && view["my_trade"].is_null(),
            "{text}"
        );
    }
    for seat in view["seats"].as_array().into_iter().flatten() {
        for (k, v) in seat.as_object().unwrap() {
            assert!(
                ["title", "title_key", "next_title_key", "cards", "out"].contains(&k.as_str()),
                "{who}: a seat has {k}: {text}"
            );
            if k == "cards" {
                assert!(v.is_u64(), "{who}: a seat's cards are a count: {text}");
            }
        }
    }
    let took_part =
        |seats: &[&Value]| me.is_some_and(|me| seats.iter().any(|s| s.as_u64() == Some(me as u64)));
    for entry in view["log"].as_array().into_iter().flatten() {
        // The cards of a tax or merchant exchange, and the pair in it.
        let (cards, pair) = match entry["event"].as_str() {
            Some("tax_paid") => (["gift", "tribute"], ["dalmuti", "peon"]),
            Some("merchant_exchange") => (["offered", "returned"], ["offerer", "partner"]),
            _ => continue,
        };
        if cards.iter().any(|c| !entry[c].is_null()) {
            assert!(
                took_part(&[&entry[pair[0]], &entry[pair[1]]]),
                "{who} sees the cards of another pair's exchange: {entry} in {text}"
            );
        }
    }
    let e = &d["e"];
    if e["kind"] == json!("act") {
        let actor = e["name"].as_str().unwrap_or("");
        let action = &e["action"];
        let mine = viewer == Some(actor);
        if let Some(gift) = action.get("give_tax").filter(|g| !g.is_null()) {
            let receiver = seat_of(actor).map(|s| players[players.len() - 1 - s]);
            assert!(
                mine || (viewer.is_some() && receiver == viewer),
                "{who} sees {actor}'s tax gift {gift}: {text}"
            );
        }
        if let Some(offer) = action.get("offer_exchange") {
            if !offer["card"].is_null() {
                let partner = offer["partner"]
                    .as_u64()
                    .and_then(|p| players.get(p as usize).copied());
                assert!(
                    mine || (viewer.is_some() && partner == viewer),
                    "{who} sees {actor}'s exchange offer: {text}"
                );
            }
        }
        if let Some(answer) = action.get("answer_exchange").filter(|a| !a.is_null()) {
            let with = view["my_trade"]["with"]
                .as_u64()
                .and_then(|s| players.get(s as usize).copied());
            assert!(
                mine || with == Some(actor),
                "{who} sees {actor}'s exchange answer {answer}: {text}"
            );
        }
    }
}

/// Checks everything every client of `game` received.
fn assert_game_hides(game: &Game) {
    // Truth: every hand each player held at every step of the replay.
    let mut held: HashMap<String, HashSet<String>> = HashMap::new();
    let frames = game.replay["frames"].as_array().expect("replay frames");
    for frame in frames {
        let players = frame["players"].as_array().unwrap();
        let hands = frame["hands"].as_array().unwrap();
        assert_eq!(players.len(), hands.len(), "{frame}");
        for (p, h) in players.iter().zip(hands) {
            held.entry(p.as_str().unwrap().to_string())
                .or_default()
                .insert(canon(h.as_str().unwrap()));
        }
    }
    // The record's deals too (the hand dealt is a hand held).
    for hand in game.record["hands"].as_array().unwrap() {
        for (name, cards) in hand["deal"].as_object().unwrap() {
            held.entry(name.clone())
                .or_default()
                .insert(canon(cards.as_str().unwrap()));
        }
    }
    let seeds: Vec<(u64, String)> = game.fairness["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["hand"].as_u64().unwrap(),
                h["seed"]
                    .as_str()
                    .expect("seeds revealed after the game")
                    .to_string(),
            )
        })
        .collect();
    let empty = HashSet::new();
    let mut viewers: Vec<(Option<&str>, &Vec<Value>)> = game
        .seats
        .iter()
        .map(|(n, l)| (Some(n.as_str()), l))
        .collect();
    viewers.push((None, &game.spectator));
    for (viewer, log) in viewers {
        let own = viewer.and_then(|n| held.get(n)).unwrap_or(&empty);
        let (mut hand, mut over) = (0, false);
        let mut deals_seen = 0;
        for m in log {
            if has_state(m) {
                hand = m["d"]["hand"].as_u64().unwrap_or(0);
                over =
                    m["d"]["view"]["stage"] == json!("over") || m["d"]["game_over"] == json!(true);
            }
            let hidden: Vec<&str> = seeds
                .iter()
                .filter(|(k, _)| *k > hand || (*k == hand && !over))
                .map(|(_, s)| s.as_str())
                .collect();
            assert_message_hides(viewer, m, own, &game.tokens, &hidden);
            // At each deal a seat sees exactly the cards the record says it
            // was dealt.
            if m["d"]["e"]["kind"] == json!("deal")
                && let Some(name) = viewer
            {
                deals_seen += 1;
                let k = m["d"]["e"]["hand"].as_u64().unwrap() as usize;
                let dealt = &game.record["hands"][k - 1]["deal"][name];
                if let Some(dealt) = dealt.as_str() {
                    assert_eq!(
                        canon(m["d"]["view"]["hand"].as_str().unwrap()),
                        canon(dealt),
                        "{name}'s hand at deal {k}"
                    );
                }
            }
        }
        if viewer.is_some() {
            assert!(deals_seen > 0, "{viewer:?} saw no deal");
        }
    }
    // The public answers carry no token either.
    for public in [&game.record, &game.replay, &game.fairness] {
        let text = public.to_string();
        for token in &game.tokens {
            assert!(!text.contains(token.as_str()), "a token in {}", game.id);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_shows_cards_a_client_may_not_see() {
    let server = Server::start(|_| {}).await;
    for (seats, humans, bots, hands, rules) in [
        (5, 3, vec!["greedy", "heuristic"], 3, json!({})),
        (
            6,
            4,
            vec!["heuristic", "greedy"],
            2,
            json!({"merchant_exchange": true, "first_deal_revolution": true}),
        ),
        (
            4,
            2,
            vec!["random", "greedy"],
            2,
            json!({"stripped_deck": true}),
        ),
    ] {
        let game = play_game(&server, seats, humans, &bots, hands, rules).await;
        assert_game_hides(&game);
        if seats == 5 {
            assert_leaks_are_caught(&game);
        }
    }
    server.stop().await;
}

/// The Corporate Shuffle plays seen in a game's messages: Wedgie plays
/// (with their targets), Ratbert taken back, Dogberts played alone.
fn specials_seen(game: &Game) -> (usize, usize, usize) {
    // The spectator's log: everything public, the same for everyone.
    let mut seen = HashSet::new();
    for m in game.spectator.iter().map(msg_from) {
        let Some(state) = m.state() else { continue };
        let hand = state.state.hand;
        let log = state.state.view.iter().flat_map(|v| &v.log);
        for (i, entry) in log.enumerate() {
            let kind = match entry {
                LogEntry::Played {
                    wedgie: Some(_), ..
                } => "wedgie",
                LogEntry::Played { set, .. } if set.contains(" as ") => "dogberts",
                LogEntry::RatbertTaken { .. } => "ratbert",
                _ => continue,
            };
            seen.insert((hand, i, kind));
        }
    }
    let count = |kind: &str| seen.iter().filter(|s| s.2 == kind).count();
    (count("wedgie"), count("ratbert"), count("dogberts"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corporate_shuffle_games_end_check_and_show_no_card_a_client_may_not_see() {
    let server = Server::start(|_| {}).await;
    let cs = |extra: Value| {
        let mut rules = json!({"variant": "corporate-shuffle"});
        rules
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        rules
    };
    let mut specials = (0, 0, 0);
    // The acts the scripted humans sent, as accepted: a Wedgie naming its
    // target, Dogberts alone with their value.
    let (mut wedgie_acts, mut declared_acts) = (0, 0);
    for (seats, humans, bots, hands, rules) in [
        (
            4,
            2,
            vec!["heuristic", "greedy"],
            3,
            cs(json!({"scoring": "standard"})),
        ),
        (3, 3, vec![], 2, cs(json!({"first_deal_revolution": true}))),
        (
            6,
            3,
            vec!["random", "heuristic", "greedy"],
            2,
            cs(json!({"merchant_exchange": true})),
        ),
    ] {
        let game = play_game(&server, seats, humans, &bots, hands, rules).await;
        let record = Record::parse(&game.record.to_string()).expect("the record reads");
        assert_eq!(record.rules.variant, Variant::CorporateShuffle);
        for (name, log) in &game.seats {
            let last = last_state(log).unwrap();
            let state = &last.expect_state().state;
            assert_eq!(state.rules.variant, Variant::CorporateShuffle, "{name}");
            let view = state.view.as_ref().unwrap();
            assert_eq!(view.variant, Variant::CorporateShuffle, "{name}");
        }
        assert_eq!(
            server.table_info(&game.id).await.variant,
            Variant::CorporateShuffle
        );
        // Sixty cards, dealt in each hand.
        let replay = typed::<Replay>(&game.replay);
        let held: usize = (replay.frames[0].hands.iter())
            .map(|h| h.split_whitespace().count())
            .sum();
        assert_eq!(held, 60);
        assert_game_hides(&game);
        let humans: HashSet<&str> = game.seats.iter().map(|(n, _)| n.as_str()).collect();
        let mut acts = HashSet::new();
        for m in game.spectator.iter().map(msg_from) {
            let e = m.state().and_then(|s| s.e.as_ref());
            if let Some(Described::Act {
                name,
                action: Seen::Shown(Wire(action)),
                ..
            }) = e
                && humans.contains(name.as_str())
            {
                acts.insert((m.v, *action));
            }
        }
        for (_, action) in &acts {
            let Action::Play(set) = action else { continue };
            if set.wedgie_target().is_some() {
                wedgie_acts += 1;
            }
            // The wire's `play` is the set as the record writes it.
            if set.to_string().contains(" as ") {
                declared_acts += 1;
            }
        }
        let (w, r, d) = specials_seen(&game);
        specials = (specials.0 + w, specials.1 + r, specials.2 + d);
    }
    assert!(
        wedgie_acts > 0 && declared_acts > 0,
        "the humans sent {wedgie_acts} Wedgie plays and {declared_acts} lone Dogberts"
    );
    // Which specials these random deals happened to bring (the seeded
    // game of tests/server.rs makes sure of a Wedgie and a Ratbert take).
    eprintln!(
        "Wedgie plays {}, Ratbert taken back {}, Dogberts alone {}",
        specials.0, specials.1, specials.2
    );
    server.stop().await;
}

/// The checks of [`assert_game_hides`] can fail: copies of a real game,
/// each with one leak put in, are refused.
fn assert_leaks_are_caught(game: &Game) {
    let caught = |what: &str, leak: &dyn Fn(&mut Game)| {
        let mut g = game.clone();
        leak(&mut g);
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| assert_game_hides(&g)));
        assert!(result.is_err(), "a leak was not caught: {what}");
    };
    let first_state = |log: &mut Vec<Value>| -> usize {
        log.iter()
            .position(|m| has_state(m) && m["d"]["view"]["stage"] == json!("play"))
            .unwrap()
    };
    let other = game.seats[1].0.clone();
    let other_deal = game.record["hands"][0]["deal"][&other]
        .as_str()
        .unwrap()
        .to_string();
    caught("another seat's hand", &|g| {
        let log = &mut g.seats[0].1;
        let i = first_state(log);
        log[i]["d"]["view"]["seats"][0]["hand"] = json!(other_deal);
    });
    caught("another seat's hand as one's own", &|g| {
        let log = &mut g.seats[0].1;
        let i = first_state(log);
        log[i]["d"]["view"]["hand"] = json!(other_deal);
    });
    caught("a hand to the spectator", &|g| {
        let i = first_state(&mut g.spectator);
        g.spectator[i]["d"]["view"]["hand"] = json!("12");
    });
    caught("another pair's tax cards", &|g| {
        let log = &mut g.seats[0].1;
        let (i, j) = log
            .iter()
            .enumerate()
            .find_map(|(i, m)| {
                let log = m["d"]["view"]["log"].as_array()?;
                let j = log
                    .iter()
                    .position(|e| e["event"] == json!("tax_paid") && e["gift"].is_null())?;
                Some((i, j))
            })
            .unwrap();
        log[i]["d"]["view"]["log"][j]["gift"] = json!("12");
    });
    caught("a token", &|g| {
        let token = g.tokens[1].clone();
        g.seats[0]
            .1
            .push(json!({"t": "chat", "v": 1, "d": {"from": "Bo", "text": token}}));
    });
    caught("a seed before its hand is over", &|g| {
        let seed = g.fairness["hands"][1]["seed"].clone();
        let log = &mut g.seats[0].1;
        let i = first_state(log);
        log[i]["d"]["note"] = seed;
    });
}

// ---------------------------------------------------------------------------
// Reconnecting.

/// Fields of STATE that depend on the moment or the connections, not the
/// game (and the kept chat and news, which only the answer to `hello`
/// carries).
/// STATE without them (the `missed`, `e`, `error`, `error_kind`, `chat`
/// and `news` that come with it are [`StateMsg`]'s, not [`State`]'s).
fn game_part(msg: &StateMsg) -> State {
    State {
        lobby: Vec::new(),
        deadline_ms: None,
        next_deal_ms: None,
        ..msg.state.clone()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reconnects_gets_exactly_what_it_missed() {
    // A long grace period: nobody plays for a seat that dropped.
    let server = Server::start(|c| c.grace = Duration::from_secs(600)).await;
    let (id, ada) = server
        .create_table(json!({"name": "reconnect", "player": "Ada", "seats": 4}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    server.add_bot(&id, &ada, "greedy").await;
    server.add_bot(&id, &ada, "greedy").await;
    // Ada plays on one connection and watches on another, which drops.
    let mut ada_plays = Player::join(&server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    let mut ada_drops = Player::join(&server, &id, "Ada", Some(&ada), 0, Mode::Watch).await;
    // Bo answers everything but plays: the table waits at each of Bo's
    // plays, for the test to make.
    let mut bo_waits = Player::join(&server, &id, "Bo", Some(&bo), 0, Mode::NoPlay).await;
    server.start_game(&id, &ada).await;

    // Mid-hand: the table waits for Bo's first play.
    let first = bo_waits.wait_for_msg("Bo's first play", asks_to_play).await;
    let x = first.v;
    ada_drops
        .wait_for_msg("the event Bo waits at", |m| m.v == x)
        .await;
    let dropped_log = ada_drops.drop_connection();
    assert_eq!(msg_from(dropped_log.last().unwrap()).v, x);

    // Bo plays (from another connection of the same seat); the game goes
    // on to Bo's next play.
    let (mut bo2, snapshot) = server.hello_msg(&id, Some(&bo), x).await;
    assert_eq!(snapshot.v, x);
    let action = choose_for(snapshot.expect_state()).unwrap();
    bo2.send_json(&json!({"t": "act", "v": x, "d": action}))
        .await;
    let next = bo_waits
        .wait_for_msg("Bo's next play", |m| asks_to_play(m) && m.v > x)
        .await;
    let y = next.v;
    assert!(y > x + 1, "others acted between Bo's two plays");
    let live: Vec<ServerMsg> = {
        let mut events = Vec::new();
        while events.last().is_none_or(|m: &ServerMsg| m.v < y) {
            let m = ada_plays
                .wait_for_msg("Ada's events", |m| m.t() == MsgType::Event)
                .await;
            if m.v > x {
                events.push(m);
            }
        }
        events
    };
    let last_live = live.last().unwrap().expect_state();

    // Back with the last event seen: a catchup with exactly the missed
    // events, and the same state as a client that never left.
    let (ws, catchup) = server.hello_msg(&id, Some(&ada), x).await;
    assert_eq!(catchup.t(), MsgType::Catchup, "{catchup:?}");
    assert_eq!(catchup.v, y);
    let missed = catchup.expect_state().missed.as_deref().expect("missed");
    let numbers: Vec<u64> = missed.iter().map(|m| m.v).collect();
    assert_eq!(numbers, (x + 1..=y).collect::<Vec<_>>());
    for (m, event) in missed.iter().zip(&live) {
        assert_eq!(m.v, event.v);
        assert_eq!(Some(&m.e), event.expect_state().e.as_ref(), "event {}", m.v);
    }
    assert_eq!(game_part(catchup.expect_state()), game_part(last_live));
    ws.close().await;

    // Back with nothing seen: a snapshot of the same state.
    let (ws, snapshot) = server.hello_msg(&id, Some(&ada), 0).await;
    assert_eq!(snapshot.t(), MsgType::Snapshot, "{snapshot:?}");
    assert_eq!(snapshot.v, y);
    assert!(snapshot.expect_state().missed.is_none());
    assert_eq!(game_part(snapshot.expect_state()), game_part(last_live));
    ws.close().await;

    // Up to date: a catchup with nothing missed.
    let (ws, catchup) = server.hello_msg(&id, Some(&ada), y).await;
    assert_eq!(catchup.t(), MsgType::Catchup, "{catchup:?}");
    assert_eq!(catchup.expect_state().missed, Some(Vec::new()));
    ws.close().await;

    // The game goes on.
    let action = choose_for(next.expect_state()).unwrap();
    bo2.send_json(&json!({"t": "act", "v": y, "d": action}))
        .await;
    ada_plays
        .wait_for_msg("the event after Bo's play", |m| {
            m.t() == MsgType::Event && m.v == y + 1
        })
        .await;
    drop(bo2);
    server.stop().await;
}

// ---------------------------------------------------------------------------
// The grace period.

/// A seat's entry in STATE's lobby.
fn lobby<'a>(m: &'a ServerMsg, name: &str) -> Option<&'a LobbyEntry> {
    (m.state()?.state.lobby.iter()).find(|s| s.name == name)
}

/// Whether `m` is the event of an action of `name`'s, chosen for them
/// (`auto`) or not.
fn act_by(m: &ServerMsg, who: &str, chosen_for_them: Option<bool>) -> bool {
    match m.state().and_then(|s| s.e.as_ref()) {
        Some(Described::Act { name, auto, .. }) => {
            name == who && chosen_for_them.is_none_or(|a| a == *auto)
        }
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_grace_period_a_bot_plays_for_a_gone_player_until_they_return() {
    // `Config::for_tests()`: a grace period of a fraction of a second.
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "grace", "player": "Ada", "seats": 4}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    let cy = server.take_seat(&id, "Cy").await;
    server.add_bot(&id, &ada, "greedy").await;
    let mut ada_p = Player::join(&server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    let _bo_p = Player::join(&server, &id, "Bo", Some(&bo), 0, Mode::All).await;
    let mut cy_p = Player::join(&server, &id, "Cy", Some(&cy), 0, Mode::All).await;
    server.start_game(&id, &ada).await;

    // Cy plays a few times, then is gone.
    for _ in 0..3 {
        cy_p.wait_for_msg("an action of Cy's", |m| act_by(m, "Cy", None))
            .await;
    }
    let last_v = msg_from(cy_p.drop_connection().last().unwrap()).v;
    ada_p
        .wait_for_msg("Cy disconnected", |m| {
            lobby(m, "Cy").is_some_and(|s| !s.connected)
        })
        .await;
    ada_p
        .wait_for_msg("Cy away", |m| lobby(m, "Cy").is_some_and(|s| s.away))
        .await;
    // The game goes on: a bot plays for Cy.
    ada_p
        .wait_for_msg("an action played for Cy", |m| act_by(m, "Cy", Some(true)))
        .await;

    // Cy comes back and plays again.
    let mut cy_back = Player::join(&server, &id, "Cy", Some(&cy), last_v, Mode::All).await;
    let back = cy_back
        .wait_for_msg("the answer to hello", |m| m.state().is_some())
        .await;
    assert_eq!(back.t(), MsgType::Catchup, "{back:?}");
    let me = lobby(&back, "Cy").unwrap();
    assert!(!me.away, "{back:?}");
    assert!(me.connected, "{back:?}");
    ada_p
        .wait_for_msg("Cy back", |m| {
            lobby(m, "Cy").is_some_and(|s| !s.away && s.connected)
        })
        .await;
    cy_back
        .wait_for_msg("an action of Cy's own", |m| act_by(m, "Cy", Some(false)))
        .await;
    server.stop().await;
}

// ---------------------------------------------------------------------------
// Bad input over the WebSocket.

/// Reads until an `error`; returns its reason. Panics on anything but STATE
/// messages in between.
async fn expect_error(ws: &mut Ws, what: &str) -> String {
    let m = ws.recv_until_msg(|m| m.t() != MsgType::Presence).await;
    assert_eq!(m.t(), MsgType::Error, "{what}: {m:?}");
    let reason = &m.refusal().unwrap().reason;
    assert!(
        !reason.trim().is_empty(),
        "{what}: an error says why: {m:?}"
    );
    reason.to_string()
}

/// The next message but `presence`, which must be a `resync`.
async fn expect_resync(ws: &mut Ws, what: &str) -> ServerMsg {
    let m = ws.recv_until_msg(|m| m.t() != MsgType::Presence).await;
    assert_eq!(m.t(), MsgType::Resync, "{what}: {m:?}");
    m
}

/// Reads an `error` then a `resync` at event `v`, both of the refusal's
/// kind `kind`; returns the resync.
async fn expect_error_and_resync(ws: &mut Ws, what: &str, v: u64, kind: ErrorKind) -> ServerMsg {
    let m = ws.recv_until_msg(|m| m.t() != MsgType::Presence).await;
    assert_eq!(m.t(), MsgType::Error, "{what}: {m:?}");
    assert_eq!(
        m.refusal().unwrap().kind,
        kind,
        "{what}: the refusal's kind: {m:?}"
    );
    let m = expect_resync(ws, what).await;
    let state = m.expect_state();
    assert_eq!(state.error_kind, Some(kind), "{what}: {m:?}");
    assert_eq!(m.v, v, "{what}: {m:?}");
    assert!(
        state.state.view.is_some(),
        "{what}: a resync carries STATE: {m:?}"
    );
    m
}

/// The table is still at event `v` and Bo's state is still `state`.
async fn assert_unchanged(server: &Server, id: &str, bo: &str, v: u64, state: &State, what: &str) {
    let info = server.table_info(id).await;
    assert_eq!(info.v, v, "{what} changed the table: {info:?}");
    let (ws, snapshot) = server.hello_msg(id, Some(bo), 0).await;
    assert_eq!(snapshot.v, v, "{what}");
    assert_eq!(
        &game_part(snapshot.expect_state()),
        state,
        "{what} changed Bo's state"
    );
    ws.close().await;
}

/// A table of three, created from `table` by Ada: Ada's client plays, a
/// greedy bot plays, and Bo's client sends nothing by itself. Started and
/// waiting for Bo's play.
struct WaitingForBo {
    id: String,
    ada: String,
    bo: String,
    _ada_p: Player,
    bo_p: Player,
    /// The state that asks Bo to play.
    waiting: ServerMsg,
}

async fn waiting_for_bo(server: &Server, table: Value) -> WaitingForBo {
    let (id, ada) = server.create_table(table).await;
    let bo = server.take_seat(&id, "Bo").await;
    server.add_bot(&id, &ada, "greedy").await;
    let _ada_p = Player::join(server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    let mut bo_p = Player::join(server, &id, "Bo", Some(&bo), 0, Mode::NoPlay).await;
    server.start_game(&id, &ada).await;
    let waiting = bo_p.wait_for_msg("Bo's play", asks_to_play).await;
    WaitingForBo {
        id,
        ada,
        bo,
        _ada_p,
        bo_p,
        waiting,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_websocket_input_is_refused_with_an_error_and_changes_nothing() {
    // Ten messages a second (bursts of twenty): the limit is met on what
    // the server reads, and a loaded machine reads a burst slowly, so the
    // bursts below are sent well past what it can let through in time.
    let server = Server::start(|c| {
        c.grace = Duration::from_secs(600);
        c.messages_per_second = 10;
    })
    .await;
    // The table waits for Bo's play: nothing else can happen.
    let WaitingForBo {
        id,
        ada,
        bo,
        _ada_p,
        bo_p: _bo_p,
        waiting,
    } = waiting_for_bo(
        &server,
        json!({"name": "bad input", "player": "Ada", "seats": 3}),
    )
    .await;
    let v = waiting.v;
    let legal = choose_for(waiting.expect_state()).unwrap();
    let state = game_part(waiting.expect_state());
    let unchanged = async |what: &str| assert_unchanged(&server, &id, &bo, v, &state, what).await;

    // An act before hello.
    let mut ws = server.ws(&id).await;
    ws.send_json(&json!({"t": "act", "v": v, "d": legal})).await;
    expect_error(&mut ws, "act before hello").await;
    ws.send_json(&hello(Some(&bo), v)).await;
    let m = ws.recv_until_msg(|m| m.t() != MsgType::Presence).await;
    assert_eq!(m.t(), MsgType::Catchup, "hello after a refused act: {m:?}");
    unchanged("act before hello").await;

    // Garbage, an unknown type, a binary frame: an error, and the
    // connection stays usable.
    ws.send_text("garbage").await;
    expect_error(&mut ws, "garbage").await;
    ws.send_json(&json!({"t": "fly", "v": v, "d": {}})).await;
    expect_error(&mut ws, "unknown type").await;
    ws.send_frame(2, b"\x00\x01binary").await.unwrap();
    expect_error(&mut ws, "a binary frame").await;
    unchanged("garbage, unknown type, binary").await;

    // An act or place the server cannot even read is still an action
    // refused: error, then resync, the error naming the real fault.
    let many = vec!["5"; 1000].join(" ");
    for (message, says) in [
        (json!({"t": "act", "d": legal}), "\"v\""),
        (json!({"t": "act", "v": v.to_string(), "d": legal}), "\"v\""),
        (json!({"t": "act", "v": v, "d": {"play": "6 6 X"}}), "X"),
        (json!({"t": "act", "v": v, "d": "dance"}), "dance"),
        (
            json!({"t": "act", "v": v, "d": {"offer_exchange": {"partner": 99, "card": "7"}}}),
            "99",
        ),
        (
            json!({"t": "act", "v": v, "d": {"play": many}}),
            "at most 14 cards",
        ),
        (json!({"t": "place", "v": v, "d": {"name": "Zed"}}), "seat"),
        (
            json!({"t": "place", "v": v, "d": {"name": "Zed", "seat": 1}}),
            "newcomer",
        ),
    ] {
        let what = message.to_string();
        ws.send_json(&message).await;
        let error = ws.recv_until_msg(|m| m.t() != MsgType::Presence).await;
        assert_eq!(error.t(), MsgType::Error, "{what}: {error:?}");
        let reason = &error.refusal().unwrap().reason;
        assert!(reason.contains(says), "{what}: {reason}");
        let resync = expect_resync(&mut ws, &what).await;
        assert_eq!(resync.v, v, "{what}");
        let you = resync.expect_state().state.you.as_ref();
        assert_eq!(
            you.map(|n| n.as_str()),
            Some("Bo"),
            "{what}: Bo's own state"
        );
        assert_eq!(resync.expect_state().error.as_ref(), Some(reason), "{what}");
    }
    unchanged("unreadable actions").await;

    // An illegal action, a replayed old action (stale v): error and
    // resync at the table's event number.
    ws.send_json(&json!({"t": "act", "v": v, "d": {"play": "1 1 1 1 1 1 1 1"}}))
        .await;
    expect_error_and_resync(&mut ws, "an illegal action", v, ErrorKind::Illegal).await;
    ws.send_json(&json!({"t": "act", "v": v - 1, "d": legal}))
        .await;
    expect_error_and_resync(&mut ws, "a stale action", v, ErrorKind::Stale).await;
    ws.send_json(&json!({"t": "act", "v": v + 5, "d": legal}))
        .await;
    expect_error_and_resync(&mut ws, "an action from the future", v, ErrorKind::Stale).await;
    unchanged("illegal and stale actions").await;

    // An action out of turn: Ada has no decision now.
    let (mut ada_ws, _) = server.hello(&id, Some(&ada), 0).await;
    ada_ws
        .send_json(&json!({"t": "act", "v": v, "d": "pass"}))
        .await;
    expect_error_and_resync(&mut ada_ws, "an action out of turn", v, ErrorKind::Illegal).await;
    unchanged("an action out of turn").await;

    // A wrong token.
    let mut wrong = server.ws(&id).await;
    wrong
        .send_json(&hello(Some("0123456789abcdef0123456789abcdef"), 0))
        .await;
    expect_error(&mut wrong, "a wrong token").await;
    // … and the connection closes with 1008 (policy violation).
    match wrong.recv_within(WAIT).await {
        Some(Some(common::Frame::Close(code, _))) => assert_eq!(code, Some(1008)),
        other => panic!("a wrong token closes the connection: {other:?}"),
    }
    unchanged("a wrong token").await;
    // A spectator cannot act.
    let (mut watcher, _) = server.hello(&id, None, 0).await;
    watcher
        .send_json(&json!({"t": "act", "v": v, "d": legal}))
        .await;
    let resync =
        expect_error_and_resync(&mut watcher, "a spectator's act", v, ErrorKind::BadRequest).await;
    let you = &resync.expect_state().state.you;
    assert!(you.is_none(), "a spectator's view: {resync:?}");
    watcher.send_json(&json!({"t": "chat", "d": "hi"})).await;
    expect_error(&mut watcher, "a spectator's chat").await;
    unchanged("a spectator's act").await;

    // Rate-limited actions are refused like any other: error, resync.
    let (mut hasty, _) = server.hello(&id, Some(&bo), 0).await;
    let stale = json!({"t": "act", "v": v - 1, "d": legal}).to_string();
    // A hundred at once: twenty in the burst, and more than ten a second
    // unless each costs the server 80 ms (each refused act sends a resync).
    for _ in 0..100 {
        hasty.send_text(&stale).await;
    }
    let mut too_many = 0;
    for _ in 0..100 {
        let error = hasty.recv_until_msg(|m| m.t() != MsgType::Presence).await;
        assert_eq!(error.t(), MsgType::Error, "{error:?}");
        let reason = &error.refusal().unwrap().reason;
        if reason.contains("too many") {
            too_many += 1;
        }
        let resync = expect_resync(&mut hasty, &format!("after {reason:?}")).await;
        assert_eq!(resync.expect_state().error.as_ref(), Some(reason));
    }
    assert!(too_many > 0, "100 actions at once go over the limit");
    unchanged("rate-limited actions").await;

    // An oversized frame: refused with an error.
    let (mut big, _) = server.hello(&id, Some(&bo), 0).await;
    let long = json!({"t": "chat", "v": v, "d": "x".repeat(5000)}).to_string();
    big.send_text(&long).await;
    expect_error(&mut big, "a frame over 4096 bytes").await;
    unchanged("an oversized frame").await;

    // Flooding: past the limit, refusals, then the door.
    let (mut flood, _) = server.hello(&id, Some(&bo), 0).await;
    // Each message is sent once the answer to the one before has come (so
    // nothing sent is left unread when the server closes).
    let mut reasons = HashSet::new();
    let mut closed = false;
    'flood: for _ in 0..1000 {
        if flood.send_frame(1, br#"{"t":"fly"}"#).await.is_err() {
            closed = true;
            break;
        }
        loop {
            match flood.recv_within(WAIT).await {
                Some(Some(common::Frame::Text(t))) => {
                    if let Some(refused) = msg_of(&t).refusal() {
                        reasons.insert(refused.reason.clone());
                        break;
                    }
                }
                Some(Some(common::Frame::Close(..)) | None) => {
                    closed = true;
                    break 'flood;
                }
                Some(Some(common::Frame::Binary(_) | common::Frame::Ping)) => {
                    panic!("a binary frame")
                }
                None => panic!("no answer to a message within {WAIT:?}"),
            }
        }
    }
    assert!(
        reasons.len() >= 2,
        "flooding gets its own error besides the unknown type's: {reasons:?}"
    );
    assert!(closed, "a connection that keeps flooding is closed");
    unchanged("flooding").await;

    // The first connection is still usable: Bo's legal play is accepted.
    ws.send_json(&json!({"t": "act", "v": v, "d": legal})).await;
    let m = ws
        .recv_until_msg(|m| matches!(m.t(), MsgType::Event | MsgType::Error))
        .await;
    assert_eq!(m.t(), MsgType::Event, "{m:?}");
    assert_eq!(m.v, v + 1);
    assert!(act_by(&m, "Bo", None), "{m:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_corporate_shuffle_acts_get_an_error_and_a_resync() {
    let server = Server::start(|c| c.grace = Duration::from_secs(600)).await;
    let table = json!({
        "name": "bad specials",
        "player": "Ada",
        "seats": 3,
        "rules": {"variant": "corporate-shuffle"},
    });
    let WaitingForBo {
        id,
        bo,
        _ada_p,
        bo_p: _bo_p,
        waiting,
        ..
    } = waiting_for_bo(&server, table).await;
    let v = waiting.v;
    let waiting = &waiting.expect_state().state;
    let view = waiting.view.as_ref().unwrap();
    let me = view.seat.unwrap();
    let state = game_part(&waiting.clone().into());
    // What the engine says of a lone Wedgie, when Bo leads: it names no
    // one, or Bo himself; or Bo does not hold it. Following, the set on
    // the table may refuse it first.
    let leads = matches!(waiting.decision, Some(Wire(Decision::Lead)));
    let holds_wedgie = (view.hand.as_deref().unwrap().split(' ')).any(|t| t == "T");
    let engine_says = match (leads, holds_wedgie) {
        (false, _) => "",
        (true, true) => "Twirling Wedgie",
        (true, false) => "does not hold T",
    };
    let (mut ws, _) = server.hello(&id, Some(&bo), v).await;
    for (play, says) in [
        (json!({"play": "D as 0"}), "1 to 10, not 0"),
        (json!({"play": "D D"}), "must say what it plays as"),
        (json!({"play": "0 0"}), "played only alone"),
        (json!({"play": "0 D"}), "played only alone"),
        (json!({"play": "6 6", "wedgie": 1}), "Twirling Wedgie"),
        (json!({"play": "6 T", "wedgie": "Ada"}), "a seat number"),
        (json!({"play": "6 T", "wedgie": 99}), "a seat number"),
        (json!({"play": "6 T", "as": 3}), "written with the cards"),
        // The engine's refusal: a Wedgie never names its own player.
        (json!({"play": "T", "wedgie": me}), engine_says),
        (json!({"play": "T"}), engine_says),
    ] {
        let what = play.to_string();
        ws.send_json(&json!({"t": "act", "v": v, "d": play})).await;
        let reason = expect_error(&mut ws, &what).await;
        assert!(reason.contains(says), "{what}: {reason}");
        let resync = expect_resync(&mut ws, &what).await;
        assert_eq!(resync.v, v, "{what}");
        assert_eq!(resync.expect_state().error, Some(reason), "{what}");
        assert_eq!(
            game_part(resync.expect_state()),
            state,
            "{what}: Bo's state is unchanged"
        );
    }
    assert_unchanged(&server, &id, &bo, v, &state, "malformed specials").await;
    server.stop().await;
}

// ---------------------------------------------------------------------------
// Bad input over HTTP.

async fn post(server: &Server, path: &str, token: Option<&str>, body: &str) -> (u16, Value) {
    common::http(server.addr, "POST", path, token, Some(body)).await
}

#[track_caller]
fn assert_error((status, body): (u16, Value), expected: u16, what: &str) {
    assert_eq!(status, expected, "{what}: {body}");
    assert!(
        !error_body(&body).error.trim().is_empty(),
        "{what}: a clear error: {body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_http_input_gets_the_documented_status_and_changes_nothing() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "lobby", "player": "Ada", "seats": 4}))
        .await;
    let bo = server.take_seat(&id, "Bo").await;
    let before = server.info(&id).await;
    let s = &server;
    let tables = "/api/tables";
    let seats = format!("/api/tables/{id}/seats");
    let bots = format!("/api/tables/{id}/bots");
    let start = format!("/api/tables/{id}/start");

    assert_error(post(s, tables, None, "{not json").await, 400, "bad JSON");
    let table = |extra: &str| format!(r#"{{"name":"x","player":"P"{extra}}}"#);
    assert_error(
        post(s, tables, None, &table(r#","seats":4,"colour":"red""#)).await,
        400,
        "an unknown field",
    );
    assert_error(
        post(s, tables, None, &table(r#","seats":4,"seats":3"#)).await,
        400,
        "a field given twice",
    );
    // A name that hides characters (issue 24, S7).
    assert_error(
        post(s, tables, None, r#"{"player":"Ann\u202e","seats":4}"#).await,
        400,
        "a player name with a text-direction control",
    );
    assert_error(
        post(s, tables, None, &table(r#","seats":2"#)).await,
        400,
        "2 seats",
    );
    assert_error(
        post(s, tables, None, &table(r#","seats":17"#)).await,
        400,
        "17 seats",
    );
    assert_error(
        post(s, tables, None, &table(r#","seats":"four""#)).await,
        400,
        "seats as text",
    );
    assert_error(
        post(
            s,
            tables,
            None,
            &table(r#","seats":4,"rules":{"scoring":"golf"}"#),
        )
        .await,
        400,
        "bad rules",
    );
    // Inside rules too: an unknown field and a number of hands out of
    // range are refused, naming the field.
    for (rules, names) in [
        (r#"{"colour":"red"}"#, "colour"),
        (r#"{"hands":0}"#, "rules.hands"),
        (r#"{"merchant_exchange":"yes"}"#, "rules.merchant_exchange"),
        // A field given twice, as at the top level (issue 24, S6).
        (
            r#"{"scoring":"standard","scoring":"none"}"#,
            "duplicate field `scoring`",
        ),
    ] {
        let answer = post(
            s,
            tables,
            None,
            &table(&format!(r#","seats":4,"rules":{rules}"#)),
        )
        .await;
        let what = format!("rules {rules}");
        assert_error(answer.clone(), 400, &what);
        let reason = error_body(&answer.1).error;
        assert!(reason.contains(names), "{what}: {reason}");
    }
    assert_error(
        post(s, &seats, None, r#"{"name":"Cy","seat":3}"#).await,
        400,
        "an unknown field in a seat",
    );
    assert_error(
        post(s, &seats, None, r#"{"name":""}"#).await,
        400,
        "an empty name",
    );
    assert_error(
        post(s, &seats, None, r#"{"name":"Ada"}"#).await,
        409,
        "a name taken",
    );
    assert_error(
        post(s, "/api/tables/nosuchtable/seats", None, r#"{"name":"Cy"}"#).await,
        404,
        "an unknown table",
    );

    // Host actions: no token, a token that holds no seat here, a seat's
    // token that is not the host's.
    let bot = r#"{"bot":"greedy"}"#;
    let wrong = "0123456789abcdef0123456789abcdef";
    assert_error(
        post(s, &bots, None, bot).await,
        401,
        "a bot without a token",
    );
    assert_error(
        post(s, &bots, Some(wrong), bot).await,
        403,
        "a bot with a wrong token",
    );
    assert_error(
        post(s, &bots, Some(&bo), bot).await,
        403,
        "a bot from a non-host",
    );
    // Only the offered levels, without options: nobody may ask the server
    // to think for minutes on every core.
    for bot in [
        "oracle",
        "search:ms=300",
        "search:threads=256,ms=600000",
        "search:iterations=4294967295",
        "cmd:python3 examples/bot.py",
        "heuristic:",
    ] {
        let body = json!({ "bot": bot }).to_string();
        let answer = post(s, &bots, Some(&ada), &body).await;
        assert_error(answer.clone(), 400, bot);
        let reason = error_body(&answer.1).error;
        for level in ["easy", "normal", "hard", "expert"] {
            assert!(
                reason.contains(level),
                "{bot}: the levels are listed: {reason}"
            );
        }
    }
    assert_error(
        post(s, &start, None, "").await,
        401,
        "start without a token",
    );
    assert_error(
        post(s, &start, Some(wrong), "").await,
        403,
        "start with a wrong token",
    );
    assert_error(
        post(s, &start, Some(&bo), "").await,
        403,
        "start from a non-host",
    );
    // A malformed Authorization header is no token.
    let addr = server.addr;
    let request = format!(
        "POST {start} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Basic QWxhZGRpbg==\r\nContent-Length: 0\r\n\r\n"
    );
    let answer = common::raw_http(addr, request.as_bytes()).await;
    assert!(
        matches!(answer.0, 401 | 403),
        "a Basic authorization: {answer:?}"
    );

    // A body over 16 KiB.
    let big = format!(r#"{{"name":"{}"}}"#, "x".repeat(17 * 1024));
    assert_error(post(s, &seats, None, &big).await, 413, "a body over 16 KiB");
    // Record and replay before the game is over.
    for what in ["record", "replay"] {
        let (status, body) = server
            .http("GET", &format!("/api/tables/{id}/{what}"), None, None)
            .await;
        assert_eq!(status, 409, "{what} before the end: {body}");
    }

    // Nothing changed.
    assert_eq!(before, server.info(&id).await);
    // The host can still do what the others could not, the strongest
    // level included.
    assert_eq!(server.add_bot(&id, &ada, "expert").await, "expert bot 1");
    server.start_game(&id, &ada).await;
    assert_error(post(s, &start, Some(&ada), "").await, 409, "a second start");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_http_error_is_json_that_says_what_is_wrong() {
    let server = Server::start(|_| {}).await;
    let (id, _) = server
        .create_table(json!({"name": "errors", "player": "Ada", "seats": 3}))
        .await;
    let addr = server.addr;
    let request = |method: &str, path: &str, extra: &str| {
        format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Length: 0\r\n\r\n"
        )
    };
    for (method, path, extra, status, says) in [
        ("GET", "/nowhere".to_string(), "", 404, "/nowhere"),
        (
            "GET",
            format!("/api/tables/{id}/nothing"),
            "",
            404,
            "nothing",
        ),
        ("GET", "/api/tables/%FF".to_string(), "", 400, ""),
        (
            "GET",
            "/api/tables?finished=maybe".to_string(),
            "",
            400,
            "finished",
        ),
        ("DELETE", "/api/tables".to_string(), "", 405, "use"),
        ("PUT", "/".to_string(), "", 405, "PUT"),
        ("POST", format!("/api/tables/{id}/record"), "", 405, "GET"),
        ("GET", format!("/ws/{id}"), "", 400, ""),
        (
            "POST",
            format!("/ws/{id}"),
            "Upgrade: websocket\r\nConnection: Upgrade\r\n",
            405,
            "",
        ),
    ] {
        let what = format!("{method} {path}");
        let (got, head, body) =
            common::raw_http_head(addr, request(method, &path, extra).as_bytes()).await;
        assert_eq!(got, status, "{what}: {head} {body}");
        assert!(
            head.contains("content-type: application/json"),
            "{what}: {head}"
        );
        let reason = error_body(&body).error;
        assert!(
            !reason.trim().is_empty() && reason.contains(says),
            "{what}: {reason}"
        );
        if status == 405 {
            assert!(
                head.contains("\r\nallow: "),
                "{what}: a 405 says what is allowed: {head}"
            );
        }
    }
    server.stop().await;
}

// ---------------------------------------------------------------------------
// Strangers who hold on: timeouts and caps.

/// Waits for the server to close `ws`; returns the close code and reason.
async fn closed(ws: &mut Ws, what: &str) -> (Option<u16>, String) {
    loop {
        match ws.recv_within(WAIT).await {
            Some(Some(common::Frame::Close(code, reason))) => return (code, reason),
            Some(Some(_)) => {}
            Some(None) => panic!("{what}: the connection ended without a close frame"),
            None => panic!("{what}: still open after {WAIT:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_never_says_hello_is_closed() {
    let server = Server::start(|c| c.hello_timeout = Duration::from_millis(300)).await;
    let (id, _) = server
        .create_table(json!({"name": "silent", "player": "Ada", "seats": 3}))
        .await;
    let mut ws = server.ws(&id).await;
    let (code, reason) = closed(&mut ws, "no hello").await;
    assert_eq!(code, Some(4408), "{reason}");
    assert!(reason.contains("hello"), "{reason}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_answers_no_pings_is_closed_one_that_does_stays() {
    let server = Server::start(|c| {
        c.ping_interval = Duration::from_millis(100);
        c.idle_timeout = Duration::from_millis(500);
    })
    .await;
    let (id, ada) = server
        .create_table(json!({"name": "pings", "player": "Ada", "seats": 3}))
        .await;
    let (mut deaf, _) = server.hello(&id, None, 0).await;
    deaf.answer_pings = false;
    let (mut alive, _) = server.hello(&id, Some(&ada), 0).await;
    // The one that answers, for three times the idle time.
    let until = tokio::time::Instant::now() + Duration::from_millis(1500);
    let listening = async {
        while let Ok(frame) = tokio::time::timeout_at(until, alive.recv()).await {
            match frame {
                Some(common::Frame::Close(code, reason)) => {
                    panic!("a client that answers pings was closed: {code:?} {reason}")
                }
                None => panic!("a client that answers pings lost its connection"),
                _ => {}
            }
        }
    };
    let deaf_closed = async {
        let mut pinged = false;
        loop {
            match deaf.recv_within(WAIT).await {
                Some(Some(common::Frame::Ping)) => pinged = true,
                Some(Some(common::Frame::Close(code, reason))) => return (pinged, code, reason),
                Some(Some(_)) => {}
                other => panic!("the deaf client was not closed: {other:?}"),
            }
        }
    };
    let ((pinged, code, reason), ()) = tokio::join!(deaf_closed, listening);
    assert!(pinged, "the server pings");
    assert_eq!(code, Some(4408), "{reason}");
    assert!(reason.contains("ping"), "{reason}");
    // Still there: a chat line comes back.
    alive
        .send_json(&json!({"t": "chat", "d": "still here"}))
        .await;
    let chat = alive.recv_until_msg(|m| m.t() == MsgType::Chat).await;
    assert_eq!(chat.chat_line().unwrap().text, "still here");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_whose_headers_or_body_never_end_are_cut_off() {
    let server = Server::start(|c| {
        c.header_timeout = Duration::from_millis(300);
        c.request_timeout = Duration::from_millis(300);
    })
    .await;
    let addr = server.addr;
    // Headers that never end: the connection is closed.
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream
        .write_all(format!("GET /api/tables HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").as_bytes())
        .await
        .unwrap();
    let mut rest = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut rest))
        .await
        .expect("headers that never end are cut off")
        .ok();
    // A connection that never sends a byte: closed when its headers are
    // due (issue 24, S3).
    let mut silent = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut rest = Vec::new();
    tokio::time::timeout(WAIT, silent.read_to_end(&mut rest))
        .await
        .expect("a silent connection is closed")
        .ok();
    // A body that never ends: 408, with a JSON error.
    let request = format!(
        "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"name\":"
    );
    let (status, _, body) = common::raw_http_head(addr, request.as_bytes()).await;
    assert_eq!(status, 408, "{body}");
    error_body(&body);
    server.stop().await;
}

/// A frame that says it is 16 MiB long is refused at its header, before
/// its payload is read or buffered (issue 24, S2): the connection ends
/// although the payload never comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_longer_than_the_limit_is_refused_at_its_header() {
    let server = Server::start(|_| {}).await;
    let (id, ada) = server
        .create_table(json!({"name": "big", "player": "Ada", "seats": 3}))
        .await;
    let (mut ws, _) = server.hello(&id, Some(&ada), 0).await;
    let mut head = vec![0x81, 0x80 | 127];
    head.extend_from_slice(&(16u64 << 20).to_be_bytes());
    head.extend_from_slice(&[0x37, 0xfa, 0x21, 0x3d]);
    ws.send_raw(&head).await.unwrap();
    let _ = ws.send_raw(&[b'x'; 1024]).await;
    loop {
        match ws.recv_within(WAIT).await {
            None => panic!("the server waits for the 16 MiB payload"),
            Some(None | Some(common::Frame::Close(..))) => break,
            Some(Some(_)) => {}
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_its_share_of_connections() {
    let server = Server::start(|c| c.max_per_address = 3).await;
    let (id, _) = server
        .create_table(json!({"name": "crowd", "player": "Ada", "seats": 3}))
        .await;
    // The connection that created the table may count for a moment more
    // (the server lets it go when its task ends, which a busy machine
    // delays): a refusal while it does is waited out.
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut ws = loop {
            match Ws::try_connect(server.addr, &format!("/ws/{id}")).await {
                Ok(ws) => break ws,
                Err((429, _)) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err((status, body)) => panic!("a connection of the three refused: {status} {body}"),
            }
        };
        ws.send_json(&hello(None, 0)).await;
        ws.recv_json().await;
        held.push(ws);
    }
    // A fourth connection, HTTP or WebSocket, is refused with a reason.
    let (status, body) = server.http("GET", "/api/tables", None, None).await;
    assert_eq!(status, 429, "{body}");
    let reason = error_body(&body).error;
    assert!(reason.contains("at most 3"), "{reason}");
    let refused = Ws::try_connect(server.addr, &format!("/ws/{id}")).await;
    assert!(matches!(refused, Err((429, _))), "{:?}", refused.err());
    // One closes: there is room again.
    held.pop().unwrap().close().await;
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (status, _) = server.http("GET", "/api/tables", None, None).await;
        if status == 200 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the slot was never given back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.stop().await;
}

// ---------------------------------------------------------------------------
// Tables come and go: creation limits, expiry, finished games as records.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_may_create_only_so_many_tables_at_once() {
    let server = Server::start(|c| c.table_burst = 2).await;
    let body = json!({"name": "junk", "player": "Ada", "seats": 3});
    for _ in 0..2 {
        server.create_table(body.clone()).await;
    }
    let request = format!(
        "POST /api/tables HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        server.addr,
        body.to_string().len()
    );
    let (status, head, answer) = common::raw_http_head(server.addr, request.as_bytes()).await;
    assert_eq!(status, 429, "{answer}");
    let reason = error_body(&answer).error;
    assert!(reason.contains("try again in"), "{reason}");
    assert!(head.contains("\r\nretry-after: "), "{head}");
    server.stop().await;
}

/// Waits until `GET path` answers `status`.
async fn until_status(server: &Server, path: &str, status: u16) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (got, body) = server.http("GET", path, None, None).await;
        if got == status {
            return body;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "GET {path}: still {got} {body}, not {status}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unused_and_abandoned_tables_expire_and_free_their_place() {
    let lifetimes = |c: &mut dalmuti_server::Config| {
        c.max_tables = 2;
        c.unstarted_ttl = Duration::from_secs(2);
        c.abandoned_ttl = Duration::from_secs(2);
    };
    let server = Server::start(lifetimes).await;
    // One table nobody starts, one whose only human leaves mid-game.
    let (unused, _) = server
        .create_table(json!({"name": "unused", "player": "Ada", "seats": 3}))
        .await;
    let (left, bo) = server
        .create_table(json!({"name": "left", "player": "Bo", "seats": 3}))
        .await;
    server.add_bot(&left, &bo, "greedy").await;
    server.add_bot(&left, &bo, "greedy").await;
    let player = Player::join(&server, &left, "Bo", Some(&bo), 0, Mode::NoPlay).await;
    server.start_game(&left, &bo).await;
    let (status, full) = server
        .http(
            "POST",
            "/api/tables",
            None,
            Some(json!({"name": "third", "player": "Cy", "seats": 3})),
        )
        .await;
    assert_eq!(status, 503, "two live tables fill the server: {full}");
    player.drop_connection();

    for id in [&unused, &left] {
        until_status(&server, &format!("/api/tables/{id}"), 404).await;
    }
    // Their places are free, and they do not come back after a restart.
    server
        .create_table(json!({"name": "third", "player": "Cy", "seats": 3}))
        .await;
    let server = server.restart(lifetimes).await;
    for id in [&unused, &left] {
        let (status, body) = server
            .http("GET", &format!("/api/tables/{id}"), None, None)
            .await;
        assert_eq!(status, 404, "{id} after a restart: {body}");
    }
    server.stop().await;
}

/// Plays a 3-seat game of one hand (one scripted human, two bots) to its
/// end; returns its id and the human's token once the human has gone.
async fn finished_game(server: &Server, name: &str) -> (String, String) {
    let (id, ada) = server
        .create_table(json!({"name": name, "player": "Ada", "seats": 3, "hands": 1}))
        .await;
    server.add_bot(&id, &ada, "greedy").await;
    server.add_bot(&id, &ada, "random").await;
    let player = Player::join(server, &id, "Ada", Some(&ada), 0, Mode::All).await;
    server.start_game(&id, &ada).await;
    player.finish().await;
    (id, ada)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_kept_as_a_record_not_a_live_table() {
    let limits = |c: &mut dalmuti_server::Config| {
        c.max_tables = 1;
        c.max_finished = 1;
    };
    let server = Server::start(limits).await;
    let (first, ada) = finished_game(&server, "first").await;
    // Once its player is gone it no longer holds the server's one live
    // table: a new table can be made.
    let deadline = tokio::time::Instant::now() + WAIT;
    let next = loop {
        let (status, body) = server
            .http(
                "POST",
                "/api/tables",
                None,
                Some(json!({"name": "next", "player": "Ada", "seats": 3, "hands": 1})),
            )
            .await;
        if status == 201 {
            break body;
        }
        assert_eq!(status, 503, "{body}");
        assert!(
            tokio::time::Instant::now() < deadline,
            "the finished game stayed live"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let check_served = async |server: &Server| {
        let info = server.table_info(&first).await;
        assert!(info.over, "{info:?}");
        for what in ["record", "replay", "fairness"] {
            let path = format!("/api/tables/{first}/{what}");
            let (status, body) = server.http("GET", &path, None, None).await;
            assert_eq!(status, 200, "{path}: {body}");
        }
        let finished = server.lobby("/api/tables?finished=true").await;
        assert_eq!(finished[0].id, first.as_str(), "{finished:?}");
        let open = server.lobby("/api/tables").await;
        assert!(open.iter().all(|t| t.id != first.as_str()), "{open:?}");
        // Its seat's page still shows the final standings.
        let (ws, snapshot) = server.hello_msg(&first, Some(&ada), 0).await;
        assert_eq!(snapshot.t(), MsgType::Snapshot, "{snapshot:?}");
        let state = &snapshot.expect_state().state;
        assert!(state.game_over);
        assert_eq!(state.you.as_ref().map(|n| n.as_str()), Some("Ada"));
        ws.close().await;
        // Nothing about it can change.
        let (status, body) = server
            .http(
                "POST",
                &format!("/api/tables/{first}/seats"),
                None,
                Some(json!({"name": "Zed"})),
            )
            .await;
        assert_eq!(status, 409, "{body}");
    };
    check_served(&server).await;
    // A restart loads only live tables; the record is still served.
    let server = server.restart(limits).await;
    check_served(&server).await;
    // The next game over prunes the oldest record (one is kept).
    let next_id = next["id"].as_str().unwrap().to_string();
    let host = next["token"].as_str().unwrap().to_string();
    server.add_bot(&next_id, &host, "greedy").await;
    server.add_bot(&next_id, &host, "greedy").await;
    let player = Player::join(&server, &next_id, "Ada", Some(&host), 0, Mode::All).await;
    server.start_game(&next_id, &host).await;
    player.finish().await;
    until_status(&server, &format!("/api/tables/{first}"), 404).await;
    let (status, body) = server
        .http("GET", &format!("/api/tables/{next_id}/record"), None, None)
        .await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}
