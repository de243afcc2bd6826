//! The server without sockets: the router, the table actor (whole games,
//! refusals, joins and leaves, the grace period, the turn timer, fairness,
//! hidden information) and a restart from the SQLite file. Tests over real
//! WebSockets are in `sockets.rs`.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use dalmuti_core::LogEntry;
use dalmuti_core::wire::Wire;
use dalmuti_core::{Action, DealRng, Decision, Deck, Rules, Seed};
use dalmuti_server::fairness::{FairRecord, Fairness};
use dalmuti_server::http::{AppState, router};
use dalmuti_server::ids::TableId;
use dalmuti_server::names::PlayerName;
use dalmuti_server::protocol::{Described, Seen, ServerMsg, State, TableInfo};
use dalmuti_server::store::{SqliteStore, Store, TableRow};
use dalmuti_server::table::{self, Context, Feed, Speaker, TableHandle, Timings};
use dalmuti_server::token::SeatToken;
use dalmuti_server::{Config, ServerError};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tower::ServiceExt;

/// Deals follow from this seed so every run plays the same hands.
const TEST_SEED: u64 = 5;

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: &str,
) -> (StatusCode, Value) {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn app() -> axum::Router {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    router(AppState::open(store, Config::for_tests()).unwrap())
}

/// An answer read as the server's type: a field renamed or retyped fails
/// here.
fn typed<T: serde::de::DeserializeOwned>(answer: &Value) -> T {
    serde_json::from_value(answer.clone())
        .unwrap_or_else(|e| panic!("an answer that does not read as the server's: {e}: {answer}"))
}

/// The lobby's list, each table read as the server's INFO type.
fn listing(list: &Value) -> Vec<TableInfo> {
    /// The listing's shape.
    #[derive(serde::Deserialize)]
    struct Listing {
        tables: Vec<TableInfo>,
    }
    typed::<Listing>(list).tables
}

/// A refused request's reason, its body read as the server's type.
fn refusal(body: &Value) -> String {
    typed::<dalmuti_server::error::ErrorBody>(body).error
}

#[tokio::test]
async fn lobby_api_and_bad_input() {
    let app = app();
    let (status, created) = call(
        &app,
        "POST",
        "/api/tables",
        None,
        r#"{"name":"Friday","player":"Ada","seats":4}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let host = created["token"].as_str().unwrap().to_string();
    assert_eq!(host.len(), 32);
    let (status, list) = call(&app, "GET", "/api/tables", None, "").await;
    assert_eq!(status, StatusCode::OK);
    let list = listing(&list);
    assert_eq!(list[0].name, "Friday");
    assert_eq!(list[0].taken, ["Ada"]);
    // A private table is not listed, but its link works.
    let (_, private) = call(
        &app,
        "POST",
        "/api/tables",
        None,
        r#"{"name":"Secret","player":"Cy","seats":3,"public":false}"#,
    )
    .await;
    let (_, list) = call(&app, "GET", "/api/tables", None, "").await;
    assert_eq!(listing(&list).len(), 1);
    let (status, info) = call(
        &app,
        "GET",
        &format!("/api/tables/{}", private["id"].as_str().unwrap()),
        None,
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(!typed::<TableInfo>(&info).public);

    let (status, seat) = call(
        &app,
        "POST",
        &format!("/api/tables/{id}/seats"),
        None,
        r#"{"name":"Bo"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let bo = seat["token"].as_str().unwrap().to_string();
    let (status, err) = call(
        &app,
        "POST",
        &format!("/api/tables/{id}/seats"),
        None,
        r#"{"name":"Bo"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(refusal(&err).contains("taken"), "{err}");

    // Only the host adds bots and starts.
    let bots = format!("/api/tables/{id}/bots");
    let (status, _) = call(&app, "POST", &bots, None, r#"{"bot":"greedy"}"#).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, err) = call(&app, "POST", &bots, Some(&bo), r#"{"bot":"greedy"}"#).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(refusal(&err).contains("host"), "{err}");
    let (status, _) = call(&app, "POST", &bots, Some("nope"), r#"{"bot":"greedy"}"#).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = call(
        &app,
        "POST",
        &bots,
        Some(&host),
        r#"{"bot":"cmd:rm -rf /"}"#,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "no external bots over the network"
    );
    // An older client's bot name still seats a bot, at its level.
    let (status, bot) = call(&app, "POST", &bots, Some(&host), r#"{"bot":"greedy"}"#).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(bot["name"], "easy bot 1");
    let (status, _) = call(
        &app,
        "DELETE",
        &format!("/api/tables/{id}/bots/easy%20bot%201"),
        Some(&host),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    // Bo leaves before the start: the seat is free again.
    let (status, _) = call(
        &app,
        "DELETE",
        &format!("/api/tables/{id}/seats"),
        Some(&bo),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let start = format!("/api/tables/{id}/start");
    let (status, err) = call(&app, "POST", &start, Some(&host), "").await;
    assert_eq!(status, StatusCode::CONFLICT, "too few: {err}");
    for _ in 0..3 {
        let (status, _) = call(&app, "POST", &bots, Some(&host), r#"{"bot":"random"}"#).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, err) = call(&app, "POST", &bots, Some(&host), r#"{"bot":"random"}"#).await;
    assert_eq!(status, StatusCode::CONFLICT, "full: {err}");
    let (status, _) = call(&app, "POST", &start, Some(&bo), "").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "Bo left");
    let (status, _) = call(&app, "POST", &start, Some(&host), "").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = call(&app, "GET", &format!("/api/tables/{id}/record"), None, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "no record before the end");
    let (status, _) = call(&app, "GET", &format!("/api/tables/{id}/replay"), None, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "no replay before the end");
    let (status, fair) = call(&app, "GET", &format!("/api/tables/{id}/fairness"), None, "").await;
    assert_eq!(status, StatusCode::OK);
    let fair = typed::<Fairness>(&fair);
    assert_eq!(fair.hands[0].seed, None, "not revealed yet");

    for (body, says) in [
        ("{garbage", "JSON"),
        (r#"{"name":"Two","player":"A","seats":2}"#, "3 to 16"),
        (
            r#"{"name":"X","player":"A","seats":4,"rules":{"scoring":"bogus"}}"#,
            "rules",
        ),
        (
            r#"{"name":"X","player":"A","seats":4,"colour":"red"}"#,
            "colour",
        ),
        (r#"{"name":"\u0007","player":"A","seats":4}"#, "table name"),
        (r#"{"name":"X","player":"","seats":4}"#, "display name"),
        (
            r#"{"name":"X","player":"A","seats":4,"turn_seconds":1}"#,
            "turn_seconds",
        ),
    ] {
        let (status, err) = call(&app, "POST", "/api/tables", None, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(refusal(&err).contains(says), "{body}: {err}");
    }
    let big = format!(
        r#"{{"name":"{}","player":"A","seats":4}}"#,
        "x".repeat(20_000)
    );
    let (status, _) = call(&app, "POST", "/api/tables", None, &big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (status, err) = call(
        &app,
        "POST",
        "/api/tables/nope/seats",
        None,
        r#"{"name":"Bo"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(refusal(&err).contains("no table"));
    let (status, page) = call(&app, "GET", "/", None, "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page, Value::Null, "the client's page is HTML");
}

fn context(store: Arc<dyn Store>, timings: Timings) -> Context {
    Context::new(store, timings)
}

fn fast() -> Timings {
    Timings::for_tests()
}

fn row(seats: usize, rules: Value, turn_seconds: Option<u32>) -> TableRow {
    TableRow {
        id: dalmuti_server::ids::TableId::new(),
        name: "test".into(),
        seats,
        rules: serde_json::from_value(rules).expect("rules"),
        public: true,
        turn_seconds,
        ..TableRow::default()
    }
}

/// A table in memory with a human host (`Human`) and `bots` heuristic
/// bots, not started.
async fn table_with(
    store: Arc<dyn Store>,
    rules: Value,
    bots: usize,
    timings: Timings,
    turn: Option<u32>,
) -> (TableHandle, SeatToken) {
    let table = table::create(context(store, timings), row(bots + 1, rules, turn)).unwrap();
    let token = table.join("Human", None).await.unwrap();
    for _ in 0..bots {
        table.add_bot(&token, "heuristic").await.unwrap();
    }
    (table, token)
}

/// The next message from a feed that `pick` accepts.
///
/// No tokio timeout: under a paused clock tokio skips ahead to the next
/// timer whenever the runtime idles, also while a bot thinks on the
/// blocking pool, so a timeout would fire at once. [`watchdog`] guards
/// against a hang instead.
async fn next(feed: &mut Feed, pick: impl Fn(&ServerMsg) -> bool) -> Arc<ServerMsg> {
    loop {
        let msg = feed.recv().await.expect("the feed closed").to_msg();
        if pick(&msg) {
            return Arc::new(msg);
        }
    }
}

/// Ends the test process if the test holding it hangs for 5 minutes of
/// real time (not tokio's); dropping it calls the dog off.
struct Watchdog(Arc<std::sync::atomic::AtomicBool>);

fn watchdog() -> Watchdog {
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = done.clone();
    std::thread::spawn(move || {
        for _ in 0..300 {
            std::thread::sleep(Duration::from_secs(1));
            if seen.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
        }
        eprintln!("a server test hung for 5 minutes");
        std::process::exit(1);
    });
    Watchdog(done)
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Whether a seat's state asks it something: a decision other than saying
/// ready, which the table makes for everyone when the setup pause ends.
fn asked(m: &ServerMsg) -> bool {
    m.state().is_some_and(|s| asks(&s.state))
}

/// Whether only this seat is left to decide: during setup everyone else is
/// ready; in play it is its turn.
fn alone_to_act(m: &ServerMsg) -> bool {
    let Some(state) = m.state() else { return false };
    let view = state.state.view.as_ref();
    asks(&state.state) && view.is_none_or(|view| view.ready.is_none_or(|r| r + 1 == view.players))
}

/// A message's STATE; panics, naming the message, if it has none.
fn state_of(m: &ServerMsg) -> &State {
    &(m.state())
        .unwrap_or_else(|| panic!("a message without STATE: {}", m.to_text()))
        .state
}

/// Whether a message's STATE says the game is over.
fn over(m: &ServerMsg) -> bool {
    m.state().is_some_and(|s| s.state.game_over)
}

/// The event a message's STATE follows, if any.
fn event_of(m: &ServerMsg) -> Option<&Described> {
    m.state()?.e.as_ref()
}

/// The seat an action was chosen for (by its stand-in bot or the turn
/// timer), if a message follows such an action.
fn auto_act(m: &ServerMsg) -> Option<&PlayerName> {
    match event_of(m)? {
        Described::Act {
            name, auto: true, ..
        } => Some(name),
        _ => None,
    }
}

/// Whether a message follows a deal.
fn dealt(m: &ServerMsg) -> bool {
    matches!(event_of(m), Some(Described::Deal { .. }))
}

/// The hand as a message's STATE shows it, if it does.
fn stage_view(m: &ServerMsg) -> Option<&dalmuti_core::ViewSnapshot> {
    m.state()?.state.view.as_ref()
}

/// The stage of the hand a message's STATE shows (`setup`, `play`,
/// `over`).
fn stage(m: &ServerMsg) -> Option<&str> {
    Some(stage_view(m)?.stage.as_str())
}

fn cards(hand: &str) -> Vec<&str> {
    hand.split_whitespace().collect()
}

/// Whether a seat's STATE asks it something (as [`asked`]), read as the
/// wire's type.
fn asks(state: &State) -> bool {
    (state.decision.as_ref()).is_some_and(|Wire(d)| *d != Decision::Ready)
}

/// Candidate actions for a seat's decision, read from its state alone;
/// the table refuses the illegal ones and the next is tried. In Corporate
/// Shuffle a lead may be a lone Dogbert (as a 10) or the Twirling Wedgie,
/// aimed at each seat in turn.
fn candidates(state: &State) -> Vec<Action> {
    let (Some(view), Some(Wire(decision))) = (&state.view, &state.decision) else {
        return Vec::new();
    };
    let held = cards(view.hand.as_deref().unwrap_or(""));
    let plain: Vec<&str> = held
        .iter()
        .copied()
        .filter(|c| *c != "J" && *c != "D")
        .collect();
    let parse = |s: &str| s.parse().unwrap();
    let set = |s: &str| s.parse::<dalmuti_core::Set>().unwrap();
    match decision {
        // The table says ready for everyone when the setup pause ends.
        Decision::Ready => Vec::new(),
        Decision::Tax { count, .. } => {
            let n = usize::from(*count);
            let mut out = Vec::new();
            if plain.len() >= n {
                out.push(Action::GiveTax(parse(&plain[plain.len() - n..].join(" "))));
                out.push(Action::GiveTax(parse(&plain[..n].join(" "))));
            }
            out.push(Action::GiveTax(parse(&held[..n].join(" "))));
            out
        }
        Decision::ExchangeOffer => vec![Action::DeclineExchange],
        Decision::ExchangeAnswer { .. } => held
            .iter()
            .rev()
            .map(|c| Action::AnswerExchange(c.parse().unwrap()))
            .collect(),
        Decision::Follow { .. } => vec![Action::Pass],
        _ => {
            let mut out = Vec::new();
            // The worst plain card first, the wild cards last.
            let wilds = held.iter().filter(|c| **c == "J" || **c == "D");
            for card in plain.iter().rev().chain(wilds) {
                match *card {
                    "D" => out.push(Action::Play(set("D as 10"))),
                    "T" => {
                        let wedgie = set("T");
                        for seat in (0..view.players).map(dalmuti_core::Seat::new) {
                            out.push(Action::Play(wedgie.with_target(Some(seat)).unwrap()));
                        }
                        out.push(Action::Play(wedgie));
                    }
                    other => out.push(Action::Play(set(other))),
                }
            }
            out
        }
    }
}

/// Plays the human's decisions (read from its own feed, as the wire's
/// types) until `stop` says so or the game is over; returns the last
/// state seen.
async fn play_human(
    table: &TableHandle,
    token: &SeatToken,
    feed: &mut Feed,
    mut last: ServerMsg,
    stop: impl Fn(&State) -> bool,
) -> ServerMsg {
    'outer: loop {
        let state = &last.state().expect("a seat's feed tells STATE").state;
        if state.game_over || stop(state) {
            return last;
        }
        // A Greater Dalmuti asked to place a newcomer takes the lower seat.
        if let Some(place) = &state.place {
            let (name, seat) = (place.name.clone(), place.seats[1]);
            if let Err((e, resync)) = table.place(token, &name, seat, last.v).await {
                assert!(matches!(e, ServerError::Stale { .. }), "{e}");
                last = resync;
                continue 'outer;
            }
        }
        let state = &last.state().expect("a seat's feed tells STATE").state;
        if asks(state) {
            for action in candidates(state) {
                match table.act(token, action, last.v).await {
                    Ok(_) => break,
                    Err((ServerError::Illegal(_), _)) => continue,
                    // The table moved on (a bot acted meanwhile): start
                    // again from the resync.
                    Err((ServerError::Stale { .. }, resync)) => {
                        last = resync;
                        continue 'outer;
                    }
                    Err((e, _)) => panic!("{e}"),
                }
            }
        }
        last = (*next(feed, |m| m.t() == "event" || m.t() == "presence").await).clone();
    }
}

#[tokio::test]
async fn a_whole_game_with_refusals_record_replay_and_fair_deals() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let rules = json!({"hands": 3, "merchant_exchange": true, "scoring": "standard"});
    let (table, token) = table_with(store, rules, 4, fast(), None).await;
    let sub = table.subscribe(Some(&token), 0).await.unwrap();
    let mut feed = sub.feed;
    table
        .start_with_seed(&token, Seed::from(TEST_SEED))
        .await
        .unwrap();
    let first = next(&mut feed, alone_to_act).await;
    // A stranger, a stale event number, an illegal action: each refused,
    // with a resync, and nothing changes.
    let (e, resync) = table
        .act(&SeatToken::from("0".repeat(32)), Action::Pass, first.v)
        .await
        .unwrap_err();
    assert_eq!(e, ServerError::BadToken);
    assert!(
        stage_view(&resync).is_some_and(|v| v.hand.is_none()),
        "a stranger's resync is a spectator's"
    );
    let (e, resync) = table
        .act(&token, Action::Pass, first.v + 5)
        .await
        .unwrap_err();
    assert!(matches!(e, ServerError::Stale { .. }), "{e}");
    assert_eq!((resync.t().as_str(), resync.v), ("resync", first.v));
    let (e, resync) = table
        .act(&token, Action::Play("1 1 1 1 1".parse().unwrap()), first.v)
        .await
        .unwrap_err();
    assert!(matches!(e, ServerError::Illegal(_)), "{e}");
    let error = resync.state().and_then(|s| s.error.as_deref());
    assert!(error.unwrap().contains("illegal"));
    assert_eq!(table.info().await.unwrap().v, first.v, "nothing changed");

    let end = play_human(&table, &token, &mut feed, (*first).clone(), |_| false).await;
    assert_eq!(state_of(&end).hand, 3);
    let info = table.info().await.unwrap();
    assert!(info.over);

    // The record is valid and its fairness data proves every deal.
    let record = table.record().await.unwrap();
    let text = serde_json::to_string(&record).unwrap();
    assert!(
        matches!(
            dalmuti_core::record::check(&text),
            dalmuti_core::record::Checked::Valid(_)
        ),
        "{text}"
    );
    let fairness = &record.fairness;
    assert_eq!(fairness.hands.len(), 3);
    for (k, hand) in fairness.hands.iter().enumerate() {
        let seed: Seed = (hand.seed.as_deref())
            .unwrap_or_else(|| panic!("{fairness:?}"))
            .parse()
            .unwrap();
        let commitment: String = Sha256::digest(seed.0)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(hand.commitment, commitment, "hand {}", k + 1);
    }
    assert_deals_are_their_seeds(&record);
    // The replay shows every hand at every step.
    let replay = table.replay().await.unwrap();
    let frames = &replay.frames;
    assert!(frames.len() > 50);
    assert!(
        matches!(frames[0].e, Described::Deal { .. }),
        "{:?}",
        frames[0].e
    );
    let held: usize = (frames[0].hands.iter()).map(|h| cards(h).len()).sum();
    assert_eq!(held, 80, "the whole deck, dealt");
}

/// The cards a message shows beyond what its viewer may see, if any.
/// Every hand of a served game's record was dealt, under the record's own
/// rules (the variant's deck), from the seed its fairness data reveals.
/// Which seat got which hand is `dalmuti verify`'s to check (see
/// crates/dalmuti/tests/verify.rs); here the hands as a whole must match.
fn assert_deals_are_their_seeds(record: &FairRecord) {
    let rules: &Rules = &record.record.rules;
    for (k, hand) in record.fairness.hands.iter().enumerate() {
        let seed: Seed = hand.seed.as_deref().unwrap().parse().unwrap();
        let n = hand.players;
        let dealt = Deck::for_table(rules, n).deal(n, &mut DealRng::new(seed));
        let mut from_seed: Vec<String> = dalmuti_core::Seat::all(n)
            .map(|s| dealt[s].to_string())
            .collect();
        let mut recorded: Vec<String> = (record.record.hands[k].deal.iter())
            .map(|(_, cards)| cards.to_string())
            .collect();
        from_seed.sort();
        recorded.sort();
        assert_eq!(from_seed, recorded, "hand {}", k + 1);
    }
}

fn check_hidden(msg: &ServerMsg, me: Option<&str>, secrets: &[String]) {
    let text = msg.to_text();
    for secret in secrets {
        assert!(!text.contains(secret.as_str()), "a secret leaked: {text}");
    }
    let Some(state) = msg.state() else { return };
    let Some(view) = &state.state.view else {
        return;
    };
    let seat = view.seat;
    match (me, seat) {
        (None, _) => {
            assert!(
                seat.is_none() && view.hand.is_none(),
                "a spectator sees no hand"
            );
            assert!(state.state.dealt.is_none());
        }
        (Some(_), Some(seat)) => {
            let held = cards(view.hand.as_deref().unwrap()).len();
            assert_eq!(held, view.seats[seat].cards as usize);
        }
        (Some(_), None) => {}
    }
    let party = |a: usize, b: usize| seat.is_some_and(|m| m == a || m == b);
    for entry in &view.log {
        match entry {
            LogEntry::TaxPaid {
                dalmuti,
                peon,
                gift,
                ..
            } => assert_eq!(gift.is_some(), party(*dalmuti, *peon)),
            LogEntry::MerchantExchange {
                offerer,
                partner,
                offered,
                ..
            } => assert_eq!(offered.is_some(), party(*offerer, *partner)),
            _ => {}
        }
    }
    if let Some(Described::Act { name, action, .. }) = &state.e
        && Some(name.as_str()) != me
    {
        let shown = matches!(
            action,
            Seen::Shown(Wire(Action::GiveTax(_) | Action::AnswerExchange(_)))
        );
        assert!(!shown, "another's cards: {action:?}");
    }
}

#[tokio::test]
async fn no_message_shows_a_hidden_card_or_an_unrevealed_seed() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let rules = json!({"hands": 3, "merchant_exchange": true});
    let (table, token) = table_with(store, rules, 5, fast(), None).await;
    let sub = table.subscribe(Some(&token), 0).await.unwrap();
    let mut mine = sub.feed;
    let mut watching = table.subscribe(None, 0).await.unwrap().feed;
    // Everything the human's seat and the spectator receive, kept by
    // tasks reading along (a feed holds only the last 256 messages).
    let keep = |mut feed: Feed| {
        tokio::spawn(async move {
            let mut kept = Vec::new();
            loop {
                match feed.recv().await {
                    Ok(msg) => {
                        let msg = msg.to_msg();
                        let over = over(&msg);
                        kept.push(msg);
                        if over {
                            return kept;
                        }
                    }
                    Err(e) => panic!("the reader fell behind or closed: {e}"),
                }
            }
        })
    };
    let seen = keep(table.subscribe(Some(&token), 0).await.unwrap().feed);
    let watched = keep(std::mem::replace(
        &mut watching,
        table.subscribe(None, 0).await.unwrap().feed,
    ));
    table
        .start_with_seed(&token, Seed::from(TEST_SEED))
        .await
        .unwrap();
    let first = next(&mut mine, asked).await;
    play_human(&table, &token, &mut mine, (*first).clone(), |_| false).await;
    drop(watching);
    let fairness = table.fairness().await.unwrap();
    let seeds: Vec<(usize, String)> = (fairness.hands.iter())
        .map(|h| (h.hand, h.seed.clone().expect("revealed at the end")))
        .collect();
    let mut checked = 0;
    for (kept, me) in [
        (seen.await.unwrap(), Some("Human")),
        (watched.await.unwrap(), None),
    ] {
        for msg in kept {
            // Seeds of hands not over when the message was sent.
            let hand = msg.state().map_or(0, |s| s.state.hand);
            let over = stage(&msg) == Some("over");
            let secrets: Vec<String> = seeds
                .iter()
                .filter(|(k, _)| *k > hand || (*k == hand && !over))
                .map(|(_, s)| s.clone())
                .collect();
            check_hidden(&msg, me, &secrets);
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} messages checked");
}

#[tokio::test]
async fn a_table_survives_a_restart_from_its_file() {
    let dir = std::env::temp_dir().join(format!(
        "dalmuti-server-{}",
        dalmuti_server::ids::TableId::new()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let config = Config {
        data: dir.join("dalmuti.db"),
        ..Config::for_tests()
    };
    let open = || {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&config.data).unwrap());
        AppState::open(store, config.clone()).unwrap()
    };
    let (id, token, before) = {
        let state = open();
        let app = router(state.clone());
        let (_, created) = call(
            &app,
            "POST",
            "/api/tables",
            None,
            r#"{"name":"Kept","player":"Ada","seats":4}"#,
        )
        .await;
        let id = created["id"].as_str().unwrap().to_string();
        let token = SeatToken::from(created["token"].as_str().unwrap());
        for _ in 0..3 {
            call(
                &app,
                "POST",
                &format!("/api/tables/{id}/bots"),
                Some(&token),
                r#"{"bot":"random"}"#,
            )
            .await;
        }
        let table = state.table(&TableId::from(id.as_str())).await.unwrap();
        let sub = table.subscribe(Some(&token), 0).await.unwrap();
        let mut feed = sub.feed;
        call(
            &app,
            "POST",
            &format!("/api/tables/{id}/start"),
            Some(&token),
            "",
        )
        .await;
        let first = (*next(&mut feed, asked).await).clone();
        let last = play_human(&table, &token, &mut feed, first, |d| {
            d.view.as_ref().is_some_and(|v| v.log.len() > 6) && asks(d)
        })
        .await;
        (id, token, last)
    };
    // Everything dropped; reopen the file and rebuild from the log.
    let state = open();
    let table = state.table(&TableId::from(id.as_str())).await.unwrap();
    let after = table.subscribe(Some(&token), before.v).await.unwrap().first;
    assert_eq!(after.t(), "catchup");
    let (after_state, before_state) = (
        after.state().expect("STATE"),
        before.state().expect("STATE"),
    );
    assert_eq!(after_state.missed, Some(Vec::new()), "nothing was missed");
    assert_eq!(after.v, before.v);
    let (a, b) = (&after_state.state, &before_state.state);
    assert_eq!(a.view, b.view, "view after the restart");
    assert_eq!(a.dealt, b.dealt, "dealt after the restart");
    assert_eq!(a.decision, b.decision, "decision after the restart");
    assert_eq!(a.players, b.players, "players after the restart");
    assert_eq!(a.fairness, b.fairness, "fairness after the restart");
    assert_eq!(a.totals, b.totals, "totals after the restart");
    assert!(
        table
            .subscribe(Some(&SeatToken::from("f00d")), 0)
            .await
            .is_err(),
        "a wrong token is refused"
    );
    // And play goes on.
    let mut ok = false;
    for action in candidates(&after.state().unwrap().state) {
        if table.act(&token, action, after.v).await.is_ok() {
            ok = true;
            break;
        }
    }
    assert!(ok, "the human could act after the restart");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_stored_with_old_specs_still_load_and_play_at_the_offered_levels() {
    use dalmuti_server::table::Stored;
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    // A table seated before the levels were fixed: its log names bots by
    // any spec, even ones no longer offered.
    let table = row(5, json!({"hands": 1}), None);
    store.create_table(&table).unwrap();
    let token = dalmuti_server::token::SeatToken::new();
    let hash = dalmuti_server::table::state::hash_hex(&dalmuti_server::store::hash_token(&token));
    let seats = [
        ("Ada", Some(hash), None),
        ("search bot 1", None, Some("search:ms=300")),
        ("search bot 2", None, Some("search:threads=256,ms=600000")),
        ("cmd bot 1", None, Some("cmd:rm -rf /")),
        ("greedy bot 1", None, Some("greedy")),
    ];
    for (v, (name, hash, bot)) in seats.into_iter().enumerate() {
        let event = Stored::Seat {
            name: PlayerName::new(name).unwrap(),
            hash,
            bot: bot.map(str::to_string),
            player: None,
            from: None,
        };
        store.append(&table.id, v as u64 + 1, &event).unwrap();
    }
    let state = AppState::open(store, Config::for_tests()).unwrap();
    let handle = state.table(&table.id).await.expect("the table loaded");
    let sub = handle.subscribe(Some(&token), 0).await.unwrap();
    let bots: Vec<&str> = (state_of(&sub.first).lobby.iter())
        .filter_map(|s| s.bot.as_deref())
        .collect();
    assert_eq!(bots, ["expert", "expert", "normal", "easy"]);
    // And they play: the human passes or plays whatever, the bots answer.
    let mut feed = sub.feed;
    handle.start(&token).await.unwrap();
    let decides = |m: &ServerMsg| m.state().is_some_and(|s| s.state.decision.is_some());
    let mut msg = (*next(&mut feed, |m| decides(m) || over(m)).await).clone();
    let _dog = watchdog();
    while !over(&msg) {
        if decides(&msg) {
            for action in candidates(&msg.state().unwrap().state) {
                if handle.act(&token, action, msg.v).await.is_ok() {
                    break;
                }
            }
        }
        msg = (*next(&mut feed, |m| m.t() == "event").await).clone();
    }
    let info = handle.info().await.unwrap();
    assert!(info.over, "the hand was played to its end");
}

#[tokio::test(start_paused = true)]
async fn a_gone_player_is_played_by_a_bot_after_the_grace_period_and_back_at_once() {
    let _dog = watchdog();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let timings = Timings {
        grace: Duration::from_secs(30),
        bot_delay: Duration::from_millis(100),
        hand_pause: Duration::from_secs(1),
        setup_pause: Duration::from_secs(2),
        ..fast()
    };
    // Two humans and two bots: Bo stays connected, the Human leaves.
    let table = table::create(context(store, timings), row(4, json!({"hands": 2}), None)).unwrap();
    let host = table.join("Human", None).await.unwrap();
    let bo = table.join("Bo", None).await.unwrap();
    for _ in 0..2 {
        table.add_bot(&host, "heuristic").await.unwrap();
    }
    let bo_sub = table.subscribe(Some(&bo), 0).await.unwrap();
    let mut watching = table.subscribe(None, 0).await.unwrap().feed;
    table
        .start_with_seed(&host, Seed::from(TEST_SEED))
        .await
        .unwrap();
    // Bo plays whenever it is his turn.
    let bo_table = table.clone();
    let bo_token = bo.clone();
    tokio::spawn(async move {
        let mut feed = bo_sub.feed;
        let first = (*next(&mut feed, |m| m.t() == "event").await).clone();
        play_human(&bo_table, &bo_token, &mut feed, first, |_| false).await;
    });
    // The Human never connected: the grace period runs from their seat.
    let auto = next(&mut watching, |m| auto_act(m).is_some()).await;
    let name = auto_act(&auto).unwrap().to_string();
    let lobby = &state_of(&auto).lobby;
    let away: Vec<&str> = (lobby.iter())
        .filter(|s| s.away)
        .map(|s| s.name.as_str())
        .collect();
    assert!(away.contains(&name.as_str()), "{name} is away: {lobby:?}");
    assert_eq!(name, "Human");
    // The Human comes back: the seat is theirs again at once.
    let sub = table.subscribe(Some(&host), 0).await.unwrap();
    let me = (state_of(&sub.first).lobby.iter())
        .find(|s| s.name == name.as_str())
        .unwrap()
        .clone();
    assert_eq!((me.away, me.connected), (false, true));
    // They do not act: the table waits for them, however long.
    let mut feed = sub.feed;
    let mut last = sub.first;
    while !asked(&last) {
        last = (*next(&mut feed, |m| m.t() == "event").await).clone();
    }
    // Bo may still finish a decision of his own; then all wait.
    tokio::time::sleep(Duration::from_secs(3600)).await;
    let v = table.info().await.unwrap().v;
    tokio::time::sleep(Duration::from_secs(3600)).await;
    assert_eq!(
        table.info().await.unwrap().v,
        v,
        "nobody played for a returned player"
    );
    let now = table.subscribe(Some(&host), v).await.unwrap().first;
    assert!(
        state_of(&now).decision.is_some(),
        "the table waits for the Human's decision"
    );
}

#[tokio::test(start_paused = true)]
async fn the_turn_timer_plays_one_decision_for_a_slow_player() {
    let _dog = watchdog();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let (table, token) = table_with(store, json!({"hands": 1}), 3, fast(), Some(20)).await;
    let sub = table.subscribe(Some(&token), 0).await.unwrap();
    let mut feed = sub.feed;
    table
        .start_with_seed(&token, Seed::from(TEST_SEED))
        .await
        .unwrap();
    let mine = next(&mut feed, asked).await;
    let deadline = state_of(&mine).deadline_ms.expect("a deadline");
    assert!(deadline <= 20_000 && deadline > 0, "{deadline}");
    let waited = tokio::time::Instant::now();
    let auto = next(&mut feed, |m| auto_act(m).is_some()).await;
    assert_eq!(auto_act(&auto).unwrap(), "Human");
    assert!(
        waited.elapsed() >= Duration::from_millis(deadline),
        "{:?}",
        waited.elapsed()
    );
    let seat = &state_of(&auto).lobby[0];
    assert!(seat.connected && !seat.away, "the seat is still theirs");
}

#[tokio::test]
async fn newcomers_wait_for_the_hand_and_the_greater_dalmuti_places_them() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let rules = json!({"hands": 3});
    // Room for 6: 4 play, then a newcomer and a bot arrive; a bot leaves.
    let table = table::create(context(store, fast()), row(6, rules, None)).unwrap();
    let host = table.join("Human", None).await.unwrap();
    for _ in 0..3 {
        table.add_bot(&host, "normal").await.unwrap();
    }
    let sub = table.subscribe(Some(&host), 0).await.unwrap();
    let mut feed = sub.feed;
    table
        .start_with_seed(&host, Seed::from(TEST_SEED))
        .await
        .unwrap();
    let first = (*next(&mut feed, asked).await).clone();
    let late = table.join("Late", None).await.unwrap();
    table.add_bot(&host, "easy").await.unwrap();
    table
        .remove_bot(&host, &PlayerName::new("normal bot 1").unwrap())
        .await
        .unwrap();
    let info = table.info().await.unwrap();
    assert_eq!(info.hand, 1, "nobody entered mid-hand");
    let (e, _) = table.act(&late, Action::Pass, info.v).await.unwrap_err();
    assert!(
        matches!(e, ServerError::Illegal(_)),
        "a newcomer does not play this hand: {e}"
    );
    // Play to the end of hand 1; whenever the Human must place a
    // newcomer, they choose the second seat offered.
    let mut last = first;
    loop {
        if let Some(place) = &state_of(&last).place {
            let seat = place.seats[1];
            table.place(&host, &place.name, seat, last.v).await.unwrap();
        }
        if state_of(&last).hand == 2 && stage(&last) != Some("over") {
            break;
        }
        last = play_human(&table, &host, &mut feed, last, |d| {
            d.place.is_some() || d.hand == 2
        })
        .await;
        if state_of(&last).place.is_none() && state_of(&last).hand != 2 {
            last = (*next(&mut feed, |_| true).await).clone();
        }
    }
    let players: Vec<&str> = (state_of(&last).players.iter().flatten())
        .map(|p| p.as_str())
        .collect();
    assert_eq!(players.len(), 5, "{players:?}");
    assert!(players.contains(&"Late") && players.contains(&"easy bot 1"));
    assert!(!players.contains(&"normal bot 1"), "left between hands");
    let late = players.iter().position(|p| *p == "Late").unwrap();
    assert!(
        late > 0 && late < players.len() - 1,
        "a newcomer enters halfway down, as a Merchant: {players:?}"
    );
}

#[tokio::test]
async fn a_human_greater_dalmuti_chooses_the_newcomers_seat() {
    let _dog = watchdog();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let table = table::create(context(store, fast()), row(4, json!({"hands": 2}), None)).unwrap();
    let mut tokens = vec![table.join("Ann", None).await.unwrap()];
    for name in ["Bob", "Cid"] {
        tokens.push(table.join(name, None).await.unwrap());
    }
    let mut players = Vec::new();
    for token in &tokens {
        let sub = table.subscribe(Some(token), 0).await.unwrap();
        let (table, token) = (table.clone(), token.clone());
        players.push(tokio::spawn(async move {
            let mut feed = sub.feed;
            let first =
                (*next(&mut feed, |m| m.state().is_some_and(|s| s.state.hand == 1)).await).clone();
            play_human(&table, &token, &mut feed, first, |_| false).await
        }));
    }
    table
        .start_with_seed(&tokens[0], Seed::from(TEST_SEED))
        .await
        .unwrap();
    let eve = table.join("Eve", None).await.unwrap();
    let mut watching = table.subscribe(Some(&eve), 0).await.unwrap().feed;
    // Three players and a newcomer: seat 1 or 2. The Greater Dalmuti (a
    // connected human) is asked and takes the lower one, seat 2.
    let join = next(&mut watching, |m| {
        matches!(event_of(m), Some(Described::Join { .. }))
    })
    .await;
    let Some(Described::Join { name, seat }) = event_of(&join) else {
        unreachable!()
    };
    assert_eq!(name, "Eve");
    assert_eq!(*seat, 2, "the Greater Dalmuti's choice");
    // Eve plays the second hand.
    play_human(&table, &eve, &mut watching, (*join).clone(), |_| false).await;
    for player in players {
        let end = player.await.unwrap();
        assert!(over(&end));
    }
    let record = table.record().await.unwrap().record;
    assert_eq!(record.hands[1].join, [("Eve".to_string(), 2)]);
}

#[tokio::test]
async fn the_deal_says_how_long_the_setup_pause_lasts() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let timings = Timings {
        setup_pause: Duration::from_millis(300),
        ..fast()
    };
    let (table, token) = table_with(store, json!({"hands": 1}), 3, timings, None).await;
    let mut feed = table.subscribe(Some(&token), 0).await.unwrap().feed;
    let mut watching = table.subscribe(None, 0).await.unwrap().feed;
    table
        .start_with_seed(&token, Seed::from(TEST_SEED))
        .await
        .unwrap();
    // Everyone, a spectator too, sees the countdown from the deal on.
    for feed in [&mut feed, &mut watching] {
        let deal = next(feed, dealt).await;
        let left = state_of(&deal).setup_ms.expect("a countdown in the deal");
        assert!(left <= 300 && left > 0, "{left}");
        let playing = next(feed, |m| stage(m) == Some("play")).await;
        assert!(
            state_of(&playing).setup_ms.is_none(),
            "no countdown in play"
        );
    }
}

#[tokio::test]
async fn the_end_of_a_hand_says_when_the_next_is_dealt() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let timings = Timings {
        hand_pause: Duration::from_millis(300),
        ..fast()
    };
    let (table, token) = table_with(store, json!({"hands": 2}), 3, timings, None).await;
    let sub = table.subscribe(Some(&token), 0).await.unwrap();
    let mut feed = sub.feed;
    table
        .start_with_seed(&token, Seed::from(TEST_SEED))
        .await
        .unwrap();
    let first = (*next(&mut feed, |m| m.state().is_some_and(|s| s.state.hand == 1)).await).clone();
    let end = play_human(&table, &token, &mut feed, first, |d| {
        d.view.as_ref().is_some_and(|v| v.stage == "over")
    })
    .await;
    assert_eq!(state_of(&end).hand, 1);
    let left = (state_of(&end).next_deal_ms).expect("a countdown to the next deal");
    assert!(left <= 300, "{left}");
    let deal = next(&mut feed, dealt).await;
    assert_eq!(state_of(&deal).hand, 2);
    assert!(
        state_of(&deal).next_deal_ms.is_none(),
        "no countdown during a hand"
    );
}

// ----- the setup stage tells nobody who holds both Jesters -----

/// Every name in `value` replaced by its seat of play in this hand
/// (`players`), so that messages of different tables compare.
fn by_seat(value: &mut Value, players: &[String]) {
    match value {
        Value::String(s) => {
            if let Some(seat) = players.iter().position(|p| p == s) {
                *s = format!("seat {seat}");
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| by_seat(v, players)),
        Value::Object(map) => map.values_mut().for_each(|v| by_seat(v, players)),
        _ => {}
    }
}

/// A message to lobby seat `me` (or a spectator) without what differs from
/// one table to the next by right: the viewer's own cards (and the cards of
/// its own tax exchange), the table's id and deal commitments, the timers;
/// names become seats of play. What is left must not depend on where the
/// Jesters are.
///
/// As JSON on purpose: the whole message is compared from one table to the
/// next, every field but those taken out, so that a field added later is
/// compared too.
fn shape(msg: &ServerMsg, me: Option<&str>) -> Value {
    let mut d = msg.data();
    let players: Vec<String> = d["players"]
        .as_array()
        .map(|p| p.iter().map(|n| n.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    let object = d.as_object_mut().unwrap();
    // The host is whoever made the table: public, and nothing to do with
    // the cards.
    for key in [
        "table",
        "host",
        "fairness",
        "dealt",
        "setup_ms",
        "deadline_ms",
        "next_deal_ms",
        // A news line's time.
        "at",
    ] {
        object.remove(key);
    }
    // The legal actions are made of the seat's own cards: only their
    // kinds may be compared.
    if let Some(legal) = d.get_mut("legal").filter(|l| l.is_array()) {
        let kinds: std::collections::BTreeSet<String> = legal
            .as_array()
            .unwrap()
            .iter()
            .map(|a| match a {
                Value::Object(o) => o.keys().next().unwrap().clone(),
                other => other.to_string(),
            })
            .collect();
        *legal = json!(kinds);
    }
    if let Some(view) = d["view"].as_object_mut() {
        view.remove("hand");
        if let Some(tax) = view.get_mut("my_tax").and_then(Value::as_object_mut) {
            tax.remove("gave");
            tax.remove("received");
        }
        for entry in view
            .get_mut("log")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let entry = entry.as_object_mut().unwrap();
            entry.remove("gift");
            entry.remove("tribute");
        }
    }
    if let Some(e) = d["e"].as_object_mut() {
        e.remove("commitment");
        if me.is_some() && e.get("name").and_then(Value::as_str) == me {
            e.remove("action");
        }
    }
    by_seat(&mut d, &players);
    if let Some(lobby) = d["lobby"].as_array_mut() {
        lobby.sort_by_key(|seat| seat["name"].to_string());
    }
    json!({ "t": msg.t(), "v": msg.v, "d": d })
}

/// The messages of a feed from the deal up to the first one in play.
fn setup_messages(feed: &mut Feed) -> Vec<ServerMsg> {
    let mut out = Vec::new();
    while let Ok(msg) = feed.try_recv() {
        let msg = msg.to_msg();
        if out.is_empty() && !dealt(&msg) {
            continue;
        }
        let playing = stage(&msg) == Some("play");
        out.push(msg);
        if playing {
            return out;
        }
    }
    panic!("the feed ended before play began: {out:?}");
}

/// Many first hands at tables of five people and a spectator: whoever is
/// dealt both Jesters keeps quiet (they are made ready with everyone, or as
/// a Dalmuti they give their tax), and every message the others and the
/// spectator get, from the deal to the first lead, is the same as in a hand
/// where nobody holds both: the same events, numbers, views and order.
#[tokio::test]
async fn no_message_tells_anyone_else_who_holds_both_jesters() {
    quiet_holders_are_unseen(json!({})).await;
}

/// The same in Corporate Shuffle, whose corporate takeover is called by a
/// player dealt both Dogberts.
#[tokio::test]
async fn no_message_tells_anyone_else_who_holds_both_dogberts() {
    quiet_holders_are_unseen(json!({"variant": "corporate-shuffle"})).await;
}

/// Plays the first hand's setup at 48 tables of `rules` and checks that no
/// one but a holder of both wild cards can tell whether anyone holds them.
async fn quiet_holders_are_unseen(rules: Value) {
    let _dog = watchdog();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let names = ["Ada", "Bo", "Cy", "Di", "Ed"];
    // Seat of play (5: the spectator) → the shapes of its messages.
    let mut seen: Vec<std::collections::BTreeSet<String>> = vec![Default::default(); 6];
    let (mut quiet, mut nobody) = (0, 0);
    for k in 0..48 {
        let table =
            table::create(context(store.clone(), fast()), row(5, rules.clone(), None)).unwrap();
        let mut tokens = Vec::new();
        for name in names {
            tokens.push(table.join(name, None).await.unwrap());
        }
        // Each viewer's feed as sent, and a second copy to drive the test.
        let mut kept = Vec::new();
        let mut driving = Vec::new();
        for token in tokens.iter().map(Some).chain([None]) {
            let feed = table.subscribe(token, 0).await.unwrap().feed;
            driving.push(feed.resubscribe());
            kept.push(feed);
        }
        table
            .start_with_seed(&tokens[0], Seed::from(1000 + k))
            .await
            .unwrap();
        let spectator = &mut driving[5];
        let deal = next(spectator, dealt).await;
        let players: Vec<String> = (state_of(&deal).players.iter().flatten())
            .map(|p| p.to_string())
            .collect();
        // Those who only say ready are made ready at once (no pause here);
        // then the Dalmutis give their worst cards, the Greater first.
        next(spectator, |m| {
            stage_view(m).is_some_and(|v| v.ready == Some(3))
        })
        .await;
        for dalmuti in &players[..2] {
            let i = names.iter().position(|n| n == dalmuti).unwrap();
            let tax = |m: &ServerMsg| match m.state().and_then(|s| s.state.decision.as_ref()) {
                Some(Wire(Decision::Tax { count, .. })) => Some(usize::from(*count)),
                _ => None,
            };
            let mine = next(&mut driving[i], |m| tax(m).is_some()).await;
            let count = tax(&mine).unwrap();
            let view = stage_view(&mine).unwrap();
            let hand: Vec<&str> = view.hand.as_deref().unwrap().split(' ').collect();
            let gift = hand[hand.len() - count..].join(" ").parse().unwrap();
            let v = table.info().await.unwrap().v;
            table
                .act(&tokens[i], Action::GiveTax(gift), v)
                .await
                .unwrap();
        }
        next(&mut driving[5], |m| stage(m) == Some("play")).await;
        // Who held both Jesters: their own first state says so.
        let mut holder = None;
        let mut streams = Vec::new();
        for (i, feed) in kept.iter_mut().enumerate() {
            let messages = setup_messages(feed);
            let (seat, me) = match names.get(i) {
                Some(name) => (players.iter().position(|p| p == name).unwrap(), Some(*name)),
                None => (5, None),
            };
            if stage_view(&messages[0]).is_some_and(|v| v.revolution_offer.is_some()) {
                holder = Some(seat);
            }
            streams.push((seat, messages, me));
        }
        match holder {
            Some(_) => quiet += 1,
            None => nobody += 1,
        }
        for (seat, messages, me) in streams {
            if Some(seat) == holder {
                continue;
            }
            let text: Vec<String> = messages.iter().map(|m| shape(m, me).to_string()).collect();
            seen[seat].insert(text.join("\n"));
        }
    }
    assert!(
        quiet >= 3 && nobody >= 3,
        "{quiet} hands with a holder, {nobody} without"
    );
    for (seat, shapes) in seen.iter().enumerate() {
        assert_eq!(
            shapes.len(),
            1,
            "seat {seat} (5: a spectator) can tell hands apart:\n{}",
            shapes.iter().cloned().collect::<Vec<_>>().join("\n----\n")
        );
    }
}

/// Plays the first hand of `hands` tables (seeds from 2000), a person and
/// four `bot`s, on a paused clock, and checks that the setup (from the deal
/// to the first lead) lasts exactly the look-at-your-cards pause, and that
/// every setup event a spectator sees (the Dalmutis' gifts, everyone
/// ready) comes exactly when the pause ends: the bots' choices are held
/// and told together, so how long one thought (longer, dealt both
/// Jesters) shows nowhere (issue 24, S8). The person here calls no
/// revolution; a bot's call is held and told at the pause's end like any
/// choice. Who held both Jesters in the hands played.
async fn setup_timings(bot: &str, seeds: &[u64]) -> std::collections::BTreeSet<&'static str> {
    let pause = Duration::from_secs(5);
    let timings = Timings {
        bot_delay: Duration::from_millis(300),
        setup_pause: pause,
        ..fast()
    };
    let mut holders = std::collections::BTreeSet::new();
    for &seed in seeds {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let table =
            table::create(context(store, timings), row(5, json!({"hands": 1}), None)).unwrap();
        let token = table.join("Human", None).await.unwrap();
        for _ in 0..4 {
            table.add_bot(&token, bot).await.unwrap();
        }
        let mut feed = table.subscribe(Some(&token), 0).await.unwrap().feed;
        let mut watching = table.subscribe(None, 0).await.unwrap().feed;
        let clock = tokio::spawn(async move {
            let (mut dealt, mut played, mut told) = (None, None, Vec::new());
            while played.is_none() {
                let msg = watching.recv().await.unwrap().to_msg();
                let now = tokio::time::Instant::now();
                if self::dealt(&msg) {
                    dealt = Some(now);
                } else if dealt.is_some() && stage(&msg) == Some("play") {
                    played = Some(now);
                }
                if let Some(dealt) = dealt
                    && let Some(e @ (Described::Act { .. } | Described::Ready)) = event_of(&msg)
                {
                    told.push((now - dealt, e.clone()));
                }
            }
            (played.unwrap() - dealt.unwrap(), told)
        });
        table
            .start_with_seed(&token, Seed::from(seed))
            .await
            .unwrap();
        let first =
            (*next(&mut feed, |m| m.state().is_some_and(|s| s.state.hand == 1)).await).clone();
        play_human(&table, &token, &mut feed, first, |_| false).await;
        let (setup, told) = clock.await.unwrap();
        let record = table.record().await.unwrap().record;
        let hand = &record.hands[0];
        let called = hand.revolution.is_some();
        // A revolution a bot called is told at the pause's end too.
        assert!(called || setup == pause, "seed {seed}: {setup:?}");
        // Everything of the bots' setup told at the pause's end (the
        // play's events come a bot delay later).
        // (The person's own gift goes when they send it.)
        let setup_told: Vec<_> = told
            .iter()
            .filter(|(at, e)| {
                let by_the_person = matches!(e, Described::Act { name, .. } if name == "Human");
                *at <= pause && !by_the_person
            })
            .collect();
        assert!(!setup_told.is_empty(), "seed {seed}: {told:?}");
        for (at, e) in setup_told {
            assert_eq!(*at, pause, "seed {seed}: {e:?} told early");
        }
        let holder = (hand.deal.iter())
            .find(|(_, cards)| cards.to_string().matches('J').count() == 2)
            .map(|(name, _)| {
                if name == "Human" {
                    "the person"
                } else {
                    "a bot"
                }
            });
        holders.insert(holder.unwrap_or("nobody"));
    }
    holders
}

/// The setup lasts the same whoever holds both Jesters: a bot, the person
/// at the table, or nobody.
#[tokio::test(start_paused = true)]
async fn the_setup_lasts_the_pause_whoever_holds_the_jesters() {
    let _dog = watchdog();
    let seeds: Vec<u64> = (2000..2024).collect();
    let holders = setup_timings("greedy", &seeds).await;
    assert_eq!(
        holders.len(),
        3,
        "hands with a bot, the person and nobody holding both Jesters: {holders:?}"
    );
}

/// The same with bots that search their setup choices (and weigh a
/// revolution when dealt both Jesters, which takes them longer): nothing
/// of their thinking time is seen.
#[tokio::test(start_paused = true)]
async fn a_searching_bots_setup_time_is_never_seen() {
    let _dog = watchdog();
    // Seeds where a bot is dealt both Jesters, and one where nobody is.
    let holders = setup_timings("hard", &[2000, 2003, 2015, 2001]).await;
    assert!(
        holders.contains("a bot"),
        "a bot held both Jesters: {holders:?}"
    );
}

// ---------------------------------------------------------------------------
// Corporate Shuffle.

#[tokio::test]
async fn the_variant_is_chosen_when_a_table_is_created_and_checked_against_its_seats() {
    let app = app();
    let create =
        async |body: Value| call(&app, "POST", "/api/tables", None, &body.to_string()).await;
    let cs = json!({"variant": "corporate-shuffle"});
    let (status, created) = create(json!({
        "name": "Office", "player": "Wally", "seats": 8, "rules": cs,
    }))
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let (_, info) = call(&app, "GET", &format!("/api/tables/{id}"), None, "").await;
    let cs_variant = dalmuti_core::Variant::CorporateShuffle;
    assert_eq!(typed::<TableInfo>(&info).variant, cs_variant, "{info}");
    let (_, list) = call(&app, "GET", "/api/tables", None, "").await;
    assert_eq!(listing(&list)[0].variant, cs_variant, "{list}");
    // Each refusal says why, in words a person can act on.
    for (body, says) in [
        (
            json!({"name": "Big", "player": "Wally", "seats": 9, "rules": cs}),
            "Corporate Shuffle seats 3 to 8 players, not 9",
        ),
        (
            json!({"name": "Strip", "player": "Wally", "seats": 5,
                   "rules": {"variant": "corporate-shuffle", "stripped_deck": true}}),
            "never stripped",
        ),
        (
            json!({"name": "Uno", "player": "Wally", "seats": 5, "rules": {"variant": "uno"}}),
            "corporate-shuffle",
        ),
        (
            json!({"name": "Num", "player": "Wally", "seats": 5, "rules": {"variant": 2}}),
            "rules.variant",
        ),
    ] {
        let (status, err) = create(body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        let reason = refusal(&err);
        assert!(reason.contains(says), "{body}: {reason}");
    }
    // Dalmuti is the default, up to 16 seats.
    let (status, created) = create(json!({"name": "Court", "player": "Ada", "seats": 16})).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let (_, info) = call(&app, "GET", &format!("/api/tables/{id}"), None, "").await;
    // As JSON: INFO read as its type takes a missing `variant` for
    // Dalmuti (summaries stored before there were variants), so only the
    // JSON shows that INFO names the default.
    assert_eq!(info["variant"], "dalmuti", "{info}");
    let (_, list) = call(&app, "GET", "/api/tables", None, "").await;
    assert_eq!(listing(&list).len(), 2, "the refused were not made");
}

/// Every group of cards a spectator is shown is a set someone played (or
/// a draw card): no hand, dealt or held, in any message.
fn assert_spectator_sees_no_hand(msg: &ServerMsg) {
    fn strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::String(s) => out.push(s),
            Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
            Value::Object(o) => o.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    let data = msg.data();
    strings(&data, &mut all);
    for s in all {
        let is_cards = s
            .parse::<dalmuti_core::Cards>()
            .is_ok_and(|c| !c.is_empty());
        if is_cards {
            assert!(
                s.parse::<dalmuti_core::Set>().is_ok(),
                "the spectator was shown {s:?}, not a played set: {}",
                msg.to_text()
            );
        }
    }
}

/// A Corporate Shuffle game at a fixed seed where the human leads holding
/// the Twirling Wedgie and Ratbert goes back to a trick's winner: the
/// specials' refusals, their events, what everyone sees of them, the
/// record and the fair deals.
#[tokio::test]
async fn a_corporate_shuffle_game_with_its_specials_refusals_record_and_fair_deals() {
    let _dog = watchdog();
    let holds = |d: &State, card: &str| {
        (d.view.as_ref().and_then(|v| v.hand.as_deref())).is_some_and(|h| cards(h).contains(&card))
    };
    let mut found = false;
    // Seeds are tried in order until one brings both specials: the first
    // such seed is the same on every run (bots and deals are seeded). The
    // bots rarely let Ratbert come back, so the search starts at the first
    // seed that shows everything with today's bots (183); if the bots
    // change, it goes on to the next.
    for seed in 183..=400u64 {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let rules = json!({"variant": "corporate-shuffle", "hands": 3, "scoring": "standard"});
        let (table, token) = table_with(store, rules, 3, fast(), None).await;
        let mut mine = table.subscribe(Some(&token), 0).await.unwrap().feed;
        let mut watching = table.subscribe(None, 0).await.unwrap().feed;
        let watched = tokio::spawn(async move {
            let mut kept = Vec::new();
            loop {
                let msg = watching
                    .recv()
                    .await
                    .expect("the spectator keeps up")
                    .to_msg();
                let over = over(&msg);
                kept.push(msg);
                if over {
                    return kept;
                }
            }
        });
        table
            .start_with_seed(&token, Seed::from(seed))
            .await
            .unwrap();
        let first = next(&mut mine, asked).await;
        // Everyone still holds cards, so the Wedgie's target has someone
        // left to sit out the trick for.
        let everyone_holds =
            |d: &State| (d.view.as_ref()).is_some_and(|v| v.seats.iter().all(|s| s.cards > 0));
        let leads_wedgie = |d: &State| {
            matches!(d.decision, Some(Wire(Decision::Lead)))
                && holds(d, "T")
                && d.hand == 1
                && everyone_holds(d)
        };
        let last = play_human(&table, &token, &mut mine, (*first).clone(), leads_wedgie).await;
        if over(&last) || !leads_wedgie(state_of(&last)) {
            watched.abort();
            continue;
        }
        let v = last.v;
        let view = state_of(&last).view.as_ref().unwrap();
        let me = view.seat.unwrap();
        let players = view.players;
        let wedgie: dalmuti_core::Set = "T".parse().unwrap();
        let aimed = |seat: usize| {
            Action::Play(
                wedgie
                    .with_target(Some(dalmuti_core::Seat::new(seat)))
                    .unwrap(),
            )
        };
        // A Wedgie naming its own player, or no one, is refused: error and
        // resync, nothing changes.
        for (action, says) in [
            (aimed(me), "cannot name"),
            (Action::Play(wedgie), "must name another player"),
        ] {
            let (e, resync) = table.act(&token, action, v).await.unwrap_err();
            assert!(matches!(e, ServerError::Illegal(_)), "{e}");
            assert!(e.to_string().contains(says), "{e}");
            assert_eq!((resync.t().as_str(), resync.v), ("resync", v));
            let error = resync.state().and_then(|s| s.error.as_deref());
            assert!(error.unwrap().contains(says));
        }
        assert_eq!(table.info().await.unwrap().v, v, "nothing changed");
        // Aimed at the next player: everyone sees whom it makes pass.
        let target = (me + 1) % players;
        assert_eq!(table.act(&token, aimed(target), v).await, Ok(v + 1));
        let played = next(&mut mine, |m| m.v == v + 1).await;
        let Some(Described::Act { action, .. }) = event_of(&played) else {
            panic!("not an action: {played:?}")
        };
        assert_eq!(action, &Seen::Shown(Wire(aimed(target))));
        let view = state_of(&played).view.as_ref().unwrap();
        let wedged = LogEntry::Played {
            seat: me,
            set: "T".into(),
            wedgie: Some(target),
        };
        assert!(view.log.contains(&wedged), "{:?}", view.log);
        assert!(!holds(state_of(&played), "T"), "the Wedgie left the hand");
        assert_eq!(view.wedged, Some(target));
        let end = play_human(&table, &token, &mut mine, (*played).clone(), |_| false).await;
        assert!(over(&end));
        let watched = watched.await.unwrap();
        // The spectator saw the Wedgie's target and, at least once, Ratbert
        // go back to a trick's winner; never a hand.
        assert!(
            watched
                .iter()
                .any(|m| m.v == v + 1 && stage_view(m).is_some_and(|v| v.wedged == Some(target)))
        );
        for msg in &watched {
            check_hidden(msg, None, &[]);
            assert_spectator_sees_no_hand(msg);
        }
        let ratbert_taken = watched.iter().any(|m| {
            stage_view(m)
                .is_some_and(|v| (v.log.iter()).any(|e| matches!(e, LogEntry::RatbertTaken { .. })))
        });
        if !ratbert_taken {
            continue;
        }

        // The record checks, says which game it is and where the Wedgie
        // went; every deal is the 60-card deck's, from its seed.
        let record = table.record().await.unwrap();
        let text = serde_json::to_string(&record).unwrap();
        assert!(
            matches!(
                dalmuti_core::record::check(&text),
                dalmuti_core::record::Checked::Valid(_)
            ),
            "{text}"
        );
        let rules = &record.record.rules;
        assert_eq!(rules.variant, dalmuti_core::Variant::CorporateShuffle);
        assert!(text.contains(" wedgie "), "{text}");
        assert_deals_are_their_seeds(&record);
        let replay = table.replay().await.unwrap();
        let held: usize = (replay.frames[0].hands.iter())
            .map(|h| cards(h).len())
            .sum();
        assert_eq!(held, 60, "the whole deck, dealt");
        found = true;
        break;
    }
    assert!(
        found,
        "no seed from 183 to 400 had the human lead holding the Wedgie and Ratbert taken back"
    );
}

#[tokio::test]
async fn a_table_keeps_the_last_fifty_chat_lines_and_says_hello_with_them() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let (table, token) = table_with(store.clone(), json!({}), 2, fast(), None).await;
    // Sixty voices (one seat may say only a few lines at once).
    table.set_spectator_chat(&token, true).await.unwrap();
    for i in 0..60u8 {
        let line = format!("line {i}");
        let watcher = Speaker::Spectator {
            name: Some(PlayerName::new(&format!("watcher {i}")).unwrap()),
            from: std::net::IpAddr::from([10, 0, 0, i]),
        };
        table.chat(watcher, &line).await.unwrap();
    }
    let first = table.subscribe(Some(&token), 0).await.unwrap().first;
    let chat = first.state().expect("STATE").chat.as_deref().unwrap();
    assert_eq!(chat.len(), 50);
    assert_eq!(chat[0].text, "line 10");
    assert_eq!(chat[49].text, "line 59");
    // The news (three seats, spectators' chat allowed) is kept apart:
    // chat does not push it out.
    assert_eq!(
        first.state().expect("STATE").news.as_deref().unwrap().len(),
        4
    );
    // A wrong token says nothing.
    let e = table
        .chat(
            Speaker::Seat {
                token: "nobody".into(),
                from: [127, 0, 0, 1].into(),
            },
            "hi",
        )
        .await
        .unwrap_err();
    assert_eq!(e, ServerError::BadToken);
}

/// What a test's log subscriber wrote, shared with the subscriber.
#[derive(Clone, Default)]
struct Logs(Arc<std::sync::Mutex<Vec<u8>>>);

thread_local! {
    /// Where this thread's logs go, while a test captures them.
    static CAPTURED: std::cell::RefCell<Option<Logs>> = const { std::cell::RefCell::new(None) };
}

/// Writes a log line to the emitting thread's [`Logs`], if it has one.
struct ThreadLogs;

impl std::io::Write for ThreadLogs {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURED.with(|logs| {
            if let Some(logs) = logs.borrow().as_ref() {
                logs.0
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend_from_slice(bytes);
            }
        });
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Stops a thread's capture when dropped.
struct Capturing;

impl Drop for Capturing {
    fn drop(&mut self) {
        CAPTURED.with(|logs| *logs.borrow_mut() = None);
    }
}

impl Logs {
    /// Captures every log of this thread (the test's runtime, where the
    /// tables run), down to debug, until the guard is dropped.
    ///
    /// One global subscriber that sorts lines by thread, not a scoped one
    /// per test: tracing caches whether a log site is wanted, and a scoped
    /// subscriber set while another test's thread logs may find it cached
    /// as unwanted.
    fn capture(&self) -> Capturing {
        static INSTALL: std::sync::Once = std::sync::Once::new();
        INSTALL.call_once(|| {
            let subscriber = tracing_subscriber::fmt()
                .with_writer(|| ThreadLogs)
                .with_ansi(false)
                .with_max_level(tracing::Level::DEBUG)
                .finish();
            tracing::subscriber::set_global_default(subscriber).expect("the only subscriber");
        });
        CAPTURED.with(|logs| *logs.borrow_mut() = Some(self.clone()));
        Capturing
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// The body of a GET as text.
async fn text(app: &axum::Router, uri: &str) -> (StatusCode, String) {
    let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// The value of sample `name` (labels included, as written) in metrics.
fn sample(metrics: &str, name: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no sample {name} in:\n{metrics}"))
}

/// A one-hand game made and started through the router, its human played
/// to the end (after saying "my hand is all Jesters" in the chat); the
/// table's id and the human's token.
async fn a_game_through_the_router(app: &axum::Router, state: &AppState) -> (String, SeatToken) {
    let (status, created) = call(
        app,
        "POST",
        "/api/tables",
        None,
        r#"{"player":"Ada","seats":4,"hands":1}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = SeatToken::from(created["token"].as_str().unwrap());
    for _ in 0..3 {
        let path = format!("/api/tables/{id}/bots");
        let (status, _) = call(app, "POST", &path, Some(&token), r#"{"bot":"normal"}"#).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let table = state.table(&TableId::from(id.as_str())).await.unwrap();
    let sub = table.subscribe(Some(&token), 0).await.unwrap();
    let mut feed = sub.feed;
    table
        .chat(
            Speaker::Seat {
                token: token.as_str().into(),
                from: [127, 0, 0, 1].into(),
            },
            "my hand is all Jesters",
        )
        .await
        .unwrap();
    let path = format!("/api/tables/{id}/start");
    assert_eq!(
        call(app, "POST", &path, Some(&token), "").await.0,
        StatusCode::NO_CONTENT
    );
    let end = play_human(&table, &token, &mut feed, sub.first, |_| false).await;
    assert!(over(&end));
    (id, token)
}

#[tokio::test]
async fn a_game_shows_in_the_metrics_without_a_series_per_table() {
    let _dog = watchdog();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let state = AppState::open(store.clone(), Config::for_tests()).unwrap();
    let app = router(state.clone());
    let (id, _) = a_game_through_the_router(&app, &state).await;

    let (status, metrics) = text(&app, "/metrics").await;
    assert_eq!(status, StatusCode::OK);
    let actions = sample(&metrics, "dalmuti_actions_total");
    assert!(actions > 0.0, "{metrics}");
    // Every action's broadcast is timed, the store's write included.
    assert_eq!(
        sample(&metrics, "dalmuti_action_broadcast_seconds_count"),
        actions
    );
    assert!(sample(&metrics, "dalmuti_action_broadcast_seconds_sum") > 0.0);
    assert_eq!(
        sample(
            &metrics,
            "dalmuti_action_broadcast_seconds_bucket{le=\"+Inf\"}"
        ),
        actions
    );
    assert_eq!(sample(&metrics, "dalmuti_tables"), 1.0, "the game lingers");
    assert_eq!(
        sample(&metrics, "dalmuti_seats"),
        1.0,
        "Ada; bots are not people"
    );
    assert_eq!(
        sample(&metrics, "dalmuti_store_seconds_count{op=\"create\"}"),
        1.0
    );
    assert!(sample(&metrics, "dalmuti_store_seconds_count{op=\"append\"}") > 0.0);
    assert!(sample(&metrics, "dalmuti_store_seconds_count{op=\"talk\"}") > 0.0);
    assert!(!metrics.contains(&id), "no series names a table: {metrics}");

    // Another node on the same database loads the table: a replay.
    let again = AppState::open(store, Config::for_tests()).unwrap();
    let (_, metrics) = text(&router(again.clone()), "/metrics").await;
    assert_eq!(
        sample(&metrics, "dalmuti_store_seconds_count{op=\"replay\"}"),
        1.0
    );
    assert_eq!(sample(&metrics, "dalmuti_tables"), 1.0);
    assert_eq!(
        sample(&metrics, "dalmuti_actions_total"),
        0.0,
        "its own counts"
    );
}

#[tokio::test]
async fn the_logs_of_a_game_name_its_table_and_never_a_secret() {
    let _dog = watchdog();
    let logs = Logs::default();
    let _capture = logs.capture();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let state = AppState::open(store.clone(), Config::for_tests()).unwrap();
    let app = router(state.clone());
    let (id, token) = a_game_through_the_router(&app, &state).await;
    let (_, record) = call(&app, "GET", &format!("/api/tables/{id}/record"), None, "").await;
    let _again = AppState::open(store, Config::for_tests()).unwrap();

    let said = logs.text();
    for what in [
        "table created",
        "game started",
        "game over",
        "table loaded from its log",
    ] {
        let line = said
            .lines()
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no {what:?} in:\n{said}"));
        assert!(line.contains(&format!("table={id}")), "{line}");
    }
    // The actor's own logs are in the table's span.
    assert!(said.contains(&format!("table{{table={id}}}")), "{said}");
    // Never a token, its hash, a seed before or after it is shown, or
    // what someone said.
    let hash: String = Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut secrets = vec![token.as_str().to_string(), hash, "all Jesters".to_string()];
    /// The record's fairness data, as the server writes it.
    #[derive(serde::Deserialize)]
    struct Fair {
        fairness: Fairness,
    }
    let fairness = typed::<Fair>(&record).fairness;
    for hand in &fairness.hands {
        secrets.push(hand.seed.clone().unwrap());
    }
    secrets.extend(fairness.draw_seed);
    assert!(secrets.len() >= 4, "{record}");
    for secret in &secrets {
        assert!(
            !said.contains(secret.as_str()),
            "{secret} is in the logs:\n{said}"
        );
    }
}
