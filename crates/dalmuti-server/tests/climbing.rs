//! Daifugō and President at the server (issue 43): tables of both games
//! with their options, the play-now queue, and whole games over WebSockets
//! by bots and people-clients choosing among the `legal` actions they are
//! sent, whose records check and verify, and in which no client sees a card
//! it may not see.

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};

use common::{Mode, Player, Server, answer, error_body, has_state, msg_from, raw_http};
use dalmuti_core::record::{Checked, Record, check};
use dalmuti_core::{Lock, Variant};
use dalmuti_server::fairness::verify::verify_text;
use dalmuti_server::http::Created;
use dalmuti_server::players::{Board, Registered};
use dalmuti_server::queue::Standing;
use dalmuti_server::rules::games::Games;
use serde_json::{Value, json};

const NAMES: [&str; 6] = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"];

/// A game played to its end, with everything every client received.
struct Game {
    tokens: Vec<String>,
    /// Every person's name and the messages it received.
    seats: Vec<(String, Vec<Value>)>,
    spectator: Vec<Value>,
    record: Value,
    replay: Value,
}

/// Creates a table with `rules`, seats `humans` people-clients and `bots`,
/// plays `hands` games to the end; checks the record with the engine's
/// `record::check` and its deals with `dalmuti verify`'s check.
async fn play_game(
    server: &Server,
    humans: usize,
    bots: &[&str],
    hands: usize,
    rules: Value,
) -> Game {
    let seats = humans + bots.len();
    let (status, made) = server
        .http(
            "POST",
            "/api/tables",
            None,
            Some(json!({
                "name": "climbing", "player": NAMES[0], "seats": seats, "hands": hands, "rules": rules,
            })),
        )
        .await;
    assert_eq!(status, 201, "{rules}: {made}");
    let made: Created = answer(&made);
    let id = made.id.to_string();
    let host = made.token.as_str().to_string();
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
    match check(&record.to_string()) {
        Checked::Valid(report) => {
            assert_eq!(report.hands.len(), hands, "{record}");
            assert!(report.hands.iter().all(|h| h.finished), "{record}");
        }
        other => panic!("the server's record does not check: {other:?}\n{record}"),
    }
    let verdict = verify_text(&record.to_string());
    assert!(
        verdict.verified(),
        "the record's deals do not verify: {}\n{record}",
        verdict.summary()
    );
    Game {
        tokens,
        seats: logs,
        spectator,
        record,
        replay,
    }
}

// ---------------------------------------------------------------------------
// Hidden information.
//
// The checker below reads every message, the record and the replay as raw
// JSON on purpose (issue 42 leaves it so): it looks for a card in every
// string of every field, known or not, so a field the wire's types do not
// name (or would drop) is searched too; and `assert_leaks_are_caught`
// tampers with the messages as JSON, putting a card where no type has a
// field for it, to show the checker catches it.

/// Whether `t` is a card of the 52-card pack or a Joker (`3S`, `10H`, `JK`).
fn is_card(t: &str) -> bool {
    if t == "JK" {
        return true;
    }
    let Some((rank, suit)) = t.split_at_checked(t.len().saturating_sub(1)) else {
        return false;
    };
    matches!(suit, "S" | "H" | "D" | "C")
        && matches!(
            rank,
            "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K" | "A"
        )
}

/// The cards a string shows: its card tokens, less what Jokers stand for
/// (`9H JK as 9S` shows the 9♥ and a Joker, not the 9♠).
fn cards_in(s: &str) -> Vec<String> {
    s.split(" as ")
        .next()
        .unwrap_or("")
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | '"' | '[' | ']'))
        .filter(|t| is_card(t))
        .map(str::to_string)
        .collect()
}

/// Every card any string in `value` shows.
fn shown(value: &Value, out: &mut HashSet<String>) {
    match value {
        Value::String(s) => out.extend(cards_in(s)),
        Value::Array(a) => a.iter().for_each(|v| shown(v, out)),
        Value::Object(o) => o.values().for_each(|v| shown(v, out)),
        _ => {}
    }
}

/// What the game's truth says: the cards each player held at some step of
/// each game (1-based), from the replay, which sees every hand, and the
/// record's deals.
fn held(game: &Game) -> HashMap<(String, u64), HashSet<String>> {
    let mut held: HashMap<(String, u64), HashSet<String>> = HashMap::new();
    let mut k = 0;
    for frame in game.replay["frames"].as_array().expect("replay frames") {
        if frame["e"]["kind"] == json!("deal") {
            k += 1;
        }
        let players = frame["players"].as_array().unwrap();
        let hands = frame["hands"].as_array().unwrap();
        for (p, h) in players.iter().zip(hands) {
            held.entry((p.as_str().unwrap().to_string(), k))
                .or_default()
                .extend(cards_in(h.as_str().unwrap()));
        }
    }
    assert!(k > 0, "the replay has no deal: {}", game.replay);
    // The cards dealt, before the exchange took the poor's best.
    for (j, hand) in game.record["hands"].as_array().unwrap().iter().enumerate() {
        for (name, cards) in hand["deal"].as_object().expect("deals by name") {
            held.entry((name.clone(), j as u64 + 1))
                .or_default()
                .extend(cards_in(cards.as_str().unwrap()));
        }
    }
    held
}

/// The cards played face up in each game (1-based), from the record: not
/// the cards given on (7-pass) or discarded (10-discard), which go face
/// down.
fn played(record: &Value) -> HashMap<u64, HashSet<String>> {
    let mut played = HashMap::new();
    for (k, hand) in record["hands"].as_array().unwrap().iter().enumerate() {
        let mut cards = HashSet::new();
        for line in hand["plays"].as_array().unwrap() {
            let (_, play) = line.as_str().unwrap().split_once(": ").unwrap();
            if play == "pass" || play.starts_with("give ") || play.starts_with("discard ") {
                continue;
            }
            cards.extend(cards_in(play));
        }
        played.insert(k as u64 + 1, cards);
    }
    played
}

/// The game (1-based) a message belongs to, as its STATE says; for other
/// messages the last one's.
fn game_of(m: &Value, last: &mut u64) -> u64 {
    if has_state(m)
        && let Some(k) = m["d"]["hand"].as_u64()
    {
        *last = k;
    }
    *last
}

/// Checks that no client of `game` saw a card it may not see: the
/// spectator only cards played face up, a seat only those and the cards it
/// held itself (this game or the last, as its hand changes at the deal),
/// never before the spectator saw them played; and no token anywhere.
fn assert_game_hides(game: &Game) {
    let held = held(game);
    let played = played(&game.record);
    let none = HashSet::new();
    // What the spectator had been shown by each game and version.
    let mut public: BTreeMap<(u64, u64), HashSet<String>> = BTreeMap::new();
    let mut k = 0;
    for m in &game.spectator {
        let k = game_of(m, &mut k);
        let mut cards = HashSet::new();
        shown(m, &mut cards);
        let face_up = played.get(&k).unwrap_or(&none);
        for c in &cards {
            assert!(
                face_up.contains(c),
                "the spectator sees {c}, not played face up in game {k}: {m}"
            );
        }
        if has_state(m) {
            let hand = m["d"]["view"]["hand"].as_str().unwrap_or("");
            assert!(hand.is_empty(), "the spectator got a hand: {m}");
        }
        let v = m["v"].as_u64().unwrap_or(0);
        public.entry((k, v)).or_default().extend(cards);
    }
    for (name, log) in &game.seats {
        let mut k = 0;
        for m in log {
            let text = m.to_string();
            for token in &game.tokens {
                assert!(!text.contains(token.as_str()), "{name} got a token: {text}");
            }
            let k = game_of(m, &mut k);
            let v = m["v"].as_u64().unwrap_or(0);
            let mine = |j: u64| held.get(&(name.clone(), j)).unwrap_or(&none);
            let mut cards = HashSet::new();
            shown(m, &mut cards);
            for c in &cards {
                let seen_played = public.range((k, 0)..=(k, v)).any(|(_, cs)| cs.contains(c));
                assert!(
                    mine(k).contains(c) || mine(k.saturating_sub(1)).contains(c) || seen_played,
                    "{name} sees {c} in game {k}: neither theirs nor played face up by v{v}: {text}"
                );
            }
            if has_state(m)
                && let Some(hand) = m["d"]["view"]["hand"].as_str()
            {
                for c in cards_in(hand) {
                    assert!(
                        mine(k).contains(&c),
                        "{name}'s hand shows {c}, never theirs in game {k}: {text}"
                    );
                }
            }
        }
    }
}

/// The checker catches a leak: another seat's hand in a seat's STATE, and
/// the exchange's cards shown to a seat that took no part.
fn assert_leaks_are_caught(game: &Game) {
    let caught = |what: &str, tamper: &dyn Fn(&mut Game) -> Option<()>| {
        let mut bad = Game {
            tokens: game.tokens.clone(),
            seats: game.seats.clone(),
            spectator: game.spectator.clone(),
            record: game.record.clone(),
            replay: game.replay.clone(),
        };
        tamper(&mut bad).unwrap_or_else(|| panic!("nothing to tamper with for {what}"));
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| assert_game_hides(&bad)));
        assert!(outcome.is_err(), "the checker missed {what}");
    };
    caught("another seat's hand", &|g| {
        // A card of seat 1's hand in some game that Ada held neither in that
        // game nor the one before (the checker lets a seat see both): shown
        // in Ada's first STATE of that game, before anything is played. A
        // card of Ada's own would be no leak, and a seat's last few cards
        // were, by chance, sometimes all cards Ada had held.
        let truth = held(g);
        let (me, _) = &g.seats[0];
        let mine = |j: u64, c: &String| truth.get(&(me.clone(), j)).is_some_and(|s| s.contains(c));
        let (k, card) = g.seats[1].1.iter().filter(|m| has_state(m)).find_map(|m| {
            let k = m["d"]["hand"].as_u64()?;
            let hand = m["d"]["view"]["hand"].as_str()?;
            let card = cards_in(hand)
                .into_iter()
                .find(|c| !mine(k, c) && !mine(k.saturating_sub(1), c))?;
            Some((k, card))
        })?;
        let (_, log) = &mut g.seats[0];
        let at = log
            .iter()
            .position(|m| has_state(m) && m["d"]["hand"].as_u64() == Some(k))?;
        log[at]["d"]["view"]["log"] = json!([{"event": "note", "cards": card}]);
        Some(())
    });
    caught("a card shown to the spectator before it is played", &|g| {
        let first = g.record["hands"][0]["deal"]
            .as_object()?
            .values()
            .next()?
            .as_str()?
            .to_string();
        let m = g.spectator.iter_mut().find(|m| has_state(m))?;
        m["d"]["dealt"] = json!(first);
        Some(())
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_of_daifugo_and_president_end_check_verify_and_hide_every_card() {
    let server = Server::start(|_| {}).await;
    let (mut gives, mut discards, mut exchanges) = (0, 0, 0);
    let (mut sequences, mut jokers_in_sets) = (0, 0);
    for (humans, bots, hands, rules) in [
        // The contest's Daifugō: sequences, Jokers, revolution, 8-cut,
        // the lock, the exchange of the rich and the poor.
        (
            2,
            vec!["greedy", "heuristic", "random"],
            3,
            json!({"variant": "daifugo"}),
        ),
        // Every house rule on, two Jokers: the cards given on after 7s and
        // discarded after 10s go face down.
        (
            3,
            vec!["greedy", "random"],
            3,
            json!({"variant": "daifugo", "preset": "local_all", "climbing": {"jokers": 2}}),
        ),
        // President as pagat tells it, then with its online table's
        // options.
        (
            2,
            vec!["greedy", "heuristic"],
            3,
            json!({"variant": "president"}),
        ),
        (
            3,
            vec!["random"],
            2,
            json!({"variant": "president", "climbing": {
                "revolution": true, "same_rank_skip": true, "two_clears": true,
                "eleven_back": true, "nine_reverse": true, "seven_pass": true, "ten_discard": true
            }}),
        ),
    ] {
        let game = play_game(&server, humans, &bots, hands, rules.clone()).await;
        // The record read as the engine's own type.
        let record = Record::parse(&game.record.to_string())
            .unwrap_or_else(|e| panic!("the record does not read: {e:?}\n{}", game.record));
        let variant = serde_json::to_value(record.rules.variant).unwrap();
        assert_eq!(variant, rules["variant"], "{}", game.record);
        // The format tag is not kept by the type (it reads both formats):
        // checked on the text as served.
        assert_eq!(game.record["format"], "dalmuti-record/2");
        assert_game_hides(&game);
        assert_leaks_are_caught(&game);
        // Each play as its line (how the engine writes it).
        let lines: Vec<String> = record
            .hands
            .iter()
            .flat_map(|h| h.plays.iter().map(ToString::to_string))
            .collect();
        for line in &lines {
            let (_, play) = line.split_once(": ").unwrap();
            let cards = cards_in(play);
            let ranks: HashSet<&str> = cards
                .iter()
                .filter(|c| *c != "JK")
                .map(|c| &c[..c.len() - 1])
                .collect();
            sequences += usize::from(ranks.len() > 1);
            jokers_in_sets += usize::from(cards.len() > 1 && cards.iter().any(|c| c == "JK"));
        }
        gives += lines.iter().filter(|l| l.contains(": give ")).count();
        discards += lines.iter().filter(|l| l.contains(": discard ")).count();
        // After the first game the rich and the poor exchange cards.
        exchanges += record
            .hands
            .iter()
            .filter(|h| h.tax.as_ref().is_some_and(|t| !t.is_empty()))
            .count();
        // A person decided among the legal actions at least once.
        let (name, log) = &game.seats[0];
        let asked = |m: &Value| {
            let legal = msg_from(m).state().and_then(|s| s.state.legal.clone());
            legal.is_some_and(|l| !l.is_empty())
        };
        assert!(log.iter().any(asked), "{name} was never asked");
    }
    // The cards that change hands face down were there to be hidden, and
    // the people played sequences and Jokers in sets among the legal.
    assert!(
        gives > 0 && discards > 0 && exchanges > 0,
        "{gives} gives, {discards} discards, {exchanges} exchanges"
    );
    assert!(
        sequences > 0 && jokers_in_sets > 0,
        "{sequences} sequences, {jokers_in_sets} sets with a Joker"
    );
    server.stop().await;
}

// ---------------------------------------------------------------------------
// Play now.

/// A request as the player of `secret`.
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

/// Polls `ticket` until it is seated; answers the table.
async fn seated(server: &Server, secret: &str, ticket: &str) -> String {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let path = format!("/api/queue/{ticket}");
        let (status, standing) = as_player(server, "GET", &path, Some(secret), None).await;
        assert_eq!(status, 200, "{standing}");
        if let Standing::Seated { table, .. } = answer::<Standing>(&standing) {
            return table.to_string();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never seated: {standing}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_offers_daifugo_and_president() {
    let server = Server::start(|_| {}).await;
    for (name, game, variant) in [
        ("Ada", "daifugo", Variant::Daifugo),
        ("Bo", "president", Variant::President),
    ] {
        let (status, kept) = as_player(
            &server,
            "POST",
            "/api/players",
            None,
            Some(json!({ "name": name })),
        )
        .await;
        assert_eq!(status, 201, "{kept}");
        let secret = answer::<Registered>(&kept).secret.as_str().to_string();
        let (status, standing) = as_player(
            &server,
            "POST",
            "/api/queue",
            Some(&secret),
            Some(json!({"players": 4, "wait": 0, "game": game})),
        )
        .await;
        assert_eq!(status, 201, "{standing}");
        let ticket = match answer::<Standing>(&standing) {
            Standing::Waiting { ticket, .. } | Standing::Seated { ticket, .. } => ticket,
        };
        let table = seated(&server, &secret, &ticket).await;
        let info = server.table_info(&table).await;
        assert_eq!(info.variant, variant, "{info:?}");
        assert!(info.started, "{info:?}");
        assert_eq!(info.taken.len(), 4, "{info:?}");
        let (status, refused) = as_player(
            &server,
            "POST",
            "/api/queue",
            Some(&secret),
            Some(json!({"players": 9, "wait": 0, "game": game})),
        )
        .await;
        assert_eq!(status, 400, "{refused}");
        assert!(
            error_body(&refused).error.contains("players: 3 to 8"),
            "{refused}"
        );
        let (status, refused) = as_player(
            &server,
            "POST",
            "/api/queue",
            Some(&secret),
            Some(json!({"players": 4, "wait": 0, "game": "uno"})),
        )
        .await;
        assert_eq!(status, 400, "{refused}");
        assert!(
            error_body(&refused).error.contains("daifugo or president"),
            "{refused}"
        );
    }
    // Each game has its own leaderboard.
    for game in ["daifugo", "president"] {
        let path = format!("/api/leaderboard?game={game}&band=3-4");
        let (status, board) = server.http("GET", &path, None, None).await;
        assert_eq!(status, 200, "{board}");
        assert_eq!(answer::<Board>(&board).game, game, "{board}");
    }
    let (status, refused) = server
        .http("GET", "/api/leaderboard?game=uno", None, None)
        .await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        error_body(&refused).error.contains("daifugo or president"),
        "{refused}"
    );
    server.stop().await;
}

/// A table's options are read strictly over HTTP too: the field at fault
/// is named, and nothing is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_bad_options_is_refused_naming_the_field() {
    let server = Server::start(|_| {}).await;
    for (rules, says) in [
        (
            json!({"variant": "daifugo", "climbing": {"jokers": 3}}),
            "rules.climbing.jokers",
        ),
        (
            json!({"variant": "daifugo", "climbing": {"colour": 1}}),
            "colour",
        ),
        (
            json!({"variant": "president", "preset": "chaos"}),
            "rules.preset",
        ),
        (
            json!({"variant": "president", "merchant_exchange": true}),
            "rules.merchant_exchange",
        ),
    ] {
        let (status, refused) = server
            .http(
                "POST",
                "/api/tables",
                None,
                Some(json!({"player": "Ada", "seats": 4, "rules": rules})),
            )
            .await;
        assert_eq!(status, 400, "{rules}: {refused}");
        let error = error_body(&refused).error;
        assert!(error.contains(says), "{rules}: {error}");
    }
    let list = server.lobby("/api/tables").await;
    assert!(list.is_empty(), "{list:?}");
    server.stop().await;
}

/// `GET /api/games` is what the browser's forms are filled from: every game
/// with the table sizes the server seats (the most accepted, one more
/// refused) and, for President and Daifugō, presets whose every option a
/// table may be created with as the form sends them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_offered_are_the_tables_the_server_makes() {
    let server = Server::start(|_| {}).await;
    let (status, offered) = server.http("GET", "/api/games", None, None).await;
    assert_eq!(status, 200, "{offered}");
    let games = answer::<Games>(&offered).games;
    let variants: Vec<Variant> = games.iter().map(|g| g.variant).collect();
    assert_eq!(
        variants,
        [
            Variant::Dalmuti,
            Variant::CorporateShuffle,
            Variant::Daifugo,
            Variant::President
        ]
    );
    let create = |variant: &str, seats: u64, extra: Value| {
        let mut rules = json!({"variant": variant});
        if let (Some(rules), Some(extra)) = (rules.as_object_mut(), extra.as_object()) {
            rules.extend(extra.clone());
        }
        json!({"player": "Ada", "seats": seats, "public": false, "rules": rules})
    };
    for game in &games {
        // The variant as the form sends it: its wire name.
        let variant = serde_json::to_value(game.variant).unwrap();
        let variant = variant.as_str().unwrap();
        let (fewest, most) = (game.fewest as u64, game.most as u64);
        assert_eq!(fewest, 3, "{game:?}");
        for (seats, expected) in [(most, 201), (most + 1, 400), (fewest - 1, 400)] {
            let body = create(variant, seats, json!({}));
            let (status, answer) = server.http("POST", "/api/tables", None, Some(body)).await;
            assert_eq!(status, expected, "{variant} at {seats} seats: {answer}");
        }
        let presets = &game.presets;
        assert_eq!(
            presets.is_empty(),
            !matches!(variant, "daifugo" | "president"),
            "{game:?}"
        );
        for preset in presets {
            let (name, climbing) = (&preset.name, &preset.climbing);
            let extra = json!({"preset": name, "climbing": climbing});
            let (status, answer) = server
                .http("POST", "/api/tables", None, Some(create(variant, 5, extra)))
                .await;
            assert_eq!(status, 201, "{variant} {name}: {answer}");
        }
    }
    let daifugo = &games[2].presets;
    assert_eq!(daifugo[0].name, "uecda");
    assert_eq!(daifugo[0].climbing.lock, Lock::Suit);
    assert!(daifugo[2].climbing.ten_discard);
    assert_eq!(games[3].presets[0].climbing.jokers, 0);
    server.stop().await;
}
